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
#include "cli/common.h"
#include "cmd/commands.h"
#include "facts/facts.h"
#include "render/cluster.h"
#include "render/html.h"
#include "render/markdown.h"
#include "render/monitor.h"
#include "render/summary.h"
#include "report/cluster.h"
#include "report/diff.h"
#include "report/fleet.h"
#include "report/from.h"
#include "report/keynums.h"
#include "report/node.h"
#include "report/bench_plan.h"
#include "rules/rules.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/outdir.h"
#include "util/outfile.h"
#include "util/str.h"
#include "util/sysroot.h"

struct report_opts {
	int workload;
	char **from;
	const char *baseline;
	bool quick, full, no_bench, dry_run, fleet;
	const char *cpus;
};

static const struct pl_opt report_opts[] = {
	{ "workload", 'W', PL_OPT_ENUM, offsetof(struct report_opts, workload), "W",
	  "which rules apply", pl_workload_names, .def = "general", .was_short = 'w' },
	{ "from", 0, PL_OPT_STRLIST, offsetof(struct report_opts, from), "FILE",
	  "add a saved JSON result of bench, compare, profile, tune diff, check or report "
	  "(repeatable; a benchmark given is not run again); 2 or more reports (or a directory "
	  "of them) make a cluster report" },
	{ "baseline", 0, PL_OPT_STR, offsetof(struct report_opts, baseline), "FILE",
	  "an earlier report.json: add what changed since (facts, findings, figures)" },
	{ "quick", 0, PL_OPT_FLAG, offsetof(struct report_opts, quick), NULL,
	  "brief benchmarks (their --quick arguments), about 15 s in all (default: about 60 s, "
	  "each to 1% precision at full sizes)" },
	{ "full", 0, PL_OPT_FLAG, offsetof(struct report_opts, full), NULL,
	  "each benchmark with its own defaults, as long as it takes (compress alone: minutes)" },
	{ "no-bench", 0, PL_OPT_FLAG, offsetof(struct report_opts, no_bench), NULL,
	  "inspect and check only" },
	{ "cpus", 'C', PL_OPT_CPUS, offsetof(struct report_opts, cpus), "LIST",
	  "the CPUs the workload runs on: check's workload.cpus (GPU/NIC NUMA rules) and "
	  "--cpus LIST of every benchmark" },
	{ "fleet", 0, PL_OPT_FLAG, offsetof(struct report_opts, fleet), NULL,
	  "the arguments are snapshot archives of perflab snapshot (or directories of "
	  "*.tar.zst): one report across those machines (drift, findings per node), no "
	  "benchmarks" },
	{ "dry-run", 0, PL_OPT_FLAG, offsetof(struct report_opts, dry_run), NULL,
	  "print the benchmark plan of the mode (arguments, runs, sizes and why; --json: as "
	  "JSON; with --sysroot DIR from that tree's facts) and exit; nothing is measured or "
	  "written" },
	PL_OPT_END,
};

