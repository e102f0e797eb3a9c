/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Option vectors (tune/profile_internal.h): options in first-definition order with a
 * hash index by key. */
#include "tune/profile_internal.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/str.h"

/* Option vectors carry a hash index by key (open addressing, linear probing), so that
 * merging and ${} expansion stay linear in the input: a profile with 100000 options or
 * variable references must not take minutes (FNV-1a, public domain constants). */
static size_t key_hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (size_t)h;
}

/* The slot of @key in @o's index: the one holding it, or the empty one where it goes. */
static size_t *opts_slot(const struct pl_tune_opts *o, const char *key)
{
	size_t m = o->nslot - 1;
	for (size_t i = key_hash(key) & m;; i = (i + 1) & m) {
		size_t *sl = &o->slot[i];
		if (*sl == 0 || strcmp(o->v[*sl - 1].key, key) == 0)
			return sl;
	}
}

static void opts_reindex(struct pl_tune_opts *o)
{
	size_t want = 16;
	while (want < 2 * (o->n + 1))
		want *= 2;
	if (want != o->nslot) {
		free(o->slot);
		o->slot = pl_xcalloc(want, sizeof(*o->slot));
		o->nslot = want;
	} else {
		memset(o->slot, 0, want * sizeof(*o->slot));
	}
	for (size_t i = 0; i < o->n; i++)
		*opts_slot(o, o->v[i].key) = i + 1;
}

const struct pl_tune_opt *pl_tune_opts_get(const struct pl_tune_opts *o, const char *key)
{
	if (o->slot) {
		size_t sl = *opts_slot(o, key);
		return sl ? &o->v[sl - 1] : NULL;
	}
	for (size_t i = 0; i < o->n; i++)
		if (strcmp(o->v[i].key, key) == 0)
			return &o->v[i];
	return NULL;
}

static void opt_free(struct pl_tune_opt *o)
{
	free(o->key);
	free(o->value);
	free(o->expanded);
	free(o->file);
	free(o->profile);
}

void pl_tune_opts_free(struct pl_tune_opts *o)
{
	for (size_t i = 0; i < o->n; i++)
		opt_free(&o->v[i]);
	free(o->v);
	free(o->slot);
	memset(o, 0, sizeof(*o));
}

/* Set key to a copy of @src (OrderedDict semantics: an existing key keeps its place). */
void pl_tune_opts_set(struct pl_tune_opts *o, const struct pl_tune_opt *src)
{
	if (!o->slot)
		opts_reindex(o);
	size_t *sl = opts_slot(o, src->key);
	struct pl_tune_opt *d;
	if (*sl) {
		d = &o->v[*sl - 1];
		opt_free(d);
	} else {
		if (o->n == o->cap) {
			o->cap = o->cap ? o->cap * 2 : 8;
			o->v = pl_xrealloc(o->v, o->cap * sizeof(*o->v));
		}
		d = &o->v[o->n++];
		*sl = o->n;
	}
	d->key = pl_xstrdup(src->key);
	d->value = pl_xstrdup(src->value);
	d->expanded = src->expanded ? pl_xstrdup(src->expanded) : NULL;
	d->file = pl_xstrdup(src->file);
	d->profile = pl_xstrdup(src->profile);
	d->line = src->line;
	if (2 * (o->n + 1) > o->nslot)
		opts_reindex(o);
}

/* Remove the options named in @keys (NULL-terminated), keeping the order of the rest:
 * one pass however many keys `drop=` names. */
void pl_tune_opts_drop(struct pl_tune_opts *o, char *const *keys)
{
	if (!o->slot)
		opts_reindex(o);
	bool *gone = NULL;
	for (size_t k = 0; keys[k]; k++) {
		size_t sl = *opts_slot(o, keys[k]);
		if (!sl)
			continue;
		if (!gone)
			gone = pl_xcalloc(o->n, sizeof(*gone));
		gone[sl - 1] = true;
	}
	if (!gone)
		return;
	size_t w = 0;
	for (size_t i = 0; i < o->n; i++) {
		if (gone[i])
			opt_free(&o->v[i]);
		else
			o->v[w++] = o->v[i];
	}
	o->n = w;
	free(gone);
	opts_reindex(o);
}

void pl_tune_opts_copy(struct pl_tune_opts *dst, const struct pl_tune_opts *src)
{
	for (size_t i = 0; i < src->n; i++)
		pl_tune_opts_set(dst, &src->v[i]);
}
