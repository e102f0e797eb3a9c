/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tune/profile.h"

#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "util/str.h"
#include "util/sysroot.h"

/* ---- option vectors ---- */

const struct pl_tune_opt *pl_tune_opts_get(const struct pl_tune_opts *o, const char *key)
{
	for (size_t i = 0; i < o->n; i++)
		if (strcmp(o->v[i].key, key) == 0)
			return &o->v[i];
	return NULL;
}

static void opt_free(struct pl_tune_opt *o)
{
	free(o->key);
	free(o->value);
	free(o->expanded);
	free(o->file);
	free(o->profile);
}

static void opts_free(struct pl_tune_opts *o)
{
	for (size_t i = 0; i < o->n; i++)
		opt_free(&o->v[i]);
	free(o->v);
	memset(o, 0, sizeof(*o));
}

/* Set key to a copy of @src (OrderedDict semantics: an existing key keeps its place). */
static void opts_set(struct pl_tune_opts *o, const struct pl_tune_opt *src)
{
	struct pl_tune_opt *d = (struct pl_tune_opt *)pl_tune_opts_get(o, src->key);
	if (d) {
		opt_free(d);
	} else {
		if (o->n == o->cap) {
			o->cap = o->cap ? o->cap * 2 : 8;
			o->v = pl_xrealloc(o->v, o->cap * sizeof(*o->v));
		}
		d = &o->v[o->n++];
	}
	d->key = pl_xstrdup(src->key);
	d->value = pl_xstrdup(src->value);
	d->expanded = src->expanded ? pl_xstrdup(src->expanded) : NULL;
	d->file = pl_xstrdup(src->file);
	d->profile = pl_xstrdup(src->profile);
	d->line = src->line;
}

static void opts_del(struct pl_tune_opts *o, const char *key)
{
	for (size_t i = 0; i < o->n; i++)
		if (strcmp(o->v[i].key, key) == 0) {
			opt_free(&o->v[i]);
			memmove(&o->v[i], &o->v[i + 1], (o->n - i - 1) * sizeof(*o->v));
			o->n--;
			return;
		}
}

static void opts_copy(struct pl_tune_opts *dst, const struct pl_tune_opts *src)
{
	for (size_t i = 0; i < src->n; i++)
		opts_set(dst, &src->v[i]);
}

/* ---- one file ---- */

struct section {
	char *name;
	char *file;
	int line;
	struct pl_tune_opts opts;
};

struct conf {
	char *name; /* profile name */
	char *file;
	struct section *s;
	size_t n;
};

static void conf_free(struct conf *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->s[i].name);
		free(c->s[i].file);
		opts_free(&c->s[i].opts);
	}
	free(c->s);
	free(c->name);
	free(c->file);
	memset(c, 0, sizeof(*c));
}

static struct section *conf_section(struct conf *c, const char *name, int line)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->s[i].name, name) == 0)
			return &c->s[i];
	c->s = pl_xrealloc(c->s, (c->n + 1) * sizeof(*c->s));
	struct section *s = &c->s[c->n++];
	memset(s, 0, sizeof(*s));
	s->name = pl_xstrdup(name);
	s->file = pl_xstrdup(c->file);
	s->line = line;
	return s;
}

/* Reader state: counts lines for error messages (Debian's inih has no line numbers in
 * the handler) and protects ':' in keys (tuned's parser splits only at '='). */
struct reader {
	FILE *f;
	int line;
	struct conf *c;
	char *profile_dir;
};

#define COLON_MARK '\x01'

static char *read_line(char *buf, int size, void *stream)
{
	struct reader *r = stream;
	if (!fgets(buf, size, r->f))
		return NULL;
	r->line++;
	/* Register "[name]" here: inih calls the handler only for key=value lines, and an
	 * empty section is still a unit for tuned. */
	const char *t = buf + strspn(buf, " \t");
	const char *close = t[0] == '[' ? strchr(t, ']') : NULL;
	if (close) {
		char *name = pl_xmalloc((size_t)(close - t));
		memcpy(name, t + 1, (size_t)(close - t - 1));
		name[close - t - 1] = '\0';
		char *n = pl_trim(name);
		conf_section(r->c, n, r->line);
		free(name);
		return buf;
	}
	char *eq = strchr(buf, '=');
	char *co = strchr(buf, ':');
	while (co && (!eq || co < eq)) {
		*co = COLON_MARK;
		co = strchr(co + 1, ':');
	}
	return buf;
}