static const struct pl_cmd_info info = {
	.name = "report",
	.paths_after = "fleet",
	.usage = "perflab report [-o DIR] [--workload W] [--quick | --full | --no-bench]\n"
		 "       [--cpus LIST] [--from FILE]... [--baseline OLD/report.json] [--json]\n"
		 "       [--sysroot DIR]\n"
		 "       perflab report --fleet [-o DIR] [--workload W] [--json] SNAPSHOT|DIR...\n"
		 "       perflab report --dry-run [--quick | --full] [--cpus LIST] [--json]\n"
		 "       [--sysroot DIR]",
	.summary = "Inspect, check and benchmark this machine; write DIR/report.{json,md,html}.",
	.description =
		"-o DIR names the report directory (default ./perflab-report; created when\n"
		"missing; an existing one must be yours and not writable by other users\n"
		"without the sticky bit, else exit 2 before anything runs). All inputs are\n"
		"read before anything is written, and each file is written to a temporary\n"
		"name and renamed over its name (a symlink there is replaced, not followed),\n"
		"so a bad input or a failure leaves an earlier report untouched. A --from\n"
		"input must be a regular file of at most 64 MiB (a FIFO is exit 2). --json\n"
		"also prints report.json on stdout. Each --from document is checked when it\n"
		"is read: a member the report uses that is missing, of another type or out\n"
		"of range is exit 2, naming the file and the JSON path\n"
		"($.findings[3].severity). --baseline adds\n"
		"\"Changes since baseline\" to every output, as perflab diff shows it.\n"
		"perflab monitor documents are drawn on their own: DIR/monitor.html (charts)\n"
		"and DIR/monitor.md (mean, p95, max of each series).\n\n"
		"The benchmarks (clock, syscall, mem, ticks, io on the report's file system,\n"
		"net on loopback, compress on a built-in corpus) run with the arguments of the\n"
		"mode (io in the report directory, or beside it when this run creates it):\n"
		"  default  about 60 s: each with --precision 1% (runs until the 95% CI of the\n"
		"           median of its key figures is within 1%), its --max-time an even\n"
		"           share of the budget left, at the sizes their standalone defaults use\n"
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
		"A benchmark whose result is given with --from is not run again; each result's\n"
		"section says where it came from (measured now, or the file).\n"
		"--cpus LIST (-C) names the CPUs the workload runs on, as check -C does, for\n"
		"the rules that compare them with a GPU's or NIC's NUMA node, and runs every\n"
		"benchmark with --cpus LIST (mem: one thread per CPU of the list); a CPU that is\n"
		"offline or outside this process's affinity is exit 2 before anything runs.\n"
		"--dry-run prints the plan (with --sysroot DIR, from that tree's facts: mem's\n"
		"array size from its caches, CPUs and memory). Benchmarks need the live system:\n"
		"with --sysroot they are left out. A progress line per stage goes to stderr on a\n"
		"terminal. Ctrl-C stops the current stage and writes what is done (exit 130).\n\n"
		"--fleet SNAPSHOT... (snapshot archives of perflab snapshot, or directories\n"
		"holding NAME.tar.zst files): each machine's document as report --no-bench\n"
		"--sysroot SNAPSHOT builds it (facts and findings), merged as a cluster report\n"
		"(as --from of 2 or more report.json): drift, findings on some nodes only,\n"
		"caveats. Nodes are named by the hostname in each snapshot's facts (a\n"
		"pseudonym in a redacted one), else the file name; repeated names get #2, #3.\n"
		"Every snapshot is read before anything is written: a bad one is exit 2\n"
		"naming it, and no report is written. It takes 2 or more snapshots; it does not\n"
		"go with --from, --baseline, --sysroot or the benchmark options (--quick,\n"
		"--full, --cpus, --dry-run).",
	.output_arg = "DIR",
	.output_help = "the report directory: DIR/report.{json,md,html} (default "
		       "./perflab-report; created when missing)",
	.json_help = "also print report.json on stdout (the files are written all the same)",
};

/* The three report files, written to temporaries and renamed together at the end. */
enum { F_JSON, F_MD, F_HTML, NFILES };
static const char *const fnames[NFILES] = { "report.json", "report.md", "report.html" };

/* Write @doc's three files into the output directory @dirfd (util/outdir.h: a symlink at
 * a file's name is replaced, never followed). Returns 0 or -errno. */
static int write_all(int dirfd, const json_t *doc)
{
	struct pl_outdir_file o[NFILES];
	int r = 0, opened = 0;
	for (; opened < NFILES && r == 0; opened++) {
		r = pl_outdir_file_open(&o[opened], dirfd, fnames[opened]);
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
		int c = pl_outdir_file_close(&o[i], r == 0);
		if (r == 0 && c < 0)
			r = c;
	}
	return r;
}

/* Open the report directory @dir (pl_outdir_open(): created when missing, refused when
 * another user owns it or may plant names in it). Returns the descriptor, or -1 after
 * one error line naming the directory, the reason and the fix. */
