/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench net: TCP/UDP round-trip latency with a message-size sweep, TCP stream throughput
 * with 1..N streams, UDP receiver rate and loss, TCP connect/request/close rate; against
 * `perflab bench net --server` on another host (--connect) or both ends in this process
 * (--loopback, the default). The loops and the control protocol are in core.c and
 * proto.c; methods follow netperf (TCP_RR, TCP_CRR, TCP_STREAM) and sockperf
 * (ping-pong), with latencies always reported as full round trips. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/net/net.h"
#include "util/json.h"
#include "util/cleanup.h"
#include "util/cpuset.h"
#include "util/log.h"
#include "util/str.h"
#include "util/sysroot.h"

struct net_opts {
	bool server;
	const char *bind;
	const char *connect;
	bool loopback;
	const char *tests;
	const char *sizes;
	int streams;
	uint64_t stream_size;
	uint64_t udp_size;
	double time;
	double timeout;
	bool no_nodelay;
	int busy_poll;
	double max_time; /* --server's test length limit without the runner's --max-time */
	uint64_t max_size;
	int max_streams;
	double idle_timeout;
};

static const struct net_opts net_defaults = {
	.bind = "127.0.0.1:5305",
	.tests = "tcp_pp,udp_pp,tcp_stream,udp_stream,tcp_crr",
	.sizes = "64,1k,16k",
	.streams = 2,
	.stream_size = 128 * 1024,
	.udp_size = 1400,
	.time = 0.5,
	.timeout = 5,
	.max_time = 60,
	.max_size = 1024 * 1024,
	.max_streams = 16,
	.idle_timeout = PL_NET_HELLO_S,
};

static const struct pl_opt net_opt_table[] = {
	{ "server", 0, PL_OPT_FLAG, offsetof(struct net_opts, server), NULL,
	  "serve tests for clients until interrupted (one test at a time)" },
	{ "bind", 0, PL_OPT_STR, offsetof(struct net_opts, bind), "ADDR:PORT",
	  "with --server: control address; one beyond loopback (:5305 = every interface) "
	  "serves any host that reaches it, unauthenticated",
	  .def = "127.0.0.1:5305" },
	{ "connect", 0, PL_OPT_STR, offsetof(struct net_opts, connect), "HOST:PORT",
	  "run the tests against a perflab server there" },
	{ "loopback", 0, PL_OPT_FLAG, offsetof(struct net_opts, loopback), NULL,
	  "run both ends in this process over 127.0.0.1 (the default)" },
	{ "tests", 'T', PL_OPT_STR, offsetof(struct net_opts, tests), "LIST",
	  "comma-separated: tcp_pp, udp_pp, tcp_stream, udp_stream, tcp_crr", .def = "all five" },
	{ "sizes", 0, PL_OPT_STR, offsetof(struct net_opts, sizes), "LIST",
	  "ping-pong message sizes to sweep (tcp_pp, udp_pp; tcp_crr uses the first)",
	  .def = "64,1k,16k" },
	{ "streams", 0, PL_OPT_INT, offsetof(struct net_opts, streams), "N",
	  "tcp_stream with 1, 2, 4 ... N parallel connections", .min = 1, .max = PL_NET_MAX_STREAMS,
	  .def = "2" },
	{ "stream-size", 0, PL_OPT_SIZE, offsetof(struct net_opts, stream_size), "BYTES",
	  "write size of tcp_stream", .min = 1, .max = PL_NET_MAX_SIZE, .def = "128KiB" },
	{ "udp-size", 0, PL_OPT_SIZE, offsetof(struct net_opts, udp_size), "BYTES",
	  "datagram size of udp_stream", .min = 8, .max = 65507, .def = "1400" },
	{ "time", 't', PL_OPT_DURATION, offsetof(struct net_opts, time), "S",
	  "duration of each test in each run", .min = 0.01, .max = 3600, .def = "0.5s" },
	{ "timeout", 0, PL_OPT_DURATION, offsetof(struct net_opts, timeout), "S",
	  "give up on a silent or dead peer after S", .min = 0.05, .max = 3600, .def = "5s" },
	{ "no-nodelay", 0, PL_OPT_FLAG, offsetof(struct net_opts, no_nodelay), NULL,
	  "leave Nagle's algorithm on (TCP_NODELAY is set by default)" },
	{ "busy-poll", 0, PL_OPT_INT, offsetof(struct net_opts, busy_poll), "US",
	  "SO_BUSY_POLL microseconds on every socket (0 = off; raising it needs CAP_NET_ADMIN)",
	  .min = 0, .max = 1000000 },
	{ "max-size", 0, PL_OPT_SIZE, offsetof(struct net_opts, max_size), "BYTES",
	  "with --server: refuse message sizes above BYTES", .min = 1, .max = PL_NET_MAX_SIZE,
	  .def = "1MiB" },
	{ "max-streams", 0, PL_OPT_INT, offsetof(struct net_opts, max_streams), "N",
	  "with --server: refuse tcp_stream tests with more than N connections", .min = 1,
	  .max = PL_NET_MAX_STREAMS, .def = "16" },
	{ "idle-timeout", 0, PL_OPT_DURATION, offsetof(struct net_opts, idle_timeout), "S",
	  "with --server: drop a connection that sends no request within S", .min = 0.05, .max = 60,
	  .def = "2s" },
	PL_OPT_END,
};

