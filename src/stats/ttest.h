/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Two-sample t intervals: Student's pooled t (what ministat prints), Welch's t, and the
 * ratio of geometric means from Welch's t on log values. Quantiles come from GSL's
 * Student t distribution at any level (ministat only has a table at six levels). */
#ifndef PERFLAB_STATS_TTEST_H
#define PERFLAB_STATS_TTEST_H
#include <stddef.h>

/** A two-sample t interval for mean(b) - mean(a). */
struct pl_tinterval {
	double diff;	  /**< mean(b) - mean(a), units of the data */
	double half;	  /**< half-width of the CI at the requested level */
	double lo, hi;	  /**< diff -+ half */
	double se;	  /**< standard error of diff */
	double df;	  /**< degrees of freedom (Welch-Satterthwaite for Welch) */
	double p;	  /**< two-sided p-value of diff == 0 */
	double pooled_sd; /**< pooled standard deviation (pooled test only, NaN for Welch) */
};

/** Student's t with pooled variance (ministat's test: ministat.c Relative(); same numbers
 *  to the digits it prints). Means and variances use Welford's algorithm, so large
 *  offsets keep their precision. Needs na, nb >= 2; returns 0 or -EDOM. */
int pl_ttest_pooled(const double *a, size_t na, const double *b, size_t nb, double level,
		    struct pl_tinterval *out);
/** Welch's unequal-variance t (Welch 1947; df by Welch-Satterthwaite). Needs na, nb >= 2.
 *  When both variances are 0 the interval is [diff, diff] and p is 0 (diff != 0) or 1.
 *  Returns 0 or -EDOM. */
int pl_ttest_welch(const double *a, size_t na, const double *b, size_t nb, double level,
		   struct pl_tinterval *out);

/** Ratio of geometric means gm(b)/gm(a) with a CI at @level from Welch's t on ln values;
 *  *ratio, *lo, *hi are ratios (1.03 = 3% larger), *p the Welch p-value. All values must
 *  be > 0: returns -EDOM otherwise or when na or nb < 2. */
int pl_ratio_geomean(const double *a, size_t na, const double *b, size_t nb, double level,
		     double *ratio, double *lo, double *hi, double *p);

/** Fieller's confidence interval at @level for the ratio of means mean(b)/mean(a) of two
 *  independent samples (Fieller 1954, "Some problems in interval estimation", JRSS B
 *  16:175-185), without assuming equal variances: the set of rho where
 *  |mean(b) - rho mean(a)| <= t sqrt(var(b)/nb + rho^2 var(a)/na), t the Student quantile
 *  with Welch-Satterthwaite degrees of freedom of that pivot at rho = the estimate (Tamhane
 *  & Logan 2004; R's mratios::ttestratio with var.equal = FALSE computes the same
 *  interval). The bounds are the roots of
 *  (ma^2 - t^2 va) rho^2 - 2 ma mb rho + (mb^2 - t^2 vb) = 0, va = var(a)/na, vb =
 *  var(b)/nb. *ratio is mb/ma. Returns 0; -EDOM when na or nb < 2 or mean(a) is 0;
 *  -ERANGE when mean(a) is not significantly different from 0 at @level (ma^2 <= t^2 va):
 *  the confidence set is then unbounded and *lo, *hi are NaN (*ratio is still set). */
int pl_ratio_fieller(const double *a, size_t na, const double *b, size_t nb, double level,
		     double *ratio, double *lo, double *hi);

/** hyperfine's relative speed (src/benchmark/relative_speed.rs): the ratio of the larger
 *  mean to the smaller, max(ma, mb) / min(ma, mb) >= 1, into *factor, and its standard
 *  deviation by first-order propagation of uncertainty for independent variables,
 *  factor * sqrt((sa / ma)^2 + (sb / mb)^2) (sa, sb the samples' standard deviations, not
 *  the standard errors), into *sd. Returns 0, or -EDOM when a mean is not positive or a
 *  value is not finite (*factor and *sd are then NaN). */
int pl_ratio_hyperfine(double ma, double sa, double mb, double sb, double *factor, double *sd);

/** Runs per group that a two-sided Welch test at @alpha needs for @power to detect a
 *  relative change @delta (0.01 = 1%) when ln values have standard deviation @sd_log:
 *  n = 2 (z_{1-alpha/2} + z_power)^2 sd^2 / ln(1+delta)^2, rounded up (normal
 *  approximation, e.g. Chow, Shao & Wang, Sample Size Calculations, 3.2). 0 when sd_log
 *  is not positive. */
size_t pl_runs_needed(double sd_log, double delta, double alpha, double power);

#endif
