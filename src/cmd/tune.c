/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab tune: tuned-format profiles applied through the crash-safe journal
 * (tune/journal.h) with exact rollback. Subcommands: list, show, diff, apply, verify,
 * rollback, status, hold-latency. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/common.h"
#include "out/json.h"
#include "tune/journal.h"
#include "tune/plan.h"
#include "tune/profile.h"
#include "tune/safepath.h"
#include "tune/value.h"
#include "util/clock.h"
#include "util/outfile.h"
#include "util/str.h"
#include "util/sysroot.h"

struct tune_opts {
	const char *profile_dir;
	const char *state_dir;
	bool dry_run;
	uint64_t to;
	bool all;
};

static const struct pl_opt tune_opts[] = {
	{ "profile-dir", 0, PL_OPT_STR, offsetof(struct tune_opts, profile_dir), "DIR",
	  "look for profiles in DIR first (then bundled, /etc/tuned, /usr/lib/tuned)" },
	{ "state-dir", 0, PL_OPT_STR, offsetof(struct tune_opts, state_dir), "DIR",
	  "journal directory", .def = PL_JOURNAL_DEFAULT_DIR },
	{ "dry-run", 0, PL_OPT_FLAG, offsetof(struct tune_opts, dry_run), NULL,
	  "apply: print what would be written, write nothing", .was_short = 'n' },
	{ "to", 0, PL_OPT_U64, offsetof(struct tune_opts, to), "STEP",
	  "rollback: undo only the changes after STEP (default 0: all)" },
	{ "all", 0, PL_OPT_FLAG, offsetof(struct tune_opts, all), NULL,
	  "status: also list changes already rolled back", .was_short = 'a' },
	PL_OPT_END,
};

static const struct pl_cmd_info info = {
	.name = "tune",
	.usage = "perflab tune list|show NAME|diff NAME|apply NAME [--dry-run]|verify NAME|\n"
		 "                    rollback [--to STEP]|status|hold-latency USEC [options]",
	.summary = "Apply tuned-format profiles with a crash-safe journal and exact rollback.",
	.description =
		"Profiles are tuned's format (<dir>/<name>/tuned.conf): include, [variables],\n"
		"[sysctl] [vm] [cpu] [disk] [sysfs] [bootloader]; other plugins are listed as\n"
		"unsupported; [bootloader] tokens must be plain kernel parameters (letters, "
		"digits,\n"
		"_ - . , = : / + @ %). Every write is journaled (fsync) in --state-dir before it "
		"is\n"
		"made; 'rollback' restores the values from before the first change, also after a\n"
		"crash.\n"
		"  list              profiles along the search path\n"
		"  show NAME         merged profile, with the file and line of every value\n"
		"  diff NAME         current vs wanted per item on this machine\n"
		"  apply NAME        write what differs, all or nothing: every value checked\n"
		"                    first, the whole apply rolled back if the kernel refuses or\n"
		"                    changes one (--dry-run: only check and print)\n"
		"  verify NAME       exit 0 when every applicable item matches, else 1\n"
		"  rollback          undo the journaled changes, newest first (--to STEP)\n"
		"  status            what is applied, from the journal\n"
		"  hold-latency USEC hold a CPU wakeup latency limit (force_latency) until Ctrl-C\n"
		"--json: docs/schemas/tune-{list,show,items,journal}.schema.json.",
};

static char errbuf[1024];

/* ---- output helpers ---- */

static json_t *jstr_or_null(const char *s)
{
	return s ? pl_json_string(s) : json_null();
}

static int emit_json(json_t *doc)
{
	int r = pl_json_write_path(pl_g.output, doc);
	json_decref(doc);
	if (r < 0) {
		pl_error("cannot write '%s': %s", pl_g.output ? pl_g.output : "-", strerror(-r));
		return PL_EXIT_RUNTIME;
	}
	return PL_EXIT_OK;
}

static int open_out(struct pl_outfile *out)
{
	int r = pl_outfile_open(out, pl_g.output);
	if (r < 0) {
		pl_error("cannot write '%s': %s", pl_g.output, strerror(-r));
		return PL_EXIT_USAGE;
	}
	return PL_EXIT_OK;
}

static int close_out(struct pl_outfile *out, int rc)
{
	if (pl_outfile_close(out, true) < 0)
		return PL_EXIT_RUNTIME;
	return rc;
}

/* ---- loading ---- */

