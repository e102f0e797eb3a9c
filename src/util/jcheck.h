/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Checking a JSON document given back to perflab (`report --from`) once, at load, against
 * a compact static description of its shape, so that the renderers that follow can trust
 * every member they read. A shape says which JSON types a value may have, and for objects
 * which members are checked (required or optional; members not listed are not looked
 * at), for arrays and maps the shape of every element, for strings the allowed values,
 * for numbers a range, for strings and arrays a length range, and an optional callback
 * for relations between members (an array as long as a count says). The first problem
 * is reported with the file and the JSON path, e.g.
 *   report.json: $.check.findings[3].severity: expected a string, got null
 * The descriptions of perflab's documents are in src/report/from.c; they cover what the
 * readers use, with the types of docs/schemas/. Shapes are static tables:
 *   static const struct pl_jshape finding = { .types = PL_JT_OBJ, .members = PL_JMEMBERS(
 *           PL_JREQ("id", &pl_jstr), PL_JOPT("subject", &pl_jstr)) };
 */
#ifndef PERFLAB_UTIL_JCHECK_H
#define PERFLAB_UTIL_JCHECK_H
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/str.h"

/** JSON types a value may have: a bit set. */
enum pl_jtype {
	PL_JT_NULL = 1u << 0,
	PL_JT_BOOL = 1u << 1,
	PL_JT_INT = 1u << 2,  /**< a JSON number without fraction or exponent */
	PL_JT_REAL = 1u << 3, /**< a JSON number with a fraction or an exponent */
	PL_JT_STR = 1u << 4,
	PL_JT_ARR = 1u << 5,
	PL_JT_OBJ = 1u << 6,
	PL_JT_NUM = PL_JT_INT | PL_JT_REAL,
	PL_JT_ANY = 0x7f,
};

struct pl_jctx;
struct pl_jshape;

/** One member of an object shape: its name, its shape, and whether it must be present.
 *  An optional member that is present is checked like a required one. */
struct pl_jmember {
	const char *name;
	const struct pl_jshape *shape;
	bool required;
};

/** The shape of a JSON value. Zeroed fields check nothing. */
struct pl_jshape {
	unsigned types;			  /**< allowed types (enum pl_jtype bits); 0 = any */
	const struct pl_jmember *members; /**< objects: members checked, ended by { NULL } */
	const struct pl_jshape *each;	  /**< arrays: every element; objects: every member */
	const char *const *oneof;	  /**< strings: the allowed values, ended by NULL */
	bool ranged;			  /**< numbers: check min <= value <= max */
	double min, max;		  /**< the range (HUGE_VAL for no upper bound) */
	size_t min_len;			  /**< strings (bytes) and arrays (entries): at least */
	size_t max_len;			  /**< strings and arrays: at most (0 = no limit) */
	/** Called after everything above passed for the value: more checks (relations
	 *  between members). Returns 0, or what pl_jfail returns. */
	int (*check)(const json_t *v, struct pl_jctx *c);
};

/** Member list of an object shape (a static array ended by { NULL }). */
#define PL_JMEMBERS(...) ((const struct pl_jmember[]){ __VA_ARGS__, { NULL, NULL, false } })
/** A required / an optional member. */
#define PL_JREQ(name, shape)                                                                       \
	{                                                                                          \
		(name), (shape), true                                                              \
	}
#define PL_JOPT(name, shape)                                                                       \
	{                                                                                          \
		(name), (shape), false                                                             \
	}
/** An inline shape (a static compound literal), e.g. PL_JSHAPE(.types = PL_JT_STR). */
#define PL_JSHAPE(...) (&(const struct pl_jshape){ __VA_ARGS__ })
/** Range fields of a shape: PL_JRANGE(0, HUGE_VAL) for "at least 0". */
#define PL_JRANGE(lo, hi) .ranged = true, .min = (lo), .max = (hi)

/** Common shapes: a string, a string or null, a boolean, an integer, a count (an integer
 *  >= 0), a number, a number or null, a percentage (a number from 0 to 100), an array of
 *  strings. */
extern const struct pl_jshape pl_jstr, pl_jstr_or_null, pl_jbool, pl_jint, pl_jcount, pl_jnum,
	pl_jnum_or_null, pl_jpct, pl_jstrings;

/** Check @v against @shape. Returns 0, or -EINVAL with "NAME: $.path: problem" (one line,
 *  no final period) in @err (size @errlen); @name names the document (a file). */
int pl_jcheck(const json_t *v, const struct pl_jshape *shape, const char *name, char *err,
	      size_t errlen);

/** For a shape's check callback: record a problem at the value being checked, or at the
 *  path @sub below it (".counts", "[3].stack"; "" for the value itself), and return
 *  -EINVAL. The message follows "NAME: $.path: ". */
int pl_jfail(struct pl_jctx *c, const char *sub, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/** Append a JSON path step for member @key to @path: ".key" when @key is an identifier,
 *  else ["key"] with '"', '\\' and control characters escaped. */
void pl_jpath_key(struct pl_buf *path, const char *key);

#endif
