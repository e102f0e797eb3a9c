/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The benchmark plan of `perflab report` (bench_plan.h). */
#include "report/bench_plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/figures.h"
#include "util/json.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/str.h"

const char *pl_bench_mode_name(enum pl_bench_mode mode)
{
	return mode == PL_BENCH_MODE_QUICK  ? "quick"
	       : mode == PL_BENCH_MODE_FULL ? "full"
					    : "default";
}

double pl_bench_mode_budget(enum pl_bench_mode mode)
{
	return mode == PL_BENCH_MODE_QUICK ? 15 : mode == PL_BENCH_MODE_FULL ? 0 : 60;
}

static int argv_len(const char *const *v)
{
	int n = 0;
	while (v && v[n])
		n++;
	return n;
}

/* @argv (NULL-terminated, may be NULL) followed by "--precision" PL_REPORT_PRECISION when
 * @precision and by "--cpus" @cpus when @cpus is set, as a new NULL-terminated array of the
 * same (static or caller-owned) strings; *@argc gets its length.
 * Free the array, not the strings. */
static const char **plan_args(const char *const *argv, bool precision, const char *cpus, int *argc)
{
	int n = argv_len(argv);
	const char **v = pl_xcalloc((size_t)n + 5, sizeof(*v));
	for (int i = 0; i < n; i++)
		v[i] = argv[i];
	if (precision) {
		v[n++] = "--precision";
		v[n++] = PL_REPORT_PRECISION;
	}
	if (cpus) {
		v[n++] = "--cpus";
		v[n++] = cpus;
	}
	*argc = n;
	return v;
}

/* @argv (NULL-terminated, may be NULL) without its "--runs N": the quick arguments of a
 * benchmark run over budget, whose count --precision's floor of runs replaces. New array
 * of the same strings; free the array only. */
static const char **without_runs(const char *const *argv)
{
	int n = argv_len(argv), k = 0;
	const char **v = pl_xcalloc((size_t)n + 1, sizeof(*v));
	for (int i = 0; i < n; i++) {
		if (strcmp(argv[i], "--runs") == 0) {
			i++;
			continue;
		}
		if (strncmp(argv[i], "--runs=", 7) != 0)
			v[k++] = argv[i];
	}
	return v;
}

/* The arguments of a benchmark that starts after the default plan's budget is used: its
 * quick_argv without "--runs N" (its floor of runs replaces the count), then its
 * report_argv, so it measures what the default plan would (compress at level 1 only, io
 * with the plan's cache mode) at the quick sizes. New array of the same static strings;
 * free the array only. */
static const char **brief_args(const struct pl_bench *b)
{
	pl_autofree const char **quick = without_runs(b->quick_argv);
	int nq = argv_len(quick), nr = argv_len(b->report_argv);
	const char **v = pl_xcalloc((size_t)nq + (size_t)nr + 1, sizeof(*v));
	for (int i = 0; i < nq; i++)
		v[i] = quick[i];
	for (int i = 0; i < nr; i++)
		v[nq + i] = b->report_argv[i];
	return v;
}

int pl_bench_plan_make(struct pl_bench_plan *p, enum pl_bench_mode mode, const char *cpus)
{
	memset(p, 0, sizeof(*p));
	p->mode = mode;
	p->cpus = cpus;
	p->budget_s = pl_bench_mode_budget(mode);
	p->reserve_s = PL_BENCH_PLAN_RESERVE_S;
	p->items = pl_xcalloc(pl_nbenches + 1, sizeof(*p->items));
	for (size_t i = 0; i < pl_nbenches; i++) {
		const struct pl_bench *b = pl_benches[i];
		if (!b->in_report)
			continue;
		const char *const *argv = mode == PL_BENCH_MODE_QUICK	  ? b->quick_argv
					  : mode == PL_BENCH_MODE_DEFAULT ? b->report_argv
									  : NULL;
		struct pl_bench_plan_item *it = &p->items[p->n];
		it->b = b;
		it->argv = plan_args(argv, mode == PL_BENCH_MODE_DEFAULT, cpus, &it->argc);
		struct pl_bench_run_opts ro;
		void *opts;
		if (pl_bench_parse_args(b, it->argc, (char *const *)it->argv, &opts, &ro) < 0) {
			p->n++; /* its argv is freed with the others */
			pl_bench_plan_free(p);
			return -EINVAL;
		}
		it->runs = pl_bench_planned_runs(b, &ro);
		it->warmup = pl_bench_planned_warmup(b, &ro);
		if (b->plan) {
			it->detail = json_object();
			b->plan(opts, it->detail);
		}
		pl_bench_opts_free(b, opts);
		p->n++;
	}
	return 0;
}

size_t pl_bench_plan_drop(struct pl_bench_plan *p, const char *name)
{
	for (size_t i = 0; name && i < p->n; i++) {
		if (strcmp(p->items[i].b->name, name) != 0)
			continue;
		json_decref(p->items[i].detail);
		free((void *)p->items[i].argv);
		memmove(&p->items[i], &p->items[i + 1], (p->n - i - 1) * sizeof(*p->items));
		p->n--;
		return 1;
	}
	return 0;
}

