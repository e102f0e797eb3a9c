/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The loaded files merged into one profile as tuned's Merger does (pl_tune_merge,
 * tune/profile_internal.h): later files over earlier ones, unit by unit. */
#include "tune/profile_internal.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/str.h"

static const char *const unit_reserved[] = { "type",	      "enabled",     "replace",
					     "drop",	      "devices",     "devices_udev_regex",
					     "cpuinfo_regex", "uname_regex", "script_pre",
					     "script_post",   NULL };

static bool truthy(const char *v)
{
	return strcmp(v, "1") == 0 || strcmp(v, "true") == 0 || strcmp(v, "True") == 0;
}

static bool is_reserved(const char *key)
{
	for (size_t k = 0; unit_reserved[k]; k++)
		if (strcmp(key, unit_reserved[k]) == 0)
			return true;
	return false;
}

void pl_tune_set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = v ? pl_xstrdup(v) : NULL;
}

void pl_tune_unit_free(struct pl_tune_unit *u)
{
	free(u->name);
	free(u->type);
	free(u->devices);
	free(u->cpuinfo_regex);
	free(u->uname_regex);
	free(u->cpuinfo_regex_at);
	free(u->uname_regex_at);
	pl_strv_free(u->unsupported_keys);
	pl_tune_opts_free(&u->opts);
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
	if (pl_tune_in_list(*v, s))
		return;
	*v = pl_xrealloc(*v, (n + 2) * sizeof(char *));
	(*v)[n] = pl_xstrdup(s);
	(*v)[n + 1] = NULL;
}

