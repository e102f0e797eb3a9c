/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests of the bench area: the latency histogram, /proc/stat parsing, the option
 * tables of every registered benchmark, calibration. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bench/bench.h"
#include "bench/freq.h"
#include "bench/internal.h"
#include "bench/mem/memlat.h"
#include "bench/mem/memsize.h"
#include "report/bench_plan.h"
#include "bench/env.h"
#include "bench/mem/stream.h"
#include "bench/ticks.h"
#include "cli/common.h"
#include "stats/hist.h"
#include "stats/summary.h"
#include "util/str.h"

/* xorshift64*: deterministic pseudo-random values for the histogram tests */
static uint64_t rng_state = 88172645463325252ull;
static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ull;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static void test_hist_exact_small(void **state)
{
	(void)state;
	struct pl_hist h;
	assert_int_equal(pl_hist_init(&h, 8), 0);
	/* values below 2^bits are exact */
	for (uint64_t v = 1; v <= 100; v++)
		pl_hist_record(&h, v);
	assert_int_equal(h.n, 100);
	assert_true(pl_hist_quantile(&h, 0.5) == 50.0);
	assert_true(pl_hist_quantile(&h, 0.99) == 99.0);
	assert_true(pl_hist_quantile(&h, 0.0) == 1.0);
	assert_true(pl_hist_quantile(&h, 1.0) == 100.0);
	assert_true(fabs(pl_hist_mean(&h) - 50.5) < 1e-12);
	pl_hist_free(&h);
}

static void test_hist_index_layout(void **state)
{
	(void)state;
	struct pl_hist h;
	for (unsigned bits = 1; bits <= 16; bits += 3) {
		assert_int_equal(pl_hist_init(&h, bits), 0);
		uint64_t lo, hi, prev_hi = 0;
		size_t prev = 0;
		/* bounds contain the value; neighbouring buckets tile without gaps; the width is
		 * at most 2^-(bits-1) of the lower bound */
		uint64_t probes[] = { 0,
				      1,
				      2,
				      3,
				      255,
				      256,
				      257,
				      1000,
				      65535,
				      65536,
				      1u << 31,
				      UINT64_C(1) << 40,
				      UINT64_MAX / 3,
				      UINT64_MAX - 1,
				      UINT64_MAX };
		for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
			uint64_t v = probes[i];
			size_t idx = pl_hist_index(&h, v, &lo, &hi);
			assert_true(idx < h.nbuckets);
			assert_true(lo <= v && v <= hi);
			if (lo > 0)
				assert_true((double)(hi - lo + 1) <=
					    ldexp((double)lo, -(int)(bits - 1)) + 1);
			assert_true(i == 0 || idx >= prev);
			prev = idx;
		}
		/* the bucket after [lo, hi] starts at hi + 1 */
		for (uint64_t v = 1; v < 100000; v = v * 3 + 1) {
			size_t i1 = pl_hist_index(&h, v, &lo, &hi);
			uint64_t lo2, hi2;
			size_t i2 = pl_hist_index(&h, hi + 1, &lo2, &hi2);
			assert_int_equal(i2, i1 + 1);
			assert_true(lo2 == hi + 1);
			(void)prev_hi;
		}
		assert_int_equal(pl_hist_index(&h, UINT64_MAX, NULL, NULL), h.nbuckets - 1);
		pl_hist_free(&h);
	}
	assert_int_equal(pl_hist_init(&h, 17), -EINVAL);
}

/* Quantiles of 200k log-uniform values (1 ns .. 10 s) within the bound 2^-bits of the
 * exact order statistic. */
static void test_hist_relative_error(void **state)
{
	(void)state;
	const size_t n = 200000;
	uint64_t *v = malloc(n * sizeof(uint64_t));
	struct pl_hist h;
	assert_int_equal(pl_hist_init(&h, 0), 0);
	assert_int_equal(h.bits, PL_HIST_BITS);
	for (size_t i = 0; i < n; i++) {
		double e = (double)(rnd() >> 11) / 9007199254740992.0 * 10.0 * log(10.0);
		v[i] = (uint64_t)exp(e);
		pl_hist_record(&h, v[i]);
	}
	qsort(v, n, sizeof(uint64_t), cmp_u64);
	const double qs[] = { 0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 0.9999 };
	double bound = ldexp(1.0, -(int)h.bits);
	for (size_t k = 0; k < sizeof(qs) / sizeof(qs[0]); k++) {
		size_t rank = (size_t)ceil(qs[k] * (double)n);
		double exact = (double)v[rank - 1];
		double got = pl_hist_quantile(&h, qs[k]);
		double rel = fabs(got - exact) / exact;
		if (rel > bound)
			fail_msg("q=%g exact %g got %g rel %g > %g", qs[k], exact, got, rel, bound);
	}
	assert_true(pl_hist_quantile(&h, 1.0) == (double)v[n - 1]);
	assert_true(pl_hist_quantile(&h, 0.0) == (double)v[0]);
	json_t *j = pl_hist_to_json(&h);
	assert_int_equal(json_integer_value(json_object_get(j, "n")), (json_int_t)n);
	assert_non_null(json_object_get(j, "p99.9"));
	assert_true(json_real_value(json_object_get(j, "relative_error")) == bound);
	json_decref(j);
	pl_hist_free(&h);
	free(v);
}