/* One test variant measured in every run. */
struct variant {
	struct pl_net_req req;
	int m_main; /* rtt (ns) / Gbit/s / transactions/s */
	int m_rate; /* transactions/s or receiver datagrams/s, -1 none */
	int m_loss; /* %, -1 none */
	int m_retrans;
	char label[64];
};

struct net_state {
	struct variant *v;
	size_t nv;
	struct pl_net_client_opts co;
	/* loopback server */
	struct pl_net_server *srv;
	pthread_t srv_th;
	bool srv_running;
	atomic_int srv_stop;
	bool busy_poll_warned;
	/* the default loopback placement (no --cpus): ping-pong tests pinned to ccpu and the
	 * server's CPU, streams on the CPUs the main thread had at setup (@orig) */
	bool ping_only;
	int ccpu;
	cpu_set_t orig;
};

/* The default `perflab report`: every test of the defaults (0.5 s each, 3 runs) at
 * 64-byte messages only (the round trip the report leads with). */
static const char *const net_report[] = { "--sizes", "64", NULL };

static const char *const net_quick[] = { "--sizes", "64",     "--streams", "1", "--time",
					 "0.2",	    "--runs", "1",	   NULL };

/* Whether CPUs @a and @b are SMT siblings (one core), from
 * /sys/devices/system/cpu/cpuA/topology/thread_siblings_list; false when unreadable. */
static bool smt_siblings(int a, int b)
{
	char rel[96];
	snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
		 a);
	pl_autofree char *list = NULL;
	struct pl_cpuset sib;
	pl_cpuset_clear(&sib);
	if (pl_read_str(rel, &list) < 0 || pl_cpuset_parse(list, &sib) < 0)
		return false;
	return pl_cpuset_isset(&sib, (unsigned)b);
}

/* --cpus: client on the lowest CPU of the set, the loopback server on the next (the
 * same one when the set has one CPU). Without --cpus a loopback run (@loopback) pins its
 * ping-pong tests the same way over the CPUs it may use when there are two or more
 * (*@dflt true), the server on the first of them on another core when there is one
 * (*@smt true when only SMT siblings of the client's core were left): left to the
 * scheduler, the two threads shared a CPU in some runs and not in others, and a 64 B
 * round trip took 4 us in the first case and 65 us in the second on the 2-vCPU KVM
 * guest (waking the other, halted vCPU), so the median of three runs landed on either.
 * -1: not pinned (a --connect run without --cpus, or a single allowed CPU). */
static void side_cpus(struct pl_bench_ctx *ctx, bool loopback, int *client, int *server, bool *dflt,
		      bool *smt)
{
	*client = *server = -1;
	*dflt = *smt = false;
	const struct pl_cpuset *s = pl_bench_cpus(ctx);
	bool pinned = pl_bench_pinned(ctx);
	if (!pinned && (!loopback || pl_cpuset_count(s) < 2))
		return;
	*client = pl_cpuset_next(s, 0);
	int second = *client >= 0 ? pl_cpuset_next(s, (unsigned)*client + 1) : -1;
	*server = second >= 0 ? second : *client;
	if (pinned)
		return;
	*dflt = true;
	for (int c = second; c >= 0; c = pl_cpuset_next(s, (unsigned)c + 1))
		if (!smt_siblings(*client, c)) {
			*server = c;
			return;
		}
	*smt = smt_siblings(*client, *server);
}

