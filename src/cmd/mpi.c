/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab-mpi: perflab's report, inspect, check and bench NAME on every node of an MPI
 * job (README "Clusters"). Every rank finds its node (hostname + boot id, or one node per
 * rank with --per-rank-nodes); the lowest rank of each node is its collector. For report
 * the collectors measure the network between them (all-pairs ping-pong, one pair at a
 * time), run STREAM at the same time (after an MPI_Barrier) and build their node's report
 * document (inspect + check + bench mem, with perflab's library code); for inspect, check
 * and bench NAME they build the single-host command's document (cmd/node.h; bench after
 * an MPI_Barrier). Each sends it to rank 0: its size first, then the text, one node at a
 * time, so rank 0 holds one message buffer at a time. Rank 0 merges them with
 * out/cluster.h and writes DIR/report.{json,md,html} (report) or one merged result.
 * Options are pl_opt tables as perflab's; every rank parses them with pl_error going to
 * a sink, and only the lowest failing rank prints its line. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/plan.h"
#include "cmd/common.h"
#include "cmd/node.h"
#include "facts/facts.h"
#include "out/cluster.h"
#include "out/json.h"
#include "out/report.h"
#include "rules/rules.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/outfile.h"
#include "util/log.h"
#include "util/str.h"
#include "util/sysroot.h"

enum { KEYLEN = 256, TAG_SIZE = 11, TAG_DOC = 12 };

/** The command of this run and its options (the global ones are in pl_g). */
struct mpi_opts {
	const char *cmd;			    /**< report, inspect, check or bench */
	const char *per_rank;			    /**< --sysroot-per-rank */
	int workload, fail_on;			    /**< -W, --fail-on (check) */
	const char *domains, *cpus;		    /**< --domain (inspect), --cpus (check) */
	bool quick, full, no_bench, per_rank_nodes; /**< report's modes, --per-rank-nodes */
	double timeout_s;			    /**< --timeout */
	struct pl_bench_cmd bench;		    /**< bench NAME */
};

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
	"named\n\n"
	"'perflab-mpi COMMAND --help' shows a command's options.\n";

