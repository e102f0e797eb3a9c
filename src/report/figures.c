/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "report/figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "facts/facts.h"
#include "util/json.h"
#include "stats/summary.h"
#include "util/cleanup.h"
#include "util/str.h"

/* The runner's spread threshold when a bench document does not record its own
 * (bench.h: max_cv 0 = 0.05). */
#define PL_FIG_DEFAULT_MAX_CV 0.05

void pl_caveats_free(struct pl_caveats *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].text);
		free(c->v[i].tag);
		free(c->v[i].metric);
	}
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

/* Append a caveat about metric @metric (NULL: the whole benchmark); takes @text. */
static void add_about(struct pl_caveats *c, enum pl_caveat_kind kind, const char *tag, char *text,
		      const char *metric)
{
	c->v = pl_xrealloc(c->v, (c->n + 1) * sizeof(*c->v));
	c->v[c->n++] = (struct pl_caveat){ kind, text, tag ? pl_xstrdup(tag) : NULL,
					   metric ? pl_xstrdup(metric) : NULL };
}

static void add(struct pl_caveats *c, enum pl_caveat_kind kind, const char *tag, char *text)
{
	add_about(c, kind, tag, text, NULL);
}

/* The short form of a sentence "PREFIX: details" when PREFIX is short ("cache cold",
 * "machine not idle", "quick run"), else NULL. */
static char *prefix_tag(const char *s)
{
	const char *c = strstr(s, ": ");
	if (!c || c == s || c - s > 40)
		return NULL;
	return pl_xasprintf("%.*s", (int)(c - s), s);
}

/* "1 run: no spread", "2 runs: too few runs for a spread"; nothing from 3 runs on
 * (pl_bench_runs_caveat(), the rule the runner's warning uses). */
static void runs_caveat(struct pl_caveats *c, long long n, bool all)
{
	const char *tag = NULL;
	char *t = pl_bench_runs_caveat(n, all, &tag);
	if (t)
		add(c, PL_CAVEAT_WARN, tag, t);
}

/* Words for the bench "info" keys that are not plain English once '_' is a space. */
static const struct {
	const char *key, *label;
} info_labels[] = {
	{ "llc_total_bytes", "last-level cache (all caches)" },
	{ "llc_used_bytes", "last-level cache the size rule used" },
	{ "mem_available_bytes", "memory available" },
	{ "array_bytes", "array size (each)" },
	{ "size_reason", "array size from" },
	{ "isa", "instruction set" },
	{ "vdso_detection", "vDSO detection" },
	{ "file_bytes", "file size" },
	{ "dir", "directory" },
	{ "cpu", "CPU" },
	{ "timer_row", "timer row in /proc/interrupts" },
	{ "nohz_full", "CPU is nohz_full" },
	{ "isolcpus", "CPU is in isolcpus" },
	{ "rcu_nocbs", "CPU is in rcu_nocbs" },
	{ "sysfs_nohz_full", "nohz_full CPUs (sysfs)" },
	{ "client_cpu_pinned", "client pinned to CPU" },
	{ "server_cpu_pinned", "server pinned to CPU" },
	{ "input_bytes", "input size" },
	{ "request_bytes", "request size" },
	{ "corpus_seed", "corpus seed" },
};

char *pl_figure_bytes(double x)
{
	static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	size_t i = 0;
	/* 1023.99 MiB printed as "1024 MiB" reads as 1 GiB: scale on the rounded value */
	while (i + 1 < sizeof(u) / sizeof(u[0]) && (fabs(x) >= 1024 || round(fabs(x)) >= 1024)) {
		x /= 1024;
		i++;
	}
	char b[32];
	pl_fmt_g(b, sizeof(b), x, 4);
	return pl_xasprintf("%s %s", b, u[i]);
}

/* An info value in words: sizes for *_bytes, yes/no, "not pinned" for a CPU of -1,
 * objects as "name value, ..."; NULL for null (nothing to say). */
