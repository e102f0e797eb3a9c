/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests of `perflab stat --from` (counters/from.h): perf 6.1's `perf stat -j` and
 * `-x,` output captured on this machine (tests/fixtures/perf-stat/: plain, -I, -A -a,
 * --per-socket, --per-thread, <not supported> hardware events, duration_time), the
 * hand-written hardware readings of the same shapes evaluated into metrics, and
 * malformed input: each refusal one line naming the file, the line and the fix. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "counters/from.h"
#include "counters/metric.h"

#include "testutil.h"

#define near(a, b) assert_true(fabs((double)(a) - (double)(b)) < 1e-6 * (fabs((double)(b)) + 1))

struct loaded {
	struct pl_cnt_result r;
	struct pl_cnt_event *evs;
	size_t nevs;
};

static char fixdir[4096];

static void load(const char *name, struct loaded *l)
{
	char path[8192], err[512] = "";
	snprintf(path, sizeof(path), "%s/%s", fixdir, name);
	memset(l, 0, sizeof(*l));
	int rc = pl_cnt_from_file(path, &l->r, &l->evs, &l->nevs, err, sizeof(err));
	if (rc != 0)
		fail_msg("%s: %d %s", name, rc, err);
}

/* pl_cnt_result_free belongs to the counting session; the values are one array */
static void unload(struct loaded *l)
{
	free(l->r.v);
	free(l->evs);
}

/* The one reading of @event at @cpu (-1 for none). */
static const struct pl_cnt_value *get(const struct loaded *l, const char *event, int cpu)
{
	for (size_t i = 0; i < l->r.n; i++)
		if (!strcmp(l->r.v[i].ev->name, event) && l->r.v[i].cpu == cpu)
			return &l->r.v[i];
	fail_msg("no reading of %s at cpu %d", event, cpu);
	return NULL;
}

static double sum(const struct loaded *l, const char *event)
{
	double s = 0;
	for (size_t i = 0; i < l->r.n; i++)
		if (!strcmp(l->r.v[i].ev->name, event) && l->r.v[i].counted)
			s += l->r.v[i].value;
	return s;
}

static double metric(const struct loaded *l, const char *name, const char *kind)
{
	const struct pl_metric *m[8];
	char err[256];
	int n = pl_metric_select(name, kind, m, 8, err, sizeof(err));
	assert_int_equal(n, 1);
	double v = NAN;
	char missing[128] = "";
	if (pl_metric_eval(m[0], &l->r, &v, missing, sizeof(missing)) != 0)
		fail_msg("%s: %s", name, missing);
	return v;
}

static void test_plain(void **state)
{
	(void)state;
	struct loaded l;
	/* perf stat -j -e task-clock,page-faults,context-switches,cpu-migrations true */
	load("j.txt", &l);
	assert_int_equal(l.nevs, 4);
	assert_int_equal(l.r.n, 4);
	const struct pl_cnt_value *v = get(&l, "task-clock", -1);
	near(v->value, 3.440762);
	assert_string_equal(v->ev->unit, "msec");
	assert_true(v->counted && v->supported);
	assert_int_equal(v->running_ns, 3440762);
	assert_int_equal(v->enabled_ns, 3440762);
	near(get(&l, "page-faults", -1)->value, 49);
	near(get(&l, "cpu-migrations", -1)->value, 0);
	assert_true(get(&l, "cpu-migrations", -1)->counted);
	/* wall time = task-clock / "CPUs utilized" = 3.440762 ms / 0.228213 = 15.0770 ms */
	assert_true(llabs((long long)l.r.elapsed_ns - 15077000) < 1000);
	assert_int_equal(l.r.ncpus, 0);
	/* and so the software metrics: CPUs utilized as perf printed it */
	near(metric(&l, "cpu_utilization", "any"), 0.228213);
	unload(&l);

	load("x.csv", &l);
	assert_int_equal(l.nevs, 4);
	near(get(&l, "task-clock", -1)->value, 3.36);
	near(get(&l, "page-faults", -1)->value, 47);
	near(get(&l, "context-switches", -1)->value, 1);
	/* 3.36 ms / 0.227 = 14.80 ms */
	assert_true(llabs((long long)l.r.elapsed_ns - 14801762) < 1000);
	unload(&l);
}

