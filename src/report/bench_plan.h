/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The benchmark plan of `perflab report`: which in_report benchmarks run, with which
 * arguments, how many repetitions and what sizes, within the time budget of the mode.
 *
 *   quick    about 15 s: each benchmark's quick_argv (a second or two each; small sizes,
 *            1-3 runs; the figures say so in their notes)
 *   default  about 60 s: each benchmark's report_argv (NULL = its own defaults) with
 *            --precision PL_REPORT_PRECISION: runs until its headline metrics' 95% CI of
 *            the median is within 1% (at least 6 runs), mem's arrays 4x the last-level
 *            cache (or capped by free memory, with the reason), io on a file read cold or
 *            O_DIRECT; what the same benchmark run alone with its defaults measures, so
 *            the figures agree with standalone runs. Each benchmark's --max-time is an
 *            even share of the budget left when it starts (what is left over / the
 *            benchmarks not yet run, so what the earlier ones overran is taken from the
 *            later ones' shares), counted from before its setup, so the time a quiet
 *            benchmark does not need goes to the noisier ones after it; and a noisy one
 *            whose runs project the 1% within what is left, less
 *            PL_BENCH_PLAN_RESERVE_S for each benchmark after it, goes on past its share
 *            (pl_bench_stop_rule()): the budget goes where the noise is and the runs
 *            say it will buy the figure
 *   full     no budget: each benchmark with its own defaults
 *
 * The budget is enforced by the report: in the default mode a benchmark that would start
 * after it is used runs with its quick arguments until its floor of
 * PL_BENCH_PRECISION_FLOOR_RUNS runs (and says so, naming the benchmarks that took the
 * time), in the quick mode
 * it is listed as skipped with that reason. `perflab report --dry-run` prints the plan. */
#ifndef PERFLAB_REPORT_BENCH_PLAN_H
#define PERFLAB_REPORT_BENCH_PLAN_H
#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

#include "bench/bench.h"

/** The precision the default plan asks of every benchmark (bench --precision). */
#define PL_REPORT_PRECISION "1%"

/** The --max-time, seconds, of a benchmark that starts after the default plan's budget is
 *  used: so short that it stops at its floor of PL_BENCH_PRECISION_FLOOR_RUNS runs. */
#define PL_BENCH_PLAN_OVER_S 0.001
/** Seconds of the default plan's budget set aside for each benchmark not yet run when
 *  an earlier one goes on past its share: a setup and a floor of 3 runs of the slower
 *  benchmarks (io, mem and compress take 3-5 s for that on a 2-vCPU guest; clock and
 *  syscall reach 1% in under a second). */
#define PL_BENCH_PLAN_RESERVE_S 5.0
/** The report's benchmark modes. */
enum pl_bench_mode { PL_BENCH_MODE_QUICK, PL_BENCH_MODE_DEFAULT, PL_BENCH_MODE_FULL };

/** One benchmark of the plan. */
struct pl_bench_plan_item {
	const struct pl_bench *b;
	int argc;		 /**< words in argv */
	const char *const *argv; /**< the arguments, as after "bench NAME", NULL-terminated
				      (the array is the plan's; its strings are static or the
				      plan's cpus) */
	unsigned runs, warmup;	 /**< measured and warm-up repetitions these arguments give */
	json_t *detail;		 /**< what the benchmark's plan() said (sizes, reasons), or NULL */
};

/** The plan of one mode. */
struct pl_bench_plan {
	enum pl_bench_mode mode;
	double budget_s;     /**< seconds; 0 = none (full) */
	double reserve_s;    /**< seconds set aside per item not yet run when one goes past
				  its share (PL_BENCH_PLAN_RESERVE_S from pl_bench_plan_make();
				  0 = never past the share) */
	const char *cpus;    /**< --cpus LIST given to every benchmark (NULL = none); the
				  caller's string, which must outlive the plan */
	const char *workdir; /**< the runner options' workdir of every run (bench.h; NULL =
				  the current directory); the caller's string, set after
				  pl_bench_plan_make(), which must outlive the runs */
	struct pl_bench_plan_item *items;
	size_t n;
};

/** "quick", "default" or "full". */
const char *pl_bench_mode_name(enum pl_bench_mode mode);
/** The time budget of @mode in seconds: 15, 60, or 0 (none) for full. */
double pl_bench_mode_budget(enum pl_bench_mode mode);

/** Plan every in_report benchmark for @mode, in registry order, into @p, each with
 *  "--cpus @cpus" after the mode's arguments when @cpus is not NULL (`report --cpus`;
 *  also for the quick arguments of a benchmark run over budget). Returns 0, or
 *  -EINVAL when a benchmark's arguments for this mode do not parse (a perflab bug; the
 *  parser's message is on stderr). Free @p with pl_bench_plan_free(). */
int pl_bench_plan_make(struct pl_bench_plan *p, enum pl_bench_mode mode, const char *cpus);
/** Leave benchmark @name out of @p (its result was given with `report --from`, so it is
 *  not measured again). Returns the number of items dropped (0 or 1). */
size_t pl_bench_plan_drop(struct pl_bench_plan *p, const char *name);
/** Free what pl_bench_plan_make() allocated. NULL-safe. */
void pl_bench_plan_free(struct pl_bench_plan *p);
/** The plan as JSON: {"mode", "budget_s", "benchmarks": [{"benchmark", "args", "runs",
 *  "warmup", ...detail}]} (docs/schemas/report-plan.schema.json). New reference. */
json_t *pl_bench_plan_json(const struct pl_bench_plan *p);
/** Run one item of @p (pl_bench_run_args() with its arguments and the plan's workdir;
 *  runner.quick set in quick mode; in the default mode with a --max-time of the budget
 *  over the number of items). Returns the new result document. */
json_t *pl_bench_plan_run(const struct pl_bench_plan *p, const struct pl_bench_plan_item *it);
/** The default plan's time for item @i (0-based) of @p when @used seconds of the budget
 *  are spent: *@share = what is left / the items not yet run (seconds, counted from
 *  before the item's setup); *@cap = what is left less @p's reserve_s for each item
 *  after @i (0 when reserve_s is 0), the most it may take while its runs project the precision, or
 * 0 when that is not above *@share (always 0 once the budget is spent, when *@share is 0 or
 *  negative). @i < p->n. */
void pl_bench_plan_share(const struct pl_bench_plan *p, size_t i, double used, double *share,
			 double *cap);
/** Why the budget of @p is used up, naming what took the time: "the report's time budget
 *  of 60 s was used up after 150 s (bench mem took 141 s, bench clock 6 s, bench syscall 2 s)"
 *  from @secs[0..n-1], the seconds each of the first @n items of @p took, and @used, the
 *  seconds since the first started; the three longest (after the first, those of 1 s or
 *  more), longest first. New string, owned by the caller. */
char *pl_bench_plan_budget_cause(const struct pl_bench_plan *p, const double *secs, size_t n,
				 double used);
/** What the report runs for @it once the budget of @p is used up, @cause saying why
 *  (pl_bench_plan_budget_cause()): in the default mode the benchmark with its quick_argv
 *  without --runs followed by its report_argv, until its floor of runs (runner.quick
 *  true, a first note "CAUSE: ran with its brief --quick sizes ...", so
 *  every figure is still there, marked brief); in the quick mode a "skipped" result with
 *  that reason. New reference. */
json_t *pl_bench_plan_over_budget(const struct pl_bench_plan *p,
				  const struct pl_bench_plan_item *it, const char *cause);
/** Run every item of @plan in order, appending each result document to @arr (a JSON
 *  array), within the plan's budget: an item that would start after budget_s is used
 *  runs as pl_bench_plan_over_budget() says. Stops before the next item once *@stop is
 *  set (SIGINT; set here too when a benchmark comes back "interrupted"). @progress (may
 *  be NULL) is called with the item's index and "bench NAME" before each. Returns the
 *  seconds the benchmarks took (CLOCK_MONOTONIC). */
double pl_bench_plan_run_all(const struct pl_bench_plan *plan, json_t *arr,
			     volatile sig_atomic_t *stop,
			     void (*progress)(size_t k, const char *what, void *ctx), void *ctx);
/** `perflab report --dry-run`: @plan to @out, as JSON (pl_bench_plan_json()) when @json,
 *  else one line per benchmark with its runs, warm-ups, arguments and the sizes its
 *  plan() gave. Returns 0 or -EIO (a write error). */
int pl_bench_plan_print(FILE *out, const struct pl_bench_plan *plan, bool json);

#endif
