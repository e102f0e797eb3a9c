/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab monitor: one snapshot of the machine's cumulative counters, parsed from the
 * /proc text files sar, mpstat, iostat and dstat read (formats: the kernel's
 * Documentation/filesystems/proc.rst, admin-guide/iostats.rst, accounting/psi.rst,
 * admin-guide/numastat.rst). Parsers take text and never read files themselves, so the
 * fixture tests and the fuzz harness (tests/fuzz/fuzz_monitor.c) drive them directly;
 * pl_mon_snap_read() reads the files through the sysroot helper. */
#ifndef PERFLAB_MONITOR_PROC_H
#define PERFLAB_MONITOR_PROC_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "monitor/accel.h"

/** The columns of a /proc/stat "cpu" line, in the kernel's order (USER_HZ ticks). */
enum pl_mon_cpu_field {
	PL_MON_USER,
	PL_MON_NICE,
	PL_MON_SYSTEM,
	PL_MON_IDLE,
	PL_MON_IOWAIT,
	PL_MON_IRQ,
	PL_MON_SOFTIRQ,
	PL_MON_STEAL,
	PL_MON_GUEST,	   /**< already included in user */
	PL_MON_GUEST_NICE, /**< already included in nice */
	PL_MON_CPU_NF,
};

/** /proc/stat. cpu[] is indexed by CPU number (ncpu = highest number + 1); a CPU with
 *  no line (offline) has online[n] false. */
struct pl_mon_stat {
	uint64_t total[PL_MON_CPU_NF]; /**< the "cpu" line (sum over online CPUs) */
	bool has_total;
	int ncpu;
	uint64_t (*cpu)[PL_MON_CPU_NF]; /**< malloc'd, ncpu rows */
	bool *online;			/**< malloc'd, ncpu entries */
	uint64_t ctxt;			/**< context switches since boot */
	uint64_t processes;		/**< forks since boot */
	uint64_t procs_running, procs_blocked;
	bool has_ctxt, has_processes;
};

/** /proc/loadavg: "0.50 0.40 0.30 2/345 6789". */
struct pl_mon_loadavg {
	double avg[3];	  /**< 1, 5, 15 minute load averages */
	uint64_t running; /**< runnable tasks now */
	uint64_t tasks;	  /**< tasks (threads) in total */
};

/** One row of /proc/interrupts or /proc/softirqs. */
struct pl_mon_irqrow {
	char name[24]; /**< "24", "LOC", "NET_RX" (without the colon) */
	char desc[48]; /**< for numbered IRQs the device ("virtio0-input.0"), for named
			    rows their text ("Local timer interrupts"); "" when none */
	bool full;     /**< the row has a count for every column (ERR:, MIS: do not) */
};

/** /proc/interrupts or /proc/softirqs: a header of CPU columns ("CPU0 CPU2", offline
 *  CPUs are absent from /proc/interrupts) and rows of per-column counts. */
struct pl_mon_irqtab {
	int ncols;
	int *cols; /**< malloc'd: the CPU number of each column */
	size_t nrows;
	struct pl_mon_irqrow *rows; /**< malloc'd */
	uint64_t *counts;	    /**< malloc'd nrows * ncols, row-major; 0 where !full */
};

/** The /proc/meminfo fields monitor reports, in bytes (the file's kB times 1024). */
enum pl_mon_mem_field {
	PL_MON_MEM_TOTAL,
	PL_MON_MEM_FREE,
	PL_MON_MEM_AVAILABLE,
	PL_MON_MEM_BUFFERS,
	PL_MON_MEM_CACHED,
	PL_MON_MEM_DIRTY,
	PL_MON_MEM_WRITEBACK,
	PL_MON_MEM_SWAPTOTAL,
	PL_MON_MEM_SWAPFREE,
	PL_MON_MEM_NF,
};

/** The /proc/vmstat counters monitor turns into rates (events since boot). */
enum pl_mon_vm_field {
	PL_MON_VM_PGFAULT, /**< all faults, minor + major */
	PL_MON_VM_PGMAJFAULT,
	PL_MON_VM_PSWPIN,
	PL_MON_VM_PSWPOUT,
	PL_MON_VM_THP_FAULT_ALLOC,
	PL_MON_VM_THP_COLLAPSE_ALLOC,
	PL_MON_VM_COMPACT_STALL,
	PL_MON_VM_NUMA_HIT,
	PL_MON_VM_NUMA_MISS,
	PL_MON_VM_NUMA_LOCAL,
	PL_MON_VM_NUMA_OTHER,
	PL_MON_VM_NF,
};

/** Key/value files (meminfo, vmstat): v[i] valid when bit i of have is set. */
struct pl_mon_kv {
	uint64_t v[16];
	uint32_t have;
};

/** One /proc/pressure/{cpu,memory,io} file. */
struct pl_mon_psi {
	bool present; /**< the file exists (kernel with CONFIG_PSI, not psi=0) */
	bool has_full;
	double some_avg10, full_avg10; /**< % (the kernel's 10 s average) */
	uint64_t some_total_us, full_total_us;
};
/** Index of the PSI resources in struct pl_mon_snap.psi. */
enum { PL_MON_PSI_CPU, PL_MON_PSI_MEMORY, PL_MON_PSI_IO, PL_MON_PSI_N };

/** One /proc/diskstats line (admin-guide/iostats.rst field numbers 1-11; times in ms,
 *  sectors of 512 bytes). */
