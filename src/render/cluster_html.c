/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The cluster document as one self-contained HTML page (render/cluster.h): nodes table,
 * drift, findings per node, per-node memory bars, latency heatmap and bandwidth matrix. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/cluster.h"
#include "render/htmltext.h"
#include "render/svg.h"
#include "util/cleanup.h"
#include "util/json.h"
#include "util/str.h"

static const char cluster_css[] =
	"body{font:15px/1.45 system-ui,sans-serif;color:#1b1f24;margin:0 auto;max-width:1180px;"
	"padding:16px}h2{border-bottom:1px solid #d0d7de;margin-top:28px}"
	"table{border-collapse:collapse;margin:8px 0 16px;font-size:14px}th,td{border:1px solid "
	"#d0d7de;padding:4px 8px;text-align:left;vertical-align:top;overflow-wrap:break-word}"
	"th{background:#f6f8fa}td.num{text-align:right;font-variant-numeric:tabular-nums}"
	"td.odd,span.odd{color:#b42318;font-weight:700}.muted{color:#59636e}"
	"svg.chart text{font:14px system-ui,sans-serif}svg.chart .bar{fill:#3b6fb6}"
	"svg.chart .tick{stroke:#59636e}svg.chart .err{stroke:#000}"
	"@media print{table,svg{break-inside:avoid}}\n"
	/* a table wider than the page scrolls sideways in its div.tw, with a shadow at each
	 * edge that has more beyond it (the single-machine report's wrapper, render/html.c) */
	"div.tw{overflow-x:auto;margin:8px 0 16px}div.tw>table{margin:0}"
	"div.tw{background:linear-gradient(to right,#fff 30%,#fff0) left/24px "
	"100% no-repeat local,linear-gradient(to left,#fff 30%,#fff0) right/24px 100% "
	"no-repeat local,radial-gradient(farthest-side at 0 50%,#0003,#0000) left/12px 100% "
	"no-repeat scroll,radial-gradient(farthest-side at 100% 50%,#0003,#0000) right/12px "
	"100% no-repeat scroll}.nw{white-space:nowrap}"
	/* the drift table's values wrap at their commas (a JSON list is one long word), its
	 * columns keep their shares of the page */
	"#drift-table{table-layout:fixed;width:100%}#drift-table td{overflow-wrap:anywhere}"
	"#drift-table col.key{width:22%}#drift-table col.maj{width:34%}"
	"span.cut{border-bottom:1px dotted #59636e}"
	"@media (max-width:600px){body{padding:8px}table{font-size:12px}th,td{padding:3px "
	"4px}#drift-table col.key{width:30%}#drift-table col.maj{width:30%}}\n";

/* The longest value a table cell shows whole, in bytes: a longer one (cpu.flags,
 * kernel.cmdline, a device list: up to kilobytes) is cut there, all of it in its title
 * (a reader's tooltip) and in report.json and report.md. */
#define CELL_MAX 160
/* The most items of a JSON list compared item by item with the majority's (the
 * comparison is quadratic in them). */
#define LIST_MAX 4096

static void esc(struct pl_buf *b, const char *s)
{
	pl_html_escape(b, s ? s : "");
}

/* @v (NULL -> "") as table text that wraps after its commas, cut at CELL_MAX bytes (a
 * UTF-8 sequence kept whole) with "..." and the whole value in the title of its span. */
static void cell_value(struct pl_buf *b, const char *v)
{
	v = v ? v : "";
	size_t len = strlen(v);
	if (len <= CELL_MAX) {
		pl_html_wbr(b, v, ",");
		return;
	}
	size_t cut = CELL_MAX;
	while (cut > 0 && ((unsigned char)v[cut] & 0xC0) == 0x80)
		cut--;
	pl_autofree char *head = pl_xasprintf("%.*s", (int)cut, v);
	pl_buf_puts(b, "<span class=\"cut\" title=\"");
	esc(b, v);
	pl_buf_puts(b, "\">");
	pl_html_wbr(b, head, ",");
	pl_buf_printf(b, "...</span> <span class=\"muted\">(%zu characters)</span>", len);
}

/* The items of the JSON list @a that are not in the list @b, as "x, y" of their JSON
 * texts (strings without quotes), malloc'd; NULL when there is none. */