static char *info_value(const char *key, const json_t *v)
{
	size_t kl = strlen(key);
	if (json_is_null(v))
		return NULL;
	if (json_is_boolean(v))
		return pl_xstrdup(json_is_true(v) ? "yes" : "no");
	if (json_is_number(v) && kl > 6 && strcmp(key + kl - 6, "_bytes") == 0)
		return pl_figure_bytes(json_number_value(v));
	const char *word = pl_bench_info_word(key, v);
	if (word)
		return pl_xstrdup(word);
	/* measured shares and ratios to the precision they carry ("66.1%", not the double) */
	if (json_is_real(v) && kl > 4 && strcmp(key + kl - 4, "_pct") == 0)
		return pl_xasprintf("%.1f%%", json_real_value(v));
	if (json_is_real(v))
		return pl_xasprintf("%.4g", json_real_value(v));
	/* a reference figure (bench mem's info.reference): "DIMM peak 62.3 GB/s (...)",
	 * with the metric's share of it when the runner added one */
	const char *rname = pl_json_str(v, "name"), *rtext = pl_json_str(v, "text");
	if (json_is_object(v) && rname && rtext) {
		const json_t *share = json_object_get(v, "share_pct");
		const char *metric = pl_json_str(v, "metric");
		if (json_is_number(share) && metric)
			return pl_xasprintf("%s %s; %s at %.0f%% of it", rname, rtext, metric,
					    json_number_value(share));
		return pl_xasprintf("%s %s", rname, rtext);
	}
	if (json_is_object(v)) {
		struct pl_buf b = { 0 };
		const char *k;
		json_t *x;
		json_object_foreach((json_t *)v, k, x)
		{
			char *t = info_value(k, x);
			if (t)
				pl_buf_printf(&b, "%s%s %s", b.len ? ", " : "", k, t);
			free(t);
		}
		return pl_buf_steal(&b);
	}
	return pl_fact_value_text(v);
}

/* A new copy of @v without the members of its objects, at any depth, that say nothing:
 * null, and numa_node -1 (sysfs numa_node: NUMA_NO_NODE). */
static json_t *fact_known(const json_t *v)
{
	if (json_is_object(v)) {
		json_t *o = json_object();
		const char *k;
		json_t *x;
		json_object_foreach((json_t *)v, k, x)
		{
			if (json_is_null(x) || (strcmp(k, "numa_node") == 0 && json_is_integer(x) &&
						json_integer_value(x) == -1))
				continue;
			json_object_set_new(o, k, fact_known(x));
		}
		return o;
	}
	if (json_is_array(v)) {
		json_t *a = json_array();
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x) json_array_append_new(a, fact_known(x));
		return a;
	}
	return json_deep_copy(v);
}

char *pl_figure_fact_text(const char *key, const json_t *v)
{
	if (!v || json_is_null(v))
		return pl_xstrdup("unknown");
	json_t *k = fact_known(v);
	char *t = json_is_object(k) && json_object_size(k) == 0 && json_object_size(v) > 0
			  ? pl_xstrdup("unknown")
			  : pl_fact_value_human(key, k);
	json_decref(k);
	return t;
}

static char *info_label(const char *key)
{
	for (size_t i = 0; i < sizeof(info_labels) / sizeof(info_labels[0]); i++)
		if (strcmp(info_labels[i].key, key) == 0)
			return pl_xstrdup(info_labels[i].label);
	if (pl_startswith(key, "cmdline_"))
		return pl_xasprintf("%s= on the kernel command line", key + 8);
	char *l = pl_xstrdup(key);
	size_t n = strlen(l);
	if (n > 6 && strcmp(l + n - 6, "_bytes") == 0)
		l[n - 6] = '\0';
	for (char *p = l; *p; p++)
		if (*p == '_')
			*p = ' ';
	return l;
}

/* Info items the human outputs leave out, by benchmark: bench io's temporary directory
 * and file, removed at the end of the run (the JSON keeps their paths). */
static const struct {
	const char *bench, *key;
} info_hidden_keys[] = {
	{ "io", "dir" },
	{ "io", "file" },
};

static bool info_hidden(const char *bench, const char *key)
{
	for (size_t i = 0; i < sizeof(info_hidden_keys) / sizeof(info_hidden_keys[0]); i++)
		if (bench && strcmp(info_hidden_keys[i].bench, bench) == 0 &&
		    strcmp(info_hidden_keys[i].key, key) == 0)
			return true;
	return false;
}

