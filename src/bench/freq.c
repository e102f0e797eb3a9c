/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench freq: the effective clock of each CPU while it runs, measured from a dependent
 * chain of integer adds whose cycle count is known by construction: every add needs the
 * previous one's result and an add has a latency of one cycle on every x86-64 and arm64
 * core (Agner Fog's instruction tables; Arm's Software Optimization Guides), so N adds
 * take N cycles and N / elapsed ns is the clock in GHz. The loop counter is a separate
 * chain that runs in parallel.
 *
 * Steps: each CPU of the run alone (its single-core clock, turbo included), then the first
 * 1, 2, ... N CPUs busy at once (the turbo scaling curve: the clock drops as more cores
 * share the power budget), and with --duration all N busy for that long, sampled each
 * --sample (throttling over time). Each step runs chunks of PL_FREQ_CHUNK adds and takes
 * the median chunk rate, so a chunk in which the thread was preempted (a shared machine)
 * does not lower the figure.
 *
 * Cross-checks: the TSC's rate against CLOCK_MONOTONIC (x86), /proc/cpuinfo "cpu MHz" and
 * cpufreq's scaling_cur_freq per CPU, and where readable APERF/MPERF (the cycles the core
 * ran vs the TSC-rate reference cycles, Intel SDM vol. 3B 14.2 / AMD APM vol. 2 17.3)
 * through the perf_event msr PMU or /dev/cpu/N/msr; virtual machines usually have
 * neither, and the result says so. */
#include "bench/freq.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "bench/bench.h"
#include "util/json.h"
#include "util/cleanup.h"
#include "util/str.h"
#include "util/sysroot.h"

/* ---- parsers ---- */

int pl_freq_cpuinfo_mhz(const char *text, unsigned cpu, double *mhz)
{
	bool in = false;
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		const char *colon = memchr(line, ':', len);
		if (colon) {
			size_t kl = (size_t)(colon - line);
			while (kl && isspace((unsigned char)line[kl - 1]))
				kl--;
			char val[64];
			const char *v = colon + 1;
			while (v < line + len && isspace((unsigned char)*v))
				v++;
			snprintf(val, sizeof(val), "%.*s", (int)(line + len - v), v);
			if (kl == 9 && strncmp(line, "processor", 9) == 0) {
				char *e;
				errno = 0;
				unsigned long n = strtoul(val, &e, 10);
				in = errno == 0 && e != val && *e == '\0' && n == cpu;
			} else if (in && kl == 7 && strncmp(line, "cpu MHz", 7) == 0) {
				char *e;
				errno = 0;
				double x = strtod(val, &e);
				if (errno || e == val || *e != '\0' || !isfinite(x) || x <= 0)
					return -EINVAL;
				*mhz = x;
				return 0;
			}
		}
		line = end ? end + 1 : NULL;
	}
	return -ENOENT;
}

int pl_freq_event_config(const char *s, uint64_t *config)
{
	if (!s || strncmp(s, "event=", 6) != 0)
		return -EINVAL;
	const char *p = s + 6;
	if (!isxdigit((unsigned char)*p) && *p != '0')
		return -EINVAL;
	char *e;
	errno = 0;
	unsigned long long v = strtoull(p, &e, 0);
	if (errno || e == p)
		return -EINVAL;
	while (*e == '\n' || *e == ' ')
		e++;
	if (*e)
		return -EINVAL;
	*config = v;
	return 0;
}

/* ---- the add chain ---- */

/* Adds per chunk: about 0.3 ms at 3 GHz, short against a scheduler time slice so most
 * chunks run unpreempted. */
#define PL_FREQ_CHUNK (1u << 20)
/* Adds per loop iteration (the loop's own counter runs in parallel). */
#define FREQ_UNROLL 128

#define ADD1                                                                                       \
	x += y;                                                                                    \
	__asm__ volatile("" : "+r"(x));
#define ADD8 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1
#define ADD64 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8

/* PL_FREQ_CHUNK dependent adds (x += y with y opaque to the compiler, one add each: the
 * empty asm keeps every intermediate x in a register, so adds cannot be merged). */
