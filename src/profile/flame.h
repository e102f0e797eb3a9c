/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Flame graphs (Brendan Gregg's visualisation of folded stacks): a trie of frame names
 * read from folded lines ("a;b;c 12"), written as one self-contained SVG with inline
 * JavaScript (hover for samples and %, click to zoom, search). Children are ordered by
 * name and colours come from a hash of the name, so equal input gives a byte-identical
 * file. */
#ifndef PERFLAB_PROFILE_FLAME_H
#define PERFLAB_PROFILE_FLAME_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct pl_flame;

/** A timeline strip drawn above the flame graph: @nrows rows (threads or CPUs) of
 *  @nbuckets sample counts each, row-major in @counts; @labels has @nrows names. */
struct pl_flame_timeline {
	size_t nrows, nbuckets;
	const uint64_t *counts;
	const char *const *labels;
	double bucket_ms;
};

/** New empty flame graph. Never NULL. */
struct pl_flame *pl_flame_new(void);
/** Free. NULL-safe. */
void pl_flame_free(struct pl_flame *f);
/** Add one folded line ("frame;frame;...;leaf COUNT", trailing newline allowed).
 *  Returns 0, or -EINVAL when the line has no count; empty lines are ignored. */
int pl_flame_add_line(struct pl_flame *f, const char *line);
/** Add every line of @in. Returns 0, or -EINVAL with *@bad_line (1-based) set. */
int pl_flame_read(struct pl_flame *f, FILE *in, size_t *bad_line);
/** Total samples added. */
uint64_t pl_flame_total(const struct pl_flame *f);
/** Write the SVG with @title (XML-escaped) and an optional @tl strip (NULL = none).
 *  Returns 0 or -EIO. */
int pl_flame_write_svg(const struct pl_flame *f, FILE *out, const char *title,
		       const struct pl_flame_timeline *tl);

#endif
