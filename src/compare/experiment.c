/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What this file opens or stats does not go through the sysroot helper
 * (util/sysroot.h), on purpose: none of it is a read of /proc, /sys or /etc. The INI file
 * of --experiment is the user's own file; the commands on $PATH, cwd= and /dev/shm are
 * looked up on the machine the commands run on, which is always the live one (compare
 * runs programs; settings refuse --sysroot, compare/sysset.c). Setting targets are only
 * named and checked here (tune/safepath.h resolves them inside the sysroot); their values
 * are read through the helper by sysset.c, and profile= files by tune/loader.c
 * (/etc/tuned inside the sysroot).
 *
 * Above 800 lines on purpose: the INI reader of --experiment and its validation of each
 * key against the variant it builds are one job. */
#include "compare/experiment.h"

#include <errno.h>
#include <ftw.h>
#include <ini.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "tune/plan.h"
#include "tune/profile.h"
#include "tune/safepath.h"
#include "util/str.h"

static const char *const variant_keys =
	"command, env.NAME, cwd, cpus, membind, sysctl.NAME, sysfs./sys/PATH, profile, "
	"prepare, cleanup, setup, teardown";

void pl_cmp_seterr(char *err, size_t len, const char *fmt, ...)
{
	if (!err || !len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

static void replace_str(char **dst, const char *value)
{
	free(*dst);
	*dst = value ? pl_xstrdup(value) : NULL;
}

static void add_setting(struct pl_cmp_variant *v, const char *key, const char *path,
			const char *value)
{
	for (size_t i = 0; i < v->nsettings; i++)
		if (strcmp(v->settings[i].path, path) == 0) {
			replace_str(&v->settings[i].value, value);
			replace_str(&v->settings[i].key, key);
			return;
		}
	v->settings = pl_xrealloc(v->settings, (v->nsettings + 1) * sizeof(*v->settings));
	v->settings[v->nsettings++] =
		(struct pl_cmp_setting){ pl_xstrdup(key), pl_xstrdup(path), pl_xstrdup(value) };
}

static void add_env(struct pl_cmp_variant *v, const char *name, const char *value)
{
	size_t nl = strlen(name);
	for (size_t i = 0; i < v->nenv; i++)
		if (strncmp(v->env[i], name, nl) == 0 && v->env[i][nl] == '=') {
			free(v->env[i]);
			v->env[i] = pl_xasprintf("%s=%s", name, value);
			return;
		}
	v->env = pl_xrealloc(v->env, (v->nenv + 2) * sizeof(char *));
	v->env[v->nenv++] = pl_xasprintf("%s=%s", name, value);
	v->env[v->nenv] = NULL;
}

int pl_cmp_variant_set(struct pl_cmp_variant *v, const char *key, const char *value, char *err,
		       size_t errlen)
{
	struct {
		const char *k;
		char **dst;
	} strs[] = {
		{ "command", &v->command },   { "cwd", &v->cwd },
		{ "cpus", &v->cpus },	      { "membind", &v->membind },
		{ "profile", &v->profile },   { "prepare", &v->prepare },
		{ "cleanup", &v->cleanup },   { "setup", &v->setup },
		{ "teardown", &v->teardown },
	};
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		if (strcmp(key, strs[i].k) == 0) {
			if (strcmp(key, "command") == 0)
				v->argv_given = false;
			replace_str(strs[i].dst, value);
			return 0;
		}
	if (pl_startswith(key, "env.")) {
		const char *name = key + 4;
		if (!*name || strchr(name, '=')) {
			pl_cmp_seterr(err, errlen,
				      "'%s': environment variable name missing or contains '='",
				      key);
			return -EINVAL;
		}
		add_env(v, name, value);
		return 0;
	}
	if (pl_startswith(key, "sysctl.")) {
		char *path;
		if (pl_tune_sysctl_path(key + 7, &path) < 0) {
			pl_cmp_seterr(err, errlen,
				      "'%s' is not a sysctl name (e.g. sysctl.vm.swappiness)", key);
			return -EINVAL;
		}
		add_setting(v, key, path, value);
		free(path);
		return 0;
	}
	if (pl_startswith(key, "sysfs.")) {
		const char *path = key + 6;
		if (!pl_startswith(path, "/sys/") || pl_tune_target_check(path) < 0) {
			pl_cmp_seterr(err, errlen,
				      "'%s': a sysfs key names an absolute path under /sys (e.g. "
				      "sysfs./sys/kernel/mm/transparent_hugepage/enabled)",
				      key);
			return -EINVAL;
		}
		add_setting(v, key, path, value);
		return 0;
	}
	pl_cmp_seterr(err, errlen, "unknown variant key '%s' (known: %s)", key, variant_keys);
	return -EINVAL;
}

static void copy_variant(struct pl_cmp_variant *d, const struct pl_cmp_variant *s)
{
	memset(d, 0, sizeof(*d));
	d->name = s->name ? pl_xstrdup(s->name) : NULL;
	char **strs_d[] = { &d->command, &d->cwd,     &d->cpus,	 &d->membind, &d->profile,
			    &d->prepare, &d->cleanup, &d->setup, &d->teardown };
	char *const strs_s[] = { s->command, s->cwd,	 s->cpus,  s->membind, s->profile,
				 s->prepare, s->cleanup, s->setup, s->teardown };
	for (size_t i = 0; i < sizeof(strs_s) / sizeof(strs_s[0]); i++)
		*strs_d[i] = strs_s[i] ? pl_xstrdup(strs_s[i]) : NULL;
	d->argv_given = s->argv_given;
	if (s->argv_given && s->argv) {
		size_t n = 0;
		while (s->argv[n])
			n++;
		d->argv = pl_xcalloc(n + 1, sizeof(char *));
		for (size_t i = 0; i < n; i++)
			d->argv[i] = pl_xstrdup(s->argv[i]);
	}
	for (size_t i = 0; i < s->nenv; i++) {
		d->env = pl_xrealloc(d->env, (d->nenv + 2) * sizeof(char *));
		d->env[d->nenv++] = pl_xstrdup(s->env[i]);
		d->env[d->nenv] = NULL;
	}
	for (size_t i = 0; i < s->nsettings; i++)
		add_setting(d, s->settings[i].key, s->settings[i].path, s->settings[i].value);
}

static void free_variant(struct pl_cmp_variant *v)
{
	free(v->name);
	free(v->command);
	pl_strv_free(v->argv);
	free(v->exe);
	pl_strv_free(v->env);
	free(v->cwd);
	free(v->cpus);
	free(v->membind);
	for (size_t i = 0; i < v->nsettings; i++) {
		free(v->settings[i].key);
		free(v->settings[i].path);
		free(v->settings[i].value);
	}
	free(v->settings);
	free(v->profile);
	free(v->prepare);
	free(v->cleanup);
	free(v->setup);
	free(v->teardown);
	free(v->workdir);
	free(v->note);
	for (size_t i = 0; i < v->n_not_applied; i++)
		free(v->not_applied[i]);
	free(v->not_applied);
	memset(v, 0, sizeof(*v));
}

struct pl_cmp_variant *pl_cmp_add_variant(struct pl_cmp_experiment *e, const char *name)
{
	e->v = pl_xrealloc(e->v, (e->n + 1) * sizeof(*e->v));
	struct pl_cmp_variant *v = &e->v[e->n++];
	copy_variant(v, &e->defaults);
	replace_str(&v->name, name);
	return v;
}

struct ini_ctx {
	struct pl_cmp_experiment *e;
	size_t first; /* index of this file's first variant */
	char *err;
	size_t errlen;
};

static int defaults_handler(void *user, const char *section, const char *name, const char *value)
{
	struct ini_ctx *c = user;
	if (*section)
		return 1;
	return pl_cmp_variant_set(&c->e->defaults, name, value, c->err, c->errlen) == 0;
}

static struct pl_cmp_variant *find_section(struct ini_ctx *c, const char *section)
{
	for (size_t i = c->first; i < c->e->n; i++)
		if (strcmp(c->e->v[i].name, section) == 0)
			return &c->e->v[i];
	return pl_cmp_add_variant(c->e, section);
}

static int variant_ini_handler(void *user, const char *section, const char *name, const char *value)
{
	struct ini_ctx *c = user;
	struct pl_cmp_variant *v = *section ? find_section(c, section) : &c->e->defaults;
	return pl_cmp_variant_set(v, name, value, c->err, c->errlen) == 0;
}

/* inih reports keys, not sections: create the variants of the file's sections first,
 * in file order, so a section without keys (the baseline: just the defaults) counts. */
static void add_sections(struct ini_ctx *c, FILE *f)
{
	char line[4096];
	while (fgets(line, sizeof(line), f)) {
		char *s = pl_trim(line);
		char *end = strchr(s, ']');
		if (s[0] != '[' || !end)
			continue;
		*end = '\0';
		find_section(c, pl_trim(s + 1));
	}
	rewind(f);
}

/* What an experiment file looks like, for the errors that say a file is not one. */
#define EXPERIMENT_FORMAT                                                                          \
	"expected an INI file with one [NAME] section per variant and keys such as "               \
	"'command = CMD', see perflab-compare(1)"

/* Why @f is not an experiment file, or NULL when it may be one: binary data (a NUL byte or
 * a control character other than tab, CR, LF), a JSON document, or text without a single
 * [section] or key = value line. Rewinds @f. */
static const char *not_experiment(FILE *f)
{
	char buf[4096];
	bool first = true, ini_line = false;
	const char *why = NULL;
	size_t n;
	while (!why && (n = fread(buf, 1, sizeof(buf) - 1, f)) > 0) {
		buf[n] = '\0';
		for (size_t i = 0; i < n && !why; i++) {
			unsigned char c = (unsigned char)buf[i];
			if (c == 0 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r') ||
			    c == 0x7f)
				why = "binary data";
		}
		if (first && !why) {
			const char *p = buf;
			while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
				p++;
			if (*p == '{' ||
			    (p[0] == '[' && (p[1] == '{' || p[1] == '"' || p[1] == ']')))
				why = "a JSON document";
			first = false;
		}
	}
	rewind(f);
	if (why)
		return why;
	while (!ini_line && fgets(buf, sizeof(buf), f)) {
		const char *t = pl_trim(buf);
		ini_line = (t[0] == '[' && strchr(t, ']')) ||
			   (t[0] != ';' && t[0] != '#' && strchr(t, '='));
	}
	rewind(f);
	return ini_line ? NULL : "no [variant] section or key = value line";
}

int pl_cmp_load_ini(struct pl_cmp_experiment *e, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		int r = -errno;
		pl_cmp_seterr(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		return r;
	}
	const char *bad = not_experiment(f);
	if (bad) {
		fclose(f);
		pl_cmp_seterr(err, errlen,
			      "'%s' is not an experiment file (%s): " EXPERIMENT_FORMAT, path, bad);
		return -EINVAL;
	}
	char reason[512] = "";
	struct ini_ctx c = { .e = e, .first = e->n, .err = reason, .errlen = sizeof(reason) };
	/* keys before the first section are defaults of every variant: read them first */
	struct ini_ctx d = c;
	int line = ini_parse_file(f, defaults_handler, &d);
	rewind(f);
	if (line == 0) {
		add_sections(&c, f);
		line = ini_parse_file(f, variant_ini_handler, &c);
	}
	fclose(f);
	if (line != 0) {
		if (line < 0)
			pl_cmp_seterr(err, errlen, "%s: cannot parse", path);
		else
			pl_cmp_seterr(err, errlen, "%s:%d: %s", path, line,
				      reason[0]
					      ? reason
					      : "syntax error (expected [section] or key = value)");
		return -EINVAL;
	}
	return 0;
}

int pl_cmp_param_parse(const char *spec, struct pl_cmp_param *p, char *err, size_t errlen)
{
	const char *eq = strchr(spec, '=');
	memset(p, 0, sizeof(*p));
	if (!eq || eq == spec || !eq[1]) {
		pl_cmp_seterr(err, errlen, "--param '%s': use NAME=v1,v2,...", spec);
		return -EINVAL;
	}
	p->name = pl_xasprintf("%.*s", (int)(eq - spec), spec);
	for (const char *q = p->name; *q; q++)
		if (*q == '{' || *q == '}') {
			pl_cmp_seterr(err, errlen, "--param '%s': the name may not contain braces",
				      spec);
			pl_cmp_param_free(p);
			return -EINVAL;
		}
	p->values = pl_split(eq + 1, ",", &p->nvalues);
	if (p->nvalues == 0) {
		pl_cmp_seterr(err, errlen, "--param '%s': no values", spec);
		pl_cmp_param_free(p);
		return -EINVAL;
	}
	return 0;
}

void pl_cmp_param_free(struct pl_cmp_param *p)
{
	if (!p)
		return;
	free(p->name);
	pl_strv_free(p->values);
	memset(p, 0, sizeof(*p));
}

static char *subst(const char *s, const char *pat, const char *val)
{
	if (!s)
		return NULL;
	struct pl_buf b = { 0 };
	size_t pl = strlen(pat);
	for (const char *p = s; *p;) {
		const char *hit = strstr(p, pat);
		if (!hit) {
			pl_buf_puts(&b, p);
			break;
		}
		pl_buf_append(&b, p, (size_t)(hit - p));
		pl_buf_puts(&b, val);
		p = hit + pl;
	}
	return pl_buf_steal(&b);
}

static bool mentions(const char *s, const char *pat)
{
	return s && strstr(s, pat);
}

static bool variant_mentions(const struct pl_cmp_variant *v, const char *pat)
{
	const char *strs[] = { v->command, v->cwd,     v->cpus,	 v->membind, v->profile,
			       v->prepare, v->cleanup, v->setup, v->teardown };
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		if (mentions(strs[i], pat))
			return true;
	for (size_t i = 0; v->argv_given && v->argv && v->argv[i]; i++)
		if (mentions(v->argv[i], pat))
			return true;
	for (size_t i = 0; i < v->nenv; i++)
		if (mentions(v->env[i], pat))
			return true;
	for (size_t i = 0; i < v->nsettings; i++)
		if (mentions(v->settings[i].value, pat) || mentions(v->settings[i].path, pat))
			return true;
	return false;
}

static void subst_variant(struct pl_cmp_variant *v, const char *pat, const char *val)
{
	char **strs[] = { &v->command, &v->cwd,	    &v->cpus,  &v->membind, &v->profile,
			  &v->prepare, &v->cleanup, &v->setup, &v->teardown };
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		char *n = subst(*strs[i], pat, val);
		free(*strs[i]);
		*strs[i] = n;
	}
	for (size_t i = 0; v->argv_given && v->argv && v->argv[i]; i++) {
		char *n = subst(v->argv[i], pat, val);
		free(v->argv[i]);
		v->argv[i] = n;
	}
	for (size_t i = 0; i < v->nenv; i++) {
		char *n = subst(v->env[i], pat, val);
		free(v->env[i]);
		v->env[i] = n;
	}
	for (size_t i = 0; i < v->nsettings; i++) {
		struct pl_cmp_setting *s = &v->settings[i];
		char *n = subst(s->value, pat, val);
		free(s->value);
		s->value = n;
		n = subst(s->path, pat, val);
		free(s->path);
		s->path = n;
		n = subst(s->key, pat, val);
		free(s->key);
		s->key = n;
	}
	if (mentions(v->name, pat)) {
		char *n = subst(v->name, pat, val);
		free(v->name);
		v->name = n;
	} else {
		char *n = pl_xasprintf("%s %.*s=%s", v->name, (int)(strlen(pat) - 2), pat + 1, val);
		free(v->name);
		v->name = n;
	}
}

int pl_cmp_expand_params(struct pl_cmp_experiment *e, const struct pl_cmp_param *p, size_t np,
			 char *err, size_t errlen)
{
	for (size_t k = 0; k < np; k++) {
		char *pat = pl_xasprintf("{%s}", p[k].name);
		bool used = false;
		for (size_t i = 0; i < e->n; i++)
			used |= variant_mentions(&e->v[i], pat) || mentions(e->v[i].name, pat);
		if (!used) {
			pl_cmp_seterr(err, errlen, "--param %s: no variant mentions {%s}",
				      p[k].name, p[k].name);
			free(pat);
			return -EINVAL;
		}
		/* expand parameter k: every variant that mentions it becomes nvalues variants */
		struct pl_cmp_variant *out = NULL;
		size_t nout = 0;
		for (size_t i = 0; i < e->n; i++) {
			struct pl_cmp_variant *v = &e->v[i];
			if (!variant_mentions(v, pat) && !mentions(v->name, pat)) {
				out = pl_xrealloc(out, (nout + 1) * sizeof(*out));
				out[nout++] = *v;
				continue;
			}
			for (size_t j = 0; j < p[k].nvalues; j++) {
				out = pl_xrealloc(out, (nout + 1) * sizeof(*out));
				copy_variant(&out[nout], v);
				subst_variant(&out[nout], pat, p[k].values[j]);
				nout++;
			}
			free_variant(v);
		}
		free(e->v);
		e->v = out;
		e->n = nout;
		free(pat);
	}
	return 0;
}

const char *pl_cmp_shell_syntax(const char *s)
{
	bool word_start = true;
	for (const char *p = s; *p; p++) {
		if (*p == '\'') {
			const char *q = strchr(p + 1, '\'');
			if (!q)
				return NULL; /* unterminated: pl_cmp_split_words says so */
			p = q;
		} else if (*p == '"') {
			for (p++; *p && *p != '"'; p++)
				if (*p == '$' || *p == '`')
					return p; /* expansion inside double quotes needs a shell
						     too */
				else if (*p == '\\' && p[1])
					p++;
			if (!*p)
				return NULL;
		} else if (*p == '\\' && p[1]) {
			p++;
		} else if (strchr("|&;<>()$`*?", *p) || (word_start && (*p == '~' || *p == '#'))) {
			return p;
		}
		word_start = *p == ' ' || *p == '\t' || *p == '\n';
	}
	return NULL;
}

/* Append the word at *pp (quotes and backslashes as in pl_cmp_split_words) to @w and
 * advance *pp past it. Returns false on an unterminated quote. */
static bool read_word(const char **pp, struct pl_buf *w)
{
	const char *p = *pp;
	while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
		if (*p == '\'') {
			const char *q = strchr(p + 1, '\'');
			if (!q)
				return false;
			pl_buf_append(w, p + 1, (size_t)(q - p - 1));
			p = q + 1;
		} else if (*p == '"') {
			p++;
			while (*p && *p != '"') {
				if (*p == '\\' && p[1] && strchr("\"\\$`", p[1]))
					p++;
				pl_buf_append(w, p++, 1);
			}
			if (*p != '"')
				return false;
			p++;
		} else if (*p == '\\' && p[1]) {
			pl_buf_append(w, p + 1, 1);
			p += 2;
		} else {
			pl_buf_append(w, p++, 1);
		}
	}
	*pp = p;
	return true;
}

