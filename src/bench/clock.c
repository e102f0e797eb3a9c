/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench clock: ns per call of the time functions, as the field report measured with a
 * plain loop of 10^8 gettimeofday() calls (benchmarks/seed-gettimeofday.c): each metric
 * is one timed loop of direct calls (no function pointer in the loop), elapsed
 * CLOCK_MONOTONIC / calls.
 *
 * Which calls went through the vDSO is decided exactly, not guessed from the timing: a
 * forked child installs a seccomp filter (libseccomp) that makes the clock_gettime,
 * gettimeofday and time system calls fail with ENOTRECOVERABLE, then calls each
 * function once. A call that still succeeds never entered the kernel (vDSO); one that
 * fails fell back to the system call, as every call does on the `xen` clocksource
 * (vclock mode none; Documentation/admin-guide/clocksource.rst, arch/x86/entry/vdso). */
#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "bench/bench.h"
#include "util/str.h"
#include "util/sysroot.h"

struct clock_opts {
	double batch;  /* seconds per timed loop of one metric */
	uint64_t calls; /* calls per timed loop, 0 = from --batch */
	bool all_clocksources;
	const char *only; /* comma-separated call names, NULL = all */
};

static const struct clock_opts clock_defaults = { .batch = 0.04 };

static const struct pl_opt clock_opt_table[] = {
	{ "batch", 0, PL_OPT_DURATION, offsetof(struct clock_opts, batch), "S",
	  "length of one timed loop of calls per metric and run", .min = 0.0001, .max = 60,
	  .def = "40ms" },
	{ "calls", 0, PL_OPT_U64, offsetof(struct clock_opts, calls), "N",
	  "calls per timed loop instead of --batch (e.g. 100000000 as the seed loop)", .min = 1,
	  .max = 1e12 },
	{ "only", 0, PL_OPT_STR, offsetof(struct clock_opts, only), "NAMES",
	  "measure only these calls, comma-separated (e.g. gettimeofday,rdtsc)" },
	{ "all-clocksources", 0, PL_OPT_FLAG, offsetof(struct clock_opts, all_clocksources), NULL,
	  "as root: measure under every available clocksource in turn, then restore the "
	  "original (also on SIGINT/SIGTERM and errors)" },
	PL_OPT_END,
};

#define TIMED_LOOP PL_BENCH_TIMED_LOOP

#define CG_LOOP(fn, clk)                                                                   \
	TIMED_LOOP(fn, struct timespec ts; clock_gettime(clk, &ts); acc += (uint64_t)ts.tv_nsec)

TIMED_LOOP(loop_gtod, struct timeval tv; gettimeofday(&tv, NULL); acc += (uint64_t)tv.tv_usec)
CG_LOOP(loop_realtime, CLOCK_REALTIME)
CG_LOOP(loop_monotonic, CLOCK_MONOTONIC)
CG_LOOP(loop_monotonic_raw, CLOCK_MONOTONIC_RAW)
CG_LOOP(loop_boottime, CLOCK_BOOTTIME)
CG_LOOP(loop_realtime_coarse, CLOCK_REALTIME_COARSE)
CG_LOOP(loop_monotonic_coarse, CLOCK_MONOTONIC_COARSE)
TIMED_LOOP(loop_time, acc += (uint64_t)time(NULL))
TIMED_LOOP(loop_gtod_sys, struct timeval tv; syscall(SYS_gettimeofday, &tv, NULL);
	   acc += (uint64_t)tv.tv_usec)
TIMED_LOOP(loop_monotonic_sys, struct timespec ts; syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	   acc += (uint64_t)ts.tv_nsec)
#if defined(__x86_64__) || defined(__i386__)
TIMED_LOOP(loop_rdtsc, acc += __rdtsc())
TIMED_LOOP(loop_rdtscp, unsigned aux; acc += __rdtscp(&aux))
#elif defined(__aarch64__)
static inline uint64_t cntvct(void)
{
	uint64_t v;
	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v));
	return v;
}
TIMED_LOOP(loop_cntvct, acc += cntvct())
#endif

/* How a call reaches the clock. */
enum via { VIA_PROBE, VIA_FORCED, VIA_INSN };

/* probe ids for the seccomp child */
enum probe { P_NONE = -1, P_GTOD, P_CLOCK, P_TIME };

struct call {
	const char *name;
	pl_bench_loop_fn loop;
	enum via via;
	enum probe probe;
	clockid_t clk; /* for P_CLOCK */
	const char *help;
};

