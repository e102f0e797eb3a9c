/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "out/svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void pl_html_escape(struct pl_buf *out, const char *s)
{
	for (const char *p = s ? s : ""; *p; p++) {
		switch (*p) {
		case '&':
			pl_buf_puts(out, "&amp;");
			break;
		case '<':
			pl_buf_puts(out, "&lt;");
			break;
		case '>':
			pl_buf_puts(out, "&gt;");
			break;
		case '"':
			pl_buf_puts(out, "&quot;");
			break;
		case '\'':
			pl_buf_puts(out, "&#39;");
			break;
		default:
			pl_buf_append(out, p, 1);
		}
	}
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

void pl_svg_bar_chart(struct pl_buf *out, const char *title, const struct pl_svg_bar *bars,
		      size_t n, const char *unit, int lower_is_better)
{
	const int row = 26, bar_w = 420, pad = 8, value_w = 150;
	/* wide enough for the longest label at ~7 px per character (12 px sans-serif) */
	/* (a label's share of the width stops at 1000 characters, the height is computed in
	 * 64 bits: a document given to report --from may hold anything) */
	int label_w = 80;
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(bars[i].label ? bars[i].label : "");
		int w = (int)(len < 1000 ? len : 1000) * 7 + 8;
		if (w > label_w)
			label_w = w;
	}
	const int width = label_w + bar_w + value_w + 2 * pad;
	const long long height = (long long)n * row + 2 * pad + 18;
	double max = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isnan(bars[i].value) && bars[i].value > max)
			max = bars[i].value;
		if (!isnan(bars[i].hi) && bars[i].hi > max)
			max = bars[i].hi;
	}
	if (max <= 0)
		max = 1;
	pl_buf_printf(out,
		      "<svg class=\"chart\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\" "
		      "viewBox=\"0 0 %d %lld\" width=\"100%%\" style=\"max-width:%dpx\">\n<title>",
		      width, height, width);
	pl_html_escape(out, title);
	pl_buf_printf(out, " (%s%s)</title>\n", unit ? unit : "",
		      lower_is_better ? ", lower is better" : ", higher is better");
	pl_buf_printf(out, "<text x=\"%d\" y=\"%d\" class=\"axis\">%s%s</text>\n", label_w + pad,
		      pad + 10, unit ? unit : "",
		      lower_is_better ? " (lower is better)" : " (higher is better)");
	for (size_t i = 0; i < n; i++) {
		long long y = pad + 18 + (long long)i * row;
		char num[32];
		pl_buf_printf(out,
			      "<g><text x=\"%d\" y=\"%lld\" class=\"lbl\" text-anchor=\"end\">",
			      label_w, y + 17);
		pl_html_escape(out, bars[i].label);
		pl_buf_puts(out, "</text>");
		if (!isnan(bars[i].value)) {
			double w = bars[i].value / max * bar_w;
			pl_buf_printf(out,
				      "<rect x=\"%d\" y=\"%lld\" width=\"%.1f\" height=\"%d\" "
				      "class=\"bar\"/>",
				      label_w + pad, y + 4, w < 1 ? 1 : w, row - 8);
			if (!isnan(bars[i].lo) && !isnan(bars[i].hi)) {
				double x1 = label_w + pad + bars[i].lo / max * bar_w;
				double x2 = label_w + pad + bars[i].hi / max * bar_w;
				pl_buf_printf(out,
					      "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%lld\" "
					      "y2=\"%lld\" class=\"err\"/>",
					      x1, x2, y + row / 2, y + row / 2);
			}
		}
		/* seconds and bytes scaled as on the terminal (12.35 ms, 1.50 GiB) */
		bool scaled = unit && (strcmp(unit, "s") == 0 || strcmp(unit, "B") == 0);
		pl_buf_printf(out, "<text x=\"%d\" y=\"%lld\" class=\"val\">%s%s%s</text></g>\n",
			      label_w + pad + bar_w + 6, y + 17,
			      scaled ? pl_fmt_unit(num, sizeof(num), bars[i].value, unit)
				     : pl_fmt_num(num, sizeof(num), bars[i].value),
			      scaled || !unit ? "" : " ", scaled || !unit ? "" : unit);
	}
	pl_buf_puts(out, "</svg>\n");
}
