/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The cluster document's outputs (render/cluster.h): terminal summary, report.md, and
 * writing report.json, report.md and report.html (render/cluster_html.c) into a
 * directory. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render/cluster.h"
#include "render/markdown.h"
#include "report/cluster.h"
#include "util/json.h"
#include "util/cleanup.h"
#include "util/escape.h"
#include "util/log.h"
#include "util/outdir.h"
#include "util/str.h"

/* A scalar member as text ("-" when null or missing), malloc'd. */
char *pl_cluster_member_text(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	if (!v || json_is_null(v))
		return pl_xstrdup("-");
	if (json_is_string(v))
		return pl_xstrdup(json_string_value(v));
	if (json_is_integer(v) && strcmp(k, "mem_bytes") == 0) {
		char b[32];
		return pl_xstrdup(pl_fmt_bytes(b, sizeof(b), (double)json_integer_value(v)));
	}
	char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	return s ? s : pl_xstrdup("?");
}

/* "a, b, c" of a JSON array of strings, malloc'd. */
char *pl_cluster_join_names(const json_t *arr)
{
	struct pl_buf b = { 0 };
	size_t i;
	json_t *x;
	json_array_foreach(arr, i, x) pl_buf_printf(&b, "%s%s", i ? ", " : "",
						    json_is_string(x) ? json_string_value(x) : "?");
	if (!b.data)
		pl_buf_puts(&b, "");
	return pl_buf_steal(&b);
}

/* The columns of the nodes table: member of a node row, heading. */
const char *const pl_cluster_node_cols[PL_CLUSTER_NCOLS][2] = {
	{ "name", "node" },	    { "cpu_model", "CPU" }, { "cpus", "CPUs" },
	{ "mem_bytes", "memory" },  { "kernel", "kernel" }, { "clocksource", "clocksource" },
	{ "governor", "governor" }, { "thp", "THP" },	    { "tuned_profile", "tuned" },
};

char *pl_cluster_findings_text(const json_t *row)
{
	const json_t *f = json_object_get(row, "findings");
	if (!f)
		return pl_xstrdup(pl_json_str(row, "reason") ? pl_json_str(row, "reason") : "-");
	return pl_xasprintf("%lld crit, %lld warn, %lld info", pl_json_int(f, "crit"),
			    pl_json_int(f, "warn"), pl_json_int(f, "info"));
}

const json_t *pl_cluster_net_matrix(const json_t *net, const char *k, size_t i, size_t j)
{
	return json_array_get(json_array_get(json_object_get(net, k), i), j);
}

json_t *pl_cluster_caveat_groups(const json_t *rows)
{
	json_t *by = json_object(), *out = json_array();
	size_t i;
	json_t *r;
	json_array_foreach(rows, i, r)
	{
		pl_autofree char *who =
			pl_json_str(r, "node")
				? pl_xstrdup(pl_json_str(r, "node"))
				: pl_xasprintf("%s - %s",
					       pl_json_str(r, "a") ? pl_json_str(r, "a") : "?",
					       pl_json_str(r, "b") ? pl_json_str(r, "b") : "?");
		size_t k;
		json_t *x;
		json_array_foreach(json_object_get(r, "caveats"), k, x)
		{
			const char *t = json_string_value(x);
			if (!t)
				continue;
			json_t *g = json_object_get(by, t);
			if (!g) {
				g = json_object();
				json_object_set_new(g, "text", pl_json_string(t));
				json_object_set_new(g, "who", pl_json_string(who));
				json_object_set_new(by, t, g);
				json_array_append(out, g);
				continue;
			}
			pl_autofree char *w = pl_xasprintf("%s, %s", pl_json_str(g, "who"), who);
			json_object_set_new(g, "who", pl_json_string(w));
		}
	}
	json_decref(by);
	return out;
}

/* ---- terminal ---- */

/* The caveats of section @sec (its "caveats") and of its figures @rows, one line each. */
static void print_caveats(FILE *out, const char *what, const json_t *sec, const json_t *rows)
{
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(sec, "caveats"), i, x)
		fprintf(out, "%s caveat: %s\n", what, json_string_value(x));
	pl_autojson json_t *g = pl_cluster_caveat_groups(rows);
	json_array_foreach(g, i, x) fprintf(out, "%s caveat (%s): %s\n", what,
					    pl_json_str(x, "who"), pl_json_str(x, "text"));
}