void pl_bench_plan_free(struct pl_bench_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++) {
		json_decref(p->items[i].detail);
		free((void *)p->items[i].argv);
	}
	free(p->items);
	memset(p, 0, sizeof(*p));
}

json_t *pl_bench_plan_json(const struct pl_bench_plan *p)
{
	json_t *d = json_object();
	json_object_set_new(d, "schema_version", json_integer(1));
	json_object_set_new(d, "kind", pl_json_string("report-plan"));
	json_object_set_new(d, "mode", pl_json_string(pl_bench_mode_name(p->mode)));
	json_object_set_new(d, "budget_s", json_real(p->budget_s));
	json_t *arr = json_array();
	for (size_t i = 0; i < p->n; i++) {
		const struct pl_bench_plan_item *it = &p->items[i];
		json_t *o = json_object();
		json_object_set_new(o, "benchmark", pl_json_string(it->b->name));
		json_t *av = json_array();
		for (int k = 0; k < it->argc; k++)
			json_array_append_new(av, pl_json_string(it->argv[k]));
		json_object_set_new(o, "args", av);
		json_object_set_new(o, "runs", json_integer(it->runs));
		json_object_set_new(o, "warmup", json_integer(it->warmup));
		if (it->detail)
			json_object_update(o, it->detail);
		json_array_append_new(arr, o);
	}
	json_object_set_new(d, "benchmarks", arr);
	return d;
}

/* Run @it of @p; in the default mode with @share seconds of the budget, setup included,
 * and up to @cap while its runs project the precision (pl_bench_run_share()). */
static json_t *run_item(const struct pl_bench_plan *p, const struct pl_bench_plan_item *it,
			double share, double cap)
{
	if (p->mode != PL_BENCH_MODE_DEFAULT || !(share > 0))
		return pl_bench_run_args(it->b, it->argc, (char *const *)it->argv,
					 p->mode == PL_BENCH_MODE_QUICK, p->workdir);
	return pl_bench_run_share(it->b, it->argc, (char *const *)it->argv, false, p->workdir,
				  share, cap);
}

json_t *pl_bench_plan_run(const struct pl_bench_plan *p, const struct pl_bench_plan_item *it)
{
	return run_item(p, it, p->n ? p->budget_s / (double)p->n : 0, 0);
}

void pl_bench_plan_share(const struct pl_bench_plan *p, size_t i, double used, double *share,
			 double *cap)
{
	double left = p->budget_s - used;
	size_t after = i < p->n ? p->n - i - 1 : 0;
	*share = i < p->n ? left / (double)(p->n - i) : 0;
	*cap = left - p->reserve_s * (double)after;
	if (!(p->reserve_s > 0) || !(*cap > *share))
		*cap = 0;
}

char *pl_bench_plan_budget_cause(const struct pl_bench_plan *p, const double *secs, size_t n,
				 double used)
{
	struct pl_buf b = { 0 };
	pl_buf_printf(&b, "the report's time budget of %.0f s was used up after %.0f s (",
		      p->budget_s, used);
	/* the longest items, at most three, longest first; ties keep plan order */
	bool *taken = pl_xcalloc(n + 1, sizeof(bool));
	int shown = 0;
	for (; shown < 3; shown++) {
		size_t best = n;
		for (size_t i = 0; i < n; i++)
			if (!taken[i] && (best == n || secs[i] > secs[best]))
				best = i;
		if (best == n || (shown > 0 && secs[best] < 1))
			break;
		taken[best] = true;
		pl_buf_printf(&b, "%sbench %s%s %.0f s", shown ? ", " : "", p->items[best].b->name,
			      shown ? "" : " took", secs[best]);
	}
	free(taken);
	if (!shown)
		pl_buf_puts(&b, "no benchmark ran yet");
	pl_buf_puts(&b, ")");
	return b.data;
}

json_t *pl_bench_plan_over_budget(const struct pl_bench_plan *p,
				  const struct pl_bench_plan_item *it, const char *cause)
{
	const struct pl_bench *b = it->b;
	if (p->mode != PL_BENCH_MODE_DEFAULT) {
		pl_autofree char *why = pl_xasprintf(
			"%s (run 'perflab bench %s' or 'perflab report --full')", cause, b->name);
		return pl_bench_result_skipped(b, why);
	}
	/* its brief arguments until its floor of runs: a figure with a spread, a few seconds
	 * over the budget, rather than one run */
	int argc;
	pl_autofree const char **brief = brief_args(b);
	pl_autofree const char **argv = plan_args(brief, true, p->cpus, &argc);
	json_t *d = pl_bench_run_share(b, argc, (char *const *)argv, true, p->workdir,
				       PL_BENCH_PLAN_OVER_S, 0);
	json_t *notes = json_object_get(d, "notes");
	pl_autofree char *why = pl_xasprintf(
		"%s: ran with its brief --quick sizes until its floor of %d runs, not the "
		"default plan's (run 'perflab bench %s' for that figure)",
		cause, PL_BENCH_PRECISION_FLOOR_RUNS, b->name);
	if (json_is_array(notes)) /* a skipped or failed result keeps its own reason */
		json_array_insert_new(notes, 0, pl_json_string(why));
	return d;
}

