/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The apply driver: a list of settings (target = value) written through the tune journal
 * (tune/journal.h) all or nothing, with a result per setting and exact rollback. It is
 * the one loop behind `perflab tune apply` (a profile's plan, tune/actions.h) and compare's
 * sysctl/sysfs variants (compare/sysset.c); `perflab tune rollback` and compare's restore
 * after each run go through pl_tune_apply_restore() / pl_journal_rollback().
 *
 * For each setting in order: (optionally) read the target and skip it when it already
 * holds the value, else pl_journal_write() (the old value is journaled and fsync'd before
 * the write, the target read back after it). The first setting that cannot be written,
 * that the kernel refuses, or whose value the kernel changes (rounded, clamped, a triple
 * taken in part) stops the loop, and every change since the driver's mark is rolled back
 * newest first: after a failure the targets hold what they held before. The driver never
 * logs; callers say what happened from the results (and the callbacks, which run while
 * the loop runs, so progress lines and error lines come out in order).
 *
 *     struct pl_tune_apply a = { .j = journal, .who = "compare:B" };
 *     struct pl_tune_setting s[] = { { "/proc/sys/vm/swappiness", "10" } };
 *     struct pl_tune_result res[1];
 *     int r = pl_tune_apply_run(&a, s, 1, res);  // 0, or the first failure (rolled back)
 *     ... measure ...
 *     r = pl_tune_apply_restore(&a);             // the old values back
 *     pl_tune_results_free(res, 1); */
#ifndef PERFLAB_TUNE_APPLY_H
#define PERFLAB_TUNE_APPLY_H
#include <stdbool.h>
#include <stddef.h>

#include "tune/journal.h"

/** One setting to make. Both strings are borrowed (the caller keeps them alive during
 *  pl_tune_apply_run). */
struct pl_tune_setting {
	const char *target; /**< absolute path inside the sysroot ("/proc/sys/vm/swappiness",
				 PL_TUNE_GRUB_FILE); resolved by tune/safepath.h */
	const char *value;  /**< value to write, already checked (pl_tune_value_check); for
				 the grub file its whole new content */
};

/** What happened to one setting. */
enum pl_tune_outcome {
	PL_TUNE_PENDING = 0, /**< not reached: an earlier setting failed */
	PL_TUNE_SAME,	     /**< the target already held the value (skip_same): nothing
				  written or journaled */
	PL_TUNE_SET,	     /**< journaled, written and read back as written */
	PL_TUNE_KEPT,	     /**< journaled and written, but the kernel kept another value
				  (see accepted): a failure */
	PL_TUNE_REFUSED,     /**< journaled, the kernel refused the write (see error): a
				  failure */
	PL_TUNE_FAILED,	     /**< nothing written (see error): a failure */
};

/** The result of one setting. */
struct pl_tune_result {
	enum pl_tune_outcome outcome;
	int error;	    /**< FAILED: the -errno of pl_journal_write() (tune/safepath.h
				 errors, -ENOENT, -EACCES...); REFUSED: -errno of the write,
				 0 when the kernel gave none; else 0 */
	unsigned long step; /**< journal step of SET/KEPT/REFUSED, else 0 */
	char *accepted;	    /**< SET/KEPT/REFUSED: what the target read back after the write
				 (malloc'd, kernel form), NULL when unknown */
};

/** Called after each setting the driver reaches (index @i into the settings), before the
 *  next one is tried and before any rollback. */
typedef void (*pl_tune_result_fn)(size_t i, const struct pl_tune_result *r, void *ud);

/** A driver over one open journal. Set the inputs, zero the rest (designated
 *  initializer). Not owning: the journal is the caller's. */
struct pl_tune_apply {
	struct pl_journal *j;	     /**< input: opened with PL_JOURNAL_WRITE */
	const char *who;	     /**< input: journal tag ("PROFILE", "compare:VARIANT") */
	bool skip_same;		     /**< input: read each target (the grub file excepted)
					  first and skip one that already holds its value
					  (an earlier setting may have set it: a [sysfs] glob
					  over the governor files) */
	pl_tune_result_fn on_result; /**< input, optional */
	pl_journal_undo_fn on_undo;  /**< input, optional: each entry a rollback restores or
					  fails to restore (pl_journal_rollback's callback) */
	void *ud;		     /**< input: passed to both callbacks */
	unsigned long mark;	     /**< the last journal step before the first run since the
					  last restore: a restore undoes every step above it */
	bool active;		     /**< changes since mark may be live (a run happened and
					  no restore succeeded since) */
	size_t nwrites;		     /**< settings journaled by all runs (SET, KEPT, REFUSED) */
	int rollback_error;	     /**< 0, or the -errno of the rollback after the last
					  failed run (then some changes are still live: run
					  `perflab tune rollback`) */
};

/** Make settings @v[0..@n) in order through @a's journal; @res (n entries, may be NULL
 *  for n == 0) is overwritten with a result per setting (free with pl_tune_results_free
 *  before reusing it, also after a failure). Returns 0 when every setting is SET or SAME. On the
 * first failure the loop stops (later results stay PENDING), everything since @a->mark is rolled
 * back (the rollback's result in @a->rollback_error) and the failure is returned: FAILED its error,
 * REFUSED its error (-EINVAL when the kernel gave none), KEPT -ERANGE. */
int pl_tune_apply_run(struct pl_tune_apply *a, const struct pl_tune_setting *v, size_t n,
		      struct pl_tune_result *res);

/** Undo every change since @a->mark (newest first, reported through on_undo), when a run
 *  happened since the last successful restore; else a no-op returning 0. Returns 0 (and
 *  clears active) or the first -errno of pl_journal_rollback() (active stays set, a
 *  later restore tries again). */
int pl_tune_apply_restore(struct pl_tune_apply *a);

/** Free the accepted strings of @res[0..@n). NULL-safe. */
void pl_tune_results_free(struct pl_tune_result *res, size_t n);

#endif
