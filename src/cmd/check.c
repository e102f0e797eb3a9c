/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab check: evaluate the rules for a workload over the collected facts. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "cmd/check.h"
#include "cli/common.h"
#include "counters/window.h"
#include "cmd/commands.h"
#include "cli/node.h"
#include "facts/facts.h"
#include "util/json.h"
#include "render/prom.h"
#include "tune/from_findings.h"
#include "util/cleanup.h"
#include "util/escape.h"
#include "util/outfile.h"
#include "util/str.h"
#include "util/sysroot.h"

struct check_opts {
	int workload;
	int fail_on;
	bool list;
	bool measure;
	int format;
	const char *emit;
	const char *cpus;
};

enum { FMT_TEXT, FMT_JSON, FMT_PROM };
static const char *const formats[] = { "text", "json", "prom", NULL };

static const struct pl_opt check_opts[] = {
	{ "workload", 'W', PL_OPT_ENUM, offsetof(struct check_opts, workload), "W",
	  "which rules apply", pl_workload_names, .def = "general", .was_short = 'w' },
	{ "fail-on", 0, PL_OPT_ENUM, offsetof(struct check_opts, fail_on), "SEVERITY",
	  "exit 1 when a finding is at least this severe", pl_severity_names, .def = "crit" },
	{ "list-rules", 0, PL_OPT_FLAG, offsetof(struct check_opts, list), NULL,
	  "list every rule (id, severity, title, workloads; with --json everything) and exit" },
	{ "measure", 0, PL_OPT_FLAG, offsetof(struct check_opts, measure), NULL,
	  "run the benchmark that quantifies each finding (briefly) and show its figures" },
	{ "format", 'f', PL_OPT_ENUM, offsetof(struct check_opts, format), "FMT",
	  "output format; prom = Prometheus text format for node_exporter's textfile collector "
	  "(--json is --format json)",
	  formats, .def = "text" },
	{ "emit-profile", 0, PL_OPT_STR, offsetof(struct check_opts, emit), "FILE",
	  "also write the fixes of the findings at or above --fail-on as a tuned-format profile "
	  "(FILE: e.g. DIR/NAME/tuned.conf, for tune --profile-dir DIR)" },
	{ "cpus", 'C', PL_OPT_CPUS, offsetof(struct check_opts, cpus), "LIST",
	  "the CPUs the workload runs on, for the rules that compare them with a GPU's or NIC's "
	  "NUMA node (default: isolcpus=, else nohz_full= of the kernel command line)" },
	PL_OPT_END,
};

static const struct pl_cmd_info info = {
	.name = "check",
	.usage = "perflab check [--workload W] [--fail-on SEVERITY] [--json | --format prom] "
		 "[--measure] [--emit-profile FILE] [--cpus LIST] [--sysroot DIR]",
	.summary = "Check the machine against tuning rules for a workload.",
	.description =
		"Each finding says what was observed, what was expected, why (with a public\n"
		"source) and how to fix it: a command and the tuned-format profile line.\n"
		"Rules whose facts cannot be read (a VM without cpufreq, a container\n"
		"without /proc/sys) do not fire; -v lists them. -q prints titles only.\n"
		"--measure runs, briefly, the benchmark a finding's rule names as its evidence\n"
		"(bench clock for the clocksource rules, bench ticks for nohz_full, bench io\n"
		"for the block rules, bench mem --numa-matrix for numa.remote-ratio) and\n"
		"shows the figures under the finding.\n"
		"--emit-profile FILE writes the profile fix of every finding at or above\n"
		"--fail-on (default crit) as a tuned-format profile, one section per plugin,\n"
		"each option under a comment with the rule id and rationale; risky fixes and\n"
		"placeholders are left out with a comment saying why. FILE is written\n"
		"atomically; on an error nothing is written.\n"
		"Exit status 1 when a finding is at or above --fail-on.",
};

/* Print @text wrapped at @width columns, every line after the first indented by @indent
 * spaces (the first continues the current line, which is @indent wide). */
static void print_wrapped(FILE *out, const char *text, int indent, int width)
{
	int col = indent;
	const char *p = text;
	while (*p) {
		while (*p == ' ')
			p++;
		size_t n = strcspn(p, " ");
		if (!n)
			break;
		if (col > indent && col + 1 + (int)n > width) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, n, out);
		col += (int)n;
		p += n;
	}
	fputc('\n', out);
}

/* A field label and a possibly multi-line value ("a\nb"), continuation lines aligned.
 * Values carry machine-tree text: other control characters are escaped (\xNN). */