/* True when a note of @notes already says the info item @label: @value, so it is shown
 * once: the note has "LABEL VALUE" (the label without a parenthesis: bench mem's "array
 * size 256 MiB each: ..." for "array size (each): 256 MiB"), or, for a value of 40 or more
 * characters, the value itself (mem's size_reason, which its note repeats). */
static bool said_in_notes(const json_t *notes, const char *label, const char *value,
			  const json_t *raw)
{
	size_t ll = strcspn(label, "(");
	while (ll > 0 && label[ll - 1] == ' ')
		ll--;
	char *phrase = pl_xasprintf("%.*s %s", (int)ll, label, value);
	/* a byte count as the benchmark's own note writes it ("512.00 MiB") */
	char b[48] = "";
	if (json_is_number(raw))
		pl_fmt_bytes(b, sizeof(b), json_number_value(raw));
	char *bphrase = pl_xasprintf("%.*s %s", (int)ll, label, b);
	bool said = false;
	size_t i;
	json_t *n;
	json_array_foreach(notes, i, n)
	{
		const char *t = json_string_value(n);
		if (t && (strstr(t, phrase) || (*b && strstr(t, bphrase)) ||
			  (strlen(value) >= 40 && strstr(t, value))))
			said = true;
	}
	free(phrase);
	free(bphrase);
	return said;
}

/* The time per operation of metric "PREFIX rate" (1/s): the first metric "PREFIX ..." in
 * ns ("tcp_pp 64B round-trip" for "tcp_pp 64B rate"), or NULL. */
static const json_t *rate_partner(const json_t *doc, const json_t *rate)
{
	const char *rn = pl_json_str(rate, "name");
	size_t rl = rn ? strlen(rn) : 0;
	if (rl <= 5 || strcmp(rn + rl - 5, " rate") != 0)
		return NULL;
	size_t i;
	const json_t *m;
	json_array_foreach(json_object_get(doc, "metrics"), i, m)
	{
		const char *n = pl_json_str(m, "name"), *u = pl_json_str(m, "unit");
		if (n && u && strcmp(u, "ns") == 0 && strncmp(n, rn, rl - 4) == 0)
			return m;
	}
	return NULL;
}

/* A rate and a time per operation that disagree by more than this factor get a caveat. */
#define PL_FIG_RATE_MISMATCH 1.25

/* A rate ("tcp_pp 64B rate", 1/s) counts the operations of the whole timed loop, so its
 * inverse is the mean time per operation, slow outliers included; its time metric
 * ("tcp_pp 64B round-trip") is a median. Where the two differ by more than
 * PL_FIG_RATE_MISMATCH the figures contradict each other without a word, so a caveat
 * about the time metric says why. */
static void rate_caveats(const json_t *doc, struct pl_caveats *out)
{
	size_t i;
	const json_t *r;
	json_array_foreach(json_object_get(doc, "metrics"), i, r)
	{
		const char *u = pl_json_str(r, "unit");
		const json_t *t = u && strcmp(u, "1/s") == 0 ? rate_partner(doc, r) : NULL;
		double rate = pl_json_num(r, "median"), med = pl_json_num(t, "median");
		if (!t || !(rate > 0) || !(med > 0))
			continue;
		double per = 1e9 / rate, x = per / med;
		if (x <= PL_FIG_RATE_MISMATCH && x >= 1 / PL_FIG_RATE_MISMATCH)
			continue;
		char rs[48], ps[48], ms[48], mean[48] = "", max[48] = "";
		pl_fmt_unit(rs, sizeof(rs), rate, "1/s");
		pl_fmt_unit(ps, sizeof(ps), per, "ns");
		pl_fmt_unit(ms, sizeof(ms), med, "ns");
		const json_t *lat = json_object_get(t, "latency_ns");
		if (json_is_number(json_object_get(lat, "mean")))
			pl_fmt_unit(mean, sizeof(mean), pl_json_num(lat, "mean"), "ns");
		if (json_is_number(json_object_get(lat, "max")))
			pl_fmt_unit(max, sizeof(max), pl_json_num(lat, "max"), "ns");
		const char *tn = pl_json_str(t, "name");
		char *tag = pl_xasprintf("rate %s = %s per operation, %.3gx the median", rs, ps, x);
		struct pl_buf b = { 0 };
		pl_buf_printf(
			&b,
			"%s %s is %s per operation, %.3gx the median %s (%s): the rate counts "
			"the whole timed loop, slow outliers included",
			pl_json_str(r, "name"), rs, ps, x, tn, ms);
		if (*mean)
			pl_buf_printf(&b, " (single operations: mean %s%s%s)", mean,
				      *max ? ", max " : "", max);
		pl_buf_puts(&b, ", while the figure is a median");
		add_about(out, PL_CAVEAT_WARN, tag, pl_buf_steal(&b), tn);
		free(tag);
	}
}

