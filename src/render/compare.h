/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The cells of a compare document (docs/schemas/compare.schema.json) as text, as the
 * terminal shows them: what report.md and report.html print in their comparison tables. */
#ifndef PERFLAB_RENDER_COMPARE_H
#define PERFLAB_RENDER_COMPARE_H
#include <jansson.h>

/** A cell of a compare document (docs/schemas/compare.schema.json) as the terminal shows
 *  it (compare/output.c), malloc'd: for a statistics[].variants[] entry @x of a metric in
 *  @unit ("s", "B", ""), the median with its CI ("12.35 ms [11.9 ms, 13 ms]"). */
char *pl_report_cmp_median(const json_t *x, const char *unit);

/** The comparison of @x with the baseline, malloc'd: "+7.00% [-10.73, +28.23]", or "diff
 *  +1.2 ms [-0.3 ms, +2.7 ms]" when the baseline is ~0 (vs_baseline.baseline_near_zero) or
 *  when a time or size (@unit "s" or "B") has a ratio CI below 0 (a change beyond -100%,
 *  impossible; such documents predate Fieller's interval); NULL for the baseline or when
 *  there is nothing to show. */
char *pl_report_cmp_vs(const json_t *x, const char *unit);

/** The context lines of a compare document, malloc'd, NULL when it has none (documents
 *  from before they were recorded): "environment: ..." (bench/env.h's pl_env_text) and one
 *  "KEY: 'BEFORE' before the first run, 'AFTER' after the last (restored)" per
 *  original_settings entry, each line ending in a newline. */
char *pl_report_cmp_context(const json_t *doc);

#endif
