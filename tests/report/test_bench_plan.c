/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The default report plan's time budget on a synthetic plan: bench spin items whose setup
 * sleeps (test hook PERFLAB_TEST_SPIN_SERIES="NOISE:SLOW:SETUP_MS") and whose series never
 * reaches the precision, so each runs until its share is spent. Each share counts from
 * before setup, what one item overran comes out of the later shares, and an item that
 * starts after the budget is used still gets its floor of runs. */
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench/bench.h"
#include "report/bench_plan.h"
#include "util/cleanup.h"
#include "util/json.h"

static const char *const spin_args[] = { "--work", "20ms", "--precision", "1%", NULL };
/* short runs: enough of them for an interval in what setup leaves of a share */
static const char *const spin_short[] = { "--work", "1ms", "--precision", "1%", NULL };

/* Run @n spin items within @budget_s, @reserve_s set aside per later item when one goes
 * past its share; the results, in plan order. */
static json_t *run_plan_reserve(size_t n, double budget_s, double reserve_s,
				const char *const *args)
{
	const struct pl_bench *spin = pl_bench_find("spin");
	assert_non_null(spin);
	struct pl_bench_plan_item items[4] = { 0 };
	assert_true(n <= 4);
	for (size_t i = 0; i < n; i++)
		items[i] = (struct pl_bench_plan_item){ .b = spin, .argc = 4, .argv = args };
	struct pl_bench_plan p = {
		.mode = PL_BENCH_MODE_DEFAULT,
		.budget_s = budget_s,
		.reserve_s = reserve_s,
		.items = items,
		.n = n,
	};
	json_t *arr = json_array();
	volatile sig_atomic_t stop = 0;
	pl_bench_plan_run_all(&p, arr, &stop, NULL, NULL);
	assert_int_equal(json_array_size(arr), n);
	return arr;
}

static json_t *run_plan(size_t n, double budget_s)
{
	return run_plan_reserve(n, budget_s, 0, spin_args);
}

static const json_t *precision_of(const json_t *r)
{
	return json_object_get(json_object_get(r, "runner"), "precision");
}

static void test_plan_share_counts_setup(void **state)
{
	(void)state;
	/* 50% noise never reaches 1%; setup takes 600 ms of each 1.5 s share */
	setenv("PERFLAB_TEST_SPIN_SERIES", "50:0:600", 1);
	json_t *arr = run_plan(2, 3.0);
	double before = 0;
	size_t i;
	json_t *r;
	json_array_foreach(arr, i, r)
	{
		assert_string_equal(pl_json_str(r, "status"), "ok");
		const json_t *p = precision_of(r);
		assert_non_null(p);
		assert_string_equal(pl_json_str(p, "max_time_from"), "report");
		assert_string_equal(pl_json_str(p, "stop"), "max-time");
		double share = pl_json_num(p, "max_time_s"), wall = pl_json_num(p, "wall_s");
		/* its share is an even part of what the ones before it left */
		assert_true(share <= (3.0 - before) / (double)(2 - i) + 0.01);
		/* the share holds the setup: past it by at most about one run, not by the
		 * 600 ms setup */
		if (pl_json_int(p, "runs") > PL_BENCH_PRECISION_FLOOR_RUNS)
			assert_true(wall < share + 0.3);
		assert_true(wall >= 0.6);
		before += wall;
	}
	json_decref(arr);
}

static void test_plan_goes_past_share(void **state)
{
	(void)state;
	/* 12% noise needs about 550 runs for 1%; setup takes 2.4 s of the first item's 2.5 s
	 * share, which ends with tens of 1 ms runs and an interval of a few percent. What is
	 * left less 0.1 s for the second item (4.9 s) is the cap: the runs project 1% well
	 * within it and go on past the share to it. */
	setenv("PERFLAB_TEST_SPIN_SERIES", "12:0:2400", 1);
	json_t *arr = run_plan_reserve(2, 5.0, 0.1, spin_short);
	const json_t *p0 = precision_of(json_array_get(arr, 0));
	assert_non_null(p0);
	assert_string_equal(pl_json_str(p0, "stop"), "precision");
	assert_true(pl_json_int(p0, "runs") > 100);
	assert_true(fabs(pl_json_num(p0, "max_time_cap_s") - 4.9) < 0.05);
	assert_true(pl_json_num(p0, "extended_s") > 0);
	assert_true(pl_json_num(p0, "wall_s") < 4.9 + 0.3);
	pl_autofree char *text = pl_bench_precision_text(p0);
	assert_non_null(strstr(text, "past its share of the report's time budget"));
	/* the last item has no later one to borrow from, and its setup outlasts its share:
	 * the floor of runs, no interval, nothing past the share */
	const json_t *p1 = precision_of(json_array_get(arr, 1));
	assert_non_null(p1);
	assert_null(json_object_get(p1, "max_time_cap_s"));
	assert_int_equal(pl_json_int(p1, "runs"), PL_BENCH_PRECISION_FLOOR_RUNS);
	json_decref(arr);
	unsetenv("PERFLAB_TEST_SPIN_SERIES");
}

