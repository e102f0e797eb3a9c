/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The -e lists of perflab stat (counters/plan.h): groups and their numbers, each event
 * once, the malformed lists refused with the input named, perf's default set without a
 * core PMU, and the metrics' events added as one group per metric. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "counters/plan.h"
#include "util/sysroot.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_groups(void **state)
{
	(void)state;
	struct pl_cnt_plan p = { 0 };
	char err[512];
	assert_int_equal(pl_cnt_plan_events(&p, "{task-clock,page-faults},cs", err, sizeof(err)),
			 0);
	assert_int_equal(p.n, 3);
	assert_string_equal(p.evs[0].name, "task-clock");
	assert_string_equal(p.evs[1].name, "page-faults");
	assert_string_equal(p.evs[2].name, "cs"); /* perf keeps the user's spelling */
	assert_int_equal(p.group[0], 0);
	assert_int_equal(p.group[1], 0);
	assert_int_equal(p.group[2], -1);
	assert_true(p.explicit_ev[0] && p.explicit_ev[2]);
	/* a second group gets the next number; an event given twice is counted once */
	assert_int_equal(
		pl_cnt_plan_events(&p, "cs,{cpu-migrations, minor-faults}", err, sizeof(err)), 0);
	assert_int_equal(p.n, 5);
	assert_int_equal(p.group[3], 1);
	assert_int_equal(p.group[4], 1);
	assert_string_equal(p.evs[4].name, "minor-faults");
	pl_cnt_plan_free(&p);
	/* a metric over context-switches uses the "cs" given with -e: nothing added */
	assert_int_equal(pl_cnt_plan_events(&p, "cs,task-clock", err, sizeof(err)), 0);
	assert_int_equal(
		pl_cnt_plan_metrics(&p, "context_switch_rate", "none", true, err, sizeof(err)), 0);
	assert_int_equal(p.n, 2);
	assert_int_equal(p.nmetrics, 1);
	assert_string_equal(p.metrics[0]->name, "context_switch_rate");
	pl_cnt_plan_free(&p);
}

static void test_malformed(void **state)
{
	(void)state;
	static const struct {
		const char *list, *want;
		int err;
	} bad[] = {
		{ "{task-clock,cs", "unterminated group", -EINVAL },
		{ "task-clock}", "without its '{'", -EINVAL },
		{ "{task-clock,{cs}}", "do not nest", -EINVAL },
		{ "task-clock,,cs", "an empty event name", -EINVAL },
		{ "{task-clock}cs", "after a group's '}'", -EINVAL },
		{ "cyclez", "unknown event 'cyclez'", -ENOENT },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pl_cnt_plan p = { 0 };
		char err[512] = "";
		assert_int_equal(pl_cnt_plan_events(&p, bad[i].list, err, sizeof(err)), bad[i].err);
		assert_non_null(strstr(err, bad[i].want));
		pl_cnt_plan_free(&p);
	}
}

static void test_default_and_metrics(void **state)
{
	(void)state;
	struct pl_cnt_plan p = { 0 };
	char err[512];
	assert_int_equal(pl_cnt_plan_default(&p, false, err, sizeof(err)), 0);
	assert_int_equal(p.n, 4); /* no hardware events without a core PMU */
	assert_false(p.explicit_ev[0]);
	assert_int_equal(pl_cnt_plan_metrics(&p, "software", "none", true, err, sizeof(err)), 0);
	assert_true(p.nmetrics >= 1);
	assert_int_equal(p.n, 4); /* their events are the default ones */
	pl_cnt_plan_free(&p);
	assert_int_equal(pl_cnt_plan_metrics(&p, "no-such-metric", "none", false, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "no-such-metric"));
	pl_cnt_plan_free(&p);
	/* a metric's events are added as one group (the software group's first metric) */
	assert_int_equal(pl_cnt_plan_metrics(&p, "software", "none", false, err, sizeof(err)), 0);
	assert_true(p.nmetrics >= 1);
	assert_true(p.n >= 1 && p.group[0] == 0);
	for (size_t k = 0; p.metrics[0]->events[k]; k++)
		assert_int_equal(p.group[k], 0);
	pl_cnt_plan_free(&p);
}

/* The kind of each fixture tree: its core PMU and its /proc/cpuinfo (the vm tree is an
 * AMD family 26 guest without a core PMU: Zen 5, AMD's formulas all the same). */
static void test_pmu_kind(void **state)
{
	(void)state;
	const char *fx = getenv("FIXTURES");
	assert_non_null(fx);
	static const struct {
		const char *tree, *kind;
	} want[] = {
		{ "spr", "intel" },
		{ "zen4", "amd-zen4" },
		{ "neoverse-n1", "arm-neoverse" },
		{ "vm", "amd-zen4" },
	};
	char path[4096];
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		snprintf(path, sizeof(path), "%s/pmu/%s", fx, want[i].tree);
		assert_int_equal(pl_sysroot_set(path), 0);
		assert_string_equal(pl_cnt_pmu_kind(false), want[i].kind);
	}
	/* AMD's family and model: Zen 3 (19h model 01h) is not Zen 4 (19h model 10h on) */
	static const struct {
		const char *vendor;
		int family, model;
		const char *kind;
	} cpus[] = {
		{ "AuthenticAMD", 25, 1, "amd" },	{ "AuthenticAMD", 25, 15, "amd" },
		{ "AuthenticAMD", 25, 16, "amd-zen4" }, { "AuthenticAMD", 26, 2, "amd-zen4" },
		{ "AuthenticAMD", 23, 49, "amd" },	{ "GenuineIntel", 6, 143, "intel" },
		{ "SomethingElse", 1, 1, "any" },
	};
	char dir[] = "/tmp/test-plan-kind-XXXXXX";
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/proc", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/proc/cpuinfo", dir);
	for (size_t i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++) {
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fprintf(f,
			"processor\t: 0\nvendor_id\t: %s\ncpu family\t: %d\nmodel\t\t: %d\n"
			"model name\t: x 99\n\n",
			cpus[i].vendor, cpus[i].family, cpus[i].model);
		fclose(f);
		assert_int_equal(pl_sysroot_set(dir), 0);
		assert_string_equal(pl_cnt_pmu_kind(true), cpus[i].kind);
	}
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc", dir);
	rmdir(path);
	rmdir(dir);
	assert_int_equal(pl_sysroot_set(NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_default_and_metrics),
		cmocka_unit_test(test_pmu_kind),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
