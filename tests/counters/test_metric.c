/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests of the metrics (counters/metric.h) and their formula language
 * (counters/expr.h): every formula of the table parses and reads only its own events;
 * each metric on recorded counts of an Intel Sapphire Rapids, an AMD Zen 4 and an Arm
 * Neoverse N2 reading (the same counts as tests/fixtures/perf-stat/hand-*), the
 * expected value worked by hand beside it with the formula's source; a missing or
 * uncounted event gives -ENOENT naming it, a zero divisor -EDOM; the selector's names,
 * groups, PMU kinds and errors. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "counters/expr.h"
#include "counters/metric.h"

#define near(a, b) assert_true(fabs((double)(a) - (double)(b)) < 1e-6 * (fabs((double)(b)) + 1))

struct count {
	const char *name;
	double value;
	int cpu;
};

#define MAXC 64
static struct pl_cnt_event evs[MAXC];
static struct pl_cnt_value vals[MAXC];

/* A reading of @n counts over @secs seconds of wall time. */
static struct pl_cnt_result reading(const struct count *c, size_t n, double secs)
{
	assert_true(n <= MAXC);
	memset(evs, 0, sizeof(evs));
	memset(vals, 0, sizeof(vals));
	for (size_t i = 0; i < n; i++) {
		snprintf(evs[i].name, sizeof(evs[i].name), "%s", c[i].name);
		evs[i].scale = 1;
		vals[i] = (struct pl_cnt_value){ .ev = &evs[i],
						 .value = c[i].value,
						 .raw = (uint64_t)c[i].value,
						 .counted = true,
						 .supported = true,
						 .cpu = c[i].cpu ? c[i].cpu : -1,
						 .socket = -1,
						 .enabled_ns = 1,
						 .running_ns = 1 };
	}
	return (struct pl_cnt_result){ .v = vals, .n = n, .elapsed_ns = (uint64_t)(secs * 1e9) };
}

static const struct pl_metric *find(const char *name, const char *kind)
{
	size_t n;
	const struct pl_metric *t = pl_metric_table(&n);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i].name, name) && !strcmp(t[i].pmu_kind, kind))
			return &t[i];
	fail_msg("no metric %s for %s", name, kind);
	return NULL;
}

static double eval_ok(const char *name, const char *kind, const struct pl_cnt_result *r)
{
	double v = NAN;
	char missing[128] = "";
	int rc = pl_metric_eval(find(name, kind), r, &v, missing, sizeof(missing));
	if (rc != 0)
		fail_msg("%s (%s): %d, %s", name, kind, rc, missing);
	return v;
}

static int eval_rc(const char *name, const char *kind, const struct pl_cnt_result *r, char *missing,
		   size_t len)
{
	double v;
	return pl_metric_eval(find(name, kind), r, &v, missing, len);
}

static bool is_special(const char *name)
{
	return !strcmp(name, "duration_time") || !strcmp(name, "#num_cpus") ||
	       !strcmp(name, "#slots");
}

static void test_table_well_formed(void **state)
{
	(void)state;
	static const char *const groups[] = { "basic",	"cache", "tlb",	    "topdown",
					      "memory", "power", "software" };
	static const char *const kinds[] = { "any", "intel", "amd-zen4", "arm-neoverse" };
	size_t n;
	const struct pl_metric *t = pl_metric_table(&n);
	assert_true(n >= 30);
	for (size_t i = 0; i < n; i++) {
		const struct pl_metric *m = &t[i];
		bool g = false, k = false;
		for (size_t j = 0; j < sizeof(groups) / sizeof(groups[0]); j++)
			g = g || !strcmp(m->group, groups[j]);
		for (size_t j = 0; j < sizeof(kinds) / sizeof(kinds[0]); j++)
			k = k || !strcmp(m->pmu_kind, kinds[j]);
		if (!g || !k)
			fail_msg("%s: group '%s' or kind '%s' unknown", m->name, m->group,
				 m->pmu_kind);
		assert_non_null(m->source);
		assert_true(strlen(m->source) > 10);
		assert_true(m->unit && *m->unit && m->desc && *m->desc);
		assert_true(m->events && m->events[0]);
		/* the formula parses and reads only events of its list */
		struct pl_expr *e = NULL;
		char err[256] = "";
		if (pl_expr_parse(m->expr, &e, err, sizeof(err)) != 0)
			fail_msg("%s (%s): %s", m->name, m->pmu_kind, err);
		const char *names[64];
		size_t nn = pl_expr_names(e, names, 64);
		assert_true(nn > 0 && nn <= 64);
		for (size_t j = 0; j < nn; j++) {
			bool listed = is_special(names[j]);
			for (size_t k2 = 0; m->events[k2] && !listed; k2++)
				listed = !strcmp(m->events[k2], names[j]);
			if (!listed)
				fail_msg("%s (%s) reads '%s', not in its events", m->name,
					 m->pmu_kind, names[j]);
		}
		/* and every event it lists is read by it or by a metric of its group and kind
		 * (the level-1 topdown metrics share one event group; Intel's slots leads it) */
		for (size_t k2 = 0; m->events[k2]; k2++) {
			bool read = !strcmp(m->events[k2], "cpu/slots/");
			for (size_t o = 0; o < n && !read; o++) {
				if (strcmp(t[o].group, m->group) ||
				    strcmp(t[o].pmu_kind, m->pmu_kind))
					continue;
				read = strstr(t[o].expr, m->events[k2]) != NULL;
			}
			if (!read)
				fail_msg("%s (%s) lists '%s' but does not read it", m->name,
					 m->pmu_kind, m->events[k2]);
		}
		pl_expr_free(e);
		/* one entry per (name, kind) */
		for (size_t j = 0; j < i; j++)
			assert_false(!strcmp(t[j].name, m->name) &&
				     !strcmp(t[j].pmu_kind, m->pmu_kind));
	}
}

