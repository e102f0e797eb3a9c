/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab-mpi's commands: the usage text, each command's pl_opt table and --help
 * (infos[]), the parsing every rank does, the node's document of each command, and what
 * rank 0 writes from the gathered documents (report: DIR/report.{json,md,html}; inspect,
 * check, bench NAME: one merged result). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "report/bench_plan.h"
#include "cli/common.h"
#include "cli/node.h"
#include "facts/facts.h"
#include "mpi/run.h"
#include "render/cluster.h"
#include "report/cluster.h"
#include "report/limits.h"
#include "util/json.h"
#include "report/node.h"
#include "report/report.h"
#include "rules/rules.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/outfile.h"
#include "util/log.h"
#include "util/str.h"
#include "util/testhook.h"
#include "util/sysroot.h"

static const char usage[] =
	"usage: mpirun [-np N | -H a,b,c] perflab-mpi COMMAND [options]\n\n"
	"perflab's commands on every node of an MPI job; rank 0 merges the nodes' documents.\n\n"
	"commands:\n"
	"  report    nodes table, drift, findings on some nodes only, STREAM per node (at the\n"
	"            same time), all-pairs MPI latency and bandwidth into "
	"DIR/report.{json,md,html}\n"
	"  inspect   the nodes table and every fact that differs across nodes (drift)\n"
	"  check     each node's findings: those on some nodes only, those on every node\n"
	"  bench     bench NAME on every node at the same time: a row per node, the odd node "
	"named\n"
	"  snapshot  each node's perflab snapshot, gathered by rank 0 into DIR/NODE.tar.zst\n\n"
	"'perflab-mpi COMMAND --help' shows a command's options.\n";

/* The options every command of perflab-mpi has. */
static const struct pl_opt cluster_opts[] = {
	{ "timeout", 0, PL_OPT_DURATION, offsetof(struct mpi_opts, timeout_s), "SECONDS",
	  "how long rank 0 waits for a node's document, a STREAM result or a pair (report); a "
	  "node later than that is reported as timed out",
	  .def = "600", .min = 0.001, .max = PL_OPT_DURATION_MAX },
	{ "sysroot-per-rank", 0, PL_OPT_STR, offsetof(struct mpi_opts, per_rank), "DIR/%r",
	  "read each rank's /proc, /sys, /etc under DIR/%r with %r the rank (fixture trees for "
	  "tests; no benchmarks then)" },
	{ "per-rank-nodes", 0, PL_OPT_FLAG, offsetof(struct mpi_opts, per_rank_nodes), NULL,
	  "every rank is a node of its own (exercises the matrix on one host)" },
	PL_OPT_END,
};

static const struct pl_opt report_opts[] = {
	{ "workload", 'W', PL_OPT_ENUM, offsetof(struct mpi_opts, workload), "W",
	  "which rules apply (as perflab check)", pl_workload_names, .def = "general" },
	{ "quick", 0, PL_OPT_FLAG, offsetof(struct mpi_opts, quick), NULL,
	  "brief STREAM and ping-pong (small sizes, few iterations)" },
	{ "full", 0, PL_OPT_FLAG, offsetof(struct mpi_opts, full), NULL,
	  "STREAM with its defaults, more ping-pong iterations" },
	{ "no-bench", 0, PL_OPT_FLAG, offsetof(struct mpi_opts, no_bench), NULL,
	  "no STREAM and no network matrix" },
	{ "net-tcp", 0, PL_OPT_FLAG, offsetof(struct mpi_opts, net_tcp), NULL,
	  "also each pair's 8 B round trip over TCP (bench net's tcp_pp), beside MPI's; the "
	  "server by its hostname or, where that does not resolve, an interface address on "
	  "one of the client's subnets" },
	PL_OPT_END,
};

static const struct pl_opt inspect_opts[] = {
	{ "domain", 0, PL_OPT_STR, offsetof(struct mpi_opts, domains), "LIST",
	  "only these comma-separated fact domains (as perflab inspect), so drift is of them" },
	PL_OPT_END,
};

static const struct pl_opt check_opts[] = {
	{ "workload", 'W', PL_OPT_ENUM, offsetof(struct mpi_opts, workload), "W",
	  "which rules apply", pl_workload_names, .def = "general" },
	{ "fail-on", 0, PL_OPT_ENUM, offsetof(struct mpi_opts, fail_on), "SEVERITY",
	  "exit 1 when a finding on some node is at least this severe", pl_severity_names,
	  .def = "crit" },
	{ "cpus", 'C', PL_OPT_CPUS, offsetof(struct mpi_opts, cpus), "LIST",
	  "the CPUs the workload runs on, on every node (as perflab check)" },
	PL_OPT_END,
};