void pl_caveats_bench(const json_t *doc, struct pl_caveats *out)
{
	const json_t *runner = json_object_get(doc, "runner");
	const char *status = pl_json_str(doc, "status");
	bool ok = !status || strcmp(status, "ok") == 0 || strcmp(status, "interrupted") == 0;
	if (runner && ok && json_array_size(json_object_get(doc, "metrics")) > 0)
		runs_caveat(out, pl_json_int(runner, "runs"), true);
	if (json_is_true(json_object_get(runner, "quick")))
		add(out, PL_CAVEAT_WARN, "quick run",
		    pl_xstrdup("quick run: the benchmark's brief arguments (--quick), fewer runs "
			       "and smaller sizes than its defaults"));
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(doc, "warnings"), i, x)
	{
		const char *w = json_string_value(x);
		if (!w)
			continue;
		/* the runner's runs warning is runs_caveat()'s, said once above */
		if (pl_startswith(w, "1 run: ") || pl_startswith(w, "2 runs: ") ||
		    pl_startswith(w, "no runs: "))
			continue;
		/* the runner's spread warning: each figure carries its own (pl_caveats_metric) */
		char *tag = pl_startswith(w, "spread too wide") ? NULL : prefix_tag(w);
		if (!tag && pl_startswith(w, "the hypervisor stole"))
			tag = pl_xstrdup("CPU steal");
		add(out, PL_CAVEAT_WARN, tag, pl_xstrdup(w));
		free(tag);
	}
	rate_caveats(doc, out);
	json_array_foreach(json_object_get(doc, "notes"), i, x)
	{
		const char *s = json_string_value(x);
		if (!s)
			continue;
		char *tag = prefix_tag(s);
		add(out, PL_CAVEAT_NOTE, tag, pl_xstrdup(s));
		free(tag);
	}
	const char *k;
	const char *bench = pl_json_str(doc, "benchmark");
	json_object_foreach(json_object_get(doc, "info"), k, x)
	{
		if (info_hidden(bench, k))
			continue;
		char *v = info_value(k, x);
		if (!v)
			continue;
		char *l = info_label(k);
		if (!said_in_notes(json_object_get(doc, "notes"), l, v, x))
			add(out, PL_CAVEAT_INFO, NULL, pl_xasprintf("%s: %s", l, v));
		free(v);
		free(l);
	}
}

void pl_caveats_metric(const json_t *doc, const json_t *m, struct pl_caveats *out)
{
	const json_t *runner = json_object_get(doc, "runner");
	long long n = pl_json_int(m, "n");
	if (!runner || n != pl_json_int(runner, "runs"))
		runs_caveat(out, n, false);
	double cv = pl_json_num(m, "cv");
	double max_cv = pl_json_num(runner, "max_cv");
	if (!(max_cv > 0))
		max_cv = PL_FIG_DEFAULT_MAX_CV;
	char *wide = pl_bench_spread_caveat(n, cv, max_cv);
	if (wide) {
		add(out, PL_CAVEAT_WARN, wide,
		    pl_xasprintf("%s: stddev/mean above the benchmark's threshold; rerun on an "
				 "idle machine or with more --runs",
				 wide));
		free(wide);
	}
	const json_t *notes = json_object_get(m, "notes");
	const char *cc = pl_json_str(notes, "client_cpu"), *sc = pl_json_str(notes, "server_cpu");
	if (cc && sc && strcmp(cc, sc) == 0 && strcmp(cc, "unknown") != 0) {
		char *t = pl_xasprintf("client and server on the same CPU %s", cc);
		add(out, PL_CAVEAT_WARN, t,
		    pl_xasprintf("%s: they took turns on it, so the figure includes that "
				 "sharing (pin them apart with --cpus A,B)",
				 t));
		free(t);
	}
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)notes, k, v)
	{
		if (json_is_string(v))
			add(out, PL_CAVEAT_NOTE, NULL,
			    pl_xasprintf("%s: %s", k, json_string_value(v)));
	}
}

