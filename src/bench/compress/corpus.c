/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Corpus generators. Words follow a Zipf-like law (rank r drawn with probability ~1/r),
 * which is what makes natural text compress about 3x with DEFLATE. */
#include "bench/compress/corpus.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bench/splitmix.h"

const char *const pl_corpus_names[] = { "text", "json", "binary", NULL };

static unsigned below(uint64_t *s, unsigned n)
{
	return (unsigned)(pl_splitmix64(s) % n);
}

/* A fixed vocabulary; ranks beyond it are made-up words built from syllables. */
static const char *const words[] = {
	"the",	       "of",	     "and",	  "to",	      "a",	 "in",		"is",
	"that",	       "for",	     "it",	  "as",	      "was",	 "with",	"be",
	"by",	       "on",	     "not",	  "he",	      "this",	 "are",		"or",
	"his",	       "from",	     "at",	  "which",    "but",	 "have",	"an",
	"had",	       "they",	     "you",	  "were",     "their",	 "one",		"all",
	"we",	       "can",	     "her",	  "has",      "there",	 "been",	"if",
	"more",	       "when",	     "will",	  "would",    "who",	 "so",		"no",
	"performance", "memory",     "latency",	  "kernel",   "system",	 "network",	"storage",
	"cache",       "throughput", "request",	  "server",   "client",	 "compression", "benchmark",
	"engineer",    "measure",    "result",	  "thread",   "process", "buffer",	"queue",
	"device",      "driver",     "interrupt", "schedule", "policy",	 "frequency",	"power",
	"cluster",     "node",	     "socket",
};
static const char *const syll[] = { "ka",  "lo", "mi",	"ren", "tor", "sa",  "vel", "qui", "dan",
				    "est", "ol", "par", "ix",  "um",  "bra", "nes", "cor", "ti" };

#define NW (sizeof(words) / sizeof(words[0]))
#define NS (sizeof(syll) / sizeof(syll[0]))

/* Zipf-like rank in [0, n): r = n^u - 1 for u uniform in [0,1), so P(rank <= k) grows
 * like ln(k)/ln(n), the continuous form of Zipf's law with exponent 1. */
static unsigned zipf(uint64_t *s, unsigned n)
{
	double u = pl_splitmix_unit(s);
	unsigned k = (unsigned)(exp(u * log((double)n))) - 1;
	return k >= n ? n - 1 : k;
}

struct out {
	char *p;
	size_t len, cap;
};

static bool put(struct out *o, const char *s, size_t n)
{
	size_t room = o->cap - o->len;
	if (n > room)
		n = room;
	memcpy(o->p + o->len, s, n);
	o->len += n;
	return o->len < o->cap;
}

static bool puts_(struct out *o, const char *s)
{
	return put(o, s, strlen(s));
}

static bool word(struct out *o, uint64_t *s)
{
	unsigned r = zipf(s, 4096);
	if (r < NW)
		return puts_(o, words[r]);
	/* made-up word: deterministic in the rank so it repeats like a real one */
	uint64_t ws = r * 0x9e3779b97f4a7c15ull;
	unsigned n = 2 + below(&ws, 3);
	for (unsigned i = 0; i < n; i++)
		if (!puts_(o, syll[below(&ws, NS)]))
			return false;
	return true;
}

static void gen_text(uint64_t *s, struct out *o)
{
	static const char *const tags[] = { "p", "li", "td", "span", "div", "h2", "a" };
	static const char *const cls[] = { "content", "nav-item", "row",	 "col-md-6",
					   "btn",     "footer",	  "article-body" };
	while (o->len < o->cap) {
		const char *t = tags[below(s, 7)];
		char open[128];
		snprintf(open, sizeof(open), "<%s class=\"%s\">", t, cls[below(s, 7)]);
		if (!puts_(o, open))
			return;
		unsigned n = 8 + below(s, 40);
		for (unsigned i = 0; i < n; i++) {
			if (!word(o, s))
				return;
			const char *sep = i + 1 == n ? "." : below(s, 12) == 0 ? ", " : " ";
			if (!puts_(o, sep))
				return;
		}
		char close[32];
		snprintf(close, sizeof(close), "</%s>\n", t);
		if (!puts_(o, close))
			return;
	}
}

static void gen_json(uint64_t *s, struct out *o)
{
	static const char *const lvl[] = { "info", "info", "info", "warn", "error", "debug" };
	static const char *const meth[] = { "GET", "GET", "GET", "POST", "PUT", "DELETE" };
	static const char *const path[] = { "/api/v1/users", "/api/v1/orders", "/static/app.js",
					    "/healthz",	     "/api/v1/search", "/login",
					    "/api/v2/items" };
	static const int status[] = { 200, 200, 200, 200, 201, 204, 301, 304, 400, 404, 500 };
	uint64_t ts = 1764512000000ull; /* 2025-11-30 in ms */
	while (o->len < o->cap) {
		ts += below(s, 50);
		char line[512];
		int n = snprintf(
			line, sizeof(line),
			"{\"ts\":%llu,\"level\":\"%s\",\"method\":\"%s\",\"path\":\"%s/%u\","
			"\"status\":%d,\"bytes\":%u,\"duration_ms\":%u.%03u,"
			"\"client\":\"10.%u.%u.%u\",\"request_id\":\"%016llx\","
			"\"user_agent\":\"Mozilla/5.0 (X11; Linux x86_64)\"}\n",
			(unsigned long long)ts, lvl[below(s, 6)], meth[below(s, 6)],
			path[below(s, 7)], below(s, 1000), status[below(s, 11)], below(s, 100000),
			below(s, 200), below(s, 1000), below(s, 4), below(s, 256), below(s, 256),
			(unsigned long long)pl_splitmix64(s));
		if (!put(o, line, (size_t)n))
			return;
	}
}

static void gen_binary(uint64_t *s, struct out *o)
{
	while (o->len < o->cap) {
		/* 2 in 5 blocks are incompressible (media, encrypted or already compressed) */
		unsigned kind = below(s, 5);
		kind = kind == 4 ? 0 : kind;
		size_t n = 256 + below(s, 8192);
		if (n > o->cap - o->len)
			n = o->cap - o->len;
		unsigned char *p = (unsigned char *)o->p + o->len;
		switch (kind) {
		case 0: /* incompressible */
			for (size_t i = 0; i < n; i++)
				p[i] = (unsigned char)pl_splitmix64(s);
			break;
		case 1: { /* table of small little-endian integers, as in a struct array */
			uint32_t v = below(s, 1000);
			for (size_t i = 0; i < n; i++) {
				if (i % 4 == 0)
					v += below(s, 16);
				p[i] = (unsigned char)(v >> (8 * (i % 4)));
			}
			break;
		}
		case 2: /* runs */
			for (size_t i = 0; i < n;) {
				unsigned char b = (unsigned char)below(s, 4);
				size_t r = 1 + below(s, 64);
				for (; r && i < n; r--)
					p[i++] = b;
			}
			break;
		default: { /* embedded text */
			struct out t = { (char *)p, 0, n };
			gen_text(s, &t);
			break;
		}
		}
		o->len += n;
	}
}

void pl_corpus_generate(enum pl_corpus_kind kind, uint64_t seed, void *buf, size_t len)
{
	uint64_t s = seed ^ ((uint64_t)kind << 56);
	struct out o = { buf, 0, len };
	if (len == 0)
		return;
	switch (kind) {
	case PL_CORPUS_JSON:
		gen_json(&s, &o);
		break;
	case PL_CORPUS_BINARY:
		gen_binary(&s, &o);
		break;
	default:
		gen_text(&s, &o);
		break;
	}
}
