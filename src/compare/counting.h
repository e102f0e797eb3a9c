/* SPDX-License-Identifier: GPL-3.0-or-later */
/* compare --stat: every run counted with the counting session of src/counters/. The
 * --stat list (metric and metric group names as `perflab stat -M` takes them, and event
 * names as -e takes them) becomes one compare metric per counter metric and one per
 * event, so the analysis (analyze.c) gives each a median with its CI and, against the
 * baseline, a difference with its CI and a verdict, exactly as for the times. Per run the
 * counters are opened on the held child (exec.h, pl_cmp_exec_opts.held) with
 * enable_on_exec and inherit, and read once it has been reaped. A metric or event this
 * machine cannot count gives no value (NaN) and one note, "unavailable: EVENT not on
 * this PMU". */
#ifndef PERFLAB_COMPARE_COUNTING_H
#define PERFLAB_COMPARE_COUNTING_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "compare/session.h"
#include "counters/plan.h"
#include "counters/session.h"

/** The counting of a compare experiment. Zero-initialise, pl_cmp_stat_init, free with
 *  pl_cmp_stat_free. */
struct pl_cmp_stat {
	char *spec;			 /**< the --stat list as given (owned) */
	struct pl_cnt_plan plan;	 /**< the events opened per run and the metrics */
	size_t first;			 /**< the session's index of the first counter metric */
	size_t n;			 /**< counter metrics: s->m[first .. first + n) */
	const struct pl_metric **metric; /**< per counter metric: its formula, or NULL for an
					      event (owned array, static entries) */
	char **event;			 /**< per counter metric: the event name, or NULL */
	struct pl_cnt_session cs;	 /**< the running count (open between held and collect) */
	bool open;			 /**< @cs is open */
	char err[512];			 /**< why the last pl_cmp_stat_held failed */
	char **notes;			 /**< "NAME: unavailable: ..." lines, each once (owned) */
	size_t nnotes;
	bool core;	    /**< the machine has a core PMU (pl_pmu_have_core) */
	char core_why[256]; /**< why not, when !@core */
};

/** Resolve @spec (comma-separated; commas inside "pmu/.../" and "{...}" belong to the
 *  event) into @st->plan for this machine's PMU kind, and add one compare metric per
 *  metric and per event to @s (source PL_CMP_SRC_COUNTER; unit the metric's, or the
 *  event's "msec" for task-clock, "" for a count; lower is not better or worse: the
 *  verdicts say "higher"/"lower"); sets s->stat = @st. Returns 0, or -EINVAL with one
 *  line in @err naming the input and the fix (an unknown metric, group or event, a
 *  malformed event, an empty list or name, a name that another metric of @s has). */
int pl_cmp_stat_init(struct pl_cmp_stat *st, struct pl_cmp_session *s, const char *spec, char *err,
		     size_t errlen);

/** pl_cmp_exec_opts.held for a struct pl_cmp_stat @ctx: open the plan's events on held
 *  child @pid (enable_on_exec, inherit). Returns 0; -EACCES or -EPERM when
 *  perf_event_open refused every event (the reason in st->err), or the negative errno of
 *  pl_cnt_session_open. Events this machine cannot count are kept as notes, not errors. */
int pl_cmp_stat_held(void *ctx, pid_t pid);

/** After the held child was reaped: read the counts, evaluate the metrics over a reading
 *  of @wall_s seconds, and set @vals[first + i] (the session's metric array of one run;
 *  NaN where unavailable, with the note added once); then close the count. Nothing
 *  happens when no count is open. */
void pl_cmp_stat_collect(struct pl_cmp_stat *st, double wall_s, double *vals);

/** Close a count left open (a run that failed after pl_cmp_stat_held). NULL-safe. */
void pl_cmp_stat_close(struct pl_cmp_stat *st);

/** Free @st (closing an open count). NULL-safe. */
void pl_cmp_stat_free(struct pl_cmp_stat *st);

#endif
