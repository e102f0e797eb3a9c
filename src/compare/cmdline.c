/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "compare/cmdline.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/cleanup.h"
#include "util/str.h"

static bool is_name_opt(const char *s)
{
	return strcmp(s, "-n") == 0 || strcmp(s, "--name") == 0;
}

/* -n NAME [--set K=V]... -- CMD... : is argv[i] the start of such a variant? */
static bool variant_start(int argc, char **argv, int i)
{
	if (!is_name_opt(argv[i]))
		return false;
	int k = i + 2;
	if (k > argc)
		return false;
	while (k < argc && strcmp(argv[k], "--set") == 0)
		k += 2;
	return k < argc && strcmp(argv[k], "--") == 0;
}

static struct pl_cmp_cli_variant *cli_append(struct pl_cmp_cli *c)
{
	c->v = pl_xrealloc(c->v, (c->n + 1) * sizeof(*c->v));
	struct pl_cmp_cli_variant *cv = &c->v[c->n++];
	memset(cv, 0, sizeof(*cv));
	return cv;
}

int pl_cmp_cli_split(int argc, char **argv, struct pl_cmp_cli *c, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	c->rest = pl_xcalloc((size_t)argc + 1, sizeof(char *));
	c->rest[c->nrest++] = argv[0];
	int i = 1;
	while (i < argc) {
		if (!is_name_opt(argv[i])) {
			c->rest[c->nrest++] = argv[i++];
			continue;
		}
		if (i + 1 >= argc || strcmp(argv[i + 1], "--") == 0) {
			pl_cmp_seterr(err, errlen,
				      "%s needs a variant name before -- (give -n NAME -- CMD...)",
				      argv[i]);
			return -EINVAL;
		}
		struct pl_cmp_cli_variant *cv = cli_append(c);
		cv->name = argv[i + 1];
		cv->argi = i;
		i += 2;
		while (i < argc && strcmp(argv[i], "--set") == 0) {
			if (i + 1 >= argc || strcmp(argv[i + 1], "--") == 0) {
				pl_cmp_seterr(err, errlen,
					      "--set needs KEY=VALUE before -- (e.g. --set "
					      "env.MALLOC_ARENA_MAX=2)");
				return -EINVAL;
			}
			cv->sets = pl_xrealloc(cv->sets, (cv->nsets + 1) * sizeof(char *));
			cv->sets[cv->nsets++] = argv[i + 1];
			i += 2;
		}
		if (i < argc && strcmp(argv[i], "--") == 0) {
			i++;
			while (i < argc && !variant_start(argc, argv, i)) {
				cv->argv = pl_xrealloc(cv->argv, (cv->nargv + 2) * sizeof(char *));
				cv->argv[cv->nargv++] = argv[i++];
				cv->argv[cv->nargv] = NULL;
			}
			if (cv->nargv == 0) {
				pl_cmp_seterr(err, errlen,
					      "variant '%s': nothing after '--' (give the command "
					      "to run)",
					      cv->name);
				return -EINVAL;
			}
		} else if (i < argc && argv[i][0] != '-') {
			cv->cmd = argv[i++]; /* -n NAME 'CMD ARGS' */
		}
	}
	c->rest[c->nrest] = NULL;
	return 0;
}

static int cmp_argi(const void *a, const void *b)
{
	const struct pl_cmp_cli_variant *x = a, *y = b;
	return (x->argi > y->argi) - (x->argi < y->argi);
}

void pl_cmp_cli_add_positional(struct pl_cmp_cli *c, char **pos, int npos, int argc, char **argv)
{
	for (int k = 0; k < npos; k++) {
		int at = argc;
		for (int i = 1; i < argc; i++)
			if (argv[i] == pos[k]) {
				at = i;
				break;
			}
		struct pl_cmp_cli_variant *cv = cli_append(c);
		cv->cmd = pos[k];
		cv->argi = at;
	}
	if (c->n > 1)
		qsort(c->v, c->n, sizeof(*c->v), cmp_argi);
}

