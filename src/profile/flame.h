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

#include "util/cleanup.h"

struct pl_flame;

/** A timeline strip drawn above the flame graph: @nrows rows (threads or CPUs) of
 *  @nbuckets sample counts each, row-major in @counts; @labels has @nrows names. */
struct pl_flame_timeline {
	size_t nrows, nbuckets;
	const uint64_t *counts;
	const char *const *labels;
	double bucket_ms;
};

/** Most frames in one folded stack: deeper stacks are refused (-E2BIG). Far above what
 *  a profiler records (kernel.perf_event_max_stack is 127 by default); it bounds the
 *  SVG (one row per frame) and the work a hostile file can cause. */
#define PL_FLAME_MAX_DEPTH 65536
/** Most frames drawn from the root in the SVG: deeper frames are left out (and the SVG
 *  says so), so that one deep stack (a broken unwind) does not make the picture so tall
 *  that the rest is off the screen. kernel.perf_event_max_stack's default (127) plus the
 *  thread's name fits. */
#define PL_FLAME_DRAW_DEPTH 128
/** Longest folded line pl_flame_read accepts, in bytes (-EMSGSIZE). */
#define PL_FLAME_MAX_LINE (16u << 20)

/** New empty flame graph. Never NULL. */
struct pl_flame *pl_flame_new(void);
/** Free. NULL-safe. */
void pl_flame_free(struct pl_flame *f);
PL_DEFINE_CLEANUP(struct pl_flame, pl_flame_free, pl_flame_free)
/** A struct pl_flame * freed with pl_flame_free at scope exit. */
#define pl_autoflame __attribute__((cleanup(pl_flame_freep)))
/** Check a folded stack (@len bytes at @stack, "comm;frame;...;leaf", no count): 0, or
 *  -ENODATA (empty), -ENOMSG (an empty frame name: ";;", or ';' at either end) or -E2BIG
 *  (more than PL_FLAME_MAX_DEPTH frames). */
int pl_flame_check_stack(const char *stack, size_t len);
/** Add @count samples of @stack (@len bytes, checked as pl_flame_check_stack does). A
 *  run of identical "[unknown]" frames (also with the _[k] or _[o] mark) is added as one
 *  frame: a broken unwind repeats the same unresolved frame. Returns 0, the error of
 * pl_flame_check_stack, or -EOVERFLOW when the total would pass 2^64-1 (nothing is added then).
 * Every node's count is at most the total, so no count wraps. */
int pl_flame_add(struct pl_flame *f, const char *stack, size_t len, uint64_t count);
/** Add one folded line ("frame;frame;...;leaf COUNT", the count after the last space or
 *  tab; a trailing newline and whitespace allowed; lines of only whitespace ignored).
 *  COUNT is decimal digits only, 0 to 2^64-1. Returns 0 or a negative errno that
 *  pl_flame_strerror explains: -EINVAL (no count), -EDOM (the count is not digits: a
 *  sign, letters, a fraction), -ERANGE (the count is past 2^64-1), or an error of
 *  pl_flame_add. Nothing is added on an error. */
int pl_flame_add_line(struct pl_flame *f, const char *line);
/** Add every line of @in. Returns 0, or a negative errno of pl_flame_add_line, -EMSGSIZE
 *  (a line longer than PL_FLAME_MAX_LINE) or -EILSEQ (a NUL byte in a line), with
 *  *@bad_line (1-based) set; reading stops at the first bad line. */
int pl_flame_read(struct pl_flame *f, FILE *in, size_t *bad_line);
/** The reason for an error of pl_flame_add_line or pl_flame_read, as a phrase for
 *  "FILE:LINE: REASON". Never NULL. */
const char *pl_flame_strerror(int err);
/** Name the unit of the counts ("us" for a graph of microseconds; lowercase letters, at
 *  most 15; anything else is ignored): the frames' tooltips say "N UNIT". Default
 *  "samples". */
void pl_flame_set_unit(struct pl_flame *f, const char *unit);
/** Total samples added. */
uint64_t pl_flame_total(const struct pl_flame *f);
/** Write the SVG with @title (XML-escaped) and an optional @tl strip (NULL = none; a
 *  strip whose nrows x nbuckets overflows size_t is -EOVERFLOW, nothing written). Frames
 *  deeper than PL_FLAME_DRAW_DEPTH are not drawn; a line under the title then says how
 *  deep the stacks were. Returns 0, -EOVERFLOW or -EIO. */
int pl_flame_write_svg(const struct pl_flame *f, FILE *out, const char *title,
		       const struct pl_flame_timeline *tl);

#endif
