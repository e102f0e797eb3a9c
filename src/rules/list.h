/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rule domains: one PL_RULE_DOMAIN(name) line per domain, in `check --list-rules`
 * order. Each line declares pl_rules_NAME[] and pl_rules_NAME_n, the table of
 * src/rules/NAME.c (domains.h), and lists it in pl_rule_tables[] (registry.c). This file is
 * also read by src/rules/meson.build, which compiles src/rules/NAME.c for every line that
 * starts with "PL_RULE_DOMAIN(". The comment above a line says what its rules cover. See
 * registry.c for how to add a domain. */
/** clocksource (xen vs tsc, hpet) */
PL_RULE_DOMAIN(clock)
/** governor, boost, C-states */
PL_RULE_DOMAIN(power)
/** nohz_full isolation, sched_latency_ns, irqbalance */
PL_RULE_DOMAIN(sched)
/** THP, swappiness, dirty limits, vfs_cache_pressure */
PL_RULE_DOMAIN(mem)
/** remote ratio, zone_reclaim_mode, numa_balancing, numad */
PL_RULE_DOMAIN(numa)
/** buffers, backlogs, congestion control, risky sysctls */
PL_RULE_DOMAIN(net)
/** I/O scheduler, read-ahead, nr_requests by device type */
PL_RULE_DOMAIN(block)
/** QAT and GPU present */
PL_RULE_DOMAIN(accel)
/** DIMM speed, channel population, mixed modules */
PL_RULE_DOMAIN(dimm)
/** degraded PCIe links, devices on a remote NUMA node */
PL_RULE_DOMAIN(pcie)
/** queue IRQ affinity, RPS, rings, coalescing */
PL_RULE_DOMAIN(nic)
/** kernel log events */
PL_RULE_DOMAIN(kmsg)
/** benchmark noise: auto-reboot, agents, timers, SMT, ASLR */
PL_RULE_DOMAIN(noise)
/** settings another setting makes ineffective */
PL_RULE_DOMAIN(conflict)