static void print_field(FILE *out, const char *label, const char *value)
{
	char *e = pl_str_escape(value, PL_ESC_TERM | PL_ESC_KEEP_NL);
	fprintf(out, "         %-9s ", label);
	for (const char *p = e; *p; p++) {
		fputc(*p, out);
		if (*p == '\n')
			fprintf(out, "%19s", "");
	}
	fputc('\n', out);
	free(e);
}

void pl_check_print(FILE *out, const struct pl_findings *fs, const char *workload)
{
	const char *b = pl_style(out, "bold"), *r = pl_style(out, "reset");
	const char *col[3] = { pl_style(out, "dim"), pl_style(out, "yellow"),
			       pl_style(out, "red") };
	static const char *label[3] = { "INFO", "WARN", "CRIT" };
	static const char *heading[3] = { "Info", "Warnings", "Critical" };
	size_t count[3] = { 0 };
	for (size_t i = 0; i < fs->n; i++)
		count[fs->v[i].severity]++;
	fprintf(out,
		"%sperflab check%s (workload: %s): %zu finding%s: %zu crit, %zu warn, %zu info\n",
		b, r, workload, fs->n, fs->n == 1 ? "" : "s", count[2], count[1], count[0]);
	for (int s = PL_SEV_CRIT; s >= PL_SEV_INFO; s--) {
		if (!count[s])
			continue;
		fprintf(out, "\n%s%s%s\n", b, heading[s], r);
		for (size_t i = 0; i < fs->n; i++) {
			const struct pl_finding *x = &fs->v[i];
			if ((int)x->severity != s)
				continue;
			char *subj = x->subject ? pl_str_escape(x->subject, PL_ESC_TERM) : NULL;
			fprintf(out, "  %s[%s]%s %s%s%s%s%s%s  (%s)\n", col[s], label[s], r, b,
				x->rule->title, subj ? ": " : "", subj ? subj : "", r,
				x->rule->risky ? " [risky setting]" : "", x->rule->id);
			free(subj);
			if (pl_verbosity < 0)
				continue;
			print_field(out, "observed:", x->observed);
			const char *ev = pl_json_str(x->evidence, "text");
			if (x->evidence)
				print_field(out, "measured:",
					    ev ? ev : pl_json_str(x->evidence, "unavailable"));
			print_field(out, "expected:", x->expected);
			if (x->fix_command)
				print_field(out, "fix:", x->fix_command);
			if (x->fix_tune)
				print_field(out, "profile:", x->fix_tune);
			fprintf(out, "         %-9s ", "why:");
			print_wrapped(out, x->rule->rationale, 19, 100);
			fprintf(out, "         %-9s ", "source:");
			print_wrapped(out, x->rule->source, 19, 100);
		}
	}
	size_t nun = 0;
	for (char **u = fs->unevaluated; u && *u; u++)
		nun++;
	fprintf(out, "\n%zu rule%s checked", fs->nrules, fs->nrules == 1 ? "" : "s");
	if (nun)
		fprintf(out, "; %zu could not run because facts are unavailable%s", nun,
			pl_verbosity > 0 ? ":" : " (-v lists them)");
	fputc('\n', out);
	if (nun && pl_verbosity > 0) {
		struct pl_buf ids = { 0 };
		for (char **u = fs->unevaluated; *u; u++)
			pl_buf_printf(&ids, "%s%s", ids.len ? " " : "", *u);
		fprintf(out, "  ");
		print_wrapped(out, ids.data, 2, 100);
		pl_buf_free(&ids);
	}
}

static char *workload_text(unsigned mask)
{
	if (mask == PL_WL_ALL)
		return pl_xstrdup("all");
	struct pl_buf wl = { 0 };
	for (int k = 0; pl_workload_names[k]; k++)
		if (mask & (1u << k))
			pl_buf_printf(&wl, "%s%s", wl.len ? "," : "", pl_workload_names[k]);
	return pl_buf_steal(&wl);
}

static json_t *strv_json(const char *const *v)
{
	json_t *a = json_array();
	for (; v && *v; v++)
		json_array_append_new(a, pl_json_string(*v));
	return a;
}

