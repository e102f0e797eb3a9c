/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench wakeup: how long a sleeping thread takes to run again after the event that should
 * wake it, the cost that deep C-states, a slow governor and the periodic tick add to every
 * response (the C-state, governor and nohz rules' evidence).
 *
 * Timer: one thread per CPU of the run, pinned, SCHED_FIFO at --priority when permitted,
 * sleeps with clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) until the next multiple of
 * --interval and records now - the time it asked for: cyclictest's measuring loop (rt-tests,
 * src/cyclictest/cyclictest.c timerthread(), with -m's mlockall), in ns instead of us.
 * Missed periods are skipped and counted ("overruns"). With --align OFFSET every run
 * starts on the next full second of CLOCK_MONOTONIC plus OFFSET (cyclictest --secaligned),
 * so two measurements on one CPU with offsets half an interval apart interleave their
 * wakeups: benchmarks/wakeup-vs-cyclictest.sh runs perflab and cyclictest so, under the
 * same load at the same time.
 *
 * Cross-CPU: two threads on the two CPUs of --pair wake each other in turn, through a
 * futex word and through a pair of pipes (`perf bench sched pipe`'s loop; its usecs/op is
 * our "round trip"). The waker stores CLOCK_MONOTONIC just before the wake system call;
 * the wakee reads the clock when it runs again: that difference is the one-way wakeup
 * latency, recorded for both directions. */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "util/json.h"
#include "util/str.h"

struct wakeup_opts {
	double interval;      /* s between timer wakeups */
	int priority;	      /* SCHED_FIFO priority, 0 = SCHED_OTHER */
	uint64_t loops;	      /* timer wakeups per CPU and run */
	double duration;      /* s per run of the timer part; 0 = --loops */
	uint64_t round_trips; /* per cross-CPU mechanism and run */
	const char *pair;     /* two CPUs, NULL = the first two of the run */
	const char *only;     /* "timer,futex,pipe" subset, NULL = all */
	const char *align;    /* --align OFFSET (a duration), NULL = start at once */
};

static const struct wakeup_opts wakeup_defaults = {
	.interval = 0.001, .priority = 80, .loops = 1000, .round_trips = 10000
};

static const struct pl_opt wakeup_opt_table[] = {
	{ "interval", 0, PL_OPT_DURATION, offsetof(struct wakeup_opts, interval), "S",
	  "timer period (cyclictest -i)", .min = 1e-5, .max = 1, .def = "1ms" },
	{ "priority", 0, PL_OPT_INT, offsetof(struct wakeup_opts, priority), "PRIO",
	  "SCHED_FIFO priority of the measuring threads, 0 = SCHED_OTHER (cyclictest -p); "
	  "without permission (CAP_SYS_NICE) the result says SCHED_OTHER",
	  .min = 0, .max = 99, .def = "80" },
	{ "loops", 0, PL_OPT_U64, offsetof(struct wakeup_opts, loops), "N",
	  "timer wakeups per CPU and run (cyclictest -l)", .min = 1, .max = 1e9, .def = "1000" },
	{ "duration", 'd', PL_OPT_DURATION, offsetof(struct wakeup_opts, duration), "S",
	  "length of a run's timer part instead of --loops (duration / interval wakeups)",
	  .min = 0.001, .max = 86400 },
	{ "round-trips", 0, PL_OPT_U64, offsetof(struct wakeup_opts, round_trips), "N",
	  "cross-CPU round trips per mechanism and run (perf bench sched pipe -l)", .min = 1,
	  .max = 1e9, .def = "10000" },
	{ "pair", 0, PL_OPT_CPUS, offsetof(struct wakeup_opts, pair), "A,B",
	  "the two CPUs of the cross-CPU wakeups (default: the first two CPUs of the run)" },
	{ "only", 0, PL_OPT_STR, offsetof(struct wakeup_opts, only), "PARTS",
	  "measure only these parts: timer, futex, pipe (comma-separated)" },
	{ "align", 0, PL_OPT_STR, offsetof(struct wakeup_opts, align), "OFFSET",
	  "start each run's timer part on the next full second of CLOCK_MONOTONIC plus OFFSET "
	  "(0 to below 1s; cyclictest --secaligned)" },
	PL_OPT_END,
};

