/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab bench: the command line (the benchmark's name, its options and the runner's,
 * the global --json/-o) and the output; the runner does the work (src/bench/runner.c);
 * benchmarks are listed in src/bench/list.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "cli/common.h"
#include "cmd/commands.h"
#include "cli/node.h"
#include "util/json.h"
#include "render/prom.h"
#include "util/log.h"
#include "util/outfile.h"

static const struct pl_cmd_info bench_info = {
	.name = "bench",
	.usage = "perflab bench --list | perflab bench NAME [options] [--json] [-o FILE]",
	.summary = "Run a registered benchmark with warm-up, repetitions, pinning and statistics.",
	.description =
		"Every result gives best, median, mean, stddev, min, max and n of the\n"
		"repetitions (the table's worst run: the max of a time, the min of a bandwidth\n"
		"or rate)\n"
		"and the environment that shaped it (kernel, CPU, governor, clocksource,\n"
		"hypervisor, mitigations, pinning, load and steal during the run).\n"
		"--precision P runs until each headline metric's 95% confidence interval of\n"
		"the median (order statistics) is within P% of it, --max-time (60 s) or 1000\n"
		"runs, dropping leading runs that have not settled (perflab-bench(1), PRECISION).\n"
		"'perflab bench NAME --help' shows a benchmark's own options. --json follows\n"
		"docs/schemas/bench.schema.json. Exit status: 0 ok, 2 bad input, 3 not\n"
		"supported here or runtime failure, 130 interrupted (results so far are\n"
		"still printed).",
};

/* Index in argv of the benchmark name: the first argument that is neither an option nor
 * the value of a runner/global option. 0 when there is none. */
static int find_name(int argc, char **argv)
{
	const struct pl_opt *tables[] = { pl_bench_runner_opts, pl_global_opts };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0)
			return 0;
		if (a[0] != '-' || a[1] == '\0')
			return i;
		bool value = false;
		for (size_t t = 0; t < 2; t++)
			for (const struct pl_opt *o = tables[t]; o->name; o++) {
				bool takes = o->type != PL_OPT_FLAG && o->type != PL_OPT_COUNT;
				if (a[1] == '-' && strcmp(a + 2, o->name) == 0)
					value = takes;
				else if (a[1] != '-' && o->short_name && a[1] == o->short_name &&
					 a[2] == '\0')
					value = takes;
			}
		if (value)
			i++;
	}
	return 0;
}

static int write_doc(const json_t *d, int format)
{
	if (pl_g.json || format == PL_BENCH_FMT_JSON)
		return pl_json_write_path(pl_g.output, d);
	struct pl_outfile o;
	int r = pl_outfile_open(&o, pl_g.output);
	if (r < 0)
		return r;
	if (format == PL_BENCH_FMT_PROM)
		r = pl_prom_write_bench(o.fp, d, 1);
	else
		pl_bench_print_table(o.fp, d);
	return pl_outfile_close(&o, r == 0 && !ferror(o.fp));
}

void pl_bench_cmd_free(struct pl_bench_cmd *c)
{
	if (c && c->b)
		pl_bench_opts_free(c->b, c->opts);
	if (c)
		*c = (struct pl_bench_cmd){ 0 };
}

