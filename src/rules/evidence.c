/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Evidence: the benchmark figures that quantify a finding (struct pl_evidence in a rule
 * table). This file only reads result documents (JSON); running the benchmarks is the
 * bench engine's job (src/bench/evidence.c), so the report can show evidence from saved
 * results as well as from a live `check --measure`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "rules/rules.h"
#include "util/cleanup.h"
#include "util/str.h"

char *pl_evidence_fmt_value(char *buf, size_t len, double x, const char *unit)
{
	if (unit && strcmp(unit, "ns") == 0)
		return pl_fmt_unit(buf, len, x * 1e-9, "s");
	if (unit && strcmp(unit, "1/s") == 0 && isfinite(x)) {
		snprintf(buf, len, "%.4g/s", x);
		return buf;
	}
	return pl_fmt_unit(buf, len, x, unit);
}

char *pl_evidence_command(const struct pl_evidence *ev)
{
	struct pl_buf b = { 0 };
	pl_buf_printf(&b, "bench %s", ev->bench);
	for (const char *const *a = ev->argv; a && *a; a++)
		pl_buf_printf(&b, " %s", *a);
	return pl_buf_steal(&b);
}

/* The metric object called @name in the bench document @doc, or NULL. */
static const json_t *find_metric(const json_t *doc, const char *name)
{
	size_t i;
	const json_t *m;
	json_array_foreach(json_object_get(doc, "metrics"), i, m)
	{
		const char *n = pl_json_str(m, "name");
		if (n && strcmp(n, name) == 0 && json_is_number(json_object_get(m, "median")))
			return m;
	}
	return NULL;
}

/* Expand ev->text with the metrics @ms (ev->metrics order) into a new string. */
static char *render(const struct pl_evidence *ev, const json_t *const *ms, const char *subject)
{
	size_t nm = 0;
	while (nm < PL_EVIDENCE_MAX_METRICS && ev->metrics[nm])
		nm++;
	struct pl_buf b = { 0 };
	for (const char *p = ev->text; *p; p++) {
		const char *end = *p == '{' ? strchr(p, '}') : NULL;
		if (!end) {
			pl_buf_append(&b, p, 1);
			continue;
		}
		char key[32];
		snprintf(key, sizeof(key), "%.*s", (int)(end - p - 1), p + 1);
		unsigned idx = key[0] >= '1' && key[0] <= '0' + PL_EVIDENCE_MAX_METRICS
				       ? (unsigned)(key[0] - '1')
				       : PL_EVIDENCE_MAX_METRICS;
		if (strcmp(key, "subject") == 0) {
			pl_buf_puts(&b, subject ? subject : "this device");
		} else if (idx < nm && key[1] == '\0') {
			char v[48];
			pl_buf_puts(&b, pl_evidence_fmt_value(v, sizeof(v),
							      json_number_value(json_object_get(
								      ms[idx], "median")),
							      pl_json_str(ms[idx], "unit")));
		} else if (idx < nm && key[1] == ':') {
			const char *note = pl_json_str(json_object_get(ms[idx], "notes"), key + 2);
			pl_buf_puts(&b, note ? note : "unknown");
		} else {
			pl_buf_append(&b, p, (size_t)(end - p + 1)); /* not a placeholder */
		}
		p = end;
	}
	return pl_buf_steal(&b);
}

/* {"benchmark","argv"}: what both JSON forms of an evidence start with. */
static json_t *ev_head(const struct pl_evidence *ev)
{
	json_t *o = json_object();
	json_object_set_new(o, "benchmark", pl_json_string(ev->bench));
	json_t *argv = json_array();
	for (const char *const *a = ev->argv; a && *a; a++)
		json_array_append_new(argv, pl_json_string(*a));
	json_object_set_new(o, "argv", argv);
	return o;
}

json_t *pl_evidence_to_json(const struct pl_evidence *ev)
{
	json_t *o = ev_head(ev);
	json_t *ms = json_array();
	for (const char *const *m = ev->metrics; m && *m; m++)
		json_array_append_new(ms, pl_json_string(*m));
	json_object_set_new(o, "metrics", ms);
	json_object_set_new(o, "text", pl_json_string(ev->text));
	if (ev->counter)
		json_object_set_new(o, "counter", pl_json_string(ev->counter));
	return o;
}

/* The counter clause of @ev from bench document @doc's "counters" row, with "counter"
 * set in the evidence object @o: the value, or why there is none. NULL (and nothing set)
 * without a counter or a counted document. */
