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

/** The items table (ITEM CURRENT WANTED STATE, colour when @f is a terminal) of @plan. */
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
/** One journal entry as a `tune status` line (STEP PROFILE TARGET OLD -> NEW TIME). */
void pl_tune_print_entry(FILE *f, const struct pl_journal_entry *e);

#endif
