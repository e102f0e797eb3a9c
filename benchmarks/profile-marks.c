/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Cost of the region markers (include/perflab/mark.h): N pl_region_begin/pl_region_end
 * pairs timed with CLOCK_THREAD_CPUTIME_ID (CPU time of this thread, so time the shared
 * machine gives to other work is not counted); prints "ns_per_call X active Y wall_ns_per_call Z".
 * Run alone (no-op path) and under `perflab profile` (ring path). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "perflab/mark.h"

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 10000000;
	pl_region_begin("warmup"); /* attach (first call) outside the timed loop */
	pl_region_end("warmup");
	struct timespec a, b, wa, wb;
	clock_gettime(CLOCK_MONOTONIC, &wa);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	for (long i = 0; i < n; i++) {
		pl_region_begin("loop");
		pl_region_end("loop");
	}
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	clock_gettime(CLOCK_MONOTONIC, &wb);
	double ns = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
	double wns = (double)(wb.tv_sec - wa.tv_sec) * 1e9 + (double)(wb.tv_nsec - wa.tv_nsec);
	printf("ns_per_call %.2f active %d wall_ns_per_call %.2f\n", ns / (2.0 * (double)n),
	       pl_mark_active(), wns / (2.0 * (double)n));
	return 0;
}
