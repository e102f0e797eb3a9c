/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests of --precision on fixed series: the relative half-width of the 95% CI of the
 * median (stats/settle.h), the warm-up rule, the stop rule and the option checks
 * (bench/precision.c). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench/bench.h"
#include "stats/settle.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_precision_order_statistics(void **state)
{
	(void)state;
	/* n = 6: the interval is [x_(1), x_(6)] = [1, 6] around the median 3.5 */
	const double six[] = { 6, 1, 5, 2, 4, 3 };
	double lo, hi;
	assert_float_equal(pl_settle_precision(six, 6, &lo, &hi), 2.5 / 3.5, 1e-12);
	assert_float_equal(lo, 1, 0);
	assert_float_equal(hi, 6, 0);
	/* five values have no 95% interval */
	assert_true(isinf(pl_settle_precision(six, 5, &lo, &hi)));
	assert_true(isnan(lo) && isnan(hi));
	/* the larger side counts: median 100, interval [99, 104] -> 4% */
	const double skew[] = { 99, 100, 100, 100, 100, 104 };
	assert_float_equal(pl_settle_precision(skew, 6, NULL, NULL), 0.04, 1e-12);
	/* n = 20: l = 6 (P(B(20, 1/2) <= 5) = 0.0207 <= 0.025, <= 6: 0.0577), so the interval
	 * is [x_(6), x_(15)] of 1..20 around the median 10.5 */
	double twenty[20];
	for (size_t i = 0; i < 20; i++)
		twenty[i] = (double)(20 - i);
	assert_float_equal(pl_settle_precision(twenty, 20, &lo, &hi), 4.5 / 10.5, 1e-12);
	assert_float_equal(lo, 6, 0);
	assert_float_equal(hi, 15, 0);
	/* constant: exact; a zero median with spread: no relative precision */
	const double flat[] = { 7, 7, 7, 7, 7, 7, 7 };
	assert_float_equal(pl_settle_precision(flat, N(flat), NULL, NULL), 0, 0);
	const double zero[] = { -1, 0, 0, 0, 0, 1 };
	assert_true(isinf(pl_settle_precision(zero, N(zero), NULL, NULL)));
}

static void test_precision_narrows_with_runs(void **state)
{
	(void)state;
	/* a uniform +-5% series: more runs, a narrower interval */
	double v[400];
	uint64_t x = 1;
	for (size_t i = 0; i < N(v); i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		v[i] = 100 * (1 + 0.05 * (2 * (double)(x >> 11) / 9007199254740992.0 - 1));
	}
	double p20 = pl_settle_precision(v, 20, NULL, NULL);
	double p400 = pl_settle_precision(v, 400, NULL, NULL);
	assert_true(p20 > 0.01 && p20 < 0.05);
	assert_true(p400 < p20 / 2);
}

static void test_warmup_rule(void **state)
{
	(void)state;
	/* two slow runs before a settled series */
	const double slow[] = { 300, 250, 100, 101, 99, 100, 102, 98, 100, 101, 99, 100 };
	assert_int_equal(pl_settle_warmup(slow, N(slow)), 2);
	/* a fast first run is unsettled too (a turbo burst before throttling) */
	const double fast[] = { 60, 100, 101, 99, 100, 102, 98, 100, 101, 99, 100 };
	assert_int_equal(pl_settle_warmup(fast, N(fast)), 1);
	/* the warm-up ends at the first run within the band, even with a slow one after */
	const double later[] = { 300, 100, 300, 101, 99, 100, 102, 98, 100, 101, 99, 100 };
	assert_int_equal(pl_settle_warmup(later, N(later)), 1);
	/* quiet from the start: nothing dropped */
	const double quiet[] = { 100, 101, 99, 100, 102, 98, 100, 101, 99, 100, 101, 99 };
	assert_int_equal(pl_settle_warmup(quiet, N(quiet)), 0);
	/* too few runs for a reference of 5 */
	assert_int_equal(pl_settle_warmup(slow, 9), 0);
	/* a steady trend is not a warm-up beyond the runs outside the band of the last half
	 * (median 420, MAD 100: 1000 and 960 are out, 920 within) */
	double trend[20];
	for (size_t i = 0; i < 20; i++)
		trend[i] = 1000 - 40 * (double)i;
	assert_int_equal(pl_settle_warmup(trend, 20), 2);
	/* 12 slow runs of 20: at most half the series goes */
	double slow12[20];
	for (size_t i = 0; i < 20; i++)
		slow12[i] = i < 12 ? 500 : 100 + (double)(i % 3);
	assert_int_equal(pl_settle_warmup(slow12, 20), 10);
	/* half the reference ties (whole ticks): within 1% stays, beyond goes */
	const double tick_far[] = { 105, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100 };
	const double tick_near[] = { 100.5, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100 };
	assert_int_equal(pl_settle_warmup(tick_far, N(tick_far)), 1);
	assert_int_equal(pl_settle_warmup(tick_near, N(tick_near)), 0);
}