/* A copy of @v whose strings are escaped for a terminal (pl_str_escape, PL_ESC_TERM):
 * node names, hostnames, fact values and findings come from the nodes' machines, and a
 * control sequence in one must not clear the screen or forge a line. The terminal
 * printers read only this copy. New reference. */
static json_t *term_safe(const json_t *v)
{
	if (json_is_string(v)) {
		pl_autofree char *e = pl_str_escape(json_string_value(v), PL_ESC_TERM);
		return pl_json_string(e);
	}
	if (json_is_array(v)) {
		json_t *a = json_array();
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x) json_array_append_new(a, term_safe(x));
		return a;
	}
	if (json_is_object(v)) {
		json_t *o = json_object();
		const char *k;
		json_t *x;
		json_object_foreach((json_t *)v, k, x) json_object_set_new(o, k, term_safe(x));
		return o;
	}
	return json_deep_copy(v);
}

/* One line per node: its facts and, when the document has them, its findings counts. */
static void print_nodes(FILE *out, const json_t *c)
{
	size_t i;
	json_t *row;
	json_array_foreach(json_object_get(c, "nodes"), i, row)
	{
		const char *st = pl_json_str(row, "status");
		if (!st || strcmp(st, "ok") != 0) {
			fprintf(out, "  %-16s FAILED: %s\n", pl_json_str(row, "name"),
				pl_json_str(row, "reason"));
			continue;
		}
		pl_autofree char *mem = pl_cluster_member_text(row, "mem_bytes");
		pl_autofree char *cpus = pl_cluster_member_text(row, "cpus");
		pl_autofree char *k = pl_cluster_member_text(row, "kernel");
		pl_autofree char *cs = pl_cluster_member_text(row, "clocksource");
		pl_autofree char *g = pl_cluster_member_text(row, "governor");
		pl_autofree char *t = pl_cluster_member_text(row, "thp");
		pl_autofree char *fs =
			json_object_get(row, "findings") ? pl_cluster_findings_text(row) : NULL;
		fprintf(out, "  %-16s %s CPUs, %s, Linux %s, %s, governor %s, THP %s%s%s\n",
			pl_json_str(row, "name"), cpus, mem, k, cs, g, t, fs ? "; " : "",
			fs ? fs : "");
	}
}

/* The drift section: at most @most facts (0: all), each with its majority and the odd
 * nodes, and with @values each other value and its nodes. */
static void print_drift(FILE *out, const json_t *c, size_t most, bool values)
{
	const json_t *drift = json_object_get(json_object_get(c, "drift"), "facts");
	fprintf(out,
		"drift: %zu fact%s differ across nodes (%zu naturally different keys "
		"left out)\n",
		json_array_size(drift), json_array_size(drift) == 1 ? "" : "s",
		json_array_size(json_object_get(json_object_get(c, "drift"), "excluded")));
	size_t i;
	json_t *d;
	json_array_foreach(drift, i, d)
	{
		if (most && i == most) {
			fprintf(out, "  ... %zu more in report.md\n",
				json_array_size(drift) - most);
			break;
		}
		pl_autofree char *odd = pl_cluster_join_names(json_object_get(d, "odd_nodes"));
		const char *maj = pl_json_str(d, "majority");
		if (maj)
			fprintf(out, "  %s: %s on %lld nodes; differs on %s\n",
				pl_json_str(d, "key"), maj, pl_json_int(d, "majority_nodes"), odd);
		else
			fprintf(out, "  %s: no majority (%zu values)\n", pl_json_str(d, "key"),
				json_array_size(json_object_get(d, "values")));
		size_t j;
		json_t *v;
		json_array_foreach(values ? json_object_get(d, "values") : NULL, j, v)
		{
			if (j == 0 && maj)
				continue;
			pl_autofree char *on = pl_cluster_join_names(json_object_get(v, "nodes"));
			fprintf(out, "    %s: %s\n", on, pl_json_str(v, "value"));
		}
	}
}

/* The "interrupted" section of @c in one line ("interrupted by SIGTERM (rank 0) during
 * the network phase: partial report; missing: ..."), or NULL when there is none. New
 * string. */
