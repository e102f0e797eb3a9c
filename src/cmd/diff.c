/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab diff OLD.json NEW.json: what changed between two saved documents of the same
 * kind (report, inspect, check, bench). The engine is report/diff.h. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/common.h"
#include "cmd/commands.h"
#include "render/diff.h"
#include "report/diff.h"
#include "util/json.h"
#include "util/cleanup.h"
#include "util/outfile.h"
#include "util/str.h"

struct diff_opts {
	const char *threshold;
};

static const struct pl_opt diff_opts[] = {
	{ "threshold", 0, PL_OPT_STR, offsetof(struct diff_opts, threshold), "D%",
	  "smallest change of a figure that counts (as perflab compare) [default: 1%]" },
	PL_OPT_END,
};

static const struct pl_cmd_info info = {
	.name = "diff",
	.usage = "perflab diff [--threshold D%] [--json] [-o FILE] OLD.json NEW.json",
	.summary = "What changed between two saved report, inspect, check or bench documents.",
	.description =
		"Facts that differ (old -> new, with the unit of the key), were added or\n"
		"removed; findings that appeared, were resolved or changed (by rule id and\n"
		"subject); and every benchmark figure on both sides: the two medians, the\n"
		"change in % and a verdict from the samples with perflab compare's statistics\n"
		"(Mann-Whitney U, the ratio of geometric means with its 95% CI, the\n"
		"--threshold); 'better' or 'worse' (by the metric's own direction) stands beside\n"
		"the change only with a verdict of change. A figure with fewer than 5\n"
		"runs on a side gets no verdict, and says so. Figures only on one side are\n"
		"listed. Both documents must be of the same kind (two bench documents of the\n"
		"same benchmark); anything else, unreadable JSON or a damaged member is exit 2\n"
		"with one line naming the input. --json prints the diff document\n"
		"(docs/schemas/diff.schema.json). `perflab report --baseline OLD/report.json`\n"
		"adds the same diff to a report.",
};

static int write_text(const json_t *d)
{
	struct pl_outfile out;
	int r = pl_outfile_open(&out, pl_g.output);
	if (r < 0) {
		char m[512];
		pl_error("%s", pl_outfile_strerror(m, sizeof(m), pl_g.output, r));
		return PL_EXIT_USAGE;
	}
	pl_diff_print_text(out.fp, d);
	return pl_outfile_close(&out, true) < 0 ? PL_EXIT_RUNTIME : PL_EXIT_OK;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_opts o = { 0 };
	struct pl_args args;
	int rc = pl_cmd_parse(argc, argv, &info, diff_opts, &o, &args);
	if (rc >= 0)
		return rc;
	int ret = PL_EXIT_USAGE;
	json_t *a = NULL, *b = NULL, *d = NULL;
	struct pl_diff_opts dopts = PL_DIFF_OPTS_DEFAULT;
	char err[1024];
	const char *ka = NULL, *kb = NULL;
	if (args.npos != 2) {
		pl_error("%s (usage: perflab diff OLD.json NEW.json)",
			 args.npos < 2 ? "give two documents" : "more than two documents given");
		goto out;
	}
	if (o.threshold && pl_opt_parse_pct("threshold", o.threshold, &dopts.threshold) < 0)
		goto out;
	if (!(a = pl_diff_load(args.pos[0], &ka, err, sizeof(err))) ||
	    !(b = pl_diff_load(args.pos[1], &kb, err, sizeof(err))) ||
	    !(d = pl_diff_build(a, ka, args.pos[0], b, kb, args.pos[1], &dopts, err,
				sizeof(err)))) {
		pl_error("%s", err);
		goto out;
	}
	if (pl_g.json) {
		int r = pl_json_write_path(pl_g.output, d);
		ret = PL_EXIT_OK;
		if (r < 0) {
			char m[512];
			pl_error("%s", pl_outfile_strerror(m, sizeof(m), pl_g.output, r));
			/* a full disk is a runtime failure, a path that cannot be opened a
			 * usage error (perflab(1), EXIT STATUS) */
			ret = r == -EIO || r == -ENOSPC || r == -EDQUOT ? PL_EXIT_RUNTIME
									: PL_EXIT_USAGE;
		}
	} else {
		ret = write_text(d);
	}
out:
	json_decref(a);
	json_decref(b);
	json_decref(d);
	pl_args_free(&args);
	return ret;
}
