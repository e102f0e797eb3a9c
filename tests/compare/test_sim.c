/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Simulated experiments: the real session (seeded interleaved rounds) and analysis with
 * a fake executor that draws each run's wall time from a seeded distribution (normal
 * noise of a given CV around a per-variant mean, optionally with a linear drift over the
 * experiment) instead of running anything. */
#include <errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compare/analyze.h"
#include "compare/output.h"
#include "compare/session.h"

struct sim {
	gsl_rng *rng;
	double mean[4]; /* per variant, seconds */
	double cv;	/* sd / mean of the noise */
	double drift;	/* relative change from the first to the last run (0.02 = +2%) */
	size_t total;	/* runs in the whole experiment, for the drift */
	size_t done;
};

static int sim_exec(void *ctx, struct pl_cmp_session *s, size_t v, size_t round,
		    struct pl_cmp_usage *u, double *vals, char *err, size_t errlen)
{
	(void)s;
	(void)round;
	(void)vals;
	(void)err;
	(void)errlen;
	struct sim *m = ctx;
	double t = m->total > 1 ? (double)m->done / (double)(m->total - 1) : 0;
	memset(u, 0, sizeof(*u));
	u->wall_s = m->mean[v] * (1 + m->drift * t) * (1 + m->cv * gsl_ran_ugaussian(m->rng));
	u->user_s = u->wall_s * 0.9;
	u->max_rss_bytes = 4 << 20;
	m->done++;
	return 0;
}

static struct pl_cmp_experiment *two_variants(void)
{
	static struct pl_cmp_experiment e;
	static struct pl_cmp_variant v[2];
	v[0].name = "A";
	v[1].name = "B";
	e.v = v;
	e.n = 2;
	return &e;
}

/* Run one simulated experiment of @n rounds; return the wall-time comparison verdict
 * and (optionally) the Holm p and ratio. */
static enum pl_cmp_verdict simulate(uint64_t seed, size_t n, double shift, double cv, double drift,
				    double *p, double *ratio)
{
	struct pl_cmp_config cfg = { .runs = n,
				     .warmup = 0,
				     .seed = seed,
				     .threshold = 0.01,
				     .alpha = 0.05,
				     .level = 0.95,
				     .min_runs = 5,
				     .max_runs = n };
	struct sim m = { .cv = cv, .drift = drift, .total = 2 * n };
	m.rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(m.rng, (unsigned long)(seed * 2654435761u + 17));
	m.mean[0] = 0.1;
	m.mean[1] = 0.1 * (1 + shift);
	struct pl_cmp_session s;
	char err[256];
	assert_int_equal(
		pl_cmp_session_init(&s, &cfg, two_variants(), NULL, false, false, err, sizeof(err)),
		0);
	assert_int_equal(pl_cmp_session_run(&s, sim_exec, &m, NULL, NULL, err, sizeof(err)), 0);
	assert_int_equal(s.measured, n);
	double *x[2] = { pl_cmp_values(&s, 0, 0), pl_cmp_values(&s, 0, 1) };
	struct pl_cmp_vstat vs[2];
	struct pl_cmp_cstat cs[2];
	struct pl_cmp_aopts o = {
		.level = 0.95, .alpha = 0.05, .threshold = 0.01, .up = "slower", .down = "faster"
	};
	pl_cmp_analyze_metric(x, 2, n, &o, vs, cs);
	enum pl_cmp_verdict v = cs[1].verdict;
	if (p)
		*p = cs[1].p_holm;
	if (ratio)
		*ratio = cs[1].ratio;
	pl_cmp_stats_free(vs, cs, 2);
	free(x[0]);
	free(x[1]);
	pl_cmp_session_free(&s);
	gsl_rng_free(m.rng);
	return v;
}

static bool detected(enum pl_cmp_verdict v)
{
	return v == PL_CMP_CHANGED || v == PL_CMP_BELOW;
}

/* A/A: the false-positive rate at alpha 0.05 over 2,000 seeded experiments must be near
 * 0.05 (exact Mann-Whitney at n = 20, discrete, so a little below). */