/* Intel Sapphire Rapids, 2 s (tests/fixtures/perf-stat/hand-spr-topdown.txt) */
static const struct count spr[] = {
	{ "task-clock", 2000.0 },
	{ "cycles", 6e9 },
	{ "instructions", 9e9 },
	{ "slots", 36e9 },
	{ "topdown-retiring", 9e9 },
	{ "topdown-bad-spec", 3.6e9 },
	{ "topdown-fe-bound", 7.2e9 },
	{ "topdown-be-bound", 16.2e9 },
	{ "branches", 1.8e9 },
	{ "branch-misses", 36e6 },
	{ "L1-dcache-load-misses", 180e6 },
	{ "cpu/event=0xd1,umask=0x10/", 90e6 },
	{ "LLC-load-misses", 45e6 },
	{ "dTLB-loads", 2.7e9 },
	{ "dTLB-load-misses", 2.7e6 },
	{ "msr/tsc/", 4e9 },
	{ "msr/aperf/", 6e9 },
	{ "msr/mperf/", 4e9 },
	{ "power/energy-pkg/", 300.0 },
	{ "power/energy-ram/", 40.0 },
	{ "uncore_imc/cas_count_read/", 19073.486328125 },
	{ "uncore_imc/cas_count_write/", 9536.7431640625 },
	{ "context-switches", 500 },
	{ "cpu-migrations", 20 },
	{ "page-faults", 3000 },
};

