/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The counter section of a report document ("counters", report/counters.h) rendered: a
 * small table benchmark x metric in Markdown, HTML and the terminal summary, each value
 * with its unit and "n/a" where the metric was unavailable (the reasons listed once
 * under the table); without a core PMU one line with the reason instead of the table.
 * A document without the section renders nothing. */
#ifndef PERFLAB_RENDER_COUNTERS_H
#define PERFLAB_RENDER_COUNTERS_H
#include <jansson.h>
#include <stdio.h>

#include "util/str.h"

/** The "## Counters" section of @report to @out (Markdown). */
void pl_render_counters_markdown(FILE *out, const json_t *report);
/** The <h2 id="counters"> section of @report appended to @b (HTML, escaped). */
void pl_render_counters_html(struct pl_buf *b, const json_t *report);
/** The terminal summary's "counters" lines of @report to @out (controls escaped). */
void pl_render_counters_text(FILE *out, const json_t *report);

#endif
