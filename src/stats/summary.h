/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Summary statistics of a sample: shared by bench, compare and report. */
#ifndef PERFLAB_STATS_SUMMARY_H
#define PERFLAB_STATS_SUMMARY_H
#include <stddef.h>

/** Summary of n values (units are the caller's). Fields are NaN when undefined
 *  (n == 0; stddev when n < 2). */
struct pl_summary {
	size_t n;
	double min, max;
	double mean;   /**< arithmetic mean */
	double stddev; /**< sample standard deviation (n-1), Welford's algorithm, so
			    1e12 + {1,2,3} gives exactly 1 */
	double median; /**< 50th percentile */
	double p99;    /**< 99th percentile (linear interpolation, Hyndman-Fan type 7) */
	double cv;     /**< coefficient of variation stddev/mean, NaN when mean == 0 */
};

/** Compute the summary of @v[0..n-1]. Does not modify @v (sorts a copy). */
void pl_summary_compute(struct pl_summary *s, const double *v, size_t n);
/** The @q quantile (0..1) of sorted values @sorted[0..n-1], linear interpolation between
 *  order statistics (Hyndman & Fan 1996, type 7, the default of R and NumPy). NaN when
 *  n == 0. */
double pl_quantile_sorted(const double *sorted, size_t n, double q);
/** Sort @v ascending in place (NaNs last). */
void pl_sort_doubles(double *v, size_t n);

#endif