static const struct call calls[] = {
	{ "gettimeofday", loop_gtod, VIA_PROBE, P_GTOD, 0, "the seed loop's call" },
	{ "clock_gettime(REALTIME)", loop_realtime, VIA_PROBE, P_CLOCK, CLOCK_REALTIME, NULL },
	{ "clock_gettime(MONOTONIC)", loop_monotonic, VIA_PROBE, P_CLOCK, CLOCK_MONOTONIC, NULL },
	{ "clock_gettime(MONOTONIC_RAW)", loop_monotonic_raw, VIA_PROBE, P_CLOCK,
	  CLOCK_MONOTONIC_RAW, NULL },
	{ "clock_gettime(BOOTTIME)", loop_boottime, VIA_PROBE, P_CLOCK, CLOCK_BOOTTIME, NULL },
	{ "clock_gettime(REALTIME_COARSE)", loop_realtime_coarse, VIA_PROBE, P_CLOCK,
	  CLOCK_REALTIME_COARSE, "tick resolution" },
	{ "clock_gettime(MONOTONIC_COARSE)", loop_monotonic_coarse, VIA_PROBE, P_CLOCK,
	  CLOCK_MONOTONIC_COARSE, "tick resolution" },
	{ "time()", loop_time, VIA_PROBE, P_TIME, 0, NULL },
	{ "gettimeofday [syscall]", loop_gtod_sys, VIA_FORCED, P_NONE, 0,
	  "syscall(SYS_gettimeofday): the cost without the vDSO" },
	{ "clock_gettime(MONOTONIC) [syscall]", loop_monotonic_sys, VIA_FORCED, P_NONE, 0,
	  "syscall(SYS_clock_gettime): the cost without the vDSO" },
#if defined(__x86_64__) || defined(__i386__)
	{ "rdtsc", loop_rdtsc, VIA_INSN, P_NONE, 0, "time stamp counter, no serialisation" },
	{ "rdtscp", loop_rdtscp, VIA_INSN, P_NONE, 0, "time stamp counter, waits for earlier "
						      "instructions" },
#elif defined(__aarch64__)
	{ "cntvct_el0", loop_cntvct, VIA_INSN, P_NONE, 0, "generic timer virtual count, after isb" },
#endif
};
#define NCALLS (sizeof(calls) / sizeof(calls[0]))

/* Run the vDSO probe: out[i] = 1 vDSO, 0 syscall, -1 unknown. Returns 0 or -errno (the
 * probe itself could not run: no seccomp, fork failed). */
