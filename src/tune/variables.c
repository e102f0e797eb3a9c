/* SPDX-License-Identifier: GPL-3.0-or-later */
/* [variables] and ${...} expansion as tuned's Variables does (tune/profile_internal.h):
 * variables, ${f:...} functions that run no program (tune/functions.h), and the
 * [variables] include file. */
#include "tune/profile_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune/functions.h"
#include "util/cleanup.h"
#include "util/str.h"
#include "util/sysroot.h"

/* The '}' that closes the reference "${..." at @v (functions nest:
 * ${f:strip:${f:exec:..}}), or the terminating NUL when it is not closed. */
const char *pl_tune_ref_end(const char *v)
{
	int depth = 0;
	const char *e = v + 1;
	for (; *e; e++) {
		if (*e == '{')
			depth++;
		else if (*e == '}' && --depth == 0)
			break;
	}
	return e;
}

/* @v with each "\${WORD}" (WORD of letters, digits, '_') turned into "${WORD}", as
 * tuned's Variables.expand_static does after substituting. Malloc'd. */
static char *unescape_refs(const char *v)
{
	struct pl_buf b = { 0 };
	pl_buf_puts(&b, "");
	for (const char *p = v; *p; p++) {
		if (p[0] == '\\' && p[1] == '$' && p[2] == '{') {
			size_t w =
				strspn(p + 3, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					      "0123456789_");
			if (w && p[3 + w] == '}')
				continue; /* drop the backslash */
		}
		pl_buf_append(&b, p, 1);
	}
	return pl_buf_steal(&b);
}

/* Why the last ${f:...} failed (an assertion): pl_tune_expand() returns -EINVAL then. */
static char func_why[512];

/* ${f:NAME:ARGS} with @inner = "f:NAME:ARGS": expand the arguments (variables, nested
 * functions), split them at each ':' not escaped as "\:", and evaluate the function
 * (tune/functions.h). Returns 0 with *res the text to put in its place, or NULL to leave
 * the reference as written (and name it in *unsupported when perflab cannot evaluate
 * it); -EINVAL for a failed assertion (func_why), -E2BIG as pl_tune_expand(). */
static int call_function(const char *inner, const struct pl_tune_opts *vars, char **unsupported,
			 char **res)
{
	*res = NULL;
	pl_autofree char *args = NULL;
	int r = pl_tune_expand(inner, vars, unsupported, &args);
	if (r < 0)
		return r;
	char **part = NULL;
	size_t np = 0;
	struct pl_buf cur = { 0 };
	pl_buf_puts(&cur, "");
	for (const char *p = args;; p++) {
		if (*p == '\\' && p[1] == ':') {
			pl_buf_puts(&cur, ":");
			p++;
			continue;
		}
		if (*p == ':' || !*p) {
			part = pl_xrealloc(part, (np + 2) * sizeof(*part));
			part[np++] = pl_buf_steal(&cur);
			part[np] = NULL;
			pl_buf_puts(&cur, "");
			if (!*p)
				break;
			continue;
		}
		pl_buf_append(&cur, p, 1);
	}
	pl_buf_free(&cur);
	char why[256] = "";
	r = np >= 2 ? pl_tune_func(part[1], part + 2, np - 2, res, why, sizeof(why)) : 1;
	pl_strv_free(part);
	if (r == -EINVAL) {
		snprintf(func_why, sizeof(func_why), "%s", why);
		return -EINVAL;
	}
	if (r < 0 && unsupported && !*unsupported)
		*unsupported = pl_xasprintf("${%s} (%s)", inner, why);
	return 0;
}

/* Expand ${name} using @vars (values already expanded). \${ stays literal. Unknown
 * variables stay as written; ${f:...} and ${i:...} are reported through *unsupported.
 * Returns 0 and *out (malloc'd), or -E2BIG when the result would pass
 * PL_TUNE_MAX_VALUE bytes (variables that repeat each other grow exponentially). */
