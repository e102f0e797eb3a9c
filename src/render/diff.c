/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rendering a diff document (report/diff.h) for the terminal, report.md and report.html. Every
 * renderer reads only the document; the texts of values and changes are made once here
 * (change_text, value_text) and escaped per output. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts/facts.h"
#include "render/diff.h"
#include "render/markdown.h"
#include "util/json.h"
#include "render/svg.h"
#include "util/cleanup.h"
#include "util/escape.h"
#include "util/log.h"
#include "util/str.h"

/* How many entries of each list the report's terminal summary shows. */
#define SUMMARY_MAX 5

/* ---- texts shared by all outputs ------------------------------------------------------ */

/* A relative change as text. */
struct pct_text {
	char s[32];
};

/* A change in % with one decimal ("+6.7%"); from a million percent on, three significant
 * digits ("+1e+306%"), as medians near the double's range make the plain form hundreds
 * of digits long. */
static struct pct_text pct_str(double pct)
{
	struct pct_text t;
	snprintf(t.s, sizeof(t.s), fabs(pct) < 1e6 ? "%+.1f%%" : "%+.3g%%", pct);
	return t;
}

/* The text of one side of a fact ({"value"} or {"unavailable"}) with @unit, malloc'd. */
static char *value_text(const json_t *side, const char *unit)
{
	const json_t *v = json_object_get(side, "value");
	if (!v)
		return pl_xasprintf("unavailable (%s)", pl_json_str(side, "unavailable")
								? pl_json_str(side, "unavailable")
								: "?");
	char b[64];
	if (json_is_number(v) && unit && strcmp(unit, "B") == 0)
		return pl_xstrdup(pl_fmt_unit(b, sizeof(b), json_number_value(v), "B"));
	if (json_is_real(v))
		snprintf(b, sizeof(b), "%.6g", json_real_value(v));
	pl_autofree char *t = json_is_real(v) ? pl_xstrdup(b) : pl_fact_value_text(v);
	if (unit && json_is_number(v))
		return pl_xasprintf("%s %s", t, unit);
	return pl_xstrdup(*t ? t : "(empty)");
}

/* A list whose elements are names or records (flags, devices), not numbers (the three
 * values of tcp_rmem, a distance matrix): its change reads best as what was added and
 * removed. */
static bool set_like(const json_t *a)
{
	size_t i;
	json_t *x;
	json_array_foreach(a, i, x)
	{
		if (!json_is_string(x) && !json_is_object(x))
			return false;
	}
	return true;
}

/* An element as a lookup key: its compact JSON with sorted keys (equal for elements
 * json_equal() calls equal). Malloc'd. */
