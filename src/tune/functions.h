/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tuned's built-in `${f:NAME:ARG:...}` functions that run no program, evaluated the way
 * tuned 2.20 does (tuned/profiles/functions/function_*.py and the CPU list helpers of
 * tuned/utils/commands.py; read, not copied): cpulist_unpack, cpulist_pack,
 * cpulist_invert, cpulist_present, cpulist_online, cpulist2hex, cpulist2hex_invert,
 * hex2cpulist, cpulist2devs, cpuinfo_check, regex_search_ternary, strip, kb2s, s2kb,
 * calc_isolated_cores, virt_check (from the CPU's hypervisor flag or /sys/hypervisor/type
 * instead of running virt-what), assertion and assertion_non_equal. Machine files are read
 * through the sysroot helper. `exec` and the functions that run a program
 * (check_net_queue_count) are never evaluated. */
#ifndef PERFLAB_TUNE_FUNCTIONS_H
#define PERFLAB_TUNE_FUNCTIONS_H
#include <stddef.h>

/** Most CPUs a CPU list may name (numbers 0 .. PL_TUNE_MAX_CPU - 1): a larger number makes
 *  the list invalid (tuned would build a list of that many elements). */
#define PL_TUNE_MAX_CPU 8192

/** Evaluate function @name with @nargs arguments @args (already expanded, `\:` already
 *  turned into ':'). Returns 0 with *out (malloc'd) the result; 1 when tuned leaves the
 *  reference as written (a wrong number of arguments, a non-number for kb2s/s2kb, an
 *  assertion that holds); -ENOTSUP for a function that runs a program or that perflab
 *  does not know, with the reason in @why; -EINVAL for a failed assertion (tuned refuses
 *  the profile), the assertion's text in @why. */
int pl_tune_func(const char *name, char *const *args, size_t nargs, char **out, char *why,
		 size_t whylen);

#endif
