/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Readings taken elsewhere (`perflab stat --from FILE`): the output of `perf stat -j`
 * (one JSON object per event and line: "counter-value", "unit", "event",
 * "event-runtime", "pcnt-running"; perf 6.x, tools/perf/util/stat-display.c) or
 * `perf stat -x,` (CSV: value, unit, event, run time, percent running, then optional
 * metric value and unit), with or without -I (intervals summed into one reading) and -A
 * (per-CPU lines kept per CPU). */
#ifndef PL_COUNTERS_FROM_H
#define PL_COUNTERS_FROM_H
#include "counters/counters.h"

#include <stddef.h>

/** Read @path (a regular file, opened O_NONBLOCK and fstat'ed, at most 4 MiB, lines of
 *  at most 4096 bytes, 200000 lines; "-" for stdin) into @r, whose values point into the
 *  events array set in *@evs (*@nevs entries, one per distinct event name; both owned
 *  by the caller: free(*@evs) after pl_cnt_result_free(@r)). Each event's scale is 1 and
 *  its unit perf's (values are as perf printed them: scaled, multiplexing included);
 *  each value's running_ns is perf's event-runtime and enabled_ns running_ns * 100 /
 *  pcnt-running; raw is the value rounded. "<not supported>" and "<not counted>"
 *  values become supported = false / counted = false. -I intervals are summed into one
 *  value per event and scope (-A's CPU, --per-socket/die/core's socket, --per-thread's
 *  tid); @r->ncpus is the number of distinct CPUs of -A lines (0 without). The elapsed
 *  time is the last -I interval's time, else the duration_time event (ns), else
 *  task-clock over its "CPUs utilized" metric, else 0. Returns 0; -EINVAL for a file
 *  that is neither format or breaks a limit (@err: "FILE:LINE: what (the fix)") or is
 *  not a regular file (a FIFO, a directory); -ENOENT/-EACCES for an unreadable one,
 *  @err naming the file and the fix. */
int pl_cnt_from_file(const char *path, struct pl_cnt_result *r, struct pl_cnt_event **evs,
		     size_t *nevs, char *err, size_t errlen);

#endif