static void *srv_thread(void *arg)
{
	struct net_state *s = arg;
	pl_net_server_serve(s->srv, &s->srv_stop, NULL, NULL);
	return NULL;
}

/* Open a server on @bind with @so; errors named after --bind. Returns 0 or -errno after
 * pl_bench_error (-EINVAL for what the user can fix). */
static int open_server(struct pl_bench_ctx *ctx, const char *bind,
		       const struct pl_net_server_opts *so, struct pl_net_server **out)
{
	int r = pl_net_server_open(bind, so, out);
	if (r == -EINVAL || r == -EADDRNOTAVAIL)
		pl_bench_error(
			ctx, "--bind '%s' is not a local ADDR:PORT (e.g. :5305 or 127.0.0.1:5305)",
			bind);
	else if (r == -EADDRINUSE)
		pl_bench_error(ctx, "--bind '%s': address already in use (choose another port)",
			       bind);
	else if (r < 0)
		pl_bench_error(ctx, "--bind '%s': %s", bind, strerror(-r));
	return r < 0 ? (r == -EINVAL || r == -EADDRNOTAVAIL || r == -EADDRINUSE || r == -EACCES
				? -EINVAL
				: r)
		     : 0;
}

/* `--server`: a mode, not a measurement (bench.h: standalone). */
static int net_standalone(struct pl_bench_ctx *ctx, void *opts)
{
	struct net_opts *o = opts;
	if (!o->server)
		return -ENOENT;
	if (o->connect || o->loopback) {
		pl_bench_error(ctx, "--server cannot be combined with --connect or --loopback");
		return PL_EXIT_USAGE;
	}
	int c, sv;
	bool dflt, smt;
	side_cpus(ctx, false, &c, &sv, &dflt, &smt);
	struct net_state s = { 0 };
	/* the runner's --max-time: with --server the longest test a client may ask */
	double max_s = pl_bench_max_time(ctx) > 0 ? pl_bench_max_time(ctx) : o->max_time;
	if (max_s < 0.01 || max_s > PL_NET_MAX_SECONDS) {
		pl_bench_error(ctx, "--max-time with --server: give 10ms to %ds, got %g s",
			       PL_NET_MAX_SECONDS, max_s);
		return PL_EXIT_USAGE;
	}
	struct pl_net_server_opts so = { .timeout = o->timeout,
					 .cpu = c,
					 .limits = { .max_seconds = max_s,
						     .max_size = (uint32_t)o->max_size,
						     .max_streams = (unsigned)o->max_streams },
					 .hello = o->idle_timeout };
	if (open_server(ctx, o->bind, &so, &s.srv) < 0)
		return PL_EXIT_USAGE;
	fprintf(stderr, "perflab bench net: serving on %s (port %d); Ctrl-C stops\n", o->bind,
		pl_net_server_port(s.srv));
	if (!pl_net_server_loopback_only(s.srv))
		pl_warn("listening on %s, beyond loopback, without authentication: "
			"any host that reaches it can run tests (bounded by --max-time, "
			"--max-size, --max-streams)",
			o->bind);
	atomic_init(&s.srv_stop, 0);
	pthread_t th;
	if (pthread_create(&th, NULL, srv_thread, &s) != 0) {
		pl_net_server_close(s.srv);
		pl_bench_error(ctx, "cannot start the server thread");
		return PL_EXIT_RUNTIME;
	}
	while (!pl_bench_stopped(ctx))
		usleep(100000);
	atomic_store(&s.srv_stop, 1);
	pthread_join(th, NULL);
	pl_net_server_close(s.srv);
	return PL_EXIT_OK;
}

static int parse_list(struct pl_bench_ctx *ctx, const char *opt, const char *s, uint64_t *out,
		      size_t max, size_t *n)
{
	size_t k = 0;
	char **v = pl_split(s, ",", &k);
	int r = 0;
	if (k == 0 || k > max)
		r = -EINVAL;
	for (size_t i = 0; i < k && r == 0; i++) {
		if (pl_parse_size(v[i], &out[i]) < 0 || out[i] == 0 || out[i] > PL_NET_MAX_SIZE)
			r = -EINVAL;
	}
	pl_strv_free(v);
	if (r < 0)
		pl_bench_error(ctx, "--%s '%s': expected a comma-separated list of sizes 1..16MiB",
			       opt, s);
	*n = k;
	return r;
}