/* Merge section @s of one file over the profile (tuned's Merger._merge_two). */
static void merge_section(struct pl_tune_profile *pr, const struct pl_tune_section *s)
{
	const struct pl_tune_opt *o;
	struct pl_tune_unit *u = find_unit(pr, s->name);
	bool replace = (o = pl_tune_opts_get(&s->opts, "replace")) && truthy(o->value);
	bool merged = u && !replace;
	if (u && replace) {
		pl_tune_unit_free(u);
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
	pl_tune_set_str(&u->file, s->file);
	u->line = s->line;
	/* type, enabled and devices are taken from the newer unit (with their defaults). */
	o = pl_tune_opts_get(&s->opts, "type");
	pl_tune_set_str(&u->type, o ? o->value : s->name);
	o = pl_tune_opts_get(&s->opts, "enabled");
	u->enabled = o ? truthy(o->value) : true;
	o = pl_tune_opts_get(&s->opts, "devices");
	pl_tune_set_str(&u->devices, o ? o->value : "*");
	if ((o = pl_tune_opts_get(&s->opts, "cpuinfo_regex"))) {
		pl_tune_set_str(&u->cpuinfo_regex, o->value);
		free(u->cpuinfo_regex_at);
		u->cpuinfo_regex_at = pl_xasprintf("%s:%d", o->file, o->line);
	}
	if ((o = pl_tune_opts_get(&s->opts, "uname_regex"))) {
		pl_tune_set_str(&u->uname_regex, o->value);
		free(u->uname_regex_at);
		u->uname_regex_at = pl_xasprintf("%s:%d", o->file, o->line);
	}
	if ((o = pl_tune_opts_get(&s->opts, "drop"))) {
		/* Names separated by ',' or ';' (tuned's Unit: re.split(r"\b\s*[,;]\s*")); "a b"
		 * is one name, which drops nothing. */
		char **d = pl_split(o->value, ",;", NULL);
		for (size_t k = 0; d[k]; k++) {
			char *t = pl_trim(d[k]);
			memmove(d[k], t, strlen(t) + 1);
		}
		pl_tune_opts_drop(&u->opts, d);
		pl_strv_free(d);
	}
	for (size_t i = 0; i < s->opts.n; i++) {
		const struct pl_tune_opt *x = &s->opts.v[i];
		bool reserved = is_reserved(x->key);
		const struct pl_tune_opt *prev = pl_tune_opts_get(&u->opts, x->key);
		if (!reserved && strcmp(s->name, "script") == 0 && strcmp(x->key, "script") == 0 &&
		    prev) {
			/* tuned runs the scripts of every merged [script] unit, earlier first. */
			struct pl_tune_opt cat = *x;
			cat.value = pl_xasprintf("%s %s", prev->value, x->value);
			pl_tune_opts_set(&u->opts, &cat);
			free(cat.value);
		} else if (!reserved) {
			pl_tune_opts_set(&u->opts, x);
		} else if (strcmp(x->key, "devices_udev_regex") == 0 ||
			   strcmp(x->key, "script_pre") == 0 ||
			   strcmp(x->key, "script_post") == 0) {
			strv_add(&u->unsupported_keys, x->key);
		}
	}
	/* tuned's Merger sets a merged [script]'s scripts to the earlier ones followed by the
	 * unit's own after the update; without a script= of its own the earlier ones come
	 * twice (tuned runs them twice), as here. */
	const struct pl_tune_opt *sc = pl_tune_opts_get(&u->opts, "script");
	if (merged && strcmp(s->name, "script") == 0 && sc &&
	    !pl_tune_opts_get(&s->opts, "script")) {
		struct pl_tune_opt twice = *sc; /* pl_tune_opts_set frees sc's strings: copies */
		twice.key = pl_xstrdup(sc->key);
		twice.value = pl_xasprintf("%s %s", sc->value, sc->value);
		twice.expanded = NULL;
		twice.file = pl_xstrdup(sc->file);
		twice.profile = pl_xstrdup(sc->profile);
		pl_tune_opts_set(&u->opts, &twice);
		free(twice.key);
		free(twice.value);
		free(twice.file);
		free(twice.profile);
	}
}

/* Merge [variables] section @s of one file over the raw variables: tuned 2.20 makes
 * [variables] a unit like any other (profiles/unit.py) and merges it as one
 * (Merger._merge_two), then reads the merged unit's options as the variables
 * (Loader.load): so its unit keys (type, enabled, devices, ... above) are never
 * variables, replace=1 drops the variables of the files before, drop=A,B drops those
 * named, and a variable set again keeps the place of its first definition. */
static void merge_variables(struct pl_tune_opts *vars, const struct pl_tune_section *s)
{
	const struct pl_tune_opt *o;
	if ((o = pl_tune_opts_get(&s->opts, "replace")) && truthy(o->value)) {
		pl_tune_opts_free(vars);
	} else if ((o = pl_tune_opts_get(&s->opts, "drop"))) {
		char **d = pl_split(o->value, ",;", NULL);
		for (size_t k = 0; d[k]; k++) {
			char *t = pl_trim(d[k]);
			memmove(d[k], t, strlen(t) + 1);
		}
		pl_tune_opts_drop(vars, d);
		pl_strv_free(d);
	}
	for (size_t i = 0; i < s->opts.n; i++)
		if (!is_reserved(s->opts.v[i].key))
			pl_tune_opts_set(vars, &s->opts.v[i]);
}

int pl_tune_merge(struct pl_tune_profile *pr, const struct pl_tune_conf *confs, size_t n,
		  struct pl_tune_opts *vars_raw, char *err, size_t errlen)
{
	pr->chain = pl_xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		const struct pl_tune_conf *c = &confs[i];
		pr->chain[i] = pl_xstrdup(c->file);
		for (size_t k = 0; k < c->n; k++) {
			const struct pl_tune_section *s = &c->s[k];
			if (strcmp(s->name, "main") == 0) {
				for (size_t m = 0; m < s->opts.n; m++)
					if (strcmp(s->opts.v[m].key, "include") != 0)
						pl_tune_opts_set(&pr->main, &s->opts.v[m]);
			} else if (strcmp(s->name, "variables") == 0) {
				merge_variables(vars_raw, s);
			} else if (s->name[0] == '\0') {
				snprintf(err, errlen,
					 "%s:%d: profile '%s': option '%s' before any [section]",
					 s->file, s->opts.n ? s->opts.v[0].line : 1, c->name,
					 s->opts.n ? s->opts.v[0].key : "?");
				return -EBADMSG;
			} else {
				merge_section(pr, s);
			}
		}
	}
	return 0;
}
