/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab monitor: accelerators. Intel QuickAssist firmware request counters from the
 * qat driver's debugfs file /sys/kernel/debug/qat_<name>_<bdf>/fw_counters (kernel
 * Documentation/ABI/testing/debugfs-driver-qat), read through the sysroot helper. Two
 * formats: the upstream kernel's table (6.7+, drivers/crypto/intel/qat/qat_common/
 * adf_fw_counters.c: a header "AE Requests Responses", then "N: REQ RESP" per
 * acceleration engine) and the out-of-tree Intel driver's box, one "| Firmware Requests
 * [AE  n]: N |", "Firmware Responses" and "RAS events" row per engine; and NVIDIA GPU utilization
 * and memory from the NVIDIA management library, loaded at run time with
 * dlopen("libnvidia-ml.so.1") (no NVIDIA headers: the few types are declared in accel.c after
 * nvml.h's ABI). */
#ifndef PERFLAB_MONITOR_ACCEL_H
#define PERFLAB_MONITOR_ACCEL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Most counters kept from one telemetry file (a 4xxx device prints about 40). */
#define PL_MON_QAT_TL_MAX 96
/** Ring-pair telemetry files of a device: telemetry/rp_A_data .. rp_D_data. */
#define PL_MON_QAT_RP 4

/** One QAT telemetry file (kernel 6.8+: debugfs telemetry/device_data or rp_<A-D>_data,
 *  drivers/crypto/intel/qat/qat_common/adf_tl_debugfs.c, Documentation/ABI/testing/
 *  debugfs-driver-qat_telemetry): a line "%-23s%20llu" per counter, its current value,
 *  followed by min, max and average when telemetry/control is 2-4 (not kept). The values
 *  are what the driver computed over the device's last 1 s sample (bandwidth bw_in/bw_out
 *  in Mbps, latencies in ns, util_ and exec_ in %, counts): levels, not cumulative
 *  counters. The files read -EPERM while telemetry is off (control 0, the default). */
struct pl_mon_qat_tl {
	size_t n;			   /**< counters kept (file order) */
	char name[PL_MON_QAT_TL_MAX][24];  /**< "sample_cnt", "bw_in", "util_cpr0" */
	uint64_t value[PL_MON_QAT_TL_MAX]; /**< the current values */
	int rp_num;	  /**< ring-pair files: the ring pair shown ("rp_num"), else -1 */
	char service[16]; /**< ring-pair files: "service_type" (dc, sym, asym, decomp,
			       Unknown), else "" */
};

/** One QAT device's firmware counters, summed over its acceleration engines (requests
 *  and responses since the driver started the device), and its telemetry when on. */
struct pl_mon_qat {
	char *name; /**< malloc'd: the debugfs directory, "qat_4xxx_0000:6b:00.0" */
	uint64_t requests, responses, ras_events;
	bool has_ras;		    /**< the file has RAS Events rows (kernels since 6.x) */
	bool has_tl;		    /**< telemetry/device_data was readable (telemetry on) */
	struct pl_mon_qat_tl tl;    /**< device_data */
	bool has_rp[PL_MON_QAT_RP]; /**< rp_<A+i>_data was readable (a ring pair selected) */
	struct pl_mon_qat_tl rp[PL_MON_QAT_RP];
};

/** One GPU at one instant (NVML). NaN where NVML did not answer for it. */
struct pl_mon_gpu {
	char name[96];	 /**< nvmlDeviceGetName, "" when unknown */
	double util_pct; /**< % of the last sample period a kernel ran (nvmlUtilization_t.gpu) */
	double mem_util_pct; /**< % of the period device memory was read or written */
	double mem_used_bytes, mem_total_bytes; /**< nvmlMemory_t used, total */
};

/** Parse the text of one fw_counters file: the sums over engines. Returns 0, or
 *  -EINVAL when no "Firmware Requests" row with a number is found. */
int pl_mon_parse_qat_fw_counters(const char *text, uint64_t *requests, uint64_t *responses,
				 uint64_t *ras_events, bool *has_ras);

/** Parse the text of one telemetry file into @out (zeroed first, rp_num -1): every
 *  "name value" line (name of [A-Za-z0-9_], value an unsigned decimal; the min, max and
 *  average columns after it ignored), "rp_num" and "service_type" into their fields.
 *  Lines that are not so are skipped; past PL_MON_QAT_TL_MAX counters the rest are
 *  dropped. Returns 0, or -EINVAL when no counter is found. */
int pl_mon_parse_qat_telemetry(const char *text, struct pl_mon_qat_tl *out);

/** Every readable /sys/kernel/debug/qat_* /fw_counters (sysroot) into a malloc'd array
 *  sorted by name (*n entries; NULL and 0 when none; free with pl_mon_qats_free or with
 *  the snapshot), with the device's telemetry/
 *  device_data and rp_<A-D>_data where readable. Unreadable files (debugfs not mounted,
 *  not root, telemetry off) are skipped. */
void pl_mon_qat_read(struct pl_mon_qat **out, size_t *n);
/** Free @n devices of @q (their names and the array). NULL-safe. */
void pl_mon_qats_free(struct pl_mon_qat *q, size_t n);

/** Load NVML once per process (later calls return the first answer). The library is
 *  "libnvidia-ml.so.1", or the path in the environment variable PERFLAB_NVML_LIB (a
 *  test hook: the monitor tests point it at a stand-in library). Returns true when
 *  nvmlInit_v2 succeeded; otherwise *why (static storage) says why: dlerror()'s text, a
 *  missing symbol, or nvmlInit_v2's return code. */
bool pl_mon_nvml_available(const char **why);

/** Read every GPU into a malloc'd array (*n entries; NULL and 0 when NVML is not
 *  available or reports no device). */
void pl_mon_gpu_read(struct pl_mon_gpu **out, size_t *n);

/** Shut NVML down (nvmlShutdown, dlclose) if it was loaded. */
void pl_mon_nvml_close(void);

#endif
