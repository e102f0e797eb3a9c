// SPDX-License-Identifier: GPL-3.0-or-later
// A plain pointer chase, the reference of benchmarks/memlat-vs-chase.sh: SIZE bytes of
// 64-byte lines linked into one random cycle (Sattolo's shuffle of an index array, a
// xorshift64 generator: written independently of perflab's memlat.c), one pass to warm,
// then LOADS dependent loads timed with CLOCK_MONOTONIC. Prints "ns per load X".
// usage: memlat-chase SIZE_BYTES LOADS
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	size_t bytes = strtoull(argv[1], NULL, 10), n = bytes / 64;
	unsigned long long loads = strtoull(argv[2], NULL, 10);
	char *buf = mmap(NULL, n * 64, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t *idx = malloc(n * sizeof(*idx));
	if (buf == MAP_FAILED || !idx || n < 2)
		return 1;
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	uint64_t x = 88172645463325252ull;
	for (size_t i = n - 1; i > 0; i--) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		size_t j = x % i, t = idx[i];
		idx[i] = idx[j], idx[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		*(void **)(buf + i * 64) = buf + idx[i] * 64;
	free(idx);
	void *p = buf;
	for (size_t i = 0; i < n && i < 1000000; i++)
		p = *(void **)p;
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (unsigned long long i = 0; i < loads; i++)
		p = *(void **)p;
	clock_gettime(CLOCK_MONOTONIC, &b);
	double ns = (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
	printf("ns per load %.4f (%p)\n", ns / (double)loads, p);
	return 0;
}
