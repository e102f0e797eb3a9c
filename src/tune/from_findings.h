/* SPDX-License-Identifier: GPL-3.0-or-later */
/* From findings to a profile: `perflab check --emit-profile FILE` writes the fix of every
 * finding at or above a severity as a tuned-format profile (tune/profile.h's format, which
 * tuned's own loader also reads), so a user can `tune diff`, `tune apply` or `tune try` it.
 *
 * Shape: a [main] summary; one section per plugin in the order the findings name them
 * ([disk] fixes get one section per device, "[disk_DEV]" with type=disk and devices=DEV,
 * since devices= belongs to the section); each item preceded by a comment naming the rule
 * id, its severity, the subject and the rationale. All [bootloader] tokens go into one
 * cmdline= option (tuned reads one value per key), its comment naming every rule.
 * Left out, each with a comment saying why (never silently dropped):
 *  - risky fixes (pl_tune_emit_risk(): CPU isolation, the TSC watchdog off, C-state
 *    limits on the command line; stopping services, which perflab cannot roll back);
 *  - fixes with a placeholder the user must fill in ("isolcpus=CPUS");
 *  - a value that conflicts with an earlier (more severe) finding's value for the same
 *    key, and values or device names with characters a profile cannot carry ('#', ';',
 *    '[', ']', quotes, control characters);
 *  - findings whose rule has no profile item (only a command). */
#ifndef PERFLAB_TUNE_FROM_FINDINGS_H
#define PERFLAB_TUNE_FROM_FINDINGS_H
#include <stddef.h>
#include <stdio.h>

#include "rules/rules.h"

/** What pl_tune_emit_profile() wrote. */
struct pl_tune_emit_counts {
	size_t findings; /**< findings at or above the severity */
	size_t items;	 /**< profile options written (a shared cmdline= counts once per
			      token) */
	size_t left_out; /**< fix lines left out with a comment (risky, placeholder,
			      conflict, bad characters) */
	size_t no_fix;	 /**< findings without a profile item */
};

/** Why the fix line @line ("[bootloader] cmdline=isolcpus=1-7", one line of a finding's
 *  fix_tune) is risky to apply unasked, as a static sentence, or NULL when it is not.
 *  The list is perflab's own judgement, from the kernel documentation named in each
 *  reason (Documentation/admin-guide/kernel-parameters.txt). */
const char *pl_tune_emit_risk(const char *line);

/** Write to @f the profile of the findings of @fs (as pl_rules_eval() sorted them: most
 *  severe first) whose severity is at least @min; @workload names the workload in the
 *  summary. @c (optional) gets the counts. Returns 0, or -EIO when @f reports a write
 *  error. Never fails otherwise: what cannot be written becomes a comment. */
int pl_tune_emit_profile(FILE *f, const struct pl_findings *fs, enum pl_severity min,
			 const char *workload, struct pl_tune_emit_counts *c);

#endif
