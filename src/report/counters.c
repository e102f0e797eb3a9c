/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The counter section of perflab report (counters.h). */
#include "report/counters.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters/window.h"
#include "util/json.h"
#include "util/str.h"

json_t *pl_report_cnt_section(bool core, const char *reason, const char *kind,
			      const struct pl_metric *const *ms, size_t n)
{
	json_t *o = json_object();
	json_object_set_new(o, "core_pmu", json_boolean(core));
	json_object_set_new(o, "reason", reason && *reason ? pl_json_string(reason) : json_null());
	json_object_set_new(o, "pmu_kind", pl_json_string(kind));
	json_t *arr = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *m = json_object();
		json_object_set_new(m, "name", pl_json_string(ms[i]->name));
		json_object_set_new(m, "unit", pl_json_string(ms[i]->unit));
		json_object_set_new(m, "desc", pl_json_string(ms[i]->desc));
		json_object_set_new(m, "source", pl_json_string(ms[i]->source));
		json_array_append_new(arr, m);
	}
	json_object_set_new(o, "metrics", arr);
	json_object_set_new(o, "benchmarks", json_array());
	return o;
}

struct pl_report_cnt {
	struct pl_cnt_window w;
	bool counting; /**< a core PMU, and no refusal so far */
	char *bench;   /**< the benchmark of the open window */
	json_t *section;
};

struct pl_report_cnt *pl_report_cnt_new(void)
{
	struct pl_report_cnt *c = pl_xcalloc(1, sizeof(*c));
	char err[512];
	c->counting = pl_cnt_window_init(&c->w, NULL, err, sizeof(err)) == 0 && c->w.core;
	c->section = pl_report_cnt_section(c->w.core, c->w.reason, c->w.kind, c->w.plan.metrics,
					   c->w.core ? c->w.plan.nmetrics : 0);
	return c;
}

void pl_report_cnt_begin(struct pl_report_cnt *c, const char *bench)
{
	pl_report_cnt_end(c);
	if (!c->counting)
		return;
	if (pl_cnt_window_begin(&c->w) < 0) {
		/* no counting for the rest of the report: say why once */
		json_object_set_new(c->section, "reason", pl_json_string(c->w.reason));
		c->counting = false;
		return;
	}
	c->bench = pl_xstrdup(bench);
}

void pl_report_cnt_end(struct pl_report_cnt *c)
{
	json_t *row = pl_cnt_window_end(&c->w, c->bench);
	if (row)
		json_array_append_new(json_object_get(c->section, "benchmarks"), row);
	free(c->bench);
	c->bench = NULL;
}

json_t *pl_report_cnt_json(const struct pl_report_cnt *c)
{
	return json_deep_copy(c->section);
}

void pl_report_cnt_free(struct pl_report_cnt *c)
{
	if (!c)
		return;
	pl_cnt_window_free(&c->w);
	json_decref(c->section);
	free(c->bench);
	free(c);
}
