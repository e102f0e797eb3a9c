/* SPDX-License-Identifier: GPL-3.0-or-later */
/* report.html (render/html.h): one self-contained page from the report document, a
 * section per part of it (findings, facts, benchmarks, compare, profile with its flame
 * graph, tune).
 *
 * Above 800 lines on purpose: one renderer of one document, whose sections share the
 * page's escaping, number cells and caveat lists. */
#include "render/html.h"
#include "render/counters.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/env.h"
#include "facts/facts.h"
#include "render/compare.h"
#include "render/diff.h"
#include "render/htmltext.h"
#include "report/figures.h"
#include "report/report.h"
#include "util/json.h"
#include "render/keynums.h"
#include "render/svg.h"
#include "profile/flame.h"
#include "util/str.h"

static const char css[] =
	":root{--fg:#1b1f24;--muted:#59636e;--line:#d0d7de;--bg:#fff;--crit:#b42318;"
	"--warn:#9a6700;--info:#0b5cad;--bar:#3b6fb6}\n"
	"*{box-sizing:border-box}body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',"
	"Roboto,sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;max-width:1180px;"
	"padding:24px}\n"
	"h1{font-size:26px;margin:0 0 4px}h2{font-size:20px;margin:32px 0 8px;border-bottom:"
	"1px solid var(--line);padding-bottom:4px}h3{font-size:16px;margin:18px 0 6px}\n"
	".muted{color:var(--muted)}.machine{font-size:16px;margin:8px 0 16px}\n"
	".cards{display:flex;gap:12px;flex-wrap:wrap;margin:12px 0}.card{border:1px solid "
	"var(--line);border-radius:6px;padding:10px 14px;min-width:150px}.card b{display:block;"
	"font-size:22px}\n"
	"table{border-collapse:collapse;width:100%;margin:8px 0 16px;font-size:14px}th,td{border:"
	"1px solid var(--line);padding:5px 8px;text-align:left;vertical-align:top}th{background:"
	"#f6f8fa}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:"
	"nowrap}\n"
	"#findings-table{table-layout:fixed}#findings-table th:first-child{width:84px}"
	"#findings-table th:nth-child(3){width:20%}#findings-table th:nth-child(4){width:14%}"
	"#findings-table th:nth-child(5){width:28%}#findings-table th{white-space:nowrap}"
	"#findings-table td{overflow-wrap:break-word}#findings-table code{overflow-wrap:anywhere}\n"
	/* a fix command is copied and pasted: never broken, on one line that scrolls sideways
	 * when it is longer than its cell */
	"code.cmd{display:block;white-space:pre;overflow-x:auto;overflow-wrap:normal;"
	"max-width:100%}\n"
	"@media (max-width:900px){body{padding:12px}table{font-size:13px}th,td{padding:4px 6px}}\n"
	".sev{display:inline-block;font-weight:700;font-size:12px;padding:1px "
	"6px;border-radius:4px;"
	"border:1px solid currentColor}.sev-crit{color:var(--crit)}.sev-warn{color:var(--warn)}"
	".sev-info{color:var(--info)}\n"
	"code{font:13px/1.4 "
	"ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f6f8fa;"
	"padding:1px 4px;border-radius:3px;overflow-wrap:break-word}\n"
	"button.copy{font-size:12px;margin-left:6px;cursor:pointer}\n"
	"details{margin:6px 0}summary{cursor:pointer}\n"
	"svg.chart{display:block;margin:8px 0 12px}"
	"svg.chart text{font:14px system-ui,sans-serif;fill:var(--fg)}svg.chart .tick{stroke:"
	"var(--muted);stroke-width:1}svg.chart "
	".bar{fill:var(--bar)}"
	"svg.chart .err{stroke:#000;stroke-width:1.5}svg.chart .axis{fill:var(--muted)}\n"
	"td.cmp{min-width:220px;text-align:right}td.cmp "
	"span.num{font-variant-numeric:tabular-nums;white-space:nowrap}"
	".env{font-size:13px;color:var(--muted)}.verdict{font-size:13px}.verdict-changed{font-"
	"weight:700}\n"
	"div.flame{margin:8px 0;border:1px solid var(--line)}iframe.flame{display:block;"
	"width:100%;border:0}\n"
	"table.facts{table-layout:fixed}table.facts col.key{width:30%}table.facts "
	"col.source{width:26%}table.facts td,table.facts code{overflow-wrap:anywhere}\n"
	/* a metric name wraps at its <wbr> points only, a number never leaves its unit
	 * (span.nw); a table wider than the page scrolls sideways in its div.tw */
	"table.metrics td:first-child{min-width:8em}table.metrics td.notes{min-width:12em}"
	".nw{white-space:nowrap}"
	"div.tw{overflow-x:auto;margin:8px 0 16px}div.tw>table{margin:0}\n"
	/* a scrolling table shows that it scrolls: a shadow at each edge with more beyond it
	 * (the white covers scroll with the content, the shadows stay at the edges, so a
	 * shadow shows only where the covers have moved away) */
	"div.tw{background:linear-gradient(to right,#fff 30%,#fff0) left/24px "
	"100% no-repeat local,linear-gradient(to left,#fff 30%,#fff0) right/24px 100% "
	"no-repeat local,radial-gradient(farthest-side at 0 50%,#0003,#0000) left/12px 100% "
	"no-repeat scroll,radial-gradient(farthest-side at 100% 50%,#0003,#0000) right/12px "
	"100% no-repeat scroll}\n"
	/* a phone's width: the facts and findings tables keep their fixed column shares and
	 * wrap their text; every other table scrolls sideways inside the page when its
	 * numbers do not fit (a number is never split across lines), so nothing reaches past
	 * the window (480 px checked) */
	"@media (max-width:600px){body{padding:8px}table{font-size:12px}th,td{padding:3px "
	"4px}table:not(.facts):not(#findings-table){display:block;overflow-x:auto;background:"
	"linear-gradient(to right,#fff 30%,#fff0) left/24px 100% no-repeat local,"
	"linear-gradient(to left,#fff 30%,#fff0) right/24px 100% no-repeat local,"
	"radial-gradient(farthest-side at 0 50%,#0003,#0000) left/12px 100% no-repeat scroll,"
	"radial-gradient(farthest-side at 100% 50%,#0003,#0000) right/12px 100% no-repeat "
	"scroll}#findings-table{min-width:560px}table.metrics "
	"td:first-child{min-width:6em}ul.caveats{padding-left:14px}"
	"code{font-size:12px}table.facts col.key{width:40%}table.facts "
	"col.source{width:22%}}\n"
	/* a phone's width: each key number stacks, its context, reference and caveats under
	 * the figure instead of in columns off the screen's edge */
	"@media (max-width:600px){table.keynums,table.keynums tbody,table.keynums tr,"
	"table.keynums th,table.keynums td{display:block;width:auto}table.keynums thead"
	"{display:none}table.keynums{background:none}table.keynums tr{border-top:1px solid "
	"var(--line);padding:4px 0}table.keynums th,table.keynums td{border:none;text-align:left;"
	"padding:2px 0}table.keynums td:empty{display:none}"
	"table.keynums td:nth-child(4):not(:empty)::before{content:\"reference: \";"
	"color:var(--muted)}}\n"
	".caveat{color:var(--warn)}ul.caveats{margin:4px 0 12px;padding-left:20px;font-size:14px}"
	"ul.caveats li.info{color:var(--muted)}td.notes{font-size:13px}.unreliable{border:1px "
	"solid var(--warn);border-radius:6px;padding:8px 12px;color:var(--warn)}\n"
	"@media print{body{max-width:none;padding:0}button.copy{display:none}details{display:block}"
	"h2{break-after:avoid}table,svg{break-inside:avoid}}\n";

