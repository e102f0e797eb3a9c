/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Settings go through the tune journal (tune/journal.h): every old value is on disk
 * (fsync'd) before the new one is written, so a crash or kill -9 during a run leaves a
 * record that the next `perflab compare` (or `perflab tune rollback`) undoes. */
#include "compare/sysset.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune/journal.h"
#include "tune/safepath.h"
#include "tune/value.h"
#include "util/str.h"
#include "util/sysroot.h"

/* Entries of a compare are tagged "compare:VARIANT". */
#define WHO_PREFIX "compare:"

struct pl_cmp_sys {
	struct pl_journal *j;
	unsigned long mark; /* last step before the current variant's values */
	bool applied;
};

char *pl_cmp_sys_read(const char *path)
{
	char *raw;
	if (pl_read_file(path, &raw, NULL) < 0)
		return NULL;
	char *v = pl_tune_value_current(raw);
	free(raw);
	return v;
}

/* Undo what an earlier compare left live (it crashed or was killed mid-run), when those
 * entries are the newest ones; anything else is left to `perflab tune rollback`. */
static int recover(struct pl_journal *j, size_t *restored, char *err, size_t errlen)
{
	size_t n;
	const struct pl_journal_entry *e = pl_journal_entries(j, &n);
	unsigned long first = 0;
	*restored = 0;
	for (size_t i = 0; i < n; i++)
		if (!e[i].undone && pl_startswith(e[i].profile, WHO_PREFIX) &&
		    (first == 0 || e[i].step < first))
			first = e[i].step;
	if (first == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!e[i].undone && e[i].step > first && !pl_startswith(e[i].profile, WHO_PREFIX)) {
			pl_cmp_seterr(err, errlen,
				      "the journal %s holds settings of an interrupted compare below "
				      "newer tune changes: run 'perflab tune rollback' first",
				      pl_journal_path(j));
			return -EBUSY;
		}
	for (size_t i = 0; i < n; i++)
		*restored += !e[i].undone && e[i].step >= first;
	int r = pl_journal_rollback(j, first - 1, NULL, NULL);
	if (r < 0)
		pl_cmp_seterr(err, errlen, "cannot restore the settings an interrupted compare left "
			      "(journal %s): %s", pl_journal_path(j), strerror(-r));
	return r;
}

int pl_cmp_sys_open(const char *state_dir, struct pl_cmp_sys **out, size_t *recovered,
		    char *err, size_t errlen)
{
	*recovered = 0;
	if (!pl_sysroot_is_live()) {
		pl_cmp_seterr(err, errlen,
			      "sysctl/sysfs variants change the live system: run without --sysroot");
		return -EROFS;
	}
	struct pl_journal *j;
	int r = pl_journal_open(state_dir, PL_JOURNAL_WRITE, &j);
	if (r < 0) {
		const char *dir = state_dir ? state_dir : PL_JOURNAL_DEFAULT_DIR;
		if (r == -EBUSY)
			pl_cmp_seterr(err, errlen, "another perflab holds the journal in %s (wait for it)",
				      dir);
		else
			pl_cmp_seterr(err, errlen, "cannot open the journal in %s: %s%s", dir,
				      strerror(-r),
				      r == -EACCES || r == -EPERM ? " (run as root, or --state-dir DIR)" :
								    "");
		return r;
	}
	r = recover(j, recovered, err, errlen);
	if (r < 0) {
		pl_journal_close(j);
		return r;
	}
	*out = pl_xcalloc(1, sizeof(**out));
	(*out)->j = j;
	return 0;
}

int pl_cmp_sys_apply(struct pl_cmp_sys *s, const struct pl_cmp_variant *v, char *err,
		     size_t errlen)
{
	if (!s->applied) {
		s->mark = pl_journal_last_step(s->j);
		s->applied = true;
	}
	char *who = pl_xasprintf(WHO_PREFIX "%s", v->name);
	int r = 0;
	for (size_t i = 0; i < v->nsettings && r == 0; i++) {
		const struct pl_cmp_setting *st = &v->settings[i];
		const struct pl_journal_entry *e = NULL;
		r = pl_journal_write(s->j, st->path, st->value, who, &e);
		if (r < 0) {
			pl_cmp_seterr(err, errlen, "variant '%s': cannot set %s (%s): %s%s", v->name,
				      st->key, st->path,
				      r == -ENOENT ? "no such setting on this kernel" :
						     pl_tune_path_strerror(r),
				      r == -EACCES || r == -EPERM ? " (run as root)" : "");
		} else if (e && e->status == PL_JS_REFUSED) {
			r = e->error ? -e->error : -EINVAL;
			pl_cmp_seterr(err, errlen, "variant '%s': the kernel refused %s=%s: %s", v->name,
				      st->key, st->value, strerror(-r));
		}
	}
	free(who);
	if (r < 0)
		pl_cmp_sys_restore(s, NULL, 0);
	return r;
}

int pl_cmp_sys_restore(struct pl_cmp_sys *s, char *err, size_t errlen)
{
	if (!s || !s->applied)
		return 0;
	int r = pl_journal_rollback(s->j, s->mark, NULL, NULL);
	if (r < 0)
		pl_cmp_seterr(err, errlen, "cannot restore the settings (journal %s): %s; run "
			      "'perflab tune rollback'", pl_journal_path(s->j), strerror(-r));
	else
		s->applied = false;
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
