/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --precision for every benchmark: the runner (runner.c) repeats a benchmark until each
 * headline metric's 95% confidence interval of the median is within the asked precision,
 * --max-time has passed or PL_BENCH_PRECISION_MAX_RUNS runs are done. This file holds
 * the option checks, the stop rule, the headline metrics of a run, the warm-up drop and
 * the result's runner.precision object and text line; the statistics are stats/settle.h
 * (the order-statistic interval of the median compare reports, stats/robust.h). */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/internal.h"
#include "stats/settle.h"
#include "stats/summary.h"
#include "util/json.h"
#include "util/log.h"
#include "util/opt.h"
#include "util/str.h"

int pl_bench_run_opts_check(struct pl_bench_run_opts *ro, bool runs_given)
{
	ro->precision = 0;
	if (!ro->precision_arg)
		return 0;
	double p;
	char *t = pl_xstrdup(ro->precision_arg);
	size_t tl = strlen(t);
	if (tl && t[tl - 1] == '%')
		t[tl - 1] = '\0';
	/* a number above the cap gets the cap in its error, not the parser's "above 0" */
	bool over = pl_parse_double(t, &p) == 0 && p / 100 > PL_BENCH_PRECISION_MAX;
	free(t);
	if (!over && pl_opt_parse_pct("precision", ro->precision_arg, &p) < 0)
		return -EINVAL;
	if (over || p > PL_BENCH_PRECISION_MAX) {
		pl_error("--precision '%s': give at most %.0f%% (e.g. 1%%)", ro->precision_arg,
			 PL_BENCH_PRECISION_MAX * 100);
		return -EINVAL;
	}
	if (runs_given && ro->runs > 0) {
		pl_error("--runs and --precision exclude each other (a fixed count, or runs until "
			 "the precision is reached): drop one");
		return -EINVAL;
	}
	ro->runs = 0;
	ro->precision = p;
	ro->max_time_default = !(ro->max_time > 0);
	if (ro->max_time_default)
		ro->max_time = PL_BENCH_PRECISION_MAX_TIME;
	if (ro->min_time > ro->max_time) {
		pl_error("--min-time is longer than --max-time (%g s > %g s): give a --max-time "
			 "of at least the --min-time",
			 ro->min_time, ro->max_time);
		return -EINVAL;
	}
	return 0;
}

double pl_bench_projected_s(size_t counted, double worst, double precision, double run_s)
{
	if (counted < PL_SETTLE_MIN_RUNS || !isfinite(worst) || !(precision > 0))
		return INFINITY;
	if (worst <= precision)
		return 0;
	double more =
		ceil((double)counted * (worst / precision) * (worst / precision)) - (double)counted;
	return more * run_s;
}

enum pl_bench_stop pl_bench_stop_rule(const struct pl_bench_run_opts *ro, size_t counted,
				      size_t done, double worst, double elapsed_s, double run_s)
{
	if (counted >= PL_SETTLE_MIN_RUNS && worst <= ro->precision && elapsed_s >= ro->min_time)
		return PL_BENCH_STOP_PRECISION;
	if (done >= PL_BENCH_PRECISION_MAX_RUNS)
		return PL_BENCH_STOP_MAX_RUNS;
	if (ro->max_time > 0 && elapsed_s >= ro->max_time &&
	    done >= PL_BENCH_PRECISION_FLOOR_RUNS) {
		if (ro->max_time_cap > ro->max_time && elapsed_s < ro->max_time_cap &&
		    elapsed_s + pl_bench_projected_s(counted, worst, ro->precision, run_s) <=
			    ro->max_time_cap)
			return PL_BENCH_STOP_NONE;
		return PL_BENCH_STOP_MAX_TIME;
	}
	return PL_BENCH_STOP_NONE;
}

const char *pl_bench_stop_name(enum pl_bench_stop s)
{
	switch (s) {
	case PL_BENCH_STOP_PRECISION:
		return "precision";
	case PL_BENCH_STOP_MAX_TIME:
		return "max-time";
	case PL_BENCH_STOP_MAX_RUNS:
		return "max-runs";
	case PL_BENCH_STOP_INTERRUPTED:
		return "interrupted";
	case PL_BENCH_STOP_NONE:
		break;
	}
	return NULL;
}

