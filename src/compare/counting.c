/* SPDX-License-Identifier: GPL-3.0-or-later */
/* compare --stat (counting.h): the --stat list into a counting plan and compare
 * metrics, a count opened on each held child, its values into the run's metrics. */
#include "compare/counting.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters/metric.h"
#include "counters/pmu.h"
#include "util/str.h"

/* The --stat list split at commas outside "pmu/.../" and "{...}" (owned strings). */
static char **split_spec(const char *spec)
{
	char **v = pl_xcalloc(strlen(spec) + 2, sizeof(char *));
	size_t n = 0;
	const char *start = spec;
	bool in_pmu = false;
	int brace = 0;
	for (const char *p = spec;; p++) {
		if (*p == '/')
			in_pmu = !in_pmu;
		else if (*p == '{')
			brace++;
		else if (*p == '}')
			brace--;
		if (*p == '\0' || (*p == ',' && !in_pmu && brace <= 0)) {
			v[n++] = pl_xasprintf("%.*s", (int)(p - start), start);
			if (*p == '\0')
				break;
			start = p + 1;
		}
	}
	return v;
}

static void add_note(struct pl_cmp_stat *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_note(struct pl_cmp_stat *st, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	for (size_t i = 0; i < st->nnotes; i++)
		if (!strcmp(st->notes[i], s)) {
			free(s);
			return;
		}
	st->notes = pl_xrealloc(st->notes, (st->nnotes + 1) * sizeof(char *));
	st->notes[st->nnotes++] = s;
}

/* One counter metric of the session: @m (a formula) or @event (a count). */
static int add_counter(struct pl_cmp_stat *st, struct pl_cmp_session *s, const char *name,
		       const char *unit, const struct pl_metric *m, const char *event, char *err,
		       size_t errlen)
{
	for (size_t i = 0; i < s->nm; i++)
		if (!strcmp(s->m[i].name, name)) {
			if (s->m[i].src == PL_CMP_SRC_COUNTER)
				return 0; /* named twice in the list, or a metric's event too */
			pl_cmp_seterr(err, errlen,
				      "--stat '%s': the name '%s' is taken by another metric "
				      "(rename the --metric)",
				      st->spec, name);
			return -EINVAL;
		}
	if (!pl_cmp_session_add_counter(s, name, unit))
		return -EINVAL;
	st->metric = pl_xrealloc(st->metric, (st->n + 1) * sizeof(*st->metric));
	st->event = pl_xrealloc(st->event, (st->n + 1) * sizeof(*st->event));
	st->metric[st->n] = m;
	st->event[st->n] = event ? pl_xstrdup(event) : NULL;
	st->n++;
	return 0;
}

int pl_cmp_stat_init(struct pl_cmp_stat *st, struct pl_cmp_session *s, const char *spec, char *err,
		     size_t errlen)
{
	const char *fix = "perflab stat --list shows the metrics, groups and events";
	st->spec = pl_xstrdup(spec);
	st->core = pl_pmu_have_core(st->core_why, sizeof(st->core_why));
	const char *kind = pl_cnt_pmu_kind(st->core);
	char **tok = split_spec(spec);
	int r = 0;
	for (size_t i = 0; tok[i] && r == 0; i++) {
		char e1[512], e2[512];
		const struct pl_metric *ms[PL_CNT_PLAN_METRICS];
		if (!tok[i][0]) {
			pl_cmp_seterr(err, errlen,
				      "--stat '%s': an empty name (give metric, group or event "
				      "names, comma-separated, e.g. --stat page-faults,"
				      "page_fault_rate)",
				      spec);
			r = -EINVAL;
		} else if (pl_metric_select(tok[i], kind, ms, PL_CNT_PLAN_METRICS, e1, sizeof(e1)) >
			   0) {
			if (pl_cnt_plan_metrics(&st->plan, tok[i], kind, false, e2, sizeof(e2)) <
			    0) {
				pl_cmp_seterr(err, errlen, "--stat '%s': %s", spec, e2);
				r = -EINVAL;
			}
		} else {
			int k = pl_cnt_plan_events(&st->plan, tok[i], e2, sizeof(e2));
			if (k == -ENOENT && !strpbrk(tok[i], "/:{")) {
				pl_cmp_seterr(err, errlen,
					      "--stat '%s': '%s' is no metric, metric group or "
					      "event (%s)",
					      spec, tok[i], fix);
				r = -EINVAL;
			} else if (k < 0) {
				pl_cmp_seterr(err, errlen, "--stat '%s': %s", spec, e2);
				r = -EINVAL;
			}
		}
	}
	pl_strv_free(tok);
	if (r < 0)
		return r;
	s->stat = st;
	st->first = s->nm;
	for (size_t i = 0; i < st->plan.nmetrics && r == 0; i++)
		r = add_counter(st, s, st->plan.metrics[i]->name, st->plan.metrics[i]->unit,
				st->plan.metrics[i], NULL, err, errlen);
	for (size_t i = 0; i < st->plan.n && r == 0; i++)
		r = add_counter(st, s, st->plan.evs[i].name, st->plan.evs[i].unit, NULL,
				st->plan.evs[i].name, err, errlen);
	return r;
}

int pl_cmp_stat_held(void *ctx, pid_t pid)
{
	struct pl_cmp_stat *st = ctx;
	struct pl_cnt_config cfg = {
		.evs = st->plan.evs,
		.nevs = st->plan.n,
		.group = st->plan.group,
		.held = pid,
	};
	st->err[0] = '\0';
	pl_cmp_stat_close(st);
	int r = pl_cnt_session_open(&st->cs, &cfg, st->err, sizeof(st->err));
	st->open = true;
	if (r < 0) {
		pl_cmp_stat_close(st);
		return r;
	}
	/* refused everywhere: the permission, not this PMU, is what is missing */
	size_t refused = 0;
	for (size_t i = 0; i < st->plan.n; i++)
		refused += st->cs.ev_errno[i] == EACCES || st->cs.ev_errno[i] == EPERM;
	if (st->plan.n && refused == st->plan.n) {
		int e = st->cs.ev_errno[0];
		pl_cmp_seterr(st->err, sizeof(st->err),
			      "--stat: cannot count '%s': perf_event_open refused (permission: "
			      "lower kernel.perf_event_paranoid, or run with CAP_PERFMON)",
			      st->plan.evs[0].name);
		pl_cmp_stat_close(st);
		return -e;
	}
	return 0;
}

void pl_cmp_stat_collect(struct pl_cmp_stat *st, double wall_s, double *vals)
{
	if (!st || !st->open)
		return;
	struct pl_cnt_result r = { 0 };
	pl_cnt_session_read(&st->cs, &r, (uint64_t)(wall_s * 1e9 + 0.5));
	for (size_t i = 0; i < st->n; i++) {
		double *val = &vals[st->first + i];
		*val = NAN;
		if (st->event[i]) {
			size_t k = 0;
			while (k < st->plan.n && strcmp(st->plan.evs[k].name, st->event[i]))
				k++;
			*val = pl_cnt_result_sum(&r, st->event[i]);
			if (isnan(*val) && k < st->plan.n && st->cs.ev_why[k][0])
				add_note(st, "%s: unavailable: %s not on this PMU (%s)",
					 st->event[i], st->event[i],
					 !st->core && !strcmp(st->plan.evs[k].pmu, "cpu")
						 ? st->core_why
						 : st->cs.ev_why[k]);
			continue;
		}
		char missing[256] = "";
		double v;
		int e = pl_metric_eval(st->metric[i], &r, &v, missing, sizeof(missing));
		if (e == 0)
			*val = v;
		else if (e == -ENOENT)
			add_note(st, "%s: unavailable: %s not on this PMU", st->metric[i]->name,
				 missing);
		else
			add_note(st, "%s: no value in some runs (%s)", st->metric[i]->name,
				 missing);
	}
	pl_cnt_result_free(&r);
	pl_cmp_stat_close(st);
}

void pl_cmp_stat_close(struct pl_cmp_stat *st)
{
	if (!st || !st->open)
		return;
	pl_cnt_session_close(&st->cs);
	st->open = false;
}

void pl_cmp_stat_free(struct pl_cmp_stat *st)
{
	if (!st)
		return;
	pl_cmp_stat_close(st);
	pl_cnt_plan_free(&st->plan);
	for (size_t i = 0; i < st->n; i++)
		free(st->event[i]);
	free(st->event);
	free(st->metric);
	for (size_t i = 0; i < st->nnotes; i++)
		free(st->notes[i]);
	free(st->notes);
	free(st->spec);
	memset(st, 0, sizeof(*st));
}