static const char js_copy[] =
	"function plCopy(b){var t=b.previousElementSibling.textContent;"
	"function done(){b.textContent='copied';setTimeout(function(){b.textContent='copy'},1500)}"
	"if(navigator.clipboard&&window.isSecureContext){navigator.clipboard.writeText(t).then("
	"done,"
	"function(){})}else{var "
	"r=document.createRange();r.selectNodeContents(b.previousElementSibling);"
	"var "
	"s=window.getSelection();s.removeAllRanges();s.addRange(r);try{document.execCommand('copy')"
	";"
	"done()}catch(e){}}}\n";

/* @s escaped as it is: attribute values, <code>, and cells kept on one line by CSS. */
static void esc(struct pl_buf *b, const char *s)
{
	pl_html_escape(b, s);
}

/* @s escaped as prose: each number stays on the line of its unit (pl_html_text()). */
static void txt(struct pl_buf *b, const char *s)
{
	pl_html_text(b, s);
}

/* Where a metric name may wrap: after these (a word itself never breaks). */
#define METRIC_BREAKS "(_/.,"

/* A finding's measured evidence (pl_report_annotate()), under what was observed. */
static void html_evidence(struct pl_buf *b, const json_t *finding)
{
	const json_t *ev = json_object_get(finding, "evidence");
	if (!pl_json_str(ev, "text"))
		return;
	pl_buf_puts(b, "<div class=\"evidence\"><b>Measured here:</b> ");
	txt(b, pl_json_str(ev, "text"));
	pl_buf_puts(b, " (<a href=\"#bench-");
	esc(b, pl_json_str(ev, "benchmark"));
	pl_buf_puts(b, "\">bench ");
	esc(b, pl_json_str(ev, "benchmark"));
	pl_buf_puts(b, "</a>)</div>");
}

