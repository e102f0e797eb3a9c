/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The diff engine: two checked documents -> the diff document (report/diff.h). */
#include "report/diff.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/analyze.h"
#include "util/json.h"
#include "report/from.h"
#include "report/limits.h"
#include "report/report.h"
#include "util/cleanup.h"
#include "util/str.h"

/* Units of facts by the suffix of their key (the collectors' naming convention). Longer
 * suffixes first: "_kbytes" before "_kb" would not matter, "_bytes" must not catch them. */
static const struct {
	const char *suffix, *unit;
} fact_units[] = {
	{ "_kbytes", "KiB" }, { "_bytes", "B" },      { "_kb", "KiB" },
	{ "_khz", "kHz" },    { "_mbps", "Mbit/s" },  { "_ns", "ns" },
	{ "_usecs", "us" },   { "_centisecs", "cs" }, { "_pages", "pages" },
};

/* Facts that are readings of a changing state rather than settings: they differ between
 * any two runs, so the renderers list them apart. */
static const char *const volatile_facts[] = { "mem.available_bytes", "mem.hugepages.free",
					      "numa.local_pages", "numa.other_pages" };

static const char *fact_unit(const char *key)
{
	size_t n = strlen(key);
	for (size_t i = 0; i < sizeof(fact_units) / sizeof(fact_units[0]); i++) {
		size_t l = strlen(fact_units[i].suffix);
		if (n > l && strcmp(key + n - l, fact_units[i].suffix) == 0)
			return fact_units[i].unit;
	}
	return NULL;
}

static bool fact_volatile(const char *key)
{
	for (size_t i = 0; i < sizeof(volatile_facts) / sizeof(volatile_facts[0]); i++)
		if (strcmp(key, volatile_facts[i]) == 0)
			return true;
	return false;
}

json_t *pl_diff_load(const char *path, const char **kindp, char *err, size_t errlen)
{
	pl_autojson json_t *doc = pl_doc_read(path, err, errlen);
	if (!doc)
		return NULL;
	const char *kind = pl_json_str(doc, "kind");
	if (kind && strcmp(kind, "diff") == 0) {
		snprintf(err, errlen,
			 "'%s' is a diff document: perflab diff compares report, inspect, check "
			 "or bench documents",
			 path);
		return NULL;
	}
	if (pl_report_check_doc(doc, path, &kind, NULL, err, errlen) < 0 ||
	    pl_doc_check_limits(doc, path, err, errlen) < 0)
		return NULL;
	static const char *const kinds[] = { "report", "inspect", "check", "bench" };
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(kind, kinds[i]) == 0) {
			*kindp = kinds[i];
			return pl_steal_ptr(&doc);
		}
	snprintf(err, errlen,
		 "'%s' is a %s document: perflab diff compares report, inspect, check or bench "
		 "documents",
		 path, kind);
	return NULL;
}

json_t *pl_diff_load_report(const char *path, char *err, size_t errlen)
{
	const char *kind = NULL;
	json_t *doc = pl_diff_load(path, &kind, err, errlen);
	if (doc && strcmp(kind, "report") != 0) {
		snprintf(err, errlen, "'%s' is a %s document, not a report.json", path, kind);
		json_decref(doc);
		return NULL;
	}
	return doc;
}

/* ---- facts ---------------------------------------------------------------------------- */

/* One side of a fact: {"value": V} or {"unavailable": REASON} (no source). */
static json_t *fact_side(const json_t *f)
{
	json_t *s = json_object();
	const json_t *v = json_object_get(f, "value");
	if (v)
		json_object_set(s, "value", (json_t *)v);
	else
		json_object_set_new(s, "unavailable",
				    pl_json_string(pl_json_str(f, "unavailable")));
	return s;
}

static bool fact_same(const json_t *a, const json_t *b)
{
	const json_t *va = json_object_get(a, "value"), *vb = json_object_get(b, "value");
	if (!va || !vb)
		return !va && !vb; /* both unavailable, whatever the reason */
	return json_equal(va, vb);
}

