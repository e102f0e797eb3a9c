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
#include "util/json.h"
#include "tune/journal.h"
#include "tune/value.h"
#include "util/str.h"
#include "util/sysroot.h"

struct clock_opts {
	double batch;	/* seconds per timed loop of one metric */
	uint64_t calls; /* calls per timed loop, 0 = from --batch */
	bool all_clocksources;
	const char *only;      /* comma-separated call names, NULL = all */
	const char *state_dir; /* tune journal directory */
};

static const struct clock_opts clock_defaults = { .batch = 0.04,
						  .state_dir = PL_JOURNAL_DEFAULT_DIR };

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
	  "original (also on SIGINT/SIGTERM and errors); every switch is journaled first, so "
	  "after a crash 'perflab tune rollback' or the next bench clock restores it" },
	{ "state-dir", 0, PL_OPT_STR, offsetof(struct clock_opts, state_dir), "DIR",
	  "journal directory shared with perflab tune (clocksource switches)",
	  .def = PL_JOURNAL_DEFAULT_DIR },
	PL_OPT_END,
};

#define TIMED_LOOP PL_BENCH_TIMED_LOOP

/* The loops of library calls do only the call, as the seed's loop does: a call into libc
 * (and from there the vDSO or the kernel) cannot be optimised away, since the compiler
 * sees neither its body nor a pure/const attribute, so no result needs consuming. Adding
 * one into acc is not free: the vDSO reads the TSC with rdtscp (or lfence; rdtsc), which
 * waits for all earlier instructions (AMD APM vol. 3, RDTSCP; Intel SDM vol. 2B), so the
 * load of the previous call's tv_usec, forwarded from the vDSO's store, and its add sit
 * on the critical path of every call. The instruction loops (rdtsc, cntvct) keep acc. */
#define CG_LOOP(fn, clk) TIMED_LOOP(fn, struct timespec ts; clock_gettime(clk, &ts))

TIMED_LOOP(loop_gtod, struct timeval tv; gettimeofday(&tv, NULL))
CG_LOOP(loop_realtime, CLOCK_REALTIME)
CG_LOOP(loop_monotonic, CLOCK_MONOTONIC)
CG_LOOP(loop_monotonic_raw, CLOCK_MONOTONIC_RAW)
CG_LOOP(loop_boottime, CLOCK_BOOTTIME)
CG_LOOP(loop_realtime_coarse, CLOCK_REALTIME_COARSE)
CG_LOOP(loop_monotonic_coarse, CLOCK_MONOTONIC_COARSE)
TIMED_LOOP(loop_time, time(NULL))
TIMED_LOOP(loop_gtod_sys, struct timeval tv; syscall(SYS_gettimeofday, &tv, NULL))
TIMED_LOOP(loop_monotonic_sys, struct timespec ts; syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts))
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
	{ "rdtscp", loop_rdtscp, VIA_INSN, P_NONE, 0,
	  "time stamp counter, waits for earlier "
	  "instructions" },
#elif defined(__aarch64__)
	{ "cntvct_el0", loop_cntvct, VIA_INSN, P_NONE, 0,
	  "generic timer virtual count, after isb" },
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
		ok = ok &&
		     seccomp_rule_add(sc, SCMP_ACT_ERRNO(ENOTRECOVERABLE), SCMP_SYS(time), 0) == 0;
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
#define CS_TARGET CS_DIR "/current_clocksource"
/* Journal entries of clocksource switches are tagged with this. */
#define CS_WHO "bench:clock"

/* The original clocksource, restored by teardown() through the journal and, from a
 * signal handler, by restore_emergency() with async-signal-safe calls only (the journal
 * entry then stays live: the next run or `perflab tune rollback` writes the original
 * again, which is harmless). */
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

static void clock_teardown(struct pl_bench_ctx *ctx, void *vo, void *vs);

struct clock_state {
	bool skip[NCALLS]; /* not selected by --only */
	char **cs;	   /* clocksources measured in turn; NULL = the current one only */
	size_t ncs;
	uint64_t *iters;      /* per (clocksource, call) */
	int *metric;	      /* per (clocksource, call) */
	struct pl_journal *j; /* with --all-clocksources: every switch goes through it */
	unsigned long mark;   /* last journal step before the first switch */
};

/* Make @name the clocksource. Away from the original: a journaled write (the original is
 * on disk before the kernel switches), read back; back to it: a rollback of this run's
 * switches. Returns 0, or -EIO with the error set. */
