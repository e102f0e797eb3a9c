/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "render/summary.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "render/counters.h"
#include "render/diff.h"
#include "render/keynums.h"
#include "report/figures.h"
#include "util/cleanup.h"
#include "util/escape.h"
#include "util/json.h"
#include "util/log.h"
#include "util/str.h"

void pl_report_print_summary(FILE *out, const json_t *report, const char *dir)
{
	const char *w = pl_style(out, "yellow"), *r = pl_style(out, "reset");
	pl_keynums_write_text(out, report);
	const json_t *check = json_object_get(report, "check");
	const json_t *arr = json_object_get(check, "findings");
	size_t i, shown = 0;
	json_t *x;
	json_array_foreach(arr, i, x)
	{
		if (strcmp(pl_json_str(x, "severity"), "info") == 0 || shown >= 5)
			continue;
		const json_t *fix = json_object_get(x, "fix");
		/* subjects and fix commands carry machine-tree names: escape controls */
		char *subj = pl_str_escape(pl_json_str(x, "subject"), PL_ESC_TERM);
		fprintf(out, "  [%s] %s%s%s\n", pl_json_str(x, "severity"), pl_json_str(x, "title"),
			*subj ? ": " : "", subj);
		free(subj);
		if (pl_json_str(fix, "command")) {
			char *cmd = pl_str_escape(pl_json_str(fix, "command"), PL_ESC_TERM);
			fprintf(out, "         fix: %s\n", cmd);
			free(cmd);
		}
		const char *ev = pl_json_str(json_object_get(x, "evidence"), "text");
		if (ev) { /* {subject} and the via note are machine-tree text */
			char *e = pl_str_escape(ev, PL_ESC_TERM);
			fprintf(out, "         measured: %s\n", e);
			free(e);
		}
		shown++;
	}
	/* key numbers: the first metric of every benchmark that ran, with its caveats (tags
	 * inline), the benchmark's notes and its info items (report/figures.h) */
	const json_t *benches = json_object_get(report, "benchmarks");
	if (json_array_size(benches) > 0)
		fprintf(out, "benchmarks (first figure of each, median, with its caveats):\n");
	/* where each result comes from, once any came from a --from file */
	bool saved = false;
	json_array_foreach(benches, i, x) saved |= pl_json_str(x, "from") != NULL;
	json_array_foreach(benches, i, x)
	{
		const json_t *m = json_array_get(json_object_get(x, "metrics"), 0);
		const char *st = pl_json_str(x, "status");
		if (!m || !st || strcmp(st, "ok") != 0) {
			fprintf(out, "  %-10s %s%s%s\n", pl_json_str(x, "benchmark"), st ? st : "?",
				pl_json_str(x, "reason") ? ": " : "",
				pl_json_str(x, "reason") ? pl_json_str(x, "reason") : "");
			continue;
		}
		char num[48];
		const char *lbl = pl_figure_better_label(pl_json_str(m, "better"));
		fprintf(out, "  %-10s %s %s%s%s%s", pl_json_str(x, "benchmark"),
			pl_json_str(m, "name"),
			pl_fmt_unit(num, sizeof(num), pl_json_num(m, "median"),
				    pl_json_str(m, "unit")),
			lbl ? " (" : "", lbl ? lbl : "", lbl ? ")" : "");
		struct pl_caveats mc = { 0 }, bc = { 0 };
		pl_caveats_metric(x, m, &mc);
		pl_caveats_bench(x, &bc);
		size_t ntag = 0;
		const struct pl_caveats *both[] = { &mc, &bc };
		for (size_t l = 0; l < 2; l++)
			for (size_t k = 0; k < both[l]->n; k++)
				if (both[l]->v[k].kind == PL_CAVEAT_WARN && both[l]->v[k].tag &&
				    !both[l]->v[k].metric)
					fprintf(out, "%s%s%s", ntag++ ? "; " : "  [", w,
						both[l]->v[k].tag);
		fprintf(out, "%s%s\n", ntag ? r : "", ntag ? "]" : "");
		if (saved) {
			pl_autofree char *src = pl_figure_source(x);
			pl_autofree char *e = pl_str_escape(src, PL_ESC_TERM);
			fprintf(out, "%13ssource: %s\n", "", e);
		}
		struct pl_buf info = { 0 };
		for (size_t k = 0; k < bc.n; k++) {
			const struct pl_caveat *c = &bc.v[k];
			/* notes and warnings without a short form in full (not the runner's
			 * spread warning: each figure has its own tag), info on one line */
			if (c->kind == PL_CAVEAT_INFO)
				pl_buf_printf(&info, "%s%s", info.len ? "; " : "", c->text);
			else if (c->kind == PL_CAVEAT_NOTE || c->metric ||
				 (!c->tag && !pl_startswith(c->text, "spread too wide")))
				fprintf(out, "%13s%s: %s\n", "",
					c->kind == PL_CAVEAT_NOTE ? "note" : "caveat", c->text);
		}
		/* the single operations behind the runs' figures (net's round trips, io's
		 * latency): their tail is what the medians hide */
		size_t k;
		const json_t *mk;
		json_array_foreach(json_object_get(x, "metrics"), k, mk)
		{
			pl_autofree char *po =
				pl_figure_per_op_text(json_object_get(mk, "latency_ns"));
			if (!po)
				continue;
			/* a metric name from a --from document: escape controls */
			pl_autofree char *mn = pl_str_escape(pl_json_str(mk, "name"), PL_ESC_TERM);
			fprintf(out, "%13sper operation, %s: %s\n", "", mn, po);
		}
		if (info.len)
			fprintf(out, "%13sinfo: %s\n", "", info.data);
		pl_buf_free(&info);
		pl_caveats_free(&mc);
		pl_caveats_free(&bc);
	}
	pl_render_counters_text(out, report);
	pl_diff_report_summary(out, report);
	if (dir)
		fprintf(out, "report written to %s/report.html (also report.md, report.json)\n",
			dir);
}
