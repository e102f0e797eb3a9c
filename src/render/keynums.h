/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The key numbers of a report (report/keynums.h, report.json's "key_numbers") laid out
 * for the terminal summary, report.md and report.html. */
#ifndef PERFLAB_RENDER_KEYNUMS_H
#define PERFLAB_RENDER_KEYNUMS_H
#include <jansson.h>
#include <stdio.h>

#include "util/str.h"

/** The key numbers table of @report for a terminal into @out (aligned columns; the
 *  machine-tree text escaped). Reads report["key_numbers"]; nothing when it is absent. */
void pl_keynums_write_text(FILE *out, const json_t *report);

/** The same as a Markdown table, figures linked to their sections ("## Key numbers"). */
void pl_keynums_write_markdown(FILE *out, const json_t *report);

/** The same as an HTML table (<section id="key-numbers">) appended to @b. */
void pl_keynums_write_html(struct pl_buf *b, const json_t *report);

#endif