static void test_aa_false_positive_rate(void **state)
{
	(void)state;
	size_t fp = 0, total = 2000;
	for (size_t i = 0; i < total; i++)
		fp += detected(simulate(1000 + i, 20, 0, 0.01, 0, NULL, NULL));
	double rate = (double)fp / (double)total;
	print_message("# A/A false-positive rate, n=20 (exact U): %.4f (%zu/%zu)\n", rate, fp,
		      total);
	assert_true(rate >= 0.03 && rate <= 0.07);
}

/* The same with n = 40 per variant: the normal approximation of U. */
static void test_aa_false_positive_rate_normal(void **state)
{
	(void)state;
	size_t fp = 0, total = 1000;
	for (size_t i = 0; i < total; i++)
		fp += detected(simulate(90000 + i, 40, 0, 0.01, 0, NULL, NULL));
	double rate = (double)fp / (double)total;
	print_message("# A/A false-positive rate, n=40 (normal U): %.4f (%zu/%zu)\n", rate, fp,
		      total);
	assert_true(rate >= 0.03 && rate <= 0.07);
}

/* A 2% linear drift over the experiment: interleaved rounds see it equally. */
static void test_drift_interleaved(void **state)
{
	(void)state;
	size_t fp = 0, total = 200;
	for (size_t i = 0; i < total; i++)
		fp += detected(simulate(5000 + i, 20, 0, 0.01, 0.02, NULL, NULL));
	print_message("# 2%% drift, interleaved: %zu/%zu false positives\n", fp, total);
	/* the chosen seed of the example: no false positive */
	double p;
	assert_false(detected(simulate(42, 20, 0, 0.01, 0.02, &p, NULL)));
	/* and over many seeds no more than alpha */
	assert_true((double)fp / (double)total <= 0.07);
}

/* What interleaving protects against: the same drift with A's runs all before B's. */
static void test_drift_blocked_would_mislead(void **state)
{
	(void)state;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 42);
	double a[20], b[20];
	for (int i = 0; i < 40; i++) {
		double x = 0.1 * (1 + 0.02 * i / 39.0) * (1 + 0.01 * gsl_ran_ugaussian(rng));
		if (i < 20)
			a[i] = x;
		else
			b[i - 20] = x;
	}
	gsl_rng_free(rng);
	double *x[2] = { a, b };
	struct pl_cmp_vstat vs[2];
	struct pl_cmp_cstat cs[2];
	struct pl_cmp_aopts o = {
		.level = 0.95, .alpha = 0.05, .threshold = 0.01, .up = "slower", .down = "faster"
	};
	pl_cmp_analyze_metric(x, 2, 20, &o, vs, cs);
	assert_true(detected(cs[1].verdict));
	pl_cmp_stats_free(vs, cs, 2);
}

/* A 3% shift at CV 1% with 20 runs each is found and sized right. */
static void test_shift_detected(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		double ratio, p;
		enum pl_cmp_verdict v = simulate(seed, 20, 0.03, 0.01, 0, &p, &ratio);
		assert_int_equal(v, PL_CMP_CHANGED);
		assert_true(ratio > 1.02 && ratio < 1.04);
		assert_true(p < 0.001);
	}
}

/* Below 5 runs: no verdict, and the text says why. */
static void test_too_few_runs(void **state)
{
	(void)state;
	double x0[] = { 1, 1.1, 1.2, 1.3 }, x1[] = { 2, 2.1, 2.2, 2.3 };
	double *x[2] = { x0, x1 };
	struct pl_cmp_vstat vs[2];
	struct pl_cmp_cstat cs[2];
	struct pl_cmp_aopts o = {
		.level = 0.95, .alpha = 0.05, .threshold = 0.01, .up = "slower", .down = "faster"
	};
	pl_cmp_analyze_metric(x, 2, 4, &o, vs, cs);
	assert_int_equal(cs[1].verdict, PL_CMP_NO_VERDICT);
	assert_non_null(strstr(cs[1].text, "fewer than 5 runs"));
	pl_cmp_stats_free(vs, cs, 2);
}

