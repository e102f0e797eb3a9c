/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a benchmark figure in a report carries: its caveats (too few runs, spread too
 * wide, machine not idle, quick run, client and server on one CPU), the benchmark's notes
 * and info items in words, the tail worth showing (p99 or p1, from the metric's "better"
 * field) and its direction label. The one place the terminal summary, report.md and
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
	char *text; /**< full sentence ("1 run: no spread (...)"), malloc'd */
	char *tag;  /**< short form for the terminal summary ("1 run: no spread",
			 "machine not idle"), malloc'd; NULL when the text has none */
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
 *  (machine not idle, the spread warning, steal, interrupted), every "notes" entry (the
 *  working set vs 4x LLC, cache cold/hot/direct, quick-run notes, unavailable backends),
 *  then every "info" item in words ("array size: 64 MiB", "workload: read, ..."). */
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
 *  (pl_fmt_unit: ns..s, B..GiB, "GB/s"): best, median and mean; stddev and the tail
 *  ("p99 86.56 ns", "p1 980 MB/s") only with a spread, "-" otherwise. */
struct pl_figure_row {
	char best[48], median[48], mean[48], stddev[48], tail[64];
};
/** Fill @r from metric @m. */
void pl_figure_row(const json_t *m, struct pl_figure_row *r);

/** The runner line of bench document @doc, malloc'd: "3 runs (+1 warm-up) in 1.07 s on
 *  CPUs 0-1, unpinned" ("1 run", "pinned"); NULL without a "runner". */
char *pl_figure_runner_line(const json_t *doc);

/** "lower is better", "higher is better", or NULL for "neither" (the metric's "better"
 *  field, @better). */
const char *pl_figure_better_label(const char *better);

#endif
