/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab stat's outputs: the text table in perf stat's layout (count with thousands
 * separators, unit, event, then "# value unit" of the metric that reads the event,
 * "(NN.NN%)" when multiplexed; tools/perf/util/stat-display.c) and the JSON document
 * (docs/schemas/stat.schema.json) with the members of `perf stat -j` per event, for a
 * whole run or one interval. */
#ifndef PL_COUNTERS_OUTPUT_H
#define PL_COUNTERS_OUTPUT_H
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "counters/counters.h"
#include "counters/metric.h"

/** What one output shows. Pointers are borrowed. */
struct pl_cnt_report {
	const struct pl_cnt_result *r; /**< values key-major: @nevs per CPU/socket/thread */
	size_t nevs;
	const struct pl_metric *const *metrics; /**< evaluated per key; @nmetrics */
	size_t nmetrics;
	const char *what;     /**< "'sleep 1'", "system wide", "process id 42", ... */
	const char *target;   /**< "command", "pids", "cpus", "cgroup" */
	const char *per;      /**< "cpu", "socket", "thread" or NULL (summed) */
	bool core;	      /**< a core PMU exists */
	const char *core_why; /**< why not, when !@core */
	bool command;	      /**< a command ran: its status and times are shown */
	int wait_status;      /**< its wait(2) status */
	double user_s, sys_s; /**< its CPU time */
	bool interrupted;
	/** The name of thread @tid for --per-thread ("" when unknown), or NULL. */
	const char *(*comm)(const void *ctx, int tid);
	const void *comm_ctx;
	bool group_fallback; /**< groups were read per event */
	bool default_set;    /**< perf's default events: without a core PMU the note says
			      *   why its hardware events are missing */
	/** Readings every metric sees beside the counted ones, not shown as events: the
	 *  "#slots" of the core PMU's caps/slots (metric.h). @nconsts of them, or NULL. */
	const struct pl_cnt_value *consts;
	size_t nconsts;
};

/** Write the whole run's table to @out (perf stat's layout). Returns 0 or -EIO. */
int pl_cnt_write_text(FILE *out, const struct pl_cnt_report *rep);

/** Write one interval's lines to @out: "TIME COUNT UNIT EVENT # METRIC" per event, as
 *  perf stat -I prints (a header line first when @header). Returns 0 or -EIO. */
int pl_cnt_write_interval(FILE *out, const struct pl_cnt_report *rep, bool header);

/** The JSON document of @rep (new reference): a whole run, or with @interval one
 *  interval's object (written as one line by the caller). */
json_t *pl_cnt_json(const struct pl_cnt_report *rep, bool interval);

struct pl_cnt_regions;

/** Write the regions @names (comma-separated) of @rs to @out after the run's table: the
 *  run's marker status as one line when it is not OK, then per region "Region 'NAME':
 *  I instances in T threads, S s inside (U unpaired begins or ends)" and its events and
 *  metrics in the table's layout over the region's counts (@rep gives the events and
 *  metrics; its values are not read). A name the run never marked is one line saying
 *  so. Returns 0 or -EIO. */
int pl_cnt_write_regions(FILE *out, const struct pl_cnt_report *rep,
			 const struct pl_cnt_regions *rs, const char *names);

/** The "regions" member for @rs and @names (new reference), as pl_cnt_write_regions
 *  says: {"status", "reason", "dropped", "list": [{"region", "instances", "threads",
 *  "time_s", "unpaired", "unread", "events": [as the run's events], "metrics": [...]}]}
 *  (docs/schemas/stat.schema.json); a region with no instances has instances 0 and
 *  empty events. */
json_t *pl_cnt_regions_json(const struct pl_cnt_report *rep, const struct pl_cnt_regions *rs,
			    const char *names);

/** @n as an integer with thousands separators ("1,234,567") into @buf; returns @buf. */
char *pl_cnt_fmt_count(char *buf, size_t len, double n);

#endif
