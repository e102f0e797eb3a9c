/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Control protocol lines of `perflab bench net` (see proto.h). */
#include "bench/net/proto.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "util/str.h"

const char *const pl_net_test_names[] = { "tcp_pp",	"udp_pp",  "tcp_stream",
					  "udp_stream", "tcp_crr", NULL };

bool pl_net_test_is_stream(enum pl_net_test t)
{
	return t == PL_NET_TCP_STREAM || t == PL_NET_UDP_STREAM;
}

#define MAGIC "PLNET1"

int pl_net_req_format(const struct pl_net_req *r, char *buf, size_t len)
{
	int n = snprintf(buf, len,
			 MAGIC " test=%s size=%u seconds=%.6f streams=%u nodelay=%d busy_poll=%u\n",
			 pl_net_test_names[r->test], r->size, r->seconds, r->streams,
			 r->nodelay ? 1 : 0, r->busy_poll);
	return n < 0 || (size_t)n >= len || n >= PL_NET_LINE_MAX ? -ENOSPC : n;
}

/* Copy @line without its line ending into @out; reject long lines and control bytes. */
static int line_copy(const char *line, char *out, size_t cap, char *why, size_t whylen)
{
	size_t n = strlen(line);
	if (n && line[n - 1] == '\n')
		n--;
	if (n && line[n - 1] == '\r')
		n--;
	if (n == 0 || n + 1 >= cap) {
		snprintf(why, whylen, n ? "line longer than %d bytes" : "empty line",
			 PL_NET_LINE_MAX);
		return -EBADMSG;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)line[i];
		if (c < 0x20 || c > 0x7e) {
			snprintf(why, whylen, "non-printable byte 0x%02x at offset %zu", c, i);
			return -EBADMSG;
		}
	}
	memcpy(out, line, n);
	out[n] = '\0';
	return 0;
}

/* A decimal number in lo..hi: digits only, as both ends print them (no sign, space or
 * 0x, which pl_parse_u64 alone would let through). */
static int u64_in(const char *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
	uint64_t x;
	if (!*v || strspn(v, "0123456789") != strlen(v) || pl_parse_u64(v, &x) < 0 || x < lo ||
	    x > hi)
		return -EBADMSG;
	*out = x;
	return 0;
}

int pl_net_req_parse(const char *line, struct pl_net_req *out, char *why, size_t whylen)
{
	char buf[PL_NET_LINE_MAX + 1];
	if (line_copy(line, buf, sizeof(buf), why, whylen) < 0)
		return -EBADMSG;
	char *save = NULL;
	char *tok = strtok_r(buf, " ", &save);
	if (!tok || strcmp(tok, MAGIC) != 0) {
		snprintf(why, whylen, "not a perflab bench net request (expected '%s ...')", MAGIC);
		return -EBADMSG;
	}
	static const char *const keys[] = { "test",    "size",	  "seconds",
					    "streams", "nodelay", "busy_poll" };
	enum { NKEYS = 6 };
	bool seen[NKEYS] = { false };
	struct pl_net_req r = { .size = 64, .seconds = 1, .streams = 1, .nodelay = true };
	while ((tok = strtok_r(NULL, " ", &save))) {
		char *eq = strchr(tok, '=');
		if (!eq || eq == tok || eq[1] == '\0') {
			snprintf(why, whylen, "expected key=value, got '%.40s'", tok);
			return -EBADMSG;
		}
		*eq = '\0';
		const char *v = eq + 1;
		int k = -1;
		for (int i = 0; i < NKEYS; i++)
			if (strcmp(tok, keys[i]) == 0)
				k = i;
		if (k < 0) {
			snprintf(why, whylen, "unknown key '%.40s'", tok);
			return -EBADMSG;
		}
		if (seen[k]) {
			snprintf(why, whylen, "key '%s' given twice", tok);
			return -EBADMSG;
		}
		seen[k] = true;
		uint64_t x = 0;
		double d = 0;
		bool bad = false;
		switch (k) {
		case 0: {
			int t = -1;
			for (int i = 0; i < PL_NET_NTESTS; i++)
				if (strcmp(v, pl_net_test_names[i]) == 0)
					t = i;
			bad = t < 0;
			r.test = (enum pl_net_test)(t < 0 ? 0 : t);
			break;
		}
		case 1:
			bad = u64_in(v, 1, PL_NET_MAX_SIZE, &x) < 0;
			r.size = (uint32_t)x;
			break;
		case 2:
			bad = pl_parse_double(v, &d) < 0 ||
			      !(d >= 0.001 && d <= PL_NET_MAX_SECONDS);
			r.seconds = d;
			break;
		case 3:
			bad = u64_in(v, 1, PL_NET_MAX_STREAMS, &x) < 0;
			r.streams = (unsigned)x;
			break;
		case 4:
			bad = u64_in(v, 0, 1, &x) < 0;
			r.nodelay = x != 0;
			break;
		default:
			bad = u64_in(v, 0, 1000000, &x) < 0;
			r.busy_poll = (unsigned)x;
			break;
		}
		if (bad) {
			snprintf(why, whylen, "bad value '%.40s' for '%s'", v, keys[k]);
			return -EBADMSG;
		}
	}
	if (!seen[0]) {
		snprintf(why, whylen, "missing 'test='");
		return -EBADMSG;
	}
	if (r.test == PL_NET_UDP_PP || r.test == PL_NET_UDP_STREAM) {
		if (r.size > 65507 || r.size < 8) {
			snprintf(why, whylen, "UDP size out of range 8..65507");
			return -EBADMSG;
		}
	}
	*out = r;
	return 0;
}

