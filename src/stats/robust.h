/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Distribution-free summaries used by compare: a confidence interval of the median from
 * order statistics, MAD and IQR, MAD-based outliers and a bimodality check. */
#ifndef PERFLAB_STATS_ROBUST_H
#define PERFLAB_STATS_ROBUST_H
#include <stdbool.h>
#include <stddef.h>

/** Consistency constant that makes the MAD estimate sigma for normal data
 *  (1 / Phi^-1(3/4); Rousseeuw & Croux 1993). */
#define PL_MAD_NORMAL 1.482602218505602

/** Distribution-free confidence interval of the median of sorted @s[0..n-1] at @level
 *  (e.g. 0.95): the order statistics x_(l) and x_(n-l+1), where l is the largest rank with
 *  P(Binomial(n, 1/2) <= l-1) <= (1-level)/2, so the coverage is at least @level
 *  (Conover, Practical Nonparametric Statistics, 3rd ed., 3.2). Returns 0, or -EDOM when n
 *  is too small for that level (n < 6 at 95%): *lo and *hi are then NaN. */
int pl_median_ci(const double *s, size_t n, double level, double *lo, double *hi);

/** Median absolute deviation of sorted @s[0..n-1] (raw, not scaled by PL_MAD_NORMAL).
 *  NaN when n == 0. */
double pl_mad_sorted(const double *s, size_t n);
/** Interquartile range of sorted @s[0..n-1] (type-7 quartiles). NaN when n == 0. */
double pl_iqr_sorted(const double *s, size_t n);

/** Consistency constant that makes the mean absolute deviation around the median
 *  estimate sigma for normal data (sqrt(pi/2)): the scale of the modified z-score when the
 *  MAD is 0 (Iglewicz & Hoaglin 1993, as IBM SPSS documents its "modified z-score":
 *  (x - median) / (1.253314 MeanAD) when MAD = 0). */
#define PL_MEANAD_NORMAL 1.253314137315500

/** Mark outliers of @v[0..n-1] (any order) by the modified z-score
 *  |x - median| / (1.4826 MAD) > 3.5, i.e. |0.6745 (x - median) / MAD| > 3.5 (Iglewicz &
 *  Hoaglin 1993). No rule divides by a zero spread: when the MAD is 0 (at least half the
 *  values tie at the median, as timings in whole clock ticks or sizes in pages do) the
 *  scale is PL_MEANAD_NORMAL times the mean absolute deviation around the median, and a
 *  value within @rel_tol of the median (|x - median| <= rel_tol |median|, e.g. 0.01: a
 *  deviation below the smallest change that matters) is never an outlier; when that scale
 *  is 0 too, all values are equal and none is an outlier. @is_out (optional, n entries)
 *  receives the flags. Returns the number of outliers. */
size_t pl_outliers_mad(const double *v, size_t n, double rel_tol, bool *is_out);

/** Number of clear modes of @v[0..n-1]: a Gaussian kernel density estimate with
 *  Silverman's rule-of-thumb bandwidth (0.9 min(sd, IQR/1.34) n^-1/5) on a 512-point grid;
 *  a mode counts when its peak is at least 10% of the highest and the dip between it and
 *  its neighbour mode falls below 80% of the lower peak. Returns 1 for n < 10 (too few
 *  values to say) and for constant data. Deterministic. */
int pl_mode_count(const double *v, size_t n);

#endif