static void section_findings(struct pl_buf *b, const json_t *check)
{
	const json_t *sum = json_object_get(check, "summary");
	pl_buf_puts(b, "<h2 id=\"findings\">Findings</h2>\n<p>Workload <b>");
	txt(b, pl_json_str(check, "workload"));
	pl_buf_printf(b, "</b>: %lld critical, %lld warnings, %lld info.</p>\n",
		      pl_json_int(sum, "crit"), pl_json_int(sum, "warn"), pl_json_int(sum, "info"));
	const json_t *arr = json_object_get(check, "findings");
	if (json_array_size(arr) == 0) {
		pl_buf_puts(b, "<p>No findings: every rule for this workload passed.</p>\n");
		return;
	}
	pl_buf_puts(b, "<div class=\"tw\"><table id=\"findings-table\"><thead><tr><th>severity</th>"
		       "<th>finding</th><th>observed</th><th>expected</th><th>fix</th></tr></thead>"
		       "<tbody>\n");
	size_t i;
	json_t *x;
	json_array_foreach(arr, i, x)
	{
		const char *sev = pl_json_str(x, "severity"), *id = pl_json_str(x, "id");
		pl_buf_puts(b, "<tr class=\"finding\" data-id=\"");
		esc(b, id);
		pl_buf_puts(b, "\"><td><span class=\"sev sev-");
		esc(b, sev);
		pl_buf_puts(b, "\">");
		for (const char *p = sev; p && *p; p++)
			pl_buf_printf(b, "%c", *p >= 'a' && *p <= 'z' ? *p - 32 : *p);
		pl_buf_puts(b, "</span></td><td><b>");
		txt(b, pl_json_str(x, "title"));
		if (pl_json_str(x, "subject")) {
			pl_buf_puts(b, ": ");
			txt(b, pl_json_str(x, "subject"));
		}
		pl_buf_puts(b, "</b>");
		if (json_is_true(json_object_get(x, "risky")))
			pl_buf_puts(b, " <i>(risky setting)</i>");
		pl_buf_puts(b, "<br><span class=\"muted\">");
		esc(b, pl_json_str(x, "id"));
		pl_buf_puts(b, "</span><details><summary>why</summary>");
		txt(b, pl_json_str(x, "rationale"));
		pl_buf_puts(b, "<br>Source: ");
		const char *src = pl_json_str(x, "source");
		if (src && pl_startswith(src, "https://")) {
			size_t n = strcspn(src, " ;");
			char *url = pl_xasprintf("%.*s", (int)n, src);
			pl_buf_puts(b, "<a href=\"");
			esc(b, url);
			pl_buf_puts(b, "\">");
			txt(b, src);
			pl_buf_puts(b, "</a>");
			free(url);
		} else {
			txt(b, src);
		}
		pl_buf_puts(b, "</details></td><td>");
		txt(b, pl_json_str(x, "observed"));
		html_evidence(b, x);
		pl_buf_puts(b, "</td><td>");
		txt(b, pl_json_str(x, "expected"));
		pl_buf_puts(b, "</td><td>");
		const json_t *fix = json_object_get(x, "fix");
		if (pl_json_str(fix, "command")) {
			pl_buf_puts(b, "<code class=\"cmd\">");
			esc(b, pl_json_str(fix, "command"));
			pl_buf_puts(b, "</code><button class=\"copy\" type=\"button\" "
				       "onclick=\"plCopy(this)\">copy</button>");
		}
		if (pl_json_str(fix, "tune")) {
			pl_buf_puts(b, "<br><span class=\"muted\">profile:</span> <code>");
			esc(b, pl_json_str(fix, "tune"));
			pl_buf_puts(b, "</code>");
		}
		pl_buf_puts(b, "</td></tr>\n");
	}
	pl_buf_puts(b, "</tbody></table></div>\n");
}

/* The facts table has fixed column widths (the CSS of table.facts): the key and source
 * columns keep their share of the page whatever the values are, and a long value
 * (kernel.cmdline.params) wraps inside its column. */
static void section_facts(struct pl_buf *b, const json_t *facts)
{
	pl_buf_puts(b, "<h2 id=\"facts\">Facts</h2>\n<details><summary>All collected facts "
		       "(value and where it was read)</summary>\n<table id=\"facts-table\" "
		       "class=\"facts\"><colgroup><col class=\"key\"><col class=\"value\"><col "
		       "class=\"source\"></colgroup><thead><tr><th>fact</th><th>value</th>"
		       "<th>source</th></tr></thead><tbody>\n");
	const char *key;
	json_t *e;
	json_object_foreach((json_t *)facts, key, e)
	{
		pl_buf_puts(b, "<tr><td><code>");
		pl_html_wbr(b, key, "._");
		pl_buf_puts(b, "</code></td><td>");
		const json_t *v = json_object_get(e, "value");
		if (v) {
			char *t = pl_figure_fact_text(key, v);
			size_t kl = strlen(key);
			/* a size keeps its number with its unit; a list wraps after its commas */
			if (kl > 6 && strcmp(key + kl - 6, "_bytes") == 0)
				pl_html_text(b, t);
			else
				pl_html_wbr(b, t, ",");
			free(t);
			pl_buf_puts(b, "</td><td>");
			pl_html_wbr(b, pl_json_str(e, "source"), "/_");
		} else {
			pl_buf_puts(b, "<span class=\"muted\">unavailable: ");
			txt(b, pl_json_str(e, "unavailable"));
			pl_buf_puts(b, "</span></td><td>");
		}
		pl_buf_puts(b, "</td></tr>\n");
	}
	pl_buf_puts(b, "</tbody></table></details>\n");
}

static void td_num(struct pl_buf *b, double v)
{
	char t[32];
	pl_buf_printf(b, "<td class=\"num\">%s</td>", pl_fmt_num(t, sizeof(t), v));
}

/* The caveats of a figure in its table cell: warnings by their short form, notes whole. */
static void caveat_cell(struct pl_buf *b, const struct pl_caveats *c)
{
	for (size_t i = 0; i < c->n; i++) {
		bool warn = c->v[i].kind == PL_CAVEAT_WARN;
		pl_buf_puts(b, i ? "; " : "");
		pl_buf_puts(b, warn ? "<span class=\"caveat\">" : "");
		txt(b, warn && c->v[i].tag ? c->v[i].tag : c->v[i].text);
		pl_buf_puts(b, warn ? "</span>" : "");
	}
}

