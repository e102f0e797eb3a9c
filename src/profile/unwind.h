/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --call-graph dwarf: unwind the user stack copied into a sample (PERF_SAMPLE_REGS_USER +
 * PERF_SAMPLE_STACK_USER) with elfutils' libdwfl and the CFI (.eh_frame/.debug_frame) of
 * the mapped modules. One Dwfl per address space, rebuilt when new mappings appear;
 * memory reads outside the copied stack fail, which ends the unwind there. */
#ifndef PERFLAB_PROFILE_UNWIND_H
#define PERFLAB_PROFILE_UNWIND_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/decode.h"
#include "profile/profile.h"

struct pl_unwinder;

/** New unwinder (never NULL). */
struct pl_unwinder *pl_unwind_new(void);
/** Free, with every Dwfl. NULL-safe. */
void pl_unwind_free(struct pl_unwinder *u);
/** Unwind the user part of sample @s (x86-64 registers in the order of mask
 *  0x00ff01ff) in address space @as of @p into @out (at most @max pcs, leaf first).
 *  *@truncated is set when the unwind stopped because the stack copy was exhausted: the
 *  kernel filled the whole copy (dyn_size == size) and the unwinder needed a caller's
 *  frame above it, rather than reaching the outermost frame (a larger
 *  PERF_SAMPLE_STACK_USER size would have gone further).
 *  Returns the number of pcs (0 when the sample has no registers or nothing unwinds). */
size_t pl_unwind(struct pl_unwinder *u, struct pl_profile *p, struct pl_aspace *as,
		 const struct pl_sample *s, uint64_t *out, size_t max, bool *truncated);

#endif
