/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "render/keynums.h"

#include <stdbool.h>
#include <string.h>

#include "render/htmltext.h"
#include "render/markdown.h"
#include "render/svg.h"
#include "report/figures.h"
#include "util/cleanup.h"
#include "util/escape.h"
#include "util/json.h"
#include "util/log.h"

/* The caveats of row @r joined with "; " into @b (nothing when it has none). */
static void caveat_list(struct pl_buf *b, const json_t *r)
{
	size_t k;
	const json_t *c;
	json_array_foreach(json_object_get(r, "caveats"), k, c)
		pl_buf_printf(b, "%s%s", k ? "; " : "", json_string_value(c));
}

void pl_keynums_write_text(FILE *out, const json_t *report)
{
	const json_t *rows = json_object_get(report, "key_numbers");
	const char *b = pl_style(out, "bold"), *rs = pl_style(out, "reset");
	size_t i;
	const json_t *r;
	json_array_foreach(rows, i, r)
	{
		pl_autofree char *t = pl_str_escape(pl_json_str(r, "text"), PL_ESC_TERM);
		const char *name = pl_json_str(r, "name");
		if (strcmp(name, "machine") == 0) {
			fprintf(out, "%s%s%s\n", b, t, rs);
			/* right under the machine line: "unreliable: machine not idle ..." */
			pl_autofree char *top = pl_caveats_report_top(report);
			if (top) {
				pl_autofree char *et = pl_str_escape(top, PL_ESC_TERM);
				fprintf(out, "%s%s%s\n", pl_style(out, "yellow"), et, rs);
			}
			continue;
		}
		struct pl_buf l = { 0 };
		const char *d = pl_json_str(r, "detail"), *ref = pl_json_str(r, "reference");
		if (d && *d)
			pl_buf_printf(&l, "  %s", d);
		pl_autofree char *po = pl_figure_per_op_text(json_object_get(r, "per_op"));
		if (po)
			pl_buf_printf(&l, "; single operations: %s", po);
		if (ref && *ref)
			pl_buf_printf(&l, "; %s", ref);
		struct pl_buf cav = { 0 };
		caveat_list(&cav, r);
		if (cav.len)
			pl_buf_printf(&l, "  [%s]", cav.data);
		pl_buf_free(&cav);
		pl_autofree char *e = pl_str_escape(l.data ? l.data : "", PL_ESC_TERM);
		fprintf(out, "  %-13s %s%s%s%s\n", name, b, t, rs, e);
		pl_buf_free(&l);
	}
}

void pl_keynums_write_markdown(FILE *out, const json_t *report)
{
	const json_t *rows = json_object_get(report, "key_numbers");
	if (json_array_size(rows) == 0)
		return;
	fputs("## Key numbers\n\n| | figure | context | reference | caveats |\n"
	      "|---|--:|---|---|---|\n",
	      out);
	const char *wl = pl_json_str(json_object_get(report, "check"), "workload");
	size_t i;
	const json_t *r;
	json_array_foreach(rows, i, r)
	{
		const char *sec = pl_json_str(r, "section");
		/* the anchors Markdown viewers derive from the headings report.md writes */
		if (strcmp(sec, "facts") == 0) {
			fputs("| [machine](#facts) | ", out);
		} else if (strcmp(sec, "findings") == 0) {
			fputs("| [findings](#findings-workload-", out);
			pl_report_md_anchor(out, wl ? wl : "");
			fputs(") | ", out);
		} else if (*sec) {
			fputs("| [", out);
			pl_report_md_cell(out, pl_json_str(r, "name"));
			fputs("](#", out);
			pl_report_md_anchor(out, sec);
			fputs(") | ", out);
		} else {
			fputs("| ", out);
			pl_report_md_cell(out, pl_json_str(r, "name"));
			fputs(" | ", out);
		}
		pl_report_md_cell(out, pl_json_str(r, "text"));
		fputs(" | ", out);
		pl_report_md_cell(out, pl_json_str(r, "detail"));
		pl_autofree char *po = pl_figure_per_op_text(json_object_get(r, "per_op"));
		if (po) {
			fputs("; single operations: ", out);
			pl_report_md_cell(out, po);
		}
		fputs(" | ", out);
		pl_report_md_cell(out, pl_json_str(r, "reference"));
		struct pl_buf cav = { 0 };
		caveat_list(&cav, r); /* beside the figure; its section has them in full */
		fputs(" | ", out);
		pl_report_md_cell(out, cav.data);
		fputs(" |\n", out);
		pl_buf_free(&cav);
	}
	fputc('\n', out);
}

void pl_keynums_write_html(struct pl_buf *b, const json_t *report)
{
	const json_t *rows = json_object_get(report, "key_numbers");
	if (json_array_size(rows) == 0)
		return;
	pl_buf_puts(b, "<section id=\"key-numbers\"><h2>Key numbers</h2>\n<div class=\"tw\"><table "
		       "class=\"keynums\">"
		       "<thead><tr><th></th><th class=\"num\">figure</th><th>context</th>"
		       "<th>reference</th><th>caveats</th></tr></thead><tbody>\n");
	size_t i;
	const json_t *r;
	json_array_foreach(rows, i, r)
	{
		const char *sec = pl_json_str(r, "section");
		pl_buf_puts(b, "<tr><th>");
		if (*sec) {
			pl_buf_puts(b, "<a href=\"#");
			pl_html_escape(b, sec);
			pl_buf_puts(b, "\">");
		}
		pl_html_escape(b, pl_json_str(r, "name"));
		pl_buf_puts(b, *sec ? "</a></th>" : "</th>");
		/* a figure right-aligned on one line; the machine line and reasons wrap, and
		 * a reason why there is no figure is not bold */
		bool fig = json_is_number(json_object_get(r, "value"));
		bool strong = fig || strcmp(sec, "facts") == 0 || strcmp(sec, "findings") == 0;
		pl_buf_puts(b, fig ? "<td class=\"num\">" : "<td>");
		pl_buf_puts(b, strong ? "<b>" : "");
		if (fig)
			pl_html_escape(b, pl_json_str(r, "text")); /* td.num: on one line */
		else
			pl_html_text(b, pl_json_str(r, "text"));
		pl_buf_puts(b, strong ? "</b></td><td>" : "</td><td>");
		pl_html_text(b, pl_json_str(r, "detail"));
		pl_autofree char *po = pl_figure_per_op_text(json_object_get(r, "per_op"));
		if (po) {
			pl_buf_puts(b, "; single operations: ");
			pl_html_text(b, po);
		}
		pl_buf_puts(b, "</td><td>");
		pl_html_text(b, pl_json_str(r, "reference"));
		pl_buf_puts(b, "</td><td>");
		/* listed beside the figure (not folded away: print and PDF show them too) */
		const json_t *cav = json_object_get(r, "caveats");
		if (json_array_size(cav)) {
			pl_buf_puts(b, "<ul class=\"caveats\">");
			size_t k;
			const json_t *c;
			json_array_foreach(cav, k, c)
			{
				pl_buf_puts(b, "<li>");
				pl_html_text(b, json_string_value(c));
				pl_buf_puts(b, "</li>");
			}
			pl_buf_puts(b, "</ul>");
		}
		pl_buf_puts(b, "</td></tr>\n");
	}
	pl_buf_puts(b, "</tbody></table></div></section>\n");
}
