/* SPDX-License-Identifier: GPL-3.0-or-later */
/* From a collected profile to what people read: stacks symbolized once after
 * aggregation (each distinct (address space, address) resolved once), functions with
 * self and total (children) counts, resolved chains for folded output, flame graphs and
 * the call tree, per-thread and per-CPU shares. */
#ifndef PERFLAB_PROFILE_AGGREGATE_H
#define PERFLAB_PROFILE_AGGREGATE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profile/profile.h"

/** A function (symbol in a module). */
struct pl_func {
	char *name;    /**< "main", "ns::f(int)" (demangled, pl_demangle), "[unknown]",
			*   "[kernel]"; owned */
	char *mangled; /**< the symbol table's name when it differs from @name, else NULL;
			*   owned */
	char *module;  /**< "perflab", "libc.so.6", "[kernel.kallsyms]"; owned */
	bool kernel;
	uint64_t self;	/**< samples with this function as the leaf */
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
	uint64_t nsamples;     /**< samples kept by the filter */
	uint64_t kernel;       /**< of which in kernel mode */
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
/** A stack with a weight (off-CPU time, on-CPU time estimated from samples) for
 *  pl_preport_build_weighted: thread @pid/@tid, @stack an index into pl_profile.stacks
 *  resolved in the address space of @pid at @time (ns). */
struct pl_pweight {
	uint32_t pid, tid;
	uint32_t stack;
	uint64_t time;
	uint64_t weight; /**< in the caller's unit (e.g. microseconds) */
};

/** Aggregate and symbolize the @n weighted stacks @w as pl_preport_build does samples: a
 *  chain's count, a function's self and total, and @r->nsamples are sums of weights (the
 *  per-CPU and per-thread tables stay zero). With @chain_of (@n entries, or NULL) each
 *  input's chain index is stored there (equal stacks of one thread share a chain).
 *  Threads are created in @p as pl_profile_thread does. Returns 0. */
int pl_preport_build_weighted(struct pl_preport *r, struct pl_profile *p,
			      const struct pl_pweight *w, size_t n, uint32_t *chain_of);
/** Free. NULL-safe. */
void pl_preport_free(struct pl_preport *r);

/** Function ids sorted by self (by_total false) or total, descending, ties by name;
 *  malloc'd array of r->nfuncs entries. */
uint32_t *pl_preport_order(const struct pl_preport *r, bool by_total);

/** @name shortened to at most @max bytes (@max >= 8; smaller counts as 8) for a table
 *  column. Groups are collapsed one at a time, only until the name fits, in an order that
 *  keeps what identifies a C++ function longest: template argument lists outside the
 *  final parameter list become "<...>", then other parenthesised groups outside it (a
 *  lambda's signature, decltype) "(...)", then template arguments inside it, then groups
 *  inside it, and last the final parameter list itself; within each step the innermost
 *  group first, then the last. Groups of 3 bytes or less stay (no gain). If it is still
 *  too long, the front is cut to "..." at the first "::" or space boundary (outside
 *  brackets and braces) from which the rest fits and that keeps the final parameter list,
 *  else to "..." plus the last @max - 3 bytes. "operator<", "operator<<", "operator()"
 *  and friends, "->" anywhere (Rust's "Fn(&str) -> bool", "decltype(a->b)") and
 *  "(anonymous namespace)" are not brackets. Returns a malloc'd string (a copy when
 *  @name fits). */
char *pl_name_abbrev(const char *name, size_t max);

/** pl_name_abbrev of @n names, names[i] to at most max[i] bytes, such that two different
 *  names do not come out as the same text: when they would, each keeps the bytes from the
 *  first to the last byte where it differs from the other (groups over them stay whole,
 *  a front cut stays before them) and is shortened again, up to 8 rounds. Two different
 *  names still share a text only when that span cannot be kept within max[i] (e.g. two
 *  names differing in their first and last bytes that are both longer than max[i]).
 *  Equal names give equal texts. Returns a malloc'd array of @n malloc'd strings. */
char **pl_names_abbrev(const char *const *names, const size_t *max, size_t n);

/** Write folded stacks ("comm;root;...;leaf count\n", Brendan Gregg's flamegraph.pl
 *  format, also read by speedscope), lines sorted, kernel frames suffixed "_[k]", a run
 *  of identical "[unknown]" frames (a broken unwind repeating one unresolved frame) as
 *  one frame, and equal lines merged. Returns 0 or -EIO. */
int pl_preport_write_folded(const struct pl_preport *r, FILE *f);

/** pl_preport_write_folded with @mark (e.g. "_[o]", NULL = none) appended to every frame
 *  name but the thread's (after "_[k]"), so one file can hold two kinds of stacks whose
 *  frames the flame graph colours apart. Returns 0 or -EIO. */
int pl_preport_write_folded_marked(const struct pl_preport *r, FILE *f, const char *mark);

/** Print the call tree of the hottest paths (top-down, children sorted by samples,
 *  branches with fewer than ceil(@min_pct % of r->nsamples) samples pruned), one row per
 *  node: "%6.2f%%  " share, two spaces of indent per level, "name [module]". @width > 0
 *  (terminal columns) shortens long names with pl_names_abbrev so rows fit (at least 40
 *  bytes of name; one text per function, for its deepest row; different names stay
 *  apart); 0 prints them whole. */
void pl_preport_write_tree(const struct pl_preport *r, FILE *f, double min_pct, size_t width);

#endif