static int load(const struct tune_opts *o, const char *name, struct pl_tune_profile **pr)
{
	struct pl_tune_path p;
	pl_tune_path_default(&p, o->profile_dir);
	int r = pl_tune_profile_load(&p, name, pr, errbuf, sizeof(errbuf));
	if (r < 0) {
		pl_error("%s", errbuf);
		return r == -ENOTSUP ? PL_EXIT_USAGE : PL_EXIT_USAGE;
	}
	return PL_EXIT_OK;
}

static int load_plan(const struct tune_opts *o, const char *name, struct pl_tune_profile **pr,
		     struct pl_tune_plan *plan)
{
	int rc = load(o, name, pr);
	if (rc != PL_EXIT_OK)
		return rc;
	if (pl_tune_plan_build(*pr, plan, errbuf, sizeof(errbuf)) < 0) {
		pl_error("%s", errbuf);
		pl_tune_plan_free(plan);
		pl_tune_profile_free(*pr);
		*pr = NULL;
		return PL_EXIT_USAGE;
	}
	return PL_EXIT_OK;
}

/* ---- list ---- */

static int do_list(const struct tune_opts *o)
{
	struct pl_tune_path p;
	pl_tune_path_default(&p, o->profile_dir);
	char **dirs;
	char **names = pl_tune_profile_list(&p, &dirs);
	json_t *arr = json_array();
	for (size_t i = 0; names[i]; i++) {
		struct pl_tune_profile *pr = NULL;
		char err[512];
		json_t *e = json_object();
		json_object_set_new(e, "name", pl_json_string(names[i]));
		json_object_set_new(e, "dir", pl_json_string(dirs[i]));
		if (pl_tune_profile_load(&p, names[i], &pr, err, sizeof(err)) == 0)
			json_object_set_new(e, "summary", pl_json_string(pr->summary));
		else
			json_object_set_new(e, "error", pl_json_string(err));
		pl_tune_profile_free(pr);
		json_array_append_new(arr, e);
	}
	pl_strv_free(names);
	pl_strv_free(dirs);
	if (pl_g.json) {
		json_t *doc = json_object();
		json_object_set_new(doc, "schema_version", json_integer(1));
		json_t *sp = json_array();
		for (size_t i = 0; i < p.n; i++)
			json_array_append_new(sp, pl_json_string(p.dirs[i]));
		json_object_set_new(doc, "search_path", sp);
		json_object_set_new(doc, "profiles", arr);
		return emit_json(doc);
	}
	struct pl_outfile out;
	int rc = open_out(&out);
	if (rc)
		return rc;
	size_t i;
	json_t *e;
	json_array_foreach(arr, i, e)
	{
		json_t *s = json_object_get(e, "summary");
		fprintf(out.fp, "%-32s %s\n", json_string_value(json_object_get(e, "name")),
			s ? json_string_value(s) : json_string_value(json_object_get(e, "error")));
	}
	json_decref(arr);
	return close_out(&out, PL_EXIT_OK);
}

/* ---- show ---- */

static json_t *opt_json(const struct pl_tune_opt *x)
{
	json_t *j = json_object();
	json_object_set_new(j, "key", pl_json_string(x->key));
	json_object_set_new(j, "value", pl_json_string(x->value));
	json_object_set_new(j, "expanded", jstr_or_null(x->expanded));
	json_object_set_new(j, "profile", pl_json_string(x->profile));
	json_object_set_new(j, "file", pl_json_string(x->file));
	json_object_set_new(j, "line", json_integer(x->line));
	return j;
}

static bool supported_plugin(const char *t)
{
	static const char *const s[] = {
		"sysctl", "vm", "cpu", "disk", "sysfs", "bootloader", NULL
	};
	for (size_t i = 0; s[i]; i++)
		if (strcmp(s[i], t) == 0)
			return true;
	return false;
}

