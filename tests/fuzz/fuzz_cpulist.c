/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CPU and node lists as sysfs prints them (util/cpuset.h): cpulists ("0-3,8"), hex
 * masks ("ff,00000001"), the online count, and the isolation parameters of the kernel
 * command line (isolcpus=, nohz_full=, bench/ticks.h). Invariant: a parsed list formats
 * to a canonical list that parses back to the same set; the count matches. */
#include <stdlib.h>
#include <string.h>

#include "bench/ticks.h"
#include "facts/collectors.h"
#include "fuzz.h"
#include "util/cpuset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 65536)
		return -1;
	char *s = fuzz_cstr(data, size);
	static struct pl_cpuset a, b;
	static char buf[PL_MAX_CPUS * 6];
	if (pl_cpuset_parse(s, &a) == 0) {
		pl_cpuset_format(&a, buf, sizeof(buf));
		FUZZ_ASSERT(pl_cpuset_parse(buf, &b) == 0, "formatted cpulist parses");
		FUZZ_ASSERT(memcmp(&a, &b, sizeof(a)) == 0, "cpulist round trip");
		FUZZ_ASSERT(pl_cpulist_count(s) == (int)pl_cpuset_count(&a), "count");
		unsigned n = 0;
		for (int c = pl_cpuset_next(&a, 0); c >= 0; c = pl_cpuset_next(&a, (unsigned)c + 1))
			n++;
		FUZZ_ASSERT(n == pl_cpuset_count(&a), "next() visits every member");
	}
	if (pl_cpuset_parse_mask(s, &a) == 0) {
		pl_cpuset_format(&a, buf, sizeof(buf));
		FUZZ_ASSERT(pl_cpuset_parse(buf, &b) == 0 && memcmp(&a, &b, sizeof(a)) == 0,
			    "mask formats to an equal cpulist");
	}
	pl_isolation_cpus(s, 64, &a);
	free(s);
	return 0;
}
