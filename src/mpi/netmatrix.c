/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab-mpi report's network matrix: all-pairs ping-pong between the node collectors
 * (OSU osu_latency style, one pair at a time), with --net-tcp bench net's tcp_pp between
 * the same pairs, and rank 0's "network" object of the pairs measured. */
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/net/net.h"
#include "mpi/run.h"
#include "report/cluster.h"
#include "util/json.h"
#include "util/log.h"
#include "util/str.h"
#include "util/testhook.h"

/* the ping-pong's message sizes: the latency figure's first (TCP_BYTES), the bandwidth
 * figure's last */
static const int sizes[NSIZES] = { 8, 1024, 65536, 1048576 };
enum { REACH_NONE = 0, REACH_HOSTNAME = 1, REACH_ADDRESS = 2 };
/* the server's "HOSTNAME:PORT ADDR..." message of --net-tcp */
#define TCP_ADDR_MAX 2048
/* gethostname()'s buffer for that address (the kernel's limit is 64 bytes) */
#define HOST_BUF 256
/* how long the collectors sleep after the barrier before the first pair, us */
#define SETTLE_US 200000

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
	pl_mpi_stopping(); /* fills pl_mpi_stop from pl_mpi_got_sig */
	int v[2] = { pl_mpi_stop.sig, pl_mpi_stop.rank };
	MPI_Send(v, (int)sizeof(v), MPI_CHAR, peer, TAG_PINGSTOP, MPI_COMM_WORLD);
}

/* The peer's stop message in @buf: its signal and rank become this rank's stop. */
static void pp_took_stop(const char *buf)
{
	int v[2];
	memcpy(v, buf, sizeof(v));
	if (!pl_mpi_stop.sig) {
		pl_mpi_stop.sig = v[0];
		pl_mpi_stop.rank = v[1];
	}
}

/* @n round trips of @bytes from @sbuf into @rbuf (at least STOP_BYTES) between this
 * rank and world rank @peer, the lead sending first. Either side that has a signal
 * (pl_mpi_got_sig: one load per round trip) sends the stop message instead of its next
 * message, so both leave the loop at once (the receive takes at least STOP_BYTES for
 * it). Returns 0, or -1 when stopped. */
