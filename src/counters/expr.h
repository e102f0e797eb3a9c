/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The formula language of the metrics (metric.h): parsed once into a tree, evaluated
 * over a reading. Grammar (recursive descent, the usual precedence, left-associative):
 *   expr    := term (('+' | '-') term)*
 *   term    := unary (('*' | '/') unary)*
 *   unary   := '-' unary | primary
 *   primary := NUMBER | NAME | '"' QUOTED '"' | ('min' | 'max') '(' expr ',' expr ')'
 *            | '(' expr ')'
 * NUMBER is a decimal number as strtod reads it (digits first: "1e9", "0.5"); NAME is
 * [A-Za-z_#][A-Za-z0-9_.:@]* and QUOTED any bytes but '"', NUL and newline, for event
 * names holding operators ("task-clock", "cpu/event=0xaa,umask=0x7/"). Special names:
 * `duration_time` (seconds of the reading), `#num_cpus` (CPUs counted), `#slots`
 * (pipeline slots per cycle: the reading named "#slots"); every other name is an event
 * whose value is the sum of its counted readings over every scope. Perf's metric
 * expressions (tools/perf/util/expr.y) are the model; their `if else`, `d_ratio` and
 * `#smt_on` are left out. */
#ifndef PL_COUNTERS_EXPR_H
#define PL_COUNTERS_EXPR_H
#include "counters/counters.h"

#include <stddef.h>

/** Longest formula accepted (bytes). */
#define PL_EXPR_MAX_LEN 4096
/** Most tree nodes in one formula. */
#define PL_EXPR_MAX_NODES 512
/** Deepest nesting of parentheses, unary minus and min/max. */
#define PL_EXPR_MAX_DEPTH 64

/** A parsed formula (opaque; owned by the caller, free with pl_expr_free). */
struct pl_expr;

/** Parse @src (NUL-terminated) into *@out. Returns 0; or -EINVAL with @err saying what
 *  and at which byte ("expected ')' at byte 12 of 'a / (b'"), -E2BIG for a formula over
 *  the limits above. *@out is untouched on error. */
int pl_expr_parse(const char *src, struct pl_expr **out, char *err, size_t errlen);

/** Release @e (NULL-safe). */
void pl_expr_free(struct pl_expr *e);

/** Evaluate @e over @r. Returns 0 with *@value set; -ENOENT when a name has no counted
 *  reading in @r (the first in the formula's order, copied into @missing); -EDOM when
 *  it divides by zero or the result is not a finite number (@missing then says
 *  "division by zero" or "not a finite number"). */
int pl_expr_eval(const struct pl_expr *e, const struct pl_cnt_result *r, double *value,
		 char *missing, size_t missinglen);

/** The event names @e reads, in formula order with repeats, special names included: at
 *  most @max pointers into @e (valid while @e lives). Returns how many there are (may
 *  exceed @max). */
size_t pl_expr_names(const struct pl_expr *e, const char **names, size_t max);

/** The value of the event @name in @r: the sum of its supported, counted readings over
 *  every scope, or NAN when there is none. Names match as perf's spellings of one event
 *  do: case-insensitively, without a trailing modifier (":u", ":k"), the core PMU's
 *  "cpu/ALIAS/" (or "cpu_core/", "armv8_pmuv3_0/") as the bare ALIAS, its terms
 *  ("cpu_core/event=0xc0/") as "cpu/TERMS/", and perf's aliases of a generic event as
 *  one ("cs" as "context-switches", "cycles" as "cpu-cycles", "branches" as
 *  "branch-instructions", pmu_parse.h pl_pmu_generic_first). */
double pl_expr_event_sum(const struct pl_cnt_result *r, const char *name);

/** Whether the spellings @a and @b name one event as pl_expr_event_sum matches names
 *  ("cs" and "context-switches", "cpu/cycles/" and "cycles:u"). */
bool pl_expr_same_event(const char *a, const char *b);

#endif