char *pl_cluster_interrupted_text(const json_t *c)
{
	const json_t *it = json_object_get(c, "interrupted");
	if (!it)
		return NULL;
	struct pl_buf b = { 0 };
	if (pl_json_str(it, "signal"))
		pl_buf_printf(&b, "interrupted by %s (rank %lld)", pl_json_str(it, "signal"),
			      pl_json_int(it, "rank"));
	else
		pl_buf_printf(&b, "stopped by --timeout %g s", pl_json_num(it, "timeout_s"));
	pl_buf_printf(&b, " during the %s phase: partial report",
		      pl_json_str(it, "phase") ? pl_json_str(it, "phase") : "?");
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(it, "missing"), i, m)
		pl_buf_printf(&b, "%s%s", i ? ", " : "; missing: ", json_string_value(m));
	return pl_buf_steal(&b);
}

static void print_summary(FILE *out, const json_t *c, const char *dir)
{
	const json_t *cnt = json_object_get(c, "node_count");
	fprintf(out, "cluster: %lld nodes (%lld ok, %lld failed), workload %s\n",
		pl_json_int(cnt, "total"), pl_json_int(cnt, "ok"), pl_json_int(cnt, "failed"),
		pl_json_str(c, "workload"));
	pl_autofree char *intr = pl_cluster_interrupted_text(c);
	if (intr)
		fprintf(out, "%s\n", intr);
	print_nodes(out, c);
	print_drift(out, c, 10, false);
	size_t i;
	const json_t *partial = json_object_get(json_object_get(c, "findings"), "partial");
	if (json_array_size(partial)) {
		fprintf(out, "findings on some nodes only:\n");
		json_t *f;
		json_array_foreach(partial, i, f)
		{
			pl_autofree char *on = pl_cluster_join_names(json_object_get(f, "nodes"));
			fprintf(out, "  [%s] %s: on %s\n", pl_json_str(f, "severity"),
				pl_json_str(f, "title"), on);
		}
	}
	const json_t *mem = json_object_get(c, "memory");
	json_t *o;
	json_array_foreach(json_object_get(mem, "odd"), i, o) fprintf(
		out,
		"memory: %s STREAM triad %.2f GB/s is %s the other nodes' spread [%.2f, %.2f]\n",
		pl_json_str(o, "node"), pl_json_num(o, "triad_gbs"), pl_json_str(o, "side"),
		pl_json_num(o, "others_lo_gbs"), pl_json_num(o, "others_hi_gbs"));
	print_caveats(out, "memory", mem, json_object_get(mem, "nodes"));
	const json_t *net = json_object_get(c, "network");
	if (net)
		print_caveats(out, "network", net, json_object_get(net, "pairs"));
	const json_t *sp = json_object_get(net, "slowest_pair");
	if (sp)
		fprintf(out,
			"network: slowest pair %s - %s: %.3g us one-way (%.3g us round trip) at "
			"%lld B\n",
			pl_json_str(sp, "a"), pl_json_str(sp, "b"), pl_json_num(sp, "oneway_us"),
			pl_json_num(sp, "rtt_us"), pl_json_int(net, "latency_bytes"));
	if (json_array_size(json_object_get(net, "slow_nodes"))) {
		pl_autofree char *s = pl_cluster_join_names(json_object_get(net, "slow_nodes"));
		fprintf(out, "network: every pair is slow on %s\n", s);
	}
	const json_t *tcp = json_object_get(net, "tcp");
	if (json_is_number(json_object_get(tcp, "median_over_mpi")))
		fprintf(out,
			"network: TCP's %lld B round trip is %.3gx MPI's (median over the pairs)\n",
			pl_json_int(tcp, "bytes"), pl_json_num(tcp, "median_over_mpi"));
	if (dir)
		fprintf(out, "report written to %s/report.{json,md,html}\n", dir);
}

/* perflab-mpi check: the findings of some nodes (with the nodes they are not on) and of
 * every node. */
