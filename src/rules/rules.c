/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "rules/rules.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "util/escape.h"
#include "util/str.h"

const char *const pl_workload_names[] = { "general", "latency", "throughput", "hpc",
					  "network", "storage", "benchmark",  NULL };
const char *const pl_severity_names[] = { "info", "warn", "crit", NULL };

int pl_severity_parse(const char *s)
{
	for (int i = 0; pl_severity_names[i]; i++)
		if (strcmp(pl_severity_names[i], s) == 0)
			return i;
	return -EINVAL;
}

unsigned pl_workload_parse(const char *s)
{
	for (int i = 0; pl_workload_names[i]; i++)
		if (strcmp(pl_workload_names[i], s) == 0)
			return 1u << i;
	return 0;
}

/* Replace each "%s" in @tmpl with @subject (or "" when NULL). The subject is a name from
 * the machine tree (a block device, an interface): in a shell command it is quoted
 * (pl_shell_quote: `echo none > /sys/block/'a b'/queue/scheduler` stays one safe
 * command), in a profile line its control characters are escaped so it stays one line. */
static char *render(const char *tmpl, const char *subject, bool shell)
{
	if (!tmpl)
		return NULL;
	char *subj = !subject ? pl_xstrdup("")
		     : shell  ? pl_shell_quote(subject)
			      : pl_str_escape(subject, PL_ESC_TERM);
	struct pl_buf b = { 0 };
	for (const char *p = tmpl; *p; p++) {
		if (p[0] == '%' && p[1] == 's') {
			pl_buf_puts(&b, subj);
			p++;
		} else {
			pl_buf_append(&b, p, 1);
		}
	}
	free(subj);
	return pl_buf_steal(&b);
}

struct pl_finding *pl_finding_add(struct pl_findings *out, const struct pl_rule *r,
				  const char *subject, const char *observed, const char *expected)
{
	if (out->n == out->cap) {
		out->cap = out->cap ? out->cap * 2 : 16;
		out->v = pl_xrealloc(out->v, out->cap * sizeof(*out->v));
	}
	struct pl_finding *x = &out->v[out->n++];
	memset(x, 0, sizeof(*x));
	x->rule = r;
	x->severity = r->severity;
	x->subject = subject ? pl_xstrdup(subject) : NULL;
	x->observed = pl_xstrdup(observed ? observed : "");
	x->expected = pl_xstrdup(expected ? expected : "");
	x->fix_command = render(r->fix_command, subject, true);
	x->fix_tune = render(r->fix_tune, subject, false);
	x->facts = json_array();
	for (const char *const *k = r->keys; k && *k; k++) {
		const char *star = strchr(*k, '*');
		if (star && subject) {
			char *key =
				pl_xasprintf("%.*s%s%s", (int)(star - *k), *k, subject, star + 1);
			json_array_append_new(x->facts, pl_json_string(key));
			free(key);
		} else {
			json_array_append_new(x->facts, pl_json_string(*k));
		}
	}
	return x;
}

void pl_findings_free(struct pl_findings *fs)
{
	if (!fs)
		return;
	for (size_t i = 0; i < fs->n; i++) {
		struct pl_finding *x = &fs->v[i];
		free(x->subject);
		free(x->observed);
		free(x->expected);
		free(x->fix_command);
		free(x->fix_tune);
		json_decref(x->facts);
		json_decref(x->evidence);
	}
	free(fs->v);
	pl_strv_free(fs->unevaluated);
	memset(fs, 0, sizeof(*fs));
}

static int cmp_finding(const void *a, const void *b)
{
	const struct pl_finding *x = a, *y = b;
	if (x->severity != y->severity)
		return (int)y->severity - (int)x->severity;
	int c = strcmp(x->rule->id, y->rule->id);
	if (c)
		return c;
	return strcmp(x->subject ? x->subject : "", y->subject ? y->subject : "");
}

/* A rule could not run when its primary fact is missing or unavailable. Per-device
 * patterns ("block.*.x") are decided per device by the predicate itself. */
static bool primary_known(const struct pl_rule *r, const struct pl_facts *f)
{
	const char *k = r->keys ? r->keys[0] : NULL;
	return !k || strchr(k, '*') || pl_facts_value(f, k) != NULL;
}

void pl_rules_eval(const struct pl_facts *f, unsigned workload, struct pl_findings *out)
{
	size_t nun = 0;
	for (size_t t = 0; t < pl_nrule_tables; t++) {
		const struct pl_rule_table *tab = &pl_rule_tables[t];
		for (size_t i = 0; i < *tab->n; i++) {
			const struct pl_rule *r = &tab->rules[i];
			if (!(r->workloads & workload))
				continue;
			out->nrules++;
			if (!primary_known(r, f)) {
				out->unevaluated =
					pl_xrealloc(out->unevaluated, (nun + 2) * sizeof(char *));
				out->unevaluated[nun++] = pl_xstrdup(r->id);
				out->unevaluated[nun] = NULL;
			}
			r->eval(r, f, out);
		}
	}
	if (out->n > 1)
		qsort(out->v, out->n, sizeof(*out->v), cmp_finding);
}

