/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The helpers every plugin uses (tune/plugins/plugin.h): adding items, reading the
 * current value, deciding what to write, and the devices of a unit. */
#include "tune/plugins/plugin.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <regex.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune/safepath.h"
#include "tune/value.h"
#include "util/str.h"
#include "util/sysroot.h"

struct pl_tune_item *pl_tune_add_item(struct pl_tune_ctx *c, const char *plugin,
				      const struct pl_tune_unit *u, const struct pl_tune_opt *o,
				      const char *device)
{
	struct pl_tune_plan *p = c->plan;
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 32;
		p->v = pl_xrealloc(p->v, p->cap * sizeof(*p->v));
	}
	struct pl_tune_item *it = &p->v[p->n++];
	memset(it, 0, sizeof(*it));
	it->plugin = pl_xstrdup(plugin);
	it->unit = pl_xstrdup(u->name);
	it->key = pl_xstrdup(o ? o->key : "*");
	it->value = pl_xstrdup(o ? (o->expanded ? o->expanded : o->value) : "");
	it->device = device ? pl_xstrdup(device) : NULL;
	it->origin = o ? pl_xasprintf("%s:%d", o->file, o->line)
		       : pl_xasprintf("%s:%d", u->file, u->line);
	it->profile = pl_xstrdup(o ? o->profile : "");
	it->state = PL_TI_APPLY;
	return it;
}

void pl_tune_set_reason(struct pl_tune_item *it, enum pl_tune_state st, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct pl_buf b = { 0 };
	pl_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	free(it->reason);
	it->reason = pl_buf_steal(&b);
	it->state = st;
}

int pl_tune_bad_value(struct pl_tune_ctx *c, const struct pl_tune_unit *u,
		      const struct pl_tune_opt *o, const char *why)
{
	snprintf(c->err, c->el, "%s:%d: profile '%s', section [%s], key '%s': value '%s' %s",
		 o->file, o->line, o->profile, u->name, o->key,
		 o->expanded ? o->expanded : o->value, why);
	return -EINVAL;
}

const char *pl_tune_opt_value(const struct pl_tune_opt *o)
{
	return o->expanded ? o->expanded : o->value;
}

/* Parse a `>N`/`<N` modifier: returns '>' or '<' and *n, 0 when none, -1 when the number
 * after the operator does not parse. */
static int modifier(const char *v, int64_t *n)
{
	if (v[0] != '>' && v[0] != '<')
		return 0;
	char *t = pl_xstrdup(v + 1);
	int r = pl_parse_i64(pl_trim(t), n);
	free(t);
	return r < 0 ? -1 : v[0];
}

/* Read the target's current value; mark NA when missing, REFUSED when the target may not
 * be written (nor read: a symlink out of the sysroot, a hard link in one). Returns true
 * when readable. */
bool pl_tune_read_current(struct pl_tune_item *it, const char *what_missing)
{
	char real[PATH_MAX];
	int r = pl_tune_resolve(it->target, real, sizeof(real));
	if (r < 0 && r != -ENOENT) {
		pl_tune_set_reason(it, PL_TI_REFUSED, "refused: %s", pl_tune_path_strerror(r));
		return false;
	}
	char *raw;
	r = pl_read_file(it->target, &raw, NULL);
	if (r < 0) {
		if (r == -ENOENT)
			pl_tune_set_reason(it, PL_TI_NA, "%s", what_missing);
		else
			pl_tune_set_reason(it, PL_TI_NA, "cannot read %s: %s", it->target,
					   pl_read_strerror(r));
		return false;
	}
	it->current = pl_tune_value_current(raw);
	free(raw);
	return true;
}

/* Decide want/match for a value taken literally (no `>N`/`<N`). */
void pl_tune_decide_literal(struct pl_tune_item *it, const char *wanted)
{
	const char *how =
		it->current ? pl_tune_value_match_how(it->target, it->current, wanted) : NULL;
	it->match = how != NULL;
	it->want = it->match ? NULL : pl_xstrdup(wanted);
	/* Say how a value that is not written the same way matched. */
	if (how && strcmp(how, "equal") != 0 && !it->reason)
		it->reason = pl_xasprintf("matches %s", how);
}

/* Decide want/match for a plain or `>N`/`<N` value. */
void pl_tune_decide(struct pl_tune_item *it, const char *wanted)
{
	int64_t n, cur;
	int op = modifier(wanted, &n);
	if (op > 0) {
		if (it->current && pl_parse_i64(it->current, &cur) == 0) {
			bool ok = op == '>' ? cur >= n : cur <= n;
			it->match = ok;
			it->want = ok ? NULL : pl_xasprintf("%lld", (long long)n);
		} else {
			it->want = pl_xasprintf("%lld", (long long)n);
		}
		return;
	}
	pl_tune_decide_literal(it, wanted);
}

/* Check a modifier's syntax up front so a bad value is an input error. */
int pl_tune_check_modifier(struct pl_tune_ctx *c, const struct pl_tune_unit *u,
			   const struct pl_tune_opt *o)
{
	int64_t n;
	if (modifier(pl_tune_opt_value(o), &n) < 0)
		return pl_tune_bad_value(c, u, o, "is not '>N' or '<N' with an integer N");
	return 0;
}