static void print_findings(FILE *out, const json_t *c)
{
	static const char *const part[][2] = { { "partial", "on some nodes only" },
					       { "common", "on every node" } };
	for (size_t p = 0; p < 2; p++) {
		const json_t *arr = json_object_get(json_object_get(c, "findings"), part[p][0]);
		fprintf(out, "findings %s: %zu\n", part[p][1], json_array_size(arr));
		size_t i;
		json_t *f;
		json_array_foreach(arr, i, f)
		{
			pl_autofree char *on = pl_cluster_join_names(json_object_get(f, "nodes"));
			pl_autofree char *off = pl_cluster_join_names(json_object_get(f, "not_on"));
			const char *sub = pl_json_str(f, "subject");
			fprintf(out, "  [%s] %s%s%s (%s)", pl_json_str(f, "severity"),
				pl_json_str(f, "title"), sub ? ": " : "", sub ? sub : "",
				pl_json_str(f, "id"));
			if (p == 0)
				fprintf(out, ": on %s; not on %s", on, off);
			fputc('\n', out);
		}
	}
}

/* perflab-mpi bench NAME: a table per metric, one row per node, the odd node marked. */
static void print_bench(FILE *out, const json_t *c)
{
	const json_t *b = json_object_get(c, "benchmark");
	size_t i, j;
	json_t *r, *m;
	json_array_foreach(json_object_get(b, "results"), i, r)
	{
		const char *st = pl_json_str(r, "status");
		if (st && strcmp(st, "ok") != 0)
			fprintf(out, "bench %s on %s: %s: %s\n", pl_json_str(b, "name"),
				pl_json_str(r, "node"), st, pl_json_str(r, "reason"));
	}
	json_array_foreach(json_object_get(b, "metrics"), i, m)
	{
		const char *better = pl_json_str(m, "better");
		fprintf(out, "%s (%s, median of the runs%s%s%s)\n", pl_json_str(m, "name"),
			pl_json_str(m, "unit"), strcmp(better, "neither") ? "; " : "",
			strcmp(better, "neither") ? better : "",
			strcmp(better, "neither") ? " is better" : "");
		json_array_foreach(json_object_get(m, "nodes"), j, r)
		{
			fprintf(out, "  %-16s %12.4g  +- %-10.3g", pl_json_str(r, "node"),
				pl_json_num(r, "median"), pl_json_num(r, "stddev"));
			if (pl_json_str(r, "odd"))
				fprintf(out, "  odd: %s the others' spread [%.4g, %.4g]",
					pl_json_str(r, "odd"), pl_json_num(r, "others_lo"),
					pl_json_num(r, "others_hi"));
			else if (pl_json_str(m, "worst") &&
				 strcmp(pl_json_str(m, "worst"), pl_json_str(r, "node")) == 0)
				fprintf(out, "  worst");
			fputc('\n', out);
		}
		print_caveats(out, "  ", NULL, json_object_get(m, "nodes"));
	}
	print_caveats(out, "bench", b, NULL);
}

static void print_command(FILE *out, const json_t *c)
{
	const char *kind = pl_json_str(c, "kind");
	const json_t *cnt = json_object_get(c, "node_count");
	fprintf(out, "%s: %lld nodes (%lld ok, %lld failed)", kind ? kind : "cluster",
		pl_json_int(cnt, "total"), pl_json_int(cnt, "ok"), pl_json_int(cnt, "failed"));
	if (pl_json_str(c, "workload"))
		fprintf(out, ", workload %s", pl_json_str(c, "workload"));
	if (json_object_get(c, "benchmark"))
		fprintf(out, ", bench %s", pl_json_str(json_object_get(c, "benchmark"), "name"));
	fputc('\n', out);
	print_nodes(out, c);
	if (json_object_get(c, "drift"))
		print_drift(out, c, 0, true);
	if (json_object_get(c, "findings"))
		print_findings(out, c);
	if (json_object_get(c, "benchmark"))
		print_bench(out, c);
}

void pl_cluster_print_summary(FILE *out, const json_t *c, const char *dir)
{
	pl_autojson json_t *t = term_safe(c);
	pl_autofree char *d = dir ? pl_str_escape(dir, PL_ESC_TERM) : NULL;
	print_summary(out, t, d);
}

void pl_cluster_print_command(FILE *out, const json_t *c)
{
	pl_autojson json_t *t = term_safe(c);
	print_command(out, t);
}

/* ---- Markdown ---- */

/* @s (from a node's document) as Markdown text: a table cell's escaping
 * (pl_report_md_cell) with '&', '<' and '>' as HTML entities, so a hostname cannot carry
 * markup into a viewer that renders HTML in Markdown. */
