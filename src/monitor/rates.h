/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab monitor: one interval's rates and percentages from two snapshots (proc.h), as
 * sar, mpstat -P ALL, iostat -x and sar -n DEV compute them. A counter that went down
 * between the snapshots (a 32-bit /proc/interrupts count that wrapped, a counter reset
 * by a driver reload, a NO_HZ idle/iowait glitch) gives no rate (NaN, JSON null) and
 * marks the interval (PL_MON_F_RESET with the group); a CPU that went offline or came
 * online marks it PL_MON_F_CPUS_CHANGED and only the CPUs present at both ends are
 * counted. A rate is never negative. */
#ifndef PERFLAB_MONITOR_RATES_H
#define PERFLAB_MONITOR_RATES_H
#include <stdbool.h>
#include <stddef.h>

#include "monitor/proc.h"
#include "util/cpuset.h"

/** Interval flags. */
enum {
	PL_MON_F_CPUS_CHANGED = 1u << 0, /**< the set of online CPUs changed */
	PL_MON_F_RESET = 1u << 1,	 /**< some counter went down: see reset_groups */
};
/** Counter groups named in reset_groups (bit i = pl_mon_group_names[i]). */
enum {
	PL_MON_G_CPU,
	PL_MON_G_STAT,
	PL_MON_G_IRQ,
	PL_MON_G_SOFTIRQ,
	PL_MON_G_VM,
	PL_MON_G_PSI,
	PL_MON_G_DISK,
	PL_MON_G_NET,
	PL_MON_G_TCP,
	PL_MON_G_ACCEL,
	PL_MON_G_N,
};
/** "cpu", "stat", "interrupts", "softirqs", "vmstat", "pressure", "disk", "net", "tcp", "accel". */
extern const char *const pl_mon_group_names[PL_MON_G_N];

/** CPU time shares over the interval, % of the CPU's ticks (mpstat's columns: user
 *  without guest time, nice without guest_nice). busy = 100 - idle - iowait. */
struct pl_mon_cpupct {
	int cpu; /**< CPU number, -1 for all CPUs together */
	double user, nice, system, iowait, irq, softirq, steal, guest, idle, busy;
	double irq_per_s, softirq_per_s; /**< this CPU's interrupts and softirqs per second */
};

/** A named source of interrupts or softirqs and its rate over all CPUs. */
struct pl_mon_source {
	char name[80]; /**< "24 virtio0-input.0", "LOC Local timer interrupts", "NET_RX" */
	double per_s;
};

/** iostat -x's columns for one disk. MB = 10^6 bytes. */
struct pl_mon_disk_rate {
	char *name;		       /**< malloc'd (freed with the rates), the whole name */
	double r_per_s, w_per_s;       /**< completed reads, writes per second */
	double read_Bps, write_Bps;    /**< bytes per second (sectors of 512 B) */
	double aqu_sz;		       /**< average queue depth (weighted ms / elapsed ms) */
	double r_await_ms, w_await_ms; /**< mean time per read, write (NaN: no I/O) */
	double util_pct;	       /**< % of the interval with I/O in flight */
};

/** sar -n DEV's columns for one interface. */
struct pl_mon_net_rate {
	char *name; /**< malloc'd (freed with the rates), the whole name */
	double rx_pps, tx_pps, rx_Bps, tx_Bps, rx_drop_per_s, tx_drop_per_s, rx_err_per_s,
		tx_err_per_s;
};

/** One QAT device's firmware request rates over the interval (fw_counters deltas, summed
 *  over its engines). NaN when a counter went down (device reset: group "accel"). */
struct pl_mon_qat_rate {
	char *name; /**< malloc'd (freed with the rates), the whole name */
	double requests_per_s, responses_per_s;
	double ras_events_per_s; /**< NaN also when the kernel has no RAS Events rows */
	/** telemetry at the end of the interval (levels the driver computed, accel.h) */
	bool has_tl;
	struct pl_mon_qat_tl tl;
	bool has_rp[PL_MON_QAT_RP];
	struct pl_mon_qat_tl rp[PL_MON_QAT_RP];
};

/** Most sources listed per interval in irq_top. */
#define PL_MON_TOP 5
/** Softirq kinds kept (the kernel has 10: HI ... RCU). */
#define PL_MON_SOFTIRQ_MAX 16

/** One interval. NaN = not available (the file is absent, or a counter reset). Free with
 *  pl_mon_rates_free(). */
struct pl_mon_rates {
	double t_s;  /**< end of the interval, seconds since the first snapshot */
	double dt_s; /**< length of the interval (CLOCK_MONOTONIC) */
	unsigned flags;
	unsigned reset_groups; /**< bit PL_MON_G_* for each group with a counter that went down */
	struct pl_mon_cpupct all; /**< all CPUs (cpu = -1) */
	size_t ncpu;
	struct pl_mon_cpupct *cpu;	/**< malloc'd: the selected CPUs online at both ends */
	double load[3];			/**< load averages at the end */
	double running, tasks, blocked; /**< runnable tasks, all tasks, blocked on I/O (end) */
	double ctxt_per_s, forks_per_s;
	double irq_per_s, softirq_per_s; /**< all CPUs */
	size_t nirq_top;
	struct pl_mon_source irq_top[PL_MON_TOP]; /**< highest rates first */
	size_t nsoftirq;
	struct pl_mon_source softirq[PL_MON_SOFTIRQ_MAX]; /**< every kind, file order */
	/* memory: levels at the end (bytes) and event rates */
	double mem_total, mem_free, mem_available, mem_cached, mem_dirty, mem_writeback, swap_used;
	double minflt_per_s, majflt_per_s, swapin_per_s, swapout_per_s;
	double thp_alloc_per_s, compact_stall_per_s;
	double numa_hit_per_s, numa_miss_per_s, numa_local_per_s, numa_other_per_s;
	double numa_remote_ratio; /**< numa_other / (numa_local + numa_other) of the interval's
				       page allocations, 0..1 (numastat.rst; allocations, not
				       memory accesses); NaN without allocations or NUMA */
	/* pressure: % of the interval stalled (from the total= counters) and avg10 */
	bool psi_present[PL_MON_PSI_N];
	double psi_some_pct[PL_MON_PSI_N], psi_full_pct[PL_MON_PSI_N];
	double psi_some_avg10[PL_MON_PSI_N];
	size_t ndisk;
	struct pl_mon_disk_rate *disk; /**< malloc'd */
	size_t nnet;
	struct pl_mon_net_rate *net; /**< malloc'd */
	double tcp_outsegs_per_s, tcp_retrans_per_s, listen_overflows_per_s, listen_drops_per_s;
	size_t nqat;
	struct pl_mon_qat_rate *qat; /**< malloc'd: devices present at both ends */
	size_t ngpu;
	struct pl_mon_gpu *gpu; /**< malloc'd: the GPUs at the end of the interval (levels) */
};

/** Compute the interval from @a (earlier) to @b (later) into @out (overwritten; free
 *  with pl_mon_rates_free). @cpus selects the CPUs of out->cpu (NULL: all); all-CPU
 *  figures are always system-wide. @t0_ns is the time of the first snapshot (for t_s).
 *  Returns 0, or -EINVAL when @b is not later than @a. */
int pl_mon_rates_compute(const struct pl_mon_snap *a, const struct pl_mon_snap *b,
			 const struct pl_cpuset *cpus, uint64_t t0_ns, struct pl_mon_rates *out);
/** Free the heap parts of @r and zero it. NULL-safe. */
void pl_mon_rates_free(struct pl_mon_rates *r);

#endif