enum { PART_TIMER, PART_FUTEX, PART_PIPE, NPARTS };
static const char *const part_names[NPARTS] = { "timer", "futex", "pipe" };

/* Stack of the measuring threads: small, since mlockall(MCL_FUTURE) locks and populates
 * every stack (cyclictest -m on a 256-CPU machine would otherwise pin 2 GiB). */
#define WAKEUP_STACK (256 * 1024)

/* ---- scheduling policy ---- */

/* Give the calling thread SCHED_FIFO @prio (nothing for 0). Returns 0 or -errno. */
static int set_fifo(int prio)
{
	if (prio <= 0)
		return 0;
	struct sched_param sp = { .sched_priority = prio };
	return -pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
}

/* Whether SCHED_FIFO @prio is permitted: tried on the calling thread and put back. */
static int probe_fifo(int prio)
{
	int pol;
	struct sched_param old;
	if (pthread_getschedparam(pthread_self(), &pol, &old) != 0)
		return -EPERM;
	int r = set_fifo(prio);
	if (r == 0)
		pthread_setschedparam(pthread_self(), pol, &old);
	return r;
}

static uint64_t ts_ns(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec;
}

static struct timespec ns_ts(uint64_t ns)
{
	return (struct timespec){ .tv_sec = (time_t)(ns / 1000000000u),
				  .tv_nsec = (long)(ns % 1000000000u) };
}

/* ---- timer part ---- */

struct timer_thread {
	struct pl_bench_ctx *ctx;
	unsigned cpu;
	uint64_t loops, interval_ns;
	uint64_t start_ns; /* CLOCK_MONOTONIC the periods count from; 0 = the thread's start */
	int prio;
	struct pl_hist h;
	uint64_t overruns;
	int err; /* -errno of pinning or the policy */
	pthread_t tid;
};

static void *timer_main(void *arg)
{
	struct timer_thread *t = arg;
	t->err = pl_bench_pin_thread(t->cpu);
	if (t->err == 0)
		t->err = set_fifo(t->prio);
	if (t->err < 0)
		return NULL;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	uint64_t next = (t->start_ns ? t->start_ns : ts_ns(&now)) + t->interval_ns;
	for (uint64_t i = 0; i < t->loops && !pl_bench_stopped(t->ctx); i++) {
		struct timespec ts = ns_ts(next);
		int r;
		while ((r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)) == EINTR)
			if (pl_bench_stopped(t->ctx))
				return NULL;
		clock_gettime(CLOCK_MONOTONIC, &now);
		uint64_t n = ts_ns(&now);
		pl_hist_record(&t->h, n > next ? n - next : 0);
		next += t->interval_ns;
		while (next < n) { /* behind schedule: skip the periods already gone */
			next += t->interval_ns;
			t->overruns++;
		}
	}
	return NULL;
}

/* ---- cross-CPU part ---- */

struct pingpong {
	struct pl_bench_ctx *ctx;
	int kind; /* PART_FUTEX or PART_PIPE */
	uint64_t n;
	int prio;
	_Atomic uint32_t seq; /* futex: 2i+1 = side 1's turn, 2i+2 = side 0's */
	_Atomic uint64_t stamp;
	atomic_int quit;
	uint64_t t_start, t_end; /* side 0: before its first wake, after its last wakeup */
	int p[2][2];		 /* pipes: p[0] side 0 -> 1, p[1] side 1 -> 0 */
};

struct pp_side {
	struct pingpong *pp;
	unsigned side, cpu;
	struct pl_hist h;
	int err;
	pthread_t tid;
};

static long futex(_Atomic uint32_t *w, int op, uint32_t val, const struct timespec *to)
{
	return syscall(SYS_futex, (uint32_t *)w, op, val, to, NULL, 0);
}

/* Sleep until *seq == want; false when told to quit. Waits in 50 ms slices so SIGINT and
 * the other side's failure are noticed. */
