/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab check: evaluate the rules for a workload over the collected facts. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/check.h"
#include "cmd/common.h"
#include "out/json.h"
#include "util/outfile.h"
#include "util/str.h"

struct check_opts {
	int workload;
	int fail_on;
	bool list;
};

static const struct pl_opt check_opts[] = {
	{ "workload", 'w', PL_OPT_ENUM, offsetof(struct check_opts, workload), "W",
	  "which rules apply", pl_workload_names, .def = "general" },
	{ "fail-on", 0, PL_OPT_ENUM, offsetof(struct check_opts, fail_on), "SEVERITY",
	  "exit 1 when a finding is at least this severe", pl_severity_names, .def = "crit" },
	{ "list-rules", 0, PL_OPT_FLAG, offsetof(struct check_opts, list), NULL,
	  "list every rule (id, severity, workloads, title) and exit" },
	PL_OPT_END,
};

static const struct pl_cmd_info info = {
	.name = "check",
	.usage = "perflab check [--workload W] [--fail-on SEVERITY] [--json] [--sysroot DIR]",
	.summary = "Check the machine against tuning rules for a workload.",
	.description = "Each finding says what was observed, what was expected, why (with a public\n"
		       "source) and how to fix it: a command and the tuned-format profile line.\n"
		       "Exit status 1 when a finding is at or above --fail-on.",
};

void pl_check_print(FILE *out, const struct pl_findings *fs, const char *workload)
{
	const char *b = pl_style(out, "bold"), *r = pl_style(out, "reset");
	const char *col[3] = { pl_style(out, "dim"), pl_style(out, "yellow"), pl_style(out, "red") };
	static const char *label[3] = { "INFO", "WARN", "CRIT" };
	size_t count[3] = { 0 };
	for (size_t i = 0; i < fs->n; i++)
		count[fs->v[i].severity]++;
	fprintf(out, "%sperflab check%s (workload: %s): %zu findings: %zu crit, %zu warn, %zu info\n",
		b, r, workload, fs->n, count[2], count[1], count[0]);
	for (int s = PL_SEV_CRIT; s >= PL_SEV_INFO; s--) {
		if (!count[s])
			continue;
		fprintf(out, "\n%s%s%s\n", b, s == 2 ? "Critical" : s == 1 ? "Warnings" : "Info", r);
		for (size_t i = 0; i < fs->n; i++) {
			const struct pl_finding *x = &fs->v[i];
			if ((int)x->severity != s)
				continue;
			fprintf(out, "  %s[%s]%s %s%s%s%s  (%s)\n", col[s], label[s], r, x->rule->title,
				x->subject ? ": " : "", x->subject ? x->subject : "",
				x->rule->risky ? " [risky setting]" : "", x->rule->id);
			fprintf(out, "         observed: %s\n         expected: %s\n", x->observed,
				x->expected);
			if (x->fix_command)
				fprintf(out, "         fix:      %s\n", x->fix_command);
			if (x->fix_tune)
				fprintf(out, "         profile:  %s\n", x->fix_tune);
			if (pl_verbosity > 0)
				fprintf(out, "         why:      %s\n         source:   %s\n",
					x->rule->rationale, x->rule->source);
		}
	}
}

static void list_rules(FILE *out)
{
	for (size_t t = 0; t < pl_nrule_tables; t++)
		for (size_t i = 0; i < *pl_rule_tables[t].n; i++) {
			const struct pl_rule *r = &pl_rule_tables[t].rules[i];
			struct pl_buf wl = { 0 };
			for (int k = 0; pl_workload_names[k]; k++)
				if (r->workloads & (1u << k))
					pl_buf_printf(&wl, "%s%s", wl.len ? "," : "", pl_workload_names[k]);
			fprintf(out, "%-34s %-4s %-40s %s\n", r->id, pl_severity_names[r->severity],
				r->workloads == PL_WL_ALL ? "all" : wl.data, r->title);
			pl_buf_free(&wl);
		}
}

int cmd_check(int argc, char **argv)
{
	struct check_opts o = { .workload = 0, .fail_on = PL_SEV_CRIT };
	struct pl_args args;
	int rc = pl_cmd_parse(argc, argv, &info, check_opts, &o, &args);
	if (rc >= 0)
		return rc;
	if (args.npos > 0) {
		pl_error("unexpected argument '%s' (see 'perflab check --help')", args.pos[0]);
		pl_args_free(&args);
		return PL_EXIT_USAGE;
	}
	pl_args_free(&args);
	if (o.list) {
		list_rules(stdout);
		return PL_EXIT_OK;
	}

	struct pl_facts f;
	pl_facts_init(&f);
	pl_facts_collect_all(&f);
	struct pl_findings fs = { 0 };
	const char *wname = pl_workload_names[o.workload];
	pl_rules_eval(&f, 1u << o.workload, &fs);

	int ret = PL_EXIT_OK;
	struct pl_outfile out;
	int r = pl_outfile_open(&out, pl_g.output);
	if (r < 0) {
		pl_error("cannot write '%s': %s", pl_g.output, strerror(-r));
		ret = PL_EXIT_USAGE;
		goto done;
	}
	if (pl_g.json) {
		json_t *doc = pl_findings_to_json(&fs, wname);
		r = pl_json_write(out.fp, doc);
		json_decref(doc);
	} else {
		pl_check_print(out.fp, &fs, wname);
	}
	if (pl_outfile_close(&out, r == 0) < 0 || r < 0) {
		pl_error("cannot write '%s'", pl_g.output ? pl_g.output : "standard output");
		ret = PL_EXIT_RUNTIME;
		goto done;
	}
	for (size_t i = 0; i < fs.n; i++)
		if ((int)fs.v[i].severity >= o.fail_on)
			ret = PL_EXIT_FINDINGS;
done:
	pl_findings_free(&fs);
	pl_facts_free(&f);
	return ret;
}