static void unmark(char *s)
{
	for (; *s; s++)
		if (*s == COLON_MARK)
			*s = ':';
}

/* Replace ${i:PROFILE_DIR} (tuned expands it when the file is read). */
static char *expand_profile_dir(const char *v, const char *dir)
{
	struct pl_buf b = {0};
	pl_buf_puts(&b, "");
	const char *tok = "${i:PROFILE_DIR}";
	const char *p;
	while ((p = strstr(v, tok))) {
		pl_buf_append(&b, v, (size_t)(p - v));
		pl_buf_puts(&b, dir);
		v = p + strlen(tok);
	}
	pl_buf_puts(&b, v);
	return pl_buf_steal(&b);
}

static int on_kv(void *user, const char *section, const char *name, const char *value)
{
	struct reader *r = user;
	char *n = pl_xstrdup(name), *sec = pl_xstrdup(section);
	unmark(n);
	unmark(sec);
	char *v = expand_profile_dir(value, r->profile_dir);
	unmark(v);
	struct section *s = conf_section(r->c, sec, r->line);
	struct pl_tune_opt o = {
	    .key = n, .value = v, .file = r->c->file, .profile = r->c->name, .line = r->line};
	opts_set(&s->opts, &o);
	free(n);
	free(v);
	free(sec);
	return 1;
}

static int parse_file(const char *path, const char *name, struct conf *c, char *err, size_t el)
{
	memset(c, 0, sizeof(*c));
	c->name = pl_xstrdup(name);
	c->file = pl_xstrdup(path);
	FILE *f = fopen(path, "re");
	if (!f) {
		int e = -errno;
		snprintf(err, el, "cannot read '%s': %s", path, strerror(-e));
		return e;
	}
	ini_allow_multiline = false;
	ini_allow_inline_comments = true;
	ini_inline_comment_prefixes = "#";
	ini_start_comment_prefixes = ";#";
	ini_use_stack = false;
	ini_allow_realloc = true;
	ini_max_line = 65536;
	ini_stop_on_first_error = true;
	char *dir = pl_xstrdup(path);
	char *sl = strrchr(dir, '/');
	if (sl)
		*sl = '\0';
	struct reader r = {.f = f, .c = c, .profile_dir = dir};
	int rc = ini_parse_stream(read_line, &r, on_kv, &r);
	fclose(f);
	free(dir);
	if (rc != 0) {
		snprintf(err, el,
			 "%s:%d: profile '%s': not a 'key = value' line or '[section]' header",
			 path, rc > 0 ? rc : r.line, name);
		return -EBADMSG;
	}
	return 0;
}

/* ---- search path ---- */

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
	if (pl_sysroot_path(etc_dir, sizeof(etc_dir), "/etc/tuned") == 0)
		p->dirs[p->n++] = etc_dir;
	/* Installed software, like our bundled profiles: read from the host. */
	p->dirs[p->n++] = "/usr/lib/tuned";
}

