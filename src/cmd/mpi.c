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
#include <pthread.h>
#include <stdatomic.h>
#include <mpi.h>
#include <netinet/in.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/net.h"
#include "report/plan.h"
#include "cmd/common.h"
#include "cmd/node.h"
#include "facts/facts.h"
#include "render/cluster.h"
#include "report/cluster.h"
#include "util/json.h"
#include "report/report.h"
#include "rules/rules.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/outfile.h"
#include "util/log.h"
#include "util/str.h"
#include "util/sysroot.h"

/* message tags; WINDOW: rank 0's receives in flight at most (gather_json); NAP_US: the
 * sleep between tests of a waiting rank; STOP_GRACE_S: how long a stopping rank leaves
 * rank 0 to write the partial report (rank_stop) */
enum {
	KEYLEN = 256,
	TAG_PING = 1,
	TAG_PINGSTOP = 2,
	TAG_DOC = 12,
	TAG_STREAM = 13,
	TAG_PAIR = 14,
	TAG_STOP = 15,
	TAG_TCP = 16,
	TCP_BYTES = 8,
	STOP_BYTES = 2 * (int)sizeof(int),
	WINDOW = 64,
	NAP_US = 200,
	STOP_GRACE_S = 10,
};

/** The command of this run and its options (the global ones are in pl_g). */
struct mpi_opts {
	const char *cmd;			    /**< report, inspect, check or bench */
	const char *per_rank;			    /**< --sysroot-per-rank */
	int workload, fail_on;			    /**< -W, --fail-on (check) */
	const char *domains, *cpus;		    /**< --domain (inspect), --cpus (check) */
	bool quick, full, no_bench, per_rank_nodes; /**< report's modes, --per-rank-nodes */
	bool net_tcp;				    /**< report --net-tcp */
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
	  "section; the ranks exit 128 + signal.",
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
/* rank 0, the documents' gather (gather_json): seconds until the last collector's
 * document arrived (its envelope matched), seconds from then until every document is
 * received and parsed (what the gather adds after the slowest node), and the CPU seconds
 * parsing all of them (json_loadb, CLOCK_THREAD_CPUTIME_ID) */
static double wait_s, transfer_s, parse_cpu_s;
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

/* ---- stopping early: SIGINT/SIGTERM, a rank's notice, rank 0's --timeout ---- */

/* This rank's first SIGINT/SIGTERM (report only; the handler only sets it: MPI calls are
 * not async-signal-safe, the wait loops poll it). OpenMPI 4.1's mpirun turns a SIGINT or
 * SIGTERM of its own into SIGTERM to every rank and SIGKILL 1 s later
 * (odls_base_sigkill_timeout), so rank 0 has about a second to write what it has. */
static volatile sig_atomic_t got_sig;
/* Why this run stops early: the signal and the rank it reached (rank 0 learns of other
 * ranks' signals from their TAG_STOP notices or a ping-pong's stop message), or rank 0's
 * --timeout ran out in a wait (late); the phase it was in. */
static struct {
	int sig, rank;
	bool late;
	const char *phase;
} stop = { .phase = "documents" };

static void on_stop_signal(int sig)
{
	if (!got_sig)
		got_sig = sig;
}

/* True once this run must stop (fills stop): this rank's signal or, on rank 0, another
 * rank's TAG_STOP notice {signal, rank}. */
static bool stopping(void)
{
	if (stop.sig || stop.late)
		return true;
	if (got_sig) {
		stop.sig = got_sig;
		stop.rank = rank;
		return true;
	}
	int flag = 0;
	MPI_Status st;
	if (rank == 0)
		MPI_Iprobe(MPI_ANY_SOURCE, TAG_STOP, MPI_COMM_WORLD, &flag, &st);
	if (flag) {
		int v[2];
		MPI_Recv(v, 2, MPI_INT, st.MPI_SOURCE, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		stop.sig = v[0];
		stop.rank = v[1];
	}
	return flag != 0;
}

/* Wait for the @n requests @rq, polling stopping() and sleeping NAP_US between tests
 * (waiting ranks leave the CPUs to the ones working: 64 ranks share 2 here), and on rank 0
 * the MPI_Wtime @deadline (0: none; past it stop.late is set). Returns 0 or -EINTR. */
static int wait_reqs(int n, MPI_Request *rq, double deadline)
{
	for (;;) {
		int done = 0;
		MPI_Testall(n, rq, &done, MPI_STATUSES_IGNORE);
		if (done)
			return 0;
		if (stopping())
			return -EINTR;
		if (deadline > 0 && MPI_Wtime() > deadline) {
			stop.late = true;
			return -EINTR;
		}
		usleep(NAP_US);
	}
}

/* MPI_Ibarrier on @comm, waited for as wait_reqs(). */
static int poll_barrier(MPI_Comm comm, double deadline)
{
	MPI_Request rq;
	MPI_Ibarrier(comm, &rq);
	return wait_reqs(1, &rq, deadline);
}

/* A rank other than 0 that must stop: tell rank 0 (TAG_STOP {signal, rank}), leave it
 * STOP_GRACE_S to write the partial report and end the job (MPI_Abort, or mpirun's
 * SIGKILL), then exit 128 + signal without MPI_Finalize (a collective that could hang). */
static _Noreturn void rank_stop(void)
{
	int v[2] = { stop.sig, stop.rank }, done = 0;
	MPI_Request rq;
	MPI_Isend(v, 2, MPI_INT, 0, TAG_STOP, MPI_COMM_WORLD, &rq);
	for (double end = MPI_Wtime() + STOP_GRACE_S; MPI_Wtime() < end; usleep(10000))
		if (!done)
			MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
	fflush(stdout);
	_exit(128 + (stop.sig > 0 ? stop.sig : SIGTERM));
}

/* Send @doc's compact text to rank 0 with @tag (one message; rank 0 sizes it with
 * MPI_Improbe) and wait for the send; a stop on the way ends this rank (rank_stop). */
static void send_json(const json_t *doc, int tag)
{
	char *text = json_dumps(doc, JSON_COMPACT);
	size_t n = text ? strlen(text) : 0;
	MPI_Request rq;
	MPI_Isend(text ? text : "", (int)n, MPI_CHAR, 0, tag, MPI_COMM_WORLD, &rq);
	if (wait_reqs(1, &rq, 0) < 0)
		rank_stop();
	free(text);
}

/* The index of world rank @r in the ascending collectors' ranks @coll (@nc), or -1. */
static int coll_index(const int *coll, int nc, int r)
{
	for (int lo = 0, hi = nc - 1; lo <= hi;) {
		int mid = (lo + hi) / 2;
		if (coll[mid] == r)
			return mid;
		if (coll[mid] < r)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* Test hook (tests/mpi/interrupt.sh): rank 0 writes how many nodes' documents it has,
 * its own included, to $PERFLAB_MPI_TEST_GATHERED (temp + rename) as each one lands. */
static void test_note_gathered(int tag, int n)
{
	static const char *f;
	static bool looked;
	if (!looked) {
		f = getenv("PERFLAB_MPI_TEST_GATHERED");
		looked = true;
	}
	struct pl_outfile out;
	if (f && tag == TAG_DOC && pl_outfile_open(&out, f) == 0) {
		fprintf(out.fp, "%d\n", n);
		pl_outfile_close(&out, !ferror(out.fp));
	}
}

/* Rank 0: the JSON text with @tag from each collector i (1..@nc-1) without @got[i],
 * parsed into @out[i] as it lands (NULL when it is not JSON; @got[i] set either way).
 * A text's size comes from MPI_Improbe and its receive is MPI_Imrecv, so up to WINDOW of
 * them are in flight at once (their senders progress in parallel) and each is parsed as
 * soon as it completes (MPI_Testsome) and freed: rank 0 holds at most WINDOW texts.
 * With @wait_s (may be NULL): the seconds until the last collector's text arrived (its
 * envelope matched; each collector counted once), @gather_s from then until all are parsed,
 * @parse_s the CPU seconds of the parsing (added to). Returns 0, or -EINTR when stopping() or
 * @deadline (MPI_Wtime; stop.late) ended it first; receives still in flight are left to the exit.
 */
static int gather_json(int tag, const int *coll, int nc, json_t **out, bool *got, double deadline,
		       double *wait_s_, double *gather_s, double *parse_s)
{
	MPI_Request rq[WINDOW];
	char *buf[WINDOW];
	int len[WINDOW], who[WINDOW], idx[WINDOW];
	int left = 0, fly = 0, unmatched = 0;
	double t0 = MPI_Wtime(), t_all = t0, cpu = 0;
	for (int i = 1; i < nc; i++)
		left += !got[i];
	unmatched = left;
	for (int k = 0; k < WINDOW; k++)
		rq[k] = MPI_REQUEST_NULL;
	pl_autofree bool *seen = pl_xcalloc((size_t)nc, sizeof(bool));
	int r = 0;
	while (left > 0) {
		bool moved = false;
		for (int k = 0; k < WINDOW && fly < WINDOW; k++) {
			if (rq[k] != MPI_REQUEST_NULL)
				continue;
			int flag = 0;
			MPI_Message m;
			MPI_Status st;
			MPI_Improbe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, &m, &st);
			if (!flag)
				break;
			MPI_Get_count(&st, MPI_CHAR, &len[k]);
			who[k] = coll_index(coll, nc, st.MPI_SOURCE);
			buf[k] = pl_xmalloc((size_t)len[k] + 1);
			MPI_Imrecv(buf[k], len[k], MPI_CHAR, &m, &rq[k]);
			fly++;
			moved = true;
			/* once per collector: a second text of one (never sent, but a rank's
			 * stray message must not end the wait early) does not count */
			if (who[k] > 0 && !got[who[k]] && !seen[who[k]]) {
				seen[who[k]] = true;
				if (--unmatched == 0)
					t_all = MPI_Wtime(); /* the last collector's text is here */
			}
		}
		int n = 0;
		if (fly)
			MPI_Testsome(WINDOW, rq, &n, idx, MPI_STATUSES_IGNORE);
		for (int j = 0; n != MPI_UNDEFINED && j < n; j++) {
			int k = idx[j], i = who[k];
			struct timespec c0, c1;
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
			json_t *d = json_loadb(buf[k], (size_t)len[k], 0, NULL);
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
			cpu += (double)(c1.tv_sec - c0.tv_sec) +
			       (double)(c1.tv_nsec - c0.tv_nsec) / 1e9;
			free(buf[k]);
			fly--;
			moved = true;
			if (i > 0 && !got[i]) {
				out[i] = d;
				got[i] = true;
				left--;
				test_note_gathered(tag, nc - left);
			} else {
				json_decref(d);
			}
		}
		if (moved || left == 0)
			continue;
		if (stopping()) {
			r = -EINTR;
			break;
		}
		if (MPI_Wtime() > deadline) {
			stop.late = true;
			r = -EINTR;
			break;
		}
		if (!fly)
			usleep(NAP_US);
	}
	if (wait_s_) {
		double end = MPI_Wtime();
		if (unmatched) /* not all arrived: all of it was waiting */
			t_all = end;
		*wait_s_ += t_all - t0;
		*gather_s += end - t_all;
		*parse_s += cpu;
	}
	return r;
}

/* Test hook (tests/mpi/): stop here until a signal, a hung rank or a pair that never
 * ends; first write this rank's pid to the file $PERFLAB_MPI_TEST_STALLED (temp +
 * rename), so the test knows when, and whom to signal. */
static void test_stall(void)
{
	const char *f = getenv("PERFLAB_MPI_TEST_STALLED");
	if (f) {
		struct pl_outfile out;
		if (pl_outfile_open(&out, f) == 0) {
			fprintf(out.fp, "%ld\n", (long)getpid());
			pl_outfile_close(&out, !ferror(out.fp));
		}
	}
	while (!got_sig)
		usleep(10000);
}

/* ---- network: all-pairs ping-pong between collectors (OSU osu_latency style) ---- */

static const int sizes[] = { 8, 1024, 65536, 1048576 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))
/* a pair's figures: the round trip of each size, then --net-tcp's (or -errno) and how
 * its server was reached (REACH_*) */
#define NVALS (NSIZES + 2)
enum { REACH_NONE = 0, REACH_HOSTNAME = 1, REACH_ADDRESS = 2 };
/* the server's "HOSTNAME:PORT ADDR..." message of --net-tcp */
#define TCP_ADDR_MAX 2048

/* The timed and the warm-up round trips of a size at @scale (quick 10, default 2,
 * full 1): osu_latency's counts at full (10000 and 100 up to 8 KiB, 1000 and 10 above). */
static int pp_iters(int bytes, int scale)
{
	return (bytes > 8192 ? 1000 : 10000) / scale;
}
static int pp_warm(int bytes, int scale)
{
	return (bytes > 8192 ? 10 : 100) / (scale > 2 ? 2 : 1);
}

/* End a ping-pong early: the stop message to @peer ({signal, rank}, tag TAG_PINGSTOP), in
 * place of the next ping or pong, so the peer leaves its loop too. */
static void pp_send_stop(int peer)
{
	stopping(); /* fills stop from got_sig */
	int v[2] = { stop.sig, stop.rank };
	MPI_Send(v, (int)sizeof(v), MPI_CHAR, peer, TAG_PINGSTOP, MPI_COMM_WORLD);
}

/* The peer's stop message in @buf: its signal and rank become this rank's stop. */
static void pp_took_stop(const char *buf)
{
	int v[2];
	memcpy(v, buf, sizeof(v));
	if (!stop.sig) {
		stop.sig = v[0];
		stop.rank = v[1];
	}
}

/* @n round trips of @bytes from @sbuf into @rbuf (at least STOP_BYTES) between this
 * rank and world rank @peer, the lead sending first. Either side that has a signal
 * (got_sig: one load per round trip) sends the stop message instead of its next
 * message, so both leave the loop at once (the receive takes at least STOP_BYTES for
 * it). Returns 0, or -1 when stopped. */
static int round_trips(bool lead, int peer, int bytes, int n, char *sbuf, char *rbuf)
{
	int cap = bytes < STOP_BYTES ? STOP_BYTES : bytes;
	MPI_Status st;
	for (int i = 0; i < n; i++) {
		if (lead) {
			if (got_sig) {
				pp_send_stop(peer);
				return -1;
			}
			MPI_Send(sbuf, bytes, MPI_CHAR, peer, TAG_PING, MPI_COMM_WORLD);
			MPI_Recv(rbuf, cap, MPI_CHAR, peer, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
		} else {
			MPI_Recv(rbuf, cap, MPI_CHAR, peer, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
			if (st.MPI_TAG != TAG_PINGSTOP && got_sig) {
				pp_send_stop(peer);
				return -1;
			}
		}
		if (st.MPI_TAG == TAG_PINGSTOP) {
			pp_took_stop(rbuf);
			return -1;
		}
		if (!lead)
			MPI_Send(sbuf, bytes, MPI_CHAR, peer, TAG_PING, MPI_COMM_WORLD);
	}
	return 0;
}

/* The lead's synchronising round trip (an empty ping, the peer's pong) bounded by the
 * MPI_Wtime @deadline: rank 0 leads its pairs and must not wait for ever on a peer that
 * hung before the pair (past the deadline stop.late is set, so the partial report says
 * --timeout). Nonblocking, spun on MPI_Testall with stopping() and the deadline checked
 * each turn (no nap: the sync is one message per size); the timed loop keeps
 * osu_latency's blocking calls. Returns 0, or -1 when stopped. */
static int pp_sync_bounded(int peer, char *sbuf, char *rbuf, double deadline)
{
	MPI_Request rq[2];
	MPI_Status st[2];
	MPI_Irecv(rbuf, STOP_BYTES, MPI_CHAR, peer, MPI_ANY_TAG, MPI_COMM_WORLD, &rq[0]);
	MPI_Isend(sbuf, 0, MPI_CHAR, peer, TAG_PING, MPI_COMM_WORLD, &rq[1]);
	for (;;) {
		int done = 0;
		MPI_Testall(2, rq, &done, st);
		if (done)
			break;
		/* a signal here, another rank's notice, or the deadline: the job ends (the
		 * requests are left to MPI_Abort) */
		if (stopping())
			return -1;
		if (MPI_Wtime() > deadline) {
			stop.late = true;
			return -1;
		}
	}
	/* the peer's stop instead of its pong: for the pair (TAG_PINGSTOP) or, when it
	 * stopped before the pair, its notice to rank 0 (TAG_STOP); both are {signal, rank} */
	if (st[0].MPI_TAG == TAG_PINGSTOP || st[0].MPI_TAG == TAG_STOP) {
		pp_took_stop(rbuf);
		return -1;
	}
	return 0;
}

/* One size of the ping-pong, as osu_latency measures it (and benchmarks/mpi-pingpong.c):
 * both buffers (separate, page-aligned) filled first, the two ranks synchronised (an
 * empty round trip, osu_latency's MPI_Barrier; on the lead bounded by @deadline when it
 * is > 0, see pp_sync_bounded), @warm untimed round trips, then @iters timed ones
 * (MPI_Wtime around the loop, on the lead). Returns the mean round trip in seconds on
 * the lead, 0 on the other side, -1 when stopped. */
static double pingpong(bool lead, int peer, int bytes, int iters, int warm, char *sbuf, char *rbuf,
		       double deadline)
{
	memset(sbuf, 'a', (size_t)bytes);
	memset(rbuf, 'b', (size_t)bytes);
	int synced = lead && deadline > 0 ? pp_sync_bounded(peer, sbuf, rbuf, deadline)
					  : round_trips(lead, peer, 0, 1, sbuf, rbuf);
	if (synced < 0 || round_trips(lead, peer, bytes, warm, sbuf, rbuf) < 0)
		return -1;
	double t0 = MPI_Wtime();
	if (round_trips(lead, peer, bytes, iters, sbuf, rbuf) < 0)
		return -1;
	return lead ? (MPI_Wtime() - t0) / iters : 0;
}

/* The server side of tcp_pingpong(). */
struct tcp_server {
	struct pl_net_server *srv;
	atomic_int stop;
};

static void *tcp_serve(void *arg)
{
	struct tcp_server *t = arg;
	pl_net_server_serve(t->srv, &t->stop, NULL, NULL);
	return NULL;
}

/* --net-tcp: one tcp_pp test of TCP_BYTES (TCP_NODELAY, one connection, @seconds) with
 * perflab's bench net code between this rank and world rank @peer: the other side opens
 * a server on an ephemeral port of every address and sends "HOSTNAME:PORT ADDR..." (its
 * interfaces' addresses, pl_net_host_addrs; TAG_TCP), the lead runs the test against
 * the hostname's address or, where the hostname does not resolve (network namespaces or
 * containers as hosts, their names in no hosts file), against the first of the
 * addresses on one of its own links (pl_net_pick_addr), then says it is done (TAG_TCP).
 * Returns on the lead the mean round trip in seconds (elapsed / round trips, as the MPI
 * figure) or -errno (the server could not open: -ENOTCONN; neither the name resolves
 * nor an address came: -EADDRNOTAVAIL; pl_net_run's errors) with *@reach REACH_*,
 * 0 on the other side, or -EINTR there when it must stop. */
static double tcp_pingpong(bool lead, int peer, double seconds, double *reach)
{
	char addr[TCP_ADDR_MAX] = "";
	*reach = REACH_NONE;
	if (lead) {
		MPI_Recv(addr, sizeof(addr), MPI_CHAR, peer, TAG_TCP, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		addr[sizeof(addr) - 1] = '\0';
		double t = -ENOTCONN;
		struct pl_net_client_opts co = { .timeout = 5, .cpu = -1 };
		char *list = strchr(addr, ' ');
		if (list)
			*list++ = '\0';
		int r = addr[0] ? pl_net_addr_parse(addr, false, &co.addr, &co.addrlen) : -ENOTCONN;
		*reach = r == 0 ? REACH_HOSTNAME : REACH_NONE;
		const char *colon = strrchr(addr, ':');
		char alt[INET6_ADDRSTRLEN + 16];
		if (r == -EADDRNOTAVAIL && list && colon &&
		    pl_net_pick_addr(list, atoi(colon + 1), alt, sizeof(alt)) == 0 &&
		    pl_net_addr_parse(alt, false, &co.addr, &co.addrlen) == 0) {
			r = 0;
			*reach = REACH_ADDRESS;
		}
		if (r == 0) {
			struct pl_net_req req = { .test = PL_NET_TCP_PP,
						  .size = TCP_BYTES,
						  .seconds = seconds,
						  .streams = 1,
						  .nodelay = true };
			struct pl_net_result res;
			char err[256];
			r = pl_net_run(&co, &req, NULL, &res, err, sizeof(err));
			if (r == 0 && res.transactions)
				t = res.elapsed_s / (double)res.transactions;
		}
		if (r < 0)
			t = r;
		int done = 1;
		MPI_Send(&done, 1, MPI_INT, peer, TAG_TCP, MPI_COMM_WORLD);
		return t;
	}
	struct tcp_server t = { 0 };
	struct pl_net_server_opts so = { .timeout = 5, .cpu = -1 };
	pthread_t th;
	bool running = false;
	char host[KEYLEN] = "", ifs[TCP_ADDR_MAX - KEYLEN - 16];
	if (pl_net_server_open(":0", &so, &t.srv) == 0 &&
	    gethostname(host, sizeof(host) - 1) == 0 &&
	    pthread_create(&th, NULL, tcp_serve, &t) == 0) {
		running = true;
		if (pl_net_host_addrs(ifs, sizeof(ifs)) <= 0)
			ifs[0] = '\0';
		snprintf(addr, sizeof(addr), "%s:%d%s%s", host, pl_net_server_port(t.srv),
			 ifs[0] ? " " : "", ifs);
	}
	MPI_Send(addr, (int)strlen(addr) + 1, MPI_CHAR, peer, TAG_TCP, MPI_COMM_WORLD);
	int done = 0;
	MPI_Request rq;
	MPI_Irecv(&done, 1, MPI_INT, peer, TAG_TCP, MPI_COMM_WORLD, &rq);
	int w = wait_reqs(1, &rq, 0);
	if (w < 0) { /* stopped: the receive into this frame's @done must not outlive it */
		MPI_Cancel(&rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
	}
	atomic_store(&t.stop, 1);
	if (running)
		pthread_join(th, NULL);
	pl_net_server_close(t.srv);
	return w < 0 ? -EINTR : 0;
}

/* All pairs of the @nc collectors (world ranks @coll; this one is @me), one pair at a
 * time (a barrier of @cc between pairs). The lead of each pair sends its round trips
 * (NVALS seconds: each size's, then --net-tcp's or -errno; TAG_PAIR) to rank 0 as soon
 * as they are measured, so rank 0 has every pair measured so far in @rtt (npairs x
 * NVALS) with @have[p] set. Rank 0 returns
 * 0, or -EINTR when it must stop (stop filled: a signal, a notice, --timeout between
 * pairs); any other rank that must stop ends in rank_stop(). */
static int measure_pairs(MPI_Comm cc, const int *coll, int nc, int me, const struct mpi_opts *o,
			 double *rtt, bool *have)
{
	size_t cap = (size_t)sizes[NSIZES - 1];
	char *sbuf = aligned_alloc(4096, cap), *rbuf = aligned_alloc(4096, cap);
	if (!sbuf || !rbuf) {
		fail_line("out of memory for the ping-pong's 1 MiB buffers");
		MPI_Abort(MPI_COMM_WORLD, PL_EXIT_RUNTIME);
	}
	int scale = o->quick ? 10 : o->full ? 1 : 2, r = 0;
	double mine[NVALS];
	stop.phase = "network";
	int p = 0;
	for (int a = 0; a < nc && r == 0; a++)
		for (int b = a + 1; b < nc && r == 0; b++, p++) {
			if (getenv("PERFLAB_MPI_TEST_STALL_PAIR") &&
			    atoi(getenv("PERFLAB_MPI_TEST_STALL_PAIR")) == p && me == a)
				test_stall(); /* tests/mpi/interrupt.sh: a pair that never ends */
			if (getenv("PERFLAB_MPI_TEST_STALL_PEER") &&
			    atoi(getenv("PERFLAB_MPI_TEST_STALL_PEER")) == p && me == b)
				test_stall(); /* tests/mpi/report.sh: rank 0's peer hangs */
			MPI_Request rq[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL };
			bool stopped = false;
			/* rank 0 bounds each size's synchronising round trip (it leads its pairs)
			 */
			double deadline = me == 0 ? MPI_Wtime() + o->timeout_s : 0;
			if (me == a || me == b) {
				for (size_t s = 0; s < NSIZES && !stopped; s++) {
					double t = pingpong(me == a, coll[me == a ? b : a],
							    sizes[s], pp_iters(sizes[s], scale),
							    pp_warm(sizes[s], scale), sbuf, rbuf,
							    deadline);
					mine[s] = t;
					stopped = t < 0;
				}
				mine[NSIZES] = mine[NSIZES + 1] = 0;
				if (!stopped && o->net_tcp) {
					mine[NSIZES] = tcp_pingpong(me == a, coll[me == a ? b : a],
								    o->quick  ? 0.2
								    : o->full ? 1
									      : 0.5,
								    &mine[NSIZES + 1]);
					stopped = got_sig || (me != a && mine[NSIZES] == -EINTR);
				}
				if (!stopped && me == 0)
					memcpy(rtt + (size_t)p * NVALS, mine, sizeof(mine));
				else if (!stopped && me == a) {
					MPI_Isend(mine, NVALS, MPI_DOUBLE, 0, TAG_PAIR,
						  MPI_COMM_WORLD, &rq[1]);
				}
			} else if (me == 0) {
				MPI_Irecv(rtt + (size_t)p * NVALS, NVALS, MPI_DOUBLE, coll[a],
					  TAG_PAIR, MPI_COMM_WORLD, &rq[1]);
			}
			if (!stopped) {
				MPI_Ibarrier(cc, &rq[0]); /* one pair at a time */
				stopped = wait_reqs(2, rq,
						    me == 0 ? MPI_Wtime() + o->timeout_s : 0) < 0;
			}
			if (stopped && me != 0)
				rank_stop();
			if (stopped)
				r = -EINTR;
			else if (me == 0)
				have[p] = true;
		}
	free(sbuf);
	free(rbuf);
	return r;
}

/* An @n x @n matrix of nulls. */
static json_t *null_matrix(int n)
{
	json_t *m = json_array();
	for (int i = 0; i < n; i++) {
		json_t *r = json_array();
		for (int j = 0; j < n; j++)
			json_array_append_new(r, json_null());
		json_array_append_new(m, r);
	}
	return m;
}

static int cmp_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* --net-tcp's figures of pair (@a, @b) from its NVALS values @v: {"rtt_us", "oneway_us",
 * "over_mpi" (TCP's round trip / MPI's at TCP_BYTES), "reached"} or {"error"}; the round
 * trip also into the matrix @m and the ratio appended to @over (*@nover of them). */
static json_t *tcp_pair_json(const double *v, json_t *m, int a, int b, double *over, size_t *nover)
{
	json_t *t = json_object();
	double r = v[NSIZES];
	if (!(r > 0)) {
		json_object_set_new(
			t, "error",
			pl_json_string(r == -EADDRNOTAVAIL
					       ? "the server's hostname does not resolve here and "
						 "none of its addresses came"
				       : r < 0 ? strerror((int)-r)
					       : "no round trip"));
		return t;
	}
	json_object_set_new(
		t, "reached",
		pl_json_string(v[NSIZES + 1] == REACH_ADDRESS ? "address" : "hostname"));
	json_object_set_new(t, "rtt_us", json_real(r * 1e6));
	json_object_set_new(t, "oneway_us", json_real(r * 0.5e6));
	if (v[0] > 0) { /* sizes[0] == TCP_BYTES */
		json_object_set_new(t, "over_mpi", json_real(r / v[0]));
		over[(*nover)++] = r / v[0];
	}
	json_array_set_new(json_array_get(m, a), b, json_real(r * 1e6));
	json_array_set_new(json_array_get(m, b), a, json_real(r * 1e6));
	return t;
}

/* Rank 0: the "network" object of the pairs measured (@rtt, @have as measure_pairs()
 * left them; complete false when some are missing) between the @nc collectors @names. */
static json_t *network_json(const double *rtt, const bool *have, int nc, const struct mpi_opts *o,
			    char names[][KEYLEN])
{
	int scale = o->quick ? 10 : o->full ? 1 : 2;
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
	json_t *slow = NULL, *tcp_rt = o->net_tcp ? null_matrix(nc) : NULL;
	double *over = pl_xcalloc((size_t)(nc * (nc - 1) / 2) + 1, sizeof(*over));
	size_t nover = 0;
	bool complete = true;
	int p = 0;
	for (int a = 0; a < nc; a++)
		for (int b = a + 1; b < nc; b++, p++) {
			if (!have[p]) {
				complete = false;
				continue;
			}
			json_t *pr = json_object(), *pts = json_array();
			json_object_set_new(pr, "a", pl_json_string(names[a]));
			json_object_set_new(pr, "b", pl_json_string(names[b]));
			for (size_t s = 0; s < NSIZES; s++) {
				double r = rtt[(size_t)p * NVALS + s];
				json_t *pt = json_object();
				json_object_set_new(pt, "bytes", json_integer(sizes[s]));
				json_object_set_new(pt, "iterations",
						    json_integer(pp_iters(sizes[s], scale)));
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
			if (o->net_tcp)
				json_object_set_new(pr, "tcp",
						    tcp_pair_json(rtt + (size_t)p * NVALS, tcp_rt,
								  a, b, over, &nover));
			json_array_append_new(pairs, pr);
		}
	json_object_set_new(
		net, "method",
		pl_json_string("MPI ping-pong between node collectors, one pair at a time "
			       "(a barrier between pairs), MPI_Send/MPI_Recv measured as OSU "
			       "osu_latency: separate page-aligned buffers filled, the pair "
			       "synchronised, warm-up round trips not timed, MPI_Wtime around "
			       "the timed loop; one-way latency = round trip / 2, bandwidth = "
			       "bytes / one-way time"));
	json_object_set_new(net, "complete", json_boolean(complete));
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
	/* any node whose every pair is slow (out/cluster.h names the rule); of every pair
	 * only: some pairs of a node against others' would name it on half the evidence */
	json_object_set_new(net, "slow_nodes",
			    complete ? pl_cluster_slow_nodes(net) : json_array());
	if (tcp_rt) {
		json_t *t = json_object();
		json_object_set_new(
			t, "method",
			pl_json_string(
				"perflab bench net's tcp_pp between the same pairs, right "
				"after each pair's MPI ping-pong: one TCP connection, "
				"TCP_NODELAY, the lead the client, the other node the server "
				"(an ephemeral port of its hostname's address or, where the "
				"hostname does not resolve, of its first interface address on "
				"one of the lead's subnets); round trip = elapsed / "
				"round trips, as the MPI figure"));
		json_object_set_new(t, "nodes", json_deep_copy(nodes));
		json_object_set_new(t, "bytes", json_integer(TCP_BYTES));
		json_object_set_new(t, "seconds", json_real(o->quick ? 0.2 : o->full ? 1 : 0.5));
		json_object_set_new(t, "latency_rtt_us", tcp_rt);
		qsort(over, nover, sizeof(*over), cmp_dbl);
		json_object_set_new(
			t, "median_over_mpi",
			nover ? json_real(nover % 2 ? over[nover / 2]
						    : (over[nover / 2 - 1] + over[nover / 2]) / 2)
			      : json_null());
		json_object_set_new(net, "tcp", t);
	}
	free(over);
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

/* The facts of a node's @doc without their "source" paths, before it goes to rank 0:
 * the merge reads only their values (out/cluster.c), and the paths are a third of the
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
	pl_findings_free(&fs);
	pl_facts_free(&f);
	return doc;
}

/* report: the node's bench mem (STREAM) result, as perflab report runs it in the mode
 * of --quick/--full, or NULL. A signal during the run (the runner's handlers are in
 * place then) becomes got_sig. */
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
	if (pl_bench_stop_signal() && !got_sig)
		got_sig = pl_bench_stop_signal();
	return res;
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

/* Rank 0: the "docs" array of pl_cluster_from_docs() ({file, name, doc} or {file, name,
 * reason}) of the @nc collectors (world ranks @coll, @names), @docs[i] and @got[i] as
 * gather_json() left them (@docs[i] taken over). */
static json_t *docs_array(const int *coll, int nc, char names[][KEYLEN], json_t **docs,
			  const bool *got, const struct mpi_opts *o)
{
	json_t *arr = json_array();
	for (int i = 0; i < nc; i++) {
		json_t *e = json_object(), *doc = docs[i];
		docs[i] = NULL;
		char *src = pl_xasprintf("rank %d", coll[i]);
		json_object_set_new(e, "file", pl_json_string(src));
		free(src);
		json_object_set_new(e, "name", pl_json_string(names[i]));
		char *why = NULL;
		if (got[i] && !doc)
			why = pl_xasprintf("its document is not JSON");
		else if (!got[i] && stop.late)
			why = pl_xasprintf("rank %d: no document after --timeout %g s (hung or "
					   "still running)",
					   coll[i], o->timeout_s);
		else if (!got[i])
			why = pl_xasprintf("rank %d: no document before the run was interrupted",
					   coll[i]);
		else if (pl_json_str(doc, "failed"))
			why = pl_xasprintf("rank %d: %s", coll[i], pl_json_str(doc, "failed"));
		if (why) {
			json_object_set_new(e, "reason", pl_json_string(why));
			free(why);
			json_decref(doc);
		} else {
			json_object_set_new(e, "doc", doc);
		}
		json_array_append_new(arr, e);
	}
	return arr;
}

/* The "mpi" object of rank 0's outputs: ranks, collectors (documents in @docs), wait_s,
 * gather_s and parse_cpu_s (seconds, from the gather). New reference. */
static json_t *mpi_run_json(const json_t *docs)
{
	json_t *run = json_object();
	json_object_set_new(run, "ranks", json_integer(nranks));
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

/* The name of the signals perflab-mpi handles. */
static const char *sig_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

/* Rank 0: the "interrupted" section of a report that a signal (stop.sig) or --timeout
 * (stop.late) cut short: the cause, the phase, and what is missing: the documents of
 * the collectors without @got, the STREAM results of those with @ok (a document, not failed)
 * but not @mem_ok, the pairs without @have (@bench: the report would have run them). */
static json_t *interrupted_json(int nc, char names[][KEYLEN], const bool *got, const bool *ok,
				const bool *mem_ok, const bool *have, bool bench,
				const struct mpi_opts *o)
{
	json_t *it = json_object(), *nodes = json_array(), *mem = json_array();
	json_t *pairs = json_array(), *what = json_array();
	json_object_set_new(it, "cause", pl_json_string(stop.sig ? "signal" : "timeout"));
	if (stop.sig) {
		json_object_set_new(it, "signal", pl_json_string(sig_name(stop.sig)));
		json_object_set_new(it, "signal_number", json_integer(stop.sig));
		json_object_set_new(it, "rank", json_integer(stop.rank));
	} else {
		json_object_set_new(it, "timeout_s", json_real(o->timeout_s));
	}
	json_object_set_new(it, "phase", pl_json_string(stop.phase));
	for (int i = 0; i < nc; i++) {
		if (!got[i])
			json_array_append_new(nodes, pl_json_string(names[i]));
		else if (ok[i] && bench && !mem_ok[i])
			json_array_append_new(mem, pl_json_string(names[i]));
	}
	int p = 0, np = nc * (nc - 1) / 2, miss = 0;
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
		s = pl_xasprintf("network: %d of %d pairs not measured", miss, np);
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
	if (net)
		json_object_set_new(c, "network", json_incref(net));
	if (bench)
		json_object_set_new(json_object_get(c, "memory"), "simultaneous", json_true());
	if (intr)
		json_object_set_new(c, "interrupted", json_incref(intr));
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

/* report on a collector: its document first (rank 0 gathers them), then with @bench
 * STREAM on every node at once (each result streamed to rank 0) and the pairs one at a
 * time (each streamed to rank 0). On a signal, rank 0 writes what arrived (stop,
 * interrupted_json()) and ends the job: exit 128 + signal. Returns the exit code on
 * rank 0 (0 elsewhere). */
static int run_report(const struct mpi_opts *o, MPI_Comm cc, const int *coll, int nc, int me,
		      char names[][KEYLEN])
{
	bool bench = !o->no_bench && pl_sysroot_is_live();
	if (getenv("PERFLAB_MPI_TEST_HANG_RANK") &&
	    atoi(getenv("PERFLAB_MPI_TEST_HANG_RANK")) == rank)
		test_stall(); /* tests/mpi/report.sh: a hung node */
	json_t *doc = report_doc(o);
	if (rank != 0) {
		strip_sources(doc);
		send_json(doc, TAG_DOC);
		json_decref(doc);
		if (bench) {
			stop.phase = "memory";
			if (poll_barrier(cc, 0) < 0) /* STREAM on every node at the same time */
				rank_stop();
			json_t *mem = stream_result(o);
			if (stopping())
				rank_stop();
			if (!mem)
				mem = failed_doc("no bench mem result");
			send_json(mem, TAG_STREAM);
			json_decref(mem);
			if (nc >= 2)
				measure_pairs(cc, coll, nc, me, o, NULL, NULL);
		}
		return 0;
	}
	int np = nc * (nc - 1) / 2;
	json_t **docs = pl_xcalloc((size_t)nc, sizeof(*docs));
	json_t **mem = pl_xcalloc((size_t)nc, sizeof(*mem));
	bool *got = pl_xcalloc((size_t)nc, sizeof(*got));
	bool *ok = pl_xcalloc((size_t)nc, sizeof(*ok));
	bool *mem_ok = pl_xcalloc((size_t)nc, sizeof(*mem_ok));
	bool *have = pl_xcalloc((size_t)np + 1, sizeof(*have));
	double *rtt = pl_xcalloc((size_t)np * NVALS + 1, sizeof(*rtt));
	docs[0] = doc;
	got[0] = true;
	int r = gather_json(TAG_DOC, coll, nc, docs, got, MPI_Wtime() + o->timeout_s, &wait_s,
			    &transfer_s, &parse_cpu_s);
	if (r == 0 && bench) {
		stop.phase = "memory";
		r = poll_barrier(cc, MPI_Wtime() + o->timeout_s);
		if (r == 0) {
			mem[0] = stream_result(o);
			r = stopping() ? -EINTR
				       : gather_json(TAG_STREAM, coll, nc, mem, mem_ok,
						     MPI_Wtime() + o->timeout_s, NULL, NULL, NULL);
			mem_ok[0] = true;
		}
		if (r == 0 && nc >= 2)
			r = measure_pairs(cc, coll, nc, me, o, rtt, have);
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
	if (stop.sig && got_sig && stop.rank != 0) {
		stop.sig = got_sig;
		stop.rank = 0;
	}
	json_t *net = bench && nc >= 2 ? network_json(rtt, have, nc, o, names) : NULL;
	json_t *intr = stop.sig || (stop.late && bench)
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
	if (stop.sig && stop.rank == 0) { /* every rank has it: mpirun's or srun's signal */
		fflush(NULL);
		_exit(128 + stop.sig);
	}
	/* the others are stopped or hung: end the job; a report that --timeout cut short
	 * is a runtime failure (exit 3), as a node without a document is */
	if (stop.sig || stop.late)
		MPI_Abort(MPI_COMM_WORLD, stop.sig ? 128 + stop.sig : ret ? ret : PL_EXIT_RUNTIME);
	return ret;
}

/* inspect, check, bench NAME on a collector: the node's document to rank 0, which
 * gathers them and writes one merged result (rank 0's exit code; 0 elsewhere). */
static int run_command(struct mpi_opts *o, MPI_Comm cc, const int *coll, int nc,
		       char names[][KEYLEN])
{
	if (getenv("PERFLAB_MPI_TEST_HANG_RANK") &&
	    atoi(getenv("PERFLAB_MPI_TEST_HANG_RANK")) == rank)
		test_stall();
	json_t *doc = strcmp(o->cmd, "inspect") == 0 ? inspect_doc(o)
		      : strcmp(o->cmd, "check") == 0 ? check_doc(o)
						     : bench_doc(o, cc);
	if (rank != 0) {
		strip_sources(doc);
		send_json(doc, TAG_DOC);
		json_decref(doc);
		return 0;
	}
	json_t **docs = pl_xcalloc((size_t)nc, sizeof(*docs));
	bool *got = pl_xcalloc((size_t)nc, sizeof(*got));
	docs[0] = doc;
	got[0] = true;
	gather_json(TAG_DOC, coll, nc, docs, got, MPI_Wtime() + o->timeout_s, &wait_s, &transfer_s,
		    &parse_cpu_s);
	json_t *arr = docs_array(coll, nc, names, docs, got, o);
	int ret = write_command(o, arr);
	json_decref(arr);
	free(docs);
	free(got);
	if (stop.late) /* a hung rank would block MPI_Finalize */
		MPI_Abort(MPI_COMM_WORLD, ret);
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
	if (strcmp(o.cmd, "report") == 0) { /* Ctrl-C writes what was gathered (run_report) */
		struct sigaction sa = { .sa_handler = on_stop_signal };
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
	}

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
		ret = strcmp(o.cmd, "report") == 0 ? run_report(&o, cc, coll, nc, me, names)
						   : run_command(&o, cc, coll, nc, names);
		MPI_Comm_free(&cc);
	}
	free(keys);
	free(names);
	free(coll);
	pl_bench_cmd_free(&o.bench);
	/* rank 0's exit code to every rank; the others wait asleep (wait_reqs), leaving the
	 * CPUs to the ranks still working */
	MPI_Request rq;
	MPI_Ibcast(&ret, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
	if (rank == 0)
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
	else if (wait_reqs(1, &rq, 0) < 0)
		rank_stop();
	MPI_Finalize();
	return ret;
}
