/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Load-to-use latency by pointer chasing (bench mem --latency and the latency cells of
 * --numa-matrix): a buffer of 64-byte lines linked into one random cycle (Sattolo's
 * algorithm), so every load depends on the previous one and no prefetcher can guess the
 * next line; ns per load = elapsed / loads. The method of lmbench's lat_mem_rd with a
 * random instead of a fixed stride, as Intel MLC's idle latency. */
#ifndef PERFLAB_BENCH_MEMLAT_H
#define PERFLAB_BENCH_MEMLAT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/bench.h"

/** Bytes per node of the chase: one cache line. */
#define PL_CHASE_LINE 64

/** A pointer-chase buffer. */
struct pl_chase {
	void *mem;    /**< the lines; owned */
	size_t bytes; /**< allocated */
	size_t lines; /**< nodes in the cycle */
	int node;     /**< NUMA node it is bound to, -1 = the process policy */
	void *cursor; /**< where the next chase starts */
};

/** Allocate @bytes (rounded down to whole lines, at least 2) on NUMA node @node (-1: the
 *  process policy, mmap), with madvise(MADV_HUGEPAGE) when @huge, and link the lines into
 *  one random cycle seeded by @seed. Returns 0 or -ENOMEM / -EINVAL. */
int pl_chase_build(struct pl_chase *c, size_t bytes, int node, bool huge, uint64_t seed);
/** Follow the cycle @steps loads from c->cursor; returns the elapsed ns (CLOCK_MONOTONIC)
 *  and leaves the cursor where it stopped. */
uint64_t pl_chase_run(struct pl_chase *c, uint64_t steps);
/** Free what pl_chase_build() allocated. NULL-safe. */
void pl_chase_free(struct pl_chase *c);
/** Whether the lines form one cycle through all of them (for tests). */
bool pl_chase_is_one_cycle(const struct pl_chase *c);
/** The level a working set of @bytes fits in, from the per-core L1d and L2 sizes and the
 *  total L3 (0 = unknown): "L1", "L2", "L3" or "DRAM" (beyond the last known level).
 *  @l3_sure (bytes, 0 = all of @l3) is how much of @l3 is surely there: a VM's L3 fact is
 *  often the host's (memsize.h), and a set above @l3_sure but within @l3 is
 *  "L3 or DRAM". */
const char *pl_chase_level(uint64_t bytes, uint64_t l1, uint64_t l2, uint64_t l3, uint64_t l3_sure);

#endif

/* ---- bench mem --latency (the curve) ---- */

/** The curve's state (opaque). */
struct pl_memlat;
/** Set up the curve: working sets from 4 KiB doubling up to @max_bytes (0 = the first
 *  power of two beyond 4x the total L3 of the facts, or 256 MiB when unknown; capped so
 *  all sets together take at most @avail_share of @avail bytes), one chase each, on the
 *  first CPU of the run; a metric "latency SIZE" (ns per load) each, noted with its level
 *  (L1/L2/L3/DRAM from the facts' cache sizes). Returns 0 or -errno with the message set. */
int pl_memlat_setup(struct pl_bench_ctx *ctx, uint64_t max_bytes, bool huge, uint64_t avail,
		    double avail_share, struct pl_memlat **out);
/** One repetition: every working set, calibrated to about 20 ms of loads each. */
int pl_memlat_run(struct pl_bench_ctx *ctx, struct pl_memlat *m);
/** Free it. NULL-safe. */
void pl_memlat_free(struct pl_memlat *m);
/** Loads of one chase timed for about @target_ns (pl_bench_calibrate over the chase). */
double pl_chase_ns_per_load(struct pl_chase *c, uint64_t target_ns);
