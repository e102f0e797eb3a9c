/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab report: the main job. inspect + check on this machine (plus saved results given
 * with --from), a terminal summary, and report.json / report.md / report.html in a
 * directory (default ./perflab-report). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "report/plan.h"
#include "cmd/common.h"
#include "facts/facts.h"
#include "report/cluster.h"
#include "report/diff.h"
#include "render/html.h"
#include "util/json.h"
#include "render/monitor.h"
#include "report/from.h"
#include "report/keynums.h"
#include "report/report.h"
#include "render/cluster.h"
#include "render/markdown.h"
#include "render/summary.h"
#include "rules/rules.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/outfile.h"
#include "util/sysroot.h"
#include "util/str.h"

struct report_opts {
	int workload;
	char **from;
	const char *baseline;
	bool quick, full, no_bench, dry_run;
	const char *cpus;
};

static const struct pl_opt report_opts[] = {
	{ "workload", 'W', PL_OPT_ENUM, offsetof(struct report_opts, workload), "W",
	  "which rules apply", pl_workload_names, .def = "general", .was_short = 'w' },
	{ "from", 0, PL_OPT_STRLIST, offsetof(struct report_opts, from), "FILE",
	  "add a saved JSON result of bench, compare, profile, tune diff, check or report "
	  "(repeatable); 2 or more reports (or a directory of them) make a cluster report" },
	{ "baseline", 0, PL_OPT_STR, offsetof(struct report_opts, baseline), "FILE",
	  "an earlier report.json: add what changed since (facts, findings, figures)" },
	{ "quick", 0, PL_OPT_FLAG, offsetof(struct report_opts, quick), NULL,
	  "brief benchmarks (their --quick arguments), about 15 s in all (default: about 60 s, "
	  "3-5 runs each at full sizes)" },
	{ "full", 0, PL_OPT_FLAG, offsetof(struct report_opts, full), NULL,
	  "each benchmark with its own defaults, as long as it takes (compress alone: minutes)" },
	{ "no-bench", 0, PL_OPT_FLAG, offsetof(struct report_opts, no_bench), NULL,
	  "inspect and check only" },
	{ "cpus", 'C', PL_OPT_CPUS, offsetof(struct report_opts, cpus), "LIST",
	  "the CPUs the workload runs on: check's workload.cpus (GPU/NIC NUMA rules) and "
	  "--cpus LIST of every benchmark" },
	{ "dry-run", 0, PL_OPT_FLAG, offsetof(struct report_opts, dry_run), NULL,
	  "print the benchmark plan of the mode (arguments, runs, sizes and why; --json: as "
	  "JSON; with --sysroot DIR from that tree's facts) and exit; nothing is measured or "
	  "written" },
	PL_OPT_END,
};