/* The four verdicts on constructed samples. */
static void test_verdicts(void **state)
{
	(void)state;
	struct pl_cmp_aopts o = {
		.level = 0.95, .alpha = 0.05, .threshold = 0.01, .up = "slower", .down = "faster"
	};
	double a[30], b[30], c[30], d[30];
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 7);
	for (int i = 0; i < 30; i++) {
		double n1 = gsl_ran_ugaussian(rng), n2 = gsl_ran_ugaussian(rng);
		a[i] = 1 + 0.001 * n1;
		b[i] = 1.004 + 0.001 * n2; /* +0.4%: detected, below 1% */
		c[i] = 1 + 0.001 * n2;	   /* same: equivalent within 1% */
		d[i] = 1 + 0.05 * n2;	   /* noisy: no difference, CI too wide */
	}
	gsl_rng_free(rng);
	double *x[4] = { a, b, c, d };
	struct pl_cmp_vstat vs[4];
	struct pl_cmp_cstat cs[4];
	pl_cmp_analyze_metric(x, 4, 30, &o, vs, cs);
	assert_int_equal(cs[0].verdict, PL_CMP_BASELINE);
	assert_int_equal(cs[1].verdict, PL_CMP_BELOW);
	assert_non_null(strstr(cs[1].text, "below the 1% threshold"));
	assert_int_equal(cs[2].verdict, PL_CMP_EQUIVALENT);
	assert_non_null(strstr(cs[2].text, "equivalent within +-1%"));
	assert_int_equal(cs[3].verdict, PL_CMP_NO_DIFF);
	assert_non_null(strstr(cs[3].text, "would need about"));
	/* Holm over the three comparisons: adjusted p never below the raw p */
	for (int v = 1; v < 4; v++)
		assert_true(cs[v].p_holm >= cs[v].mw.p);
	pl_cmp_stats_free(vs, cs, 4);
}

/* A baseline of ~0 (sys time in ticks: mostly 0, once 4 ms): no ratio, relative CI or run
 * estimate, the verdict gives the difference in the metric's unit; a clear change is still
 * detected; a metric with a zero but a mean far above its spread keeps its ratio. */
static void test_near_zero_baseline(void **state)
{
	(void)state;
	struct pl_cmp_aopts o = { .level = 0.95,
				  .alpha = 0.05,
				  .threshold = 0.01,
				  .up = "slower",
				  .down = "faster",
				  .unit = "s" };
	double a[10] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.004 }, z[10] = { 0 }, big[10];
	for (int i = 0; i < 10; i++)
		big[i] = 0.05 + 0.0005 * (i % 3);
	double *x[3] = { a, z, big };
	struct pl_cmp_vstat vs[3];
	struct pl_cmp_cstat cs[3];
	pl_cmp_analyze_metric(x, 3, 10, &o, vs, cs);
	/* |mean| 0.4 ms <= t(0.975, 9) 2.262 * sd 1.265 ms / sqrt(10) = 0.905 ms */
	assert_true(cs[1].near_zero);
	assert_true(isnan(cs[1].ratio) && isnan(cs[1].lo) && isnan(cs[1].hi));
	assert_true(isnan(cs[1].hl_ratio));
	assert_int_equal(cs[1].runs_needed, 0);
	assert_true(fabs(cs[1].diff + 0.0004) < 1e-12);
	assert_true(cs[1].diff_lo < cs[1].diff && cs[1].diff < 0 && cs[1].diff_hi > 0);
	assert_int_equal(cs[1].verdict, PL_CMP_NO_DIFF);
	assert_non_null(strstr(cs[1].text, "the baseline is ~0 (mean 400 us"));
	assert_non_null(strstr(cs[1].text, "no relative CI or run estimate: difference -400 us"));
	assert_null(strstr(cs[1].text, "runs per variant"));
	assert_null(strstr(cs[1].text, "rules out"));
	assert_string_equal(cs[1].brief, "no difference (base ~0)");
	/* +50 ms over a ~0 baseline: detected, stated as a difference */
	assert_true(cs[2].near_zero);
	assert_int_equal(cs[2].verdict, PL_CMP_CHANGED);
	assert_non_null(strstr(cs[2].text, "slower by +50.05 ms (the baseline is ~0"));
	assert_string_equal(cs[2].brief, "slower +50.05 ms");
	pl_cmp_stats_free(vs, cs, 3);

	/* a zero among values around 1: mean 0.9 far above t * sd / sqrt(n) = 0.23: a ratio */
	double b0[10] = { 0, 1, 1, 1, 1, 1, 1, 1, 1, 1 }, b1[10];
	for (int i = 0; i < 10; i++)
		b1[i] = 1.1 * b0[i];
	double *y[2] = { b0, b1 };
	pl_cmp_analyze_metric(y, 2, 10, &o, vs, cs);
	assert_false(cs[1].near_zero);
	assert_false(cs[1].log_scale);
	assert_true(fabs(cs[1].ratio - (1 + 0.09 / 0.9)) < 1e-9);
	assert_true(cs[1].runs_needed > 0);
	pl_cmp_stats_free(vs, cs, 2);
}

