/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Statistics and verdicts of a compare experiment, per metric:
 *  - per variant: n, median with a distribution-free CI, MAD, IQR, min, max, mean, sd,
 *    MAD outliers (reported, never dropped; stats/robust.h's rule, with the threshold as
 *    the relative tolerance when the MAD is 0) and the number of modes;
 *  - per variant against the baseline: a ratio variant/baseline with its CI, by the first
 *    method that fits the values: the ratio of geometric means with a CI from Welch's t on
 *    log values (all values > 0); Fieller's CI of the ratio of means (all values >= 0, as
 *    times with a run at 0 clock ticks: a ratio of non-negative means cannot be negative,
 *    so its lower bound is at least 0, i.e. -100%); additive Welch relative to the
 *    baseline mean (some value < 0, where a change beyond -100% is possible). Beside it the
 *    ratio of medians, the Hodges-Lehmann ratio with its CI, hyperfine's "N +- s times
 *    slower/faster" (ratio of means with its propagated standard deviation), the
 *    Mann-Whitney U p-value, Holm-adjusted over the k-1 comparisons, and the Wilcoxon
 *    signed-rank test of the per-round log ratios;
 *  - a verdict: a change is "detected" when the Holm-adjusted Mann-Whitney p < alpha and
 *    the CI excludes no change (the rank test and the interval agree, so "slower" or
 *    "faster" never stands beside a CI containing 0); it is reported as slower/faster when
 *    the point estimate is at least the threshold, as "below the threshold" otherwise;
 *    without detection the result is "equivalent" only when the whole CI lies within
 *    +-threshold, else "no difference detected" with what the CI rules out and the runs
 *    needed to detect the threshold (80% power);
 *  - a baseline of ~0 (some value <= 0 and its mean within its own CI half-width of 0, as
 *    sys time of a short command in clock ticks; then Fieller's set is unbounded too) has
 *    no relative change: no ratio, CI or run estimate, the verdict states the difference
 *    in the metric's unit and why;
 *  - a metric with a clock-tick resolution (user and sys time) whose runs read 0 says so
 *    in the verdict ("below the 10 ms clock-tick resolution"). */
#ifndef PERFLAB_COMPARE_ANALYZE_H
#define PERFLAB_COMPARE_ANALYZE_H
#include <stdbool.h>
#include <stddef.h>

#include "stats/rank.h"

/** Fewest runs per variant for a verdict. */
#define PL_CMP_MIN_VERDICT_RUNS 5

/** Per-variant statistics of one metric (units of the metric). */
struct pl_cmp_vstat {
	size_t n;
	double median, med_lo, med_hi; /**< median and its CI (NaN when n is too small) */
	double mad, iqr, min, max, mean, sd;
	size_t noutliers; /**< MAD outliers (modified z > 3.5) */
	size_t *outliers; /**< their measured-round indices (noutliers entries, owned) */
	int modes;	  /**< 1 normally; >= 2 when the distribution looks multimodal */
	size_t nzero;	  /**< values equal to 0 */
};

/** Verdicts. */
enum pl_cmp_verdict {
	PL_CMP_BASELINE = 0, /**< the baseline itself */
	PL_CMP_NO_VERDICT,   /**< too few runs or an undefined metric: see text */
	PL_CMP_CHANGED,	     /**< slower/faster by at least the threshold */
	PL_CMP_BELOW,	     /**< difference detected but below the threshold */
	PL_CMP_NO_DIFF,	     /**< no difference detected (CI wider than the threshold) */
	PL_CMP_EQUIVALENT,   /**< the whole CI lies within +-threshold */
};

/** How the ratio and its CI were computed (see the top of this file). */
enum pl_cmp_method {
	PL_CMP_GEOMEAN_LOG,	/**< ratio of geometric means, Welch t on logs (all values > 0) */
	PL_CMP_FIELLER,		/**< ratio of means, Fieller's CI (all values >= 0) */
	PL_CMP_WELCH_RELATIVE,	/**< Welch CI of the difference / |baseline mean| (values < 0) */
	PL_CMP_DIFFERENCE_ONLY, /**< the baseline is ~0: the difference alone */
};

/** A variant compared with the baseline on one metric. Ratios are variant/baseline. */
struct pl_cmp_cstat {
	bool ok;	/**< enough values to compute anything */
	bool log_scale; /**< ratio of geometric means (method PL_CMP_GEOMEAN_LOG) */
	enum pl_cmp_method method;
	double ratio, lo, hi;	/**< estimate and CI at the confidence level; lo >= 0 unless the
				     method is PL_CMP_WELCH_RELATIVE */
	double times, times_sd; /**< hyperfine's factor: max/min of the two means (>= 1) and its
				     standard deviation by propagation of uncertainty (stats/ttest.h
				     pl_ratio_hyperfine); NaN when a mean is not positive */
	bool times_up;		/**< the variant's mean is the larger one */
	double p_welch;		/**< Welch t p-value */
	double median_ratio;
	double hl_ratio, hl_lo, hl_hi; /**< Hodges-Lehmann (on logs when log_scale) */
	struct pl_rank_test mw;	       /**< Mann-Whitney U of the variant against the baseline */
	double p_holm;		       /**< Holm-adjusted Mann-Whitney p */
	struct pl_rank_test wsr;       /**< Wilcoxon signed-rank of the per-round log ratios */
	bool wsr_ok;
	size_t pairs;	    /**< rounds with both values */
	size_t runs_needed; /**< runs per variant to detect the threshold at 80% power (0 when
				 near_zero) */
	double rules_out;   /**< the CI excludes changes beyond this fraction (max |CI - 1|) */
	bool near_zero;	    /**< the baseline is ~0: some value is <= 0 and the CI of its mean
				 (Student t at the confidence level) contains 0, i.e. |mean| <=
				 t * sd / sqrt(n); then ratio, CI and runs_needed are not defined
				 (NaN/0) and the verdict uses the difference */
	double diff, diff_lo, diff_hi; /**< variant minus baseline (means, Welch CI), in the
					    metric's unit */
	enum pl_cmp_verdict verdict;
	char *text;  /**< the full verdict sentence (owned) */
	char *brief; /**< a short form for table cells (owned) */
};

/** Options of the analysis. */
struct pl_cmp_aopts {
	double level;	       /**< confidence level (0.95) */
	double alpha;	       /**< significance level (0.05) */
	double threshold;      /**< fraction (0.01) */
	const char *up, *down; /**< words for larger/smaller values ("slower", "faster") */
	bool higher_better;
	const char *unit; /**< unit of the metric ("s", "B", ""), for differences in verdicts */
	const char *base_name; /**< the baseline's name in "N times faster than NAME" (NULL:
				    "the baseline") */
	double resolution;     /**< clock-tick resolution in the metric's unit (0.01 s for user
				    and sys time), 0 when none: runs that read 0 are then named in
				    the verdict as below it */
};

/** Analyse one metric: @x[v] holds @nr values of variant v (index = measured round, NaN
 *  where missing); variant 0 is the baseline. Fills @vs[0..nv-1] and @cs[0..nv-1]
 *  (cs[0] is the baseline entry). Free with pl_cmp_stats_free. */
void pl_cmp_analyze_metric(double *const *x, size_t nv, size_t nr, const struct pl_cmp_aopts *o,
			   struct pl_cmp_vstat *vs, struct pl_cmp_cstat *cs);
/** Free what pl_cmp_analyze_metric allocated in @nv entries of each array. NULL-safe. */
void pl_cmp_stats_free(struct pl_cmp_vstat *vs, struct pl_cmp_cstat *cs, size_t nv);

/** Name of a method for JSON: "geomean-ratio-welch-log", "fieller-ratio-of-means",
 *  "welch-relative-to-baseline-mean", "difference-only". */
const char *pl_cmp_method_name(enum pl_cmp_method m);

/** Name of a verdict for JSON ("baseline", "no-verdict", "slower"/"faster" are reported as
 *  "changed", "below-threshold", "no-difference", "equivalent"). */
const char *pl_cmp_verdict_name(enum pl_cmp_verdict v);

#endif
