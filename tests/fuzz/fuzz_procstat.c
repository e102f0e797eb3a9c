/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The /proc text tables perflab reads numbers from: /proc/interrupts (bench ticks),
 * /proc/stat (bench environment: busy and steal time), /proc/meminfo and node meminfo,
 * numastat. The first byte picks the CPU (column) asked for; the rest is the file.
 * Invariants: busy and steal never exceed total. */
#include <stdlib.h>

#include "bench/env.h"
#include "bench/ticks.h"
#include "facts/collectors.h"
#include "fuzz.h"
#include "util/cpuset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 1 << 20)
		return -1;
	unsigned cpu = data[0] % 8;
	char *s = fuzz_cstr(data + 1, size - 1);
	struct pl_irq_counts irq;
	if (pl_irq_parse(s, cpu, &irq) == 0)
		FUZZ_ASSERT(irq.timer_row != NULL, "a timer row is named");
	struct pl_cpuset set;
	pl_cpuset_clear(&set);
	pl_cpuset_set(&set, cpu);
	pl_cpuset_set(&set, cpu + 1);
	struct pl_cpustat st;
	if (pl_cpustat_parse(s, &set, &st) == 0) {
		FUZZ_ASSERT(st.ncpus >= 1 && st.ncpus <= 2, "rows of the set only, once each");
		FUZZ_ASSERT(st.busy <= st.total && st.steal <= st.total, "parts within the total");
	}
	uint64_t v, local = 0, other = 0;
	static const char *const keys[] = { "MemTotal", "SwapTotal", "HugePages_Total",
					    "Hugepagesize", "MemFree" };
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		pl_meminfo_get(s, keys[k], &v);
	pl_numastat_parse(s, &local, &other);
	free(s);
	return 0;
}