bool pl_tune_name_ok(const char *name)
{
	if (!name || !*name || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return false;
	return strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") ==
	       strlen(name);
}

static bool in_list(char *const *v, const char *s)
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
			if (!in_list(skip, f))
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
			if (in_list(names, de->d_name))
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

/* ---- loading and merging ---- */

struct loader {
	const struct pl_tune_path *path;
	char **processed; /* files loaded (tuned's processed_files) */
	size_t nproc;
	char **stack_names; /* profile names being loaded (for the cycle message) */
	char **stack_files;
	size_t depth;
	struct conf *confs; /* in merge order */
	size_t nconfs;
	char **notes;
	size_t nnotes;
	char *err;
	size_t el;
};

static void add_note(struct loader *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_note(struct loader *L, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct pl_buf b = {0};
	pl_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	L->notes = pl_xrealloc(L->notes, (L->nnotes + 2) * sizeof(char *));
	L->notes[L->nnotes++] = pl_buf_steal(&b);
	L->notes[L->nnotes] = NULL;
}

static int load_one(struct loader *L, const char *name, const char *from_file, int from_line);

/* The one tuned function perflab evaluates, because stock profiles include through it:
 * ${f:virt_check:IF_VIRTUAL:IF_NOT} (a guest: the hypervisor CPU flag or
 * /sys/hypervisor/type). Returns a malloc'd copy of @v with it replaced. */
static char *virt_check(const char *v)
{
	const char *tok = "${f:virt_check:";
	const char *p = strstr(v, tok);
	if (!p)
		return pl_xstrdup(v);
	const char *a = p + strlen(tok);
	const char *colon = strchr(a, ':');
	const char *end = colon ? strchr(colon, '}') : NULL;
	if (!colon || !end)
		return pl_xstrdup(v);
	char *cpuinfo = NULL;
	bool virt = pl_exists("/sys/hypervisor/type");
	if (!virt && pl_read_file("/proc/cpuinfo", &cpuinfo, NULL) == 0)
		virt = strstr(cpuinfo, " hypervisor") != NULL;
	free(cpuinfo);
	struct pl_buf b = {0};
	pl_buf_append(&b, v, (size_t)(p - v));
	if (virt)
		pl_buf_append(&b, a, (size_t)(colon - a));
	else
		pl_buf_append(&b, colon + 1, (size_t)(end - colon - 1));
	pl_buf_puts(&b, end + 1);
	return pl_buf_steal(&b);
}

static int load_includes(struct loader *L, struct conf *c)
{
	struct section *m = NULL;
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->s[i].name, "main") == 0)
			m = &c->s[i];
	const struct pl_tune_opt *inc = m ? pl_tune_opts_get(&m->opts, "include") : NULL;
	if (!inc)
		return 0;
	char *incv = virt_check(inc->value);
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

static int load_one(struct loader *L, const char *name, const char *from_file, int from_line)
{
	bool cond = name[0] == '-';
	if (cond)
		name++;
	if (!pl_tune_name_ok(name)) {
		if (from_file)
			snprintf(L->err, L->el,
				 "%s:%d: include '%s' is not a profile name (letters, digits, '_', "
				 "'.', '-'; no '/' or '..')",
				 from_file, from_line, name);
		else
			snprintf(
			    L->err, L->el,
			    "'%s' is not a profile name (letters, digits, '_', '.', '-'; no '/' "
			    "or '..')",
			    name);
		return -EINVAL;
	}
	char *skipped = NULL;
	char *f = locate(L->path, name, L->processed, &skipped);
	if (!f) {
		bool on_stack = false;
		for (size_t i = 0; skipped && i < L->depth; i++)
			if (strcmp(L->stack_files[i], skipped) == 0)
				on_stack = true;
		if (on_stack) {
			struct pl_buf b = {0};
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
			free(skipped);
			return -ELOOP;
		}
		if (skipped || cond) {
			if (!skipped)
				add_note(L, "optional include '-%s' (%s:%d) not found: skipped",
					 name, from_file, from_line);
			free(skipped);
			return 0;
		}
		struct pl_buf b = {0};
		for (size_t i = 0; i < L->path->n; i++)
			pl_buf_printf(&b, "%s%s/%s/tuned.conf", i ? ", " : "", L->path->dirs[i],
				      name);
		if (from_file)
			snprintf(L->err, L->el,
				 "%s:%d: included profile '%s' not found (looked for %s)",
				 from_file, from_line, name, b.data);
		else
			snprintf(L->err, L->el,
				 "profile '%s' not found (looked for %s; see 'perflab tune list')",
				 name, b.data);
		pl_buf_free(&b);
		return -ENOENT;
	}
	free(skipped);
	L->processed = pl_xrealloc(L->processed, (L->nproc + 2) * sizeof(char *));
	L->processed[L->nproc++] = pl_xstrdup(f);
	L->processed[L->nproc] = NULL;
	struct conf c;
	int r = parse_file(f, name, &c, L->err, L->el);
	if (r < 0) {
		conf_free(&c);
		free(f);
		return r;
	}
	L->stack_names = pl_xrealloc(L->stack_names, (L->depth + 1) * sizeof(char *));
	L->stack_files = pl_xrealloc(L->stack_files, (L->depth + 1) * sizeof(char *));
	L->stack_names[L->depth] = (char *)name;
	L->stack_files[L->depth] = f;
	L->depth++;
	r = load_includes(L, &c);
	L->depth--;
	free(f);
	if (r < 0) {
		conf_free(&c);
		return r;
	}
	L->confs = pl_xrealloc(L->confs, (L->nconfs + 1) * sizeof(*L->confs));
	L->confs[L->nconfs++] = c;
	return 0;
}

static const char *const unit_reserved[] = {
    "type",	     "enabled",	    "replace",	  "drop",	 "devices", "devices_udev_regex",
    "cpuinfo_regex", "uname_regex", "script_pre", "script_post", NULL};

static bool truthy(const char *v)
{
	return strcmp(v, "1") == 0 || strcmp(v, "true") == 0 || strcmp(v, "True") == 0;
}

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = v ? pl_xstrdup(v) : NULL;
}