static void test_plan_overrun_named(void **state)
{
	(void)state;
	/* one item starts within the 0.05 s budget and runs past it (600 ms of setup, then
	 * its floor of runs): the overrun and the benchmark that took it are named */
	setenv("PERFLAB_TEST_SPIN_SERIES", "50:0:600", 1);
	json_t *arr = run_plan(1, 0.05);
	const json_t *notes = json_object_get(json_array_get(arr, 0), "notes");
	const char *note = json_string_value(json_array_get(notes, json_array_size(notes) - 1));
	assert_non_null(note);
	assert_non_null(strstr(note, "the report's time budget of 0 s was used up after"));
	assert_non_null(strstr(note, "bench spin took"));
	assert_non_null(strstr(note, "ran over it"));
	json_decref(arr);
	unsetenv("PERFLAB_TEST_SPIN_SERIES");
}

static void test_plan_over_budget_gets_floor(void **state)
{
	(void)state;
	/* the first item's setup alone outlasts the whole 0.3 s budget */
	setenv("PERFLAB_TEST_SPIN_SERIES", "50:0:600", 1);
	json_t *arr = run_plan(2, 0.3);
	const json_t *first = json_array_get(arr, 0), *last = json_array_get(arr, 1);
	const json_t *p0 = precision_of(first), *p1 = precision_of(last);
	assert_non_null(p0);
	assert_non_null(p1);
	/* a share shorter than the setup: the floor of runs, no fewer */
	assert_int_equal(pl_json_int(p0, "runs"), PL_BENCH_PRECISION_FLOOR_RUNS);
	/* after the budget: the brief arguments until the floor, and a note saying so */
	assert_string_equal(pl_json_str(last, "status"), "ok");
	assert_true(json_is_true(json_object_get(json_object_get(last, "runner"), "quick")));
	assert_int_equal(pl_json_int(p1, "runs"), PL_BENCH_PRECISION_FLOOR_RUNS);
	assert_string_equal(pl_json_str(p1, "stop"), "max-time");
	const char *note = json_string_value(json_array_get(json_object_get(last, "notes"), 0));
	assert_non_null(note);
	assert_non_null(strstr(note, "the report's time budget of 0 s was used up"));
	assert_non_null(strstr(note, "until its floor of 3 runs"));
	json_decref(arr);
}

/* A benchmark run after the budget keeps the default plan's choices at its quick sizes:
 * compress measures level 1 of each backend (its report_argv), not every level of its
 * --quick sweep. */
static void test_plan_over_budget_keeps_plan_choices(void **state)
{
	(void)state;
	const struct pl_bench *cz = pl_bench_find("compress");
	assert_non_null(cz);
	struct pl_bench_plan p = { .mode = PL_BENCH_MODE_DEFAULT, .budget_s = 1 };
	struct pl_bench_plan_item it = { .b = cz };
	json_t *r = pl_bench_plan_over_budget(&p, &it, "the budget was used up");
	assert_string_equal(pl_json_str(r, "status"), "ok");
	size_t i, n = 0;
	json_t *m;
	json_array_foreach(json_object_get(r, "metrics"), i, m)
	{
		const char *name = pl_json_str(m, "name");
		assert_non_null(name);
		if (!strstr(name, " compress"))
			continue;
		n++;
		assert_non_null(strstr(name, "-1 compress"));
	}
	assert_true(n >= 2); /* zlib and libdeflate at least */
	json_decref(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_share_counts_setup),
		cmocka_unit_test(test_plan_over_budget_gets_floor),
		cmocka_unit_test(test_plan_overrun_named),
		cmocka_unit_test(test_plan_goes_past_share),
		cmocka_unit_test(test_plan_over_budget_keeps_plan_choices),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
