/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tune/value.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/str.h"

/* Append token [s, s+n) to @b, dropping the leading zeros of a plain decimal number. */
static void put_token(struct pl_buf *b, const char *s, size_t n)
{
	size_t i = 0;
	bool neg = false;
	if (n > 1 && (s[0] == '-' || s[0] == '+')) {
		neg = s[0] == '-';
		i = 1;
	}
	bool num = i < n;
	for (size_t k = i; k < n; k++)
		if (!isdigit((unsigned char)s[k]))
			num = false;
	if (!num) {
		pl_buf_append(b, s, n);
		return;
	}
	while (i + 1 < n && s[i] == '0')
		i++;
	if (neg && !(n - i == 1 && s[i] == '0'))
		pl_buf_puts(b, "-");
	pl_buf_append(b, s + i, n - i);
}

char *pl_tune_value_norm(const char *s)
{
	struct pl_buf b = {0};
	pl_buf_puts(&b, "");
	while (s && *s) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		size_t n = 0;
		while (s[n] && !isspace((unsigned char)s[n]))
			n++;
		if (b.len)
			pl_buf_puts(&b, " ");
		put_token(&b, s, n);
		s += n;
	}
	return pl_buf_steal(&b);
}

char *pl_tune_value_current(const char *raw)
{
	const char *o = strchr(raw, '[');
	const char *c = o ? strchr(o, ']') : NULL;
	if (o && c && c > o + 1 && !memchr(o + 1, ' ', (size_t)(c - o - 1))) {
		/* A selection file: every other word is a plain choice. */
		char *w = pl_xmalloc((size_t)(c - o));
		memcpy(w, o + 1, (size_t)(c - o - 1));
		w[c - o - 1] = '\0';
		return w;
	}
	char *t = pl_xstrdup(raw);
	char *r = pl_trim(t);
	memmove(t, r, strlen(r) + 1);
	return t;
}

bool pl_tune_value_eq(const char *a, const char *b)
{
	char *na = pl_tune_value_norm(a), *nb = pl_tune_value_norm(b);
	bool eq = strcmp(na, nb) == 0;
	free(na);
	free(nb);
	return eq;
}
