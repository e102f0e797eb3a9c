/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What changed between two saved perflab documents of the same kind (report, inspect,
 * check or bench): `perflab diff A.json B.json` and the "Changes since baseline" section
 * of `perflab report --baseline OLD/report.json`. The diff is itself a JSON document
 * (docs/schemas/diff.schema.json), built once from the two inputs; the terminal, Markdown
 * and HTML renderers (render/diff.c) read only that document, as the report's renderers
 * read only report.json.
 *
 * What it holds:
 *  - facts that differ (old -> new, with a unit taken from the key's suffix: _bytes B,
 *    _kb KiB, _khz kHz, _mbps Mbit/s, _ns ns, ...), added and removed; readings that
 *    change by themselves (free memory, NUMA page counters) are flagged "volatile";
 *  - findings that appeared or were resolved, by rule id and subject, and those whose
 *    severity or observed value changed;
 *  - every benchmark figure on both sides: the two medians, the change of the median in %,
 *    its direction from the metric's "better" field, and a verdict from the raw samples
 *    with compare's statistics (compare/analyze.h: the ratio of geometric means with its
 *    Welch CI, the Mann-Whitney U p-value, the threshold): none when a side has fewer
 *    than PL_CMP_MIN_VERDICT_RUNS runs, and the verdict says so.
 * Phoronix's compare-results-to-baseline and PCP's pmdiff compare numbers only and
 * without a test; this diffs facts and findings too and tests each figure. */
#ifndef PERFLAB_REPORT_DIFF_H
#define PERFLAB_REPORT_DIFF_H
#include <jansson.h>

/** Options of a diff. */
struct pl_diff_opts {
	double threshold; /**< smallest change that counts, a fraction (compare's 0.01) */
	double level;	  /**< confidence level of the intervals (0.95) */
	double alpha;	  /**< significance level of the tests (0.05) */
};

/** The defaults: threshold 1%, level 95%, alpha 0.05 (those of perflab compare). */
#define PL_DIFF_OPTS_DEFAULT                                                                       \
	{                                                                                          \
		.threshold = 0.01, .level = 0.95, .alpha = 0.05                                    \
	}

/** Read @path and check it is a report, inspect, check or bench document whose members
 *  the diff reads have their schema's types (report/report.h's pl_report_check_doc). Returns
 *  a new reference and its kind in *@kindp ("report", "inspect", "check", "bench"), or
 *  NULL with one line in @err (size @errlen) naming @path: unreadable or truncated JSON,
 *  another schema_version, a damaged member ($.path), a kind diff does not compare, or a
 *  document past report/limits.h's sizes (bytes, facts, findings, benchmark results). */
json_t *pl_diff_load(const char *path, const char **kindp, char *err, size_t errlen);

/** Diff @old (of kind @kold, named @nold in the document and in errors) against @new_
 *  (@knew, @nnew). Both are documents pl_diff_load accepted (or a report perflab built).
 *  Returns the diff document (a new reference), or NULL with one line in @err: the kinds
 *  differ, or two bench documents of different benchmarks or without a figure in common.
 *  Deterministic: the same inputs give the same document. */
json_t *pl_diff_build(const json_t *old, const char *kold, const char *nold, const json_t *new_,
		      const char *knew, const char *nnew, const struct pl_diff_opts *o, char *err,
		      size_t errlen);

/** `perflab report --baseline @path`: pl_diff_load() of @path, which must be a report
 *  document. Returns a new reference, or NULL with one line in @err: pl_diff_load()'s
 *  reason, or "'PATH' is a KIND document, not a report.json". */
json_t *pl_diff_load_report(const char *path, char *err, size_t errlen);
/** Set @report's "baseline" to the diff of the earlier report @base (named @name, its
 *  path) against @report ("this report"), with the default options
 *  (PL_DIFF_OPTS_DEFAULT). Leaves @report as it is when the two cannot be diffed. */
void pl_diff_add_baseline(json_t *report, const json_t *base, const char *name);

#endif
