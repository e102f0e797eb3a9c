/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "out/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/common.h"
#include "config.h"
#include "out/json.h"
#include "out/svg.h"
#include "util/log.h"
#include "util/str.h"

static void set_fact(json_t *m, const char *name, const struct pl_facts *f, const char *key)
{
	const json_t *v = pl_facts_value(f, key);
	json_object_set_new(m, name, v ? json_deep_copy(v) : json_null());
}

json_t *pl_report_build(const struct pl_facts *f, const struct pl_findings *fs,
			const char *workload, long long epoch)
{
	char ts[32];
	json_t *doc = json_object();
	json_object_set_new(doc, "schema_version", json_integer(1));
	json_object_set_new(doc, "generated", json_string(pl_iso8601(epoch, ts, sizeof(ts))));
	json_object_set_new(doc, "perflab_version", json_string(PERFLAB_VERSION));
	json_t *m = json_object();
	set_fact(m, "hostname", f, "kernel.hostname");
	set_fact(m, "kernel", f, "kernel.release");
	set_fact(m, "cpu_model", f, "cpu.model");
	set_fact(m, "cpus", f, "cpu.online");
	set_fact(m, "sockets", f, "cpu.sockets");
	set_fact(m, "mem_bytes", f, "mem.total_bytes");
	set_fact(m, "numa_nodes", f, "numa.nodes");
	set_fact(m, "hypervisor", f, "virt.hypervisor");
	set_fact(m, "clocksource", f, "clocksource.current");
	json_object_set_new(doc, "machine", m);
	json_object_set_new(doc, "facts", pl_facts_to_json(f, NULL));
	json_object_set_new(doc, "check", pl_findings_to_json(fs, workload));
	return doc;
}

/* Append @doc (borrowed) to the array @key of @report, creating it. */
static void append_to(json_t *report, const char *key, json_t *doc)
{
	json_t *arr = json_object_get(report, key);
	if (!json_is_array(arr)) {
		arr = json_array();
		json_object_set_new(report, key, arr);
	}
	json_array_append(arr, doc);
}

/* Kinds of saved documents and the report array each goes to. */
static const struct {
	const char *kind;
	const char *section;
} kinds[] = {
	{ "bench", "benchmarks" }, { "compare", "comparisons" }, { "profile", "profiles" },
	{ "tune-diff", "tune" },   { "tune", "tune" },
};

int pl_report_merge_file(json_t *report, const char *path, char *err, size_t errlen)
{
	json_t *doc = pl_json_read_path(path, err, errlen);
	if (!doc)
		return -EINVAL;
	int r = 0;
	const json_t *ver = json_object_get(doc, "schema_version");
	const char *kind = pl_json_str(doc, "kind");
	/* The documents of bench, compare, profile and tune have no "kind" member: recognise
	 * them by their required members (docs/schemas/). */
	if (!kind && pl_json_str(doc, "benchmark"))
		kind = "bench";
	else if (!kind && pl_json_str(doc, "tool") && strcmp(pl_json_str(doc, "tool"), "perflab compare") == 0)
		kind = "compare";
	else if (!kind && json_object_get(doc, "top_self") && json_object_get(doc, "samples"))
		kind = "profile";
	else if (!kind && pl_json_str(doc, "command") && json_is_array(json_object_get(doc, "items")) &&
		 pl_json_str(doc, "profile"))
		kind = "tune";
	if (!json_is_object(doc) || !json_is_integer(ver)) {
		snprintf(err, errlen, "'%s' is not a perflab JSON document (no schema_version)", path);
		r = -EINVAL;
	} else if (json_integer_value(ver) != 1) {
		snprintf(err, errlen, "'%s' has schema_version %lld; this perflab reads version 1",
			 path, (long long)json_integer_value(ver));
		r = -EINVAL;
	} else if (kind) {
		const char *section = NULL;
		for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
			if (strcmp(kinds[i].kind, kind) == 0)
				section = kinds[i].section;
		if (section)
			append_to(report, section, doc);
		else {
			snprintf(err, errlen, "'%s' is a '%s' document, which a report cannot include",
				 path, kind);
			r = -EINVAL;
		}
	} else if (json_object_get(doc, "generated") && json_object_get(doc, "check")) {
		/* a whole earlier report: take its merged sections */
		for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
			size_t k;
			json_t *x;
			json_array_foreach(json_object_get(doc, kinds[i].section), k, x)
				append_to(report, kinds[i].section, x);
		}
	} else if (json_object_get(doc, "findings") && json_object_get(doc, "workload")) {
		json_object_set(report, "check", doc);
	} else if (json_object_get(doc, "facts")) {
		json_object_set(report, "facts", json_object_get(doc, "facts"));
	} else {
		snprintf(err, errlen, "'%s' is not a perflab bench, compare, profile, tune, check, "
			 "inspect or report document", path);
		r = -EINVAL;
	}
	if (r == 0) {
		json_t *in = json_object();
		json_object_set_new(in, "file", json_string(path));
		json_object_set_new(in, "kind", json_string(kind ? kind : "perflab"));
		append_to(report, "inputs", in);
		json_decref(in);
	}
	json_decref(doc);
	return r;
}