static int write_clocksource(struct pl_bench_ctx *ctx, struct clock_state *s, const char *name)
{
	int r;
	if (strcmp(name, cs_orig) == 0) {
		size_t live = pl_journal_live(s->j);
		r = pl_journal_rollback(s->j, s->mark, NULL, NULL);
		if (r == 0)
			cs_switched = 0;
		else
			pl_bench_error(ctx, "cannot switch back to clocksource '%s': %s", name,
				       strerror(-r));
		if (r < 0 || live == pl_journal_live(s->j))
			return r < 0 ? -EIO : 0; /* nothing was written */
	} else {
		const struct pl_journal_entry *e = NULL;
		cs_switched = 1;
		r = pl_journal_write(s->j, CS_TARGET, name, CS_WHO, &e);
		if (r < 0) {
			pl_bench_error(ctx, "cannot switch to clocksource '%s': %s", name,
				       strerror(-r));
			return -EIO;
		}
		if (e->status != PL_JS_OK) {
			char *kept = pl_tune_value_norm(e->accepted ? e->accepted : "?");
			if (e->status == PL_JS_REFUSED)
				pl_bench_error(ctx, "the kernel refused clocksource '%s': %s", name,
					       strerror(e->error));
			else
				pl_bench_error(
					ctx,
					"the kernel kept clocksource '%s' when '%s' was written "
					"(marked unstable? see dmesg)",
					kept, name);
			free(kept);
			return -EIO;
		}
	}
	/* the vDSO data page follows at the next timekeeping update (one tick) */
	struct timespec d = { 0, 20 * 1000 * 1000 };
	nanosleep(&d, NULL);
	return 0;
}

/* With --all-clocksources: make the k-th clocksource current. */
static int switch_to(struct pl_bench_ctx *ctx, struct clock_state *s, size_t k)
{
	if (!s->cs)
		return 0;
	return write_clocksource(ctx, s, s->cs[k]);
}

/* True when the journal in @dir (read only, without waiting for a writer that holds it)
 * holds a live clocksource switch. */
static bool leftover(const char *dir, char *why, size_t wl)
{
	struct pl_journal *j;
	if (pl_journal_open_why(dir, PL_JOURNAL_PEEK, &j, why, wl) < 0)
		return false;
	size_t n;
	const struct pl_journal_entry *e = pl_journal_entries(j, &n);
	bool left = false;
	for (size_t i = 0; i < n; i++)
		left |= !e[i].undone && pl_startswith(e[i].profile, CS_WHO);
	pl_journal_close(j);
	return left;
}

/* Before anything is measured: restore a clocksource switch that an interrupted run left
 * in the journal (kill -9 while on another clocksource), and with --all-clocksources keep
 * the journal open (locked) in s->j for the switches. Returns 0 or -errno with the
 * error set (-EINVAL for a damaged journal). */
static int journal_setup(struct pl_bench_ctx *ctx, const struct clock_opts *o,
			 struct clock_state *s)
{
	char why[768] = "";
	if (!o->all_clocksources) {
		if (!leftover(o->state_dir, why, sizeof(why))) {
			if (why[0])
				pl_bench_warn(ctx,
					      "%s: damaged journal, not checked for a clocksource "
					      "left switched by an interrupted run",
					      why);
			return 0;
		}
		if (geteuid() != 0) {
			pl_bench_warn(ctx,
				      "an interrupted 'perflab bench clock --all-clocksources' "
				      "left the clocksource switched (journal in %s): run "
				      "'perflab tune rollback' as root",
				      o->state_dir);
			return 0;
		}
	}
	struct pl_journal *j;
	int r = pl_journal_open_why(o->state_dir, PL_JOURNAL_WRITE, &j, why, sizeof(why));
	if (r < 0) {
		if (r == -EBADMSG)
			pl_bench_error(ctx,
				       "%s: the journal is damaged; inspect it by hand (no "
				       "clocksource was switched)",
				       why);
		else
			pl_bench_error(ctx, "cannot open the journal in %s: %s%s", o->state_dir,
				       strerror(-r),
				       r == -EBUSY ? " (another perflab holds it: wait for it)"
						   : " (--state-dir DIR)");
		return r == -EBADMSG ? -EINVAL : r;
	}
	size_t n = 0;
	r = pl_journal_recover(j, CS_WHO, &n);
	if (r < 0) {
		pl_bench_error(ctx,
			       "cannot restore the clocksource an interrupted run left "
			       "(journal %s): %s",
			       pl_journal_path(j),
			       r == -EBUSY ? "newer changes sit above it: run 'perflab tune "
					     "rollback' first"
					   : strerror(-r));
		pl_journal_close(j);
		return r;
	}
	if (n)
		pl_bench_note(ctx,
			      "restored the clocksource that an interrupted bench clock "
			      "--all-clocksources left switched (journal %s)",
			      pl_journal_path(j));
	if (o->all_clocksources) {
		s->j = j;
		s->mark = pl_journal_last_step(j);
	} else {
		pl_journal_close(j);
	}
	return 0;
}

