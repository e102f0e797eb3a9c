/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The outputs of --off-cpu and --wall (profile/offcpu.h): the text sections (the share of
 * wall time off CPU, the top off-CPU stacks with their wakers, the per-thread scheduler
 * summary, the run-queue latency histogram, the run/wait/blocked timeline), the "off_cpu"
 * member of the --json document (docs/schemas/profile.schema.json) and the folded stacks
 * of the off-CPU and wall-clock flame graphs, in microseconds. */
#ifndef PERFLAB_PROFILE_OFFCPU_OUTPUT_H
#define PERFLAB_PROFILE_OFFCPU_OUTPUT_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profile/aggregate.h"
#include "profile/offcpu.h"
#include "profile/profile.h"

/** The symbolized stacks of an analysis: one chain of @r per distinct stack of its
 *  off-CPU stacks and wakers. Owned; free with pl_offcpu_names_free(). */
struct pl_offcpu_names {
	struct pl_preport r;
	uint32_t *stk_chain; /**< per pl_offcpu.stk: its chain in @r */
	uint32_t *wak_chain; /**< per pl_offcpu.wak: its chain in @r */
};

/** Symbolize the stacks of @o in @p (threads missing from @p are created, as
 *  pl_profile_thread does). */
void pl_offcpu_names_build(struct pl_offcpu_names *nm, const struct pl_offcpu *o,
			   struct pl_profile *p);
/** Free. NULL-safe; @nm may be zero-initialised. */
void pl_offcpu_names_free(struct pl_offcpu_names *nm);

/** The losses line(s) of the off-CPU text to @out: events lost and their gaps, intervals
 *  dropped across them (or with contradicting ends) with their time, intervals clipped at
 *  the window's edges; each line only when its count is not 0, singular for 1 ("1
 *  interval"). Nothing when nothing was lost, dropped or clipped. */
void pl_offcpu_text_losses(FILE *out, const struct pl_offcpu *o);

/** Print the off-CPU sections to @out: the share of the target's time off CPU, losses,
 *  the top @top off-CPU stacks (total, count, max, each blocked one's wakers), the
 *  per-thread summary (at most @top rows), the run-queue latency histogram of all
 *  threads, and with a timeline the run, run-queue and blocked ms of each thread per
 *  bucket. @b and @z start and end bold headings ("" for none). */
void pl_offcpu_text(FILE *out, const struct pl_offcpu *o, const struct pl_offcpu_names *nm,
		    const struct pl_profile *p, int top, const char *b, const char *z);

/** The "off_cpu" member of the --json document (every thread, stack and waker; the
 *  histograms; the timeline when built; the off-CPU folded stacks in microseconds under
 *  "folded", and with @wall (the --wall graph's folded text, or NULL) its lines under
 *  "wall_folded"). Returns a new reference. */
json_t *pl_offcpu_json(const struct pl_offcpu *o, const struct pl_offcpu_names *nm,
		       const struct pl_profile *p, const char *folded, const char *wall);

/** The folded stacks of the off-CPU flame graph (@wall false: every off-CPU stack, one
 *  line per thread and stack, weighted in microseconds) or of the wall-clock graph (@wall
 *  true: pl_offcpu_wall's on-CPU and off-CPU time, microseconds, every frame of an
 *  off-CPU stack marked "_[o]" so flame.c draws it blue). Samples @keep rejects are left
 *  out (NULL = all). *@buf (malloc'd, NUL-terminated, owned by the caller) of *@len bytes.
 *  Returns 0 or -errno (then *@buf is NULL). */
int pl_offcpu_folded(const struct pl_offcpu *o, struct pl_profile *p, bool wall,
		     bool (*keep)(void *ctx, const struct pl_psample *s), void *kctx, char **buf,
		     size_t *len);

#endif
