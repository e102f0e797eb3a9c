/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The key numbers that open every report output (terminal summary, report.md,
 * report.html) and report.json's "key_numbers": the machine in one line, the findings by
 * severity, and one figure per key measurement (time read cost and whether it is a vDSO
 * call, syscall cost, STREAM triad, io bandwidth and IOPS, loopback RTT, compression
 * MB/s per core), each with the reference it is compared with, its caveats and the
 * section it comes from. The rows are built once from the report document
 * (pl_report_annotate()) and the three renderers (render/keynums.h) only lay them out. */
#ifndef PERFLAB_REPORT_KEYNUMS_H
#define PERFLAB_REPORT_KEYNUMS_H
#include <jansson.h>

/** The key-number rows of @report (the report.json shape) as a new array of
 *  {"name","text","value","unit","detail","reference","caveats":[...],"section"}
 *  (docs/schemas/report.schema.json, key_numbers): "value"/"unit" are the median and unit
 *  of the figure (null for the machine and findings rows and for figures not measured,
 *  whose "text" says why), "section" the id of the HTML section it comes from
 *  ("bench-clock", "findings", "facts" for the machine line; "" when the report has no
 *  result of that benchmark; "bench-NAME-2" for a second result, pl_figure_bench_anchors()).
 *  A figure whose metric timed single operations also has "per_op" ({n, p50, mean, p99,
 *  "p99.9", max} in ns, from its latency_ns). A figure that does not mean what the row's
 *  name says has value null, "not a key number" as text and why as "detail": io IOPS
 *  other than small-block (<= 16 KiB) random reads, a STREAM triad whose three arrays fit
 *  in the last-level cache (below 4x it the memory row gets a caveat). "caveats" are the
 *  figure's (its metric's and its benchmark's), then those of the metric the reference
 *  shows when it is one of the same result (time read's system call, compression's
 *  zlib-1), each as "reference: CAVEAT". */
json_t *pl_keynums_build(const json_t *report);

/** What the report adds from its own content before it is written: the evidence of each
 *  finding whose rule names a figure the report's benchmarks have (pl_evidence_attach())
 *  and "key_numbers" (pl_keynums_build()), replacing any that came with --from inputs. */
void pl_report_annotate(json_t *report);

#endif