static const char *via_text(signed char v)
{
	return v == 1 ? "vdso" : v == 0 ? "syscall" : "unknown";
}

static int clock_setup(struct pl_bench_ctx *ctx, void *vo, void **out)
{
	struct clock_opts *o = vo;
	if (o->all_clocksources && geteuid() != 0) {
		pl_bench_error(ctx,
			       "--all-clocksources writes %s/current_clocksource and needs root "
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
				pl_bench_error(ctx, "--only: no call named '%s' (one of: %s)", *p,
					       b.data);
				pl_buf_free(&b);
				pl_strv_free(v);
				free(s);
				return -EINVAL;
			}
			s->skip[i] = false;
		}
		pl_strv_free(v);
	}
	int jr = journal_setup(ctx, o, s);
	if (jr < 0) {
		free(s);
		return jr;
	}
	*out = s;
	char *cur = NULL;
	pl_read_str(CS_DIR "/current_clocksource", &cur);
	json_object_set_new(pl_bench_info(ctx), "clocksource",
			    pl_json_string(cur ? cur : "unknown"));
	if (o->all_clocksources) {
		char *avail = NULL;
		int r = pl_read_str(CS_DIR "/available_clocksource", &avail);
		char **v = r == 0 ? pl_split(avail, " \t", &s->ncs) : NULL;
		free(avail);
		char why[512];
		for (size_t k = 0; r == 0 && k < s->ncs; k++)
			if (pl_tune_value_check(CS_TARGET, v[k], NULL, why, sizeof(why)) < 0) {
				pl_bench_error(ctx, "clocksource '%s' %s", v[k], why);
				pl_strv_free(v);
				free(cur);
				clock_teardown(ctx, vo, s);
				return -EIO;
			}
		if (!cur || s->ncs < 2) {
			pl_bench_note(ctx,
				      "--all-clocksources skipped: %s (measured under the current "
				      "clocksource only)",
				      !cur || r < 0 ? "the clocksource sysfs files are not readable"
						    : "only one clocksource is available");
			pl_strv_free(v);
			s->ncs = 0;
			pl_journal_close(s->j);
			s->j = NULL;
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
			const char *v = calls[i].via == VIA_FORCED ? "syscall (forced)"
					: calls[i].via == VIA_INSN ? "instruction"
								   : via_text(via[i]);
			pl_bench_metric_note(ctx, m, "via", v);
			s->iters[k * NCALLS + i] =
				o->calls ? o->calls
					 : pl_bench_calibrate(calls[i].loop, NULL, target);
		}
	}
	json_object_set_new(pl_bench_info(ctx), "vdso_detection",
			    pl_json_string(method_ok ? "seccomp: syscalls made to fail in a child; "
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
	if (s->j) {
		int r = pl_journal_rollback(s->j, s->mark, NULL, NULL);
		if (r < 0)
			pl_bench_warn(ctx,
				      "could not restore clocksource '%s': %s (run 'perflab tune "
				      "rollback --state-dir %s', or echo %s > %s)",
				      cs_orig, strerror(-r), ((struct clock_opts *)vo)->state_dir,
				      cs_orig, CS_TARGET);
		else
			cs_switched = 0;
		pl_journal_close(s->j);
	}
	pl_strv_free(s->cs);
	free(s->iters);
	free(s->metric);
	free(s);
}

static const char *const clock_quick[] = { "--runs", "3", "--warmup", "1", "--batch", "5ms", NULL };

/* The metrics the report's key numbers read (report/keynums.c): --precision waits
 * for them. */
static const char *const clock_headline[] = { "gettimeofday", "*: gettimeofday", NULL };

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
		"restores the original, also on SIGINT/SIGTERM and errors. Every switch is\n"
		"journaled in --state-dir first (the tune journal): after a crash 'perflab\n"
		"tune status' shows it, and 'perflab tune rollback' or the next bench clock\n"
		"restores it.",
	.opts = clock_opt_table,
	.opts_size = sizeof(struct clock_opts),
	.opts_defaults = &clock_defaults,
	.default_runs = 5,
	.default_warmup = 1,
	.quick_argv = clock_quick,
	.in_report = true,
	.headline = clock_headline,
	.setup = clock_setup,
	.run = clock_run,
	.teardown = clock_teardown,
};