int pl_tune_expand(const char *v, const struct pl_tune_opts *vars, char **unsupported, char **out)
{
	struct pl_buf b = { 0 };
	pl_buf_puts(&b, "");
	while (*v) {
		const char *add = v;
		char *fres = NULL;
		size_t n = 1, used = 1;
		if (v[0] == '\\' && v[1] == '$' && v[2] == '{') {
			add = "${";
			n = 2;
			used = 3;
		} else if (v[0] == '$' && v[1] == '{') {
			const char *e = pl_tune_ref_end(v);
			if (!*e) {
				n = used = strlen(v);
			} else {
				size_t in = (size_t)(e - v - 2);
				char *inner = pl_xmalloc(in + 1);
				memcpy(inner, v + 2, in);
				inner[in] = '\0';
				const struct pl_tune_opt *var = pl_tune_opts_get(vars, inner);
				int fr = 1;
				if (pl_startswith(inner, "f:"))
					fr = call_function(inner, vars, unsupported, &fres);
				if (fr < 0) {
					free(inner);
					pl_buf_free(&b);
					return fr;
				}
				if (fres) {
					add = fres;
					n = strlen(add);
				} else if (var && var->expanded) {
					/* tuned unescapes after substituting: a value holding
					 * "\${name}" puts "${name}" in. */
					fres = unescape_refs(var->expanded);
					add = fres;
					n = strlen(add);
				} else {
					if ((pl_startswith(inner, "f:") ||
					     pl_startswith(inner, "i:")) &&
					    unsupported && !*unsupported)
						*unsupported = pl_xasprintf("${%s}", inner);
					n = in + 3;
				}
				used = in + 3;
				free(inner);
			}
		}
		if (n > PL_TUNE_MAX_VALUE - b.len) {
			free(fres);
			pl_buf_free(&b);
			return -E2BIG;
		}
		pl_buf_append(&b, add, n);
		free(fres);
		v += used;
	}
	*out = pl_buf_steal(&b);
	return 0;
}

/* pl_tune_expand() for option @what (file @file, line @line) of profile @L, counting the bytes
 * against PL_TUNE_MAX_EXPANDED; on error one line in L->err. */
int pl_tune_expand_at(struct pl_tune_loader *L, const char *v, const struct pl_tune_opts *vars,
		      char **unsupported, char **out, const char *file, int line, const char *what)
{
	int r = pl_tune_expand(v, vars, unsupported, out);
	if (r == -EINVAL) {
		snprintf(L->err, L->el, "%s:%d: %s: %s (tuned refuses the profile too)", file, line,
			 what, func_why);
		return r;
	}
	if (r < 0) {
		snprintf(L->err, L->el,
			 "%s:%d: %s is longer than %u bytes after ${} expansion (variables "
			 "repeating each other?)",
			 file, line, what, PL_TUNE_MAX_VALUE);
		return r;
	}
	L->expanded += strlen(*out);
	if (L->expanded > PL_TUNE_MAX_EXPANDED) {
		free(*out);
		*out = NULL;
		snprintf(L->err, L->el,
			 "%s:%d: %s: ${} expansion of this profile passes %u bytes in total "
			 "(variables repeating each other?)",
			 file, line, what, PL_TUNE_MAX_EXPANDED);
		return -E2BIG;
	}
	return 0;
}

/* A name tuned takes for a variable: Python's \w+ (Variables._check_var), letters,
 * digits and '_' (bytes above 0x7f taken as the letters they encode). */
