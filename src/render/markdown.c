/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "render/markdown.h"
#include "render/counters.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bench/env.h"
#include "facts/facts.h"
#include "render/compare.h"
#include "render/diff.h"
#include "render/keynums.h"
#include "render/svg.h"
#include "report/figures.h"
#include "util/json.h"
#include "util/str.h"

/* Text from documents (fact values, finding texts, node and benchmark names, command
 * lines) must not change the Markdown around it: '|' and newlines would end a table
 * cell or a line, '<' and '&' would start HTML or an entity, '[' a link or an image, '`'
 * a code span and '*' emphasis, and '\' would escape what follows; each of these gets a
 * backslash (CommonMark escapes any ASCII punctuation that way). '_' inside words, as in
 * clock_gettime, is no emphasis and stays as it is. Newlines and tabs become spaces,
 * other control characters \xNN. */
static void md_cell(FILE *out, const char *s)
{
	for (const char *p = s ? s : ""; *p; p++) {
		if (strchr("|\\`*[<&", *p))
			fprintf(out, "\\%c", *p);
		else if (*p == '\n' || *p == '\t')
			fputc(' ', out);
		else if ((unsigned char)*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\x%02x", (unsigned char)*p);
		else
			fputc(*p, out);
	}
}

void pl_report_md_cell(FILE *out, const char *s)
{
	md_cell(out, s);
}

/* A code span shows its text literally; only a run of backticks as long as its fence
 * would end it, so the fence is one longer than the longest run in the text (with a
 * space inside when the text starts or ends with one). '|' still ends a table cell
 * (GFM splits the row first) and is written \|; newlines and tabs become spaces, other
 * control characters \xNN. */
static void md_code(FILE *out, const char *s)
{
	s = s ? s : "";
	size_t run = 0, longest = 0;
	for (const char *p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	size_t len = strlen(s);
	bool pad = len && (s[0] == '`' || s[len - 1] == '`');
	for (size_t i = 0; i <= longest; i++)
		fputc('`', out);
	if (pad)
		fputc(' ', out);
	for (const char *p = s; *p; p++) {
		if (*p == '|')
			fputs("\\|", out);
		else if (*p == '\n' || *p == '\t')
			fputc(' ', out);
		else if ((unsigned char)*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\x%02x", (unsigned char)*p);
		else
			fputc(*p, out);
	}
	if (pad)
		fputc(' ', out);
	for (size_t i = 0; i <= longest; i++)
		fputc('`', out);
}

void pl_report_md_code(FILE *out, const char *s)
{
	md_code(out, s);
}

/* What @write writes for @s, as a malloc'd string. */
static char *md_string(void (*write)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		abort(); /* out of memory, as pl_xmalloc */
	write(f, s);
	if (fclose(f) != 0)
		abort();
	return buf;
}

char *pl_report_md_text(const char *s)
{
	return md_string(md_cell, s);
}

char *pl_report_md_code_text(const char *s)
{
	return md_string(md_code, s);
}

void pl_report_md_anchor(FILE *out, const char *s)
{
	for (const char *p = s ? s : ""; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '_' || c == '.')
			fputc(c, out);
		else
			fprintf(out, "%%%02X", c);
	}
}

static void md_num(FILE *out, const json_t *v)
{
	char b[32];
	fprintf(out, " %s |",
		json_is_number(v) ? pl_fmt_num(b, sizeof(b), json_number_value(v)) : "n/a");
}

/* The caveats of a figure in a table cell: "spread too wide (cv 22% > 5%); via: vdso". */
static void md_caveat_cell(FILE *out, const struct pl_caveats *c)
{
	for (size_t i = 0; i < c->n; i++) {
		fputs(i ? "; " : "", out);
		md_cell(out,
			c->v[i].kind == PL_CAVEAT_WARN && c->v[i].tag ? c->v[i].tag : c->v[i].text);
	}
}

/* The caveats, notes and info items of a benchmark as a list, right under its table. */
static void md_caveat_list(FILE *out, const struct pl_caveats *c)
{
	for (size_t i = 0; i < c->n; i++) {
		fputs(c->v[i].kind == PL_CAVEAT_WARN   ? "- **caveat:** "
		      : c->v[i].kind == PL_CAVEAT_NOTE ? "- note: "
						       : "- ",
		      out);
		md_cell(out, c->v[i].text);
		fputc('\n', out);
	}
	if (c->n)
		fputc('\n', out);
}

/* The distribution of the single operations of each metric that timed them (net's round
 * trips, io's latency), beside the table of the runs' figures above it. */
static void md_per_op(FILE *out, const json_t *metrics)
{
	size_t k;
	json_t *m;
	bool head = false;
	json_array_foreach(metrics, k, m)
	{
		struct pl_figure_per_op r;
		if (!pl_figure_per_op(m, &r))
			continue;
		if (!head)
			fputs("Single operations, each timed on its own (all measured runs; the "
			      "table "
			      "above is over the runs' figures):\n\n"
			      "| per operation | count | p50 | mean | p99 | p99.9 | max |\n"
			      "|---|--:|--:|--:|--:|--:|--:|\n",
			      out);
		head = true;
		fputs("| ", out);
		md_cell(out, pl_json_str(m, "name"));
		const char *const cells[] = { r.ops, r.p50, r.mean, r.p99, r.p999, r.max };
		for (size_t j = 0; j < sizeof(cells) / sizeof(cells[0]); j++) {
			fputs(" | ", out);
			md_cell(out, cells[j]);
		}
		fputs(" |\n", out);
	}
	if (head)
		fputc('\n', out);
}

void pl_report_markdown_benchmarks(FILE *out, const json_t *benches)
{
	if (json_array_size(benches) == 0)
		return;
	fprintf(out, "## Benchmarks\n\n");
	json_t *ids = pl_figure_bench_anchors(benches);
	size_t i;
	json_t *b;
	json_array_foreach(benches, i, b)
	{
		/* a second result of a benchmark is "bench NAME (2)", whose anchor is its
		 * section id "bench-NAME-2" */
		char *h = pl_figure_bench_heading(b, json_string_value(json_array_get(ids, i)));
		fputs("### ", out);
		md_cell(out, h);
		free(h);
		fputs("\n\n", out);
		md_cell(out, pl_json_str(b, "summary"));
		const char *status = pl_json_str(b, "status");
		if (status && strcmp(status, "ok") != 0) {
			fputs(". **Status: ", out);
			md_cell(out, status);
			fputs("**", out);
			if (pl_json_str(b, "reason")) {
				fputs(" (", out);
				md_cell(out, pl_json_str(b, "reason"));
				fputc(')', out);
			}
		}
		char *rl = pl_figure_runner_line(b);
		if (rl) {
			fputs(". ", out);
			md_cell(out, rl);
		}
		free(rl);
		char *src = pl_figure_source(b);
		fputs(". Source: ", out);
		md_cell(out, src);
		free(src);
		fputs(".\n\n", out);
		const json_t *metrics = json_object_get(b, "metrics");
		if (json_array_size(metrics) > 0)
			fprintf(out,
				"| metric | better | best | median | mean | stddev | worst run "
				"| n | caveats and notes |\n"
				"|---|---|--:|--:|--:|--:|--:|--:|---|\n");
		size_t k;
		json_t *m;
		json_array_foreach(metrics, k, m)
		{
			struct pl_figure_row r;
			pl_figure_row(m, &r);
			const char *dir = pl_json_str(m, "better");
			fputs("| ", out);
			md_cell(out, pl_json_str(m, "name"));
			const char *const cells[] = {
				dir && strcmp(dir, "neither") != 0 ? dir : "",
				r.best,
				r.median,
				r.mean,
				r.stddev,
				r.worst,
			};
			for (size_t j = 0; j < sizeof(cells) / sizeof(cells[0]); j++) {
				fputs(" | ", out);
				md_cell(out, cells[j]);
			}
			fprintf(out, " | %lld | ", pl_json_int(m, "n"));
			struct pl_caveats c = { 0 };
			pl_caveats_metric(b, m, &c);
			md_caveat_cell(out, &c);
			pl_caveats_free(&c);
			fputs(" |\n", out);
		}
		if (json_array_size(metrics) > 0)
			fputc('\n', out);
		md_per_op(out, metrics);
		struct pl_caveats c = { 0 };
		pl_caveats_bench(b, &c);
		md_caveat_list(out, &c);
		pl_caveats_free(&c);
		const json_t *env = json_object_get(b, "environment");
		if (json_is_object(env)) {
			char *t = pl_env_text(env);
			fputs("Environment: ", out);
			md_cell(out, t);
			fputs(".\n\n", out);
			free(t);
		}
	}
	json_decref(ids);
}

/* The unit of metric @name of compare document @doc ("" when unknown). */
static const char *cmp_unit(const json_t *doc, const char *name)
{
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(doc, "metrics"), i,
			   m) if (name && pl_json_str(m, "name") &&
				  strcmp(pl_json_str(m, "name"), name) ==
					  0) return pl_json_str(m, "unit")
		? pl_json_str(m, "unit")
		: "";
	return "";
}

/* Comparisons: metrics as rows, variants as columns (median [CI], ratio, verdict). */
static void md_comparisons(FILE *out, const json_t *arr)
{
	if (json_array_size(arr) == 0)
		return;
	fprintf(out, "## Comparisons\n\n");
	size_t i;
	json_t *doc;
	json_array_foreach(arr, i, doc)
	{
		const json_t *variants = json_object_get(doc, "variants");
		size_t k;
		json_t *v;
		fprintf(out, "%lld interleaved rounds (+%lld warm-up), seed %lld, stopped: ",
			pl_json_int(doc, "rounds_measured"), pl_json_int(doc, "rounds_warmup"),
			pl_json_int(doc, "seed"));
		md_cell(out,
			pl_json_str(doc, "stop_reason") ? pl_json_str(doc, "stop_reason") : "-");
		fputs(". Cells: median [95% CI] and n; change vs the baseline in % [CI] (a "
		      "difference when the baseline is ~0); verdict.\n\n| metric |",
		      out);
		json_array_foreach(variants, k, v)
		{
			fputc(' ', out);
			md_cell(out, pl_json_str(v, "name"));
			fputs(k == 0 ? " (baseline) |" : " |", out);
		}
		fputs("\n|---|", out);
		for (k = 0; k < json_array_size(variants); k++)
			fputs("--:|", out);
		fputc('\n', out);
		json_t *st;
		json_array_foreach(json_object_get(doc, "statistics"), k, st)
		{
			fputs("| ", out);
			md_cell(out, pl_json_str(st, "metric"));
			fputs(" |", out);
			size_t j;
			json_t *x;
			const char *unit = cmp_unit(doc, pl_json_str(st, "metric"));
			json_array_foreach(json_object_get(st, "variants"), j, x)
			{
				char *med = pl_report_cmp_median(x, unit),
				     *vs = pl_report_cmp_vs(x, unit);
				fputc(' ', out);
				md_cell(out, med);
				fprintf(out, " n=%lld", pl_json_int(x, "n"));
				if (vs) {
					fputs("; ", out);
					md_cell(out, vs);
				}
				free(med);
				free(vs);
				if (pl_json_str(x, "verdict_text")) {
					fputs("; ", out);
					md_cell(out, pl_json_str(x, "verdict_text"));
				}
				fputs(" |", out);
			}
			fputc('\n', out);
		}
		fputc('\n', out);
		char *ctx = pl_report_cmp_context(doc);
		if (ctx && *ctx) {
			/* one list item per line */
			for (char *l = ctx; l && *l;) {
				char *nl = strchr(l, '\n');
				if (nl)
					*nl = '\0';
				fputs("- ", out);
				md_cell(out, l);
				fputc('\n', out);
				l = nl ? nl + 1 : NULL;
			}
			fputc('\n', out);
		}
		free(ctx);
	}
}

/* Profiles: shares and the top functions by self samples. */
static void md_profiles(FILE *out, const json_t *arr)
{
	if (json_array_size(arr) == 0)
		return;
	fprintf(out, "## Profiles\n\n");
	size_t i;
	json_t *doc;
	json_array_foreach(arr, i, doc)
	{
		char a[32], b[32], c[32];
		fputs("### profile ", out);
		md_cell(out, pl_json_str(doc, "target"));
		char d[48];
		fprintf(out, "\n\n%lld samples in %s, user %s %%, kernel %s %%, lost %s %%.",
			(long long)json_integer_value(json_object_get(doc, "samples")),
			pl_fmt_unit(d, sizeof(d), pl_json_num(doc, "duration_s"), "s"),
			pl_fmt_num(a, sizeof(a),
				   json_number_value(json_object_get(doc, "user_pct"))),
			pl_fmt_num(b, sizeof(b),
				   json_number_value(json_object_get(doc, "kernel_pct"))),
			pl_fmt_num(c, sizeof(c),
				   json_number_value(json_object_get(doc, "lost_pct"))));
		const json_t *ev = json_object_get(doc, "event");
		fputs(" Event ", out);
		md_cell(out, pl_json_str(ev, "name"));
		if (pl_json_str(ev, "fallback")) {
			fputs(" (fallback from cycles: ", out);
			md_cell(out, pl_json_str(ev, "fallback"));
			fputc(')', out);
		}
		if (json_is_true(json_object_get(ev, "user_only")))
			fputs(", user space only (no permission for kernel samples)", out);
		fputs(". The flame graph is in report.html.\n\n", out);
		fputs("| function | module | self % | total % | samples |\n|---|---|--:|--:|--:|\n",
		      out);
		size_t k;
		json_t *x;
		json_array_foreach(json_object_get(doc, "top_self"), k, x)
		{
			if (k >= 15)
				break;
			fputs("| ", out);
			md_cell(out, pl_json_str(x, "function"));
			fputs(" | ", out);
			md_cell(out, pl_json_str(x, "module"));
			fputs(" |", out);
			md_num(out, json_object_get(x, "self_pct"));
			md_num(out, json_object_get(x, "total_pct"));
			fprintf(out, " %lld |\n", pl_json_int(x, "self"));
		}
		fputc('\n', out);
	}
}

/* tune diff/verify/apply: the items that differ or are pending, and the counts. */
static void md_tune(FILE *out, const json_t *arr)
{
	if (json_array_size(arr) == 0)
		return;
	fprintf(out, "## Tuning\n\n");
	size_t i;
	json_t *doc;
	json_array_foreach(arr, i, doc)
	{
		fputs("### tune ", out);
		md_cell(out, pl_json_str(doc, "command"));
		fputc(' ', out);
		md_cell(out, pl_json_str(doc, "profile"));
		fputs("\n\n", out);
		const json_t *sum = json_object_get(doc, "summary");
		const char *k;
		json_t *v;
		json_object_foreach((json_t *)sum, k, v)
		{
			md_cell(out, k);
			fprintf(out, ": %lld. ", (long long)json_integer_value(v));
		}
		fputs("\n\n| plugin | item | current | wanted | state |\n|---|---|---|---|---|\n",
		      out);
		size_t j;
		json_t *x;
		json_array_foreach(json_object_get(doc, "items"), j, x)
		{
			const char *state = pl_json_str(x, "state");
			char *cur = json_is_null(json_object_get(x, "current")) ||
						    !json_object_get(x, "current")
					    ? pl_xstrdup("")
					    : pl_fact_value_text(json_object_get(x, "current"));
			char *want = json_is_null(json_object_get(x, "wanted")) ||
						     !json_object_get(x, "wanted")
					     ? pl_xstrdup("")
					     : pl_fact_value_text(json_object_get(x, "wanted"));
			fputs("| ", out);
			md_cell(out, pl_json_str(x, "plugin"));
			fputs(" | ", out);
			md_code(out, pl_json_str(x, "key"));
			if (pl_json_str(x, "device")) {
				fputs(" (", out);
				md_cell(out, pl_json_str(x, "device"));
				fputc(')', out);
			}
			fputs(" | ", out);
			md_cell(out, cur);
			fputs(" | ", out);
			md_cell(out, want);
			fputs(" | ", out);
			md_cell(out, state);
			if (pl_json_str(x, "reason")) {
				fputs(": ", out);
				md_cell(out, pl_json_str(x, "reason"));
			}
			fputs(" |\n", out);
			free(cur);
			free(want);
		}
		fputc('\n', out);
	}
}

/* A finding's measured evidence (pl_report_annotate()), after its rationale. */
static void md_evidence(FILE *out, const json_t *finding)
{
	const json_t *ev = json_object_get(finding, "evidence");
	if (!pl_json_str(ev, "text"))
		return;
	fputs(" **Measured here:** ", out);
	md_cell(out, pl_json_str(ev, "text"));
	fputs(" ([bench ", out);
	md_cell(out, pl_json_str(ev, "benchmark"));
	fputs("](#bench-", out);
	pl_report_md_anchor(out, pl_json_str(ev, "benchmark"));
	fputs(")).", out);
}

int pl_report_write_markdown(FILE *out, const json_t *report)
{
	fprintf(out, "# perflab report\n\n");
	fputs("Generated ", out);
	md_cell(out, pl_json_str(report, "generated"));
	fputs(" by perflab ", out);
	md_cell(out, pl_json_str(report, "perflab_version"));
	fputs(".\n\n", out);
	/* "unreliable: ..." before the figures it qualifies (perflab-report(1): every output opens
	 * with it) */
	char *top = pl_caveats_report_top(report);
	if (top) {
		fputs("> **", out);
		md_cell(out, top);
		fputs("**\n\n", out);
	}
	free(top);
	pl_keynums_write_markdown(out, report);

	const json_t *check = json_object_get(report, "check");
	const json_t *sum = json_object_get(check, "summary");
	fputs("## Findings (workload: ", out);
	md_cell(out, pl_json_str(check, "workload"));
	fputs(")\n\n", out);
	fprintf(out, "%lld critical, %lld warnings, %lld info.\n\n",
		(long long)json_integer_value(json_object_get(sum, "crit")),
		(long long)json_integer_value(json_object_get(sum, "warn")),
		(long long)json_integer_value(json_object_get(sum, "info")));
	const json_t *arr = json_object_get(check, "findings");
	if (json_array_size(arr) > 0) {
		fprintf(out, "| severity | finding | observed | expected | fix |\n");
		fprintf(out, "|---|---|---|---|---|\n");
		size_t i;
		json_t *x;
		json_array_foreach(arr, i, x)
		{
			fputs("| ", out);
			md_cell(out, pl_json_str(x, "severity"));
			fputs(" | ", out);
			md_cell(out, pl_json_str(x, "title"));
			if (pl_json_str(x, "subject")) {
				fputs(": ", out);
				md_cell(out, pl_json_str(x, "subject"));
			}
			fputs(" (", out);
			md_code(out, pl_json_str(x, "id"));
			fprintf(out, ")%s | ",
				json_is_true(json_object_get(x, "risky")) ? " *(risky setting)*"
									  : "");
			md_cell(out, pl_json_str(x, "observed"));
			fputs(" | ", out);
			md_cell(out, pl_json_str(x, "expected"));
			fputs(" | ", out);
			const json_t *fix = json_object_get(x, "fix");
			if (pl_json_str(fix, "command"))
				md_code(out, pl_json_str(fix, "command"));
			if (pl_json_str(fix, "tune")) {
				fputs(pl_json_str(fix, "command") ? "; profile: " : "profile: ",
				      out);
				md_code(out, pl_json_str(fix, "tune"));
			}
			fputs(" |\n", out);
		}
		fputs("\n### Why\n\n", out);
		json_array_foreach(arr, i, x)
		{
			fputs("- **", out);
			md_cell(out, pl_json_str(x, "id"));
			fputs("**: ", out);
			md_cell(out, pl_json_str(x, "rationale"));
			fputs(" Source: ", out);
			md_cell(out, pl_json_str(x, "source"));
			md_evidence(out, x);
			fputc('\n', out);
		}
		fputc('\n', out);
	}

	pl_diff_report_markdown(out, report);
	pl_report_markdown_benchmarks(out, json_object_get(report, "benchmarks"));
	pl_render_counters_markdown(out, report);
	md_comparisons(out, json_object_get(report, "comparisons"));
	md_profiles(out, json_object_get(report, "profiles"));
	md_tune(out, json_object_get(report, "tune"));

	fprintf(out, "## Facts\n\n| fact | value | source |\n|---|---|---|\n");
	const json_t *facts = json_object_get(report, "facts");
	const char *key;
	json_t *e;
	json_object_foreach((json_t *)facts, key, e)
	{
		const json_t *v = json_object_get(e, "value");
		char *t =
			v ? pl_figure_fact_text(key, v)
			  : pl_xasprintf("unavailable: %s", pl_json_str(e, "unavailable")
								    ? pl_json_str(e, "unavailable")
								    : "?");
		fputs("| ", out);
		md_code(out, key);
		fputs(" | ", out);
		md_cell(out, t);
		fputs(" | ", out);
		md_cell(out, v ? pl_json_str(e, "source") : "");
		fputs(" |\n", out);
		free(t);
	}
	return ferror(out) ? -EIO : 0;
}
