/* SPDX-License-Identifier: GPL-3.0-or-later */
/* report.md: the report document (report/report.h) as Markdown, and the Markdown table
 * cell every Markdown renderer writes machine-tree text with. */
#ifndef PERFLAB_RENDER_MARKDOWN_H
#define PERFLAB_RENDER_MARKDOWN_H
#include <jansson.h>
#include <stdio.h>

/** @s (NULL = "") as Markdown text (a table cell, a list item, a heading) into @out,
 *  shown as it is: '|', '\\', '`', '*', '[', '<' and '&' get a backslash (no table cell,
 *  HTML, entity, link, image, code span or emphasis from document text), newlines and
 *  tabs become spaces, other control characters \xNN. For every string that comes from a
 *  document or the machine. */
void pl_report_md_cell(FILE *out, const char *s);

/** @s (NULL = "") as a Markdown code span into @out, fence included: the fence is one
 *  backtick longer than the longest run of backticks in @s, so @s cannot end it; '|' is
 *  written \| (a table cell), newlines and tabs as spaces, other control characters as
 *  \xNN. */
void pl_report_md_code(FILE *out, const char *s);

/** pl_report_md_cell()'s text of @s as a malloc'd string (aborts on out-of-memory). */
char *pl_report_md_text(const char *s);

/** pl_report_md_code()'s code span of @s as a malloc'd string (aborts on out-of-memory). */
char *pl_report_md_code_text(const char *s);

/** @s (NULL = "") as the fragment of a Markdown link ("#" + this): letters, digits, '-',
 *  '_' and '.' as they are, every other byte as %XX, so the link cannot end early or
 *  point elsewhere. */
void pl_report_md_anchor(FILE *out, const char *s);

/** Render the report document as Markdown to @out. Returns 0 or -EIO. */
int pl_report_write_markdown(FILE *out, const json_t *report);

/** Write the "## Benchmarks" Markdown section for an array of bench documents
 *  (docs/schemas/bench.schema.json): a table of every metric per benchmark, with units.
 *  Writes nothing for an empty array. */
void pl_report_markdown_benchmarks(FILE *out, const json_t *benches);

#endif
