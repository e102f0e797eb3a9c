/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The field report's loop (seeds/000): 10^8 gettimeofday() calls timed with
 * CLOCK_MONOTONIC, compiled with gcc -O2. Prints the elapsed time as the seed did, and
 * ns per call. Usage: seed-gettimeofday [CALLS] (default 100000000). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

#define BILLION 1000000000.0

int main(int argc, char **argv)
{
	long long calls = argc > 1 ? strtoll(argv[1], NULL, 10) : 100000000;
	if (calls <= 0) {
		fprintf(stderr, "seed-gettimeofday: CALLS must be a positive number\n");
		return 2;
	}
	struct timespec start, end;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (long long x = 0; x < calls; x++) {
		struct timeval tv;
		gettimeofday(&tv, NULL);
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	double diff_ns = (BILLION * (double)(end.tv_sec - start.tv_sec)) +
			 (double)(end.tv_nsec - start.tv_nsec);
	printf("Elapsed time is %.4f seconds\n", diff_ns / BILLION);
	printf("ns per call %.3f\n", diff_ns / (double)calls);
	return 0;
}