char **pl_cmp_split_words(const char *s)
{
	char **v = pl_xcalloc(1, sizeof(char *));
	size_t n = 0;
	const char *p = s;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		struct pl_buf w = { 0 };
		pl_buf_append(&w, "", 0);
		if (!read_word(&p, &w)) {
			pl_buf_free(&w);
			pl_strv_free(v);
			return NULL;
		}
		v = pl_xrealloc(v, (n + 2) * sizeof(char *));
		v[n++] = pl_buf_steal(&w);
		v[n] = NULL;
	}
	return v;
}

char *pl_cmp_which(const char *word)
{
	if (!word || !*word)
		return NULL;
	if (strchr(word, '/')) {
		struct stat st;
		if (stat(word, &st) == 0 && S_ISREG(st.st_mode) && access(word, X_OK) == 0)
			return pl_xstrdup(word);
		return NULL;
	}
	const char *path = getenv("PATH");
	char **dirs = pl_split(path && *path ? path : "/usr/local/bin:/usr/bin:/bin", ":", NULL);
	char *found = NULL;
	for (size_t i = 0; dirs[i] && !found; i++) {
		char *c = pl_xasprintf("%s/%s", dirs[i], word);
		struct stat st;
		if (stat(c, &st) == 0 && S_ISREG(st.st_mode) && access(c, X_OK) == 0)
			found = c;
		else
			free(c);
	}
	pl_strv_free(dirs);
	return found;
}

