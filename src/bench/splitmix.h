/* SPDX-License-Identifier: GPL-3.0-or-later */
/* splitmix64, the seeded generator of the io, net and compress benchmarks (offsets,
 * corpora, failure injection): fast, 64-bit state, passes BigCrush; from Steele, Lea and
 * Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014. */
#ifndef PERFLAB_BENCH_SPLITMIX_H
#define PERFLAB_BENCH_SPLITMIX_H
#include <stdint.h>

/** Advance *@state and return the next 64 random bits. */
static inline uint64_t pl_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/** A uniform double in [0, 1) (the top 53 bits). */
static inline double pl_splitmix_unit(uint64_t *state)
{
	return (double)(pl_splitmix64(state) >> 11) / 9007199254740992.0;
}

#endif