void pl_bench_mark_headline(struct pl_bench_ctx *c)
{
	bool any = false;
	for (size_t i = 0; i < c->nm; i++) {
		c->m[i].headline = false;
		for (const char *const *p = c->b->headline; p && *p; p++)
			if (fnmatch(*p, c->m[i].name, 0) == 0)
				c->m[i].headline = true;
		any = any || c->m[i].headline;
	}
	if (!any && c->nm)
		c->m[0].headline = true;
}

double pl_bench_precision_eval(const struct pl_bench_ctx *c, size_t *dropped)
{
	size_t d = 0;
	for (size_t i = 0; i < c->nm; i++)
		if (c->m[i].headline) {
			size_t w = pl_settle_warmup(c->m[i].v, c->m[i].n);
			d = w > d ? w : d;
		}
	if (d > PL_BENCH_WARMUP_MAX_DROP)
		d = PL_BENCH_WARMUP_MAX_DROP;
	double worst = 0;
	for (size_t i = 0; i < c->nm; i++) {
		const struct metric *m = &c->m[i];
		if (!m->headline)
			continue;
		size_t k = d < m->n ? d : m->n;
		worst = fmax(worst, pl_settle_precision(m->v + k, m->n - k, NULL, NULL));
	}
	*dropped = d;
	return worst;
}

void pl_bench_lead_merge(struct pl_bench_ctx *c, size_t d)
{
	for (size_t i = 0; i < c->nm; i++) {
		struct metric *m = &c->m[i];
		size_t k = d < m->n ? d : m->n;
		if (k) /* m->v is NULL while nothing was recorded */
			memmove(m->v, m->v + k, (m->n - k) * sizeof(double));
		m->n -= k;
		for (size_t j = 0; j < m->nlead; j++) {
			if (j >= d && m->total)
				pl_hist_merge(m->total, m->lead[j]);
			pl_hist_free(m->lead[j]);
			free(m->lead[j]);
			m->lead[j] = NULL;
		}
		m->nlead = 0;
	}
}

/* A finite number, or null (schema: "num"). */
static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *pl_bench_precision_json(const struct pl_bench_ctx *c, const struct pl_bench_run_opts *ro,
				enum pl_bench_stop stop, size_t counted, size_t dropped,
				double wall_s)
{
	json_t *p = json_object();
	json_object_set_new(p, "requested_pct", json_real(ro->precision * 100));
	json_object_set_new(p, "level", json_real(0.95));
	json_object_set_new(p, "method", pl_json_string("order-statistic CI of the median"));
	json_object_set_new(p, "max_time_s", json_real(ro->max_time));
	json_object_set_new(p, "max_time_from",
			    pl_json_string(ro->max_time_report	  ? "report"
					   : ro->max_time_default ? "default"
								  : "option"));
	json_object_set_new(p, "max_runs", json_integer(PL_BENCH_PRECISION_MAX_RUNS));
	json_object_set_new(p, "min_runs", json_integer(PL_SETTLE_MIN_RUNS));
	json_object_set_new(p, "runs", json_integer((json_int_t)counted));
	json_object_set_new(p, "warmup_dropped", json_integer((json_int_t)dropped));
	json_object_set_new(p, "stop", pl_json_string(pl_bench_stop_name(stop)));
	json_object_set_new(p, "wall_s", json_real(wall_s));
	double worst = 0;
	json_t *ms = json_array();
	for (size_t i = 0; i < c->nm; i++) {
		const struct metric *m = &c->m[i];
		if (!m->headline)
			continue;
		double lo, hi, r = pl_settle_precision(m->v, m->n, &lo, &hi);
		worst = fmax(worst, r);
		json_t *o = json_object();
		json_object_set_new(o, "name", pl_json_string(m->name));
		json_object_set_new(o, "reached_pct", num_or_null(r * 100));
		json_object_set_new(o, "ci_low", num_or_null(lo));
		json_object_set_new(o, "ci_high", num_or_null(hi));
		struct pl_summary sm;
		pl_summary_compute(&sm, m->v, m->n);
		json_object_set_new(o, "median", num_or_null(m->n ? sm.median : NAN));
		json_object_set_new(o, "cv", num_or_null(m->n >= 2 ? sm.cv : NAN));
		json_array_append_new(ms, o);
	}
	json_object_set_new(p, "reached_pct", num_or_null(worst * 100));
	json_object_set_new(p, "metrics", ms);
	return p;
}

