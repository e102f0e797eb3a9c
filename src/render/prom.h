/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Prometheus text exposition format (version 0.0.4,
 * https://prometheus.io/docs/instrumenting/exposition_formats/) for node_exporter's
 * textfile collector: metric names perflab_..., labels for benchmark, backend, workload
 * and severity. */
#ifndef PERFLAB_RENDER_PROM_H
#define PERFLAB_RENDER_PROM_H
#include <jansson.h>
#include <stdio.h>

/** Write a check document (rules.h pl_findings_to_json shape) as metrics:
 *  perflab_check_findings{workload,severity} (count per severity, all three always
 *  present) and perflab_check_finding{workload,id,severity,subject} 1 per finding.
 *  Returns 0 or -EIO. */
int pl_prom_write_check(FILE *out, const json_t *check);
/** Write one bench document (docs/schemas/bench.schema.json) as metrics:
 *  perflab_bench_value{benchmark,metric,unit,stat[,backend]} for the stats best, median,
 *  mean, p99 and stddev of every metric (backend from the metric's "backend" note when
 *  present), perflab_bench_runs{benchmark}, perflab_bench_ok{benchmark} (1 when the
 *  status is "ok") and perflab_bench_caveat{benchmark,caveat} 1 for a --quick run
 *  (runner.quick; caveat "quick run (--quick): ...") and for each string of the
 *  document's "warnings" (caveat: the warning's whole text). Undefined values are left out. When
 * @header, the # HELP/# TYPE lines are written first (once per exposition). Returns 0 or -EIO.
 * Label values are escaped with pl_prom_label_value (util/escape.h). */
int pl_prom_write_bench(FILE *out, const json_t *bench, int header);

#endif
