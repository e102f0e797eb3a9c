// SPDX-License-Identifier: GPL-3.0-or-later
// An independent clock reference for benchmarks/freq-vs-cpuinfo.sh: a dependent chain of
// 64-bit multiplies (imul r64, r64: 3 cycles of latency on Intel since Nehalem and on AMD
// Zen 1-4, Agner Fog's instruction tables), 100 per loop, so the core's clock is 3 x the
// multiplies per ns; another instruction and another latency than perflab's add chain, and
// written apart from it. Pins itself to CPU, spins WARM_MS to let the clock rise, then
// times MS of chain in chunks of about 0.1 ms with CLOCK_MONOTONIC and takes the median
// chunk: in a guest the host deschedules the vCPU (steal) while the clock runs on, and a
// chunk that was preempted is slow, not the core (as perflab's median chunk). Prints
// "MHz X". x86-64 only.
// usage: freq-imul CPU MS WARM_MS
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

#define MUL10                                                                                      \
	"imul %1, %0\n\timul %1, %0\n\timul %1, %0\n\timul %1, %0\n\timul %1, %0\n\t"              \
	"imul %1, %0\n\timul %1, %0\n\timul %1, %0\n\timul %1, %0\n\timul %1, %0\n\t"

// LOOPS loops of 100 dependent multiplies; returns the chain's value so nothing is dropped.
static uint64_t chain(uint64_t loops, uint64_t x)
{
	const uint64_t k = 0x9e3779b97f4a7c15ull; // odd: an odd x stays odd, never 0
	for (uint64_t i = 0; i < loops; i++)
		__asm__ volatile(MUL10 MUL10 MUL10 MUL10 MUL10 MUL10 MUL10 MUL10 MUL10 MUL10
				 : "+r"(x)
				 : "r"(k));
	return x;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(atoi(argv[1]), &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		return 1;
	double ms = atof(argv[2]), warm = atof(argv[3]);
	uint64_t x = 1;
	double t0 = now_ns();
	while (now_ns() - t0 < warm * 1e6)
		x = chain(1000, x);
	enum { CHUNK = 1000, MAXCH = 1 << 16 }; // 100,000 multiplies a chunk
	static double rate[MAXCH];		// multiplies per ns of each chunk
	size_t n = 0;
	double s = now_ns(), c = s;
	while (n < MAXCH && c - s < ms * 1e6) {
		x = chain(CHUNK, x);
		double e = now_ns();
		rate[n++] = 100.0 * CHUNK / (e - c);
		c = e;
	}
	qsort(rate, n, sizeof(rate[0]), cmp);
	printf("MHz %.1f\n", 3.0 * rate[n / 2] * 1e3);
	return x == 0; // never: keeps x live
}
