/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Parsers of bench ticks, exported for the unit tests (tests/bench/fixtures/). */
#ifndef PERFLAB_BENCH_TICKS_H
#define PERFLAB_BENCH_TICKS_H
#include <stdint.h>

#include "util/cpuset.h"

/** Interrupt counts of one CPU in a /proc/interrupts text (Documentation/filesystems/
 *  proc.rst: a header of "CPUn" columns for the online CPUs, then one row per source). */
struct pl_irq_counts {
	uint64_t timer; /**< local timer: the x86 "LOC" row, or the "arch_timer" rows on arm64 */
	uint64_t total; /**< every per-CPU row summed */
	const char *timer_row; /**< "LOC" or "arch_timer" (static string) */
};

/** Counts of @cpu in @text. Returns 0, -ENOENT when @cpu has no column (offline) or there
 *  is no local timer row, -EINVAL when there is no "CPUn" header. */
int pl_irq_parse(const char *text, unsigned cpu, struct pl_irq_counts *out);

/** The CPUs named by a kernel parameter value of isolcpus=, nohz_full= or rcu_nocbs=
 *  (kernel-parameters.txt): a cpulist, for isolcpus optionally after flags
 *  ("nohz,domain,managed_irq,2-3"). @value NULL or "" gives the empty set; the bare flag
 *  (JSON true in kernel.cmdline.params) is passed as "all" and gives every CPU below
 *  @ncpus. Returns 0 or -EINVAL. */
int pl_isolation_cpus(const char *value, unsigned ncpus, struct pl_cpuset *out);

/** The warning for a busy CPU's local timer rate @rate (1/s) well above the kernel's
 *  tick rate @hz (CONFIG_HZ, kernel.config_hz): above 1.5 x @hz the extra interrupts are
 *  other timers on CPU @cpu (high-resolution timers of other tasks, e.g. cyclictest's
 *  1 kHz loop), not the tick. A malloc'd sentence, or NULL when @rate is within reach of
 *  @hz or @hz is unknown (<= 0). */
char *pl_ticks_hz_remark(double rate, int64_t hz, unsigned cpu);

#endif
