/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab-mpi: perflab's report on every node of an MPI job (README "Clusters").
 * Every rank finds its node (hostname + boot id, or one node per rank with
 * --per-rank-nodes); the lowest rank of each node is its collector. The collectors measure
 * the network between them (all-pairs ping-pong, one pair at a time), run STREAM at the
 * same time (after an MPI_Barrier), build their node's report document (inspect + check
 * + bench mem, with perflab's library code) and send it to rank 0: its size first, then
 * the text, one node at a time, so rank 0 holds one message buffer at a time. Rank 0
 * merges them with out/cluster.h and writes DIR/report.{json,md,html}. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/plan.h"
#include "facts/facts.h"
#include "out/cluster.h"
#include "out/json.h"
#include "out/report.h"
#include "rules/rules.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/str.h"
#include "util/sysroot.h"

enum { KEYLEN = 256, TAG_SIZE = 11, TAG_DOC = 12 };

struct mpi_opts {
	const char *dir, *per_rank;
	int workload;
	bool quick, full, no_bench, json, per_rank_nodes;
	double timeout_s;
};

static const char usage[] =
	"usage: mpirun [-np N | -H a,b,c] perflab-mpi report [-o DIR] [-W W] [--quick | --full |\n"
	"       --no-bench] [--json] [--timeout SECONDS] [--sysroot-per-rank DIR/%r]\n"
	"       [--per-rank-nodes]\n\n"
	"One report for the nodes of an MPI job: nodes table, drift, findings on some nodes\n"
	"only, STREAM per node (run at the same time), all-pairs MPI latency and bandwidth.\n"
	"Rank 0 writes DIR/report.{json,md,html} (default ./perflab-cluster).\n\n"
	"  -o, --output DIR          the report directory\n"
	"  -W, --workload W          which rules apply (as perflab check)\n"
	"      --quick               brief STREAM and ping-pong (small sizes, few iterations)\n"
	"      --full                STREAM with its defaults, more ping-pong iterations\n"
	"      --no-bench            no STREAM and no network matrix\n"
	"      --json                also print report.json on stdout\n"
	"      --timeout SECONDS     how long rank 0 waits for a node's document (default 600);\n"
	"                            a node later than that is reported as timed out\n"
	"      --sysroot-per-rank P  read each rank's /proc, /sys, /etc under P with %r the rank\n"
	"                            (fixture trees for tests; no benchmarks then)\n"
	"      --per-rank-nodes      every rank is a node of its own (exercises the matrix on\n"
	"                            one host)\n"
	"  -h, --help                this text\n";

static int rank, nranks;
/* rank 0: seconds waiting for the collectors' sizes, and receiving + parsing the texts */
static double wait_s, transfer_s;

/* One line on stderr from rank 0 (or from @who when rank 0 cannot know). */
static void fail_line(const char *msg)
{
	fprintf(stderr, "perflab-mpi: error: %s\n", msg);
}

