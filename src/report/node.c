/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "report/node.h"
#include "report/counters.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/report.h"
#include "rules/rules.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/str.h"
#include "util/sysroot.h"

json_t *pl_report_node_doc(struct pl_facts *f, int workload, const char *cpus,
			   pl_report_stage_fn *stage, void *ctx)
{
	if (stage)
		stage("inspect", ctx);
	pl_facts_set_sysctl_names(pl_rules_sysctl_names());
	pl_facts_collect_all(f);
	if (cpus) /* read by pl_rf_workload_cpus before isolcpus=/nohz_full=, as check -C */
		pl_fact_str(f, "workload.cpus", cpus, "--cpus");
	/* a wrong --sysroot is an error, not a clean report */
	if (!pl_sysroot_is_live() && pl_facts_navailable(f) == 0)
		return NULL;
	if (stage)
		stage("check", ctx);
	struct pl_findings fs = { 0 };
	pl_rules_eval(f, 1u << workload, &fs);
	json_t *doc = pl_report_build(f, &fs, pl_workload_names[workload], pl_now_epoch());
	pl_findings_free(&fs);
	return doc;
}

int pl_report_io_dir(const char *dir, char **workdir)
{
	struct stat st;
	char *w = pl_xstrdup(dir);
	if (stat(dir, &st) == 0) {
		*workdir = w;
		return 0;
	}
	/* beside DIR until it exists */
	char *slash = strrchr(w, '/');
	if (!slash)
		strcpy(w, ".");
	else if (slash == w)
		slash[1] = '\0';
	else
		*slash = '\0';
	int perr = stat(w, &st) != 0 ? errno : !S_ISDIR(st.st_mode) ? ENOTDIR : 0;
	if (perr) {
		free(w);
		*workdir = NULL;
		return -perr;
	}
	*workdir = w;
	return 0;
}

/* The caller's progress callback, and the count of the benchmark about to run. */
struct counting {
	void (*progress)(size_t k, const char *what, void *ctx);
	void *ctx;
	const struct pl_bench_plan *plan;
	struct pl_report_cnt *cnt;
};

/* Told before each benchmark of the plan: the previous count ends, this one's begins. */
static void count_next(size_t k, const char *what, void *ctx)
{
	struct counting *c = ctx;
	if (c->progress)
		c->progress(k, what, c->ctx);
	pl_report_cnt_begin(c->cnt, c->plan->items[k].b->name);
}

double pl_report_run_benchmarks(json_t *report, const struct pl_bench_plan *plan,
				volatile sig_atomic_t *stop,
				void (*progress)(size_t k, const char *what, void *ctx), void *ctx)
{
	json_t *arr = json_array();
	struct counting c = { progress, ctx, plan, pl_report_cnt_new() };
	double s = pl_bench_plan_run_all(plan, arr, stop, count_next, &c);
	pl_report_cnt_end(c.cnt);
	json_object_set_new(report, "counters", pl_report_cnt_json(c.cnt));
	pl_report_cnt_free(c.cnt);
	/* --from documents come after the ones measured now */
	json_t *old = json_object_get(report, "benchmarks");
	size_t k;
	json_t *x;
	json_array_foreach(old, k, x) json_array_append(arr, x);
	json_object_set_new(report, "benchmarks", arr);
	return s;
}

json_t *pl_report_run_info(enum pl_bench_mode mode, bool bench, bool interrupted, const char *cpus,
			   double bench_s)
{
	json_t *meta = json_object();
	json_object_set_new(meta, "mode",
			    pl_json_string(bench ? pl_bench_mode_name(mode) : "no-bench"));
	json_object_set_new(meta, "interrupted", json_boolean(interrupted));
	if (cpus)
		json_object_set_new(meta, "cpus", pl_json_string(cpus));
	if (bench) {
		json_object_set_new(meta, "budget_s", json_real(pl_bench_mode_budget(mode)));
		json_object_set_new(meta, "bench_elapsed_s", json_real(bench_s));
	}
	if (!pl_sysroot_is_live())
		json_object_set_new(meta, "note",
				    pl_json_string("benchmarks left out: --sysroot "
						   "reads another machine's files"));
	return meta;
}