static void md_text(FILE *out, const char *s)
{
	if (!s || !strpbrk(s, "&<>")) {
		pl_report_md_cell(out, s);
		return;
	}
	struct pl_buf b = { 0 };
	for (const char *p = s; *p; p++) {
		if (*p == '&')
			pl_buf_puts(&b, "&amp;");
		else if (*p == '<')
			pl_buf_puts(&b, "&lt;");
		else if (*p == '>')
			pl_buf_puts(&b, "&gt;");
		else
			pl_buf_append(&b, p, 1);
	}
	pl_autofree char *t = pl_buf_steal(&b);
	pl_report_md_cell(out, t);
}

/* The caveats of section @sec and of its figures @rows as a Markdown list. */
static void md_caveats(FILE *out, const json_t *sec, const json_t *rows)
{
	pl_autojson json_t *g = pl_cluster_caveat_groups(rows);
	const json_t *own = json_object_get(sec, "caveats");
	if (!json_array_size(own) && !json_array_size(g))
		return;
	fputs("Caveats:\n\n", out);
	size_t i;
	json_t *x;
	json_array_foreach(own, i, x)
	{
		fputs("- ", out);
		md_text(out, json_string_value(x));
		fputs("\n", out);
	}
	json_array_foreach(g, i, x)
	{
		fputs("- ", out);
		md_text(out, pl_json_str(x, "who"));
		fputs(": ", out);
		md_text(out, pl_json_str(x, "text"));
		fputs("\n", out);
	}
	fputs("\n", out);
}

/* One matrix @key of @net (its "nodes" the rows and columns) as a Markdown table. */
static void md_matrix(FILE *out, const json_t *net, const char *key, const char *title,
		      long long bytes)
{
	const json_t *names = json_object_get(net, "nodes");
	size_t n = json_array_size(names);
	fprintf(out, "### %s at %lld B\n\n| |", title, bytes);
	for (size_t j = 0; j < n; j++) {
		md_text(out, json_string_value(json_array_get(names, j)));
		fputs(" |", out);
	}
	fputs("\n|---|", out);
	for (size_t j = 0; j < n; j++)
		fputs("---:|", out);
	fputs("\n", out);
	for (size_t i = 0; i < n; i++) {
		fputs("| ", out);
		md_text(out, json_string_value(json_array_get(names, i)));
		fputs(" |", out);
		for (size_t j = 0; j < n; j++) {
			const json_t *v = pl_cluster_net_matrix(net, key, i, j);
			if (json_is_number(v))
				fprintf(out, " %.3g |", json_number_value(v));
			else
				fputs(" - |", out);
		}
		fputs("\n", out);
	}
	fputs("\n", out);
}

static void md_network(FILE *out, const json_t *net)
{
	fprintf(out, "## Network\n\n%s\n\n", pl_json_str(net, "method"));
	static const char *const mats[][3] = {
		{ "latency_oneway_us", "One-way latency (us, round trip / 2, OSU convention)",
		  "latency_bytes" },
		{ "latency_rtt_us", "Round trip (us)", "latency_bytes" },
		{ "bandwidth_gbs", "Bandwidth (GB/s)", "bandwidth_bytes" },
	};
	for (size_t m = 0; m < 3; m++)
		md_matrix(out, net, mats[m][0], mats[m][1], pl_json_int(net, mats[m][2]));
	const json_t *tcp = json_object_get(net, "tcp");
	if (tcp) {
		fprintf(out, "%s.\n\n", pl_json_str(tcp, "method"));
		md_matrix(out, tcp, "latency_rtt_us", "TCP round trip (us, --net-tcp)",
			  pl_json_int(tcp, "bytes"));
		if (json_is_number(json_object_get(tcp, "median_over_mpi")))
			fprintf(out, "TCP's round trip is %.3gx MPI's (median over the pairs).\n\n",
				pl_json_num(tcp, "median_over_mpi"));
	}
	const json_t *sp = json_object_get(net, "slowest_pair");
	if (sp) {
		fputs("Slowest pair: ", out);
		pl_report_md_cell(out, pl_json_str(sp, "a"));
		fputs(" - ", out);
		pl_report_md_cell(out, pl_json_str(sp, "b"));
		fprintf(out, ", %.3g us one-way.\n", pl_json_num(sp, "oneway_us"));
	}
	const json_t *slow = json_object_get(net, "slow_nodes");
	if (json_array_size(slow)) {
		pl_autofree char *s = pl_cluster_join_names(slow);
		fputs("Nodes whose every pair is slow: ", out);
		pl_report_md_cell(out, s);
		fputs(".\n", out);
	}
	fputs("\n", out);
	md_caveats(out, net, json_object_get(net, "pairs"));
}

