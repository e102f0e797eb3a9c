/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rule tables, one per domain file. To add a domain: write src/rules/DOMAIN.c defining
 * pl_rules_DOMAIN[] and pl_rules_DOMAIN_n, declare them here with PL_RULE_DOMAIN, list
 * them in registry.c and src/rules/meson.build, and add fires / does-not-fire cases for
 * every rule to tests/rules/test_rules.c (a test fails for a rule without both).
 * docs/ARCHITECTURE.md, "How to add a rule", lists every place, the man page included. */
#ifndef PERFLAB_RULES_DOMAINS_H
#define PERFLAB_RULES_DOMAINS_H
#include "rules/rules.h"

#define PL_RULE_DOMAIN(name)                                                                       \
	extern const struct pl_rule pl_rules_##name[];                                             \
	extern const size_t pl_rules_##name##_n

PL_RULE_DOMAIN(clock);	  /**< clocksource (xen vs tsc, hpet) */
PL_RULE_DOMAIN(power);	  /**< governor, boost, C-states */
PL_RULE_DOMAIN(sched);	  /**< nohz_full isolation, sched_latency_ns, irqbalance */
PL_RULE_DOMAIN(mem);	  /**< THP, swappiness, dirty limits, vfs_cache_pressure */
PL_RULE_DOMAIN(numa);	  /**< remote ratio, zone_reclaim_mode, numa_balancing, numad */
PL_RULE_DOMAIN(net);	  /**< buffers, backlogs, congestion control, risky sysctls */
PL_RULE_DOMAIN(block);	  /**< I/O scheduler, read-ahead, nr_requests by device type */
PL_RULE_DOMAIN(accel);	  /**< QAT and GPU present */
PL_RULE_DOMAIN(dimm);	  /**< DIMM speed, channel population, mixed modules */
PL_RULE_DOMAIN(pcie);	  /**< degraded PCIe links, devices on a remote NUMA node */
PL_RULE_DOMAIN(nic);	  /**< queue IRQ affinity, RPS, rings, coalescing */
PL_RULE_DOMAIN(kmsg);	  /**< kernel log events */
PL_RULE_DOMAIN(noise);	  /**< benchmark noise: auto-reboot, agents, timers, SMT, ASLR */
PL_RULE_DOMAIN(conflict); /**< settings another setting makes ineffective */

/** The evidence of remote-NUMA findings (numa.c): `bench mem --numa-matrix` copy bandwidth
 *  from node 0's CPUs to node 0's and node 1's memory. Shared by the numa and pcie rules. */
extern const struct pl_evidence pl_numa_copy_evidence;

#endif
