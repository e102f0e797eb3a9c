/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What tune's plugins (src/tune/plugins/NAME.c, listed in list.h) and the plan builder
 * (tune/plan.c) share: the build state, the plugin entry points and the helpers that add
 * items to the plan and decide them (tune/plugins/common.c). Used inside src/tune/ only.
 *
 * A plugin gets one unit at a time (enabled, matching this machine, without `priority`)
 * and adds its items with pl_tune_add_item(): each item starts in state PL_TI_APPLY with
 * no target; the plugin sets `target` (a path inside the sysroot, malloc'd), reads the
 * current value with pl_tune_read_current() and decides `want`/`match` with
 * pl_tune_decide*(), or sets another state with pl_tune_set_reason(). A value that does
 * not parse is an input error: the plugin returns pl_tune_bad_value()'s -EINVAL. */
#ifndef PERFLAB_TUNE_PLUGINS_PLUGIN_H
#define PERFLAB_TUNE_PLUGINS_PLUGIN_H
#include <stdbool.h>
#include <stddef.h>

#include "tune/plan.h"
#include "tune/profile.h"

/** The state of one pl_tune_plan_build() call, handed to every plugin. */
struct pl_tune_ctx {
	const struct pl_tune_profile *pr; /**< the profile being planned (borrowed) */
	struct pl_tune_plan *plan;	  /**< where the items go */
	char *err;			  /**< one line on an input error, @el bytes */
	size_t el;
	/* The CPUs and disks earlier [cpu] and [disk] units took (NULL-terminated): tuned
	 * gives each device to the first unit of its plugin that matches it. */
	char **taken_cpu, **taken_disk;
};

/** A plugin: add the items of unit @u to c->plan. Returns 0, or -EINVAL with one line in
 *  c->err for a value or name that does not parse. */
#define PL_TUNE_PLUGIN(name)                                                                       \
	int pl_tune_plugin_##name(struct pl_tune_ctx *c, const struct pl_tune_unit *u);
#include "tune/plugins/list.h"
#undef PL_TUNE_PLUGIN

/** Append a new item of @plugin for unit @u to c->plan: option @o (NULL = the unit
 *  itself, key "*"), device @device (may be NULL), origin "FILE:LINE", state
 *  PL_TI_APPLY and no target. Strings are copied. Returns the item, valid until the next
 *  call (the vector may move). */
struct pl_tune_item *pl_tune_add_item(struct pl_tune_ctx *c, const char *plugin,
				      const struct pl_tune_unit *u, const struct pl_tune_opt *o,
				      const char *device);

/** Set @it's state to @st and its reason to the printf-formatted text (replacing an
 *  earlier reason). */
void pl_tune_set_reason(struct pl_tune_item *it, enum pl_tune_state st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/** Write to c->err the input error "FILE:LINE: profile 'P', section [S], key 'K': value
 *  'V' @why" of option @o of unit @u. Returns -EINVAL. */
int pl_tune_bad_value(struct pl_tune_ctx *c, const struct pl_tune_unit *u,
		      const struct pl_tune_opt *o, const char *why);

/** The value of @o to use: after ${} expansion when expanded, else as written. Borrowed. */
const char *pl_tune_opt_value(const struct pl_tune_opt *o);

/** Read the current value of @it->target into @it->current (kernel form,
 *  pl_tune_value_current). Returns true when readable; else @it is PL_TI_NA with
 *  @what_missing as the reason (a missing file) or the read error, or PL_TI_REFUSED when
 *  the target may not be read nor written (a symlink out of the sysroot, a hard link in
 *  one). */
bool pl_tune_read_current(struct pl_tune_item *it, const char *what_missing);

/** Decide @it's want/match for @wanted taken literally (no `>N`/`<N`): match when the
 *  current value is the same in kernel terms (pl_tune_value_match_how), with a "matches
 *  ..." reason when written differently. */
void pl_tune_decide_literal(struct pl_tune_item *it, const char *wanted);

/** Decide @it's want/match for a plain or `>N`/`<N` value (at least / at most N: written
 *  only when the current value is outside). */
void pl_tune_decide(struct pl_tune_item *it, const char *wanted);

/** Check that a leading `>`/`<` of @o's value is followed by an integer. Returns 0, or
 *  pl_tune_bad_value()'s -EINVAL. */
int pl_tune_check_modifier(struct pl_tune_ctx *c, const struct pl_tune_unit *u,
			   const struct pl_tune_opt *o);

/** The devices of unit @u: entries of sysroot directory @dir matching regex @re (POSIX
 *  extended, e.g. "^cpu[0-9]+$"), filtered by the unit's comma-separated `devices=`
 *  globs ("!" prefix excludes), less those whose name starts with one of @skip_prefix
 *  (NULL-terminated, may be NULL) when devices=*, less those in *taken (earlier units'
 *  devices), to which the result is added (tuned's Plugin.assign_free_devices: each
 *  device goes to the first unit that matches it). Returns a malloc'd NULL-terminated
 *  vector (pl_strv_free), empty when @dir cannot be listed. */
char **pl_tune_devices(const struct pl_tune_unit *u, const char *dir, const char *re,
		       const char *const *skip_prefix, char ***taken);

/** Decide @it for a value with alternatives `a|b|c`: the first one offered in the
 *  space-separated list read from @avail_path (may be NULL; for an "elevator" item the
 *  choices come from the target itself, "none [mq-deadline] kyber"), then as
 *  pl_tune_decide(). When none is offered, @it is PL_TI_NA with @none_msg and the offered
 *  list as the reason. */
void pl_tune_decide_alt(struct pl_tune_item *it, const char *v, const char *avail_path,
			const char *none_msg);

#endif