static void add_variant(struct pl_bench_ctx *ctx, struct net_state *s, struct pl_net_req req)
{
	s->v = pl_xrealloc(s->v, (s->nv + 1) * sizeof(*s->v));
	struct variant *v = &s->v[s->nv++];
	memset(v, 0, sizeof(*v));
	v->req = req;
	v->m_rate = v->m_loss = v->m_retrans = -1;
	char n[96];
	switch (req.test) {
	case PL_NET_TCP_PP:
	case PL_NET_UDP_PP:
		snprintf(v->label, sizeof(v->label), "%s %uB", pl_net_test_names[req.test],
			 req.size);
		snprintf(n, sizeof(n), "%s round-trip", v->label);
		v->m_main = pl_bench_metric(
			ctx, n, "ns", PL_LOWER_IS_BETTER,
			"median round-trip time (send -> whole reply), not one-way");
		pl_bench_hist(ctx, v->m_main);
		snprintf(n, sizeof(n), "%s rate", v->label);
		v->m_rate = pl_bench_metric(ctx, n, "1/s", PL_HIGHER_IS_BETTER,
					    "round trips per second (one in flight)");
		if (req.test == PL_NET_UDP_PP) {
			snprintf(n, sizeof(n), "%s loss", v->label);
			v->m_loss = pl_bench_metric(ctx, n, "%", PL_LOWER_IS_BETTER,
						    "requests without a reply within 200 ms");
		}
		break;
	case PL_NET_TCP_STREAM:
		snprintf(v->label, sizeof(v->label), "tcp_stream x%u", req.streams);
		v->m_main = pl_bench_metric(ctx, v->label, "Gbit/s", PL_HIGHER_IS_BETTER,
					    "payload bits received by the server / s (10^9)");
		snprintf(n, sizeof(n), "%s retransmits", v->label);
		v->m_retrans = pl_bench_metric(ctx, n, "count", PL_LOWER_IS_BETTER,
					       "TCP segments retransmitted (TCP_INFO), both ends");
		break;
	case PL_NET_UDP_STREAM:
		snprintf(v->label, sizeof(v->label), "udp_stream %uB", req.size);
		snprintf(n, sizeof(n), "%s received", v->label);
		v->m_main = pl_bench_metric(ctx, n, "Gbit/s", PL_HIGHER_IS_BETTER,
					    "payload the receiver got / s (10^9 bit/s)");
		snprintf(n, sizeof(n), "%s receiver rate", v->label);
		v->m_rate = pl_bench_metric(ctx, n, "1/s", PL_HIGHER_IS_BETTER,
					    "datagrams received per second");
		snprintf(n, sizeof(n), "%s loss", v->label);
		v->m_loss = pl_bench_metric(ctx, n, "%", PL_LOWER_IS_BETTER,
					    "sent datagrams the receiver never got");
		break;
	default:
		snprintf(v->label, sizeof(v->label), "tcp_crr %uB", req.size);
		snprintf(n, sizeof(n), "%s rate", v->label);
		v->m_rate = pl_bench_metric(ctx, n, "1/s", PL_HIGHER_IS_BETTER,
					    "connect + request + response + close per second");
		snprintf(n, sizeof(n), "%s transaction", v->label);
		v->m_main = pl_bench_metric(ctx, n, "ns", PL_LOWER_IS_BETTER,
					    "median time of one connect/request/response/close");
		pl_bench_hist(ctx, v->m_main);
		break;
	}
}

static void net_teardown(struct pl_bench_ctx *ctx, void *opts, void *state);

/* The peer: --connect HOST:PORT, or a loopback server on a thread of this process.
 * Returns 0 or -errno after pl_bench_error. */
