/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A diff document (report/diff.h, docs/schemas/diff.schema.json) for the terminal
 * (perflab diff), and its "Changes since baseline" section in the report's terminal
 * summary, report.md and report.html. Renderers read only that document. */
#ifndef PERFLAB_RENDER_DIFF_H
#define PERFLAB_RENDER_DIFF_H
#include <jansson.h>
#include <stdio.h>

#include "util/str.h"

/** Print the diff document @diff for a terminal to @out: the header (both inputs), facts,
 *  findings and every figure with its verdict. Machine-tree text is escaped. */
void pl_diff_print_text(FILE *out, const json_t *diff);

/** The "Changes since baseline" part of a report's terminal summary for @report's
 *  "baseline" member (a diff document): the counts, and the facts, findings and figures
 *  that changed (at most a few of each, the rest counted). Prints nothing without one. */
void pl_diff_report_summary(FILE *out, const json_t *report);

/** The "## Changes since baseline" section of report.md for @report's "baseline" member.
 *  Writes nothing without one. */
void pl_diff_report_markdown(FILE *out, const json_t *report);

/** The "Changes since baseline" section of report.html (id "baseline") for @report's
 *  "baseline" member, appended to @b. Writes nothing without one. */
void pl_diff_report_html(struct pl_buf *b, const json_t *report);

#endif
