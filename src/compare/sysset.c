/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Settings go through tune's apply driver (tune/apply.h) and its journal
 * (tune/journal.h): every old value is on disk (fsync'd) before the new one is written, so a crash
 * or kill -9 during a run leaves a record that the next `perflab compare` (or `perflab tune
 * rollback`) undoes. */
#include "compare/sysset.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune/apply.h"
#include "tune/journal.h"
#include "tune/safepath.h"
#include "tune/value.h"
#include "util/cleanup.h"
#include "util/str.h"
#include "util/sysroot.h"

/* Entries of a compare are tagged "compare:VARIANT". */
#define WHO_PREFIX "compare:"

struct pl_cmp_sys {
	struct pl_journal *j;
	struct pl_tune_apply a; /* the driver; its mark is the last step before the current
				   variant's values */
};

char *pl_cmp_sys_read(const char *path)
{
	pl_autofree char *raw = NULL;
	if (pl_read_file(path, &raw, NULL) < 0)
		return NULL;
	return pl_tune_value_current(raw);
}

/* Undo what an earlier compare left live (it crashed or was killed mid-run), when those
 * entries are the newest ones; anything else is left to `perflab tune rollback`. */
static int recover(struct pl_journal *j, size_t *restored, char *err, size_t errlen)
{
	int r = pl_journal_recover(j, WHO_PREFIX, restored);
	if (r == -EBUSY)
		pl_cmp_seterr(err, errlen,
			      "the journal %s holds settings of an interrupted compare below "
			      "newer changes: run 'perflab tune rollback' first",
			      pl_journal_path(j));
	else if (r < 0)
		pl_cmp_seterr(err, errlen,
			      "cannot restore the settings an interrupted compare left "
			      "(journal %s): %s",
			      pl_journal_path(j), strerror(-r));
	return r;
}

int pl_cmp_sys_check(struct pl_cmp_experiment *e, char *err, size_t errlen)
{
	for (size_t i = 0; i < e->n; i++) {
		struct pl_cmp_variant *v = &e->v[i];
		for (size_t k = 0; k < v->nsettings; k++) {
			struct pl_cmp_setting *st = &v->settings[k];
			char why[512], *canon;
			int r = pl_tune_value_check(st->path, st->value, &canon, why, sizeof(why));
			if (r < 0) {
				pl_cmp_seterr(err, errlen, "variant '%s': %s=%s: %s%s", v->name,
					      st->key, st->value, r == -EINVAL ? "value " : "",
					      why);
				return r == -EINVAL ? r : -EPERM;
			}
			free(st->value);
			st->value = canon;
		}
	}
	return 0;
}

int pl_cmp_sys_open(const char *state_dir, struct pl_cmp_sys **out, size_t *recovered, char *err,
		    size_t errlen)
{
	*recovered = 0;
	if (!pl_sysroot_is_live()) {
		pl_cmp_seterr(
			err, errlen,
			"sysctl/sysfs variants change the live system: run without --sysroot");
		return -EROFS;
	}
	struct pl_journal *j;
	char why[768] = "";
	int r = pl_journal_open_why(state_dir, PL_JOURNAL_WRITE, &j, why, sizeof(why));
	if (r < 0) {
		const char *dir = state_dir ? state_dir : PL_JOURNAL_DEFAULT_DIR;
		if (r == -EBADMSG)
			pl_cmp_seterr(err, errlen,
				      "%s: the journal is damaged; inspect it by hand "
				      "(nothing was changed)",
				      why);
		else if (r == -EBUSY)
			pl_cmp_seterr(err, errlen,
				      "another perflab holds the journal in %s (wait for it)", dir);
		else
			pl_cmp_seterr(err, errlen, "cannot open the journal in %s: %s%s", dir,
				      strerror(-r),
				      r == -EACCES || r == -EPERM
					      ? " (run as root, or --state-dir DIR)"
					      : "");
		return r;
	}
	r = recover(j, recovered, err, errlen);
	if (r < 0) {
		pl_journal_close(j);
		return r;
	}
	*out = pl_xcalloc(1, sizeof(**out));
	(*out)->j = j;
	(*out)->a = (struct pl_tune_apply){ .j = j };
	return 0;
}

/* The reason of a failed setting, for pl_cmp_sys_apply's @err. */
static void apply_error(const struct pl_cmp_variant *v, const struct pl_cmp_setting *st,
			const struct pl_tune_result *res, char *err, size_t errlen)
{
	int r = res->error;
	if (res->outcome == PL_TUNE_FAILED) {
		pl_cmp_seterr(err, errlen, "variant '%s': cannot set %s (%s): %s%s", v->name,
			      st->key, st->path,
			      r == -ENOENT ? "no such setting on this kernel"
					   : pl_tune_path_strerror(r),
			      r == -EACCES || r == -EPERM ? " (run as root)" : "");
	} else if (res->outcome == PL_TUNE_REFUSED) {
		pl_cmp_seterr(err, errlen, "variant '%s': the kernel refused %s=%s: %s", v->name,
			      st->key, st->value, strerror(r ? -r : EINVAL));
	} else {
		/* A clamped value or a triple taken in part: the runs would not measure what
		 * the variant says. */
		pl_autofree char *kept = pl_tune_value_norm(res->accepted ? res->accepted : "?");
		pl_cmp_seterr(err, errlen,
			      "variant '%s': the kernel kept '%s' for %s when '%s' was written "
			      "(rounded, clamped or taken in part): give a value it keeps",
			      v->name, kept, st->key, st->value);
	}
}

int pl_cmp_sys_apply(struct pl_cmp_sys *s, const struct pl_cmp_variant *v, char *err, size_t errlen)
{
	pl_autofree char *who = pl_xasprintf(WHO_PREFIX "%s", v->name);
	pl_autofree struct pl_tune_setting *set = pl_xcalloc(v->nsettings + 1, sizeof(*set));
	pl_autofree struct pl_tune_result *res = pl_xcalloc(v->nsettings + 1, sizeof(*res));
	for (size_t i = 0; i < v->nsettings; i++)
		set[i] = (struct pl_tune_setting){ v->settings[i].path, v->settings[i].value };
	s->a.who = who;
	/* On a failure the driver has rolled back what it wrote. */
	int r = pl_tune_apply_run(&s->a, set, v->nsettings, res);
	s->a.who = NULL;
	for (size_t i = 0; r < 0 && i < v->nsettings; i++)
		if (res[i].outcome >= PL_TUNE_KEPT)
			apply_error(v, &v->settings[i], &res[i], err, errlen);
	pl_tune_results_free(res, v->nsettings);
	return r;
}

int pl_cmp_sys_restore(struct pl_cmp_sys *s, char *err, size_t errlen)
{
	if (!s)
		return 0;
	int r = pl_tune_apply_restore(&s->a);
	if (r < 0)
		pl_cmp_seterr(err, errlen,
			      "cannot restore the settings (journal %s): %s; run "
			      "'perflab tune rollback'",
			      pl_journal_path(s->j), strerror(-r));
	return r;
}

void pl_cmp_sys_close(struct pl_cmp_sys *s)
{
	if (!s)
		return;
	pl_cmp_sys_restore(s, NULL, 0);
	pl_journal_close(s->j);
	free(s);
}

struct pl_cmp_original *pl_cmp_originals_read(const struct pl_cmp_experiment *e, size_t *n)
{
	struct pl_cmp_original *o = NULL;
	*n = 0;
	for (size_t v = 0; v < e->n; v++)
		for (size_t k = 0; k < e->v[v].nsettings; k++) {
			const struct pl_cmp_setting *st = &e->v[v].settings[k];
			bool seen = false;
			for (size_t i = 0; i < *n && !seen; i++)
				seen = strcmp(o[i].path, st->path) == 0;
			if (seen)
				continue;
			o = pl_xrealloc(o, (*n + 1) * sizeof(*o));
			o[(*n)++] = (struct pl_cmp_original){ st->key, st->path,
							      pl_cmp_sys_read(st->path), NULL };
		}
	return o;
}

void pl_cmp_originals_reread(struct pl_cmp_original *o, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(o[i].after);
		o[i].after = pl_cmp_sys_read(o[i].path);
	}
}

void pl_cmp_originals_free(struct pl_cmp_original *o, size_t n)
{
	for (size_t i = 0; o && i < n; i++) {
		free(o[i].before);
		free(o[i].after);
	}
	free(o);
}