static char *elem_key(const json_t *x)
{
	char *k = json_dumps(x, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	return k ? k : pl_xstrdup("?");
}

/* Elements of array @a that @b lacks, as "x, y" (NULL when none), malloc'd. The elements
 * of @b are looked up in a set, so long lists cost their length, not its square. */
static char *missing_from(const json_t *a, const json_t *b)
{
	struct pl_buf out = { 0 };
	pl_autojson json_t *in_b = json_object();
	size_t i;
	json_t *x;
	json_array_foreach(b, i, x)
	{
		pl_autofree char *k = elem_key(x);
		json_object_set_new_nocheck(in_b, k, json_true());
	}
	json_array_foreach(a, i, x)
	{
		pl_autofree char *k = elem_key(x);
		if (json_object_get(in_b, k))
			continue;
		pl_autofree char *t = pl_fact_value_text(x);
		pl_buf_printf(&out, "%s%s", out.len ? ", " : "", t);
	}
	return pl_buf_steal(&out);
}

/* "OLD -> NEW (+6.7%)" for a changed fact; for two lists "added x, y; removed z". */
static char *change_text(const json_t *e)
{
	const json_t *o = json_object_get(e, "old"), *n = json_object_get(e, "new");
	const char *unit = pl_json_str(e, "unit");
	const json_t *vo = json_object_get(o, "value"), *vn = json_object_get(n, "value");
	if (json_is_array(vo) && json_is_array(vn) && set_like(vo) && set_like(vn)) {
		pl_autofree char *add = missing_from(vn, vo);
		pl_autofree char *rem = missing_from(vo, vn);
		if ((add && *add) || (rem && *rem))
			return pl_xasprintf("%s%s%s%s%s", add && *add ? "added " : "",
					    add && *add ? add : "",
					    add && *add && rem && *rem ? "; " : "",
					    rem && *rem ? "removed " : "", rem && *rem ? rem : "");
		/* same elements, another order: show both */
	}
	pl_autofree char *a = value_text(o, unit);
	pl_autofree char *b = value_text(n, unit);
	double pct = pl_json_num(e, "change_pct");
	if (!isnan(pct))
		return pl_xasprintf("%s -> %s (%s)", a, b, pct_str(pct).s);
	return pl_xasprintf("%s -> %s", a, b);
}

/* The value of an added or removed fact. */
static char *only_text(const json_t *e)
{
	const json_t *s =
		json_object_get(e, "new") ? json_object_get(e, "new") : json_object_get(e, "old");
	return value_text(s, pl_json_str(e, "unit"));
}

/* A median in its unit. */
static const char *median_text(char *buf, size_t len, const json_t *fig, const char *which)
{
	const json_t *s = json_object_get(fig, which);
	return pl_fmt_unit(buf, len, pl_json_num(s, "median"), pl_json_str(fig, "unit"));
}

/* "-45.3% (better)", "+2.0%", "-". The word comes with a verdict of change only
 * ("significant"): beside "no difference detected" or "too few runs" a median that moved is
 * noise, not better or worse. */
static char *pct_text(const json_t *fig)
{
	double pct = pl_json_num(fig, "change_pct");
	const char *dir = pl_json_str(fig, "significant");
	if (isnan(pct))
		return pl_xstrdup("-");
	if (dir && (strcmp(dir, "better") == 0 || strcmp(dir, "worse") == 0))
		return pl_xasprintf("%s (%s)", pct_str(pct).s, dir);
	return pl_xstrdup(pct_str(pct).s);
}

/* "clock gettimeofday" */
static char *figure_name(const json_t *fig)
{
	return pl_xasprintf("%s %s", pl_json_str(fig, "benchmark"), pl_json_str(fig, "metric"));
}

/* "io (5 figures; skipped in the new document: ...)" / "mem copy" */
static char *only_fig_text(const json_t *e)
{
	const char *m = pl_json_str(e, "metric"), *r = pl_json_str(e, "reason");
	if (m)
		return pl_xasprintf("%s %s", pl_json_str(e, "benchmark"), m);
	long long n = pl_json_int(e, "figures");
	return pl_xasprintf("%s (%lld figure%s%s%s)", pl_json_str(e, "benchmark"), n,
			    n == 1 ? "" : "s", r ? "; " : "", r ? r : "");
}

/* "1 appeared, 2 resolved, 0 changed" style counts of the summary. */
static long long cnt(const json_t *d, const char *k)
{
	return pl_json_int(json_object_get(d, "summary"), k);
}

static const char *nz(const char *s)
{
	return s ? s : "";
}

/* ---- terminal ------------------------------------------------------------------------- */

static void tprint(FILE *out, const char *fmt, const char *s)
{
	pl_autofree char *e = pl_str_escape(nz(s), PL_ESC_TERM);
	fprintf(out, fmt, e);
}

static void text_facts(FILE *out, const json_t *d, size_t max)
{
	const json_t *f = json_object_get(d, "facts");
	if (!f)
		return;
	fprintf(out, "facts: %lld changed, %lld added, %lld removed\n", cnt(d, "facts_changed"),
		cnt(d, "facts_added"), cnt(d, "facts_removed"));
	size_t i, shown = 0, left = 0;
	json_t *e;
	struct pl_buf vol = { 0 };
	json_array_foreach(json_object_get(f, "changed"), i, e)
	{
		pl_autofree char *t = change_text(e);
		if (json_is_true(json_object_get(e, "volatile"))) {
			pl_buf_printf(&vol, "%s%s %s", vol.len ? "; " : "", pl_json_str(e, "key"),
				      t);
			continue;
		}
		if (shown++ >= max) {
			left++;
			continue;
		}
		pl_autofree char *k = pl_str_escape(pl_json_str(e, "key"), PL_ESC_TERM);
		pl_autofree char *v = pl_str_escape(t, PL_ESC_TERM);
		fprintf(out, "  %-36s %s\n", k, v);
	}
	static const char *const lists[] = { "added", "removed" };
	for (int l = 0; l < 2; l++)
		json_array_foreach(json_object_get(f, lists[l]), i, e)
		{
			if (shown++ >= max) {
				left++;
				continue;
			}
			pl_autofree char *t = only_text(e);
			pl_autofree char *k = pl_str_escape(pl_json_str(e, "key"), PL_ESC_TERM);
			pl_autofree char *v = pl_str_escape(t, PL_ESC_TERM);
			fprintf(out, "  %-36s %s: %s\n", k, lists[l], v);
		}
	if (left)
		fprintf(out, "  (%zu more in report.md)\n", left);
	if (vol.len)
		tprint(out, "  readings that change by themselves: %s\n", vol.data);
	pl_buf_free(&vol);
}

static void text_finding(FILE *out, const char *what, const json_t *e)
{
	const json_t *o = json_object_get(e, "old"), *n = json_object_get(e, "new");
	const char *subj = nz(pl_json_str(e, "subject"));
	/* titles, subjects, ids and observed values come from the documents: the whole line
	 * is escaped */
	pl_autofree char *line =
		o && n ? pl_xasprintf("  %-9s [%s -> %s] %s%s%s (%s): %s -> %s", what,
				      pl_json_str(o, "severity"), pl_json_str(n, "severity"),
				      pl_json_str(e, "title"), *subj ? ": " : "", subj,
				      pl_json_str(e, "id"), nz(pl_json_str(o, "observed")),
				      nz(pl_json_str(n, "observed")))
		       : pl_xasprintf("  %-9s [%s] %s%s%s (%s)", what, pl_json_str(e, "severity"),
				      pl_json_str(e, "title"), *subj ? ": " : "", subj,
				      pl_json_str(e, "id"));
	tprint(out, "%s\n", line);
}

static void text_findings(FILE *out, const json_t *d, size_t max)
{
	const json_t *f = json_object_get(d, "findings");
	if (!f)
		return;
	fprintf(out, "findings: %lld appeared, %lld resolved, %lld changed\n",
		cnt(d, "findings_appeared"), cnt(d, "findings_resolved"),
		cnt(d, "findings_changed"));
	static const char *const lists[] = { "appeared", "resolved", "changed" };
	size_t shown = 0, left = 0;
	for (int l = 0; l < 3; l++) {
		size_t i;
		json_t *e;
		json_array_foreach(json_object_get(f, lists[l]), i, e)
		{
			if (shown++ >= max)
				left++;
			else
				text_finding(out, lists[l], e);
		}
	}
	if (left)
		fprintf(out, "  (%zu more in report.md)\n", left);
}

static void text_only(FILE *out, const json_t *b, const char *key, const char *label)
{
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(b, key), i, e)
	{
		pl_autofree char *t = only_fig_text(e);
		fprintf(out, "  only %s: ", label);
		tprint(out, "%s\n", t);
	}
}

