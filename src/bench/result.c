/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The result of a run: its JSON document (bench.schema.json), the human table of a
 * document, and `bench --list`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/env.h"
#include "bench/internal.h"
#include "config.h"
#include "facts/facts.h"
#include "util/json.h"
#include "stats/summary.h"
#include "util/log.h"
#include "util/str.h"

/* ---- JSON of a result ---- */

/* A finite number, or null when undefined (schema: "num"). */
static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static const char *better_name(enum pl_better b)
{
	return b == PL_HIGHER_IS_BETTER ? "higher" : b == PL_LOWER_IS_BETTER ? "lower" : "neither";
}

/* info.reference (a benchmark's reference figure, mem: the DIMM peak): its "share_pct",
 * the named metric's median over the reference value x 100, when both are known. */
void pl_bench_reference_share(json_t *info, const json_t *ms)
{
	json_t *r = json_object_get(info, "reference");
	const json_t *v = json_object_get(r, "value");
	const char *name = pl_json_str(r, "metric");
	size_t i;
	const json_t *m;
	json_array_foreach(ms, i, m)
	{
		const json_t *med = json_object_get(m, "median");
		if (name && json_is_number(v) && json_number_value(v) > 0 &&
		    strcmp(pl_json_str(m, "name"), name) == 0 && json_is_number(med))
			json_object_set_new(
				r, "share_pct",
				json_real(json_number_value(med) / json_number_value(v) * 100));
	}
}

json_t *pl_bench_metric_json(const struct metric *m, bool buckets)
{
	struct pl_summary s;
	pl_summary_compute(&s, m->v, m->n);
	json_t *o = json_object();
	json_object_set_new(o, "name", pl_json_string(m->name));
	json_object_set_new(o, "unit", pl_json_string(m->unit));
	json_object_set_new(o, "better", pl_json_string(better_name(m->better)));
	if (m->help)
		json_object_set_new(o, "help", pl_json_string(m->help));
	/* A metric with no preferred direction (ticks/s, residency) has no best run: null,
	 * not the median under another name. */
	double best = m->better == PL_HIGHER_IS_BETTER	? s.max
		      : m->better == PL_LOWER_IS_BETTER ? s.min
							: NAN;
	json_object_set_new(o, "best", num_or_null(best));
	json_object_set_new(o, "median", num_or_null(s.median));
	json_object_set_new(o, "mean", num_or_null(s.mean));
	json_object_set_new(o, "stddev", num_or_null(s.stddev));
	json_object_set_new(o, "min", num_or_null(s.min));
	json_object_set_new(o, "max", num_or_null(s.max));
	json_object_set_new(o, "p99", num_or_null(s.p99));
	json_object_set_new(o, "cv", num_or_null(s.cv));
	json_object_set_new(o, "n", json_integer((json_int_t)s.n));
	json_t *arr = json_array();
	for (size_t i = 0; i < m->n; i++)
		json_array_append_new(arr, num_or_null(m->v[i]));
	json_object_set_new(o, "samples", arr);
	if (m->notes)
		json_object_set(o, "notes", m->notes);
	if (m->total && m->total->n) {
		json_t *l = pl_hist_to_json(m->total);
		if (buckets)
			json_object_set_new(l, "buckets", pl_hist_buckets_json(m->total));
		json_object_set_new(o, "latency_ns", l);
	}
	return o;
}