/* snapshot has the options every command has, and none of its own. */
static const struct pl_opt snapshot_opts[] = {
	PL_OPT_END,
};

static const struct pl_cmd_info infos[] = {
	{ "report",
	  "mpirun [-np N | -H a,b,c] perflab-mpi report [-o DIR] [-W W] [--quick | --full | "
	  "--no-bench] [--net-tcp] [--json] [--timeout SECONDS] [--sysroot-per-rank DIR/%r] "
	  "[--per-rank-nodes]",
	  "One report for the nodes of an MPI job: nodes table, drift, findings on some nodes\n"
	  "only, STREAM per node (run at the same time), all-pairs MPI latency and bandwidth.",
	  "Rank 0 writes DIR/report.{json,md,html} (-o DIR, default ./perflab-cluster) and\n"
	  "prints a summary (--json: report.json on stdout; docs/schemas/cluster.schema.json).\n"
	  "Exit status: 0 ok, 2 bad input (one line from the lowest failing rank, nothing\n"
	  "written), 3 a node failed or timed out (the others' report is still written).\n"
	  "Ctrl-C (SIGINT/SIGTERM to mpirun) writes what was gathered: the nodes that answered,\n"
	  "the STREAM results and pairs so far (network.complete false) and an \"interrupted\"\n"
	  "section; the ranks exit 128 + signal. Every figure carries its caveats: its node's\n"
	  "(quick run, arrays within the caches, busy machine) and the run's (nodes sharing a\n"
	  "host, more ranks than CPUs, shared CPUs, pairs on one host: loopback).",
	  "DIR", "the report directory: DIR/report.{json,md,html} (default ./perflab-cluster)",
	  "also print report.json on stdout (rank 0)" },
	{ "inspect",
	  "mpirun ... perflab-mpi inspect [--domain LIST] [--json] [-o FILE] [--timeout SECONDS] "
	  "[--sysroot-per-rank DIR/%r] [--per-rank-nodes]",
	  "The nodes table and every fact that differs across the nodes (drift), with the\n"
	  "majority value and the odd nodes named.",
	  "Every node collects its facts as perflab inspect does; facts that naturally differ\n"
	  "(hostname, MACs, serials, uptime, free memory) are left out. --json prints the\n"
	  "cluster-inspect document (docs/schemas/cluster-command.schema.json). Exit status:\n"
	  "0 ok, 2 bad input, 3 a node failed or timed out." },
	{ "check",
	  "mpirun ... perflab-mpi check [-W W] [--fail-on SEVERITY] [--cpus LIST] [--json] "
	  "[-o FILE] [--timeout SECONDS] [--sysroot-per-rank DIR/%r] [--per-rank-nodes]",
	  "Each node's findings: those on some nodes only (with the nodes they are not on)\n"
	  "and those on every node.",
	  "Every node evaluates the rules as perflab check does. --json prints the\n"
	  "cluster-check document (docs/schemas/cluster-command.schema.json). Exit status:\n"
	  "0 ok, 1 a finding on some node is at or above --fail-on, 2 bad input, 3 a node\n"
	  "failed or timed out." },
	{ "snapshot",
	  "mpirun ... perflab-mpi snapshot [-o DIR] [--timeout SECONDS] "
	  "[--sysroot-per-rank DIR/%r] [--per-rank-nodes]",
	  "Each node's snapshot archive (perflab snapshot), gathered by rank 0 into\n"
	  "DIR/NODE.tar.zst, for perflab report --fleet DIR.",
	  "One rank per node (the lowest on each host) takes the snapshot; it goes to rank 0\n"
	  "over MPI, so DIR needs to be on rank 0's machine only. NODE is the node's name\n"
	  "(its hostname; a repeated one gets #2) with bytes other than letters, digits, '.',\n"
	  "'_', '-', '#' as '_'. Each file is written atomically; rank 0 prints one line per\n"
	  "node. Exit status: 0 ok, 2 bad input (nothing written), 3 a node failed or timed\n"
	  "out (the others' snapshots are still written).",
	  "DIR",
	  "the directory of the snapshots (default ./perflab-snapshots; created when "
	  "missing)",
	  NULL },
};
#define NINFOS (sizeof(infos) / sizeof(infos[0]))

static const char bench_usage[] =
	"mpirun ... perflab-mpi bench %s [options] [--json] [-o FILE] [--timeout SECONDS] "
	"[--per-rank-nodes]";

