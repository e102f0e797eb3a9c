/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The counting session's arithmetic on synthetic readings: perf's scaling of multiplexed
 * counts (raw * enabled / running; tools/perf/util/stat.c perf_counts_values__scale),
 * <not counted> at running 0, the percentage running, sums over scopes, and the text and
 * JSON of a result: "<not supported>", the multiplexing percentage, and a metric whose
 * event is missing ("unavailable: EVENT not on this PMU", never a value). Then the
 * session against the live kernel with an opener that refuses what tests need refused:
 * EACCES for one event (marked, the rest counted) and EINVAL for group reads of
 * inherited counters (the fallback reads every event alone, same counts). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "counters/counters.h"
#include "counters/metric.h"
#include "counters/output.h"
#include "counters/session.h"

static struct pl_cnt_event ev(const char *name, double scale, const char *unit)
{
	struct pl_cnt_event e = { .scale = scale };
	snprintf(e.name, sizeof(e.name), "%s", name);
	snprintf(e.unit, sizeof(e.unit), "%s", unit);
	snprintf(e.pmu, sizeof(e.pmu), "software");
	return e;
}

static void test_scale(void **state)
{
	(void)state;
	struct pl_cnt_event e = ev("cycles", 1, "");
	/* not multiplexed: the raw count */
	struct pl_cnt_value v = { .ev = &e, .raw = 1000, .enabled_ns = 500, .running_ns = 500 };
	pl_cnt_scale(&v);
	assert_true(v.counted);
	assert_true(v.value == 1000.0);
	assert_true(pl_cnt_pcnt_running(&v) == 100.0);
	/* ran a quarter of the time: 4x, 25 % running */
	v = (struct pl_cnt_value){ .ev = &e, .raw = 1000, .enabled_ns = 400, .running_ns = 100 };
	pl_cnt_scale(&v);
	assert_true(v.counted);
	assert_true(v.value == 4000.0);
	assert_true(pl_cnt_pcnt_running(&v) == 25.0);
	/* 2/3 running: 1500 from 1000 (perf: val * ena / run) */
	v = (struct pl_cnt_value){ .ev = &e, .raw = 1000, .enabled_ns = 3000, .running_ns = 2000 };
	pl_cnt_scale(&v);
	assert_true(fabs(v.value - 1500.0) < 1e-9);
	assert_true(fabs(pl_cnt_pcnt_running(&v) - 200.0 / 3.0) < 1e-9);
	/* never ran: <not counted>, value 0 */
	v = (struct pl_cnt_value){ .ev = &e, .raw = 7, .enabled_ns = 3000, .running_ns = 0 };
	pl_cnt_scale(&v);
	assert_false(v.counted);
	assert_true(v.value == 0.0);
	/* the event's scale (task-clock ns -> msec) applies before the multiplexing */
	struct pl_cnt_event tc = ev("task-clock", 1e-6, "msec");
	v = (struct pl_cnt_value){ .ev = &tc, .raw = 3000000, .enabled_ns = 10, .running_ns = 5 };
	pl_cnt_scale(&v);
	assert_true(fabs(v.value - 6.0) < 1e-9);
	/* a running time above enabled (rounding in the kernel) is not scaled down */
	v = (struct pl_cnt_value){ .ev = &e, .raw = 10, .enabled_ns = 99, .running_ns = 100 };
	pl_cnt_scale(&v);
	assert_true(v.value == 10.0);
	assert_true(pl_cnt_pcnt_running(&v) == 100.0);
}

static void test_sum(void **state)
{
	(void)state;
	struct pl_cnt_event a = ev("page-faults", 1, ""), b = ev("cycles", 1, "");
	struct pl_cnt_value vals[4] = {
		{ .ev = &a, .value = 10, .counted = true, .supported = true, .cpu = 0 },
		{ .ev = &a, .value = 32, .counted = true, .supported = true, .cpu = 1 },
		{ .ev = &b, .value = 0, .counted = false, .supported = true },
		{ .ev = &b, .value = 0, .counted = false, .supported = false },
	};
	struct pl_cnt_result r = { .v = vals, .n = 4 };
	assert_true(pl_cnt_result_sum(&r, "page-faults") == 42.0);
	assert_true(isnan(pl_cnt_result_sum(&r, "cycles")));
	assert_true(isnan(pl_cnt_result_sum(&r, "instructions")));
}

