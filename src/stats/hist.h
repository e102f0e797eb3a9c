/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A log-bucketed latency histogram with bounded relative error, in the manner of Gil Tene's
 * HdrHistogram (http://hdrhistogram.org, "High Dynamic Range Histogram"): values below
 * 2^bits are counted exactly; above, each power-of-two range [2^h, 2^(h+1)) is split into
 * 2^(bits-1) equal sub-buckets, so a bucket's width is at most 2^-(bits-1) of its lower
 * bound. Quantiles report the bucket midpoint (clamped to the exact min and max), so the
 * relative error of any reported quantile is at most 2^-bits (0.39% for bits = 8).
 * Recording is O(1) and allocation-free; one histogram per thread, merged afterwards. */
#ifndef PERFLAB_STATS_HIST_H
#define PERFLAB_STATS_HIST_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Default precision: 8 bits, relative error <= 2^-8 = 0.39%. */
#define PL_HIST_BITS 8

/** A histogram of unsigned 64-bit values (the caller's unit, usually ns). */
struct pl_hist {
	unsigned bits;	   /**< precision, 1..16 */
	size_t nbuckets;   /**< length of counts[] */
	uint64_t *counts;  /**< owned */
	uint64_t n;	   /**< values recorded */
	uint64_t min, max; /**< exact extremes (min = UINT64_MAX when empty) */
	double sum;	   /**< sum of values, for the mean */
};

/** Initialise an empty histogram with @bits of precision (1..16; 0 = PL_HIST_BITS).
 *  Allocates about (65 - bits) * 2^(bits-1) counters (59 KB for bits 8). Returns 0 or
 *  -EINVAL (bits out of range); aborts on out-of-memory like pl_xmalloc. */
int pl_hist_init(struct pl_hist *h, unsigned bits);
/** Free the counters. NULL-safe; the histogram may be re-initialised. */
void pl_hist_free(struct pl_hist *h);
/** Forget all values, keep the precision. */
void pl_hist_reset(struct pl_hist *h);
/** Record @v once / @count times. */
void pl_hist_record(struct pl_hist *h, uint64_t v);
void pl_hist_record_n(struct pl_hist *h, uint64_t v, uint64_t count);
/** Add every value of @src into @dst. Both must have the same precision: returns 0 or
 *  -EINVAL. */
int pl_hist_merge(struct pl_hist *dst, const struct pl_hist *src);

/** Bucket index of @v and the bounds [*lo, *hi] of the values that share it (exposed for
 *  tests). */
size_t pl_hist_index(const struct pl_hist *h, uint64_t v, uint64_t *lo, uint64_t *hi);
/** The @q quantile (0..1): the smallest recorded value v such that at least q*n values are
 *  <= v, reported as its bucket's midpoint clamped to [min, max] (q = 0 gives min, q = 1
 *  max exactly). NaN when empty. */
double pl_hist_quantile(const struct pl_hist *h, double q);
/** Arithmetic mean (exact up to double rounding); NaN when empty. */
double pl_hist_mean(const struct pl_hist *h);

/** {"n":N,"min":..,"mean":..,"p50":..,"p90":..,"p99":..,"p99.9":..,"max":..,
 *  "relative_error":2^-bits} in the histogram's unit. New reference. */
json_t *pl_hist_to_json(const struct pl_hist *h);
/** The non-empty buckets of @h in ascending order, as [[lowest, highest, count], ...]:
 *  every recorded value v with lowest <= v <= highest (the histogram's unit) was counted
 *  in that bucket, so histograms of several runs or processes can be pooled exactly and
 *  any quantile recomputed (within relative_error). New reference. */
json_t *pl_hist_buckets_json(const struct pl_hist *h);

#endif