static int setup_peer(struct pl_bench_ctx *ctx, const struct net_opts *o, struct net_state *s)
{
	int ccpu, scpu;
	bool dflt, smt;
	side_cpus(ctx, !o->connect, &ccpu, &scpu, &dflt, &smt);
	s->co.timeout = o->timeout;
	s->co.cpu = ccpu;
	s->ccpu = ccpu;
	s->ping_only = dflt;
	if (dflt && pthread_getaffinity_np(pthread_self(), sizeof(s->orig), &s->orig) != 0)
		s->ping_only = false; /* (cannot restore it for the streams: pin them too) */
	json_t *info = pl_bench_info(ctx);
	if (o->connect) {
		int r = pl_net_addr_parse(o->connect, false, &s->co.addr, &s->co.addrlen);
		if (r < 0) {
			pl_bench_error(ctx,
				       "--connect '%s': %s (use HOST:PORT, e.g. 10.0.0.2:5305)",
				       o->connect,
				       r == -EADDRNOTAVAIL ? "host name does not resolve"
							   : "not HOST:PORT");
			return -EINVAL;
		}
		json_object_set_new(info, "peer", pl_json_string(o->connect));
	} else {
		struct pl_net_server_opts so = { .timeout = o->timeout,
						 .cpu = scpu,
						 .pin_ping_only = s->ping_only };
		int r = open_server(ctx, "127.0.0.1:0", &so, &s->srv);
		if (r < 0)
			return r;
		char a[64];
		snprintf(a, sizeof(a), "127.0.0.1:%d", pl_net_server_port(s->srv));
		pl_net_addr_parse(a, false, &s->co.addr, &s->co.addrlen);
		if (pthread_create(&s->srv_th, NULL, srv_thread, s) != 0) {
			pl_bench_error(ctx, "cannot start the loopback server thread");
			return -EAGAIN;
		}
		s->srv_running = true;
		json_object_set_new(info, "peer",
				    pl_json_string("loopback (127.0.0.1, this process)"));
	}
	json_object_set_new(info, "client_cpu_pinned", json_integer(ccpu));
	if (!o->connect)
		json_object_set_new(info, "server_cpu_pinned", json_integer(scpu));
	if (dflt) {
		pl_bench_pinned_by_bench(ctx);
		pl_bench_note(ctx,
			      "loopback: the ping-pong tests (tcp_pp, udp_pp, tcp_crr) pinned the "
			      "client to CPU %d and the server to CPU %d (%s, the default), the "
			      "streams left to the scheduler; --cpus A,B pins every test, the "
			      "client on the lower CPU, and --cpus A puts both on one CPU, which "
			      "changes the round trip several-fold",
			      ccpu, scpu,
			      smt ? "SMT siblings of one core: no other core allowed"
				  : "two cores");
	}
	json_object_set_new(info, "latency", pl_json_string("round trip (RTT), not one-way"));
	return 0;
}

/* The variants of --tests and --sizes. Returns 0 or -EINVAL after pl_bench_error. */
static int setup_variants(struct pl_bench_ctx *ctx, const struct net_opts *o, struct net_state *s)
{
	uint64_t sizes[32];
	size_t nsz = 0;
	int r = parse_list(ctx, "sizes", o->sizes, sizes, 32, &nsz);
	if (r < 0)
		return r;
	size_t nt = 0;
	pl_autostrv char **tv = pl_split(o->tests, ",", &nt);
	bool want[PL_NET_NTESTS] = { false };
	for (size_t i = 0; i < nt; i++) {
		int t = -1;
		for (int k = 0; k < PL_NET_NTESTS; k++)
			if (strcmp(tv[i], pl_net_test_names[k]) == 0)
				t = k;
		if (t < 0) {
			pl_bench_error(ctx,
				       "--tests: unknown test '%s' (tcp_pp, udp_pp, tcp_stream, "
				       "udp_stream, tcp_crr)",
				       tv[i]);
			return -EINVAL;
		}
		want[t] = true;
	}
	struct pl_net_req base = { .seconds = o->time,
				   .streams = 1,
				   .nodelay = !o->no_nodelay,
				   .busy_poll = (unsigned)o->busy_poll };
	for (int t = 0; t < PL_NET_NTESTS; t++) {
		if (!want[t])
			continue;
		struct pl_net_req q = base;
		q.test = (enum pl_net_test)t;
		if (t == PL_NET_TCP_PP || t == PL_NET_UDP_PP) {
			for (size_t i = 0; i < nsz; i++) {
				q.size = (uint32_t)sizes[i];
				if (t == PL_NET_UDP_PP && (q.size > 65507 || q.size < 8)) {
					pl_bench_note(ctx,
						      "udp_pp skips size %u (datagrams: 8..65507)",
						      q.size);
					continue;
				}
				add_variant(ctx, s, q);
			}
		} else if (t == PL_NET_TCP_STREAM) {
			q.size = (uint32_t)o->stream_size;
			for (unsigned n = 1;; n *= 2) {
				q.streams = n < (unsigned)o->streams ? n : (unsigned)o->streams;
				add_variant(ctx, s, q);
				if (q.streams >= (unsigned)o->streams)
					break;
			}
		} else if (t == PL_NET_UDP_STREAM) {
			q.size = (uint32_t)o->udp_size;
			add_variant(ctx, s, q);
		} else {
			q.size = (uint32_t)sizes[0];
			add_variant(ctx, s, q);
		}
	}
	if (s->nv == 0) {
		pl_bench_error(ctx, "nothing to run: --tests '%s' with --sizes '%s'", o->tests,
			       o->sizes);
		return -EINVAL;
	}
	return 0;
}

