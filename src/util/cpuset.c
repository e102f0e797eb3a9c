/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "util/cpuset.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sysroot.h"

void pl_cpuset_clear(struct pl_cpuset *s)
{
	memset(s, 0, sizeof(*s));
}

void pl_cpuset_set(struct pl_cpuset *s, unsigned cpu)
{
	if (cpu < PL_MAX_CPUS)
		s->bits[cpu / 64] |= 1ull << (cpu % 64);
}

bool pl_cpuset_isset(const struct pl_cpuset *s, unsigned cpu)
{
	return cpu < PL_MAX_CPUS && (s->bits[cpu / 64] >> (cpu % 64)) & 1;
}

unsigned pl_cpuset_count(const struct pl_cpuset *s)
{
	unsigned n = 0;
	for (size_t i = 0; i < PL_MAX_CPUS / 64; i++)
		n += (unsigned)__builtin_popcountll(s->bits[i]);
	return n;
}

int pl_cpuset_next(const struct pl_cpuset *s, unsigned from)
{
	for (unsigned c = from; c < PL_MAX_CPUS; c++) {
		uint64_t w = s->bits[c / 64] >> (c % 64);
		if (w)
			return (int)(c + (unsigned)__builtin_ctzll(w));
		c |= 63;
	}
	return -1;
}

static int parse_num(const char **p, unsigned long *out)
{
	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	char *end;
	errno = 0;
	unsigned long v = strtoul(*p, &end, 10);
	if (errno == ERANGE || v >= PL_MAX_CPUS)
		return -ERANGE;
	*p = end;
	*out = v;
	return 0;
}

/* pl_cpuset_parse(), with the first number named twice ("0,0", "0-3,2") in *@dup (-1
 * when none). */
static int parse_list(const char *s, struct pl_cpuset *out, int *dup)
{
	*dup = -1;
	struct pl_cpuset set;
	pl_cpuset_clear(&set);
	if (!s)
		return -EINVAL;
	const char *p = s;
	while (isspace((unsigned char)*p))
		p++;
	while (*p && !isspace((unsigned char)*p)) {
		unsigned long a, b;
		int r = parse_num(&p, &a);
		if (r < 0)
			return r;
		b = a;
		if (*p == '-') {
			p++;
			r = parse_num(&p, &b);
			if (r < 0)
				return r;
			if (b < a)
				return -EINVAL;
		}
		for (unsigned long c = a; c <= b; c++) {
			if (*dup < 0 && pl_cpuset_isset(&set, (unsigned)c))
				*dup = (int)c;
			pl_cpuset_set(&set, (unsigned)c);
		}
		if (*p == ',')
			p++;
		else if (*p && !isspace((unsigned char)*p))
			return -EINVAL;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p)
		return -EINVAL;
	*out = set;
	return 0;
}

int pl_cpuset_parse(const char *s, struct pl_cpuset *out)
{
	int dup;
	return parse_list(s, out, &dup);
}

int pl_cpuset_repeated(const char *s)
{
	struct pl_cpuset set;
	int dup;
	return parse_list(s, &set, &dup) < 0 ? -1 : dup;
}

int pl_cpuset_parse_mask(const char *s, struct pl_cpuset *out)
{
	struct pl_cpuset set;
	pl_cpuset_clear(&set);
	if (!s)
		return -EINVAL;
	size_t n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	size_t start = 0;
	while (start < n && isspace((unsigned char)s[start]))
		start++;
	if (start == n)
		return -EINVAL;
	unsigned bit = 0;
	for (size_t i = n; i > start; i--) {
		char c = s[i - 1];
		if (c == ',')
			continue;
		int v;
		if (c >= '0' && c <= '9')
			v = c - '0';
		else if (c >= 'a' && c <= 'f')
			v = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v = c - 'A' + 10;
		else
			return -EINVAL;
		for (int k = 0; k < 4; k++, bit++)
			if ((v >> k) & 1) {
				if (bit >= PL_MAX_CPUS)
					return -ERANGE;
				pl_cpuset_set(&set, bit);
			}
	}
	*out = set;
	return 0;
}

char *pl_cpuset_format(const struct pl_cpuset *s, char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	int c = pl_cpuset_next(s, 0);
	while (c >= 0) {
		int e = c;
		while (e + 1 < PL_MAX_CPUS && pl_cpuset_isset(s, (unsigned)e + 1))
			e++;
		int n = e > c ? snprintf(buf + off, len - off, "%s%d-%d", off ? "," : "", c, e)
			      : snprintf(buf + off, len - off, "%s%d", off ? "," : "", c);
		if (n < 0 || (size_t)n >= len - off)
			break;
		off += (size_t)n;
		c = pl_cpuset_next(s, (unsigned)e + 1);
	}
	return buf;
}

int pl_cpuset_check_online(const char *opt, const char *list, char *err, size_t errlen)
{
	struct pl_cpuset want, online, off;
	if (pl_cpuset_parse(list, &want) < 0)
		return 0; /* the option parser reports the syntax */
	char *s = NULL;
	int r = pl_read_str("/sys/devices/system/cpu/online", &s);
	if (r == 0)
		r = pl_cpuset_parse(s, &online);
	free(s);
	if (r < 0 || pl_cpuset_count(&online) == 0)
		return 0; /* a tree without the online list: nothing to check against */
	pl_cpuset_clear(&off);
	for (int c = pl_cpuset_next(&want, 0); c >= 0; c = pl_cpuset_next(&want, (unsigned)c + 1))
		if (!pl_cpuset_isset(&online, (unsigned)c))
			pl_cpuset_set(&off, (unsigned)c);
	unsigned n = pl_cpuset_count(&off);
	if (n == 0)
		return 0;
	char a[128], b[128];
	pl_cpuset_format(&off, a, sizeof(a));
	pl_cpuset_format(&online, b, sizeof(b));
	snprintf(err, errlen,
		 "%s '%s': CPU%s %s %s not online (online CPUs: %s; give CPUs from that list)", opt,
		 list, n == 1 ? "" : "s", a, n == 1 ? "is" : "are", b);
	return -ENOENT;
}
