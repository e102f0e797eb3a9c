/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Renderers of tune's profiles, plans and journal entries (tune/output.h). */
#include "tune/output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "tune/safepath.h"
#include "tune/value.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/cpuset.h"
#include "util/log.h"
#include "util/str.h"

static json_t *opt_json(const struct pl_tune_opt *x)
{
	json_t *j = json_object();
	json_object_set_new(j, "key", pl_json_string(x->key));
	json_object_set_new(j, "value", pl_json_string(x->value));
	json_object_set_new(j, "expanded", pl_json_string(x->expanded));
	json_object_set_new(j, "profile", pl_json_string(x->profile));
	json_object_set_new(j, "file", pl_json_string(x->file));
	json_object_set_new(j, "line", json_integer(x->line));
	return j;
}

const char *pl_tune_verdict(const struct pl_tune_item *it)
{
	if (it->state == PL_TI_NA)
		return "not-applicable";
	if (it->state == PL_TI_UNSUPPORTED)
		return "unsupported";
	if (it->state == PL_TI_REFUSED)
		return "refused";
	if (it->pending_reboot)
		return "pending-reboot";
	if (it->state == PL_TI_MANUAL)
		return it->match ? "match" : "manual";
	return it->match ? "match" : "differs";
}

static json_t *item_json(const struct pl_tune_item *it)
{
	json_t *j = json_object();
	json_object_set_new(j, "plugin", pl_json_string(it->plugin));
	json_object_set_new(j, "unit", pl_json_string(it->unit));
	json_object_set_new(j, "key", pl_json_string(it->key));
	json_object_set_new(j, "device", pl_json_string(it->device));
	json_object_set_new(j, "wanted", pl_json_string(it->value));
	json_object_set_new(j, "current", pl_json_string(it->current));
	json_object_set_new(j, "write", pl_json_string(it->want));
	json_object_set_new(j, "target", pl_json_string(it->target));
	json_object_set_new(j, "state", pl_json_string(pl_tune_verdict(it)));
	json_object_set_new(j, "reason", pl_json_string(it->reason));
	json_object_set_new(j, "origin", pl_json_string(it->origin));
	json_object_set_new(j, "profile", pl_json_string(it->profile));
	return j;
}

void pl_tune_item_label(char *buf, size_t len, const struct pl_tune_item *it)
{
	if (it->device)
		snprintf(buf, len, "%s %s [%s]", it->plugin, it->key, it->device);
	else if (it->target && strcmp(it->plugin, "sysfs") == 0)
		snprintf(buf, len, "sysfs %s", it->target);
	else
		snprintf(buf, len, "%s %s", it->plugin, it->key);
}