static bool futex_wait_for(struct pingpong *pp, uint32_t want)
{
	static const struct timespec slice = { 0, 50000000 };
	uint32_t v;
	while ((v = atomic_load_explicit(&pp->seq, memory_order_acquire)) != want) {
		if (atomic_load(&pp->quit) || pl_bench_stopped(pp->ctx)) /* a last look */
			return atomic_load_explicit(&pp->seq, memory_order_acquire) == want;
		futex(&pp->seq, FUTEX_WAIT_PRIVATE, v, &slice);
	}
	return true;
}

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return ts_ns(&t);
}

static void pp_futex(struct pp_side *s)
{
	struct pingpong *pp = s->pp;
	if (s->side == 0)
		pp->t_start = now_ns();
	for (uint64_t i = 0; i < pp->n; i++) {
		if (s->side == 1 || i > 0) {
			/* side 0 waits for 2i (side 1's answer to round i-1), side 1 for 2i+1 */
			if (!futex_wait_for(pp, (uint32_t)(2 * i + s->side)))
				return;
			uint64_t t = now_ns(), t0 = atomic_load(&pp->stamp);
			pl_hist_record(&s->h, t > t0 ? t - t0 : 0);
		}
		atomic_store(&pp->stamp, now_ns());
		atomic_store_explicit(&pp->seq, (uint32_t)(2 * i + 1 + s->side),
				      memory_order_release);
		futex(&pp->seq, FUTEX_WAKE_PRIVATE, 1, NULL);
	}
	if (s->side == 0 && futex_wait_for(pp, (uint32_t)(2 * pp->n))) {
		uint64_t t = now_ns(), t0 = atomic_load(&pp->stamp);
		pl_hist_record(&s->h, t > t0 ? t - t0 : 0);
		pp->t_end = t;
	}
}

static void pp_pipe(struct pp_side *s)
{
	struct pingpong *pp = s->pp;
	int rfd = pp->p[1 - s->side][0], wfd = pp->p[s->side][1];
	if (s->side == 0)
		pp->t_start = now_ns();
	for (uint64_t i = 0; i < pp->n && !pl_bench_stopped(pp->ctx); i++) {
		uint64_t stamp;
		if (s->side == 1) {
			if (read(rfd, &stamp, sizeof(stamp)) != (ssize_t)sizeof(stamp))
				return;
			uint64_t t = now_ns();
			pl_hist_record(&s->h, t > stamp ? t - stamp : 0);
		}
		stamp = now_ns();
		if (write(wfd, &stamp, sizeof(stamp)) != (ssize_t)sizeof(stamp))
			return;
		if (s->side == 0) {
			if (read(rfd, &stamp, sizeof(stamp)) != (ssize_t)sizeof(stamp))
				return;
			uint64_t t = now_ns();
			pl_hist_record(&s->h, t > stamp ? t - stamp : 0);
			pp->t_end = t;
		}
	}
}

static void *pp_main(void *arg)
{
	struct pp_side *s = arg;
	struct pingpong *pp = s->pp;
	s->err = pl_bench_pin_thread(s->cpu);
	if (s->err == 0)
		s->err = set_fifo(pp->prio);
	if (s->err == 0) {
		if (pp->kind == PART_FUTEX)
			pp_futex(s);
		else
			pp_pipe(s);
	}
	/* let the other side go: it sees quit (futex) or end of file (pipe) */
	atomic_store(&pp->quit, 1);
	futex(&pp->seq, FUTEX_WAKE_PRIVATE, 1, NULL);
	if (pp->kind == PART_PIPE) {
		close(pp->p[s->side][1]);
		pp->p[s->side][1] = -1;
	}
	return NULL;
}

/* ---- the benchmark ---- */

struct wakeup_state {
	unsigned cpus[PL_MAX_CPUS];
	unsigned ncpus;
	unsigned pair[2];
	uint64_t loops, interval_ns;
	int64_t align_ns; /* --align's offset, -1 = not given */
	bool part[NPARTS];
	bool mlocked;
	int prio; /* the priority the threads get (0 when not permitted) */
	int m_timer, m_timer_p99, *m_cpu;
	int m_wake[NPARTS], m_rt[NPARTS];
	uint64_t overruns;
};

