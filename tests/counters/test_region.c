/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Counts per marker region (src/counters/region.h with lib/mark.c): a counting ring of
 * software events (page-faults, context-switches, task-clock) around region-prog, whose
 * regions have known counts (tests/counters/region_prog.c): faults of N fresh pages inside
 * a region and none of those touched outside it, K sleeps' switches, CPU time within the
 * thread's own measurement, a thread's and a forked child's own groups; and the cases a
 * count must not be shown: a version 1 library (tests/counters/mark_v1.c) on a counting
 * ring, an event the kernel refuses. A ring without counters keeps the version 1
 * behaviour with the new library. Skips with the reason when perf_event_open refuses a
 * software counter of this process. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "counters/region.h"

#define PAGES 512
#define SLEEPS 20
/* Faults a region may take besides its pages (the marker's own first calls, the stack). */
#define SLACK 48

static struct pl_cnt_event sw_event(const char *name, uint64_t config)
{
	struct pl_cnt_event e;
	memset(&e, 0, sizeof(e));
	snprintf(e.name, sizeof(e.name), "%s", name);
	snprintf(e.pmu, sizeof(e.pmu), "software");
	e.source = PL_CNT_PERF;
	e.attr.type = PERF_TYPE_SOFTWARE;
	e.attr.size = sizeof(e.attr);
	e.attr.config = config;
	e.scale = 1;
	return e;
}

/* Run @prog PAGES SLEEPS; its stdout into @out. Returns its exit status or -1. */
static int run_prog(const char *prog, char *out, size_t outlen)
{
	int p[2];
	if (pipe(p) < 0)
		return -1;
	char a1[16], a2[16];
	snprintf(a1, sizeof(a1), "%d", PAGES);
	snprintf(a2, sizeof(a2), "%d", SLEEPS);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		execl(prog, prog, a1, a2, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	size_t n = 0;
	ssize_t r;
	while (n + 1 < outlen && (r = read(p[0], out + n, outlen - 1 - n)) > 0)
		n += (size_t)r;
	out[n] = '\0';
	close(p[0]);
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static const char *prog_path(const char *var)
{
	const char *p = getenv(var);
	if (!p || !*p) {
		fprintf(stderr, "# %s is not set (run through meson test)\n", var);
		fail();
	}
	return p;
}

/* The value of event @i of region @name, which must exist. */
static const struct pl_cnt_value *val(const struct pl_cnt_regions *rs, const char *name, size_t i)
{
	const struct pl_cnt_region *r = pl_cnt_regions_find(rs, name);
	if (!r)
		fprintf(stderr, "# no region '%s'\n", name);
	assert_non_null(r);
	assert_true(i < r->res.n);
	return &r->res.v[i];
}

static void skip_without_perf(void)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_SW_PAGE_FAULTS;
	long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0) {
		fprintf(stderr, "# skip: perf_event_open of a software counter: %s\n",
			strerror(errno));
		skip();
	}
	close((int)fd);
}

