/* SPDX-License-Identifier: GPL-3.0-or-later */
/* From a collected profile to what people read: stacks symbolized once after
 * aggregation (each distinct (address space, address) resolved once), functions with
 * self and total (children) counts, resolved chains for folded output, flame graphs and
 * the call tree, per-thread and per-CPU shares. */
#ifndef PERFLAB_PROFILE_PREPORT_H
#define PERFLAB_PROFILE_PREPORT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profile/profile.h"

/** A function (symbol in a module). */
struct pl_func {
	char *name;   /**< "main", "ns::f(int)" (demangled, pl_demangle), "[unknown]",
		       *   "[kernel]"; owned */
	char *mangled; /**< the symbol table's name when it differs from @name, else NULL;
			*   owned */
	char *module; /**< "perflab", "libc.so.6", "[kernel.kallsyms]"; owned */
	bool kernel;
	uint64_t self;  /**< samples with this function as the leaf */
	uint64_t total; /**< samples with this function anywhere on the stack (once each) */
};

/** A distinct resolved stack with its sample count. Frames are function ids, root
 *  first; @comm is the thread's name (the flame graph's root frame). */
struct pl_chain {
	const char *comm;
	uint32_t *frames;
	uint32_t n;
	uint64_t count;
};

/** Keep a sample? (region filter). */
typedef bool (*pl_sample_filter)(void *ctx, const struct pl_psample *s);

/** The aggregated report. */
struct pl_preport {
	struct pl_func *funcs;
	size_t nfuncs, capfuncs;
	struct pl_chain *chains;
	size_t nchains;
	uint64_t nsamples; /**< samples kept by the filter */
	uint64_t kernel;   /**< of which in kernel mode */
	uint64_t *cpu_samples; /**< per CPU number, ncpu entries */
	size_t ncpu;
	uint64_t *thread_samples; /**< parallel to profile.threads */
	uint64_t *thread_kernel;
	bool kernel_hidden; /**< kernel samples went to one [kernel] bucket */
	/* internal: string interning */
	uint32_t *fhash;
	size_t fhash_cap;
};

/** Aggregate and symbolize @p, keeping the samples @filter accepts (NULL = all).
 *  Function names are demangled (pl_demangle) once per function unless
 *  p->no_demangle. Returns 0. */
int pl_preport_build(struct pl_preport *r, struct pl_profile *p, pl_sample_filter filter,
		    void *fctx);
/** Free. NULL-safe. */
void pl_preport_free(struct pl_preport *r);

/** Function ids sorted by self (by_total false) or total, descending, ties by name;
 *  malloc'd array of r->nfuncs entries. */
uint32_t *pl_preport_order(const struct pl_preport *r, bool by_total);

/** @name shortened to at most @max bytes (@max >= 8) for a table column, in steps that
 *  keep what identifies a C++ function longest: first template argument lists become
 *  "<...>", then parenthesised groups (parameter lists, lambda signatures; not
 *  "(anonymous namespace)") become "(...)", and only then is the front cut to "..." plus
 *  the tail. "operator<", "operator<<", "operator()" and friends are names, not brackets.
 *  Returns a malloc'd string (a copy when @name fits). */
char *pl_name_abbrev(const char *name, size_t max);

/** Write folded stacks ("comm;root;...;leaf count\n", Brendan Gregg's flamegraph.pl
 *  format, also read by speedscope), lines sorted, kernel frames suffixed "_[k]".
 *  Returns 0 or -EIO. */
int pl_preport_write_folded(const struct pl_preport *r, FILE *f);

/** Print the call tree of the hottest paths (top-down, children sorted by samples,
 *  branches under @min_pct % of all samples pruned). @width > 0 (terminal columns)
 *  shortens long names with pl_name_abbrev so rows fit (at least 40 bytes of name);
 *  0 prints them whole. */
void pl_preport_write_tree(const struct pl_preport *r, FILE *f, double min_pct, size_t width);

#endif