static json_t *fact_entry(const char *key, const json_t *o, const json_t *n)
{
	json_t *e = json_object();
	pl_json_set(e, "key", pl_json_string(key));
	const char *unit = fact_unit(key);
	json_object_set_new(e, "unit", pl_json_string(unit));
	if (o)
		json_object_set_new(e, "old", fact_side(o));
	if (n)
		json_object_set_new(e, "new", fact_side(n));
	if (o && n) {
		const json_t *vo = json_object_get(o, "value"), *vn = json_object_get(n, "value");
		double a = json_is_number(vo) ? json_number_value(vo) : NAN;
		double b = json_is_number(vn) ? json_number_value(vn) : NAN;
		/* a relative change only for quantities (a fact with a unit), not for
		 * settings such as 0/1/2 */
		double pct =
			unit && !isnan(a) && !isnan(b) && a != 0 ? (b - a) / fabs(a) * 100 : NAN;
		json_object_set_new(e, "change_pct", isfinite(pct) ? json_real(pct) : json_null());
	}
	json_object_set_new(e, "volatile", json_boolean(fact_volatile(key)));
	return e;
}

static json_t *diff_facts(const json_t *fo, const json_t *fn, json_t *sum)
{
	json_t *changed = json_array(), *added = json_array(), *removed = json_array();
	const char *key;
	json_t *x;
	json_object_foreach((json_t *)fo, key, x)
	{
		const json_t *y = json_object_get(fn, key);
		if (!y)
			json_array_append_new(removed, fact_entry(key, x, NULL));
		else if (!fact_same(x, y))
			json_array_append_new(changed, fact_entry(key, x, y));
	}
	json_object_foreach((json_t *)fn, key, x)
	{
		if (!json_object_get(fo, key))
			json_array_append_new(added, fact_entry(key, NULL, x));
	}
	json_object_set_new(sum, "facts_changed",
			    json_integer((json_int_t)json_array_size(changed)));
	json_object_set_new(sum, "facts_added", json_integer((json_int_t)json_array_size(added)));
	json_object_set_new(sum, "facts_removed",
			    json_integer((json_int_t)json_array_size(removed)));
	json_t *d = json_object();
	json_object_set_new(d, "changed", changed);
	json_object_set_new(d, "added", added);
	json_object_set_new(d, "removed", removed);
	return d;
}

/* ---- findings ------------------------------------------------------------------------- */

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* A lookup key for a string that may be missing: "-" for NULL, "+" then the string. */
static char *opt_key(const char *a)
{
	return a ? pl_xasprintf("+%s", a) : pl_xstrdup("-");
}

/* The lookup key of a finding: its rule id and subject, each marked present or missing,
 * the id's length first so no two pairs give one key. Malloc'd. */
static char *finding_key(const json_t *f)
{
	const char *id = pl_json_str(f, "id"), *sub = pl_json_str(f, "subject");
	pl_autofree char *a = opt_key(id);
	pl_autofree char *b = opt_key(sub);
	return pl_xasprintf("%zu:%s%s", strlen(a), a, b);
}

/* The findings of @arr by finding_key(), the first of each key (a new object). */
static json_t *findings_by_key(const json_t *arr)
{
	json_t *by = json_object();
	size_t i;
	json_t *x;
	json_array_foreach(arr, i, x)
	{
		pl_autofree char *k = finding_key(x);
		if (!json_object_get(by, k))
			json_object_set_nocheck(by, k, x);
	}
	return by;
}

/* The finding of @by (findings_by_key) with @f's rule id and subject, or NULL. */
static const json_t *find_finding(const json_t *by, const json_t *f)
{
	pl_autofree char *k = finding_key(f);
	return json_object_get(by, k);
}

static json_t *finding_entry(const json_t *f)
{
	json_t *e = json_object();
	json_object_set_new(e, "id", pl_json_string(pl_json_str(f, "id")));
	json_object_set_new(e, "subject", pl_json_string(pl_json_str(f, "subject")));
	json_object_set_new(e, "severity", pl_json_string(pl_json_str(f, "severity")));
	json_object_set_new(e, "title", pl_json_string(pl_json_str(f, "title")));
	json_object_set_new(e, "observed", pl_json_string(pl_json_str(f, "observed")));
	return e;
}

static json_t *finding_state(const json_t *f)
{
	json_t *s = json_object();
	json_object_set_new(s, "severity", pl_json_string(pl_json_str(f, "severity")));
	json_object_set_new(s, "observed", pl_json_string(pl_json_str(f, "observed")));
	return s;
}