/* The values of a benchmark's options, by name, for the "options" object. */
json_t *pl_bench_opts_json(const struct pl_opt *t, const void *base)
{
	json_t *o = json_object();
	for (; t && t->name; t++) {
		const char *p = (const char *)base + t->off;
		json_t *v = NULL;
		switch (t->type) {
		case PL_OPT_FLAG:
			v = json_boolean(*(const bool *)p);
			break;
		case PL_OPT_COUNT:
		case PL_OPT_INT:
			v = json_integer(*(const int *)p);
			break;
		case PL_OPT_ENUM: {
			int i = *(const int *)p;
			v = t->choices ? pl_json_string(t->choices[i]) : json_integer(i);
			break;
		}
		case PL_OPT_U64:
		case PL_OPT_SIZE:
			v = json_integer((json_int_t) * (const uint64_t *)p);
			break;
		case PL_OPT_DOUBLE:
		case PL_OPT_DURATION:
			v = json_real(*(const double *)p);
			break;
		case PL_OPT_STR:
		case PL_OPT_CPUS: {
			const char *s = *(const char *const *)p;
			v = s ? pl_json_string(s) : json_null();
			break;
		}
		case PL_OPT_STRLIST: {
			char *const *sv = *(char *const *const *)p;
			v = json_array();
			for (; sv && *sv; sv++)
				json_array_append_new(v, pl_json_string(*sv));
			break;
		}
		}
		json_object_set_new(o, t->name, v);
	}
	return o;
}

json_t *pl_bench_doc_new(const struct pl_bench *b, const char *status)
{
	char ts[32];
	json_t *d = json_object();
	json_object_set_new(d, "schema_version", json_integer(1));
	json_object_set_new(d, "benchmark", pl_json_string(b->name));
	json_object_set_new(d, "summary", pl_json_string(b->summary));
	json_object_set_new(d, "status", pl_json_string(status));
	json_object_set_new(d, "generated",
			    pl_json_string(pl_iso8601(pl_now_epoch(), ts, sizeof(ts))));
	json_object_set_new(d, "perflab_version", pl_json_string(PERFLAB_VERSION));
	return d;
}

/* ---- human output ---- */

static void fmt_num(char *buf, size_t len, const json_t *v)
{
	if (!json_is_number(v)) {
		snprintf(buf, len, "-");
		return;
	}
	double x = json_number_value(v), ax = fabs(x);
	if (ax >= 1e12 || (ax > 0 && ax < 0.001))
		snprintf(buf, len, "%.3g", x);
	else if (ax >= 1e5)
		snprintf(buf, len, "%.0f", x);
	else if (ax >= 100)
		snprintf(buf, len, "%.1f", x);
	else if (ax >= 10)
		snprintf(buf, len, "%.2f", x);
	else
		snprintf(buf, len, "%.3f", x);
}

/* The unit to show a time of @ns nanoseconds in (ns, us, ms, s) and its size in ns. */
static const char *time_unit(double ns, double *div)
{
	static const struct {
		const char *u;
		double ns;
	} units[] = {
		{ "s", 1e9 },
		{ "ms", 1e6 },
		{ "us", 1e3 },
		{ "ns", 1 },
	};
	size_t i = 0;
	while (i + 1 < sizeof(units) / sizeof(units[0]) && fabs(ns) < units[i].ns)
		i++;
	*div = units[i].ns;
	return units[i].u;
}

/* A time in ns, scaled with its unit: "247.3 us", "11.57 ms", "812 ns"; "-" when absent. */
static void fmt_ns(char *buf, size_t len, const json_t *v)
{
	if (!json_is_number(v)) {
		snprintf(buf, len, "-");
		return;
	}
	double div, x = json_number_value(v);
	const char *u = time_unit(x, &div);
	snprintf(buf, len, "%.4g %s", x / div, u);
}

bool pl_bench_metric_has_spread(const json_t *m)
{
	return pl_json_int(m, "n") >= 2;
}

const char *pl_bench_metric_tail(const json_t *m, double *value)
{
	*value = NAN;
	const char *better = pl_json_str(m, "better");
	if (!better || !pl_bench_metric_has_spread(m))
		return NULL;
	bool lower = strcmp(better, "lower") == 0;
	if (!lower && strcmp(better, "higher") != 0)
		return NULL;
	*value = pl_json_num(m, lower ? "max" : "min");
	return lower ? "max" : "min";
}

const char *pl_bench_info_word(const char *key, const json_t *v)
{
	size_t kl = strlen(key);
	if (json_is_integer(v) && json_integer_value(v) < 0 && kl > 7 &&
	    strcmp(key + kl - 7, "_pinned") == 0)
		return "not pinned";
	return NULL;
}