static void test_hist_merge_reset(void **state)
{
	(void)state;
	struct pl_hist a, b, c;
	pl_hist_init(&a, 8);
	pl_hist_init(&b, 8);
	pl_hist_init(&c, 6);
	pl_hist_record_n(&a, 1000, 90);
	pl_hist_record_n(&b, 1000000, 10);
	pl_hist_record_n(&b, 5, 0); /* count 0 changes nothing */
	assert_int_equal(pl_hist_merge(&a, &b), 0);
	assert_int_equal(a.n, 100);
	assert_int_equal(a.min, 1000);
	assert_int_equal(a.max, 1000000);
	/* p90 is the 90th value: 1000; p91 the first of the large ones */
	assert_true(fabs(pl_hist_quantile(&a, 0.90) - 1000) <= 1000 * ldexp(1, -8));
	assert_true(fabs(pl_hist_quantile(&a, 0.91) - 1e6) <= 1e6 * ldexp(1, -8));
	assert_int_equal(pl_hist_merge(&a, &c), -EINVAL);
	pl_hist_reset(&a);
	assert_int_equal(a.n, 0);
	assert_true(isnan(pl_hist_quantile(&a, 0.5)));
	assert_true(isnan(pl_hist_mean(&a)));
	json_t *j = pl_hist_to_json(&a);
	assert_true(json_is_null(json_object_get(j, "p50")));
	json_decref(j);
	pl_hist_free(&a);
	pl_hist_free(&b);
	pl_hist_free(&c);
	pl_hist_free(NULL);
}

static void test_cpustat(void **state)
{
	(void)state;
	const char *text = "cpu  300 30 200 4000 10 0 7 50 0 0\n"
			   "cpu0 100 10 100 2000 5 0 3 20 0 0\n"
			   "cpu1 200 20 100 2000 5 0 4 30 7 0\n"
			   "cpu3 1 1 1 1 1 1 1 1 1 1\n"
			   "intr 12345 0 0\n";
	struct pl_cpuset set;
	pl_cpuset_parse("1", &set);
	struct pl_cpustat s;
	assert_int_equal(pl_cpustat_parse(text, &set, &s), 0);
	assert_int_equal(s.ncpus, 1);
	assert_int_equal(s.busy, 200 + 20 + 100 + 0 + 4);
	assert_int_equal(s.steal, 30);
	assert_int_equal(s.total, 200 + 20 + 100 + 2000 + 5 + 0 + 4 + 30);
	pl_cpuset_parse("0-1", &set);
	assert_int_equal(pl_cpustat_parse(text, &set, &s), 0);
	assert_int_equal(s.ncpus, 2);
	assert_int_equal(s.steal, 50);
	pl_cpuset_parse("2", &set); /* offline: no row */
	assert_int_equal(pl_cpustat_parse(text, &set, &s), -ENOENT);
	assert_int_equal(pl_cpustat_parse("intr 1 2 3\n", &set, &s), -EINVAL);
	/* a repeated row counts once; a signed or overflowing row is not a row (found by
	 * tests/fuzz procstat: sscanf read "-300" as 2^64-300) */
	pl_cpuset_parse("0", &set);
	assert_int_equal(pl_cpustat_parse("cpu0 1 2 3 4 0 0 0 0\ncpu0 1 2 3 4 0 0 0 0\n", &set, &s),
			 0);
	assert_int_equal(s.ncpus, 1);
	assert_int_equal(s.total, 10);
	assert_int_equal(pl_cpustat_parse("cpu0 1 2 -300 4 0 0 0 0\n", &set, &s), -EINVAL);
	assert_int_equal(pl_cpustat_parse("cpu0 99999999999999999999 2 3 4\n", &set, &s), -EINVAL);
	/* a row whose sum overflows is ignored: no usable row for the CPU */
	assert_int_equal(pl_cpustat_parse("cpu0 18446744073709551615 2 3 4\n", &set, &s), -ENOENT);

	/* others' share: 2 CPUs x 100 ticks, 150 busy of which our process used 1 s = 100
	 * ticks at USER_HZ 100 -> 50 ticks of others = 25% */
	struct pl_env_snap a = { .stat_ok = true, .loadavg1 = 1, .own_cpu_s = 0 };
	struct pl_env_snap b = a;
	b.stat.total = 200;
	b.stat.busy = 150;
	b.stat.steal = 10;
	long hz = sysconf(_SC_CLK_TCK);
	b.own_cpu_s = 100.0 / (double)hz;
	struct pl_env_during d;
	pl_env_during(&a, &b, &d);
	assert_true(fabs(d.others_busy_pct - 25) < 1e-9);
	assert_true(fabs(d.steal_pct - 5) < 1e-9);
	b.stat_ok = false;
	pl_env_during(&a, &b, &d);
	assert_true(isnan(d.steal_pct));
}

/* Every benchmark: name and summary set; option names unique and not shadowing runner or
 * global options; offsets inside the options struct; defaults inside the declared range;
 * quick_argv parses. */
