/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "util/jcheck.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct pl_jctx {
	struct pl_buf path; /* "$.findings[3]": where the walk is */
	const char *name;
	char *err;
	size_t errlen;
};

const struct pl_jshape pl_jstr = { .types = PL_JT_STR };
const struct pl_jshape pl_jstr_or_null = { .types = PL_JT_STR | PL_JT_NULL };
const struct pl_jshape pl_jbool = { .types = PL_JT_BOOL };
const struct pl_jshape pl_jint = { .types = PL_JT_INT };
const struct pl_jshape pl_jcount = { .types = PL_JT_INT, PL_JRANGE(0, HUGE_VAL) };
const struct pl_jshape pl_jnum = { .types = PL_JT_NUM };
const struct pl_jshape pl_jnum_or_null = { .types = PL_JT_NUM | PL_JT_NULL };
const struct pl_jshape pl_jpct = { .types = PL_JT_NUM, PL_JRANGE(0, 100) };
const struct pl_jshape pl_jstrings = { .types = PL_JT_ARR, .each = &pl_jstr };

static unsigned type_of(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return PL_JT_OBJ;
	case JSON_ARRAY:
		return PL_JT_ARR;
	case JSON_STRING:
		return PL_JT_STR;
	case JSON_INTEGER:
		return PL_JT_INT;
	case JSON_REAL:
		return PL_JT_REAL;
	case JSON_TRUE:
	case JSON_FALSE:
		return PL_JT_BOOL;
	default:
		return PL_JT_NULL;
	}
}

/* "a string or null", "an integer", "a number" */
static void type_names(struct pl_buf *b, unsigned t)
{
	static const struct {
		unsigned bits;
		const char *name;
	} names[] = {
		{ PL_JT_OBJ, "an object" },  { PL_JT_ARR, "an array" },
		{ PL_JT_STR, "a string" },   { PL_JT_NUM, "a number" },
		{ PL_JT_INT, "an integer" }, { PL_JT_REAL, "a number" },
		{ PL_JT_BOOL, "a boolean" }, { PL_JT_NULL, "null" },
	};
	bool first = true;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if ((t & names[i].bits) != names[i].bits)
			continue;
		t &= ~names[i].bits;
		pl_buf_printf(b, "%s%s", first ? "" : " or ", names[i].name);
		first = false;
	}
}

/* A string value in a message: quoted, control characters escaped, cut at 40 bytes. */
static void quoted(struct pl_buf *b, const char *s)
{
	pl_buf_puts(b, "\"");
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++, n++) {
		if (n == 40) {
			pl_buf_puts(b, "...");
			break;
		}
		if (*p < 0x20 || *p == 0x7f)
			pl_buf_printf(b, "\\x%02x", *p);
		else if (*p == '"' || *p == '\\')
			pl_buf_printf(b, "\\%c", *p);
		else
			pl_buf_append(b, (const char *)p, 1);
	}
	pl_buf_puts(b, "\"");
}

void pl_jpath_key(struct pl_buf *path, const char *key)
{
	bool ident = (*key >= 'a' && *key <= 'z') || (*key >= 'A' && *key <= 'Z') || *key == '_';
	for (const char *p = key; ident && *p; p++)
		ident = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' ||
			(*p >= '0' && *p <= '9');
	if (ident) {
		pl_buf_printf(path, ".%s", key);
		return;
	}
	pl_buf_puts(path, "[");
	quoted(path, key);
	pl_buf_puts(path, "]");
}

static int vfail(struct pl_jctx *c, const char *sub, const char *fmt, va_list ap)
{
	struct pl_buf m = { 0 };
	pl_buf_vprintf(&m, fmt, ap);
	snprintf(c->err, c->errlen, "%s: %s%s: %s", c->name, c->path.data, sub, m.data);
	pl_buf_free(&m);
	return -EINVAL;
}

int pl_jfail(struct pl_jctx *c, const char *sub, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vfail(c, sub ? sub : "", fmt, ap);
	va_end(ap);
	return r;
}

static int fail_buf(struct pl_jctx *c, struct pl_buf *m)
{
	int r = pl_jfail(c, "", "%s", m->data);
	pl_buf_free(m);
	return r;
}

static int walk(const json_t *v, const struct pl_jshape *s, struct pl_jctx *c);

/* Walk into @v (member @key, or element @idx when @key is NULL) and back out. */
static int step(const json_t *v, const struct pl_jshape *s, struct pl_jctx *c, const char *key,
		size_t idx)
{
	size_t len = c->path.len;
	if (key)
		pl_jpath_key(&c->path, key);
	else
		pl_buf_printf(&c->path, "[%zu]", idx);
	int r = walk(v, s, c);
	c->path.len = len;
	c->path.data[len] = '\0';
	return r;
}

