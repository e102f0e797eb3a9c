/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The counter section of `perflab report` ("counters" in docs/schemas/report.schema.json):
 * while the report's benchmark plan runs, the basic metrics (IPC, effective frequency,
 * LLC misses per kilo-instruction, branch miss rate; top-down level 1 where the PMU kind
 * has it, docs/metrics.md) counted system-wide per benchmark (counters/window.h).
 * Without a core PMU nothing is counted and the section says why (pl_pmu_have_core).
 * The renderers read only the section (render/counters.h). */
#ifndef PERFLAB_REPORT_COUNTERS_H
#define PERFLAB_REPORT_COUNTERS_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "counters/metric.h"

/** The section's head: {"core_pmu": @core, "reason": @reason (or null), "pmu_kind":
 *  @kind, "metrics": [{"name", "unit", "desc", "source"}] of the @n metrics @ms,
 *  "benchmarks": []}; rows (pl_cnt_row) are appended to "benchmarks". New reference. */
json_t *pl_report_cnt_section(bool core, const char *reason, const char *kind,
			      const struct pl_metric *const *ms, size_t n);

/** Counting state of a report run (opaque). */
struct pl_report_cnt;

/** Start the section: reads the core PMU, picks the metrics. Never NULL. Free with
 *  pl_report_cnt_free. */
struct pl_report_cnt *pl_report_cnt_new(void);

/** Count system-wide from now on for benchmark @bench, ending the count of the previous
 *  one first. Nothing without a core PMU; a refusal (kernel.perf_event_paranoid) ends
 *  the counting, with the reason in the section. */
void pl_report_cnt_begin(struct pl_report_cnt *c, const char *bench);

/** End the open count (if any): read it and append its row to the section. */
void pl_report_cnt_end(struct pl_report_cnt *c);

/** The section so far (new reference). */
json_t *pl_report_cnt_json(const struct pl_report_cnt *c);

/** Free, closing an open count without a row. NULL-safe. */
void pl_report_cnt_free(struct pl_report_cnt *c);

#endif