static void test_stop_rule(void **state)
{
	(void)state;
	struct pl_bench_run_opts ro = { .precision = 0.01, .max_time = 10 };
	/* 5 counted runs have no interval, whatever the precision says */
	assert_int_equal(pl_bench_stop_rule(&ro, 5, 5, 0, 1, 0.1), PL_BENCH_STOP_NONE);
	assert_int_equal(pl_bench_stop_rule(&ro, 6, 8, 0.01, 1, 0.1), PL_BENCH_STOP_PRECISION);
	assert_int_equal(pl_bench_stop_rule(&ro, 6, 8, 0.0101, 1, 0.1), PL_BENCH_STOP_NONE);
	assert_int_equal(pl_bench_stop_rule(&ro, 6, 8, INFINITY, 1, 0.1), PL_BENCH_STOP_NONE);
	/* the time is up, the precision is not reached */
	assert_int_equal(pl_bench_stop_rule(&ro, 50, 50, 0.03, 10, 0.1), PL_BENCH_STOP_MAX_TIME);
	/* the time is up after two runs: a third still runs (the floor) */
	assert_int_equal(pl_bench_stop_rule(&ro, 2, 2, INFINITY, 10, 0.1), PL_BENCH_STOP_NONE);
	assert_int_equal(pl_bench_stop_rule(&ro, 3, 3, INFINITY, 10, 0.1), PL_BENCH_STOP_MAX_TIME);
	/* reached at the limit: precision wins */
	assert_int_equal(pl_bench_stop_rule(&ro, 50, 50, 0.005, 10, 0.1), PL_BENCH_STOP_PRECISION);
	assert_int_equal(pl_bench_stop_rule(&ro, 990, PL_BENCH_PRECISION_MAX_RUNS, 0.03, 2, 0.1),
			 PL_BENCH_STOP_MAX_RUNS);
	/* --min-time holds a precise series back */
	ro.min_time = 5;
	assert_int_equal(pl_bench_stop_rule(&ro, 20, 20, 0.001, 4.9, 0.1), PL_BENCH_STOP_NONE);
	assert_int_equal(pl_bench_stop_rule(&ro, 20, 20, 0.001, 5, 0.1), PL_BENCH_STOP_PRECISION);
	assert_string_equal(pl_bench_stop_name(PL_BENCH_STOP_MAX_TIME), "max-time");
	assert_null(pl_bench_stop_name(PL_BENCH_STOP_NONE));

	/* a report share with a cap: past the share while the runs project the precision
	 * within the cap. 20 runs at +-2% need 20 x (2/1)^2 = 80 runs, 60 more: at 0.1 s
	 * per run 6 s, so from 10 s the cap must be 16 s or later */
	ro.min_time = 0;
	ro.max_time_cap = 16;
	assert_true(fabs(pl_bench_projected_s(20, 0.02, 0.01, 0.1) - 6) < 1e-9);
	assert_int_equal(pl_bench_stop_rule(&ro, 20, 20, 0.02, 10, 0.1), PL_BENCH_STOP_NONE);
	assert_int_equal(pl_bench_stop_rule(&ro, 20, 20, 0.02, 10, 0.11), PL_BENCH_STOP_MAX_TIME);
	assert_int_equal(pl_bench_stop_rule(&ro, 20, 20, 0.02, 10.1, 0.1), PL_BENCH_STOP_MAX_TIME);
	/* nearer the precision, later: 60 runs at +-1.2% need 87, 27 more = 2.7 s */
	assert_int_equal(pl_bench_stop_rule(&ro, 60, 60, 0.012, 13, 0.1), PL_BENCH_STOP_NONE);
	/* at the cap, the share's stop whatever the projection */
	assert_int_equal(pl_bench_stop_rule(&ro, 60, 60, 0.0101, 16, 0.01), PL_BENCH_STOP_MAX_TIME);
	/* fewer runs than an interval needs: no projection, never past the share */
	assert_true(isinf(pl_bench_projected_s(4, 0.02, 0.01, 0.001)));
	assert_int_equal(pl_bench_stop_rule(&ro, 4, 4, INFINITY, 10, 0.001),
			 PL_BENCH_STOP_MAX_TIME);
	/* enough runs and still no interval: never past the share */
	assert_true(isinf(pl_bench_projected_s(8, INFINITY, 0.01, 0.1)));
	assert_int_equal(pl_bench_stop_rule(&ro, 8, 8, INFINITY, 10, 0.1), PL_BENCH_STOP_MAX_TIME);
	assert_true(pl_bench_projected_s(8, 0.009, 0.01, 0.1) == 0);
	/* no cap above the share: the share is the limit */
	ro.max_time_cap = 0;
	assert_int_equal(pl_bench_stop_rule(&ro, 20, 20, 0.02, 10, 0.001), PL_BENCH_STOP_MAX_TIME);
}