static int parse_only(struct pl_bench_ctx *ctx, const char *only, bool *part)
{
	for (int k = 0; k < NPARTS; k++)
		part[k] = only == NULL;
	if (!only)
		return 0;
	pl_autostrv char **v = pl_split(only, ",", NULL);
	for (char **p = v; *p; p++) {
		int k = 0;
		while (k < NPARTS && strcmp(part_names[k], *p) != 0)
			k++;
		if (k == NPARTS) {
			pl_bench_error(
				ctx, "--only: no part named '%s' (one of: timer, futex, pipe)", *p);
			return -EINVAL;
		}
		part[k] = true;
	}
	return 0;
}

/* The two CPUs of the cross-CPU part: --pair, or the first two CPUs of the run (one CPU:
 * both threads on it, said in a note). */
static int choose_pair(struct pl_bench_ctx *ctx, const struct wakeup_opts *o,
		       struct wakeup_state *s)
{
	const struct pl_cpuset *run = pl_bench_cpus(ctx);
	char buf[128];
	if (o->pair) {
		struct pl_cpuset p;
		pl_cpuset_parse(o->pair, &p); /* syntax checked by the option parser */
		unsigned n = pl_cpuset_count(&p);
		int a = pl_cpuset_next(&p, 0),
		    b = a >= 0 ? pl_cpuset_next(&p, (unsigned)a + 1) : -1;
		if (n < 1 || n > 2) {
			pl_bench_error(ctx,
				       "--pair '%s': give two CPUs (or one for both threads), "
				       "e.g. --pair 0,1",
				       o->pair);
			return -EINVAL;
		}
		for (int c = a; c >= 0; c = pl_cpuset_next(&p, (unsigned)c + 1))
			if (!pl_cpuset_isset(run, (unsigned)c)) {
				pl_bench_error(ctx,
					       "--pair '%s': CPU %d is not one of the CPUs of the "
					       "run (%s); choose them or widen --cpus",
					       o->pair, c, pl_cpuset_format(run, buf, sizeof(buf)));
				return -EINVAL;
			}
		s->pair[0] = (unsigned)a;
		s->pair[1] = (unsigned)(b >= 0 ? b : a);
	} else {
		s->pair[0] = s->cpus[0];
		s->pair[1] = s->ncpus > 1 ? s->cpus[1] : s->cpus[0];
	}
	if (s->pair[0] == s->pair[1])
		pl_bench_note(ctx,
			      "cross-CPU wakeups: both threads on CPU %u (one CPU), so they "
			      "measure a same-CPU context switch",
			      s->pair[0]);
	return 0;
}

