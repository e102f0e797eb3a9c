/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Statistics of compare against known answers: ministat's own examples (its README and
 * the iguana/chameleon data of its documentation, numbers as printed by ministat), the
 * numeric traps, exact Mann-Whitney and signed-rank tables, R's documented examples. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>
#include <gsl/gsl_cdf.h>

#include "stats/rank.h"
#include "stats/robust.h"
#include "stats/summary.h"
#include "stats/ttest.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* |got - want| within @digits significant digits of want */
static void assert_digits(double got, double want, int digits)
{
	double tol = fabs(want) * 0.5 * pow(10, 1 - digits);
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.10g, want %.10g (to %d digits)", got, want, digits);
}

static const double iguana[] = { 50, 200, 150, 400, 750, 400, 150 };
static const double chameleon[] = { 150, 400, 720, 500, 930 };
static const double leopard[] = { 400, 520, 600, 710, 650, 820, 760, 690 };
/* ministat's README, second example */
static const double readme_x[] = { 0.133, 0.135, 0.136, 0.136, 0.137 };
static const double readme_p[] = { 0.139, 0.139, 0.139, 0.140, 0.140 };

static void test_ministat_pooled_t(void **state)
{
	(void)state;
	struct pl_tinterval t;
	/* ministat -c 80 iguana chameleon: 240 +/- 212.215, pooled s = 264.159 */
	assert_int_equal(pl_ttest_pooled(iguana, N(iguana), chameleon, N(chameleon), 0.80, &t), 0);
	assert_digits(t.diff, 240, 6);
	assert_digits(t.half, 212.215, 4);
	assert_digits(t.pooled_sd, 264.159, 6);
	/* ministat -c 95 iguana chameleon: "No difference proven at 95.0% confidence" */
	assert_int_equal(pl_ttest_pooled(iguana, N(iguana), chameleon, N(chameleon), 0.95, &t), 0);
	assert_true(t.lo < 0 && t.hi > 0);
	/* ministat -c 95 iguana leopard: 343.75 +/- 212.06, pooled s = 189.694 */
	assert_int_equal(pl_ttest_pooled(iguana, N(iguana), leopard, N(leopard), 0.95, &t), 0);
	assert_digits(t.diff, 343.75, 6);
	assert_digits(t.half, 212.06, 4);
	assert_digits(t.pooled_sd, 189.694, 6);
	/* -c 99: 343.75 +/- 295.705 */
	assert_int_equal(pl_ttest_pooled(iguana, N(iguana), leopard, N(leopard), 0.99, &t), 0);
	assert_digits(t.half, 295.705, 4);
	/* README: 0.004 +/- 0.00166288, pooled s = 0.00114018 */
	assert_int_equal(pl_ttest_pooled(readme_x, 5, readme_p, 5, 0.95, &t), 0);
	assert_digits(t.diff, 0.004, 6);
	assert_digits(t.half, 0.00166288, 4);
	assert_digits(t.pooled_sd, 0.00114018, 6);
	assert_int_equal(pl_ttest_pooled(iguana, 1, leopard, 8, 0.95, &t), -EDOM);
}

static void test_numeric_traps(void **state)
{
	(void)state;
	/* ministat prints Stddev 0 for these: its sums of squares lose the digits */
	const double big[] = { 1e12 + 1, 1e12 + 2, 1e12 + 3 };
	const double big2[] = { 1e12 + 2, 1e12 + 3, 1e12 + 4 };
	struct pl_summary s;
	pl_summary_compute(&s, big, 3);
	assert_true(s.stddev == 1.0);
	struct pl_tinterval t;
	assert_int_equal(pl_ttest_welch(big, 3, big2, 3, 0.95, &t), 0);
	assert_true(t.diff == 1.0);
	assert_digits(t.se, sqrt(2.0 / 3.0), 12);
	assert_digits(t.df, 4, 12);
	assert_int_equal(pl_ttest_pooled(big, 3, big2, 3, 0.95, &t), 0);
	assert_digits(t.pooled_sd, 1, 12);
	/* constant samples: zero-width interval, p 0 or 1 */
	const double c1[] = { 5, 5, 5 }, c2[] = { 6, 6, 6 };
	assert_int_equal(pl_ttest_welch(c1, 3, c2, 3, 0.95, &t), 0);
	assert_true(t.half == 0 && t.p == 0);
	assert_int_equal(pl_ttest_welch(c1, 3, c1, 3, 0.95, &t), 0);
	assert_true(t.p == 1);
	/* ratio needs positive values */
	double r, lo, hi, p;
	const double z[] = { 0, 1, 2 };
	assert_int_equal(pl_ratio_geomean(z, 3, c1, 3, 0.95, &r, &lo, &hi, &p), -EDOM);
	assert_int_equal(pl_ratio_geomean(c1, 3, c2, 3, 0.95, &r, &lo, &hi, &p), 0);
	assert_digits(r, 1.2, 12);
}

