/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "util/opt.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cpuset.h"
#include "util/log.h"
#include "util/str.h"

static const struct pl_opt *find_long(const struct pl_optset *sets, size_t nsets, const char *name,
				      size_t len, void **base)
{
	for (size_t s = 0; s < nsets; s++)
		for (const struct pl_opt *o = sets[s].opts; o->name; o++)
			if (strlen(o->name) == len && strncmp(o->name, name, len) == 0) {
				*base = sets[s].base;
				return o;
			}
	return NULL;
}

static const struct pl_opt *find_short(const struct pl_optset *sets, size_t nsets, char c,
				       void **base)
{
	for (size_t s = 0; s < nsets; s++)
		for (const struct pl_opt *o = sets[s].opts; o->name; o++)
			if (o->short_name && o->short_name == c) {
				*base = sets[s].base;
				return o;
			}
	return NULL;
}

/* An option whose old letter was @c (pl_opt.was_short). */
static const struct pl_opt *find_retired(const struct pl_optset *sets, size_t nsets, char c)
{
	for (size_t s = 0; s < nsets; s++)
		for (const struct pl_opt *o = sets[s].opts; o->name; o++)
			if (o->was_short && o->was_short == c)
				return o;
	return NULL;
}

/* "CMD: " before a message, or "" when CMD is already the program name pl_error prints
 * (commands set pl_progname to "perflab NAME"). */
static const char *pfx(const char *cmd)
{
	static char b[96];
	if (!cmd || strcmp(cmd, pl_progname) == 0)
		return "";
	snprintf(b, sizeof(b), "%s: ", cmd);
	return b;
}

static bool takes_arg(const struct pl_opt *o)
{
	return o->type != PL_OPT_FLAG && o->type != PL_OPT_COUNT;
}

/* @v in the option's unit: sizes as sizes, durations as durations, numbers in full. */
static char *fmt_value(char *buf, size_t len, const struct pl_opt *o, double v)
{
	if (o->type == PL_OPT_SIZE)
		return pl_fmt_size(buf, len, v);
	if (o->type == PL_OPT_DURATION)
		return pl_fmt_duration(buf, len, v);
	snprintf(buf, len, "%.15g", v);
	return buf;
}

/* The range an option's value must lie in: its own min/max, else for sizes and durations
 * the bounds every consumer can hold (PL_OPT_SIZE_MAX, PL_OPT_DURATION_MAX). False when
 * the option has no range. */
static bool opt_range(const struct pl_opt *o, double *lo, double *hi)
{
	if (o->max > o->min) {
		*lo = o->min;
		*hi = o->max;
		return true;
	}
	*lo = 0;
	if (o->type == PL_OPT_SIZE)
		*hi = PL_OPT_SIZE_MAX;
	else if (o->type == PL_OPT_DURATION)
		*hi = PL_OPT_DURATION_MAX;
	else
		return false;
	return true;
}

static int range_ok(const char *cmd, const struct pl_opt *o, double v)
{
	double lo, hi;
	if (opt_range(o, &lo, &hi) && (v < lo || v > hi)) {
		char a[64], b[64], c[64];
		pl_error("%s--%s must be between %s and %s, got %s", pfx(cmd), o->name,
			 fmt_value(a, sizeof(a), o, lo), fmt_value(b, sizeof(b), o, hi),
			 fmt_value(c, sizeof(c), o, v));
		return -EINVAL;
	}
	return 0;
}

/* A size or duration too large to represent ("1e30", "1e308h"): say the limit. */
static int too_large(const char *cmd, const struct pl_opt *o, const char *val)
{
	double lo = 0, hi = 0;
	char b[64];
	opt_range(o, &lo, &hi); /* only sizes and durations get here: both have a range */
	pl_error("%s--%s: '%s' is too large (at most %s)", pfx(cmd), o->name, val,
		 fmt_value(b, sizeof(b), o, hi));
	return -EINVAL;
}

/* What a path-typed option (its metavariable names DIR or FILE) takes, in words, or NULL
 * for the other options. An empty path would otherwise mean the current directory or the
 * live machine, which nobody asks for by typing ''. */