static void unit_free(struct pl_tune_unit *u)
{
	free(u->name);
	free(u->type);
	free(u->devices);
	free(u->cpuinfo_regex);
	free(u->uname_regex);
	pl_strv_free(u->unsupported_keys);
	opts_free(&u->opts);
	free(u->file);
}

static struct pl_tune_unit *find_unit(struct pl_tune_profile *pr, const char *name)
{
	for (size_t i = 0; i < pr->nunits; i++)
		if (strcmp(pr->units[i].name, name) == 0)
			return &pr->units[i];
	return NULL;
}

static void strv_add(char ***v, const char *s)
{
	size_t n = 0;
	while (*v && (*v)[n])
		n++;
	if (in_list(*v, s))
		return;
	*v = pl_xrealloc(*v, (n + 2) * sizeof(char *));
	(*v)[n] = pl_xstrdup(s);
	(*v)[n + 1] = NULL;
}

/* Merge section @s of one file over the profile (tuned's Merger._merge_two). */
static void merge_section(struct pl_tune_profile *pr, const struct section *s)
{
	const struct pl_tune_opt *o;
	struct pl_tune_unit *u = find_unit(pr, s->name);
	bool replace = (o = pl_tune_opts_get(&s->opts, "replace")) && truthy(o->value);
	if (u && replace) {
		unit_free(u);
		memset(u, 0, sizeof(*u));
	}
	if (!u || replace) {
		if (!u) {
			pr->units = pl_xrealloc(pr->units, (pr->nunits + 1) * sizeof(*pr->units));
			u = &pr->units[pr->nunits++];
			memset(u, 0, sizeof(*u));
		}
		u->name = pl_xstrdup(s->name);
		u->enabled = true;
		u->devices = pl_xstrdup("*");
		u->type = pl_xstrdup(s->name);
	}
	set_str(&u->file, s->file);
	u->line = s->line;
	/* type, enabled and devices are taken from the newer unit (with their defaults). */
	o = pl_tune_opts_get(&s->opts, "type");
	set_str(&u->type, o ? o->value : s->name);
	o = pl_tune_opts_get(&s->opts, "enabled");
	u->enabled = o ? truthy(o->value) : true;
	o = pl_tune_opts_get(&s->opts, "devices");
	set_str(&u->devices, o ? o->value : "*");
	if ((o = pl_tune_opts_get(&s->opts, "cpuinfo_regex")))
		set_str(&u->cpuinfo_regex, o->value);
	if ((o = pl_tune_opts_get(&s->opts, "uname_regex")))
		set_str(&u->uname_regex, o->value);
	if ((o = pl_tune_opts_get(&s->opts, "drop"))) {
		char **d = pl_split(o->value, ",; \t", NULL);
		for (size_t i = 0; d[i]; i++)
			opts_del(&u->opts, d[i]);
		pl_strv_free(d);
	}
	for (size_t i = 0; i < s->opts.n; i++) {
		const struct pl_tune_opt *x = &s->opts.v[i];
		bool reserved = false;
		for (size_t k = 0; unit_reserved[k]; k++)
			if (strcmp(x->key, unit_reserved[k]) == 0)
				reserved = true;
		const struct pl_tune_opt *prev = pl_tune_opts_get(&u->opts, x->key);
		if (!reserved && strcmp(s->name, "script") == 0 && strcmp(x->key, "script") == 0 &&
		    prev) {
			/* tuned runs the scripts of every merged [script] unit, earlier first. */
			struct pl_tune_opt cat = *x;
			cat.value = pl_xasprintf("%s %s", prev->value, x->value);
			opts_set(&u->opts, &cat);
			free(cat.value);
		} else if (!reserved) {
			opts_set(&u->opts, x);
		} else if (strcmp(x->key, "devices_udev_regex") == 0 ||
			   strcmp(x->key, "script_pre") == 0 ||
			   strcmp(x->key, "script_post") == 0) {
			strv_add(&u->unsupported_keys, x->key);
		}
	}
}