static void test_welch_known(void **state)
{
	(void)state;
	/* Welch on iguana vs leopard: means 300 and 643.75, s 238.04761 and 135.11239:
	 * se^2 = 238.04761^2/7 + 135.11239^2/8; df by Welch-Satterthwaite */
	struct pl_tinterval t;
	assert_int_equal(pl_ttest_welch(iguana, N(iguana), leopard, N(leopard), 0.95, &t), 0);
	double va = 238.04761 * 238.04761 / 7, vb = 135.11239 * 135.11239 / 8;
	assert_digits(t.se, sqrt(va + vb), 6);
	assert_digits(t.df, (va + vb) * (va + vb) / (va * va / 6 + vb * vb / 7), 6);
	assert_true(t.p < 0.01 && t.p > 0.001);
}

/* Two-sided 5% critical values of the Mann-Whitney U (the largest c with
 * P(U <= c) <= 0.025), as in the standard tables (e.g. Siegel & Castellan). */
static void test_mw_exact_tables(void **state)
{
	(void)state;
	const struct {
		size_t n1, n2;
		double crit;
	} tab[] = { { 5, 5, 2 },     { 8, 8, 13 }, { 10, 10, 23 },
		    { 20, 20, 127 }, { 6, 9, 10 }, { 4, 7, 3 } };
	for (size_t i = 0; i < N(tab); i++) {
		double c = tab[i].crit;
		assert_true(pl_mw_cdf_exact(tab[i].n1, tab[i].n2, c) <= 0.025);
		assert_true(pl_mw_cdf_exact(tab[i].n1, tab[i].n2, c + 1) > 0.025);
	}
	/* P(U <= 0) = 1 / C(n1+n2, n1) */
	assert_digits(pl_mw_cdf_exact(3, 4, 0), 1.0 / 35, 12);
	assert_digits(pl_mw_cdf_exact(5, 5, 0), 1.0 / 252, 12);
	/* symmetry about n1 n2 / 2: P(U <= 49) + P(U <= 50) = 1 for 10 vs 10 */
	assert_digits(pl_mw_cdf_exact(10, 10, 49) + pl_mw_cdf_exact(10, 10, 50), 1, 12);
	assert_true(isnan(pl_mw_cdf_exact(40, 40, 10)));
	/* completely separated 5 vs 5: two-sided p = 2/252 */
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	struct pl_rank_test t;
	assert_int_equal(pl_mann_whitney(a, 5, b, 5, &t), 0);
	assert_true(t.exact);
	assert_true(t.stat == 25);
	assert_digits(t.p, 2.0 / 252, 10);
	/* R's ?wilcox.test example (Hollander & Wolfe): W = 35, one-sided p = 0.1272 */
	const double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	const double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	assert_int_equal(pl_mann_whitney(y, 5, x, 10, &t), 0);
	assert_true(t.stat == 35);
	assert_digits(t.p / 2, 0.1272, 4);
}

static void test_mw_normal_ties(void **state)
{
	(void)state;
	/* ties force the normal approximation; hand-computed: pairs of b = {2,3,4,5,5,6}
	 * over a = {1,2,2,3,4} (ties 1/2): U = 2 + 3.5 + 4.5 + 5 + 5 + 5 = 25, mean 15,
	 * tie term sum(t^3-t) = 24+6+6+6 = 42, var = 30/12 (12 - 42/110),
	 * z = (25 - 15 - 0.5) / sqrt(var) (continuity correction) */
	const double a[] = { 1, 2, 2, 3, 4 }, b[] = { 2, 3, 4, 5, 5, 6 };
	struct pl_rank_test t;
	assert_int_equal(pl_mann_whitney(a, 5, b, 6, &t), 0);
	assert_false(t.exact);
	assert_true(t.stat == 25);
	double var = 30.0 / 12 * (12 - 42.0 / 110);
	assert_digits(t.z, 9.5 / sqrt(var), 10);
	assert_digits(t.p, erfc(9.5 / sqrt(var) / sqrt(2)), 8);
}

