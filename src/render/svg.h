/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A small SVG chart writer for reports: horizontal bar charts with units and optional
 * error bars. perflab writes its own SVG (no JS library) so report.html stays one
 * self-contained file that renders without network and prints well. */
#ifndef PERFLAB_RENDER_SVG_H
#define PERFLAB_RENDER_SVG_H
#include <stddef.h>

#include "util/str.h"

/** One bar. */
struct pl_svg_bar {
	const char *label; /**< left-hand label (escaped by the writer) */
	double value;	   /**< bar length, in the chart's unit; NaN = no bar ("n/a") */
	double lo, hi;	   /**< optional error bar in the same unit; NaN when absent */
};

/** Append an inline <svg> horizontal bar chart to @out: one row per bar, value printed
 *  at the end of the bar in @unit as the terminal shows it (pl_fmt_unit: "48.4 ns",
 *  "2.47 GB/s"), a scale from 0 to a round tick above the largest value with the tick
 *  values in the same units, text readable at 480 px width (14 px in a viewBox of about
 *  480-560). @title is the accessible title (<title>); @better is the metrics' "better"
 *  field: "lower" or "higher" adds "lower/higher is better", "neither" or NULL no label.
 *  Text labels carry the values, so colour is never the only carrier of meaning. */
void pl_svg_bar_chart(struct pl_buf *out, const char *title, const struct pl_svg_bar *bars,
		      size_t n, const char *unit, const char *better);

/** Append @s to @out for HTML/SVG text and attributes: pl_xml_escape() (&, <, >, " and '
 *  as entities; invalid UTF-8 and control characters as \xNN, util/escape.h). */
void pl_html_escape(struct pl_buf *out, const char *s);

/** Format @v with 3-4 significant digits for tables ("1234", "12.3", "0.0123"). */
char *pl_fmt_num(char *buf, size_t len, double v);

#endif