static void test_intel_spr(void **state)
{
	(void)state;
	struct pl_cnt_result r = reading(spr, sizeof(spr) / sizeof(spr[0]), 2.0);
	/* ipc = instructions / cycles = 9e9 / 6e9 = 1.5 (Gregg 2017; perf stat-shadow.c) */
	near(eval_ok("ipc", "any", &r), 1.5);
	/* cpi = 6e9 / 9e9 = 0.6667 */
	near(eval_ok("cpi", "any", &r), 6.0 / 9.0);
	/* frequency = cycles / (task-clock ms * 1e6) = 6e9 / 2e9 = 3.0 GHz (stat-shadow.c) */
	near(eval_ok("frequency", "any", &r), 3.0);
	/* TSC rate 4e9 / 2 s = 2.0 GHz, times APERF/MPERF 6/4 = 3.0 GHz (SDM 15.2) */
	near(eval_ok("frequency_aperf", "any", &r), 3.0);
	/* 100 * 36e6 / 1.8e9 = 2 % */
	near(eval_ok("branch_miss_rate", "any", &r), 2.0);
	/* MPKI = 1000 * misses / instructions: 180e6 -> 20, 90e6 -> 10, 45e6 -> 5
	 * (spr-metrics.json tma_info_memory_l1mpki / l2mpki) */
	near(eval_ok("l1d_mpki", "any", &r), 20.0);
	near(eval_ok("l2_mpki", "intel", &r), 10.0);
	near(eval_ok("llc_mpki", "any", &r), 5.0);
	/* 100 * 2.7e6 / 2.7e9 = 0.1 % */
	near(eval_ok("dtlb_miss_rate", "any", &r), 0.1);
	/* TMA level 1 (Yasin 2014): each topdown-* over their sum 36e9:
	 * 9/36 = 25 %, 3.6/36 = 10 %, 7.2/36 = 20 %, 16.2/36 = 45 % */
	near(eval_ok("topdown_retiring", "intel", &r), 25.0);
	near(eval_ok("topdown_bad_speculation", "intel", &r), 10.0);
	near(eval_ok("topdown_frontend_bound", "intel", &r), 20.0);
	near(eval_ok("topdown_backend_bound", "intel", &r), 45.0);
	/* 19073.486328125 MiB = 2e10 B over 2 s = 10 GB/s; 9536.74 MiB = 1e10 B = 5 GB/s */
	near(eval_ok("memory_read_bw", "intel", &r), 10.0);
	near(eval_ok("memory_write_bw", "intel", &r), 5.0);
	/* 300 J / 2 s = 150 W; 40 J / 2 s = 20 W (RAPL energy counters) */
	near(eval_ok("power_pkg", "any", &r), 150.0);
	near(eval_ok("energy_pkg", "any", &r), 300.0);
	near(eval_ok("power_ram", "any", &r), 20.0);
	near(eval_ok("energy_ram", "any", &r), 40.0);
	/* 2000 ms / (2 s * 1000) = 1 CPU; per second of task-clock (2000 ms = 2 s, as perf
	 * stat's /sec): 500 / 2 s = 250 /s; 20 / 2 = 10 /s; 3000 / 2 = 1500 /s */
	near(eval_ok("cpu_utilization", "any", &r), 1.0);
	near(eval_ok("context_switch_rate", "any", &r), 250.0);
	near(eval_ok("cpu_migration_rate", "any", &r), 10.0);
	near(eval_ok("page_fault_rate", "any", &r), 1500.0);
}

/* AMD Zen 4, 1 s (tests/fixtures/perf-stat/hand-zen4.csv) */
static void test_amd_zen4(void **state)
{
	(void)state;
	struct count c[40] = {
		{ "cycles", 5e9 },
		{ "instructions", 10e9 },
		{ "cpu/event=0x76/", 5e9 },		 /* ls_not_halted_cyc */
		{ "cpu/event=0x1a0,umask=0x1/", 6e9 },	 /* no_ops_from_frontend */
		{ "cpu/event=0x1a0,umask=0x1e/", 9e9 },	 /* backend_stalls */
		{ "cpu/event=0xaa,umask=0x7/", 13.5e9 }, /* de_src_op_disp.all */
		{ "cpu/event=0xc1/", 12e9 },		 /* ex_ret_ops */
		{ "cpu/event=0x64,umask=0x9/", 50e6 },	 /* l2 ic_dc_miss_in_l2 */
	};
	size_t n = 8;
	static char names[24][80];
	for (int i = 0; i < 12; i++) {
		snprintf(names[i], sizeof(names[i]), "amd_df/local_processor_read_data_beats_cs%d/",
			 i);
		snprintf(names[12 + i], sizeof(names[12 + i]),
			 "amd_df/local_processor_write_data_beats_cs%d/", i);
		c[n++] = (struct count){ names[i], 15625000 };
		c[n++] = (struct count){ names[12 + i], 7812500 };
	}
	struct pl_cnt_result r = reading(c, n, 1.0);
	near(eval_ok("ipc", "any", &r), 2.0);
	/* PPR 19h pipeline utilisation, 6 slots: total = 6 * 5e9 = 30e9 slots;
	 * retiring 12e9 / 30e9 = 40 %; bad speculation (13.5e9 - 12e9) / 30e9 = 5 %;
	 * frontend 6e9 / 30e9 = 20 %; backend 9e9 / 30e9 = 30 % (amdzen4/pipeline.json) */
	near(eval_ok("topdown_retiring", "amd-zen4", &r), 40.0);
	near(eval_ok("topdown_bad_speculation", "amd-zen4", &r), 5.0);
	near(eval_ok("topdown_frontend_bound", "amd-zen4", &r), 20.0);
	near(eval_ok("topdown_backend_bound", "amd-zen4", &r), 30.0);
	/* 1000 * 50e6 / 10e9 = 5 MPKI */
	near(eval_ok("l2_mpki", "amd-zen4", &r), 5.0);
	/* 12 x 15625000 beats x 64 B = 12e9 B over 1 s = 12 GB/s; writes 12 x 7812500 x 64 = 6e9
	 * (amdzen4/recommended.json, dram_*_data_for_local_processor) */
	near(eval_ok("memory_read_bw", "amd-zen4", &r), 12.0);
	near(eval_ok("memory_write_bw", "amd-zen4", &r), 6.0);
}

