/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench spin: a fixed CPU-bound workload (pl_spin_work in spin.h), ns per run. It checks
 * the harness itself: measured with --runs 1000 at about 1 ms per run it must report what
 * the same loop costs outside perflab (benchmarks/harness-overhead.sh). It is also the
 * smallest example of a benchmark: one option table, no teardown. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench/bench.h"
#include "bench/spin.h"
#include "bench/splitmix.h"
#include "util/testhook.h"

struct spin_opts {
	double work;	/* seconds per run when iters is 0 */
	uint64_t iters; /* loop steps per run, 0 = calibrate to --work */
};

static const struct spin_opts spin_defaults = { .work = 0.001 };

static const struct pl_opt spin_opt_table[] = {
	{ "work", 0, PL_OPT_DURATION, offsetof(struct spin_opts, work), "S",
	  "length of one run's workload (calibrated)", .min = 1e-6, .max = 60, .def = "1ms" },
	{ "iters", 0, PL_OPT_U64, offsetof(struct spin_opts, iters), "N",
	  "exact loop steps per run instead of --work", .min = 1, .max = 1e15 },
	PL_OPT_END,
};

static uint64_t spin_loop(void *arg, uint64_t n)
{
	(void)arg;
	uint64_t t0 = pl_now_ns();
	pl_bench_sink = pl_spin_work(n, t0);
	return pl_now_ns() - t0;
}

struct spin_state {
	uint64_t iters;
	int m;
	/* test hook PERFLAB_TEST_SPIN_SERIES="NOISE:SLOW[:SETUP_MS]" (test builds only,
	 * util/testhook.h): each measured run records a synthetic 1 ms +- NOISE% (uniform,
	 * seeded, so the series is the same every time) instead of its time, the first SLOW
	 * measured runs 3 ms, and setup sleeps SETUP_MS: the --precision tests' quiet, noisy
	 * and slow-starting series, and the report plan's benchmarks with a slow setup */
	bool synth;
	double noise;
	unsigned slow, nrun;
	uint64_t seed;
};

static struct spin_state spin_st;

static int spin_setup(struct pl_bench_ctx *ctx, void *vo, void **out)
{
	struct spin_opts *o = vo;
	spin_st.iters = o->iters ? o->iters
				 : pl_bench_calibrate(spin_loop, NULL, (uint64_t)(o->work * 1e9));
	spin_st.m = pl_bench_metric(ctx, "run", "ns", PL_LOWER_IS_BETTER,
				    "one run of the workload, timed inside run()");
	json_object_set_new(pl_bench_info(ctx), "iters", json_integer((json_int_t)spin_st.iters));
	const char *series = PL_TEST_HOOK("PERFLAB_TEST_SPIN_SERIES");
	spin_st.synth = false;
	if (series) {
		char *end;
		spin_st.noise = strtod(series, &end) / 100;
		spin_st.slow = *end == ':' ? (unsigned)strtoul(end + 1, &end, 10) : 0;
		long setup_ms = *end == ':' ? strtol(end + 1, NULL, 10) : 0;
		if (setup_ms > 0)
			nanosleep(&(struct timespec){ setup_ms / 1000, setup_ms % 1000 * 1000000L },
				  NULL);
		spin_st.synth = isfinite(spin_st.noise);
		spin_st.nrun = 0;
		spin_st.seed = 42;
	}
	*out = &spin_st;
	return 0;
}

static int spin_run(struct pl_bench_ctx *ctx, void *vo, void *vs)
{
	(void)vo;
	struct spin_state *s = vs;
	double t = (double)spin_loop(NULL, s->iters);
	if (s->synth && !pl_bench_warming_up(ctx)) {
		double u = 2 * pl_splitmix_unit(&s->seed) - 1;
		t = 1e6 * (1 + s->noise * u) * (s->nrun++ < s->slow ? 3 : 1);
	}
	pl_bench_record(ctx, s->m, t);
	return 0;
}

static const char *const spin_quick[] = { "--runs", "20", "--warmup", "2", NULL };

const struct pl_bench pl_bench_spin = {
	.name = "spin",
	.summary = "a fixed CPU-bound loop, ns per run (checks the harness overhead)",
	.description = "A serial multiply-add chain of --iters steps (or calibrated to --work),\n"
		       "timed with CLOCK_MONOTONIC inside run(). Its true cost outside perflab is\n"
		       "measured by benchmarks/harness-overhead.sh with the same code (spin.h).",
	.opts = spin_opt_table,
	.opts_size = sizeof(struct spin_opts),
	.opts_defaults = &spin_defaults,
	.default_runs = 100,
	.default_warmup = 5,
	.quick_argv = spin_quick,
	.setup = spin_setup,
	.run = spin_run,
};
