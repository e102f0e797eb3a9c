/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Workload for benchmarks/profile-vs-perf.sh: ten functions with known weights
 * (20, 15, 12, 10, 9, 8, 7, 6, 5, 4 %) plus a syscall phase, frame pointers on. Prints
 * "elapsed_ns N" (CLOCK_MONOTONIC around the work) on stderr, so the overhead of a
 * profiler on the workload itself is measured, not its start-up or report.
 * usage: profile-workload [SCALE]   (SCALE 1 = about 1 s here) */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

volatile double sink;
#define FN(name)                                                                       \
	__attribute__((noinline)) void name(long n)                                    \
	{                                                                              \
		double x = 0;                                                          \
		for (long i = 0; i < n; i++)                                           \
			x += (double)i * 0.5;                                          \
		sink = x;                                                              \
	}
FN(w_alpha) FN(w_bravo) FN(w_charlie) FN(w_delta) FN(w_echo)
FN(w_foxtrot) FN(w_golf) FN(w_hotel) FN(w_india) FN(w_juliet)

int main(int argc, char **argv)
{
	double scale = argc > 1 ? strtod(argv[1], NULL) : 1.0;
	long u = (long)(100000 * scale);
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int r = 0; r < 40; r++) {
		w_alpha(20 * u); w_bravo(15 * u); w_charlie(12 * u); w_delta(10 * u);
		w_echo(9 * u); w_foxtrot(8 * u); w_golf(7 * u); w_hotel(6 * u);
		w_india(5 * u); w_juliet(4 * u);
		for (long i = 0; i < 200 * scale; i++) {
			int fd = open("/dev/null", O_RDONLY);
			if (fd >= 0)
				close(fd);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	fprintf(stderr, "elapsed_ns %lld\n",
		(long long)(b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec));
	return 0;
}
