/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A report's counter section as Markdown, HTML and terminal text (counters.h). */
#include "render/counters.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "render/htmltext.h"
#include "render/markdown.h"
#include "util/cleanup.h"
#include "util/escape.h"
#include "util/json.h"

/* The section, when there is something to show: a table or the reason there is none. */
static const json_t *section(const json_t *report)
{
	const json_t *c = json_object_get(report, "counters");
	return json_is_object(c) ? c : NULL;
}

/* Whether the section has a table: a core PMU, metrics and counted benchmarks. */
static bool has_table(const json_t *c)
{
	return json_is_true(json_object_get(c, "core_pmu")) &&
	       json_array_size(json_object_get(c, "metrics")) > 0 &&
	       json_array_size(json_object_get(c, "benchmarks")) > 0;
}

/* The line said instead of a table (malloc'd). */
static char *no_table_line(const json_t *c)
{
	const char *why = pl_json_str(c, "reason");
	if (!json_is_true(json_object_get(c, "core_pmu")))
		return pl_xasprintf("No hardware counters: %s.", why ? why : "no core PMU");
	if (why)
		return pl_xasprintf("No hardware counters: %s.", why);
	return pl_xstrdup("No benchmark ran, so nothing was counted.");
}

/* One cell: the value with its unit, or "n/a". */
static char *cell(const json_t *row, const json_t *metric)
{
	const char *name = pl_json_str(metric, "name");
	const json_t *v = json_object_get(json_object_get(row, "values"), name ? name : "");
	if (!json_is_number(v))
		return pl_xstrdup("n/a");
	const char *unit = pl_json_str(metric, "unit");
	return pl_xasprintf("%.3g%s%s", json_number_value(v), unit && *unit ? " " : "",
			    unit ? unit : "");
}

/* Each unavailable metric once, with its reason: "ipc: instructions not on this PMU". */
static char **reasons(const json_t *c, size_t *n)
{
	char **v = NULL;
	*n = 0;
	size_t i;
	json_t *row;
	json_array_foreach(json_object_get(c, "benchmarks"), i, row)
	{
		const char *k;
		json_t *why;
		json_object_foreach(json_object_get(row, "unavailable"), k, why)
		{
			char *t = pl_xasprintf("%s: unavailable: %s", k, json_string_value(why));
			bool seen = false;
			for (size_t j = 0; j < *n && !seen; j++)
				seen = !strcmp(v[j], t);
			if (seen) {
				free(t);
				continue;
			}
			v = pl_xrealloc(v, (*n + 1) * sizeof(char *));
			v[(*n)++] = t;
		}
	}
	return v;
}

static void reasons_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void pl_render_counters_markdown(FILE *out, const json_t *report)
{
	const json_t *c = section(report);
	if (!c)
		return;
	fputs("## Counters\n\n", out);
	if (!has_table(c)) {
		pl_autofree char *t = no_table_line(c);
		pl_report_md_cell(out, t);
		fputs("\n\n", out);
		return;
	}
	fputs("Counted system-wide while each benchmark ran (docs/metrics.md).\n\n| benchmark |",
	      out);
	const json_t *ms = json_object_get(c, "metrics");
	size_t i, k;
	json_t *m, *row;
	json_array_foreach(ms, k, m)
	{
		fputc(' ', out);
		pl_report_md_cell(out, pl_json_str(m, "name"));
		fputs(" |", out);
	}
	fputs("\n|---|", out);
	for (k = 0; k < json_array_size(ms); k++)
		fputs("---|", out);
	fputc('\n', out);
	json_array_foreach(json_object_get(c, "benchmarks"), i, row)
	{
		fputs("| ", out);
		pl_report_md_cell(out, pl_json_str(row, "benchmark"));
		fputs(" |", out);
		json_array_foreach(ms, k, m)
		{
			pl_autofree char *t = cell(row, m);
			fputc(' ', out);
			pl_report_md_cell(out, t);
			fputs(" |", out);
		}
		fputc('\n', out);
	}
	size_t n;
	char **why = reasons(c, &n);
	fputc('\n', out);
	for (i = 0; i < n; i++) {
		fputs("- ", out);
		pl_report_md_cell(out, why[i]);
		fputc('\n', out);
	}
	if (n)
		fputc('\n', out);
	reasons_free(why, n);
}