/* ---- variables ---- */

/* Expand ${name} using @vars (values already expanded). \${ stays literal. Unknown
 * variables stay as written; ${f:...} and ${i:...} are reported through *unsupported. */
static char *expand(const char *v, const struct pl_tune_opts *vars, char **unsupported)
{
	struct pl_buf b = {0};
	pl_buf_puts(&b, "");
	while (*v) {
		if (v[0] == '\\' && v[1] == '$' && v[2] == '{') {
			pl_buf_puts(&b, "${");
			v += 3;
			continue;
		}
		if (v[0] == '$' && v[1] == '{') {
			/* Find the matching brace (functions nest: ${f:strip:${f:exec:..}}). */
			int depth = 0;
			const char *e = v + 1;
			for (; *e; e++) {
				if (*e == '{')
					depth++;
				else if (*e == '}' && --depth == 0)
					break;
			}
			if (!*e) {
				pl_buf_puts(&b, v);
				break;
			}
			size_t n = (size_t)(e - v - 2);
			char *inner = pl_xmalloc(n + 1);
			memcpy(inner, v + 2, n);
			inner[n] = '\0';
			const struct pl_tune_opt *var = pl_tune_opts_get(vars, inner);
			if (var && var->expanded) {
				pl_buf_puts(&b, var->expanded);
			} else {
				if ((pl_startswith(inner, "f:") || pl_startswith(inner, "i:")) &&
				    unsupported && !*unsupported)
					*unsupported = pl_xasprintf("${%s}", inner);
				pl_buf_append(&b, v, n + 3);
			}
			free(inner);
			v = e + 1;
			continue;
		}
		pl_buf_append(&b, v, 1);
		v++;
	}
	return pl_buf_steal(&b);
}

/* Read more variables from FILE (the `include` of [variables]), inside the sysroot. */
static void vars_from_file(struct pl_tune_profile *pr, const struct pl_tune_opt *inc,
			   struct loader *L)
{
	char path[PATH_MAX];
	if (pl_sysroot_path(path, sizeof(path), inc->value) < 0) {
		add_note(L, "%s:%d: variables file '%s' is not an absolute path: ignored",
			 inc->file, inc->line, inc->value);
		return;
	}
	struct conf c;
	char err[512];
	if (parse_file(path, pr->name, &c, err, sizeof(err)) < 0) {
		/* tuned logs "unable to find variables_file" and goes on. */
		add_note(L, "%s:%d: variables file '%s' not readable: its variables stay unset",
			 inc->file, inc->line, inc->value);
		conf_free(&c);
		return;
	}
	/* The file has no section header: inih reports its keys under section "". */
	for (size_t i = 0; i < c.n; i++)
		for (size_t k = 0; k < c.s[i].opts.n; k++) {
			struct pl_tune_opt o = c.s[i].opts.v[k];
			char *ex = expand(o.value, &pr->variables, NULL);
			o.expanded = ex;
			opts_set(&pr->variables, &o);
			free(ex);
		}
	conf_free(&c);
}

