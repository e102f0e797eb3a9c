/* SPDX-License-Identifier: GPL-3.0-or-later */
/* report.md: the report document (report/report.h) as Markdown, and the Markdown table
 * cell every Markdown renderer writes machine-tree text with. */
#ifndef PERFLAB_RENDER_MARKDOWN_H
#define PERFLAB_RENDER_MARKDOWN_H
#include <jansson.h>
#include <stdio.h>

/** @s (NULL = "") as the text of a Markdown table cell into @out: '|' escaped, newlines
 *  and tabs as spaces, other control characters as \xNN (machine-tree text). */
void pl_report_md_cell(FILE *out, const char *s);

/** Render the report document as Markdown to @out. Returns 0 or -EIO. */
int pl_report_write_markdown(FILE *out, const json_t *report);

/** Write the "## Benchmarks" Markdown section for an array of bench documents
 *  (docs/schemas/bench.schema.json): a table of every metric per benchmark, with units.
 *  Writes nothing for an empty array. */
void pl_report_markdown_benchmarks(FILE *out, const json_t *benches);

#endif
