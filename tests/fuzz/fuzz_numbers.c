/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The strict number parsers of util/str.h that read sysfs/proc values and option values:
 * integers, doubles, byte sizes, durations. Invariants: a parsed integer prints back to a
 * string that parses to the same value; sizes and durations are finite and >= 0. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "util/str.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096)
		return -1;
	char *s = fuzz_cstr(data, size);
	char buf[64];
	uint64_t u;
	if (pl_parse_u64(s, &u) == 0) {
		uint64_t back = ~u;
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)u);
		FUZZ_ASSERT(pl_parse_u64(buf, &back) == 0 && back == u, "u64 round trip");
	}
	int64_t i;
	if (pl_parse_i64(s, &i) == 0) {
		int64_t back = ~i;
		snprintf(buf, sizeof(buf), "%lld", (long long)i);
		FUZZ_ASSERT(pl_parse_i64(buf, &back) == 0 && back == i, "i64 round trip");
	}
	double d;
	if (pl_parse_double(s, &d) == 0)
		FUZZ_ASSERT(isfinite(d), "pl_parse_double gives a finite value");
	if (pl_parse_size(s, &u) == 0) {
		char h[32];
		pl_fmt_bytes(h, sizeof(h), (double)u);
	}
	if (pl_parse_duration(s, &d) == 0)
		FUZZ_ASSERT(isfinite(d) && d >= 0, "pl_parse_duration gives a finite value >= 0");
	free(s);
	return 0;
}
