/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab report: the main job. inspect + check on this machine, a terminal summary, and
 * report.json / report.md in a directory (default ./perflab-report). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/common.h"
#include "facts/facts.h"
#include "out/json.h"
#include "out/report.h"
#include "rules/rules.h"
#include "util/outfile.h"
#include "util/str.h"

struct report_opts {
	int workload;
};

static const struct pl_opt report_opts[] = {
	{ "workload", 'w', PL_OPT_ENUM, offsetof(struct report_opts, workload), "W",
	  "which rules apply", pl_workload_names, .def = "general" },
	PL_OPT_END,
};

static const struct pl_cmd_info info = {
	.name = "report",
	.usage = "perflab report [-o DIR] [--workload W] [--json] [--sysroot DIR]",
	.summary = "Inspect and check this machine; write DIR/report.json and DIR/report.md.",
	.description = "-o DIR names the report directory (default ./perflab-report; created when\n"
		       "missing). Each file is written to a temporary name and renamed into place,\n"
		       "so a failure never leaves a half-written report. --json prints report.json\n"
		       "on stdout as well.",
};

static int write_md(const char *path, const json_t *doc)
{
	struct pl_outfile o;
	int r = pl_outfile_open(&o, path);
	if (r < 0)
		return r;
	r = pl_report_write_markdown(o.fp, doc);
	int c = pl_outfile_close(&o, r == 0);
	return r < 0 ? r : c;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { 0 };
	struct pl_args args;
	int rc = pl_cmd_parse(argc, argv, &info, report_opts, &o, &args);
	if (rc >= 0)
		return rc;
	if (args.npos > 0) {
		pl_error("unexpected argument '%s' (see 'perflab report --help')", args.pos[0]);
		pl_args_free(&args);
		return PL_EXIT_USAGE;
	}
	pl_args_free(&args);

	const char *dir = pl_g.output ? pl_g.output : "perflab-report";
	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		pl_error("cannot create report directory '%s': %s (choose another with -o DIR)", dir,
			 strerror(errno));
		return PL_EXIT_USAGE;
	}
	struct stat st;
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		pl_error("'%s' is not a directory (choose another with -o DIR)", dir);
		return PL_EXIT_USAGE;
	}

	struct pl_facts f;
	pl_facts_init(&f);
	pl_facts_collect_all(&f);
	struct pl_findings fs = { 0 };
	pl_rules_eval(&f, 1u << o.workload, &fs);
	json_t *doc = pl_report_build(&f, &fs, pl_workload_names[o.workload], pl_now_epoch());

	int ret = PL_EXIT_OK;
	char *jpath = pl_xasprintf("%s/report.json", dir);
	char *mpath = pl_xasprintf("%s/report.md", dir);
	int r = pl_json_write_path(jpath, doc);
	if (r == 0)
		r = write_md(mpath, doc);
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
	free(jpath);
	free(mpath);
	json_decref(doc);
	pl_findings_free(&fs);
	pl_facts_free(&f);
	return ret;
}
