/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What `perflab report --from` reads: the saved documents of the other commands (bench,
 * compare, profile, tune, check, inspect, an earlier report), each recognised by its kind
 * and checked against the shape of the members the report reads (util/jcheck.h) before
 * it is merged into the report document. */
#ifndef PERFLAB_REPORT_FROM_H
#define PERFLAB_REPORT_FROM_H
#include <jansson.h>
#include <stddef.h>

/** Largest `report --from` input pl_report_read_json() reads (bytes): 64 MiB. */
#define PL_REPORT_MAX_INPUT (64u << 20)

/** Read the JSON document at @path as a `report --from` input: opened O_RDONLY |
 *  O_NONBLOCK | O_CLOEXEC (a FIFO or device does not block the open), then only a regular
 *  file of at most PL_REPORT_MAX_INPUT bytes is read; duplicate keys are refused. Returns
 *  a new reference, or NULL with a one-line reason in @err naming the file (cannot open,
 *  not a regular file, too large, or the parse error with line and column). */
json_t *pl_report_read_json(const char *path, char *err, size_t errlen);

/** Merge a saved perflab JSON document (@path) into @report: a check document replaces
 *  "check", an inspect document replaces "facts", a report document contributes its
 *  sections, and bench / compare / profile / tune documents (recognised by their "kind"
 *  member) are appended to "benchmarks", "comparisons", "profiles" or "tune". Every bench
 *  result merged (alone or of a report) gets "from": @path, where its figures came from.
 *  The file is listed in "inputs". The file is read with pl_report_read_json(). Returns 0, or
 * -EINVAL with a one-line reason in @err naming the file (unreadable, not a regular file, too
 *  large, truncated JSON, unknown kind, other schema_version). */
int pl_report_merge_file(json_t *report, const char *path, char *err, size_t errlen);

/** Recognise the kind of a saved perflab document @doc read from @path and check the
 *  members the report and `perflab diff` read (the shapes in report/from.c, with the types of
 *  docs/schemas/; a report's "check" and "facts" as a check and an inspect document's).
 *  On success *@kindp is "bench", "compare", "profile", "tune", "tune-diff", "report",
 *  "check" or "inspect" (static) and *@sectionp (may be NULL) the report array the
 *  document goes to, NULL for report, check and inspect. Returns 0, or -EINVAL with one
 *  line in @err naming @path (and the JSON path of the first problem). */
int pl_report_check_doc(const json_t *doc, const char *path, const char **kindp,
			const char **sectionp, char *err, size_t errlen);

/** Read the `report --from` documents @paths (NULL-terminated; NULL: none) in order into
 *  a new object of report sections, each merged as pl_report_merge_file() merges it.
 *  Returns a new reference, or NULL with the first file's one-line reason in @err. */
json_t *pl_report_read_inputs(char *const *paths, char *err, size_t errlen);
/** Add the sections @inputs (pl_report_read_inputs()) to @report: an array is appended to
 *  @report's array of that name (created when missing), any other member replaces
 *  @report's. */
void pl_report_add_inputs(json_t *report, const json_t *inputs);

#endif
