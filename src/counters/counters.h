/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Counting events (`perflab stat`): the types the event resolver, the counting session,
 * the metrics and the renderers share. One counted event is a struct pl_cnt_event (what
 * to open), its reading a struct pl_cnt_value (what was counted, scaled as perf scales a
 * multiplexed count: value = raw * enabled / running, Documentation of
 * perf_event_open(2), "read_format"). A whole run is a struct pl_cnt_result. */
#ifndef PL_COUNTERS_H
#define PL_COUNTERS_H
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Bytes of an event's name as shown (perf prints names up to this long). */
#define PL_CNT_NAME_MAX 128
/** Bytes of a PMU's name (/sys/bus/event_source/devices/NAME). */
#define PL_CNT_PMU_MAX 64
/** Bytes of a unit string ("Joules", "msec"). */
#define PL_CNT_UNIT_MAX 32

/** How an event is read. */
enum pl_cnt_source {
	PL_CNT_PERF = 0,     /**< perf_event_open(2) with @attr */
	PL_CNT_POWERCAP = 1, /**< a powercap energy_uj file (@path), read at start and end */
};

/** One event to count, as resolved from the user's spelling (`-e`). @name is the
 *  spelling perf shows (e.g. "cycles", "msr/tsc/", "power/energy-pkg/",
 *  "syscalls:sys_enter_read", "r01c2"), @pmu the PMU's sysfs name ("software", "cpu",
 *  "msr", "power", "tracepoint", "powercap"). @scale multiplies the raw count (1 unless a
 *  PMU's events/NAME.scale file says otherwise, e.g. 2.3283064365386962890625e-10 for
 *  energy-pkg) and @unit is the events/NAME.unit text ("Joules") or perf's unit for a
 *  software clock ("msec", with @scale 1e-6 from ns). Plain data, no ownership. */
struct pl_cnt_event {
	char name[PL_CNT_NAME_MAX];
	char pmu[PL_CNT_PMU_MAX];
	enum pl_cnt_source source;
	struct perf_event_attr
		attr; /**< type, config, config1, config2, a modifier's exclude_* bits */
	double scale;
	char unit[PL_CNT_UNIT_MAX];
	bool per_pkg;	 /**< events/NAME.per-pkg or a cpumask PMU: count on one CPU per package */
	char path[4096]; /**< PL_CNT_POWERCAP: the energy_uj file, sysroot-relative */
};

/** One reading of one event over one scope. @raw is the counter's value, @enabled_ns
 *  and @running_ns the times it was enabled and scheduled on the PMU (ns); @value is
 *  @raw * @scale, multiplied by enabled / running when the event was multiplexed
 *  (running < enabled; perf's scaling) and 0 with @counted false when running is 0
 *  ("<not counted>"). @supported is false when the event could not be opened on this
 *  machine ("<not supported>", with @why saying the reason). @cpu is the CPU of a
 *  --per-cpu reading (-1 otherwise), @socket the package of --per-socket (-1
 *  otherwise), @tid the thread of --per-thread (0 otherwise). */
struct pl_cnt_value {
	const struct pl_cnt_event *ev; /**< borrowed from the caller's event array */
	uint64_t raw;
	uint64_t enabled_ns, running_ns;
	double value;
	bool counted, supported;
	int cpu, socket, tid;
	char why[128];
};

/** One run or one interval: @n values (owned by the result, free with
 *  pl_cnt_result_free), over @elapsed_ns of wall time (CLOCK_MONOTONIC), starting
 *  @start_ns after the run began (0 for a whole run; the interval's start with -I). */
struct pl_cnt_result {
	struct pl_cnt_value *v;
	size_t n;
	uint64_t elapsed_ns;
	uint64_t start_ns;
	int ncpus; /**< CPUs counted (system-wide) or 0 for a process/thread scope */
};

/** The value of the event named @name summed over every scope in @r (scaled), or NAN
 *  when @r has no supported, counted reading of it. Names compare as pl_cnt_event.name. */
double pl_cnt_result_sum(const struct pl_cnt_result *r, const char *name);

/** Release @r's values (NULL-safe) and zero it. */
void pl_cnt_result_free(struct pl_cnt_result *r);

#endif