/* rank 0, the documents' gather (pl_mpi_gather_json): seconds until the last collector's
 * document arrived (its envelope matched), seconds from then until every document is
 * received and parsed (what the gather adds after the slowest node), and the CPU seconds
 * parsing all of them (json_loadb, CLOCK_THREAD_CPUTIME_ID) */
static double wait_s, transfer_s, parse_cpu_s;

/* A --domain list names only fact domains of src/facts/registry.c. */
static int check_domains(const char *list)
{
	pl_autostrv char **v = pl_split(list, ",", NULL);
	for (char **d = v; d && *d; d++) {
		bool known = false;
		for (size_t i = 0; i < pl_ncollectors; i++)
			known = known || strcmp(pl_collectors[i].name, pl_trim(*d)) == 0;
		if (!known) {
			pl_error(
				"--domain '%s': unknown domain '%s' (see 'perflab inspect --help')",
				list, *d);
			return -EINVAL;
		}
	}
	return 0;
}

/* Parse argv[1] and its options (pl_opt tables, as perflab's commands). Errors go to
 * pl_error_sink (pl_mpi_first_err); --help goes to stdout, which is /dev/null but on rank 0.
 * Returns -1 to go on, else the exit code. */
static int parse_args(int argc, char **argv, struct mpi_opts *o)
{
	o->timeout_s = 600;
	o->fail_on = PL_SEV_CRIT;
	if (argc < 2) {
		pl_error("which command? (perflab-mpi runs: report, inspect, check, bench, "
			 "snapshot; see "
			 "'perflab-mpi --help')");
		return PL_EXIT_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		fputs(usage, stdout);
		return PL_EXIT_OK;
	}
	o->cmd = argv[1];
	struct pl_optset sets[2] = { { cluster_opts, o, "Cluster options" } };
	if (strcmp(o->cmd, "bench") == 0) {
		int rc = pl_bench_cmd_parse(argc - 1, argv + 1, bench_usage, sets, 1, &o->bench);
		if (rc < 0 && o->per_rank) {
			pl_error("bench measures this machine: --sysroot-per-rank gives fixture "
				 "trees "
				 "(drop it; --per-rank-nodes makes every rank a node)");
			rc = PL_EXIT_USAGE;
		}
		return rc;
	}
	const struct pl_cmd_info *info = NULL;
	for (size_t i = 0; i < NINFOS; i++)
		if (strcmp(infos[i].name, o->cmd) == 0)
			info = &infos[i];
	if (!info) {
		pl_error("unknown command '%s' (perflab-mpi runs: report, inspect, check, bench, "
			 "snapshot; "
			 "see 'perflab-mpi --help')",
			 o->cmd);
		return PL_EXIT_USAGE;
	}
	bool snapshot = strcmp(info->name, "snapshot") == 0;
	sets[1] = sets[0];
	sets[0] = (struct pl_optset){ info == &infos[0]	  ? report_opts
				      : info == &infos[1] ? inspect_opts
				      : snapshot	  ? snapshot_opts
							  : check_opts,
				      o, "Options" };
	if (info == &infos[0])
		pl_g.output = "perflab-cluster";
	if (snapshot)
		pl_g.output = "perflab-snapshots";
	pl_cleanup(pl_args_free) struct pl_args args = { 0 };
	int rc = pl_cmd_parse_sets(argc - 1, argv + 1, info, sets, 2, &args);
	if (rc >= 0)
		return rc;
	if (args.npos > 0) {
		pl_error("unexpected argument '%s' (see 'perflab-mpi %s --help')", args.pos[0],
			 o->cmd);
		return PL_EXIT_USAGE;
	}
	if (snapshot && pl_g.json) {
		pl_error("snapshot writes archives, not JSON (drop --json; the manifest of each "
			 "is its perflab-snapshot.json)");
		return PL_EXIT_USAGE;
	}
	if (o->net_tcp && o->no_bench) {
		pl_error("--net-tcp measures the pairs, --no-bench skips them (drop one)");
		return PL_EXIT_USAGE;
	}
	if (o->quick + o->full + o->no_bench > 1) {
		pl_error("--quick, --full and --no-bench exclude each other (pick one)");
		return PL_EXIT_USAGE;
	}
	if (o->domains && check_domains(o->domains) < 0)
		return PL_EXIT_USAGE;
	return -1;
}