/* The text and JSON of a result with a multiplexed count, an unsupported event and a
 * metric over it. */
static void test_output(void **state)
{
	(void)state;
	struct pl_cnt_event e[3] = { ev("page-faults", 1, ""), ev("task-clock", 1e-6, "msec"),
				     ev("cycles", 1, "") };
	snprintf(e[2].pmu, sizeof(e[2].pmu), "cpu");
	struct pl_cnt_value v[3] = {
		{ .ev = &e[0],
		  .raw = 1234567,
		  .enabled_ns = 200,
		  .running_ns = 100,
		  .supported = true },
		{ .ev = &e[1],
		  .raw = 2000000,
		  .enabled_ns = 100,
		  .running_ns = 100,
		  .supported = true },
		{ .ev = &e[2], .supported = false },
	};
	for (int i = 0; i < 3; i++)
		pl_cnt_scale(&v[i]);
	snprintf(v[2].why, sizeof(v[2].why), "the kernel or this PMU does not support it");
	struct pl_cnt_result r = { .v = v, .n = 3, .elapsed_ns = 1000000000 };
	static const char *const evs_ipc[] = { "cycles", "task-clock", NULL };
	static const struct pl_metric per_cycle = {
		"faults_per_cycle", "test", "any", evs_ipc, "\"page-faults\" / cycles",
		"/cycle",	    NAN,    false, "test",  "test"
	};
	const struct pl_metric *ms[] = { &per_cycle };
	struct pl_cnt_report rep = { .r = &r,
				     .nevs = 3,
				     .metrics = ms,
				     .nmetrics = 1,
				     .what = "'x'",
				     .target = "command",
				     .core = false,
				     .core_why = "no core PMU here" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(pl_cnt_write_text(f, &rep), 0);
	fclose(f);
	/* scaled 2x and its percentage; thousands separators */
	assert_non_null(strstr(buf, "2,469,134      page-faults"));
	assert_non_null(strstr(buf, "(50.00%)"));
	assert_non_null(strstr(buf, "2.00 msec task-clock"));
	assert_non_null(strstr(buf, "<not supported>      cycles"));
	assert_non_null(strstr(buf, "faults_per_cycle unavailable: cycles not on this PMU"));
	assert_non_null(strstr(buf, "Note: no core PMU here"));
	free(buf);
	json_t *doc = pl_cnt_json(&rep, false);
	json_t *evs = json_object_get(doc, "events");
	assert_int_equal(json_array_size(evs), 3);
	json_t *pf = json_array_get(evs, 0);
	assert_true(json_number_value(json_object_get(pf, "counter-value")) == 2469134.0);
	assert_true(json_number_value(json_object_get(pf, "pcnt-running")) == 50.0);
	assert_true(json_is_null(json_object_get(json_array_get(evs, 2), "counter-value")));
	json_t *m = json_array_get(json_object_get(doc, "metrics"), 0);
	assert_string_equal(json_string_value(json_object_get(m, "unavailable")),
			    "cycles not on this PMU");
	assert_null(json_object_get(m, "value"));
	json_decref(doc);
	/* "#slots" is read from the report's constant readings, never shown as an event */
	static const char *const evs_slots[] = { "cycles", NULL };
	static const struct pl_metric per_slot = {
		"faults_per_slot", "test", "any", evs_slots, "\"page-faults\" / (#slots * 1000)",
		"/slot",	   NAN,	   false, "test",    "test"
	};
	struct pl_cnt_event se = ev("#slots", 1, "");
	struct pl_cnt_value sv = {
		.ev = &se, .raw = 5, .value = 5, .counted = true, .supported = true
	};
	const struct pl_metric *ms2[] = { &per_slot };
	rep.metrics = ms2;
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(pl_cnt_write_text(f, &rep), 0);
	fclose(f);
	assert_non_null(strstr(buf, "faults_per_slot unavailable: #slots not on this PMU"));
	free(buf);
	rep.consts = &sv;
	rep.nconsts = 1;
	doc = pl_cnt_json(&rep, false);
	m = json_array_get(json_object_get(doc, "metrics"), 0);
	/* 2,469,134 page-faults / (5 * 1000) */
	assert_float_equal(json_number_value(json_object_get(m, "value")), 2469134.0 / 5000, 1e-9);
	assert_int_equal(json_array_size(json_object_get(doc, "events")), 3);
	json_decref(doc);
	char tmp[64];
	assert_string_equal(pl_cnt_fmt_count(tmp, sizeof(tmp), 0), "0");
	assert_string_equal(pl_cnt_fmt_count(tmp, sizeof(tmp), 999), "999");
	assert_string_equal(pl_cnt_fmt_count(tmp, sizeof(tmp), 1000), "1,000");
	assert_string_equal(pl_cnt_fmt_count(tmp, sizeof(tmp), 1234567.4), "1,234,567");
}

/* ---- the session with an injecting opener ---- */

static int refuse_group_inherit(struct perf_event_attr *a, pid_t pid, int cpu, int gfd,
				unsigned long flags)
{
	if (a->inherit && (a->read_format & PERF_FORMAT_GROUP)) {
		errno = EINVAL;
		return -1;
	}
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, gfd, flags);
}