double pl_bench_plan_run_all(const struct pl_bench_plan *plan, json_t *arr,
			     volatile sig_atomic_t *stop,
			     void (*progress)(size_t k, const char *what, void *ctx), void *ctx)
{
	uint64_t t0 = pl_now_ns();
	double *secs = pl_xcalloc(plan->n + 1, sizeof(double));
	for (size_t i = 0; i < plan->n && !*stop; i++) {
		const struct pl_bench_plan_item *it = &plan->items[i];
		if (progress) {
			char what[64];
			snprintf(what, sizeof(what), "bench %s", it->b->name);
			progress(i, what, ctx);
		}
		uint64_t ti = pl_now_ns();
		double used = (double)(ti - t0) / 1e9;
		json_t *r;
		if (plan->budget_s > 0 && used > plan->budget_s) {
			pl_autofree char *cause = pl_bench_plan_budget_cause(plan, secs, i, used);
			r = pl_bench_plan_over_budget(plan, it, cause);
		} else {
			/* an even share of what is left: a benchmark that reaches the precision
			 * sooner leaves its time to those after it; one whose runs project it
			 * within what the later ones can spare goes on past its share */
			double share, cap;
			pl_bench_plan_share(plan, i, used, &share, &cap);
			r = run_item(plan, it, share, cap);
		}
		secs[i] = (double)(pl_now_ns() - ti) / 1e9;
		const char *st = json_string_value(json_object_get(r, "status"));
		if (st && strcmp(st, "interrupted") == 0)
			*stop = 1;
		json_array_append_new(arr, r);
	}
	double total = (double)(pl_now_ns() - t0) / 1e9;
	/* A run over the budget inside its last benchmarks (each keeps its floor of runs)
	 * is named on that benchmark's result, as one that starts after the budget is. */
	json_t *last = json_array_get(arr, json_array_size(arr) - 1);
	json_t *notes = last ? json_object_get(last, "notes") : NULL;
	const char *first = json_string_value(json_array_get(notes, 0));
	if (plan->budget_s > 0 && !*stop && total > plan->budget_s + 0.5 && json_is_array(notes) &&
	    !(first && strstr(first, "time budget"))) {
		pl_autofree char *cause = pl_bench_plan_budget_cause(plan, secs, plan->n, total);
		pl_autofree char *note = pl_xasprintf(
			"%s: the benchmarks ran over it (each keeps its floor of %d runs)", cause,
			PL_BENCH_PRECISION_FLOOR_RUNS);
		json_array_append_new(notes, pl_json_string(note));
	}
	free(secs);
	return total;
}

int pl_bench_plan_print(FILE *out, const struct pl_bench_plan *plan, bool json)
{
	json_t *d = pl_bench_plan_json(plan);
	int r = 0;
	if (json) {
		r = pl_json_write(out, d);
		json_decref(d);
		return r;
	}
	if (plan->budget_s > 0)
		fprintf(out, "%s mode: time budget about %.0f s\n", pl_bench_mode_name(plan->mode),
			plan->budget_s);
	else
		fprintf(out, "%s mode: no time budget\n", pl_bench_mode_name(plan->mode));
	size_t i;
	json_t *it;
	json_array_foreach(json_object_get(d, "benchmarks"), i, it)
	{
		long long runs = json_integer_value(json_object_get(it, "runs"));
		fprintf(out, "  %-9s %2lld run%s (+%lld warm-up)", pl_json_str(it, "benchmark"),
			runs, runs == 1 ? " " : "s",
			(long long)json_integer_value(json_object_get(it, "warmup")));
		size_t k;
		json_t *w;
		json_t *args = json_object_get(it, "args");
		fprintf(out, "  args:%s", json_array_size(args) ? "" : " (its defaults)");
		json_array_foreach(args, k, w) fprintf(out, " %s", json_string_value(w));
		fputc('\n', out);
		const char *key;
		json_object_foreach(it, key, w)
		{
			if (!strcmp(key, "benchmark") || !strcmp(key, "args") ||
			    !strcmp(key, "runs") || !strcmp(key, "warmup"))
				continue;
			/* in words and units ("last-level cache (all caches): 1016 MiB"); the
			 * JSON plan keeps the exact values */
			pl_autofree char *t = pl_figure_info_item(key, w);
			if (t)
				fprintf(out, "            %s\n", t);
		}
	}
	json_decref(d);
	return fflush(out) == 0 && !ferror(out) ? 0 : -EIO;
}