static const char *path_kind(const struct pl_opt *o)
{
	if ((o->type != PL_OPT_STR && o->type != PL_OPT_STRLIST) || !o->arg)
		return NULL;
	bool dir = strstr(o->arg, "DIR") != NULL, file = strstr(o->arg, "FILE") != NULL;
	if (dir && file)
		return "a directory or a snapshot archive";
	if (dir)
		return "a directory";
	if (file)
		return "a file name";
	return NULL;
}

static int store(const char *cmd, const struct pl_opt *o, void *base, const char *val)
{
	char *dst = (char *)base + o->off;
	int r = 0;
	const char *kind = path_kind(o);
	if (kind && val[0] == '\0') {
		pl_error("%s--%s needs %s, got ''", pfx(cmd), o->name, kind);
		return -EINVAL;
	}
	switch (o->type) {
	case PL_OPT_FLAG:
		*(bool *)dst = true;
		return 0;
	case PL_OPT_COUNT:
		(*(int *)dst)++;
		return 0;
	case PL_OPT_STR:
		*(const char **)dst = val;
		return 0;
	case PL_OPT_INT: {
		int64_t v;
		r = pl_parse_i64(val, &v);
		if (r < 0 || v < -2147483647 || v > 2147483647)
			break;
		if (range_ok(cmd, o, (double)v) < 0)
			return -EINVAL;
		*(int *)dst = (int)v;
		return 0;
	}
	case PL_OPT_U64: {
		uint64_t v;
		r = pl_parse_u64(val, &v);
		if (r < 0)
			break;
		if (range_ok(cmd, o, (double)v) < 0)
			return -EINVAL;
		*(uint64_t *)dst = v;
		return 0;
	}
	case PL_OPT_DOUBLE: {
		double v;
		r = pl_parse_double(val, &v);
		if (r < 0)
			break;
		if (range_ok(cmd, o, v) < 0)
			return -EINVAL;
		*(double *)dst = v;
		return 0;
	}
	case PL_OPT_SIZE: {
		uint64_t v;
		r = pl_parse_size(val, &v);
		if (r == -ERANGE)
			return too_large(cmd, o, val);
		if (r < 0) {
			pl_error("%s--%s: '%s' is not a size (use e.g. 4096, 64k, 1GiB)", pfx(cmd),
				 o->name, val);
			return -EINVAL;
		}
		if (range_ok(cmd, o, (double)v) < 0)
			return -EINVAL;
		*(uint64_t *)dst = v;
		return 0;
	}
	case PL_OPT_DURATION: {
		double v;
		r = pl_parse_duration(val, &v);
		if (r == -ERANGE)
			return too_large(cmd, o, val);
		if (r < 0) {
			pl_error("%s--%s: '%s' is not a duration (use e.g. 500ms, 10s, 2m)",
				 pfx(cmd), o->name, val);
			return -EINVAL;
		}
		if (range_ok(cmd, o, v) < 0)
			return -EINVAL;
		*(double *)dst = v;
		return 0;
	}
	case PL_OPT_ENUM:
		for (int i = 0; o->choices && o->choices[i]; i++)
			if (strcmp(o->choices[i], val) == 0) {
				*(int *)dst = i;
				return 0;
			}
		{
			struct pl_buf b = { 0 };
			for (int i = 0; o->choices && o->choices[i]; i++)
				pl_buf_printf(&b, "%s%s", i ? ", " : "", o->choices[i]);
			pl_error("%s--%s: unknown value '%s' (one of: %s)", pfx(cmd), o->name, val,
				 b.data ? b.data : "");
			pl_buf_free(&b);
		}
		return -EINVAL;
	case PL_OPT_CPUS: {
		struct pl_cpuset set;
		if (pl_cpuset_parse(val, &set) < 0 || pl_cpuset_count(&set) == 0) {
			pl_error("%s--%s: '%s' is not a CPU list (use e.g. 0-3,8)", pfx(cmd),
				 o->name, val);
			return -EINVAL;
		}
		int dup = pl_cpuset_repeated(val);
		if (dup >= 0) {
			pl_error("%s--%s '%s': CPU %d given more than once (give each CPU once)",
				 pfx(cmd), o->name, val, dup);
			return -EINVAL;
		}
		*(const char **)dst = val;
		return 0;
	}
	case PL_OPT_STRLIST: {
		char ***v = (char ***)dst;
		size_t n = 0;
		while (*v && (*v)[n])
			n++;
		*v = pl_xrealloc(*v, (n + 2) * sizeof(char *));
		(*v)[n] = (char *)val;
		(*v)[n + 1] = NULL;
		return 0;
	}
	}
	{
		/* The fix: what a valid value looks like, with the option's range when it has
		 * one ("use a whole number from 1 to 100000"). */
		double lo, hi;
		char a[64] = "", b[64] = "", range[160] = "";
		bool whole = o->type != PL_OPT_DOUBLE;
		if (opt_range(o, &lo, &hi))
			snprintf(range, sizeof(range), " from %s to %s",
				 fmt_value(a, sizeof(a), o, lo), fmt_value(b, sizeof(b), o, hi));
		pl_error("%s--%s: '%s' is %s (use a %s%s)", pfx(cmd), o->name, val,
			 r == -ERANGE ? "out of range" : "not a valid number",
			 whole ? "whole number" : "number",
			 range[0] ? range : (whole ? ", e.g. 5" : ", e.g. 0.5"));
	}
	return -EINVAL;
}