static json_t *rules_json(void)
{
	json_t *arr = json_array();
	for (size_t t = 0; t < pl_nrule_tables; t++)
		for (size_t i = 0; i < *pl_rule_tables[t].n; i++) {
			const struct pl_rule *r = &pl_rule_tables[t].rules[i];
			json_t *o = json_object();
			json_object_set_new(o, "id", pl_json_string(r->id));
			json_object_set_new(o, "domain", pl_json_string(pl_rule_tables[t].domain));
			json_object_set_new(o, "severity",
					    pl_json_string(pl_severity_names[r->severity]));
			json_t *wl = json_array();
			for (int k = 0; pl_workload_names[k]; k++)
				if (r->workloads & (1u << k))
					json_array_append_new(wl,
							      pl_json_string(pl_workload_names[k]));
			json_object_set_new(o, "workloads", wl);
			json_object_set_new(o, "keys", strv_json(r->keys));
			json_object_set_new(o, "title", pl_json_string(r->title));
			json_object_set_new(o, "rationale", pl_json_string(r->rationale));
			json_object_set_new(o, "source", pl_json_string(r->source));
			json_object_set_new(o, "risky", json_boolean(r->risky));
			json_t *fix = json_object();
			json_object_set_new(fix, "command",
					    r->fix_command ? pl_json_string(r->fix_command)
							   : json_null());
			json_object_set_new(fix, "tune",
					    r->fix_tune ? pl_json_string(r->fix_tune)
							: json_null());
			json_object_set_new(o, "fix", fix);
			if (r->evidence)
				json_object_set_new(o, "evidence",
						    pl_evidence_to_json(r->evidence));
			json_array_append_new(arr, o);
		}
	json_t *doc = json_object();
	json_object_set_new(doc, "schema_version", json_integer(1));
	json_object_set_new(doc, "rules", arr);
	return doc;
}

static int list_rules(FILE *out)
{
	if (pl_g.json) {
		json_t *doc = rules_json();
		int r = pl_json_write(out, doc);
		json_decref(doc);
		return r;
	}
	for (size_t t = 0; t < pl_nrule_tables; t++)
		for (size_t i = 0; i < *pl_rule_tables[t].n; i++) {
			const struct pl_rule *r = &pl_rule_tables[t].rules[i];
			char *wl = workload_text(r->workloads);
			fprintf(out, "%-28s %-4s %s%s  [%s]\n", r->id,
				pl_severity_names[r->severity], r->title,
				r->risky ? " (risky setting)" : "", wl);
			free(wl);
		}
	return ferror(out) ? -EIO : 0;
}

/* check --measure --json: {"benchmarks":[{"benchmark","argv"... as run,"status"}...]} */
/* check --measure: an evidence's counter metric counted system-wide while its
 * benchmark runs (counters/window.h); @ctx is a struct pl_cnt_window. */
static void count_begin(void *ctx, const char *metric)
{
	struct pl_cnt_window *w = ctx;
	char err[512];
	pl_cnt_window_free(w);
	if (pl_cnt_window_init(w, metric, err, sizeof(err)) == 0)
		pl_cnt_window_begin(w);
}

static json_t *count_end(void *ctx, const char *bench)
{
	struct pl_cnt_window *w = ctx;
	json_t *row = pl_cnt_window_end(w, bench);
	if (!row && w->reason[0]) { /* nothing counted: the reason stands for the metric */
		row = json_object();
		json_object_set_new(row, "values", json_object());
		json_t *un = json_object();
		for (size_t i = 0; i < w->plan.nmetrics; i++)
			json_object_set_new(un, w->plan.metrics[i]->name,
					    pl_json_string(w->reason));
		json_object_set_new(row, "unavailable", un);
	}
	pl_cnt_window_free(w);
	return row;
}

static json_t *measured_json(const json_t *docs)
{
	json_t *arr = json_array();
	size_t i;
	const json_t *d;
	json_array_foreach(docs, i, d)
	{
		json_t *o = json_object();
		json_object_set_new(o, "benchmark", pl_json_string(pl_json_str(d, "benchmark")));
		json_object_set_new(o, "status", pl_json_string(pl_json_str(d, "status")));
		if (pl_json_str(d, "reason"))
			json_object_set_new(o, "reason", pl_json_string(pl_json_str(d, "reason")));
		json_array_append_new(arr, o);
	}
	json_t *m = json_object();
	json_object_set_new(m, "benchmarks", arr);
	return m;
}

/* Collect only the fact domains the workload's rules read (check prints no facts). */
static void collect_for(struct pl_facts *f, unsigned workload)
{
	const char **names = pl_xcalloc(pl_ncollectors + 1, sizeof(*names));
	for (size_t i = 0; i < pl_ncollectors; i++)
		names[i] = pl_collectors[i].name;
	char *domains = pl_rules_domains(workload, names);
	if (*domains)
		pl_facts_collect(f, domains);
	free(domains);
	free(names);
}

int pl_check_findings(int workload, const char *cpus, bool rules_only, struct pl_facts *f,
		      struct pl_findings *fs)
{
	pl_facts_set_sysctl_names(pl_rules_sysctl_names());
	if (rules_only)
		pl_facts_set_wanted(pl_rules_keys());
	collect_for(f, 1u << workload);
	pl_facts_set_wanted(NULL);
	if (cpus) /* read by pl_rf_workload_cpus before isolcpus=/nohz_full= */
		pl_fact_str(f, "workload.cpus", cpus, "--cpus");
	int ret = pl_cmd_require_facts(f); /* a wrong --sysroot: no "0 findings", exit 0 */
	if (ret >= 0)
		return ret;
	pl_rules_eval(f, 1u << workload, fs);
	return -1;
}