static int do_show(const struct tune_opts *o, const char *name)
{
	struct pl_tune_profile *pr;
	int rc = load(o, name, &pr);
	if (rc)
		return rc;
	if (pl_g.json) {
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
					    json_boolean(supported_plugin(u->type)));
			json_object_set_new(ju, "enabled", json_boolean(u->enabled));
			json_object_set_new(ju, "devices", pl_json_string(u->devices));
			json_object_set_new(ju, "uname_regex", jstr_or_null(u->uname_regex));
			json_object_set_new(ju, "cpuinfo_regex", jstr_or_null(u->cpuinfo_regex));
			char *why = NULL;
			json_object_set_new(ju, "applies_here",
					    json_boolean(pl_tune_unit_applies(u, &why)));
			json_object_set_new(ju, "not_applied_reason", jstr_or_null(why));
			free(why);
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
		pl_tune_profile_free(pr);
		return emit_json(doc);
	}
	struct pl_outfile out;
	if ((rc = open_out(&out))) {
		pl_tune_profile_free(pr);
		return rc;
	}
	FILE *f = out.fp;
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
		if (!supported_plugin(u->type))
			fprintf(f, " %sunsupported plugin '%s': not applied%s", y, u->type, r);
		if (!u->enabled)
			fprintf(f, " (enabled=false)");
		char *why = NULL;
		if (!pl_tune_unit_applies(u, &why)) {
			fprintf(f, " %snot applied here: %s%s", y, why, r);
			free(why);
		}
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
	pl_tune_profile_free(pr);
	return close_out(&out, PL_EXIT_OK);
}

/* ---- diff / verify / apply output ---- */

/* Per-item verdict word. */
static const char *verdict(const struct pl_tune_item *it)
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
	json_object_set_new(j, "device", jstr_or_null(it->device));
	json_object_set_new(j, "wanted", pl_json_string(it->value));
	json_object_set_new(j, "current", jstr_or_null(it->current));
	json_object_set_new(j, "write", jstr_or_null(it->want));
	json_object_set_new(j, "target", jstr_or_null(it->target));
	json_object_set_new(j, "state", pl_json_string(verdict(it)));
	json_object_set_new(j, "reason", jstr_or_null(it->reason));
	json_object_set_new(j, "origin", pl_json_string(it->origin));
	json_object_set_new(j, "profile", pl_json_string(it->profile));
	return j;
}

static void item_label(char *buf, size_t len, const struct pl_tune_item *it)
{
	if (it->device)
		snprintf(buf, len, "%s %s [%s]", it->plugin, it->key, it->device);
	else if (it->target && strcmp(it->plugin, "sysfs") == 0)
		snprintf(buf, len, "sysfs %s", it->target);
	else
		snprintf(buf, len, "%s %s", it->plugin, it->key);
}

static void print_items(FILE *f, const struct pl_tune_plan *plan)
{
	const char *g = pl_style(f, "green"), *y = pl_style(f, "yellow"), *rd = pl_style(f, "red"),
		   *d = pl_style(f, "dim"), *r = pl_style(f, "reset");
	fprintf(f, "%-46s %-22s %-22s %s\n", "ITEM", "CURRENT", "WANTED", "STATE");
	for (size_t i = 0; i < plan->n; i++) {
		const struct pl_tune_item *it = &plan->v[i];
		char label[512];
		item_label(label, sizeof(label), it);
		const char *v = verdict(it);
		const char *col = strcmp(v, "match") == 0 ? g : strcmp(v, "differs") == 0 ? rd : y;
		char *cur = it->current ? pl_tune_value_norm(it->current) : pl_xstrdup("-");
		fprintf(f, "%-46s %-22s %-22s %s%s%s", label, cur, it->value, col, v, r);
		free(cur);
		if (it->reason)
			fprintf(f, " %s(%s)%s", d, it->reason, r);
		fprintf(f, "\n");
	}
}

struct counts {
	size_t match, differ, na, unsupported, manual, pending, refused;
};

static struct counts count(const struct pl_tune_plan *plan)
{
	struct counts c = { 0 };
	for (size_t i = 0; i < plan->n; i++) {
		const char *v = verdict(&plan->v[i]);
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
			c.refused++;
		else
			c.manual++;
	}
	return c;
}

static json_t *counts_json(struct counts c)
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

static json_t *items_doc(const char *cmd, const struct pl_tune_profile *pr,
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
	json_object_set_new(doc, "summary", counts_json(count(plan)));
	return doc;
}

static void print_summary(FILE *f, const struct pl_tune_plan *plan)
{
	struct counts c = count(plan);
	fprintf(f,
		"\n%zu match, %zu differ, %zu pending reboot, %zu manual, %zu not applicable on "
		"this "
		"machine, %zu unsupported\n",
		c.match, c.differ, c.pending, c.manual, c.na, c.unsupported);
	if (c.refused)
		fprintf(f,
			"%zu refused (outside the sysroot or a hard link): 'apply' writes nothing "
			"while an item is refused\n",
			c.refused);
}

