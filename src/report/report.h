/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The report document: one JSON object that report.md (and later report.html) are
 * rendered from, so `report --from` can merge saved results of other commands. */
#ifndef PERFLAB_REPORT_REPORT_H
#define PERFLAB_REPORT_REPORT_H
#include <jansson.h>
#include <stdio.h>

#include "facts/facts.h"
#include "rules/rules.h"

/** The report's "machine" object of @f: hostname, kernel, cpu_model, cpus, sockets,
 *  mem_bytes (bytes), numa_nodes, hypervisor, clocksource, each null when its fact is
 *  missing. New reference. */
json_t *pl_report_machine(const struct pl_facts *f);
/** Build the report document: {"schema_version":1,"generated":ISO8601,"perflab_version",
 *  "machine":{...},"facts":{...},"check":{...}}. @epoch is the generation time (seconds).
 *  Returns a new reference. */
json_t *pl_report_build(const struct pl_facts *f, const struct pl_findings *fs,
			const char *workload, long long epoch);
/** Merge a saved perflab JSON document (@path) into @report: a check document replaces
 *  "check", an inspect document replaces "facts", a report document contributes its
 *  sections, and bench / compare / profile / tune documents (recognised by their "kind"
 *  member) are appended to "benchmarks", "comparisons", "profiles" or "tune". The file is
 *  listed in "inputs". Returns 0, or -EINVAL with a one-line reason in @err naming the
 *  file (unreadable, truncated JSON, unknown kind, other schema_version). */
int pl_report_merge_file(json_t *report, const char *path, char *err, size_t errlen);
/** Recognise the kind of a saved perflab document @doc read from @path and check the
 *  members the report and `perflab diff` read (the shapes in report.c, with the types of
 *  docs/schemas/; a report's "check" and "facts" as a check and an inspect document's).
 *  On success *@kindp is "bench", "compare", "profile", "tune", "tune-diff", "report",
 *  "check" or "inspect" (static) and *@sectionp (may be NULL) the report array the
 *  document goes to, NULL for report, check and inspect. Returns 0, or -EINVAL with one
 *  line in @err naming @path (and the JSON path of the first problem). */
int pl_report_check_doc(const json_t *doc, const char *path, const char **kindp,
			const char **sectionp, char *err, size_t errlen);
/** The one-line machine summary ("vm: Intel Xeon ... x2, 23.4 GiB, kvm, Linux 6.18") of a
 *  report document, malloc'd. */
char *pl_report_machine_line(const json_t *report);
/** @s (NULL = "") as the text of a Markdown table cell into @out: '|' escaped, newlines
 *  and tabs as spaces, other control characters as \xNN (machine-tree text). */
void pl_report_md_cell(FILE *out, const char *s);
/** Render the report document as Markdown to @out. Returns 0 or -EIO. */
int pl_report_write_markdown(FILE *out, const json_t *report);
/** Write the "## Benchmarks" Markdown section for an array of bench documents
 *  (docs/schemas/bench.schema.json): a table of every metric per benchmark, with units.
 *  Writes nothing for an empty array. */
void pl_report_markdown_benchmarks(FILE *out, const json_t *benches);
/** A cell of a compare document (docs/schemas/compare.schema.json) as the terminal shows
 *  it (compare/output.c), malloc'd: for a statistics[].variants[] entry @x of a metric in
 *  @unit ("s", "B", ""), the median with its CI ("12.35 ms [11.9 ms, 13 ms]"). */
char *pl_report_cmp_median(const json_t *x, const char *unit);
/** The comparison of @x with the baseline, malloc'd: "+7.00% [-10.73, +28.23]", or "diff
 *  +1.2 ms [-0.3 ms, +2.7 ms]" when the baseline is ~0 (vs_baseline.baseline_near_zero);
 *  NULL for the baseline or when there is nothing to show. */
char *pl_report_cmp_vs(const json_t *x, const char *unit);

/** The context lines of a compare document, malloc'd, NULL when it has none (documents
 *  from before they were recorded): "environment: ..." (bench/env.h's pl_env_text) and one
 *  "KEY: 'BEFORE' before the first run, 'AFTER' after the last (restored)" per
 *  original_settings entry, each line ending in a newline. */
char *pl_report_cmp_context(const json_t *doc);

/** Print the short terminal summary (machine line, findings by severity with top fixes,
 *  where the files are) to @out. @dir is where the report was written. */
void pl_report_print_summary(FILE *out, const json_t *report, const char *dir);

#endif
