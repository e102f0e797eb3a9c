/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A stand-in for the metric table and evaluator of metric.h: the software metrics that
 * perf stat prints beside its default events (tools/perf/util/stat-shadow.c: CPUs
 * utilized, and the software events per second of task-clock), and an evaluator of
 * + - * / and parentheses over event names, duration_time and #num_cpus. */
#include "counters/metric.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ev_task[] = { "task-clock", NULL };
static const char *const ev_cs[] = { "context-switches", "task-clock", NULL };
static const char *const ev_mig[] = { "cpu-migrations", "task-clock", NULL };
static const char *const ev_pf[] = { "page-faults", "task-clock", NULL };

#define STAT_SHADOW "tools/perf/util/stat-shadow.c (perf stat's shadow metrics)"
static const struct pl_metric table[] = {
	{ "cpus_utilized", "software", "any", ev_task, "task-clock / (duration_time * 1000)",
	  "CPUs", NAN, false, "CPUs busy on average over the run", STAT_SHADOW },
	{ "context_switches_per_sec", "software", "any", ev_cs,
	  "context-switches / (task-clock / 1000)", "/s", NAN, false,
	  "context switches per second of CPU time", STAT_SHADOW },
	{ "cpu_migrations_per_sec", "software", "any", ev_mig,
	  "cpu-migrations / (task-clock / 1000)", "/s", NAN, false,
	  "migrations per second of CPU time", STAT_SHADOW },
	{ "page_faults_per_sec", "software", "any", ev_pf, "page-faults / (task-clock / 1000)",
	  "/s", NAN, false, "page faults per second of CPU time", STAT_SHADOW },
};

const struct pl_metric *pl_metric_table(size_t *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}

int pl_metric_select(const char *spec, const char *pmu_kind, const struct pl_metric **out,
		     size_t max, char *err, size_t errlen)
{
	size_t n = 0;
	char *copy = strdup(spec), *save = NULL;
	if (!copy)
		return -ENOMEM;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		bool found = false;
		for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
			const struct pl_metric *m = &table[i];
			if (strcmp(t, m->name) && strcmp(t, m->group))
				continue;
			found = true;
			if (strcmp(m->pmu_kind, "any") && strcmp(m->pmu_kind, pmu_kind))
				continue;
			bool dup = false;
			for (size_t k = 0; k < n; k++)
				dup |= out[k] == m;
			if (!dup && n < max)
				out[n++] = m;
		}
		if (!found) {
			snprintf(err, errlen,
				 "unknown metric or group '%s' (perflab stat --list shows them)",
				 t);
			free(copy);
			return -ENOENT;
		}
	}
	free(copy);
	return (int)n;
}

struct ev {
	const char *p;
	const struct pl_cnt_result *r;
	char *missing;
	size_t missinglen;
	int err;
};

static double expr(struct ev *e);

static void skip(struct ev *e)
{
	while (isspace((unsigned char)*e->p))
		e->p++;
}

static double atom(struct ev *e)
{
	skip(e);
	if (*e->p == '(') {
		e->p++;
		double v = expr(e);
		skip(e);
		if (*e->p == ')')
			e->p++;
		else
			e->err = e->err ? e->err : -EINVAL;
		return v;
	}
	if (isdigit((unsigned char)*e->p) || *e->p == '.') {
		char *end;
		double v = strtod(e->p, &end);
		e->p = end;
		return v;
	}
	const char *s = e->p;
	while (*e->p && (isalnum((unsigned char)*e->p) || strchr("_-:./#", *e->p)))
		e->p++;
	char name[PL_CNT_NAME_MAX];
	snprintf(name, sizeof(name), "%.*s", (int)(e->p - s), s);
	if (!name[0]) {
		e->err = e->err ? e->err : -EINVAL;
		return NAN;
	}
	if (!strcmp(name, "duration_time"))
		return (double)e->r->elapsed_ns / 1e9;
	if (!strcmp(name, "#num_cpus"))
		return e->r->ncpus;
	double v = pl_cnt_result_sum(e->r, name);
	if (isnan(v) && !e->err) {
		e->err = -ENOENT;
		snprintf(e->missing, e->missinglen, "%s", name);
	}
	return v;
}

static double term(struct ev *e)
{
	double v = atom(e);
	for (;;) {
		skip(e);
		char op = *e->p;
		if (op != '*' && op != '/')
			return v;
		e->p++;
		double w = atom(e);
		if (op == '/' && w == 0 && !e->err)
			e->err = -EDOM;
		v = op == '*' ? v * w : v / w;
	}
}

static double expr(struct ev *e)
{
	double v = term(e);
	for (;;) {
		skip(e);
		char op = *e->p;
		if (op != '+' && op != '-')
			return v;
		e->p++;
		double w = term(e);
		v = op == '+' ? v + w : v - w;
	}
}

int pl_metric_eval(const struct pl_metric *m, const struct pl_cnt_result *r, double *value,
		   char *missing, size_t missinglen)
{
	struct ev e = { m->expr, r, missing, missinglen, 0 };
	double v = expr(&e);
	if (e.err)
		return e.err;
	*value = v;
	return 0;
}