/* "option '-W' needs a value W": @spelled is how it was given ("-W", "--workload"); an
 * enum option lists its values as an unknown value does ("(one of: a, b)"). Returns
 * -EINVAL after logging. */
static int missing_value(const char *cmd, const struct pl_opt *o, const char *spelled)
{
	struct pl_buf b = { 0 };
	for (int i = 0; o->type == PL_OPT_ENUM && o->choices && o->choices[i]; i++)
		pl_buf_printf(&b, "%s%s", i ? ", " : " (one of: ", o->choices[i]);
	pl_error("%soption '%s' needs a value %s%s%s", pfx(cmd), spelled, o->arg ? o->arg : "",
		 b.data ? b.data : "", b.data ? ")" : "");
	pl_buf_free(&b);
	return -EINVAL;
}

/* A value taken from the next argument that is exactly "--": the end of the options, so
 * the value is missing ("--folded -- CMD" would write the folded stacks to a file named
 * "--" and lose the command's separator). "--name=--" stays a value. @spelled is how the
 * option was given. Returns -EINVAL after logging, else 0. */
static int dashdash_value(const char *cmd, const struct pl_opt *o, const char *spelled,
			  const char *val)
{
	if (strcmp(val, "--") != 0)
		return 0;
	pl_error("%s%s needs a%s %s before -- (give the value, then --)", pfx(cmd), spelled,
		 o->arg && strchr("AEIOU", o->arg[0]) ? "n" : "", o->arg ? o->arg : "value");
	return -EINVAL;
}

/* The long option argv[*i] ("--name", "--name=value" or "--name value", which advances
 * *i). Returns 0 or -EINVAL after logging. */
static int parse_long(int argc, char **argv, int *i, const struct pl_optset *sets, size_t nsets,
		      const char *cmd)
{
	const char *name = argv[*i] + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	void *base;
	const struct pl_opt *o = find_long(sets, nsets, name, len, &base);
	if (!o) {
		pl_error("%sunknown option '--%.*s' (see '%s --help')", pfx(cmd), (int)len, name,
			 cmd);
		return -EINVAL;
	}
	const char *val = NULL;
	if (takes_arg(o)) {
		char sp[64];
		snprintf(sp, sizeof(sp), "--%s", o->name);
		if (eq)
			val = eq + 1;
		else if (*i + 1 < argc) {
			val = argv[++*i];
			if (dashdash_value(cmd, o, sp, val) < 0)
				return -EINVAL;
		} else {
			return missing_value(cmd, o, sp);
		}
	} else if (eq) {
		pl_error("%soption '--%s' takes no value", pfx(cmd), o->name);
		return -EINVAL;
	}
	return store(cmd, o, base, val) < 0 ? -EINVAL : 0;
}

/* The short options of argv[*i] ("-ab", "-nVALUE" or "-n VALUE", which advances *i).
 * Returns 0 or -EINVAL after logging. */
