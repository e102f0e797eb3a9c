/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Loading a profile (tune/profile.h): the search path, include chains, then the merge,
 * the variables and the checks of what will be used (tuned's loader.py). */
#include "tune/profile_internal.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "tune/validate.h"
#include "util/cleanup.h"
#include "util/str.h"
#include "util/sysroot.h"

static char bundled[PATH_MAX];
static char etc_dir[PATH_MAX];

void pl_tune_path_default(struct pl_tune_path *p, const char *profile_dir)
{
	memset(p, 0, sizeof(*p));
	if (profile_dir)
		p->dirs[p->n++] = profile_dir;
	const char *env = getenv("PERFLAB_PROFILEDIR");
	struct stat st;
	if (env && *env)
		snprintf(bundled, sizeof(bundled), "%s", env);
	else if (stat(PERFLAB_SRCDATADIR "/profiles", &st) == 0 && S_ISDIR(st.st_mode))
		snprintf(bundled, sizeof(bundled), "%s", PERFLAB_SRCDATADIR "/profiles");
	else
		snprintf(bundled, sizeof(bundled), "%s", PERFLAB_DATADIR "/profiles");
	p->dirs[p->n++] = bundled;
	/* The machine's own profiles: /etc is the sysroot's (util/sysroot.h), so a fixture
	 * tree's /etc/tuned is searched, never the host's, with --sysroot. */
	if (pl_sysroot_path(etc_dir, sizeof(etc_dir), "/etc/tuned") == 0)
		p->dirs[p->n++] = etc_dir;
	/* Installed software, like our bundled profiles: read from the host (tuned's own
	 * profiles are the same on every machine with that package). */
	p->dirs[p->n++] = "/usr/lib/tuned";
}

bool pl_tune_name_ok(const char *name)
{
	if (!name || !*name || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return false;
	return strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") ==
	       strlen(name);
}

bool pl_tune_in_list(char *const *v, const char *s)
{
	for (size_t i = 0; v && v[i]; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

/* Find @name along @p skipping @skip; *skipped set when a candidate was skipped. */
static char *locate(const struct pl_tune_path *p, const char *name, char *const *skip,
		    char **skipped)
{
	for (size_t i = 0; i < p->n; i++) {
		char *f = pl_xasprintf("%s/%s/tuned.conf", p->dirs[i], name);
		struct stat st;
		if (stat(f, &st) == 0 && S_ISREG(st.st_mode)) {
			char real[PATH_MAX];
			if (realpath(f, real)) {
				free(f);
				f = pl_xstrdup(real);
			}
			if (!pl_tune_in_list(skip, f))
				return f;
			if (skipped && !*skipped)
				*skipped = pl_xstrdup(f);
		}
		free(f);
	}
	return NULL;
}

char *pl_tune_locate(const struct pl_tune_path *p, const char *name, char *const *skip)
{
	return locate(p, name, skip, NULL);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **pl_tune_profile_list(const struct pl_tune_path *p, char ***dirs)
{
	char **names = NULL;
	size_t n = 0;
	for (size_t i = 0; i < p->n; i++) {
		char path[PATH_MAX];
		struct stat st;
		DIR *d = opendir(p->dirs[i]);
		if (!d)
			continue;
		struct dirent *de;
		while ((de = readdir(d))) {
			if (!pl_tune_name_ok(de->d_name) || de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s/tuned.conf", p->dirs[i], de->d_name);
			if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
				continue;
			if (pl_tune_in_list(names, de->d_name))
				continue;
			names = pl_xrealloc(names, (n + 2) * sizeof(*names));
			names[n++] = pl_xstrdup(de->d_name);
			names[n] = NULL;
		}
		closedir(d);
	}
	if (!names)
		names = pl_xcalloc(1, sizeof(*names));
	qsort(names, n, sizeof(*names), cmp_str);
	if (dirs) {
		*dirs = pl_xcalloc(n + 1, sizeof(char *));
		for (size_t i = 0; i < n; i++) {
			char *f = locate(p, names[i], NULL, NULL);
			char *sl = f ? strrchr(f, '/') : NULL;
			if (sl) {
				*sl = '\0';
				sl = strrchr(f, '/');
				if (sl)
					*sl = '\0';
			}
			(*dirs)[i] = f ? f : pl_xstrdup("?");
		}
	}
	return names;
}

/* What a load leaves behind besides the profile (the cleanup of pl_tune_profile_load). */
static void loader_free(struct pl_tune_loader *L)
{
	for (size_t i = 0; i < L->nconfs; i++)
		pl_tune_conf_free(&L->confs[i]);
	free(L->confs);
	pl_strv_free(L->processed);
	pl_strv_free(L->notes);
	free(L->stack_names);
	free(L->stack_files);
}

void pl_tune_loader_note(struct pl_tune_loader *L, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct pl_buf b = { 0 };
	pl_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	L->notes = pl_xrealloc(L->notes, (L->nnotes + 2) * sizeof(char *));
	L->notes[L->nnotes++] = pl_buf_steal(&b);
	L->notes[L->nnotes] = NULL;
}

static int load_one(struct pl_tune_loader *L, const char *name, const char *from_file,
		    int from_line);

static int load_includes(struct pl_tune_loader *L, struct pl_tune_conf *c)
{
	struct pl_tune_section *m = NULL;
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->s[i].name, "main") == 0)
			m = &c->s[i];
	const struct pl_tune_opt *inc = m ? pl_tune_opts_get(&m->opts, "include") : NULL;
	if (!inc)
		return 0;
	/* tuned expands include= before any variable is known: only functions apply. */
	const struct pl_tune_opts none = { 0 };
	char *incv = NULL;
	if (pl_tune_expand(inc->value, &none, NULL, &incv) < 0)
		incv = pl_xstrdup(inc->value);
	if (strstr(incv, "${")) {
		free(incv);
		snprintf(L->err, L->el,
			 "%s:%d: profile '%s': include '%s' uses a variable or function; perflab "
			 "does not evaluate ${...} in include (name the profile directly)",
			 inc->file, inc->line, c->name, inc->value);
		return -ENOTSUP;
	}
	char **names = pl_split(incv, ",;", NULL);
	free(incv);
	char *file = pl_xstrdup(inc->file);
	int line = inc->line;
	int r = 0;
	for (size_t i = 0; names[i] && r == 0; i++) {
		char *nm = pl_trim(names[i]);
		if (!*nm)
			continue;
		r = load_one(L, nm, file, line);
	}
	free(file);
	pl_strv_free(names);
	return r;
}

static int load_one(struct pl_tune_loader *L, const char *name, const char *from_file,
		    int from_line)
{
	/* '-name' makes an include optional; the profile asked for is never optional (tuned
	 * itself fails with an IndexError then: nothing is loaded). */
	bool dash = name[0] == '-', cond = dash && from_file;
	if (dash)
		name++;
	if (L->depth >= PL_TUNE_MAX_INCLUDE_DEPTH) {
		snprintf(L->err, L->el,
			 "%s:%d: include of '%s' nests profiles more than %d deep (%s -> ... -> "
			 "%s): perflab's limit; stock profiles nest 3",
			 from_file, from_line, name, PL_TUNE_MAX_INCLUDE_DEPTH, L->stack_names[0],
			 L->stack_names[L->depth - 1]);
		return -E2BIG;
	}
	if (!pl_tune_name_ok(name)) {
		if (from_file)
			snprintf(L->err, L->el,
				 "%s:%d: include '%s' is not a profile name (letters, digits, '_', "
				 "'.', '-'; no '/' or '..')",
				 from_file, from_line, name);
		else
			snprintf(L->err, L->el,
				 "'%s' is not a profile name (letters, digits, '_', '.', '-'; no "
				 "'/' "
				 "or '..')",
				 name);
		return -EINVAL;
	}
	pl_autofree char *skipped = NULL;
	pl_autofree char *f = locate(L->path, name, L->processed, &skipped);
	if (!f) {
		bool on_stack = false;
		for (size_t i = 0; skipped && i < L->depth; i++)
			if (strcmp(L->stack_files[i], skipped) == 0)
				on_stack = true;
		if (on_stack) {
			struct pl_buf b = { 0 };
			size_t start = 0;
			for (size_t i = 0; i < L->depth; i++)
				if (strcmp(L->stack_names[i], name) == 0) {
					start = i;
					break;
				}
			for (size_t i = start; i < L->depth; i++)
				pl_buf_printf(&b, "%s -> ", L->stack_names[i]);
			pl_buf_puts(&b, name);
			snprintf(L->err, L->el, "%s:%d: include loop: %s", from_file, from_line,
				 b.data);
			pl_buf_free(&b);
			return -ELOOP;
		}
		if (skipped || cond) {
			if (!skipped)
				pl_tune_loader_note(
					L, "optional include '-%s' (%s:%d) not found: skipped",
					name, from_file, from_line);
			return 0;
		}
		struct pl_buf b = { 0 };
		for (size_t i = 0; i < L->path->n; i++)
			pl_buf_printf(&b, "%s%s/%s/tuned.conf", i ? ", " : "", L->path->dirs[i],
				      name);
		if (from_file)
			snprintf(L->err, L->el,
				 "%s:%d: included profile '%s' not found (looked for %s)",
				 from_file, from_line, name, b.data);
		else
			snprintf(
				L->err, L->el,
				"profile '%s' not found (looked for %s; see 'perflab tune list')%s",
				name, b.data,
				dash ? "; a leading '-' makes only an include optional" : "");
		pl_buf_free(&b);
		return -ENOENT;
	}
	L->processed = pl_xrealloc(L->processed, (L->nproc + 2) * sizeof(char *));
	L->processed[L->nproc++] = pl_xstrdup(f);
	L->processed[L->nproc] = NULL;
	struct pl_tune_conf c;
	int r = pl_tune_ini_parse(f, name, &c, L->err, L->el);
	if (r == 0 && (L->nsections += c.n) > PL_TUNE_MAX_SECTIONS) {
		snprintf(L->err, L->el,
			 "%s: profile '%s': it and the profiles it includes have more than %d "
			 "sections (tuned profiles have a few)",
			 f, name, PL_TUNE_MAX_SECTIONS);
		r = -E2BIG;
	}
	if (r < 0) {
		pl_tune_conf_free(&c);
		return r;
	}
	L->stack_names = pl_xrealloc(L->stack_names, (L->depth + 1) * sizeof(char *));
	L->stack_files = pl_xrealloc(L->stack_files, (L->depth + 1) * sizeof(char *));
	L->stack_names[L->depth] = (char *)name;
	L->stack_files[L->depth] = f;
	L->depth++;
	r = load_includes(L, &c);
	L->depth--;
	if (r < 0) {
		pl_tune_conf_free(&c);
		return r;
	}
	L->confs = pl_xrealloc(L->confs, (L->nconfs + 1) * sizeof(*L->confs));
	L->confs[L->nconfs++] = c;
	return 0;
}

/* Expand the unit's devices, regexes and options; check the regexes and the
 * [bootloader] cmdline tokens. */
static int finish_unit(struct pl_tune_loader *L, struct pl_tune_profile *pr, struct pl_tune_unit *u)
{
	char what[256], *x = NULL;
	snprintf(what, sizeof(what), "section [%.80s], devices", u->name);
	int r = pl_tune_expand_at(L, u->devices, &pr->variables, NULL, &x, u->file, u->line, what);
	if (r < 0)
		return r;
	pl_tune_set_str(&u->devices, x);
	free(x);
	char **res[2] = { &u->cpuinfo_regex, &u->uname_regex };
	const char *ats[2] = { u->cpuinfo_regex_at, u->uname_regex_at };
	const char *keys[2] = { "cpuinfo_regex", "uname_regex" };
	for (int i = 0; i < 2; i++) {
		if (!*res[i])
			continue;
		snprintf(what, sizeof(what), "section [%.80s], %s", u->name, keys[i]);
		r = pl_tune_expand_at(L, *res[i], &pr->variables, NULL, &x, u->file, u->line, what);
		if (r < 0)
			return r;
		pl_tune_set_str(res[i], x);
		free(x);
		r = pl_tune_check_regex(u->name, keys[i], *res[i], ats[i] ? ats[i] : u->file,
					L->err, L->el);
		if (r < 0)
			return r;
	}
	bool boot = strcmp(u->type, "bootloader") == 0;
	for (size_t k = 0; k < u->opts.n; k++) {
		struct pl_tune_opt *o = &u->opts.v[k];
		free(o->expanded);
		o->expanded = NULL;
		snprintf(what, sizeof(what), "profile '%.60s', section [%.60s], key '%.60s'",
			 o->profile, u->name, o->key);
		r = pl_tune_expand_at(L, o->value, &pr->variables, NULL, &o->expanded, o->file,
				      o->line, what);
		if (r < 0)
			return r;
		if (boot && pl_startswith(o->key, "cmdline")) {
			char why[512];
			if (pl_tune_cmdline_check(o->expanded, why, sizeof(why)) < 0) {
				snprintf(L->err, L->el, "%s:%d: %s: %s", o->file, o->line, what,
					 why);
				return -EINVAL;
			}
		}
	}
	return 0;
}

int pl_tune_profile_load(const struct pl_tune_path *p, const char *name,
			 struct pl_tune_profile **out, char *err, size_t errlen)
{
	__attribute__((cleanup(loader_free))) struct pl_tune_loader L = { .path = p,
									  .err = err,
									  .el = errlen };
	err[0] = '\0';
	int r = load_one(&L, name, NULL, 0);
	if (r == 0 && L.nconfs == 0) {
		snprintf(err, errlen, "profile '%s': nothing loaded", name);
		r = -ENOENT;
	}
	if (r < 0)
		return r;
	__attribute__((cleanup(pl_tune_profile_freep))) struct pl_tune_profile *pr =
		pl_xcalloc(1, sizeof(*pr));
	pr->name = pl_xstrdup(name);
	pr->file = pl_xstrdup(L.confs[L.nconfs - 1].file);
	__attribute__((cleanup(pl_tune_opts_free))) struct pl_tune_opts vars_raw = { 0 };
	r = pl_tune_merge(pr, L.confs, L.nconfs, &vars_raw, err, errlen);
	if (r < 0)
		return r;
	r = pl_tune_vars_load(&L, pr, &vars_raw);
	for (size_t i = 0; i < pr->main.n && r == 0; i++) {
		struct pl_tune_opt *o = &pr->main.v[i];
		char what[160];
		snprintf(what, sizeof(what), "[main] option '%.100s'", o->key);
		r = pl_tune_expand_at(&L, o->value, &pr->variables, NULL, &o->expanded, o->file,
				      o->line, what);
	}
	for (size_t i = 0; i < pr->nunits && r == 0; i++)
		r = finish_unit(&L, pr, &pr->units[i]);
	if (r < 0)
		return r;
	const struct pl_tune_opt *sum = pl_tune_opts_get(&pr->main, "summary");
	pr->summary = pl_xstrdup(sum ? sum->expanded : "");
	pr->notes = pl_steal_ptr(&L.notes);
	if (!pr->notes)
		pr->notes = pl_xcalloc(1, sizeof(char *));
	*out = pl_steal_ptr(&pr);
	return 0;
}

void pl_tune_profile_free(struct pl_tune_profile *pr)
{
	if (!pr)
		return;
	free(pr->name);
	free(pr->file);
	free(pr->summary);
	pl_strv_free(pr->chain);
	pl_strv_free(pr->notes);
	pl_tune_opts_free(&pr->main);
	pl_tune_opts_free(&pr->variables);
	for (size_t i = 0; i < pr->nunits; i++)
		pl_tune_unit_free(&pr->units[i]);
	free(pr->units);
	free(pr);
}