static void test_option_tables(void **state)
{
	(void)state;
	assert_true(pl_nbenches >= 1);
	for (size_t i = 0; i < pl_nbenches; i++) {
		const struct pl_bench *b = pl_benches[i];
		assert_non_null(b->name);
		assert_non_null(b->summary);
		assert_non_null(b->run);
		assert_ptr_equal(pl_bench_find(b->name), b);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(pl_benches[j]->name, b->name);
		for (const struct pl_opt *o = b->opts; o && o->name; o++) {
			if (!o->help || !*o->help)
				fail_msg("%s --%s has no help", b->name, o->name);
			size_t sz = o->type == PL_OPT_U64 || o->type == PL_OPT_SIZE	     ? 8
				    : o->type == PL_OPT_DOUBLE || o->type == PL_OPT_DURATION ? 8
				    : o->type == PL_OPT_FLAG				     ? 1
				    : o->type == PL_OPT_INT || o->type == PL_OPT_ENUM ||
						    o->type == PL_OPT_COUNT
					    ? 4
					    : sizeof(void *);
			if (o->off + sz > b->opts_size)
				fail_msg("%s --%s: offset outside the options struct", b->name,
					 o->name);
			for (const struct pl_opt *p = o + 1; p->name; p++) {
				assert_string_not_equal(o->name, p->name);
				if (o->short_name)
					assert_int_not_equal(o->short_name, p->short_name);
			}
			const struct pl_opt *shared[] = { pl_bench_runner_opts, pl_global_opts };
			for (size_t t = 0; t < 2; t++)
				for (const struct pl_opt *p = shared[t]; p->name; p++) {
					if (strcmp(o->name, p->name) == 0)
						fail_msg("%s --%s shadows a shared option", b->name,
							 o->name);
					if (o->short_name && o->short_name == p->short_name)
						fail_msg("%s -%c shadows a shared option", b->name,
							 o->short_name);
				}
			if (o->max > o->min && b->opts_defaults) {
				const char *p = (const char *)b->opts_defaults + o->off;
				double v = NAN;
				if (o->type == PL_OPT_DOUBLE || o->type == PL_OPT_DURATION)
					v = *(const double *)p;
				else if (o->type == PL_OPT_INT)
					v = *(const int *)p;
				/* 0 or -1 in the defaults means "not given": automatic */
				if (!isnan(v) && v != 0 && v != -1 && (v < o->min || v > o->max))
					fail_msg("%s --%s default %g outside [%g, %g]", b->name,
						 o->name, v, o->min, o->max);
			}
			if (o->type == PL_OPT_ENUM)
				assert_non_null(o->choices);
		}
		if (b->quick_argv) {
			void *opts = calloc(1, b->opts_size ? b->opts_size : 1);
			int runs = 0;
			struct pl_optset sets[2] = { { b->opts, opts, "x" },
						     { pl_bench_runner_opts, calloc(1, 256),
						       "r" } };
			int argc = 1;
			char *argv[32] = { "bench" };
			for (const char *const *p = b->quick_argv; *p; p++)
				argv[argc++] = (char *)*p;
			struct pl_args a;
			if (pl_opt_parse(argc, argv, sets, 2, b->name, &a) != 0)
				fail_msg("%s: quick_argv does not parse", b->name);
			assert_int_equal(a.npos, 0);
			pl_args_free(&a);
			(void)runs;
			free(sets[1].base);
			free(opts);
		}
	}
	assert_null(pl_bench_find("nonexistent"));
}

static uint64_t spin_loop(void *arg, uint64_t n)
{
	volatile uint64_t *x = arg;
	uint64_t t0 = pl_now_ns();
	for (uint64_t i = 0; i < n; i++)
		*x += i;
	return pl_now_ns() - t0;
}

static void test_calibrate(void **state)
{
	(void)state;
	volatile uint64_t x = 0;
	uint64_t n1 = 0, n20 = 0;
	/* 20x the target gives many more iterations (4x leaves room for a noisy machine).
	 * A preemption during one calibration can break that on a loaded machine, so the
	 * check passes when one of three attempts holds; a broken calibration fails all. */
	for (int attempt = 0; attempt < 3; attempt++) {
		n1 = pl_bench_calibrate(spin_loop, (void *)&x, 1000 * 1000);
		n20 = pl_bench_calibrate(spin_loop, (void *)&x, 20 * 1000 * 1000);
		assert_true(n1 >= 1);
		if (n20 >= 4 * n1)
			break;
	}
	if (n20 < 4 * n1)
		fail_msg("calibrate: %llu iterations for 1 ms, %llu for 20 ms",
			 (unsigned long long)n1, (unsigned long long)n20);
}

