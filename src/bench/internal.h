/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the runner's three files share (private to src/bench/): the context a benchmark
 * fills through the API (api.c), which the run loop (runner.c) drives and the result
 * document (result.c) is built from. */
#ifndef PERFLAB_BENCH_INTERNAL_H
#define PERFLAB_BENCH_INTERNAL_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "bench/bench.h"
#include "stats/hist.h"
#include "util/cpuset.h"
#include "util/opt.h"

/** The most leading runs the warm-up rule of --precision drops (at most half the runs,
 *  pl_settle_warmup(), and at most this many): the latency histograms of that many runs
 *  are held back per metric until the end of the run. */
#define PL_BENCH_WARMUP_MAX_DROP 32

/** One metric of a run: its declaration (pl_bench_metric()) and its values. */
struct metric {
	char *name, *unit, *help;
	enum pl_better better;
	double *v; /* committed values, one per measured repetition */
	size_t n, cap;
	double cur; /* value of the repetition in progress, NaN when unset */
	json_t *notes;
	struct pl_hist *stage, *total; /* per-op latencies: this repetition, committed */
	bool headline;		       /* a headline metric (pl_bench_mark_headline()) */
	/* with --precision: the latencies of the first PL_BENCH_WARMUP_MAX_DROP committed
	 * repetitions, one histogram each, held back from total until the warm-up rule has
	 * said which of them count (pl_bench_lead_merge()) */
	struct pl_hist *lead[PL_BENCH_WARMUP_MAX_DROP];
	size_t nlead;
};

/** The runner state behind struct pl_bench_ctx (one per run of a benchmark). */
struct pl_bench_ctx {
	const struct pl_bench *b;
	struct metric *m;
	size_t nm, capm;
	json_t *info, *notes, *warnings;
	char err[512];
	char invalid[512]; /* pl_bench_invalidate(): non-empty = status failed */
	struct pl_cpuset cpus;
	bool pinned, quick, warming;
	bool self_pinned;    /* pl_bench_pinned_by_bench() */
	const char *workdir; /* pl_bench_workdir(): the run options' workdir */
	const char *summary; /* pl_bench_set_summary(): this run's title, NULL = b->summary */
	bool hold_lead;	     /* --precision: hold back the leading runs' histograms */
	double max_time;     /* pl_bench_max_time(): the run options' max_time */
};

/* ---- --precision (precision.c) ---- */

/** Mark the headline metrics of @c (struct pl_bench's headline patterns; when no metric
 *  matches, the first declared one). Call after setup(). */
void pl_bench_mark_headline(struct pl_bench_ctx *c);
/** The --precision state of the series so far: the leading warm-up runs to drop into
 *  *@dropped (the most pl_settle_warmup() finds over the headline metrics, at most
 *  PL_BENCH_WARMUP_MAX_DROP) and the returned precision, the largest relative half-width
 *  pl_settle_precision() gives over the headline metrics after that drop (INFINITY while
 *  a metric has fewer than PL_SETTLE_MIN_RUNS values left). */
double pl_bench_precision_eval(const struct pl_bench_ctx *c, size_t *dropped);
/** Drop the first @d values of every metric of @c (the detected warm-up) and merge the
 *  held-back latency histograms of the runs after them into each metric's total. Call
 *  once, after the last run. */
void pl_bench_lead_merge(struct pl_bench_ctx *c, size_t d);
/** The runner.precision object of a result (bench.schema.json): the requested precision,
 *  the reached one per headline metric, runs, warm-up dropped, the stop reason and the
 *  wall time @wall_s. New reference. */
json_t *pl_bench_precision_json(const struct pl_bench_ctx *c, const struct pl_bench_run_opts *ro,
				enum pl_bench_stop stop, size_t counted, size_t dropped,
				double wall_s);

/** A new result document of @b with the header fields of bench.schema.json and @status
 *  ("ok", "failed", "interrupted", "skipped"). New reference. */
json_t *pl_bench_doc_new(const struct pl_bench *b, const char *status);
/** The JSON of metric @m (a metrics[] entry: summary statistics, samples, notes, the
 *  latency histogram with its buckets when @buckets). New reference. */
json_t *pl_bench_metric_json(const struct metric *m, bool buckets);
/** The values of a benchmark's options @base by the names of its table @t, for the
 *  "options" object. New reference. */
json_t *pl_bench_opts_json(const struct pl_opt *t, const void *base);
/** Set info.reference.share_pct (a benchmark's reference figure, mem: the DIMM peak) in
 *  @info from the metrics[] array @ms, when both the figure and the metric are known. */
void pl_bench_reference_share(json_t *info, const json_t *ms);

#endif