static const struct pl_cmd_info info = {
	.name = "report",
	.usage = "perflab report [-o DIR] [--workload W] [--quick | --full | --no-bench]\n"
		 "       [--cpus LIST] [--from FILE]... [--baseline OLD/report.json] [--json]\n"
		 "       [--sysroot DIR]\n"
		 "       perflab report --dry-run [--quick | --full] [--cpus LIST] [--json]\n"
		 "       [--sysroot DIR]",
	.summary = "Inspect, check and benchmark this machine; write DIR/report.{json,md,html}.",
	.description =
		"-o DIR names the report directory (default ./perflab-report; created when\n"
		"missing). All inputs are read before anything is written, and each file is\n"
		"written to a temporary name and renamed into place, so a bad input or a\n"
		"failure leaves an earlier report untouched. --json also prints report.json\n"
		"on stdout. Each --from document is checked when it is read: a member the\n"
		"report uses that is missing, of another type or out of range is exit 2,\n"
		"naming the file and the JSON path ($.findings[3].severity). --baseline adds\n"
		"\"Changes since baseline\" to every output, as perflab diff shows it.\n"
		"perflab monitor documents are drawn on their own: DIR/monitor.html (charts)\n"
		"and DIR/monitor.md (mean, p95, max of each series).\n\n"
		"The benchmarks (clock, syscall, mem, ticks, io on the report's file system,\n"
		"net on loopback, compress on a built-in corpus) run with the arguments of the\n"
		"mode (io in the report directory, or beside it when this run creates it):\n"
		"  default  about 60 s: 3-5 runs each, at the sizes their standalone defaults use\n"
		"           (mem: arrays 4x the last-level cache, in a VM at most 64 MiB per\n"
		"           CPU, capped at 60% of MemAvailable, with the reason; io: a 256 MiB\n"
		"           file read with O_DIRECT where the file system supports it, else\n"
		"           cold; net: 64-byte round trips and streams;\n"
		"           compress: level 1 of each backend on a 16 MiB corpus), so each\n"
		"           figure agrees with 'perflab bench NAME' run alone;\n"
		"  --quick  about 15 s: their brief --quick arguments (small sizes, 1-3 runs;\n"
		"           the figures carry that note);\n"
		"  --full   each with its own defaults, no budget.\n"
		"A benchmark that would start after the budget is used runs with its --quick\n"
		"arguments instead, its first note naming the benchmarks that took the time\n"
		"(\"used up after T s (bench NAME took S s, ...)\"); with --quick it is listed\n"
		"as skipped with that reason. Each result records its arguments (runner.args).\n"
		"--cpus LIST (-C) names the CPUs the workload runs on, as check -C does, for\n"
		"the rules that compare them with a GPU's or NIC's NUMA node, and runs every\n"
		"benchmark with --cpus LIST (mem: one thread per CPU of the list); a CPU that is\n"
		"offline or outside this process's affinity is exit 2 before anything runs.\n"
		"--dry-run prints the plan (with --sysroot DIR, from that tree's facts: mem's\n"
		"array size from its caches, CPUs and memory). Benchmarks need the live system:\n"
		"with --sysroot they are left out. A progress line per stage goes to stderr on a\n"
		"terminal. Ctrl-C stops the current stage and writes what is done (exit 130).",
	.output_arg = "DIR",
	.output_help = "the report directory: DIR/report.{json,md,html} (default "
		       "./perflab-report; created when missing)",
	.json_help = "also print report.json on stdout (the files are written all the same)",
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

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* "[3/8] bench mem" on stderr, overwriting itself, only on a terminal. */
static void progress(int k, int n, const char *what)
{
	if (!isatty(STDERR_FILENO) || pl_verbosity < 0)
		return;
	if (what)
		fprintf(stderr, "\r\033[Kperflab report: [%d/%d] %s...", k, n, what);
	else
		fputs("\r\033[K", stderr);
	fflush(stderr);
}

/* Run the plan's benchmarks into report["benchmarks"] (before any --from ones), with a
 * progress line per benchmark. Returns the seconds they took. */
static void progress_cb(size_t k, const char *what, void *ctx)
{
	const int *stage = ctx;
	progress(stage[0] + (int)k + 1, stage[1], what);
}

static double run_benchmarks(json_t *doc, const struct pl_bench_plan *plan, int stage, int nstages)
{
	json_t *arr = json_array();
	int st[2] = { stage, nstages };
	double s = pl_bench_plan_run_all(plan, arr, &interrupted, progress_cb, st);
	progress(0, 0, NULL);
	/* --from documents come after the ones measured now */
	json_t *old = json_object_get(doc, "benchmarks");
	size_t k;
	json_t *x;
	json_array_foreach(old, k, x) json_array_append(arr, x);
	json_object_set_new(doc, "benchmarks", arr);
	return s;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { 0 };
	struct pl_args args;
	int rc = pl_cmd_parse(argc, argv, &info, report_opts, &o, &args);
	if (rc >= 0) {
		free(o.from); /* --from values parsed before a bad option */
		return rc;
	}
	int ret = PL_EXIT_OK;
	json_t *doc = NULL, *base = NULL;
	struct pl_facts f;
	struct pl_findings fs = { 0 };
	struct pl_bench_plan plan = { 0 };
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

	/* A --from path that cannot be opened is the commonest slip (a typo, a file from
	 * another machine not copied yet): say so with the fix before any document is read. */
	for (char **p = o.from; p && *p; p++) {
		if (access(*p, R_OK) != 0) {
			int e = errno;
			pl_error("--from: cannot open '%s': %s (give a JSON document written by "
				 "perflab --json or -o, a report.json, or a directory of them)",
				 *p, strerror(e));
			ret = PL_EXIT_USAGE;
			goto out;
		}
	}

	if (o.quick && o.full) {
		pl_error("--quick and --full exclude each other (pick one)");
		ret = PL_EXIT_USAGE;
		goto out;
	}
	enum pl_bench_mode mode = o.full    ? PL_BENCH_MODE_FULL
				  : o.quick ? PL_BENCH_MODE_QUICK
					    : PL_BENCH_MODE_DEFAULT;
	if (pl_bench_plan_make(&plan, mode, o.cpus) < 0) {
		ret = PL_EXIT_RUNTIME;
		goto out;
	}
	if (o.dry_run) {
		if (o.no_bench || o.from) {
			pl_error("--dry-run prints the benchmark plan only (drop --no-bench and "
				 "--from)");
			ret = PL_EXIT_USAGE;
		} else if (pl_bench_plan_print(stdout, &plan, pl_g.json) < 0) {
			ret = PL_EXIT_RUNTIME;
		}
		goto out;
	}
	/* monitor documents are drawn as time series (render/monitor.h) */
	char merr[1024];
	if ((rc = pl_monview_from(o.from, dir, pl_g.json ? NULL : stdout, merr, sizeof(merr))) <=
	    0) {
		if (rc < 0)
			pl_error("--from: %s", merr);
		ret = rc == 0 ? PL_EXIT_OK : rc == -EINVAL ? PL_EXIT_USAGE : PL_EXIT_RUNTIME;
		goto out;
	}
	/* Two or more report documents (or a directory of them) are a cluster: report/cluster.h */
	json_t *nodes = NULL;
	char cerr[1024];
	int nrep = o.from ? pl_cluster_scan_inputs(o.from, &nodes, cerr, sizeof(cerr)) : 0;
	if (nrep < 0 || (nodes && o.baseline)) {
		if (nrep < 0)
			pl_error("--from: %s", cerr);
		else
			pl_error("--baseline: a cluster report has no baseline (drop it)");
		json_decref(nodes);
		ret = PL_EXIT_USAGE;
		goto out;
	} else if (nodes) {
		rc = pl_cluster_report(nodes, dir, pl_g.json, pl_now_epoch());
		json_decref(nodes);
		ret = rc == 0			? PL_EXIT_OK
		      : rc == -EIO && pl_g.json ? PL_EXIT_RUNTIME
						: PL_EXIT_USAGE;
		goto out;
	}
	/* Read every --from input before anything runs or is written. */
	json_t *from = json_object();
	for (char **p = o.from; p && *p; p++) {
		char err[512];
		if (pl_report_merge_file(from, *p, err, sizeof(err)) < 0) {
			pl_error("--from: %s", err);
			json_decref(from);
			ret = PL_EXIT_USAGE;
			goto out;
		}
	}

	const char *bkind = NULL;
	char berr[1024];
	if (o.baseline && (!(base = pl_diff_load(o.baseline, &bkind, berr, sizeof(berr))) ||
			   strcmp(bkind, "report") != 0)) {
		if (base)
			snprintf(berr, sizeof(berr), "'%s' is a %s document, not a report.json",
				 o.baseline, bkind);
		pl_error("--baseline: %s (give the report.json of an earlier perflab report)",
			 berr);
		json_decref(from);
		ret = PL_EXIT_USAGE;
		goto out;
	}

	bool bench = !o.no_bench && pl_sysroot_is_live();
	if (bench && o.cpus) {
		char cerr2[512];
		rc = pl_bench_cpus_check(o.cpus, cerr2, sizeof(cerr2));
		if (rc) {
			pl_error("%s", cerr2);
			json_decref(from);
			ret = rc;
			goto out;
		}
	}
	int nstages = 2 + (bench ? (int)plan.n : 0);
	struct sigaction sa = { .sa_handler = on_sigint }, old_int;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);

	progress(1, nstages, "inspect");
	pl_facts_set_sysctl_names(pl_rules_sysctl_names());
	pl_facts_collect_all(&f);
	if (o.cpus) /* read by pl_rf_workload_cpus before isolcpus=/nohz_full=, as check -C */
		pl_fact_str(&f, "workload.cpus", o.cpus, "--cpus");
	rc = pl_cmd_require_facts(&f); /* a wrong --sysroot is an error, not a clean report */
	if (rc >= 0) {
		progress(0, 0, NULL);
		sigaction(SIGINT, &old_int, NULL);
		json_decref(from);
		ret = rc;
		goto out;
	}
	progress(2, nstages, "check");
	pl_rules_eval(&f, 1u << o.workload, &fs);
	doc = pl_report_build(&f, &fs, pl_workload_names[o.workload], pl_now_epoch());
	/* merge the --from inputs: whole sections replace, result lists append */
	const char *key;
	json_t *val;
	json_object_foreach(from, key, val)
	{
		if (json_is_array(val)) {
			json_t *arr = json_object_get(doc, key);
			if (!arr) {
				arr = json_array();
				json_object_set_new(doc, key, arr);
			}
			json_array_extend(arr, val);
		} else {
			json_object_set(doc, key, val);
		}
	}
	json_decref(from);
	/* bench io works on the report's file system: in DIR, or beside it until it exists */
	char *workdir = pl_xstrdup(dir);
	if (stat(dir, &st) != 0) {
		char *slash = strrchr(workdir, '/');
		if (!slash)
			strcpy(workdir, ".");
		else if (slash == workdir)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	/* a directory that cannot be created fails now, not after a minute of benchmarks */
	struct stat pst;
	int perr = stat(workdir, &pst) != 0 ? errno : !S_ISDIR(pst.st_mode) ? ENOTDIR : 0;
	if (stat(dir, &st) != 0 && perr) {
		pl_error("cannot create report directory '%s': %s (choose another with -o DIR)",
			 dir, strerror(perr));
		free(workdir);
		progress(0, 0, NULL);
		sigaction(SIGINT, &old_int, NULL);
		ret = PL_EXIT_USAGE;
		goto out;
	}
	pl_bench_workdir = workdir;
	double bench_s = 0;
	if (bench && !interrupted)
		bench_s = run_benchmarks(doc, &plan, 2, nstages);
	pl_bench_workdir = NULL;
	free(workdir);
	progress(0, 0, NULL);
	sigaction(SIGINT, &old_int, NULL);
	json_t *meta = json_object();
	json_object_set_new(meta, "mode",
			    pl_json_string(o.no_bench || !bench ? "no-bench"
					   : o.full		? "full"
					   : o.quick		? "quick"
								: "default"));
	json_object_set_new(meta, "interrupted", json_boolean(interrupted));
	if (o.cpus)
		json_object_set_new(meta, "cpus", pl_json_string(o.cpus));
	if (bench) {
		json_object_set_new(meta, "budget_s", json_real(pl_bench_mode_budget(mode)));
		json_object_set_new(meta, "bench_elapsed_s", json_real(bench_s));
	}
	if (!pl_sysroot_is_live())
		json_object_set_new(meta, "note",
				    pl_json_string("benchmarks left out: --sysroot "
						   "reads another machine's files"));
	json_object_set_new(doc, "run", meta);
	struct pl_diff_opts dopts = PL_DIFF_OPTS_DEFAULT;
	if (base)
		json_object_set_new(doc, "baseline",
				    pl_diff_build(base, "report", o.baseline, doc, "report",
						  "this report", &dopts, berr, sizeof(berr)));

	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		pl_error("cannot create report directory '%s': %s (choose another with -o DIR)",
			 dir, strerror(errno));
		ret = PL_EXIT_USAGE;
		goto out;
	}
	pl_report_annotate(doc); /* evidence of findings, key numbers */
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
	if (ret == PL_EXIT_OK && interrupted) {
		pl_warn("interrupted: the report has what was done until Ctrl-C");
		ret = PL_BENCH_EXIT_INTERRUPTED;
	}
out:
	pl_bench_plan_free(&plan);
	free(o.from);
	pl_args_free(&args);
	json_decref(doc);
	json_decref(base);
	pl_findings_free(&fs);
	pl_facts_free(&f);
	return ret;
}
