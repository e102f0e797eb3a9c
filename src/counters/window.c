/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Metrics counted system-wide over a window another engine marks (window.h). */
#include "counters/window.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters/pmu.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/str.h"

const char *pl_cnt_basic_spec(const char *kind)
{
	bool topdown = kind && (!strcmp(kind, "intel") || !strcmp(kind, "amd-zen4") ||
				!strcmp(kind, "arm-neoverse"));
	return topdown ? "ipc,frequency,llc_mpki,branch_miss_rate,topdown"
		       : "ipc,frequency,llc_mpki,branch_miss_rate";
}

json_t *pl_cnt_row(const char *label, const struct pl_metric *const *ms, size_t n,
		   const struct pl_cnt_result *r)
{
	json_t *row = json_object();
	json_object_set_new(row, "benchmark", pl_json_string(label));
	json_object_set_new(row, "elapsed_s", json_real((double)r->elapsed_ns / 1e9));
	json_t *vals = json_object(), *un = json_object();
	for (size_t i = 0; i < n; i++) {
		double v;
		char missing[256] = "";
		int e = pl_metric_eval(ms[i], r, &v, missing, sizeof(missing));
		json_object_set_new(vals, ms[i]->name, e == 0 ? json_real(v) : json_null());
		if (e == -ENOENT) {
			pl_autofree char *t = pl_xasprintf("%s not on this PMU", missing);
			json_object_set_new(un, ms[i]->name, pl_json_string(t));
		} else if (e < 0) {
			json_object_set_new(un, ms[i]->name, pl_json_string(missing));
		}
	}
	json_object_set_new(row, "values", vals);
	json_object_set_new(row, "unavailable", un);
	return row;
}

int pl_cnt_window_init(struct pl_cnt_window *w, const char *spec, char *err, size_t errlen)
{
	memset(w, 0, sizeof(*w));
	w->core = pl_pmu_have_core(w->reason, sizeof(w->reason));
	if (w->core)
		w->reason[0] = '\0';
	w->kind = pl_cnt_pmu_kind(w->core);
	int r = pl_cnt_plan_metrics(&w->plan, spec ? spec : pl_cnt_basic_spec(w->kind), w->kind,
				    false, err, errlen);
	if (r < 0)
		snprintf(w->reason, sizeof(w->reason), "%s", err);
	return r;
}

int pl_cnt_window_begin(struct pl_cnt_window *w)
{
	if (w->open)
		pl_cnt_session_close(&w->s);
	w->open = false;
	struct pl_cnt_config cfg = {
		.evs = w->plan.evs,
		.nevs = w->plan.n,
		.group = w->plan.group,
		.system_wide = true,
	};
	char err[512];
	int r = pl_cnt_session_open(&w->s, &cfg, err, sizeof(err));
	size_t refused = 0;
	for (size_t i = 0; r == 0 && i < w->plan.n; i++)
		refused += w->s.ev_errno[i] == EACCES || w->s.ev_errno[i] == EPERM;
	if (r == 0 && w->plan.n && refused == w->plan.n) {
		snprintf(err, sizeof(err),
			 "perf_event_open refused counting system-wide (lower "
			 "kernel.perf_event_paranoid to 0 or below, or run with CAP_PERFMON)");
		r = -EACCES;
	}
	if (r < 0) {
		snprintf(w->reason, sizeof(w->reason), "%s", err);
		pl_cnt_session_close(&w->s);
		return r;
	}
	pl_cnt_session_start(&w->s);
	w->open = true;
	return 0;
}

json_t *pl_cnt_window_end(struct pl_cnt_window *w, const char *label)
{
	if (!w->open)
		return NULL;
	struct pl_cnt_result r = { 0 };
	pl_cnt_session_read(&w->s, &r, pl_now_ns() - w->s.t0);
	json_t *row = pl_cnt_row(label, w->plan.metrics, w->plan.nmetrics, &r);
	pl_cnt_result_free(&r);
	pl_cnt_session_close(&w->s);
	w->open = false;
	return row;
}

void pl_cnt_window_free(struct pl_cnt_window *w)
{
	if (!w)
		return;
	if (w->open)
		pl_cnt_session_close(&w->s);
	w->open = false;
	pl_cnt_plan_free(&w->plan);
}
