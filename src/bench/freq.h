/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench freq: the parsers of its outside input (exposed for tests and the fuzz harness). */
#ifndef PERFLAB_BENCH_FREQ_H
#define PERFLAB_BENCH_FREQ_H
#include <stdint.h>

/** The "cpu MHz" of the entry "processor : @cpu" in @text (/proc/cpuinfo, x86 format;
 *  arm64 has no such line). Returns 0 with *mhz set (finite, > 0), -ENOENT when the entry
 *  or its line is missing, -EINVAL when the value is not a positive number. */
int pl_freq_cpuinfo_mhz(const char *text, unsigned cpu, double *mhz);

/** The perf_event config of a PMU event description @s as sysfs writes it
 *  (/sys/bus/event_source/devices/msr/events/aperf: "event=0x02", optionally followed by
 *  ",key=value" terms, which are refused here: the msr PMU has none). Returns 0 with
 *  *config set, or -EINVAL. */
int pl_freq_event_config(const char *s, uint64_t *config);

#endif