/* The caveats, notes and info items of a benchmark, right under its table. */
static void caveat_list(struct pl_buf *b, const struct pl_caveats *c)
{
	if (c->n == 0)
		return;
	pl_buf_puts(b, "<ul class=\"caveats\">\n");
	for (size_t i = 0; i < c->n; i++) {
		enum pl_caveat_kind k = c->v[i].kind;
		pl_buf_printf(b, "<li class=\"%s\">%s",
			      k == PL_CAVEAT_WARN   ? "caveat"
			      : k == PL_CAVEAT_NOTE ? "note"
						    : "info",
			      k == PL_CAVEAT_WARN   ? "<b>Caveat:</b> "
			      : k == PL_CAVEAT_NOTE ? "Note: "
						    : "");
		txt(b, c->v[i].text);
		pl_buf_puts(b, "</li>\n");
	}
	pl_buf_puts(b, "</ul>\n");
}

/* The distribution of the single operations of each metric that timed them (net's round
 * trips, io's latency), beside the table of the runs' figures. */
static void per_op_table(struct pl_buf *b, const json_t *metrics)
{
	size_t i;
	const json_t *m;
	bool head = false;
	json_array_foreach(metrics, i, m)
	{
		struct pl_figure_per_op r;
		if (!pl_figure_per_op(m, &r))
			continue;
		if (!head)
			pl_buf_puts(b,
				    "<p>Single operations, each timed on its own (all measured "
				    "runs; the table above is over the runs' figures):</p>\n"
				    "<div class=\"tw\"><table class=\"metrics per-op\"><thead><tr>"
				    "<th>per operation</th><th class=\"num\">count</th>"
				    "<th class=\"num\">p50</th><th class=\"num\">mean</th>"
				    "<th class=\"num\">p99</th><th class=\"num\">p99.9</th>"
				    "<th class=\"num\">max</th></tr></thead><tbody>\n");
		head = true;
		pl_buf_puts(b, "<tr><td>");
		pl_html_wbr(b, pl_json_str(m, "name"), METRIC_BREAKS);
		pl_buf_puts(b, "</td>");
		const char *cells[] = { r.ops, r.p50, r.mean, r.p99, r.p999, r.max };
		for (size_t c = 0; c < sizeof(cells) / sizeof(cells[0]); c++) {
			pl_buf_puts(b, "<td class=\"num\">");
			esc(b, cells[c]);
			pl_buf_puts(b, "</td>");
		}
		pl_buf_puts(b, "</tr>\n");
	}
	if (head)
		pl_buf_puts(b, "</tbody></table></div>\n");
}

/* One bench document: a bar chart of medians per unit and direction (whiskers min..max),
 * the metrics table with each figure's caveats, the benchmark's caveats, notes and info,
 * and the environment. */
