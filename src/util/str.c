/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "util/str.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void oom(void)
{
	fputs("perflab: error: out of memory\n", stderr);
	abort();
}

void *pl_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *pl_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

void *pl_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *pl_xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");
	if (!p)
		oom();
	return p;
}

char *pl_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	int r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		oom();
	return s;
}

char *pl_trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

bool pl_startswith(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

static bool only_space(const char *s)
{
	return *skip_space(s) == '\0';
}

int pl_parse_u64(const char *s, uint64_t *out)
{
	if (!s)
		return -EINVAL;
	s = skip_space(s);
	if (*s == '\0' || *s == '-' || *s == '+')
		return -EINVAL;
	char *end;
	errno = 0;
	/* decimal or 0x hex, as documented; base 0 would read "010" as octal 8 */
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	unsigned long long v = strtoull(s, &end, hex ? 16 : 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s || !only_space(end))
		return -EINVAL;
	*out = v;
	return 0;
}

int pl_parse_i64(const char *s, int64_t *out)
{
	if (!s)
		return -EINVAL;
	s = skip_space(s);
	if (*s == '\0')
		return -EINVAL;
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s || !only_space(end))
		return -EINVAL;
	*out = v;
	return 0;
}

int pl_parse_double(const char *s, double *out)
{
	if (!s)
		return -EINVAL;
	s = skip_space(s);
	if (*s == '\0')
		return -EINVAL;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s || !only_space(end) || !isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

/* Split "12.5kib" into the number and its unit; the unit is lower-cased into @unit. */
static int split_unit(const char *s, double *num, char *unit, size_t ulen)
{
	if (!s)
		return -EINVAL;
	s = skip_space(s);
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || errno == ERANGE || !isfinite(v) || v < 0)
		return end == s ? -EINVAL : (errno == ERANGE ? -ERANGE : -EINVAL);
	size_t i = 0;
	while (*end && !isspace((unsigned char)*end) && i + 1 < ulen)
		unit[i++] = (char)tolower((unsigned char)*end++);
	unit[i] = '\0';
	if (!only_space(end))
		return -EINVAL;
	*num = v;
	return 0;
}

int pl_parse_size(const char *s, uint64_t *out)
{
	double v;
	char unit[8];
	int r = split_unit(s, &v, unit, sizeof(unit));
	if (r < 0)
		return r;
	static const struct {
		const char *u;
		double mul;
	} units[] = {
		{ "", 1 },	  { "b", 1 },	     { "k", 0x1p10 }, { "kb", 0x1p10 },
		{ "ki", 0x1p10 }, { "kib", 0x1p10 }, { "m", 0x1p20 }, { "mb", 0x1p20 },
		{ "mi", 0x1p20 }, { "mib", 0x1p20 }, { "g", 0x1p30 }, { "gb", 0x1p30 },
		{ "gi", 0x1p30 }, { "gib", 0x1p30 }, { "t", 0x1p40 }, { "tb", 0x1p40 },
		{ "ti", 0x1p40 }, { "tib", 0x1p40 }, { "p", 0x1p50 }, { "pb", 0x1p50 },
		{ "pi", 0x1p50 }, { "pib", 0x1p50 }, { "e", 0x1p60 }, { "eb", 0x1p60 },
		{ "ei", 0x1p60 }, { "eib", 0x1p60 },
	};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(units[i].u, unit) == 0) {
			double b = v * units[i].mul;
			if (b >= 0x1p64)
				return -ERANGE;
			if (b != floor(b))
				return -EINVAL;
			*out = (uint64_t)b;
			return 0;
		}
	}
	return -EINVAL;
}

int pl_parse_duration(const char *s, double *out_seconds)
{
	double v;
	char unit[8];
	int r = split_unit(s, &v, unit, sizeof(unit));
	if (r < 0)
		return r;
	static const struct {
		const char *u;
		double mul;
	} units[] = {
		{ "", 1 },   { "s", 1 },    { "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 },
		{ "m", 60 }, { "min", 60 }, { "h", 3600 },  { "d", 86400 },
	};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(units[i].u, unit) == 0) {
			double sec = v * units[i].mul;
			if (!isfinite(sec)) /* "1e308h" */
				return -ERANGE;
			*out_seconds = sec;
			return 0;
		}
	}
	return -EINVAL;
}

