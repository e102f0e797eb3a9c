/* SPDX-License-Identifier: GPL-3.0-or-later */
/* When a series of repetitions has settled and how precise its median is: the relative
 * half-width of the distribution-free confidence interval of the median (the interval
 * compare reports, stats/robust.h), and the warm-up rule that finds the leading runs
 * that lie outside the settled part of the series. Used by the bench runner's
 * --precision; pure functions of their inputs. */
#ifndef PERFLAB_STATS_SETTLE_H
#define PERFLAB_STATS_SETTLE_H
#include <stddef.h>

/** The fewest values for which pl_median_ci() has a 95% interval: with n = 6 the order
 *  statistics x_(1) and x_(6) cover the median with probability 1 - 2 (1/2)^6 = 0.969;
 *  with n = 5 no pair reaches 0.95 (Conover, Practical Nonparametric Statistics, 3rd
 *  ed., 3.2). */
#define PL_SETTLE_MIN_RUNS 6

/** Fewest runs before the warm-up rule looks at a series: its reference is the last half,
 *  and a median absolute deviation of fewer than 5 values is one run's deviation. */
#define PL_SETTLE_WARMUP_MIN_RUNS 10

/** The threshold of the warm-up rule in robust standard deviations: the cut of the
 *  modified z-score of Iglewicz & Hoaglin (1993), the one compare's outlier marking uses
 *  (pl_outliers_mad()). */
#define PL_SETTLE_WARMUP_K 3.5

/** Precision of the median of @v[0..n-1] (any order, finite values, unit the caller's):
 *  the 95% distribution-free confidence interval of the median from order statistics
 *  (pl_median_ci(); Conover, Practical Nonparametric Statistics, 3rd ed., 3.2; Le Boudec,
 *  Performance Evaluation of Computer and Communication Systems, 2010, thm. 2.1), its
 *  larger side max(hi - median, median - lo) over |median|, as a fraction (0.01 = 1%).
 *  The interval is not symmetric around the median; the larger side is the one a reader
 *  must allow for. *@lo and *@hi (optional) get the interval. Returns INFINITY when there
 *  is no interval (n < PL_SETTLE_MIN_RUNS) or the median is 0 with an interval of
 *  non-zero width (no relative precision); 0 when the interval is a single value. */
double pl_settle_precision(const double *v, size_t n, double *lo, double *hi);

/** Warm-up runs at the start of the series @v[0..n-1] (in run order): the number of
 *  leading runs to drop. The reference is the settled part, the last half of the series
 *  (runs n/2 .. n-1): its median m and robust scale s = 1.4826 MAD (PL_MAD_NORMAL; when
 *  the MAD is 0, 1.2533 times the mean absolute deviation around m, as
 *  pl_outliers_mad()). Leading runs are dropped while |x - m| > PL_SETTLE_WARMUP_K * s;
 *  the first run within that band ends the warm-up. When the MAD is 0 (half the
 *  reference ties, as whole clock ticks do) a run within 1% of m is within the band too. At most
 * n/2 runs are dropped, so the reference is never dropped itself. Returns 0 when n <
 * PL_SETTLE_WARMUP_MIN_RUNS. */
size_t pl_settle_warmup(const double *v, size_t n);

#endif