static void bench_one(struct pl_buf *b, const json_t *doc, const char *id)
{
	const char *name = pl_json_str(doc, "benchmark");
	pl_buf_puts(b, "<section class=\"bench\" id=\"");
	esc(b, id);
	pl_buf_puts(b, "\" data-benchmark=\"");
	esc(b, name);
	pl_buf_puts(b, "\"><h3>");
	char *h = pl_figure_bench_heading(doc, id);
	esc(b, h);
	free(h);
	pl_buf_puts(b, "</h3><p>");
	txt(b, pl_json_str(doc, "summary"));
	const char *status = pl_json_str(doc, "status");
	if (status && strcmp(status, "ok") != 0) {
		pl_buf_puts(b, ". <b>Status: ");
		txt(b, status);
		pl_buf_puts(b, "</b>");
		if (pl_json_str(doc, "reason")) {
			pl_buf_puts(b, " (");
			txt(b, pl_json_str(doc, "reason"));
			pl_buf_puts(b, ")");
		}
	}
	char *rl = pl_figure_runner_line(doc);
	if (rl) {
		pl_buf_puts(b, ". ");
		txt(b, rl);
		free(rl);
	}
	char *src = pl_figure_source(doc);
	pl_buf_puts(b, ". Source: ");
	esc(b, src);
	free(src);
	pl_buf_puts(b, ".</p>\n");
	const json_t *metrics = json_object_get(doc, "metrics");
	size_t n = json_array_size(metrics);
	/* one chart per unit and direction: bars of different units on one axis mean
	 * nothing, and each chart's "lower/higher is better" is its metrics' own */
	bool *done = pl_xcalloc(n + 1, sizeof(bool));
	struct pl_svg_bar *bars = pl_xcalloc(n + 1, sizeof(*bars));
	for (size_t i = 0; i < n; i++) {
		if (done[i])
			continue;
		const json_t *mi = json_array_get(metrics, i);
		const char *unit = pl_json_str(mi, "unit"), *better = pl_json_str(mi, "better");
		size_t nb = 0;
		for (size_t k = i; k < n; k++) {
			const json_t *mk = json_array_get(metrics, k);
			const char *u = pl_json_str(mk, "unit"), *bk = pl_json_str(mk, "better");
			if (done[k] || !u || !unit || strcmp(u, unit) != 0 || !bk || !better ||
			    strcmp(bk, better) != 0)
				continue;
			done[k] = true;
			bars[nb++] = (struct pl_svg_bar){ pl_json_str(mk, "name"),
							  pl_json_num(mk, "median"),
							  pl_json_num(mk, "min"),
							  pl_json_num(mk, "max") };
		}
		/* a chart whose every bar is 0 from min to max (io's residency under O_DIRECT
		 * or a cold cache: always 0) is one empty bar on a 0-1 axis; the table row
		 * says 0 */
		bool all_zero = true;
		for (size_t k = 0; k < nb; k++)
			all_zero &= bars[k].value == 0 && bars[k].lo == 0 && bars[k].hi == 0;
		if (all_zero)
			continue;
		char *title =
			pl_xasprintf("bench %s: median per metric, whiskers min to max", name);
		pl_svg_bar_chart(b, title, bars, nb, unit, better);
		free(title);
	}
	free(done);
	free(bars);
	if (n > 0)
		pl_buf_puts(b, "<div class=\"tw\"><table "
			       "class=\"metrics\"><thead><tr><th>metric</th><th>better</th>"
			       "<th class=\"num\">best</th><th class=\"num\">median</th>"
			       "<th class=\"num\">mean</th><th class=\"num\">stddev</th>"
			       "<th class=\"num\">worst run</th><th class=\"num\">n</th>"
			       "<th>caveats and notes</th></tr></thead><tbody>\n");
	size_t i;
	json_t *m;
	json_array_foreach(metrics, i, m)
	{
		struct pl_figure_row r;
		pl_figure_row(m, &r);
		const char *dir = pl_json_str(m, "better");
		pl_buf_puts(b, "<tr><td>");
		pl_html_wbr(b, pl_json_str(m, "name"), METRIC_BREAKS);
		pl_buf_puts(b, "</td><td>");
		esc(b, dir && strcmp(dir, "neither") != 0 ? dir : "");
		pl_buf_puts(b, "</td>");
		const char *cells[] = { r.best, r.median, r.mean, r.stddev, r.worst };
		for (size_t c = 0; c < sizeof(cells) / sizeof(cells[0]); c++) {
			pl_buf_puts(b, "<td class=\"num\">");
			esc(b, cells[c]);
			pl_buf_puts(b, "</td>");
		}
		pl_buf_printf(b, "<td class=\"num\">%lld</td><td class=\"notes\">",
			      pl_json_int(m, "n"));
		struct pl_caveats c = { 0 };
		pl_caveats_metric(doc, m, &c);
		caveat_cell(b, &c);
		pl_caveats_free(&c);
		pl_buf_puts(b, "</td></tr>\n");
	}
	if (n > 0)
		pl_buf_puts(b, "</tbody></table></div>\n");
	per_op_table(b, metrics);
	struct pl_caveats c = { 0 };
	pl_caveats_bench(doc, &c);
	caveat_list(b, &c);
	pl_caveats_free(&c);
	const json_t *env = json_object_get(doc, "environment");
	if (json_is_object(env)) {
		char *t = pl_env_text(env);
		pl_buf_puts(b, "<p class=\"env\">Environment: ");
		txt(b, t);
		pl_buf_puts(b, ".</p>\n");
		free(t);
	}
	pl_buf_puts(b, "</section>\n");
}

static void td_text(struct pl_buf *b, const char *s)
{
	pl_buf_puts(b, "<td>");
	txt(b, s);
	pl_buf_puts(b, "</td>");
}

static const char *metric_unit(const json_t *doc, const char *metric)
{
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(doc, "metrics"), i,
			   m) if (pl_json_str(m, "name") &&
				  strcmp(pl_json_str(m, "name"), metric) ==
					  0) return pl_json_str(m, "unit");
	return NULL;
}

/* perflab compare: metrics as rows, variants as columns; each cell the median with its
 * distribution-free CI, the ratio to the baseline with its CI, and the verdict. */