static void test_intervals(void **state)
{
	(void)state;
	struct loaded l;
	/* -I 100: intervals summed, <not counted> ones add nothing; the run lasted until
	 * the last interval's time */
	load("j-I.txt", &l);
	assert_int_equal(l.r.n, 2);
	near(get(&l, "task-clock", -1)->value, 6.447679 + 0.207624);
	near(get(&l, "page-faults", -1)->value, 74);
	assert_true(get(&l, "task-clock", -1)->counted);
	assert_int_equal(l.r.elapsed_ns, 302649477);
	unload(&l);

	load("x-I.csv", &l);
	near(get(&l, "task-clock", -1)->value, 6.08 + 0.19);
	near(get(&l, "page-faults", -1)->value, 75);
	assert_int_equal(l.r.elapsed_ns, 279524666);
	unload(&l);
}

static void test_per_cpu(void **state)
{
	(void)state;
	struct loaded l;
	load("j-A-a.txt", &l);
	assert_int_equal(l.r.n, 4);
	assert_int_equal(l.r.ncpus, 2);
	near(get(&l, "task-clock", 0)->value, 132.986474);
	near(get(&l, "task-clock", 1)->value, 140.074873);
	near(get(&l, "context-switches", 1)->value, 62);
	near(sum(&l, "context-switches"), 163);
	unload(&l);

	load("x-A-a.csv", &l);
	assert_int_equal(l.r.ncpus, 2);
	near(get(&l, "task-clock", 1)->value, 147.47);
	near(sum(&l, "context-switches"), 55 + 947);
	unload(&l);

	/* -I with -A: per CPU, intervals summed */
	load("j-I-A-a.txt", &l);
	assert_int_equal(l.r.n, 2);
	near(get(&l, "task-clock", 0)->value, 123.232838 + 68.765142);
	near(get(&l, "task-clock", 1)->value, 120.032462 + 63.890043);
	assert_int_equal(l.r.elapsed_ns, 168540096);
	unload(&l);

	load("x-I-A-a.csv", &l);
	near(get(&l, "task-clock", 0)->value, 127.98 + 80.78);
	near(get(&l, "task-clock", 1)->value, 120.05 + 75.69);
	assert_int_equal(l.r.elapsed_ns, 190762171);
	unload(&l);
}

static void test_socket_thread(void **state)
{
	(void)state;
	struct loaded l;
	load("j-per-socket.txt", &l);
	assert_int_equal(l.r.v[0].socket, 0);
	near(get(&l, "task-clock", -1)->value, 183.625259);
	unload(&l);
	load("x-per-socket.csv", &l);
	assert_int_equal(l.r.v[1].socket, 0);
	near(get(&l, "page-faults", -1)->value, 2588);
	unload(&l);
	load("j-per-thread.txt", &l);
	assert_int_equal(l.r.v[0].tid, 32170);
	near(get(&l, "context-switches", -1)->value, 13);
	unload(&l);
	load("x-per-thread.csv", &l);
	assert_int_equal(l.r.v[0].tid, 32198);
	near(get(&l, "task-clock", -1)->value, 34.69);
	unload(&l);
}

static void test_unsupported_and_duration(void **state)
{
	(void)state;
	struct loaded l;
	static const char *const files[] = { "j-default.txt", "x-default.csv" };
	for (int i = 0; i < 2; i++) {
		load(files[i], &l);
		assert_int_equal(l.r.n, 8);
		assert_false(get(&l, "cycles", -1)->supported);
		assert_false(get(&l, "instructions", -1)->counted);
		/* the metric says what is missing, never a value */
		const struct pl_metric *m[2];
		char err[256], missing[128] = "";
		assert_int_equal(pl_metric_select("ipc", "any", m, 2, err, sizeof(err)), 1);
		double v;
		assert_int_equal(pl_metric_eval(m[0], &l.r, &v, missing, sizeof(missing)), -ENOENT);
		assert_string_equal(missing, "instructions");
		unload(&l);
	}
	/* -e duration_time: the wall time is its count (ns) */
	load("j-duration.txt", &l);
	assert_int_equal(l.r.elapsed_ns, 16756141);
	assert_string_equal(get(&l, "duration_time", -1)->ev->unit, "ns");
	unload(&l);
	load("x-duration.csv", &l);
	assert_int_equal(l.r.elapsed_ns, 10040922);
	unload(&l);
}