/* ---- devices ---- */

static int natural_cmp(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* Devices of a unit: entries of @dir matching @re (e.g. cpu[0-9]+), filtered by the
 * unit's comma-separated `devices=` globs ("!" prefix excludes), less those in *taken
 * (earlier units' devices), which get the result added: tuned's
 * Plugin.assign_free_devices gives each device to one unit only, the first that matches
 * it (a profile including throughput-performance, whose [disk] takes every disk, and
 * adding [disk-nvme] devices=nvme* tunes no disk with the latter). */
char **pl_tune_devices(const struct pl_tune_unit *u, const char *dir, const char *re,
		       const char *const *skip_prefix, char ***taken)
{
	char **ents = NULL;
	size_t n = 0;
	char **out = pl_xcalloc(1, sizeof(char *));
	if (pl_list_dir(dir, &ents, &n) < 0)
		return out;
	/* Numbers in names in numeric order (cpu2 before cpu10, nvme2n1 before nvme10n1):
	 * the items, the writes and the journal follow it. */
	qsort(ents, n, sizeof(*ents), natural_cmp);
	regex_t rx;
	if (regcomp(&rx, re, REG_EXTENDED | REG_NOSUB) != 0) {
		pl_strv_free(ents);
		return out;
	}
	char **globs = pl_split(u->devices, ", \t", NULL);
	size_t no = 0;
	for (size_t i = 0; i < n; i++) {
		if (regexec(&rx, ents[i], 0, NULL, 0) != 0)
			continue;
		bool skip = false;
		for (size_t k = 0; skip_prefix && skip_prefix[k]; k++)
			if (pl_startswith(ents[i], skip_prefix[k]) && strcmp(u->devices, "*") == 0)
				skip = true;
		if (skip)
			continue;
		bool in = false, anypos = false;
		for (size_t k = 0; globs[k]; k++) {
			if (globs[k][0] == '!') {
				if (fnmatch(globs[k] + 1, ents[i], 0) == 0) {
					in = false;
					break;
				}
				continue;
			}
			anypos = true;
			if (fnmatch(globs[k], ents[i], 0) == 0)
				in = true;
		}
		if (!anypos) {
			in = true;
			for (size_t k = 0; globs[k]; k++)
				if (globs[k][0] == '!' && fnmatch(globs[k] + 1, ents[i], 0) == 0)
					in = false;
		}
		size_t nt = 0;
		while (in && *taken && (*taken)[nt])
			if (strcmp((*taken)[nt++], ents[i]) == 0)
				in = false;
		if (!in)
			continue;
		*taken = pl_xrealloc(*taken, (nt + 2) * sizeof(char *));
		(*taken)[nt] = pl_xstrdup(ents[i]);
		(*taken)[nt + 1] = NULL;
		out = pl_xrealloc(out, (no + 2) * sizeof(char *));
		out[no++] = pl_xstrdup(ents[i]);
		out[no] = NULL;
	}
	regfree(&rx);
	pl_strv_free(globs);
	pl_strv_free(ents);
	return out;
}

/* Pick the first of `a|b|c` that appears in the space-separated @avail list (NULL = not
 * known: the first). Returns a malloc'd string or NULL when none is offered. */
static char *pick_alt(const char *v, const char *avail)
{
	char **alts = pl_split(v, "|", NULL);
	char *res = NULL;
	for (size_t i = 0; alts[i] && !res; i++) {
		char *a = pl_trim(alts[i]);
		if (!avail) {
			res = pl_xstrdup(a);
			break;
		}
		char **av = pl_split(avail, " \t\n", NULL);
		for (size_t k = 0; av[k]; k++)
			if (strcmp(av[k], a) == 0)
				res = pl_xstrdup(a);
		pl_strv_free(av);
	}
	pl_strv_free(alts);
	return res;
}

/* Item with alternatives: current from target, choices from @avail_path (may be NULL). */
void pl_tune_decide_alt(struct pl_tune_item *it, const char *v, const char *avail_path,
			const char *none_msg)
{
	char *avail = NULL;
	if (avail_path)
		(void)pl_read_str(avail_path, &avail);
	/* Selection files list the choices themselves: "none [mq-deadline] kyber". */
	if (!avail && it->target && strcmp(it->key, "elevator") == 0) {
		char *raw;
		if (pl_read_file(it->target, &raw, NULL) == 0) {
			for (char *s = raw; *s; s++)
				if (*s == '[' || *s == ']')
					*s = ' ';
			avail = raw;
		}
	}
	char *pick = pick_alt(v, avail);
	if (!pick) {
		pl_tune_set_reason(it, PL_TI_NA, "%s (offered: %s)", none_msg,
				   avail ? pl_trim(avail) : "?");
		free(avail);
		return;
	}
	free(avail);
	pl_tune_decide(it, pick);
	free(pick);
}
