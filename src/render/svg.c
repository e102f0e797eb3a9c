/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "render/svg.h"

#include "report/figures.h"
#include "util/escape.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void pl_html_escape(struct pl_buf *out, const char *s)
{
	pl_xml_escape(out, s);
}

char *pl_fmt_num(char *buf, size_t len, double v)
{
	double a = fabs(v);
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else if (a == 0)
		snprintf(buf, len, "0");
	else if (a >= 1000)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 100)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 1)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.3g", v);
	return buf;
}

/* A round step for about @want ticks over 0..@max: 1, 2 or 5 times a power of ten. */
static double nice_step(double max, int want)
{
	double raw = max / want, p = pow(10, floor(log10(raw))), m = raw / p;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/* The axis of a bar chart: linear from 0 to @top, or logarithmic over whole decades from
 * 10^@lo_e to 10^@hi_e. */
struct axis {
	bool log;
	double top, step; /* linear: the end and the tick step */
	int lo_e, hi_e;	  /* log: the first and last decade */
};

/* Where @v lies on the axis, 0..1 (clamped). */
static double axis_pos(const struct axis *a, double v)
{
	double f;
	if (a->log)
		f = v > 0 ? (log10(v) - a->lo_e) / (a->hi_e - a->lo_e) : 0;
	else
		f = v / a->top;
	return f < 0 ? 0 : f > 1 ? 1 : f;
}

/* The axis for bars @bars: logarithmic when the largest value is more than
 * PL_SVG_LOG_RATIO times the smallest positive one, else linear from 0; either way its
 * end is at a round value (a whole decade, a multiple of a 1-2-5 step) with the largest
 * value at most @reach of the way along. */
static struct axis choose_axis(const struct pl_svg_bar *bars, size_t n, double reach)
{
	double max = 0, min = INFINITY;
	for (size_t i = 0; i < n; i++) {
		const double v[] = { bars[i].value, bars[i].hi };
		for (size_t k = 0; k < 2; k++)
			if (isfinite(v[k]) && v[k] > max)
				max = v[k];
		if (isfinite(bars[i].value) && bars[i].value > 0 && bars[i].value < min)
			min = bars[i].value;
	}
	struct axis a = { 0 };
	if (!(max > 0))
		max = 1;
	if (max > 1e300) /* a document may hold anything: keep max / reach finite */
		max = 1e300;
	if (isfinite(min) && max / min > PL_SVG_LOG_RATIO) {
		a.log = true;
		a.lo_e = (int)floor(log10(min));
		a.hi_e = (int)ceil(log10(max));
		if (a.hi_e <= a.lo_e)
			a.hi_e = a.lo_e + 1;
		while (axis_pos(&a, max) > reach + 1e-9)
			a.hi_e++;
		return a;
	}
	a.step = nice_step(max / reach, 4);
	a.top = ceil(max / reach / a.step - 1e-9) * a.step;
	if (a.top < max)
		a.top = max;
	return a;
}

/* The scale under the bars: an axis line and ticks with their values in @unit (the first
 * starts at the left edge, the last ends at the right one). */
static void chart_scale(struct pl_buf *out, const struct axis *a, const char *unit, long long y)
{
	pl_buf_printf(out,
		      "<g class=\"scale\"><line x1=\"0\" x2=\"100%%\" y1=\"%lld\" y2=\"%lld\" "
		      "class=\"tick\"/>",
		      y, y);
	/* a log axis over many decades labels every stride-th one (at most 9 labels) */
	int span = a->log ? a->hi_e - a->lo_e : (int)floor(a->top / a->step + 1e-9);
	int stride = span > 8 ? (span + 7) / 8 : 1;
	for (int k = 0; k <= span; k += stride) {
		double v = a->log ? pow(10, a->lo_e + k) : k * a->step;
		double x = 100 * axis_pos(a, v);
		const char *anchor = k == 0 ? "start" : x > 99.9 ? "end" : "middle";
		char t[48];
		pl_buf_printf(out,
			      "<line x1=\"%.2f%%\" x2=\"%.2f%%\" y1=\"%lld\" y2=\"%lld\" "
			      "class=\"tick\"/><text x=\"%.2f%%\" y=\"%lld\" class=\"axis\" "
			      "text-anchor=\"%s\">",
			      x, x, y, y + 4, x, y + 18, anchor);
		pl_html_escape(out, !a->log && k == 0 ? "0" : pl_fmt_unit(t, sizeof(t), v, unit));
		pl_buf_puts(out, "</text>");
	}
	pl_buf_puts(out, "</g>\n");
}

void pl_svg_bar_chart(struct pl_buf *out, const char *title, const struct pl_svg_bar *bars,
		      size_t n, const char *unit, const char *better)
{
	/* As wide as its column (width 100%, no viewBox): the text is 14 px at every width
	 * and the bars and ticks are placed in % of the width. Each row is its label with
	 * the value right-aligned on the same line, the bar under them. A label too long to
	 * share its line with the value on a phone (a 430 px column, ~7.5 px a character)
	 * has the value at the end of the bar's line instead, and the axis then ends far
	 * enough past the largest value that no bar runs under it. (A label's share of the
	 * width stops at 1000 characters, the height is computed in 64 bits: a document
	 * given to report --from may hold anything.) */
	const int head = 22, row = 40, bar_h = 16, axis_h = 26;
	size_t label_chars = 0, value_chars = 0;
	char num[48];
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(bars[i].label ? bars[i].label : "");
		label_chars = len > label_chars ? len : label_chars;
		size_t vl = strlen(pl_fmt_unit(num, sizeof(num), bars[i].value, unit));
		value_chars = vl > value_chars ? vl : value_chars;
	}
	label_chars = label_chars < 1000 ? label_chars : 1000;
	const bool value_on_bar = (double)(label_chars + value_chars) * 7.5 + 16 > 430;
	const struct axis a = choose_axis(bars, n, value_on_bar ? 0.75 : 1);
	const long long height = head + (long long)n * row + axis_h;
	const char *lbl = pl_figure_better_label(better);
	pl_buf_printf(out,
		      "<svg class=\"chart\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\" "
		      "width=\"100%%\" height=\"%lld\" font-size=\"14\">\n<title>",
		      height);
	pl_html_escape(out, title);
	pl_buf_puts(out, " (");
	pl_html_escape(out, unit ? unit : "");
	pl_buf_printf(out, "%s%s%s)</title>\n", lbl ? ", " : "", lbl ? lbl : "",
		      a.log ? ", log scale" : "");
	if (lbl || a.log)
		pl_buf_printf(out, "<text x=\"0\" y=\"14\" class=\"axis better\">%s%s%s</text>\n",
			      lbl ? lbl : "", lbl && a.log ? ", " : "", a.log ? "log scale" : "");
	for (size_t i = 0; i < n; i++) {
		long long y = head + (long long)i * row, by = y + 20; /* by: top of the bar */
		pl_buf_printf(out, "<g><text x=\"0\" y=\"%lld\" class=\"lbl\">", y + 14);
		pl_html_escape(out, bars[i].label);
		pl_buf_puts(out, "</text>");
		if (!isnan(bars[i].value)) {
			double w = 100 * axis_pos(&a, bars[i].value);
			pl_buf_printf(out,
				      "<rect x=\"0\" y=\"%lld\" width=\"%.2f%%\" height=\"%d\" "
				      "class=\"bar\"/>",
				      by, w, bar_h);
			if (!isnan(bars[i].lo) && !isnan(bars[i].hi))
				pl_buf_printf(out,
					      "<line x1=\"%.2f%%\" x2=\"%.2f%%\" y1=\"%lld\" "
					      "y2=\"%lld\" class=\"err\"/>",
					      100 * axis_pos(&a, bars[i].lo),
					      100 * axis_pos(&a, bars[i].hi), by + bar_h / 2,
					      by + bar_h / 2);
		}
		/* values in the terminal's units (48.4 ns, 3.455 us, 1.50 GiB, 2.47 GB/s) */
		pl_buf_printf(out,
			      "<text x=\"100%%\" y=\"%lld\" class=\"val\" text-anchor=\"end\">",
			      value_on_bar ? by + 13 : y + 14);
		pl_html_escape(out, pl_fmt_unit(num, sizeof(num), bars[i].value, unit));
		pl_buf_puts(out, "</text></g>\n");
	}
	chart_scale(out, &a, unit, head + (long long)n * row + 4);
	pl_buf_puts(out, "</svg>\n");
}