/* @all: every figure; else only those with a verdict of change, at most @max. */
static void text_benchmarks(FILE *out, const json_t *d, bool all, size_t max)
{
	const json_t *b = json_object_get(d, "benchmarks");
	if (!b)
		return;
	if (cnt(d, "figures") == 0 && !json_array_size(json_object_get(b, "only_old")) &&
	    !json_array_size(json_object_get(b, "only_new"))) {
		fputs("benchmarks: no results on either side\n", out);
		return;
	}
	fprintf(out,
		"benchmarks: %lld figures on both sides: %lld better, %lld worse, %lld changed "
		"(no direction), %lld without a verdict\n",
		cnt(d, "figures"), cnt(d, "better"), cnt(d, "worse"), cnt(d, "changed"),
		cnt(d, "no_verdict"));
	size_t i, shown = 0, left = 0;
	json_t *f;
	if (all && json_array_size(json_object_get(b, "figures")))
		fprintf(out, "  %-40s %12s %12s  %-16s %s\n", "figure", "old median", "new median",
			"change", "verdict");
	json_array_foreach(json_object_get(b, "figures"), i, f)
	{
		if (!all && !pl_json_str(f, "significant"))
			continue;
		if (!all && shown++ >= max) {
			left++;
			continue;
		}
		char mo[48], mn[48];
		pl_autofree char *name = figure_name(f);
		pl_autofree char *pct = pct_text(f);
		pl_autofree char *line = pl_xasprintf(
			"  %-40s %12s %12s  %-16s %s", name, median_text(mo, sizeof(mo), f, "old"),
			median_text(mn, sizeof(mn), f, "new"), pct,
			all ? pl_json_str(f, "verdict_text") : pl_json_str(f, "brief"));
		tprint(out, "%s\n", line); /* names and units come from the documents */
	}
	if (left)
		fprintf(out, "  (%zu more in report.md)\n", left);
	text_only(out, b, "only_old", all ? "in the old document" : "in the baseline");
	text_only(out, b, "only_new", all ? "in the new document" : "in this report");
}