char *pl_report_machine_line(const json_t *report)
{
	const json_t *m = json_object_get(report, "machine");
	struct pl_buf b = { 0 };
	const char *host = pl_json_str(m, "hostname");
	pl_buf_printf(&b, "%s: ", host ? host : "this machine");
	const char *model = pl_json_str(m, "cpu_model");
	pl_buf_puts(&b, model ? model : "unknown CPU");
	const json_t *cpus = json_object_get(m, "cpus");
	if (json_is_integer(cpus))
		pl_buf_printf(&b, ", %lld CPUs", (long long)json_integer_value(cpus));
	const json_t *mem = json_object_get(m, "mem_bytes");
	if (json_is_integer(mem)) {
		char t[32];
		pl_buf_printf(&b, ", %s", pl_fmt_bytes(t, sizeof(t), (double)json_integer_value(mem)));
	}
	const char *hv = pl_json_str(m, "hypervisor");
	pl_buf_printf(&b, ", %s", hv && strcmp(hv, "none") != 0 ? hv : "bare metal");
	const char *k = pl_json_str(m, "kernel");
	if (k)
		pl_buf_printf(&b, ", Linux %s", k);
	const char *cs = pl_json_str(m, "clocksource");
	if (cs)
		pl_buf_printf(&b, ", clocksource %s", cs);
	return pl_buf_steal(&b);
}

/* Markdown table cells must not contain '|' or newlines. */
static void md_cell(FILE *out, const char *s)
{
	for (const char *p = s ? s : ""; *p; p++) {
		if (*p == '|')
			fputs("\\|", out);
		else if (*p == '\n' || *p == '\t')
			fputc(' ', out);
		else
			fputc(*p, out);
	}
}

static void md_num(FILE *out, const json_t *v)
{
	char b[32];
	fprintf(out, " %s |", json_is_number(v) ? pl_fmt_num(b, sizeof(b), json_number_value(v)) : "n/a");
}

void pl_report_markdown_benchmarks(FILE *out, const json_t *benches)
{
	if (json_array_size(benches) == 0)
		return;
	fprintf(out, "## Benchmarks\n\n");
	size_t i;
	json_t *b;
	json_array_foreach(benches, i, b)
	{
		fprintf(out, "### bench %s\n\n", pl_json_str(b, "benchmark"));
		const char *status = pl_json_str(b, "status");
		if (status && strcmp(status, "ok") != 0) {
			fprintf(out, "Status: %s", status);
			if (pl_json_str(b, "reason"))
				fprintf(out, " (%s)", pl_json_str(b, "reason"));
			fprintf(out, ".\n\n");
		}
		const json_t *metrics = json_object_get(b, "metrics");
		if (json_array_size(metrics) == 0)
			continue;
		const json_t *runner = json_object_get(b, "runner");
		fprintf(out, "%s; %lld runs on CPUs %s.\n\n", pl_json_str(b, "summary"),
			(long long)json_integer_value(json_object_get(runner, "runs")),
			pl_json_str(runner, "cpus") ? pl_json_str(runner, "cpus") : "?");
		fprintf(out, "| metric | unit | best | median | mean | stddev | p99 | n |\n"
			     "|---|---|--:|--:|--:|--:|--:|--:|\n");
		size_t k;
		json_t *m;
		json_array_foreach(metrics, k, m)
		{
			fputs("| ", out);
			md_cell(out, pl_json_str(m, "name"));
			fprintf(out, " | %s |", pl_json_str(m, "unit"));
			static const char *const cols[] = { "best", "median", "mean", "stddev", "p99" };
			for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
				md_num(out, json_object_get(m, cols[c]));
			fprintf(out, " %lld |\n", (long long)json_integer_value(json_object_get(m, "n")));
		}
		size_t w;
		json_t *x;
		json_array_foreach(json_object_get(b, "warnings"), w, x)
			fprintf(out, "%s- warning: %s\n", w == 0 ? "\n" : "", json_string_value(x));
		fputc('\n', out);
	}
}