static int round_trips(bool lead, int peer, int bytes, int n, char *sbuf, char *rbuf)
{
	int cap = bytes < STOP_BYTES ? STOP_BYTES : bytes;
	MPI_Status st;
	for (int i = 0; i < n; i++) {
		if (lead) {
			if (pl_mpi_got_sig) {
				pp_send_stop(peer);
				return -1;
			}
			MPI_Send(sbuf, bytes, MPI_CHAR, peer, TAG_PING, MPI_COMM_WORLD);
			MPI_Recv(rbuf, cap, MPI_CHAR, peer, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
		} else {
			MPI_Recv(rbuf, cap, MPI_CHAR, peer, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
			if (st.MPI_TAG != TAG_PINGSTOP && pl_mpi_got_sig) {
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
 * hung before the pair (past the deadline pl_mpi_stop.late is set, so the partial report says
 * --timeout). Nonblocking, spun on MPI_Testall with pl_mpi_stopping() and the deadline checked
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
		if (pl_mpi_stopping())
			return -1;
		if (MPI_Wtime() > deadline) {
			pl_mpi_stop.late = true;
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
	char host[HOST_BUF] = "", ifs[TCP_ADDR_MAX - HOST_BUF - 16];
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
	int w = pl_mpi_wait_reqs(1, &rq, 0);
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
 * 0, or -EINTR when it must stop (pl_mpi_stop filled: a signal, a notice, --timeout between
 * pairs); any other rank that must stop ends in pl_mpi_rank_stop(). */
int pl_mpi_measure_pairs(MPI_Comm cc, const int *coll, int nc, int me, const struct mpi_opts *o,
			 double *rtt, bool *have)
{
	size_t cap = (size_t)sizes[NSIZES - 1];
	char *sbuf = aligned_alloc(4096, cap), *rbuf = aligned_alloc(4096, cap);
	if (!sbuf || !rbuf) {
		pl_mpi_fail_line("out of memory for the ping-pong's 1 MiB buffers");
		MPI_Abort(MPI_COMM_WORLD, PL_EXIT_RUNTIME);
	}
	int scale = o->quick ? 10 : o->full ? 1 : 2, r = 0;
	double mine[NVALS];
	pl_mpi_stop.phase = "network";
	/* Let the ranks settle before the first pair: every collector waits asleep in a
	 * barrier, then SETTLE_US more. Measured on a 2-CPU host with 4 ranks (quick, ranks
	 * pinned apart): without it the first pair's 8 B round trip was 16-28 us against
	 * about 3.3 us for the others (the ranks still busy from STREAM and the gather);
	 * with it 6-8 us. */
	if (pl_mpi_poll_barrier(cc, me == 0 ? MPI_Wtime() + o->timeout_s : 0) < 0)
		r = -EINTR;
	else
		usleep(SETTLE_US);
	if (r < 0 && me != 0)
		pl_mpi_rank_stop();
	int p = 0;
	for (int a = 0; a < nc && r == 0; a++)
		for (int b = a + 1; b < nc && r == 0; b++, p++) {
			if (pl_test_hook_int(PL_TEST_HOOK("PERFLAB_MPI_TEST_STALL_PAIR"), -1) ==
				    p &&
			    me == a)
				pl_mpi_test_stall(); /* tests/mpi/interrupt.sh: a pair that never
							ends */
			if (pl_test_hook_int(PL_TEST_HOOK("PERFLAB_MPI_TEST_STALL_PEER"), -1) ==
				    p &&
			    me == b)
				pl_mpi_test_stall(); /* tests/mpi/report.sh: rank 0's peer hangs */
			MPI_Request rq[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL };
			bool stopped = false;
			/* rank 0 bounds each size's synchronising round trip (it leads its pairs)
			 */
			double deadline = me == 0 ? MPI_Wtime() + o->timeout_s : 0;
			if (me == a || me == b) {
				/* two ranks of one host: each on a CPU of its own for the pair */
				int ca, cb;
				cpu_set_t saved;
				bool pinned = pl_mpi_pair_cpus(coll[a], coll[b], &ca, &cb) &&
					      pl_mpi_pin(me == a ? ca : cb, &saved) == 0;
				for (size_t s = 0; s < NSIZES && !stopped; s++) {
					double t = pingpong(me == a, coll[me == a ? b : a],
							    sizes[s], pp_iters(sizes[s], scale),
							    pp_warm(sizes[s], scale), sbuf, rbuf,
							    deadline);
					mine[s] = t;
					stopped = t < 0;
				}
				if (pinned)
					sched_setaffinity(0, sizeof(saved), &saved);
				mine[NSIZES] = mine[NSIZES + 1] = 0;
				if (!stopped && o->net_tcp) {
					mine[NSIZES] = tcp_pingpong(me == a, coll[me == a ? b : a],
								    o->quick  ? 0.2
								    : o->full ? 1
									      : 0.5,
								    &mine[NSIZES + 1]);
					stopped = pl_mpi_got_sig ||
						  (me != a && mine[NSIZES] == -EINTR);
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
				stopped = pl_mpi_wait_reqs(2, rq,
							   me == 0 ? MPI_Wtime() + o->timeout_s
								   : 0) < 0;
			}
			if (stopped && me != 0)
				pl_mpi_rank_stop();
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

/* Rank 0: the "network" object of the pairs measured (@rtt, @have as pl_mpi_measure_pairs()
 * left them; complete false when some are missing) between the @nc collectors @names. */
json_t *pl_mpi_network_json(const double *rtt, const bool *have, int nc, const int *coll,
			    const struct mpi_opts *o, char *const *names)
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
	double *over = pl_xcalloc((size_t)nc * (size_t)(nc - 1) / 2 + 1, sizeof(*over));
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
			int ca, cb;
			json_object_set_new(pr, "same_host",
					    json_boolean(pl_mpi_same_host(coll[a], coll[b])));
			if (pl_mpi_pair_cpus(coll[a], coll[b], &ca, &cb)) {
				json_t *pc = json_array();
				json_array_append_new(pc, json_integer(ca));
				json_array_append_new(pc, json_integer(cb));
				json_object_set_new(pr, "cpus", pc);
			}
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
			       "the timed loop (the collectors settle 0.2 s asleep before the "
			       "first pair; two ranks of one host are pinned to two CPUs for "
			       "their pair); one-way latency = round trip / 2, bandwidth = "
			       "bytes / one-way time"));
	json_object_set_new(net, "complete", json_boolean(complete));
	json_t *cav = json_array();
	if (o->quick)
		json_array_append_new(
			cav, pl_json_string("quick run: a tenth of the default round trips "
					    "(--quick), so each figure averages fewer of them"));
	json_object_set_new(net, "caveats", cav);
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
	/* any node whose every pair is slow (report/cluster.h names the rule); of every pair
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
