/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The tune subcommands' work (tune/actions.h).
 *
 * Above 800 lines on purpose: list, show, diff, apply, status and rollback share the
 * profile loading, the plan, the journal opening and the -o handling at the top; apply's
 * checks, progress and undo callbacks are half of the file. */
#include "tune/actions.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/json.h"
#include "tune/apply.h"
#include "tune/journal.h"
#include "tune/persist.h"
#include "tune/plan.h"
#include "tune/profile.h"
#include "tune/safepath.h"
#include "tune/value.h"
#include "tune/output.h"
#include "util/beneath.h"
#include "util/clock.h"
#include "util/cleanup.h"
#include "util/cpuset.h"
#include "util/escape.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/str.h"
#include "util/sysroot.h"

PL_DEFINE_CLEANUP(json_t, tune_json_decref, json_decref)
#define tune_autojson __attribute__((cleanup(tune_json_decrefp)))

/* A plan on the stack, freed at scope exit. */
static inline void tune_plan_freep(struct pl_tune_plan *p)
{
	pl_tune_plan_free(p);
}
#define tune_autoplan __attribute__((cleanup(tune_plan_freep)))

/* ---- output ---- */

/* Write @doc (the caller keeps its reference) to -o or stdout. */
static int emit_json(const struct pl_tune_req *q, const json_t *doc)
{
	int r = pl_json_write_path(q->output, doc);
	if (r < 0) {
		char m[512];
		pl_error("%s", pl_outfile_strerror(m, sizeof(m), q->output, r));
		return PL_EXIT_RUNTIME;
	}
	return PL_EXIT_OK;
}