static void test_hardware_readings(void **state)
{
	(void)state;
	struct loaded l;
	/* Sapphire Rapids (-j): the values worked in test_metric.c */
	load("hand-spr-topdown.txt", &l);
	assert_int_equal(l.r.elapsed_ns, 2000000000);
	const struct pl_cnt_value *v = get(&l, "LLC-load-misses", -1);
	assert_int_equal(v->running_ns, 1000000000);
	assert_int_equal(v->enabled_ns, 2000000000); /* 50 % running */
	near(metric(&l, "ipc", "intel"), 1.5);
	near(metric(&l, "topdown_retiring", "intel"), 25.0);
	near(metric(&l, "topdown_backend_bound", "intel"), 45.0);
	near(metric(&l, "l2_mpki", "intel"), 10.0);
	assert_true(fabs(metric(&l, "memory_read_bw", "intel") - 10.0) < 1e-6);
	near(metric(&l, "power_pkg", "intel"), 150.0);
	near(metric(&l, "frequency_aperf", "intel"), 3.0);
	unload(&l);

	/* Zen 4 (-x,): raw events with commas in their names */
	load("hand-zen4.csv", &l);
	near(get(&l, "cpu/event=0xaa,umask=0x7/", -1)->value, 13.5e9);
	near(get(&l, "cpu/event=0x1a0,umask=0x1e/", -1)->value, 9e9);
	assert_false(get(&l, "cpu/event=0x1a0,umask=0x60/", -1)->supported);
	v = get(&l, "cpu/event=0x64,umask=0x9/", -1);
	assert_int_equal(v->running_ns, 666700000);
	assert_true(llabs((long long)v->enabled_ns - 1000000000) < 10);
	near(metric(&l, "topdown_retiring", "amd-zen4"), 40.0);
	near(metric(&l, "topdown_bad_speculation", "amd-zen4"), 5.0);
	near(metric(&l, "memory_read_bw", "amd-zen4"), 12.0);
	near(metric(&l, "memory_write_bw", "amd-zen4"), 6.0);
	unload(&l);

	/* Neoverse N2 (-j): perf stat output has no caps/slots, so topdown is unavailable
	 * from a file and says so */
	load("hand-neoverse-n2.txt", &l);
	near(metric(&l, "l2_mpki", "arm-neoverse"), 5.0);
	const struct pl_metric *m[2];
	char err[256], missing[128] = "";
	double x;
	assert_int_equal(
		pl_metric_select("topdown_frontend_bound", "arm-neoverse", m, 2, err, sizeof(err)),
		1);
	assert_int_equal(pl_metric_eval(m[0], &l.r, &x, missing, sizeof(missing)), -ENOENT);
	assert_string_equal(missing, "#slots");
	unload(&l);
}

static void test_stdin(void **state)
{
	(void)state;
	char path[8192], err[512];
	snprintf(path, sizeof(path), "%s/x.csv", fixdir);
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	int saved = dup(STDIN_FILENO);
	assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	struct loaded l = { 0 };
	int rc = pl_cnt_from_file("-", &l.r, &l.evs, &l.nevs, err, sizeof(err));
	dup2(saved, STDIN_FILENO);
	close(saved);
	assert_int_equal(rc, 0);
	near(l.r.v[0].value, 3.36);
	unload(&l);
}

static char tmp[256];

static int from_text(const char *text, char *err, size_t errlen)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/stat.txt", tmp);
	assert_int_equal(pl_test_write(path, text, strlen(text)), 0);
	struct loaded l = { 0 };
	int rc = pl_cnt_from_file(path, &l.r, &l.evs, &l.nevs, err, errlen);
	if (rc == 0)
		unload(&l);
	return rc;
}

#define JL(v)                                                                                      \
	"{\"counter-value\" : " v ", \"unit\" : \"\", \"event\" : \"cycles\", "                    \
	"\"event-runtime\" : 10, \"pcnt-running\" : 100.00}\n"