static json_t *diff_findings(const json_t *co, const json_t *cn, json_t *sum, json_t *notes)
{
	const json_t *fo = json_object_get(co, "findings"), *fn = json_object_get(cn, "findings");
	json_t *appeared = json_array(), *resolved = json_array(), *changed = json_array();
	pl_autojson json_t *byo = findings_by_key(fo);
	pl_autojson json_t *byn = findings_by_key(fn);
	size_t i;
	json_t *x;
	json_array_foreach(fo, i, x)
	{
		const json_t *y = find_finding(byn, x);
		if (!y) {
			json_array_append_new(resolved, finding_entry(x));
		} else if (!same_str(pl_json_str(x, "severity"), pl_json_str(y, "severity")) ||
			   !same_str(pl_json_str(x, "observed"), pl_json_str(y, "observed"))) {
			json_t *e = json_object();
			json_object_set_new(e, "id", pl_json_string(pl_json_str(y, "id")));
			json_object_set_new(e, "subject",
					    pl_json_string(pl_json_str(y, "subject")));
			json_object_set_new(e, "title", pl_json_string(pl_json_str(y, "title")));
			json_object_set_new(e, "old", finding_state(x));
			json_object_set_new(e, "new", finding_state(y));
			json_array_append_new(changed, e);
		}
	}
	json_array_foreach(fn, i, x)
	{
		if (!find_finding(byo, x))
			json_array_append_new(appeared, finding_entry(x));
	}
	const char *wo = pl_json_str(co, "workload"), *wn = pl_json_str(cn, "workload");
	if (!same_str(wo, wn)) {
		char *t = pl_xasprintf("the findings are for different workloads (%s -> %s): rules "
				       "of one workload only appear or resolve",
				       wo ? wo : "?", wn ? wn : "?");
		json_array_append_new(notes, pl_json_string(t));
		free(t);
	}
	json_object_set_new(sum, "findings_appeared",
			    json_integer((json_int_t)json_array_size(appeared)));
	json_object_set_new(sum, "findings_resolved",
			    json_integer((json_int_t)json_array_size(resolved)));
	json_object_set_new(sum, "findings_changed",
			    json_integer((json_int_t)json_array_size(changed)));
	json_t *d = json_object();
	json_object_set_new(d, "workload_old", pl_json_string(wo));
	json_object_set_new(d, "workload_new", pl_json_string(wn));
	json_object_set_new(d, "appeared", appeared);
	json_object_set_new(d, "resolved", resolved);
	json_object_set_new(d, "changed", changed);
	return d;
}

/* ---- benchmark figures ---------------------------------------------------------------- */

/* The measured values of metric @m ("samples", nulls left out) in a new array of at
 * least @cap entries, NaN-padded; *@n gets the count. NULL when there are no samples. */
static double *samples(const json_t *m, size_t cap, size_t *n)
{
	const json_t *s = json_object_get(m, "samples");
	*n = 0;
	if (!json_is_array(s))
		return NULL;
	size_t len = json_array_size(s), size = (len > cap ? len : cap) + 1;
	double *x = pl_xmalloc(size * sizeof(double));
	for (size_t i = 0; i < size; i++)
		x[i] = NAN;
	size_t i;
	json_t *v;
	json_array_foreach(s, i, v)
	{
		if (json_is_number(v))
			x[(*n)++] = json_number_value(v);
	}
	return x;
}

/* Words for larger/smaller values of a metric whose "better" is @better. */
static void words(const char *better, const char **up, const char **down)
{
	if (better && strcmp(better, "higher") == 0)
		*up = "better", *down = "worse";
	else if (better && strcmp(better, "lower") == 0)
		*up = "worse", *down = "better";
	else
		*up = "higher", *down = "lower";
}

static void set_verdict(json_t *fig, const char *verdict, const char *text, const char *brief)
{
	json_object_set_new(fig, "verdict", pl_json_string(verdict));
	json_object_set_new(fig, "verdict_text", pl_json_string(text));
	json_object_set_new(fig, "brief", pl_json_string(brief));
}

static json_t *num_or_null(double x)
{
	return isnan(x) || isinf(x) ? json_null() : json_real(x);
}

