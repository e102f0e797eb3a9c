/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "facts/facts.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "util/escape.h"
#include "util/str.h"
#include "util/sysroot.h"

void pl_facts_init(struct pl_facts *f)
{
	memset(f, 0, sizeof(*f));
}

static void fact_clear(struct pl_fact *x)
{
	free(x->key);
	json_decref(x->value);
	free(x->source);
	free(x->unavailable);
	memset(x, 0, sizeof(*x));
}

void pl_facts_free(struct pl_facts *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++)
		fact_clear(&f->v[i]);
	free(f->v);
	free(f->idx);
	memset(f, 0, sizeof(*f));
}

/* FNV-1a, 64 bit (Fowler, Noll, Vo). */
static uint64_t key_hash(const char *key)
{
	uint64_t h = 14695981039346656037ull;
	for (const unsigned char *p = (const unsigned char *)key; *p; p++)
		h = (h ^ *p) * 1099511628211ull;
	return h;
}

/* The index slot of @key in @f: the one that holds it, or the empty one where it would go.
 * @f->idx_cap must be > 0. */
static size_t index_find(const struct pl_facts *f, const char *key)
{
	size_t mask = f->idx_cap - 1, i = (size_t)key_hash(key) & mask;
	while (f->idx[i] && strcmp(f->v[f->idx[i] - 1].key, key) != 0)
		i = (i + 1) & mask;
	return i;
}

/* Rebuild the index at twice the capacity of v (so at most half full). */
static void index_grow(struct pl_facts *f)
{
	free(f->idx);
	f->idx_cap = 2 * f->cap;
	f->idx = pl_xcalloc(f->idx_cap, sizeof(*f->idx));
	for (size_t k = 0; k < f->n; k++)
		f->idx[index_find(f, f->v[k].key)] = k + 1;
}

static struct pl_fact *slot(struct pl_facts *f, const char *key)
{
	size_t i = f->idx_cap ? index_find(f, key) : 0;
	if (f->idx_cap && f->idx[i]) {
		struct pl_fact *x = &f->v[f->idx[i] - 1];
		fact_clear(x);
		x->key = pl_xstrdup(key);
		return x;
	}
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 128;
		f->v = pl_xrealloc(f->v, f->cap * sizeof(*f->v));
		index_grow(f);
		i = index_find(f, key);
	}
	struct pl_fact *x = &f->v[f->n++];
	memset(x, 0, sizeof(*x));
	x->key = pl_xstrdup(key);
	f->idx[i] = f->n;
	return x;
}

void pl_fact_set(struct pl_facts *f, const char *key, json_t *value, const char *source)
{
	struct pl_fact *x = slot(f, key);
	x->value = value ? value : json_null();
	x->source = source ? pl_xstrdup(source) : NULL;
}

void pl_fact_str(struct pl_facts *f, const char *key, const char *value, const char *source)
{
	pl_fact_set(f, key, pl_json_string(value ? value : ""), source);
}

void pl_fact_int(struct pl_facts *f, const char *key, int64_t value, const char *source)
{
	pl_fact_set(f, key, json_integer(value), source);
}

void pl_fact_bool(struct pl_facts *f, const char *key, bool value, const char *source)
{
	pl_fact_set(f, key, json_boolean(value), source);
}

static void vunavailable(struct pl_facts *f, const char *key, const char *fmt, va_list ap)
{
	struct pl_fact *x = slot(f, key);
	struct pl_buf b = { 0 };
	pl_buf_vprintf(&b, fmt, ap);
	x->unavailable = pl_buf_steal(&b);
}

void pl_fact_unavailable(struct pl_facts *f, const char *key, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vunavailable(f, key, fmt, ap);
	va_end(ap);
}

