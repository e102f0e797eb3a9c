/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "render/svg.h"

#include "report/figures.h"
#include "util/escape.h"

#include <math.h>
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

void pl_svg_bar_chart(struct pl_buf *out, const char *title, const struct pl_svg_bar *bars,
		      size_t n, const char *unit, const char *better)
{
	/* Sized for a 480 px wide screen: the text is 14 px in a viewBox at most about 480
	 * wide, so a phone (a 430 px column) shows it at 12 px or more. Labels up to 200 px
	 * (~25 characters at ~8 px each, 14 px sans-serif) stand left of their bars; longer
	 * ones go above their bars. (A label's share of the width stops at 1000 characters,
	 * the height is computed in 64 bits: a document given to report --from may hold
	 * anything.) */
	const int pad = 8, value_w = 100, axis_h = 24, font = 14;
	int label_w = 60;
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(bars[i].label ? bars[i].label : "");
		int w = (int)(len < 1000 ? len : 1000) * 8 + 8;
		if (w > label_w)
			label_w = w;
	}
	const bool above = label_w > 200;
	const int row = above ? 40 : 26, bar_h = 18;
	const int bar_x = above ? pad : label_w + pad;
	int bar_w = 480 - bar_x - value_w - pad;
	int width = bar_x + bar_w + value_w + pad;
	if (above && label_w + 2 * pad > width)
		width = label_w + 2 * pad;
	const long long height = (long long)n * row + 2 * pad + 18 + axis_h;
	double max = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isnan(bars[i].value) && bars[i].value > max)
			max = bars[i].value;
		if (!isnan(bars[i].hi) && bars[i].hi > max)
			max = bars[i].hi;
	}
	if (!(max > 0) || !isfinite(max))
		max = 1;
	/* the axis ends at a round tick above the largest value */
	double step = nice_step(max, bar_w / 90 > 2 ? bar_w / 90 : 2);
	double top = ceil(max / step - 1e-9) * step;
	if (top < max)
		top = max;
	const char *lbl = pl_figure_better_label(better);
	pl_buf_printf(out,
		      "<svg class=\"chart\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\" "
		      "viewBox=\"0 0 %d %lld\" width=\"100%%\" style=\"max-width:%dpx\" "
		      "font-size=\"%d\">\n<title>",
		      width, height, width, font);
	pl_html_escape(out, title);
	pl_buf_puts(out, " (");
	pl_html_escape(out, unit ? unit : "");
	pl_buf_printf(out, "%s%s)</title>\n", lbl ? ", " : "", lbl ? lbl : "");
	if (lbl)
		pl_buf_printf(out, "<text x=\"%d\" y=\"%d\" class=\"axis better\">%s</text>\n",
			      bar_x, pad + 10, lbl);
	long long y_axis = pad + 18 + (long long)n * row;
	/* the scale: ticks from 0 to the top with their values in the terminal's units */
	pl_buf_printf(out,
		      "<g class=\"scale\"><line x1=\"%d\" x2=\"%d\" y1=\"%lld\" y2=\"%lld\" "
		      "class=\"tick\"/>",
		      bar_x, bar_x + bar_w, y_axis, y_axis);
	for (int k = 0; k <= 10; k++) {
		double v = k * step;
		if (v > top * (1 + 1e-9))
			break;
		double x = bar_x + v / top * bar_w;
		char t[48];
		pl_buf_printf(out,
			      "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%lld\" y2=\"%lld\" "
			      "class=\"tick\"/><text x=\"%.1f\" y=\"%lld\" class=\"axis\" "
			      "text-anchor=\"%s\">",
			      x, x, y_axis, y_axis + 4, x, y_axis + 18,
			      k == 0 ? "start" : "middle");
		pl_html_escape(out, k == 0 ? "0" : pl_fmt_unit(t, sizeof(t), v, unit));
		pl_buf_puts(out, "</text>");
	}
	pl_buf_puts(out, "</g>\n");
	for (size_t i = 0; i < n; i++) {
		long long y = pad + 18 + (long long)i * row;
		long long by = above ? y + 18 : y + 4; /* top of the bar */
		char num[48];
		if (above)
			pl_buf_printf(out, "<g><text x=\"%d\" y=\"%lld\" class=\"lbl\">", pad,
				      y + 14);
		else
			pl_buf_printf(out,
				      "<g><text x=\"%d\" y=\"%lld\" class=\"lbl\" "
				      "text-anchor=\"end\">",
				      label_w, by + 13);
		pl_html_escape(out, bars[i].label);
		pl_buf_puts(out, "</text>");
		if (!isnan(bars[i].value)) {
			double w = bars[i].value / top * bar_w;
			pl_buf_printf(out,
				      "<rect x=\"%d\" y=\"%lld\" width=\"%.1f\" height=\"%d\" "
				      "class=\"bar\"/>",
				      bar_x, by, w < 1 ? 1 : w, bar_h);
			if (!isnan(bars[i].lo) && !isnan(bars[i].hi)) {
				double x1 = bar_x + bars[i].lo / top * bar_w;
				double x2 = bar_x + bars[i].hi / top * bar_w;
				pl_buf_printf(out,
					      "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%lld\" "
					      "y2=\"%lld\" class=\"err\"/>",
					      x1, x2, by + bar_h / 2, by + bar_h / 2);
			}
		}
		/* values in the terminal's units (48.4 ns, 3.455 us, 1.50 GiB, 2.47 GB/s) */
		pl_buf_printf(out, "<text x=\"%d\" y=\"%lld\" class=\"val\">", bar_x + bar_w + 6,
			      by + 13);
		pl_html_escape(out, pl_fmt_unit(num, sizeof(num), bars[i].value, unit));
		pl_buf_puts(out, "</text></g>\n");
	}
	pl_buf_puts(out, "</svg>\n");
}
