/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The benchmark engine. A benchmark is a descriptor (struct pl_bench, one file per
 * benchmark, listed in src/bench/list.h); the runner (runner.c: the run loop; api.c:
 * what a benchmark calls; result.c: the result document and its table) owns everything
 * the benchmarks share: option parsing and --help from the option tables, warm-up,
 * repetitions (--runs / --min-time), CPU pinning (--cpus), memory placement (--membind),
 * the progress bar, SIGINT/SIGTERM, statistics, environment capture, idle/spread warnings
 * and the output (table, --json, -o FILE).
 *
 * Life of a run: supported() -> setup() (declares metrics with pl_bench_metric(), may
 * allocate) -> warm-up calls of run() whose values are discarded -> measured calls of
 * run(), each recording one value per metric with pl_bench_record() -> teardown() (always
 * called after a successful setup, also after SIGINT and errors).
 *
 * Units: time in ns, bandwidth in GB/s = 10^9 B/s, rates per second. */
#ifndef PERFLAB_BENCH_BENCH_H
#define PERFLAB_BENCH_BENCH_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "stats/hist.h"
#include "util/clock.h"
#include "util/cpuset.h"
#include "util/opt.h"

/** Direction of a metric. */
enum pl_better {
	PL_LOWER_IS_BETTER,  /**< times, latencies: "best" is the minimum */
	PL_HIGHER_IS_BETTER, /**< bandwidths, rates: "best" is the maximum */
	PL_NEITHER,	     /**< a measured quantity with no preference (ticks/s) */
};

/** Runner state seen by a benchmark (opaque; use the accessors below). */
struct pl_bench_ctx;

/** A benchmark descriptor. Everything but name, summary and run is optional. */
struct pl_bench {
	const char *name;	 /**< "clock": `perflab bench clock` */
	const char *summary;	 /**< one line for --list */
	const char *description; /**< paragraph(s) for --help: method and its source */
	/** The benchmark's own option table; offsets point into its options struct, which the
	 *  runner allocates (opts_size bytes) and fills from opts_defaults first. */
	const struct pl_opt *opts;
	size_t opts_size;
	const void *opts_defaults;
	unsigned default_runs;	 /**< measured repetitions without --runs/--min-time (0 = 5) */
	unsigned default_warmup; /**< discarded repetitions without --warmup (0 = none) */
	double max_cv;		 /**< spread warning threshold, stddev/mean (0 = 0.05) */
	bool uses_all_cpus;	 /**< one thread per CPU of the set (mem); else the runner pins
				      the calling thread to the set and the benchmark is
				      single-threaded */
	bool pins_threads;	 /**< the benchmark pins each of its threads to one CPU itself
				      (mem, ticks), with or without --cpus: the result says "pinned" */
	/** Arguments of a brief run (a second or two): used by `--quick`, the registry smoke
	 *  test and, when in_report, `perflab report --quick` (about 15 s for all of them).
	 *  NULL-terminated; NULL = no extra arguments. */
	const char *const *quick_argv;
	/** Arguments of the default `perflab report` (about 60 s for every in_report
	 *  benchmark together; report/bench_plan.h): the run count and sizes that make the figure
	 * mean what the same benchmark run alone with its defaults means (at least 3 runs, mem's
	 * arrays sized as by default), narrowed only where the defaults take far longer than the
	 * budget allows (compress: one level per backend). NULL-terminated; NULL = the benchmark's
	 * own defaults. */
	const char *const *report_argv;
	bool in_report; /**< run by `perflab report` (report/bench_plan.h says with which arguments)
			 */
	/** The headline metrics: fnmatch(3) patterns of the names of the metrics the report's
	 *  key numbers read (report/keynums.c: clock "gettimeofday", mem "triad", ...),
	 *  NULL-terminated. --precision waits for each metric of the run whose name matches;
	 *  when none does (NULL, or options that measure something else) the run's first
	 *  declared metric is the headline. */
	const char *const *headline;
	/** Optional: what a run with @opts would use, without measuring or allocating much:
	 *  sizes and their reasons (mem: "array_bytes", "size_reason"; io: "file_bytes",
	 *  "cache") as members of @plan (an object). For `perflab report --dry-run`, whose
	 *  test checks them against the facts. */
	void (*plan)(const void *opts, json_t *plan);
	/** Can it run here (live system, kernel features, privileges) with @opts? Returns 0,
	 *  or -errno (-ENOTSUP, -EPERM...) with a one-line reason in @reason (@len bytes,
	 *  initially ""). It may return 0 and still leave a note in @reason about a part
	 *  that does not run here (io: "io_uring: not available (...)"). `bench --list`
	 *  calls it with the default options for its "here" column; NULL = always runs. */
	int (*supported)(const void *opts, char *reason, size_t len);
	/** Optional: a mode that is not a measurement, such as a server waiting for
	 *  clients (bench net --server). Called after option parsing, supported(), pinning
	 *  and the SIGINT/SIGTERM handlers are in place, before setup(). Returns -ENOENT to
	 *  run the benchmark normally with these options, or an exit code (log.h) when it
	 *  handled the whole run itself (set the message of codes 2 and 3 with
	 *  pl_bench_error()); it must return soon after pl_bench_stopped(). No result
	 *  document is written. */
	int (*standalone)(struct pl_bench_ctx *ctx, void *opts);
	/** Declare metrics, allocate, validate option combinations. Returns 0 or -errno; on
	 *  error set the message with pl_bench_error(). -EINVAL means bad input (exit 2),
	 *  anything else a runtime failure (exit 3). *state is passed to run/teardown. */
	int (*setup)(struct pl_bench_ctx *ctx, void *opts, void **state);
	/** One repetition: record one value per metric. Return 0, -EINTR when it noticed
	 *  pl_bench_stopped() (the partial repetition is dropped), or -errno with
	 *  pl_bench_error(). */
	int (*run)(struct pl_bench_ctx *ctx, void *opts, void *state);
	/** Undo setup (free memory, restore settings). Always called after setup succeeded. */
	void (*teardown)(struct pl_bench_ctx *ctx, void *opts, void *state);
};

