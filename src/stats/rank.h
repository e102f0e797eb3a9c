/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rank tests: Mann-Whitney U (Wilcoxon rank-sum), Wilcoxon signed-rank, the
 * Hodges-Lehmann shift estimate with its distribution-free CI, and Holm's step-down
 * correction of several p-values. */
#ifndef PERFLAB_STATS_RANK_H
#define PERFLAB_STATS_RANK_H
#include <stdbool.h>
#include <stddef.h>

/** Largest n1 + n2 (Mann-Whitney) or n (signed-rank) for which exact distributions are
 *  used when there are no ties; beyond, and with ties, the normal approximation. */
#define PL_RANK_EXACT_MAX 60

/** Result of a rank test. */
struct pl_rank_test {
	double stat; /**< U of b over a (pairs b > a, ties count 1/2), or W+ */
	double z;    /**< normal score with continuity correction (NaN when exact) */
	double p;    /**< two-sided p-value */
	bool exact;  /**< p from the exact null distribution */
	size_t n;    /**< signed-rank: differences that were not zero; rank-sum: na + nb */
};

/** P(U <= u) under H0 for sample sizes @na, @nb without ties: coefficients of the
 *  Gaussian binomial [na+nb choose na]_q over C(na+nb, na) (Mann & Whitney 1947).
 *  NaN when na + nb > PL_RANK_EXACT_MAX. */
double pl_mw_cdf_exact(size_t na, size_t nb, double u);
/** P(W+ <= w) under H0 for @n non-zero differences without ties: coefficients of
 *  prod_{i=1..n} (1 + q^i) over 2^n. NaN when n > PL_RANK_EXACT_MAX. */
double pl_signrank_cdf_exact(size_t n, double w);

/** Mann-Whitney U test of b against a (two-sided). Exact when there are no ties and
 *  na + nb <= PL_RANK_EXACT_MAX; otherwise the normal approximation with the tie
 *  correction of the variance and a continuity correction (as R's wilcox.test).
 *  Needs na, nb >= 1; returns 0 or -EDOM. */
int pl_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		    struct pl_rank_test *out);
/** Wilcoxon signed-rank test that @d[0..n-1] is centred on 0 (two-sided). Zeros are
 *  dropped (Wilcoxon's convention); exact without ties for up to PL_RANK_EXACT_MAX
 *  differences, else normal with tie and continuity corrections. Returns 0, or -EDOM when
 *  no non-zero difference is left (then p is 1). */
int pl_signed_rank(const double *d, size_t n, struct pl_rank_test *out);

/** Hodges-Lehmann estimate of the shift b - a: the median of the na*nb pairwise
 *  differences, with the distribution-free CI at @level from the Mann-Whitney critical
 *  value (Hollander & Wolfe, Nonparametric Statistical Methods, 4.3; exact quantile for
 *  small samples, normal approximation beyond). The order statistics are selected without
 *  forming the na*nb differences (Monahan 1984, ACM TOMS Algorithm 616): O((na + nb)
 *  log(na nb)) time, O(na + nb) memory. Returns 0, or -EDOM when the samples are too small
 *  for the level (the CI is then NaN). */
int pl_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb, double level,
		      double *est, double *lo, double *hi);

/** Holm's step-down adjustment of @k p-values (Holm 1979): @adj[i] is the adjusted p of
 *  @p[i]; reject H_i at alpha when adj[i] < alpha. Controls the family-wise error rate. */
void pl_holm(const double *p, size_t k, double *adj);

#endif