int pl_cluster_write_markdown(FILE *out, const json_t *c)
{
	const json_t *cnt = json_object_get(c, "node_count");
	fputs("# perflab cluster report\n\nGenerated ", out);
	pl_report_md_cell(out, pl_json_str(c, "generated"));
	fputs(" by perflab ", out);
	pl_report_md_cell(out, pl_json_str(c, "perflab_version"));
	fprintf(out, ": %lld nodes (%lld ok, %lld failed), workload ", pl_json_int(cnt, "total"),
		pl_json_int(cnt, "ok"), pl_json_int(cnt, "failed"));
	pl_report_md_cell(out, pl_json_str(c, "workload"));
	fputs(".\n\n", out);
	pl_autofree char *intr = pl_cluster_interrupted_text(c);
	if (intr) {
		fputs("**", out);
		pl_report_md_cell(out, intr);
		fputs(".**\n\n", out);
	}
	fputs("## Nodes\n\n|", out);
	for (size_t k = 0; k < PL_CLUSTER_NCOLS; k++)
		fprintf(out, " %s |", pl_cluster_node_cols[k][1]);
	fputs(" findings |\n|", out);
	for (size_t k = 0; k <= PL_CLUSTER_NCOLS; k++)
		fputs("---|", out);
	fputs("\n", out);
	size_t i;
	json_t *row;
	json_array_foreach(json_object_get(c, "nodes"), i, row)
	{
		fputs("|", out);
		for (size_t k = 0; k < PL_CLUSTER_NCOLS; k++) {
			pl_autofree char *t =
				pl_cluster_member_text(row, pl_cluster_node_cols[k][0]);
			fputs(" ", out);
			md_text(out, t);
			fputs(" |", out);
		}
		pl_autofree char *fs = pl_cluster_findings_text(row);
		fputs(" ", out);
		md_text(out, fs);
		fputs(" |\n", out);
	}
	const json_t *drift = json_object_get(c, "drift");
	const json_t *facts = json_object_get(drift, "facts");
	fprintf(out, "\n## Drift\n\n%zu facts differ across nodes.", json_array_size(facts));
	if (json_array_size(facts)) {
		fputs("\n\n| fact | majority | differs on |\n|---|---|---|\n", out);
		json_t *d;
		json_array_foreach(facts, i, d)
		{
			fputs("| ", out);
			md_text(out, pl_json_str(d, "key"));
			fputs(" | ", out);
			const char *maj = pl_json_str(d, "majority");
			if (maj) {
				pl_report_md_code(out, maj);
				fprintf(out, " (%lld nodes)", pl_json_int(d, "majority_nodes"));
			} else
				fputs("no majority", out);
			fputs(" | ", out);
			size_t vi;
			json_t *v;
			json_array_foreach(json_object_get(d, "values"), vi, v)
			{
				if (vi == 0 && maj)
					continue;
				pl_autofree char *who =
					pl_cluster_join_names(json_object_get(v, "nodes"));
				pl_autofree char *cell =
					pl_xasprintf("%s: %s", who, pl_json_str(v, "value"));
				if (vi > (maj ? 1u : 0u))
					fputs("; ", out);
				md_text(out, cell);
			}
			fputs(" |\n", out);
		}
	}
	pl_autofree char *ex = pl_cluster_join_names(json_object_get(drift, "excluded"));
	fputs("\n\nLeft out as naturally different: ", out);
	md_text(out, ex);
	fputs(".\n\n## Findings on some nodes only\n\n", out);
	const json_t *partial = json_object_get(json_object_get(c, "findings"), "partial");
	if (!json_array_size(partial))
		fputs("None: every finding fires on every node or on none.\n", out);
	else
		fputs("| severity | finding | on | not on |\n|---|---|---|---|\n", out);
	json_t *f;
	json_array_foreach(partial, i, f)
	{
		pl_autofree char *on = pl_cluster_join_names(json_object_get(f, "nodes"));
		pl_autofree char *off = pl_cluster_join_names(json_object_get(f, "not_on"));
		pl_autofree char *title =
			pl_xasprintf("%s (%s)", pl_json_str(f, "title"), pl_json_str(f, "id"));
		fputs("| ", out);
		pl_report_md_cell(out, pl_json_str(f, "severity"));
		fputs(" | ", out);
		md_text(out, title);
		fputs(" | ", out);
		md_text(out, on);
		fputs(" | ", out);
		md_text(out, off);
		fputs(" |\n", out);
	}
	const json_t *common = json_object_get(json_object_get(c, "findings"), "common");
	if (json_array_size(common)) {
		fprintf(out, "\nOn every node (%zu): ", json_array_size(common));
		json_array_foreach(common, i, f)
		{
			fprintf(out, "%s", i ? ", " : "");
			md_text(out, pl_json_str(f, "id"));
		}
		fputs(".\n", out);
	}
	/* a section of figures only when some node has one (a fleet of snapshots has none) */
	const json_t *mem = json_object_get(c, "memory");
	if (json_array_size(json_object_get(mem, "nodes")))
		fprintf(out,
			"\n## Memory bandwidth per node (STREAM triad)\n\n%s.\n\n| node | triad "
			"(median) | runs' min - max | stddev | others' spread | |\n"
			"|---|---:|---:|---:|---|---|\n",
			pl_json_str(mem, "note"));
	json_array_foreach(json_object_get(mem, "nodes"), i, row)
	{
		fputs("| ", out);
		md_text(out, pl_json_str(row, "node"));
		fprintf(out, " | %.3g GB/s | ", pl_json_num(row, "triad_gbs"));
		if (isfinite(pl_json_num(row, "min_gbs")))
			fprintf(out, "%.3g - %.3g GB/s", pl_json_num(row, "min_gbs"),
				pl_json_num(row, "max_gbs"));
		else
			fputs("-", out);
		fprintf(out, " | %.3g GB/s | ", pl_json_num(row, "stddev_gbs"));
		if (isfinite(pl_json_num(row, "others_lo_gbs")))
			fprintf(out, "%.3g - %.3g GB/s", pl_json_num(row, "others_lo_gbs"),
				pl_json_num(row, "others_hi_gbs"));
		const char *odd = pl_json_str(row, "odd");
		fprintf(out, " | %s |\n",
			odd ? (strcmp(odd, "below") == 0 ? "**odd: below**" : "**odd: above**")
			    : "");
	}
	if (json_array_size(json_object_get(mem, "nodes"))) {
		fputs("\n", out);
		md_caveats(out, mem, json_object_get(mem, "nodes"));
	}
	const json_t *net = json_object_get(c, "network");
	if (net)
		md_network(out, net);
	return ferror(out) ? -EIO : 0;
}