static int do_diff(const struct tune_opts *o, const char *name, bool verify)
{
	struct pl_tune_profile *pr;
	struct pl_tune_plan plan;
	int rc = load_plan(o, name, &pr, &plan);
	if (rc)
		return rc;
	struct counts c = count(&plan);
	/* A manual item (force_latency) counts when it can be checked (live system). */
	size_t manual_bad = 0;
	for (size_t i = 0; i < plan.n; i++)
		if (plan.v[i].state == PL_TI_MANUAL && plan.v[i].current && !plan.v[i].match)
			manual_bad++;
	int ret = verify && (c.differ || c.pending || c.refused || manual_bad) ? PL_EXIT_FINDINGS
									       : PL_EXIT_OK;
	if (pl_g.json) {
		json_t *doc = items_doc(verify ? "verify" : "diff", pr, &plan);
		json_object_set_new(doc, "ok", json_boolean(ret == PL_EXIT_OK));
		pl_tune_plan_free(&plan);
		pl_tune_profile_free(pr);
		rc = emit_json(doc);
		return rc ? rc : ret;
	}
	struct pl_outfile out;
	if ((rc = open_out(&out)) == 0) {
		print_items(out.fp, &plan);
		print_summary(out.fp, &plan);
		if (verify)
			fprintf(out.fp, "%s\n",
				ret == PL_EXIT_OK ? "verify: every applicable item matches"
						  : "verify: some applicable items do not match");
		rc = close_out(&out, ret);
	}
	pl_tune_plan_free(&plan);
	pl_tune_profile_free(pr);
	return rc;
}

/* ---- apply ---- */

static int journal_open(const struct tune_opts *o, enum pl_journal_mode m, struct pl_journal **j)
{
	const char *dir = o->state_dir ? o->state_dir : PL_JOURNAL_DEFAULT_DIR;
	char why[768] = "";
	int r = pl_journal_open_why(dir, m, j, why, sizeof(why));
	if (r == 0)
		return PL_EXIT_OK;
	if (r == -EBUSY)
		pl_error("journal in '%s' is in use by another perflab (tune apply/rollback, "
			 "compare or bench clock): wait for it to finish",
			 dir);
	else if (r == -EBADMSG)
		pl_error("%s: the journal is damaged, so nothing was changed or rolled back; "
			 "inspect it by hand (only a last line without its newline, a torn append, "
			 "is ignored)",
			 why);
	else
		pl_error("cannot open the journal in '%s': %s%s", dir, strerror(-r),
			 r == -EACCES ? " (run as root, or pass --state-dir DIR)" : "");
	return r == -EBADMSG ? PL_EXIT_USAGE : PL_EXIT_RUNTIME;
}

/* Items that will be written: state APPLY with a value to write. The grub file is one
 * write for all tokens. */
static bool will_write(const struct pl_tune_item *it)
{
	return it->state == PL_TI_APPLY && it->want && it->target;
}

static bool writable(const char *target)
{
	char real[PATH_MAX];
	if (pl_tune_resolve(target, real, sizeof(real)) < 0)
		return false;
	return access(real, W_OK) == 0;
}

/* Check every item before the first write, since a profile is applied all or nothing:
 * each refused target and each value pl_tune_value_check() rejects is named with its
 * file:line (all of them, not only the first); the values to write are replaced by the
 * form that will be written. Returns the number of bad items. */
static size_t validate(struct pl_tune_plan *plan)
{
	size_t bad = 0;
	for (size_t i = 0; i < plan->n; i++) {
		struct pl_tune_item *it = &plan->v[i];
		char label[512], why[512];
		item_label(label, sizeof(label), it);
		if (it->state == PL_TI_REFUSED) {
			bool named = strstr(label, it->target) != NULL;
			pl_error("%s: profile '%s', %s%s%s%s: %s", it->origin, it->profile, label,
				 named ? "" : " (", named ? "" : it->target, named ? "" : ")",
				 it->reason);
			bad++;
			continue;
		}
		if (!will_write(it) || strcmp(it->target, PL_TUNE_GRUB_FILE) == 0)
			continue;
		char *canon;
		if (pl_tune_value_check(it->target, it->want, &canon, why, sizeof(why)) < 0) {
			pl_error("%s: profile '%s', %s: '%s' %s", it->origin, it->profile, label,
				 it->want, why);
			bad++;
			continue;
		}
		free(it->want);
		it->want = canon;
	}
	return bad;
}

struct undo_ctx {
	json_t *arr;
	FILE *f;
	int failed;
};