/** Declare a metric; returns its index (0, 1, ...). @unit "ns", "GB/s", "1/s"...;
 *  @help one line (may be NULL). Call from setup() only. Strings are copied. */
int pl_bench_metric(struct pl_bench_ctx *ctx, const char *name, const char *unit,
		    enum pl_better better, const char *help);
/** Attach a string annotation to metric @m ("via" = "vdso"); shown in the table and JSON. */
void pl_bench_metric_note(struct pl_bench_ctx *ctx, int m, const char *key, const char *value);
/** Record the value of metric @m for the current repetition (ignored during warm-up). */
void pl_bench_record(struct pl_bench_ctx *ctx, int m, double value);
/** A per-operation latency histogram for metric @m (created on first call, unit ns,
 *  PL_HIST_BITS precision), reported as p50/p90/p99/p99.9/max. Merge per-thread
 *  histograms into it with pl_hist_merge(). Values recorded during warm-up are
 *  discarded by the runner. */
struct pl_hist *pl_bench_hist(struct pl_bench_ctx *ctx, int m);

/** Replace the benchmark's one-line summary (the table title and JSON "summary") for
 *  this run, when an option changes what it measures (bench mem --latency measures
 *  load-to-use latency, not bandwidth). @summary is borrowed and must outlive the run:
 *  pass a string literal. */
void pl_bench_set_summary(struct pl_bench_ctx *ctx, const char *summary);
/** Benchmark-specific facts about the run ({"array_bytes":..,"reason":..}); borrowed
 *  object, printed in the table header and under "info" in JSON. */
json_t *pl_bench_info(struct pl_bench_ctx *ctx);
/** A note for humans (also in JSON "notes"): how a default was chosen, why a part is
 *  skipped. */