static int open_out(const struct pl_tune_req *q, struct pl_outfile *out)
{
	int r = pl_outfile_open(out, q->output);
	if (r < 0) {
		char m[512];
		pl_error("%s", pl_outfile_strerror(m, sizeof(m), q->output, r));
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

static int load(const struct pl_tune_req *q, const char *name, struct pl_tune_profile **pr)
{
	struct pl_tune_path p;
	char err[1024];
	pl_tune_path_default(&p, q->profile_dir);
	if (pl_tune_profile_load(&p, name, pr, err, sizeof(err)) < 0) {
		pl_error("%s", err);
		return PL_EXIT_USAGE;
	}
	return PL_EXIT_OK;
}

/* Load profile @name and build its plan; on success the caller owns both. */
static int load_plan(const struct pl_tune_req *q, const char *name, struct pl_tune_profile **pr,
		     struct pl_tune_plan *plan)
{
	int rc = load(q, name, pr);
	if (rc != PL_EXIT_OK)
		return rc;
	/* What the loader noticed (a variable used before its definition, a function it
	 * cannot run, ...) is said before the items, not only in `tune show`. */
	for (size_t i = 0; (*pr)->notes[i]; i++)
		pl_warn("%s", (*pr)->notes[i]);
	char err[1024];
	if (pl_tune_plan_build(*pr, plan, err, sizeof(err)) < 0) {
		pl_error("%s", err);
		pl_tune_plan_free(plan);
		pl_tune_profile_free(*pr);
		*pr = NULL;
		return PL_EXIT_USAGE;
	}
	return PL_EXIT_OK;
}

/* The parents of the default journal directory inside the sysroot (ROOT/var/lib),
 * created beneath ROOT (a symlink on the way is refused, not followed out of it). */
static int sysroot_state_parents(void)
{
	pl_autoclose int root = open(pl_sysroot(), O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return -errno;
	int fd = pl_beneath_mkdirs(root, "var/lib", 0755);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

static int journal_open(const struct pl_tune_req *q, enum pl_journal_mode m, struct pl_journal **j)
{
	const char *dir = q->state_dir ? q->state_dir : PL_JOURNAL_DEFAULT_DIR;
	char why[768] = "";
	int r = m == PL_JOURNAL_WRITE && q->state_in_sysroot ? sysroot_state_parents() : 0;
	if (r == 0)
		r = pl_journal_open_why(dir, m, j, why, sizeof(why));
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

/* ---- list, show ---- */

int pl_tune_do_list(const struct pl_tune_req *q)
{
	struct pl_tune_path p;
	pl_tune_path_default(&p, q->profile_dir);
	char **dirs;
	char **names = pl_tune_profile_list(&p, &dirs);
	tune_autojson json_t *arr = json_array();
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
	if (q->json) {
		tune_autojson json_t *doc = json_object();
		json_object_set_new(doc, "schema_version", json_integer(1));
		json_t *sp = json_array();
		for (size_t i = 0; i < p.n; i++)
			json_array_append_new(sp, pl_json_string(p.dirs[i]));
		json_object_set_new(doc, "search_path", sp);
		json_object_set(doc, "profiles", arr);
		return emit_json(q, doc);
	}
	struct pl_outfile out;
	int rc = open_out(q, &out);
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
	return close_out(&out, PL_EXIT_OK);
}

int pl_tune_do_show(const struct pl_tune_req *q, const char *name)
{
	__attribute__((cleanup(pl_tune_profile_freep))) struct pl_tune_profile *pr = NULL;
	int rc = load(q, name, &pr);
	if (rc)
		return rc;
	if (q->json) {
		tune_autojson json_t *doc = pl_tune_show_doc(pr);
		return emit_json(q, doc);
	}
	struct pl_outfile out;
	if ((rc = open_out(q, &out)))
		return rc;
	pl_tune_show_text(out.fp, pr);
	return close_out(&out, PL_EXIT_OK);
}

/* ---- diff, verify ---- */

/* Items that will be written: state APPLY with a value to write. The grub file is one
 * write for all tokens. */
static bool will_write(const struct pl_tune_item *it)
{
	return it->state == PL_TI_APPLY && it->want && it->target;
}

static bool is_grub(const char *target)
{
	return strcmp(target, PL_TUNE_GRUB_FILE) == 0;
}

static bool writable(const char *target)
{
	char real[PATH_MAX];
	if (pl_tune_resolve(target, real, sizeof(real)) < 0)
		return false;
	return access(real, W_OK) == 0;
}

/* Check every item before the first write, since a profile is applied all or nothing:
 * with @report, each refused target and each value pl_tune_value_check() rejects is
 * named with its file:line (all of them, not only the first) and the values to write
 * are replaced by the form that will be written. A rejected value makes its item
 * REFUSED (bad_value, reason "refused: WHY"), so diff and verify show what apply would
 * refuse. Returns the number of bad items. */
static size_t validate(struct pl_tune_plan *plan, bool report)
{
	size_t bad = 0;
	for (size_t i = 0; i < plan->n; i++) {
		struct pl_tune_item *it = &plan->v[i];
		char label[512], why[512];
		pl_tune_item_label(label, sizeof(label), it);
		if (it->state == PL_TI_REFUSED) {
			bool named = strstr(label, it->target) != NULL;
			if (report)
				pl_error("%s: profile '%s', %s%s%s%s: %s", it->origin, it->profile,
					 label, named ? "" : " (", named ? "" : it->target,
					 named ? "" : ")", it->reason);
			bad++;
			continue;
		}
		if (!will_write(it) || is_grub(it->target))
			continue;
		char *canon;
		if (pl_tune_value_check(it->target, it->want, &canon, why, sizeof(why)) < 0) {
			if (report)
				pl_error("%s: profile '%s', %s: '%s' %s", it->origin, it->profile,
					 label, it->want, why);
			it->state = PL_TI_REFUSED;
			it->bad_value = true;
			free(it->reason);
			it->reason = pl_xasprintf("refused: '%s' %s", it->want, why);
			bad++;
			continue;
		}
		if (!report) { /* diff and verify show the value as the profile has it */
			free(canon);
			continue;
		}
		free(it->want);
		it->want = canon;
	}
	return bad;
}

int pl_tune_do_diff(const struct pl_tune_req *q, const char *name, bool verify)
{
	__attribute__((cleanup(pl_tune_profile_freep))) struct pl_tune_profile *pr = NULL;
	tune_autoplan struct pl_tune_plan plan = { 0 };
	int rc = load_plan(q, name, &pr, &plan);
	if (rc)
		return rc;
	validate(&plan, false);
	struct pl_tune_counts c = pl_tune_count(&plan);
	/* A manual item (force_latency) counts when it can be checked (live system). */
	size_t manual_bad = 0;
	for (size_t i = 0; i < plan.n; i++)
		if (plan.v[i].state == PL_TI_MANUAL && plan.v[i].current && !plan.v[i].match)
			manual_bad++;
	int ret = verify && (c.differ || c.pending || c.refused || manual_bad) ? PL_EXIT_FINDINGS
									       : PL_EXIT_OK;
	if (q->json) {
		tune_autojson json_t *doc =
			pl_tune_items_doc(verify ? "verify" : "diff", pr, &plan);
		json_object_set_new(doc, "ok", json_boolean(ret == PL_EXIT_OK));
		rc = emit_json(q, doc);
		return rc ? rc : ret;
	}
	struct pl_outfile out;
	if ((rc = open_out(q, &out)))
		return rc;
	pl_tune_print_items(out.fp, &plan);
	pl_tune_print_summary(out.fp, &plan);
	if (verify)
		fprintf(out.fp, "%s\n",
			ret == PL_EXIT_OK ? "verify: every applicable item matches"
					  : "verify: some applicable items do not match");
	return close_out(&out, ret);
}

/* ---- apply ---- */

/* Without the right to write, say which items need it. Returns their number. */
static size_t check_access(const struct pl_tune_plan *plan)
{
	size_t denied = 0;
	for (size_t i = 0; i < plan->n; i++) {
		const struct pl_tune_item *it = &plan->v[i];
		if (will_write(it) && !writable(it->target)) {
			if (!denied)
				pl_error("these items need root (or write access) and nothing was "
					 "changed:");
			char label[512];
			pl_tune_item_label(label, sizeof(label), it);
			fprintf(stderr, "  %s -> %s (%s)\n", label, it->want, it->target);
			denied++;
		}
	}
	return denied;
}

/* What a rollback restored, for its messages and the rollback document. */
struct undo_ctx {
	json_t *arr; /* entries restored or not, with "error" */
	FILE *f;     /* progress lines */
	int failed;  /* entries that could not be restored */
};

static void on_undo(const struct pl_journal_entry *e, int err, void *ud)
{
	struct undo_ctx *u = ud;
	json_t *x = pl_tune_entry_json(e);
	json_object_set_new(x, "error",
			    err ? pl_json_string(pl_tune_path_strerror(err)) : json_null());
	json_array_append_new(u->arr, x);
	if (err) {
		u->failed++;
		fprintf(stderr, "%s: error: step %lu: cannot restore %s: %s (still journaled)\n",
			pl_progname, e->step, e->target, pl_tune_path_strerror(err));
	} else {
		fprintf(u->f, "step %lu: restored %s = %s\n", e->step, e->target,
			is_grub(e->target) ? "(previous file)"
			: e->persist	   ? "(not persistent)"
			: e->old	   ? e->old
					   : "(absent)");
	}
}

/* A profile's writes as the driver's settings: one per item to write, and one for all
 * grub tokens (the whole new file, at the first grub item). */
struct apply_ctx {
	const struct pl_tune_plan *plan;
	struct pl_tune_setting *set;
	size_t *item; /* set[i] is for plan->v[item[i]] */
	size_t n;
	bool grub; /* one of the settings is the grub file */
	FILE *f;   /* progress lines */
	json_t *written;
	struct undo_ctx undo;
	/* The progress line being gathered: settings making the same change on several
	 * CPUs in consecutive steps are one line (pl_tune_item_same_change). */
	size_t pend_n;			/* settings in it, 0: none */
	size_t pend_i;			/* the first one */
	unsigned long pend_s0, pend_s1; /* its first and last steps */
	struct pl_cpuset pend_cpus;
};

/* Print the gathered progress line, if any. */
static void flush_progress(struct apply_ctx *c)
{
	if (!c->pend_n)
		return;
	const struct pl_tune_item *it = &c->plan->v[c->item[c->pend_i]];
	char label[600];
	pl_tune_item_label_cpus(label, sizeof(label), it, &c->pend_cpus);
	pl_autofree char *cur = pl_tune_value_norm(it->current ? it->current : "-");
	if (c->pend_n > 1)
		fprintf(c->f, "steps %lu-%lu: %-44s %s -> %s\n", c->pend_s0, c->pend_s1, label, cur,
			c->set[c->pend_i].value);
	else
		fprintf(c->f, "step %lu: %-44s %s -> %s\n", c->pend_s0, label, cur,
			c->set[c->pend_i].value);
	c->pend_n = 0;
}

/* Setting @i written as step @step: joins the gathered line or starts a new one. */
static void gather_progress(struct apply_ctx *c, size_t i, unsigned long step)
{
	const struct pl_tune_item *it = &c->plan->v[c->item[i]];
	if (c->pend_n && step == c->pend_s1 + 1 &&
	    pl_tune_item_same_change(&c->plan->v[c->item[c->pend_i]], it)) {
		pl_cpuset_set(&c->pend_cpus, (unsigned)pl_tune_item_cpu(it));
		c->pend_s1 = step;
		c->pend_n++;
		return;
	}
	flush_progress(c);
	c->pend_n = 1;
	c->pend_i = i;
	c->pend_s0 = c->pend_s1 = step;
	pl_cpuset_clear(&c->pend_cpus);
	if (pl_tune_item_cpu(it) >= 0)
		pl_cpuset_set(&c->pend_cpus, (unsigned)pl_tune_item_cpu(it));
}

static void apply_ctx_free(struct apply_ctx *c)
{
	free(c->set);
	free(c->item);
	json_decref(c->written);
	json_decref(c->undo.arr);
}

static void settings_of(struct apply_ctx *c)
{
	const struct pl_tune_plan *plan = c->plan;
	c->set = pl_xcalloc(plan->n + 1, sizeof(*c->set));
	c->item = pl_xcalloc(plan->n + 1, sizeof(*c->item));
	for (size_t i = 0; i < plan->n; i++) {
		const struct pl_tune_item *it = &plan->v[i];
		if (!will_write(it))
			continue;
		bool grub = is_grub(it->target);
		if (grub && c->grub)
			continue;
		c->grub |= grub;
		c->set[c->n] =
			(struct pl_tune_setting){ it->target, grub ? plan->grub_new : it->want };
		c->item[c->n++] = i;
	}
}

/* The "writes" entry of setting @i, before its result. */
static json_t *write_json(const struct apply_ctx *c, size_t i, const char *label)
{
	const struct pl_tune_item *it = &c->plan->v[c->item[i]];
	json_t *w = json_object();
	json_object_set_new(w, "target", pl_json_string(it->target));
	json_object_set_new(w, "item", pl_json_string(label));
	json_object_set_new(w, "old", pl_json_string(it->current));
	json_object_set_new(
		w, "new",
		pl_json_string(is_grub(it->target) ? "GRUB_CMDLINE_LINUX" : c->set[i].value));
	return w;
}

static void print_dry_run(struct apply_ctx *c)
{
	const struct pl_tune_plan *plan = c->plan;
	for (size_t i = 0; i < c->n; i++) {
		const struct pl_tune_item *it = &plan->v[c->item[i]];
		char label[600];
		pl_tune_item_label(label, sizeof(label), it);
		size_t j = i + 1;
		if (!is_grub(it->target) && pl_tune_item_cpu(it) >= 0) {
			struct pl_cpuset cpus;
			pl_cpuset_clear(&cpus);
			pl_cpuset_set(&cpus, (unsigned)pl_tune_item_cpu(it));
			for (; j < c->n && pl_tune_item_same_change(it, &plan->v[c->item[j]]); j++)
				pl_cpuset_set(&cpus,
					      (unsigned)pl_tune_item_cpu(&plan->v[c->item[j]]));
			pl_tune_item_label_cpus(label, sizeof(label), it, &cpus);
		}
		if (is_grub(it->target)) {
			fprintf(c->f, "would write %s: add", it->target);
			for (size_t k = c->item[i]; k < plan->n; k++)
				if (will_write(&plan->v[k]) && is_grub(plan->v[k].target))
					fprintf(c->f, " %s", plan->v[k].want);
			fprintf(c->f, " to GRUB_CMDLINE_LINUX\n");
		} else {
			fprintf(c->f, "would write %-44s %s -> %s\n", label,
				it->current ? it->current : "-", c->set[i].value);
		}
		for (size_t k = i; k < j; k++) {
			char one[512];
			pl_tune_item_label(one, sizeof(one), &plan->v[c->item[k]]);
			json_array_append_new(c->written, write_json(c, k, one));
		}
		i = j - 1;
	}
}

/* The driver's report on setting @i: the progress line or the error, and its entry. */
static void on_result(size_t i, const struct pl_tune_result *res, void *ud)
{
	struct apply_ctx *c = ud;
	const struct pl_tune_item *it = &c->plan->v[c->item[i]];
	const char *value = c->set[i].value;
	bool grub = is_grub(it->target);
	char label[512];
	pl_tune_item_label(label, sizeof(label), it);
	json_t *w = write_json(c, i, label);
	json_array_append_new(c->written, w);
	if (res->outcome == PL_TUNE_SAME) {
		json_object_set_new(w, "status", pl_json_string("already-set"));
		return;
	}
	if (res->outcome != PL_TUNE_SET || grub)
		flush_progress(c);
	if (res->outcome == PL_TUNE_FAILED) {
		pl_error("%s: %s: cannot change %s: %s", it->origin, label, it->target,
			 pl_tune_path_strerror(res->error));
		json_object_set_new(w, "status", pl_json_string("error"));
		json_object_set_new(w, "error", pl_json_string(pl_tune_path_strerror(res->error)));
		return;
	}
	enum pl_journal_status st = res->outcome == PL_TUNE_SET	   ? PL_JS_OK
				    : res->outcome == PL_TUNE_KEPT ? PL_JS_CHANGED
								   : PL_JS_REFUSED;
	json_object_set_new(w, "step", json_integer((json_int_t)res->step));
	json_object_set_new(w, "status", pl_json_string(pl_journal_status_name(st)));
	json_object_set_new(w, "accepted", pl_json_string(grub ? NULL : res->accepted));
	pl_autofree char *acc = pl_tune_value_norm(res->accepted ? res->accepted : "?");
	if (res->outcome == PL_TUNE_SET) {
		if (grub)
			fprintf(c->f, "step %lu: %s GRUB_CMDLINE_LINUX updated\n", res->step,
				it->target);
		else
			gather_progress(c, i, res->step);
	} else if (res->outcome == PL_TUNE_REFUSED) {
		/* A value refused, clamped or taken in part: the profile is not what the
		 * kernel holds, so none of it stays. */
		pl_error("%s: %s: the kernel refused '%s': %s (value stays '%s')", it->origin,
			 label, value, strerror(-res->error), acc);
	} else {
		pl_error("%s: %s: the kernel kept '%s' when '%s' was written (clamped, rounded or "
			 "taken in part)",
			 it->origin, label, acc, grub ? "GRUB_CMDLINE_LINUX" : value);
	}
}

/* A rollback after a failed apply reports like `tune rollback`. */
static void apply_on_undo(const struct pl_journal_entry *e, int err, void *ud)
{
	flush_progress(ud);
	on_undo(e, err, &((struct apply_ctx *)ud)->undo);
}

/* Write the settings of @c through journal @j tagged @who; *nwrites gets the number of
 * changes journaled. Returns true when all stayed, false after a rollback. */
static bool apply_settings(struct apply_ctx *c, struct pl_journal *j, const char *who,
			   size_t *nwrites)
{
	struct pl_tune_apply a = { .j = j,
				   .who = who,
				   .skip_same = true,
				   .on_result = on_result,
				   .on_undo = apply_on_undo,
				   .ud = c };
	pl_autofree struct pl_tune_result *res = pl_xcalloc(c->n + 1, sizeof(*res));
	c->undo.arr = json_array();
	bool ok = pl_tune_apply_run(&a, c->set, c->n, res) == 0;
	flush_progress(c);
	pl_tune_results_free(res, c->n);
	*nwrites = a.nwrites;
	if (ok)
		return true;
	if (a.rollback_error < 0)
		pl_error("nothing should stay applied, but %d of the %zu changes of this apply "
			 "could "
			 "not be rolled back: run 'perflab tune rollback'",
			 c->undo.failed, a.nwrites);
	else
		pl_error("nothing was applied: the %zu change%s of this apply %s rolled back (a "
			 "profile is applied all or nothing)",
			 a.nwrites, a.nwrites == 1 ? "" : "s", a.nwrites == 1 ? "was" : "were");
	return false;
}

static int do_apply(const struct pl_tune_req *q, const char *name);

/* --persist's checks before the first write (a profile is applied all or nothing, so a
 * unit that could not be written must not leave its values applied): the binary in @exe
 * (@len bytes, read from /proc/self/exe), the state directory and profile name as unit
 * words, the unit's place in the sysroot (tune/persist.h). PL_EXIT_OK, or the exit code
 * after one error line. */
static int persist_ready(const struct pl_tune_req *q, const char *name, char *exe, size_t len)
{
	ssize_t el = readlink("/proc/self/exe", exe, len - 1);
	if (el <= 0) {
		pl_error("--persist: cannot read /proc/self/exe (the binary the unit would run): "
			 "%s; nothing was written",
			 strerror(errno));
		return PL_EXIT_RUNTIME;
	}
	exe[el] = '\0';
	const char *dir = q->state_dir ? q->state_dir : PL_JOURNAL_DEFAULT_DIR, *what = NULL;
	int r = pl_persist_prepare(dir, name, exe, &what);
	if (r == 0)
		return PL_EXIT_OK;
	pl_autofree char *w = pl_str_escape(what ? what : "", PL_ESC_TERM);
	if (r == -ENOEXEC)
		pl_error("--persist: the perflab binary '%s' was replaced or removed since it "
			 "started, so no unit can run it at boot: run the installed perflab "
			 "again; nothing was written",
			 w);
	else if (r == -EINVAL)
		pl_error("--persist: '%s' holds a control character, which a unit's ExecStart= "
			 "cannot carry: give another --state-dir; nothing was written",
			 w);
	else if (r == -EEXIST)
		pl_error("--persist: %s exists (roll back first with 'perflab tune rollback', or "
			 "remove that unit and its enable link); nothing was written",
			 PL_PERSIST_UNIT);
	else
		pl_error("--persist: cannot reach %s below the sysroot without following a "
			 "symlink: %s; nothing was written",
			 PL_PERSIST_UNIT, r == -ELOOP ? "a symlink is on the way" : strerror(-r));
	return r == -EACCES || r == -EPERM || r == -EIO ? PL_EXIT_RUNTIME : PL_EXIT_USAGE;
}

int pl_tune_do_apply(const struct pl_tune_req *q, const char *name)
{
	char why[PATH_MAX];
	if (q->persist && pl_persist_check(why, sizeof(why)) < 0) {
		pl_error("--persist needs systemd, and '%s' is not a directory (no systemd "
			 "here): nothing was written; apply without --persist",
			 why);
		return PL_EXIT_USAGE;
	}
	int rc = do_apply(q, name);
	if (q->boot) {
		const char *dir = q->state_dir ? q->state_dir : PL_JOURNAL_DEFAULT_DIR;
		int r = pl_persist_boot_record(dir, name, rc);
		if (rc)
			pl_error("boot-time apply of persisted profile '%s' failed (exit %d): the "
				 "machine was left as it was; see 'perflab tune status'",
				 name, rc);
		if (r < 0)
			pl_error("cannot record the boot-time outcome in '%s': %s", dir,
				 strerror(-r));
	}
	return rc;
}

static int do_apply(const struct pl_tune_req *q, const char *name)
{
	__attribute__((cleanup(pl_tune_profile_freep))) struct pl_tune_profile *pr = NULL;
	tune_autoplan struct pl_tune_plan plan = { 0 };
	int rc = load_plan(q, name, &pr, &plan);
	if (rc)
		return rc;
	char cwhy[PATH_MAX];
	if (q->persist && pl_persist_chain_check(pr, cwhy, sizeof(cwhy)) < 0) {
		pl_error(
			"--persist: profile '%s' reads %s, which the boot-time apply would not "
			"find (it reads a copy of %s and the bundled, /etc/tuned and "
			"/usr/lib/tuned profiles): copy that profile into /etc/tuned, then persist "
			"again; nothing was written",
			pr->name, cwhy, pr->file);
		return PL_EXIT_USAGE;
	}
	char exe[PATH_MAX] = "";
	if (q->persist && (rc = persist_ready(q, pr->name, exe, sizeof(exe))))
		return rc;
	size_t bad = validate(&plan, true);
	if (bad) {
		pl_error("nothing was applied: %zu item%s of profile '%s' cannot be written, and a "
			 "profile is applied all or nothing; fix %s and run apply again",
			 bad, bad == 1 ? "" : "s", pr->name, bad == 1 ? "it" : "them");
		return PL_EXIT_USAGE;
	}
	/* Without the right to write, say which items need it before changing anything. */
	if (check_access(&plan) && !q->dry_run)
		return PL_EXIT_RUNTIME;

	__attribute__((cleanup(pl_journal_closep))) struct pl_journal *j = NULL;
	if (!q->dry_run && (rc = journal_open(q, PL_JOURNAL_WRITE, &j)))
		return rc;
	__attribute__((cleanup(apply_ctx_free))) struct apply_ctx c = {
		.plan = &plan,
		.f = q->json ? stderr : stdout,
		.written = json_array(),
		.undo = { .f = q->json ? stderr : stdout },
	};
	settings_of(&c);
	bool failed = false;
	size_t nwrites = 0;
	if (q->dry_run)
		print_dry_run(&c);
	else
		failed = !apply_settings(&c, j, pr->name, &nwrites);
	int ret = failed ? PL_EXIT_RUNTIME : PL_EXIT_OK;
	bool grub_done = c.grub && !failed;
	for (size_t i = 0; i < plan.n && !failed; i++)
		if (plan.v[i].state == PL_TI_MANUAL && !plan.v[i].match)
			fprintf(c.f, "manual: %s %s: %s\n", plan.v[i].plugin, plan.v[i].key,
				plan.v[i].reason);
	if (grub_done)
		fprintf(c.f,
			"the kernel command line changes at the next boot: run '%s' yourself, then "
			"reboot (perflab never runs grub tools)\n",
			plan.grub_update);
	if (!q->dry_run && !failed)
		fprintf(c.f, "%zu change%s journaled in %s; undo with 'perflab tune rollback'\n",
			nwrites, nwrites == 1 ? "" : "s", pl_journal_path(j));
	if (q->persist && !q->dry_run && !failed) {
		const char *dir = q->state_dir ? q->state_dir : PL_JOURNAL_DEFAULT_DIR;
		int r = pl_persist_write(j, dir, pr->name, pr->file, exe);
		if (r < 0) {
			pl_error("cannot persist profile '%s': %s%s (the profile stays applied "
				 "until reboot; 'perflab tune rollback' undoes it)",
				 pr->name, strerror(-r),
				 r == -EEXIST ? ": " PL_PERSIST_UNIT " exists (roll back first)"
					      : "");
			ret = PL_EXIT_RUNTIME;
		} else {
			fprintf(c.f,
				"persistent: %s enabled in sysinit.target applies '%s' at every "
				"boot%s\n",
				PL_PERSIST_UNIT, pr->name,
				grub_done ? "; the kernel command line takes effect at next boot "
					    "after the grub update above"
					  : "");
		}
	}
	if (q->json) {
		tune_autojson json_t *doc = pl_tune_items_doc("apply", pr, &plan);
		json_object_set_new(doc, "dry_run", json_boolean(q->dry_run));
		json_object_set(doc, "writes", c.written);
		json_object_set_new(doc, "rolled_back", json_boolean(failed));
		json_object_set_new(doc, "grub_update",
				    grub_done ? pl_json_string(plan.grub_update) : json_null());
		rc = emit_json(q, doc);
		if (rc)
			ret = rc;
	}
	return ret;
}

/* ---- status, rollback ---- */

static bool persistent(const struct pl_journal_entry *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].persist && !v[i].undone)
			return true;
	return false;
}

/* The last boot-time apply (tune/persist.h) as {profile, ok, time}, or null. */
static json_t *boot_json(const struct pl_tune_req *q)
{
	pl_autofree char *p = NULL;
	bool ok;
	long long t;
	if (pl_persist_boot_read(q->state_dir ? q->state_dir : PL_JOURNAL_DEFAULT_DIR, &p, &ok,
				 &t) < 0)
		return json_null();
	json_t *o = json_object();
	json_object_set_new(o, "profile", pl_json_string(p));
	json_object_set_new(o, "ok", json_boolean(ok));
	json_object_set_new(o, "time", json_integer(t));
	return o;
}

static void print_boot(const struct pl_tune_req *q, FILE *f)
{
	pl_autofree char *p = NULL;
	bool ok;
	long long t;
	char ts[32];
	if (pl_persist_boot_read(q->state_dir ? q->state_dir : PL_JOURNAL_DEFAULT_DIR, &p, &ok,
				 &t) == 0)
		fprintf(f, "last boot-time apply of '%s' %s (%s)\n", p,
			ok ? "succeeded"
			   : "FAILED: the machine was left as it was (see journalctl -u "
			     "perflab-tune)",
			pl_iso8601(t, ts, sizeof(ts)));
}

int pl_tune_do_status(const struct pl_tune_req *q)
{
	__attribute__((cleanup(pl_journal_closep))) struct pl_journal *j = NULL;
	int rc = journal_open(q, PL_JOURNAL_READ, &j);
	if (rc)
		return rc;
	size_t n;
	const struct pl_journal_entry *v = pl_journal_entries(j, &n);
	if (q->json) {
		tune_autojson json_t *doc = json_object();
		json_object_set_new(doc, "schema_version", json_integer(1));
		json_object_set_new(doc, "journal", pl_json_string(pl_journal_path(j)));
		json_object_set_new(doc, "live", json_integer((json_int_t)pl_journal_live(j)));
		json_t *arr = json_array();
		for (size_t i = 0; i < n; i++)
			if (q->all || !v[i].undone)
				json_array_append_new(arr, pl_tune_entry_json(&v[i]));
		json_object_set_new(doc, "entries", arr);
		json_object_set_new(doc, "persistent", json_boolean(persistent(v, n)));
		json_object_set_new(doc, "last_boot", boot_json(q));
		return emit_json(q, doc);
	}
	struct pl_outfile out;
	if ((rc = open_out(q, &out)))
		return rc;
	size_t live = pl_journal_live(j);
	if (!live)
		fprintf(out.fp, "nothing applied (journal %s)\n", pl_journal_path(j));
	else
		fprintf(out.fp, "%zu change%s applied (journal %s):\n", live, live == 1 ? "" : "s",
			pl_journal_path(j));
	pl_tune_print_entries(out.fp, v, n, q->all);
	for (size_t i = 0; i < n; i++)
		if (v[i].persist && !v[i].undone)
			fprintf(out.fp,
				"persistent: '%s' at every boot (%s, enabled by %s, copy %s)\n",
				v[i].profile, v[i].target, v[i].new_value, v[i].copy);
	print_boot(q, out.fp);
	return close_out(&out, PL_EXIT_OK);
}

int pl_tune_do_rollback(const struct pl_tune_req *q)
{
	const char *dir = q->state_dir ? q->state_dir : PL_JOURNAL_DEFAULT_DIR;
	/* Nothing journaled: a no-op, also without a state directory or root. */
	__attribute__((cleanup(pl_journal_closep))) struct pl_journal *j = NULL;
	int rc = journal_open(q, PL_JOURNAL_READ, &j);
	if (rc)
		return rc;
	bool nothing = pl_journal_live(j) == 0;
	pl_journal_close(pl_steal_ptr(&j));
	tune_autojson json_t *arr = json_array();
	struct undo_ctx u = { .arr = arr, .f = q->json ? stderr : stdout };
	int r = 0;
	if (!nothing) {
		if ((rc = journal_open(q, PL_JOURNAL_WRITE, &j)))
			return rc;
		/* The driver's restore, with the mark at --to. */
		struct pl_tune_apply a = {
			.j = j, .on_undo = on_undo, .ud = &u, .mark = q->to, .active = true
		};
		r = pl_tune_apply_restore(&a);
		pl_journal_close(pl_steal_ptr(&j));
		if (r == -EXDEV) {
			pl_error("the journal in '%s' holds changes made with another --sysroot: "
				 "run "
				 "'perflab tune status' and roll back with that --sysroot",
				 dir);
			return PL_EXIT_USAGE;
		}
	}
	if (json_array_size(arr) == 0)
		fprintf(u.f, "nothing to roll back\n");
	if (q->json) {
		tune_autojson json_t *doc = json_object();
		json_object_set_new(doc, "schema_version", json_integer(1));
		json_object_set_new(doc, "journal", pl_json_string(dir));
		json_object_set_new(doc, "live", json_integer(0));
		json_object_set(doc, "entries", arr);
		if ((rc = emit_json(q, doc)))
			return rc;
	}
	return r < 0 ? PL_EXIT_RUNTIME : PL_EXIT_OK;
}