/* The options every command of perflab-mpi has. */
static const struct pl_opt cluster_opts[] = {
	{ "timeout", 0, PL_OPT_DURATION, offsetof(struct mpi_opts, timeout_s), "SECONDS",
	  "how long rank 0 waits for a node's document; a node later than that is reported as "
	  "timed out",
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

static const struct pl_cmd_info infos[] = {
	{ "report",
	  "mpirun [-np N | -H a,b,c] perflab-mpi report [-o DIR] [-W W] [--quick | --full | "
	  "--no-bench] [--json] [--timeout SECONDS] [--sysroot-per-rank DIR/%r] "
	  "[--per-rank-nodes]",
	  "One report for the nodes of an MPI job: nodes table, drift, findings on some nodes\n"
	  "only, STREAM per node (run at the same time), all-pairs MPI latency and bandwidth.",
	  "Rank 0 writes DIR/report.{json,md,html} (-o DIR, default ./perflab-cluster) and\n"
	  "prints a summary (--json: report.json on stdout; docs/schemas/cluster.schema.json).\n"
	  "Exit status: 0 ok, 2 bad input (one line from the lowest failing rank, nothing\n"
	  "written), 3 a node failed or timed out (the others' report is still written).",
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
};
#define NINFOS (sizeof(infos) / sizeof(infos[0]))

static const char bench_usage[] =
	"mpirun ... perflab-mpi bench %s [options] [--json] [-o FILE] [--timeout SECONDS] "
	"[--per-rank-nodes]";

static int rank, nranks;
/* rank 0: seconds waiting for the collectors' sizes, and receiving + parsing the texts */
static double wait_s, transfer_s;
/* this rank's first error message since the last reset (pl_error_sink) */
static char first_err[1024];

/* pl_error_sink: keep the first message; the lowest failing rank prints it (fail_line). */
static void keep_error(const char *msg)
{
	if (!first_err[0])
		snprintf(first_err, sizeof(first_err), "%s", msg);
}

/* One line on stderr: "perflab-mpi: error: MSG". */
static void fail_line(const char *msg)
{
	fprintf(stderr, "perflab-mpi: error: %s\n", msg);
}

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
 * pl_error_sink (first_err); --help goes to stdout, which is /dev/null but on rank 0.
 * Returns -1 to go on, else the exit code. */
static int parse_args(int argc, char **argv, struct mpi_opts *o)
{
	o->timeout_s = 600;
	o->fail_on = PL_SEV_CRIT;
	if (argc < 2) {
		pl_error("which command? (perflab-mpi runs: report, inspect, check, bench; see "
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
		pl_error("unknown command '%s' (perflab-mpi runs: report, inspect, check, bench; "
			 "see 'perflab-mpi --help')",
			 o->cmd);
		return PL_EXIT_USAGE;
	}
	sets[1] = sets[0];
	sets[0] = (struct pl_optset){ info == &infos[0]	  ? report_opts
				      : info == &infos[1] ? inspect_opts
							  : check_opts,
				      o, "Options" };
	if (info == &infos[0])
		pl_g.output = "perflab-cluster";
	pl_cleanup(pl_args_free) struct pl_args args = { 0 };
	int rc = pl_cmd_parse_sets(argc - 1, argv + 1, info, sets, 2, &args);
	if (rc >= 0)
		return rc;
	if (args.npos > 0) {
		pl_error("unexpected argument '%s' (see 'perflab-mpi %s --help')", args.pos[0],
			 o->cmd);
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
static int parse_quiet(int argc, char **argv, struct mpi_opts *o)
{
	int saved = -1;
	fflush(stdout);
	if (rank != 0) {
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

/* @pat with each %r replaced by @r, malloc'd. */
static char *expand_rank(const char *pat, int r)
{
	struct pl_buf b = { 0 };
	for (const char *p = pat; *p; p++) {
		if (p[0] == '%' && p[1] == 'r') {
			pl_buf_printf(&b, "%d", r);
			p++;
		} else {
			pl_buf_append(&b, p, 1);
		}
	}
	return pl_buf_steal(&b);
}

/* The node key: hostname + boot id (through the sysroot), or the rank. */
static void node_key(const struct mpi_opts *o, char key[KEYLEN])
{
	char *host = NULL, *boot = NULL;
	pl_read_str("/proc/sys/kernel/hostname", &host);
	pl_read_str("/proc/sys/kernel/random/boot_id", &boot);
	if (o->per_rank_nodes)
		snprintf(key, KEYLEN, "%s:r%d", host ? pl_trim(host) : "?", rank);
	else
		snprintf(key, KEYLEN, "%s %s %s", host ? pl_trim(host) : "?",
			 boot ? pl_trim(boot) : "", o->per_rank ? pl_sysroot() : "");
	free(host);
	free(boot);
}

/* ---- network: all-pairs ping-pong between collectors (OSU osu_latency style) ---- */

static const int sizes[] = { 8, 1024, 65536, 1048576 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

/* Round trips of @bytes between world ranks @me and @peer; @lead times them. Returns the
 * mean round trip in seconds on the lead, 0 on the other side. */
static double pingpong(bool lead, int peer, int bytes, int iters, int warm, char *buf)
{
	double t0 = 0;
	for (int i = 0; i < warm + iters; i++) {
		if (i == warm)
			t0 = MPI_Wtime();
		if (lead) {
			MPI_Send(buf, bytes, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
			MPI_Recv(buf, bytes, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(buf, bytes, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(buf, bytes, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
		}
	}
	return lead ? (MPI_Wtime() - t0) / iters : 0;
}

/* The matrices into a new "network" object (rank 0), given the collectors' world ranks
 * @coll (@nc of them), their names, and the communicator of the collectors. */
static json_t *measure_network(MPI_Comm cc, const int *coll, int nc, int me,
			       const struct mpi_opts *o, char names[][KEYLEN])
{
	int npairs = nc * (nc - 1) / 2;
	double *rtt = pl_xcalloc((size_t)npairs * NSIZES + 1, sizeof(double));
	double *all = pl_xcalloc((size_t)npairs * NSIZES + 1, sizeof(double));
	char *buf = pl_xcalloc(1, (size_t)sizes[NSIZES - 1]);
	int scale = o->quick ? 10 : o->full ? 1 : 2;
	int p = 0;
	for (int a = 0; a < nc; a++)
		for (int b = a + 1; b < nc; b++, p++) {
			if (me == a || me == b)
				for (size_t s = 0; s < NSIZES; s++) {
					int iters = (sizes[s] > 8192 ? 1000 : 10000) / scale;
					int warm =
						(sizes[s] > 8192 ? 10 : 100) / (scale > 2 ? 2 : 1);
					double t = pingpong(me == a, coll[me == a ? b : a],
							    sizes[s], iters, warm, buf);
					if (me == a)
						rtt[(size_t)p * NSIZES + s] = t;
				}
			MPI_Barrier(cc); /* one pair at a time */
		}
	MPI_Reduce(rtt, all, npairs * (int)NSIZES, MPI_DOUBLE, MPI_MAX, 0, cc);
	free(buf);
	free(rtt);
	if (me != 0) {
		free(all);
		return NULL;
	}
	int iters_of[NSIZES];
	for (size_t s = 0; s < NSIZES; s++)
		iters_of[s] = (sizes[s] > 8192 ? 1000 : 10000) / scale;
	json_t *net = json_object(), *nodes = json_array(), *pairs = json_array();
	json_t *lat = json_array(), *rt = json_array(), *bw = json_array();
	for (int i = 0; i < nc; i++) {
		json_array_append_new(nodes, pl_json_string(names[i]));
		json_t *l = json_array(), *r = json_array(), *w = json_array();
		for (int j = 0; j < nc; j++) {
			json_array_append_new(l, json_null());
			json_array_append_new(r, json_null());
			json_array_append_new(w, json_null());
		}
		json_array_append_new(lat, l);
		json_array_append_new(rt, r);
		json_array_append_new(bw, w);
	}
	json_t *slow = NULL;
	p = 0;
	for (int a = 0; a < nc; a++)
		for (int b = a + 1; b < nc; b++, p++) {
			json_t *pr = json_object(), *pts = json_array();
			json_object_set_new(pr, "a", pl_json_string(names[a]));
			json_object_set_new(pr, "b", pl_json_string(names[b]));
			for (size_t s = 0; s < NSIZES; s++) {
				double r = all[(size_t)p * NSIZES + s];
				json_t *pt = json_object();
				json_object_set_new(pt, "bytes", json_integer(sizes[s]));
				json_object_set_new(pt, "iterations", json_integer(iters_of[s]));
				json_object_set_new(pt, "rtt_us", json_real(r * 1e6));
				json_object_set_new(pt, "oneway_us", json_real(r * 0.5e6));
				json_object_set_new(pt, "bw_gbs",
						    json_real(sizes[s] / (r / 2) / 1e9));
				json_array_append_new(pts, pt);
				if (s == 0) {
					for (int k = 0; k < 2; k++) {
						int i = k ? b : a, j = k ? a : b;
						json_array_set_new(json_array_get(lat, i), j,
								   json_real(r * 0.5e6));
						json_array_set_new(json_array_get(rt, i), j,
								   json_real(r * 1e6));
					}
					if (!slow || r * 0.5e6 > pl_json_num(slow, "oneway_us")) {
						json_decref(slow);
						slow = json_object();
						json_object_set_new(slow, "a",
								    pl_json_string(names[a]));
						json_object_set_new(slow, "b",
								    pl_json_string(names[b]));
						json_object_set_new(slow, "oneway_us",
								    json_real(r * 0.5e6));
						json_object_set_new(slow, "rtt_us",
								    json_real(r * 1e6));
					}
				}
				if (s == NSIZES - 1) {
					double g = sizes[s] / (r / 2) / 1e9;
					json_array_set_new(json_array_get(bw, a), b, json_real(g));
					json_array_set_new(json_array_get(bw, b), a, json_real(g));
				}
			}
			json_object_set_new(pr, "points", pts);
			json_array_append_new(pairs, pr);
		}
	free(all);
	json_object_set_new(
		net, "method",
		pl_json_string("MPI ping-pong between node collectors, one pair at a time "
			       "(MPI_Barrier between pairs), MPI_Send/MPI_Recv with warm-up "
			       "round trips not timed, OSU osu_latency style: one-way "
			       "latency = round trip / 2, bandwidth = bytes / one-way time"));
	json_object_set_new(net, "nodes", nodes);
	json_t *sz = json_array();
	for (size_t s = 0; s < NSIZES; s++)
		json_array_append_new(sz, json_integer(sizes[s]));
	json_object_set_new(net, "sizes", sz);
	json_object_set_new(net, "latency_bytes", json_integer(sizes[0]));
	json_object_set_new(net, "bandwidth_bytes", json_integer(sizes[NSIZES - 1]));
	json_object_set_new(net, "latency_oneway_us", lat);
	json_object_set_new(net, "latency_rtt_us", rt);
	json_object_set_new(net, "bandwidth_gbs", bw);
	json_object_set_new(net, "pairs", pairs);
	if (slow)
		json_object_set_new(net, "slowest_pair", slow);
	/* any node whose every pair is slow (out/cluster.h names the rule) */
	json_object_set_new(net, "slow_nodes", pl_cluster_slow_nodes(net));
	return net;
}

/* ---- the node's document ---- */

/* {"failed": REASON} for a node whose document cannot be built. */
static json_t *failed_doc(const char *why)
{
	json_t *doc = json_object();
	json_object_set_new(doc, "failed", pl_json_string(why));
	return doc;
}

/* report: inspect + check + (on live nodes) bench mem, STREAM at the same time. */
static json_t *report_doc(const struct mpi_opts *o, MPI_Comm cc, bool bench)
{
	struct pl_facts f;
	struct pl_findings fs = { 0 };
	pl_facts_init(&f);
	pl_facts_set_sysctl_names(pl_rules_sysctl_names());
	pl_facts_collect_all(&f);
	json_t *doc;
	if (!pl_sysroot_is_live() && pl_facts_navailable(&f) == 0) {
		doc = failed_doc("no facts found under its sysroot");
	} else {
		pl_rules_eval(&f, 1u << o->workload, &fs);
		doc = pl_report_build(&f, &fs, pl_workload_names[o->workload], pl_now_epoch());
	}
	if (bench) {
		json_t *arr = json_array();
		struct pl_bench_plan plan = { 0 };
		enum pl_bench_mode mode = o->full    ? PL_BENCH_MODE_FULL
					  : o->quick ? PL_BENCH_MODE_QUICK
						     : PL_BENCH_MODE_DEFAULT;
		MPI_Barrier(cc); /* STREAM on every node at the same time */
		if (pl_bench_plan_make(&plan, mode, NULL) == 0)
			for (size_t i = 0; i < plan.n; i++)
				if (strcmp(plan.items[i].b->name, "mem") == 0)
					json_array_append_new(
						arr, pl_bench_plan_run(&plan, &plan.items[i]));
		pl_bench_plan_free(&plan);
		if (json_object_get(doc, "failed"))
			json_decref(arr);
		else
			json_object_set_new(doc, "benchmarks", arr);
	}
	pl_findings_free(&fs);
	pl_facts_free(&f);
	return doc;
}

/* inspect: the node's facts (cmd/node.h, as perflab inspect) and its machine row. */
static json_t *inspect_doc(const struct mpi_opts *o)
{
	struct pl_facts f;
	pl_facts_init(&f);
	first_err[0] = '\0';
	pl_error_sink = keep_error;
	json_t *doc;
	int rc = pl_inspect_collect(o->domains, &f);
	pl_error_sink = NULL;
	if (rc >= 0) {
		doc = failed_doc(first_err);
	} else {
		doc = pl_inspect_doc(&f);
		json_object_set_new(doc, "machine", pl_report_machine(&f));
	}
	pl_facts_free(&f);
	return doc;
}

/* check: the node's findings (cmd/node.h, as perflab check) in a report document. */
static json_t *check_doc(const struct mpi_opts *o)
{
	struct pl_facts f;
	struct pl_findings fs = { 0 };
	pl_facts_init(&f);
	first_err[0] = '\0';
	pl_error_sink = keep_error;
	json_t *doc;
	int rc = pl_check_findings(o->workload, o->cpus, &f, &fs);
	pl_error_sink = NULL;
	if (rc >= 0)
		doc = failed_doc(first_err);
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

/* Rank 0: each collector's document, size first, bounded by the timeout. */
static json_t *gather_docs(const int *coll, int nc, json_t *mine, const struct mpi_opts *o)
{
	json_t *docs = json_array();
	uint64_t *sz = pl_xcalloc((size_t)nc, sizeof(*sz));
	MPI_Request *rq = pl_xcalloc((size_t)nc, sizeof(*rq));
	for (int i = 1; i < nc; i++)
		MPI_Irecv(&sz[i], 1, MPI_UINT64_T, coll[i], TAG_SIZE, MPI_COMM_WORLD, &rq[i]);
	rq[0] = MPI_REQUEST_NULL;
	double end = MPI_Wtime() + o->timeout_s;
	int *done = pl_xcalloc((size_t)nc, sizeof(*done));
	done[0] = 1;
	for (int left = nc - 1; left > 0 && MPI_Wtime() < end;) {
		for (int i = 1; i < nc; i++)
			if (!done[i]) {
				MPI_Test(&rq[i], &done[i], MPI_STATUS_IGNORE);
				left -= done[i];
			}
		if (left)
			usleep(1000);
	}
	double t1 = MPI_Wtime();
	wait_s = t1 - (end - o->timeout_s);
	for (int i = 0; i < nc; i++) {
		json_t *e = json_object();
		char *src = pl_xasprintf("rank %d", coll[i]);
		json_object_set_new(e, "file", pl_json_string(src));
		free(src);
		json_t *doc = NULL;
		if (i == 0) {
			doc = json_incref(mine);
		} else if (done[i]) {
			char *text = pl_xmalloc(sz[i] + 1);
			MPI_Recv(text, (int)sz[i], MPI_CHAR, coll[i], TAG_DOC, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			text[sz[i]] = '\0';
			doc = json_loads(text, 0, NULL);
			free(text); /* one node's text at a time */
			if (!doc)
				json_object_set_new(e, "reason",
						    pl_json_string("its document is not JSON"));
		} else {
			MPI_Cancel(&rq[i]);
			char *why =
				pl_xasprintf("rank %d: no document after --timeout %g s (hung or "
					     "still running)",
					     coll[i], o->timeout_s);
			json_object_set_new(e, "reason", pl_json_string(why));
			free(why);
		}
		const char *f = pl_json_str(doc, "failed");
		if (f) {
			char *why = pl_xasprintf("rank %d: %s", coll[i], f);
			json_object_set_new(e, "reason", pl_json_string(why));
			free(why);
			json_decref(doc);
			doc = NULL;
		}
		if (doc)
			json_object_set_new(e, "doc", doc);
		json_array_append_new(docs, e);
	}
	transfer_s = MPI_Wtime() - t1;
	free(done);
	free(rq);
	free(sz);
	return docs;
}

/* Rank 0, inspect/check/bench: the merged document of @docs to -o FILE or stdout, as
 * JSON (--json) or text. Returns the exit code. */
static int write_command(const struct mpi_opts *o, const json_t *docs)
{
	bool bench = strcmp(o->cmd, "bench") == 0;
	json_t *c =
		pl_cluster_command(docs, o->cmd, bench ? o->bench.b->name : NULL, pl_now_epoch());
	json_t *run = json_object();
	json_object_set_new(run, "ranks", json_integer(nranks));
	json_object_set_new(run, "collectors", json_integer((json_int_t)json_array_size(docs)));
	json_object_set_new(run, "wait_s", json_real(wait_s));
	json_object_set_new(run, "gather_s", json_real(transfer_s));
	if (bench)
		json_object_set_new(run, "simultaneous", json_true());
	json_object_set_new(c, "mpi", run);
	int ret = PL_EXIT_OK;
	struct pl_outfile out;
	int r = pl_outfile_open(&out, pl_g.output);
	if (r < 0) {
		char m[600];
		snprintf(m, sizeof(m), "cannot write '%s': %s (choose another -o FILE)",
			 pl_g.output, strerror(-r));
		fail_line(m);
		json_decref(c);
		return PL_EXIT_USAGE;
	}
	if (pl_g.json)
		r = pl_json_write(out.fp, c);
	else
		pl_cluster_print_command(out.fp, c);
	if (pl_outfile_close(&out, r == 0 && !ferror(out.fp)) < 0 || r < 0) {
		fail_line("cannot write the output (disk full?)");
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

/* Rank 0, report: the cluster report into -o DIR and the summary (or JSON) on stdout. */
static int write_report(const json_t *docs, json_t *net, bool bench)
{
	int ret = 0;
	json_t *c = pl_cluster_from_docs(docs, pl_now_epoch());
	json_t *run = json_object();
	json_object_set_new(run, "ranks", json_integer(nranks));
	json_object_set_new(run, "collectors", json_integer((json_int_t)json_array_size(docs)));
	json_object_set_new(run, "wait_s", json_real(wait_s));
	json_object_set_new(run, "gather_s", json_real(transfer_s));
	json_object_set_new(c, "mpi", run);
	if (net)
		json_object_set_new(c, "network", json_incref(net));
	if (bench)
		json_object_set_new(json_object_get(c, "memory"), "simultaneous", json_true());
	int w = pl_cluster_write_dir(pl_g.output, c);
	if (w < 0) {
		char m[600];
		snprintf(m, sizeof(m),
			 "cannot write the report into '%s': %s (choose another with -o DIR)",
			 pl_g.output, strerror(-w));
		fail_line(m);
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

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	pl_cmd_program = "perflab-mpi";
	pl_progname = "perflab-mpi";
	pl_error_sink = keep_error;
	struct mpi_opts o = { 0 };
	int bad = parse_quiet(argc, argv, &o);
	if (bad < 0 && o.per_rank) {
		char *dir = expand_rank(o.per_rank, rank);
		struct stat st;
		if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || pl_sysroot_set(dir) < 0) {
			snprintf(first_err, sizeof(first_err),
				 "--sysroot-per-rank: rank %d: '%s' is not a directory (give "
				 "DIR/%%r with one machine tree per rank)",
				 rank, dir);
			bad = PL_EXIT_USAGE;
		}
		free(dir);
	}
	/* every rank agrees on bad input: the lowest failing rank's line, exit 2, nothing
	 * written */
	int first = bad > 0 ? rank : nranks, lowest;
	MPI_Allreduce(&first, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (bad >= 0 || lowest < nranks) {
		if (lowest < nranks && rank == lowest)
			fail_line(first_err);
		pl_bench_cmd_free(&o.bench);
		MPI_Finalize();
		return lowest < nranks ? PL_EXIT_USAGE : bad;
	}

	/* from here on errors print where they happen, but those of building a node's
	 * document, which become its "failed" reason (inspect_doc, check_doc) */
	pl_error_sink = NULL;

	/* nodes: the collector is the lowest rank with the node's key */
	char key[KEYLEN] = "";
	node_key(&o, key);
	char(*keys)[KEYLEN] = pl_xcalloc((size_t)nranks, KEYLEN);
	MPI_Allgather(key, KEYLEN, MPI_CHAR, keys, KEYLEN, MPI_CHAR, MPI_COMM_WORLD);
	int color = rank;
	for (int r = 0; r < nranks; r++)
		if (strcmp(keys[r], key) == 0) {
			color = r;
			break;
		}
	bool collector = color == rank;
	MPI_Comm cc;
	MPI_Comm_split(MPI_COMM_WORLD, collector ? 0 : MPI_UNDEFINED, rank, &cc);
	int *coll = pl_xcalloc((size_t)nranks, sizeof(int)), nc = 0, me = -1;
	char(*names)[KEYLEN] = pl_xcalloc((size_t)nranks, KEYLEN);
	for (int r = 0; r < nranks; r++) {
		bool c = true;
		for (int q = 0; q < r; q++)
			c = c && strcmp(keys[q], keys[r]) != 0;
		if (!c)
			continue;
		if (r == rank)
			me = nc;
		snprintf(names[nc], KEYLEN, "%s", keys[r]);
		char *sp = strchr(names[nc], ' ');
		if (sp)
			*sp = '\0';
		coll[nc++] = r;
	}
	int ret = 0;
	if (collector) {
		bool report = strcmp(o.cmd, "report") == 0;
		bool bench = report && !o.no_bench && pl_sysroot_is_live();
		json_t *net =
			bench && nc >= 2 ? measure_network(cc, coll, nc, me, &o, names) : NULL;
		if (getenv("PERFLAB_MPI_TEST_HANG_RANK") &&
		    atoi(getenv("PERFLAB_MPI_TEST_HANG_RANK")) == rank)
			sleep(3600); /* tests/mpi/report.sh: a hung node */
		json_t *doc = report			      ? report_doc(&o, cc, bench)
			      : strcmp(o.cmd, "inspect") == 0 ? inspect_doc(&o)
			      : strcmp(o.cmd, "check") == 0   ? check_doc(&o)
							      : bench_doc(&o, cc);
		if (rank != 0) {
			char *text = json_dumps(doc, JSON_COMPACT);
			uint64_t n = strlen(text);
			MPI_Send(&n, 1, MPI_UINT64_T, 0, TAG_SIZE, MPI_COMM_WORLD);
			MPI_Send(text, (int)n, MPI_CHAR, 0, TAG_DOC, MPI_COMM_WORLD);
			free(text);
		} else {
			json_t *docs = gather_docs(coll, nc, doc, &o);
			size_t i;
			json_t *e;
			json_array_foreach(docs, i, e)
				json_object_set_new(e, "name", pl_json_string(names[i]));
			ret = report ? write_report(docs, net, bench) : write_command(&o, docs);
			bool hung = false;
			json_array_foreach(docs, i, e)
			{
				const char *why = pl_json_str(e, "reason");
				hung = hung || (why && strstr(why, "--timeout"));
			}
			json_decref(docs);
			if (hung) /* a hung rank would block MPI_Finalize */
				MPI_Abort(MPI_COMM_WORLD, ret);
		}
		json_decref(net);
		json_decref(doc);
		MPI_Comm_free(&cc);
	}
	free(keys);
	free(names);
	free(coll);
	pl_bench_cmd_free(&o.bench);
	MPI_Bcast(&ret, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Finalize();
	return ret;
}
