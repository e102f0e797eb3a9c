/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Applying a variant's sysctl/sysfs values around each of its runs and putting the old
 * values back afterwards, also after a failing command or a signal (the command calls
 * pl_cmp_sys_restore on every way out). */
#ifndef PERFLAB_COMPARE_SYSSET_H
#define PERFLAB_COMPARE_SYSSET_H
#include <stddef.h>

#include "compare/experiment.h"

/** Open state (opaque). */
struct pl_cmp_sys;

/** Prepare to change system settings, keeping state under @state_dir (NULL = default).
 *  Only needed when a variant has settings. Returns 0 or -errno with a reason in @err
 *  (-EROFS when a sysroot other than / is set). */
int pl_cmp_sys_open(const char *state_dir, struct pl_cmp_sys **out, char *err, size_t errlen);
/** Write every setting of @v, remembering the old values first. On failure the settings
 *  written so far are restored before returning -errno with a reason in @err (the target
 *  and the fix, e.g. run as root). */
int pl_cmp_sys_apply(struct pl_cmp_sys *s, const struct pl_cmp_variant *v, char *err,
		     size_t errlen);
/** Put back every value changed since pl_cmp_sys_open, newest first. Returns 0 or the
 *  first -errno (with a reason in @err); keeps going after an error. */
int pl_cmp_sys_restore(struct pl_cmp_sys *s, char *err, size_t errlen);
/** Restore what is left and free. NULL-safe. */
void pl_cmp_sys_close(struct pl_cmp_sys *s);

/** The current value of setting target @path (kernel form: the bracketed word of a
 *  selection file, whitespace trimmed) as a malloc'd string, read through the sysroot
 *  helper; NULL when it cannot be read. */
char *pl_cmp_sys_read(const char *path);

#endif
