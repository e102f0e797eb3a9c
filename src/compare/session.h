/* SPDX-License-Identifier: GPL-3.0-or-later */
/* An experiment in progress: the metrics, the rounds and every run. Each round runs every
 * variant once in a fresh random order drawn from a seeded generator (GSL's MT19937), so a
 * slow drift of the machine hits all variants alike; warm-up rounds run the same way and
 * are kept but marked. The executor is a callback, so tests simulate experiments without
 * running anything. */
#ifndef PERFLAB_COMPARE_SESSION_H
#define PERFLAB_COMPARE_SESSION_H
#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare/exec.h"
#include "compare/experiment.h"

/** Where a metric comes from. */
enum pl_cmp_src {
	PL_CMP_SRC_WALL,    /**< wall time, s */
	PL_CMP_SRC_USER,    /**< user CPU, s */
	PL_CMP_SRC_SYS,	    /**< system CPU, s */
	PL_CMP_SRC_RSS,	    /**< max RSS, bytes */
	PL_CMP_SRC_REGEX,   /**< first capture group of a regex over the output */
	PL_CMP_SRC_GEOMEAN, /**< geometric mean of all regex metrics of the run (SPEC style) */
	PL_CMP_SRC_MONITOR, /**< the whole machine during the run (compare --monitor) */
	PL_CMP_SRC_COUNTER, /**< a counted event or a metric over them (compare --stat) */
};

/** The figures of PL_CMP_SRC_MONITOR metrics, from a monitor snapshot (src/monitor/)
 *  just before and just after each run: one interval covering the run. */
enum pl_cmp_mon {
	PL_CMP_MON_CPU,	    /**< "sys_cpu": busy % of all CPUs (mpstat's 100 - idle - iowait) */
	PL_CMP_MON_CPU_MAX, /**< "sys_cpu_max": busy % of the busiest CPU */
	PL_CMP_MON_LOAD,    /**< "load1": the 1-minute load average at the end of the run */
	PL_CMP_MON_CTXT,    /**< "ctxt_rate": context switches per second, machine-wide */
	PL_CMP_MON_N,
};

/** A metric compared between variants. */
struct pl_cmp_metric {
	char *name;	  /**< "wall", "user", "sys", "max_rss", or the --metric NAME */
	const char *unit; /**< "s", "B", or "" for parsed metrics */
	enum pl_cmp_src src;
	bool higher_better;    /**< larger is better (throughput, scores) */
	char *regex;	       /**< PL_CMP_SRC_REGEX: the POSIX extended regex as given */
	regex_t re;	       /**< compiled (REG_EXTENDED | REG_NEWLINE) */
	const char *up, *down; /**< verdict words for a larger/smaller value */
	enum pl_cmp_mon mon;   /**< PL_CMP_SRC_MONITOR: which figure */
	double resolution;     /**< clock-tick resolution in the metric's unit: user and sys
				    time are split per USER_HZ tick (1 / sysconf(_SC_CLK_TCK), 10 ms
				    at USER_HZ 100), so a run reading 0 used less than a tick; 0 for
				    the other metrics */
};

/** Settings of an experiment run. */
struct pl_cmp_config {
	size_t runs;	     /**< measured rounds with --runs (0 = adaptive --precision) */
	size_t warmup;	     /**< warm-up rounds, discarded */
	uint64_t seed;	     /**< seed of the round order (recorded) */
	double precision;    /**< adaptive: stop when every CI half-width < this (fraction) */
	size_t min_runs;     /**< adaptive: never stop before this many rounds (>= 5) */
	size_t max_runs;     /**< adaptive: stop after this many measured rounds */
	double max_time;     /**< adaptive: stop after this many seconds (0 = none) */
	double threshold;    /**< --threshold as a fraction (0.01 = 1%) */
	double alpha;	     /**< significance level (0.05) */
	double level;	     /**< confidence level of the intervals (0.95) */
	bool ignore_failure; /**< keep going when the command exits non-zero */
	bool show_output;    /**< let the commands print to the terminal */
	bool shell;	     /**< commands through /bin/sh -c */
};

/** A seed for --seed's default: the realtime clock mixed with the process id, cut to the
 *  32 bits MT19937 takes. Recorded in the output, so the order can be replayed. */
uint64_t pl_cmp_seed_from_clock(void);

/** One run. */
struct pl_cmp_run {
	size_t variant; /**< index into the experiment's variants */
	size_t round;	/**< round number from 0 (warm-up rounds first) */
	size_t slot;	/**< position in the round's order */
	bool warmup;
	struct pl_cmp_usage u;
	double *val; /**< one value per metric (NaN when missing) */
};

