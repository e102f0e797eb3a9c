/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Comparing tuning values the way the kernel prints them: "4096\t87380\t6291456" equals
 * "4096 87380 6291456", "010" equals "10", and selection files ("always [madvise] never",
 * "[mq-deadline] none") hold the bracketed word. */
#ifndef PERFLAB_TUNE_VALUE_H
#define PERFLAB_TUNE_VALUE_H
#include <stdbool.h>

/** Normalise @s into a malloc'd string: whitespace runs collapse to one space, leading
 *  and trailing whitespace go, and every token that is a plain decimal number loses its
 *  leading zeros ("007" -> "7", "-05" -> "-5"). Never NULL. */
char *pl_tune_value_norm(const char *s);

/** The value a file holds as perflab compares and restores it, malloc'd: the bracketed
 *  word of a selection file ("always [madvise] never" -> "madvise"), else @raw with
 *  trailing newlines and surrounding whitespace removed. Never NULL. */
char *pl_tune_value_current(const char *raw);

/** True when @a and @b are equal after pl_tune_value_norm(). */
bool pl_tune_value_eq(const char *a, const char *b);

#endif