static int wakeup_setup(struct pl_bench_ctx *ctx, void *vo, void **out)
{
	struct wakeup_opts *o = vo;
	struct wakeup_state *s = pl_xcalloc(1, sizeof(*s));
	const struct pl_cpuset *run = pl_bench_cpus(ctx);
	for (int c = pl_cpuset_next(run, 0); c >= 0; c = pl_cpuset_next(run, (unsigned)c + 1))
		s->cpus[s->ncpus++] = (unsigned)c;
	if (s->ncpus == 0 || parse_only(ctx, o->only, s->part) < 0 ||
	    ((s->part[PART_FUTEX] || s->part[PART_PIPE]) && choose_pair(ctx, o, s) < 0)) {
		if (s->ncpus == 0)
			pl_bench_error(ctx, "no CPU to run on");
		free(s);
		return -EINVAL;
	}
	s->align_ns = -1;
	if (o->align) {
		double off;
		if (pl_parse_duration(o->align, &off) < 0 || off < 0 || off >= 1) {
			pl_bench_error(ctx,
				       "--align '%s': give an offset from 0 to below 1s after the "
				       "full second, e.g. --align 500us",
				       o->align);
			free(s);
			return -EINVAL;
		}
		s->align_ns = (int64_t)(off * 1e9 + 0.5);
	}
	s->interval_ns = (uint64_t)(o->interval * 1e9 + 0.5);
	s->loops = o->duration > 0 ? (uint64_t)(o->duration / o->interval + 0.5) : o->loops;
	if (s->loops < 1)
		s->loops = 1;
	json_t *info = pl_bench_info(ctx);
	s->prio = o->priority;
	if (o->priority > 0 && probe_fifo(o->priority) < 0) {
		s->prio = 0;
		pl_bench_warn(ctx,
			      "SCHED_FIFO %d is not permitted (needs root or CAP_SYS_NICE, or an "
			      "RLIMIT_RTPRIO): measured under SCHED_OTHER, where other tasks delay "
			      "the wakeups",
			      o->priority);
	}
	json_object_set_new(info, "policy", pl_json_string(s->prio ? "SCHED_FIFO" : "SCHED_OTHER"));
	json_object_set_new(info, "priority", json_integer(s->prio));
	/* cyclictest -m: no page fault in the measuring loops */
	s->mlocked = mlockall(MCL_CURRENT | MCL_FUTURE) == 0;
	json_object_set_new(info, "mlockall", json_boolean(s->mlocked));
	if (s->part[PART_TIMER]) {
		json_object_set_new(info, "interval_ns", json_integer((json_int_t)s->interval_ns));
		json_object_set_new(info, "loops", json_integer((json_int_t)s->loops));
		if (s->align_ns >= 0)
			json_object_set_new(info, "align_ns",
					    json_integer((json_int_t)s->align_ns));
		s->m_timer = pl_bench_metric(ctx, "timer", "ns", PL_LOWER_IS_BETTER,
					     "timer wakeup latency, all CPUs of the run: per run "
					     "the median; percentiles over every wakeup");
		s->m_timer_p99 = pl_bench_metric(ctx, "timer p99", "ns", PL_LOWER_IS_BETTER,
						 "per run the 99th percentile, all CPUs");
		s->m_cpu = pl_xcalloc(s->ncpus, sizeof(int));
		for (unsigned i = 0; i < s->ncpus; i++) {
			char name[32];
			snprintf(name, sizeof(name), "timer cpu%u", s->cpus[i]);
			s->m_cpu[i] = pl_bench_metric(ctx, name, "ns", PL_LOWER_IS_BETTER,
						      i == 0 ? "timer wakeup latency on one CPU: "
							       "per run the median"
							     : NULL);
		}
	}
	for (int k = PART_FUTEX; k < NPARTS; k++) {
		s->m_wake[k] = s->m_rt[k] = -1;
		if (!s->part[k])
			continue;
		char name[48], pair[32];
		snprintf(pair, sizeof(pair), "%u,%u", s->pair[0], s->pair[1]);
		snprintf(name, sizeof(name), "%s wakeup", part_names[k]);
		s->m_wake[k] = pl_bench_metric(
			ctx, name, "ns", PL_LOWER_IS_BETTER,
			k == PART_FUTEX
				? "one-way cross-CPU wakeup through FUTEX_WAKE: per run the "
				  "median, both directions"
				: "one-way cross-CPU wakeup through a pipe write: per run the "
				  "median, both directions");
		pl_bench_metric_note(ctx, s->m_wake[k], "cpus", pair);
		snprintf(name, sizeof(name), "%s round trip", part_names[k]);
		s->m_rt[k] = pl_bench_metric(ctx, name, "ns", PL_LOWER_IS_BETTER,
					     k == PART_PIPE ? "elapsed / round trips: perf bench "
							      "sched pipe's usecs/op"
							    : "elapsed / round trips");
		pl_bench_metric_note(ctx, s->m_rt[k], "cpus", pair);
		json_object_set_new(info, "pair", pl_json_string(pair));
		json_object_set_new(info, "round_trips", json_integer((json_int_t)o->round_trips));
	}
	*out = s;
	return 0;
}

/* --align: the next full second of CLOCK_MONOTONIC plus @align_ns, a second later when
 * that is under 100 ms away (cyclictest --secaligned's rule, so that every thread starts in
 * time); 0 when @align_ns < 0 (no alignment). */
static uint64_t aligned_start(int64_t align_ns)
{
	if (align_ns < 0)
		return 0;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	uint64_t sec = (uint64_t)now.tv_sec + (now.tv_nsec > 900000000 ? 2 : 1);
	return sec * 1000000000u + (uint64_t)align_ns;
}

