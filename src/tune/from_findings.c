/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Findings to a tuned-format profile (tune/from_findings.h). */
#include "tune/from_findings.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/cleanup.h"
#include "util/str.h"

/* Characters a value, key or device name may not carry into the profile: '#' and ';'
 * start comments in tuned's configobj, brackets a section, quotes change parsing. */
static bool profile_safe(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f || strchr("#;[]\"'\\", *p))
			return false;
	return true;
}

static bool name_ok(const char *s)
{
	return *s &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-") ==
		       strlen(s);
}

static const struct {
	const char *needle;
	const char *why;
} risks[] = {
	{ "[service]",
	  "stops and disables a system service (tuned's service plugin does it at every "
	  "apply); perflab cannot apply or roll back [service] items, so run the command "
	  "yourself if you want it" },
	{ "isolcpus=",
	  "isolates CPUs: the scheduler no longer puts ordinary work on them, so work that is "
	  "not pinned gets fewer CPUs (kernel-parameters.txt: isolcpus, nohz_full, "
	  "rcu_nocbs); choose the CPU list for your workload and add it by hand" },
	{ "nohz_full=", "isolates CPUs from the tick: see isolcpus (kernel-parameters.txt: "
			"nohz_full); choose the CPU list for your workload and add it by hand" },
	{ "tsc=reliable",
	  "turns the clocksource watchdog off, so a TSC that drifts or stops is no longer "
	  "caught (kernel-parameters.txt: tsc=reliable); add clocksource=tsc alone by hand "
	  "after checking the TSC is stable" },
	{ "max_cstate=",
	  "keeps every CPU out of deep idle states at every boot: more idle power and heat, "
	  "less turbo headroom (kernel-parameters.txt: intel_idle.max_cstate); [cpu] "
	  "force_latency holds only while the profile is applied" },
};

const char *pl_tune_emit_risk(const char *line)
{
	for (size_t i = 0; i < sizeof(risks) / sizeof(risks[0]); i++)
		if (strstr(line, risks[i].needle))
			return risks[i].why;
	return NULL;
}

/* The first placeholder in @s (a run of 3 or more capitals standing alone, "CPUS"), as a
 * malloc'd string, or NULL. */
static char *placeholder(const char *s)
{
	for (const char *p = s; *p; p++) {
		if (*p < 'A' || *p > 'Z' || (p > s && strchr("=, ", p[-1]) == NULL))
			continue;
		size_t n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_");
		char end = p[n];
		if (n >= 3 && (end == '\0' || strchr(", ", end)))
			return pl_xasprintf("%.*s", (int)n, p);
		p += n ? n - 1 : 0;
	}
	return NULL;
}

/* ---- the profile being built ---- */

struct eitem {
	char *key;
	char *value;
	struct pl_buf comment;
};

struct esec {
	char *name;
	char *type;    /* type= when it differs from the name, else NULL */
	char *devices; /* devices= or NULL */
	struct eitem *v;
	size_t n, cap;
	const struct pl_finding *last; /* the finding of the last option added */
};

struct emit {
	struct esec *s;
	size_t n, cap;
	struct pl_buf leftout;
	struct pl_tune_emit_counts c;
};

static void emit_free(struct emit *e)
{
	for (size_t i = 0; i < e->n; i++) {
		struct esec *s = &e->s[i];
		for (size_t k = 0; k < s->n; k++) {
			free(s->v[k].key);
			free(s->v[k].value);
			pl_buf_free(&s->v[k].comment);
		}
		free(s->v);
		free(s->name);
		free(s->type);
		free(s->devices);
	}
	free(e->s);
	pl_buf_free(&e->leftout);
}

static struct esec *section(struct emit *e, const char *name, const char *type, const char *devices)
{
	for (size_t i = 0; i < e->n; i++)
		if (strcmp(e->s[i].name, name) == 0)
			return &e->s[i];
	if (e->n == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 8;
		e->s = pl_xrealloc(e->s, e->cap * sizeof(*e->s));
	}
	struct esec *s = &e->s[e->n++];
	*s = (struct esec){ .name = pl_xstrdup(name),
			    .type = type ? pl_xstrdup(type) : NULL,
			    .devices = devices ? pl_xstrdup(devices) : NULL };
	return s;
}

static struct eitem *find_item(struct esec *s, const char *key)
{
	for (size_t k = 0; k < s->n; k++)
		if (strcmp(s->v[k].key, key) == 0)
			return &s->v[k];
	return NULL;
}

static struct eitem *add_item(struct esec *s, const char *key, const char *value)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->v = pl_xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	struct eitem *it = &s->v[s->n++];
	*it = (struct eitem){ .key = pl_xstrdup(key), .value = pl_xstrdup(value) };
	return it;
}

/* A copy of machine text @s that stays on one comment line: newline and tab become ' ',
 * other control characters '?'. */