static char *list_minus(const json_t *a, const json_t *b)
{
	struct pl_buf out = { 0 };
	size_t i, j;
	json_t *x, *y;
	json_array_foreach(a, i, x)
	{
		bool found = false;
		json_array_foreach(b, j, y) if ((found = json_equal(x, y))) break;
		if (found)
			continue;
		pl_autofree char *t = json_is_string(x)
					      ? pl_xstrdup(json_string_value(x))
					      : json_dumps(x, JSON_COMPACT | JSON_ENCODE_ANY);
		pl_buf_printf(&out, "%s%s", out.len ? ", " : "", t ? t : "?");
	}
	return out.len ? pl_buf_steal(&out) : (pl_buf_free(&out), NULL);
}

/* An odd node's value @v of a fact whose majority is @maj (NULL: none): when both are
 * JSON lists (cpu.flags, kernel.cmdline.params), the items it has more and less than
 * the majority ("+avx512f, avx512bw; -3dnowprefetch"), with the whole value in the
 * title; else the value (cell_value). */
static void odd_value(struct pl_buf *b, const char *maj, const char *v)
{
	pl_autojson json_t *jm = maj ? json_loads(maj, JSON_DECODE_ANY, NULL) : NULL;
	pl_autojson json_t *jv = v ? json_loads(v, JSON_DECODE_ANY, NULL) : NULL;
	if (!json_is_array(jm) || !json_is_array(jv) || json_array_size(jm) > LIST_MAX ||
	    json_array_size(jv) > LIST_MAX) {
		cell_value(b, v);
		return;
	}
	pl_autofree char *more = list_minus(jv, jm);
	pl_autofree char *less = list_minus(jm, jv);
	pl_autofree char *t =
		pl_xasprintf("%s%s%s%s%s", more ? "+" : "", more ? more : "",
			     more && less ? "; " : "", less ? "-" : "", less ? less : "");
	pl_buf_puts(b, "<span title=\"");
	esc(b, v);
	pl_buf_puts(b, "\">");
	if (more || less)
		cell_value(b, t);
	else /* the same items in another order */
		cell_value(b, v);
	pl_buf_printf(b, "</span> <span class=\"muted\">(%zu item%s; the majority's %zu)</span>",
		      json_array_size(jv), json_array_size(jv) == 1 ? "" : "s",
		      json_array_size(jm));
}

static void html_nodes(struct pl_buf *b, const json_t *c)
{
	pl_buf_puts(b, "<h2 id=\"nodes\">Nodes</h2>\n<div class=\"tw\"><table "
		       "id=\"nodes-table\"><tr>");
	for (size_t k = 0; k < PL_CLUSTER_NCOLS; k++)
		pl_buf_printf(b, "<th>%s</th>", pl_cluster_node_cols[k][1]);
	pl_buf_puts(b, "<th>findings</th></tr>\n");
	size_t i;
	json_t *row;
	json_array_foreach(json_object_get(c, "nodes"), i, row)
	{
		pl_buf_puts(b, "<tr>");
		for (size_t k = 0; k < PL_CLUSTER_NCOLS; k++) {
			pl_autofree char *t =
				pl_cluster_member_text(row, pl_cluster_node_cols[k][0]);
			pl_buf_puts(b, "<td>");
			pl_html_text(b, t);
			pl_buf_puts(b, "</td>");
		}
		pl_autofree char *fs = pl_cluster_findings_text(row);
		pl_buf_printf(b, "<td%s>",
			      json_object_get(row, "findings") ? "" : " class=\"odd\"");
		esc(b, fs);
		pl_buf_puts(b, "</td></tr>\n");
	}
	pl_buf_puts(b, "</table></div>\n");
}