/* Check that helper command @cmd (prepare/cleanup/...) can run. */
static int check_helper(const struct pl_cmp_experiment *e, const struct pl_cmp_variant *v,
			const char *what, const char *cmd, char *err, size_t errlen)
{
	if (!cmd)
		return 0;
	if (e->shell)
		return 0;
	const char *meta = pl_cmp_shell_syntax(cmd);
	if (meta) {
		pl_cmp_seterr(
			err, errlen,
			"variant '%s': %s command '%s' uses shell syntax ('%c'), but commands run "
			"without a shell: add --shell (runs them with /bin/sh -c) or quote it",
			v->name, what, cmd, *meta);
		return -EINVAL;
	}
	char **w = pl_cmp_split_words(cmd);
	if (!w || !w[0]) {
		pl_cmp_seterr(err, errlen,
			      "variant '%s': %s command '%s' is empty or has an unterminated quote",
			      v->name, what, cmd);
		pl_strv_free(w);
		return -EINVAL;
	}
	char *x = pl_cmp_which(w[0]);
	if (!x) {
		pl_cmp_seterr(
			err, errlen,
			"variant '%s': %s command '%s' not found or not executable (check $PATH, "
			"or use --shell for shell syntax)",
			v->name, what, w[0]);
		pl_strv_free(w);
		return -ENOENT;
	}
	free(x);
	pl_strv_free(w);
	return 0;
}

