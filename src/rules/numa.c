/* SPDX-License-Identifier: GPL-3.0-or-later */
/* NUMA rules: measured remote-access ratio (the MLPerf Storage field report saw ~80%
 * remote accesses), zone_reclaim_mode, and the daemons/kernel features that move pinned
 * HPC work around (numad, automatic NUMA balancing). All need more than one node. */
#include <stdbool.h>
#include <stdio.h>

#include "rules/domains.h"
#include "rules/predicates.h"

/* Remote share above which placement is worth fixing: with first-touch allocation and
 * threads staying on their node, well-placed work stays far below it. */
#define REMOTE_RATIO_MAX 0.20

static bool multi_node(const struct pl_facts *f)
{
	int64_t n;
	return pl_rf_numa_nodes(f, &n) && n > 1;
}

static void eval_remote_ratio(const struct pl_rule *r, const struct pl_facts *f,
			      struct pl_findings *out)
{
	double ratio;
	if (!multi_node(f) || !pl_rf_num(f, "numa.remote_ratio", &ratio) ||
	    ratio <= REMOTE_RATIO_MAX)
		return;
	char obs[96], exp[64];
	snprintf(obs, sizeof(obs), "%.0f%% of page allocations were remote (numa_other)",
		 ratio * 100);
	snprintf(exp, sizeof(exp), "<= %.0f%%", REMOTE_RATIO_MAX * 100);
	pl_finding_add(out, r, NULL, obs, exp);
}

static void eval_multi_node(const struct pl_rule *r, const struct pl_facts *f,
			    struct pl_findings *out)
{
	if (multi_node(f))
		pl_pred_above(r, f, out);
}

static void eval_numad(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	bool running;
	if (!multi_node(f) || !pl_rf_running(f, "numad", &running) || !running)
		return;
	pl_finding_add(out, r, NULL, "numad running",
		       "numad stopped when work is pinned explicitly");
}

/* Evidence: copy bandwidth and load latency from node 0's CPUs to its own memory and to
 * node 1's (bench mem --numa-matrix: bandwidth and pointer-chase latency cells). */
static const char *const numa_argv[] = { "--numa-matrix", NULL };
static const char *const numa_metrics[] = { "copy cpu0 mem0", "copy cpu0 mem1", "latency cpu0 mem0",
					    "latency cpu0 mem1", NULL };
const struct pl_evidence pl_numa_copy_evidence = {
	.bench = "mem",
	.argv = numa_argv,
	.metrics = numa_metrics,
	.text = "STREAM copy from node 0's CPUs runs at {1} on local memory and {2} on "
		"node 1's memory; a dependent load takes {3} and {4}",
};

static const char *const remote_keys[] = { "numa.remote_ratio", "numa.nodes", NULL };
static const char *const zone_reclaim_keys[] = { "sysctl.vm.zone_reclaim_mode", "numa.nodes",
						 NULL };
static const char *const balancing_keys[] = { "sysctl.kernel.numa_balancing", "numa.nodes", NULL };
static const char *const numad_keys[] = { "services.numad.running", "numa.nodes", NULL };

const struct pl_rule pl_rules_numa[] = {
	{
		.id = "numa.remote-ratio",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_WARN,
		.keys = remote_keys,
		.eval = eval_remote_ratio,
		.title = "many memory allocations land on a remote NUMA node",
		.rationale =
			"numa_other counts pages a process got from another node than the one "
			"it ran on. Remote memory has higher latency and, across sockets, a "
			"fraction of the local bandwidth (the MLPerf Storage field report: ~80% "
			"remote accesses, cross-socket copies at 48 vs 37/28 GB/s). Bind "
			"threads and their memory to one node (numactl, taskset, cpusets) and "
			"measure with perflab bench mem. The counters are since boot.",
		.source = "Documentation/admin-guide/numastat.rst; numactl(8)",
		.fix_command = "numactl --cpunodebind=NODE --membind=NODE -- COMMAND",
		.fix_tune = NULL,
		.evidence = &pl_numa_copy_evidence,
	},
	{
		.id = "numa.zone-reclaim",
		.workloads = PL_WL_ALL & ~PL_WL_HPC,
		.severity = PL_SEV_WARN,
		.keys = zone_reclaim_keys,
		.eval = eval_multi_node,
		.limit = 0,
		.expect = "0 (allocate from other nodes before reclaiming)",
		.title = "zone_reclaim_mode reclaims local memory instead of using other nodes",
		.rationale =
			"With zone_reclaim_mode on, a node that runs out of free memory drops "
			"its own page cache (or writes and swaps) before allocating from another "
			"node, so file servers and caches lose their cache while other nodes "
			"sit idle. The kernel documentation recommends leaving it off for "
			"workloads that benefit from caching; only pinned HPC codes gain "
			"(tuned hpc-compute sets 1).",
		.source = "Documentation/admin-guide/sysctl/vm.rst (zone_reclaim_mode)",
		.fix_command = "sysctl -w vm.zone_reclaim_mode=0",
		.fix_tune = "[sysctl] vm.zone_reclaim_mode=0",
	},
	{
		.id = "numa.balancing-pinned",
		.workloads = PL_WL_HPC | PL_WL_LATENCY | PL_WL_NETWORK,
		.severity = PL_SEV_WARN,
		.keys = balancing_keys,
		.eval = eval_multi_node,
		.limit = 0,
		.expect = "0 for pinned work",
		.title = "automatic NUMA balancing is on for pinned or latency-sensitive work",
		.rationale =
			"NUMA balancing periodically unmaps pages to take hinting faults and "
			"migrates pages and tasks between nodes. Work that is already pinned "
			"(MPI ranks, numactl) pays the faults and migrations for nothing, and "
			"latency-sensitive threads see the fault stalls. tuned hpc-compute and "
			"network-latency set 0.",
		.source = "Documentation/admin-guide/sysctl/kernel.rst (numa_balancing); tuned "
			  "hpc-compute and network-latency",
		.fix_command = "sysctl -w kernel.numa_balancing=0",
		.fix_tune = "[sysctl] kernel.numa_balancing=0",
	},
	{
		.id = "numa.numad-hpc",
		.workloads = PL_WL_HPC,
		.severity = PL_SEV_WARN,
		.keys = numad_keys,
		.eval = eval_numad,
		.title = "numad is running under pinned HPC work",
		.rationale = "numad rebinds long-running processes to the nodes it chooses and "
			     "migrates their memory. With explicit binding (numactl, mpirun "
			     "--bind-to) it fights the placement the job asked for; the SPEC CPU "
			     "field report had to decide between numad and its own NUMA binding.",
		.source = "numad(8); Red Hat Enterprise Linux 7 Performance Tuning Guide, "
			  "'Automatic NUMA affinity management with numad'",
		.fix_command = "systemctl disable --now numad",
		.fix_tune = "[service] service.numad=stop,disable",
	},
};
const size_t pl_rules_numa_n = sizeof(pl_rules_numa) / sizeof(pl_rules_numa[0]);