static int probe_vdso(signed char out[NCALLS])
{
	int fd[2];
	if (pipe(fd) < 0)
		return -errno;
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(fd[0]);
		close(fd[1]);
		return -e;
	}
	if (pid == 0) {
		close(fd[0]);
		signed char res[NCALLS];
		memset(res, -1, sizeof(res));
		scmp_filter_ctx sc = seccomp_init(SCMP_ACT_ALLOW);
		int ok = sc != NULL;
		ok = ok && seccomp_rule_add(sc, SCMP_ACT_ERRNO(ENOTRECOVERABLE),
					    SCMP_SYS(clock_gettime), 0) == 0;
		ok = ok && seccomp_rule_add(sc, SCMP_ACT_ERRNO(ENOTRECOVERABLE),
					    SCMP_SYS(gettimeofday), 0) == 0;
		ok = ok && seccomp_rule_add(sc, SCMP_ACT_ERRNO(ENOTRECOVERABLE), SCMP_SYS(time),
					    0) == 0;
		ok = ok && seccomp_load(sc) == 0;
		if (ok) {
			for (size_t i = 0; i < NCALLS; i++) {
				struct timespec ts;
				struct timeval tv;
				switch (calls[i].probe) {
				case P_GTOD:
					res[i] = gettimeofday(&tv, NULL) == 0;
					break;
				case P_CLOCK:
					res[i] = clock_gettime(calls[i].clk, &ts) == 0;
					break;
				case P_TIME:
					res[i] = time(NULL) != (time_t)-1;
					break;
				case P_NONE:
					break;
				}
			}
		}
		ssize_t w = write(fd[1], res, ok ? sizeof(res) : 0);
		_exit(w == (ssize_t)sizeof(res) ? 0 : 1);
	}
	close(fd[1]);
	ssize_t got = 0;
	for (;;) {
		ssize_t r = read(fd[0], (char *)out + got, NCALLS - (size_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += r;
		if ((size_t)got == NCALLS)
			break;
	}
	close(fd[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return (size_t)got == NCALLS ? 0 : -ENOTSUP;
}

#define CS_DIR "/sys/devices/system/clocksource/clocksource0"

/* The original clocksource, restored by teardown() and, from a signal handler, by
 * restore_emergency() with async-signal-safe calls only. */
static char cs_path[512];
static char cs_orig[64];
static volatile sig_atomic_t cs_switched;

static void restore_emergency(void)
{
	if (!cs_switched)
		return;
	int fd = open(cs_path, O_WRONLY);
	if (fd >= 0) {
		ssize_t w = write(fd, cs_orig, strlen(cs_orig));
		(void)w;
		close(fd);
	}
}

static int write_clocksource(const char *name)
{
	int fd = open(cs_path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t w = write(fd, name, strlen(name));
	int e = w < 0 ? -errno : 0;
	close(fd);
	if (e == 0 && strcmp(name, cs_orig) != 0)
		cs_switched = 1;
	/* the vDSO data page follows at the next timekeeping update (one tick) */
	struct timespec d = { 0, 20 * 1000 * 1000 };
	nanosleep(&d, NULL);
	return e;
}

static void clock_teardown(struct pl_bench_ctx *ctx, void *vo, void *vs);

struct clock_state {
	bool skip[NCALLS]; /* not selected by --only */
	char **cs;        /* clocksources measured in turn; NULL = the current one only */
	size_t ncs;
	uint64_t *iters;  /* per (clocksource, call) */
	int *metric;      /* per (clocksource, call) */
};

/* With --all-clocksources: make the k-th clocksource current. */
static int switch_to(struct pl_bench_ctx *ctx, struct clock_state *s, size_t k)
{
	if (!s->cs)
		return 0;
	int r = write_clocksource(s->cs[k]);
	if (r < 0)
		pl_bench_error(ctx, "cannot switch to clocksource '%s': %s", s->cs[k], strerror(-r));
	return r;
}

static const char *via_text(signed char v)
{
	return v == 1 ? "vdso" : v == 0 ? "syscall" : "unknown";
}

static int clock_setup(struct pl_bench_ctx *ctx, void *vo, void **out)
{
	struct clock_opts *o = vo;
	if (o->all_clocksources && geteuid() != 0) {
		pl_bench_error(ctx, "--all-clocksources writes %s/current_clocksource and needs root "
				    "(run as root, or drop the option)",
			       CS_DIR);
		return -EINVAL;
	}
	struct clock_state *s = pl_xcalloc(1, sizeof(*s));
	if (o->only) {
		char **v = pl_split(o->only, ",", NULL);
		for (size_t i = 0; i < NCALLS; i++)
			s->skip[i] = true;
		for (char **p = v; *p; p++) {
			size_t i = 0;
			while (i < NCALLS && strcmp(calls[i].name, *p) != 0)
				i++;
			if (i == NCALLS) {
				struct pl_buf b = { 0 };
				for (size_t k = 0; k < NCALLS; k++)
					pl_buf_printf(&b, "%s%s", k ? ", " : "", calls[k].name);
				pl_bench_error(ctx, "--only: no call named '%s' (one of: %s)", *p, b.data);
				pl_buf_free(&b);
				pl_strv_free(v);
				free(s);
				return -EINVAL;
			}
			s->skip[i] = false;
		}
		pl_strv_free(v);
	}
	*out = s;
	char *cur = NULL;
	pl_read_str(CS_DIR "/current_clocksource", &cur);
	json_object_set_new(pl_bench_info(ctx), "clocksource", json_string(cur ? cur : "unknown"));
	if (o->all_clocksources) {
		char *avail = NULL;
		int r = pl_read_str(CS_DIR "/available_clocksource", &avail);
		char **v = r == 0 ? pl_split(avail, " \t", &s->ncs) : NULL;
		free(avail);
		if (!cur || s->ncs < 2) {
			pl_bench_note(ctx,
				      "--all-clocksources skipped: %s (measured under the current "
				      "clocksource only)",
				      !cur || r < 0 ? "the clocksource sysfs files are not readable"
						    : "only one clocksource is available");
			pl_strv_free(v);
			s->ncs = 0;
		} else {
			s->cs = v;
			pl_sysroot_path(cs_path, sizeof(cs_path), CS_DIR "/current_clocksource");
			snprintf(cs_orig, sizeof(cs_orig), "%s", cur);
			cs_switched = 0;
			pl_bench_set_emergency(restore_emergency);
		}
	}
	free(cur);
	size_t ncs = s->ncs ? s->ncs : 1;
	s->iters = pl_xcalloc(ncs * NCALLS, sizeof(uint64_t));
	s->metric = pl_xcalloc(ncs * NCALLS, sizeof(int));
	uint64_t target = (uint64_t)(o->batch * 1e9);
	int method_ok = 1;
	for (size_t k = 0; k < ncs; k++) {
		int r = switch_to(ctx, s, k);
		if (r < 0) {
			clock_teardown(ctx, vo, s);
			return r;
		}
		signed char via[NCALLS];
		memset(via, -1, sizeof(via));
		if (probe_vdso(via) < 0)
			method_ok = 0;
		for (size_t i = 0; i < NCALLS; i++) {
			if (s->skip[i])
				continue;
			char name[128];
			if (s->cs)
				snprintf(name, sizeof(name), "%s: %s", s->cs[k], calls[i].name);
			else
				snprintf(name, sizeof(name), "%s", calls[i].name);
			int m = pl_bench_metric(ctx, name, "ns", PL_LOWER_IS_BETTER, calls[i].help);
			s->metric[k * NCALLS + i] = m;
			const char *v = calls[i].via == VIA_FORCED  ? "syscall (forced)"
					: calls[i].via == VIA_INSN ? "instruction"
								   : via_text(via[i]);
			pl_bench_metric_note(ctx, m, "via", v);
			s->iters[k * NCALLS + i] =
				o->calls ? o->calls : pl_bench_calibrate(calls[i].loop, NULL, target);
		}
	}
	json_object_set_new(pl_bench_info(ctx), "vdso_detection",
			    json_string(method_ok ? "seccomp: syscalls made to fail in a child; "
						    "calls that still work used the vDSO"
						  : "unavailable (seccomp probe failed)"));
	return 0;
}

static int clock_run(struct pl_bench_ctx *ctx, void *vo, void *vs)
{
	(void)vo;
	struct clock_state *s = vs;
	size_t ncs = s->ncs ? s->ncs : 1;
	for (size_t k = 0; k < ncs; k++) {
		int r = switch_to(ctx, s, k);
		if (r < 0)
			return r;
		for (size_t i = 0; i < NCALLS; i++) {
			if (s->skip[i])
				continue;
			if (pl_bench_stopped(ctx))
				return -EINTR;
			uint64_t n = s->iters[k * NCALLS + i];
			uint64_t t = calls[i].loop(NULL, n);
			pl_bench_record(ctx, s->metric[k * NCALLS + i], (double)t / (double)n);
		}
	}
	return 0;
}

static void clock_teardown(struct pl_bench_ctx *ctx, void *vo, void *vs)
{
	(void)vo;
	struct clock_state *s = vs;
	if (s->cs && cs_switched) {
		int r = write_clocksource(cs_orig);
		if (r < 0)
			pl_bench_warn(ctx, "could not restore clocksource '%s': %s (restore it with "
					   "echo %s > %s/current_clocksource)",
				      cs_orig, strerror(-r), cs_orig, CS_DIR);
		else
			cs_switched = 0;
	}
	pl_strv_free(s->cs);
	free(s->iters);
	free(s->metric);
	free(s);
}

static const char *const clock_quick[] = { "--runs", "3", "--warmup", "1", "--batch", "5ms", NULL };

const struct pl_bench pl_bench_clock = {
	.name = "clock",
	.summary = "ns per call of gettimeofday, clock_gettime, time() and the cycle counter",
	.description =
		"Each metric is a timed loop of direct calls (--batch long, or --calls N),\n"
		"elapsed CLOCK_MONOTONIC / calls, as the plain loop of 10^8 gettimeofday()\n"
		"calls of the field report. The 'via' column says which calls used the vDSO\n"
		"and which fell back to a system call (decided by a seccomp probe, not by\n"
		"timing); the [syscall] rows force the system call for comparison.\n"
		"--all-clocksources (root) measures under every available clocksource and\n"
		"restores the original, also on SIGINT/SIGTERM and errors.",
	.opts = clock_opt_table,
	.opts_size = sizeof(struct clock_opts),
	.opts_defaults = &clock_defaults,
	.default_runs = 5,
	.default_warmup = 1,
	.quick_argv = clock_quick,
	.in_report = true,
	.setup = clock_setup,
	.run = clock_run,
	.teardown = clock_teardown,
};
