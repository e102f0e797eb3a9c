/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench syscall: ns per call of cheap system calls, the kernel entry/exit cost that
 * speculative-execution mitigations (PTI, retpolines, IBRS...) and hypervisors change.
 * Each metric is a timed loop of one call, elapsed CLOCK_MONOTONIC / calls, as in
 * `perf bench syscall basic` (getppid) and stress-ng's syscall stressor. */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench/bench.h"
#include "util/str.h"

struct syscall_opts {
	double batch;
	uint64_t calls;
};

static const struct syscall_opts syscall_defaults = { .batch = 0.04 };

static const struct pl_opt syscall_opt_table[] = {
	{ "batch", 0, PL_OPT_DURATION, offsetof(struct syscall_opts, batch), "S",
	  "length of one timed loop of calls per metric and run", .min = 0.0001, .max = 60,
	  .def = "40ms" },
	{ "calls", 0, PL_OPT_U64, offsetof(struct syscall_opts, calls), "N",
	  "calls per timed loop instead of --batch", .min = 1, .max = 1e12 },
	PL_OPT_END,
};

/* The files the loops use, opened in setup. */
struct syscall_state {
	int zero_fd;
	uint32_t futex_word;
	uint64_t iters[8];
	int metric[8];
};

PL_BENCH_TIMED_LOOP(loop_getppid, acc += (uint64_t)syscall(SYS_getppid))
PL_BENCH_TIMED_LOOP(loop_read, struct syscall_state *s = arg; char c;
		    acc += (uint64_t)read(s->zero_fd, &c, 1))
PL_BENCH_TIMED_LOOP(loop_open_close, int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		    acc += (uint64_t)fd; if (fd >= 0) close(fd))
PL_BENCH_TIMED_LOOP(loop_futex, struct syscall_state *s = arg;
		    acc += (uint64_t)syscall(SYS_futex, &s->futex_word, FUTEX_WAKE_PRIVATE, 1, NULL,
					     NULL, 0))
PL_BENCH_TIMED_LOOP(loop_yield, acc += (uint64_t)sched_yield())

static const struct {
	const char *name;
	pl_bench_loop_fn loop;
	const char *help;
} calls[] = {
	{ "getppid", loop_getppid, "syscall(SYS_getppid): a raw system call, no libc caching" },
	{ "read 1 B /dev/zero", loop_read, "read(2) of one byte from /dev/zero" },
	{ "open+close /dev/null", loop_open_close, "open(2) with path lookup, then close(2)" },
	{ "futex wake (no waiter)", loop_futex, "FUTEX_WAKE_PRIVATE on a word nobody waits on" },
	{ "sched_yield", loop_yield,
	  "sched_yield(2); includes other tasks' time when one is runnable on the CPU" },
};
#define NCALLS (sizeof(calls) / sizeof(calls[0]))

static int syscall_setup(struct pl_bench_ctx *ctx, void *vo, void **out)
{
	struct syscall_opts *o = vo;
	struct syscall_state *s = pl_xcalloc(1, sizeof(*s));
	s->zero_fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	if (s->zero_fd < 0) {
		int e = errno;
		pl_bench_error(ctx, "cannot open /dev/zero: %s", strerror(e));
		free(s);
		return -e;
	}
	uint64_t target = (uint64_t)(o->batch * 1e9);
	for (size_t i = 0; i < NCALLS; i++) {
		s->metric[i] = pl_bench_metric(ctx, calls[i].name, "ns", PL_LOWER_IS_BETTER,
					       calls[i].help);
		s->iters[i] = o->calls ? o->calls : pl_bench_calibrate(calls[i].loop, s, target);
	}
	*out = s;
	return 0;
}

static int syscall_run(struct pl_bench_ctx *ctx, void *vo, void *vs)
{
	(void)vo;
	struct syscall_state *s = vs;
	for (size_t i = 0; i < NCALLS; i++) {
		if (pl_bench_stopped(ctx))
			return -EINTR;
		uint64_t t = calls[i].loop(s, s->iters[i]);
		pl_bench_record(ctx, s->metric[i], (double)t / (double)s->iters[i]);
	}
	return 0;
}

static void syscall_teardown(struct pl_bench_ctx *ctx, void *vo, void *vs)
{
	(void)ctx;
	(void)vo;
	struct syscall_state *s = vs;
	close(s->zero_fd);
	free(s);
}

static const char *const syscall_quick[] = {
	"--runs", "3", "--warmup", "1", "--batch", "5ms", NULL
};

/* The metrics the report's key numbers read (report/keynums.c): --precision waits
 * for them. */
static const char *const syscall_headline[] = { "getppid", NULL };

const struct pl_bench pl_bench_syscall = {
	.name = "syscall",
	.summary = "ns per call of getppid, 1-byte read, open+close, futex wake, sched_yield",
	.description = "The kernel entry and exit cost that mitigations and hypervisors change.\n"
		       "Each metric is a timed loop of one call (--batch long, or --calls N),\n"
		       "elapsed CLOCK_MONOTONIC / calls; getppid is the call `perf bench syscall\n"
		       "basic` times. Compare with `perflab bench clock`'s [syscall] rows.",
	.opts = syscall_opt_table,
	.opts_size = sizeof(struct syscall_opts),
	.opts_defaults = &syscall_defaults,
	.default_runs = 5,
	.default_warmup = 1,
	.quick_argv = syscall_quick,
	.in_report = true,
	.headline = syscall_headline,
	.setup = syscall_setup,
	.run = syscall_run,
	.teardown = syscall_teardown,
};