static void text_notes(FILE *out, const json_t *d)
{
	size_t i;
	json_t *n;
	json_array_foreach(json_object_get(d, "notes"), i, n)
	{
		tprint(out, "note: %s\n", json_string_value(n));
	}
}

static void text_input(FILE *out, const char *label, const json_t *in)
{
	pl_autofree char *file = pl_str_escape(pl_json_str(in, "file"), PL_ESC_TERM);
	fprintf(out, "%s %s (%s%s%s)\n", label, file, pl_json_str(in, "kind"),
		pl_json_str(in, "generated") ? ", generated " : "",
		nz(pl_json_str(in, "generated")));
	if (pl_json_str(in, "machine"))
		tprint(out, "    %s\n", pl_json_str(in, "machine"));
}

void pl_diff_print_text(FILE *out, const json_t *d)
{
	text_input(out, "old:", json_object_get(d, "old"));
	text_input(out, "new:", json_object_get(d, "new"));
	text_facts(out, d, SIZE_MAX);
	text_findings(out, d, SIZE_MAX);
	text_benchmarks(out, d, true, SIZE_MAX);
	text_notes(out, d);
}

void pl_diff_report_summary(FILE *out, const json_t *report)
{
	const json_t *d = json_object_get(report, "baseline");
	if (!json_is_object(d))
		return;
	const char *b = pl_style(out, "bold"), *r = pl_style(out, "reset");
	pl_autofree char *file =
		pl_str_escape(pl_json_str(json_object_get(d, "old"), "file"), PL_ESC_TERM);
	fprintf(out, "%schanges since baseline%s %s (generated %s):\n", b, r, file,
		nz(pl_json_str(json_object_get(d, "old"), "generated")));
	text_facts(out, d, SUMMARY_MAX);
	text_findings(out, d, SUMMARY_MAX);
	text_benchmarks(out, d, false, SUMMARY_MAX);
}

/* ---- Markdown ------------------------------------------------------------------------- */

#define cell pl_report_md_cell