static void test_signed_rank(void **state)
{
	(void)state;
	/* two-sided 5% critical values of the signed-rank statistic */
	const struct {
		size_t n;
		double crit;
	} tab[] = { { 6, 0 }, { 10, 8 }, { 15, 25 }, { 20, 52 } };
	for (size_t i = 0; i < N(tab); i++) {
		assert_true(pl_signrank_cdf_exact(tab[i].n, tab[i].crit) <= 0.025);
		assert_true(pl_signrank_cdf_exact(tab[i].n, tab[i].crit + 1) > 0.025);
	}
	/* R's ?wilcox.test paired example: V = 40, one-sided p = 0.01953 */
	const double x[] = { 1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30 };
	const double y[] = { 0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29 };
	double d[9];
	for (int i = 0; i < 9; i++)
		d[i] = x[i] - y[i];
	struct pl_rank_test t;
	assert_int_equal(pl_signed_rank(d, 9, &t), 0);
	assert_true(t.exact);
	assert_true(t.stat == 40);
	assert_digits(t.p / 2, 0.01953, 4);
	const double zeros[] = { 0, 0, 0 };
	assert_int_equal(pl_signed_rank(zeros, 3, &t), -EDOM);
	assert_true(t.p == 1);
}

static void test_hodges_lehmann(void **state)
{
	(void)state;
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	double est, lo, hi;
	/* 3 vs 3 cannot reach 95%: P(U <= 0) = 1/20 > 0.025 */
	assert_int_equal(pl_hodges_lehmann(a, 3, b, 3, 0.95, &est, &lo, &hi), -EDOM);
	assert_true(est == 3);
	/* 10 vs 10 shifted by 10: the estimate is the shift; CI from the 24th smallest
	 * and largest of the 100 differences (critical value 23) */
	double x[10], y[10];
	for (int i = 0; i < 10; i++) {
		x[i] = i;
		y[i] = i + 10;
	}
	assert_int_equal(pl_hodges_lehmann(x, 10, y, 10, 0.95, &est, &lo, &hi), 0);
	assert_true(est == 10);
	/* differences 10 + (j - i): sorted, the 24th is 7 and the 77th is 13 */
	assert_true(lo == 7 && hi == 13);
}

static int cmp_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* The selection (no na*nb array) gives the order statistics the sorted array of every
 * difference gives: random samples of 1-60 values, with many ties (small integers) and
 * without (reals), even and odd na*nb, levels inside and outside what n can reach. */
static void test_hodges_lehmann_selection(void **state)
{
	(void)state;
	unsigned seed = 12345;
	for (int trial = 0; trial < 400; trial++) {
		size_t na = 1 + (size_t)(rand_r(&seed) % 60), nb = 1 + (size_t)(rand_r(&seed) % 60);
		bool ties = trial % 2;
		double a[60], b[60], d[3600];
		for (size_t i = 0; i < na; i++)
			a[i] = ties ? rand_r(&seed) % 7 : rand_r(&seed) / (double)RAND_MAX;
		for (size_t j = 0; j < nb; j++)
			b[j] = ties ? rand_r(&seed) % 9 : rand_r(&seed) / (double)RAND_MAX + 0.1;
		size_t mn = na * nb;
		for (size_t i = 0; i < na; i++)
			for (size_t j = 0; j < nb; j++)
				d[i * nb + j] = b[j] - a[i];
		qsort(d, mn, sizeof(double), cmp_dbl);
		double med = mn % 2 ? d[mn / 2] : d[mn / 2 - 1] + 0.5 * (d[mn / 2] - d[mn / 2 - 1]);
		double est, lo, hi;
		int r = pl_hodges_lehmann(a, na, b, nb, trial % 3 ? 0.95 : 0.5, &est, &lo, &hi);
		assert_true(est == med);
		if (r == 0) {
			/* lo and hi are two order statistics symmetric about the middle */
			bool found = false;
			for (size_t k = 0; k < mn && !found; k++)
				found = d[k] == lo && d[mn - 1 - k] == hi;
			assert_true(found);
			assert_true(lo <= est && est <= hi);
		}
	}
}

static void test_holm(void **state)
{
	(void)state;
	const double p[] = { 0.01, 0.04, 0.03 };
	double adj[3];
	pl_holm(p, 3, adj);
	assert_digits(adj[0], 0.03, 12);
	assert_digits(adj[1], 0.06, 12);
	assert_digits(adj[2], 0.06, 12);
	const double one[] = { 0.02 };
	pl_holm(one, 1, adj);
	assert_true(adj[0] == 0.02);
}

