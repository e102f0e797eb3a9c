/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The collector registry. To add a fact domain: write src/facts/DOMAIN.c exporting
 * pl_collect_DOMAIN() (declared in collectors.h), list it below and in meson.build
 * (docs/ARCHITECTURE.md, "How to add a fact", lists the tests and docs to update too).
 * Order matters only for humans: `inspect` prints domains in this order. */
#include "facts/collectors.h"

const struct pl_collector pl_collectors[] = {
	{ "virt", "hypervisor detection (sysfs, DMI, cpuid)", pl_collect_virt },
	{ "kernel", "kernel release, hostname and boot command line", pl_collect_kernel },
	{ "clocksource", "current and available clocksources", pl_collect_clocksource },
	{ "cpu", "CPU identity, ISA, topology (hwloc), caches, vulnerabilities", pl_collect_cpu },
	{ "cpufreq", "frequency driver, governors, boost, intel_pstate", pl_collect_cpufreq },
	{ "cpuidle", "idle driver, governor and C-states", pl_collect_cpuidle },
	{ "mem", "memory, swap, transparent and static huge pages", pl_collect_mem },
	{ "numa", "NUMA nodes, distances, remote allocation ratio", pl_collect_numa },
	{ "sysctl", "sysctls the rules read and the field reports tuned", pl_collect_sysctl },
	{ "block", "block devices and their queue settings", pl_collect_block },
	{ "fs", "tmpfs mounts", pl_collect_fs },
	{ "net", "network interfaces: MTU, speed, driver, queues", pl_collect_net },
	{ "services", "irqbalance, numad, tuned and its profile", pl_collect_services },
	{ "accel", "QAT and GPU devices on the PCI bus", pl_collect_accel },
	{ "dimm", "memory modules, channels and peak bandwidth (SMBIOS)", pl_collect_dimm },
	{ "pcie", "PCIe links of GPUs, NICs, NVMe, accelerators; NVIDIA", pl_collect_pcie },
	{ "kmsg", "kernel log: clocksource, throttling, MCE, lockups, timeouts", pl_collect_kmsg },
	{ "noise", "ASLR, auto-upgrades, timers, cloud agents, snapd, cron", pl_collect_noise },
};
const size_t pl_ncollectors = sizeof(pl_collectors) / sizeof(pl_collectors[0]);