/* Arm Neoverse N2, 5 slots per cycle (caps/slots), 1 s */
static const struct count n2[] = {
	{ "#slots", 5 },
	{ "cpu_cycles", 4e9 },
	{ "instructions", 8e9 },
	{ "stall_slot", 12e9 },
	{ "stall_slot_frontend", 4e9 },
	{ "stall_slot_backend", 8e9 },
	{ "op_retired", 7.2e9 },
	{ "op_spec", 8e9 },
	{ "armv8_pmuv3_0/l2d_cache_refill/", 40e6 },
};

static void test_arm_neoverse(void **state)
{
	(void)state;
	struct pl_cnt_result r = reading(n2, sizeof(n2) / sizeof(n2[0]), 1.0);
	/* sbsa.json: slots = #slots * cpu_cycles = 5 * 4e9 = 20e9;
	 * frontend 4e9 / 20e9 = 20 %; backend 8e9 / 20e9 = 40 %;
	 * retiring (7.2e9 / 8e9) * (1 - 12e9 / 20e9) = 0.9 * 0.4 = 36 %;
	 * bad speculation (1 - 0.9) * 0.4 = 4 % */
	near(eval_ok("topdown_frontend_bound", "arm-neoverse", &r), 20.0);
	near(eval_ok("topdown_backend_bound", "arm-neoverse", &r), 40.0);
	near(eval_ok("topdown_retiring", "arm-neoverse", &r), 36.0);
	near(eval_ok("topdown_bad_speculation", "arm-neoverse", &r), 4.0);
	/* N2 metrics.json l2d_cache_mpki: 1000 * 40e6 / 8e9 = 5 */
	near(eval_ok("l2_mpki", "arm-neoverse", &r), 5.0);

	/* a Neoverse N1 has no STALL_SLOT events: unavailable, naming the first one read */
	static const struct count n1[] = { { "cpu_cycles", 4e9 }, { "instructions", 8e9 } };
	r = reading(n1, 2, 1.0);
	char missing[128] = "";
	assert_int_equal(
		eval_rc("topdown_frontend_bound", "arm-neoverse", &r, missing, sizeof(missing)),
		-ENOENT);
	assert_string_equal(missing, "cpu/stall_slot_frontend/");
	/* and without caps/slots the slots are what is missing */
	r = reading(n2 + 1, sizeof(n2) / sizeof(n2[0]) - 1, 1.0);
	assert_int_equal(
		eval_rc("topdown_backend_bound", "arm-neoverse", &r, missing, sizeof(missing)),
		-ENOENT);
	assert_string_equal(missing, "#slots");
}

static void test_missing_and_domain(void **state)
{
	(void)state;
	char missing[128] = "";
	/* a VM without a PMU: software counts only */
	static const struct count sw[] = { { "task-clock", 10.0 }, { "page-faults", 5 } };
	struct pl_cnt_result r = reading(sw, 2, 0.02);
	assert_int_equal(eval_rc("ipc", "any", &r, missing, sizeof(missing)), -ENOENT);
	assert_string_equal(missing, "instructions");
	assert_int_equal(eval_rc("frequency", "any", &r, missing, sizeof(missing)), -ENOENT);
	assert_string_equal(missing, "cycles");
	/* 10 ms / 20 ms = 0.5 CPUs; 5 faults per 10 ms of task-clock = 500 /s (perf stat's
	 * /sec is per task-clock second, not per wall second: 250 /s would be wall) */
	near(eval_ok("cpu_utilization", "any", &r), 0.5);
	near(eval_ok("page_fault_rate", "any", &r), 500.0);

	/* not counted (running 0) or not supported: as missing */
	static const struct count hw[] = { { "instructions", 100 }, { "cycles", 50 } };
	r = reading(hw, 2, 1.0);
	vals[1].counted = false;
	assert_int_equal(eval_rc("ipc", "any", &r, missing, sizeof(missing)), -ENOENT);
	assert_string_equal(missing, "cycles");
	vals[1].counted = true;
	vals[0].supported = false;
	assert_int_equal(eval_rc("ipc", "any", &r, missing, sizeof(missing)), -ENOENT);
	assert_string_equal(missing, "instructions");
	vals[0].supported = true;
	near(eval_ok("ipc", "any", &r), 2.0);

	/* zero cycles: -EDOM, not inf */
	vals[1].value = 0;
	assert_int_equal(eval_rc("ipc", "any", &r, missing, sizeof(missing)), -EDOM);
	assert_string_equal(missing, "division by zero");

	/* no wall time and no duration_time event: duration_time is missing */
	r = reading(sw, 2, 0);
	assert_int_equal(eval_rc("cpu_utilization", "any", &r, missing, sizeof(missing)), -ENOENT);
	assert_string_equal(missing, "duration_time");
	/* perf's duration_time event (ns) stands in: 10 ms / 40 ms = 0.25 CPUs */
	static const struct count dur[] = { { "task-clock", 10.0 }, { "duration_time", 40e6 } };
	r = reading(dur, 2, 0);
	near(eval_ok("cpu_utilization", "any", &r), 0.25);
}