char *pl_caveats_report_top(const json_t *report)
{
	struct pl_buf names = { 0 }, steal = { 0 };
	double busy = NAN, st = NAN;
	size_t i;
	json_t *b;
	json_array_foreach(json_object_get(report, "benchmarks"), i, b)
	{
		size_t k;
		json_t *w;
		json_array_foreach(json_object_get(b, "warnings"), k, w)
		{
			const char *s = json_string_value(w);
			const json_t *env = json_object_get(b, "environment");
			if (s && pl_startswith(s, "machine not idle")) {
				pl_buf_printf(&names, "%s%s", names.len ? ", " : "",
					      pl_json_str(b, "benchmark"));
				double x = pl_json_num(env, "others_busy_pct");
				if (isfinite(x) && !(x <= busy))
					busy = x;
			} else if (s && pl_startswith(s, "the hypervisor stole")) {
				pl_buf_printf(&steal, "%s%s", steal.len ? ", " : "",
					      pl_json_str(b, "benchmark"));
				double x = pl_json_num(env, "steal_pct");
				if (isfinite(x) && !(x <= st))
					st = x;
			}
		}
	}
	if (!names.len && !steal.len)
		return NULL;
	struct pl_buf o = { 0 };
	pl_buf_puts(&o, "unreliable: ");
	if (names.len) {
		pl_buf_puts(&o, "machine not idle: other tasks used ");
		if (isfinite(busy))
			pl_buf_printf(&o, "up to %.0f%% of ", busy);
		pl_buf_printf(&o, "the CPUs during bench %s", names.data);
	}
	if (steal.len) {
		pl_buf_printf(&o, "%sthe hypervisor stole ", names.len ? "; " : "");
		if (isfinite(st))
			pl_buf_printf(&o, "up to %.0f%% of ", st);
		pl_buf_printf(&o, "the CPU time during bench %s", steal.data);
	}
	pl_buf_puts(&o, " (each benchmark's caveats say how much)");
	pl_buf_free(&names);
	pl_buf_free(&steal);
	return pl_buf_steal(&o);
}

const char *pl_figure_better_label(const char *better)
{
	if (better && strcmp(better, "lower") == 0)
		return "lower is better";
	if (better && strcmp(better, "higher") == 0)
		return "higher is better";
	return NULL;
}

void pl_figure_row(const json_t *m, struct pl_figure_row *r)
{
	const char *u = pl_json_str(m, "unit");
	pl_fmt_unit(r->best, sizeof(r->best), pl_json_num(m, "best"), u);
	pl_fmt_unit(r->median, sizeof(r->median), pl_json_num(m, "median"), u);
	pl_fmt_unit(r->mean, sizeof(r->mean), pl_json_num(m, "mean"), u);
	bool spread = pl_bench_metric_has_spread(m);
	pl_fmt_unit(r->stddev, sizeof(r->stddev), spread ? pl_json_num(m, "stddev") : NAN, u);
	double w;
	const char *which = pl_bench_metric_tail(m, &w);
	char b[48];
	if (which && isfinite(w))
		snprintf(r->worst, sizeof(r->worst), "%s (%s of %lld runs)",
			 pl_fmt_unit(b, sizeof(b), w, u), which, pl_json_int(m, "n"));
	else
		snprintf(r->worst, sizeof(r->worst), "-");
}