/* The verdict of one figure from the samples of @mo and @mn (compare's statistics). */
static void figure_verdict(json_t *fig, const json_t *mo, const json_t *mn, const char *unit,
			   const char *up, const char *down, const struct pl_diff_opts *o)
{
	json_object_set_new(fig, "significant", json_null());
	json_object_set_new(fig, "ratio", json_null());
	json_object_set_new(fig, "ratio_ci", json_null());
	json_object_set_new(fig, "p", json_null());
	const char *uo = pl_json_str(mo, "unit"), *un = pl_json_str(mn, "unit");
	if (!same_str(uo, un)) {
		pl_autofree char *t = pl_xasprintf("units differ (%s -> %s): not compared", uo, un);
		set_verdict(fig, "no-verdict", t, "units differ");
		return;
	}
	size_t na0, nb0;
	pl_autofree double *a = samples(mo, 0, &na0);
	pl_autofree double *b = samples(mn, 0, &nb0);
	if (!a || !b) {
		pl_autofree char *t = pl_xasprintf("no samples in the %s document: no verdict",
						   !a ? "old" : "new");
		set_verdict(fig, "no-verdict", t, "no samples");
		return;
	}
	if (na0 < PL_CMP_MIN_VERDICT_RUNS || nb0 < PL_CMP_MIN_VERDICT_RUNS) {
		pl_autofree char *n = na0 == nb0 ? pl_xasprintf("n=%zu", na0)
						 : pl_xasprintf("n=%zu/%zu", na0, nb0);
		pl_autofree char *t = pl_xasprintf("too few runs (%s): no verdict", n);
		pl_autofree char *br = pl_xasprintf("too few runs (%s)", n);
		set_verdict(fig, "no-verdict", t, br);
		return;
	}
	size_t nr = na0 > nb0 ? na0 : nb0, k;
	pl_autofree double *xa = samples(mo, nr, &k);
	pl_autofree double *xb = samples(mn, nr, &k);
	double *x[2] = { xa, xb };
	struct pl_cmp_aopts ao = {
		.level = o->level,
		.alpha = o->alpha,
		.threshold = o->threshold,
		.up = up,
		.down = down,
		.higher_better = strcmp(up, "better") == 0,
		.unit = unit,
	};
	struct pl_cmp_vstat vs[2];
	struct pl_cmp_cstat cs[2];
	pl_cmp_analyze_metric(x, 2, nr, &ao, vs, cs);
	const struct pl_cmp_cstat *c = &cs[1];
	set_verdict(fig, pl_cmp_verdict_name(c->verdict), c->text, c->brief);
	if (c->verdict == PL_CMP_CHANGED)
		json_object_set_new(
			fig, "significant",
			pl_json_string((c->near_zero ? c->diff >= 0 : c->ratio >= 1) ? up : down));
	if (!isnan(c->ratio)) {
		json_object_set_new(fig, "ratio", json_real(c->ratio));
		json_t *ci = json_array();
		json_array_append_new(ci, num_or_null(c->lo));
		json_array_append_new(ci, num_or_null(c->hi));
		json_object_set_new(fig, "ratio_ci", ci);
	}
	json_object_set_new(fig, "p", num_or_null(c->p_holm));
	pl_cmp_stats_free(vs, cs, 2);
}

static json_t *side(const json_t *m)
{
	json_t *s = json_object();
	const json_t *med = json_object_get(m, "median");
	json_object_set(s, "median", json_is_number(med) ? (json_t *)med : json_null());
	json_object_set_new(s, "n", json_integer(pl_json_int(m, "n")));
	return s;
}

static json_t *figure(const char *bench, const json_t *mo, const json_t *mn,
		      const struct pl_diff_opts *o)
{
	json_t *fig = json_object();
	json_object_set_new(fig, "benchmark", pl_json_string(bench));
	json_object_set_new(fig, "metric", pl_json_string(pl_json_str(mn, "name")));
	const char *unit = pl_json_str(mn, "unit"), *better = pl_json_str(mn, "better");
	json_object_set_new(fig, "unit", pl_json_string(unit));
	json_object_set_new(fig, "better", pl_json_string(better));
	json_object_set_new(fig, "old", side(mo));
	json_object_set_new(fig, "new", side(mn));
	double a = pl_json_num(mo, "median"), b = pl_json_num(mn, "median");
	const char *up, *down;
	words(better, &up, &down);
	double pct = !isnan(a) && !isnan(b) && a != 0 ? (b - a) / fabs(a) * 100 : NAN;
	json_object_set_new(fig, "change_pct", num_or_null(pct));
	json_object_set_new(fig, "direction",
			    isnan(pct) ? json_null()
			    : pct == 0 ? pl_json_string("same")
			    : pct > 0  ? pl_json_string(up)
				       : pl_json_string(down));
	figure_verdict(fig, mo, mn, unit, up, down, o);
	return fig;
}