static void on_undo(const struct pl_journal_entry *e, int err, void *ud);

static int do_apply(const struct tune_opts *o, const char *name)
{
	struct pl_tune_profile *pr;
	struct pl_tune_plan plan;
	int rc = load_plan(o, name, &pr, &plan);
	if (rc)
		return rc;
	FILE *f = pl_g.json ? stderr : stdout;
	json_t *written = json_array();
	int ret = PL_EXIT_OK;

	size_t bad = validate(&plan);
	if (bad) {
		pl_error("nothing was applied: %zu item%s of profile '%s' cannot be written, and a "
			 "profile is applied all or nothing; fix %s and run apply again",
			 bad, bad == 1 ? "" : "s", pr->name, bad == 1 ? "it" : "them");
		pl_tune_plan_free(&plan);
		pl_tune_profile_free(pr);
		json_decref(written);
		return PL_EXIT_USAGE;
	}

	/* Without the right to write, say which items need it before changing anything. */
	size_t denied = 0;
	for (size_t i = 0; i < plan.n; i++) {
		const struct pl_tune_item *it = &plan.v[i];
		if (will_write(it) && !writable(it->target)) {
			if (!denied)
				pl_error("these items need root (or write access) and nothing was "
					 "changed:");
			char label[512];
			item_label(label, sizeof(label), it);
			fprintf(stderr, "  %s -> %s (%s)\n", label, it->want, it->target);
			denied++;
		}
	}
	if (denied && !o->dry_run) {
		pl_tune_plan_free(&plan);
		pl_tune_profile_free(pr);
		json_decref(written);
		return PL_EXIT_RUNTIME;
	}

	struct pl_journal *j = NULL;
	if (!o->dry_run && (rc = journal_open(o, PL_JOURNAL_WRITE, &j))) {
		pl_tune_plan_free(&plan);
		pl_tune_profile_free(pr);
		json_decref(written);
		return rc;
	}
	unsigned long mark = j ? pl_journal_last_step(j) : 0;
	bool grub_done = false, failed = false;
	size_t nwrites = 0;
	for (size_t i = 0; i < plan.n && !failed; i++) {
		struct pl_tune_item *it = &plan.v[i];
		if (!will_write(it))
			continue;
		bool grub = strcmp(it->target, PL_TUNE_GRUB_FILE) == 0;
		if (grub && grub_done)
			continue;
		const char *value = grub ? plan.grub_new : it->want;
		char label[512];
		item_label(label, sizeof(label), it);
		json_t *w = json_object();
		json_object_set_new(w, "target", pl_json_string(it->target));
		json_object_set_new(w, "item", pl_json_string(label));
		json_object_set_new(w, "old", jstr_or_null(it->current));
		json_object_set_new(w, "new", pl_json_string(grub ? "GRUB_CMDLINE_LINUX" : value));
		if (o->dry_run) {
			if (grub) {
				fprintf(f, "would write %s: add", it->target);
				for (size_t k = i; k < plan.n; k++)
					if (will_write(&plan.v[k]) &&
					    strcmp(plan.v[k].target, PL_TUNE_GRUB_FILE) == 0)
						fprintf(f, " %s", plan.v[k].want);
				fprintf(f, " to GRUB_CMDLINE_LINUX\n");
			} else {
				fprintf(f, "would write %-44s %s -> %s\n", label,
					it->current ? it->current : "-", value);
			}
			json_array_append_new(written, w);
			grub_done |= grub;
			continue;
		}
		/* An earlier item may already have set this target (a [sysfs] glob over the
		 * governor files, say): do not journal a write that changes nothing. */
		char *raw = NULL;
		if (!grub && pl_read_file(it->target, &raw, NULL) == 0) {
			char *now = pl_tune_value_current(raw);
			bool same = pl_tune_value_match(it->target, now, value);
			free(now);
			free(raw);
			if (same) {
				json_object_set_new(w, "status", pl_json_string("already-set"));
				json_array_append_new(written, w);
				continue;
			}
		}
		const struct pl_journal_entry *e = NULL;
		int r = pl_journal_write(j, it->target, value, pr->name, &e);
		if (r < 0) {
			pl_error("%s: %s: cannot change %s: %s", it->origin, label, it->target,
				 pl_tune_path_strerror(r));
			json_object_set_new(w, "status", pl_json_string("error"));
			json_object_set_new(w, "error", pl_json_string(pl_tune_path_strerror(r)));
			json_array_append_new(written, w);
			failed = true;
			continue;
		}
		nwrites++;
		grub_done |= grub;
		json_object_set_new(w, "step", json_integer((json_int_t)e->step));
		json_object_set_new(w, "status", pl_json_string(pl_journal_status_name(e->status)));
		json_object_set_new(w, "accepted", jstr_or_null(grub ? NULL : e->accepted));
		json_array_append_new(written, w);
		char *cur = pl_tune_value_norm(it->current ? it->current : "-");
		char *acc = pl_tune_value_norm(e->accepted ? e->accepted : "?");
		if (e->status == PL_JS_OK) {
			if (grub)
				fprintf(f, "step %lu: %s GRUB_CMDLINE_LINUX updated\n", e->step,
					it->target);
			else
				fprintf(f, "step %lu: %-44s %s -> %s\n", e->step, label, cur,
					value);
		} else {
			/* A value refused, clamped or taken in part: the profile is not what the
			 * kernel holds, so none of it stays. */
			if (e->status == PL_JS_REFUSED)
				pl_error("%s: %s: the kernel refused '%s': %s (value stays '%s')",
					 it->origin, label, value, strerror(e->error), acc);
			else
				pl_error("%s: %s: the kernel kept '%s' when '%s' was written "
					 "(clamped, "
					 "rounded or taken in part)",
					 it->origin, label, acc,
					 grub ? "GRUB_CMDLINE_LINUX" : value);
			failed = true;
		}
		free(cur);
		free(acc);
	}
	if (failed) {
		struct undo_ctx u = { .arr = json_array(), .f = f };
		int rr = pl_journal_rollback(j, mark, on_undo, &u);
		json_decref(u.arr);
		if (rr < 0)
			pl_error("nothing should stay applied, but %d of the %zu changes of this "
				 "apply "
				 "could not be rolled back: run 'perflab tune rollback'",
				 u.failed, nwrites);
		else
			pl_error("nothing was applied: the %zu change%s of this apply %s rolled "
				 "back "
				 "(a profile is applied all or nothing)",
				 nwrites, nwrites == 1 ? "" : "s", nwrites == 1 ? "was" : "were");
		ret = PL_EXIT_RUNTIME;
		grub_done = false;
	}
	for (size_t i = 0; i < plan.n && !failed; i++)
		if (plan.v[i].state == PL_TI_MANUAL && !plan.v[i].match)
			fprintf(f, "manual: %s %s: %s\n", plan.v[i].plugin, plan.v[i].key,
				plan.v[i].reason);
	if (grub_done)
		fprintf(f,
			"the kernel command line changes at the next boot: run '%s' yourself, then "
			"reboot (perflab never runs grub tools)\n",
			plan.grub_update);
	if (!o->dry_run && !failed)
		fprintf(f, "%zu change%s journaled in %s; undo with 'perflab tune rollback'\n",
			nwrites, nwrites == 1 ? "" : "s", pl_journal_path(j));
	if (pl_g.json) {
		json_t *doc = items_doc("apply", pr, &plan);
		json_object_set_new(doc, "dry_run", json_boolean(o->dry_run));
		json_object_set_new(doc, "writes", written);
		json_object_set_new(doc, "rolled_back", json_boolean(failed));
		json_object_set_new(doc, "grub_update",
				    grub_done ? pl_json_string(plan.grub_update) : json_null());
		rc = emit_json(doc);
		if (rc)
			ret = rc;
	} else {
		json_decref(written);
	}
	pl_journal_close(j);
	pl_tune_plan_free(&plan);
	pl_tune_profile_free(pr);
	return ret;
}