void pl_diff_report_markdown(FILE *out, const json_t *report)
{
	const json_t *d = json_object_get(report, "baseline");
	if (!json_is_object(d))
		return;
	const json_t *in = json_object_get(d, "old");
	fputs("## Changes since baseline\n\nBaseline: ", out);
	pl_report_md_code(out, pl_json_str(in, "file"));
	fputs(" (generated ", out);
	cell(out, nz(pl_json_str(in, "generated")));
	if (pl_json_str(in, "machine")) {
		fputs("; ", out);
		cell(out, pl_json_str(in, "machine"));
	}
	fputs(").\n\n", out);
	size_t i;
	json_t *e;
	const json_t *f = json_object_get(d, "facts");
	if (f) {
		fprintf(out, "**Facts:** %lld changed, %lld added, %lld removed.\n\n",
			cnt(d, "facts_changed"), cnt(d, "facts_added"), cnt(d, "facts_removed"));
		if (cnt(d, "facts_changed") + cnt(d, "facts_added") + cnt(d, "facts_removed"))
			fputs("| fact | change |\n|---|---|\n", out);
		json_array_foreach(json_object_get(f, "changed"), i, e)
		{
			pl_autofree char *t = change_text(e);
			fputs("| ", out);
			pl_report_md_code(out, pl_json_str(e, "key"));
			fputs(" | ", out);
			cell(out, t);
			fputs(json_is_true(json_object_get(e, "volatile"))
				      ? " (a reading that changes by itself) |\n"
				      : " |\n",
			      out);
		}
		static const char *const lists[] = { "added", "removed" };
		for (int l = 0; l < 2; l++)
			json_array_foreach(json_object_get(f, lists[l]), i, e)
			{
				pl_autofree char *t = only_text(e);
				fputs("| ", out);
				pl_report_md_code(out, pl_json_str(e, "key"));
				fprintf(out, " | %s: ", lists[l]);
				cell(out, t);
				fputs(" |\n", out);
			}
		fputc('\n', out);
	}
	f = json_object_get(d, "findings");
	if (f) {
		fprintf(out, "**Findings:** %lld appeared, %lld resolved, %lld changed.\n\n",
			cnt(d, "findings_appeared"), cnt(d, "findings_resolved"),
			cnt(d, "findings_changed"));
		if (cnt(d, "findings_appeared") + cnt(d, "findings_resolved") +
		    cnt(d, "findings_changed"))
			fputs("| change | severity | finding | observed |\n|---|---|---|---|\n",
			      out);
		static const char *const lists[] = { "appeared", "resolved", "changed" };
		for (int l = 0; l < 3; l++)
			json_array_foreach(json_object_get(f, lists[l]), i, e)
			{
				const json_t *o = json_object_get(e, "old"),
					     *n = json_object_get(e, "new");
				fprintf(out, "| %s | ", lists[l]);
				if (o && n) {
					cell(out, pl_json_str(o, "severity"));
					fputs(" -> ", out);
					cell(out, pl_json_str(n, "severity"));
				} else {
					cell(out, pl_json_str(e, "severity"));
				}
				fputs(" | ", out);
				cell(out, pl_json_str(e, "title"));
				if (pl_json_str(e, "subject")) {
					fputs(": ", out);
					cell(out, pl_json_str(e, "subject"));
				}
				fputs(" (", out);
				pl_report_md_code(out, pl_json_str(e, "id"));
				fputs(") | ", out);
				if (o && n) {
					cell(out, pl_json_str(o, "observed"));
					fputs(" -> ", out);
					cell(out, pl_json_str(n, "observed"));
				} else {
					cell(out, pl_json_str(e, "observed"));
				}
				fputs(" |\n", out);
			}
		fputc('\n', out);
	}
	f = json_object_get(d, "benchmarks");
	if (f) {
		fprintf(out,
			"**Benchmarks:** %lld figures on both sides: %lld better, %lld worse, %lld "
			"changed (no direction), %lld without a verdict. Verdicts from the samples "
			"with `perflab compare`'s statistics.\n\n",
			cnt(d, "figures"), cnt(d, "better"), cnt(d, "worse"), cnt(d, "changed"),
			cnt(d, "no_verdict"));
		if (json_array_size(json_object_get(f, "figures")))
			fputs("| benchmark | figure | baseline median | median now | change | "
			      "verdict |\n|---|---|--:|--:|--:|---|\n",
			      out);
		json_array_foreach(json_object_get(f, "figures"), i, e)
		{
			char mo[48], mn[48];
			pl_autofree char *pct = pct_text(e);
			fputs("| ", out);
			cell(out, pl_json_str(e, "benchmark"));
			fputs(" | ", out);
			cell(out, pl_json_str(e, "metric"));
			fputs(" | ", out);
			cell(out, median_text(mo, sizeof(mo), e, "old"));
			fputs(" | ", out);
			cell(out, median_text(mn, sizeof(mn), e, "new"));
			fputs(" | ", out);
			cell(out, pct);
			fputs(" | ", out);
			cell(out, pl_json_str(e, "verdict_text"));
			fputs(" |\n", out);
		}
		static const char *const keys[] = { "only_old", "only_new" };
		static const char *const labels[] = { "Only in the baseline",
						      "Only in this report" };
		if (json_array_size(json_object_get(f, keys[0])) +
		    json_array_size(json_object_get(f, keys[1])))
			fputc('\n', out);
		for (int l = 0; l < 2; l++)
			json_array_foreach(json_object_get(f, keys[l]), i, e)
			{
				pl_autofree char *t = only_fig_text(e);
				fprintf(out, "- %s: ", labels[l]);
				cell(out, t);
				fputc('\n', out);
			}
		fputc('\n', out);
	}
	json_array_foreach(json_object_get(d, "notes"), i, e)
	{
		fputs("- note: ", out);
		cell(out, json_string_value(e));
		fputc('\n', out);
	}
	if (json_array_size(json_object_get(d, "notes")))
		fputc('\n', out);
}