void pl_buf_append(struct pl_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		while (cap < b->len + n + 1)
			cap *= 2;
		b->data = pl_xrealloc(b->data, cap);
		b->cap = cap;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void pl_buf_puts(struct pl_buf *b, const char *s)
{
	pl_buf_append(b, s, strlen(s));
}

void pl_buf_vprintf(struct pl_buf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return;
	if (b->len + (size_t)n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		while (cap < b->len + (size_t)n + 1)
			cap *= 2;
		b->data = pl_xrealloc(b->data, cap);
		b->cap = cap;
	}
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void pl_buf_printf(struct pl_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pl_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

char *pl_buf_steal(struct pl_buf *b)
{
	char *s = b->data ? b->data : pl_xstrdup("");
	b->data = NULL;
	b->len = b->cap = 0;
	return s;
}

void pl_buf_free(struct pl_buf *b)
{
	if (!b)
		return;
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

int pl_fmt_g(char *buf, size_t len, double v, int prec)
{
	/* exact doubles: 10^0 .. 10^22 are representable, and prec - 1 - e <= 12 here */
	static const double p10[] = { 1e0, 1e1, 1e2, 1e3,  1e4,	 1e5,  1e6,
				      1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13 };
	double a = fabs(v);
	if (prec < 1 || prec > 9 || !(a >= 1e-4) || !(a < p10[prec]) || len < 24)
		return snprintf(buf, len, "%.*g", prec, v);
	/* the decimal exponent e: 10^e <= a < 10^(e+1); a guess off by one at a power of
	 * ten (1e-3 is not exact) shows as a digit count other than prec below */
	int e = 0;
	if (a >= 1) {
		while (e + 1 < prec && a >= p10[e + 1])
			e++;
	} else {
		while (e > -4 && a * p10[-e] < 1)
			e--;
	}
	int k = prec - 1 - e; /* 0 .. 12 */
	double y = a * p10[k];
	double fl = floor(y), frac = y - fl;
	if (fabs(frac - 0.5) < 1e-6)
		return snprintf(buf, len, "%.*g", prec, v);
	uint64_t r = (uint64_t)fl + (frac > 0.5);
	uint64_t lo = (uint64_t)p10[prec - 1], hi = (uint64_t)p10[prec];
	if (r == hi && e + 1 < prec) { /* 9.99..95 rounds up to the next decade */
		r = lo;
		e++;
	} else if (r < lo || r >= hi) {
		return snprintf(buf, len, "%.*g", prec, v);
	}
	char d[10];
	for (int i = prec - 1; i >= 0; i--, r /= 10)
		d[i] = (char)('0' + r % 10);
	/* %g without '#': P - 1 - e decimals, trailing zeros and a bare point removed */
	int nd = prec;
	while (nd > 1 && nd > e + 1 && d[nd - 1] == '0')
		nd--;
	size_t n = 0;
	if (signbit(v))
		buf[n++] = '-';
	if (e >= 0) {
		for (int i = 0; i <= e; i++)
			buf[n++] = d[i];
		if (nd > e + 1) {
			buf[n++] = '.';
			for (int i = e + 1; i < nd; i++)
				buf[n++] = d[i];
		}
	} else {
		buf[n++] = '0';
		buf[n++] = '.';
		for (int i = -1; i > e; i--)
			buf[n++] = '0';
		for (int i = 0; i < nd; i++)
			buf[n++] = d[i];
	}
	buf[n] = '\0';
	return (int)n;
}

char **pl_split(const char *s, const char *seps, size_t *n)
{
	size_t cap = 8, cnt = 0;
	char **v = pl_xmalloc(cap * sizeof(*v));
	const char *p = s ? s : "";
	while (*p) {
		p += strspn(p, seps);
		if (!*p)
			break;
		size_t len = strcspn(p, seps);
		if (cnt + 2 > cap) {
			cap *= 2;
			v = pl_xrealloc(v, cap * sizeof(*v));
		}
		v[cnt] = pl_xmalloc(len + 1);
		memcpy(v[cnt], p, len);
		v[cnt][len] = '\0';
		cnt++;
		p += len;
	}
	v[cnt] = NULL;
	if (n)
		*n = cnt;
	return v;
}

void pl_strv_free(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

char *pl_fmt_size(char *buf, size_t len, double bytes)
{
	static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	size_t i = 0;
	double v = bytes;
	while (v >= 1024 && i + 1 < sizeof(u) / sizeof(u[0])) {
		v /= 1024;
		i++;
	}
	if (v == floor(v))
		snprintf(buf, len, "%.0f %s", v, u[i]);
	else
		snprintf(buf, len, "%.2f %s (%.0f B)", v, u[i], bytes);
	return buf;
}

char *pl_fmt_duration(char *buf, size_t len, double seconds)
{
	static const struct {
		const char *u;
		double s;
	} units[] = {
		{ "d", 86400 }, { "h", 3600 },	{ "min", 60 },	{ "s", 1 },
		{ "ms", 1e-3 }, { "us", 1e-6 }, { "ns", 1e-9 },
	};
	size_t i = 0;
	while (i + 1 < sizeof(units) / sizeof(units[0]) && seconds < units[i].s)
		i++;
	if (seconds == 0)
		i = 3; /* "0s" */
	snprintf(buf, len, "%.4g%s", seconds / units[i].s, units[i].u);
	return buf;
}

char *pl_fmt_bytes(char *buf, size_t len, double bytes)
{
	static const char *u[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	size_t i = 0;
	while (bytes >= 1024 && i + 1 < sizeof(u) / sizeof(u[0])) {
		bytes /= 1024;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%.0f %s", bytes, u[i]);
	else
		snprintf(buf, len, "%.2f %s", bytes, u[i]);
	return buf;
}

char *pl_fmt_unit(char *buf, size_t len, double x, const char *unit)
{
	double a = fabs(x);
	/* times in ns, us or ms are scaled like seconds (an io latency of 2.5e6 ns is 2.5 ms) */
	static const struct {
		const char *u;
		double s;
	} sub[] = { { "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 } };
	for (size_t i = 0; unit && i < sizeof(sub) / sizeof(sub[0]); i++)
		if (strcmp(unit, sub[i].u) == 0)
			return pl_fmt_unit(buf, len, x * sub[i].s, "s");
	if (isnan(x)) {
		snprintf(buf, len, "-");
	} else if (unit && strcmp(unit, "s") == 0) {
		if (a >= 1 || a == 0)
			snprintf(buf, len, "%.4g s", x);
		else if (a >= 1e-3)
			snprintf(buf, len, "%.4g ms", x * 1e3);
		else if (a >= 1e-6)
			snprintf(buf, len, "%.4g us", x * 1e6);
		else
			snprintf(buf, len, "%.4g ns", x * 1e9);
	} else if (unit && strcmp(unit, "B") == 0) {
		char b[48];
		snprintf(buf, len, "%s%s", x < 0 ? "-" : "", pl_fmt_bytes(b, sizeof(b), a));
	} else {
		/* a rate as "25000/s" and a count as the bare number: the JSON keeps the
		 * metric's unit ("1/s", "count"), words on screen do not need it */
		const char *sep = " ";
		if (unit && strcmp(unit, "1/s") == 0) {
			unit = "/s";
			sep = "";
		} else if (unit && strcmp(unit, "count") == 0) {
			unit = "";
		}
		/* whole numbers from 10^4 on, not %g's exponent ("25000/s", not "2.5e+04") */
		snprintf(buf, len, a >= 1e4 && a < 1e15 ? "%.0f%s%s" : "%.4g%s%s", x,
			 unit && *unit ? sep : "", unit ? unit : "");
	}
	return buf;
}
