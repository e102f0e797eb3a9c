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

/** Read @path (a regular file, at most a few MiB; "-" for stdin) into @r, whose values
 *  point into the events array set in *@evs (*@nevs entries; both owned by the caller:
 *  free(*@evs) after pl_cnt_result_free(@r)). "<not supported>" and "<not counted>"
 *  values become supported = false / counted = false. The elapsed time comes from the
 *  file's duration_time or task-clock line or is 0. Returns 0; -EINVAL for a file that
 *  is neither format (with the line number in @err) and -ENOENT/-EACCES for an unreadable
 *  one, @err naming the file and the fix. */
int pl_cnt_from_file(const char *path, struct pl_cnt_result *r, struct pl_cnt_event **evs,
		     size_t *nevs, char *err, size_t errlen);

#endif
