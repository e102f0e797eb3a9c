/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab stat's text and JSON (output.h). */
#include "counters/output.h"

#include "counters/expr.h"
#include "counters/region.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "counters/session.h"
#include "util/escape.h"
#include "util/json.h"
#include "util/str.h"

char *pl_cnt_fmt_count(char *buf, size_t len, double n)
{
	char digits[64];
	snprintf(digits, sizeof(digits), "%.0f", fabs(n) < 1e300 ? n : 0.0);
	const char *d = digits;
	size_t o = 0;
	if (*d == '-' && o + 1 < len)
		buf[o++] = *d++;
	size_t nd = strlen(d);
	for (size_t i = 0; i < nd && o + 2 < len; i++) {
		if (i && (nd - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = d[i];
	}
	buf[o < len ? o : len - 1] = '\0';
	return buf;
}

/* The values of key @k (nevs of them) as a result of their own, for the metrics. */
static struct pl_cnt_result key_view(const struct pl_cnt_report *rep, size_t k)
{
	struct pl_cnt_result v = *rep->r;
	v.v = rep->r->v + k * rep->nevs;
	v.n = rep->nevs;
	if (rep->per && !strcmp(rep->per, "cpu"))
		v.ncpus = 1;
	return v;
}

/* The scopes shown: one per nevs values; one without events when there are metrics (whose
 * events this machine lacks: they are shown unavailable, never dropped). */
static size_t nkeys(const struct pl_cnt_report *rep)
{
	if (!rep->nevs)
		return rep->nmetrics ? 1 : 0;
	return rep->r->n / rep->nevs;
}

/* "CPU3", "S0", "sleep-1234" or "" for the key of value @v. */
static void key_label(const struct pl_cnt_report *rep, const struct pl_cnt_value *v, char *buf,
		      size_t len)
{
	buf[0] = '\0';
	if (!rep->per)
		return;
	if (!strcmp(rep->per, "cpu"))
		snprintf(buf, len, "CPU%d", v->cpu);
	else if (!strcmp(rep->per, "socket"))
		snprintf(buf, len, "S%d", v->socket);
	else {
		const char *c = rep->comm ? rep->comm(rep->comm_ctx, v->tid) : "";
		pl_autofree char *e = pl_str_escape(c && *c ? c : "?", PL_ESC_TERM);
		snprintf(buf, len, "%s-%d", e, v->tid);
	}
}

/* The metric column's text: "0.998 CPUs utilized", "1.923 K/sec", "1.23 insn/cycle". */
static void metric_text(const struct pl_metric *m, double x, char *buf, size_t len)
{
	if (!strcmp(m->unit, "/s")) {
		const char *p = "";
		double a = fabs(x);
		if (a >= 1e9) {
			x /= 1e9;
			p = "G";
		} else if (a >= 1e6) {
			x /= 1e6;
			p = "M";
		} else if (a >= 1e3) {
			x /= 1e3;
			p = "K";
		}
		snprintf(buf, len, "%8.3f %s/sec", x, p);
	} else if (!strcmp(m->unit, "CPUs")) {
		snprintf(buf, len, "%8.3f CPUs utilized", x);
	} else {
		snprintf(buf, len, "%8.3f %s  %s", x, m->unit, m->name);
	}
}

static bool flagged(const struct pl_metric *m, double x)
{
	if (isnan(m->threshold))
		return false;
	return m->below ? x < m->threshold : x > m->threshold;
}

/* Why the metric's event @name has no value in @view: it was counted but never ran
 * ("not counted"), or this PMU lacks it. Static buffer. */
static const char *missing_why(const struct pl_cnt_result *view, const char *name)
{
	static char buf[PL_CNT_NAME_MAX + 32];
	bool counted_here = false;
	for (size_t i = 0; i < view->n; i++)
		counted_here |=
			view->v[i].ev && !strcmp(view->v[i].ev->name, name) && view->v[i].supported;
	snprintf(buf, sizeof(buf), "%s %s", name,
		 counted_here ? "not counted (it never ran)" : "not on this PMU");
	return buf;
}

/* pl_metric_eval of @m over @view and the report's constant readings. */
static int eval_metric(const struct pl_cnt_report *rep, const struct pl_metric *m,
		       const struct pl_cnt_result *view, double *x, char *missing, size_t len)
{
	if (!rep->nconsts)
		return pl_metric_eval(m, view, x, missing, len);
	struct pl_cnt_result all = *view;
	all.n = view->n + rep->nconsts;
	all.v = pl_xcalloc(all.n, sizeof(*all.v));
	if (view->n)
		memcpy(all.v, view->v, view->n * sizeof(*all.v));
	memcpy(all.v + view->n, rep->consts, rep->nconsts * sizeof(*all.v));
	int r = pl_metric_eval(m, &all, x, missing, len);
	free(all.v);
	return r;
}

/* The metric column of metric @m over @view: its text, or "unavailable: ...". */
static void metric_cell(const struct pl_cnt_report *rep, const struct pl_metric *m,
			const struct pl_cnt_result *view, char *buf, size_t len)
{
	char missing[PL_CNT_NAME_MAX] = "";
	double x = NAN;
	int r = eval_metric(rep, m, view, &x, missing, sizeof(missing));
	if (r == -ENOENT)
		snprintf(buf, len, "%s unavailable: %s", m->name, missing_why(view, missing));
	else if (r == -EDOM)
		snprintf(buf, len, "%s n/a: divides by zero", m->name);
	else if (r < 0)
		snprintf(buf, len, "%s n/a: %s", m->name, strerror(-r));
	else {
		metric_text(m, x, buf, len);
		if (flagged(m, x)) {
			size_t l = strlen(buf);
			snprintf(buf + l, len - l, " (!)");
		}
	}
}

/* The reason event @v is not supported, the core PMU's when it is a core event. */
static const char *why_not(const struct pl_cnt_report *rep, const struct pl_cnt_value *v)
{
	if (!rep->core && !strcmp(v->ev->pmu, "cpu") && rep->core_why)
		return rep->core_why;
	return v->why[0] ? v->why : "not supported";
}

/* One line per value of key @k, with the metrics attached to their first event and the
 * rest after. @prefix leads each line (interval time). */
static void write_key(FILE *out, const struct pl_cnt_report *rep, size_t k, const char *prefix)
{
	struct pl_cnt_result view = key_view(rep, k);
	bool *done = pl_xcalloc(rep->nmetrics + 1, sizeof(bool));
	for (size_t i = 0; i < rep->nevs; i++) {
		const struct pl_cnt_value *v = &view.v[i];
		char label[64], count[64], cell[256] = "";
		key_label(rep, v, label, sizeof(label));
		pl_autofree char *name = pl_str_escape(v->ev->name, PL_ESC_TERM);
		if (!v->supported)
			snprintf(count, sizeof(count), "<not supported>");
		else if (!v->counted)
			snprintf(count, sizeof(count), "<not counted>");
		else if (!strcmp(v->ev->unit, "msec"))
			snprintf(count, sizeof(count), "%.2f", v->value);
		else if (v->ev->scale != 1 && v->ev->scale != 0)
			snprintf(count, sizeof(count), "%.2f", v->value);
		else
			pl_cnt_fmt_count(count, sizeof(count), v->value);
		for (size_t m = 0; m < rep->nmetrics && !cell[0]; m++)
			if (!done[m] && rep->metrics[m]->events[0] &&
			    pl_expr_same_event(rep->metrics[m]->events[0], v->ev->name)) {
				metric_cell(rep, rep->metrics[m], &view, cell, sizeof(cell));
				done[m] = true;
			}
		double p = pl_cnt_pcnt_running(v);
		bool multiplexed = v->supported && v->counted && p < 100.0;
		fprintf(out, "%s%s%s%18s %-4s %-*s", prefix, label, label[0] ? " " : "", count,
			v->ev->unit, cell[0] || multiplexed ? 32 : 0, name);
		if (cell[0])
			fprintf(out, " # %s", cell);
		if (multiplexed)
			fprintf(out, "  (%.2f%%)", p);
		fputc('\n', out);
	}
	for (size_t m = 0; m < rep->nmetrics; m++) {
		if (done[m])
			continue;
		char cell[256], label[64] = "";
		if (rep->nevs)
			key_label(rep, &view.v[0], label, sizeof(label));
		metric_cell(rep, rep->metrics[m], &view, cell, sizeof(cell));
		fprintf(out, "%s%s%s%18s %-4s %-32s # %s\n", prefix, label, label[0] ? " " : "", "",
			"", "", cell);
	}
	free(done);
}

/* The reasons events were not supported, each once with its events. */
static void write_reasons(FILE *out, const struct pl_cnt_report *rep)
{
	bool core_event = false;
	for (size_t i = 0; i < rep->r->n && i < rep->nevs; i++)
		core_event |= !rep->r->v[i].supported && !strcmp(rep->r->v[i].ev->pmu, "cpu");
	if (!rep->core && rep->core_why && (rep->default_set || core_event))
		fprintf(out,
			"\n Note: %s; hardware events (cycles, instructions, branches, "
			"branch-misses, ...) are not supported.\n",
			rep->core_why);
	size_t n = rep->nevs < rep->r->n ? rep->nevs : rep->r->n;
	bool *done = pl_xcalloc(n + 1, sizeof(bool));
	for (size_t i = 0; i < n; i++) {
		const struct pl_cnt_value *v = &rep->r->v[i];
		if (done[i] || v->supported)
			continue;
		const char *why = why_not(rep, v);
		if (!rep->core && why == rep->core_why) {
			done[i] = true;
			continue; /* said in the note */
		}
		struct pl_buf b = { 0 };
		for (size_t j = i; j < n; j++) {
			const struct pl_cnt_value *w = &rep->r->v[j];
			if (done[j] || w->supported || strcmp(why_not(rep, w), why))
				continue;
			done[j] = true;
			pl_buf_printf(&b, "%s%s", b.len ? ", " : "", w->ev->name);
		}
		pl_autofree char *e = pl_str_escape(b.data ? b.data : "", PL_ESC_TERM);
		fprintf(out, " Not supported: %s: %s.\n", e, why);
		pl_buf_free(&b);
	}
	free(done);
	if (rep->group_fallback)
		fprintf(out, " Groups were read per event: this kernel refused group reads with "
			     "inherited counters.\n");
}

int pl_cnt_write_text(FILE *out, const struct pl_cnt_report *rep)
{
	pl_autofree char *what = pl_str_escape(rep->what, PL_ESC_TERM);
	fprintf(out, "\n Performance counter stats for %s%s:\n\n", what,
		rep->interrupted ? " (interrupted)" : "");
	for (size_t k = 0; k < nkeys(rep); k++)
		write_key(out, rep, k, "");
	fprintf(out, "\n %15.9f seconds time elapsed\n", (double)rep->r->elapsed_ns / 1e9);
	if (rep->command) {
		fprintf(out, "\n %15.9f seconds user\n %15.9f seconds sys\n", rep->user_s,
			rep->sys_s);
		int st = rep->wait_status;
		if (WIFEXITED(st) && WEXITSTATUS(st))
			fprintf(out, "\n The command exited with status %d.\n", WEXITSTATUS(st));
		else if (WIFSIGNALED(st))
			fprintf(out, "\n The command was killed by signal %d (%s).\n", WTERMSIG(st),
				strsignal(WTERMSIG(st)));
	}
	write_reasons(out, rep);
	fputc('\n', out);
	return ferror(out) ? -EIO : 0;
}

int pl_cnt_write_interval(FILE *out, const struct pl_cnt_report *rep, bool header)
{
	if (header)
		fprintf(out, "#%14s %s%18s %-5s %s\n", "time", rep->per ? "scope " : "", "counts",
			"unit", "events");
	char prefix[32];
	snprintf(prefix, sizeof(prefix), "%15.9f ",
		 (double)(rep->r->start_ns + rep->r->elapsed_ns) / 1e9);
	for (size_t k = 0; k < nkeys(rep); k++)
		write_key(out, rep, k, prefix);
	return ferror(out) ? -EIO : 0;
}

/* The members naming the key of @v. */
static void set_key(json_t *o, const struct pl_cnt_report *rep, const struct pl_cnt_value *v)
{
	if (!rep->per)
		return;
	if (!strcmp(rep->per, "cpu"))
		json_object_set_new(o, "cpu", json_integer(v->cpu));
	else if (!strcmp(rep->per, "socket"))
		json_object_set_new(o, "socket", json_integer(v->socket));
	else {
		json_object_set_new(o, "thread", json_integer(v->tid));
		const char *c = rep->comm ? rep->comm(rep->comm_ctx, v->tid) : "";
		json_object_set_new(o, "comm", pl_json_string(c ? c : ""));
	}
}

static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

json_t *pl_cnt_json(const struct pl_cnt_report *rep, bool interval)
{
	json_t *doc = json_object();
	json_object_set_new(doc, "schema_version", json_integer(1));
	if (interval)
		json_object_set_new(
			doc, "interval",
			json_real((double)(rep->r->start_ns + rep->r->elapsed_ns) / 1e9));
	json_object_set_new(doc, "target", pl_json_string(rep->target));
	json_object_set_new(doc, "what", pl_json_string(rep->what));
	if (rep->per)
		json_object_set_new(doc, "per", pl_json_string(rep->per));
	json_object_set_new(doc, "core_pmu", json_boolean(rep->core));
	if (!rep->core)
		json_object_set_new(doc, "core_pmu_reason", pl_json_string(rep->core_why));
	json_object_set_new(doc, "elapsed_s", json_real((double)rep->r->elapsed_ns / 1e9));
	if (!interval) {
		json_object_set_new(doc, "interrupted", json_boolean(rep->interrupted));
		if (rep->command) {
			int st = rep->wait_status;
			json_object_set_new(doc, "user_s", json_real(rep->user_s));
			json_object_set_new(doc, "sys_s", json_real(rep->sys_s));
			json_object_set_new(doc, "exit_status",
					    json_integer(WIFEXITED(st)	   ? WEXITSTATUS(st)
							 : WIFSIGNALED(st) ? 128 + WTERMSIG(st)
									   : -1));
			if (WIFSIGNALED(st))
				json_object_set_new(doc, "signal", json_integer(WTERMSIG(st)));
		}
	}
	json_t *evs = json_array(), *mets = json_array();
	for (size_t k = 0; k < nkeys(rep); k++) {
		struct pl_cnt_result view = key_view(rep, k);
		for (size_t i = 0; i < rep->nevs; i++) {
			const struct pl_cnt_value *v = &view.v[i];
			json_t *o = json_object();
			json_object_set_new(o, "event", pl_json_string(v->ev->name));
			set_key(o, rep, v);
			json_object_set_new(o, "counter-value",
					    v->supported && v->counted ? num(v->value)
								       : json_null());
			json_object_set_new(o, "unit", pl_json_string(v->ev->unit));
			json_object_set_new(o, "event-runtime",
					    json_integer((json_int_t)v->running_ns));
			json_object_set_new(o, "pcnt-running",
					    json_real(v->supported && v->counted
							      ? pl_cnt_pcnt_running(v)
							      : 0.0));
			json_object_set_new(o, "raw", json_integer((json_int_t)v->raw));
			json_object_set_new(o, "event-enabled",
					    json_integer((json_int_t)v->enabled_ns));
			json_object_set_new(o, "supported", json_boolean(v->supported));
			json_object_set_new(o, "counted", json_boolean(v->supported && v->counted));
			if (!v->supported)
				json_object_set_new(o, "reason", pl_json_string(why_not(rep, v)));
			json_array_append_new(evs, o);
		}
		for (size_t m = 0; m < rep->nmetrics; m++) {
			const struct pl_metric *mt = rep->metrics[m];
			json_t *o = json_object();
			json_object_set_new(o, "metric", pl_json_string(mt->name));
			if (rep->nevs)
				set_key(o, rep, &view.v[0]);
			char missing[PL_CNT_NAME_MAX] = "";
			double x = NAN;
			int r = eval_metric(rep, mt, &view, &x, missing, sizeof(missing));
			if (r == 0 && isfinite(x)) {
				json_object_set_new(o, "value", json_real(x));
				json_object_set_new(o, "unit", pl_json_string(mt->unit));
				json_object_set_new(o, "threshold", num(mt->threshold));
				json_object_set_new(o, "flagged", json_boolean(flagged(mt, x)));
			} else {
				pl_autofree char *u =
					r == -ENOENT ? pl_xstrdup(missing_why(&view, missing))
					: r == -EDOM ? pl_xstrdup("the formula divides by zero")
						     : pl_xstrdup("the formula has no value");
				json_object_set_new(o, "unavailable", pl_json_string(u));
			}
			json_array_append_new(mets, o);
		}
	}
	json_object_set_new(doc, "events", evs);
	json_object_set_new(doc, "metrics", mets);
	if (rep->group_fallback)
		json_object_set_new(doc, "group_read", json_false());
	return doc;
}

/* ---- regions ---- */

static const char *const region_status[] = { "ok", "no_markers", "too_old", "open_failed" };

/* Call @fn for each name of the comma-separated @names with its region (NULL when the
 * run never marked it). */
static void each_region(const struct pl_cnt_regions *rs, const char *names,
			void (*fn)(const char *name, const struct pl_cnt_region *reg, void *ctx),
			void *ctx)
{
	pl_autostrv char **v = pl_split(names, ",", NULL);
	for (size_t i = 0; v && v[i]; i++)
		if (v[i][0])
			fn(v[i], pl_cnt_regions_find(rs, v[i]), ctx);
}

struct region_text {
	FILE *out;
	const struct pl_cnt_report *rep;
};

static void region_text_one(const char *name, const struct pl_cnt_region *reg, void *ctx)
{
	struct region_text *c = ctx;
	pl_autofree char *n = pl_str_escape(name, PL_ESC_TERM);
	if (!reg || !reg->instances) {
		fprintf(c->out, "\n Region '%s': no complete instance in this run", n);
		if (reg && reg->unpaired)
			fprintf(c->out, " (%llu unpaired begins or ends)",
				(unsigned long long)reg->unpaired);
		fprintf(c->out, ".\n");
		return;
	}
	fprintf(c->out, "\n Region '%s': %llu instance%s in %llu thread%s, %.9f s inside", n,
		(unsigned long long)reg->instances, reg->instances == 1 ? "" : "s",
		(unsigned long long)reg->threads, reg->threads == 1 ? "" : "s",
		(double)reg->total_ns / 1e9);
	if (reg->unpaired)
		fprintf(c->out, " (%llu unpaired begins or ends, not counted)",
			(unsigned long long)reg->unpaired);
	if (!reg->counted_pairs) {
		fprintf(c->out, "; no counts.\n");
		return;
	}
	fprintf(c->out, ":\n\n");
	struct pl_cnt_report r = *c->rep;
	r.r = &reg->res;
	r.per = NULL;
	r.nevs = reg->res.n;
	write_key(c->out, &r, 0, "");
	for (size_t i = 0; i < reg->res.n; i++) {
		const struct pl_cnt_value *v = &reg->res.v[i];
		if (v->why[0]) {
			pl_autofree char *e = pl_str_escape(v->ev->name, PL_ESC_TERM);
			fprintf(c->out, " %s: %s.\n", e, v->why);
		}
	}
}

int pl_cnt_write_regions(FILE *out, const struct pl_cnt_report *rep,
			 const struct pl_cnt_regions *rs, const char *names)
{
	if (rs->status != PL_CNT_REGION_OK)
		fprintf(out, "\n Regions: %s.\n", rs->why);
	if (rs->dropped)
		fprintf(out, " Regions: %llu begins and ends were dropped (the ring was full).\n",
			(unsigned long long)rs->dropped);
	struct region_text c = { out, rep };
	each_region(rs, names, region_text_one, &c);
	fputc('\n', out);
	return ferror(out) ? -EIO : 0;
}

struct region_json {
	json_t *list;
	const struct pl_cnt_report *rep;
};

static void region_json_one(const char *name, const struct pl_cnt_region *reg, void *ctx)
{
	struct region_json *c = ctx;
	json_t *o = json_object();
	json_object_set_new(o, "region", pl_json_string(name));
	json_object_set_new(o, "instances", json_integer(reg ? (json_int_t)reg->instances : 0));
	json_object_set_new(o, "threads", json_integer(reg ? (json_int_t)reg->threads : 0));
	json_object_set_new(o, "time_s", json_real(reg ? (double)reg->total_ns / 1e9 : 0.0));
	json_object_set_new(o, "unpaired", json_integer(reg ? (json_int_t)reg->unpaired : 0));
	json_object_set_new(o, "unread", json_integer(reg ? (json_int_t)reg->unread : 0));
	if (reg && reg->instances) {
		struct pl_cnt_report r = *c->rep;
		r.r = &reg->res;
		r.per = NULL;
		r.nevs = reg->res.n;
		json_t *doc = pl_cnt_json(&r, true);
		json_object_set(o, "events", json_object_get(doc, "events"));
		json_object_set(o, "metrics", json_object_get(doc, "metrics"));
		json_decref(doc);
	} else {
		json_object_set_new(o, "events", json_array());
		json_object_set_new(o, "metrics", json_array());
	}
	json_array_append_new(c->list, o);
}

json_t *pl_cnt_regions_json(const struct pl_cnt_report *rep, const struct pl_cnt_regions *rs,
			    const char *names)
{
	json_t *o = json_object();
	json_object_set_new(o, "status", pl_json_string(region_status[rs->status]));
	if (rs->why[0])
		json_object_set_new(o, "reason", pl_json_string(rs->why));
	json_object_set_new(o, "dropped", json_integer((json_int_t)rs->dropped));
	struct region_json c = { json_array(), rep };
	each_region(rs, names, region_json_one, &c);
	json_object_set_new(o, "list", c.list);
	return o;
}
