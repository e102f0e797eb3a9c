/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The measuring core of `perflab bench net`: a server that serves one test at a time
 * over the control protocol of proto.h, and a client that runs one test against it.
 * Latencies are round trips (client send -> full reply received), CLOCK_MONOTONIC, ns;
 * throughput in Gbit/s = 10^9 bit/s of payload counted by the *receiver*. */
#ifndef PERFLAB_BENCH_NET_H
#define PERFLAB_BENCH_NET_H
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "bench/net/proto.h"
#include "stats/hist.h"

/** Parse "HOST:PORT", "[V6ADDR]:PORT" or ":PORT" (any address, for --bind) into @ss.
 *  Numeric addresses are parsed directly; names go through getaddrinfo(). @passive: an
 *  empty host means "any" (else loopback). Returns 0, -EINVAL (syntax, port out of
 *  range) or -EADDRNOTAVAIL (the name does not resolve). */
int pl_net_addr_parse(const char *s, bool passive, struct sockaddr_storage *ss, socklen_t *len);

/** This machine's addresses a peer on another host could connect to, for a peer whose
 *  name does not resolve (perflab-mpi --net-tcp between network namespaces, whose
 *  hostnames are in no /etc/hosts): the numeric address of every interface that is up
 *  and not loopback (getifaddrs(3)), IPv4 first, IPv6 link-local ones left out (they need
 *  a scope), space-separated into @buf (@n bytes, NUL-terminated; an address that does
 *  not fit whole is left out). Returns how many were written or -errno of getifaddrs. */
int pl_net_host_addrs(char *buf, size_t n);

/** Of @list, addresses as pl_net_host_addrs() wrote them on another host, the first
 *  that lies in the subnet of one of this machine's up interfaces (its address and
 *  netmask; so it is on a link this host has), else the first one, into @out (@n bytes)
 *  as "ADDR:PORT" ("[ADDR]:PORT" for IPv6) with @port, ready for pl_net_addr_parse().
 *  Returns 0, -ENOENT (@list has no address), -ENAMETOOLONG (@n too small) or -errno of
 *  getifaddrs. */
int pl_net_pick_addr(const char *list, int port, char *out, size_t n);

/** Server settings. */
struct pl_net_server_opts {
	double timeout;		     /**< seconds to wait for a peer before giving up on a test */
	int cpu;		     /**< pin the data threads to this CPU, -1 = no pinning */
	bool pin_ping_only;	     /**< pin only the ping-pong tests' threads (tcp_pp, udp_pp,
				      *   tcp_crr) to @cpu and leave the streams to the scheduler:
				      *   bench net's default loopback placement */
	struct pl_net_limits limits; /**< what one request may ask for (all 0: the protocol's
				      *   bounds, for an in-process loopback server) */
	double hello; /**< seconds a connection has to send its request line; 0 = PL_NET_HELLO_S
		       *   (either way at most @timeout) */
};

struct pl_net_server;

/** Open the control listener on @bind ("ADDR:PORT"; port 0 = ephemeral). Returns 0 or
 *  -errno: -EINVAL bad address, -EADDRINUSE, -EACCES (privileged port). */
int pl_net_server_open(const char *bind, const struct pl_net_server_opts *o,
		       struct pl_net_server **out);
/** The bound control port. */
int pl_net_server_port(const struct pl_net_server *s);
/** True when the control listener accepts only loopback connections (bound to an
 *  address in 127.0.0.0/8, ::1 or ::ffff:127.0.0.0/104); false for any other address,
 *  the wildcard ones included. */
bool pl_net_server_loopback_only(const struct pl_net_server *s);
/** Default seconds a client has after connecting to send its request line (or --timeout
 *  when shorter); connections still silent then are closed with "ERR no request ...". */
#define PL_NET_HELLO_S 2.0

/** Serve tests one at a time until *@stop becomes non-zero (checked at least every
 *  100 ms). Connections are accepted as they come and the first to send a whole request
 *  line is served, so idle connections never delay a real client; one without a request
 *  within the handshake time (opts.hello) is dropped. A second client while a test runs
 *  (or waiting when one starts) gets "ERR busy"; a malformed request, or one over
 *  opts.limits, gets "ERR <reason>"; a client that vanishes mid-test ends only that test,
 *  and a test that overstays its duration by more than 2 x --timeout + 5 s is ended.
 *  Data connections and datagrams are accepted only from the control connection's peer
 *  address. Returns 0 or
 *  -errno on a fatal listener error. @served (optional) counts completed tests and
 *  @rejected (optional) rejected requests. */
int pl_net_server_serve(struct pl_net_server *s, const atomic_int *stop, atomic_ulong *served,
			atomic_ulong *rejected);
/** Close the listener and free. NULL-safe. */
void pl_net_server_close(struct pl_net_server *s);

/** Client settings. */
struct pl_net_client_opts {
	struct sockaddr_storage addr; /**< server's control address */
	socklen_t addrlen;
	double timeout; /**< seconds: connect, control replies, and silence on the data path */
	int cpu;	/**< pin the client's threads to this CPU, -1 = no pinning */
};

/** One test's result (client view plus the server's DONE). */
struct pl_net_result {
	double elapsed_s;      /**< time the client drove the test */
	uint64_t transactions; /**< round trips (pp) or connect+request+close (crr) completed */
	uint64_t tx_bytes, tx_msgs; /**< what the client sent */
	uint64_t lost;		    /**< udp_pp: requests without a reply in time */
	uint64_t retrans;	    /**< TCP retransmits, client + server sockets (TCP_INFO) */
	int client_cpu;		    /**< CPU the client thread ran on at the end, -1 unknown */
	struct pl_net_done server;  /**< the server's counters */
	bool busy_poll_denied;	    /**< SO_BUSY_POLL was asked for but refused (EPERM) */
};

/** Run @req against the server at @o. Latency of every round trip (pp, crr) is recorded
 *  in @lat (ns; may be NULL). Returns 0 or -errno with a one-line reason in @err:
 *  -ECONNREFUSED (no server), -ETIMEDOUT (silent peer, after o->timeout), -EPROTO
 *  (server said ERR: its reason is in @err), -EBADMSG (garbled reply), -ECONNRESET. */
int pl_net_run(const struct pl_net_client_opts *o, const struct pl_net_req *req,
	       struct pl_hist *lat, struct pl_net_result *res, char *err, size_t errlen);

#endif