void pl_bench_note(struct pl_bench_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** A warning (printed on stderr at the end and in JSON "warnings"). */
void pl_bench_warn(struct pl_bench_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** Set the error message for a failing setup/run (one line: names the input and the
 *  fix). */
void pl_bench_error(struct pl_bench_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/** Mark the measurements as wrong (a failed validation, e.g. STREAM's check): the result
 *  is still printed, with "status":"failed" and this reason, and the command exits 3.
 *  May be called from run() or teardown(). */
void pl_bench_invalidate(struct pl_bench_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/** True once SIGINT/SIGTERM arrived: long loops should return -EINTR soon. */
bool pl_bench_stopped(const struct pl_bench_ctx *ctx);
/** The signal (SIGINT, SIGTERM) that stopped the last benchmark run, 0 when none did: the
 *  runner's handlers replace the caller's during a run, so a caller with handlers of its
 *  own (perflab-mpi) learns of a signal that came meanwhile here. */
int pl_bench_stop_signal(void);
/** The runner's --max-time in seconds (0 = not given): bench net --server takes it as the
 *  longest test a client may ask. */
double pl_bench_max_time(const struct pl_bench_ctx *ctx);
/** True during warm-up repetitions. */
bool pl_bench_warming_up(const struct pl_bench_ctx *ctx);
/** The CPUs of the run: --cpus, or the process's affinity when not given. */
const struct pl_cpuset *pl_bench_cpus(const struct pl_bench_ctx *ctx);
/** True when --cpus was given. */
bool pl_bench_pinned(const struct pl_bench_ctx *ctx);
/** Says that the benchmark pinned its threads itself in this run (bench net's default
 *  loopback placement), so the result reads "pinned" (runner.pinned, environment.pinning)
 *  as for --cpus or a benchmark whose descriptor has pins_threads. */
void pl_bench_pinned_by_bench(struct pl_bench_ctx *ctx);
/** True when run from `perflab report` with the quick arguments. */
bool pl_bench_is_quick(const struct pl_bench_ctx *ctx);
/** The directory on whose file system a benchmark that needs files (io) creates them
 *  when not told otherwise: the workdir of the run's options (struct pl_bench_run_opts),
 *  NULL = the current directory. Borrowed for the run. */
const char *pl_bench_workdir(const struct pl_bench_ctx *ctx);

/** Register an async-signal-safe function (open/write/close only) that undoes a system
 *  change (e.g. a clocksource switch) when a second SIGINT/SIGTERM kills the run before
 *  teardown() could; NULL to clear. The first signal only sets pl_bench_stopped(). */
void pl_bench_set_emergency(void (*fn)(void));

/** Pin the calling thread to one CPU. Returns 0 or -errno. */
int pl_bench_pin_thread(unsigned cpu);

/** A timed loop: run @iters iterations of the operation under test and return the
 *  elapsed ns (CLOCK_MONOTONIC around the loop). */
typedef uint64_t (*pl_bench_loop_fn)(void *arg, uint64_t iters);
/** A sink for results of timed loops, so the compiler keeps the work. */
extern volatile uint64_t pl_bench_sink;

/** Define `static uint64_t fn(void *arg, uint64_t n)`, a pl_bench_loop_fn that runs
 *  @stmt n times between two pl_now_ns() reads. @stmt may use `arg` and add results into
 *  the local `uint64_t acc` (stored into pl_bench_sink afterwards). The loop is a plain
 *  for loop around @stmt, so a direct call in @stmt costs what it costs in a user's loop. */
#define PL_BENCH_TIMED_LOOP(fn, ...)                                                               \
	static uint64_t fn(void *arg, uint64_t n)                                                  \
	{                                                                                          \
		(void)arg;                                                                         \
		uint64_t acc = 0;                                                                  \
		uint64_t t0 = pl_now_ns();                                                         \
		for (uint64_t i_ = 0; i_ < n; i_++) {                                              \
			__VA_ARGS__;                                                               \
		}                                                                                  \
		uint64_t t1 = pl_now_ns();                                                         \
		pl_bench_sink = acc;                                                               \
		return t1 - t0;                                                                    \
	}

/** Choose the iteration count for which @loop takes about @target_ns: grows from 1
 *  until a loop takes >= target/8, then scales by the fastest of three loops of that
 *  count (the approach of Google Benchmark's iteration growth; the minimum discards
 *  preemptions). Returns >= 1. */
uint64_t pl_bench_calibrate(pl_bench_loop_fn loop, void *arg, uint64_t target_ns);

/* ---- registry (registry.c) ---- */

/** All benchmarks in the order of src/bench/list.h. */
extern const struct pl_bench *const pl_benches[];
extern const size_t pl_nbenches;
/** The benchmark called @name, or NULL. */
const struct pl_bench *pl_bench_find(const char *name);

/* ---- runner entry points (runner.c; the output of a result: result.c) ---- */

/** The runner's options, filled by parsing pl_bench_runner_opts (src/cmd/bench.c). */
struct pl_bench_run_opts {
	int runs;		   /**< --runs N; 0 = not given */
	double min_time;	   /**< --min-time, seconds; 0 = not given */
	int warmup;		   /**< --warmup N; -1 = not given */
	const char *cpus;	   /**< --cpus LIST, or NULL */
	const char *membind;	   /**< --membind NODES, or NULL */
	bool list;		   /**< --list */
	bool quick;		   /**< --quick */
	bool histogram;		   /**< --histogram: latency_ns.buckets in the JSON */
	int format;		   /**< --format: an enum pl_bench_format */
	const char *precision_arg; /**< --precision P as given ("1%"), or NULL */
	double precision;	   /**< --precision as a fraction (0.01); 0 = fixed count.
					Set by pl_bench_run_opts_check() */
	double max_time;	   /**< --max-time, seconds: no run starts after this much time
					of runs; 0 = not given (with --precision:
					PL_BENCH_PRECISION_MAX_TIME) */
	/** Not an option: the directory on whose file system benchmarks that need files (io)
	 *  create them when not told otherwise; NULL = the current directory. `perflab
	 *  report` points it at its report directory (or, while that does not exist yet, the
	 *  directory that will hold it) through struct pl_bench_plan's workdir. Borrowed. */
	const char *workdir;
	/** Not an option: set by pl_bench_run_opts_check() when --precision took
	 *  PL_BENCH_PRECISION_MAX_TIME because no --max-time was given. */
	bool max_time_default;
	/** Not an option: max_time is this benchmark's share of `perflab report`'s time
	 *  budget (pl_bench_run_share()); it counts from before setup, so setup time is
	 *  part of the share, and the result's words name the share, not --max-time. */
	bool max_time_report;
	/** Not an option: with max_time_report, the most seconds (counted as max_time is)
	 *  this benchmark may take from the report's budget, the time the benchmarks after
	 *  it are guaranteed set aside: past its share (max_time) its runs go on while they
	 *  project the precision within this (pl_bench_stop_rule()). 0: no going past. */
	double max_time_cap;
};
/** --max-time when --precision is given without it, seconds: the budget of the default
 *  `perflab report` for all its benchmarks together. */
#define PL_BENCH_PRECISION_MAX_TIME 60.0
/** The largest --precision, as a fraction: a wider interval says nothing. */
#define PL_BENCH_PRECISION_MAX 0.5
/** With --precision, the most measured runs (detected warm-up included): a run of a few
 *  microseconds would otherwise spend the whole --max-time adding runs. */
#define PL_BENCH_PRECISION_MAX_RUNS 1000
/** With --precision, the fewest measured runs before --max-time may stop a series: a
 *  median and a spread need three, and `perflab report`'s share of its budget for a slow
 *  benchmark on a busy machine may be shorter than one run. */
#define PL_BENCH_PRECISION_FLOOR_RUNS 3

/** Check and complete @ro after parsing: --precision into a fraction (0 < P <= 50%),
 *  --runs with --precision refused when @runs_given (the user's --runs; a --runs of
 *  --quick's arguments yields to --precision and is cleared), with --precision max_time
 *  defaulted to PL_BENCH_PRECISION_MAX_TIME and a --min-time above it refused. Returns 0,
 *  or -EINVAL after one error line naming the option and the fix (pl_error()). */
int pl_bench_run_opts_check(struct pl_bench_run_opts *ro, bool runs_given);

/** Why a --precision run stopped (runner.precision.stop in the result). */
enum pl_bench_stop {
	PL_BENCH_STOP_NONE,	   /**< go on */
	PL_BENCH_STOP_PRECISION,   /**< every headline metric within the precision */
	PL_BENCH_STOP_MAX_TIME,	   /**< --max-time passed */
	PL_BENCH_STOP_MAX_RUNS,	   /**< PL_BENCH_PRECISION_MAX_RUNS runs done */
	PL_BENCH_STOP_INTERRUPTED, /**< SIGINT/SIGTERM */
};
/** Seconds more of runs that @counted runs (after the detected warm-up), whose widest
 *  headline interval has the relative half-width @worst, project to need to reach
 *  @precision (fractions both) at @run_s seconds per run: 0 when @worst is within it;
 *  INFINITY while there are too few runs for an interval (no interval, no projection)
 *  or @worst is not finite; else the runs that shrink the half-width to @precision, which falls as
 * 1/sqrt(runs) (the sample median is asymptotically normal with a standard error proportional to
 *  1/sqrt(n), so its order-statistic interval narrows at that rate: Conover, "Practical
 *  Nonparametric Statistics", 3.2; Le Boudec, "Performance Evaluation of Computer and
 *  Communication Systems", 2.2): counted x ((worst / precision)^2 - 1) runs. */
double pl_bench_projected_s(size_t counted, double worst, double precision, double run_s);

/** The stop rule of --precision, after a measured run: PRECISION when @counted runs (after
 *  the detected warm-up) are at least PL_SETTLE_MIN_RUNS, @worst (the largest relative
 *  half-width of the headline metrics' 95% CIs of the median, pl_settle_precision()) is
 *  at most ro->precision and @elapsed_s at least ro->min_time; else MAX_RUNS when @done
 *  (all measured runs) reached PL_BENCH_PRECISION_MAX_RUNS; else MAX_TIME when
 *  @elapsed_s (seconds since the first run, fixed warm-up included) reached
 *  ro->max_time and @done is at least PL_BENCH_PRECISION_FLOOR_RUNS, unless
 *  ro->max_time_cap is later and @elapsed_s plus pl_bench_projected_s() at @run_s
 *  seconds per run (the mean of the runs so far) is within it: a share of the report's
 *  budget extended where the noise needs it and the runs say it will pay; MAX_TIME at
 *  the cap in any case. Else NONE. */
enum pl_bench_stop pl_bench_stop_rule(const struct pl_bench_run_opts *ro, size_t counted,
				      size_t done, double worst, double elapsed_s, double run_s);
/** The name of @s in the result: "precision", "max-time", "max-runs", "interrupted"
 *  (NULL for NONE). */
const char *pl_bench_stop_name(enum pl_bench_stop s);

/** The words of a result's runner.precision @p (bench.schema.json; NULL when @p is not an
 *  object): "+-0.42% for triad (95% CI of the median, 23 runs after 2 warm-up, stopped:
 *  precision reached, within 1%)", the headline metric with the widest interval named. The
 *  bench table's precision line and the report's runner line. New string, or NULL. */
char *pl_bench_precision_text(const json_t *p);

/** A percentage as the outputs print it, never in exponent notation: whole numbers from
 *  10 ("140"), two significant digits below ("1.4", "0.42", "0.0042"), "<0.0001" below
 *  that. Writes @buf (at least 16 bytes); returns it. */
const char *pl_bench_pct(char *buf, size_t len, double pct);

/** The 95% interval [@lo, @hi] of the median @med in words relative to @med: "+-11%"
 *  when its sides are alike, "-6%/+31%" when the larger side is more than 1.5 times the
 *  smaller (a "+-" of the larger side would misstate the other), NULL when an input is
 *  not finite or @med is 0. The bench table's, report's and key numbers' precision.
 *  New string, or NULL. */
char *pl_bench_ci_text(double med, double lo, double hi);

/** The caveat of a figure from @n runs, the one rule the bench result's warnings and the
 *  report's caveats share: "1 run: no spread (...)" for 1, "2 runs: too few runs for a
 *  spread (...)" for 2, "no runs: nothing was measured" for 0, NULL from 3 on. *@tag
 *  (optional) gets its short form (static). @hint adds what to rerun with. New string. */
char *pl_bench_runs_caveat(long long n, bool hint, const char **tag);

/** The spread caveat of a figure of @n runs with coefficient of variation @cv (a
 *  fraction) over @max_cv: "spread too wide (cv 13.8% > 5%)" (two decimals where one
 *  would print the threshold), NULL when @n < 3, @cv is not finite or within @max_cv.
 *  The runner's warning and the report's per-figure caveat. New string. */
char *pl_bench_spread_caveat(long long n, double cv, double max_cv);

/** --format values, in the order of the option's choices ("text", "json", "prom"). */
enum pl_bench_format { PL_BENCH_FMT_TEXT, PL_BENCH_FMT_JSON, PL_BENCH_FMT_PROM };

/** The runner's option table (--runs, --min-time, --warmup, --cpus, --membind, --list,
 *  --quick), shared by every benchmark; a benchmark's own options must not reuse these
 *  names or the global ones (tests/bench/test_bench.c checks). Fields of
 *  struct pl_bench_run_opts. */
extern const struct pl_opt pl_bench_runner_opts[];

/** A new option struct of @b (b->opts_size bytes, b->opts_defaults copied in); free it
 *  with pl_bench_opts_free(). */
void *pl_bench_opts_new(const struct pl_bench *b);
/** Free @o from pl_bench_opts_new(), with the string lists its options own. */
void pl_bench_opts_free(const struct pl_bench *b, void *o);
/** Run @b with its parsed options @opts and the runner's @ro (ro->quick: a brief run);
 *  @show_progress draws a progress line on stderr. *out gets the result document (also
 *  for skips and after SIGINT; NULL after a usage error or when a standalone mode, a
 *  server, ended). Returns an exit code (log.h, or PL_BENCH_EXIT_INTERRUPTED); @err
 *  (@errlen bytes) gets the message for codes 2 and 3. Nothing is printed but progress. */
int pl_bench_run(const struct pl_bench *b, void *opts, const struct pl_bench_run_opts *ro,
		 bool show_progress, json_t **out, char *err, size_t errlen);
/** `bench --list`: each benchmark, whether it runs here (its supported() with default
 *  options) and what it measures, into @f. */
void pl_bench_print_list(FILE *f);
/** The human table of a result document @d (the --json shape) into @f. */
void pl_bench_print_table(FILE *f, const json_t *d);
/** Words for an "info" value @v of key @key that its raw JSON does not say: "not pinned"
 *  for an integer below 0 under a key ending in "_pinned" (bench net's
 *  client_cpu_pinned/server_cpu_pinned; the JSON keeps -1, an integer as in every
 *  earlier document). A static string, or NULL when the value speaks for itself. Used
 *  by the bench table and by the report's info lines alike. */
const char *pl_bench_info_word(const char *key, const json_t *v);

/** True when metric @m (a result document's metrics[] entry) has a spread to show:
 *  n >= 2 (stddev, tail and cv of one run are not a spread and are shown as "-"). */
bool pl_bench_metric_has_spread(const json_t *m);
/** The worst run of metric @m: "max" (the slowest run's figure) for lower-is-better
 *  metrics, "min" (the lowest) for higher-is-better ones, NULL for "neither" or without a
 *  spread. *@value gets it (NaN when absent). Not a percentile: a p99 of 3-5 figures is
 *  an interpolation near the largest that no run produced, and reads as the 99th
 *  percentile of operations, which it is not. The bench table and the report
 *  (report/figures.c) show this one figure. */
const char *pl_bench_metric_tail(const json_t *m, double *value);

/** Exit status after SIGINT/SIGTERM: 128 + SIGINT, as shells report it. */
#define PL_BENCH_EXIT_INTERRUPTED 130

/** Parse @argv (@argc <= 62 words, as they would follow "bench NAME") into a new
 *  options struct of @b (*opts, free with pl_bench_opts_free()) and the runner's options
 *  @ro (initialised here: warmup -1 = not given). Returns 0, or -EINVAL with the parser's
 *  message on stderr and *opts NULL. */
int pl_bench_parse_args(const struct pl_bench *b, int argc, char *const *argv, void **opts,
			struct pl_bench_run_opts *ro);
/** Whether the runner accepts `--cpus @list` (syntax already checked by the option
 *  parser): every CPU online and in this process's affinity. Returns 0, or
 *  PL_EXIT_USAGE (2) / PL_EXIT_RUNTIME (3) with the runner's one-line message in @err
 *  ("--cpus '7': CPU 7 is not online (online CPUs: 0-1; ...)", pl_cpuset_check_online()). For
 *  `perflab report --cpus`, which checks before the first benchmark starts. */
int pl_bench_cpus_check(const char *list, char *err, size_t errlen);
/** The measured and warm-up repetitions a run with @ro does (--runs, else the
 *  benchmark's default_runs, else 5; with only --min-time: at least 1). */
unsigned pl_bench_planned_runs(const struct pl_bench *b, const struct pl_bench_run_opts *ro);
unsigned pl_bench_planned_warmup(const struct pl_bench *b, const struct pl_bench_run_opts *ro);
/** A result document of @b with "status":"skipped" and @reason (the header fields of
 *  bench.schema.json only). New reference. */
json_t *pl_bench_result_skipped(const struct pl_bench *b, const char *reason);
/** Run @b with the arguments @argv (@argc words, as after "bench NAME") for
 *  `perflab report`; @quick marks the result as a brief run (runner.quick); @workdir is
 *  the runner options' workdir (NULL = the current directory). The result
 *  document records the arguments as runner.args. Returns it (status "interrupted"
 *  after SIGINT/SIGTERM, which the runner catches during the run; "failed" or "skipped"
 *  with a reason). Nothing is printed. Call on the live system only. */
json_t *pl_bench_run_args(const struct pl_bench *b, int argc, char *const *argv, bool quick,
			  const char *workdir);
/** pl_bench_run_args() for one benchmark of `perflab report`'s budgeted plan: @share_s
 *  seconds (> 0), counted from before setup, after which no run starts once
 *  PL_BENCH_PRECISION_FLOOR_RUNS runs are measured (struct pl_bench_run_opts'
 *  max_time_report), unless the runs project the precision within @cap_s seconds
 *  (counted the same way; max_time_cap; 0 or not above @share_s: never past the share).
 *  @argv must hold --precision; it also records "--max-time" @share_s as the run's
 *  arguments. Where the cap is above the share, runner.precision gets max_time_cap_s and
 *  extended_s (the seconds the runs went past the share). New reference. */
json_t *pl_bench_run_share(const struct pl_bench *b, int argc, char *const *argv, bool quick,
			   const char *workdir, double share_s, double cap_s);
/** Run @b with its quick_argv (none when @full) followed by @extra (NULL-terminated, or
 *  NULL), through pl_bench_run_args(): `check --measure` runs a rule's evidence
 *  ("--numa-matrix") this way. Returns the result document (new reference). */
json_t *pl_bench_run_brief(const struct pl_bench *b, bool full, const char *const *extra);

struct pl_findings;
/** Counting around each evidence run of pl_bench_measure_findings (the caller's, so the
 *  bench engine stays free of the counters): @begin is called just before the benchmark
 *  of an evidence with a counter metric runs (@metric: pl_evidence.counter), @end just
 *  after it, returning the reading's row ({"values", "unavailable", ...}, new reference,
 *  or NULL), which becomes the result document's "counters" member. */
struct pl_bench_counting {
	void (*begin)(void *ctx, const char *metric);
	json_t *(*end)(void *ctx, const char *bench);
	void *ctx;
};

/** `check --measure`: run the evidence benchmark (struct pl_evidence) of every finding of
 *  @fs whose rule has one, each distinct run once, briefly (pl_bench_run_brief()), and set
 *  each such finding's evidence (pl_evidence_eval(), possibly "unavailable" with the
 *  reason). An evidence with a counter metric is counted through @count while its
 *  benchmark runs (NULL: not counted; the evidence then has no counter clause). Live
 *  system only. Returns the result documents run, as a new array (empty when no finding
 *  has evidence); nothing is printed. */
json_t *pl_bench_measure_findings(struct pl_findings *fs, const struct pl_bench_counting *count);

#endif