static int net_setup(struct pl_bench_ctx *ctx, void *opts, void **state)
{
	struct net_opts *o = opts;
	struct net_state *s = pl_xcalloc(1, sizeof(*s));
	atomic_init(&s->srv_stop, 0);
	int r = -EINVAL;
	if (o->connect && o->loopback)
		pl_bench_error(ctx, "--connect and --loopback exclude each other");
	else if ((r = setup_peer(ctx, o, s)) == 0 && (r = setup_variants(ctx, o, s)) == 0) {
		*state = s;
		return 0;
	}
	net_teardown(ctx, opts, s);
	return r;
}

static void note_cpu(struct pl_bench_ctx *ctx, int m, const char *key, int cpu)
{
	char b[16];
	snprintf(b, sizeof(b), "%d", cpu);
	pl_bench_metric_note(ctx, m, key, cpu >= 0 ? b : "unknown");
}

static int net_run(struct pl_bench_ctx *ctx, void *opts, void *state)
{
	(void)opts;
	struct net_state *s = state;
	for (size_t i = 0; i < s->nv; i++) {
		if (pl_bench_stopped(ctx))
			return -EINTR;
		struct variant *v = &s->v[i];
		struct pl_hist *h = NULL;
		bool stream = pl_net_test_is_stream(v->req.test);
		if (!stream)
			h = pl_bench_hist(ctx, v->m_main);
		struct pl_hist mine;
		pl_hist_init(&mine, h ? h->bits : 0);
		struct pl_net_result res;
		char err[256];
		if (s->ping_only) {
			/* the default placement: the streams run where the scheduler puts them
			 * (their threads inherit this thread's CPUs), the ping-pong tests pinned */
			s->co.cpu = stream ? -1 : s->ccpu;
			if (stream)
				pthread_setaffinity_np(pthread_self(), sizeof(s->orig), &s->orig);
		}
		int r = pl_net_run(&s->co, &v->req, &mine, &res, err, sizeof(err));
		if (r < 0) {
			pl_hist_free(&mine);
			pl_bench_error(ctx, "%s: %s", v->label, err);
			return r == -EINVAL ? -EIO : r;
		}
		if (res.busy_poll_denied && !s->busy_poll_warned) {
			s->busy_poll_warned = true;
			pl_bench_warn(ctx, "SO_BUSY_POLL refused (needs CAP_NET_ADMIN above "
					   "net.core.busy_read); measured without busy polling");
		}
		double el = res.elapsed_s > 0 ? res.elapsed_s : 1;
		switch (v->req.test) {
		case PL_NET_TCP_PP:
		case PL_NET_UDP_PP:
			pl_bench_record(ctx, v->m_main, pl_hist_quantile(&mine, 0.5));
			pl_bench_record(ctx, v->m_rate, (double)res.transactions / el);
			if (v->m_loss >= 0)
				pl_bench_record(ctx, v->m_loss,
						res.tx_msgs ? 100.0 * (double)res.lost /
								      (double)res.tx_msgs
							    : 0);
			break;
		case PL_NET_TCP_STREAM:
			pl_bench_record(ctx, v->m_main, (double)res.server.rx_bytes * 8 / el / 1e9);
			pl_bench_record(ctx, v->m_retrans, (double)res.retrans);
			break;
		case PL_NET_UDP_STREAM:
			pl_bench_record(ctx, v->m_main, (double)res.server.rx_bytes * 8 / el / 1e9);
			pl_bench_record(ctx, v->m_rate, (double)res.server.rx_msgs / el);
			pl_bench_record(ctx, v->m_loss,
					res.tx_msgs ? 100.0 * (1.0 - (double)res.server.rx_msgs /
									     (double)res.tx_msgs)
						    : 0);
			break;
		default:
			pl_bench_record(ctx, v->m_rate, (double)res.transactions / el);
			pl_bench_record(ctx, v->m_main, pl_hist_quantile(&mine, 0.5));
			break;
		}
		if (h)
			pl_hist_merge(h, &mine);
		pl_hist_free(&mine);
		if (s->ping_only && stream) {
			/* unpinned: the CPUs are where each end was when the test ended, one
			 * reading of threads the scheduler moved, not where they ran; as
			 * client_cpu/server_cpu they would read as a placement (and a shared
			 * CPU as a caveat) the run never had */
			char b[160];
			snprintf(b, sizeof(b),
				 "left to the scheduler (at the end: client on CPU %d, server on "
				 "CPU %d)",
				 res.client_cpu, res.server.cpu);
			pl_bench_metric_note(ctx, v->m_main, "placement", b);
		} else {
			note_cpu(ctx, v->m_main, "client_cpu", res.client_cpu);
			note_cpu(ctx, v->m_main, "server_cpu", res.server.cpu);
		}
	}
	return 0;
}