static void html_drift(struct pl_buf *b, const json_t *c)
{
	const json_t *drift = json_object_get(c, "drift");
	const json_t *facts = json_object_get(drift, "facts");
	pl_buf_printf(b, "<h2 id=\"drift\">Drift</h2>\n<p>%zu facts differ across nodes.</p>\n",
		      json_array_size(facts));
	if (json_array_size(facts))
		pl_buf_puts(b, "<div class=\"tw\"><table id=\"drift-table\"><colgroup><col "
			       "class=\"key\"><col class=\"maj\"><col></colgroup><tr><th>fact</th>"
			       "<th>majority</th><th>odd nodes and their values</th></tr>\n");
	size_t i;
	json_t *d;
	json_array_foreach(facts, i, d)
	{
		pl_buf_puts(b, "<tr><td><code>");
		pl_html_wbr(b, pl_json_str(d, "key"), "._");
		pl_buf_puts(b, "</code></td><td>");
		const char *maj = pl_json_str(d, "majority");
		if (maj) {
			cell_value(b, maj);
			pl_buf_printf(b, " <span class=\"muted\">(%lld nodes)</span>",
				      pl_json_int(d, "majority_nodes"));
		} else {
			pl_buf_puts(b, "<span class=\"muted\">no majority</span>");
		}
		pl_buf_puts(b, "</td><td>");
		size_t vi;
		json_t *v;
		json_array_foreach(json_object_get(d, "values"), vi, v)
		{
			if (vi == 0 && maj)
				continue;
			pl_autofree char *who = pl_cluster_join_names(json_object_get(v, "nodes"));
			pl_buf_puts(b, "<span class=\"odd\">");
			esc(b, who);
			pl_buf_puts(b, ": </span>");
			odd_value(b, maj, pl_json_str(v, "value"));
			pl_buf_puts(b, "<br>");
		}
		pl_buf_puts(b, "</td></tr>\n");
	}
	if (json_array_size(facts))
		pl_buf_puts(b, "</table></div>\n");
	pl_autofree char *ex = pl_cluster_join_names(json_object_get(drift, "excluded"));
	pl_buf_puts(b, "<p class=\"muted\">Left out as naturally different: ");
	esc(b, ex);
	pl_buf_puts(b, "</p>\n");
}

static void html_findings(struct pl_buf *b, const json_t *c)
{
	const json_t *partial = json_object_get(json_object_get(c, "findings"), "partial");
	pl_buf_puts(b, "<h2 id=\"findings\">Findings on some nodes only</h2>\n");
	if (!json_array_size(partial)) {
		pl_buf_puts(b, "<p>None: every finding fires on every node or on none.</p>\n");
		return;
	}
	pl_buf_puts(b, "<div class=\"tw\"><table id=\"partial-findings\"><tr><th>severity</th>"
		       "<th>finding</th><th>on</th><th>not on</th></tr>\n");
	size_t i;
	json_t *f;
	json_array_foreach(partial, i, f)
	{
		pl_autofree char *on = pl_cluster_join_names(json_object_get(f, "nodes"));
		pl_autofree char *off = pl_cluster_join_names(json_object_get(f, "not_on"));
		pl_buf_puts(b, "<tr><td>");
		esc(b, pl_json_str(f, "severity"));
		pl_buf_puts(b, "</td><td>");
		esc(b, pl_json_str(f, "title"));
		pl_buf_puts(b, " <code>");
		esc(b, pl_json_str(f, "id"));
		pl_buf_puts(b, "</code></td><td>");
		esc(b, on);
		pl_buf_puts(b, "</td><td>");
		esc(b, off);
		pl_buf_puts(b, "</td></tr>\n");
	}
	pl_buf_puts(b, "</table></div>\n");
}

/* The caveats of section @sec and of its figures @rows as a list (id @id). */
static void html_caveats(struct pl_buf *b, const json_t *sec, const json_t *rows, const char *id)
{
	pl_autojson json_t *g = pl_cluster_caveat_groups(rows);
	const json_t *own = json_object_get(sec, "caveats");
	if (!json_array_size(own) && !json_array_size(g))
		return;
	pl_buf_printf(b, "<p>Caveats:</p>\n<ul id=\"%s\" class=\"caveats\">\n", id);
	size_t i;
	json_t *x;
	json_array_foreach(own, i, x)
	{
		pl_buf_puts(b, "<li>");
		esc(b, json_string_value(x));
		pl_buf_puts(b, "</li>\n");
	}
	json_array_foreach(g, i, x)
	{
		pl_buf_puts(b, "<li><strong>");
		esc(b, pl_json_str(x, "who"));
		pl_buf_puts(b, "</strong>: ");
		esc(b, pl_json_str(x, "text"));
		pl_buf_puts(b, "</li>\n");
	}
	pl_buf_puts(b, "</ul>\n");
}