/* parse_args() with stdout to /dev/null on every rank but 0 (one --help text). */
int pl_mpi_parse_args(int argc, char **argv, struct mpi_opts *o)
{
	int saved = -1;
	fflush(stdout);
	if (pl_mpi_rank != 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		saved = dup(STDOUT_FILENO);
		if (null >= 0 && saved >= 0)
			dup2(null, STDOUT_FILENO);
		if (null >= 0)
			close(null);
	}
	int rc = parse_args(argc, argv, o);
	fflush(stdout);
	if (saved >= 0) {
		dup2(saved, STDOUT_FILENO);
		close(saved);
	}
	return rc;
}

/* ---- the node's document ---- */

/* {"failed": REASON} for a node whose document cannot be built. */
static json_t *failed_doc(const char *why)
{
	json_t *doc = json_object();
	json_object_set_new(doc, "failed", pl_json_string(why));
	return doc;
}

/* The facts of a node's @doc without their "source" paths, before it goes to rank 0:
 * the merge reads only their values (report/cluster.c), and the paths are a third of the
 * text and about 40% of rank 0's parse time (json_loadb: 0.5-0.6 ms instead of
 * 0.8-1.5 ms for this VM's 26 KB report document). */
static void strip_sources(json_t *doc)
{
	const char *k;
	json_t *f;
	json_object_foreach(json_object_get(doc, "facts"), k, f) json_object_del(f, "source");
}

/* report: the node's inspect + check document (as perflab report builds it). */
static json_t *report_doc(const struct mpi_opts *o)
{
	struct pl_facts f;
	pl_facts_init(&f);
	json_t *doc = pl_report_node_doc(&f, o->workload, NULL, NULL, NULL);
	pl_facts_free(&f);
	return doc ? doc : failed_doc("no facts found under its sysroot");
}

/* report: the node's bench mem (STREAM) result, as perflab report runs it in the mode
 * of --quick/--full, or NULL. A signal during the run (the runner's handlers are in
 * place then) becomes pl_mpi_got_sig. */
static json_t *stream_result(const struct mpi_opts *o)
{
	json_t *res = NULL;
	struct pl_bench_plan plan = { 0 };
	enum pl_bench_mode mode = o->full    ? PL_BENCH_MODE_FULL
				  : o->quick ? PL_BENCH_MODE_QUICK
					     : PL_BENCH_MODE_DEFAULT;
	if (pl_bench_plan_make(&plan, mode, NULL) == 0)
		for (size_t i = 0; i < plan.n && !res; i++)
			if (strcmp(plan.items[i].b->name, "mem") == 0)
				res = pl_bench_plan_run(&plan, &plan.items[i]);
	pl_bench_plan_free(&plan);
	if (pl_bench_stop_signal() && !pl_mpi_got_sig)
		pl_mpi_got_sig = pl_bench_stop_signal();
	return res;
}

/* inspect: the node's facts (cli/node.h, as perflab inspect) and its machine row. */
static json_t *inspect_doc(const struct mpi_opts *o)
{
	struct pl_facts f;
	pl_facts_init(&f);
	pl_mpi_first_err[0] = '\0';
	pl_error_sink = pl_mpi_keep_error;
	json_t *doc;
	int rc = pl_inspect_collect(o->domains, &f);
	pl_error_sink = NULL;
	if (rc >= 0) {
		doc = failed_doc(pl_mpi_first_err);
	} else {
		doc = pl_inspect_doc(&f);
		json_object_set_new(doc, "machine", pl_report_machine(&f));
	}
	pl_facts_free(&f);
	return doc;
}

/* check: the node's findings (cli/node.h, as perflab check) in a report document. */
static json_t *check_doc(const struct mpi_opts *o)
{
	struct pl_facts f;
	struct pl_findings fs = { 0 };
	pl_facts_init(&f);
	pl_mpi_first_err[0] = '\0';
	pl_error_sink = pl_mpi_keep_error;
	json_t *doc;
	int rc = pl_check_findings(o->workload, o->cpus, false, &f, &fs);
	pl_error_sink = NULL;
	if (rc >= 0)
		doc = failed_doc(pl_mpi_first_err);
	else
		doc = pl_report_build(&f, &fs, pl_workload_names[o->workload], pl_now_epoch());
	pl_findings_free(&fs);
	pl_facts_free(&f);
	return doc;
}

