/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "stats/summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/str.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	if (isnan(x))
		return isnan(y) ? 0 : 1;
	if (isnan(y))
		return -1;
	return (x > y) - (x < y);
}

void pl_sort_doubles(double *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(double), cmp_double);
}

double pl_quantile_sorted(const double *sorted, size_t n, double q)
{
	if (n == 0)
		return NAN;
	if (q <= 0)
		return sorted[0];
	if (q >= 1)
		return sorted[n - 1];
	double h = (double)(n - 1) * q;
	size_t lo = (size_t)floor(h);
	double frac = h - (double)lo;
	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

void pl_summary_compute(struct pl_summary *s, const double *v, size_t n)
{
	s->n = n;
	s->min = s->max = s->mean = s->stddev = s->median = s->p99 = s->cv = NAN;
	if (n == 0)
		return;
	/* Welford's online algorithm: numerically stable for large offsets. */
	double mean = 0, m2 = 0;
	for (size_t i = 0; i < n; i++) {
		double d = v[i] - mean;
		mean += d / (double)(i + 1);
		m2 += d * (v[i] - mean);
	}
	s->mean = mean;
	if (n > 1)
		s->stddev = sqrt(m2 / (double)(n - 1));
	double *c = pl_xmalloc(n * sizeof(double));
	memcpy(c, v, n * sizeof(double));
	pl_sort_doubles(c, n);
	s->min = c[0];
	s->max = c[n - 1];
	s->median = pl_quantile_sorted(c, n, 0.5);
	s->p99 = pl_quantile_sorted(c, n, 0.99);
	free(c);
	if (mean != 0 && n > 1)
		s->cv = s->stddev / fabs(mean);
}