int pl_tune_profile_load(const struct pl_tune_path *p, const char *name,
			 struct pl_tune_profile **out, char *err, size_t errlen)
{
	struct loader L = {.path = p, .err = err, .el = errlen};
	err[0] = '\0';
	int r = load_one(&L, name, NULL, 0);
	struct pl_tune_profile *pr = NULL;
	if (r < 0)
		goto done;
	pr = pl_xcalloc(1, sizeof(*pr));
	pr->name = pl_xstrdup(name);
	pr->file = pl_xstrdup(L.confs[L.nconfs - 1].file);
	pr->chain = pl_xcalloc(L.nconfs + 1, sizeof(char *));
	struct pl_tune_opts vars_raw = {0};
	for (size_t i = 0; i < L.nconfs; i++) {
		struct conf *c = &L.confs[i];
		pr->chain[i] = pl_xstrdup(c->file);
		for (size_t k = 0; k < c->n; k++) {
			struct section *s = &c->s[k];
			if (strcmp(s->name, "main") == 0) {
				for (size_t m = 0; m < s->opts.n; m++)
					if (strcmp(s->opts.v[m].key, "include") != 0)
						opts_set(&pr->main, &s->opts.v[m]);
			} else if (strcmp(s->name, "variables") == 0) {
				opts_copy(&vars_raw, &s->opts);
			} else if (s->name[0] == '\0') {
				snprintf(err, errlen,
					 "%s:%d: profile '%s': option '%s' before any [section]",
					 s->file, s->opts.n ? s->opts.v[0].line : 1, c->name,
					 s->opts.n ? s->opts.v[0].key : "?");
				r = -EBADMSG;
				opts_free(&vars_raw);
				goto done;
			} else {
				merge_section(pr, s);
			}
		}
	}
	/* Variables in definition order, each expanded with the ones before it. */
	for (size_t i = 0; i < vars_raw.n; i++) {
		struct pl_tune_opt *o = &vars_raw.v[i];
		if (strcmp(o->key, "include") == 0) {
			vars_from_file(pr, o, &L);
			continue;
		}
		char *uns = NULL;
		char *ex = expand(o->value, &pr->variables, &uns);
		if (uns)
			add_note(&L, "%s:%d: variable '%s' uses %s: functions are not supported",
				 o->file, o->line, o->key, uns);
		free(uns);
		struct pl_tune_opt c = *o;
		c.expanded = ex;
		opts_set(&pr->variables, &c);
		free(ex);
	}
	opts_free(&vars_raw);
	for (size_t i = 0; i < pr->main.n; i++)
		pr->main.v[i].expanded = expand(pr->main.v[i].value, &pr->variables, NULL);
	const struct pl_tune_opt *sum = pl_tune_opts_get(&pr->main, "summary");
	pr->summary = pl_xstrdup(sum ? sum->expanded : "");
	for (size_t i = 0; i < pr->nunits; i++) {
		struct pl_tune_unit *u = &pr->units[i];
		char *x = expand(u->devices, &pr->variables, NULL);
		set_str(&u->devices, x);
		free(x);
		if (u->cpuinfo_regex) {
			x = expand(u->cpuinfo_regex, &pr->variables, NULL);
			set_str(&u->cpuinfo_regex, x);
			free(x);
		}
		if (u->uname_regex) {
			x = expand(u->uname_regex, &pr->variables, NULL);
			set_str(&u->uname_regex, x);
			free(x);
		}
		for (size_t k = 0; k < u->opts.n; k++) {
			free(u->opts.v[k].expanded);
			u->opts.v[k].expanded = expand(u->opts.v[k].value, &pr->variables, NULL);
		}
	}
	pr->notes = L.notes;
	L.notes = NULL;
	if (!pr->notes)
		pr->notes = pl_xcalloc(1, sizeof(char *));
done:
	for (size_t i = 0; i < L.nconfs; i++)
		conf_free(&L.confs[i]);
	free(L.confs);
	pl_strv_free(L.processed);
	pl_strv_free(L.notes);
	free(L.stack_names);
	free(L.stack_files);
	if (r < 0) {
		pl_tune_profile_free(pr);
		return r;
	}
	*out = pr;
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
	opts_free(&pr->main);
	opts_free(&pr->variables);
	for (size_t i = 0; i < pr->nunits; i++)
		unit_free(&pr->units[i]);
	free(pr->units);
	free(pr);
}