/* bench NAME: the machine row's facts, then the benchmark on every node at once. */
static json_t *bench_doc(struct mpi_opts *o, MPI_Comm cc)
{
	struct pl_facts f;
	pl_facts_init(&f);
	pl_facts_collect(&f, "kernel,clocksource,cpu,cpufreq,mem,virt,services");
	json_t *doc = json_object();
	json_object_set_new(doc, "machine", pl_report_machine(&f));
	json_object_set_new(doc, "facts", pl_facts_to_json(&f, NULL));
	pl_facts_free(&f);
	json_t *res = NULL;
	char err[512] = "";
	MPI_Barrier(cc); /* the benchmark on every node at the same time */
	int rc = pl_bench_run(o->bench.b, o->bench.opts, &o->bench.ro, false, &res, err,
			      sizeof(err));
	if (!res) {
		json_decref(doc);
		char *why = *err ? pl_xasprintf("bench %s: %s", o->bench.b->name, err)
				 : pl_xasprintf("bench %s: no result (exit status %d)",
						o->bench.b->name, rc);
		doc = failed_doc(why);
		free(why);
		return doc;
	}
	json_t *arr = json_array();
	json_array_append_new(arr, res);
	json_object_set_new(doc, "benchmarks", arr);
	return doc;
}

/* Rank 0: the "docs" array of pl_cluster_from_docs() ({file, name, place, doc} or {file,
 * name, place, reason}; place: pl_mpi_place_json) of the @nc collectors (world ranks @coll,
 * @names), @docs[i] and @got[i] as pl_mpi_gather_json() left them (@docs[i] taken over). */
static json_t *docs_array(const int *coll, int nc, char *const *names, json_t **docs,
			  const bool *got, const struct mpi_opts *o)
{
	json_t *arr = json_array();
	for (int i = 0; i < nc; i++) {
		json_t *e = json_object(), *doc = docs[i];
		docs[i] = NULL;
		char *src = pl_xasprintf("rank %d", coll[i]), lim[512];
		json_object_set_new(e, "file", pl_json_string(src));
		json_object_set_new(e, "name", pl_json_string(names[i]));
		json_object_set_new(e, "place", pl_mpi_place_json(i));
		char *why = NULL;
		if (got[i] && !doc)
			why = pl_xasprintf("its document is not JSON");
		else if (!got[i] && pl_mpi_stop.late)
			why = pl_xasprintf("rank %d: no document after --timeout %g s (hung or "
					   "still running)",
					   coll[i], o->timeout_s);
		else if (!got[i])
			why = pl_xasprintf("rank %d: no document before the run was interrupted",
					   coll[i]);
		else if (pl_json_str(doc, "failed"))
			why = pl_xasprintf("rank %d: %s", coll[i], pl_json_str(doc, "failed"));
		else if (pl_doc_check_limits(doc, src, lim, sizeof(lim)) < 0)
			why = pl_xstrdup(lim);
		if (why) {
			json_object_set_new(e, "reason", pl_json_string(why));
			free(why);
			json_decref(doc);
		} else {
			json_object_set_new(e, "doc", doc);
		}
		free(src);
		json_array_append_new(arr, e);
	}
	return arr;
}

/* The "mpi" object of rank 0's outputs: ranks, collectors (documents in @docs), wait_s,
 * gather_s and parse_cpu_s (seconds, from the gather). New reference. */
static json_t *mpi_run_json(const json_t *docs)
{
	json_t *run = json_object();
	json_object_set_new(run, "ranks", json_integer(pl_mpi_nranks));
	json_object_set_new(run, "collectors", json_integer((json_int_t)json_array_size(docs)));
	json_object_set_new(run, "wait_s", json_real(wait_s));
	json_object_set_new(run, "gather_s", json_real(transfer_s));
	json_object_set_new(run, "parse_cpu_s", json_real(parse_cpu_s));
	return run;
}

/* Rank 0, inspect/check/bench: the merged document of @docs to -o FILE or stdout, as
 * JSON (--json) or text. Returns the exit code. */