static void md_ci(FILE *out, const json_t *ci)
{
	const json_t *lo = json_array_get(ci, 0), *hi = json_array_get(ci, 1);
	char a[32], b[32];
	if (json_is_number(lo) && json_is_number(hi))
		fprintf(out, " [%s, %s]", pl_fmt_num(a, sizeof(a), json_number_value(lo)),
			pl_fmt_num(b, sizeof(b), json_number_value(hi)));
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
		fprintf(out, "%lld interleaved rounds, seed %lld. Cells: median [95%% CI]; ratio to the "
			     "baseline [CI]; verdict.\n\n| metric |",
			(long long)json_integer_value(json_object_get(doc, "rounds_measured")),
			(long long)json_integer_value(json_object_get(doc, "seed")));
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
			json_array_foreach(json_object_get(st, "variants"), j, x)
			{
				char num[32];
				const json_t *med = json_object_get(x, "median");
				fprintf(out, " %s", json_is_number(med) ? pl_fmt_num(num, sizeof(num), json_number_value(med)) : "n/a");
				md_ci(out, json_object_get(x, "median_ci"));
				const json_t *vs = json_object_get(x, "vs_baseline");
				const json_t *ratio = json_object_get(vs, "ratio");
				if (json_is_number(ratio)) {
					fprintf(out, "; x%.4f", json_number_value(ratio));
					md_ci(out, json_object_get(vs, "ci"));
				}
				if (pl_json_str(x, "verdict_text")) {
					fputs("; ", out);
					md_cell(out, pl_json_str(x, "verdict_text"));
				}
				fputs(" |", out);
			}
			fputc('\n', out);
		}
		fputc('\n', out);
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
		fprintf(out, "\n\n%lld samples, user %s %%, kernel %s %%, lost %s %%.\n\n",
			(long long)json_integer_value(json_object_get(doc, "samples")),
			pl_fmt_num(a, sizeof(a), json_number_value(json_object_get(doc, "user_pct"))),
			pl_fmt_num(b, sizeof(b), json_number_value(json_object_get(doc, "kernel_pct"))),
			pl_fmt_num(c, sizeof(c), json_number_value(json_object_get(doc, "lost_pct"))));
		fputs("| function | module | self % | total % |\n|---|---|--:|--:|\n", out);
		size_t k;
		json_t *x;
		json_array_foreach(json_object_get(doc, "top_self"), k, x)
		{
			if (k >= 10)
				break;
			fputs("| ", out);
			md_cell(out, pl_json_str(x, "function"));
			fputs(" | ", out);
			md_cell(out, pl_json_str(x, "module"));
			fputs(" |", out);
			md_num(out, json_object_get(x, "self_pct"));
			md_num(out, json_object_get(x, "total_pct"));
			fputc('\n', out);
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
		fprintf(out, "### tune %s %s\n\n", pl_json_str(doc, "command"), pl_json_str(doc, "profile"));
		const json_t *sum = json_object_get(doc, "summary");
		const char *k;
		json_t *v;
		json_object_foreach((json_t *)sum, k, v)
			fprintf(out, "%s: %lld. ", k, (long long)json_integer_value(v));
		fputs("\n\n| plugin | item | current | wanted | state |\n|---|---|---|---|---|\n", out);
		size_t j;
		json_t *x;
		json_array_foreach(json_object_get(doc, "items"), j, x)
		{
			const char *state = pl_json_str(x, "state");
			if (state && strcmp(state, "not-applicable") == 0)
				continue;
			char *cur = json_is_null(json_object_get(x, "current")) || !json_object_get(x, "current")
					    ? pl_xstrdup("")
					    : pl_fact_value_text(json_object_get(x, "current"));
			char *want = json_is_null(json_object_get(x, "wanted")) || !json_object_get(x, "wanted")
					     ? pl_xstrdup("")
					     : pl_fact_value_text(json_object_get(x, "wanted"));
			fputs("| ", out);
			md_cell(out, pl_json_str(x, "plugin"));
			fputs(" | `", out);
			md_cell(out, pl_json_str(x, "key"));
			fputs("` | ", out);
			md_cell(out, cur);
			fputs(" | ", out);
			md_cell(out, want);
			fputs(" | ", out);
			md_cell(out, state);
			fputs(" |\n", out);
			free(cur);
			free(want);
		}
		fputs("\nItems not applicable on the machine are listed in report.json and report.html.\n\n", out);
	}
}

