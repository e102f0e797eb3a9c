/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a benchmark figure in a report carries: its caveats (too few runs, spread too
 * wide, machine not idle, quick run, client and server on one CPU), the benchmark's notes
 * and info items in words, the worst of the runs (from the metric's "better" field), the
 * distribution of single operations where a benchmark timed them, its direction label,
 * the section id and source of each result. The one place the terminal summary, report.md and
 * report.html take them from (render/summary.c, render/markdown.c, render/html.c), so the
 * three cannot disagree.
 * Everything is computed from a bench document (docs/schemas/bench.schema.json) alone,
 * so a report built from saved files (report --from) carries the same caveats. */
#ifndef PERFLAB_REPORT_FIGURES_H
#define PERFLAB_REPORT_FIGURES_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/** What a caveat is. */
enum pl_caveat_kind {
	PL_CAVEAT_WARN, /**< the figure may be wrong or untrustworthy (few runs, wide
			     spread, busy machine, quick run, shared CPU) */
	PL_CAVEAT_NOTE, /**< how the figure was made (a bench "notes" entry, a metric note) */
	PL_CAVEAT_INFO, /**< a fact about the run (a bench "info" item, in words) */
};

/** One caveat. */
struct pl_caveat {
	enum pl_caveat_kind kind;
	char *text;   /**< full sentence ("1 run: no spread (...)"), malloc'd */
	char *tag;    /**< short form for the terminal summary ("1 run: no spread",
			   "machine not idle"), malloc'd; NULL when the text has none */
	char *metric; /**< the metric a caveat of the whole benchmark is about (the rate
			   and round trip that disagree: the round trip's name), malloc'd;
			   NULL when it is about the benchmark as a whole */
};

/** A list of caveats, in the order they are shown. Zero-initialise; free with
 *  pl_caveats_free(). */
struct pl_caveats {
	struct pl_caveat *v;
	size_t n;
};

/** Free the caveats (NULL-safe) and zero @c. */
void pl_caveats_free(struct pl_caveats *c);

/** Append the caveats of bench document @doc as a whole to @out: from the runner (1 run:
 *  no spread; 2 runs: too few runs for a spread; quick run), every "warnings" entry
 *  (machine not idle, the spread warning, steal, interrupted), a rate that disagrees
 *  with its time per operation by more than 1.25x ("tcp_pp 64B rate" against the median
 *  "tcp_pp 64B round-trip": the rate counts the whole loop, outliers included; its
 *  "metric" is the time's name), every "notes" entry (the working set vs 4x LLC, cache
 *  cold/hot/direct, quick-run notes, unavailable backends), then every "info" item in
 *  words ("array size: 64 MiB", "workload: read, ..."), less those a note already says
 *  and bench io's temporary directory and file (removed after the run). */
void pl_caveats_bench(const json_t *doc, struct pl_caveats *out);

/** Append the caveats of metric @m (an element of @doc's "metrics") to @out: its run
 *  count where it differs from the runner's, "spread too wide (cv 40% > 5%)" when n >= 3
 *  and stddev/mean is above the benchmark's threshold (runner.max_cv, the runner's
 *  default 5% for documents without it: the runner's own "spread too wide" rule),
 *  "client and server on the same CPU N" (bench net's client_cpu/server_cpu notes), and
 *  the metric's notes ("via: vdso"). */
void pl_caveats_metric(const json_t *doc, const json_t *m, struct pl_caveats *out);

/** The report-wide caveat shown at the top of every output, malloc'd, or NULL: "unreliable:
 *  machine not idle: other tasks used up to 65% of the CPUs during bench clock, mem (see
 *  each benchmark's caveats)" when some benchmark of @report has the runner's "machine
 *  not idle" warning (steal above 5% is named too). */
char *pl_caveats_report_top(const json_t *report);

/** The cells of a metric's table row as every output shows them, in the terminal's units
 *  (pl_fmt_unit: ns..s, B..GiB, "GB/s"): best, median and mean over the runs' figures;
 *  stddev and the worst run only with a spread (n >= 2), "-" otherwise. The worst run is
 *  the largest figure of a lower-is-better metric ("78.53 us (max of 3 runs)") and the
 *  smallest of a higher-is-better one ("980 MB/s (min of 2 runs)"), "-" for "neither":
 *  never a percentile, which over 3-5 runs would read as one of single operations. */
struct pl_figure_row {
	char best[48], median[48], mean[48], stddev[48], worst[80];
};
/** Fill @r from metric @m. */
void pl_figure_row(const json_t *m, struct pl_figure_row *r);

/** The distribution of the single operations behind metric @m (its "latency_ns", the
 *  runner's histogram of every operation of the measured runs, in ns), as cells in the
 *  terminal's time units: the count, p50, mean, p99, p99.9 and max. */
struct pl_figure_per_op {
	char ops[24], p50[48], mean[48], p99[48], p999[48], max[48];
};
/** Fill @r from metric @m; false (and @r untouched) when @m has no per-operation
 *  latencies (no "latency_ns", or none counted). */
bool pl_figure_per_op(const json_t *m, struct pl_figure_per_op *r);
/** The per-operation distribution @lat (a metric's "latency_ns", ns) in one line,
 *  malloc'd: "p50 87.3 us, p99 6.832 ms, p99.9 12.1 ms, max 59.1 ms (1834 operations)";
 *  NULL when @lat is not such an object or counted nothing. */
char *pl_figure_per_op_text(const json_t *lat);

/** The section ids of the benchmark results @benches (a report's "benchmarks"), a new
 *  array of as many strings, unique: "bench-NAME" for the first result of NAME, then
 *  "bench-NAME-2", "bench-NAME-3" (past any id already taken). HTML section ids and the
 *  Markdown headings (pl_figure_bench_heading()) follow it, the key numbers link to it. */
json_t *pl_figure_bench_anchors(const json_t *benches);
/** The heading of bench document @doc whose section id is @anchor, malloc'd: "bench
 *  NAME", or "bench NAME (2)" for "bench-NAME-2" (whose Markdown anchor is that id). */
char *pl_figure_bench_heading(const json_t *doc, const char *anchor);
/** Where bench document @doc's figures come from, malloc'd: "measured now" (no "from"
 *  member: run by this report), else "saved result FILE (generated TIME)" (the --from
 *  file that report/from.c records in "from"). */
char *pl_figure_source(const json_t *doc);

/** A byte count @x in powers of 1024 to 4 significant digits, malloc'd: "64 MiB",
 *  "1016 MiB", "22.76 GiB", "512 B" (human outputs; the JSON keeps the exact count). */
char *pl_figure_bytes(double x);

/** The value @v of fact @key as the report's human outputs (report.md, report.html) show
 *  it, malloc'd: pl_fact_value_human() (a "_bytes" key as a size, "23.54 GiB
 *  (25276157952 B)"; reals to 5 significant digits) of @v less the members of its objects
 *  (and of the objects in its lists) that say nothing: null ones, and "numa_node": -1 (the
 *  kernel's NUMA_NO_NODE, no node affinity); "unknown" when nothing is left of an object
 *  or @v is null. report.json keeps the exact value. */
char *pl_figure_fact_text(const char *key, const json_t *v);

/** A bench "info" item, or a `report --dry-run` plan detail, in words, malloc'd: "label:
 *  value" with the label of the key ("last-level cache (all caches)" for
 *  llc_total_bytes) and the value as the caveats show it (byte counts in B..PiB to 4
 *  significant digits, reals to 4, yes/no); NULL for a null value. */
char *pl_figure_info_item(const char *key, const json_t *v);

/** The runner line of bench document @doc, malloc'd: "3 runs (+1 warm-up) in 1.07 s on
 *  CPUs 0-1, unpinned" ("1 run", "pinned"), with "; precision +-0.42% for triad (95% CI of
 *  the median, ...)" (pl_bench_precision_text()) after a --precision run; NULL without a
 *  "runner". */
char *pl_figure_runner_line(const json_t *doc);

/** "lower is better", "higher is better", or NULL for "neither" (the metric's "better"
 *  field, @better). */
const char *pl_figure_better_label(const char *better);

#endif