static int parse_short(int argc, char **argv, int *i, const struct pl_optset *sets, size_t nsets,
		       const char *cmd)
{
	for (const char *p = argv[*i] + 1; *p; p++) {
		void *base;
		const struct pl_opt *o = find_short(sets, nsets, *p, &base);
		const struct pl_opt *old = o ? NULL : find_retired(sets, nsets, *p);
		if (old) {
			char now[8] = "";
			if (old->short_name)
				snprintf(now, sizeof(now), "-%c or ", old->short_name);
			pl_error("%s-%c no longer means --%s: use %s--%s (a letter means one thing "
				 "across perflab commands; see OPTION LETTERS in perflab(1))",
				 pfx(cmd), *p, old->name, now, old->name);
			return -EINVAL;
		}
		if (!o) {
			pl_error("%sunknown option '-%c' (see '%s --help')", pfx(cmd), *p, cmd);
			return -EINVAL;
		}
		if (takes_arg(o)) {
			const char *val;
			char sp[3] = { '-', *p, '\0' };
			if (p[1])
				val = p + 1;
			else if (*i + 1 < argc) {
				val = argv[++*i];
				if (dashdash_value(cmd, o, sp, val) < 0)
					return -EINVAL;
			} else {
				return missing_value(cmd, o, sp);
			}
			return store(cmd, o, base, val) < 0 ? -EINVAL : 0;
		}
		if (store(cmd, o, base, NULL) < 0)
			return -EINVAL;
	}
	return 0;
}

int pl_opt_parse(int argc, char **argv, const struct pl_optset *sets, size_t nsets, const char *cmd,
		 struct pl_args *out)
{
	out->pos = pl_xcalloc((size_t)argc + 1, sizeof(char *));
	out->npos = 0;
	out->dashdash = -1;
	for (int i = 1; i < argc; i++) {
		char *a = argv[i];
		int r = 0;
		if (strcmp(a, "--") == 0) {
			out->dashdash = out->npos;
			for (i++; i < argc; i++)
				out->pos[out->npos++] = argv[i];
			break;
		}
		if (a[0] == '-' && a[1] == '-')
			r = parse_long(argc, argv, &i, sets, nsets, cmd);
		else if (a[0] == '-' && a[1] != '\0')
			r = parse_short(argc, argv, &i, sets, nsets, cmd);
		else
			out->pos[out->npos++] = a;
		if (r < 0) {
			pl_args_free(out);
			return -EINVAL;
		}
	}
	out->pos[out->npos] = NULL;
	return 0;
}

void pl_args_free(struct pl_args *a)
{
	if (!a)
		return;
	free(a->pos);
	a->pos = NULL;
	a->npos = 0;
}

void pl_opt_help(FILE *f, const struct pl_optset *sets, size_t nsets)
{
	for (size_t s = 0; s < nsets; s++) {
		fprintf(f, "\n%s:\n", sets[s].title ? sets[s].title : "Options");
		for (const struct pl_opt *o = sets[s].opts; o->name; o++) {
			char head[64];
			if (o->short_name)
				snprintf(head, sizeof(head), "-%c, --%s%s%s", o->short_name,
					 o->name, o->arg ? " " : "", o->arg ? o->arg : "");
			else
				snprintf(head, sizeof(head), "    --%s%s%s", o->name,
					 o->arg ? " " : "", o->arg ? o->arg : "");
			fprintf(f, "  %-26s %s", head, o->help ? o->help : "");
			if (o->type == PL_OPT_ENUM && o->choices) {
				fputs(" (", f);
				for (int i = 0; o->choices[i]; i++)
					fprintf(f, "%s%s", i ? "|" : "", o->choices[i]);
				fputc(')', f);
			}
			if (o->def)
				fprintf(f, " [default: %s]", o->def);
			if (o->was_short)
				fprintf(f, " (was -%c)", o->was_short);
			fputc('\n', f);
		}
	}
}

int pl_opt_parse_pct(const char *opt, const char *s, double *out)
{
	char *t = pl_xstrdup(s);
	size_t len = strlen(t);
	if (len && t[len - 1] == '%')
		t[len - 1] = '\0';
	double v;
	int r = pl_parse_double(t, &v);
	free(t);
	if (r < 0 || !(v > 0) || v > 100) {
		pl_error("--%s '%s': give a percentage above 0, e.g. 1%%", opt, s);
		return -EINVAL;
	}
	*out = v / 100;
	return 0;
}