/* The metrics of a benchmark document by name (opt_key: a nameless one counts too), the
 * first of each name (a new object). */
static json_t *metrics_by_name(const json_t *doc)
{
	json_t *by = json_object();
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(doc, "metrics"), i, m)
	{
		pl_autofree char *k = opt_key(pl_json_str(m, "name"));
		if (!json_object_get(by, k))
			json_object_set_nocheck(by, k, m);
	}
	return by;
}

/* The metric named @name of @by (metrics_by_name), or NULL. */
static const json_t *find_metric(const json_t *by, const char *name)
{
	pl_autofree char *k = opt_key(name);
	return json_object_get(by, k);
}

/* Each benchmark document of a side with its label: the name, "NAME #2" for the second
 * document of the same benchmark; its metrics by name. */
struct bdoc {
	char *label;
	const json_t *doc;
	json_t *metrics; /* metrics_by_name(doc) */
};

/* The benchmark documents of one side, with their positions by label. */
struct bside {
	struct bdoc *v;
	size_t n;
	json_t *by_label; /* label -> position in v (the first with it) */
};

static void bench_docs(const json_t *doc, const char *kind, struct bside *s)
{
	const json_t *arr = json_object_get(doc, "benchmarks");
	size_t len = strcmp(kind, "bench") == 0 ? 1 : json_array_size(arr);
	struct bdoc *v = pl_xcalloc(len ? len : 1, sizeof(*v));
	json_t *count = json_object(); /* benchmark name -> documents so far */
	s->by_label = json_object();
	for (size_t i = 0; i < len; i++) {
		v[i].doc = strcmp(kind, "bench") == 0 ? doc : json_array_get(arr, i);
		v[i].metrics = metrics_by_name(v[i].doc);
		const char *name = pl_json_str(v[i].doc, "benchmark");
		json_int_t same = json_integer_value(json_object_get(count, name)) + 1;
		json_object_set_new_nocheck(count, name, json_integer(same));
		v[i].label = same > 1 ? pl_xasprintf("%s #%lld", name, (long long)same)
				      : pl_xstrdup(name);
		if (!json_object_get(s->by_label, v[i].label))
			json_object_set_new_nocheck(s->by_label, v[i].label,
						    json_integer((json_int_t)i));
	}
	json_decref(count);
	s->v = v;
	s->n = len;
}

static void bench_docs_free(struct bside *s)
{
	for (size_t i = 0; s->v && i < s->n; i++) {
		free(s->v[i].label);
		json_decref(s->v[i].metrics);
	}
	free(s->v);
	json_decref(s->by_label);
}

static const struct bdoc *find_bdoc(const struct bside *s, const char *label)
{
	const json_t *at = json_object_get(s->by_label, label);
	return at ? &s->v[json_integer_value(at)] : NULL;
}

static bool measured(const json_t *doc)
{
	const char *st = pl_json_str(doc, "status");
	return st && (strcmp(st, "ok") == 0 || strcmp(st, "interrupted") == 0) &&
	       json_array_size(json_object_get(doc, "metrics")) > 0;
}

/* An entry of only_old / only_new: a whole benchmark (@metric NULL, with its number of
 * figures) or one figure, and why the other side lacks it. */
static json_t *only_entry(const char *bench, const char *metric, size_t figures, const char *why)
{
	json_t *e = json_object();
	json_object_set_new(e, "benchmark", pl_json_string(bench));
	json_object_set_new(e, "metric", pl_json_string(metric));
	json_object_set_new(e, "figures", json_integer((json_int_t)figures));
	json_object_set_new(e, "reason", pl_json_string(why));
	return e;
}

/* Why @doc (a benchmark document of the other side) has no figures, malloc'd, or NULL
 * when it has them or is missing. */
static char *why_unmeasured(const json_t *doc, const char *side_name)
{
	if (!doc || measured(doc))
		return NULL;
	const char *st = pl_json_str(doc, "status"), *r = pl_json_str(doc, "reason");
	return pl_xasprintf("%s %s%s%s", st ? st : "not measured", side_name, r ? ": " : "",
			    r ? r : "");
}

