/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Virtual memory rules: transparent huge pages, swappiness, dirty page cache limits and
 * the dentry/inode cache pressure. Values follow tuned's profiles and the GPU-instance
 * field report's sysctl list; meanings from Documentation/admin-guide/sysctl/vm.rst and
 * Documentation/admin-guide/mm/transhuge.rst. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "rules/domains.h"
#include "rules/predicates.h"

static void eval_thp_str(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out,
			 const char *key, const char *bad, const char *expected)
{
	const char *v = pl_facts_get_str(f, key);
	if (!v || strcmp(v, bad) != 0)
		return;
	char obs[96];
	snprintf(obs, sizeof(obs), "%s = %s", key, v);
	pl_finding_add(out, r, NULL, obs, expected);
}

static void eval_thp_latency(const struct pl_rule *r, const struct pl_facts *f,
			     struct pl_findings *out)
{
	eval_thp_str(r, f, out, "mem.thp.enabled", "always", "madvise or never");
}

static void eval_thp_defrag(const struct pl_rule *r, const struct pl_facts *f,
			    struct pl_findings *out)
{
	eval_thp_str(r, f, out, "mem.thp.defrag", "always", "madvise or defer+madvise");
}

static void eval_thp_hpc(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	eval_thp_str(r, f, out, "mem.thp.enabled", "never", "always (or madvise)");
}

/* Swappiness matters only with swap configured. */
static void eval_swappiness(const struct pl_rule *r, const struct pl_facts *f,
			    struct pl_findings *out)
{
	int64_t swap;
	if (!pl_rf_int(f, "mem.swap.total_bytes", &swap) || swap == 0)
		return;
	pl_pred_above(r, f, out);
}

/* vm.dirty_bytes / dirty_background_bytes, when set, replace the ratios (the kernel then
 * reads the ratios as 0). */
static bool dirty_bytes_set(const struct pl_facts *f)
{
	int64_t b = 0, bb = 0;
	pl_rf_int(f, "sysctl.vm.dirty_bytes", &b);
	pl_rf_int(f, "sysctl.vm.dirty_background_bytes", &bb);
	return b > 0 || bb > 0;
}

static void eval_dirty(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out,
		       bool want_low)
{
	int64_t ratio, bg;
	if (!pl_rf_int(f, "sysctl.vm.dirty_ratio", &ratio) ||
	    !pl_rf_int(f, "sysctl.vm.dirty_background_ratio", &bg) || dirty_bytes_set(f))
		return;
	bool fire = want_low ? (ratio > 10 || bg > 5) : ratio < 40;
	if (!fire)
		return;
	char obs[128];
	snprintf(obs, sizeof(obs),
		 "vm.dirty_ratio = %" PRId64 ", vm.dirty_background_ratio = %" PRId64, ratio, bg);
	pl_finding_add(out, r, NULL, obs, r->expect);
}

static void eval_dirty_latency(const struct pl_rule *r, const struct pl_facts *f,
			       struct pl_findings *out)
{
	eval_dirty(r, f, out, true);
}

static void eval_dirty_throughput(const struct pl_rule *r, const struct pl_facts *f,
				  struct pl_findings *out)
{
	eval_dirty(r, f, out, false);
}

static const char *const thp_keys[] = { "mem.thp.enabled", NULL };
static const char *const thp_defrag_keys[] = { "mem.thp.defrag", NULL };
static const char *const swappiness_keys[] = { "sysctl.vm.swappiness", "mem.swap.total_bytes",
					       NULL };
static const char *const dirty_keys[] = { "sysctl.vm.dirty_ratio",
					  "sysctl.vm.dirty_background_ratio",
					  "sysctl.vm.dirty_bytes",
					  "sysctl.vm.dirty_background_bytes", NULL };
static const char *const vfs_keys[] = { "sysctl.vm.vfs_cache_pressure", NULL };

/* Evidence of the HPC THP rule: STREAM Triad here, and the data TLB's miss rate counted
 * while it ran (the misses huge pages would save). */
