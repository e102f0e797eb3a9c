/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Counting metrics system-wide over a window of time another engine marks (a benchmark
 * of `perflab report`'s plan, a `check --measure` evidence run): the metrics of a spec
 * (pl_metric_select's names and groups) and their events, a session on every online CPU
 * opened at pl_cnt_window_begin and read at pl_cnt_window_end into one row
 * ({"benchmark", "elapsed_s", "values", "unavailable"}). The callers hold the JSON, the
 * renderers read only it. */
#ifndef PL_COUNTERS_WINDOW_H
#define PL_COUNTERS_WINDOW_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "counters/counters.h"
#include "counters/metric.h"
#include "counters/plan.h"
#include "counters/session.h"

/** The basic metrics for PMU kind @kind (pl_cnt_pmu_kind): "ipc,frequency,llc_mpki,
 *  branch_miss_rate", with ",topdown" for the kinds that have a top-down formula (intel,
 *  amd-zen4, arm-neoverse; docs/metrics.md). A static string. */
const char *pl_cnt_basic_spec(const char *kind);

/** One row: @label (a benchmark's name), the reading @r (its elapsed_ns the window's
 *  wall time), each of the @n metrics @ms evaluated over it (pl_metric_eval):
 *  {"benchmark": @label, "elapsed_s", "values": {METRIC: number or null},
 *  "unavailable": {METRIC: "EVENT not on this PMU", or why it has no value}}. New
 *  reference. */
json_t *pl_cnt_row(const char *label, const struct pl_metric *const *ms, size_t n,
		   const struct pl_cnt_result *r);

/** A counting window. Zero-initialise, pl_cnt_window_init, pl_cnt_window_free. */
struct pl_cnt_window {
	bool core;		 /**< the machine has a core PMU */
	const char *kind;	 /**< pl_cnt_pmu_kind(core) */
	char reason[512];	 /**< why nothing is counted ("" while counting works): no core
				      PMU (pl_pmu_have_core's reason), or perf_event_open refused */
	struct pl_cnt_plan plan; /**< the metrics and their events */
	struct pl_cnt_session s;
	bool open;
};

/** Pick the metrics of @spec (NULL: pl_cnt_basic_spec of this machine's kind) and their
 *  events (those that do not resolve here are left out: their metrics are then
 *  unavailable). Returns 0, or -ENOENT for an unknown metric or group name with @err
 *  set (@w then counts nothing). */
int pl_cnt_window_init(struct pl_cnt_window *w, const char *spec, char *err, size_t errlen);

/** Open the events on every online CPU and enable them. Returns 0; -EACCES when
 *  perf_event_open refused every event (w->reason says so, and later windows count
 *  nothing), or the negative errno of pl_cnt_session_open (w->reason set). */
int pl_cnt_window_begin(struct pl_cnt_window *w);

/** Read and close the window opened by pl_cnt_window_begin: its row (pl_cnt_row) with
 *  label @label, or NULL when no window is open. */
json_t *pl_cnt_window_end(struct pl_cnt_window *w, const char *label);

/** Close an open window and free the plan. NULL-safe. */
void pl_cnt_window_free(struct pl_cnt_window *w);

#endif