char *pl_rules_domains(unsigned workload, const char *const *known)
{
	struct pl_buf b = { 0 };
	for (const char *const *d = known; d && *d; d++) {
		size_t dl = strlen(*d);
		bool used = false;
		for (size_t t = 0; t < pl_nrule_tables && !used; t++)
			for (size_t i = 0; i < *pl_rule_tables[t].n && !used; i++) {
				const struct pl_rule *r = &pl_rule_tables[t].rules[i];
				if (!(r->workloads & workload))
					continue;
				for (const char *const *k = r->keys; k && *k && !used; k++)
					used = strncmp(*k, *d, dl) == 0 && (*k)[dl] == '.';
			}
		if (used)
			pl_buf_printf(&b, "%s%s", b.len ? "," : "", *d);
	}
	return pl_buf_steal(&b);
}

const char *const *pl_rules_sysctl_names(void)
{
	static const char **names;
	if (names)
		return names;
	size_t n = 0, cap = 1;
	names = pl_xcalloc(cap, sizeof(*names));
	for (size_t t = 0; t < pl_nrule_tables; t++)
		for (size_t i = 0; i < *pl_rule_tables[t].n; i++)
			for (const char *const *k = pl_rule_tables[t].rules[i].keys; k && *k; k++) {
				if (strncmp(*k, "sysctl.", 7) != 0)
					continue;
				if (n + 1 == cap) {
					cap *= 2;
					names = pl_xrealloc(names, cap * sizeof(*names));
				}
				names[n++] = *k + 7;
				names[n] = NULL;
			}
	return names;
}

const char *const *pl_rules_keys(void)
{
	static const char **keys;
	if (keys)
		return keys;
	size_t n = 0, cap = 1;
	keys = pl_xcalloc(cap, sizeof(*keys));
	for (size_t t = 0; t < pl_nrule_tables; t++)
		for (size_t i = 0; i < *pl_rule_tables[t].n; i++)
			for (const char *const *k = pl_rule_tables[t].rules[i].keys; k && *k; k++) {
				if (n + 1 == cap) {
					cap *= 2;
					keys = pl_xrealloc(keys, cap * sizeof(*keys));
				}
				keys[n++] = *k;
				keys[n] = NULL;
			}
	return keys;
}

const struct pl_rule *pl_rule_find(const char *id)
{
	for (size_t t = 0; t < pl_nrule_tables; t++)
		for (size_t i = 0; i < *pl_rule_tables[t].n; i++)
			if (strcmp(pl_rule_tables[t].rules[i].id, id) == 0)
				return &pl_rule_tables[t].rules[i];
	return NULL;
}

json_t *pl_findings_to_json(const struct pl_findings *fs, const char *workload)
{
	json_t *doc = json_object();
	json_object_set_new(doc, "schema_version", json_integer(1));
	json_object_set_new(doc, "workload", pl_json_string(workload));
	json_t *arr = json_array();
	size_t count[3] = { 0 };
	for (size_t i = 0; i < fs->n; i++) {
		const struct pl_finding *x = &fs->v[i];
		count[x->severity]++;
		json_t *o = json_object();
		json_object_set_new(o, "id", pl_json_string(x->rule->id));
		json_object_set_new(o, "severity", pl_json_string(pl_severity_names[x->severity]));
		json_object_set_new(o, "title", pl_json_string(x->rule->title));
		if (x->subject)
			json_object_set_new(o, "subject", pl_json_string(x->subject));
		json_object_set(o, "facts", x->facts);
		json_object_set_new(o, "observed", pl_json_string(x->observed));
		json_object_set_new(o, "expected", pl_json_string(x->expected));
		json_object_set_new(o, "rationale", pl_json_string(x->rule->rationale));
		json_object_set_new(o, "source", pl_json_string(x->rule->source));
		json_object_set_new(o, "risky", json_boolean(x->rule->risky));
		json_t *fix = json_object();
		json_object_set_new(fix, "command",
				    x->fix_command ? pl_json_string(x->fix_command) : json_null());
		json_object_set_new(fix, "tune",
				    x->fix_tune ? pl_json_string(x->fix_tune) : json_null());
		json_object_set_new(o, "fix", fix);
		if (x->evidence)
			json_object_set(o, "evidence", x->evidence);
		json_array_append_new(arr, o);
	}
	json_object_set_new(doc, "findings", arr);
	json_t *sum = json_object();
	json_object_set_new(sum, "total", json_integer((json_int_t)fs->n));
	for (int s = PL_SEV_CRIT; s >= PL_SEV_INFO; s--)
		json_object_set_new(sum, pl_severity_names[s], json_integer((json_int_t)count[s]));
	json_object_set_new(sum, "rules", json_integer((json_int_t)fs->nrules));
	json_t *un = json_array();
	for (char **u = fs->unevaluated; u && *u; u++)
		json_array_append_new(un, pl_json_string(*u));
	json_object_set_new(sum, "unevaluated", un);
	json_object_set_new(doc, "summary", sum);
	return doc;
}