/* sys time in ticks, zeros on both sides, a variant with a wide spread: the ratio of means
 * gets Fieller's CI, whose lower bound is never below 0 (-100%; the additive Welch CI
 * relative to the baseline mean went to -300% here), and the verdict names the runs that
 * read 0 as below the clock-tick resolution. */
static void test_ratio_ci_possible(void **state)
{
	(void)state;
	struct pl_cmp_aopts o = { .level = 0.95,
				  .alpha = 0.05,
				  .threshold = 0.01,
				  .up = "more CPU",
				  .down = "less CPU",
				  .unit = "s",
				  .resolution = 0.01 };
	double a[10] = { 0.01, 0.01, 0, 0.01, 0.01, 0.01, 0, 0.01, 0.01, 0.01 };
	double b[10] = { 0, 0.2, 0, 0, 0.1, 0, 0, 0, 0.15, 0 };
	double *x[2] = { a, b };
	struct pl_cmp_vstat vs[2];
	struct pl_cmp_cstat cs[2];
	pl_cmp_analyze_metric(x, 2, 10, &o, vs, cs);
	assert_false(cs[1].near_zero);
	assert_int_equal(cs[1].method, PL_CMP_FIELLER);
	assert_string_equal(pl_cmp_method_name(cs[1].method), "fieller-ratio-of-means");
	assert_true(fabs(cs[1].ratio - 0.045 / 0.008) < 1e-9);
	assert_true(cs[1].lo >= 0 && cs[1].lo <= cs[1].ratio && cs[1].hi > cs[1].ratio);
	assert_true(cs[1].hl_lo >= 0 || isnan(cs[1].hl_lo));
	assert_int_equal(vs[0].nzero, 2);
	assert_int_equal(vs[1].nzero, 7);
	assert_non_null(strstr(cs[1].text, "2/10 runs of the baseline and 7/10 of this variant "
					   "read 0 s: below the 10 ms clock-tick resolution"));
	/* the CI printed never goes below -100% */
	double lo_pct = 0;
	const char *ci = strstr(cs[1].text, "95% CI ");
	assert_non_null(ci);
	assert_int_equal(sscanf(ci, "95%% CI %lf%%", &lo_pct), 1);
	assert_true(lo_pct >= -100);
	pl_cmp_stats_free(vs, cs, 2);
}

/* The Mann-Whitney test finds a shift (7 of 8 runs above every baseline run) while the
 * CI of the ratio contains 1 (one run 10 times lower drags the geometric mean below the
 * baseline): neither "slower" nor "faster", and the text says why. */
