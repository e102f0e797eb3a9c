/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab-mpi: perflab's report, inspect, check and bench NAME on every node of an MPI
 * job (perflab-mpi(1)). Every rank finds its node (hostname + boot id, or one node per
 * rank with --per-rank-nodes); the lowest rank of each node is its collector. For report
 * the collectors measure the network between them (all-pairs ping-pong, one pair at a
 * time), run STREAM at the same time (after an MPI_Barrier) and build their node's report
 * document (inspect + check + bench mem, with perflab's library code); for inspect, check
 * and bench NAME they build the single-host command's document (cmd/node.h; bench after
 * an MPI_Barrier). Each sends it to rank 0: its size first, then the text, one node at a
 * time, so rank 0 holds one message buffer at a time. Rank 0 merges them with
 * out/cluster.h and writes DIR/report.{json,md,html} (report) or one merged result.
 * Options are pl_opt tables as perflab's; every rank parses them with pl_error going to
 * a sink, and only the lowest failing rank prints its line. This file finds the nodes and
 * their collectors and dispatches; commands.c holds the commands, gather.c the gather
 * protocol and stopping early, netmatrix.c the network matrix (run.h what they share). */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/common.h"
#include "cmd/node.h"
#include "mpi/run.h"
#include "util/log.h"
#include "util/str.h"
#include "util/sysroot.h"

int pl_mpi_rank, pl_mpi_nranks;
char pl_mpi_first_err[1024];

/* pl_error_sink: keep the first message; the lowest failing rank prints it (pl_mpi_fail_line). */
void pl_mpi_keep_error(const char *msg)
{
	if (!pl_mpi_first_err[0])
		snprintf(pl_mpi_first_err, sizeof(pl_mpi_first_err), "%s", msg);
}

/* One line on stderr: "perflab-mpi: error: MSG". */
void pl_mpi_fail_line(const char *msg)
{
	fprintf(stderr, "perflab-mpi: error: %s\n", msg);
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
		snprintf(key, KEYLEN, "%s:r%d", host ? pl_trim(host) : "?", pl_mpi_rank);
	else
		snprintf(key, KEYLEN, "%s %s %s", host ? pl_trim(host) : "?",
			 boot ? pl_trim(boot) : "", o->per_rank ? pl_sysroot() : "");
	free(host);
	free(boot);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &pl_mpi_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &pl_mpi_nranks);
	pl_cmd_program = "perflab-mpi";
	pl_progname = "perflab-mpi";
	pl_error_sink = pl_mpi_keep_error;
	struct mpi_opts o = { 0 };
	int bad = pl_mpi_parse_args(argc, argv, &o);
	if (bad < 0 && o.per_rank) {
		char *dir = expand_rank(o.per_rank, pl_mpi_rank);
		struct stat st;
		if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || pl_sysroot_set(dir) < 0) {
			snprintf(pl_mpi_first_err, sizeof(pl_mpi_first_err),
				 "--sysroot-per-rank: rank %d: '%s' is not a directory (give "
				 "DIR/%%r with one machine tree per rank)",
				 pl_mpi_rank, dir);
			bad = PL_EXIT_USAGE;
		}
		free(dir);
	}
	/* every rank agrees on bad input: the lowest failing rank's line, exit 2, nothing
	 * written */
	int first = bad > 0 ? pl_mpi_rank : pl_mpi_nranks, lowest;
	MPI_Allreduce(&first, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (bad >= 0 || lowest < pl_mpi_nranks) {
		if (lowest < pl_mpi_nranks && pl_mpi_rank == lowest)
			pl_mpi_fail_line(pl_mpi_first_err);
		pl_bench_cmd_free(&o.bench);
		MPI_Finalize();
		return lowest < pl_mpi_nranks ? PL_EXIT_USAGE : bad;
	}

	/* from here on errors print where they happen, but those of building a node's
	 * document, which become its "failed" reason (inspect_doc, check_doc) */
	pl_error_sink = NULL;
	if (strcmp(o.cmd, "report") ==
	    0) { /* Ctrl-C writes what was gathered (pl_mpi_run_report) */
		struct sigaction sa = { .sa_handler = pl_mpi_on_stop_signal };
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
	}

	/* nodes: the collector is the lowest rank with the node's key */
	char key[KEYLEN] = "";
	node_key(&o, key);
	char(*keys)[KEYLEN] = pl_xcalloc((size_t)pl_mpi_nranks, KEYLEN);
	MPI_Allgather(key, KEYLEN, MPI_CHAR, keys, KEYLEN, MPI_CHAR, MPI_COMM_WORLD);
	int color = pl_mpi_rank;
	for (int r = 0; r < pl_mpi_nranks; r++)
		if (strcmp(keys[r], key) == 0) {
			color = r;
			break;
		}
	bool collector = color == pl_mpi_rank;
	MPI_Comm cc;
	MPI_Comm_split(MPI_COMM_WORLD, collector ? 0 : MPI_UNDEFINED, pl_mpi_rank, &cc);
	int *coll = pl_xcalloc((size_t)pl_mpi_nranks, sizeof(int)), nc = 0, me = -1;
	char(*names)[KEYLEN] = pl_xcalloc((size_t)pl_mpi_nranks, KEYLEN);
	for (int r = 0; r < pl_mpi_nranks; r++) {
		bool c = true;
		for (int q = 0; q < r; q++)
			c = c && strcmp(keys[q], keys[r]) != 0;
		if (!c)
			continue;
		if (r == pl_mpi_rank)
			me = nc;
		snprintf(names[nc], KEYLEN, "%s", keys[r]);
		char *sp = strchr(names[nc], ' ');
		if (sp)
			*sp = '\0';
		coll[nc++] = r;
	}
	int ret = 0;
	if (collector) {
		ret = strcmp(o.cmd, "report") == 0 ? pl_mpi_run_report(&o, cc, coll, nc, me, names)
						   : pl_mpi_run_command(&o, cc, coll, nc, names);
		MPI_Comm_free(&cc);
	}
	free(keys);
	free(names);
	free(coll);
	pl_bench_cmd_free(&o.bench);
	/* rank 0's exit code to every rank; the others wait asleep (pl_mpi_wait_reqs), leaving the
	 * CPUs to the ranks still working */
	MPI_Request rq;
	MPI_Ibcast(&ret, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
	if (pl_mpi_rank == 0)
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
	else if (pl_mpi_wait_reqs(1, &rq, 0) < 0)
		pl_mpi_rank_stop();
	MPI_Finalize();
	return ret;
}
