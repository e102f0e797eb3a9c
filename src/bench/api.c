/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a benchmark calls during its run (bench.h): metrics and their values, notes,
 * warnings and errors, the run's CPUs, thread pinning and timed-loop calibration. The run
 * loop that calls the benchmark is runner.c. */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/internal.h"
#include "util/json.h"
#include "util/str.h"

volatile uint64_t pl_bench_sink;

int pl_bench_metric(struct pl_bench_ctx *c, const char *name, const char *unit,
		    enum pl_better better, const char *help)
{
	if (c->nm == c->capm) {
		c->capm = c->capm ? 2 * c->capm : 16;
		c->m = pl_xrealloc(c->m, c->capm * sizeof(*c->m));
	}
	struct metric *m = &c->m[c->nm];
	memset(m, 0, sizeof(*m));
	m->name = pl_xstrdup(name);
	m->unit = pl_xstrdup(unit);
	m->help = help ? pl_xstrdup(help) : NULL;
	m->better = better;
	m->cur = NAN;
	return (int)c->nm++;
}

void pl_bench_metric_note(struct pl_bench_ctx *c, int i, const char *key, const char *value)
{
	if (i < 0 || (size_t)i >= c->nm)
		return;
	if (!c->m[i].notes)
		c->m[i].notes = json_object();
	json_object_set_new(c->m[i].notes, key, pl_json_string(value));
}

void pl_bench_record(struct pl_bench_ctx *c, int i, double value)
{
	if (i >= 0 && (size_t)i < c->nm)
		c->m[i].cur = value;
}

struct pl_hist *pl_bench_hist(struct pl_bench_ctx *c, int i)
{
	if (i < 0 || (size_t)i >= c->nm)
		return NULL;
	struct metric *m = &c->m[i];
	if (!m->stage) {
		m->stage = pl_xcalloc(1, sizeof(*m->stage));
		m->total = pl_xcalloc(1, sizeof(*m->total));
		pl_hist_init(m->stage, PL_HIST_BITS);
		pl_hist_init(m->total, PL_HIST_BITS);
	}
	return m->stage;
}

void pl_bench_set_summary(struct pl_bench_ctx *c, const char *summary)
{
	c->summary = summary;
}

json_t *pl_bench_info(struct pl_bench_ctx *c)
{
	return c->info;
}

static void append_fmt(json_t *arr, const char *fmt, va_list ap)
{
	struct pl_buf b = { 0 };
	pl_buf_vprintf(&b, fmt, ap);
	json_array_append_new(arr, pl_json_string(b.data ? b.data : ""));
	pl_buf_free(&b);
}

void pl_bench_note(struct pl_bench_ctx *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	append_fmt(c->notes, fmt, ap);
	va_end(ap);
}

void pl_bench_warn(struct pl_bench_ctx *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	append_fmt(c->warnings, fmt, ap);
	va_end(ap);
}

void pl_bench_error(struct pl_bench_ctx *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
}

void pl_bench_invalidate(struct pl_bench_ctx *c, const char *fmt, ...)
{
	if (c->invalid[0])
		return; /* the first reason is the one to fix */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->invalid, sizeof(c->invalid), fmt, ap);
	va_end(ap);
}

double pl_bench_max_time(const struct pl_bench_ctx *c)
{
	return c->max_time;
}

bool pl_bench_warming_up(const struct pl_bench_ctx *c)
{
	return c->warming;
}

const struct pl_cpuset *pl_bench_cpus(const struct pl_bench_ctx *c)
{
	return &c->cpus;
}

bool pl_bench_pinned(const struct pl_bench_ctx *c)
{
	return c->pinned;
}

void pl_bench_pinned_by_bench(struct pl_bench_ctx *c)
{
	c->self_pinned = true;
}

bool pl_bench_is_quick(const struct pl_bench_ctx *c)
{
	return c->quick;
}

const char *pl_bench_workdir(const struct pl_bench_ctx *c)
{
	return c->workdir;
}

int pl_bench_pin_thread(unsigned cpu)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	int r = sched_setaffinity(0, sizeof(s), &s);
	return r < 0 ? -errno : 0;
}

uint64_t pl_bench_calibrate(pl_bench_loop_fn loop, void *arg, uint64_t target_ns)
{
	uint64_t n = 1;
	for (;;) {
		uint64_t t = loop(arg, n);
		if (t >= target_ns / 8 || n >= (UINT64_C(1) << 40)) {
			/* the fastest of three: a preempted loop would make the count too small */
			for (int k = 0; k < 2; k++) {
				uint64_t t2 = loop(arg, n);
				t = t2 < t ? t2 : t;
			}
			double k = (double)target_ns / (double)(t ? t : 1) * (double)n;
			return k < 1 ? 1 : (uint64_t)k;
		}
		n *= t < target_ns / 100 ? 10 : 2;
	}
}
