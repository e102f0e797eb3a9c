/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The control protocol of `perflab bench net`: one TCP control connection per test,
 * carrying short ASCII lines, so a server started once serves every test and a human can
 * debug it with `nc`. Exchange:
 *
 *   client: PLNET1 test=tcp_pp size=64 seconds=1 streams=1 nodelay=1 busy_poll=0\n
 *   server: OK port=40123\n            (or ERR <reason>\n and close)
 *   ... the test runs on the data port ...
 *   client: END\n
 *   server: DONE rx_bytes=N rx_msgs=N cpu=C retrans=N\n
 *
 * Lines are at most PL_NET_LINE_MAX bytes including the newline; only printable ASCII;
 * every key of a request is known and appears at most once; numbers are strict and
 * range-checked. Anything else is rejected with ERR. */
#ifndef PERFLAB_BENCH_NET_PROTO_H
#define PERFLAB_BENCH_NET_PROTO_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Longest control line, newline included. */
#define PL_NET_LINE_MAX 256
/** Largest message size of a test (bytes). */
#define PL_NET_MAX_SIZE (1u << 24)
/** Most parallel streams of a stream test. */
#define PL_NET_MAX_STREAMS 64
/** Longest test a request may name (seconds). */
#define PL_NET_MAX_SECONDS 3600

/** The tests. */
enum pl_net_test {
	PL_NET_TCP_PP,	   /**< TCP ping-pong: round-trip latency */
	PL_NET_UDP_PP,	   /**< UDP ping-pong: round-trip latency, loss */
	PL_NET_TCP_STREAM, /**< TCP bulk throughput, 1..N streams */
	PL_NET_UDP_STREAM, /**< UDP blast: receiver's rate and loss */
	PL_NET_TCP_CRR,	   /**< TCP connect/request/response/close rate */
	PL_NET_NTESTS,
};

/** Test names in enum order ("tcp_pp", ...), NULL-terminated. */
extern const char *const pl_net_test_names[];

/** True for the throughput tests (tcp_stream, udp_stream); false for the ping-pong ones
 *  (tcp_pp, udp_pp, tcp_crr), which record a round trip per operation. */
bool pl_net_test_is_stream(enum pl_net_test t);

/** A test request. */
struct pl_net_req {
	enum pl_net_test test;
	uint32_t size;	    /**< message (request/response, datagram, write) size, bytes */
	double seconds;	    /**< how long the client drives the test */
	unsigned streams;   /**< parallel connections (tcp_stream), 1..PL_NET_MAX_STREAMS */
	bool nodelay;	    /**< TCP_NODELAY on both ends */
	unsigned busy_poll; /**< SO_BUSY_POLL microseconds on both ends, 0 = off */
};

/** What a server lets one request ask for; a request over any of these is refused with
 *  ERR and the server goes on serving. A field left 0 means the protocol's own bound
 *  (PL_NET_MAX_SECONDS, PL_NET_MAX_SIZE, PL_NET_MAX_STREAMS), which the in-process
 *  loopback server uses. */
struct pl_net_limits {
	double max_seconds;   /**< longest test a client may ask for, seconds */
	uint32_t max_size;    /**< largest message size, bytes */
	unsigned max_streams; /**< most parallel streams of tcp_stream */
};

/** What the server measured, sent back in DONE. */
struct pl_net_done {
	uint64_t rx_bytes; /**< bytes the server received on the data sockets */
	uint64_t rx_msgs;  /**< datagrams / requests / transactions it received */
	int cpu;	   /**< CPU the server's (first) data thread ran on last, -1 unknown */
	uint64_t retrans;  /**< TCP retransmitted segments on the server's sockets (TCP_INFO) */
};

/** Format @r as a request line (with newline) into @buf. Returns the length or -ENOSPC. */
int pl_net_req_format(const struct pl_net_req *r, char *buf, size_t len);
/** Parse a request line (trailing "\n" or "\r\n" allowed). Returns 0, or -EBADMSG with a
 *  short reason in @why ("unknown key 'x'", "size out of range 1..16777216"); @out is
 *  untouched on error. */
int pl_net_req_parse(const char *line, struct pl_net_req *out, char *why, size_t whylen);

/** Check a parsed request @r against a server's @l. Returns 0, or -E2BIG with a one-line
 *  reason in @why naming the value, the limit and the server option that sets it
 *  ("seconds=120 over this server's limit of 60 s (--max-time)"). */
int pl_net_req_check(const struct pl_net_req *r, const struct pl_net_limits *l, char *why,
		     size_t whylen);

/** Format / parse a DONE line. Parse returns 0 or -EBADMSG. */
int pl_net_done_format(const struct pl_net_done *d, char *buf, size_t len);
int pl_net_done_parse(const char *line, struct pl_net_done *out);

/** Parse an OK line: "OK port=N". Returns the port (1..65535) or -EBADMSG; for an ERR
 *  line returns -EPROTO and copies the server's reason into @why. */
int pl_net_ok_parse(const char *line, char *why, size_t whylen);

#endif