static char *counter_clause(const struct pl_evidence *ev, const json_t *doc, json_t *o)
{
	const json_t *row = json_object_get(doc, "counters");
	if (!ev->counter || !json_is_object(row))
		return NULL;
	const json_t *v = json_object_get(json_object_get(row, "values"), ev->counter);
	const char *why = pl_json_str(json_object_get(row, "unavailable"), ev->counter);
	json_t *c = json_object();
	json_object_set_new(c, "name", pl_json_string(ev->counter));
	json_object_set_new(c, "value",
			    json_is_number(v) ? json_real(json_number_value(v)) : json_null());
	json_object_set_new(c, "unit", pl_json_string(ev->counter_unit));
	char *clause;
	if (json_is_number(v)) {
		char num[48];
		pl_evidence_fmt_value(num, sizeof(num), json_number_value(v), ev->counter_unit);
		struct pl_buf b = { 0 };
		for (const char *p = ev->counter_text; *p; p++) {
			if (!strncmp(p, "{c}", 3)) {
				pl_buf_puts(&b, num);
				p += 2;
			} else {
				pl_buf_append(&b, p, 1);
			}
		}
		clause = pl_buf_steal(&b);
	} else {
		const char *r = why ? why : "not counted";
		json_object_set_new(c, "unavailable", pl_json_string(r));
		clause =
			pl_xasprintf("%s (%s): unavailable: %s", ev->counter_label, ev->counter, r);
	}
	json_object_set_new(o, "counter", c);
	return clause;
}

json_t *pl_evidence_eval(const struct pl_evidence *ev, const json_t *benches, const char *subject)
{
	json_t *o = ev_head(ev);
	const json_t *ms[PL_EVIDENCE_MAX_METRICS] = { 0 };
	const char *why = NULL, *missing = NULL;
	size_t i;
	const json_t *doc;
	json_array_foreach(benches, i, doc)
	{
		const char *name = pl_json_str(doc, "benchmark");
		if (!name || strcmp(name, ev->bench) != 0)
			continue;
		const char *st = pl_json_str(doc, "status");
		if (!st || strcmp(st, "ok") != 0) {
			why = pl_json_str(doc, "reason") ? pl_json_str(doc, "reason") : st;
			continue;
		}
		size_t k = 0;
		for (; k < PL_EVIDENCE_MAX_METRICS && ev->metrics[k]; k++)
			if (!(ms[k] = find_metric(doc, ev->metrics[k])))
				break;
		if (k == PL_EVIDENCE_MAX_METRICS || !ev->metrics[k]) {
			json_t *arr = json_array();
			for (size_t j = 0; j < k; j++) {
				json_t *m = json_object();
				json_object_set_new(m, "name", pl_json_string(ev->metrics[j]));
				json_object_set(m, "median", json_object_get(ms[j], "median"));
				json_object_set_new(m, "unit",
						    pl_json_string(pl_json_str(ms[j], "unit")));
				json_array_append_new(arr, m);
			}
			json_object_set_new(o, "metrics", arr);
			pl_autofree char *text = render(ev, ms, subject);
			pl_autofree char *clause = counter_clause(ev, doc, o);
			pl_autofree char *all =
				clause ? pl_xasprintf("%s; %s", text, clause) : pl_xstrdup(text);
			json_object_set_new(o, "text", pl_json_string(all));
			return o;
		}
		missing = ev->metrics[k];
	}
	pl_autofree char *cmd = pl_evidence_command(ev);
	pl_autofree char *reason = missing ? pl_xasprintf("'%s' has no metric '%s'", cmd, missing)
				   : why   ? pl_xasprintf("'%s' did not run: %s", cmd, why)
					   : pl_xasprintf("'%s' was not run", cmd);
	json_object_set_new(o, "unavailable", pl_json_string(reason));
	return o;
}

size_t pl_evidence_attach(json_t *findings, const json_t *benches)
{
	size_t n = 0, i;
	json_t *x;
	json_array_foreach(findings, i, x)
	{
		json_object_del(x, "evidence");
		const char *id = pl_json_str(x, "id");
		const struct pl_rule *r = id ? pl_rule_find(id) : NULL;
		if (!r || !r->evidence)
			continue;
		json_t *e = pl_evidence_eval(r->evidence, benches, pl_json_str(x, "subject"));
		if (json_object_get(e, "text")) {
			json_object_set_new(x, "evidence", e);
			n++;
		} else {
			json_decref(e);
		}
	}
	return n;
}
