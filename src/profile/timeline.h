/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --timeline MS: sample density over the run, per thread and per CPU, in fixed buckets of
 * MS milliseconds of CLOCK_MONOTONIC (the samples' clock). Printed as rows of counts by
 * the text output, as arrays by the JSON one, and drawn as a strip above the flame graph
 * (profile/flame.h, struct pl_flame_timeline). */
#ifndef PERFLAB_PROFILE_TIMELINE_H
#define PERFLAB_PROFILE_TIMELINE_H
#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"
#include "profile/aggregate.h"

/** Most buckets of a timeline: a longer run is folded into the last bucket. */
#define PL_TIMELINE_MAX_BUCKETS 100000

/** Sample counts per bucket. Rows are the threads that have samples in the report (in
 *  the order of pl_profile.threads) and every CPU 0..ncpu-1 of the report; each row has
 *  @nb counts, row-major. Everything is owned; free with pl_timeline_free(). */
struct pl_timeline {
	double bucket_ms;  /**< bucket width, ms */
	size_t nb;	   /**< buckets per row, 1..PL_TIMELINE_MAX_BUCKETS */
	size_t nthr, ncpu; /**< thread rows, CPU rows */
	uint64_t *thr;	   /**< nthr x nb counts */
	uint64_t *cpu;	   /**< ncpu x nb counts */
	char **thr_labels; /**< nthr labels "comm/tid" */
	char **cpu_labels; /**< ncpu labels "cpuN" */
	uint32_t *thr_tid; /**< nthr thread ids, parallel to thr_labels */
};

/** Build the timeline of @p over the run window [@t0, @t1) (CLOCK_MONOTONIC ns; the
 *  bucket count is the window divided by @ms ms, rounded up, at least 1) with buckets of
 *  @ms milliseconds (> 0), counting the samples @filter accepts (NULL = all; the same
 *  filter as @r was built with). Samples before @t0 are left out, samples at or after
 *  the last bucket's end go into the last bucket. Never fails (allocation failure
 *  aborts, as pl_xmalloc). */
void pl_timeline_build(struct pl_timeline *tl, const struct pl_profile *p,
		       const struct pl_preport *r, uint64_t t0, uint64_t t1, int ms,
		       pl_sample_filter filter, void *fctx);

/** Free what pl_timeline_build allocated. NULL-safe; @tl may be zero-initialised. */
void pl_timeline_free(struct pl_timeline *tl);

#endif
