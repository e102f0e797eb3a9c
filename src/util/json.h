/* SPDX-License-Identifier: GPL-3.0-or-later */
/* JSON output helpers over jansson. Every perflab JSON document has "schema_version"
 * and is described by a schema under docs/schemas/. */
#ifndef PERFLAB_UTIL_JSON_H
#define PERFLAB_UTIL_JSON_H
#include <jansson.h>
#include <stdio.h>

#include "util/cleanup.h"

/** json_decref at scope exit: pl_autojson json_t *doc = ...; (NULL-safe). */
PL_DEFINE_CLEANUP(json_t, pl_json_decref, json_decref)
#define pl_autojson __attribute__((cleanup(pl_json_decrefp)))

/** A new JSON string holding @s, or JSON null when @s is NULL; never fails on content.
 *  jansson refuses a string that is not valid UTF-8 (json_string() returns NULL and the
 *  member or array element silently vanishes), so each byte that is not part of valid
 *  UTF-8 is written as the literal text \xNN instead (util/escape.h): nothing read from a
 *  machine tree, a symbol table or a user is dropped. Every JSON string perflab makes goes
 *  through here (tests/core/json-strings.sh checks that src/ calls json_string() nowhere
 *  else). */
json_t *pl_json_string(const char *s);
/** json_object_set_new(@o, @key, @v) with @key made valid UTF-8 the same way (fact keys
 *  carry device, interface and parameter names). Steals @v (NULL = JSON null). Returns 0
 *  or -1 (@o not an object). */
int pl_json_set(json_t *o, const char *key, json_t *v);

/** Write @doc to @f, indented by 2, keys in insertion order, with a final newline.
 *  Returns 0 or -EIO. Does not take ownership. */
int pl_json_write(FILE *f, const json_t *doc);
/** Write @doc to @path atomically (NULL or "-" = stdout). Returns 0 or -errno. */
int pl_json_write_path(const char *path, const json_t *doc);
/** Read a JSON document from @path. Returns a new reference, or NULL with a one-line
 *  reason in @err (size @errlen) naming the file, line and column. */
json_t *pl_json_read_path(const char *path, char *err, size_t errlen);

/** Member @k of object @o as a string: borrowed, NULL when @o is not an object or the
 *  member is missing or not a string. */
const char *pl_json_str(const json_t *o, const char *k);
/** Member @k as a double: NaN when missing or not a number (integer or real). */
double pl_json_num(const json_t *o, const char *k);
/** Member @k as an integer: 0 when missing or not an integer. */
long long pl_json_int(const json_t *o, const char *k);

#endif