static int write_command(const struct mpi_opts *o, const json_t *docs)
{
	bool bench = strcmp(o->cmd, "bench") == 0;
	json_t *c =
		pl_cluster_command(docs, o->cmd, bench ? o->bench.b->name : NULL, pl_now_epoch());
	json_t *run = mpi_run_json(docs);
	if (bench)
		json_object_set_new(run, "simultaneous", json_true());
	json_object_set_new(c, "mpi", run);
	int ret = PL_EXIT_OK;
	struct pl_outfile out;
	int r = pl_outfile_open(&out, pl_g.output);
	if (r < 0) {
		char m[600];
		pl_mpi_fail_line(pl_outfile_strerror(m, sizeof(m), pl_g.output, r));
		json_decref(c);
		return PL_EXIT_USAGE;
	}
	if (pl_g.json)
		r = pl_json_write(out.fp, c);
	else
		pl_cluster_print_command(out.fp, c);
	if (pl_outfile_close(&out, r == 0 && !ferror(out.fp)) < 0 || r < 0) {
		pl_mpi_fail_line("cannot write the output (disk full?)");
		ret = PL_EXIT_RUNTIME;
	}
	/* check: exit 1 when a finding on some node is at or above --fail-on */
	static const char *const parts[] = { "partial", "common" };
	for (size_t p = 0; p < 2; p++) {
		size_t i;
		json_t *f;
		json_array_foreach(json_object_get(json_object_get(c, "findings"), parts[p]), i, f)
		{
			const char *sev = pl_json_str(f, "severity");
			for (int k = o->fail_on; sev && pl_severity_names[k]; k++)
				if (strcmp(pl_severity_names[k], sev) == 0 && ret == PL_EXIT_OK)
					ret = PL_EXIT_FINDINGS;
		}
	}
	if (pl_json_int(json_object_get(c, "node_count"), "failed") > 0 && ret != PL_EXIT_RUNTIME)
		ret = PL_EXIT_RUNTIME;
	json_decref(c);
	return ret;
}

/* The name of the signals perflab-mpi handles. */
static const char *sig_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

/* Rank 0: the "interrupted" section of a report that a signal (pl_mpi_stop.sig) or --timeout
 * (pl_mpi_stop.late) cut short: the cause, the phase, and what is missing: the documents of
 * the collectors without @got, the STREAM results of those with @ok (a document, not failed)
 * but not @mem_ok, the pairs without @have (@bench: the report would have run them). */
static json_t *interrupted_json(int nc, char *const *names, const bool *got, const bool *ok,
				const bool *mem_ok, const bool *have, bool bench,
				const struct mpi_opts *o)
{
	json_t *it = json_object(), *nodes = json_array(), *mem = json_array();
	json_t *pairs = json_array(), *what = json_array();
	json_object_set_new(it, "cause", pl_json_string(pl_mpi_stop.sig ? "signal" : "timeout"));
	if (pl_mpi_stop.sig) {
		json_object_set_new(it, "signal", pl_json_string(sig_name(pl_mpi_stop.sig)));
		json_object_set_new(it, "signal_number", json_integer(pl_mpi_stop.sig));
		json_object_set_new(it, "rank", json_integer(pl_mpi_stop.rank));
	} else {
		json_object_set_new(it, "timeout_s", json_real(o->timeout_s));
	}
	json_object_set_new(it, "phase", pl_json_string(pl_mpi_stop.phase));
	for (int i = 0; i < nc; i++) {
		if (!got[i])
			json_array_append_new(nodes, pl_json_string(names[i]));
		else if (ok[i] && bench && !mem_ok[i])
			json_array_append_new(mem, pl_json_string(names[i]));
	}
	size_t p = 0, np = (size_t)nc * (size_t)(nc - 1) / 2, miss = 0;
	for (int a = 0; a < nc; a++)
		for (int b = a + 1; b < nc; b++, p++)
			if (bench && !have[p]) {
				json_t *pr = json_array();
				json_array_append_new(pr, pl_json_string(names[a]));
				json_array_append_new(pr, pl_json_string(names[b]));
				json_array_append_new(pairs, pr);
				miss++;
			}
	char *s;
	if (json_array_size(nodes)) {
		s = pl_xasprintf("the documents of %zu of %d nodes", json_array_size(nodes), nc);
		json_array_append_new(what, pl_json_string(s));
		free(s);
	}
	if (json_array_size(mem)) {
		s = pl_xasprintf("STREAM of %zu nodes", json_array_size(mem));
		json_array_append_new(what, pl_json_string(s));
		free(s);
	}
	if (miss) {
		s = pl_xasprintf("network: %zu of %zu pairs not measured", miss, np);
		json_array_append_new(what, pl_json_string(s));
		free(s);
	}
	json_object_set_new(it, "missing", what);
	json_object_set_new(it, "nodes_missing", nodes);
	json_object_set_new(it, "memory_missing", mem);
	json_object_set_new(it, "pairs_missing", pairs);
	return it;
}

/* Rank 0, report: the cluster report into -o DIR and the summary (or JSON) on stdout;
 * @net and @intr (may be NULL) are added. Returns the exit code. */