int pl_bench_cmd_parse(int argc, char **argv, const char *usage_fmt, const struct pl_optset *extra,
		       size_t nextra, struct pl_bench_cmd *c)
{
	*c = (struct pl_bench_cmd){ .ro = { .warmup = -1 } };
	struct pl_bench_run_opts *ro = &c->ro;
	struct pl_args args;
	struct pl_optset sets[4];
	size_t ns = 0;
	int ni = find_name(argc, argv);
	if (ni == 0) {
		sets[ns++] = (struct pl_optset){ pl_bench_runner_opts, ro, "Runner options" };
		for (size_t i = 0; i < nextra && i < 2; i++)
			sets[ns++] = extra[i];
		struct pl_cmd_info info = bench_info;
		int rc = pl_cmd_parse_sets(argc, argv, &info, sets, ns, &args);
		if (rc >= 0) {
			if (rc == 0 && pl_g.help)
				pl_bench_print_list(stdout);
			return rc;
		}
		pl_args_free(&args);
		if (ro->list) {
			pl_bench_print_list(stdout);
			return pl_flush_stdout() < 0 ? PL_EXIT_RUNTIME : PL_EXIT_OK;
		}
		pl_error("which benchmark? (see '%s bench --list')", pl_cmd_program);
		return PL_EXIT_USAGE;
	}
	const struct pl_bench *b = pl_bench_find(argv[ni]);
	if (!b) {
		static char prog[64];
		snprintf(prog, sizeof(prog), "%s bench", pl_cmd_program);
		pl_progname = prog;
		pl_error("unknown benchmark '%s' (see '%s bench --list')", argv[ni],
			 pl_cmd_program);
		return PL_EXIT_USAGE;
	}
	/* argv without the name, so the name's options parse like any command's; --quick puts
	 * the benchmark's quick arguments first, so the user's options override them */
	bool quick = false;
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		quick = quick || strcmp(argv[i], "--quick") == 0;
	size_t nq = 0;
	while (quick && b->quick_argv && b->quick_argv[nq])
		nq++;
	char *nargv[(size_t)argc + nq + 1];
	int n = 0;
	nargv[n++] = argv[0];
	for (size_t i = 0; i < nq; i++)
		nargv[n++] = (char *)b->quick_argv[i];
	for (int i = 1; i < argc; i++)
		if (i != ni)
			nargv[n++] = argv[i];
	nargv[n] = NULL;
	char name[64], usage[160];
	snprintf(name, sizeof(name), "bench %s", b->name);
	snprintf(usage, sizeof(usage),
		 usage_fmt ? usage_fmt : "perflab bench %s [options] [--json] [-o FILE]", b->name);
	struct pl_cmd_info info = { name, usage, b->summary, b->description };
	void *opts = pl_bench_opts_new(b);
	sets[ns++] = (struct pl_optset){ b->opts, opts, "Options" };
	sets[ns++] =
		(struct pl_optset){ pl_bench_runner_opts, ro, "Runner options (every benchmark)" };
	for (size_t i = 0; i < nextra && i < 2; i++)
		sets[ns++] = extra[i];
	int rc = pl_cmd_parse_sets(n, nargv, &info, sets, ns, &args);
	if (rc >= 0) {
		pl_bench_opts_free(b, opts);
		return rc;
	}
	if (args.npos > 0) {
		pl_error("unexpected argument '%s' (see '%s bench %s --help')", args.pos[0],
			 pl_cmd_program, b->name);
		pl_args_free(&args);
		pl_bench_opts_free(b, opts);
		return PL_EXIT_USAGE;
	}
	pl_args_free(&args);
	if (ro->list) {
		pl_bench_print_list(stdout);
		pl_bench_opts_free(b, opts);
		return pl_flush_stdout() < 0 ? PL_EXIT_RUNTIME : PL_EXIT_OK;
	}
	/* a --runs of --quick's arguments yields to --precision; the user's own does not */
	bool runs_given = false;
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		runs_given = runs_given || strcmp(argv[i], "--runs") == 0 ||
			     strncmp(argv[i], "--runs=", 7) == 0 || strncmp(argv[i], "-r", 2) == 0;
	if (pl_bench_run_opts_check(ro, runs_given) < 0) {
		pl_bench_opts_free(b, opts);
		return PL_EXIT_USAGE;
	}
	c->b = b;
	c->opts = opts;
	return -1;
}

int cmd_bench(int argc, char **argv)
{
	struct pl_bench_cmd c;
	int rc = pl_bench_cmd_parse(argc, argv, NULL, NULL, 0, &c);
	if (rc >= 0)
		return rc;
	const struct pl_bench *b = c.b;
	void *opts = c.opts;
	struct pl_bench_run_opts ro = c.ro;
	json_t *doc;
	char err[512];
	/* -o checked before the run, so no measurement is lost to a path that cannot take
	 * it */
	if ((rc = pl_outfile_check(pl_g.output)) < 0) {
		pl_error("%s", pl_outfile_strerror(err, sizeof(err), pl_g.output, rc));
		pl_bench_opts_free(b, opts);
		return PL_EXIT_USAGE;
	}
	rc = pl_bench_run(b, opts, &ro, isatty(STDERR_FILENO) && pl_verbosity >= 0, &doc, err,
			  sizeof(err));
	pl_bench_opts_free(b, opts);
	if (!doc) {
		if (rc != PL_EXIT_OK) /* a standalone mode (a server) ended normally */
			pl_error("%s", err);
		return rc;
	}
	bool skipped = strcmp(pl_json_str(doc, "status"), "skipped") == 0;
	if (rc == PL_EXIT_RUNTIME) /* skipped or failed validation: say why */
		pl_error("%s", err);
	if (!skipped || pl_g.json) {
		int w = write_doc(doc, ro.format);
		if (w < 0) {
			char m[512];
			pl_error("%s", pl_outfile_strerror(m, sizeof(m), pl_g.output, w));
			json_decref(doc);
			return PL_EXIT_USAGE;
		}
	}
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(doc, "warnings"), i, v)
		pl_warn("%s", json_string_value(v));
	json_decref(doc);
	return rc;
}