static uint64_t __attribute__((noinline)) add_chain(uint64_t x, uint64_t y)
{
	__asm__ volatile("" : "+r"(y));
	for (unsigned i = 0; i < PL_FREQ_CHUNK / FREQ_UNROLL; i++) {
		ADD64
		ADD64
	}
	return x;
}

/* ---- APERF/MPERF ---- */

enum { AM_NONE, AM_PERF, AM_MSR };

struct am_counters {
	int kind;
	int fd[2]; /* perf: aperf, mperf events; msr: the device, fd[1] unused */
};

/* The msr PMU's type and the configs of its aperf and mperf events, or -errno. */
static int msr_pmu(uint32_t *type, uint64_t cfg[2])
{
	uint64_t t;
	int r = pl_read_u64("/sys/bus/event_source/devices/msr/type", &t);
	if (r < 0)
		return r;
	static const char *const ev[2] = { "aperf", "mperf" };
	for (int k = 0; k < 2; k++) {
		pl_autofree char *s = NULL;
		r = pl_read_strf(&s, "/sys/bus/event_source/devices/msr/events/%s", ev[k]);
		if (r < 0)
			return r;
		if (pl_freq_event_config(s, &cfg[k]) < 0)
			return -EINVAL;
	}
	*type = (uint32_t)t;
	return 0;
}

/* Open APERF/MPERF for the calling thread on @cpu (pinned there). -errno with the reason
 * of the last method tried in @why. */
static int am_open(struct am_counters *c, unsigned cpu, char *why, size_t len)
{
	c->kind = AM_NONE;
	c->fd[0] = c->fd[1] = -1;
	uint32_t type;
	uint64_t cfg[2];
	int r = msr_pmu(&type, cfg);
	if (r == 0) {
		for (int k = 0; k < 2; k++) {
			struct perf_event_attr a = { .size = sizeof(a),
						     .type = type,
						     .config = cfg[k] };
			c->fd[k] = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
			if (c->fd[k] < 0)
				r = -errno;
		}
		if (r == 0) {
			c->kind = AM_PERF;
			return 0;
		}
		for (int k = 0; k < 2; k++)
			if (c->fd[k] >= 0)
				close(c->fd[k]);
		c->fd[0] = c->fd[1] = -1;
		snprintf(why, len, "perf_event msr PMU: %s", strerror(-r));
	} else {
		snprintf(why, len, "no perf_event msr PMU (/sys/bus/event_source/devices/msr)");
	}
	char path[64];
	snprintf(path, sizeof(path), "/dev/cpu/%u/msr", cpu);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	uint64_t v;
	if (fd >= 0 && pread(fd, &v, 8, 0xE8) == 8) {
		c->kind = AM_MSR;
		c->fd[0] = fd;
		return 0;
	}
	int e = fd < 0 ? errno : EIO;
	if (fd >= 0)
		close(fd);
	size_t l = strlen(why);
	snprintf(why + l, len - l, "; %s: %s", path,
		 e == ENOENT ? "absent (modprobe msr, as root)" : strerror(e));
	return -e;
}

/* APERF and MPERF now. */
static int am_read(const struct am_counters *c, uint64_t v[2])
{
	for (int k = 0; k < 2; k++) {
		ssize_t n = c->kind == AM_PERF ? read(c->fd[k], &v[k], 8)
					       : pread(c->fd[0], &v[k], 8, k ? 0xE7 : 0xE8);
		if (n != 8)
			return -EIO;
	}
	return 0;
}

static void am_close(struct am_counters *c)
{
	for (int k = 0; k < 2; k++)
		if (c->fd[k] >= 0)
			close(c->fd[k]);
	c->fd[0] = c->fd[1] = -1;
}

/* ---- worker threads ---- */

struct freq_worker {
	unsigned cpu;
	uint64_t t_end; /* CLOCK_MONOTONIC deadline */
	double *rate;	/* chunk rates, MHz */
	uint64_t *when; /* each chunk's end, ns since the step's start */
	size_t n, cap;
	bool use_am;	   /* read APERF/MPERF around the step */
	double am_ratio;   /* delta APERF / delta MPERF, NaN when not read */
	int err;	   /* -errno of pinning */
	atomic_int *gate;  /* 0 wait, 1 go, -1 give up */
	atomic_bool ready; /* pinned, waiting at the gate */
	uint64_t t0;
	pthread_t tid;
};

