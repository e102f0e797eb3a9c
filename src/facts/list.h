/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The fact domains: one PL_FACT(name, summary) line per domain, in `inspect` order (the
 * order of pl_collectors[]). Each line declares pl_collect_NAME(), the collector of
 * src/facts/NAME.c (collectors.h), and gives it its entry in pl_collectors[] (registry.c).
 * This file is also read by src/facts/meson.build, which compiles src/facts/NAME.c for
 * every line that starts with "PL_FACT(". The comment above a line is the docstring of
 * pl_collect_NAME(): the facts it sets. See registry.c for how to add a domain. */
/** virt.hypervisor and the evidence for it (virt.cpuid.signature, virt.dmi.*). */
PL_FACT(virt, "hypervisor detection (sysfs, DMI, cpuid)")
/** kernel.release, kernel.version, kernel.hostname, kernel.cmdline, kernel.cmdline.params. */
PL_FACT(kernel, "kernel release, hostname and boot command line")
/** clocksource.current, clocksource.available. */
PL_FACT(clocksource, "current and available clocksources")
/** cpu.vendor, cpu.model, cpu.online, cpu.sockets, cpu.cores, cpu.threads_per_core,
 *  cpu.tsc.invariant, cpu.isa, cpu.flags, cpu.cache.*, cpu.smt.*, cpu.vulnerabilities.*. */
PL_FACT(cpu, "CPU identity, ISA, topology (hwloc), caches, vulnerabilities")
/** cpufreq.driver, cpufreq.governor ("mixed" when CPUs differ), cpu.N.cpufreq.governor,
 *  cpufreq.boost, cpufreq.intel_pstate.*, cpufreq.min_khz/max_khz. */
PL_FACT(cpufreq, "frequency driver, governors, boost, intel_pstate")
/** cpuidle.driver, cpuidle.governor, cpuidle.states, cpuidle.intel_idle.max_cstate. */
PL_FACT(cpuidle, "idle driver, governor and C-states")
/** mem.total_bytes, mem.swap.total_bytes, mem.thp.*, mem.hugepages.*. */
PL_FACT(mem, "memory, swap, transparent and static huge pages")
/** numa.nodes, numa.distance, numa.node.N.{cpus,mem_bytes}, numa.remote_ratio. */
PL_FACT(numa, "NUMA nodes, distances, remote allocation ratio")
/** sysctl.NAME for every sysctl a rule reads plus the field reports' base list. */
PL_FACT(sysctl, "sysctls the rules read and the field reports tuned")
/** block.devices, block.DEV.{rotational,size_bytes,queue.scheduler,queue.schedulers,
 *  queue.read_ahead_kb,queue.nr_requests}. */
PL_FACT(block, "block devices and their queue settings")
/** fs.tmpfs.mounts (list of tmpfs mount points from /proc/mounts, each once: a mount point
 *  mounted twice or over counts as its last mount, as the kernel resolves it). */
PL_FACT(fs, "tmpfs mounts")
/** net.interfaces, net.IFACE.{mtu,speed_mbps,driver,queues,queues.tx,operstate,
 *  rps_queues,xps_queues,irqs,irq_cpus} and, live, net.IFACE.{ring,coalesce} (also for lo,
 *  to say it has none). */
PL_FACT(net, "network interfaces: MTU, speed, driver, queues")
/** services.NAME.running for irqbalance, numad, tuned...; services.tuned.profile. */
PL_FACT(services, "irqbalance, numad, tuned and its profile")
/** accel.qat.{devices,count}, accel.gpu.{devices,count}. */
PL_FACT(accel, "QAT and GPU devices on the PCI bus")
/** dimm.{slots,count,total_bytes,devices,channels,channels.total,channels.populated,
 *  peak_bandwidth_gbps} from SMBIOS type 17 (/sys/firmware/dmi/tables/DMI). */
PL_FACT(dimm, "memory modules, channels and peak bandwidth (SMBIOS)")
/** pcie.devices (GPU, NIC, NVMe and accelerator links), pcie.nvidia.{driver_version,gpus}. */
PL_FACT(pcie, "PCIe links of GPUs, NICs, NVMe, accelerators; NVIDIA")
/** kmsg.records and kmsg.EVENT ({count, last_s, last}) for each event of pl_kmsg_event. */
PL_FACT(kmsg, "kernel log: clocksource, throttling, MCE, lockups, timeouts")
/** noise.{aslr,unattended_upgrade.*,timers,agents,snapd.running,cron.running}: what wakes
 *  up during a benchmark or changes it between runs. */
PL_FACT(noise, "ASLR, auto-upgrades, timers, cloud agents, snapd, cron")