static void compare_one(struct pl_buf *b, const json_t *doc)
{
	const json_t *variants = json_object_get(doc, "variants");
	pl_buf_puts(b, "<section class=\"compare\"><h3>compare: ");
	size_t i;
	json_t *v;
	json_array_foreach(variants, i, v)
	{
		pl_buf_puts(b, i ? " vs " : "");
		esc(b, pl_json_str(v, "name"));
	}
	pl_buf_printf(b, "</h3><p>%lld interleaved rounds (+%lld warm-up), seed %lld, stopped: ",
		      pl_json_int(doc, "rounds_measured"), pl_json_int(doc, "rounds_warmup"),
		      pl_json_int(doc, "seed"));
	txt(b, pl_json_str(doc, "stop_reason"));
	pl_buf_puts(b, ". Cells: median [95% CI]; below it the change vs the baseline in % [CI] "
		       "(a difference when the baseline is ~0) and the verdict.</p>\n<div "
		       "class=\"tw\"><table class=\"comparison\"><thead><tr><th>metric</th>");
	json_array_foreach(variants, i, v)
	{
		pl_buf_puts(b, "<th>");
		esc(b, pl_json_str(v, "name"));
		pl_buf_puts(b, i == 0 ? " (baseline)</th>" : "</th>");
	}
	pl_buf_puts(b, "</tr></thead><tbody>\n");
	json_t *st;
	json_array_foreach(json_object_get(doc, "statistics"), i, st)
	{
		const char *metric = pl_json_str(st, "metric");
		const char *unit = metric_unit(doc, metric);
		pl_buf_puts(b, "<tr><td>");
		pl_html_wbr(b, metric, METRIC_BREAKS);
		pl_buf_puts(b, "</td>");
		size_t k;
		json_t *x;
		json_array_foreach(json_object_get(st, "variants"), k, x)
		{
			/* the terminal's units and figures (ns..s, bytes, % vs the baseline) */
			char *med = pl_report_cmp_median(x, unit ? unit : "");
			char *vs = pl_report_cmp_vs(x, unit ? unit : "");
			pl_buf_puts(b, "<td class=\"cmp\"><span class=\"num\">");
			esc(b, med);
			pl_buf_printf(b, " <span class=\"muted\">n=%lld</span></span>",
				      pl_json_int(x, "n"));
			if (vs) {
				pl_buf_puts(b, "<br><span class=\"num\">");
				esc(b, vs);
				pl_buf_puts(b, "</span>");
			}
			free(med);
			free(vs);
			if (pl_json_str(x, "verdict_text") &&
			    strcmp(pl_json_str(x, "verdict"), "baseline") != 0) {
				pl_buf_printf(b, "<br><span class=\"verdict verdict-%s\">",
					      pl_json_str(x, "verdict"));
				txt(b, pl_json_str(x, "verdict_text"));
				pl_buf_puts(b, "</span>");
			}
			pl_buf_puts(b, "</td>");
		}
		pl_buf_puts(b, "</tr>\n");
	}
	pl_buf_puts(b, "</tbody></table></div>\n");
	char *ctx = pl_report_cmp_context(doc);
	if (ctx && *ctx) {
		pl_buf_puts(b, "<p class=\"env\">");
		for (char *l = ctx, *nl; *l; l = nl + 1) {
			nl = strchr(l, '\n');
			*nl = '\0';
			pl_buf_puts(b, l == ctx ? "" : "<br>");
			txt(b, l);
		}
		pl_buf_puts(b, "</p>\n");
	}
	free(ctx);
	/* chart of the first metric (wall time) with the CI of each median as whiskers */
	const json_t *first = json_array_get(json_object_get(doc, "statistics"), 0);
	size_t n = json_array_size(json_object_get(first, "variants"));
	if (n > 0) {
		struct pl_svg_bar *bars = pl_xcalloc(n, sizeof(*bars));
		json_t *x;
		json_array_foreach(json_object_get(first, "variants"), i, x)
		{
			const json_t *ci = json_object_get(x, "median_ci");
			const json_t *lo = json_array_get(ci, 0), *hi = json_array_get(ci, 1);
			bars[i] = (struct pl_svg_bar){
				pl_json_str(x, "variant"), pl_json_num(x, "median"),
				json_is_number(lo) ? json_number_value(lo) : NAN,
				json_is_number(hi) ? json_number_value(hi) : NAN
			};
		}
		const char *metric = pl_json_str(first, "metric");
		bool hib = false;
		json_array_foreach(json_object_get(doc, "metrics"), i,
				   x) if (pl_json_str(x, "name") && metric &&
					  strcmp(pl_json_str(x, "name"), metric) == 0) hib =
			json_is_true(json_object_get(x, "higher_is_better"));
		char *title = pl_xasprintf("compare: median %s per variant, whiskers 95%% CI",
					   metric ? metric : "");
		pl_svg_bar_chart(b, title, bars, n, metric_unit(doc, metric),
				 hib ? "higher" : "lower");
		free(title);
		free(bars);
	}
	pl_buf_puts(b, "</section>\n");
}

/* The width and height of an SVG document from its root element's viewBox; 0 when it
 * has none. */
static int svg_viewbox(const char *svg, double *w, double *h)
{
	const char *root = strstr(svg, "<svg");
	const char *end = root ? strchr(root, '>') : NULL;
	const char *vb = root ? strstr(root, "viewBox=\"") : NULL;
	double x, y;
	if (!end || !vb || vb > end ||
	    sscanf(vb, "viewBox=\"%lf %lf %lf %lf\"", &x, &y, w, h) != 4 || !(*w > 0) || !(*h > 0))
		return -EINVAL;
	return 0;
}

/* @svg in an iframe as wide as its container and exactly as tall as the picture scaled
 * to that width (CSS aspect-ratio from the viewBox; inside, the svg is 100% wide with no
 * body margin), so there is neither a scrollbar nor a blank band at any page width. */
static void flame_iframe(struct pl_buf *b, const char *svg)
{
	double w = 1200, h = 480;
	svg_viewbox(svg, &w, &h); /* flame.c always writes one; the defaults are a fallback */
	pl_buf_printf(b,
		      "<div class=\"flame\"><iframe class=\"flame\" title=\"flame graph: click a "
		      "frame to zoom, hover for samples and %%\" style=\"aspect-ratio:%.0f/%.0f\" "
		      "srcdoc=\"",
		      w, h);
	esc(b, "<!DOCTYPE html><style>html,body{margin:0;overflow:hidden}svg{display:block;"
	       "width:100%;height:auto}</style>");
	esc(b, svg);
	pl_buf_puts(b, "\"></iframe></div>\n");
}

/* The flame graph of a profile document's folded stacks ({"stack","count"} items), with
 * the per-thread timeline strip, written by the profiler's own SVG writer and embedded
 * with iframe srcdoc so its script and ids stay separate from the page's. */