int pl_cluster_write_dir(const char *dir, const json_t *c, const char **why)
{
	int dirfd = pl_outdir_open(dir, why);
	if (dirfd < 0)
		return dirfd;
	static const char *const names[] = { "report.json", "report.md", "report.html" };
	struct pl_outdir_file o[3];
	int r = 0, opened = 0;
	for (; opened < 3; opened++) {
		r = pl_outdir_file_open(&o[opened], dirfd, names[opened]);
		if (r < 0)
			break;
	}
	if (r == 0)
		r = pl_json_write(o[0].fp, c);
	if (r == 0)
		r = pl_cluster_write_markdown(o[1].fp, c);
	if (r == 0)
		r = pl_cluster_write_html(o[2].fp, c);
	for (int i = 0; i < opened; i++) {
		int e = pl_outdir_file_close(&o[i], r == 0);
		if (r == 0 && e < 0)
			r = e;
	}
	close(dirfd);
	return r;
}

int pl_cluster_report(const json_t *docs, const char *dir, bool json, long long epoch)
{
	pl_autojson json_t *c = pl_cluster_from_docs(docs, epoch);
	const char *why;
	int r = pl_cluster_write_dir(dir, c, &why);
	if (r < 0) {
		if (why)
			pl_error("refusing report directory '%s': %s (choose another with -o DIR)",
				 dir, why);
		else
			pl_error("cannot write the report into '%s': %s (choose another with -o "
				 "DIR)",
				 dir, strerror(-r));
		return r;
	}
	if (!json) {
		pl_cluster_print_summary(stdout, c, dir);
		return 0;
	}
	return pl_json_write(stdout, c) < 0 ? -EIO : 0;
}