static int refuse_faults(struct perf_event_attr *a, pid_t pid, int cpu, int gfd,
			 unsigned long flags)
{
	if (a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_PAGE_FAULTS) {
		errno = EACCES;
		return -1;
	}
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, gfd, flags);
}

static bool perf_usable(void)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_TASK_CLOCK,
				     .size = sizeof(a),
				     .disabled = 1 };
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static void run_true(pl_cnt_open_fn hook, struct pl_cnt_session *s, struct pl_cnt_result *r)
{
	static struct pl_cnt_event evs[2];
	evs[0] = ev("task-clock", 1e-6, "msec");
	evs[0].attr.type = PERF_TYPE_SOFTWARE;
	evs[0].attr.config = PERF_COUNT_SW_TASK_CLOCK;
	evs[1] = ev("page-faults", 1, "");
	evs[1].attr.type = PERF_TYPE_SOFTWARE;
	evs[1].attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	static const int group[2] = { 0, 0 };
	static char *argv[] = { "/bin/true", NULL };
	struct pl_cnt_config cfg = { .evs = evs, .nevs = 2, .group = group, .argv = argv };
	char err[512];
	pl_cnt_open_hook = hook;
	assert_int_equal(pl_cnt_session_open(s, &cfg, err, sizeof(err)), 0);
	assert_int_equal(pl_cnt_session_run(s, r, err, sizeof(err)), 0);
}

static void test_session_fallbacks(void **state)
{
	(void)state;
	if (!perf_usable()) {
		skip();
		return;
	}
	struct pl_cnt_session s;
	struct pl_cnt_result r = { 0 };
	/* group reads refused with inherit: every event read alone, both counted */
	run_true(refuse_group_inherit, &s, &r);
	assert_false(s.group_read);
	assert_int_equal(r.n, 2);
	assert_true(r.v[0].supported && r.v[0].counted && r.v[0].value > 0);
	assert_true(r.v[1].supported && r.v[1].counted && r.v[1].value >= 1);
	assert_true(WIFEXITED(s.child_status) && WEXITSTATUS(s.child_status) == 0);
	pl_cnt_result_free(&r);
	pl_cnt_session_close(&s);
	/* a refused member: marked with its errno; the leader counts alone */
	run_true(refuse_faults, &s, &r);
	assert_true(s.group_read);
	assert_int_equal(s.ev_errno[1], EACCES);
	assert_int_equal(s.ev_errno[0], 0);
	assert_true(r.v[0].supported && r.v[0].counted && r.v[0].value > 0);
	assert_false(r.v[1].supported);
	pl_cnt_result_free(&r);
	pl_cnt_session_close(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_sum),
		cmocka_unit_test(test_output),
		cmocka_unit_test(test_session_fallbacks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