static void test_opts_check(void **state)
{
	(void)state;
	struct pl_bench_run_opts ro = { .precision_arg = "0.5%" };
	assert_int_equal(pl_bench_run_opts_check(&ro, false), 0);
	assert_float_equal(ro.precision, 0.005, 1e-15);
	assert_float_equal(ro.max_time, PL_BENCH_PRECISION_MAX_TIME, 0);
	ro = (struct pl_bench_run_opts){ .precision_arg = "50%", .max_time = 2 };
	assert_int_equal(pl_bench_run_opts_check(&ro, false), 0);
	assert_float_equal(ro.max_time, 2, 0);
	static const char *const bad[] = { "0%", "80%", "50.1%", "abc", "-1%", "", "1%%" };
	for (size_t i = 0; i < N(bad); i++) {
		ro = (struct pl_bench_run_opts){ .precision_arg = bad[i] };
		assert_int_equal(pl_bench_run_opts_check(&ro, false), -EINVAL);
	}
	/* the user's --runs excludes --precision; one of --quick's arguments yields */
	ro = (struct pl_bench_run_opts){ .precision_arg = "1%", .runs = 3 };
	assert_int_equal(pl_bench_run_opts_check(&ro, true), -EINVAL);
	ro = (struct pl_bench_run_opts){ .precision_arg = "1%", .runs = 3 };
	assert_int_equal(pl_bench_run_opts_check(&ro, false), 0);
	assert_int_equal(ro.runs, 0);
	/* --max-time alone bounds a fixed count; shorter than --min-time it is refused */
	ro = (struct pl_bench_run_opts){ .max_time = 5 };
	assert_int_equal(pl_bench_run_opts_check(&ro, false), 0);
	assert_float_equal(ro.max_time, 5, 0);
	ro = (struct pl_bench_run_opts){ .precision_arg = "1%", .max_time = 5, .min_time = 6 };
	assert_int_equal(pl_bench_run_opts_check(&ro, false), -EINVAL);
	/* no --precision: a fixed count, untouched */
	ro = (struct pl_bench_run_opts){ .runs = 7 };
	assert_int_equal(pl_bench_run_opts_check(&ro, true), 0);
	assert_int_equal(ro.runs, 7);
	assert_float_equal(ro.precision, 0, 0);
}

static void test_precision_words(void **state)
{
	(void)state;
	char b[24];
	/* a percentage is never in exponent notation */
	assert_string_equal(pl_bench_pct(b, sizeof(b), 140.3), "140");
	assert_string_equal(pl_bench_pct(b, sizeof(b), 12.4), "12");
	assert_string_equal(pl_bench_pct(b, sizeof(b), 1.44), "1.4");
	assert_string_equal(pl_bench_pct(b, sizeof(b), 0.42), "0.42");
	assert_string_equal(pl_bench_pct(b, sizeof(b), 0.0042), "0.0042");
	assert_string_equal(pl_bench_pct(b, sizeof(b), 0), "0");
	assert_string_equal(pl_bench_pct(b, sizeof(b), 1e-7), "<0.0001");
	/* sides alike: +-; one side more than 1.5x the other: both */
	char *t = pl_bench_ci_text(100, 99, 101.2);
	assert_string_equal(t, "+-1.2%");
	free(t);
	t = pl_bench_ci_text(13.08, 12.25, 17.10);
	assert_string_equal(t, "-6.3%/+31%");
	free(t);
	t = pl_bench_ci_text(100, 60, 340);
	assert_string_equal(t, "-40%/+240%");
	free(t);
	assert_null(pl_bench_ci_text(0, -1, 1));
	assert_null(pl_bench_ci_text(10, NAN, 11));
	/* the runs caveat: 0, 1, 2 runs; nothing from 3 */
	const char *tag = NULL;
	t = pl_bench_runs_caveat(2, false, &tag);
	assert_string_equal(tag, "2 runs: too few runs for a spread");
	assert_non_null(strstr(t, "2 runs: too few runs for a spread"));
	free(t);
	t = pl_bench_runs_caveat(1, true, &tag);
	assert_string_equal(tag, "1 run: no spread");
	free(t);
	assert_null(pl_bench_runs_caveat(3, true, NULL));
	/* the spread caveat: over the threshold from 3 runs */
	t = pl_bench_spread_caveat(63, 0.33, 0.05);
	assert_string_equal(t, "spread too wide (cv 33.0% > 5%)");
	free(t);
	t = pl_bench_spread_caveat(10, 0.0504, 0.05);
	assert_string_equal(t, "spread too wide (cv 5.04% > 5%)");
	free(t);
	assert_null(pl_bench_spread_caveat(2, 1.2, 0.05));
	assert_null(pl_bench_spread_caveat(20, 0.04, 0.05));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_precision_order_statistics),
		cmocka_unit_test(test_precision_words),
		cmocka_unit_test(test_precision_narrows_with_runs),
		cmocka_unit_test(test_warmup_rule),
		cmocka_unit_test(test_stop_rule),
		cmocka_unit_test(test_opts_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