/* profile=NAME: tune's loader and planner (includes, variables, modifiers, plugins) turn
 * the profile into targets and values on this machine; the items to write become
 * settings of the variant, the rest is named in the note. */
static int load_profile(struct pl_cmp_variant *v, const char *name, char *err, size_t errlen)
{
	struct pl_tune_path path;
	pl_tune_path_default(&path, NULL);
	struct pl_tune_profile *pr = NULL;
	char why[512] = "";
	int r = pl_tune_profile_load(&path, name, &pr, why, sizeof(why));
	if (r < 0) {
		pl_cmp_seterr(err, errlen,
			      "variant '%s': profile '%s': %s (see 'perflab tune list')", v->name,
			      name, why);
		return r;
	}
	struct pl_tune_plan plan = { 0 };
	r = pl_tune_plan_build(pr, &plan, why, sizeof(why));
	if (r < 0) {
		pl_cmp_seterr(err, errlen, "variant '%s': profile '%s': %s", v->name, name, why);
	} else {
		struct pl_buf skipped = { 0 };
		size_t first = v->n_not_applied;
		for (size_t i = 0; i < plan.n; i++) {
			const struct pl_tune_item *it = &plan.v[i];
			if (it->state == PL_TI_APPLY && it->target && it->want &&
			    strcmp(it->plugin, "bootloader") != 0) {
				char *key = pl_xasprintf("profile.%s.%s%s%s", it->plugin, it->key,
							 it->device ? "." : "",
							 it->device ? it->device : "");
				add_setting(v, key, it->target, it->want);
				free(key);
			} else if (it->state != PL_TI_APPLY ||
				   strcmp(it->plugin, "bootloader") == 0) {
				char *one = pl_xasprintf(
					"[%s] %s (%s)", it->unit, it->key,
					strcmp(it->plugin, "bootloader") == 0 ? "needs a reboot"
					: it->reason			      ? it->reason
						     : pl_tune_state_name(it->state));
				v->not_applied = pl_xrealloc(
					v->not_applied, (v->n_not_applied + 1) * sizeof(char *));
				v->not_applied[v->n_not_applied++] = one;
			}
		}
		/* one entry per item (a per-CPU option gives one per CPU), so the note names
		 * each distinct one once with its count */
		for (size_t i = first; i < v->n_not_applied; i++) {
			const char *one = v->not_applied[i];
			bool seen = false;
			for (size_t j = first; j < i && !seen; j++)
				seen = strcmp(v->not_applied[j], one) == 0;
			if (seen)
				continue;
			size_t count = 1;
			for (size_t j = i + 1; j < v->n_not_applied; j++)
				count += strcmp(v->not_applied[j], one) == 0;
			pl_buf_printf(&skipped, "%s%s", skipped.len ? ", " : "", one);
			if (count > 1)
				pl_buf_printf(&skipped, " x%zu", count);
		}
		if (skipped.len) {
			char *n = pl_xasprintf("%s%sprofile '%s': not applied: %s",
					       v->note ? v->note : "", v->note ? "; " : "", name,
					       skipped.data);
			free(v->note);
			v->note = n;
		}
		pl_buf_free(&skipped);
	}
	pl_tune_plan_free(&plan);
	pl_tune_profile_free(pr);
	return r;
}