int pl_net_req_check(const struct pl_net_req *r, const struct pl_net_limits *l, char *why,
		     size_t whylen)
{
	double secs = l->max_seconds > 0 ? l->max_seconds : PL_NET_MAX_SECONDS;
	uint32_t size = l->max_size ? l->max_size : PL_NET_MAX_SIZE;
	unsigned streams = l->max_streams ? l->max_streams : PL_NET_MAX_STREAMS;
	if (r->seconds > secs)
		snprintf(why, whylen, "seconds=%g over this server's limit of %g s (--max-time)",
			 r->seconds, secs);
	else if (r->size > size)
		snprintf(why, whylen, "size=%u over this server's limit of %u bytes (--max-size)",
			 r->size, size);
	else if (r->test == PL_NET_TCP_STREAM && r->streams > streams)
		snprintf(why, whylen, "streams=%u over this server's limit of %u (--max-streams)",
			 r->streams, streams);
	else
		return 0;
	return -E2BIG;
}

int pl_net_done_format(const struct pl_net_done *d, char *buf, size_t len)
{
	int n = snprintf(buf, len, "DONE rx_bytes=%llu rx_msgs=%llu cpu=%d retrans=%llu\n",
			 (unsigned long long)d->rx_bytes, (unsigned long long)d->rx_msgs, d->cpu,
			 (unsigned long long)d->retrans);
	return n < 0 || (size_t)n >= len ? -ENOSPC : n;
}

int pl_net_done_parse(const char *line, struct pl_net_done *out)
{
	char buf[PL_NET_LINE_MAX + 1], why[64];
	if (line_copy(line, buf, sizeof(buf), why, sizeof(why)) < 0)
		return -EBADMSG;
	/* Exactly these keys in this order, strict numbers (sscanf's %llu took "-1" as
	 * 2^64-1 and its %d overflowed on a long cpu=). */
	static const char *const keys[] = { "rx_bytes", "rx_msgs", "cpu", "retrans" };
	uint64_t v[4];
	char *save = NULL;
	char *tok = strtok_r(buf, " ", &save);
	if (!tok || strcmp(tok, "DONE") != 0)
		return -EBADMSG;
	for (int i = 0; i < 4; i++) {
		tok = strtok_r(NULL, " ", &save);
		size_t kl = strlen(keys[i]);
		if (!tok || strncmp(tok, keys[i], kl) != 0 || tok[kl] != '=')
			return -EBADMSG;
		const char *val = tok + kl + 1;
		if (i == 2 && strcmp(val, "-1") == 0)
			v[i] = UINT64_MAX; /* cpu unknown */
		else if (u64_in(val, 0, i == 2 ? INT_MAX : UINT64_MAX, &v[i]) < 0)
			return -EBADMSG;
	}
	if (strtok_r(NULL, " ", &save))
		return -EBADMSG;
	*out = (struct pl_net_done){ v[0], v[1], v[2] == UINT64_MAX ? -1 : (int)v[2], v[3] };
	return 0;
}

int pl_net_ok_parse(const char *line, char *why, size_t whylen)
{
	char buf[PL_NET_LINE_MAX + 1];
	if (line_copy(line, buf, sizeof(buf), why, whylen) < 0)
		return -EBADMSG;
	if (pl_startswith(buf, "ERR ")) {
		snprintf(why, whylen, "%s", buf + 4);
		return -EPROTO;
	}
	uint64_t port;
	if (!pl_startswith(buf, "OK port=") || u64_in(buf + 8, 1, 65535, &port) < 0) {
		snprintf(why, whylen, "unexpected reply '%.60s'", buf);
		return -EBADMSG;
	}
	return (int)port;
}
