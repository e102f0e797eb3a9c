/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The control protocol of bench net (bench/net/proto.h): what a server reads from any
 * client (request lines, then its limits check) and a client from any server (OK/ERR and
 * DONE lines). Invariants: a parsed request or DONE line formats to a line that parses to
 * the same values; a server's limits refuse exactly the requests over them; an OK port is
 * 1..65535. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bench/net/proto.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4 * PL_NET_LINE_MAX)
		return -1;
	char *s = fuzz_cstr(data, size);
	char why[128], line[PL_NET_LINE_MAX];
	struct pl_net_req r, r2;
	if (pl_net_req_parse(s, &r, why, sizeof(why)) == 0) {
		FUZZ_ASSERT(r.test < PL_NET_NTESTS, "known test");
		FUZZ_ASSERT(r.size >= 1 && r.size <= PL_NET_MAX_SIZE, "size in range");
		FUZZ_ASSERT(r.streams >= 1 && r.streams <= PL_NET_MAX_STREAMS, "streams in range");
		FUZZ_ASSERT(pl_net_req_format(&r, line, sizeof(line)) > 0, "request formats");
		FUZZ_ASSERT(pl_net_req_parse(line, &r2, why, sizeof(why)) == 0, "formatted parses");
		FUZZ_ASSERT(r2.test == r.test && r2.size == r.size && r2.streams == r.streams &&
				    r2.nodelay == r.nodelay && r2.busy_poll == r.busy_poll,
			    "request round trip");
		/* the protocol's own bounds admit every parsed request; a server's tighter
		 * limits refuse exactly what is over them, with a reason */
		struct pl_net_limits none = { 0 }, tight = { 1, 1024, 2 };
		FUZZ_ASSERT(pl_net_req_check(&r, &none, why, sizeof(why)) == 0,
			    "protocol bounds admit a parsed request");
		bool over = r.seconds > 1 || r.size > 1024 ||
			    (r.test == PL_NET_TCP_STREAM && r.streams > 2);
		int c = pl_net_req_check(&r, &tight, why, sizeof(why));
		FUZZ_ASSERT(over ? c == -E2BIG && strstr(why, "limit") : c == 0,
			    "limits refuse exactly what is over them");
	}
	struct pl_net_done d, d2;
	if (pl_net_done_parse(s, &d) == 0) {
		FUZZ_ASSERT(pl_net_done_format(&d, line, sizeof(line)) > 0, "DONE formats");
		FUZZ_ASSERT(pl_net_done_parse(line, &d2) == 0 && d2.rx_bytes == d.rx_bytes &&
				    d2.rx_msgs == d.rx_msgs && d2.cpu == d.cpu &&
				    d2.retrans == d.retrans,
			    "DONE round trip");
	}
	int port = pl_net_ok_parse(s, why, sizeof(why));
	FUZZ_ASSERT(port == -EBADMSG || port == -EPROTO || (port >= 1 && port <= 65535),
		    "OK port in range");
	if (port == -EPROTO)
		FUZZ_ASSERT(memchr(why, '\0', sizeof(why)) != NULL, "ERR reason terminated");
	free(s);
	return 0;
}