/* ---- journal views ---- */

static json_t *entry_json(const struct pl_journal_entry *e)
{
	json_t *j = json_object();
	json_object_set_new(j, "step", json_integer((json_int_t)e->step));
	json_object_set_new(j, "target", pl_json_string(e->target));
	json_object_set_new(j, "sysroot", pl_json_string(e->sysroot));
	bool grub = strcmp(e->target, PL_TUNE_GRUB_FILE) == 0;
	json_object_set_new(j, "old", grub ? pl_json_string("(file)") : jstr_or_null(e->old));
	json_object_set_new(j, "new",
			    grub ? pl_json_string("(file)") : pl_json_string(e->new_value));
	json_object_set_new(j, "accepted", grub ? json_null() : jstr_or_null(e->accepted));
	json_object_set_new(j, "status", pl_json_string(pl_journal_status_name(e->status)));
	json_object_set_new(j, "profile", pl_json_string(e->profile));
	json_object_set_new(j, "time", json_integer(e->time));
	json_object_set_new(j, "undone", json_boolean(e->undone));
	return j;
}

static void print_entry(FILE *f, const struct pl_journal_entry *e)
{
	bool grub = strcmp(e->target, PL_TUNE_GRUB_FILE) == 0;
	char t[32];
	fprintf(f, "%4lu  %-20s %-48s %s -> %s%s%s%s  %s\n", e->step, e->profile, e->target,
		grub	 ? "(file)"
		: e->old ? e->old
			 : "(absent)",
		grub ? "(file)" : e->new_value, e->status == PL_JS_CHANGED ? " (kernel kept " : "",
		e->status == PL_JS_CHANGED && e->accepted ? e->accepted : "",
		e->status == PL_JS_CHANGED   ? ")"
		: e->status == PL_JS_REFUSED ? " (refused)"
					     : "",
		pl_iso8601(e->time, t, sizeof(t)));
}