/* The figures of benchmarks in @a missing from @b, into @only. */
static void one_sided(const struct bside *a, const struct bside *b, const char *bside, json_t *only)
{
	for (size_t i = 0; i < a->n; i++) {
		if (!measured(a->v[i].doc))
			continue;
		const struct bdoc *o = find_bdoc(b, a->v[i].label);
		pl_autofree char *why = why_unmeasured(o ? o->doc : NULL, bside);
		if (!o || why) {
			json_array_append_new(
				only,
				only_entry(a->v[i].label, NULL,
					   json_array_size(json_object_get(a->v[i].doc, "metrics")),
					   why));
			continue;
		}
		size_t k;
		json_t *m;
		json_array_foreach(json_object_get(a->v[i].doc, "metrics"), k, m)
		{
			if (!find_metric(o->metrics, pl_json_str(m, "name")))
				json_array_append_new(
					only,
					only_entry(a->v[i].label, pl_json_str(m, "name"), 1, NULL));
		}
	}
}

static json_t *diff_benchmarks(const json_t *old, const json_t *new_, const char *kind,
			       const struct pl_diff_opts *o, json_t *sum, json_t *notes)
{
	struct bside a, b;
	bench_docs(old, kind, &a);
	bench_docs(new_, kind, &b);
	json_t *figs = json_array(), *only_old = json_array(), *only_new = json_array();
	size_t tested = 0, nbetter = 0, nworse = 0, nchanged = 0, nnone = 0;
	for (size_t i = 0; i < b.n; i++) {
		const struct bdoc *p = find_bdoc(&a, b.v[i].label);
		if (!p || !measured(p->doc) || !measured(b.v[i].doc))
			continue;
		size_t k;
		json_t *mn;
		json_array_foreach(json_object_get(b.v[i].doc, "metrics"), k, mn)
		{
			const json_t *mo = find_metric(p->metrics, pl_json_str(mn, "name"));
			if (!mo)
				continue;
			json_t *f = figure(b.v[i].label, mo, mn, o);
			const char *v = pl_json_str(f, "verdict"),
				   *s = pl_json_str(f, "significant");
			if (strcmp(v, "no-verdict") == 0)
				nnone++;
			else
				tested++;
			if (s && strcmp(s, "better") == 0)
				nbetter++;
			else if (s && strcmp(s, "worse") == 0)
				nworse++;
			else if (s)
				nchanged++;
			json_array_append_new(figs, f);
		}
	}
	one_sided(&a, &b, "in the new document", only_old);
	one_sided(&b, &a, "in the old document", only_new);
	bench_docs_free(&a);
	bench_docs_free(&b);
	json_object_set_new(sum, "figures", json_integer((json_int_t)json_array_size(figs)));
	json_object_set_new(sum, "better", json_integer((json_int_t)nbetter));
	json_object_set_new(sum, "worse", json_integer((json_int_t)nworse));
	json_object_set_new(sum, "changed", json_integer((json_int_t)nchanged));
	json_object_set_new(sum, "no_verdict", json_integer((json_int_t)nnone));
	if (tested >= 10) { /* below, fewer than one expected by chance */
		char *t = pl_xasprintf("each figure is tested on its own (p < %g): of %zu tested "
				       "figures about %.1f may show a change by chance",
				       o->alpha, tested, (double)tested * o->alpha);
		json_array_append_new(notes, pl_json_string(t));
		free(t);
	}
	json_t *d = json_object();
	json_object_set_new(d, "figures", figs);
	json_object_set_new(d, "only_old", only_old);
	json_object_set_new(d, "only_new", only_new);
	return d;
}

/* ---- the document --------------------------------------------------------------------- */

static json_t *input(const json_t *doc, const char *kind, const char *name)
{
	json_t *in = json_object();
	json_object_set_new(in, "file", pl_json_string(name));
	json_object_set_new(in, "kind", pl_json_string(kind));
	json_object_set_new(in, "generated", pl_json_string(pl_json_str(doc, "generated")));
	if (strcmp(kind, "report") == 0) {
		char *line = pl_report_machine_line(doc);
		json_object_set_new(in, "machine", pl_json_string(line));
		free(line);
	} else if (strcmp(kind, "bench") == 0) {
		json_object_set_new(in, "benchmark", pl_json_string(pl_json_str(doc, "benchmark")));
	}
	return in;
}

