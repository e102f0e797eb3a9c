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

/** One metric of a run: its declaration (pl_bench_metric()) and its values. */
struct metric {
	char *name, *unit, *help;
	enum pl_better better;
	double *v; /* committed values, one per measured repetition */
	size_t n, cap;
	double cur; /* value of the repetition in progress, NaN when unset */
	json_t *notes;
	struct pl_hist *stage, *total; /* per-op latencies: this repetition, committed */
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
};

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