struct pl_cmp_session;
struct pl_cmp_stat;

/** Executor: run variant @variant once (round @round) and fill @u and @vals (one per
 *  metric; the wait4 metrics are filled by the caller from @u). Return 0, or -errno with a
 *  one-line reason in @err: the experiment stops. -EINTR means interrupted. */
typedef int (*pl_cmp_exec_fn)(void *ctx, struct pl_cmp_session *s, size_t variant, size_t round,
			      struct pl_cmp_usage *u, double *vals, char *err, size_t errlen);
/** Progress callback after each measured round. */
typedef void (*pl_cmp_progress_fn)(void *ctx, const struct pl_cmp_session *s, double ci_half);

/** The experiment state. */
struct pl_cmp_session {
	const struct pl_cmp_config *cfg;
	struct pl_cmp_experiment *exp;
	struct pl_cmp_metric *m;
	size_t nm;
	struct pl_cmp_run *runs;
	size_t nruns;
	size_t nrounds;		  /**< rounds done, warm-up included */
	size_t measured;	  /**< measured (non-warm-up) rounds done */
	size_t *order;		  /**< nrounds * nvariants: order[r * nv + slot] = variant */
	double elapsed_s;	  /**< wall time of the whole experiment */
	const char *stop_reason;  /**< "runs", "precision", "max-runs", "max-time", "interrupted" */
	bool interrupted;	  /**< a signal stopped the rounds: the runs of the round it cut
				       short are dropped, the completed rounds stay */
	bool monitor;		  /**< sample the machine around every run (add_monitor) */
	struct pl_cmp_stat *stat; /**< count every run (compare --stat, counting.h), or NULL;
				       borrowed */
};

/** Set up @s: the wait4 metrics (wall, user, sys, max_rss), then one per --metric
 *  "NAME=REGEX" in @metric_specs (NULL-terminated, may be NULL), then "geomean" when
 *  @geomean. Returns 0 or -EINVAL with a reason in @err (no '=', bad regex, no capture
 *  group, duplicate name, geomean without metrics). */
int pl_cmp_session_init(struct pl_cmp_session *s, const struct pl_cmp_config *cfg,
			struct pl_cmp_experiment *exp, char *const *metric_specs,
			bool higher_better, bool geomean, char *err, size_t errlen);
/** Add the machine-wide metrics of compare --monitor (sys_cpu, sys_cpu_max in %,
 *  load1, ctxt_rate per s; lower is better) after the others, and have every run
 *  sampled: a monitor snapshot before and after the executor, whose interval gives the
 *  values (src/monitor/rates.h), so a change that saves CPU outside the measured process
 *  (an offload, a kernel thread) gets a verdict with the usual statistics. */
void pl_cmp_session_add_monitor(struct pl_cmp_session *s);
/** Add a PL_CMP_SRC_COUNTER metric @name (copied) of unit @unit (static) after the
 *  others (counting.h fills its values); lower is not better or worse, the verdicts say
 *  "higher" or "lower". Returns it, or NULL when @name is taken. */
struct pl_cmp_metric *pl_cmp_session_add_counter(struct pl_cmp_session *s, const char *name,
						 const char *unit);
/** Free. NULL-safe. */
void pl_cmp_session_free(struct pl_cmp_session *s);

/** Run the rounds with executor @fn until the stop rule of @cfg says so. Returns 0, or the
 *  executor's error; the runs done so far stay in @s. -EINTR: interrupted; then the runs
 *  of the unfinished round are dropped, s->interrupted is set and s->stop_reason is
 *  "interrupted", so @s holds completed rounds only and can be reported. */
int pl_cmp_session_run(struct pl_cmp_session *s, pl_cmp_exec_fn fn, void *ctx,
		       pl_cmp_progress_fn progress, void *pctx, char *err, size_t errlen);

/** Values of metric @m for variant @v, one per measured round (NaN where missing), into a
 *  malloc'd array of s->measured entries. */
double *pl_cmp_values(const struct pl_cmp_session *s, size_t m, size_t v);

/** Largest CI half-width (fraction) over the comparisons of metric @m, or INFINITY when a
 *  comparison has fewer than 2 values. Used by --precision. */
double pl_cmp_ci_halfwidth(const struct pl_cmp_session *s, size_t m);

/** Parse metric @m of a run from @output (the first matching line; first capture group
 *  as a number). Returns 0, -ENOENT when no line matches, -EINVAL when the capture is not
 *  a number. */
int pl_cmp_parse_metric(const struct pl_cmp_metric *m, const char *output, double *out);

#endif
