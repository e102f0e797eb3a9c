/* SPDX-License-Identifier: GPL-3.0-or-later */
/* From a merged profile to concrete items: the plugins ([sysctl], [vm], [cpu], [disk],
 * [sysfs], [bootloader]) turn options into targets under the sysroot, read the current
 * values and decide what to write. Semantics follow tuned's plugins (tuned/plugins/
 * plugin_*.py and base.py `_process_assignment_modifiers`; read, not copied):
 *   `>N` = at least N (written only when the current value is lower), `<N` = at most N,
 *   `a|b` = the first alternative this machine offers (governor, energy preferences,
 *   elevator). Units whose uname_regex/cpuinfo_regex do not match, and `enabled=false`
 *   units, produce no items (tuned does not apply them either). Plugins and options we
 *   do not implement become items in state UNSUPPORTED, named, never dropped. */
#ifndef PERFLAB_TUNE_PLAN_H
#define PERFLAB_TUNE_PLAN_H
#include <stdbool.h>
#include <stddef.h>

#include "tune/profile.h"

/** What can be done with an item on this machine. */
enum pl_tune_state {
	PL_TI_APPLY,	   /**< a target exists: compare and write */
	PL_TI_NA,	   /**< not applicable on this machine (no cpufreq, no such sysctl) */
	PL_TI_UNSUPPORTED, /**< plugin, option or function perflab does not implement */
	PL_TI_MANUAL,	   /**< needs a user action (force_latency: a process holding
				/dev/cpu_dma_latency) */
	PL_TI_REFUSED,	   /**< the target may not be written: it resolves outside the
				sysroot (symlink), or is a hard link in a sysroot; see reason.
				Nothing of a profile with such an item is applied. */
};

/** One concrete item. Strings owned by the plan. */
struct pl_tune_item {
	char *plugin;  /**< "sysctl", "vm", "cpu", "disk", "sysfs", "bootloader", or the
			    unsupported plugin's name */
	char *unit;    /**< section name */
	char *key;     /**< option key as written ("net.core.somaxconn", "governor") */
	char *value;   /**< wanted value after ${} expansion, modifiers included (">4096") */
	char *device;  /**< "cpu0", "vda" or NULL */
	char *origin;  /**< "FILE:LINE" */
	char *profile; /**< profile the value came from */
	char *target;  /**< path inside the sysroot to write, or NULL */
	enum pl_tune_state state;
	char *reason;  /**< why NA/UNSUPPORTED/MANUAL, or a note ("rounded", "pending reboot") */
	char *current; /**< current value (kernel form), NULL when unreadable */
	char *want;    /**< value to write; NULL when the current value already satisfies it */
	bool match;    /**< current satisfies value (">N" satisfied counts) */
	bool pending_reboot; /**< bootloader: in the grub file but not yet in /proc/cmdline */
	bool bad_value;	     /**< state REFUSED because pl_tune_value_check() rejects the value
				  to write (set by `tune diff`/`verify`, tune/actions.c; plan
				  building leaves it false) */
};

/** A plan: the items of a profile on this machine. */
struct pl_tune_plan {
	struct pl_tune_item *v;
	size_t n, cap;
	char *grub_new;	   /**< whole new grub default file when a token must be added,
				else NULL */
	char *grub_update; /**< the distro's command to regenerate grub.cfg */
};

/** Build the plan of @pr against the current sysroot. Returns 0, or -EINVAL with one
 *  line in @err naming profile, section, key and line of a value or name that does not
 *  parse (e.g. "readahead=>lots", a sysctl name with ".."). Free with pl_tune_plan_free
 *  (also after an error). */
int pl_tune_plan_build(const struct pl_tune_profile *pr, struct pl_tune_plan *plan, char *err,
		       size_t errlen);
/** True when unit @u applies on this machine: its uname_regex matches the uname string
 *  as tuned builds it ("SYSTEM NODE RELEASE VERSION MACHINE": uname(2) live,
 *  /proc/sys/kernel/{ostype,hostname,osrelease,version,arch} in a sysroot) and its
 *  cpuinfo_regex matches
 *  /proc/cpuinfo (POSIX extended regex with GNU \s \b). Else *why gets a malloc'd
 *  reason (caller frees). */
bool pl_tune_unit_applies(const struct pl_tune_unit *u, char **why);

/** Free the items. NULL-safe. */
void pl_tune_plan_free(struct pl_tune_plan *plan);

/** Name of a state ("apply", "not-applicable", "unsupported", "manual", "refused"). */
const char *pl_tune_state_name(enum pl_tune_state s);

/** True when perflab implements plugin type @type: one of tune/plugins/list.h ("sysctl",
 *  "vm", "cpu", "disk", "sysfs", "bootloader"). */
bool pl_tune_plugin_supported(const char *type);

#endif