/* --emit-profile FILE: the fixes as a profile, written atomically. */
static int emit_profile(const char *path, const struct pl_findings *fs, int min,
			const char *workload)
{
	struct pl_outfile out;
	int r = pl_outfile_open(&out, path);
	if (r < 0) {
		pl_error("cannot write the profile '%s': %s (give a file in an existing, writable "
			 "directory)",
			 path, strerror(-r));
		return PL_EXIT_USAGE;
	}
	struct pl_tune_emit_counts c;
	r = pl_tune_emit_profile(out.fp, fs, (enum pl_severity)min, workload, &c);
	if (pl_outfile_close(&out, r == 0) < 0 || r < 0) {
		pl_error("cannot write the profile '%s'", path);
		return PL_EXIT_RUNTIME;
	}
	if (pl_verbosity >= 0)
		fprintf(stderr,
			"%s: profile '%s': %zu option%s from %zu finding%s, %zu fix%s left out\n",
			pl_progname, path, c.items, c.items == 1 ? "" : "s", c.findings,
			c.findings == 1 ? "" : "s", c.left_out, c.left_out == 1 ? "" : "es");
	return PL_EXIT_OK;
}

int cmd_check(int argc, char **argv)
{
	struct check_opts o = { .workload = 0, .fail_on = PL_SEV_CRIT };
	pl_facts_set_sysctl_names(pl_rules_sysctl_names());
	pl_cleanup(pl_args_free) struct pl_args args = { 0 };
	int rc = pl_cmd_parse(argc, argv, &info, check_opts, &o, &args);
	if (rc >= 0)
		return rc;
	if (args.npos > 0) {
		pl_error("unexpected argument '%s' (see 'perflab check --help')", args.pos[0]);
		return PL_EXIT_USAGE;
	}
	if (o.list) {
		if (list_rules(stdout) < 0 || fflush(stdout) != 0) {
			pl_error("cannot write the rule list to standard output");
			return PL_EXIT_RUNTIME;
		}
		return PL_EXIT_OK;
	}

	if (o.measure && !pl_sysroot_is_live()) {
		pl_error("--measure runs benchmarks on this machine, not on the --sysroot tree "
			 "(drop one of them)");
		return PL_EXIT_USAGE;
	}
	pl_autojson json_t *measured = NULL;
	pl_cleanup(pl_facts_free) struct pl_facts f;
	pl_facts_init(&f);
	pl_cleanup(pl_findings_free) struct pl_findings fs = { 0 };
	int ret = pl_check_findings(o.workload, o.cpus, true, &f, &fs);
	if (ret >= 0)
		return ret;
	const char *wname = pl_workload_names[o.workload];
	if (o.measure) {
		struct pl_cnt_window w = { 0 };
		struct pl_bench_counting count = { count_begin, count_end, &w };
		measured = pl_bench_measure_findings(&fs, &count);
		pl_cnt_window_free(&w);
	}

	if (o.emit && (ret = emit_profile(o.emit, &fs, o.fail_on, wname)) != PL_EXIT_OK)
		return ret;
	struct pl_outfile out;
	int r = pl_outfile_open(&out, pl_g.output);
	if (r < 0) {
		char m[512];
		pl_error("%s", pl_outfile_strerror(m, sizeof(m), pl_g.output, r));
		return PL_EXIT_USAGE;
	}
	if (pl_g.json || o.format != FMT_TEXT) {
		pl_autojson json_t *doc = pl_findings_to_json(&fs, wname);
		if (measured)
			json_object_set_new(doc, "measured", measured_json(measured));
		if (o.format == FMT_PROM)
			r = pl_prom_write_check(out.fp, doc);
		else
			r = pl_json_write(out.fp, doc);
	} else {
		pl_check_print(out.fp, &fs, wname);
		if (measured && json_array_size(measured) == 0)
			fprintf(out.fp, "measured: no finding has a benchmark that measures it\n");
	}
	if (pl_outfile_close(&out, r == 0) < 0 || r < 0) {
		pl_error("cannot write '%s'", pl_g.output ? pl_g.output : "standard output");
		return PL_EXIT_RUNTIME;
	}
	ret = PL_EXIT_OK;
	for (size_t i = 0; i < fs.n; i++)
		if ((int)fs.v[i].severity >= o.fail_on)
			ret = PL_EXIT_FINDINGS;
	return ret;
}
