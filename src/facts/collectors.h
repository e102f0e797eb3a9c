/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Collector entry points, one per fact domain of list.h (pl_collect_NAME() in
 * src/facts/NAME.c), and the parsers the collectors export for unit tests. To add a domain,
 * see registry.c. */
#ifndef PERFLAB_FACTS_COLLECTORS_H
#define PERFLAB_FACTS_COLLECTORS_H
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "facts/facts.h"

/* pl_collect_NAME(): fills the facts of domain NAME (the docstring is the comment above
 * its line in list.h). Never fails; never exits. */
#define PL_FACT(name, summary) void pl_collect_##name(struct pl_facts *f);
#include "facts/list.h"
#undef PL_FACT

/** The queue IRQs of interface @ifc in /proc/interrupts text @interrupts: the lines whose
 *  action name (last field) holds @ifc as a '-'-separated part ("i40e-eno1-TxRx-0"); when
 *  none, the device's MSI vectors @msi (IRQ numbers as strings, NULL-terminated, may be
 *  NULL) except ones named *config*, *async*, *admin*, *ctrl* (virtio, mlx5, nvme names).
 *  Returns a new array of {"irq": N, "name": S}. */
json_t *pl_net_queue_irqs(const char *interrupts, const char *ifc, const char *const *msi);

/** The DIMMs' theoretical peak bandwidth as facts say it (pl_dimm_peak_get). */
struct pl_dimm_peak {
	double gbps;	   /**< populated channels x configured MT/s x 8 B, in GB/s (10^9 B/s);
				0 when unknown */
	int64_t populated; /**< channels with a DIMM, -1 when unknown */
	int64_t total;	   /**< channels (slots' channels, empty ones included), -1 unknown */
	int64_t mts;	   /**< the configured MT/s shared by every populated channel, 0 when
				they differ or are unknown */
	const char *why;   /**< when gbps is 0: the reason (borrowed from @facts), else NULL */
};
/** Fill *@p from @facts, an object of facts in pl_facts_to_json form ({"dimm.KEY":
 *  {"value":V}|{"unavailable":"R"}}; a report's "facts"), using dimm.peak_bandwidth_gbps,
 *  dimm.channels.{populated,total} and dimm.channels. Returns true when the peak is known;
 *  false with p->why set (a fixed text when the facts say nothing). The one reading of the
 *  peak shared by `bench mem` and the report's key numbers. */
bool pl_dimm_peak_get(const json_t *facts, struct pl_dimm_peak *p);
/** "62.3 GB/s (2 channels x 3200 MT/s x 8 B, SMBIOS)" (channels x MT/s x 8 B without a
 *  shared speed) or "unknown: REASON". Returns a malloc'd string. */
char *pl_dimm_peak_text(const struct pl_dimm_peak *p);

/** One SMBIOS Memory Device (type 17; DMTF DSP0134 7.18). Strings owned (NULL when the
 *  structure has none); sizes in bytes, speeds in MT/s (0 = unknown). */
struct pl_dimm {
	char *locator;		 /**< Device Locator, the slot ("P1-DIMMA1") */
	char *bank_locator;	 /**< Bank Locator ("P0_Node0_Channel0_Dimm0") */
	char *manufacturer;	 /**< "Samsung" */
	char *part_number;	 /**< "M393A4K40DB3-CWE" */
	const char *type;	 /**< "DDR4", "DDR5", "Unknown" (static) */
	uint64_t size_bytes;	 /**< 0 = empty slot */
	bool unknown_size;	 /**< Size 0xFFFF: populated, size unknown */
	uint32_t speed_mts;	 /**< Speed: the module's rated maximum */
	uint32_t configured_mts; /**< Configured Memory Speed: what the controller runs */
	unsigned rank;		 /**< Attributes bits 3:0; 0 = unknown */
};
/** Parse the Memory Device structures of an SMBIOS structure table (@buf, @len bytes;
 *  the format of /sys/firmware/dmi/tables/DMI) into *out (malloc'd; free with
 *  pl_dimms_free) and *n, empty slots included. Every read is bounded by @len; parsing
 *  stops at the End-of-Table structure (type 127). Returns 0; -EINVAL when a structure is
 *  malformed (a length under 4, past the end, an unterminated string set): with *n > 0
 *  the structures before it are in *out, with none *out is untouched. */