int pl_tune_item_cpu(const struct pl_tune_item *it)
{
	const char *d = it->device;
	if (!d || !pl_startswith(d, "cpu") || d[3] < '0' || d[3] > '9' || (d[3] == '0' && d[4]))
		return -1;
	char *end;
	errno = 0;
	unsigned long n = strtoul(d + 3, &end, 10);
	return errno || *end || n >= PL_MAX_CPUS ? -1 : (int)n;
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

bool pl_tune_item_same_change(const struct pl_tune_item *a, const struct pl_tune_item *b)
{
	return pl_tune_item_cpu(a) >= 0 && pl_tune_item_cpu(b) >= 0 &&
	       strcmp(a->plugin, b->plugin) == 0 && same_str(a->unit, b->unit) &&
	       strcmp(a->key, b->key) == 0 && same_str(a->value, b->value) &&
	       same_str(a->current, b->current) && same_str(a->want, b->want) &&
	       a->state == b->state && a->match == b->match &&
	       a->pending_reboot == b->pending_reboot && same_str(a->reason, b->reason);
}

void pl_tune_item_label_cpus(char *buf, size_t len, const struct pl_tune_item *it,
			     const struct pl_cpuset *cpus)
{
	if (pl_cpuset_count(cpus) < 2) {
		pl_tune_item_label(buf, len, it);
		return;
	}
	char list[512];
	pl_cpuset_format(cpus, list, sizeof(list));
	snprintf(buf, len, "%s %s [cpu%s]", it->plugin, it->key, list);
}

void pl_tune_print_items(FILE *f, const struct pl_tune_plan *plan)
{
	const char *g = pl_style(f, "green"), *y = pl_style(f, "yellow"), *rd = pl_style(f, "red"),
		   *d = pl_style(f, "dim"), *r = pl_style(f, "reset");
	fprintf(f, "%-46s %-22s %-22s %s\n", "ITEM", "CURRENT", "WANTED", "STATE");
	for (size_t i = 0; i < plan->n; i++) {
		const struct pl_tune_item *it = &plan->v[i];
		/* The same change on several CPUs is one line: "cpu governor [cpu0-15]". */
		struct pl_cpuset cpus;
		pl_cpuset_clear(&cpus);
		size_t j = i + 1;
		if (pl_tune_item_cpu(it) >= 0) {
			pl_cpuset_set(&cpus, (unsigned)pl_tune_item_cpu(it));
			for (; j < plan->n && pl_tune_item_same_change(it, &plan->v[j]); j++)
				pl_cpuset_set(&cpus, (unsigned)pl_tune_item_cpu(&plan->v[j]));
		}
		char label[600];
		pl_tune_item_label_cpus(label, sizeof(label), it, &cpus);
		const char *v = pl_tune_verdict(it);
		const char *col = strcmp(v, "match") == 0 ? g : strcmp(v, "differs") == 0 ? rd : y;
		pl_autofree char *cur =
			it->current ? pl_tune_value_norm(it->current) : pl_xstrdup("-");
		fprintf(f, "%-46s %-22s %-22s %s%s%s", label, cur, it->value, col, v, r);
		if (it->reason)
			fprintf(f, " %s(%s)%s", d, it->reason, r);
		fprintf(f, "\n");
		i = j - 1;
	}
}

struct pl_tune_counts pl_tune_count(const struct pl_tune_plan *plan)
{
	struct pl_tune_counts c = { 0 };
	for (size_t i = 0; i < plan->n; i++) {
		const char *v = pl_tune_verdict(&plan->v[i]);
		if (strcmp(v, "match") == 0)
			c.match++;
		else if (strcmp(v, "differs") == 0)
			c.differ++;
		else if (strcmp(v, "not-applicable") == 0)
			c.na++;
		else if (strcmp(v, "unsupported") == 0)
			c.unsupported++;
		else if (strcmp(v, "pending-reboot") == 0)
			c.pending++;
		else if (strcmp(v, "refused") == 0)
			c.refused++, c.bad_values += plan->v[i].bad_value;
		else
			c.manual++;
	}
	return c;
}

static json_t *counts_json(struct pl_tune_counts c)
{
	json_t *j = json_object();
	json_object_set_new(j, "match", json_integer((json_int_t)c.match));
	json_object_set_new(j, "differs", json_integer((json_int_t)c.differ));
	json_object_set_new(j, "not_applicable", json_integer((json_int_t)c.na));
	json_object_set_new(j, "unsupported", json_integer((json_int_t)c.unsupported));
	json_object_set_new(j, "manual", json_integer((json_int_t)c.manual));
	json_object_set_new(j, "pending_reboot", json_integer((json_int_t)c.pending));
	json_object_set_new(j, "refused", json_integer((json_int_t)c.refused));
	return j;
}

json_t *pl_tune_items_doc(const char *cmd, const struct pl_tune_profile *pr,
			  const struct pl_tune_plan *plan)
{
	json_t *doc = json_object();
	json_object_set_new(doc, "schema_version", json_integer(1));
	json_object_set_new(doc, "command", pl_json_string(cmd));
	json_object_set_new(doc, "profile", pl_json_string(pr->name));
	json_t *arr = json_array();
	for (size_t i = 0; i < plan->n; i++)
		json_array_append_new(arr, item_json(&plan->v[i]));
	json_object_set_new(doc, "items", arr);
	json_object_set_new(doc, "summary", counts_json(pl_tune_count(plan)));
	return doc;
}

void pl_tune_print_summary(FILE *f, const struct pl_tune_plan *plan)
{
	struct pl_tune_counts c = pl_tune_count(plan);
	fprintf(f,
		"\n%zu match, %zu differ, %zu pending reboot, %zu manual, %zu not applicable on "
		"this "
		"machine, %zu unsupported\n",
		c.match, c.differ, c.pending, c.manual, c.na, c.unsupported);
	if (c.refused > c.bad_values)
		fprintf(f,
			"%zu refused (outside the sysroot or a hard link): 'apply' writes nothing "
			"while an item is refused\n",
			c.refused - c.bad_values);
	if (c.bad_values)
		fprintf(f,
			"%zu value%s refused (type, range or choices of the target): 'apply' "
			"writes "
			"nothing while a value is refused\n",
			c.bad_values, c.bad_values == 1 ? "" : "s");
}

json_t *pl_tune_entry_json(const struct pl_journal_entry *e)
{
	json_t *j = json_object();
	json_object_set_new(j, "step", json_integer((json_int_t)e->step));
	json_object_set_new(j, "target", pl_json_string(e->target));
	json_object_set_new(j, "sysroot", pl_json_string(e->sysroot));
	bool grub = strcmp(e->target, PL_TUNE_GRUB_FILE) == 0;
	json_object_set_new(j, "old", grub ? pl_json_string("(file)") : pl_json_string(e->old));
	json_object_set_new(j, "new",
			    grub ? pl_json_string("(file)") : pl_json_string(e->new_value));
	json_object_set_new(j, "accepted", grub ? json_null() : pl_json_string(e->accepted));
	json_object_set_new(j, "status", pl_json_string(pl_journal_status_name(e->status)));
	json_object_set_new(j, "profile", pl_json_string(e->profile));
	json_object_set_new(j, "time", json_integer(e->time));
	json_object_set_new(j, "undone", json_boolean(e->undone));
	if (e->persist) {
		json_object_set_new(j, "persist", json_true());
		json_object_set_new(j, "copy", pl_json_string(e->copy));
	}
	return j;
}

/* The CPU number N of a target ".../cpuN/...", with the text before "cpuN" (its
 * length in *plen) and the text after it (*rest); -1 when the target names no CPU. */
static int target_cpu(const char *t, size_t *plen, const char **rest)
{
	const char *c = strstr(t, "/cpu");
	for (; c; c = strstr(c + 1, "/cpu")) {
		const char *d = c + 4;
		if (*d < '0' || *d > '9' || (*d == '0' && d[1] >= '0' && d[1] <= '9'))
			continue;
		char *end;
		unsigned long n = strtoul(d, &end, 10);
		if (*end != '/' || n >= PL_MAX_CPUS)
			continue;
		*plen = (size_t)(c + 4 - t);
		*rest = end;
		return (int)n;
	}
	return -1;
}

/* Entries @a and @b (@b the step after @a) show as one row: the same change to the same
 * file of two CPUs. */
static bool same_entry_change(const struct pl_journal_entry *a, const struct pl_journal_entry *b)
{
	size_t pa, pb;
	const char *ra, *rb;
	if (b->step != a->step + 1 || a->persist || b->persist || a->undone != b->undone ||
	    a->status != b->status || strcmp(a->profile, b->profile) != 0 ||
	    !same_str(a->old, b->old) || !same_str(a->new_value, b->new_value) ||
	    !same_str(a->accepted, b->accepted) || target_cpu(a->target, &pa, &ra) < 0 ||
	    target_cpu(b->target, &pb, &rb) < 0)
		return false;
	return pa == pb && strncmp(a->target, b->target, pa) == 0 && strcmp(ra, rb) == 0;
}

/* The cells of the row of entries @v[0..n): steps, target (".../cpu0-15/..." for a
 * run of CPUs) and change. Malloc'd. */
static void entry_cells(const struct pl_journal_entry *v, size_t n, char **step, char **target,
			char **change)
{
	const struct pl_journal_entry *e = &v[0];
	*step = n > 1 ? pl_xasprintf("%lu-%lu", e->step, v[n - 1].step)
		      : pl_xasprintf("%lu", e->step);
	size_t plen;
	const char *rest;
	if (n > 1 && target_cpu(e->target, &plen, &rest) >= 0) {
		struct pl_cpuset cpus;
		pl_cpuset_clear(&cpus);
		for (size_t k = 0; k < n; k++) {
			size_t pl;
			const char *rs;
			pl_cpuset_set(&cpus, (unsigned)target_cpu(v[k].target, &pl, &rs));
		}
		char list[512];
		pl_cpuset_format(&cpus, list, sizeof(list));
		*target = pl_xasprintf("%.*s%s%s", (int)plen, e->target, list, rest);
	} else {
		*target = pl_xstrdup(e->target);
	}
	bool grub = strcmp(e->target, PL_TUNE_GRUB_FILE) == 0;
	const char *undone = e->undone ? " (undone)" : "";
	if (e->persist)
		*change = pl_xasprintf("(absent) -> persistent (%s)%s", e->new_value, undone);
	else
		*change = pl_xasprintf("%s -> %s%s%s%s%s",
				       grub	? "(file)"
				       : e->old ? e->old
						: "(absent)",
				       grub ? "(file)" : e->new_value,
				       e->status == PL_JS_CHANGED ? " (kernel kept " : "",
				       e->status == PL_JS_CHANGED && e->accepted ? e->accepted : "",
				       e->status == PL_JS_CHANGED   ? ")"
				       : e->status == PL_JS_REFUSED ? " (refused)"
								    : "",
				       undone);
}

void pl_tune_print_entries(FILE *f, const struct pl_journal_entry *v, size_t n, bool all)
{
	struct row {
		char *step, *profile, *target, *change;
		char time[32];
	} *rows = pl_xcalloc(n + 1, sizeof(*rows));
	size_t nr = 0,
	       w[4] = { strlen("STEP"), strlen("PROFILE"), strlen("TARGET"), strlen("OLD -> NEW") };
	for (size_t i = 0; i < n; i++) {
		if (!all && v[i].undone)
			continue;
		size_t j = i + 1;
		while (j < n && same_entry_change(&v[j - 1], &v[j]))
			j++;
		struct row *r = &rows[nr++];
		entry_cells(&v[i], j - i, &r->step, &r->target, &r->change);
		r->profile = pl_xstrdup(v[i].profile);
		pl_iso8601(v[i].time, r->time, sizeof(r->time));
		const char *cell[4] = { r->step, r->profile, r->target, r->change };
		for (int k = 0; k < 4; k++)
			if (strlen(cell[k]) > w[k])
				w[k] = strlen(cell[k]);
		i = j - 1;
	}
	if (nr)
		fprintf(f, "%-*s  %-*s  %-*s  %-*s  %s\n", (int)w[0], "STEP", (int)w[1], "PROFILE",
			(int)w[2], "TARGET", (int)w[3], "OLD -> NEW", "TIME");
	for (size_t i = 0; i < nr; i++) {
		struct row *r = &rows[i];
		fprintf(f, "%-*s  %-*s  %-*s  %-*s  %s\n", (int)w[0], r->step, (int)w[1],
			r->profile, (int)w[2], r->target, (int)w[3], r->change, r->time);
		free(r->step);
		free(r->profile);
		free(r->target);
		free(r->change);
	}
	free(rows);
}

json_t *pl_tune_show_doc(const struct pl_tune_profile *pr)
{
	json_t *doc = json_object();
	json_object_set_new(doc, "schema_version", json_integer(1));
	json_object_set_new(doc, "profile", pl_json_string(pr->name));
	json_object_set_new(doc, "file", pl_json_string(pr->file));
	json_object_set_new(doc, "summary", pl_json_string(pr->summary));
	json_t *ch = json_array();
	for (size_t i = 0; pr->chain[i]; i++)
		json_array_append_new(ch, pl_json_string(pr->chain[i]));
	json_object_set_new(doc, "chain", ch);
	json_t *vars = json_array();
	for (size_t i = 0; i < pr->variables.n; i++)
		json_array_append_new(vars, opt_json(&pr->variables.v[i]));
	json_object_set_new(doc, "variables", vars);
	json_t *units = json_array();
	for (size_t i = 0; i < pr->nunits; i++) {
		const struct pl_tune_unit *u = &pr->units[i];
		json_t *ju = json_object();
		json_object_set_new(ju, "name", pl_json_string(u->name));
		json_object_set_new(ju, "type", pl_json_string(u->type));
		json_object_set_new(ju, "supported",
				    json_boolean(pl_tune_plugin_supported(u->type)));
		json_object_set_new(ju, "enabled", json_boolean(u->enabled));
		json_object_set_new(ju, "devices", pl_json_string(u->devices));
		json_object_set_new(ju, "uname_regex", pl_json_string(u->uname_regex));
		json_object_set_new(ju, "cpuinfo_regex", pl_json_string(u->cpuinfo_regex));
		json_t *uk = json_array();
		for (size_t k = 0; u->unsupported_keys && u->unsupported_keys[k]; k++)
			json_array_append_new(uk, pl_json_string(u->unsupported_keys[k]));
		json_object_set_new(ju, "unsupported_keys", uk);
		pl_autofree char *why = NULL;
		json_object_set_new(ju, "applies_here",
				    json_boolean(pl_tune_unit_applies(u, &why)));
		json_object_set_new(ju, "not_applied_reason", pl_json_string(why));
		json_t *jo = json_array();
		for (size_t k = 0; k < u->opts.n; k++)
			json_array_append_new(jo, opt_json(&u->opts.v[k]));
		json_object_set_new(ju, "options", jo);
		json_array_append_new(units, ju);
	}
	json_object_set_new(doc, "units", units);
	json_t *notes = json_array();
	for (size_t i = 0; pr->notes[i]; i++)
		json_array_append_new(notes, pl_json_string(pr->notes[i]));
	json_object_set_new(doc, "notes", notes);
	return doc;
}

void pl_tune_show_text(FILE *f, const struct pl_tune_profile *pr)
{
	const char *b = pl_style(f, "bold"), *d = pl_style(f, "dim"), *r = pl_style(f, "reset"),
		   *y = pl_style(f, "yellow");
	fprintf(f, "%s%s%s: %s\n", b, pr->name, r, pr->summary);
	for (size_t i = 0; pr->chain[i]; i++)
		fprintf(f, "  %s%s %s%s\n", d, i == 0 ? "loads" : "  then", pr->chain[i], r);
	if (pr->variables.n) {
		fprintf(f, "\n%s[variables]%s\n", b, r);
		for (size_t i = 0; i < pr->variables.n; i++) {
			const struct pl_tune_opt *x = &pr->variables.v[i];
			fprintf(f, "  %-40s %s   %s(%s:%d)%s\n", x->key,
				x->expanded ? x->expanded : x->value, d, x->file, x->line, r);
		}
	}
	for (size_t i = 0; i < pr->nunits; i++) {
		const struct pl_tune_unit *u = &pr->units[i];
		fprintf(f, "\n%s[%s]%s", b, u->name, r);
		if (strcmp(u->type, u->name) != 0)
			fprintf(f, " type=%s", u->type);
		if (!pl_tune_plugin_supported(u->type))
			fprintf(f, " %sunsupported plugin '%s': not applied%s", y, u->type, r);
		if (!u->enabled)
			fprintf(f, " (enabled=false)");
		pl_autofree char *why = NULL;
		if (!pl_tune_unit_applies(u, &why))
			fprintf(f, " %snot applied here: %s%s", y, why, r);
		if (strcmp(u->devices, "*") != 0)
			fprintf(f, " devices=%s", u->devices);
		if (u->uname_regex)
			fprintf(f, " uname_regex=%s", u->uname_regex);
		if (u->cpuinfo_regex)
			fprintf(f, " cpuinfo_regex=%s", u->cpuinfo_regex);
		fprintf(f, "\n");
		for (size_t k = 0; k < u->opts.n; k++) {
			const struct pl_tune_opt *x = &u->opts.v[k];
			fprintf(f, "  %-40s %s   %s(%s:%d)%s\n", x->key,
				x->expanded ? x->expanded : x->value, d, x->file, x->line, r);
		}
	}
	for (size_t i = 0; pr->notes[i]; i++)
		fprintf(f, "%snote:%s %s\n", y, r, pr->notes[i]);
}