static void *worker_main(void *arg)
{
	struct freq_worker *w = arg;
	w->err = pl_bench_pin_thread(w->cpu);
	w->am_ratio = NAN;
	struct am_counters am = { .kind = AM_NONE, .fd = { -1, -1 } };
	char why[8];
	bool am_ok = w->use_am && w->err == 0 && am_open(&am, w->cpu, why, sizeof(why)) == 0;
	atomic_store(&w->ready, true);
	int g;
	while ((g = atomic_load(w->gate)) == 0)
		;
	if (w->err < 0 || g < 0) {
		am_close(&am);
		return NULL;
	}
	uint64_t a0[2] = { 0, 0 }, a1[2];
	if (am_ok && am_read(&am, a0) < 0)
		am_ok = false;
	uint64_t x = w->cpu, prev = pl_now_ns();
	while (prev < w->t_end) {
		x = add_chain(x, 1);
		uint64_t now = pl_now_ns();
		if (w->n == w->cap) {
			w->cap = w->cap ? 2 * w->cap : 1024;
			w->rate = pl_xrealloc(w->rate, w->cap * sizeof(*w->rate));
			w->when = pl_xrealloc(w->when, w->cap * sizeof(*w->when));
		}
		w->rate[w->n] = (double)PL_FREQ_CHUNK / (double)(now - prev) * 1e3;
		w->when[w->n++] = now - w->t0;
		prev = now;
	}
	pl_bench_sink = x;
	if (am_ok && am_read(&am, a1) == 0 && a1[1] > a0[1])
		w->am_ratio = (double)(a1[0] - a0[0]) / (double)(a1[1] - a0[1]);
	am_close(&am);
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Median of @v[0..n-1] (sorted in place); NaN when empty. */
static double median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Run the chain on @cpus[0..k-1] at once for @secs (the workers spin at a gate until all
 * are pinned, then start together). Returns 0 with @w[0..k-1] filled
 * (free with workers_free()), or -errno with the message set. */
static int run_step(struct pl_bench_ctx *ctx, const unsigned *cpus, unsigned k, double secs,
		    bool use_am, struct freq_worker *w)
{
	atomic_int gate = 0;
	unsigned started = 0;
	int r = 0;
	for (unsigned i = 0; i < k; i++) {
		w[i] = (struct freq_worker){ .cpu = cpus[i], .gate = &gate, .use_am = use_am };
		int e = pthread_create(&w[i].tid, NULL, worker_main, &w[i]);
		if (e) {
			pl_bench_error(ctx, "cannot start a thread: %s", strerror(e));
			r = -e;
			break;
		}
		started++;
	}
	/* every worker pinned (and its counters open) before the clock starts */
	for (bool all = false; !all && r == 0;) {
		all = true;
		for (unsigned i = 0; i < started; i++)
			all = all && atomic_load(&w[i].ready);
	}
	uint64_t t0 = pl_now_ns();
	for (unsigned i = 0; i < started; i++) {
		w[i].t0 = t0;
		w[i].t_end = t0 + (uint64_t)(secs * 1e9);
	}
	atomic_store(&gate, r == 0 ? 1 : -1);
	for (unsigned i = 0; i < started; i++)
		pthread_join(w[i].tid, NULL);
	for (unsigned i = 0; i < started && r == 0; i++)
		if (w[i].err < 0) {
			pl_bench_error(ctx, "cannot pin a thread to CPU %u: %s", w[i].cpu,
				       strerror(-w[i].err));
			r = w[i].err;
		}
	return r;
}

static void workers_free(struct freq_worker *w, unsigned k)
{
	for (unsigned i = 0; i < k; i++) {
		free(w[i].rate);
		free(w[i].when);
		w[i].rate = NULL;
		w[i].when = NULL;
	}
}

/* ---- the benchmark ---- */

struct freq_opts {
	double time;	 /* s per step */
	double duration; /* s of the sustained step, 0 = none */
	double sample;	 /* s per sample of the sustained step */
	int max_busy;	 /* 0 = every CPU of the run */
};

static const struct freq_opts freq_defaults = { .time = 0.2, .sample = 1 };

static const struct pl_opt freq_opt_table[] = {
	{ "time", 0, PL_OPT_DURATION, offsetof(struct freq_opts, time), "S",
	  "length of each step (one CPU alone, K CPUs busy)", .min = 0.005, .max = 60,
	  .def = "200ms" },
	{ "duration", 'd', PL_OPT_DURATION, offsetof(struct freq_opts, duration), "S",
	  "also keep every CPU of the run busy this long, sampled each --sample (throttling)",
	  .min = 0.01, .max = 86400 },
	{ "sample", 0, PL_OPT_DURATION, offsetof(struct freq_opts, sample), "S",
	  "sample length of --duration", .min = 0.005, .max = 3600, .def = "1s" },
	{ "max-busy", 0, PL_OPT_INT, offsetof(struct freq_opts, max_busy), "N",
	  "scaling curve up to N busy CPUs (default: all CPUs of the run)", .min = 1, .max = 8192 },
	PL_OPT_END,
};

struct freq_state {
	unsigned cpus[PL_MAX_CPUS];
	unsigned n, max_busy;
	int *m_cpu, *m_am, *m_busy;
	int m_first, m_last;
	bool use_am;
	double tsc_mhz;
	json_t *series; /* the last run's sustained samples */
};

/* The TSC's rate against CLOCK_MONOTONIC over 50 ms, MHz; NaN off x86. */
static double tsc_mhz(void)
{
#if defined(__x86_64__) || defined(__i386__)
	uint64_t t0 = pl_now_ns(), c0 = __rdtsc();
	struct timespec d = { 0, 50000000 };
	nanosleep(&d, NULL);
	uint64_t c1 = __rdtsc(), t1 = pl_now_ns();
	return (double)(c1 - c0) / (double)(t1 - t0) * 1e3;
#else
	return NAN;
#endif
}

static int freq_setup(struct pl_bench_ctx *ctx, void *vo, void **out)
{
	struct freq_opts *o = vo;
	struct freq_state *s = pl_xcalloc(1, sizeof(*s));
	const struct pl_cpuset *run = pl_bench_cpus(ctx);
	for (int c = pl_cpuset_next(run, 0); c >= 0; c = pl_cpuset_next(run, (unsigned)c + 1))
		s->cpus[s->n++] = (unsigned)c;
	if (o->max_busy > 0 && (unsigned)o->max_busy > s->n) {
		pl_bench_error(ctx,
			       "--max-busy %d: more than the CPUs of the run (%u); use --cpus to "
			       "choose CPUs",
			       o->max_busy, s->n);
		free(s);
		return -EINVAL;
	}
	s->max_busy = o->max_busy > 0 ? (unsigned)o->max_busy : s->n;
	json_t *info = pl_bench_info(ctx);
	json_object_set_new(info, "method",
			    pl_json_string("dependent integer adds, 1 cycle each: adds / ns"));
	s->tsc_mhz = tsc_mhz();
	json_object_set_new(info, "tsc_mhz",
			    isfinite(s->tsc_mhz) ? json_real(s->tsc_mhz) : json_null());
	/* what the kernel says, per CPU */
	pl_autofree char *ci = NULL;
	json_t *cim = json_object(), *cur = json_object();
	bool have_cur = false;
	if (pl_read_file("/proc/cpuinfo", &ci, NULL) < 0)
		ci = NULL;
	for (unsigned i = 0; i < s->n; i++) {
		char key[16];
		snprintf(key, sizeof(key), "%u", s->cpus[i]);
		double mhz;
		if (ci && pl_freq_cpuinfo_mhz(ci, s->cpus[i], &mhz) == 0)
			json_object_set_new(cim, key, json_real(mhz));
		uint64_t khz;
		if (pl_read_u64f(&khz, "/sys/devices/system/cpu/cpu%u/cpufreq/scaling_cur_freq",
				 s->cpus[i]) == 0) {
			json_object_set_new(cur, key, json_real((double)khz / 1e3));
			have_cur = true;
		}
	}
	json_object_set_new(info, "cpuinfo_mhz", cim);
	if (have_cur)
		json_object_set_new(info, "scaling_cur_mhz", cur);
	else
		json_decref(cur);
	/* APERF/MPERF: tried on the first CPU from this thread, pinned there for a moment */
	char why[256] = "";
	struct am_counters am;
	cpu_set_t old;
	bool had = sched_getaffinity(0, sizeof(old), &old) == 0;
	if (pl_bench_pin_thread(s->cpus[0]) == 0 &&
	    am_open(&am, s->cpus[0], why, sizeof(why)) == 0) {
		s->use_am = true;
		json_object_set_new(info, "aperf_mperf",
				    pl_json_string(am.kind == AM_PERF ? "perf_event msr PMU"
								      : "/dev/cpu/N/msr"));
		am_close(&am);
	} else {
		json_object_set_new(info, "aperf_mperf", pl_json_string("unavailable"));
		pl_bench_note(ctx, "APERF/MPERF not readable (%s)%s", why,
			      strstr(why, "msr PMU") ? "; virtual machines usually hide them" : "");
	}
	if (had)
		sched_setaffinity(0, sizeof(old), &old);

	s->m_cpu = pl_xcalloc(s->n, sizeof(int));
	s->m_am = pl_xcalloc(s->n, sizeof(int));
	s->m_busy = pl_xcalloc(s->max_busy, sizeof(int));
	for (unsigned i = 0; i < s->n; i++) {
		char name[48];
		snprintf(name, sizeof(name), "cpu%u", s->cpus[i]);
		s->m_cpu[i] = pl_bench_metric(ctx, name, "MHz", PL_HIGHER_IS_BETTER,
					      i == 0 ? "the CPU alone busy: median chunk rate of "
						       "the add chain"
						     : NULL);
		s->m_am[i] = -1;
		if (s->use_am) {
			snprintf(name, sizeof(name), "cpu%u aperf/mperf", s->cpus[i]);
			s->m_am[i] = pl_bench_metric(ctx, name, "MHz", PL_HIGHER_IS_BETTER,
						     i == 0 ? "TSC rate x delta APERF / delta "
							      "MPERF over the same step"
							    : NULL);
		}
	}
	for (unsigned k = 1; k <= s->max_busy; k++) {
		char name[32];
		snprintf(name, sizeof(name), "busy %u", k);
		s->m_busy[k - 1] = pl_bench_metric(
			ctx, name, "MHz", PL_HIGHER_IS_BETTER,
			k == 1 ? "mean clock of the first K CPUs of the run, all busy at once"
			       : NULL);
	}
	s->m_first = s->m_last = -1;
	if (o->duration > 0) {
		s->m_first = pl_bench_metric(ctx, "sustained first", "MHz", PL_HIGHER_IS_BETTER,
					     "every CPU busy for --duration: the first --sample");
		s->m_last = pl_bench_metric(ctx, "sustained last", "MHz", PL_HIGHER_IS_BETTER,
					    "the last full --sample of --duration");
	}
	*out = s;
	return 0;
}

/* The sustained step: every CPU busy for --duration, the clock per --sample (median of
 * the chunks of all CPUs that ended in it). Records first and last; keeps the series. */
static int run_sustained(struct pl_bench_ctx *ctx, const struct freq_opts *o, struct freq_state *s,
			 struct freq_worker *w)
{
	int r = run_step(ctx, s->cpus, s->n, o->duration, false, w);
	if (r < 0)
		return r;
	size_t nb = (size_t)(o->duration / o->sample);
	if (nb < 1)
		nb = 1;
	uint64_t bw = (uint64_t)(o->sample * 1e9);
	json_decref(s->series);
	s->series = json_array();
	double first = NAN, last = NAN;
	double *v = NULL;
	size_t cap = 0;
	for (size_t b = 0; b < nb; b++) {
		size_t n = 0;
		for (unsigned i = 0; i < s->n; i++)
			for (size_t c = 0; c < w[i].n; c++)
				if (w[i].when[c] >= b * bw && w[i].when[c] < (b + 1) * bw) {
					if (n == cap) {
						cap = cap ? 2 * cap : 1024;
						v = pl_xrealloc(v, cap * sizeof(*v));
					}
					v[n++] = w[i].rate[c];
				}
		double m = median(v, n);
		json_t *o2 = json_object();
		json_object_set_new(o2, "t_s", json_real((double)(b + 1) * o->sample));
		json_object_set_new(o2, "mhz", isfinite(m) ? json_real(m) : json_null());
		json_array_append_new(s->series, o2);
		if (isfinite(m)) {
			if (!isfinite(first))
				first = m;
			last = m;
		}
	}
	free(v);
	workers_free(w, s->n);
	pl_bench_record(ctx, s->m_first, first);
	pl_bench_record(ctx, s->m_last, last);
	return 0;
}

static int freq_run(struct pl_bench_ctx *ctx, void *vo, void *vs)
{
	struct freq_opts *o = vo;
	struct freq_state *s = vs;
	struct freq_worker *w = pl_xcalloc(s->n, sizeof(*w));
	int r = 0;
	for (unsigned i = 0; i < s->n && r == 0; i++) {
		if (pl_bench_stopped(ctx)) {
			r = -EINTR;
			break;
		}
		r = run_step(ctx, &s->cpus[i], 1, o->time, s->use_am, w);
		if (r < 0)
			break;
		pl_bench_record(ctx, s->m_cpu[i], median(w[0].rate, w[0].n));
		if (s->m_am[i] >= 0 && isfinite(w[0].am_ratio) && isfinite(s->tsc_mhz))
			pl_bench_record(ctx, s->m_am[i], s->tsc_mhz * w[0].am_ratio);
		workers_free(w, 1);
	}
	for (unsigned k = 1; k <= s->max_busy && r == 0; k++) {
		if (pl_bench_stopped(ctx)) {
			r = -EINTR;
			break;
		}
		r = run_step(ctx, s->cpus, k, o->time, false, w);
		if (r < 0)
			break;
		double sum = 0;
		for (unsigned i = 0; i < k; i++)
			sum += median(w[i].rate, w[i].n);
		pl_bench_record(ctx, s->m_busy[k - 1], sum / k);
		workers_free(w, k);
	}
	if (r == 0 && o->duration > 0)
		r = pl_bench_stopped(ctx) ? -EINTR : run_sustained(ctx, o, s, w);
	workers_free(w, s->n);
	free(w);
	return r;
}

static void freq_teardown(struct pl_bench_ctx *ctx, void *vo, void *vs)
{
	(void)vo;
	struct freq_state *s = vs;
	if (s->series)
		json_object_set_new(pl_bench_info(ctx), "sustained_mhz", s->series);
	free(s->m_cpu);
	free(s->m_am);
	free(s->m_busy);
	free(s);
}

static const char *const freq_quick[] = { "--runs", "1", "--time", "50ms", NULL };

const struct pl_bench pl_bench_freq = {
	.name = "freq",
	.summary = "effective CPU clock (MHz) per CPU and with 1..N CPUs busy, from an add chain",
	.description =
		"A dependent chain of integer adds (one cycle each on x86-64 and arm64) runs\n"
		"in chunks; adds / elapsed ns is the clock, the median chunk per step. Steps:\n"
		"each CPU of the run alone, then the first 1, 2, ... N CPUs busy at once (the\n"
		"turbo curve), and with --duration every CPU busy that long, sampled each\n"
		"--sample (throttling). Reports the TSC rate, /proc/cpuinfo 'cpu MHz' and\n"
		"APERF/MPERF (perf_event msr PMU or /dev/cpu/N/msr) where readable.\n"
		"benchmarks/freq-vs-cpuinfo.sh compares with /proc/cpuinfo and the TSC.",
	.opts = freq_opt_table,
	.opts_size = sizeof(struct freq_opts),
	.opts_defaults = &freq_defaults,
	.default_runs = 3,
	.uses_all_cpus = true,
	.pins_threads = true,
	.quick_argv = freq_quick,
	.setup = freq_setup,
	.run = freq_run,
	.teardown = freq_teardown,
};