static bool var_name_ok(const char *k)
{
	if (!*k)
		return false;
	for (const unsigned char *p = (const unsigned char *)k; *p; p++)
		if (!(*p >= 0x80 || *p == '_' || (*p >= '0' && *p <= '9') ||
		      ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z')))
			return false;
	return true;
}

/* Read more variables from FILE (the `include` of [variables]), inside the sysroot. */
static int vars_from_file(struct pl_tune_profile *pr, const struct pl_tune_opt *inc,
			  struct pl_tune_loader *L)
{
	char path[PATH_MAX];
	if (pl_sysroot_path(path, sizeof(path), inc->value) < 0) {
		pl_tune_loader_note(L,
				    "%s:%d: variables file '%s' is not an absolute path: ignored",
				    inc->file, inc->line, inc->value);
		return 0;
	}
	struct pl_tune_conf c;
	char err[512];
	if (pl_tune_ini_parse(path, pr->name, &c, err, sizeof(err)) < 0) {
		/* tuned logs "unable to find variables_file" and goes on. */
		pl_tune_loader_note(
			L, "%s:%d: variables file '%s' not readable (%s): its variables stay unset",
			inc->file, inc->line, inc->value, err);
		pl_tune_conf_free(&c);
		return 0;
	}
	/* The file has no section header: inih reports its keys under section "". */
	int r = 0;
	for (size_t i = 0; i < c.n && r == 0; i++)
		for (size_t k = 0; k < c.s[i].opts.n && r == 0; k++) {
			struct pl_tune_opt o = c.s[i].opts.v[k];
			if (!var_name_ok(o.key)) {
				pl_tune_loader_note(
					L,
					"%s:%d: variable '%s' ignored: a name has only "
					"letters, digits and '_' (tuned ignores it too)",
					o.file, o.line, o.key);
				continue;
			}
			char *ex = NULL;
			char what[160];
			snprintf(what, sizeof(what), "variable '%.100s'", o.key);
			r = pl_tune_expand_at(L, o.value, &pr->variables, NULL, &ex, o.file, o.line,
					      what);
			if (r < 0)
				break;
			o.expanded = ex;
			pl_tune_opts_set(&pr->variables, &o);
			free(ex);
		}
	pl_tune_conf_free(&c);
	return r;
}

/* Note each "${NAME}" left in the expanded value @ex of variable @o that names a
 * variable defined after it in the merge order (@vars_raw from index @i + 1): tuned
 * expands a variable with the ones before it only, so the reference stays as written
 * there and here; the note says so, with both places. */
static void note_later_refs(struct pl_tune_loader *L, const struct pl_tune_opt *o, const char *ex,
			    const struct pl_tune_opts *vars_raw, size_t i,
			    const struct pl_tune_opts *defined)
{
	for (const char *p = strstr(ex, "${"); p; p = strstr(p + 2, "${")) {
		size_t w = strcspn(p + 2, "}");
		if (!p[2 + w] || w == 0 || w > 200)
			continue;
		char name[201];
		memcpy(name, p + 2, w);
		name[w] = '\0';
		if (!var_name_ok(name) || pl_tune_opts_get(defined, name))
			continue;
		for (size_t k = i + 1; k < vars_raw->n; k++) {
			const struct pl_tune_opt *later = &vars_raw->v[k];
			if (strcmp(later->key, name) != 0)
				continue;
			pl_tune_loader_note(L,
					    "%s:%d: variable '%s' uses ${%s} before its definition "
					    "(%s:%d) in the merge order: left unexpanded, as tuned "
					    "does; define '%s' first",
					    o->file, o->line, o->key, name, later->file,
					    later->line, name);
			break;
		}
	}
}

/* Variables in definition order, each expanded with the ones before it. */
int pl_tune_vars_load(struct pl_tune_loader *L, struct pl_tune_profile *pr,
		      const struct pl_tune_opts *vars_raw)
{
	int r = 0;
	for (size_t i = 0; i < vars_raw->n && r == 0; i++) {
		const struct pl_tune_opt *o = &vars_raw->v[i];
		if (strcmp(o->key, "include") == 0) {
			r = vars_from_file(pr, o, L);
			continue;
		}
		if (!var_name_ok(o->key)) {
			pl_tune_loader_note(
				L,
				"%s:%d: variable '%s' ignored: a name has only letters, "
				"digits and '_' (tuned ignores it too)",
				o->file, o->line, o->key);
			continue;
		}
		pl_autofree char *uns = NULL;
		pl_autofree char *ex = NULL;
		char what[160];
		snprintf(what, sizeof(what), "variable '%.100s'", o->key);
		r = pl_tune_expand_at(L, o->value, &pr->variables, &uns, &ex, o->file, o->line,
				      what);
		if (uns)
			pl_tune_loader_note(
				L, "%s:%d: variable '%s' uses %s: functions are not supported",
				o->file, o->line, o->key, uns);
		if (r < 0)
			break;
		note_later_refs(L, o, ex, vars_raw, i, &pr->variables);
		struct pl_tune_opt c = *o;
		c.expanded = ex;
		pl_tune_opts_set(&pr->variables, &c);
	}
	return r;
}
