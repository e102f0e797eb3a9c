/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What one `perflab stat` run counts: the events of -e lists (perf's syntax: commas
 * outside "pmu/.../" and "{...}", a "{a,b}" group opened as one perf group), perf stat's
 * default set, and the metrics of -M with their events (one group per metric), each
 * event once. */
#ifndef PL_COUNTERS_PLAN_H
#define PL_COUNTERS_PLAN_H
#include <stdbool.h>
#include <stddef.h>

#include "counters/counters.h"
#include "counters/metric.h"

/** Most events one run counts (each spelling may name several PMU instances). */
#define PL_CNT_PLAN_EVENTS 512
/** Most metrics one run computes. */
#define PL_CNT_PLAN_METRICS 128

/** The events and metrics of a run. Zero-initialise; free with pl_cnt_plan_free. @evs,
 *  @group and @explicit_ev have @n entries (owned); @group[i] is the perf group of event
 *  i (>= 0, shared by the events of one group) or -1 alone, as pl_cnt_config.group. */
struct pl_cnt_plan {
	struct pl_cnt_event *evs;
	int *group;
	bool *explicit_ev; /**< given with -e: a failure to open it is fatal */
	size_t n;
	int ngroups;
	const struct pl_metric *metrics[PL_CNT_PLAN_METRICS]; /**< static table entries */
	size_t nmetrics;
};

/** Add the events of one -e value @list ("a,b", "{a,b},c", "pmu/event=1,umask=2/").
 *  Returns 0; -EINVAL for a malformed list (unterminated group or PMU term, a nested or
 *  unopened brace, an empty name) or the resolver's -EINVAL/-ENOENT/-ENODEV for an
 *  event (pmu.h), -E2BIG
 *  past PL_CNT_PLAN_EVENTS; @err (@errlen bytes) then names the input and the fix. */
int pl_cnt_plan_events(struct pl_cnt_plan *p, const char *list, char *err, size_t errlen);

/** Add perf stat's default events (tools/perf/builtin-stat.c default_attrs0/1):
 *  task-clock, context-switches, cpu-migrations, page-faults, and with @core cycles,
 *  instructions, branches, branch-misses. Returns 0 or the resolver's error. */
int pl_cnt_plan_default(struct pl_cnt_plan *p, bool core, char *err, size_t errlen);

/** Add the metrics @spec selects for PMU kind @kind (pl_metric_select) and their events,
 *  one group per metric; an event that does not resolve is left out (the metric then
 *  says it is missing). With @only_present, only metrics whose events are all in @p
 *  already. Returns 0, -ENOENT for an unknown metric or group, -E2BIG; @err set. */
int pl_cnt_plan_metrics(struct pl_cnt_plan *p, const char *spec, const char *kind,
			bool only_present, char *err, size_t errlen);

/** The PMU kind metric formulas are chosen by (pl_metric.pmu_kind), from the core PMU and
 *  the CPU, through the sysroot: "arm-neoverse" with an armv8_pmuv3 PMU or an Arm
 *  /proc/cpuinfo (CPU implementer 0x41); "intel" for vendor_id GenuineIntel; "amd-zen4"
 *  for AuthenticAMD family 0x19 model >= 0x10 and family 0x1a and later (AMD's PPRs: the
 *  pipeline-utilisation events of Zen 4 and Zen 5), "amd" for older AMD; without
 *  /proc/cpuinfo "intel" when the core PMU is Intel's (cpu_core, cpu/caps/pmu_name);
 *  else "any". Decided with or without a core PMU (a guest without one is told which of
 *  its CPU's events are missing): @core, whether one exists, does not change the kind.
 *  Static string. */
const char *pl_cnt_pmu_kind(bool core);

/** The PMU kind of readings taken elsewhere (`--from`): the kind ("intel", "amd-zen4",
 *  "arm-neoverse") with the most metric table entries whose events all have a counted
 *  reading in @r (special names such as "#slots" aside), "any" when none has one.
 *  Static string. */
const char *pl_cnt_pmu_kind_of(const struct pl_cnt_result *r);

/** Free @p's arrays and zero it. NULL-safe. */
void pl_cnt_plan_free(struct pl_cnt_plan *p);

#endif
