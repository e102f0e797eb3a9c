/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How tune's data is shown: a merged profile (`tune show`), a plan's items (`tune diff`,
 * `verify`, `apply`) and journal entries (`tune status`, `rollback`), each as text and
 * as JSON (docs/schemas/tune-{show,items,journal}.schema.json). Pure renderers: they
 * read their arguments, write to the given stream or return a new document, and never
 * fail except on allocation (which aborts, util/str.h). */
#ifndef PERFLAB_TUNE_OUTPUT_H
#define PERFLAB_TUNE_OUTPUT_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "tune/journal.h"
#include "tune/plan.h"
#include "tune/profile.h"
#include "util/cpuset.h"

/** The verdict word of an item as the outputs show it: "match", "differs",
 *  "not-applicable", "unsupported", "refused", "pending-reboot" or "manual". Static. */
const char *pl_tune_verdict(const struct pl_tune_item *it);

/** Items per verdict (pl_tune_verdict) of a plan. */
struct pl_tune_counts {
	size_t match, differ, na, unsupported, manual, pending, refused;
	size_t bad_values; /**< of the refused: values pl_tune_value_check rejects */
};
/** Count the items of @plan per verdict. */
struct pl_tune_counts pl_tune_count(const struct pl_tune_plan *plan);

/** The short name of item @it in @buf (@len bytes, truncated): "PLUGIN KEY [DEVICE]",
 *  "sysfs TARGET" for a [sysfs] item, else "PLUGIN KEY". */
void pl_tune_item_label(char *buf, size_t len, const struct pl_tune_item *it);

/** The CPU number N of item @it on device "cpuN", or -1 (no device, another kind). */
int pl_tune_item_cpu(const struct pl_tune_item *it);
/** True when items @a and @b make the same change on two CPUs (devices "cpuN"; same
 *  plugin, unit, key, current, wanted and written values, state and reason): the text
 *  outputs show such a run as one line. */
bool pl_tune_item_same_change(const struct pl_tune_item *a, const struct pl_tune_item *b);
/** pl_tune_item_label() of @it, or for two or more CPUs in @cpus "PLUGIN KEY [cpuLIST]"
 *  ("cpu governor [cpu0-15]", the list as util/cpuset.h formats it). */
void pl_tune_item_label_cpus(char *buf, size_t len, const struct pl_tune_item *it,
			     const struct pl_cpuset *cpus);

/** The items table (ITEM CURRENT WANTED STATE, colour when @f is a terminal) of @plan:
 *  one line per item, a run of items making the same change on several CPUs as one
 *  (pl_tune_item_same_change). */
void pl_tune_print_items(FILE *f, const struct pl_tune_plan *plan);
/** The summary lines after the table ("N match, N differ, ..." and the refused line). */
void pl_tune_print_summary(FILE *f, const struct pl_tune_plan *plan);
/** The tune-items document of @plan for command @cmd ("diff", "verify", "apply"):
 *  schema_version, command, profile, items, summary. New reference. */
json_t *pl_tune_items_doc(const char *cmd, const struct pl_tune_profile *pr,
			  const struct pl_tune_plan *plan);

/** `tune show` as text: the profile, its include chain, [variables], each unit with its
 *  options and their file:line, and the loader's notes. */
void pl_tune_show_text(FILE *f, const struct pl_tune_profile *pr);
/** `tune show --json` (tune-show.schema.json). New reference. */
json_t *pl_tune_show_doc(const struct pl_tune_profile *pr);

/** One journal entry as JSON (tune-journal.schema.json "entries"; the grub file's values
 *  as "(file)"). New reference. */
json_t *pl_tune_entry_json(const struct pl_journal_entry *e);
/** The `tune status` table of the journal entries @v (@n, in step order; with @all also
 *  those undone, marked "(undone)"): a header STEP PROFILE TARGET OLD -> NEW TIME and a
 *  row per entry, the columns as wide as their widest cell; consecutive steps making the
 *  same change to the same file of several CPUs are one row ("2-17", ".../cpu0-15/...").
 *  Nothing when no entry is shown. */
void pl_tune_print_entries(FILE *f, const struct pl_journal_entry *v, size_t n, bool all);

#endif