static int write_report(const json_t *docs, json_t *net, json_t *intr, bool bench)
{
	int ret = 0;
	json_t *c = pl_cluster_from_docs(docs, pl_now_epoch());
	json_t *run = mpi_run_json(docs);
	json_object_set_new(c, "mpi", run);
	if (net) {
		json_object_set_new(c, "network", json_incref(net));
		pl_cluster_network_caveats(c);
	}
	if (bench)
		json_object_set_new(json_object_get(c, "memory"), "simultaneous", json_true());
	if (intr)
		json_object_set_new(c, "interrupted", json_incref(intr));
	const char *why;
	int w = pl_cluster_write_dir(pl_g.output, c, &why);
	if (w < 0) {
		char m[600];
		if (why)
			snprintf(m, sizeof(m),
				 "refusing report directory '%s': %s (choose another with -o DIR)",
				 pl_g.output, why);
		else
			snprintf(m, sizeof(m),
				 "cannot write the report into '%s': %s (choose another with -o "
				 "DIR)",
				 pl_g.output, strerror(-w));
		pl_mpi_fail_line(m);
		ret = 2;
	} else if (pl_g.json) {
		pl_json_write(stdout, c);
	} else {
		pl_cluster_print_summary(stdout, c, pl_g.output);
	}
	fflush(stdout);
	if (pl_json_int(json_object_get(c, "node_count"), "failed") > 0 && ret == 0)
		ret = 3;
	json_decref(c);
	return ret;
}

/* report on a collector: its document first (rank 0 gathers them), then with @bench
 * STREAM on every node at once (each result streamed to rank 0) and the pairs one at a
 * time (each streamed to rank 0). On a signal, rank 0 writes what arrived (stop,
 * interrupted_json()) and ends the job: exit 128 + signal. Returns the exit code on
 * rank 0 (0 elsewhere). */
int pl_mpi_run_report(const struct mpi_opts *o, MPI_Comm cc, const int *coll, int nc, int me,
		      char *const *names)
{
	bool bench = !o->no_bench && pl_sysroot_is_live();
	int max = pl_test_hook_int(PL_TEST_HOOK("PERFLAB_MPI_TEST_NET_MAX"), PL_MPI_NET_MAX_NODES);
	if (bench && nc > max) { /* every collector sees the same nc: all stop here */
		if (pl_mpi_rank == 0) {
			pl_autofree char *m = pl_xasprintf(
				"report: %d nodes; the network matrix measures every pair one at a "
				"time and takes at most %d nodes (pass --no-bench, or run on fewer "
				"nodes)",
				nc, max);
			pl_mpi_fail_line(m);
		}
		return PL_EXIT_USAGE;
	}
	if (pl_test_hook_int(PL_TEST_HOOK("PERFLAB_MPI_TEST_HANG_RANK"), -1) == pl_mpi_rank)
		pl_mpi_test_stall(); /* tests/mpi/report.sh: a hung node */
	json_t *doc = report_doc(o);
	if (pl_mpi_rank != 0) {
		strip_sources(doc);
		pl_mpi_send_json(doc, TAG_DOC);
		json_decref(doc);
		if (bench) {
			pl_mpi_stop.phase = "memory";
			if (pl_mpi_poll_barrier(cc, 0) <
			    0) /* STREAM on every node at the same time */
				pl_mpi_rank_stop();
			json_t *mem = stream_result(o);
			if (pl_mpi_stopping())
				pl_mpi_rank_stop();
			if (!mem)
				mem = failed_doc("no bench mem result");
			pl_mpi_send_json(mem, TAG_STREAM);
			json_decref(mem);
			if (nc >= 2)
				pl_mpi_measure_pairs(cc, coll, nc, me, o, NULL, NULL);
		}
		return 0;
	}
	size_t np = (size_t)nc * (size_t)(nc - 1) / 2;
	json_t **docs = pl_xcalloc((size_t)nc, sizeof(*docs));
	json_t **mem = pl_xcalloc((size_t)nc, sizeof(*mem));
	bool *got = pl_xcalloc((size_t)nc, sizeof(*got));
	bool *ok = pl_xcalloc((size_t)nc, sizeof(*ok));
	bool *mem_ok = pl_xcalloc((size_t)nc, sizeof(*mem_ok));
	bool *have = pl_xcalloc(np + 1, sizeof(*have));
	double *rtt = pl_xcalloc(np * NVALS + 1, sizeof(*rtt));
	docs[0] = doc;
	got[0] = true;
	int r = pl_mpi_gather_json(TAG_DOC, coll, nc, docs, got, MPI_Wtime() + o->timeout_s,
				   &wait_s, &transfer_s, &parse_cpu_s);
	if (r == 0 && bench) {
		pl_mpi_stop.phase = "memory";
		r = pl_mpi_poll_barrier(cc, MPI_Wtime() + o->timeout_s);
		if (r == 0) {
			mem[0] = stream_result(o);
			r = pl_mpi_stopping()
				    ? -EINTR
				    : pl_mpi_gather_json(TAG_STREAM, coll, nc, mem, mem_ok,
							 MPI_Wtime() + o->timeout_s, NULL, NULL,
							 NULL);
			mem_ok[0] = true;
		}
		if (r == 0 && nc >= 2)
			r = pl_mpi_measure_pairs(cc, coll, nc, me, o, rtt, have);
	}
	for (int i = 0; i < nc; i++) {
		ok[i] = docs[i] && !json_object_get(docs[i], "failed");
		const char *st = pl_json_str(mem[i], "status");
		mem_ok[i] = mem_ok[i] && mem[i] && !(st && strcmp(st, "interrupted") == 0);
		if (ok[i] && json_is_object(mem[i])) {
			json_t *arr = json_array();
			json_array_append(arr, mem[i]);
			json_object_set_new(docs[i], "benchmarks", arr);
		}
		json_decref(mem[i]);
	}
	/* mpirun's SIGTERM reaches every rank: when rank 0 has it too, after another rank's
	 * notice came first, it is rank 0's own signal (and its own exit below) */
	if (pl_mpi_stop.sig && pl_mpi_got_sig && pl_mpi_stop.rank != 0) {
		pl_mpi_stop.sig = pl_mpi_got_sig;
		pl_mpi_stop.rank = 0;
	}
	json_t *net = bench && nc >= 2 ? pl_mpi_network_json(rtt, have, nc, coll, o, names) : NULL;
	json_t *intr = pl_mpi_stop.sig || (pl_mpi_stop.late && bench)
			       ? interrupted_json(nc, names, got, ok, mem_ok, have, bench, o)
			       : NULL;
	json_t *arr = docs_array(coll, nc, names, docs, got, o);
	int ret = write_report(arr, net, intr, bench);
	json_decref(arr);
	json_decref(net);
	json_decref(intr);
	free(docs);
	free(mem);
	free(got);
	free(ok);
	free(mem_ok);
	free(have);
	free(rtt);
	if (pl_mpi_stop.sig &&
	    pl_mpi_stop.rank == 0) { /* every rank has it: mpirun's or srun's signal */
		fflush(NULL);
		_exit(128 + pl_mpi_stop.sig);
	}
	/* the others are stopped or hung: end the job; a report that --timeout cut short
	 * is a runtime failure (exit 3), as a node without a document is */
	if (pl_mpi_stop.sig || pl_mpi_stop.late)
		MPI_Abort(MPI_COMM_WORLD, pl_mpi_stop.sig ? 128 + pl_mpi_stop.sig
					  : ret		  ? ret
							  : PL_EXIT_RUNTIME);
	return ret;
}