static int run_timer(struct pl_bench_ctx *ctx, struct wakeup_state *s)
{
	struct timer_thread *t = pl_xcalloc(s->ncpus, sizeof(*t));
	unsigned started = 0;
	int r = 0;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, WAKEUP_STACK);
	uint64_t start = aligned_start(s->align_ns);
	if (start)
		json_object_set_new(pl_bench_info(ctx), "first_wakeup_ns",
				    json_integer((json_int_t)(start + s->interval_ns)));
	for (unsigned i = 0; i < s->ncpus; i++) {
		t[i] = (struct timer_thread){ .ctx = ctx,
					      .cpu = s->cpus[i],
					      .loops = s->loops,
					      .interval_ns = s->interval_ns,
					      .start_ns = start,
					      .prio = s->prio };
		pl_hist_init(&t[i].h, PL_HIST_BITS);
		int e = pthread_create(&t[i].tid, &attr, timer_main, &t[i]);
		if (e) {
			pl_bench_error(ctx, "cannot start a timer thread: %s", strerror(e));
			r = -e;
			break;
		}
		started++;
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(t[i].tid, NULL);
	pthread_attr_destroy(&attr);
	struct pl_hist *all = pl_bench_hist(ctx, s->m_timer);
	for (unsigned i = 0; i < started && r == 0; i++) {
		if (t[i].err < 0) {
			pl_bench_error(ctx,
				       "cannot pin a timer thread to CPU %u or set its "
				       "policy: %s",
				       t[i].cpu, strerror(-t[i].err));
			r = t[i].err;
			break;
		}
		struct pl_hist *h = pl_bench_hist(ctx, s->m_cpu[i]);
		pl_hist_merge(h, &t[i].h);
		pl_hist_merge(all, &t[i].h);
		pl_bench_record(ctx, s->m_cpu[i], pl_hist_quantile(&t[i].h, 0.5));
		s->overruns += t[i].overruns;
	}
	if (r == 0) {
		pl_bench_record(ctx, s->m_timer, pl_hist_quantile(all, 0.5));
		pl_bench_record(ctx, s->m_timer_p99, pl_hist_quantile(all, 0.99));
	}
	for (unsigned i = 0; i < s->ncpus; i++)
		pl_hist_free(&t[i].h);
	free(t);
	return r;
}

static int run_pingpong(struct pl_bench_ctx *ctx, const struct wakeup_opts *o,
			struct wakeup_state *s, int kind)
{
	struct pingpong pp = { .ctx = ctx, .kind = kind, .n = o->round_trips, .prio = s->prio };
	memset(pp.p, -1, sizeof(pp.p));
	if (kind == PART_PIPE && (pipe(pp.p[0]) < 0 || pipe(pp.p[1]) < 0)) {
		int e = errno;
		pl_bench_error(ctx, "cannot create a pipe: %s", strerror(e));
		for (int i = 0; i < 2; i++)
			for (int j = 0; j < 2; j++)
				if (pp.p[i][j] >= 0)
					close(pp.p[i][j]);
		return -e;
	}
	struct pp_side side[2];
	int r = 0, started = 0;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, WAKEUP_STACK);
	for (unsigned k = 0; k < 2; k++) {
		side[k] = (struct pp_side){ .pp = &pp, .side = k, .cpu = s->pair[k] };
		pl_hist_init(&side[k].h, PL_HIST_BITS);
	}
	for (unsigned k = 0; k < 2; k++) {
		int e = pthread_create(&side[k].tid, &attr, pp_main, &side[k]);
		if (e) {
			pl_bench_error(ctx, "cannot start a thread: %s", strerror(e));
			atomic_store(&pp.quit, 1);
			if (kind == PART_PIPE && k == 1) { /* side 0 waits on side 1's pipe */
				close(pp.p[1][1]);
				pp.p[1][1] = -1;
			}
			r = -e;
			break;
		}
		started++;
	}
	for (int k = 0; k < started; k++)
		pthread_join(side[k].tid, NULL);
	pthread_attr_destroy(&attr);
	uint64_t el = pp.t_end > pp.t_start ? pp.t_end - pp.t_start : 0;
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			if (pp.p[i][j] >= 0)
				close(pp.p[i][j]);
	for (int k = 0; k < started && r == 0; k++)
		if (side[k].err < 0) {
			pl_bench_error(ctx, "cannot pin a thread to CPU %u or set its policy: %s",
				       side[k].cpu, strerror(-side[k].err));
			r = side[k].err;
		}
	uint64_t got = side[0].h.n + side[1].h.n;
	if (r == 0 && pl_bench_stopped(ctx))
		r = -EINTR;
	else if (r == 0 && got < 2 * o->round_trips) {
		pl_bench_error(ctx, "%s ping-pong stopped after %llu of %llu wakeups",
			       part_names[kind], (unsigned long long)got,
			       (unsigned long long)(2 * o->round_trips));
		r = -EIO;
	}
	if (r == 0) {
		struct pl_hist *h = pl_bench_hist(ctx, s->m_wake[kind]);
		pl_hist_merge(h, &side[0].h);
		pl_hist_merge(h, &side[1].h);
		struct pl_hist both;
		pl_hist_init(&both, PL_HIST_BITS);
		pl_hist_merge(&both, &side[0].h);
		pl_hist_merge(&both, &side[1].h);
		pl_bench_record(ctx, s->m_wake[kind], pl_hist_quantile(&both, 0.5));
		pl_hist_free(&both);
		pl_bench_record(ctx, s->m_rt[kind], (double)el / (double)o->round_trips);
	}
	pl_hist_free(&side[0].h);
	pl_hist_free(&side[1].h);
	return r;
}