static void test_scopes_and_spellings(void **state)
{
	(void)state;
	/* per-CPU readings are summed; perf's other spellings of one event match */
	static const struct count c[] = {
		{ "instructions:u", 300, 1 },
		{ "instructions", 100, 2 },
		{ "cpu-cycles", 100, 1 },
		{ "cpu_core/cycles/", 100, 2 },
		{ "cpu_core/topdown-retiring/", 1 },
		{ "TOPDOWN-FE-BOUND", 1 },
		{ "topdown-bad-spec", 1 },
		{ "cpu/topdown-be-bound/", 1 },
		{ "cpu/event=0x76/", 7 },
	};
	struct pl_cnt_result r = reading(c, sizeof(c) / sizeof(c[0]), 1);
	/* (300 + 100) / (100 + 100) = 2 */
	near(eval_ok("ipc", "any", &r), 2.0);
	near(eval_ok("topdown_retiring", "intel", &r), 25.0);
	near(pl_expr_event_sum(&r, "cpu/event=0x76/"), 7);
	near(pl_expr_event_sum(&r, "armv8_pmuv3_0/event=0x76/"), 7);
	assert_true(isnan(pl_expr_event_sum(&r, "cpu/event=0x77/")));
	assert_true(isnan(pl_expr_event_sum(&r, "cpu/event=0x76,umask=0x1/")));
	/* a PMU name and slash alone is no alias */
	assert_true(isnan(pl_expr_event_sum(&r, "cpu/")));
	assert_true(isnan(pl_expr_event_sum(&r, "cpu_core/")));
}

static double calc(const char *src)
{
	struct pl_expr *e = NULL;
	char err[256] = "";
	if (pl_expr_parse(src, &e, err, sizeof(err)) != 0)
		fail_msg("'%s': %s", src, err);
	struct pl_cnt_result r = reading(NULL, 0, 2.0);
	double v = NAN;
	char missing[64];
	assert_int_equal(pl_expr_eval(e, &r, &v, missing, sizeof(missing)), 0);
	pl_expr_free(e);
	return v;
}

static void test_expr_language(void **state)
{
	(void)state;
	near(calc("2 + 3 * 4"), 14);
	near(calc("(2 + 3) * 4"), 20);
	near(calc("2 - 3 - 4"), -5);
	near(calc("10 / 4 / 5"), 0.5);
	near(calc("-(2 - 5) * 2"), 6);
	near(calc("--3"), 3);
	near(calc("max(1, min(5, 3))"), 3);
	near(calc("1e9 / 1e6"), 1000);
	near(calc(".5 * duration_time"), 1.0);
	static const char *const bad[] = {
		"",	 "a +", "(a",	"a)",	 "min(a)", "max(1 2)", "1e999",
		"\"abc", "a b", "0x10", "1 $ 2", "\"\"",   "* 3",      "min (1,",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pl_expr *e = NULL;
		char err[256] = "";
		int rc = pl_expr_parse(bad[i], &e, err, sizeof(err));
		if (rc != -EINVAL)
			fail_msg("'%s' gave %d", bad[i], rc);
		assert_null(e);
		assert_non_null(strstr(err, "at byte"));
		assert_null(strchr(err, '\n'));
	}
	char deep[300];
	memset(deep, '(', 200);
	strcpy(deep + 200, "1");
	struct pl_expr *e = NULL;
	char err[256];
	assert_int_equal(pl_expr_parse(deep, &e, err, sizeof(err)), -E2BIG);
	/* too many terms */
	static char many[PL_EXPR_MAX_LEN];
	size_t k = 0;
	while (k + 4 < sizeof(many) - 1) {
		memcpy(many + k, "1 + ", 4);
		k += 4;
	}
	strcpy(many + k - 3, "1");
	assert_int_equal(pl_expr_parse(many, &e, err, sizeof(err)), -E2BIG);
	/* not finite: overflow is -EDOM */
	assert_int_equal(pl_expr_parse("1e300 * 1e300", &e, err, sizeof(err)), 0);
	struct pl_cnt_result r = reading(NULL, 0, 1);
	double v;
	char missing[64];
	assert_int_equal(pl_expr_eval(e, &r, &v, missing, sizeof(missing)), -EDOM);
	pl_expr_free(e);
}