int pl_smbios_dimms(const uint8_t *buf, size_t len, struct pl_dimm **out, size_t *n);
/** What a PCI class code (0xBBSSPP) is to perflab: "gpu" (VGA or 3D controller), "nic"
 *  (any network controller), "nvme" (0x0108xx), "accel" (processing accelerator 0x12,
 *  co-processor 0x0b40); NULL for anything else. Static string. */
const char *pl_pci_kind(unsigned cls);
/** A sysfs link speed ("8 GT/s", "16.0 GT/s PCIe") in GT/s; 0 when unknown ("Unknown"). */
double pl_pcie_speed_gts(const char *s);
/** /proc/driver/nvidia/gpus/BUS/information ("Model: \t NVIDIA A100...") as an object of
 *  lower-case, '_'-joined keys ("bus_location") to trimmed strings. Never NULL. */
json_t *pl_nvidia_info_parse(const char *text);

/** Kernel log events perflab counts (pl_kmsg_event_names gives their key names). */
enum pl_kmsg_event {
	PL_KMSG_CLOCKSOURCE_UNSTABLE,
	PL_KMSG_THERMAL,
	PL_KMSG_MCE,
	PL_KMSG_PERF_RATE,
	PL_KMSG_HUNG_TASK,
	PL_KMSG_SOFT_LOCKUP,
	PL_KMSG_NVME_TIMEOUT,
	PL_KMSG_SCSI_TIMEOUT,
	PL_KMSG_NEVENTS
};
/** "clocksource_unstable", "thermal_throttle", ... (the kmsg.NAME keys). */
extern const char *const pl_kmsg_event_names[PL_KMSG_NEVENTS];
/** Counts of one kernel log. */
struct pl_kmsg_stats {
	size_t records; /**< log records recognised */
	struct {
		size_t count;	/**< records of this event */
		double last_s;	/**< time of the last one, seconds since boot; -1 unknown */
		char last[256]; /**< its message, truncated */
	} ev[PL_KMSG_NEVENTS];
};
/** Count the events of @text: /dev/kmsg records ("6,1234,5678901,-;msg", continuation
 *  lines starting with a space skipped), syslog(2) / `dmesg -r` lines ("<6>[ 5.678] msg")
 *  or `dmesg` lines ("[ 5.678] msg"); lines of no such form and lines over 4095 bytes are
 *  ignored. Never fails. */
void pl_kmsg_parse(const char *text, struct pl_kmsg_stats *st);

/** The last value of the apt.conf(5) option @name ("APT::Periodic::Unattended-Upgrade")
 *  in @text, as written between double quotes ("1", "true"); NULL when not set. Returns a
 *  static buffer (valid until the next call); values over 63 bytes are ignored. */
const char *pl_apt_conf_get(const char *text, const char *name);
/** The comm of every readable /proc/PID (a NULL-terminated vector, pl_strv_free), or NULL
 *  with *err = -errno when /proc cannot be listed. */
char **pl_proc_comms(int *err);
/** True when a fact looks for processes with @comm: a daemon of services.* or what
 *  pl_noise_comm_watched() names. A snapshot keeps /proc/PID/comm only for those and
 *  PID 1. */
bool pl_proc_comm_watched(const char *comm);
/** True for the comm of a cloud agent, snapd or cron (noise.agents, noise.*.running). */
bool pl_noise_comm_watched(const char *comm);

/** Free @n DIMMs of @d and the array. NULL-safe. */
void pl_dimms_free(struct pl_dimm *d, size_t n);
/** The memory channel of @d from its slot name: the locator without its trailing slot
 *  number when a channel letter precedes it ("P1-DIMMA1" -> "P1-DIMMA", "CPU2_DIMM_C2"
 *  -> "CPU2_DIMM_C"); NULL when the name does not say ("A1", Dell's per-socket numbering;
 *  "DIMM 3"). A heuristic: vendors name slots freely. Returns a malloc'd string. */
char *pl_dimm_channel(const struct pl_dimm *d);

/** The integer value of option @name ("CONFIG_HZ") in kernel config text @text (the
 *  .config format of /proc/config.gz and /boot/config-RELEASE: "NAME=VALUE" lines, "#"
 *  comments, "# NAME is not set"), decimal or 0x hex (a leading 0 is decimal, not octal),
 *  into *out. A later line overrides an earlier one, as kconfig's loader does
 *  (scripts/kconfig/confdata.c), so the last assignment decides. Returns 0, -ENOENT when
 *  the option is absent or not set (or @name is 126 bytes or longer), -EINVAL when its
 *  last value is not an integer. */
int pl_kconfig_int(const char *text, const char *name, int64_t *out);

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
