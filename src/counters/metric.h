/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Metrics as data: each a name, the events it reads, a formula over them, a unit, a
 * threshold above (or below) which it is worth a look, and the document the formula
 * comes from (perf's pmu-events JSON metrics, Intel's Top-down Microarchitecture Analysis
 * Method, AMD's PPR, Arm's Neoverse telemetry guides). The formula is a small expression
 * language: numbers, event names (as pl_cnt_event.name; quoted "pmu/x/" where they
 * hold operators), + - * / ( ), min(a,b), max(a,b), and `duration_time` (seconds of the
 * reading: its elapsed_ns, else perf's duration_time event), `#num_cpus` (CPUs counted)
 * and `#slots` (pipeline slots per cycle: the value of the reading named "#slots", which
 * the session adds from the core PMU's caps/slots). The grammar is in expr.h; the table
 * for readers is docs/metrics.md. */
#ifndef PL_COUNTERS_METRIC_H
#define PL_COUNTERS_METRIC_H
#include "counters/counters.h"

#include <stddef.h>

/** One metric. @events is a NULL-terminated list of the event spellings it needs (for
 *  pl_pmu_resolve); alternatives for other PMUs are separate metrics of one @name with a
 *  different @pmu_kind ("intel", "amd-zen4", "arm-neoverse", "any"). @threshold_above: a
 *  value above it (or, with @below, under it) is flagged; NAN when none. Static data. */
struct pl_metric {
	const char *name;  /**< "ipc", "llc_mpki", "topdown_backend_bound" */
	const char *group; /**< "basic", "cache", "tlb", "topdown", "memory", "power", "software" */
	const char *pmu_kind; /**< which PMUs this formula is for */
	const char *const *events;
	const char *expr;
	const char *unit; /**< "insn/cycle", "GHz", "%", "MPKI", "GB/s", "W", "J", "/s" */
	double threshold;
	bool below;
	const char *desc;
	const char *source; /**< the document the formula and threshold come from */
};

/** The table of every metric (static, @n entries). */
const struct pl_metric *pl_metric_table(size_t *n);

/** The metrics @spec names (a metric or group name, comma-separated list allowed) that
 *  fit this machine's PMU kind @pmu_kind (as pl_metric.pmu_kind; entries of kind "any"
 *  fit every machine; NULL, for readings from another machine, fits every kind): at
 *  most @max into @out, each once, in table order per name. A metric none of whose
 *  entries fits @pmu_kind still gives its first entry, so that it is shown unavailable
 *  rather than dropped. Returns the count (>= 1); -ENOENT with @err naming the unknown
 *  or empty name and the fix ("see perflab stat --list"); -ENOSPC past @max. The whole
 *  table, for `stat --list` and docs/metrics.md, is pl_metric_table(). */
int pl_metric_select(const char *spec, const char *pmu_kind, const struct pl_metric **out,
		     size_t max, char *err, size_t errlen);

/** Evaluate @m over the readings @r (an event's value is the sum of its supported,
 *  counted readings over every scope; names match as pl_expr_event_sum says). A table
 *  entry's formula is parsed once, at first use; another metric's at each call. Returns
 *  0 with *@value set (finite); -ENOENT when an event it reads has no counted value in
 *  @r, with @missing naming it (the caller prints "unavailable: EVENT not on this
 *  PMU"); -EDOM when the formula divides by zero or overflows (@missing says which);
 *  -EINVAL for a metric outside the table whose formula does not parse (@missing says
 *  why). */
int pl_metric_eval(const struct pl_metric *m, const struct pl_cnt_result *r, double *value,
		   char *missing, size_t missinglen);

#endif