int pl_report_write_markdown(FILE *out, const json_t *report)
{
	char *line = pl_report_machine_line(report);
	fprintf(out, "# perflab report\n\n");
	fprintf(out, "Generated %s by perflab %s.\n\n", pl_json_str(report, "generated"),
		pl_json_str(report, "perflab_version"));
	fprintf(out, "**Machine:** %s\n\n", line);
	free(line);

	const json_t *check = json_object_get(report, "check");
	const json_t *sum = json_object_get(check, "summary");
	fprintf(out, "## Findings (workload: %s)\n\n", pl_json_str(check, "workload"));
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
			fprintf(out, "| %s | ", pl_json_str(x, "severity"));
			md_cell(out, pl_json_str(x, "title"));
			if (pl_json_str(x, "subject")) {
				fputs(": ", out);
				md_cell(out, pl_json_str(x, "subject"));
			}
			fprintf(out, " (`%s`) | ", pl_json_str(x, "id"));
			md_cell(out, pl_json_str(x, "observed"));
			fputs(" | ", out);
			md_cell(out, pl_json_str(x, "expected"));
			fputs(" | ", out);
			const json_t *fix = json_object_get(x, "fix");
			if (pl_json_str(fix, "command")) {
				fputc('`', out);
				md_cell(out, pl_json_str(fix, "command"));
				fputc('`', out);
			}
			fputs(" |\n", out);
		}
		fputs("\n### Why\n\n", out);
		json_array_foreach(arr, i, x)
		{
			fprintf(out, "- **%s**: ", pl_json_str(x, "id"));
			md_cell(out, pl_json_str(x, "rationale"));
			fprintf(out, " Source: %s\n", pl_json_str(x, "source"));
		}
		fputc('\n', out);
	}

	pl_report_markdown_benchmarks(out, json_object_get(report, "benchmarks"));
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
		if (!v)
			continue;
		char *t = pl_fact_value_text(v);
		fprintf(out, "| `%s` | ", key);
		md_cell(out, t);
		fputs(" | ", out);
		md_cell(out, pl_json_str(e, "source"));
		fputs(" |\n", out);
		free(t);
	}
	return ferror(out) ? -EIO : 0;
}

void pl_report_print_summary(FILE *out, const json_t *report, const char *dir)
{
	const char *b = pl_style(out, "bold"), *r = pl_style(out, "reset");
	char *line = pl_report_machine_line(report);
	fprintf(out, "%s%s%s\n", b, line, r);
	free(line);
	const json_t *check = json_object_get(report, "check");
	const json_t *sum = json_object_get(check, "summary");
	fprintf(out, "findings (%s): %lld crit, %lld warn, %lld info\n", pl_json_str(check, "workload"),
		(long long)json_integer_value(json_object_get(sum, "crit")),
		(long long)json_integer_value(json_object_get(sum, "warn")),
		(long long)json_integer_value(json_object_get(sum, "info")));
	const json_t *arr = json_object_get(check, "findings");
	size_t i, shown = 0;
	json_t *x;
	json_array_foreach(arr, i, x)
	{
		if (strcmp(pl_json_str(x, "severity"), "info") == 0 || shown >= 5)
			continue;
		const json_t *fix = json_object_get(x, "fix");
		fprintf(out, "  [%s] %s%s%s\n", pl_json_str(x, "severity"), pl_json_str(x, "title"),
			pl_json_str(x, "subject") ? ": " : "", pl_json_str(x, "subject") ? pl_json_str(x, "subject") : "");
		if (pl_json_str(fix, "command"))
			fprintf(out, "         fix: %s\n", pl_json_str(fix, "command"));
		shown++;
	}
	/* key numbers: the first metric of every benchmark that ran */
	const json_t *benches = json_object_get(report, "benchmarks");
	if (json_array_size(benches) > 0)
		fprintf(out, "key numbers (median):\n");
	json_array_foreach(benches, i, x)
	{
		const json_t *m = json_array_get(json_object_get(x, "metrics"), 0);
		const char *st = pl_json_str(x, "status");
		if (!m || !st || strcmp(st, "ok") != 0) {
			fprintf(out, "  %-10s %s%s%s\n", pl_json_str(x, "benchmark"), st ? st : "?",
				pl_json_str(x, "reason") ? ": " : "", pl_json_str(x, "reason") ? pl_json_str(x, "reason") : "");
			continue;
		}
		const json_t *v = json_object_get(m, "median");
		char num[32];
		fprintf(out, "  %-10s %s %s %s\n", pl_json_str(x, "benchmark"), pl_json_str(m, "name"),
			json_is_number(v) ? pl_fmt_num(num, sizeof(num), json_number_value(v)) : "n/a",
			pl_json_str(m, "unit"));
	}
	if (dir)
		fprintf(out, "report written to %s/report.html (also report.md, report.json)\n", dir);
}