static void profile_flame(struct pl_buf *b, const json_t *doc)
{
	const json_t *folded = json_object_get(doc, "folded");
	if (json_array_size(folded) == 0)
		return;
	/* report --from checked the document at load (pl_report_merge_file): stacks and
	 * counts are valid and sum without overflow, and every timeline row has exactly
	 * "buckets" counts (at most 100000). The size checks below keep the renderer safe
	 * for any document all the same. */
	struct pl_flame *fl = pl_flame_new();
	size_t i;
	json_t *x;
	json_array_foreach(folded, i, x)
	{
		const json_t *st = json_object_get(x, "stack");
		json_int_t c = pl_json_int(x, "count");
		if (json_is_string(st) && c >= 0)
			pl_flame_add(fl, json_string_value(st), json_string_length(st),
				     (uint64_t)c);
	}
	/* timeline: one row per thread */
	const json_t *tl = json_object_get(doc, "timeline");
	const json_t *threads = json_object_get(tl, "threads");
	size_t rows = json_array_size(threads), nb = 0, cells = 0;
	json_int_t nbj = pl_json_int(tl, "buckets");
	if (nbj > 0 && (uint64_t)nbj <= SIZE_MAX)
		nb = (size_t)nbj;
	uint64_t *counts = NULL;
	char **labels = NULL;
	struct pl_flame_timeline strip = { 0 };
	if (rows > 0 && nb > 0 && !__builtin_mul_overflow(rows, nb, &cells) &&
	    cells <= SIZE_MAX / sizeof(uint64_t)) {
		counts = pl_xcalloc(cells, sizeof(uint64_t));
		labels = pl_xcalloc(rows, sizeof(char *));
		json_array_foreach(threads, i, x)
		{
			labels[i] =
				pl_xstrdup(pl_json_str(x, "label") ? pl_json_str(x, "label") : "?");
			const json_t *c = json_object_get(x, "counts");
			for (size_t k = 0; k < nb && k < json_array_size(c); k++) {
				json_int_t v = json_integer_value(json_array_get(c, k));
				counts[i * nb + k] = v > 0 ? (uint64_t)v : 0;
			}
		}
		strip = (struct pl_flame_timeline){ rows, nb, counts, (const char *const *)labels,
						    (double)pl_json_int(tl, "bucket_ms") };
	}
	char *svg = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&svg, &len);
	if (m) {
		int r = pl_flame_write_svg(fl, m, "Flame graph", strip.nrows ? &strip : NULL);
		fclose(m);
		if (r == 0)
			flame_iframe(b, svg);
		free(svg);
	}
	for (size_t k = 0; k < rows && labels; k++)
		free(labels[k]);
	free(labels);
	free(counts);
	pl_flame_free(fl);
}

static void profile_one(struct pl_buf *b, const json_t *doc)
{
	const json_t *ev = json_object_get(doc, "event");
	pl_buf_puts(b, "<section class=\"profile\"><h3>profile: ");
	esc(b, pl_json_str(doc, "target"));
	pl_buf_puts(b, "</h3>\n<div class=\"cards\">");
	char t[32];
	pl_buf_printf(b, "<div class=\"card\">samples<b>%lld</b></div>",
		      pl_json_int(doc, "samples"));
	pl_buf_printf(b, "<div class=\"card\">duration<b>%s s</b></div>",
		      pl_fmt_num(t, sizeof(t), pl_json_num(doc, "duration_s")));
	pl_buf_printf(b, "<div class=\"card\">user<b>%s %%</b></div>",
		      pl_fmt_num(t, sizeof(t), pl_json_num(doc, "user_pct")));
	pl_buf_printf(b, "<div class=\"card\">kernel<b>%s %%</b></div>",
		      pl_fmt_num(t, sizeof(t), pl_json_num(doc, "kernel_pct")));
	pl_buf_printf(b, "<div class=\"card\">lost<b>%s %%</b></div></div>\n",
		      pl_fmt_num(t, sizeof(t), pl_json_num(doc, "lost_pct")));
	pl_buf_puts(b, "<p>Event ");
	esc(b, pl_json_str(ev, "name"));
	if (pl_json_str(ev, "fallback")) {
		pl_buf_puts(b, " (fallback from cycles: ");
		esc(b, pl_json_str(ev, "fallback"));
		pl_buf_puts(b, ")");
	}
	if (json_is_true(json_object_get(ev, "user_only")))
		pl_buf_puts(b, ", user space only (no permission for kernel samples)");
	pl_buf_puts(b, ".</p>\n<div class=\"tw\"><table "
		       "class=\"top\"><thead><tr><th>function</th><th>module</th>"
		       "<th class=\"num\">self %</th><th class=\"num\">total %</th>"
		       "<th class=\"num\">samples</th></tr></thead><tbody>\n");
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(doc, "top_self"), i, x)
	{
		if (i >= 15)
			break;
		pl_buf_puts(b, "<tr>");
		td_text(b, pl_json_str(x, "function"));
		td_text(b, pl_json_str(x, "module"));
		td_num(b, pl_json_num(x, "self_pct"));
		td_num(b, pl_json_num(x, "total_pct"));
		pl_buf_printf(b, "<td class=\"num\">%lld</td></tr>\n", pl_json_int(x, "self"));
	}
	pl_buf_puts(b, "</tbody></table></div>\n");
	profile_flame(b, doc);
	pl_buf_puts(b, "</section>\n");
}

