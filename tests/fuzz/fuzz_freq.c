/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench freq's parsers (bench/freq.h): /proc/cpuinfo "cpu MHz" per processor and a sysfs
 * PMU event description ("event=0x02"). Invariants: a MHz that parses is finite and
 * positive; an event config that parses reparses to the same value from its hex form. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/freq.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 20)
		return -1;
	char *s = fuzz_cstr(data, size);
	for (unsigned cpu = 0; cpu < 4; cpu++) {
		double mhz = -1;
		int r = pl_freq_cpuinfo_mhz(s, cpu, &mhz);
		FUZZ_ASSERT(r == 0 || r == -ENOENT || r == -EINVAL,
			    "cpuinfo: 0, -ENOENT or -EINVAL");
		if (r == 0)
			FUZZ_ASSERT(isfinite(mhz) && mhz > 0,
				    "a parsed MHz is finite and positive");
	}
	uint64_t cfg;
	if (pl_freq_event_config(s, &cfg) == 0) {
		char again[48];
		snprintf(again, sizeof(again), "event=0x%llx\n", (unsigned long long)cfg);
		uint64_t cfg2 = ~cfg;
		FUZZ_ASSERT(pl_freq_event_config(again, &cfg2) == 0 && cfg2 == cfg,
			    "an event config reparses from its hex form");
	}
	free(s);
	return 0;
}