const char *pl_bench_pct(char *buf, size_t len, double pct)
{
	double a = fabs(pct);
	if (!isfinite(pct))
		snprintf(buf, len, "?");
	else if (a >= 10)
		snprintf(buf, len, "%.0f", pct);
	else if (a >= 1e-4 || a == 0)
		snprintf(buf, len, "%.2g", pct);
	else
		snprintf(buf, len, "<0.0001");
	return buf;
}

char *pl_bench_ci_text(double med, double lo, double hi)
{
	if (!isfinite(med) || !isfinite(lo) || !isfinite(hi) || med == 0)
		return NULL;
	double minus = fmax(med - lo, 0) / fabs(med) * 100;
	double plus = fmax(hi - med, 0) / fabs(med) * 100;
	double big = fmax(minus, plus), small = fmin(minus, plus);
	char a[24], b[24];
	if (big > 1.5 * small)
		return pl_xasprintf("-%s%%/+%s%%", pl_bench_pct(a, sizeof(a), minus),
				    pl_bench_pct(b, sizeof(b), plus));
	return pl_xasprintf("+-%s%%", pl_bench_pct(a, sizeof(a), big));
}

char *pl_bench_runs_caveat(long long n, bool hint, const char **tag)
{
	const char *t = NULL;
	char *r = NULL;
	if (n <= 0) {
		t = "no runs";
		r = pl_xstrdup("no runs: nothing was measured");
	} else if (n == 1) {
		t = "1 run: no spread";
		r = pl_xasprintf("1 run: no spread (stddev, worst run and cv need several runs%s)",
				 hint ? "; rerun with more --runs to see how much the figure varies"
				      : "");
	} else if (n == 2) {
		t = "2 runs: too few runs for a spread";
		r = pl_xasprintf("2 runs: too few runs for a spread (3 or more give a meaningful "
				 "stddev%s)",
				 hint ? "; rerun with more --runs" : "");
	}
	if (tag)
		*tag = t;
	return r;
}

char *pl_bench_spread_caveat(long long n, double cv, double max_cv)
{
	if (n < 3 || !isfinite(cv) || !(cv > max_cv))
		return NULL;
	/* two decimals where one would print the threshold itself ("cv 5.0% > 5%") */
	bool close = round(cv * 1000) == round(max_cv * 1000);
	return pl_xasprintf(close ? "spread too wide (cv %.2f%% > %.0f%%)"
				  : "spread too wide (cv %.1f%% > %.0f%%)",
			    cv * 100, max_cv * 100);
}

/* A duration in seconds as the options take it: "60 s", "500 ms". */
static void fmt_secs(char *buf, size_t len, double s)
{
	if (s < 1)
		snprintf(buf, len, "%.0f ms", s * 1e3);
	else
		snprintf(buf, len, "%.3g s", s);
}

/* The interval of precision metric @m in words ("+-11%", "-6%/+31%"), or NULL. */
static char *metric_ci(const json_t *m)
{
	const json_t *med = json_object_get(m, "median");
	if (!json_is_number(med))
		return NULL;
	return pl_bench_ci_text(json_number_value(med), pl_json_num(m, "ci_low"),
				pl_json_num(m, "ci_high"));
}

