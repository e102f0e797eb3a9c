/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The true cost of bench spin's workload outside perflab: the same pl_spin_work() (from
 * src/bench/spin.h) run RUNS times, each timed with CLOCK_MONOTONIC; prints the median
 * and the minimum in ns. Usage: harness-true ITERS [RUNS] (default 1000). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench/spin.h"

static volatile uint64_t sink;

static uint64_t now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: harness-true ITERS [RUNS]\n");
		return 2;
	}
	uint64_t iters = strtoull(argv[1], NULL, 10);
	long runs = argc > 2 ? strtol(argv[2], NULL, 10) : 1000;
	if (iters == 0 || runs <= 0) {
		fprintf(stderr, "harness-true: ITERS and RUNS must be positive\n");
		return 2;
	}
	uint64_t *t = malloc((size_t)runs * sizeof(uint64_t));
	for (int i = 0; i < 5; i++) /* warm-up, as perflab's default */
		sink = pl_spin_work(iters, now());
	for (long i = 0; i < runs; i++) {
		uint64_t t0 = now();
		sink = pl_spin_work(iters, t0);
		t[i] = now() - t0;
	}
	qsort(t, (size_t)runs, sizeof(uint64_t), cmp);
	printf("%.1f %.1f\n",
	       runs % 2 ? (double)t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2.0,
	       (double)t[0]);
	free(t);
	return 0;
}
