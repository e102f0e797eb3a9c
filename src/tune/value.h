/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Comparing tuning values the way the kernel prints them: "4096\t87380\t6291456" equals
 * "4096 87380 6291456", "010" equals "10", and selection files ("always [madvise] never",
 * "[mq-deadline] none") hold the bracketed word. */
#ifndef PERFLAB_TUNE_VALUE_H
#define PERFLAB_TUNE_VALUE_H
#include <stdbool.h>
#include <stddef.h>

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

/** How @got (read from target @target, kernel form) holds the value @want, compared the
 *  way tuned's verify does where that is right (tuned/plugins/base.py _verify_value; read,
 *  not copied): "equal" (pl_tune_value_eq: blanks and leading zeros of decimal numbers do
 *  not count), "as CPU masks" / "as hexadecimal numbers" (both hex digits with optional
 *  commas between groups, equal as numbers: "00000000,000000FF" holds "ff"), "as one of
 *  the alternatives" (@want is `a|b` and @got holds one of them). NULL when it does not
 *  hold it. Static strings. @target may be NULL. */
const char *pl_tune_value_match_how(const char *target, const char *got, const char *want);

/** pl_tune_value_match_how() != NULL. */
bool pl_tune_value_match(const char *target, const char *got, const char *want);

/** Check @value before anything is written to @target (an absolute name inside the
 *  sysroot: "/proc/sys/net/core/somaxconn"), live or in a sysroot alike. The target
 *  first: pl_tune_resolve() must accept it (a symlink out of the sysroot, a hard link in
 *  a sysroot are refused; a missing target is left to the write). Then the value, which
 *  must be one line (integers may continue on more lines, as tuned reads them): a known target
 * (table in value.c) has a type -- integers with a field count and range (somaxconn 0..2147483647,
 * tcp_rmem three integers >= 1), one of the choices listed next to it
 * (tcp_available_congestion_control, available_clocksource, scaling_available_governors), one of
 * the words of its own
 *  "[a] b c" list (queue/scheduler, THP), a hex CPU mask; any other target is checked
 *  for shape against its current value (integers stay as many decimal integers, a
 *  selection file stays one of its words, text stays one line). The grub file is not
 *  checked here (its tokens are checked by the profile loader).
 *  On success *canon (optional, malloc'd) gets the value to write: integers in plain
 *  decimal with single spaces ("060" -> "60": the kernel reads a leading 0 as octal),
 *  anything else as given. Returns 0; -EINVAL for a bad value; the -errno of
 *  pl_tune_resolve() (-EXDEV, -EMLINK, -EPERM, -EINVAL) for a refused target. @why gets
 *  one line without the value ("is not an integer like the current value '4096'",
 *  "refused: outside the sysroot: ..."). Reads through the sysroot helper only. */
int pl_tune_value_check(const char *target, const char *value, char **canon, char *why,
			size_t whylen);

#endif