static char *one_line(const char *s)
{
	char *t = pl_xstrdup(s ? s : "");
	for (char *p = t; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = (*p == '\n' || *p == '\t') ? ' ' : '?';
	return t;
}

/* Append "# " comment lines to @b: @label then @text wrapped at 88 columns, continuation
 * lines indented under the text. Both may hold machine text (a device name from the
 * tree): control characters never reach the profile (one_line). */
static void comment(struct pl_buf *b, const char *label, const char *text)
{
	pl_autofree char *t = one_line(text);
	pl_autofree char *l = one_line(label);
	int indent = 2 + (int)strlen(l) + 1, col = indent;
	pl_buf_printf(b, "# %s", l);
	pl_autostrv char **w = pl_split(t, " ", NULL);
	for (size_t i = 0; w[i]; i++) {
		int n = (int)strlen(w[i]);
		if (col > indent && col + 1 + n > 88) {
			pl_buf_printf(b, "\n#%*s", indent - 1, "");
			col = indent;
		}
		pl_buf_printf(b, " %s", w[i]);
		col += 1 + n;
	}
	pl_buf_puts(b, "\n");
}

/* The heading comment of finding @x. */
static void describe(struct pl_buf *b, const struct pl_finding *x, const char *prefix)
{
	pl_autofree char *head =
		pl_xasprintf("%s%s (%s%s%s):", prefix, x->rule->id, pl_severity_names[x->severity],
			     x->subject ? ", " : "", x->subject ? x->subject : "");
	comment(b, head, x->rule->title);
	comment(b, "  observed:", x->observed);
	comment(b, "  why:", x->rule->rationale);
}

static void left_out(struct emit *e, const struct pl_finding *x, const char *line, const char *why)
{
	describe(&e->leftout, x, "left out: ");
	comment(&e->leftout, "  because:", why);
	comment(&e->leftout, "  fix line:", line);
	if (x->fix_command)
		comment(&e->leftout, "  by hand:", x->fix_command);
	pl_buf_puts(&e->leftout, "#\n");
	e->c.left_out++;
}

/* One [bootloader] line: its tokens join the one cmdline= option. */
static void add_cmdline(struct emit *e, const struct pl_finding *x, const char *line,
			const char *value)
{
	struct esec *s = section(e, "bootloader", NULL, NULL);
	struct eitem *it = find_item(s, "cmdline");
	pl_autostrv char **toks = pl_split(value, " ", NULL);
	for (size_t i = 0; it && toks[i]; i++) {
		size_t nl = strcspn(toks[i], "=");
		pl_autostrv char **have = pl_split(it->value, " ", NULL);
		for (size_t k = 0; have[k]; k++)
			if (strncmp(have[k], toks[i], nl) == 0 && strcspn(have[k], "=") == nl &&
			    strcmp(have[k], toks[i]) != 0) {
				pl_autofree char *why = pl_xasprintf(
					"'%s' conflicts with '%s', already in cmdline= from a more "
					"severe or earlier finding",
					toks[i], have[k]);
				left_out(e, x, line, why);
				return;
			}
	}
	if (!it) {
		it = add_item(s, "cmdline", "");
		it->value[0] = '\0';
	}
	struct pl_buf v = { 0 };
	pl_buf_puts(&v, it->value);
	for (size_t i = 0; toks[i]; i++) {
		bool dup = false;
		pl_autostrv char **have = pl_split(it->value, " ", NULL);
		for (size_t k = 0; have[k] && !dup; k++)
			dup = strcmp(have[k], toks[i]) == 0;
		if (dup)
			continue;
		pl_buf_printf(&v, "%s%s", v.len ? " " : "", toks[i]);
		e->c.items++;
	}
	free(it->value);
	it->value = pl_buf_steal(&v);
	describe(&it->comment, x, "");
}

/* One "key=value" of section @s for finding @x. */
static void add_option(struct emit *e, struct esec *s, const struct pl_finding *x, const char *line,
		       const char *kv)
{
	size_t kl = strcspn(kv, "=");
	if (!kv[kl] || !kl) {
		left_out(e, x, line, "not in the '[plugin] key=value' form of a fix line");
		return;
	}
	pl_autofree char *key = pl_xasprintf("%.*s", (int)kl, kv);
	const char *value = kv + kl + 1;
	struct eitem *it = find_item(s, key);
	if (it && strcmp(it->value, value) != 0) {
		pl_autofree char *why = pl_xasprintf("[%s] %s=%s conflicts with %s=%s, set by a "
						     "more severe or earlier finding",
						     s->name, key, value, key, it->value);
		left_out(e, x, line, why);
		return;
	}
	if (!it) {
		it = add_item(s, key, value);
		e->c.items++;
	}
	if (s->last == x) { /* the finding's second line: its comment is just above */
		pl_autofree char *head =
			pl_xasprintf("%s (%s%s%s):", x->rule->id, pl_severity_names[x->severity],
				     x->subject ? ", " : "", x->subject ? x->subject : "");
		comment(&it->comment, head, "as above");
	} else {
		describe(&it->comment, x, "");
	}
	s->last = x;
}

/* One line of a finding's fix_tune. */
static void add_line(struct emit *e, const struct pl_finding *x, const char *line)
{
	const char *risk = pl_tune_emit_risk(line);
	if (risk) {
		left_out(e, x, line, risk);
		return;
	}
	pl_autofree char *ph = placeholder(line);
	if (ph) {
		pl_autofree char *why =
			pl_xasprintf("'%s' is a placeholder only you can fill in", ph);
		left_out(e, x, line, why);
		return;
	}
	const char *close = line[0] == '[' ? strchr(line, ']') : NULL;
	pl_autofree char *plugin =
		close ? pl_xasprintf("%.*s", (int)(close - line - 1), line + 1) : NULL;
	const char *rest = close ? close + 1 + strspn(close + 1, " ") : NULL;
	if (!plugin || !name_ok(plugin) || !*rest) {
		left_out(e, x, line, "not in the '[plugin] key=value' form of a fix line");
		return;
	}
	if (!profile_safe(rest)) {
		left_out(e, x, line,
			 "has characters a profile cannot carry ('#', ';', brackets, quotes, "
			 "control characters)");
		return;
	}
	if (strcmp(plugin, "bootloader") == 0) {
		if (!pl_startswith(rest, "cmdline=")) {
			left_out(e, x, line, "only cmdline= of [bootloader] is written");
			return;
		}
		add_cmdline(e, x, line, rest + strlen("cmdline="));
		return;
	}
	if (strcmp(plugin, "disk") == 0) {
		/* "devices=DEV key=value ...": a section per device. */
		pl_autostrv char **toks = pl_split(rest, " ", NULL);
		if (!toks[0] || !pl_startswith(toks[0], "devices=") || !name_ok(toks[0] + 8)) {
			left_out(e, x, line, "a [disk] fix needs devices=NAME first");
			return;
		}
		pl_autofree char *name = pl_xasprintf("disk_%s", toks[0] + 8);
		struct esec *s = section(e, name, "disk", toks[0] + 8);
		for (size_t i = 1; toks[i]; i++)
			add_option(e, s, x, line, toks[i]);
		return;
	}
	add_option(e, section(e, plugin, NULL, NULL), x, line, rest);
}

static void write_profile(FILE *f, const struct emit *e, enum pl_severity min, const char *workload)
{
	fprintf(f,
		"# Written by 'perflab check --emit-profile' (workload %s): the profile fix of\n"
		"# every finding at or above severity %s. Review it, then 'perflab tune diff',\n"
		"# 'perflab tune try' or 'perflab tune apply' it (undo: 'perflab tune rollback').\n"
		"# %zu finding%s, %zu option%s, %zu fix%s left out (listed at the end), %zu "
		"finding%s without a profile fix.\n",
		workload, pl_severity_names[min], e->c.findings, e->c.findings == 1 ? "" : "s",
		e->c.items, e->c.items == 1 ? "" : "s", e->c.left_out,
		e->c.left_out == 1 ? "" : "es", e->c.no_fix, e->c.no_fix == 1 ? "" : "s");
	fprintf(f, "\n[main]\nsummary=perflab check fixes (workload %s, %s and above)\n", workload,
		pl_severity_names[min]);
	for (size_t i = 0; i < e->n; i++) {
		const struct esec *s = &e->s[i];
		if (!s->n)
			continue;
		fprintf(f, "\n[%s]\n", s->name);
		if (s->type)
			fprintf(f, "type=%s\n", s->type);
		if (s->devices)
			fprintf(f, "devices=%s\n", s->devices);
		for (size_t k = 0; k < s->n; k++)
			fprintf(f, "%s%s=%s\n", s->v[k].comment.data ? s->v[k].comment.data : "",
				s->v[k].key, s->v[k].value);
	}
	if (e->leftout.len)
		fprintf(f, "\n# ---- not in this profile ----\n%s", e->leftout.data);
}

int pl_tune_emit_profile(FILE *f, const struct pl_findings *fs, enum pl_severity min,
			 const char *workload, struct pl_tune_emit_counts *c)
{
	__attribute__((cleanup(emit_free))) struct emit e = { 0 };
	for (size_t i = 0; i < fs->n; i++) {
		const struct pl_finding *x = &fs->v[i];
		if (x->severity < min)
			continue;
		e.c.findings++;
		if (!x->fix_tune || !*x->fix_tune) {
			describe(&e.leftout, x, "no profile item: ");
			if (x->fix_command)
				comment(&e.leftout, "  by hand:", x->fix_command);
			pl_buf_puts(&e.leftout, "#\n");
			e.c.no_fix++;
			continue;
		}
		pl_autostrv char **lines = pl_split(x->fix_tune, "\n", NULL);
		for (size_t k = 0; lines[k]; k++)
			add_line(&e, x, lines[k]);
	}
	write_profile(f, &e, min, workload);
	if (c)
		*c = e.c;
	return ferror(f) ? -EIO : 0;
}
