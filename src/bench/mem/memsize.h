/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The default array size of `perflab bench mem` (STREAM), a pure function of what mem.c
 * reads (the last-level cache from hwloc or the sysroot's cpu facts, the CPU count, the
 * hypervisor flag of /proc/cpuinfo, MemAvailable of /proc/meminfo), so that the rule is
 * tested on synthetic machines (tests/bench/test_bench.c) as well as on fixture trees
 * (`perflab report --dry-run --sysroot DIR`, tests/bench/plan.sh). */
#ifndef PERFLAB_BENCH_MEMSIZE_H
#define PERFLAB_BENCH_MEMSIZE_H
#include <stdbool.h>
#include <stdint.h>

#include "util/str.h"

/** Share of MemAvailable that the three arrays may take by default (a fraction). */
#define PL_MEM_SHARE 0.6

/** The most last-level cache one CPU is taken to have in a virtual machine, in bytes:
 *  64 MiB, above the largest share per core that any part ships (AMD EPYC 9184X: 768 MiB
 *  of L3 for 16 cores, 48 MiB a core). KVM and Xen guests often see the host socket's L3
 *  through cpuid (this project's AMD EPYC guest: 2 x 508 MiB for 2 vCPUs), so a larger
 *  value per CPU is the host's, which the guest shares with the host's other tenants. */
#define PL_MEM_LLC_PER_CPU_MAX ((uint64_t)64 << 20)

/** What the default size is chosen from. */
struct pl_mem_sizing {
	uint64_t llc;	 /**< total last-level cache as reported, bytes; 0 = unknown */
	int level;	 /**< its cache level, 1..5 (meaningful when llc > 0) */
	unsigned count;	 /**< cache instances summed into llc (0 = unknown) */
	const char *src; /**< where llc came from ("hwloc", "the cpu facts"); static */
	unsigned cpus;	 /**< CPUs (hwloc PUs) of the machine; 0 = unknown */
	bool vm;	 /**< /proc/cpuinfo has the "hypervisor" flag */
	uint64_t avail;	 /**< MemAvailable in bytes; 0 = unknown (no memory cap) */
};

/** The chosen size and what it was chosen from. */
struct pl_mem_size {
	uint64_t bytes;	   /**< per array, page-aligned (4096) */
	uint64_t llc_used; /**< the LLC that STREAM's 4x rule was applied to, bytes (0 =
			      unknown: 256 MiB arrays) */
	bool llc_bounded;  /**< the reported LLC was above PL_MEM_LLC_PER_CPU_MAX x cpus in
			      a VM, so llc_used is that bound */
	bool mem_capped;   /**< the arrays were cut to PL_MEM_SHARE of MemAvailable */
};

/** bench mem's default size per array: STREAM's rule, each array at least 4x the total
 *  last-level cache (McCalpin, "STREAM: Sustainable Memory Bandwidth", run rules), where
 *  in a VM the LLC is taken as at most cpus x PL_MEM_LLC_PER_CPU_MAX; then capped so the
 *  three arrays take at most PL_MEM_SHARE of MemAvailable. 256 MiB when the LLC is
 *  unknown. One sentence saying why is appended to @why ("4x the total last-level cache
 *  (...)", "4x the last-level cache, capped (LLC reported 2 x L3 = 1016 MiB by hwloc,
 *  likely the host's in a virtual machine; taken as 128 MiB = 2 CPUs x 64 MiB)", "..., capped so
 * the three arrays take 60% of available memory (...)"). Pure: reads nothing. */
struct pl_mem_size pl_mem_default_size(const struct pl_mem_sizing *in, struct pl_buf *why);

/** The LLC sentence of a bounded VM reading alone, for notes that compare an explicit
 *  --size with 4x the LLC: "LLC reported 2 x L3 = 1016 MiB by hwloc, likely the host's in
 *  a virtual machine; taken as 128 MiB = 2 CPUs x 64 MiB". Appended to @why. */
void pl_mem_llc_bound_text(const struct pl_mem_sizing *in, uint64_t llc_used, struct pl_buf *why);

/** The LLC that STREAM's 4x rule applies to for @in: the reported one, or in a VM at most
 *  cpus x PL_MEM_LLC_PER_CPU_MAX. *@bounded tells which (may be NULL). */
uint64_t pl_mem_llc_used(const struct pl_mem_sizing *in, bool *bounded);

#endif