static int open_report_dir(const char *dir)
{
	const char *why;
	int fd = pl_outdir_open(dir, &why);
	if (fd >= 0)
		return fd;
	if (why)
		pl_error("refusing report directory '%s': %s (choose another with -o DIR)", dir,
			 why);
	else
		pl_error("cannot create report directory '%s': %s (choose another with -o DIR)",
			 dir, strerror(-fd));
	return -1;
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

static void progress_cb(size_t k, const char *what, void *ctx)
{
	const int *stage = ctx;
	progress(stage[0] + (int)k + 1, stage[1], what);
}

/* The progress line of pl_report_node_doc()'s stages, the first two of @ctx's count. */
static void stage_cb(const char *stage, void *ctx)
{
	progress(strcmp(stage, "inspect") == 0 ? 1 : 2, *(const int *)ctx, stage);
}

/* --dry-run: the benchmark plan of the mode on stdout. Returns the exit code. */
static int report_dry_run(const struct report_opts *o, const struct pl_bench_plan *plan)
{
	if (o->no_bench || o->from) {
		pl_error("--dry-run prints the benchmark plan only (drop --no-bench and --from)");
		return PL_EXIT_USAGE;
	}
	return pl_bench_plan_print(stdout, plan, pl_g.json) < 0 ? PL_EXIT_RUNTIME : PL_EXIT_OK;
}

/* --from monitor documents: drawn as time series into @dir (render/monitor.h). Returns
 * the exit code, or -1 when the inputs are not monitor documents. */
static int report_monitor(const struct report_opts *o, const char *dir)
{
	char merr[1024];
	int rc = pl_monview_from(o->from, dir, pl_g.json ? NULL : stdout, merr, sizeof(merr));
	if (rc > 0)
		return -1;
	if (rc < 0)
		pl_error("--from: %s", merr);
	return rc == 0 ? PL_EXIT_OK : rc == -EINVAL ? PL_EXIT_USAGE : PL_EXIT_RUNTIME;
}

/* --from of two or more report documents (or a directory of them): the cluster report
 * (report/cluster.h) in @dir. Returns the exit code, or -1 when the inputs are not a
 * cluster. */
static int report_cluster(const struct report_opts *o, const char *dir)
{
	json_t *nodes = NULL;
	char cerr[1024];
	int nrep = o->from ? pl_cluster_scan_inputs(o->from, &nodes, cerr, sizeof(cerr)) : 0;
	if (nrep < 0) {
		pl_error("--from: %s", cerr);
		return PL_EXIT_USAGE;
	}
	if (!nodes)
		return -1;
	if (o->baseline) {
		pl_error("--baseline: a cluster report has no baseline (drop it)");
		json_decref(nodes);
		return PL_EXIT_USAGE;
	}
	int rc = pl_cluster_report(nodes, dir, pl_g.json, pl_now_epoch());
	json_decref(nodes);
	return rc == 0 ? PL_EXIT_OK : rc == -EIO && pl_g.json ? PL_EXIT_RUNTIME : PL_EXIT_USAGE;
}

/* Write @doc into @dir (created when missing) and print the terminal summary, or the
 * document with --json. Returns the exit code. */
static int report_write(const char *dir, json_t *doc)
{
	int dirfd = open_report_dir(dir);
	if (dirfd < 0)
		return PL_EXIT_USAGE;
	pl_report_annotate(doc); /* evidence of findings, key numbers */
	int r = write_all(dirfd, doc);
	close(dirfd);
	if (r < 0) {
		pl_error("cannot write the report into '%s': %s (choose another with -o DIR)", dir,
			 strerror(-r));
		return PL_EXIT_USAGE;
	}
	if (pl_g.json)
		return pl_json_write(stdout, doc) < 0 ? PL_EXIT_RUNTIME : PL_EXIT_OK;
	pl_report_print_summary(stdout, doc, dir);
	return PL_EXIT_OK;
}

/* This machine's report (pl_report_node_doc()) with the --from inputs, the benchmarks
 * of @plan (@mode) and the changes since --baseline, written into @dir. Returns the exit
 * code. */
static int report_node(const struct report_opts *o, const char *dir, struct pl_bench_plan *plan,
		       enum pl_bench_mode mode)
{
	/* Read every --from input before anything runs or is written. */
	char err[512];
	json_t *from = pl_report_read_inputs(o->from, err, sizeof(err));
	if (!from) {
		pl_error("--from: %s", err);
		return PL_EXIT_USAGE;
	}
	char berr[1024];
	json_t *base = NULL;
	if (o->baseline && !(base = pl_diff_load_report(o->baseline, berr, sizeof(berr)))) {
		pl_error("--baseline: %s (give the report.json of an earlier perflab report)",
			 berr);
		json_decref(from);
		return PL_EXIT_USAGE;
	}
	/* a benchmark whose result came with --from is not measured again */
	size_t k;
	json_t *x;
	json_array_foreach(json_object_get(from, "benchmarks"), k, x)
		pl_bench_plan_drop(plan, pl_json_str(x, "benchmark"));
	bool bench = !o->no_bench && pl_sysroot_is_live();
	if (bench && o->cpus) {
		char cerr[512];
		int rc = pl_bench_cpus_check(o->cpus, cerr, sizeof(cerr));
		if (rc) {
			pl_error("%s", cerr);
			json_decref(from);
			json_decref(base);
			return rc;
		}
	}
	int nstages = 2 + (bench ? (int)plan->n : 0);
	struct sigaction sa = { .sa_handler = on_sigint }, old_int;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);

	struct pl_facts f;
	pl_facts_init(&f);
	json_t *doc = pl_report_node_doc(&f, o->workload, o->cpus, stage_cb, &nstages);
	int ret = doc ? -1 : pl_cmd_require_facts(&f); /* says why there is no document */
	pl_facts_free(&f);
	char *workdir = NULL;
	int r = doc ? pl_report_io_dir(dir, &workdir) : 0;
	if (r < 0) {
		pl_error("cannot create report directory '%s': %s (choose another with -o DIR)",
			 dir, strerror(-r));
		ret = PL_EXIT_USAGE;
	}
	if (!doc || r < 0) {
		progress(0, 0, NULL);
		sigaction(SIGINT, &old_int, NULL);
		json_decref(from);
		json_decref(base);
		json_decref(doc);
		return ret >= 0 ? ret : PL_EXIT_USAGE;
	}
	pl_report_add_inputs(doc, from);
	json_decref(from);
	plan->workdir = workdir;
	double bench_s = 0;
	if (bench && !interrupted) {
		int st[2] = { 2, nstages };
		bench_s = pl_report_run_benchmarks(doc, plan, &interrupted, progress_cb, st);
	}
	plan->workdir = NULL;
	free(workdir);
	progress(0, 0, NULL);
	sigaction(SIGINT, &old_int, NULL);
	json_object_set_new(doc, "run",
			    pl_report_run_info(mode, bench, interrupted, o->cpus, bench_s));
	if (base)
		pl_diff_add_baseline(doc, base, o->baseline);
	ret = report_write(dir, doc);
	json_decref(doc);
	json_decref(base);
	if (ret == PL_EXIT_OK && interrupted) {
		pl_warn("interrupted: the report has what was done until Ctrl-C");
		ret = PL_BENCH_EXIT_INTERRUPTED;
	}
	return ret;
}

