/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab report: the main job. inspect + check on this machine (plus saved results given
 * with --from), a terminal summary, and report.json / report.md / report.html in a
 * directory (default ./perflab-report). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/bench.h"
#include "cmd/common.h"
#include "facts/facts.h"
#include "out/html.h"
#include "out/json.h"
#include "out/report.h"
#include "rules/rules.h"
#include "util/outfile.h"
#include "util/str.h"

struct report_opts {
	int workload;
	char **from;
	bool no_bench;
};

static const struct pl_opt report_opts[] = {
	{ "workload", 'w', PL_OPT_ENUM, offsetof(struct report_opts, workload), "W",
	  "which rules apply", pl_workload_names, .def = "general" },
	{ "from", 0, PL_OPT_STRLIST, offsetof(struct report_opts, from), "FILE",
	  "add a saved JSON result of bench, compare, profile, tune diff, check or report "
	  "(repeatable)" },
	{ "no-bench", 0, PL_OPT_FLAG, offsetof(struct report_opts, no_bench), NULL,
	  "skip the quick benchmarks (clock, syscall, mem, ticks: a few seconds; live only)" },
	PL_OPT_END,
};

static const struct pl_cmd_info info = {
	.name = "report",
	.usage = "perflab report [-o DIR] [--workload W] [--from FILE]... [--json] [--sysroot DIR]",
	.summary = "Inspect and check this machine; write DIR/report.{json,md,html}.",
	.description = "-o DIR names the report directory (default ./perflab-report; created when\n"
		       "missing). All inputs are read before anything is written, and each file is\n"
		       "written to a temporary name and renamed into place, so a bad input or a\n"
		       "failure leaves an earlier report untouched. --json also prints report.json\n"
		       "on stdout.",
};

/* The three report files, written to temporaries and renamed together at the end. */
enum { F_JSON, F_MD, F_HTML, NFILES };
static const char *const fnames[NFILES] = { "report.json", "report.md", "report.html" };

static int write_all(const char *dir, const json_t *doc)
{
	struct pl_outfile o[NFILES];
	int r = 0, opened = 0;
	for (; opened < NFILES && r == 0; opened++) {
		char *p = pl_xasprintf("%s/%s", dir, fnames[opened]);
		r = pl_outfile_open(&o[opened], p);
		free(p);
		if (r < 0)
			break;
	}
	if (r == 0)
		r = pl_json_write(o[F_JSON].fp, doc);
	if (r == 0)
		r = pl_report_write_markdown(o[F_MD].fp, doc);
	if (r == 0)
		r = pl_report_write_html(o[F_HTML].fp, doc);
	for (int i = 0; i < opened; i++) {
		int c = pl_outfile_close(&o[i], r == 0);
		if (r == 0 && c < 0)
			r = c;
	}
	return r;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { 0 };
	struct pl_args args;
	int rc = pl_cmd_parse(argc, argv, &info, report_opts, &o, &args);
	if (rc >= 0)
		return rc;
	int ret = PL_EXIT_OK;
	json_t *doc = NULL;
	struct pl_facts f;
	struct pl_findings fs = { 0 };
	pl_facts_init(&f);
	if (args.npos > 0) {
		pl_error("unexpected argument '%s' (see 'perflab report --help')", args.pos[0]);
		ret = PL_EXIT_USAGE;
		goto out;
	}

	const char *dir = pl_g.output ? pl_g.output : "perflab-report";
	struct stat st;
	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		pl_error("'%s' is not a directory (choose another with -o DIR)", dir);
		ret = PL_EXIT_USAGE;
		goto out;
	}

	pl_facts_collect_all(&f);
	pl_rules_eval(&f, 1u << o.workload, &fs);
	doc = pl_report_build(&f, &fs, pl_workload_names[o.workload], pl_now_epoch());
	for (char **p = o.from; p && *p; p++) {
		char err[512];
		if (pl_report_merge_file(doc, *p, err, sizeof(err)) < 0) {
			pl_error("--from: %s", err);
			ret = PL_EXIT_USAGE;
			goto out;
		}
	}

	if (!o.no_bench) { /* the quick section: bench documents after the --from ones */
		json_t *q = pl_bench_quick_json();
		if (!json_object_get(doc, "benchmarks"))
			json_object_set_new(doc, "benchmarks", json_array());
		json_array_extend(json_object_get(doc, "benchmarks"), q);
		json_decref(q);
	}
	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		pl_error("cannot create report directory '%s': %s (choose another with -o DIR)", dir,
			 strerror(errno));
		ret = PL_EXIT_USAGE;
		goto out;
	}
	int r = write_all(dir, doc);
	if (r < 0) {
		pl_error("cannot write the report into '%s': %s (choose another with -o DIR)", dir,
			 strerror(-r));
		ret = PL_EXIT_USAGE;
	} else if (pl_g.json) {
		if (pl_json_write(stdout, doc) < 0)
			ret = PL_EXIT_RUNTIME;
	} else {
		pl_report_print_summary(stdout, doc, dir);
	}
out:
	free(o.from);
	pl_args_free(&args);
	json_decref(doc);
	pl_findings_free(&fs);
	pl_facts_free(&f);
	return ret;
}