static char *fixture(const char *name)
{
	const char *src = getenv("PERFLAB_SRCDIR");
	char path[1024];
	snprintf(path, sizeof(path), "%s/tests/bench/fixtures/%s", src ? src : ".", name);
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open fixture %s", path);
	char *buf = calloc(1, 1 << 16);
	size_t n = fread(buf, 1, (1 << 16) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_irq_parse(void **state)
{
	(void)state;
	struct pl_irq_counts c;
	char *t = fixture("interrupts-x86-offline-cpu1.txt");
	/* columns are CPU0, CPU2, CPU3: CPU1 is offline, CPU3 is the third column */
	assert_int_equal(pl_irq_parse(t, 3, &c), 0);
	assert_int_equal(c.timer, 987654);
	assert_string_equal(c.timer_row, "LOC");
	/* every row with a column per CPU: 0 + 1 + 0 + 10311 + 13 + 987654 + 0 + 90211 */
	assert_int_equal(c.total, 1 + 10311 + 13 + 987654 + 90211);
	assert_int_equal(pl_irq_parse(t, 2, &c), 0);
	assert_int_equal(c.timer, 1012);
	assert_int_equal(pl_irq_parse(t, 0, &c), 0);
	assert_int_equal(c.timer, 4013221);
	assert_int_equal(pl_irq_parse(t, 1, &c), -ENOENT);
	assert_int_equal(pl_irq_parse(t, 4, &c), -ENOENT);
	free(t);

	t = fixture("interrupts-arm64-4cpu.txt");
	assert_int_equal(pl_irq_parse(t, 1, &c), 0);
	assert_int_equal(c.timer, 118935); /* arch_timer only, not "kvm guest vtimer" */
	assert_string_equal(c.timer_row, "arch_timer");
	assert_int_equal(c.total, 118935 + 0 + 0 + 0 + 2911 + 31 + 0);
	free(t);

	t = fixture("interrupts-kvm-2cpu.txt"); /* this VM, as captured */
	assert_int_equal(pl_irq_parse(t, 1, &c), 0);
	assert_string_equal(c.timer_row, "LOC");
	assert_true(c.timer > 0 && c.total > c.timer);
	free(t);

	t = fixture("interrupts-no-timer.txt");
	assert_int_equal(pl_irq_parse(t, 0, &c), -ENOENT);
	free(t);
	t = fixture("interrupts-garbage.txt");
	assert_int_equal(pl_irq_parse(t, 0, &c), -EINVAL);
	free(t);
	assert_int_equal(pl_irq_parse("", 0, &c), -EINVAL);
}

static void test_isolation_cpus(void **state)
{
	(void)state;
	struct pl_cpuset s;
	char buf[64];
	assert_int_equal(pl_isolation_cpus("2-3,6", 8, &s), 0);
	assert_string_equal(pl_cpuset_format(&s, buf, sizeof(buf)), "2-3,6");
	assert_int_equal(pl_isolation_cpus("nohz,domain,managed_irq,1-2", 8, &s), 0);
	assert_string_equal(pl_cpuset_format(&s, buf, sizeof(buf)), "1-2");
	assert_int_equal(pl_isolation_cpus("all", 4, &s), 0);
	assert_string_equal(pl_cpuset_format(&s, buf, sizeof(buf)), "0-3");
	assert_int_equal(pl_isolation_cpus(NULL, 4, &s), 0);
	assert_int_equal(pl_cpuset_count(&s), 0);
	assert_int_equal(pl_isolation_cpus("3-1", 4, &s), -EINVAL);
}

/* STREAM: the kernels give the values the expected-value tracker predicts, validation
 * passes; one wrong element fails it and names the array. */
static void test_stream_validation(void **state)
{
	(void)state;
	const size_t n = 1003; /* not a multiple of the vector width: head and tail paths */
	double *a = aligned_alloc(64, 1024 * sizeof(double));
	double *b = aligned_alloc(64, 1024 * sizeof(double));
	double *c = aligned_alloc(64, 1024 * sizeof(double));
	struct pl_stream_expect e;
	pl_stream_expect_init(&e);
	pl_stream_init(a, b, c, 0, n);
	for (int iter = 0; iter < 10; iter++)
		for (int nt = 0; nt < 2; nt++)
			for (int op = 0; op < PL_STREAM_NOPS; op++) {
				/* two parts as two threads would, the second starting unaligned */
				double s1 = pl_stream_kernel(op, nt, a, b, c, 0, 501);
				double s2 = pl_stream_kernel(op, nt, a, b, c, 501, n);
				pl_stream_expect_apply(&e, op);
				if (op == PL_STREAM_SUM)
					assert_int_equal(pl_stream_check_sum(s1 + s2, n, &e), 0);
			}
	/* after 20 STREAM iterations the values are large: STREAM's own check */
	assert_true(e.a > 1e10);
	double err[3] = { 0, 0, 0 };
	char msg[256];
	pl_stream_err_sums(a, b, c, 0, n, &e, err);
	assert_int_equal(pl_stream_verdict(err, n, &e, PL_STREAM_EPSILON, msg, sizeof(msg)), 0);
	assert_int_equal(pl_stream_check_sum((double)n * e.a * 1.01, n, &e), -EDOM);

	b[700] *= 1.5;
	memset(err, 0, sizeof(err));
	pl_stream_err_sums(a, b, c, 0, n, &e, err);
	assert_int_equal(pl_stream_verdict(err, n, &e, PL_STREAM_EPSILON, msg, sizeof(msg)), -EDOM);
	assert_non_null(strstr(msg, "array b"));
	/* byte counting as STREAM's */
	assert_int_equal(pl_stream_bytes[PL_STREAM_COPY], 16);
	assert_int_equal(pl_stream_bytes[PL_STREAM_TRIAD], 24);
	assert_int_equal(pl_stream_bytes[PL_STREAM_SUM], 8);
	assert_non_null(pl_stream_isa(false));
	free(a);
	free(b);
	free(c);
}

/* The read-only sum adds in the documented order (32 lanes, pairwise, then the tail),
 * bit for bit, in every variant this CPU runs; on data where the order shows, the
 * result differs from a left-to-right sum, so an in-order kernel would fail here. */
static double sum_reference(const double *a, size_t lo, size_t hi)
{
	double lane[32] = { 0 }, tail = 0;
	size_t steps_end = lo + (hi - lo) / 32 * 32;
	for (size_t j = lo; j < hi; j++) {
		if (j < steps_end)
			lane[(j - lo) % 32] += a[j];
		else
			tail += a[j];
	}
	/* lane k += lane k + w for w = 16, 8, 4, 2, 1 */
	for (size_t w = 16; w > 0; w >>= 1)
		for (size_t k = 0; k < w; k++)
			lane[k] = lane[k] + lane[k + w];
	return lane[0] + tail;
}

static void test_stream_sum_order(void **state)
{
	(void)state;
	rng_state = 88172645463325252ull; /* the same data whatever ran before */
	const size_t n = 4099;		  /* 128 steps of 32 and a tail of 3 */
	double *a = malloc(n * sizeof(double));
	assert_non_null(a);
	/* magnitudes from 2^-20 to 2^20: rounding depends on the order of the additions */
	for (size_t j = 0; j < n; j++)
		a[j] = ldexp(1.0 + (double)(rnd() >> 11) / 9007199254740992.0,
			     (int)(rnd() % 41) - 20);
	double inorder = 0;
	for (size_t j = 1; j < n; j++)
		inorder += a[j];
	static const struct {
		size_t lo, hi;
	} ranges[] = { { 0, 4099 }, { 1, 4099 }, { 5, 37 }, { 7, 7 }, { 3, 34 }, { 0, 31 } };
	static const char *const isas[] = { "scalar", "sse2", "avx2", "avx512f" };
	unsigned ran = 0;
	for (size_t v = 0; v < sizeof(isas) / sizeof(isas[0]); v++) {
		double got;
		if (pl_stream_sum_variant(isas[v], a, 0, 1, &got) == -ENOTSUP) {
			print_message("# skipped: sum variant %s: not available on this CPU\n",
				      isas[v]);
			continue;
		}
		ran++;
		for (size_t r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++) {
			double want = sum_reference(a, ranges[r].lo, ranges[r].hi);
			assert_int_equal(
				pl_stream_sum_variant(isas[v], a, ranges[r].lo, ranges[r].hi, &got),
				0);
			assert_memory_equal(&got, &want, sizeof(double));
		}
	}
	assert_true(ran >= 1); /* scalar runs everywhere */
	/* the dispatched kernel is one of them, and the order is visible on this data */
	double got = pl_stream_kernel(PL_STREAM_SUM, false, a, NULL, NULL, 1, n);
	double want = sum_reference(a, 1, n);
	assert_memory_equal(&got, &want, sizeof(double));
	assert_true(got != inorder);
	assert_true(fabs(got - inorder) <= 1e-12 * fabs(inorder));
	assert_int_equal(pl_stream_sum_variant("avx3", a, 0, n, &got), -ENOTSUP);
	free(a);
}

/* Copy, Scale, Add and Triad: every variant this CPU runs gives the portable loops' bits,
 * on ranges with unaligned heads and tails shorter than a step, and only writes its
 * destination's [lo, hi); the dispatched kernel is one of them. */
static void test_stream_op_variants(void **state)
{
	(void)state;
	rng_state = 0x9e3779b97f4a7c15ull;
	const size_t n = 1031;
	double *in[3], *want[3], *got[3];
	/* 64-byte aligned arrays, as bench mem's: the streaming-store variants take their
	 * vector path only where all three arrays are aligned to the vector width */
	const size_t bytes = (n * sizeof(double) + 63) / 64 * 64;
	for (int k = 0; k < 3; k++) {
		in[k] = aligned_alloc(64, bytes);
		want[k] = aligned_alloc(64, bytes);
		got[k] = aligned_alloc(64, bytes);
		assert_non_null(in[k]);
		assert_non_null(want[k]);
		assert_non_null(got[k]);
		/* values whose products and sums round: a wrong order or an FMA shows */
		for (size_t j = 0; j < n; j++)
			in[k][j] = ldexp(1.0 + (double)(rnd() >> 11) / 9007199254740992.0,
					 (int)(rnd() % 21) - 10);
	}
	static const struct {
		size_t lo, hi;
	} ranges[] = { { 0, 1031 }, { 1, 1031 }, { 3, 18 }, { 5, 5 }, { 7, 20 }, { 16, 1024 } };
	static const char *const isas[] = { "scalar", "avx2", "nt-avx512", "nt-avx", "nt-sse2" };
	unsigned ran = 0;
	for (size_t v = 0; v < sizeof(isas) / sizeof(isas[0]); v++) {
		if (pl_stream_op_variant(isas[v], PL_STREAM_COPY, in[0], in[1], in[2], 0, 0) ==
		    -ENOTSUP) {
			print_message("# skipped: stream variant %s: not available on this CPU\n",
				      isas[v]);
			continue;
		}
		ran++;
		for (int op = PL_STREAM_COPY; op <= PL_STREAM_TRIAD; op++)
			for (size_t r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++) {
				size_t lo = ranges[r].lo, hi = ranges[r].hi;
				for (int k = 0; k < 3; k++)
					memcpy(got[k], in[k], n * sizeof(double));
				assert_int_equal(pl_stream_op_variant(isas[v], op, got[0], got[1],
								      got[2], lo, hi),
						 0);
				/* STREAM's expressions, element by element */
				for (int k = 0; k < 3; k++)
					memcpy(want[k], in[k], n * sizeof(double));
				for (size_t j = lo; j < hi; j++) {
					double *a = want[0], *b = want[1], *c = want[2];
					if (op == PL_STREAM_COPY)
						c[j] = a[j];
					else if (op == PL_STREAM_SCALE)
						b[j] = PL_STREAM_SCALAR * c[j];
					else if (op == PL_STREAM_ADD)
						c[j] = a[j] + b[j];
					else
						a[j] = b[j] + PL_STREAM_SCALAR * c[j];
				}
				for (int k = 0; k < 3; k++)
					assert_memory_equal(got[k], want[k], n * sizeof(double));
			}
	}
	assert_true(ran >= 1); /* scalar runs everywhere */
	for (int k = 0; k < 3; k++)
		memcpy(got[k], in[k], n * sizeof(double));
	pl_stream_kernel(PL_STREAM_TRIAD, false, got[0], got[1], got[2], 1, n);
	for (size_t j = 1; j < n; j++)
		assert_true(got[0][j] == in[1][j] + PL_STREAM_SCALAR * in[2][j]);
	assert_true(got[0][0] == in[0][0]);
	assert_int_equal(
		pl_stream_op_variant("avx3", PL_STREAM_TRIAD, got[0], got[1], got[2], 0, n),
		-ENOTSUP);
	assert_int_equal(
		pl_stream_op_variant("scalar", PL_STREAM_SUM, got[0], got[1], got[2], 0, n),
		-ENOTSUP);
	assert_string_equal(
		pl_stream_isa(false),
		pl_stream_op_variant("avx2", PL_STREAM_COPY, got[0], got[1], got[2], 0, 0) == 0
			? "avx2"
			: "default");
	assert_non_null(pl_stream_sum_isa());
	for (int k = 0; k < 3; k++) {
		free(in[k]);
		free(want[k]);
		free(got[k]);
	}
}

/* The pointer chase links every line into one cycle (Sattolo), for any size and seed,
 * and names levels by the smallest cache that holds the working set. */
static void test_chase(void **state)
{
	(void)state;
	static const size_t sizes[] = { 128, 4096, 4096 + 64, 1 << 20 };
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (uint64_t seed = 1; seed <= 3; seed++) {
			struct pl_chase c;
			assert_int_equal(pl_chase_build(&c, sizes[i], -1, seed == 2, seed), 0);
			assert_int_equal(c.lines, sizes[i] / PL_CHASE_LINE);
			assert_true(pl_chase_is_one_cycle(&c));
			assert_true(pl_chase_run(&c, 1000) > 0);
			pl_chase_free(&c);
		}
	struct pl_chase c;
	assert_int_equal(pl_chase_build(&c, 64, -1, false, 1), -EINVAL);
	pl_chase_free(NULL);
	assert_string_equal(pl_chase_level(32768, 49152, 2 << 20, 32 << 20, 0), "L1");
	assert_string_equal(pl_chase_level(49152, 49152, 2 << 20, 32 << 20, 0), "L1");
	assert_string_equal(pl_chase_level(65536, 49152, 2 << 20, 32 << 20, 0), "L2");
	assert_string_equal(pl_chase_level(16 << 20, 49152, 2 << 20, 32 << 20, 0), "L3");
	assert_string_equal(pl_chase_level(64 << 20, 49152, 2 << 20, 32 << 20, 0), "DRAM");
	assert_string_equal(pl_chase_level(64 << 20, 49152, 2 << 20, 0, 0), "DRAM");
	assert_string_equal(pl_chase_level(4096, 0, 0, 0, 0), "unknown");
	/* a VM whose L3 fact (512 MiB) is likely the host's, 128 MiB taken as sure */
	assert_string_equal(pl_chase_level(128u << 20, 49152, 2 << 20, 512u << 20, 128u << 20),
			    "L3");
	assert_string_equal(pl_chase_level(256u << 20, 49152, 2 << 20, 512u << 20, 128u << 20),
			    "L3 or DRAM");
	assert_string_equal(pl_chase_level(1024u << 20, 49152, 2 << 20, 512u << 20, 128u << 20),
			    "DRAM");
}

/* bench freq's parsers: cpuinfo MHz per processor, sysfs event configs. */
static void test_freq_parsers(void **state)
{
	(void)state;
	const char *ci = "processor\t: 0\nmodel name\t: X\ncpu MHz\t\t: 2600.000\n\n"
			 "processor\t: 1\ncpu MHz\t\t: 3100.5\n\nprocessor\t: 2\n"
			 "cpu MHz\t\t: -1\n\nprocessor\t: 3\n";
	double mhz = 0;
	assert_int_equal(pl_freq_cpuinfo_mhz(ci, 0, &mhz), 0);
	assert_true(mhz == 2600.0);
	assert_int_equal(pl_freq_cpuinfo_mhz(ci, 1, &mhz), 0);
	assert_true(mhz == 3100.5);
	assert_int_equal(pl_freq_cpuinfo_mhz(ci, 2, &mhz), -EINVAL);
	assert_int_equal(pl_freq_cpuinfo_mhz(ci, 3, &mhz), -ENOENT);
	assert_int_equal(pl_freq_cpuinfo_mhz(ci, 9, &mhz), -ENOENT);
	uint64_t cfg = 0;
	assert_int_equal(pl_freq_event_config("event=0x02\n", &cfg), 0);
	assert_int_equal(cfg, 2);
	assert_int_equal(pl_freq_event_config("event=0x01,umask=0x3", &cfg), -EINVAL);
	assert_int_equal(pl_freq_event_config("umask=0x3", &cfg), -EINVAL);
	assert_int_equal(pl_freq_event_config("event=", &cfg), -EINVAL);
}

#define MIB ((uint64_t)1 << 20)
#define GIB ((uint64_t)1 << 30)

/* bench mem's default array size (memsize.h) on the machines it must handle */
static void test_mem_default_size(void **state)
{
	(void)state;
	struct pl_buf why = { 0 };
	/* this project's AMD EPYC KVM guest: hwloc reports the host's L3, 2 x 508 MiB for 2
	 * vCPUs, 23 GiB available; before the bound: 3.97 GiB arrays, 12 GiB in all */
	struct pl_mem_sizing vm = { .llc = 2 * 508 * MIB,
				    .level = 3,
				    .count = 2,
				    .src = "hwloc",
				    .cpus = 2,
				    .vm = true,
				    .avail = 23 * GIB };
	struct pl_mem_size s = pl_mem_default_size(&vm, &why);
	assert_true(s.llc_bounded);
	assert_false(s.mem_capped);
	assert_int_equal(s.llc_used, 128 * MIB);
	assert_int_equal(s.bytes, 512 * MIB);
	assert_non_null(strstr(why.data, "LLC reported 2 x L3 = 1016.00 MiB by hwloc, likely the "
					 "host's in a virtual machine; taken as 128.00 MiB = 2 "
					 "CPUs x 64.00 MiB"));
	pl_buf_free(&why);
	/* the same caches on bare metal are taken as they are (an EPYC with offline cores) */
	struct pl_mem_sizing metal = vm;
	metal.vm = false;
	s = pl_mem_default_size(&metal, &why);
	assert_false(s.llc_bounded);
	assert_int_equal(s.bytes, 4 * 1016 * MIB);
	assert_string_equal(why.data, "4x the total last-level cache (2 x L3 = 1016.00 MiB, from "
				      "hwloc)");
	pl_buf_free(&why);
	/* a VM with a plausible L3 (32 MiB shared by 2 vCPUs) keeps STREAM's 4x */
	struct pl_mem_sizing small = vm;
	small.llc = 32 * MIB;
	small.count = 1;
	s = pl_mem_default_size(&small, &why);
	assert_false(s.llc_bounded);
	assert_int_equal(s.bytes, 128 * MIB);
	pl_buf_free(&why);
	/* a huge L3 and little memory: the three arrays within 60% of MemAvailable */
	struct pl_mem_sizing tight = { .llc = 2 * 1152 * MIB,
				       .level = 3,
				       .count = 2,
				       .src = "hwloc",
				       .cpus = 384,
				       .avail = 2 * GIB };
	s = pl_mem_default_size(&tight, &why);
	assert_true(s.mem_capped);
	assert_false(s.llc_bounded);
	assert_true(3 * s.bytes <= (uint64_t)(0.6 * 2 * GIB));
	assert_true(3 * s.bytes > (uint64_t)(0.6 * 2 * GIB) - 3 * 4096);
	assert_int_equal(s.bytes % 4096, 0);
	assert_non_null(strstr(why.data, "capped so the three arrays take 60% of available memory "
					 "(2.00 GiB): below STREAM's 4x rule"));
	pl_buf_free(&why);
	/* both: the VM bound first, then memory */
	struct pl_mem_sizing both = vm;
	both.avail = 1 * GIB;
	s = pl_mem_default_size(&both, &why);
	assert_true(s.llc_bounded && s.mem_capped);
	assert_true(s.bytes < 512 * MIB);
	pl_buf_free(&why);
	/* unknown cache: 256 MiB; unknown CPU count: no VM bound */
	struct pl_mem_sizing none = { .vm = true, .avail = 23 * GIB };
	s = pl_mem_default_size(&none, &why);
	assert_int_equal(s.bytes, 256 * MIB);
	assert_string_equal(why.data, "256 MiB (the last-level cache size is unknown)");
	pl_buf_free(&why);
	struct pl_mem_sizing nocpus = vm;
	nocpus.cpus = 0;
	s = pl_mem_default_size(&nocpus, &why);
	assert_false(s.llc_bounded);
	pl_buf_free(&why);
}

/* the report's budget note names what took the time, longest first */
static void test_budget_cause(void **state)
{
	(void)state;
	struct pl_bench_plan p;
	assert_int_equal(pl_bench_plan_make(&p, PL_BENCH_MODE_DEFAULT, NULL), 0);
	assert_true(p.n >= 4);
	assert_string_equal(p.items[2].b->name, "mem");
	double secs[4] = { 6.2, 2.4, 141.3, 0.4 }; /* clock, syscall, mem, ticks */
	char *c = pl_bench_plan_budget_cause(&p, secs, 4, 150.3);
	assert_string_equal(c, "the report's time budget of 60 s was used up after 150 s (bench "
			       "mem took 141 s, bench clock 6 s, bench syscall 2 s)");
	free(c);
	c = pl_bench_plan_budget_cause(&p, secs, 0, 61);
	assert_string_equal(c, "the report's time budget of 60 s was used up after 61 s (no "
			       "benchmark ran yet)");
	free(c);
	assert_null(strstr(c = pl_bench_plan_budget_cause(&p, secs, 3, 150), "busy"));
	free(c);
	pl_bench_plan_free(&p);
}

/* bench ticks names a local timer rate well above this kernel's CONFIG_HZ (e.g.
 * 1398/s with HZ=250 while a 1 kHz cyclictest ran on that CPU) */
/* "best" is the maximum of a higher-is-better metric, the minimum of a lower-is-better one
 * and null for a metric with no direction (not its median). */
static void test_metric_best(void **state)
{
	(void)state;
	double v[] = { 2, 1, 3 };
	const enum pl_better dir[] = { PL_HIGHER_IS_BETTER, PL_LOWER_IS_BETTER, PL_NEITHER };
	for (int i = 0; i < 3; i++) {
		struct metric m = { .name = "x", .unit = "1", .better = dir[i], .v = v, .n = 3 };
		json_t *j = pl_bench_metric_json(&m, false);
		const json_t *best = json_object_get(j, "best");
		if (i == 2) {
			assert_true(json_is_null(best));
		} else {
			assert_true(json_is_number(best));
			assert_true(json_number_value(best) == (i == 0 ? 3 : 1));
		}
		assert_true(json_number_value(json_object_get(j, "median")) == 2);
		json_decref(j);
	}
}

static void test_ticks_hz_remark(void **state)
{
	(void)state;
	char *w = pl_ticks_hz_remark(1398, 250, 1);
	assert_non_null(w);
	assert_string_equal(w,
			    "local timer interrupts at 1398/s, 5.6x this kernel's CONFIG_HZ=250: "
			    "other timers fire on CPU 1 (high-resolution timers of other tasks, "
			    "e.g. a 1 kHz cyclictest), not only the tick");
	free(w);
	assert_null(pl_ticks_hz_remark(254.8, 250, 1)); /* about HZ */
	assert_null(pl_ticks_hz_remark(375, 250, 1));	/* 1.5x: within reach */
	assert_null(pl_ticks_hz_remark(1398, 0, 1));	/* HZ unknown */
	assert_null(pl_ticks_hz_remark(1.0, 1000, 3));	/* nohz_full */
	w = pl_ticks_hz_remark(376, 250, 0);
	assert_non_null(w);
	free(w);
}

/* bench net's table says "not pinned" for a CPU of -1 (not the raw
 * "client_cpu_pinned: -1"); the JSON keeps -1; a pinned CPU is its number */
static void test_table_not_pinned(void **state)
{
	(void)state;
	const char *src = getenv("PERFLAB_SRCDIR");
	char path[4096];
	snprintf(path, sizeof(path), "%s/tests/report/fixtures/bench-net.json", src ? src : ".");
	json_t *d = json_load_file(path, 0, NULL);
	assert_non_null(d);
	json_t *info = json_object_get(d, "info");
	assert_int_equal(json_integer_value(json_object_get(info, "client_cpu_pinned")), -1);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	pl_bench_print_table(f, d);
	fclose(f);
	assert_non_null(strstr(text, "\n  client_cpu_pinned: not pinned\n"));
	assert_non_null(strstr(text, "\n  server_cpu_pinned: not pinned\n"));
	assert_null(strstr(text, ": -1\n"));
	free(text);
	json_object_set_new(info, "client_cpu_pinned", json_integer(1));
	json_object_set_new(info, "server_cpu_pinned", json_integer(0));
	f = open_memstream(&text, &len);
	pl_bench_print_table(f, d);
	fclose(f);
	assert_non_null(strstr(text, "\n  client_cpu_pinned: 1\n"));
	assert_non_null(strstr(text, "\n  server_cpu_pinned: 0\n"));
	free(text);
	json_t *m1 = json_integer(-1), *zero = json_integer(0);
	const char *w = pl_bench_info_word("client_cpu_pinned", m1);
	assert_string_equal(w ? w : "(null)", "not pinned");
	assert_null(pl_bench_info_word("client_cpu_pinned", zero));
	assert_null(pl_bench_info_word("cpu", m1));
	json_decref(m1);
	json_decref(zero);
	json_decref(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hist_exact_small),
		cmocka_unit_test(test_hist_index_layout),
		cmocka_unit_test(test_hist_relative_error),
		cmocka_unit_test(test_hist_merge_reset),
		cmocka_unit_test(test_cpustat),
		cmocka_unit_test(test_option_tables),
		cmocka_unit_test(test_calibrate),
		cmocka_unit_test(test_irq_parse),
		cmocka_unit_test(test_isolation_cpus),
		cmocka_unit_test(test_stream_validation),
		cmocka_unit_test(test_stream_sum_order),
		cmocka_unit_test(test_stream_op_variants),
		cmocka_unit_test(test_chase),
		cmocka_unit_test(test_freq_parsers),
		cmocka_unit_test(test_mem_default_size),
		cmocka_unit_test(test_budget_cause),
		cmocka_unit_test(test_table_not_pinned),
		cmocka_unit_test(test_metric_best),
		cmocka_unit_test(test_ticks_hz_remark),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