/* Variant @i of @c into @e: its command (string or words) and its --set keys. */
static int add_cli_variant(struct pl_cmp_experiment *e, const struct pl_cmp_cli *c, size_t i,
			   char *err, size_t errlen)
{
	const struct pl_cmp_cli_variant *cv = &c->v[i];
	pl_autofree char *auto_name = NULL;
	if (!cv->name) {
		/* a positional string is named by its text; a repeat (A/A) gets " #N" */
		size_t same = 1;
		for (size_t k = 0; k < i; k++)
			same += !c->v[k].name && strcmp(c->v[k].cmd, cv->cmd) == 0;
		if (same > 1)
			auto_name = pl_xasprintf("%s #%zu", cv->cmd, same);
	}
	const char *name = cv->name ? cv->name : auto_name ? auto_name : cv->cmd;
	struct pl_cmp_variant *v = pl_cmp_add_variant(e, name);
	char why[1024] = "";
	if (cv->cmd && pl_cmp_variant_set(v, "command", cv->cmd, why, sizeof(why)) < 0) {
		pl_cmp_seterr(err, errlen, "variant '%s': %s", name, why);
		return -EINVAL;
	}
	if (cv->nargv) {
		pl_strv_free(v->argv);
		free(v->command);
		v->command = NULL;
		v->argv = pl_xcalloc(cv->nargv + 1, sizeof(char *));
		for (size_t k = 0; k < cv->nargv; k++)
			v->argv[k] = pl_xstrdup(cv->argv[k]);
		v->argv_given = true;
	}
	for (size_t k = 0; k < cv->nsets; k++) {
		const char *kv = cv->sets[k];
		const char *eq = strchr(kv, '=');
		if (!eq || eq == kv) {
			pl_cmp_seterr(err, errlen, "variant '%s': --set '%s': use KEY=VALUE", name,
				      kv);
			return -EINVAL;
		}
		pl_autofree char *key = pl_xasprintf("%.*s", (int)(eq - kv), kv);
		int r = pl_cmp_variant_set(v, key, eq + 1, why, sizeof(why));
		if (r < 0) {
			pl_cmp_seterr(err, errlen, "variant '%s': %s", name, why);
			return r;
		}
	}
	return 0;
}

/* --param NAME=v1,v2 ...: parse every one, then expand them in @e. */
static int expand_params(struct pl_cmp_experiment *e, char *const *params, char *err, size_t errlen)
{
	size_t np = 0;
	while (params && params[np])
		np++;
	if (!np)
		return 0;
	pl_autofree struct pl_cmp_param *p = pl_xcalloc(np, sizeof(*p));
	int r = 0;
	for (size_t i = 0; i < np && r == 0; i++)
		r = pl_cmp_param_parse(params[i], &p[i], err, errlen);
	if (r == 0)
		r = pl_cmp_expand_params(e, p, np, err, errlen);
	for (size_t i = 0; i < np; i++)
		pl_cmp_param_free(&p[i]);
	return r;
}

int pl_cmp_cli_build(struct pl_cmp_experiment *e, const char *ini, struct pl_cmp_cli *c,
		     char *const *params, char *err, size_t errlen)
{
	char why[1024] = "";
	if (ini && pl_cmp_load_ini(e, ini, why, sizeof(why)) < 0) {
		pl_cmp_seterr(err, errlen, "--experiment: %s", why);
		return -EINVAL;
	}
	int r;
	for (size_t i = 0; i < c->n; i++)
		if ((r = add_cli_variant(e, c, i, err, errlen)) < 0)
			return r;
	if ((r = expand_params(e, params, err, errlen)) < 0)
		return r;
	return pl_cmp_finalize(e, err, errlen);
}

void pl_cmp_cli_free(struct pl_cmp_cli *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].sets);
		free(c->v[i].argv);
	}
	free(c->v);
	free(c->rest);
	memset(c, 0, sizeof(*c));
}