void pl_fact_str_or(struct pl_facts *f, const char *key, const char *value, const char *source,
		    const char *fmt, ...)
{
	if (value) {
		pl_fact_str(f, key, value, source);
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	vunavailable(f, key, fmt, ap);
	va_end(ap);
}

int pl_fact_from_file_str(struct pl_facts *f, const char *key, const char *path)
{
	char *s;
	int r = pl_read_str(path, &s);
	if (r < 0) {
		pl_fact_unavailable(f, key, "%s: %s", path, pl_read_strerror(r));
		return r;
	}
	pl_fact_str(f, key, s, path);
	free(s);
	return 0;
}

int pl_fact_from_file_int(struct pl_facts *f, const char *key, const char *path)
{
	int64_t v;
	int r = pl_read_i64(path, &v);
	if (r < 0) {
		pl_fact_unavailable(f, key, "%s: %s", path, pl_read_strerror(r));
		return r;
	}
	pl_fact_int(f, key, v, path);
	return 0;
}

void pl_fact_uint(struct pl_facts *f, const char *key, uint64_t value, const char *source)
{
	if (value > INT64_MAX)
		pl_fact_unavailable(f, key, "%s: out of range (%llu)", source ? source : "?",
				    (unsigned long long)value);
	else
		pl_fact_int(f, key, (int64_t)value, source);
}

int pl_fact_from_file_uint(struct pl_facts *f, const char *key, const char *path)
{
	uint64_t v;
	int r = pl_read_u64(path, &v);
	if (r < 0) {
		pl_fact_unavailable(f, key, "%s: %s", path,
				    r == -EINVAL ? "not a number, or negative"
						 : pl_read_strerror(r));
		return r;
	}
	pl_fact_uint(f, key, v, path);
	return v > INT64_MAX ? -ERANGE : 0;
}

const struct pl_fact *pl_facts_get(const struct pl_facts *f, const char *key)
{
	if (f->idx_cap) {
		size_t i = index_find(f, key);
		if (f->idx[i])
			return &f->v[f->idx[i] - 1];
	}
	return NULL;
}

const json_t *pl_facts_value(const struct pl_facts *f, const char *key)
{
	const struct pl_fact *x = pl_facts_get(f, key);
	return x ? x->value : NULL;
}

const char *pl_facts_get_str(const struct pl_facts *f, const char *key)
{
	const json_t *v = pl_facts_value(f, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

bool pl_facts_get_int(const struct pl_facts *f, const char *key, int64_t *out)
{
	const json_t *v = pl_facts_value(f, key);
	if (json_is_integer(v)) {
		*out = json_integer_value(v);
		return true;
	}
	if (json_is_boolean(v)) {
		*out = json_is_true(v);
		return true;
	}
	return false;
}

bool pl_facts_get_bool(const struct pl_facts *f, const char *key, bool *out)
{
	const json_t *v = pl_facts_value(f, key);
	if (!json_is_boolean(v))
		return false;
	*out = json_is_true(v);
	return true;
}

json_t *pl_facts_to_json(const struct pl_facts *f, const char *prefix)
{
	json_t *o = json_object();
	for (size_t i = 0; i < f->n; i++) {
		const struct pl_fact *x = &f->v[i];
		if (prefix && !pl_startswith(x->key, prefix))
			continue;
		json_t *e = json_object();
		if (x->unavailable) {
			json_object_set_new(e, "unavailable", pl_json_string(x->unavailable));
		} else {
			json_object_set(e, "value", x->value);
			if (x->source)
				json_object_set_new(e, "source", pl_json_string(x->source));
		}
		/* keys carry names from the machine tree (devices, interfaces, kernel
		 * parameters): no control characters or invalid UTF-8 in a key */
		char *k = pl_str_escape(x->key, PL_ESC_TERM);
		pl_json_set(o, k, e);
		free(k);
	}
	return o;
}

/* @v appended to @b in words: see pl_fact_value_text. @nested: inside an object or a
 * list of objects, where a list of scalars is bracketed so its commas stay apart from
 * the enclosing list's. */
static void value_text(struct pl_buf *b, const json_t *v, bool nested)
{
	size_t i;
	const char *k;
	json_t *e;
	if (json_is_string(v)) {
		pl_buf_puts(b, json_string_value(v));
	} else if (json_is_real(v)) {
		pl_buf_printf(b, "%.9g", json_real_value(v));
	} else if (json_is_object(v)) {
		if (nested)
			pl_buf_printf(b, "{");
		bool first = true;
		json_object_foreach((json_t *)v, k, e)
		{
			pl_buf_printf(b, "%s%s=", first ? "" : ", ", k);
			value_text(b, e, true);
			first = false;
		}
		if (nested)
			pl_buf_printf(b, "}");
	} else if (json_is_array(v)) {
		bool scalars = true;
		json_array_foreach(v, i, e) if (json_is_object(e) || json_is_array(e)) scalars =
			false;
		if (nested && scalars)
			pl_buf_printf(b, "[");
		json_array_foreach(v, i, e)
		{
			if (i)
				pl_buf_printf(b, scalars ? ", " : "; ");
			value_text(b, e, !scalars && !json_is_object(e));
		}
		if (nested && scalars)
			pl_buf_printf(b, "]");
	} else {
		char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		pl_buf_printf(b, "%s", s ? s : "?");
		free(s);
	}
}

char *pl_fact_value_text(const json_t *v)
{
	struct pl_buf b = { 0 };
	value_text(&b, v, false);
	return pl_buf_steal(&b);
}

char *pl_fact_value_human(const char *key, const json_t *v)
{
	size_t kl = strlen(key);
	char b[64];
	if (json_is_integer(v) && json_integer_value(v) >= 0 && kl > 6 &&
	    strcmp(key + kl - 6, "_bytes") == 0)
		return pl_xstrdup(pl_fmt_size(b, sizeof(b), (double)json_integer_value(v)));
	if (json_is_real(v) && isfinite(json_real_value(v))) {
		snprintf(b, sizeof(b), "%.5g", json_real_value(v));
		return pl_xstrdup(b);
	}
	return pl_fact_value_text(v);
}

static const char *const *wanted;

void pl_facts_set_wanted(const char *const *keys)
{
	wanted = keys;
}

bool pl_facts_wanted(const char *key)
{
	if (!wanted)
		return true;
	size_t kl = strlen(key);
	for (const char *const *w = wanted; *w; w++) {
		size_t wl = strlen(*w);
		size_t n = wl < kl ? wl : kl;
		/* equal, or one the other's prefix ending at a '.' of the longer */
		if (strncmp(*w, key, n) == 0 &&
		    (wl == kl || (wl < kl ? key[wl] == '.' : (*w)[kl] == '.')))
			return true;
	}
	return false;
}

void pl_facts_collect_all(struct pl_facts *f)
{
	for (size_t i = 0; i < pl_ncollectors; i++)
		pl_collectors[i].collect(f);
}

int pl_facts_collect(struct pl_facts *f, const char *domains)
{
	if (!domains) {
		pl_facts_collect_all(f);
		return 0;
	}
	char **want = pl_split(domains, ",", NULL);
	for (char **w = want; *w; w++) {
		bool found = false;
		for (size_t i = 0; i < pl_ncollectors; i++)
			found |= strcmp(pl_collectors[i].name, *w) == 0;
		if (!found) {
			pl_strv_free(want);
			return -EINVAL;
		}
	}
	for (size_t i = 0; i < pl_ncollectors; i++)
		for (char **w = want; *w; w++)
			if (strcmp(pl_collectors[i].name, *w) == 0)
				pl_collectors[i].collect(f);
	pl_strv_free(want);
	return 0;
}

size_t pl_facts_navailable(const struct pl_facts *f)
{
	size_t n = 0;
	for (size_t i = 0; i < f->n; i++)
		n += !f->v[i].unavailable;
	return n;
}