/* Two bench documents must be results of one benchmark with a figure in common. */
static int bench_pair(const json_t *old, const char *nold, const json_t *new_, const char *nnew,
		      char *err, size_t errlen)
{
	const char *bo = pl_json_str(old, "benchmark"), *bn = pl_json_str(new_, "benchmark");
	if (strcmp(bo, bn) != 0) {
		snprintf(err, errlen,
			 "'%s' is bench %s and '%s' bench %s: perflab diff compares two results of "
			 "the same benchmark",
			 nold, bo, nnew, bn);
		return -EINVAL;
	}
	const json_t *docs[2] = { old, new_ };
	const char *names[2] = { nold, nnew };
	for (int i = 0; i < 2; i++)
		if (!measured(docs[i])) {
			const char *r = pl_json_str(docs[i], "reason");
			pl_autofree char *why = r ? pl_xasprintf(" (%s)", r) : pl_xstrdup("");
			snprintf(err, errlen, "'%s': bench %s was %s%s: no figures to compare",
				 names[i], bo, pl_json_str(docs[i], "status"), why);
			return -EINVAL;
		}
	pl_autojson json_t *by = metrics_by_name(old);
	size_t k;
	json_t *m;
	json_array_foreach(json_object_get(new_, "metrics"), k, m)
	{
		if (find_metric(by, pl_json_str(m, "name")))
			return 0;
	}
	snprintf(err, errlen,
		 "'%s' and '%s' (bench %s) have no figure in common (run both with the same "
		 "options)",
		 nold, nnew, bo);
	return -EINVAL;
}

json_t *pl_diff_build(const json_t *old, const char *kold, const char *nold, const json_t *new_,
		      const char *knew, const char *nnew, const struct pl_diff_opts *o, char *err,
		      size_t errlen)
{
	if (strcmp(kold, knew) != 0) {
		snprintf(err, errlen,
			 "'%s' is a %s document and '%s' a %s document: perflab diff compares two "
			 "documents of the same kind",
			 nold, kold, nnew, knew);
		return NULL;
	}
	const char *kind = kold;
	if (strcmp(kind, "bench") == 0 && bench_pair(old, nold, new_, nnew, err, errlen) < 0)
		return NULL;
	json_t *d = json_object(), *sum = json_object(), *notes = json_array();
	json_object_set_new(d, "schema_version", json_integer(1));
	json_object_set_new(d, "kind", pl_json_string("diff"));
	json_object_set_new(d, "old", input(old, kind, nold));
	json_object_set_new(d, "new", input(new_, kind, nnew));
	json_t *st = json_object();
	json_object_set_new(st, "level", json_real(o->level));
	json_object_set_new(st, "alpha", json_real(o->alpha));
	json_object_set_new(st, "threshold", json_real(o->threshold));
	json_object_set_new(st, "min_runs", json_integer(PL_CMP_MIN_VERDICT_RUNS));
	json_object_set_new(d, "statistics", st);
	json_object_set_new(d, "summary", sum);
	if (strcmp(kind, "report") == 0 || strcmp(kind, "inspect") == 0) {
		const json_t *mo = json_object_get(old, "machine"),
			     *mn = json_object_get(new_, "machine");
		if (mo && mn && !same_str(pl_json_str(mo, "hostname"), pl_json_str(mn, "hostname")))
			json_array_append_new(notes,
					      pl_json_string("the documents are from different "
							     "machines (another hostname)"));
		json_object_set_new(d, "facts",
				    diff_facts(json_object_get(old, "facts"),
					       json_object_get(new_, "facts"), sum));
	}
	if (strcmp(kind, "report") == 0)
		json_object_set_new(d, "findings",
				    diff_findings(json_object_get(old, "check"),
						  json_object_get(new_, "check"), sum, notes));
	else if (strcmp(kind, "check") == 0)
		json_object_set_new(d, "findings", diff_findings(old, new_, sum, notes));
	if (strcmp(kind, "report") == 0 || strcmp(kind, "bench") == 0)
		json_object_set_new(d, "benchmarks",
				    diff_benchmarks(old, new_, kind, o, sum, notes));
	json_object_set_new(d, "notes", notes);
	return d;
}

void pl_diff_add_baseline(json_t *report, const json_t *base, const char *name)
{
	char err[1024];
	struct pl_diff_opts o = PL_DIFF_OPTS_DEFAULT;
	json_t *d = pl_diff_build(base, "report", name, report, "report", "this report", &o, err,
				  sizeof(err));
	if (d)
		json_object_set_new(report, "baseline", d);
}