/* What every mode needs: no positional argument, a report directory that is not a file,
 * readable --from paths, not both --quick and --full. Returns -1, or the exit code after
 * one error. */
static int report_check_args(const struct report_opts *o, const struct pl_args *args,
			     const char *dir)
{
	if (args->npos > 0 && !o->fleet) {
		pl_error("unexpected argument '%s' (see 'perflab report --help'; snapshots go "
			 "with --fleet)",
			 args->pos[0]);
		return PL_EXIT_USAGE;
	}
	if (args->npos == 0 && o->fleet) {
		pl_error("--fleet: no snapshot given (give the snapshot files of perflab "
			 "snapshot, or a directory of them)");
		return PL_EXIT_USAGE;
	}
	struct stat st;
	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		pl_error("'%s' is not a directory (choose another with -o DIR)", dir);
		return PL_EXIT_USAGE;
	}
	/* A --from path that cannot be opened is the commonest slip (a typo, a file from
	 * another machine not copied yet): say so with the fix before any document is read. */
	for (char **p = o->from; p && *p; p++) {
		if (access(*p, R_OK) != 0) {
			int e = errno;
			pl_error("--from: cannot open '%s': %s (give a JSON document written by "
				 "perflab --json or -o, a report.json, or a directory of them)",
				 *p, strerror(e));
			return PL_EXIT_USAGE;
		}
	}
	if (o->quick && o->full) {
		pl_error("--quick and --full exclude each other (pick one)");
		return PL_EXIT_USAGE;
	}
	return -1;
}