int pl_cmp_finalize(struct pl_cmp_experiment *e, char *err, size_t errlen)
{
	if (e->n < 2) {
		pl_cmp_seterr(
			err, errlen,
			"need at least 2 variants to compare, got %zu (give -n NAME -- CMD twice, "
			"or an --experiment file with 2 sections)",
			e->n);
		return -EINVAL;
	}
	for (size_t i = 0; i < e->n; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(e->v[i].name, e->v[j].name) == 0) {
				pl_cmp_seterr(
					err, errlen,
					"variant name '%s' is used twice (names must be unique)",
					e->v[i].name);
				return -EINVAL;
			}
	for (size_t i = 0; i < e->n; i++) {
		struct pl_cmp_variant *v = &e->v[i];
		int r;
		if (!v->argv_given) {
			pl_strv_free(v->argv);
			v->argv = NULL;
			if (!v->command || !*pl_trim(v->command)) {
				pl_cmp_seterr(err, errlen,
					      "variant '%s' has no command (add 'command = ...' or "
					      "-- CMD)",
					      v->name);
				return -EINVAL;
			}
			if (e->shell) {
				v->argv = pl_xcalloc(4, sizeof(char *));
				v->argv[0] = pl_xstrdup("/bin/sh");
				v->argv[1] = pl_xstrdup("-c");
				v->argv[2] = pl_xstrdup(v->command);
			} else {
				const char *meta = pl_cmp_shell_syntax(v->command);
				if (meta) {
					pl_cmp_seterr(err, errlen,
						      "variant '%s': command '%s' uses shell "
						      "syntax ('%c'), but "
						      "commands run without a shell: add --shell "
						      "(runs them with "
						      "/bin/sh -c) or quote it",
						      v->name, v->command, *meta);
					return -EINVAL;
				}
				v->argv = pl_cmp_split_words(v->command);
				if (!v->argv || !v->argv[0]) {
					pl_cmp_seterr(err, errlen,
						      "variant '%s': command '%s' has an "
						      "unterminated quote",
						      v->name, v->command);
					return -EINVAL;
				}
			}
		} else if (e->shell) {
			/* words from the command line joined into one shell command */
			struct pl_buf b = { 0 };
			for (size_t k = 0; v->argv[k]; k++)
				pl_buf_printf(&b, "%s%s", k ? " " : "", v->argv[k]);
			pl_strv_free(v->argv);
			v->argv = pl_xcalloc(4, sizeof(char *));
			v->argv[0] = pl_xstrdup("/bin/sh");
			v->argv[1] = pl_xstrdup("-c");
			v->argv[2] = pl_buf_steal(&b);
		}
		if (v->argv_given && !v->command) {
			struct pl_buf b = { 0 };
			for (size_t k = 0; v->argv[k]; k++)
				pl_buf_printf(&b, "%s%s", k ? " " : "", v->argv[k]);
			v->command = pl_buf_steal(&b);
		}
		free(v->exe);
		v->exe = pl_cmp_which(v->argv[0]);
		if (!v->exe) {
			pl_cmp_seterr(
				err, errlen,
				"variant '%s': command '%s' not found or not executable (check the "
				"name and $PATH)",
				v->name, v->argv[0]);
			return -ENOENT;
		}
		if ((r = check_helper(e, v, "prepare", v->prepare, err, errlen)) < 0 ||
		    (r = check_helper(e, v, "cleanup", v->cleanup, err, errlen)) < 0 ||
		    (r = check_helper(e, v, "setup", v->setup, err, errlen)) < 0 ||
		    (r = check_helper(e, v, "teardown", v->teardown, err, errlen)) < 0)
			return r;
		v->has_cpus = false;
		if (v->cpus) {
			if (pl_cpuset_parse(v->cpus, &v->cpuset) < 0 ||
			    pl_cpuset_count(&v->cpuset) == 0) {
				pl_cmp_seterr(
					err, errlen,
					"variant '%s': cpus='%s' is not a CPU list (e.g. 0-1,3)",
					v->name, v->cpus);
				return -EINVAL;
			}
			v->has_cpus = true;
		}
		v->has_membind = false;
		if (v->membind) {
			if (pl_cpuset_parse(v->membind, &v->nodes) < 0 ||
			    pl_cpuset_count(&v->nodes) == 0) {
				pl_cmp_seterr(err, errlen,
					      "variant '%s': membind='%s' is not a NUMA node list "
					      "(e.g. 0 or 0-1)",
					      v->name, v->membind);
				return -EINVAL;
			}
			v->has_membind = true;
		}
		if (v->cwd && strcmp(v->cwd, "tmpfs") != 0) {
			struct stat st;
			if (stat(v->cwd, &st) < 0 || !S_ISDIR(st.st_mode)) {
				pl_cmp_seterr(err, errlen,
					      "variant '%s': cwd '%s' is not a directory", v->name,
					      v->cwd);
				return -ENOENT;
			}
			replace_str(&v->workdir, v->cwd);
		}
		if (v->profile) {
			r = load_profile(v, v->profile, err, errlen);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

int pl_cmp_make_dirs(struct pl_cmp_experiment *e)
{
	for (size_t i = 0; i < e->n; i++) {
		struct pl_cmp_variant *v = &e->v[i];
		if (!v->cwd || strcmp(v->cwd, "tmpfs") != 0 || v->workdir_tmp)
			continue;
		struct stat st;
		const char *base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm"
				   : getenv("TMPDIR") ? getenv("TMPDIR")
						      : "/tmp";
		char *t = pl_xasprintf("%s/perflab-compare.XXXXXX", base);
		if (!mkdtemp(t)) {
			int r = -errno;
			free(t);
			return r;
		}
		free(v->workdir);
		v->workdir = t;
		v->workdir_tmp = true;
	}
	return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 ? 0 : 0;
}

void pl_cmp_cleanup_dirs(struct pl_cmp_experiment *e)
{
	for (size_t i = 0; i < e->n; i++) {
		struct pl_cmp_variant *v = &e->v[i];
		if (!v->workdir_tmp)
			continue;
		nftw(v->workdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
		v->workdir_tmp = false;
	}
}

void pl_cmp_experiment_cpus(const struct pl_cmp_experiment *e, struct pl_cpuset *set, bool *pinned)
{
	pl_cpuset_clear(set);
	*pinned = e->n > 0;
	for (size_t i = 0; i < e->n; i++)
		*pinned &= e->v[i].has_cpus;
	if (*pinned) {
		for (size_t i = 0; i < e->n; i++)
			for (int c = pl_cpuset_next(&e->v[i].cpuset, 0); c >= 0;
			     c = pl_cpuset_next(&e->v[i].cpuset, (unsigned)c + 1))
				pl_cpuset_set(set, (unsigned)c);
		return;
	}
	cpu_set_t allowed;
	CPU_ZERO(&allowed);
	if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0)
		return;
	for (unsigned c = 0; c < CPU_SETSIZE && c < PL_MAX_CPUS; c++)
		if (CPU_ISSET(c, &allowed))
			pl_cpuset_set(set, c);
}

void pl_cmp_experiment_free(struct pl_cmp_experiment *e)
{
	if (!e)
		return;
	pl_cmp_cleanup_dirs(e);
	for (size_t i = 0; i < e->n; i++)
		free_variant(&e->v[i]);
	free(e->v);
	free_variant(&e->defaults);
	e->v = NULL;
	e->n = 0;
}