char *pl_bench_precision_text(const json_t *p)
{
	if (!json_is_object(p))
		return NULL;
	double want = pl_json_num(p, "requested_pct");
	const json_t *reached = json_object_get(p, "reached_pct");
	const char *stop = pl_json_str(p, "stop");
	/* the headline metric with the widest interval names the figure */
	const char *name = NULL;
	const json_t *wm = NULL;
	double w = -1;
	size_t i, nh = json_array_size(json_object_get(p, "metrics"));
	const json_t *m;
	json_array_foreach(json_object_get(p, "metrics"), i, m)
	{
		const json_t *r = json_object_get(m, "reached_pct");
		double x = json_is_number(r) ? json_number_value(r) : INFINITY;
		if (x > w) {
			w = x;
			name = pl_json_str(m, "name");
			wm = m;
		}
	}
	struct pl_buf b = { 0 };
	long long runs = pl_json_int(p, "runs"), min_runs = pl_json_int(p, "min_runs");
	char pa[24], pb[24];
	pl_autofree char *ci = wm ? metric_ci(wm) : NULL;
	pl_autofree char *figure = NULL;
	if (json_is_number(reached))
		figure = ci ? pl_xstrdup(ci)
			    : pl_xasprintf("+-%s%%", pl_bench_pct(pa, sizeof(pa),
								  json_number_value(reached)));
	if (figure) {
		pl_buf_puts(&b, figure);
	} else {
		/* the interval needs min_runs runs; --max-time may stop a series after
		 * PL_BENCH_PRECISION_FLOOR_RUNS, and then the spread is what there is */
		const json_t *cv = wm ? json_object_get(wm, "cv") : NULL;
		pl_buf_printf(&b, "no interval (it needs %lld runs, %lld made)", min_runs, runs);
		if (json_is_number(cv))
			pl_buf_printf(&b, "; spread cv %s%%",
				      pl_bench_pct(pa, sizeof(pa), json_number_value(cv) * 100));
	}
	if (name)
		pl_buf_printf(&b, " for %s%s", name, nh > 1 ? " (the widest headline metric)" : "");
	pl_buf_printf(&b, " (%s%lld run%s", figure ? "95% CI of the median, " : "", runs,
		      runs == 1 ? "" : "s");
	long long dropped = pl_json_int(p, "warmup_dropped");
	if (dropped > 0)
		pl_buf_printf(&b, " after %lld detected warm-up run%s dropped", dropped,
			      dropped == 1 ? "" : "s");
	pl_buf_puts(&b, "; stopped: ");
	char t[32];
	pl_bench_pct(pb, sizeof(pb), want);
	const char *from = pl_json_str(p, "max_time_from");
	/* past a share of the report's budget, on its runs' projection (max_time_cap_s) */
	double ext =
		json_is_number(json_object_get(p, "extended_s")) ? pl_json_num(p, "extended_s") : 0;
	char te[32];
	fmt_secs(t, sizeof(t), pl_json_num(p, "max_time_s"));
	fmt_secs(te, sizeof(te), ext);
	bool past = from && strcmp(from, "report") == 0 && ext >= 0.05;
	if (stop && strcmp(stop, "precision") == 0) {
		pl_buf_printf(&b, "the %s%% target was reached", pb);
		if (past)
			pl_buf_printf(&b,
				      ", %s past its share of the report's time budget (%s), "
				      "which its runs projected it would take",
				      te, t);
		pl_buf_puts(&b, ")");
		return pl_buf_steal(&b);
	} else if (stop && strcmp(stop, "max-time") == 0) {
		if (past)
			pl_buf_printf(&b,
				      "its share of the report's time budget (%s) and %s more, "
				      "which its runs projected would reach the target, were spent",
				      t, te);
		else if (from && strcmp(from, "report") == 0)
			pl_buf_printf(&b, "its share of the report's time budget (%s) was spent",
				      t);
		else if (from && strcmp(from, "default") == 0)
			pl_buf_printf(&b, "the default --max-time of %s was spent", t);
		else
			pl_buf_printf(&b, "--max-time %s reached", t);
	} else if (stop && strcmp(stop, "max-runs") == 0) {
		pl_buf_printf(&b, "%lld runs reached", pl_json_int(p, "max_runs"));
	} else {
		pl_buf_printf(&b, "%s)", stop ? stop : "?");
		return pl_buf_steal(&b);
	}
	pl_buf_printf(&b, "; the %s%% target was not reached (%s))", pb,
		      figure ? figure : "no interval");
	return pl_buf_steal(&b);
}