static void test_no_direction_when_ci_contains_zero(void **state)
{
	(void)state;
	struct pl_cmp_aopts o = {
		.level = 0.95, .alpha = 0.05, .threshold = 0.01, .up = "slower", .down = "faster"
	};
	double a[8], b[8];
	for (int i = 0; i < 8; i++) {
		a[i] = 10 + 0.01 * i;
		b[i] = 11 + 0.01 * i;
	}
	b[7] = 1;
	double *x[2] = { a, b };
	struct pl_cmp_vstat vs[2];
	struct pl_cmp_cstat cs[2];
	pl_cmp_analyze_metric(x, 2, 8, &o, vs, cs);
	assert_true(cs[1].p_holm < 0.05);
	assert_true(cs[1].lo < 1 && cs[1].hi > 1);
	assert_int_equal(cs[1].verdict, PL_CMP_NO_DIFF);
	assert_null(strstr(cs[1].text, "faster"));
	assert_null(strstr(cs[1].text, "slower"));
	assert_non_null(strstr(cs[1].text, "the CI contains 0"));
	pl_cmp_stats_free(vs, cs, 2);

	/* near zero: a rank difference with a difference CI containing 0 is no change */
	double z[10] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.004 }, w[10];
	for (int i = 0; i < 10; i++)
		w[i] = i < 8 ? 0.001 : -0.03;
	double *y[2] = { z, w };
	pl_cmp_analyze_metric(y, 2, 10, &o, vs, cs);
	assert_true(cs[1].near_zero);
	assert_true(cs[1].diff_lo < 0 && cs[1].diff_hi > 0);
	assert_int_not_equal(cs[1].verdict, PL_CMP_CHANGED);
	pl_cmp_stats_free(vs, cs, 2);
}

/* A clear change reads as hyperfine's does beside the percentage: means 1 and 1/3.52 with
 * the same CV sqrt(0.002 / 9) = 1.4907%: 3.52 +- 3.52 sqrt(2) 0.014907 = 0.0742 times
 * faster than the base. */
static void test_hyperfine_phrase(void **state)
{
	(void)state;
	struct pl_cmp_aopts o = { .level = 0.95,
				  .alpha = 0.05,
				  .threshold = 0.01,
				  .up = "slower",
				  .down = "faster",
				  .base_name = "gzip -6" };
	double a[10], b[10];
	for (int i = 0; i < 10; i++) {
		a[i] = 1 + 0.01 * (i % 5 - 2);
		b[i] = a[i] / 3.52;
	}
	double *x[2] = { a, b };
	struct pl_cmp_vstat vs[2];
	struct pl_cmp_cstat cs[2];
	pl_cmp_analyze_metric(x, 2, 10, &o, vs, cs);
	assert_int_equal(cs[1].verdict, PL_CMP_CHANGED);
	assert_true(fabs(cs[1].times - 3.52) < 1e-9);
	assert_true(fabs(cs[1].times_sd - 0.074208) < 0.000005);
	assert_false(cs[1].times_up);
	assert_non_null(strstr(cs[1].text, "faster by 71.59% (3.52 \u00b1 0.07 times faster than "
					   "gzip -6; 95% CI"));
	pl_cmp_stats_free(vs, cs, 2);
}

/* Same seed, same order; the order is a permutation in every round. */
static void test_seeded_order(void **state)
{
	(void)state;
	struct pl_cmp_config cfg = { .runs = 30,
				     .seed = 99,
				     .threshold = 0.01,
				     .alpha = 0.05,
				     .level = 0.95,
				     .min_runs = 5 };
	size_t *orders[2];
	for (int k = 0; k < 2; k++) {
		struct sim m = { .cv = 0.01, .total = 60 };
		m.rng = gsl_rng_alloc(gsl_rng_mt19937);
		m.mean[0] = m.mean[1] = 1;
		struct pl_cmp_session s;
		char err[128];
		assert_int_equal(pl_cmp_session_init(&s, &cfg, two_variants(), NULL, false, false,
						     err, sizeof(err)),
				 0);
		assert_int_equal(pl_cmp_session_run(&s, sim_exec, &m, NULL, NULL, err, sizeof(err)),
				 0);
		orders[k] = malloc(60 * sizeof(size_t));
		memcpy(orders[k], s.order, 60 * sizeof(size_t));
		pl_cmp_session_free(&s);
		gsl_rng_free(m.rng);
	}
	assert_memory_equal(orders[0], orders[1], 60 * sizeof(size_t));
	size_t first_b = 0;
	for (int r = 0; r < 30; r++) {
		assert_int_equal(orders[0][2 * r] + orders[0][2 * r + 1], 1);
		first_b += orders[0][2 * r] == 1;
	}
	/* both orders occur (a fixed A-B order would defeat the interleaving) */
	assert_true(first_b > 5 && first_b < 25);
	free(orders[0]);
	free(orders[1]);
}