static void test_malformed(void **state)
{
	(void)state;
	strcpy(tmp, "/tmp/perflab-from-XXXXXX");
	assert_int_equal(pl_test_mkdtemp(tmp), 0);
	static const struct {
		const char *text;
		const char *want; /* in the error: the file, the line, what */
	} cases[] = {
		{ "# c\n" JL("\"12\"") "{\"unit\" : \"\"}\n", "stat.txt:3: no \"event\" member" },
		{ JL("12"), "stat.txt:1: \"counter-value\" is not a number in a string" },
		{ JL("\"12abc\""), "stat.txt:1: \"counter-value\"" },
		{ JL("\"nan\""), "stat.txt:1: \"counter-value\"" },
		{ JL("\"1e999\""), "stat.txt:1: \"counter-value\"" },
		{ JL("\"-5\""), "stat.txt:1: counter value out of range" },
		{ "{\"counter-value\" : \"1\", \"event\" : \"cycles\", \"event-runtime\" : 10, "
		  "\"pcnt-running\" : 150.0}\n",
		  "stat.txt:1: percentage running outside 0..100" },
		{ "{\"counter-value\" : \"1\", \"event\" : \"cycles\", \"event-runtime\" : -1, "
		  "\"pcnt-running\" : 10.0}\n",
		  "stat.txt:1: \"event-runtime\"" },
		{ "{\"counter-value\" : \"1\", \"counter-value\" : \"2\", \"event\" : \"x\"}\n",
		  "stat.txt:1: not a JSON object" },
		{ JL("\"1\"") "1,,cycles,10,100.00,,\n",
		  "stat.txt:2: not a JSON object in perf stat -j" },
		{ "{\"counter-value\" : \"1\", \"event\" : \"x\", \"event-runtime\" : 1, "
		  "\"pcnt-running\" : 1, \"cpu\" : \"zero\"}\n",
		  "stat.txt:1: \"cpu\" is not a CPU number" },
		{ "hello world\n", "stat.txt:1: not a perf stat -x, line" },
		{ "a,b\n", "stat.txt:1: not a perf stat -x, line" },
		{ "1,,cycles,abc,100.00,,\n", "stat.txt:1: not a perf stat -x, line" },
		{ "1;;cycles;10;100.00;;\n", "stat.txt:1: not a perf stat -x, line" },
		{ "CPUx,1,,cycles,10,100.00,,\n", "stat.txt:1: unrecognised scope field" },
		{ "1,,cycles,10,100.00,abc,x\n", "stat.txt:1: metric value is not a number" },
		{ "1,,cycles,10,100.00,1,x,y,z\n", "stat.txt:1: too many fields after the event" },
		{ "\n# only comments\n", "no perf stat readings" },
		{ "", "no perf stat readings" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[512] = "";
		int rc = from_text(cases[i].text, err, sizeof(err));
		if (rc != -EINVAL || !strstr(err, cases[i].want) || strchr(err, '\n') ||
		    !strstr(err, "perf stat -j or perf stat -x,"))
			fail_msg("case %zu: %d '%s', wanted '%s'", i, rc, err, cases[i].want);
	}
	/* lines of further metrics (no event) continue the line before them */
	char err0[512] = "";
	assert_int_equal(
		from_text("5,,cycles,10,50.00,1.0,GHz\n,,,,,2.0,IPC\n", err0, sizeof(err0)), 0);
	assert_int_equal(from_text("{\"counter-value\" : \"5\", \"unit\" : \"\", \"event\" : "
				   "\"cycles\", \"event-runtime\" : 10, \"pcnt-running\" : 50.00}\n"
				   "{\"metric-value\" : 2.0, \"metric-unit\" : \"IPC\"}\n",
				   err0, sizeof(err0)),
			 0);
	/* bounded lines: one of 5000 bytes */
	char *big = malloc(5002);
	memset(big, 'a', 5000);
	big[5000] = '\n';
	big[5001] = '\0';
	char err[512] = "";
	assert_int_equal(from_text(big, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "stat.txt:1: line too long"));
	free(big);
	/* a NUL in a line */
	char path[512];
	snprintf(path, sizeof(path), "%s/nul.txt", tmp);
	assert_int_equal(pl_test_write(path, "1,,cyc\0les,10,100.00,,\n", 23), 0);
	struct loaded l = { 0 };
	assert_int_equal(pl_cnt_from_file(path, &l.r, &l.evs, &l.nevs, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "NUL byte"));

	/* not a regular file: a FIFO (never blocks), a directory; a missing file */
	snprintf(path, sizeof(path), "%s/fifo", tmp);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(pl_cnt_from_file(path, &l.r, &l.evs, &l.nevs, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a regular file"));
	assert_non_null(strstr(err, path));
	assert_int_equal(pl_cnt_from_file(tmp, &l.r, &l.evs, &l.nevs, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a regular file"));
	/* a path with a newline is shown on one line */
	snprintf(path, sizeof(path), "%s/a\nb", tmp);
	assert_int_equal(pl_cnt_from_file(path, &l.r, &l.evs, &l.nevs, err, sizeof(err)), -ENOENT);
	assert_null(strchr(err, '\n'));
	assert_non_null(strstr(err, "a\\x0ab"));
	snprintf(path, sizeof(path), "%s/none", tmp);
	assert_int_equal(pl_cnt_from_file(path, &l.r, &l.evs, &l.nevs, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "No such file"));
	assert_int_equal(pl_test_rmtree(tmp), 0);
}

int main(void)
{
	const char *f = getenv("FIXTURES");
	snprintf(fixdir, sizeof(fixdir), "%s/perf-stat", f ? f : "tests/fixtures");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_intervals),
		cmocka_unit_test(test_per_cpu),
		cmocka_unit_test(test_socket_thread),
		cmocka_unit_test(test_unsupported_and_duration),
		cmocka_unit_test(test_hardware_readings),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
