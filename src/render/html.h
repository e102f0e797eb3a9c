/* SPDX-License-Identifier: GPL-3.0-or-later */
/* report.html: one self-contained page (inline CSS, inline SVG, a few lines of inline
 * JS for copy buttons and the flame graph; no network access needed to view it),
 * rendered from the report document (report/report.h). */
#ifndef PERFLAB_RENDER_HTML_H
#define PERFLAB_RENDER_HTML_H
#include <jansson.h>
#include <stdio.h>

/** Render @report as one HTML page to @out. Sections: machine summary, findings,
 *  benchmark results with bar charts, comparisons, profiles (flame graph, timeline), tune
 *  diff, facts; sections without data are left out. Returns 0 or -EIO. */
int pl_report_write_html(FILE *out, const json_t *report);

#endif