static void test_robust(void **state)
{
	(void)state;
	double s[10];
	for (int i = 0; i < 10; i++)
		s[i] = i + 1;
	double lo, hi;
	/* n = 10 at 95%: x(2) and x(9), coverage 1 - 2*11/1024 = 97.9% */
	assert_int_equal(pl_median_ci(s, 10, 0.95, &lo, &hi), 0);
	assert_true(lo == 2 && hi == 9);
	assert_int_equal(pl_median_ci(s, 6, 0.95, &lo, &hi), 0);
	assert_true(lo == 1 && hi == 6);
	assert_int_equal(pl_median_ci(s, 5, 0.95, &lo, &hi), -EDOM);
	assert_true(isnan(lo));
	assert_true(pl_mad_sorted(s, 10) == 2.5);
	assert_true(pl_iqr_sorted(s, 10) == 4.5);
	const double v[] = { 10, 10.1, 9.9, 10, 10.2, 9.8, 10, 50 };
	bool out[8];
	assert_int_equal(pl_outliers_mad(v, 8, 0.01, out), 1);
	assert_true(out[7] && !out[0]);
	/* two well separated groups vs one normal-ish group */
	double bi[40], uni[40];
	for (int i = 0; i < 20; i++) {
		bi[i] = 10 + 0.05 * (i % 7);
		bi[20 + i] = 20 + 0.05 * (i % 5);
	}
	for (int i = 0; i < 40; i++)
		uni[i] = 10 + 0.1 * (double)((i * 7) % 11) + 0.05 * (double)((i * 3) % 5);
	assert_int_equal(pl_mode_count(bi, 40), 2);
	assert_int_equal(pl_mode_count(uni, 40), 1);
	assert_int_equal(pl_mode_count(bi, 5), 1);
	/* three groups of 30 (one at 40% of the others' size still counts: > 10%), and a
	 * tight group with one far outlier: the kernel is then narrower than a grid step
	 * (the recurrence's ratio is huge there) and the outlier's bump is under 10% */
	double tri[80], far[200];
	for (int i = 0; i < 80; i++)
		tri[i] = (i < 30 ? 5 : i < 60 ? 15 : 25) + 0.1 * (i % 6);
	assert_int_equal(pl_mode_count(tri, 80), 3);
	for (int i = 0; i < 199; i++)
		far[i] = 1 + 0.001 * (i % 13);
	far[199] = 1000;
	assert_int_equal(pl_mode_count(far, 200), 1);
	/* runs needed: 2 (1.96 + 0.84)^2 0.01^2 / ln(1.01)^2 = 15.85 -> 16 */
	assert_int_equal(pl_runs_needed(0.01, 0.01, 0.05, 0.8), 16);
	assert_int_equal(pl_runs_needed(0, 0.01, 0.05, 0.8), 0);
}

/* A MAD of 0 (most values tie) divides by nothing: a value 0.1% off the median is not an
 * outlier within a 1% tolerance, one 50% off still is (mean absolute deviation scale:
 * 50/6 = 8.33, 50 / (1.2533 * 8.33) = 4.79 > 3.5), and equal values have none. */
static void test_outliers_zero_mad(void **state)
{
	(void)state;
	bool out[6];
	const double near[] = { 100, 100, 100, 100.1, 100, 100 };
	assert_int_equal(pl_outliers_mad(near, 6, 0.01, out), 0);
	assert_false(out[3]);
	const double far[] = { 100, 100, 100, 150, 100, 100 };
	assert_int_equal(pl_outliers_mad(far, 6, 0.01, out), 1);
	assert_true(out[3] && !out[0]);
	/* a tolerance of 0: the mean absolute deviation alone (4.79 > 3.5) */
	assert_int_equal(pl_outliers_mad(near, 6, 0, out), 1);
	const double same[] = { 7, 7, 7, 7, 7 };
	assert_int_equal(pl_outliers_mad(same, 5, 0.01, NULL), 0);
	/* sys time in ticks, median 0: one tick among zeros stands out */
	const double ticks[] = { 0, 0, 0, 0, 0, 0.01 };
	assert_int_equal(pl_outliers_mad(ticks, 6, 0.01, out), 1);
	assert_true(out[5]);
}