static void net_teardown(struct pl_bench_ctx *ctx, void *opts, void *state)
{
	(void)ctx;
	(void)opts;
	struct net_state *s = state;
	if (!s)
		return;
	if (s->srv_running) {
		atomic_store(&s->srv_stop, 1);
		pthread_join(s->srv_th, NULL);
	}
	pl_net_server_close(s->srv);
	free(s->v);
	free(s);
}

/* A TCP socket on loopback is all the default (loopback) mode needs; a sandbox without
 * sockets (seccomp, no network namespace access) cannot run it. */
static int net_supported(const void *opts, char *reason, size_t len)
{
	(void)opts;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(reason, len, "cannot create a TCP socket: %s", strerror(errno));
		return -ENOTSUP;
	}
	close(fd);
	return 0;
}

/* The metrics the report's key numbers read (report/keynums.c): --precision waits
 * for them. */
static const char *const net_headline[] = { "tcp_pp *B round-trip", NULL };

const struct pl_bench pl_bench_net = {
	.supported = net_supported,
	.name = "net",
	.summary = "network round-trip latency, stream throughput, UDP loss, connection rate "
		   "(loopback or against a perflab server)",
	.description =
		"Tests: tcp_pp and udp_pp (ping-pong round trip, a message-size sweep), "
		"tcp_stream\n"
		"(1, 2, 4 ... --streams connections; Gbit/s counted by the receiver), udp_stream\n"
		"(the receiver's rate and loss, never only the sender's), tcp_crr (connect,\n"
		"request, response, close). Latencies are always full round trips (sockperf shows\n"
		"RTT/2 without --full-rtt, qperf one-way). A control connection negotiates each\n"
		"test, so `perflab bench net --server` on one host serves `--connect HOST:PORT`\n"
		"from another; --loopback (default) runs both ends here, its ping-pong tests\n"
		"pinned to two CPUs of the run on different cores (the streams are left to the\n"
		"scheduler); --cpus A,B pins every test, the client to the lower of the two\n"
		"CPUs and the loopback server to the other, --cpus A both to one CPU (same-core\n"
		"vs cross-core changes RTT 2-4x); each metric notes the CPU each side ran on. A\n"
		"silent or dead peer ends the run with an error after --timeout. The server\n"
		"listens on loopback unless --bind names another address, and refuses a\n"
		"request over its --max-time, --max-size or --max-streams.",
	.opts = net_opt_table,
	.opts_size = sizeof(struct net_opts),
	.opts_defaults = &net_defaults,
	.default_runs = 3,
	.uses_all_cpus = true,
	.quick_argv = net_quick,
	.report_argv = net_report,
	.in_report = true,
	.headline = net_headline,
	.standalone = net_standalone,
	.setup = net_setup,
	.run = net_run,
	.teardown = net_teardown,
};