static int parse(int argc, char **argv, struct mpi_opts *o, char *err, size_t errlen)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "workload", required_argument, NULL, 'W' },
		{ "quick", no_argument, NULL, 'Q' },
		{ "full", no_argument, NULL, 'F' },
		{ "no-bench", no_argument, NULL, 'N' },
		{ "json", no_argument, NULL, 'J' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "sysroot-per-rank", required_argument, NULL, 'S' },
		{ "per-rank-nodes", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	o->dir = "perflab-cluster";
	o->timeout_s = 600;
	opterr = 0;
	optind = 2;
	int c;
	while ((c = getopt_long(argc, argv, "+o:W:h", lo, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->dir = optarg;
			break;
		case 'W':
			o->workload = -1;
			for (int i = 0; pl_workload_names[i]; i++)
				if (strcmp(pl_workload_names[i], optarg) == 0)
					o->workload = i;
			if (o->workload < 0) {
				snprintf(err, errlen,
					 "--workload: unknown workload '%s' (see perflab check "
					 "--help)",
					 optarg);
				return -EINVAL;
			}
			break;
		case 'Q':
			o->quick = true;
			break;
		case 'F':
			o->full = true;
			break;
		case 'N':
			o->no_bench = true;
			break;
		case 'J':
			o->json = true;
			break;
		case 'P':
			o->per_rank_nodes = true;
			break;
		case 'S':
			o->per_rank = optarg;
			break;
		case 'T':
			if (pl_parse_double(optarg, &o->timeout_s) < 0 || !(o->timeout_s > 0)) {
				snprintf(err, errlen,
					 "--timeout: '%s' is not a number of seconds > 0", optarg);
				return -EINVAL;
			}
			break;
		case 'h':
			return 1;
		default:
			snprintf(err, errlen, "unknown option '%s' (see 'perflab-mpi --help')",
				 argv[optind - 1]);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s' (see 'perflab-mpi --help')",
			 argv[optind]);
		return -EINVAL;
	}
	if (o->quick + o->full + o->no_bench > 1) {
		snprintf(err, errlen,
			 "--quick, --full and --no-bench exclude each other (pick one)");
		return -EINVAL;
	}
	return 0;
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

static json_t *node_doc(const struct mpi_opts *o, MPI_Comm cc, bool bench)
{
	struct pl_facts f;
	struct pl_findings fs = { 0 };
	pl_facts_init(&f);
	pl_facts_set_sysctl_names(pl_rules_sysctl_names());
	pl_facts_collect_all(&f);
	json_t *doc;
	if (!pl_sysroot_is_live() && pl_facts_navailable(&f) == 0) {
		doc = json_object();
		json_object_set_new(doc, "failed",
				    pl_json_string("no facts found under its sysroot"));
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

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	struct mpi_opts o = { 0 };
	char err[512] = "";
	int bad = 0;
	if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		if (rank == 0)
			fputs(usage, argc < 2 ? stderr : stdout);
		bad = argc < 2 ? 2 : -1;
	} else if (strcmp(argv[1], "report") != 0) {
		snprintf(
			err, sizeof(err),
			"unknown command '%s' (perflab-mpi runs: report; see 'perflab-mpi --help')",
			argv[1]);
		bad = 2;
	} else {
		int r = parse(argc, argv, &o, err, sizeof(err));
		if (r > 0 && rank == 0)
			fputs(usage, stdout);
		bad = r > 0 ? -1 : r < 0 ? 2 : 0;
	}
	if (!bad && o.per_rank) {
		char *dir = expand_rank(o.per_rank, rank);
		struct stat st;
		if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || pl_sysroot_set(dir) < 0) {
			snprintf(err, sizeof(err),
				 "--sysroot-per-rank: rank %d: '%s' is not a directory (give "
				 "DIR/%%r with one machine tree per rank)",
				 rank, dir);
			bad = 2;
		}
		free(dir);
	}
	/* every rank agrees on bad input: the lowest failing rank's line, exit 2, nothing
	 * written */
	int first = bad > 0 ? rank : nranks, lowest;
	MPI_Allreduce(&first, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (bad < 0 || lowest < nranks) {
		if (lowest < nranks && rank == lowest)
			fail_line(err);
		MPI_Finalize();
		return bad < 0 ? 0 : 2;
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
		bool bench = !o.no_bench && pl_sysroot_is_live();
		json_t *net =
			bench && nc >= 2 ? measure_network(cc, coll, nc, me, &o, names) : NULL;
		if (getenv("PERFLAB_MPI_TEST_HANG_RANK") &&
		    atoi(getenv("PERFLAB_MPI_TEST_HANG_RANK")) == rank)
			sleep(3600); /* tests/mpi/report.sh: a hung node */
		json_t *doc = node_doc(&o, cc, bench);
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
			json_t *c = pl_cluster_from_docs(docs, pl_now_epoch());
			json_t *run = json_object();
			json_object_set_new(run, "ranks", json_integer(nranks));
			json_object_set_new(run, "collectors", json_integer(nc));
			json_object_set_new(run, "wait_s", json_real(wait_s));
			json_object_set_new(run, "gather_s", json_real(transfer_s));
			json_object_set_new(c, "mpi", run);
			if (net)
				json_object_set_new(c, "network", json_incref(net));
			if (bench)
				json_object_set_new(json_object_get(c, "memory"), "simultaneous",
						    json_true());
			int w = pl_cluster_write_dir(o.dir, c);
			if (w < 0) {
				char m[600];
				snprintf(m, sizeof(m),
					 "cannot write the report into '%s': %s (choose another "
					 "with -o DIR)",
					 o.dir, strerror(-w));
				fail_line(m);
				ret = 2;
			} else if (o.json) {
				pl_json_write(stdout, c);
			} else {
				pl_cluster_print_summary(stdout, c, o.dir);
			}
			fflush(stdout);
			if (pl_json_int(json_object_get(c, "node_count"), "failed") > 0 && ret == 0)
				ret = 3;
			bool hung = false;
			json_array_foreach(docs, i, e)
			{
				const char *why = pl_json_str(e, "reason");
				hung = hung || (why && strstr(why, "--timeout"));
			}
			json_decref(c);
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
	MPI_Bcast(&ret, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Finalize();
	return ret;
}