void pl_render_counters_html(struct pl_buf *b, const json_t *report)
{
	const json_t *c = section(report);
	if (!c)
		return;
	pl_buf_puts(b, "<h2 id=\"counters\">Counters</h2>\n");
	if (!has_table(c)) {
		pl_autofree char *t = no_table_line(c);
		pl_buf_puts(b, "<p>");
		pl_html_text(b, t);
		pl_buf_puts(b, "</p>\n");
		return;
	}
	pl_buf_puts(b, "<p class=\"muted\">Counted system-wide while each benchmark ran.</p>\n"
		       "<table><tr><th>benchmark</th>");
	const json_t *ms = json_object_get(c, "metrics");
	size_t i, k;
	json_t *m, *row;
	json_array_foreach(ms, k, m)
	{
		pl_buf_puts(b, "<th>");
		pl_html_text(b, pl_json_str(m, "name"));
		pl_buf_puts(b, "</th>");
	}
	pl_buf_puts(b, "</tr>\n");
	json_array_foreach(json_object_get(c, "benchmarks"), i, row)
	{
		pl_buf_puts(b, "<tr><td>");
		pl_html_text(b, pl_json_str(row, "benchmark"));
		pl_buf_puts(b, "</td>");
		json_array_foreach(ms, k, m)
		{
			pl_autofree char *t = cell(row, m);
			pl_buf_puts(b, "<td class=\"num\">");
			pl_html_text(b, t);
			pl_buf_puts(b, "</td>");
		}
		pl_buf_puts(b, "</tr>\n");
	}
	pl_buf_puts(b, "</table>\n");
	size_t n;
	char **why = reasons(c, &n);
	if (n)
		pl_buf_puts(b, "<ul>\n");
	for (i = 0; i < n; i++) {
		pl_buf_puts(b, "<li>");
		pl_html_text(b, why[i]);
		pl_buf_puts(b, "</li>\n");
	}
	if (n)
		pl_buf_puts(b, "</ul>\n");
	reasons_free(why, n);
}

void pl_render_counters_text(FILE *out, const json_t *report)
{
	const json_t *c = section(report);
	if (!c)
		return;
	if (!has_table(c)) {
		pl_autofree char *t = no_table_line(c);
		pl_autofree char *e = pl_str_escape(t, PL_ESC_TERM);
		fprintf(out, "counters: %s\n", e);
		return;
	}
	fprintf(out, "counters (system-wide, per benchmark):\n  %-10s", "");
	const json_t *ms = json_object_get(c, "metrics");
	size_t i, k;
	json_t *m, *row;
	json_array_foreach(ms, k, m)
	{
		pl_autofree char *e = pl_str_escape(pl_json_str(m, "name"), PL_ESC_TERM);
		fprintf(out, " %18s", e);
	}
	fputc('\n', out);
	json_array_foreach(json_object_get(c, "benchmarks"), i, row)
	{
		pl_autofree char *bn = pl_str_escape(pl_json_str(row, "benchmark"), PL_ESC_TERM);
		fprintf(out, "  %-10s", bn);
		json_array_foreach(ms, k, m)
		{
			pl_autofree char *t = cell(row, m);
			fprintf(out, " %18s", t);
		}
		fputc('\n', out);
	}
	size_t n;
	char **why = reasons(c, &n);
	for (i = 0; i < n; i++) {
		pl_autofree char *e = pl_str_escape(why[i], PL_ESC_TERM);
		fprintf(out, "  %s\n", e);
	}
	reasons_free(why, n);
}