struct pl_mon_disk {
	char *name; /**< malloc'd, the whole name */
	uint64_t rd_ios, rd_merges, rd_sectors, rd_ms;
	uint64_t wr_ios, wr_merges, wr_sectors, wr_ms;
	uint64_t in_flight, io_ms, weighted_ms;
	uint64_t dc_ios, dc_ms; /**< discards (kernel 4.18+; 0 before) */
	uint64_t fl_ios, fl_ms; /**< flushes (kernel 5.5+; 0 before) */
};

/** One /proc/net/dev interface. */
struct pl_mon_netif {
	char *name; /**< malloc'd, the whole name */
	uint64_t rx_bytes, rx_packets, rx_errs, rx_drop;
	uint64_t tx_bytes, tx_packets, tx_errs, tx_drop;
};

/** The TCP counters of /proc/net/snmp ("Tcp:") and /proc/net/netstat ("TcpExt:"). */
enum pl_mon_tcp_field {
	PL_MON_TCP_OUTSEGS,
	PL_MON_TCP_RETRANSSEGS,
	PL_MON_TCP_LISTENOVERFLOWS,
	PL_MON_TCP_LISTENDROPS,
	PL_MON_TCP_NF,
};

/** Everything monitor reads at one instant. Zero-initialise; free with
 *  pl_mon_snap_free(). A missing file leaves its part empty (has_* false, n* 0). */
struct pl_mon_snap {
	uint64_t t_ns; /**< CLOCK_MONOTONIC when the reading started */
	struct pl_mon_stat stat;
	bool has_stat;
	struct pl_mon_loadavg load;
	bool has_load;
	struct pl_mon_irqtab irq, softirq;
	struct pl_mon_kv mem, vm, tcp;
	struct pl_mon_psi psi[PL_MON_PSI_N];
	size_t ndisk;
	struct pl_mon_disk *disk; /**< malloc'd; whole disks only (see pl_mon_snap_read) */
	size_t nnet;
	struct pl_mon_netif *net; /**< malloc'd */
	size_t nqat;
	struct pl_mon_qat *qat; /**< malloc'd: QAT fw_counters (accel.h), sorted by name */
	size_t ngpu;
	struct pl_mon_gpu *gpu; /**< malloc'd: NVML readings (accel.h), by index */
};

/** Parsers. Each fills @out (zeroed first; free the heap parts with the snapshot) from
 *  the text of one file and returns 0, or -EINVAL when the text is not that file's format
 *  (nothing usable); lines it does not know are skipped (newer kernels add fields). */
int pl_mon_parse_stat(const char *text, struct pl_mon_stat *out);
int pl_mon_parse_loadavg(const char *text, struct pl_mon_loadavg *out);
/** /proc/interrupts and /proc/softirqs share this table format. */
int pl_mon_parse_irqtab(const char *text, struct pl_mon_irqtab *out);
/** /proc/meminfo into PL_MON_MEM_* (bytes). */
int pl_mon_parse_meminfo(const char *text, struct pl_mon_kv *out);
/** /proc/vmstat into PL_MON_VM_*. thp_* and numa_* are absent without THP or NUMA. */
int pl_mon_parse_vmstat(const char *text, struct pl_mon_kv *out);
/** One /proc/pressure file ("some avg10=... total=N" and "full ..."). */
int pl_mon_parse_psi(const char *text, struct pl_mon_psi *out);
/** /proc/diskstats: all lines into a malloc'd array (*n entries; free it with
 *  pl_mon_disks_free or with the snapshot). */
int pl_mon_parse_diskstats(const char *text, struct pl_mon_disk **out, size_t *n);
/** /proc/net/dev into a malloc'd array (*n entries; free it with pl_mon_netifs_free or
 *  with the snapshot). */
int pl_mon_parse_netdev(const char *text, struct pl_mon_netif **out, size_t *n);
/** Free @n disks of @d (their names and the array). NULL-safe. */
void pl_mon_disks_free(struct pl_mon_disk *d, size_t n);
/** Free @n interfaces of @v (their names and the array). NULL-safe. */
void pl_mon_netifs_free(struct pl_mon_netif *v, size_t n);
/** Look up @key in the @section ("Tcp", "TcpExt") of an snmp-style file: pairs of a
 *  header line "Tcp: A B C" and a value line "Tcp: 1 2 3". Returns 0, -ENOENT or
 *  -EINVAL (the value is not a number; negative gauges such as MaxConn -1 included). */
int pl_mon_snmp_get(const char *text, const char *section, const char *key, uint64_t *out);

/** Read every file into @out (pl_mon_snap_free() it first when reused) through the
 *  sysroot: /proc/stat, loadavg, interrupts, softirqs, meminfo, vmstat, pressure/{cpu,
 *  memory,io}, diskstats, net/dev, net/snmp, net/netstat, the QAT debugfs fw_counters,
 *  and the GPUs through NVML when it loads (accel.h). Disks are kept as iostat
 *  keeps them: devices with an entry in /sys/block (not partitions) that have done I/O
 *  (when /sys/block cannot be listed, every device that has done I/O). Returns 0, or
 *  -ENOENT when /proc/stat cannot be read (without it there is nothing to monitor).
 *  The /proc files stay open until pl_mon_snap_close(). */
int pl_mon_snap_read(struct pl_mon_snap *out);
/** Close the files pl_mon_snap_read() keeps open between snapshots (the /proc files
 *  above, read again with one pread each; a later read opens them again). */
void pl_mon_snap_close(void);
/** Free the heap parts and zero @s. NULL-safe. */
void pl_mon_snap_free(struct pl_mon_snap *s);
/** Move @from into @to (freeing what @to held) and zero @from. */
void pl_mon_snap_move(struct pl_mon_snap *to, struct pl_mon_snap *from);

#endif