static void test_counts(void **state)
{
	(void)state;
	skip_without_perf();
	struct pl_cnt_event ev[3] = { sw_event("page-faults", PERF_COUNT_SW_PAGE_FAULTS),
				      sw_event("context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES),
				      sw_event("task-clock", PERF_COUNT_SW_TASK_CLOCK) };
	struct pl_cnt_region_ring rr;
	assert_int_equal(pl_cnt_region_create(&rr, ev, 3, 0), 0);
	assert_int_equal(rr.ring.hdr->version, 2);
	assert_int_equal(rr.ring.hdr->ncounters, 3);
	char out[256];
	assert_int_equal(run_prog(prog_path("REGION_PROG"), out, sizeof(out)), 0);
	unsigned long long cpu_ns = 0;
	assert_int_equal(sscanf(out, "sleeps_cpu_ns %llu", &cpu_ns), 1);
	struct pl_cnt_regions rs;
	assert_int_equal(pl_cnt_region_collect(&rr, &rs), 0);
	if (rs.status != PL_CNT_REGION_OK)
		fprintf(stderr, "# status %d: %s\n", rs.status, rs.why);
	assert_int_equal(rs.status, PL_CNT_REGION_OK);
	assert_int_equal(rs.dropped, 0);

	/* "pages": the main thread's and the worker's, each with its own group */
	const struct pl_cnt_region *pg = pl_cnt_regions_find(&rs, "pages");
	assert_non_null(pg);
	assert_int_equal(pg->instances, 2);
	assert_int_equal(pg->threads, 2);
	assert_int_equal(pg->counted_pairs, 2);
	assert_int_equal(pg->unpaired, 0);
	const struct pl_cnt_value *pf = val(&rs, "pages", 0);
	fprintf(stderr, "# pages: page-faults %llu for 2 x %d pages\n", (unsigned long long)pf->raw,
		PAGES);
	assert_true(pf->supported && pf->counted);
	assert_in_range(pf->raw, 2 * PAGES, 2 * PAGES + 2 * SLACK);
	assert_true(pf->value == (double)pf->raw);
	assert_int_equal(pf->enabled_ns, pf->running_ns);
	assert_ptr_equal(pf->ev, &ev[0]);

	/* "outer": the main thread's "pages" and "sleeps", not the 4 x PAGES before it */
	const struct pl_cnt_value *opf = val(&rs, "outer", 0);
	fprintf(stderr, "# outer: page-faults %llu\n", (unsigned long long)opf->raw);
	assert_in_range(opf->raw, PAGES, PAGES + 2 * SLACK);

	/* "sleeps": a switch per sleep at least; task-clock within the thread's CPU time
	 * measured around the region, itself well under the region's wall time */
	const struct pl_cnt_region *sl = pl_cnt_regions_find(&rs, "sleeps");
	assert_non_null(sl);
	assert_int_equal(sl->instances, 1);
	assert_true(sl->total_ns >= SLEEPS * 1000000ull);
	const struct pl_cnt_value *cs = val(&rs, "sleeps", 1), *tc = val(&rs, "sleeps", 2);
	fprintf(stderr,
		"# sleeps: context-switches %llu, task-clock %llu ns, measured %llu ns, "
		"wall %llu ns\n",
		(unsigned long long)cs->raw, (unsigned long long)tc->raw, cpu_ns,
		(unsigned long long)sl->total_ns);
	assert_true(cs->raw >= SLEEPS);
	assert_true(tc->raw > 0);
	assert_true(tc->raw <= cpu_ns);
	assert_true(tc->raw < sl->total_ns);

	/* "child": the forked child opened its own group */
	const struct pl_cnt_value *cpf = val(&rs, "child", 0);
	fprintf(stderr, "# child: page-faults %llu\n", (unsigned long long)cpf->raw);
	assert_true(cpf->supported && cpf->counted);
	assert_in_range(cpf->raw, PAGES, PAGES + SLACK);

	/* unpaired begins and ends are counted, never given counts */
	const struct pl_cnt_region *orph = pl_cnt_regions_find(&rs, "orphan");
	const struct pl_cnt_region *open = pl_cnt_regions_find(&rs, "open");
	assert_non_null(orph);
	assert_non_null(open);
	assert_int_equal(orph->unpaired, 1);
	assert_int_equal(open->unpaired, 1);
	assert_int_equal(orph->instances + open->instances, 0);
	assert_false(val(&rs, "open", 0)->supported);
	assert_false(val(&rs, "orphan", 0)->supported);
	pl_cnt_regions_free(&rs);
	pl_cnt_region_ring_free(&rr);
	assert_null(getenv(PL_MARK_ENV));
}

/* A version 1 library on a counting ring: its markers still pair, no count is shown and
 * the reason says the library is too old. */
static void test_v1_library(void **state)
{
	(void)state;
	struct pl_cnt_event ev[1] = { sw_event("page-faults", PERF_COUNT_SW_PAGE_FAULTS) };
	struct pl_cnt_region_ring rr;
	assert_int_equal(pl_cnt_region_create(&rr, ev, 1, 0), 0);
	char out[256];
	assert_int_equal(run_prog(prog_path("REGION_PROG_V1"), out, sizeof(out)), 0);
	struct pl_cnt_regions rs;
	assert_int_equal(pl_cnt_region_collect(&rr, &rs), 0);
	fprintf(stderr, "# %s\n", rs.why);
	assert_int_equal(rs.status, PL_CNT_REGION_TOO_OLD);
	assert_non_null(strstr(rs.why, "too old to count regions"));
	const struct pl_cnt_region *pg = pl_cnt_regions_find(&rs, "pages");
	assert_non_null(pg);
	assert_int_equal(pg->instances, 2);
	assert_int_equal(pg->unread, 2);
	assert_int_equal(pg->counted_pairs, 0);
	const struct pl_cnt_value *v = val(&rs, "pages", 0);
	assert_false(v->supported);
	assert_int_equal(v->raw, 0);
	assert_non_null(strstr(v->why, "too old"));
	assert_int_equal(rr.ring.hdr->flags, 0);
	pl_cnt_regions_free(&rs);
	pl_cnt_region_ring_free(&rr);
}

/* The new library on a ring without counters (what `perflab profile` makes): version 1
 * records and windows, no readings, no counting flag. */
static void test_ring_without_counters(void **state)
{
	(void)state;
	struct pl_markring m;
	assert_int_equal(pl_markring_create(&m, 1u << 12, NULL, 0), 0);
	assert_int_equal(m.hdr->version, 1);
	assert_int_equal(m.map_len, PL_MARK_SIZE(1u << 12));
	char out[256];
	assert_int_equal(run_prog(prog_path("REGION_PROG"), out, sizeof(out)), 0);
	assert_int_equal(pl_markring_collect(&m, UINT64_MAX), 0);
	assert_int_equal(m.hdr->flags, 0);
	assert_null(m.rstat);
	assert_int_equal(m.npoints, 1);
	assert_int_equal(m.unpaired, 2);
	int pg = pl_markring_find(&m, "pages");
	assert_true(pg >= 0);
	size_t n = 0;
	for (size_t i = 0; i < m.nwins; i++)
		if ((int)m.wins[i].name == pg) {
			assert_true(m.wins[i].end > m.wins[i].begin);
			assert_null(pl_markring_reading(&m, m.wins[i].rb));
			n++;
		}
	assert_int_equal(n, 2);
	unsetenv(PL_MARK_ENV);
	pl_markring_free(&m);
}

/* An event the kernel refuses (a software event id it does not have): the open failure
 * is reported with the event's name and the reason, and no count is shown. */
static void test_refused(void **state)
{
	(void)state;
	skip_without_perf();
	struct pl_cnt_event ev[2] = { sw_event("page-faults", PERF_COUNT_SW_PAGE_FAULTS),
				      sw_event("bogus", 999) };
	struct pl_cnt_region_ring rr;
	assert_int_equal(pl_cnt_region_create(&rr, ev, 2, 0), 0);
	char out[256];
	assert_int_equal(run_prog(prog_path("REGION_PROG"), out, sizeof(out)), 0);
	struct pl_cnt_regions rs;
	assert_int_equal(pl_cnt_region_collect(&rr, &rs), 0);
	fprintf(stderr, "# %s\n", rs.why);
	assert_int_equal(rs.status, PL_CNT_REGION_OPEN_FAILED);
	assert_non_null(strstr(rs.why, "bogus"));
	assert_int_equal(rr.ring.hdr->open_failed, 1);
	assert_true(rr.ring.hdr->open_errno > 0);
	assert_non_null(strstr(rs.why, strerror(rr.ring.hdr->open_errno)));
	for (size_t i = 0; i < 2; i++) {
		const struct pl_cnt_value *v = val(&rs, "pages", i);
		assert_false(v->supported);
		assert_int_equal(v->raw, 0);
		assert_non_null(strstr(v->why, "could not count"));
	}
	assert_int_equal(pl_cnt_regions_find(&rs, "pages")->unread, 2);
	pl_cnt_regions_free(&rs);
	pl_cnt_region_ring_free(&rr);
}

/* Bad arguments: too many events, none a region can count, a ring size not a power of
 * two. */
static void test_create_errors(void **state)
{
	(void)state;
	struct pl_cnt_event ev[PL_MARK_COUNTERS_MAX + 1];
	for (size_t i = 0; i < PL_MARK_COUNTERS_MAX + 1; i++)
		ev[i] = sw_event("page-faults", PERF_COUNT_SW_PAGE_FAULTS);
	struct pl_cnt_region_ring rr;
	assert_int_equal(pl_cnt_region_create(&rr, ev, PL_MARK_COUNTERS_MAX + 1, 0), -E2BIG);
	assert_int_equal(pl_cnt_region_create(&rr, ev, 2, 1000), -EINVAL);
	ev[0].per_pkg = true;
	ev[1].source = PL_CNT_POWERCAP;
	assert_int_equal(pl_cnt_region_create(&rr, ev, 2, 0), -EINVAL);
	assert_null(getenv(PL_MARK_ENV));
	/* the system-wide one is in the result, never counted */
	assert_int_equal(pl_cnt_region_create(&rr, ev, 3, 1u << 10), 0);
	assert_int_equal(rr.ring.hdr->ncounters, 1);
	assert_int_equal(rr.slot[0], -1);
	assert_int_equal(rr.slot[1], -1);
	assert_int_equal(rr.slot[2], 0);
	pl_cnt_region_ring_free(&rr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_v1_library),
		cmocka_unit_test(test_ring_without_counters),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_create_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