/* inspect, check, bench NAME on a collector: the node's document to rank 0, which
 * gathers them and writes one merged result (rank 0's exit code; 0 elsewhere). */
int pl_mpi_run_command(struct mpi_opts *o, MPI_Comm cc, const int *coll, int nc, char *const *names)
{
	if (pl_test_hook_int(PL_TEST_HOOK("PERFLAB_MPI_TEST_HANG_RANK"), -1) == pl_mpi_rank)
		pl_mpi_test_stall();
	json_t *doc = strcmp(o->cmd, "inspect") == 0 ? inspect_doc(o)
		      : strcmp(o->cmd, "check") == 0 ? check_doc(o)
						     : bench_doc(o, cc);
	if (pl_mpi_rank != 0) {
		strip_sources(doc);
		pl_mpi_send_json(doc, TAG_DOC);
		json_decref(doc);
		return 0;
	}
	json_t **docs = pl_xcalloc((size_t)nc, sizeof(*docs));
	bool *got = pl_xcalloc((size_t)nc, sizeof(*got));
	docs[0] = doc;
	got[0] = true;
	pl_mpi_gather_json(TAG_DOC, coll, nc, docs, got, MPI_Wtime() + o->timeout_s, &wait_s,
			   &transfer_s, &parse_cpu_s);
	json_t *arr = docs_array(coll, nc, names, docs, got, o);
	int ret = write_command(o, arr);
	json_decref(arr);
	free(docs);
	free(got);
	if (pl_mpi_stop.late) /* a hung rank would block MPI_Finalize */
		MPI_Abort(MPI_COMM_WORLD, ret);
	return ret;
}
