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

/** A bar chart's axis is logarithmic when its largest value is more than this many times
 *  its smallest positive one: on a linear axis the smallest bar would be under 5% of the
 *  axis, a sliver (clock's 10 ns vDSO reads beside its 3 us system calls, net's 3.6k/s
 *  connection rate beside a 96k/s round-trip rate). */
#define PL_SVG_LOG_RATIO 20.0

/** Append an inline <svg> horizontal bar chart to @out, as wide as its column (width
 *  100%, no viewBox: text stays 14 px at every width, bars and ticks are placed in % of
 *  the width): one row per bar, its label with the value in @unit as the terminal shows
 *  it (pl_fmt_unit: "48.4 ns", "2.47 GB/s") right-aligned, the bar under them; a scale
 *  with tick values in the same units, linear from 0 to a round tick above the largest
 *  value, or logarithmic over whole decades (labelled "log scale") when the values span
 *  more than PL_SVG_LOG_RATIO. @title is the accessible title (<title>); @better is the
 *  metrics' "better" field: "lower" or "higher" adds "lower/higher is better", "neither"
 *  or NULL no label. Text labels carry the values, so colour is never the only carrier
 *  of meaning. */
void pl_svg_bar_chart(struct pl_buf *out, const char *title, const struct pl_svg_bar *bars,
		      size_t n, const char *unit, const char *better);

/** Append @s to @out for HTML/SVG text and attributes: pl_xml_escape() (&, <, >, " and '
 *  as entities; invalid UTF-8 and control characters as \xNN, util/escape.h). */
void pl_html_escape(struct pl_buf *out, const char *s);

/** Format @v with 3-4 significant digits for tables ("1234", "12.3", "0.0123"). */
char *pl_fmt_num(char *buf, size_t len, double v);

#endif
