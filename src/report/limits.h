/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The sizes of the saved documents that `perflab diff` and the cluster report
 * (`perflab report --from` of 2 or more reports, perflab-mpi's rank 0) take: a document
 * past one of them is refused with one line naming it and the limit (exit 2), so a
 * crafted or runaway input cannot hold the merge for minutes or fill the memory. The
 * man pages perflab-diff(1), perflab-report(1) and perflab-mpi(1) state them. */
#ifndef PERFLAB_REPORT_LIMITS_H
#define PERFLAB_REPORT_LIMITS_H
#include <jansson.h>
#include <stddef.h>

/** The largest document read, in bytes (64 MiB). */
#define PL_DOC_MAX_BYTES ((size_t)64 << 20)
/** The most facts of one document ("facts" members). */
#define PL_DOC_MAX_FACTS 200000
/** The most findings of one document (report "check.findings", check "findings"). */
#define PL_DOC_MAX_FINDINGS 100000
/** The most benchmark results of one report ("benchmarks" elements). */
#define PL_DOC_MAX_BENCHMARKS 10000
/** The most metrics of one benchmark result ("metrics" elements). */
#define PL_DOC_MAX_METRICS 10000
/** The most nodes of a cluster report (report documents given to `report --from`). */
#define PL_CLUSTER_MAX_NODES 4096

/** Read the JSON document at @path, refusing one longer than PL_DOC_MAX_BYTES (counted as
 *  read, so a growing file or a pipe is cut off too). Returns a new reference, or NULL
 *  with one line in @err (size @errlen) naming @path: the messages of
 *  util/json.h's pl_json_read_path, or "'PATH' is larger than 64 MiB, the most perflab
 *  reads of a document". */
json_t *pl_doc_read(const char *path, char *err, size_t errlen);

/** Check @doc (read from @path) against the counts above: facts, findings, benchmark
 *  results and metrics of each. Returns 0, or -E2BIG with one line in @err naming @path,
 *  what is too many and the limit. */
int pl_doc_check_limits(const json_t *doc, const char *path, char *err, size_t errlen);

#endif