/* ---- HTML ----------------------------------------------------------------------------- */

static void esc(struct pl_buf *b, const char *s)
{
	pl_html_escape(b, nz(s));
}

static void td(struct pl_buf *b, const char *cls, const char *s)
{
	pl_buf_printf(b, "<td%s%s%s>", cls ? " class=\"" : "", nz(cls), cls ? "\"" : "");
	esc(b, s);
	pl_buf_puts(b, "</td>");
}

void pl_diff_report_html(struct pl_buf *b, const json_t *report)
{
	const json_t *d = json_object_get(report, "baseline");
	if (!json_is_object(d))
		return;
	const json_t *in = json_object_get(d, "old");
	pl_buf_puts(b, "<h2 id=\"baseline\">Changes since baseline</h2>\n<p>Baseline: <code>");
	esc(b, pl_json_str(in, "file"));
	pl_buf_puts(b, "</code> (generated ");
	esc(b, pl_json_str(in, "generated"));
	if (pl_json_str(in, "machine")) {
		pl_buf_puts(b, "; ");
		esc(b, pl_json_str(in, "machine"));
	}
	pl_buf_puts(b, ").</p>\n");
	size_t i;
	json_t *e;
	const json_t *f = json_object_get(d, "facts");
	if (f) {
		pl_buf_printf(b, "<h3>Facts</h3>\n<p>%lld changed, %lld added, %lld removed.</p>\n",
			      cnt(d, "facts_changed"), cnt(d, "facts_added"),
			      cnt(d, "facts_removed"));
		if (cnt(d, "facts_changed") + cnt(d, "facts_added") + cnt(d, "facts_removed"))
			pl_buf_puts(b, "<table id=\"baseline-facts\"><thead><tr><th>fact</th>"
				       "<th>change</th></tr></thead><tbody>\n");
		json_array_foreach(json_object_get(f, "changed"), i, e)
		{
			pl_autofree char *t = change_text(e);
			pl_buf_puts(b, "<tr><td><code>");
			esc(b, pl_json_str(e, "key"));
			pl_buf_puts(b, "</code></td><td>");
			esc(b, t);
			if (json_is_true(json_object_get(e, "volatile")))
				pl_buf_puts(b, " <span class=\"muted\">(a reading that changes by "
					       "itself)</span>");
			pl_buf_puts(b, "</td></tr>\n");
		}
		static const char *const lists[] = { "added", "removed" };
		for (int l = 0; l < 2; l++)
			json_array_foreach(json_object_get(f, lists[l]), i, e)
			{
				pl_autofree char *t = only_text(e);
				pl_buf_puts(b, "<tr><td><code>");
				esc(b, pl_json_str(e, "key"));
				pl_buf_printf(b, "</code></td><td>%s: ", lists[l]);
				esc(b, t);
				pl_buf_puts(b, "</td></tr>\n");
			}
		if (cnt(d, "facts_changed") + cnt(d, "facts_added") + cnt(d, "facts_removed"))
			pl_buf_puts(b, "</tbody></table>\n");
	}
	f = json_object_get(d, "findings");
	if (f) {
		pl_buf_printf(b,
			      "<h3>Findings</h3>\n<p>%lld appeared, %lld resolved, %lld "
			      "changed.</p>\n",
			      cnt(d, "findings_appeared"), cnt(d, "findings_resolved"),
			      cnt(d, "findings_changed"));
		bool any = cnt(d, "findings_appeared") + cnt(d, "findings_resolved") +
			   cnt(d, "findings_changed");
		if (any)
			pl_buf_puts(b, "<table id=\"baseline-findings\"><thead><tr><th>change</th>"
				       "<th>severity</th><th>finding</th><th>observed</th></tr>"
				       "</thead><tbody>\n");
		static const char *const lists[] = { "appeared", "resolved", "changed" };
		for (int l = 0; l < 3; l++)
			json_array_foreach(json_object_get(f, lists[l]), i, e)
			{
				const json_t *o = json_object_get(e, "old"),
					     *n = json_object_get(e, "new");
				pl_buf_printf(b, "<tr><td>%s</td>", lists[l]);
				pl_autofree char *sev =
					o && n ? pl_xasprintf("%s -> %s",
							      pl_json_str(o, "severity"),
							      pl_json_str(n, "severity"))
					       : pl_xstrdup(pl_json_str(e, "severity"));
				td(b, NULL, sev);
				pl_buf_puts(b, "<td>");
				esc(b, pl_json_str(e, "title"));
				if (pl_json_str(e, "subject")) {
					pl_buf_puts(b, ": ");
					esc(b, pl_json_str(e, "subject"));
				}
				pl_buf_puts(b, " <code>");
				esc(b, pl_json_str(e, "id"));
				pl_buf_puts(b, "</code></td>");
				pl_autofree char *obs =
					o && n ? pl_xasprintf("%s -> %s",
							      pl_json_str(o, "observed"),
							      pl_json_str(n, "observed"))
					       : pl_xstrdup(nz(pl_json_str(e, "observed")));
				td(b, NULL, obs);
				pl_buf_puts(b, "</tr>\n");
			}
		if (any)
			pl_buf_puts(b, "</tbody></table>\n");
	}
	f = json_object_get(d, "benchmarks");
	if (f) {
		pl_buf_printf(b,
			      "<h3>Benchmarks</h3>\n<p>%lld figures on both sides: %lld better, "
			      "%lld worse, %lld changed (no direction), %lld without a verdict. "
			      "Verdicts from the samples with <code>perflab compare</code>'s "
			      "statistics.</p>\n",
			      cnt(d, "figures"), cnt(d, "better"), cnt(d, "worse"),
			      cnt(d, "changed"), cnt(d, "no_verdict"));
		if (json_array_size(json_object_get(f, "figures")))
			pl_buf_puts(b, "<table id=\"baseline-figures\"><thead><tr><th>benchmark"
				       "</th><th>figure</th><th class=\"num\">baseline median</th>"
				       "<th class=\"num\">median now</th><th class=\"num\">change"
				       "</th><th>verdict</th></tr></thead><tbody>\n");
		json_array_foreach(json_object_get(f, "figures"), i, e)
		{
			char mo[48], mn[48];
			pl_autofree char *pct = pct_text(e);
			pl_buf_puts(b, "<tr>");
			td(b, NULL, pl_json_str(e, "benchmark"));
			td(b, NULL, pl_json_str(e, "metric"));
			td(b, "num", median_text(mo, sizeof(mo), e, "old"));
			td(b, "num", median_text(mn, sizeof(mn), e, "new"));
			td(b, "num", pct);
			pl_autofree char *cls =
				pl_xasprintf("verdict verdict-%s", pl_json_str(e, "verdict"));
			td(b, cls, pl_json_str(e, "verdict_text"));
			pl_buf_puts(b, "</tr>\n");
		}
		if (json_array_size(json_object_get(f, "figures")))
			pl_buf_puts(b, "</tbody></table>\n");
		static const char *const keys[] = { "only_old", "only_new" };
		static const char *const labels[] = { "Only in the baseline",
						      "Only in this report" };
		for (int l = 0; l < 2; l++) {
			if (!json_array_size(json_object_get(f, keys[l])))
				continue;
			pl_buf_printf(b, "<p>%s:</p>\n<ul>\n", labels[l]);
			json_array_foreach(json_object_get(f, keys[l]), i, e)
			{
				pl_autofree char *t = only_fig_text(e);
				pl_buf_puts(b, "<li>");
				esc(b, t);
				pl_buf_puts(b, "</li>\n");
			}
			pl_buf_puts(b, "</ul>\n");
		}
	}
	if (json_array_size(json_object_get(d, "notes"))) {
		pl_buf_puts(b, "<ul class=\"env\">\n");
		json_array_foreach(json_object_get(d, "notes"), i, e)
		{
			pl_buf_puts(b, "<li>note: ");
			esc(b, json_string_value(e));
			pl_buf_puts(b, "</li>\n");
		}
		pl_buf_puts(b, "</ul>\n");
	}
}