void pl_bench_print_table(FILE *f, const json_t *d)
{
	const char *B = pl_style(f, "bold"), *D = pl_style(f, "dim"), *R = pl_style(f, "reset");
	const json_t *rj = json_object_get(d, "runner");
	fprintf(f, "%sbench %s%s: %s\n", B, pl_json_str(d, "benchmark"), R,
		pl_json_str(d, "summary"));
	const json_t *info = json_object_get(d, "info");
	const char *workload = pl_json_str(info, "workload");
	if (workload)
		fprintf(f, "%sworkload:%s %s\n", B, R, workload);
	long long runs = (long long)json_integer_value(json_object_get(rj, "runs"));
	double el = json_number_value(json_object_get(rj, "elapsed_s"));
	/* with --precision the whole wall time is known: say where the rest went when setup
	 * and teardown took a good part of it (--max-time counts the runs only) */
	const json_t *pw = json_object_get(json_object_get(rj, "precision"), "wall_s");
	char whole[96] = "";
	if (json_is_number(pw) && json_number_value(pw) > el + fmax(1, 0.2 * el))
		snprintf(whole, sizeof(whole), "; %.2f s in all with setup and teardown",
			 json_number_value(pw));
	fprintf(f, "%lld run%s (+%lld warm-up) in %.2f s on CPUs %s (%s)%s%s\n", runs,
		runs == 1 ? "" : "s", (long long)json_integer_value(json_object_get(rj, "warmup")),
		el, pl_json_str(rj, "cpus"),
		json_is_true(json_object_get(rj, "pinned")) ? "pinned" : "unpinned", whole,
		strcmp(pl_json_str(d, "status"), "interrupted") == 0 ? ", INTERRUPTED" : "");
	char *prec = pl_bench_precision_text(json_object_get(rj, "precision"));
	if (prec)
		fprintf(f, "precision: %s\n", prec);
	free(prec);
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)info, k, v)
	{
		if (strcmp(k, "workload") == 0 || strcmp(k, "reference") == 0)
			continue;
		const char *w = pl_bench_info_word(k, v);
		char *t = w ? pl_xstrdup(w) : pl_fact_value_human(k, v);
		fprintf(f, "  %s%s:%s %s\n", D, k, R, t);
		free(t);
	}
	const json_t *ms = json_object_get(d, "metrics");
	size_t i, w = 6;
	json_t *m;
	json_array_foreach(ms, i, m)
	{
		size_t l = strlen(pl_json_str(m, "name"));
		if (l > w)
			w = l;
	}
	fprintf(f, "\n%s  %-*s %-6s %10s %10s %10s %9s %13s %4s  %s%s\n", B, (int)w, "metric",
		"unit", "best", "median", "mean", "stddev", "worst run", "n", "notes", R);
	bool any_lat = false, any_tail = false;
	json_array_foreach(ms, i, m)
	{
		char c[5][32];
		static const char *const cols[] = { "best", "median", "mean", "stddev" };
		/* times in the unit of their median (a 250 us latency, not 250000 ns) */
		const char *unit = pl_json_str(m, "unit");
		double div = 1;
		if (strcmp(unit, "ns") == 0)
			unit = time_unit(json_number_value(json_object_get(m, "median")), &div);
		for (int j = 0; j < 4; j++) {
			const json_t *x = json_object_get(m, cols[j]);
			json_t *sc =
				json_is_number(x) ? json_real(json_number_value(x) / div) : NULL;
			fmt_num(c[j], sizeof(c[j]), sc ? sc : x);
			json_decref(sc);
		}
		/* the worst run: the slowest for a time, the lowest for a rate */
		double t;
		const char *tn = pl_bench_metric_tail(m, &t);
		snprintf(c[4], sizeof(c[4]), "-");
		if (tn && isfinite(t)) {
			json_t *sc = json_real(t / div);
			char tv[24];
			fmt_num(tv, sizeof(tv), sc);
			json_decref(sc);
			snprintf(c[4], sizeof(c[4]), "%.23s %.4s", tv, tn);
			any_tail = true;
		}
		fprintf(f, "  %-*s %-6s %10s %10s %10s %9s %13s %4lld  ", (int)w,
			pl_json_str(m, "name"), unit, c[0], c[1], c[2], c[3], c[4],
			(long long)json_integer_value(json_object_get(m, "n")));
		const json_t *notes = json_object_get(m, "notes");
		json_object_foreach((json_t *)notes, k, v)
			fprintf(f, "%s=%s ", k, json_string_value(v));
		fputc('\n', f);
		if (json_object_get(m, "latency_ns"))
			any_lat = true;
	}
	if (any_tail)
		fprintf(f,
			"  %s(worst run: of the runs' figures, the max of a lower-is-better "
			"metric, "
			"the min of a higher-is-better one%s)%s\n",
			D,
			any_lat ? "; percentiles of single operations are in the latency table"
				: "",
			R);
	if (any_lat) {
		fprintf(f, "\n%s  %-*s %10s %10s %10s %10s %10s %10s%s\n", B, (int)w, "latency",
			"p50", "p90", "p99", "p99.9", "max", "ops", R);
		json_array_foreach(ms, i, m)
		{
			const json_t *l = json_object_get(m, "latency_ns");
			if (!l)
				continue;
			char c[5][32];
			static const char *const cols[] = { "p50", "p90", "p99", "p99.9", "max" };
			for (int j = 0; j < 5; j++)
				fmt_ns(c[j], sizeof(c[j]), json_object_get(l, cols[j]));
			fprintf(f, "  %-*s %10s %10s %10s %10s %10s %10lld\n", (int)w,
				pl_json_str(m, "name"), c[0], c[1], c[2], c[3], c[4],
				(long long)json_integer_value(json_object_get(l, "n")));
		}
	}
	const json_t *ref = json_object_get(info, "reference");
	if (ref) {
		const json_t *sh = json_object_get(ref, "share_pct");
		const json_t *rm = NULL, *x;
		json_array_foreach(ms, i, x) if (strcmp(pl_json_str(x, "name"),
							pl_json_str(ref, "metric")) == 0) rm = x;
		if (json_is_number(sh) && rm)
			fprintf(f, "\n%s %.1f %s = %.1f%% of %s %s\n", pl_json_str(ref, "metric"),
				json_number_value(json_object_get(rm, "median")),
				pl_json_str(rm, "unit"), json_number_value(sh),
				pl_json_str(ref, "name"), pl_json_str(ref, "text"));
		else
			fprintf(f, "\n%s %s\n", pl_json_str(ref, "name"), pl_json_str(ref, "text"));
	}
	const json_t *notes = json_object_get(d, "notes");
	if (json_array_size(notes))
		fputc('\n', f);
	json_array_foreach(notes, i, v) fprintf(f, "note: %s\n", json_string_value(v));
	char *env = pl_env_text(json_object_get(d, "environment"));
	fprintf(f, "\n%senvironment:%s %s\n", D, R, env);
	free(env);
}

/* The benchmarks, whether each runs here (its supported() with default options) and what
 * it measures; a reason or note from supported() follows on its own line. */
void pl_bench_print_list(FILE *f)
{
	fprintf(f, "%-10s %-5s %s\n", "benchmark", "here", "measures");
	for (size_t i = 0; i < pl_nbenches; i++) {
		const struct pl_bench *b = pl_benches[i];
		char reason[256] = "";
		void *o = pl_bench_opts_new(b);
		bool ok = !b->supported || b->supported(o, reason, sizeof(reason)) == 0;
		free(o);
		fprintf(f, "%-10s %-5s %s\n", b->name, ok ? "yes" : "no", b->summary);
		if (*reason)
			fprintf(f, "%-16s %s%s\n", "", ok ? "note: " : "not here: ", reason);
	}
}

json_t *pl_bench_result_skipped(const struct pl_bench *b, const char *reason)
{
	json_t *d = pl_bench_doc_new(b, "skipped");
	json_object_set_new(d, "reason", pl_json_string(reason));
	return d;
}