/* An existing report directory is checked before any input is read or benchmark runs:
 * one that another user owns, or that others may write without the sticky bit, is
 * refused here rather than after minutes of measuring. Returns -1, or the exit code after
 * one error. */
static int report_check_dir(const char *dir)
{
	struct stat st;
	if (stat(dir, &st) != 0) {
		/* created at the end, in a parent that must exist and be writable */
		int r = errno == ENOENT ? pl_outfile_check_parent(dir) : -errno;
		if (r < 0) {
			pl_error("cannot create report directory '%s': %s (choose another with -o "
				 "DIR)",
				 dir, strerror(-r));
			return PL_EXIT_USAGE;
		}
		return -1;
	}
	int fd = open_report_dir(dir);
	if (fd < 0)
		return PL_EXIT_USAGE;
	close(fd);
	return -1;
}

/* --fleet: the cluster report of the snapshots given as arguments (report/fleet.h) in
 * @dir. Returns the exit code. */
static int report_fleet(const struct report_opts *o, const struct pl_args *args, const char *dir)
{
	static const char fix[] = "(--fleet reads snapshots only: drop it, or drop --fleet)";
	const char *bad = o->from	 ? "--from"
			  : o->baseline	 ? "--baseline"
			  : o->quick	 ? "--quick"
			  : o->full	 ? "--full"
			  : o->cpus	 ? "--cpus"
			  : o->dry_run	 ? "--dry-run"
			  : pl_g.sysroot ? "--sysroot"
					 : NULL;
	if (bad) {
		pl_error("%s does not go with --fleet %s", bad, fix);
		return PL_EXIT_USAGE;
	}
	char err[1024];
	char **files = NULL;
	int n = pl_fleet_scan(args->pos, &files, err, sizeof(err));
	if (n < 0) {
		pl_error("--fleet: %s", err);
		return PL_EXIT_USAGE;
	}
	int ret = report_check_dir(dir);
	if (ret >= 0) {
		pl_strv_free(files);
		return ret;
	}
	char **same = pl_fleet_same_content(files, (size_t)n);
	for (size_t i = 0; same && same[i]; i++)
		pl_warn("--fleet: %s", same[i]);
	pl_strv_free(same);
	int rc;
	json_t *docs = pl_fleet_docs(files, (size_t)n, o->workload, &rc, err, sizeof(err));
	pl_strv_free(files);
	if (!docs) {
		pl_error("--fleet: %s", err);
		return rc == -EINVAL ? PL_EXIT_USAGE : PL_EXIT_RUNTIME;
	}
	rc = pl_cluster_report(docs, dir, pl_g.json, pl_now_epoch());
	json_decref(docs);
	return rc == 0 ? PL_EXIT_OK : rc == -EIO && pl_g.json ? PL_EXIT_RUNTIME : PL_EXIT_USAGE;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { 0 };
	struct pl_args args;
	int ret = pl_cmd_parse(argc, argv, &info, report_opts, &o, &args);
	if (ret >= 0) {
		free(o.from); /* --from values parsed before a bad option */
		return ret;
	}
	const char *dir = pl_g.output ? pl_g.output : "perflab-report";
	enum pl_bench_mode mode = o.full    ? PL_BENCH_MODE_FULL
				  : o.quick ? PL_BENCH_MODE_QUICK
					    : PL_BENCH_MODE_DEFAULT;
	struct pl_bench_plan plan = { 0 };
	ret = report_check_args(&o, &args, dir);
	if (ret < 0 && o.fleet)
		ret = report_fleet(&o, &args, dir);
	if (ret < 0 && pl_bench_plan_make(&plan, mode, o.cpus) < 0)
		ret = PL_EXIT_RUNTIME;
	if (ret < 0 && o.dry_run)
		ret = report_dry_run(&o, &plan);
	if (ret < 0)
		ret = report_check_dir(dir);
	if (ret < 0)
		ret = report_monitor(&o, dir);
	if (ret < 0)
		ret = report_cluster(&o, dir);
	if (ret < 0)
		ret = report_node(&o, dir, &plan, mode);
	pl_bench_plan_free(&plan);
	free(o.from);
	pl_args_free(&args);
	return ret;
}
