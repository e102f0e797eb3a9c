/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab monitor: one interval (rates.h) as a JSON sample (docs/schemas/
 * monitor.schema.json, "samples" items), a CSV row and a live terminal line of stable
 * width, and the sums over devices they share. The Prometheus textfile is textfile.h. */
#ifndef PERFLAB_MONITOR_OUTPUT_H
#define PERFLAB_MONITOR_OUTPUT_H
#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "monitor/rates.h"
#include "util/cpuset.h"

/** The JSON sample of @r (new reference; NaN values are null). */
json_t *pl_mon_sample_json(const struct pl_mon_rates *r);
/** Write the same sample to @f without building it: the bytes of json_dumps(
 *  pl_mon_sample_json(r), JSON_COMPACT | JSON_REAL_PRECISION(8)) (test_monitor checks
 *  they agree). The sampling loop's path, so an interval costs no allocations. */
void pl_mon_sample_json_write(FILE *f, const struct pl_mon_rates *r);

/** CSV: the header line, then one row per interval. The columns are fixed: the all-CPU
 *  shares, load, rates, memory, sums over disks and interfaces, then busy% of each CPU of
 *  @cpus (empty where a CPU was offline in that interval). Unavailable values are empty. */
void pl_mon_csv_header(FILE *f, const struct pl_cpuset *cpus);
void pl_mon_csv_row(FILE *f, const struct pl_mon_rates *r, const struct pl_cpuset *cpus);

/** The live view: a header line, then one line per interval, every column of fixed
 *  width (a value too large for it is scaled: k, M, G). With @bars, a per-CPU bar of
 *  block characters (busy %) follows the line (UTF-8, for a terminal). */
void pl_mon_text_header(FILE *f);
void pl_mon_text_line(FILE *f, const struct pl_mon_rates *r, bool bars);

/** Sums over the disks and interfaces of @r (NaN parts skipped; 0 without any).
 *  util_max is the highest utilization of a disk. */
struct pl_mon_io_sum {
	double r_per_s, w_per_s, read_Bps, write_Bps, util_max;
	double rx_Bps, tx_Bps, rx_pps, tx_pps;
};
void pl_mon_io_sum(const struct pl_mon_rates *r, struct pl_mon_io_sum *out);

/** Accelerators of @r summed: QAT request and response rates over devices (NaN without a
 *  QAT device, or when every device's counter reset), the mean GPU utilization (%) and
 *  the used and total GPU memory (bytes) over GPUs (NaN without an NVML GPU). */
struct pl_mon_accel_sum {
	double qat_requests_per_s, qat_responses_per_s;
	double gpu_util_pct, gpu_mem_used_bytes, gpu_mem_total_bytes;
};
void pl_mon_accel_sum(const struct pl_mon_rates *r, struct pl_mon_accel_sum *out);

#endif
