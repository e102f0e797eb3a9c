/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CPU lists in the kernel's "cpulist" format ("0-3,8,10-11", Documentation/admin-guide/
 * kernel-parameters.rst "cpu lists"; also "0-15:2/4" stride form is not accepted). */
#ifndef PERFLAB_UTIL_CPUSET_H
#define PERFLAB_UTIL_CPUSET_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Largest CPU number + 1 perflab handles. */
#define PL_MAX_CPUS 8192

/** A set of CPU (or NUMA node) numbers, 0 .. PL_MAX_CPUS-1. Value type, no allocation. */
struct pl_cpuset {
	uint64_t bits[PL_MAX_CPUS / 64];
};

/** Parse a cpulist ("0-3,8"); whitespace around it and a trailing newline are allowed;
 *  an empty string is the empty set. Returns 0, or -EINVAL (syntax, reversed range) /
 *  -ERANGE (number >= PL_MAX_CPUS); @out untouched on error. */
int pl_cpuset_parse(const char *s, struct pl_cpuset *out);
/** The first number that the cpulist @s names more than once ("0,0,0" and "0-3,2" give
 *  0 and 2), for options where that is a slip: -1 when none, or when @s is no cpulist. */
int pl_cpuset_repeated(const char *s);
/** Parse the kernel's hex mask format ("ff,00000001", Documentation/... cpumask). */
int pl_cpuset_parse_mask(const char *s, struct pl_cpuset *out);
void pl_cpuset_clear(struct pl_cpuset *s);
void pl_cpuset_set(struct pl_cpuset *s, unsigned cpu);
bool pl_cpuset_isset(const struct pl_cpuset *s, unsigned cpu);
/** Number of members. */
unsigned pl_cpuset_count(const struct pl_cpuset *s);
/** Next member >= @from, or -1 when none. Iterate: for (c = next(s,0); c >= 0; c = next(s,c+1)). */
int pl_cpuset_next(const struct pl_cpuset *s, unsigned from);
/** Format as a canonical cpulist ("0-3,8") into @buf; returns @buf ("" for empty). */
char *pl_cpuset_format(const struct pl_cpuset *s, char *buf, size_t len);
/** Check that every CPU of the cpulist @list (the value of option @opt, e.g. "--cpus") is
 *  online: the kernel's /sys/devices/system/cpu/online, read through the sysroot helper
 *  (so with --sysroot, that tree's list). Returns 0 when they are (or when the online list
 *  cannot be read or @list is not a cpulist: nothing to check against), else -ENOENT with
 *  one line in @err (@errlen bytes) naming the CPUs that are not online and the online
 *  list. */
int pl_cpuset_check_online(const char *opt, const char *list, char *err, size_t errlen);

#endif