static int do_status(const struct tune_opts *o)
{
	struct pl_journal *j;
	int rc = journal_open(o, PL_JOURNAL_READ, &j);
	if (rc)
		return rc;
	size_t n;
	const struct pl_journal_entry *v = pl_journal_entries(j, &n);
	if (pl_g.json) {
		json_t *doc = json_object();
		json_object_set_new(doc, "schema_version", json_integer(1));
		json_object_set_new(doc, "journal", pl_json_string(pl_journal_path(j)));
		json_object_set_new(doc, "live", json_integer((json_int_t)pl_journal_live(j)));
		json_t *arr = json_array();
		for (size_t i = 0; i < n; i++)
			if (o->all || !v[i].undone)
				json_array_append_new(arr, entry_json(&v[i]));
		json_object_set_new(doc, "entries", arr);
		pl_journal_close(j);
		return emit_json(doc);
	}
	struct pl_outfile out;
	if ((rc = open_out(&out))) {
		pl_journal_close(j);
		return rc;
	}
	size_t live = pl_journal_live(j);
	if (!live)
		fprintf(out.fp, "nothing applied (journal %s)\n", pl_journal_path(j));
	else
		fprintf(out.fp,
			"%zu change%s applied (journal %s):\nSTEP  PROFILE              "
			"TARGET%42sOLD -> NEW\n",
			live, live == 1 ? "" : "s", pl_journal_path(j), "");
	for (size_t i = 0; i < n; i++)
		if (o->all || !v[i].undone) {
			if (v[i].undone)
				fprintf(out.fp, "undone ");
			print_entry(out.fp, &v[i]);
		}
	pl_journal_close(j);
	return close_out(&out, PL_EXIT_OK);
}

static void on_undo(const struct pl_journal_entry *e, int err, void *ud)
{
	struct undo_ctx *u = ud;
	json_t *x = entry_json(e);
	json_object_set_new(x, "error",
			    err ? pl_json_string(pl_tune_path_strerror(err)) : json_null());
	json_array_append_new(u->arr, x);
	bool grub = strcmp(e->target, PL_TUNE_GRUB_FILE) == 0;
	if (err) {
		u->failed++;
		fprintf(stderr, "%s: error: step %lu: cannot restore %s: %s (still journaled)\n",
			pl_progname, e->step, e->target, pl_tune_path_strerror(err));
	} else {
		fprintf(u->f, "step %lu: restored %s = %s\n", e->step, e->target,
			grub ? "(previous file)" : e->old);
	}
}

