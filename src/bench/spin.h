/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The workload of bench spin, shared with benchmarks/harness-true.c so the harness
 * overhead check times exactly the same instructions outside perflab. */
#ifndef PERFLAB_BENCH_SPIN_H
#define PERFLAB_BENCH_SPIN_H
#include <stdint.h>

/** @n steps of a 64-bit linear congruential generator (Knuth's MMIX constants): a serial
 *  multiply-add dependency chain the compiler cannot shorten or vectorise, so its time
 *  is proportional to @n. Returns the final state (use it, or the loop is dropped). */
static inline uint64_t pl_spin_work(uint64_t n, uint64_t x)
{
	for (uint64_t i = 0; i < n; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x;
}

#endif
