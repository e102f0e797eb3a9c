/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "util/json.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/escape.h"
#include "util/outfile.h"

json_t *pl_json_string(const char *s)
{
	if (!s)
		return json_null();
	json_t *v = json_string(s);
	if (v)
		return v;
	char *e = pl_str_escape(s, PL_ESC_UTF8);
	v = json_string(e);
	free(e);
	return v ? v : json_null();
}

int pl_json_set(json_t *o, const char *key, json_t *v)
{
	if (!v)
		v = json_null();
	if (pl_utf8_valid(key))
		return json_object_set_new(o, key, v);
	char *e = pl_str_escape(key, PL_ESC_UTF8);
	int r = json_object_set_new(o, e, v);
	free(e);
	return r;
}

int pl_json_write(FILE *f, const json_t *doc)
{
	if (json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10)) != 0)
		return -EIO;
	if (fputc('\n', f) == EOF)
		return -EIO;
	return 0;
}

int pl_json_write_path(const char *path, const json_t *doc)
{
	struct pl_outfile o;
	int r = pl_outfile_open(&o, path);
	if (r < 0)
		return r;
	r = pl_json_write(o.fp, doc);
	int c = pl_outfile_close(&o, r == 0);
	return r < 0 ? r : c;
}

json_t *pl_json_read_path(const char *path, char *err, size_t errlen)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "cannot read JSON from '%s': %s", path, strerror(EISDIR));
		return NULL;
	}
	json_error_t je;
	json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!doc && je.line > 0) /* a parse error has a position; a file that cannot be
				    opened has line -1 */
		snprintf(err, errlen, "cannot read JSON from '%s': %s (line %d, column %d)", path,
			 je.text, je.line, je.column);
	else if (!doc)
		snprintf(err, errlen, "cannot read JSON from '%s': %s", path, je.text);
	return doc;
}

const char *pl_json_str(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

double pl_json_num(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

long long pl_json_int(const json_t *o, const char *k)
{
	return (long long)json_integer_value(json_object_get(o, k));
}
