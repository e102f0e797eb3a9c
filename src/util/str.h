/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Strings, strict number parsing and a growable buffer. */
#ifndef PERFLAB_UTIL_STR_H
#define PERFLAB_UTIL_STR_H
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/cleanup.h"

/** malloc/calloc/realloc/strdup that abort with a message on out-of-memory (git's
 *  xmalloc rule: perflab cannot do anything useful without a few KB). */
void *pl_xmalloc(size_t n);
void *pl_xcalloc(size_t n, size_t size);
void *pl_xrealloc(void *p, size_t n);
char *pl_xstrdup(const char *s);
/** asprintf that aborts on out-of-memory; returns a malloc'd string. */
char *pl_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** Strip leading and trailing whitespace in place; returns @s (moved past leading spaces). */
char *pl_trim(char *s);
/** True when @s starts with @prefix. */
bool pl_startswith(const char *s, const char *prefix);

/** Parse a whole string as an unsigned decimal (or 0x hex) integer. Returns 0, -EINVAL
 *  (empty, trailing garbage, sign) or -ERANGE. Leading/trailing whitespace allowed.
 *  @out is untouched on error. */
int pl_parse_u64(const char *s, uint64_t *out);
/** Same for a signed integer. */
int pl_parse_i64(const char *s, int64_t *out);
/** Parse a whole string as a finite double. Returns 0, -EINVAL or -ERANGE. */
int pl_parse_double(const char *s, double *out);
/** Parse a byte size: a number with an optional suffix k, m, g, t, p, e (powers of 1024,
 *  optionally followed by "i", "b" or "ib", case-insensitive), e.g. "4k" = 4096,
 *  "1GiB" = 2^30. Returns 0, -EINVAL or -ERANGE. */
int pl_parse_size(const char *s, uint64_t *out);
/** Parse a duration in seconds: a number with an optional unit ns, us, ms, s, m (or min),
 *  h, d (default s), e.g. "500ms" = 0.5. Negative values are -EINVAL; a value whose seconds
 *  are not finite ("1e308h") is -ERANGE. */
int pl_parse_duration(const char *s, double *out_seconds);

/** Growable NUL-terminated byte buffer. Zero-initialise ({0}) before use. */
struct pl_buf {
	char *data; /**< NULL until the first append; owned */
	size_t len; /**< bytes used, excluding the terminating NUL */
	size_t cap; /**< bytes allocated */
};
void pl_buf_append(struct pl_buf *b, const char *s, size_t n);
void pl_buf_puts(struct pl_buf *b, const char *s);
void pl_buf_printf(struct pl_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pl_buf_vprintf(struct pl_buf *b, const char *fmt, va_list ap);
/** Return the string (never NULL, "" when empty) and give up ownership. */
char *pl_buf_steal(struct pl_buf *b);
/** Free the data; the buffer may be reused. NULL-safe. */
void pl_buf_free(struct pl_buf *b);

/** Write what snprintf(@buf, @len, "%.*g", @prec, @v) writes, and return its length
 *  (snprintf's return value). For 1 <= @prec <= 9 and 1e-4 <= |@v| < 10^@prec (the
 *  values %g prints without an exponent) the digits come from one scaling of @v by an
 *  exact power of ten, several times cheaper than printf (perflab monitor formats
 *  hundreds of numbers per interval); every other value, and a scaled value within
 *  1e-6 of a rounding tie (where the scaling's rounding error could pick the other
 *  digit), is left to snprintf, so the bytes always equal printf's. */
int pl_fmt_g(char *buf, size_t len, double v, int prec);

/** Split @s at any byte of @seps, skipping empty fields. Returns a NULL-terminated
 *  malloc'd array of malloc'd strings; *n (optional) gets the count. Free with pl_strv_free. */
char **pl_split(const char *s, const char *seps, size_t *n);
/** Free a NULL-terminated string vector. NULL-safe. */
void pl_strv_free(char **v);
/** pl_strv_free at scope exit: pl_autostrv char **words = pl_split(...); */
PL_DEFINE_CLEANUP(char *, pl_strv_free, pl_strv_free)
#define pl_autostrv __attribute__((cleanup(pl_strv_freep)))

/** Human formatting helpers writing into @buf (size @len), returning @buf. */
/** "1.50 GiB" style, powers of 1024. */
char *pl_fmt_bytes(char *buf, size_t len, double bytes);
/** A byte count as users write it: whole units where exact ("4 KiB", "1 PiB", "512 B"),
 *  else two decimals and the exact count ("4.00 GiB (4294967295 B)"); powers of 1024. */
char *pl_fmt_size(char *buf, size_t len, double bytes);
/** A duration in seconds in the largest unit of d, h, min, s, ms, us, ns that keeps it
 *  >= 1, 4 significant digits, in the spelling pl_parse_duration reads back ("10ms",
 *  "1.5s", "1ns", "12h", "30d"; 0 is "0s"). */
char *pl_fmt_duration(char *buf, size_t len, double seconds);
/** @x in @unit as the terminal shows it: "s" (and "ns", "us", "ms") scaled to ns, us, ms
 *  or s ("12.35 ms"), "B" as pl_fmt_bytes (negative values keep their sign), any other
 *  unit as "%.4g UNIT" ("" for none), a rate "1/s" as "675.2/s", a "count" as the bare
 *  number, whole numbers from 10^4 on ("25000/s"); NaN is "-". 4 significant digits. */
char *pl_fmt_unit(char *buf, size_t len, double x, const char *unit);

#endif
