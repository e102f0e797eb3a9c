/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The apply driver (tune/apply.h): settings through the journal, all or nothing. */
#include "tune/apply.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tune/safepath.h"
#include "tune/value.h"
#include "util/cleanup.h"
#include "util/str.h"
#include "util/sysroot.h"

/* True when @target already reads as @value (the grub file is written whole and never
 * compared). */
static bool already_set(const char *target, const char *value)
{
	if (strcmp(target, PL_TUNE_GRUB_FILE) == 0)
		return false;
	pl_autofree char *raw = NULL;
	if (pl_read_file(target, &raw, NULL) < 0)
		return false;
	pl_autofree char *now = pl_tune_value_current(raw);
	return pl_tune_value_match(target, now, value);
}

/* One setting: its result in *res, 0 or the failure's -errno. */
static int apply_one(struct pl_tune_apply *a, const struct pl_tune_setting *s,
		     struct pl_tune_result *res)
{
	if (a->skip_same && already_set(s->target, s->value)) {
		res->outcome = PL_TUNE_SAME;
		return 0;
	}
	const struct pl_journal_entry *e = NULL;
	int r = pl_journal_write(a->j, s->target, s->value, a->who, &e);
	if (r < 0) {
		res->outcome = PL_TUNE_FAILED;
		res->error = r;
		return r;
	}
	a->nwrites++;
	res->step = e->step;
	res->accepted = e->accepted ? pl_xstrdup(e->accepted) : NULL;
	if (e->status == PL_JS_OK) {
		res->outcome = PL_TUNE_SET;
		return 0;
	}
	if (e->status == PL_JS_REFUSED) {
		res->outcome = PL_TUNE_REFUSED;
		res->error = e->error ? -e->error : 0;
		return res->error ? res->error : -EINVAL;
	}
	/* Rounded, clamped or taken in part: the system does not hold what was asked. */
	res->outcome = PL_TUNE_KEPT;
	return -ERANGE;
}

int pl_tune_apply_run(struct pl_tune_apply *a, const struct pl_tune_setting *v, size_t n,
		      struct pl_tune_result *res)
{
	if (n)
		memset(res, 0, n * sizeof(*res));
	if (!a->active) {
		a->mark = pl_journal_last_step(a->j);
		a->active = true;
	}
	a->rollback_error = 0;
	for (size_t i = 0; i < n; i++) {
		int r = apply_one(a, &v[i], &res[i]);
		if (a->on_result)
			a->on_result(i, &res[i], a->ud);
		if (r < 0) {
			a->rollback_error = pl_tune_apply_restore(a);
			return r;
		}
	}
	return 0;
}

int pl_tune_apply_restore(struct pl_tune_apply *a)
{
	if (!a || !a->active)
		return 0;
	int r = pl_journal_rollback(a->j, a->mark, a->on_undo, a->ud);
	if (r == 0)
		a->active = false;
	return r;
}

void pl_tune_results_free(struct pl_tune_result *res, size_t n)
{
	for (size_t i = 0; res && i < n; i++) {
		free(res[i].accepted);
		res[i].accepted = NULL;
	}
}