/* docs/metrics.md shows every row of the table as it is */
static void test_docs_in_step(void **state)
{
	(void)state;
	const char *top = getenv("PERFLAB_SRCDIR");
	char path[4096];
	snprintf(path, sizeof(path), "%s/docs/metrics.md", top ? top : ".");
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	static char doc[1 << 16];
	size_t len = fread(doc, 1, sizeof(doc) - 1, f);
	fclose(f);
	doc[len] = '\0';
	size_t n;
	const struct pl_metric *t = pl_metric_table(&n);
	for (size_t i = 0; i < n; i++) {
		char th[64], row[2048];
		if (isnan(t[i].threshold))
			snprintf(th, sizeof(th), "none");
		else
			snprintf(th, sizeof(th), "%s %g", t[i].below ? "below" : "above",
				 t[i].threshold);
		snprintf(row, sizeof(row), "| `%s` | %s | `%s` | %s | %s | %s |\n", t[i].name,
			 t[i].pmu_kind, t[i].expr, t[i].unit, th, t[i].source);
		if (!strstr(doc, row))
			fail_msg("docs/metrics.md lacks the row\n%s", row);
	}
}

static void test_select(void **state)
{
	(void)state;
	const struct pl_metric *out[64];
	char err[256] = "";
	assert_int_equal(pl_metric_select("ipc", "intel", out, 64, err, sizeof(err)), 1);
	assert_string_equal(out[0]->name, "ipc");
	/* a group, for one PMU kind: its four level-1 metrics of that kind */
	static const char *const kinds[] = { "intel", "amd-zen4", "arm-neoverse" };
	for (size_t k = 0; k < 3; k++) {
		assert_int_equal(pl_metric_select("topdown", kinds[k], out, 64, err, sizeof(err)),
				 4);
		for (int i = 0; i < 4; i++)
			assert_string_equal(out[i]->pmu_kind, kinds[k]);
	}
	/* a machine with no formula for a metric still gets one (shown unavailable) */
	assert_int_equal(pl_metric_select("topdown", "none", out, 64, err, sizeof(err)), 4);
	/* lists, duplicates once */
	assert_int_equal(pl_metric_select("ipc,cpi,ipc", "intel", out, 64, err, sizeof(err)), 2);
	int nsw = pl_metric_select("software", "intel", out, 64, err, sizeof(err));
	assert_int_equal(nsw, 4);
	/* l2_mpki for intel is only intel's; without a kind (perf stat output of another
	 * machine) every kind's */
	assert_int_equal(pl_metric_select("l2_mpki", "intel", out, 64, err, sizeof(err)), 1);
	assert_string_equal(out[0]->pmu_kind, "intel");
	assert_int_equal(pl_metric_select("l2_mpki", NULL, out, 64, err, sizeof(err)), 3);
	/* errors */
	assert_int_equal(pl_metric_select("ipcx", "intel", out, 64, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "'ipcx'"));
	assert_non_null(strstr(err, "perflab stat --list"));
	/* a name with a newline or a control byte is shown on one line */
	assert_int_equal(pl_metric_select("ip\nc\x01", "intel", out, 64, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "'ip\\x0ac\\x01'"));
	assert_null(strchr(err, '\n'));
	assert_int_equal(pl_metric_select("ipc,,cpi", "intel", out, 64, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "empty"));
	assert_int_equal(pl_metric_select("", "intel", out, 64, err, sizeof(err)), -ENOENT);
	assert_int_equal(pl_metric_select("basic,cache", "intel", out, 2, err, sizeof(err)),
			 -ENOSPC);
	assert_null(strchr(err, '\n'));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_well_formed),
		cmocka_unit_test(test_intel_spr),
		cmocka_unit_test(test_amd_zen4),
		cmocka_unit_test(test_arm_neoverse),
		cmocka_unit_test(test_missing_and_domain),
		cmocka_unit_test(test_scopes_and_spellings),
		cmocka_unit_test(test_expr_language),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_docs_in_step),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
