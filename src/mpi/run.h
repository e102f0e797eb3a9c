/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the files of perflab-mpi share: the message tags and limits, the command and its
 * options, the run's state (this rank, why the run stops early, the first error message)
 * and the entry points of the gather protocol (gather.c), the network matrix
 * (netmatrix.c) and the commands (commands.c). Every function here runs after MPI_Init. */
#ifndef PERFLAB_MPI_RUN_H
#define PERFLAB_MPI_RUN_H
#include <jansson.h>
#include <mpi.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "cli/node.h"

/* message tags; WINDOW: rank 0's receives in flight at most (pl_mpi_gather_json); NAP_US: the
 * sleep between tests of a waiting rank; STOP_GRACE_S: how long a stopping rank leaves
 * rank 0 to write the partial report (pl_mpi_rank_stop) */
enum {
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

/* the ping-pong's message sizes (netmatrix.c's sizes[]) */
#define NSIZES ((size_t)4)
/* a pair's figures: the round trip of each size, then --net-tcp's (or -errno) and how
 * its server was reached (REACH_*) */
#define NVALS (NSIZES + 2)
/** The longest hostname perflab-mpi takes, in bytes (a longer one is a usage error on
 *  every rank: exit 2). Node keys (name, boot id, sysroot) are compared whole. */
#define PL_MPI_HOST_MAX 1024
/** The longest node key (hostname, boot id and --sysroot-per-rank tree, each with its NUL). */
#define PL_MPI_KEY_MAX 8192
/** The most nodes report's network matrix takes: it measures the nc*(nc-1)/2 pairs one
 *  at a time and keeps NVALS doubles per pair on rank 0 (1024 nodes: 523,776 pairs). */
#define PL_MPI_NET_MAX_NODES 1024

/** The command of this run and its options (the global ones are in pl_g). */
struct mpi_opts {
	const char *cmd;	    /**< report, inspect, check, bench or snapshot */
	const char *per_rank;	    /**< --sysroot-per-rank */
	int workload, fail_on;	    /**< -W, --fail-on (check) */
	const char *domains, *cpus; /**< --domain (inspect), --cpus (check) */
	bool quick, full, no_bench, per_rank_nodes; /**< report's modes, --per-rank-nodes */
	bool net_tcp;				    /**< report --net-tcp */
	double timeout_s;			    /**< --timeout */
	struct pl_bench_cmd bench;		    /**< bench NAME */
};

/** This process's rank in MPI_COMM_WORLD and the number of ranks (main.c sets them). */
extern int pl_mpi_rank, pl_mpi_nranks;
/** This rank's first error message since the last reset (pl_error_sink: pl_mpi_keep_error). */
extern char pl_mpi_first_err[1024];

/** pl_error_sink: keep the first message in pl_mpi_first_err; the lowest failing rank prints it
 *  (pl_mpi_fail_line). */
void pl_mpi_keep_error(const char *msg);
/** One line on stderr: "perflab-mpi: error: @msg". */
void pl_mpi_fail_line(const char *msg);

/* ---- stopping early (gather.c) ---- */

/** This rank's first SIGINT/SIGTERM (report only; pl_mpi_on_stop_signal() only sets it: MPI
 *  calls are not async-signal-safe, the wait loops poll it). */
extern volatile sig_atomic_t pl_mpi_got_sig;
/** Why this run stops early: the signal and the rank it reached (rank 0 learns of other
 *  ranks' signals from their TAG_STOP notices or a ping-pong's stop message), or rank 0's
 *  --timeout ran out in a wait (late); the phase it was in ("documents", "memory",
 *  "network"). */
struct pl_mpi_stop_cause {
	int sig, rank;
	bool late;
	const char *phase;
};
/** This run's stop cause (phase "documents" until a phase sets another). */
extern struct pl_mpi_stop_cause pl_mpi_stop;

/** The SIGINT/SIGTERM handler of report: records the first signal in pl_mpi_got_sig. */
void pl_mpi_on_stop_signal(int sig);
/** True once this run must stop (fills pl_mpi_stop): this rank's signal or, on rank 0, another
 *  rank's TAG_STOP notice {signal, rank}. */
bool pl_mpi_stopping(void);
/** Wait for the @n requests @rq, polling pl_mpi_stopping() and sleeping NAP_US between tests, and
 *  on rank 0 the MPI_Wtime @deadline (0: none; past it pl_mpi_stop.late is set). Returns 0 or
 *  -EINTR. */
int pl_mpi_wait_reqs(int n, MPI_Request *rq, double deadline);
/** MPI_Ibarrier on @comm, waited for as pl_mpi_wait_reqs(). Returns 0 or -EINTR. */
int pl_mpi_poll_barrier(MPI_Comm comm, double deadline);
/** A rank other than 0 that must stop: tell rank 0 (TAG_STOP {signal, rank}), leave it
 *  STOP_GRACE_S to write the partial report, then exit 128 + signal. */
_Noreturn void pl_mpi_rank_stop(void);
/** Send @doc's compact text to rank 0 with @tag and wait for the send; a stop on the way
 *  ends this rank (pl_mpi_rank_stop). */
void pl_mpi_send_json(const json_t *doc, int tag);
/** Rank 0: the JSON text with @tag from each collector i (1..@nc-1, world ranks @coll
 *  ascending) without @got[i], parsed into @out[i] (new references; NULL when not JSON;
 *  @got[i] set either way). With @wait_s (may be NULL), the seconds until the last text
 *  arrived, @gather_s from then until all are parsed and @parse_s the parsing's CPU
 *  seconds are added to. Returns 0, or -EINTR when pl_mpi_stopping() or @deadline (MPI_Wtime;
 *  pl_mpi_stop.late) ended it first. */
int pl_mpi_gather_json(int tag, const int *coll, int nc, json_t **out, bool *got, double deadline,
		       double *wait_s, double *gather_s, double *parse_s);
/** Every rank's @len bytes at @buf, concatenated in rank order on every rank
 *  (MPI_Allgather of the lengths, then MPI_Allgatherv). Rank r's bytes are at
 *  result + (*displs)[r], (*lens)[r] long. The result, *@lens and *@displs (pl_mpi_nranks
 *  ints each) are new allocations the caller frees. Collective: every rank calls it. */
char *pl_mpi_allgather_bytes(const void *buf, int len, int **lens, int **displs);
/** Test hook (tests/mpi/): stop here until a signal; first write this rank's pid to the
 *  file $PERFLAB_MPI_TEST_STALLED. */
void pl_mpi_test_stall(void);

/* ---- the network matrix (netmatrix.c) ---- */

/** All pairs of the @nc collectors (world ranks @coll; this one is @me), one pair at a
 *  time. Rank 0 gets every pair measured into @rtt (npairs x NVALS seconds, each size's
 *  round trip, then --net-tcp's or -errno and how it was reached) with @have[p] set (the
 *  other ranks pass NULL). Rank 0 returns 0, or -EINTR when it must stop (pl_mpi_stop filled);
 *  any other rank that must stop ends in pl_mpi_rank_stop(). */
int pl_mpi_measure_pairs(MPI_Comm cc, const int *coll, int nc, int me, const struct mpi_opts *o,
			 double *rtt, bool *have);
/** Rank 0: the report's "network" object (docs/schemas/cluster.schema.json) of the pairs
 *  measured (@rtt, @have as pl_mpi_measure_pairs() left them; complete false when some are
 *  missing) between the @nc collectors @names (world ranks @coll): each pair says whether
 *  its ranks share a host and the CPUs they were pinned to (pl_mpi_pair_cpus); "caveats"
 *  holds the quick run's. New reference. */
json_t *pl_mpi_network_json(const double *rtt, const bool *have, int nc, const int *coll,
			    const struct mpi_opts *o, char *const *names);

/* ---- where the ranks run (placement.c) ---- */

/** One rank's place: its host (hostname through the sysroot, escaped as a JSON string
 *  holds it, and boot id: ranks with both equal share a machine), the CPUs it may run on
 *  (sched_getaffinity, a cpulist; "" when unknown), its host's online CPUs
 *  (sysconf(_SC_NPROCESSORS_ONLN)) and the lowest rank on the same host. */
struct pl_mpi_place {
	char *host, *boot, *cpus;
	int online, host_of;
};
/** Every rank's place (pl_mpi_nranks entries) after pl_mpi_gather_places(), on every rank;
 *  NULL before. */
extern struct pl_mpi_place *pl_mpi_places;
/** The node index (among the collectors, ascending) of every world rank (pl_mpi_nranks
 *  entries, main.c sets it on every rank; freed by pl_mpi_free_places). */
extern int *pl_mpi_node_of;
/** Gather every rank's place to every rank (collective over MPI_COMM_WORLD). */
void pl_mpi_gather_places(void);
/** Free pl_mpi_places (NULL-safe). */
void pl_mpi_free_places(void);
/** True when world ranks @a and @b run on one host (same hostname and boot id). */
bool pl_mpi_same_host(int a, int b);
/** Node @node's placement for the cluster document (report/cluster.h, struct
 *  pl_cluster_node's place): {hostname, boot_id, ranks: [world ranks whose
 *  pl_mpi_node_of is @node], cpus_allowed: [each one's cpulist], host_ranks: the job's
 *  ranks on that host, host_cpus: its online CPUs}. New reference. */
json_t *pl_mpi_place_json(int node);
/** The CPUs a ping-pong pair of world ranks @lead and @peer on one host is pinned to:
 *  the lead's lowest allowed CPU and the peer's lowest allowed CPU other than that, so the
 *  two never take turns on one CPU (measured on a 2-CPU host with 4 ranks, --quick: the
 *  median 8 B round trip was 17.1 us unpinned, most ranks on one CPU after STREAM, and
 *  3.2 us pinned apart). Returns true with
 *  *@lead_cpu and *@peer_cpu set, false (both -1) when they are on different hosts or no
 *  two distinct CPUs are allowed. Deterministic: both ranks and rank 0 compute it. */
bool pl_mpi_pair_cpus(int lead, int peer, int *lead_cpu, int *peer_cpu);
/** Pin this thread to CPU @cpu, its former affinity into *@saved (restore with
 *  sched_setaffinity). Returns 0 or -1 (errno set). */
int pl_mpi_pin(int cpu, cpu_set_t *saved);

/* ---- the commands (commands.c) ---- */

/** Parse argv[1] (the command) and its options into @o, with stdout to /dev/null on
 *  every rank but 0 (one --help text); errors go to pl_error_sink. Returns -1 to go on,
 *  else the exit code. */
int pl_mpi_parse_args(int argc, char **argv, struct mpi_opts *o);
/** report on a collector (@cc the collectors' communicator, @coll their world ranks, @nc
 *  of them, this one @me, @names their node names, unique): its document, STREAM and the
 *  network matrix to rank 0, which writes the cluster report. Returns the exit code on
 *  rank 0 (0 elsewhere); a stopped run ends the job instead. */
int pl_mpi_run_report(const struct mpi_opts *o, MPI_Comm cc, const int *coll, int nc, int me,
		      char *const *names);
/** inspect, check, bench NAME on a collector: the node's document to rank 0, which
 *  writes the merged result. Returns the exit code on rank 0 (0 elsewhere). */
int pl_mpi_run_command(struct mpi_opts *o, MPI_Comm cc, const int *coll, int nc,
		       char *const *names);

/* ---- snapshot (snapshot.c) ---- */

/** snapshot on a collector (@coll the collectors' world ranks, @nc of them, @names their
 *  node names, unique): the node's snapshot archive (perflab snapshot's, its manifest's
 *  argv @argc strings of @argv) to rank 0, which writes DIR/NAME.tar.zst for each node
 *  (-o DIR; NAME the node name with bytes other than letters, digits, '.', '_', '-', '#'
 *  as '_'). Returns the exit code on rank 0 (0 ok, 2 DIR refused, 3 a node without an
 *  archive: the others are written), 0 elsewhere. */
int pl_mpi_run_snapshot(const struct mpi_opts *o, const int *coll, int nc, char *const *names,
			int argc, char **argv);

#endif