/* Adaptive: stops on precision once the CI is narrow, on max-runs when it cannot be. */
static void test_adaptive(void **state)
{
	(void)state;
	struct pl_cmp_config cfg = { .runs = 0,
				     .seed = 5,
				     .precision = 0.01,
				     .min_runs = 5,
				     .max_runs = 200,
				     .threshold = 0.01,
				     .alpha = 0.05,
				     .level = 0.95 };
	char err[128];
	for (int k = 0; k < 2; k++) {
		struct sim m = { .cv = k == 0 ? 0.01 : 0.5, .total = 400 };
		m.rng = gsl_rng_alloc(gsl_rng_mt19937);
		m.mean[0] = m.mean[1] = 1;
		struct pl_cmp_session s;
		assert_int_equal(pl_cmp_session_init(&s, &cfg, two_variants(), NULL, false, false,
						     err, sizeof(err)),
				 0);
		assert_int_equal(pl_cmp_session_run(&s, sim_exec, &m, NULL, NULL, err, sizeof(err)),
				 0);
		if (k == 0) {
			assert_string_equal(s.stop_reason, "precision");
			assert_true(s.measured >= 5 && s.measured < 50);
			assert_true(pl_cmp_ci_halfwidth(&s, 0) < 0.01);
		} else {
			assert_string_equal(s.stop_reason, "max-runs");
			assert_int_equal(s.measured, 200);
		}
		pl_cmp_session_free(&s);
		gsl_rng_free(m.rng);
	}
}

static void test_metric_parse(void **state)
{
	(void)state;
	struct pl_cmp_config cfg = { .runs = 5 };
	struct pl_cmp_session s;
	char err[256];
	char *specs[] = { "score=score: ([0-9.]+)", "lat=latency ([0-9.e+-]+) us", NULL };
	assert_int_equal(
		pl_cmp_session_init(&s, &cfg, two_variants(), specs, true, true, err, sizeof(err)),
		0);
	assert_int_equal(s.nm, 7);
	assert_string_equal(s.m[6].name, "geomean");
	assert_string_equal(s.m[4].up, "faster");
	double v;
	assert_int_equal(pl_cmp_parse_metric(&s.m[4], "warmup\nscore: 12.5\nscore: 99\n", &v), 0);
	assert_true(v == 12.5);
	assert_int_equal(pl_cmp_parse_metric(&s.m[5], "latency 3e+2 us\n", &v), 0);
	assert_true(v == 300);
	assert_int_equal(pl_cmp_parse_metric(&s.m[5], "nothing here\n", &v), -ENOENT);
	pl_cmp_session_free(&s);
	char *bad[] = { "x=([0-9]", NULL };
	assert_int_equal(
		pl_cmp_session_init(&s, &cfg, two_variants(), bad, false, false, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "bad regular expression"));
	pl_cmp_session_free(&s);
	char *nocap[] = { "x=[0-9]+", NULL };
	assert_int_equal(pl_cmp_session_init(&s, &cfg, two_variants(), nocap, false, false, err,
					     sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "capture group"));
	pl_cmp_session_free(&s);
	assert_int_equal(
		pl_cmp_session_init(&s, &cfg, two_variants(), NULL, false, true, err, sizeof(err)),
		-EINVAL);
	pl_cmp_session_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aa_false_positive_rate),
		cmocka_unit_test(test_aa_false_positive_rate_normal),
		cmocka_unit_test(test_drift_interleaved),
		cmocka_unit_test(test_drift_blocked_would_mislead),
		cmocka_unit_test(test_shift_detected),
		cmocka_unit_test(test_too_few_runs),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_near_zero_baseline),
		cmocka_unit_test(test_ratio_ci_possible),
		cmocka_unit_test(test_no_direction_when_ci_contains_zero),
		cmocka_unit_test(test_hyperfine_phrase),
		cmocka_unit_test(test_seeded_order),
		cmocka_unit_test(test_adaptive),
		cmocka_unit_test(test_metric_parse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
