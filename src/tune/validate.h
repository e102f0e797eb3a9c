/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The checks a profile's values pass at load, before anything is planned: kernel
 * command line tokens perflab may write into the grub file, and condition regexes
 * (cpuinfo_regex, uname_regex) bounded in what matching them may cost. The limits are
 * in tune/profile.h. */
#ifndef PERFLAB_TUNE_VALIDATE_H
#define PERFLAB_TUNE_VALIDATE_H
#include <stdbool.h>
#include <stddef.h>

/** True when @tok is one kernel command line parameter perflab may write into
 *  GRUB_CMDLINE_LINUX: `name[=value]` (Documentation/admin-guide/kernel-parameters.rst),
 *  the name of ASCII letters, digits, '_', '.' and '-' (not first), the value of letters,
 *  digits and `_ - . , = : / + @ %`. The rest is refused: update-grub / grub2-mkconfig
 *  source the file as root with the value inside double quotes, where a double quote,
 *  '$', a backslash or a backquote ends the string or runs a command, and copy the value
 *  unquoted into grub.cfg, where `; & | < > ( ) { } # ' * ? [ ] ~ !` and whitespace are
 *  grub script syntax. Quoted values (`param="a b"`) are therefore not written either
 *  (edit the file by hand). */
bool pl_tune_cmdline_token_ok(const char *tok);

/** Check the value of a [bootloader] `cmdline` / `cmdline_NAME` option: an optional
 *  leading '+' (append) or '-' (remove), then tokens separated by spaces or tabs, each
 *  pl_tune_cmdline_token_ok() once the unevaluated `${...}` references are set aside
 *  (the planner reports those as unsupported and never writes them). Returns 0, or
 *  -EINVAL with the offending token and character in @why (size @whylen). */
int pl_tune_cmdline_check(const char *value, char *why, size_t whylen);

/** Elements regex @re (POSIX extended) compiles to once repetitions are multiplied out
 *  (`x+` twice x, `x{m,n}` max(m,n) times x, nested repetitions multiply, alternatives
 *  add), saturating at SIZE_MAX. An estimate of glibc regcomp's tree, which copies
 *  the repeated part (posix/regcomp.c parse_dup_op); used against
 *  PL_TUNE_MAX_REGEX_NODES. Sets *backref when @re has a back-reference (\1..\9),
 *  which matching may take exponential time on; the loader refuses those. */
size_t pl_tune_regex_cost(const char *re, bool *backref);

/** Check condition regex @re, option @key of section @section at "FILE:LINE" @at: at
 *  most PL_TUNE_MAX_REGEX bytes and PL_TUNE_MAX_REGEX_NODES elements
 *  (pl_tune_regex_cost), no back-reference, and compiling (POSIX extended). Returns 0,
 *  or -E2BIG / -EINVAL with one line in @err (@el bytes). */
int pl_tune_check_regex(const char *section, const char *key, const char *re, const char *at,
			char *err, size_t el);

#endif