static void html_memory(struct pl_buf *b, const json_t *c)
{
	const json_t *mem = json_object_get(c, "memory");
	const json_t *rows = json_object_get(mem, "nodes");
	size_t n = json_array_size(rows);
	if (!n) /* no figures, no section (a fleet of snapshots has none) */
		return;
	pl_buf_puts(b, "<h2 id=\"memory\">Memory bandwidth per node (STREAM triad)</h2>\n<p>");
	esc(b, pl_json_str(mem, "note"));
	pl_buf_puts(b, ".</p>\n");
	struct pl_svg_bar *bars = pl_xcalloc(n, sizeof(*bars));
	char **labels = pl_xcalloc(n, sizeof(*labels));
	size_t i;
	json_t *row;
	json_array_foreach(rows, i, row)
	{
		const char *odd = pl_json_str(row, "odd");
		labels[i] = pl_xasprintf(
			"%s%s", pl_json_str(row, "node"),
			odd ? (strcmp(odd, "below") == 0 ? " (odd: below)" : " (odd: above)") : "");
		/* the whisker: the runs' lowest and highest figure; without them the median
		 * +- stddev, never below the axis' 0 (a bandwidth is not negative) */
		double v = pl_json_num(row, "triad_gbs"), s = pl_json_num(row, "stddev_gbs");
		double lo = pl_json_num(row, "min_gbs"), hi = pl_json_num(row, "max_gbs");
		if (!isfinite(lo) || !isfinite(hi)) {
			lo = isfinite(s) ? v - s : NAN;
			hi = isfinite(s) ? v + s : NAN;
		}
		bars[i] = (struct pl_svg_bar){ .label = labels[i],
					       .value = v,
					       .lo = isnan(lo) ? NAN : fmax(lo, 0),
					       .hi = hi };
	}
	pl_svg_bar_chart(b, "STREAM triad per node", bars, n, "GB/s", "higher");
	for (i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	free(bars);
	json_t *o;
	json_array_foreach(json_object_get(mem, "odd"), i, o)
	{
		pl_buf_puts(b, "<p><span class=\"odd\">");
		esc(b, pl_json_str(o, "node"));
		pl_buf_printf(
			b, "</span>: %.3g GB/s, %s the other nodes' spread %.3g - %.3g GB/s</p>\n",
			pl_json_num(o, "triad_gbs"),
			strcmp(pl_json_str(o, "side"), "below") == 0 ? "below" : "above",
			pl_json_num(o, "others_lo_gbs"), pl_json_num(o, "others_hi_gbs"));
	}
	html_caveats(b, mem, rows, "memory-caveats");
}

/* A matrix as a table; with @heat each cell's background goes from white (lowest) to
 * red (highest), the number always written in the cell. */
static void html_matrix(struct pl_buf *b, const json_t *net, const char *key, const char *title,
			const char *id, bool heat)
{
	const json_t *names = json_object_get(net, "nodes");
	size_t n = json_array_size(names);
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			const json_t *v = pl_cluster_net_matrix(net, key, i, j);
			if (json_is_number(v)) {
				lo = fmin(lo, json_number_value(v));
				hi = fmax(hi, json_number_value(v));
			}
		}
	pl_buf_printf(b, "<h3>%s</h3>\n<div class=\"tw\"><table id=\"%s\"><tr><th></th>", title,
		      id);
	for (size_t j = 0; j < n; j++) {
		pl_buf_puts(b, "<th>");
		esc(b, json_string_value(json_array_get(names, j)));
		pl_buf_puts(b, "</th>");
	}
	pl_buf_puts(b, "</tr>\n");
	for (size_t i = 0; i < n; i++) {
		pl_buf_puts(b, "<tr><th>");
		esc(b, json_string_value(json_array_get(names, i)));
		pl_buf_puts(b, "</th>");
		for (size_t j = 0; j < n; j++) {
			const json_t *v = pl_cluster_net_matrix(net, key, i, j);
			if (!json_is_number(v)) {
				pl_buf_puts(b, "<td class=\"num muted\">-</td>");
				continue;
			}
			double x = json_number_value(v);
			double t = hi > lo ? (x - lo) / (hi - lo) : 0;
			if (heat)
				pl_buf_printf(
					b,
					"<td class=\"num\" style=\"background:rgb(255,%d,%d)\">"
					"%.3g</td>",
					(int)(255 - 140 * t), (int)(255 - 160 * t), x);
			else
				pl_buf_printf(b, "<td class=\"num\">%.3g</td>", x);
		}
		pl_buf_puts(b, "</tr>\n");
	}
	pl_buf_puts(b, "</table></div>\n");
}

