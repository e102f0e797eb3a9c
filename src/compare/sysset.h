/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Applying a variant's sysctl/sysfs values around each of its runs and putting the old
 * values back afterwards, through the tune journal (tune/journal.h): the old value is on
 * disk before the new one is written, so a failing command or a signal (the command calls
 * pl_cmp_sys_restore on every way out) and even a crash (the next compare, or `perflab
 * tune rollback`, undoes what is left) restore them. Entries are tagged "compare:VARIANT". */
#ifndef PERFLAB_COMPARE_SYSSET_H
#define PERFLAB_COMPARE_SYSSET_H
#include <stddef.h>

#include "compare/experiment.h"

/** Open state (opaque). */
struct pl_cmp_sys;

/** Open the journal in @state_dir (NULL = PL_JOURNAL_DEFAULT_DIR) for writing (locked)
 *  and undo the live entries an interrupted compare left, when they are the newest
 *  (*recovered gets their number). Only needed when a variant has settings. Returns 0 or
 *  -errno with a reason in @err: -EROFS with a sysroot other than /, -EACCES (not root),
 *  -EBUSY (another perflab holds the journal, or tune changes sit above a crashed
 *  compare's entries). */
int pl_cmp_sys_open(const char *state_dir, struct pl_cmp_sys **out, size_t *recovered, char *err,
		    size_t errlen);
/** Check every setting of every variant of @e before anything is written, with the
 *  same function as `tune apply` (pl_tune_value_check: type and range of known
 *  sysctl/sysfs targets, shape of the current value for others, targets inside the
 *  sysroot), and replace each value with the form that will be written ("060" -> "60").
 *  Returns 0, or -EINVAL (bad value) / -EPERM (refused target) with one line in @err
 *  naming the variant, the key and the value. */
int pl_cmp_sys_check(struct pl_cmp_experiment *e, char *err, size_t errlen);
/** Write every setting of @v, journaling the old values first. On failure (cannot write,
 *  missing target, the kernel refused the value: its errno; the kernel kept another
 *  value: -ERANGE) the settings written so far are restored before returning -errno with
 *  a reason in @err naming the key and the fix. */
int pl_cmp_sys_apply(struct pl_cmp_sys *s, const struct pl_cmp_variant *v, char *err,
		     size_t errlen);
/** Put back every value changed since the last restore, newest first (journal rollback).
 *  Returns 0 or the first -errno (with a reason in @err); keeps going after an error. */
int pl_cmp_sys_restore(struct pl_cmp_sys *s, char *err, size_t errlen);
/** Restore what is left and free. NULL-safe. */
void pl_cmp_sys_close(struct pl_cmp_sys *s);

/** The current value of setting target @path (kernel form: the bracketed word of a
 *  selection file, whitespace trimmed) as a malloc'd string, read through the sysroot
 *  helper; NULL when it cannot be read. */
char *pl_cmp_sys_read(const char *path);

/** A sysctl/sysfs target that some variant changes, with its value before the first run
 *  and after the last, so the output shows that the machine was left as it was found. */
struct pl_cmp_original {
	const char *key;  /**< the first variant key that names it ("sysctl.net.core.somaxconn") */
	const char *path; /**< the target file */
	char *before;	  /**< value read before the first run (kernel form), NULL: unreadable */
	char *after;	  /**< value read after the last run, NULL: unreadable or not read yet */
};

/** The distinct targets of every variant's settings, in order of first use, with their
 *  current values as "before" (pl_cmp_sys_read). Keys and paths point into @e. Returns
 *  a malloc'd array (NULL when *n is 0). */
struct pl_cmp_original *pl_cmp_originals_read(const struct pl_cmp_experiment *e, size_t *n);
/** Read every target again into "after". */
void pl_cmp_originals_reread(struct pl_cmp_original *o, size_t n);
/** Free. NULL-safe. */
void pl_cmp_originals_free(struct pl_cmp_original *o, size_t n);

#endif
