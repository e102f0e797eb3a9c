/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench ticks: local timer interrupts per second on one CPU while a busy loop runs there,
 * the check of the field report that nohz_full works (about CONFIG_HZ per second on an
 * ordinary CPU, about 1 per second on a nohz_full CPU running one task; Documentation/
 * timers/no_hz.rst). The count is the delta of the CPU's column of the local timer row of
 * /proc/interrupts over --duration; the CPU's isolation state comes from the kernel
 * command line (nohz_full=, isolcpus=, rcu_nocbs=) via the kernel facts. */
#include "bench/ticks.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench.h"
#include "facts/facts.h"
#include "util/json.h"
#include "util/str.h"
#include "util/sysroot.h"

int pl_irq_parse(const char *text, unsigned cpu, struct pl_irq_counts *out)
{
	const char *eol = strchr(text, '\n');
	if (!eol)
		return -EINVAL;
	/* header: the column index of "CPU<cpu>" */
	int col = -1, ncols = 0;
	for (const char *p = text; p < eol;) {
		while (p < eol && isspace((unsigned char)*p))
			p++;
		if (p >= eol)
			break;
		unsigned n;
		int used = 0;
		if (sscanf(p, "CPU%u%n", &n, &used) != 1)
			return -EINVAL;
		if (n == cpu)
			col = ncols;
		ncols++;
		p += used;
	}
	if (ncols == 0)
		return -EINVAL;
	if (col < 0)
		return -ENOENT;
	struct pl_irq_counts c = { 0 };
	bool have_timer = false;
	for (const char *line = eol + 1; *line;) {
		const char *end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		const char *colon = memchr(line, ':', (size_t)(end - line));
		if (colon) {
			char name[32];
			const char *s = line;
			while (s < colon && isspace((unsigned char)*s))
				s++;
			snprintf(name, sizeof(name), "%.*s", (int)(colon - s), s);
			/* ncols counts, then the description */
			const char *p = colon + 1;
			uint64_t mine = 0;
			int got = 0;
			while (got < ncols) {
				while (p < end && isspace((unsigned char)*p))
					p++;
				if (p >= end || !isdigit((unsigned char)*p))
					break;
				char *q;
				uint64_t v = strtoull(p, &q, 10);
				if (got == col)
					mine = v;
				got++;
				p = q;
			}
			if (got == ncols) {
				c.total += mine;
				bool x86 = strcmp(name, "LOC") == 0;
				/* arm64: the description's last word is the handler name */
				const char *d = end;
				while (d > p && isspace((unsigned char)d[-1]))
					d--;
				bool arm = d - p >= 10 && strncmp(d - 10, "arch_timer", 10) == 0 &&
					   (d - 10 == p || isspace((unsigned char)d[-11]));
				if (x86 || arm) {
					c.timer += mine;
					c.timer_row = x86 ? "LOC" : "arch_timer";
					have_timer = true;
				}
			}
		}
		line = *end ? end + 1 : end;
	}
	if (!have_timer)
		return -ENOENT;
	*out = c;
	return 0;
}

int pl_isolation_cpus(const char *value, unsigned ncpus, struct pl_cpuset *out)
{
	pl_cpuset_clear(out);
	if (!value || !*value)
		return 0;
	if (strcmp(value, "all") == 0) {
		for (unsigned i = 0; i < ncpus && i < PL_MAX_CPUS; i++)
			pl_cpuset_set(out, i);
		return 0;
	}
	/* drop isolcpus flags (letters), keep the cpulist parts */
	char **v = pl_split(value, ",", NULL);
	struct pl_buf b = { 0 };
	for (char **p = v; *p; p++)
		if (isdigit((unsigned char)**p))
			pl_buf_printf(&b, "%s%s", b.len ? "," : "", *p);
	pl_strv_free(v);
	struct pl_cpuset s;
	int r = pl_cpuset_parse(b.data ? b.data : "", &s);
	pl_buf_free(&b);
	if (r < 0)
		return -EINVAL;
	*out = s;
	return 0;
}

