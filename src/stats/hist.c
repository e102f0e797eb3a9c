/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "stats/hist.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/str.h"

/* Index layout (HdrHistogram's idea, our arithmetic): with p = bits and h = index of the
 * highest set bit of v, shift = max(0, h - p + 1), m = v >> shift (so m < 2^p, and
 * m >= 2^(p-1) whenever shift > 0), index = shift * 2^(p-1) + m. Consecutive shifts tile
 * the index space without gaps; the largest index is (64 - p) * 2^(p-1) + 2^p - 1. */
static size_t nbuckets_for(unsigned p)
{
	return (size_t)(66 - p) << (p - 1);
}

int pl_hist_init(struct pl_hist *h, unsigned bits)
{
	if (bits == 0)
		bits = PL_HIST_BITS;
	if (bits > 16)
		return -EINVAL;
	memset(h, 0, sizeof(*h));
	h->bits = bits;
	h->nbuckets = nbuckets_for(bits);
	h->counts = pl_xcalloc(h->nbuckets, sizeof(uint64_t));
	h->min = UINT64_MAX;
	return 0;
}

void pl_hist_free(struct pl_hist *h)
{
	if (!h)
		return;
	free(h->counts);
	h->counts = NULL;
	h->nbuckets = 0;
	h->n = 0;
}

void pl_hist_reset(struct pl_hist *h)
{
	memset(h->counts, 0, h->nbuckets * sizeof(uint64_t));
	h->n = 0;
	h->min = UINT64_MAX;
	h->max = 0;
	h->sum = 0;
}

size_t pl_hist_index(const struct pl_hist *h, uint64_t v, uint64_t *lo, uint64_t *hi)
{
	unsigned p = h->bits;
	unsigned msb = v ? 63u - (unsigned)__builtin_clzll(v) : 0;
	unsigned shift = msb >= p ? msb - p + 1 : 0;
	uint64_t m = v >> shift;
	if (lo)
		*lo = m << shift;
	if (hi)
		*hi = (m << shift) + ((UINT64_C(1) << shift) - 1);
	return ((size_t)shift << (p - 1)) + (size_t)m;
}

/* Inverse of pl_hist_index: the bounds of bucket @i. */
static void bucket_bounds(const struct pl_hist *h, size_t i, uint64_t *lo, uint64_t *hi)
{
	unsigned p = h->bits;
	unsigned shift = 0;
	uint64_t m = i;
	if (i >= ((size_t)1 << p)) {
		shift = (unsigned)(i >> (p - 1)) - 1;
		m = i - ((size_t)shift << (p - 1));
	}
	*lo = m << shift;
	*hi = *lo + ((UINT64_C(1) << shift) - 1);
}

void pl_hist_record_n(struct pl_hist *h, uint64_t v, uint64_t count)
{
	if (count == 0)
		return;
	h->counts[pl_hist_index(h, v, NULL, NULL)] += count;
	h->n += count;
	h->sum += (double)v * (double)count;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void pl_hist_record(struct pl_hist *h, uint64_t v)
{
	pl_hist_record_n(h, v, 1);
}

int pl_hist_merge(struct pl_hist *dst, const struct pl_hist *src)
{
	if (dst->bits != src->bits)
		return -EINVAL;
	for (size_t i = 0; i < src->nbuckets; i++)
		dst->counts[i] += src->counts[i];
	dst->n += src->n;
	dst->sum += src->sum;
	if (src->n) {
		if (src->min < dst->min)
			dst->min = src->min;
		if (src->max > dst->max)
			dst->max = src->max;
	}
	return 0;
}

double pl_hist_quantile(const struct pl_hist *h, double q)
{
	if (h->n == 0)
		return NAN;
	if (q <= 0)
		return (double)h->min;
	if (q >= 1)
		return (double)h->max;
	uint64_t rank = (uint64_t)ceil(q * (double)h->n);
	if (rank == 0)
		rank = 1;
	uint64_t cum = 0;
	for (size_t i = 0; i < h->nbuckets; i++) {
		cum += h->counts[i];
		if (cum >= rank) {
			uint64_t lo, hi;
			bucket_bounds(h, i, &lo, &hi);
			double mid = (double)lo + (double)(hi - lo) / 2.0;
			if (mid < (double)h->min)
				mid = (double)h->min;
			if (mid > (double)h->max)
				mid = (double)h->max;
			return mid;
		}
	}
	return (double)h->max;
}

double pl_hist_mean(const struct pl_hist *h)
{
	return h->n ? h->sum / (double)h->n : NAN;
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *pl_hist_buckets_json(const struct pl_hist *h)
{
	json_t *a = json_array();
	for (size_t i = 0; i < h->nbuckets; i++) {
		if (!h->counts[i])
			continue;
		uint64_t lo, hi;
		bucket_bounds(h, i, &lo, &hi);
		json_t *b = json_array();
		json_array_append_new(b, json_integer((json_int_t)lo));
		json_array_append_new(b,
				      json_integer((json_int_t)(hi > INT64_MAX ? INT64_MAX : hi)));
		json_array_append_new(b, json_integer((json_int_t)h->counts[i]));
		json_array_append_new(a, b);
	}
	return a;
}

json_t *pl_hist_to_json(const struct pl_hist *h)
{
	json_t *o = json_object();
	json_object_set_new(o, "n", json_integer((json_int_t)h->n));
	json_object_set_new(o, "min", h->n ? json_real((double)h->min) : json_null());
	json_object_set_new(o, "mean", num(pl_hist_mean(h)));
	json_object_set_new(o, "p50", num(pl_hist_quantile(h, 0.50)));
	json_object_set_new(o, "p90", num(pl_hist_quantile(h, 0.90)));
	json_object_set_new(o, "p99", num(pl_hist_quantile(h, 0.99)));
	json_object_set_new(o, "p99.9", num(pl_hist_quantile(h, 0.999)));
	json_object_set_new(o, "max", h->n ? json_real((double)h->max) : json_null());
	json_object_set_new(o, "relative_error", json_real(ldexp(1.0, -(int)h->bits)));
	return o;
}