static const char *const triad_metrics[] = { "triad", NULL };
static const struct pl_evidence thp_evidence = {
	.bench = "mem",
	.metrics = triad_metrics,
	.text = "STREAM Triad reaches {1} here",
	.counter = "dtlb_miss_rate",
	.counter_unit = "%",
	.counter_label = "dTLB misses",
	.counter_text = "dTLB load misses were {c} of dTLB loads while it ran",
};

const struct pl_rule pl_rules_mem[] = {
	{
		.id = "mem.thp-latency",
		.workloads = PL_WL_LATENCY | PL_WL_NETWORK,
		.severity = PL_SEV_WARN,
		.keys = thp_keys,
		.eval = eval_thp_latency,
		.title = "transparent huge pages are always on for latency-sensitive work",
		.rationale = "With THP 'always' every large anonymous mapping gets huge pages, so "
			     "page faults may compact memory and khugepaged collapses pages in the "
			     "background: both add millisecond stalls at unpredictable times, and "
			     "sparse access patterns waste memory. 'madvise' keeps huge pages for "
			     "the programs that ask (JVMs, databases with the option). tuned's "
			     "network-latency profile sets never.",
		.source = "Documentation/admin-guide/mm/transhuge.rst; tuned network-latency "
			  "([vm] transparent_hugepages=never)",
		.fix_command = "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled",
		.fix_tune = "[vm] transparent_hugepages=madvise",
	},
	{
		.id = "mem.thp-defrag",
		.workloads = PL_WL_LATENCY | PL_WL_NETWORK | PL_WL_GENERAL,
		.severity = PL_SEV_WARN,
		.keys = thp_defrag_keys,
		.eval = eval_thp_defrag,
		.title = "THP defrag is 'always': page faults stall in direct compaction",
		.rationale =
			"defrag=always makes every THP page fault that finds no free huge page "
			"reclaim and compact memory synchronously, stalling the faulting thread; "
			"the kernel default 'madvise' does that only for madvise(MADV_HUGEPAGE) "
			"regions, and 'defer+madvise' wakes kcompactd for the rest.",
		.source = "Documentation/admin-guide/mm/transhuge.rst (defrag)",
		.fix_command = "echo madvise > /sys/kernel/mm/transparent_hugepage/defrag",
		.fix_tune = "[sysfs] /sys/kernel/mm/transparent_hugepage/defrag=madvise",
	},
	{
		.id = "mem.thp-hpc",
		.workloads = PL_WL_HPC,
		.severity = PL_SEV_INFO,
		.keys = thp_keys,
		.eval = eval_thp_hpc,
		.title = "transparent huge pages are disabled for HPC work",
		.rationale =
			"Large dense arrays walked by HPC codes miss the TLB often with 4 KiB "
			"pages; 2 MiB pages cover 512 times more memory per TLB entry. tuned's "
			"hpc-compute profile sets always.",
		.source = "Documentation/admin-guide/mm/transhuge.rst; tuned hpc-compute ([vm] "
			  "transparent_hugepages=always)",
		.fix_command = "echo always > /sys/kernel/mm/transparent_hugepage/enabled",
		.fix_tune = "[vm] transparent_hugepages=always",
		.evidence = &thp_evidence,
	},
	{
		.id = "mem.swappiness",
		.workloads = PL_WL_TUNED,
		.severity = PL_SEV_INFO,
		.keys = swappiness_keys,
		.eval = eval_swappiness,
		.limit = 10,
		.expect = "<= 10",
		.title = "vm.swappiness is high for a performance workload",
		.rationale =
			"swappiness sets how readily the kernel swaps anonymous memory out "
			"instead of dropping page cache (default 60). A working set paged out "
			"to make room for cache costs a major fault per page when it is touched "
			"again. All tuned performance profiles set 10, as does the GPU-instance "
			"field report. Only relevant when swap is configured.",
		.source = "Documentation/admin-guide/sysctl/vm.rst (swappiness); tuned "
			  "throughput-performance and latency-performance",
		.fix_command = "sysctl -w vm.swappiness=10",
		.fix_tune = "[sysctl] vm.swappiness=10",
	},
	{
		.id = "mem.dirty-latency",
		.workloads = PL_WL_LATENCY,
		.severity = PL_SEV_INFO,
		.keys = dirty_keys,
		.eval = eval_dirty_latency,
		.expect = "vm.dirty_ratio <= 10, vm.dirty_background_ratio <= 5",
		.title = "dirty page cache limits allow long writeback stalls",
		.rationale =
			"Writers are throttled once dirty pages reach dirty_ratio percent of "
			"available memory (default 20) and background writeback starts at "
			"dirty_background_ratio (default 10). On large-memory machines that is "
			"gigabytes flushed in bursts that stall writers and compete for I/O. "
			"tuned latency-performance uses 10/3, the GPU-instance field report "
			"10/5.",
		.source = "Documentation/admin-guide/sysctl/vm.rst (dirty_ratio, "
			  "dirty_background_ratio); tuned latency-performance",
		.fix_command = "sysctl -w vm.dirty_ratio=10 vm.dirty_background_ratio=3",
		.fix_tune = "[sysctl] vm.dirty_ratio=10\n[sysctl] vm.dirty_background_ratio=3",
	},
	{
		.id = "mem.dirty-throughput",
		.workloads = PL_WL_THROUGHPUT,
		.severity = PL_SEV_INFO,
		.keys = dirty_keys,
		.eval = eval_dirty_throughput,
		.expect = "vm.dirty_ratio >= 40, vm.dirty_background_ratio = 10",
		.title = "dirty page cache limit is low for throughput work",
		.rationale = "For batch and throughput work a larger dirty limit lets writers run "
			     "ahead of the disks and lets writeback merge more I/O; writers are "
			     "throttled only at dirty_ratio. tuned throughput-performance uses "
			     "40/10. Not for latency-sensitive machines (see mem.dirty-latency).",
		.source = "Documentation/admin-guide/sysctl/vm.rst (dirty_ratio); tuned "
			  "throughput-performance",
		.fix_command = "sysctl -w vm.dirty_ratio=40 vm.dirty_background_ratio=10",
		.fix_tune = "[sysctl] vm.dirty_ratio=40\n[sysctl] vm.dirty_background_ratio=10",
	},
	{
		.id = "mem.vfs-cache-pressure-zero",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_WARN,
		.keys = vfs_keys,
		.eval = pl_pred_equals,
		.limit = 0,
		.expect = "> 0 (default 100; 50 keeps more dentries and inodes)",
		.risky = true,
		.title = "vm.vfs_cache_pressure = 0: dentries and inodes are never reclaimed",
		.rationale =
			"Risky: with 0 the kernel never reclaims dentries and inodes under "
			"memory pressure, which the kernel documentation warns 'can easily lead "
			"to out-of-memory conditions' on machines touching many files.",
		.source = "Documentation/admin-guide/sysctl/vm.rst (vfs_cache_pressure)",
		.fix_command = "sysctl -w vm.vfs_cache_pressure=50",
		.fix_tune = "[sysctl] vm.vfs_cache_pressure=50",
	},
	{
		.id = "mem.vfs-cache-pressure",
		.workloads = PL_WL_STORAGE,
		.severity = PL_SEV_INFO,
		.keys = vfs_keys,
		.eval = pl_pred_above,
		.limit = 50,
		.expect = "<= 50",
		.title = "dentry/inode caches are reclaimed as eagerly as page cache",
		.rationale =
			"For file and metadata-heavy work (many small files, the MLPerf Storage "
			"field report's metadata latency) keeping dentries and inodes cached "
			"saves path lookups and inode reads; values below 100 make the kernel "
			"prefer to keep them. The GPU-instance field report sets 50.",
		.source = "Documentation/admin-guide/sysctl/vm.rst (vfs_cache_pressure)",
		.fix_command = "sysctl -w vm.vfs_cache_pressure=50",
		.fix_tune = "[sysctl] vm.vfs_cache_pressure=50",
	},
};
const size_t pl_rules_mem_n = sizeof(pl_rules_mem) / sizeof(pl_rules_mem[0]);