static int wakeup_run(struct pl_bench_ctx *ctx, void *vo, void *vs)
{
	struct wakeup_opts *o = vo;
	struct wakeup_state *s = vs;
	int r = 0;
	if (s->part[PART_TIMER])
		r = run_timer(ctx, s);
	for (int k = PART_FUTEX; k < NPARTS && r == 0; k++)
		if (s->part[k])
			r = pl_bench_stopped(ctx) ? -EINTR : run_pingpong(ctx, o, s, k);
	if (r == 0 && pl_bench_stopped(ctx))
		r = -EINTR;
	return r;
}

static void wakeup_teardown(struct pl_bench_ctx *ctx, void *vo, void *vs)
{
	(void)vo;
	struct wakeup_state *s = vs;
	if (s->part[PART_TIMER]) {
		json_object_set_new(pl_bench_info(ctx), "overruns",
				    json_integer((json_int_t)s->overruns));
		if (s->overruns)
			pl_bench_note(ctx,
				      "%llu timer periods were missed (a wakeup later than the "
				      "next period) and skipped",
				      (unsigned long long)s->overruns);
	}
	if (s->mlocked)
		munlockall();
	free(s->m_cpu);
	free(s);
}

static const char *const wakeup_quick[] = { "--runs",	     "2",    "--loops", "200",
					    "--round-trips", "2000", NULL };

const struct pl_bench pl_bench_wakeup = {
	.name = "wakeup",
	.summary = "wakeup latency: timer per CPU (as cyclictest), cross-CPU futex and pipe",
	.description =
		"Timer: one pinned thread per CPU of the run, SCHED_FIFO at --priority when\n"
		"permitted, sleeps with absolute clock_nanosleep(CLOCK_MONOTONIC) to the next\n"
		"--interval and records how late it woke (cyclictest's loop, rt-tests; mlockall\n"
		"as its -m). Cross-CPU: two threads on --pair wake each other through a futex and\n"
		"through pipes (perf bench sched pipe); the waker's CLOCK_MONOTONIC before the\n"
		"wake call to the wakee's after it is the one-way latency. Percentiles\n"
		"p50/p90/p99/p99.9/max over every wakeup; the evidence of the C-state, governor\n"
		"and nohz rules. benchmarks/wakeup-vs-cyclictest.sh compares with cyclictest.",
	.opts = wakeup_opt_table,
	.opts_size = sizeof(struct wakeup_opts),
	.opts_defaults = &wakeup_defaults,
	.default_runs = 5,
	.max_cv = 0.2,
	.uses_all_cpus = true,
	.pins_threads = true,
	.quick_argv = wakeup_quick,
	.setup = wakeup_setup,
	.run = wakeup_run,
	.teardown = wakeup_teardown,
};
