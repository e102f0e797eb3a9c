/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab-mpi: perflab's report, inspect, check, bench NAME and snapshot on every node of an MPI
 * job (perflab-mpi(1)). Every rank finds its node (hostname + boot id, or one node per
 * rank with --per-rank-nodes); the lowest rank of each node is its collector. For report
 * the collectors measure the network between them (all-pairs ping-pong, one pair at a
 * time), run STREAM at the same time (after an MPI_Barrier) and build their node's report
 * document (inspect + check + bench mem, with perflab's library code); for inspect, check
 * and bench NAME they build the single-host command's document (cli/node.h; bench after
 * an MPI_Barrier). Each sends it to rank 0: its size first, then the text, one node at a
 * time, so rank 0 holds one message buffer at a time. Rank 0 merges them with
 * report/cluster.h and writes DIR/report.{json,md,html} (report) or one merged result.
 * Options are pl_opt tables as perflab's; every rank parses them with pl_error going to
 * a sink, and only the lowest failing rank prints its line. This file finds the nodes and
 * their collectors and dispatches; commands.c holds the commands, gather.c the gather
 * protocol and stopping early, netmatrix.c the network matrix (run.h what they share). */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/common.h"
#include "cli/node.h"
#include "mpi/run.h"
#include "report/cluster.h"
#include "util/escape.h"
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

/* This rank's node key, malloc'd in *@key (*@keylen bytes): what tells nodes apart, the
 * node's name (the hostname through the sysroot, or HOST:rRANK with --per-rank-nodes;
 * escaped as a JSON string holds it), then its boot id and sysroot, a NUL after each.
 * Returns 0, or -E2BIG with pl_mpi_first_err set when the hostname is longer than
 * PL_MPI_HOST_MAX bytes or the key than PL_MPI_KEY_MAX. */
static int node_key(const struct mpi_opts *o, char **key, size_t *keylen)
{
	char *host = NULL, *boot = NULL;
	pl_read_str("/proc/sys/kernel/hostname", &host);
	pl_read_str("/proc/sys/kernel/random/boot_id", &boot);
	const char *h = host ? pl_trim(host) : "?";
	size_t hl = strlen(h);
	*key = NULL;
	int r = 0;
	if (hl > PL_MPI_HOST_MAX) {
		snprintf(pl_mpi_first_err, sizeof(pl_mpi_first_err),
			 "rank %d: the hostname is %zu bytes long; perflab-mpi takes hostnames of "
			 "at "
			 "most %d bytes",
			 pl_mpi_rank, hl, PL_MPI_HOST_MAX);
		r = -E2BIG;
		goto out;
	}
	char *e = pl_str_escape(h, PL_ESC_UTF8);
	char *name = o->per_rank_nodes ? pl_xasprintf("%s:r%d", e, pl_mpi_rank) : pl_xstrdup(e);
	free(e);
	struct pl_buf b = { 0 };
	pl_buf_append(&b, name, strlen(name) + 1);
	free(name);
	if (!o->per_rank_nodes) {
		const char *bt = boot ? pl_trim(boot) : "";
		const char *sr = o->per_rank ? pl_sysroot() : "";
		pl_buf_append(&b, bt, strlen(bt) + 1);
		pl_buf_append(&b, sr, strlen(sr) + 1);
	}
	*keylen = b.len;
	*key = pl_buf_steal(&b);
	if (*keylen > PL_MPI_KEY_MAX) {
		snprintf(pl_mpi_first_err, sizeof(pl_mpi_first_err),
			 "rank %d: the node's hostname, boot id and sysroot take %zu bytes; "
			 "perflab-mpi takes at most %d",
			 pl_mpi_rank, *keylen, PL_MPI_KEY_MAX);
		r = -E2BIG;
	}
out:
	free(host);
	free(boot);
	return r;
}

/* The collectors: the lowest rank of each distinct node key. Gathers every rank's key
 * (@key, @keylen bytes) and sets *@coll to the collectors' world ranks (ascending), *@nc
 * to their number, *@me to this rank's index among them (-1 when it is not one) and
 * *@names to their node names made unique (pl_cluster_unique_names, a NULL-terminated
 * strv), and pl_mpi_node_of to every rank's node index. Keys are compared whole: nodes are never
 * merged by a shared prefix. */
static void find_collectors(const char *key, size_t keylen, int **coll, int *nc, int *me,
			    char ***names)
{
	size_t nr = (size_t)pl_mpi_nranks;
	int *lens, *displs;
	char *all = pl_mpi_allgather_bytes(key, (int)keylen, &lens, &displs);
	json_t *seen = json_object(); /* key bytes -> its node index */
	pl_mpi_node_of = pl_xcalloc(nr, sizeof(int));
	*coll = pl_xcalloc(nr, sizeof(int));
	const char **base = pl_xcalloc(nr, sizeof(*base));
	*nc = 0;
	*me = -1;
	for (size_t r = 0; r < nr; r++) {
		const char *k = all + displs[r];
		const json_t *known = json_object_getn(seen, k, (size_t)lens[r]);
		if (known) {
			pl_mpi_node_of[r] = (int)json_integer_value(known);
			continue;
		}
		json_object_setn_new_nocheck(seen, k, (size_t)lens[r], json_integer(*nc));
		pl_mpi_node_of[r] = *nc;
		if ((int)r == pl_mpi_rank)
			*me = *nc;
		base[*nc] = k; /* the name: the key up to its first NUL */
		(*coll)[(*nc)++] = (int)r;
	}
	*names = pl_cluster_unique_names(base, (size_t)*nc);
	json_decref(seen);
	free(base);
	free(all);
	free(lens);
	free(displs);
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
	char *key = NULL;
	size_t keylen = 0;
	if (bad < 0 && node_key(&o, &key, &keylen) < 0)
		bad = PL_EXIT_USAGE;
	/* every rank agrees on bad input: the lowest failing rank's line, exit 2, nothing
	 * written */
	int first = bad > 0 ? pl_mpi_rank : pl_mpi_nranks, lowest;
	MPI_Allreduce(&first, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (bad >= 0 || lowest < pl_mpi_nranks) {
		if (lowest < pl_mpi_nranks && pl_mpi_rank == lowest)
			pl_mpi_fail_line(pl_mpi_first_err);
		free(key);
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
	int *coll, nc, me;
	char **names;
	find_collectors(key, keylen, &coll, &nc, &me, &names);
	pl_mpi_gather_places(); /* the caveats of shared hosts and CPUs, the pairs' pinning */
	bool collector = me >= 0;
	MPI_Comm cc;
	MPI_Comm_split(MPI_COMM_WORLD, collector ? 0 : MPI_UNDEFINED, pl_mpi_rank, &cc);
	int ret = 0;
	if (collector) {
		if (strcmp(o.cmd, "report") == 0)
			ret = pl_mpi_run_report(&o, cc, coll, nc, me, names);
		else if (strcmp(o.cmd, "snapshot") == 0)
			ret = pl_mpi_run_snapshot(&o, coll, nc, names, argc, argv);
		else
			ret = pl_mpi_run_command(&o, cc, coll, nc, names);
		MPI_Comm_free(&cc);
	}
	free(key);
	pl_strv_free(names);
	free(coll);
	pl_mpi_free_places();
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
