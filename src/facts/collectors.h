/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Collector entry points (one per file in src/facts/) and the parsers they export for
 * unit tests. To add a domain: write src/facts/DOMAIN.c with pl_collect_DOMAIN(), declare
 * it here, add it to registry.c and src/facts/meson.build (docs/ARCHITECTURE.md, "How to
 * add a fact", lists every place, tests and docs included). */
#ifndef PERFLAB_FACTS_COLLECTORS_H
#define PERFLAB_FACTS_COLLECTORS_H
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "facts/facts.h"

/** kernel.release, kernel.version, kernel.hostname, kernel.cmdline, kernel.cmdline.params. */
void pl_collect_kernel(struct pl_facts *f);
/** clocksource.current, clocksource.available. */
void pl_collect_clock(struct pl_facts *f);
/** virt.hypervisor and the evidence for it (virt.cpuid.signature, virt.dmi.*). */
void pl_collect_virt(struct pl_facts *f);
/** cpu.vendor, cpu.model, cpu.online, cpu.sockets, cpu.cores, cpu.threads_per_core,
 *  cpu.tsc.invariant, cpu.isa, cpu.flags, cpu.cache.*, cpu.smt.*, cpu.vulnerabilities.*. */
void pl_collect_cpu(struct pl_facts *f);
/** cpufreq.driver, cpufreq.governor ("mixed" when CPUs differ), cpu.N.cpufreq.governor,
 *  cpufreq.boost, cpufreq.intel_pstate.*, cpufreq.min_khz/max_khz. */
void pl_collect_cpufreq(struct pl_facts *f);
/** cpuidle.driver, cpuidle.governor, cpuidle.states, cpuidle.intel_idle.max_cstate. */
void pl_collect_cpuidle(struct pl_facts *f);
/** mem.total_bytes, mem.swap.total_bytes, mem.thp.*, mem.hugepages.*. */
void pl_collect_mem(struct pl_facts *f);
/** numa.nodes, numa.distance, numa.node.N.{cpus,mem_bytes}, numa.remote_ratio. */
void pl_collect_numa(struct pl_facts *f);
/** sysctl.NAME for every sysctl a rule reads plus the field reports' base list. */
void pl_collect_sysctl(struct pl_facts *f);
/** block.devices, block.DEV.{rotational,size_bytes,queue.scheduler,queue.schedulers,
 *  queue.read_ahead_kb,queue.nr_requests}. */
void pl_collect_block(struct pl_facts *f);
/** fs.tmpfs.mounts (list of tmpfs mount points from /proc/mounts, each once: a mount point
 *  mounted twice or over counts as its last mount, as the kernel resolves it). */
void pl_collect_fs(struct pl_facts *f);
/** net.interfaces, net.IFACE.{mtu,speed_mbps,driver,queues,queues.tx,operstate}. */
void pl_collect_net(struct pl_facts *f);
/** services.NAME.running for irqbalance, numad, tuned...; services.tuned.profile. */
void pl_collect_services(struct pl_facts *f);
/** accel.qat.{devices,count}, accel.gpu.{devices,count}. */
void pl_collect_accel(struct pl_facts *f);

/** Parse a kernel command line (/proc/cmdline) into an object name -> value string, or
 *  true for a bare flag. Double quotes group ("a=\"x y\""), later duplicates win (as most
 *  early_param handlers do). Returns a new object; never NULL. */
json_t *pl_cmdline_parse(const char *cmdline);

/** Parse a sysfs list whose active entry is bracketed ("[mq-deadline] none", the format of
 *  queue/scheduler and THP's enabled). Returns the active entry as a malloc'd string or
 *  NULL when none is bracketed; *all (optional) gets a new array of every entry. */
char *pl_parse_bracket_list(const char *s, json_t **all);

/** The parts of /proc/cpuinfo perflab uses (first processor block; x86 and arm64
 *  formats). All strings owned; free with pl_cpuinfo_free(). */
struct pl_cpuinfo {
	char *vendor;	      /**< "GenuineIntel", "AuthenticAMD"; arm64: implementer name
				   ("ARM", "Ampere", "HiSilicon"...) or "0x.." when unknown */
	char *model;	      /**< "model name"; arm64: part name ("Neoverse-N1") */
	char **flags;	      /**< x86 "flags" / arm64 "Features", NULL-terminated */
	unsigned nprocessors; /**< number of "processor" entries */
	bool arm;	      /**< arm64 format (CPU implementer/Features) */
};
/** Parse /proc/cpuinfo text. Returns 0, or -EINVAL when it has no "processor" entry
 *  (garbage or truncated); @out is zeroed first and always safe to free. */
int pl_cpuinfo_parse(const char *text, struct pl_cpuinfo *out);
/** The text of /proc/cpuinfo (of the current sysroot) as a malloc'd copy in *out; read
 *  once per process and sysroot. Returns 0 or the -errno of the read. */
int pl_cpuinfo_read(char **out);
/** True when @flag is one of ci->flags. */
bool pl_cpuinfo_has_flag(const struct pl_cpuinfo *ci, const char *flag);
/** Free the strings of @ci. NULL-safe. */
void pl_cpuinfo_free(struct pl_cpuinfo *ci);

/** Parse a sysctl value as read from /proc/sys: one integer -> JSON integer; several
 *  whitespace-separated integers ("4096 131072 6291456") -> array of integers; anything
 *  else -> the trimmed string. Returns a new reference; never NULL. */
json_t *pl_sysctl_value_parse(const char *s);
/** Map a sysctl name ("net.ipv4.tcp_rmem") to its /proc/sys path in @buf. Returns 0 or
 *  -ENAMETOOLONG / -EINVAL (empty name, "..", or a '/' in the name). */
int pl_sysctl_path(const char *name, char *buf, size_t len);
/** Why @name (absent from /proc/sys) is missing on kernel @release ("6.6.0-..."), for the
 *  sysctls a kernel dropped or moved (kernel.sched_latency_ns: debugfs since 5.13,
 *  removed with EEVDF in 6.6; net.ipv4.tcp_tw_recycle: removed in 4.12). Returns a static
 *  string, or NULL when nothing is known. @release may be NULL. */
const char *pl_sysctl_removed_reason(const char *name, const char *release);

/** The running kernel's release ("6.1.0-18-amd64") from /proc/sys/kernel/osrelease, or
 *  the third word of /proc/version when /proc/sys is missing (containers). Returns a
 *  malloc'd string or NULL; *src (optional) gets the path it came from. */
char *pl_kernel_release(const char **src);

/** Parse "MAJOR.MINOR[.PATCH][-extra]" into major*65536+minor*256+min(patch,255).
 *  Returns -EINVAL when it does not start with two numbers. */
int pl_kernel_version_code(const char *release, uint32_t *out);

/** Look up "Key:   123 kB" in /proc/meminfo-style text (also node meminfo lines
 *  "Node 0 Key: 123 kB"). A "kB" suffix is multiplied by 1024, a bare number is returned
 *  as is (HugePages_Total). Returns 0, -ENOENT (no such key) or -EINVAL (not a number). */
int pl_meminfo_get(const char *text, const char *key, uint64_t *out);

/** Sum "local_node" and "other_node" of one numastat file (text) into *local and *other
 *  (added to). Returns 0, or -EINVAL when either field is missing or not a number. */
int pl_numastat_parse(const char *text, uint64_t *local, uint64_t *other);

/** One cpuidle state (sysfs cpuN/cpuidle/stateK). */
struct pl_idle_state {
	char *name;	      /**< "C1E", owned */
	int64_t latency_us;   /**< exit latency, microseconds; -1 when unreadable */
	int64_t residency_us; /**< target residency, microseconds; -1 when unreadable */
	bool disabled;	      /**< "disable" is 1 */
};
/** Read the cpuidle states of @cpu (sorted by state number) into *out (malloc'd, free
 *  each name and the array). Returns the count (0..), or -errno when the directory is
 *  missing. Unreadable fields become -1 / false, an unreadable name "stateK". */
int pl_cpuidle_read_states(unsigned cpu, struct pl_idle_state **out);

/** Count the online CPUs from a cpulist ("0-3,8"). Returns the count or -EINVAL. */
int pl_cpulist_count(const char *s);

#endif
