/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "render/htmltext.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "render/svg.h"

/* @p[0..n) escaped into @out. */
static void escape_n(struct pl_buf *out, const char *p, size_t n)
{
	char *t = pl_xmalloc(n + 1);
	memcpy(t, p, n);
	t[n] = '\0';
	pl_html_escape(out, t);
	free(t);
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The units a number may stand before, longest first where one starts another. */
static const char *const units[] = {
	"ns",	  "us",	   "\xc2\xb5s", "ms",  "min", "s",    "h",     "KiB/s",	 "MiB/s",  "GiB/s",
	"TiB/s",  "KiB",   "MiB",	"GiB", "TiB", "kB/s", "KB/s",  "MB/s",	 "GB/s",   "TB/s",
	"B/s",	  "kB",	   "KB",	"MB",  "GB",  "TB",   "B",     "kbit/s", "Kbit/s", "Mbit/s",
	"Gbit/s", "bit/s", "kHz",	"MHz", "GHz", "Hz",   "ops/s", "/s",	 "%",	   "W",
};

/* The length of the unit at @p (one of units[], not followed by a letter, digit or '/'),
 * or 0 when there is none. */
static size_t unit_len(const char *p)
{
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t n = strlen(units[i]);
		if (strncmp(p, units[i], n) == 0 && !is_alpha(p[n]) && !is_digit(p[n]) &&
		    p[n] != '/')
			return n;
	}
	return 0;
}

/* The length of the number at @p with its unit ("39.89 ns", "93454/s"), or 0 when @p
 * does not start a number followed by a unit. */
static size_t figure_len(const char *p)
{
	size_t n = 0;
	while (is_digit(p[n]) || ((p[n] == '.' || p[n] == ',') && is_digit(p[n + 1])))
		n++;
	/* "39.89 ns" and "93454/s" (a line may break after a '/') */
	size_t u = p[n] == ' ' ? unit_len(p + n + 1) : p[n] == '/' ? unit_len(p + n) : 0;
	return u ? n + (p[n] == ' ') + u : 0;
}

void pl_html_text(struct pl_buf *out, const char *s)
{
	const char *p = s ? s : "", *start = p;
	while (*p) {
		size_t f = 0;
		/* a number starts after something that is not part of a word or number */
		if (is_digit(*p) && (p == start || !(is_alpha(p[-1]) || is_digit(p[-1]) ||
						     p[-1] == '.' || p[-1] == '_')))
			f = figure_len(p);
		if (f == 0) {
			size_t k = 1;
			while (p[k] && !is_digit(p[k]))
				k++;
			escape_n(out, p, k);
			p += k;
			continue;
		}
		pl_buf_puts(out, "<span class=\"nw\">");
		escape_n(out, p, f);
		pl_buf_puts(out, "</span>");
		p += f;
	}
}

void pl_html_wbr(struct pl_buf *out, const char *s, const char *after)
{
	const char *p = s ? s : "";
	while (*p) {
		size_t k = strcspn(p, after);
		bool brk = p[k] != '\0';
		escape_n(out, p, k + brk);
		p += k + brk;
		if (brk && *p)
			pl_buf_puts(out, "<wbr>");
	}
}