static int do_rollback(const struct tune_opts *o)
{
	struct pl_journal *j;
	const char *dir = o->state_dir ? o->state_dir : PL_JOURNAL_DEFAULT_DIR;
	/* Nothing journaled: a no-op, also without a state directory or root. */
	int rc = journal_open(o, PL_JOURNAL_READ, &j);
	if (rc)
		return rc;
	bool nothing = pl_journal_live(j) == 0;
	pl_journal_close(j);
	struct undo_ctx u = { .arr = json_array(), .f = pl_g.json ? stderr : stdout };
	int r = 0;
	if (!nothing) {
		if ((rc = journal_open(o, PL_JOURNAL_WRITE, &j))) {
			json_decref(u.arr);
			return rc;
		}
		r = pl_journal_rollback(j, o->to, on_undo, &u);
		pl_journal_close(j);
		if (r == -EXDEV) {
			pl_error("the journal in '%s' holds changes made with another --sysroot: "
				 "run "
				 "'perflab tune status' and roll back with that --sysroot",
				 dir);
			json_decref(u.arr);
			return PL_EXIT_USAGE;
		}
	}
	if (json_array_size(u.arr) == 0)
		fprintf(u.f, "nothing to roll back\n");
	if (pl_g.json) {
		json_t *doc = json_object();
		json_object_set_new(doc, "schema_version", json_integer(1));
		json_object_set_new(doc, "journal", pl_json_string(dir));
		json_object_set_new(doc, "live", json_integer(0));
		json_object_set_new(doc, "entries", u.arr);
		rc = emit_json(doc);
		if (rc)
			return rc;
	} else {
		json_decref(u.arr);
	}
	return r < 0 ? PL_EXIT_RUNTIME : PL_EXIT_OK;
}

static void hold_ready(int usec)
{
	fprintf(stderr,
		"holding /dev/cpu_dma_latency at %d us (CPUs avoid deeper idle states); Ctrl-C "
		"to release\n",
		usec);
}

static int do_hold(const char *arg)
{
	int64_t us;
	if (pl_parse_i64(arg, &us) < 0 || us < 0 || us > INT32_MAX) {
		pl_error("hold-latency '%s': give the limit in microseconds (e.g. 0, 2, 100)", arg);
		return PL_EXIT_USAGE;
	}
	int r = pl_tune_hold_latency((int)us, hold_ready);
	if (r == -EXDEV) {
		pl_error("hold-latency works on the live system only (not with --sysroot)");
		return PL_EXIT_USAGE;
	}
	if (r < 0) {
		pl_error("cannot hold /dev/cpu_dma_latency: %s%s", strerror(-r),
			 r == -EACCES ? " (run as root)" : "");
		return PL_EXIT_RUNTIME;
	}
	return PL_EXIT_OK;
}

int cmd_tune(int argc, char **argv)
{
	struct tune_opts o = { 0 };
	struct pl_args args;
	int rc = pl_cmd_parse(argc, argv, &info, tune_opts, &o, &args);
	if (rc >= 0)
		return rc;
	static const struct {
		const char *name;
		int nargs; /* 1: needs NAME/USEC */
	} subs[] = { { "list", 0 },   { "show", 1 },	 { "diff", 1 },	  { "apply", 1 },
		     { "verify", 1 }, { "rollback", 0 }, { "status", 0 }, { "hold-latency", 1 } };
	int which = -1;
	if (args.npos >= 1)
		for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
			if (strcmp(args.pos[0], subs[i].name) == 0)
				which = (int)i;
	if (which < 0) {
		pl_error("%s '%s' (use list, show, diff, apply, verify, rollback, status or "
			 "hold-latency; see 'perflab tune --help')",
			 args.npos ? "unknown subcommand" : "missing subcommand",
			 args.npos ? args.pos[0] : "");
		pl_args_free(&args);
		return PL_EXIT_USAGE;
	}
	if (args.npos != 1 + subs[which].nargs) {
		pl_error("'tune %s' takes %s (see 'perflab tune --help')", subs[which].name,
			 subs[which].nargs ? "one argument" : "no argument");
		pl_args_free(&args);
		return PL_EXIT_USAGE;
	}
	const char *sub = subs[which].name, *arg = args.npos > 1 ? args.pos[1] : NULL;
	if (arg && which != 7 && !pl_tune_name_ok(arg)) {
		pl_error("'%s' is not a profile name (letters, digits, '_', '.', '-'; no '/' or "
			 "'..')",
			 arg);
		pl_args_free(&args);
		return PL_EXIT_USAGE;
	}
	if (strcmp(sub, "list") == 0)
		rc = do_list(&o);
	else if (strcmp(sub, "show") == 0)
		rc = do_show(&o, arg);
	else if (strcmp(sub, "diff") == 0)
		rc = do_diff(&o, arg, false);
	else if (strcmp(sub, "verify") == 0)
		rc = do_diff(&o, arg, true);
	else if (strcmp(sub, "apply") == 0)
		rc = do_apply(&o, arg);
	else if (strcmp(sub, "rollback") == 0)
		rc = do_rollback(&o);
	else if (strcmp(sub, "status") == 0)
		rc = do_status(&o);
	else
		rc = do_hold(arg);
	pl_args_free(&args);
	return rc;
}