static void html_network(struct pl_buf *b, const json_t *net)
{
	pl_buf_puts(b, "<h2 id=\"network\">Network</h2>\n<p>");
	esc(b, pl_json_str(net, "method"));
	pl_buf_puts(b, "</p>\n");
	char t[128];
	snprintf(t, sizeof(t), "One-way latency, us (round trip / 2), %lld B",
		 pl_json_int(net, "latency_bytes"));
	html_matrix(b, net, "latency_oneway_us", t, "latency-heatmap", true);
	snprintf(t, sizeof(t), "Round trip, us, %lld B", pl_json_int(net, "latency_bytes"));
	html_matrix(b, net, "latency_rtt_us", t, "rtt-matrix", true);
	snprintf(t, sizeof(t), "Bandwidth, GB/s, %lld B messages",
		 pl_json_int(net, "bandwidth_bytes"));
	html_matrix(b, net, "bandwidth_gbs", t, "bandwidth-matrix", false);
	const json_t *tcp = json_object_get(net, "tcp");
	if (tcp) {
		pl_buf_puts(b, "<p>");
		esc(b, pl_json_str(tcp, "method"));
		pl_buf_puts(b, ".</p>\n");
		snprintf(t, sizeof(t), "TCP round trip, us, %lld B (--net-tcp)",
			 pl_json_int(tcp, "bytes"));
		html_matrix(b, tcp, "latency_rtt_us", t, "tcp-matrix", true);
		if (json_is_number(json_object_get(tcp, "median_over_mpi")))
			pl_buf_printf(b,
				      "<p>TCP's round trip is %.3gx MPI's (median over the "
				      "pairs).</p>\n",
				      pl_json_num(tcp, "median_over_mpi"));
	}
	const json_t *sp = json_object_get(net, "slowest_pair");
	if (sp) {
		pl_buf_puts(b, "<p>Slowest pair: <span class=\"odd\">");
		esc(b, pl_json_str(sp, "a"));
		pl_buf_puts(b, " - ");
		esc(b, pl_json_str(sp, "b"));
		pl_buf_printf(b, "</span>, %.3g us one-way.</p>\n", pl_json_num(sp, "oneway_us"));
	}
	const json_t *slow = json_object_get(net, "slow_nodes");
	if (json_array_size(slow)) {
		pl_autofree char *s = pl_cluster_join_names(slow);
		pl_buf_puts(b, "<p>Nodes whose every pair is slow: <span class=\"odd\">");
		esc(b, s);
		pl_buf_puts(b, "</span>.</p>\n");
	}
	html_caveats(b, net, json_object_get(net, "pairs"), "network-caveats");
}

int pl_cluster_write_html(FILE *out, const json_t *c)
{
	struct pl_buf b = { 0 };
	const json_t *cnt = json_object_get(c, "node_count");
	pl_buf_puts(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
			"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
			"<title>perflab cluster report</title>\n<style>\n");
	pl_buf_puts(&b, cluster_css);
	pl_buf_puts(&b, "</style>\n</head><body>\n<h1>perflab cluster report</h1>\n"
			"<p class=\"muted\">Generated ");
	esc(&b, pl_json_str(c, "generated"));
	pl_buf_puts(&b, " by perflab ");
	esc(&b, pl_json_str(c, "perflab_version"));
	pl_buf_printf(&b, ": %lld nodes (%lld ok, %lld failed), workload ",
		      pl_json_int(cnt, "total"), pl_json_int(cnt, "ok"),
		      pl_json_int(cnt, "failed"));
	esc(&b, pl_json_str(c, "workload"));
	pl_buf_puts(&b, ".</p>\n");
	pl_autofree char *intr = pl_cluster_interrupted_text(c);
	if (intr) {
		pl_buf_puts(&b, "<p id=\"interrupted\"><strong>");
		esc(&b, intr);
		pl_buf_puts(&b, ".</strong></p>\n");
	}
	html_nodes(&b, c);
	html_drift(&b, c);
	html_findings(&b, c);
	html_memory(&b, c);
	const json_t *net = json_object_get(c, "network");
	if (net)
		html_network(&b, net);
	pl_buf_puts(&b, "</body></html>\n");
	size_t w = fwrite(b.data, 1, b.len, out);
	int r = (w == b.len && !ferror(out)) ? 0 : -EIO;
	pl_buf_free(&b);
	return r;
}