static int walk(const json_t *v, const struct pl_jshape *s, struct pl_jctx *c)
{
	unsigned t = type_of(v);
	if (s->types && !(s->types & t)) {
		struct pl_buf m = { 0 };
		pl_buf_puts(&m, "expected ");
		type_names(&m, s->types);
		pl_buf_puts(&m, ", got ");
		type_names(&m, t);
		return fail_buf(c, &m);
	}
	if (t == PL_JT_STR) {
		const char *str = json_string_value(v);
		size_t n = json_string_length(v);
		if (memchr(str, '\0', n))
			return pl_jfail(c, "", "the string contains a NUL character (\\u0000)");
		if (n < s->min_len)
			return pl_jfail(c, "", "expected at least %zu character%s, got \"%s\"",
					s->min_len, s->min_len == 1 ? "" : "s", str);
		if (s->max_len && n > s->max_len)
			return pl_jfail(c, "", "longer than %zu bytes (%zu)", s->max_len, n);
		if (s->oneof) {
			const char *const *o = s->oneof;
			while (*o && strcmp(*o, str) != 0)
				o++;
			if (!*o) {
				struct pl_buf m = { 0 };
				pl_buf_puts(&m, "expected one of ");
				for (o = s->oneof; *o; o++)
					pl_buf_printf(&m, "%s%s", o == s->oneof ? "" : ", ", *o);
				pl_buf_puts(&m, "; got ");
				quoted(&m, str);
				return fail_buf(c, &m);
			}
		}
	}
	if ((t & PL_JT_NUM) && s->ranged) {
		double x = json_number_value(v);
		if (!(x >= s->min && x <= s->max)) {
			struct pl_buf m = { 0 };
			if (t == PL_JT_INT)
				pl_buf_printf(&m, "%lld", (long long)json_integer_value(v));
			else
				pl_buf_printf(&m, "%g", x);
			if (s->max == HUGE_VAL)
				pl_buf_printf(&m, " is out of range (expected at least %g)",
					      s->min);
			else
				pl_buf_printf(&m, " is out of range (expected %g to %g)", s->min,
					      s->max);
			return fail_buf(c, &m);
		}
	}
	if (t == PL_JT_ARR) {
		size_t n = json_array_size(v);
		if (n < s->min_len || (s->max_len && n > s->max_len)) {
			if (s->min_len == s->max_len)
				return pl_jfail(c, "", "expected %zu entries, got %zu", s->min_len,
						n);
			if (n < s->min_len)
				return pl_jfail(c, "", "expected at least %zu entr%s, got %zu",
						s->min_len, s->min_len == 1 ? "y" : "ies", n);
			return pl_jfail(c, "", "expected at most %zu entries, got %zu", s->max_len,
					n);
		}
		for (size_t i = 0; s->each && i < n; i++) {
			int r = step(json_array_get(v, i), s->each, c, NULL, i);
			if (r < 0)
				return r;
		}
	}
	if (t == PL_JT_OBJ) {
		for (const struct pl_jmember *m = s->members; m && m->name; m++) {
			const json_t *x = json_object_get(v, m->name);
			if (!x) {
				if (!m->required)
					continue;
				size_t len = c->path.len;
				pl_jpath_key(&c->path, m->name);
				struct pl_buf msg = { 0 };
				unsigned want = m->shape->types;
				pl_buf_puts(&msg, "missing");
				if (want && want != PL_JT_ANY) {
					pl_buf_puts(&msg, " (expected ");
					type_names(&msg, want);
					pl_buf_puts(&msg, ")");
				}
				int r = fail_buf(c, &msg);
				c->path.len = len;
				c->path.data[len] = '\0';
				return r;
			}
			int r = step(x, m->shape, c, m->name, 0);
			if (r < 0)
				return r;
		}
		const char *k;
		json_t *x;
		if (s->each)
			json_object_foreach((json_t *)v, k, x)
			{
				int r = step(x, s->each, c, k, 0);
				if (r < 0)
					return r;
			}
	}
	return s->check ? s->check(v, c) : 0;
}

int pl_jcheck(const json_t *v, const struct pl_jshape *shape, const char *name, char *err,
	      size_t errlen)
{
	struct pl_jctx c = { .name = name, .err = err, .errlen = errlen };
	pl_buf_puts(&c.path, "$");
	int r = walk(v, shape, &c);
	pl_buf_free(&c.path);
	return r;
}