/* perflab tune diff/verify/apply: one row per profile item. */
static void tune_one(struct pl_buf *b, const json_t *doc)
{
	pl_buf_puts(b, "<section class=\"tune\"><h3>tune ");
	esc(b, pl_json_str(doc, "command"));
	pl_buf_puts(b, " ");
	esc(b, pl_json_str(doc, "profile"));
	pl_buf_puts(b, "</h3>\n<div class=\"tw\"><table "
		       "class=\"tune-items\"><thead><tr><th>plugin</th><th>item</th>"
		       "<th>current</th><th>wanted</th><th>state</th></tr></thead><tbody>\n");
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(doc, "items"), i, x)
	{
		pl_buf_puts(b, "<tr>");
		td_text(b, pl_json_str(x, "plugin"));
		pl_buf_puts(b, "<td><code>");
		esc(b, pl_json_str(x, "key"));
		pl_buf_puts(b, "</code>");
		if (pl_json_str(x, "device")) {
			pl_buf_puts(b, " (");
			esc(b, pl_json_str(x, "device"));
			pl_buf_puts(b, ")");
		}
		pl_buf_puts(b, "</td>");
		const json_t *cur = json_object_get(x, "current");
		char *ct = cur && !json_is_null(cur) ? pl_fact_value_text(cur) : pl_xstrdup("");
		td_text(b, ct);
		free(ct);
		const json_t *want = json_object_get(x, "wanted");
		char *wt = want && !json_is_null(want) ? pl_fact_value_text(want) : pl_xstrdup("");
		td_text(b, wt);
		free(wt);
		pl_buf_puts(b, "<td>");
		txt(b, pl_json_str(x, "state"));
		if (pl_json_str(x, "reason")) {
			pl_buf_puts(b, ": <span class=\"muted\">");
			txt(b, pl_json_str(x, "reason"));
			pl_buf_puts(b, "</span>");
		}
		pl_buf_puts(b, "</td></tr>\n");
	}
	pl_buf_puts(b, "</tbody></table></div></section>\n");
}

/* A section made of the documents in report[@key], each drawn by @one; left out when
 * there are none. */
static void section_list(struct pl_buf *b, const json_t *report, const char *key, const char *title,
			 void (*one)(struct pl_buf *, const json_t *))
{
	const json_t *arr = json_object_get(report, key);
	if (json_array_size(arr) == 0)
		return;
	pl_buf_printf(b, "<h2 id=\"%s\">%s</h2>\n", key, title);
	size_t i;
	json_t *x;
	json_array_foreach(arr, i, x) one(b, x);
}

/* The benchmarks, each in a section with a unique id (pl_figure_bench_anchors()). */
static void bench_sections(struct pl_buf *b, const json_t *report)
{
	const json_t *arr = json_object_get(report, "benchmarks");
	if (json_array_size(arr) == 0)
		return;
	pl_buf_puts(b, "<h2 id=\"benchmarks\">Benchmarks</h2>\n");
	json_t *ids = pl_figure_bench_anchors(arr);
	size_t i;
	json_t *x;
	json_array_foreach(arr, i, x) bench_one(b, x, json_string_value(json_array_get(ids, i)));
	json_decref(ids);
}

static void pl_report_html_sections(struct pl_buf *b, const json_t *report)
{
	bench_sections(b, report);
	pl_render_counters_html(b, report);
	section_list(b, report, "comparisons", "Comparisons", compare_one);
	section_list(b, report, "profiles", "Profiles", profile_one);
	section_list(b, report, "tune", "Tuning", tune_one);
}

int pl_report_write_html(FILE *out, const json_t *report)
{
	struct pl_buf b = { 0 };
	char *line = pl_report_machine_line(report);
	pl_buf_puts(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
			"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
			"<title>perflab report: ");
	esc(&b, line);
	pl_buf_puts(&b, "</title>\n<style>\n");
	pl_buf_puts(&b, css);
	pl_buf_puts(&b, "</style>\n<script>\n");
	pl_buf_puts(&b, js_copy);
	pl_buf_puts(&b, "</script>\n</head><body>\n<h1>perflab report</h1>\n<div class=\"muted\">"
			"Generated ");
	esc(&b, pl_json_str(report, "generated"));
	pl_buf_puts(&b, " by perflab ");
	esc(&b, pl_json_str(report, "perflab_version"));
	pl_buf_puts(&b, "</div>\n");
	free(line);
	/* "unreliable: ..." before the figures it qualifies (perflab-report(1): every output opens
	 * with it) */
	char *top = pl_caveats_report_top(report);
	if (top) {
		pl_buf_puts(&b, "<p class=\"unreliable\" id=\"unreliable\"><b>");
		txt(&b, top);
		pl_buf_puts(&b, "</b></p>\n");
	}
	free(top);
	pl_keynums_write_html(&b, report);

	const json_t *check = json_object_get(report, "check");
	if (check)
		section_findings(&b, check);
	pl_diff_report_html(&b, report);
	pl_report_html_sections(&b, report);
	const json_t *facts = json_object_get(report, "facts");
	if (facts)
		section_facts(&b, facts);
	pl_buf_puts(&b, "</body></html>\n");
	size_t w = fwrite(b.data, 1, b.len, out);
	int r = (w == b.len && !ferror(out)) ? 0 : -EIO;
	pl_buf_free(&b);
	return r;
}