struct ticks_opts {
	int cpu; /* -1 = automatic */
	double duration;
};

static const struct ticks_opts ticks_defaults = { .cpu = -1, .duration = 1.0 };

static const struct pl_opt ticks_opt_table[] = {
	{ "cpu", 0, PL_OPT_INT, offsetof(struct ticks_opts, cpu), "N",
	  "the CPU to load and count (default: the first nohz_full CPU of the run, else its "
	  "last CPU)",
	  .min = 0, .max = PL_MAX_CPUS - 1 },
	{ "duration", 'd', PL_OPT_DURATION, offsetof(struct ticks_opts, duration), "S",
	  "counting interval of one run", .min = 0.05, .max = 3600, .def = "1s" },
	PL_OPT_END,
};

struct ticks_state {
	unsigned cpu;
	pthread_t tid;
	volatile int spin;
	int m_timer, m_total;
	bool started;
	int pin_err;
	int64_t hz;	  /* kernel.config_hz, or 0 when unknown */
	double rates[64]; /* local timer rate of each run (the first 64) */
	size_t nrates;
};

char *pl_ticks_hz_remark(double rate, int64_t hz, unsigned cpu)
{
	if (hz <= 0 || !(rate > 1.5 * (double)hz))
		return NULL;
	return pl_xasprintf("local timer interrupts at %.0f/s, %.1fx this kernel's CONFIG_HZ=%lld: "
			    "other timers fire on CPU %u (high-resolution timers of other tasks, "
			    "e.g. a 1 kHz cyclictest), not only the tick",
			    rate, rate / (double)hz, (long long)hz, cpu);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void *busy_main(void *arg)
{
	struct ticks_state *s = arg;
	s->pin_err = pl_bench_pin_thread(s->cpu);
	while (s->spin)
		__asm__ volatile("" ::: "memory");
	return NULL;
}

static int read_counts(unsigned cpu, struct pl_irq_counts *c)
{
	char *text;
	int r = pl_read_file("/proc/interrupts", &text, NULL);
	if (r < 0)
		return r;
	r = pl_irq_parse(text, cpu, c);
	free(text);
	return r;
}

/* The kernel command line parameter @name as a string ("all" for a bare flag). */
static const char *param(const json_t *params, const char *name)
{
	const json_t *v = json_object_get(params, name);
	if (json_is_true(v))
		return "all";
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* The local timer row must be in /proc/interrupts (a container may hide the file; an
 * architecture other than x86 and arm64 names its timer differently). Checked for the
 * first CPU this process may run on. */
static int ticks_supported(const void *opts, char *reason, size_t len)
{
	(void)opts;
	cpu_set_t mine;
	unsigned cpu = 0;
	if (sched_getaffinity(0, sizeof(mine), &mine) == 0)
		while (cpu < CPU_SETSIZE - 1 && !CPU_ISSET(cpu, &mine))
			cpu++;
	struct pl_irq_counts c;
	int r = read_counts(cpu, &c);
	if (r == 0)
		return 0;
	snprintf(reason, len, "/proc/interrupts: %s",
		 r == -ENOENT ? "no local timer row (LOC, arch_timer) or no column for CPU"
			      : pl_read_strerror(r));
	return -ENOTSUP;
}

static int ticks_setup(struct pl_bench_ctx *ctx, void *vo, void **out)
{
	struct ticks_opts *o = vo;
	const struct pl_cpuset *set = pl_bench_cpus(ctx);
	struct pl_facts f;
	pl_facts_init(&f);
	for (size_t i = 0; i < pl_ncollectors; i++)
		if (strcmp(pl_collectors[i].name, "kernel") == 0)
			pl_collectors[i].collect(&f);
	const json_t *params = pl_facts_value(&f, "kernel.cmdline.params");
	static const char *const names[] = { "nohz_full", "isolcpus", "rcu_nocbs" };
	struct pl_cpuset iso[3];
	for (int k = 0; k < 3; k++)
		if (pl_isolation_cpus(param(params, names[k]), PL_MAX_CPUS, &iso[k]) < 0)
			pl_cpuset_clear(&iso[k]);

	int cpu = o->cpu;
	if (cpu < 0) {
		for (int c = pl_cpuset_next(set, 0); c >= 0;
		     c = pl_cpuset_next(set, (unsigned)c + 1)) {
			if (pl_cpuset_isset(&iso[0], (unsigned)c)) {
				cpu = c;
				break;
			}
			cpu = c; /* the last one when none is nohz_full */
		}
	} else if (!pl_cpuset_isset(set, (unsigned)cpu)) {
		char buf[128];
		pl_bench_error(ctx,
			       "--cpu %d is not one of the CPUs of the run (%s); choose one of "
			       "them or widen --cpus",
			       cpu, pl_cpuset_format(set, buf, sizeof(buf)));
		pl_facts_free(&f);
		return -EINVAL;
	}
	struct pl_irq_counts c0;
	int r = read_counts((unsigned)cpu, &c0);
	if (r < 0) {
		pl_bench_error(ctx, "/proc/interrupts: %s for CPU %d",
			       r == -ENOENT ? "no local timer row or no column"
					    : pl_read_strerror(r),
			       cpu);
		pl_facts_free(&f);
		return r == -ENOENT ? -ENOTSUP : r;
	}
	json_t *info = pl_bench_info(ctx);
	json_object_set_new(info, "cpu", json_integer(cpu));
	json_object_set_new(info, "timer_row", pl_json_string(c0.timer_row));
	for (int k = 0; k < 3; k++) {
		json_object_set_new(info, names[k],
				    json_boolean(pl_cpuset_isset(&iso[k], (unsigned)cpu)));
		const char *v = param(params, names[k]);
		char key[32];
		snprintf(key, sizeof(key), "cmdline_%s", names[k]);
		json_object_set_new(info, key, v ? pl_json_string(v) : json_null());
	}
	char *eff = NULL;
	if (pl_read_str("/sys/devices/system/cpu/nohz_full", &eff) == 0) {
		json_object_set_new(info, "sysfs_nohz_full", pl_json_string(eff));
		free(eff);
	}
	if (!params)
		pl_bench_note(ctx,
			      "the kernel command line is unreadable: isolation state unknown");
	int64_t hz = 0;
	const struct pl_fact *hzf = pl_facts_get(&f, "kernel.config_hz");
	const char *hz_src = hzf ? hzf->source : NULL;
	if (pl_facts_get_int(&f, "kernel.config_hz", &hz) && hz > 0)
		pl_bench_note(ctx,
			      "expect about CONFIG_HZ ticks/s (%lld on this kernel, from %s) on an "
			      "ordinary CPU and about 1/s on a nohz_full CPU that runs only the "
			      "busy loop",
			      (long long)hz, hz_src ? hz_src : "the kernel config");
	else
		pl_bench_note(ctx, "expect about CONFIG_HZ ticks/s (100-1000; this kernel's is "
				   "unknown) on an ordinary CPU and about 1/s on a nohz_full CPU "
				   "that runs only the busy loop");
	pl_facts_free(&f);

	struct ticks_state *s = pl_xcalloc(1, sizeof(*s));
	s->hz = hz > 0 ? hz : 0;
	s->cpu = (unsigned)cpu;
	s->spin = 1;
	/* the reader must not share the CPU, or its wakeups add ticks */
	cpu_set_t others;
	CPU_ZERO(&others);
	if (sched_getaffinity(0, sizeof(others), &others) == 0) {
		CPU_CLR(cpu, &others);
		if (CPU_COUNT(&others) > 0)
			sched_setaffinity(0, sizeof(others), &others);
		else
			pl_bench_warn(ctx,
				      "no other CPU for the reader: its wakeups on CPU %d add "
				      "interrupts",
				      cpu);
	}
	r = pthread_create(&s->tid, NULL, busy_main, s);
	if (r) {
		pl_bench_error(ctx, "cannot start the busy thread: %s", strerror(r));
		free(s);
		return -r;
	}
	s->started = true;
	s->m_timer = pl_bench_metric(ctx, "local timer interrupts", "1/s", PL_NEITHER,
				     "ticks/s on the busy CPU");
	s->m_total = pl_bench_metric(ctx, "all interrupts", "1/s", PL_NEITHER,
				     "every /proc/interrupts row of the CPU");
	*out = s;
	return 0;
}

static int ticks_run(struct pl_bench_ctx *ctx, void *vo, void *vs)
{
	struct ticks_opts *o = vo;
	struct ticks_state *s = vs;
	if (s->pin_err < 0) {
		pl_bench_error(ctx, "cannot pin the busy loop to CPU %u: %s", s->cpu,
			       strerror(-s->pin_err));
		return s->pin_err;
	}
	struct pl_irq_counts a, b;
	int r = read_counts(s->cpu, &a);
	uint64_t t0 = pl_now_ns();
	uint64_t end = t0 + (uint64_t)(o->duration * 1e9);
	/* sleep in slices so SIGINT is noticed */
	while (r == 0 && pl_now_ns() < end) {
		if (pl_bench_stopped(ctx))
			return -EINTR;
		uint64_t left = end - pl_now_ns();
		if (left > 100000000)
			left = 100000000;
		struct timespec d = { 0, (long)left };
		nanosleep(&d, NULL);
	}
	if (r == 0)
		r = read_counts(s->cpu, &b);
	double secs = (double)(pl_now_ns() - t0) / 1e9;
	if (r < 0) {
		pl_bench_error(ctx, "/proc/interrupts: %s", pl_read_strerror(r));
		return r;
	}
	double rate = (double)(b.timer - a.timer) / secs;
	pl_bench_record(ctx, s->m_timer, rate);
	if (s->nrates < sizeof(s->rates) / sizeof(s->rates[0]))
		s->rates[s->nrates++] = rate;
	pl_bench_record(ctx, s->m_total, (double)(b.total - a.total) / secs);
	return 0;
}

static void ticks_teardown(struct pl_bench_ctx *ctx, void *vo, void *vs)
{
	(void)vo;
	struct ticks_state *s = vs;
	if (s->started) {
		s->spin = 0;
		pthread_join(s->tid, NULL);
	}
	/* the median rate against this kernel's HZ: a rate well above it is named */
	if (s->nrates) {
		qsort(s->rates, s->nrates, sizeof(s->rates[0]), cmp_double);
		double med = s->nrates % 2
				     ? s->rates[s->nrates / 2]
				     : (s->rates[s->nrates / 2 - 1] + s->rates[s->nrates / 2]) / 2;
		char *w = pl_ticks_hz_remark(med, s->hz, s->cpu);
		if (w)
			pl_bench_warn(ctx, "%s", w);
		free(w);
	}
	free(s);
}

static const char *const ticks_quick[] = { "--runs", "1", "--duration", "500ms", NULL };

const struct pl_bench pl_bench_ticks = {
	.name = "ticks",
	.summary = "local timer interrupts per second on a busy CPU (does nohz_full work?)",
	.description =
		"A thread spins on one CPU (--cpu) while the local timer row of\n"
		"/proc/interrupts (LOC on x86, arch_timer on arm64) is read before and after\n"
		"--duration; the reader runs on another CPU. An ordinary CPU takes about\n"
		"CONFIG_HZ ticks per second (kernel.config_hz, from /proc/config.gz or\n"
		"/boot/config-RELEASE; a median above 1.5x it is a warning: other timers on\n"
		"the CPU); a nohz_full CPU running one task about 1. The\n"
		"CPU's nohz_full, isolcpus and rcu_nocbs state from the kernel command line is\n"
		"reported with the result.",
	.opts = ticks_opt_table,
	.opts_size = sizeof(struct ticks_opts),
	.opts_defaults = &ticks_defaults,
	.default_runs = 3,
	.max_cv = 0.2,
	.uses_all_cpus = true,
	.pins_threads = true,
	.quick_argv = ticks_quick,
	.in_report = true,
	.supported = ticks_supported,
	.setup = ticks_setup,
	.run = ticks_run,
	.teardown = ticks_teardown,
};