/* |mb - rho ma| / sqrt(vb + rho^2 va): Fieller's pivot */
static double pivot(double rho, double ma, double mb, double va, double vb)
{
	return fabs(mb - rho * ma) / sqrt(vb + rho * rho * va);
}

/* Fieller's interval: contains the ratio of means, each bound is where the pivot equals
 * the t quantile (found here by bisection, independently of the closed form), it is not
 * symmetric about the estimate, and a baseline whose CI contains 0 is refused. */
static void test_fieller(void **state)
{
	(void)state;
	const double a[] = { 0.010, 0.012, 0.008, 0.011, 0.009, 0.010, 0.013, 0.007 };
	const double b[] = { 0.030, 0.041, 0.025, 0.038, 0.029, 0.044, 0.022, 0.035 };
	double r, lo, hi;
	assert_int_equal(pl_ratio_fieller(a, 8, b, 8, 0.95, &r, &lo, &hi), 0);
	struct pl_summary sa, sb;
	pl_summary_compute(&sa, a, 8);
	pl_summary_compute(&sb, b, 8);
	assert_digits(r, sb.mean / sa.mean, 12);
	assert_true(lo > 0 && lo < r && r < hi);
	double va = sa.stddev * sa.stddev / 8, vb = sb.stddev * sb.stddev / 8;
	/* Welch-Satterthwaite df of the pivot at rho = r, and its t quantile */
	double w = vb + r * r * va;
	double df = w * w / (vb * vb / 7 + r * r * r * r * va * va / 7);
	double t = gsl_cdf_tdist_Pinv(0.975, df);
	double x0 = r, x1 = 100 * r; /* bisection for the upper root */
	for (int i = 0; i < 200; i++) {
		double m = (x0 + x1) / 2;
		if (pivot(m, sa.mean, sb.mean, va, vb) < t)
			x0 = m;
		else
			x1 = m;
	}
	assert_digits(hi, x0, 9);
	x0 = 0, x1 = r; /* and the lower one */
	for (int i = 0; i < 200; i++) {
		double m = (x0 + x1) / 2;
		if (pivot(m, sa.mean, sb.mean, va, vb) < t)
			x1 = m;
		else
			x0 = m;
	}
	assert_digits(lo, x1, 9);
	assert_true(hi - r > r - lo); /* skewed like a ratio */
	/* a baseline of ~0: its mean 0.001 is within t * se of 0, the set is unbounded */
	const double z[] = { 0, 0, 0, 0.004, 0, 0, 0.004, 0 };
	assert_int_equal(pl_ratio_fieller(z, 8, b, 8, 0.95, &r, &lo, &hi), -ERANGE);
	assert_true(isnan(lo) && isnan(hi));
	assert_int_equal(pl_ratio_fieller(a, 1, b, 8, 0.95, &r, &lo, &hi), -EDOM);
}

/* hyperfine's factor and its propagated standard deviation:
 * 2.0 / 0.5 = 4, 4 * sqrt((0.1/2)^2 + (0.05/0.5)^2) = 4 * sqrt(0.0125) = 0.447214 */
static void test_ratio_hyperfine(void **state)
{
	(void)state;
	double f, sd;
	assert_int_equal(pl_ratio_hyperfine(2.0, 0.1, 0.5, 0.05, &f, &sd), 0);
	assert_digits(f, 4, 12);
	assert_digits(sd, 0.4472136, 7);
	assert_int_equal(pl_ratio_hyperfine(0.5, 0.05, 2.0, 0.1, &f, &sd), 0);
	assert_digits(f, 4, 12);
	assert_int_equal(pl_ratio_hyperfine(0, 0.1, 2.0, 0.1, &f, &sd), -EDOM);
	assert_true(isnan(f) && isnan(sd));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ministat_pooled_t),
		cmocka_unit_test(test_numeric_traps),
		cmocka_unit_test(test_welch_known),
		cmocka_unit_test(test_mw_exact_tables),
		cmocka_unit_test(test_mw_normal_ties),
		cmocka_unit_test(test_signed_rank),
		cmocka_unit_test(test_hodges_lehmann),
		cmocka_unit_test(test_hodges_lehmann_selection),
		cmocka_unit_test(test_holm),
		cmocka_unit_test(test_robust),
		cmocka_unit_test(test_outliers_zero_mad),
		cmocka_unit_test(test_fieller),
		cmocka_unit_test(test_ratio_hyperfine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