bool pl_figure_per_op(const json_t *m, struct pl_figure_per_op *r)
{
	const json_t *l = json_object_get(m, "latency_ns");
	if (!json_is_object(l) || pl_json_int(l, "n") <= 0)
		return false;
	static const char *const keys[] = { "p50", "mean", "p99", "p99.9", "max" };
	char *cells[] = { r->p50, r->mean, r->p99, r->p999, r->max };
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		pl_fmt_unit(cells[i], sizeof(r->p50), pl_json_num(l, keys[i]), "ns");
	snprintf(r->ops, sizeof(r->ops), "%lld", pl_json_int(l, "n"));
	return true;
}

char *pl_figure_per_op_text(const json_t *lat)
{
	if (!json_is_object(lat) || pl_json_int(lat, "n") <= 0)
		return NULL;
	static const char *const keys[] = { "p50", "p99", "p99.9", "max" };
	struct pl_buf b = { 0 };
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char v[48];
		pl_fmt_unit(v, sizeof(v), pl_json_num(lat, keys[i]), "ns");
		pl_buf_printf(&b, "%s%s %s", i ? ", " : "", keys[i], v);
	}
	long long n = pl_json_int(lat, "n");
	pl_buf_printf(&b, " (%lld operation%s)", n, n == 1 ? "" : "s");
	return pl_buf_steal(&b);
}

json_t *pl_figure_bench_anchors(const json_t *benches)
{
	json_t *ids = json_array(), *seen = json_object();
	size_t i;
	const json_t *d;
	json_array_foreach(benches, i, d)
	{
		const char *name = pl_json_str(d, "benchmark");
		char *id = pl_xasprintf("bench-%s", name ? name : "");
		/* the second result of a benchmark "-2", the third "-3"; on past an id a
		 * benchmark's own name took ("bench-syscall-2" of a benchmark "syscall-2") */
		for (long long k = 2; json_object_get(seen, id); k++) {
			free(id);
			id = pl_xasprintf("bench-%s-%lld", name ? name : "", k);
		}
		json_object_set_new(seen, id, json_true());
		json_array_append_new(ids, pl_json_string(id));
		free(id);
	}
	json_decref(seen);
	return ids;
}

char *pl_figure_bench_heading(const json_t *doc, const char *anchor)
{
	const char *name = pl_json_str(doc, "benchmark");
	name = name ? name : "";
	size_t nl = strlen(name);
	if (!anchor || strncmp(anchor, "bench-", 6) != 0 || strncmp(anchor + 6, name, nl) != 0 ||
	    anchor[6 + nl] != '-')
		return pl_xasprintf("bench %s", name);
	return pl_xasprintf("bench %s (%s)", name, anchor + 7 + nl);
}

char *pl_figure_source(const json_t *doc)
{
	const char *from = pl_json_str(doc, "from");
	if (!from)
		return pl_xstrdup("measured now");
	const char *gen = pl_json_str(doc, "generated");
	return gen ? pl_xasprintf("saved result %s (generated %s)", from, gen)
		   : pl_xasprintf("saved result %s", from);
}

char *pl_figure_info_item(const char *key, const json_t *v)
{
	char *t = info_value(key, v);
	if (!t)
		return NULL;
	char *l = info_label(key);
	char *r = pl_xasprintf("%s: %s", l, t);
	free(l);
	free(t);
	return r;
}

char *pl_figure_runner_line(const json_t *doc)
{
	const json_t *r = json_object_get(doc, "runner");
	if (!json_is_object(r))
		return NULL;
	long long runs = pl_json_int(r, "runs"), warm = pl_json_int(r, "warmup");
	char el[48];
	pl_fmt_unit(el, sizeof(el), pl_json_num(r, "elapsed_s"), "s");
	const char *cpus = pl_json_str(r, "cpus");
	char wu[48] = "";
	if (warm > 0)
		snprintf(wu, sizeof(wu), " (+%lld warm-up)", warm);
	pl_autofree char *prec = pl_bench_precision_text(json_object_get(r, "precision"));
	return pl_xasprintf("%lld run%s%s in %s on CPUs %s, %s%s%s", runs, runs == 1 ? "" : "s", wu,
			    el, cpus ? cpus : "?",
			    json_is_true(json_object_get(r, "pinned")) ? "pinned" : "unpinned",
			    prec ? "; precision " : "", prec ? prec : "");
}
