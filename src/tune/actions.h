/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The work of each `perflab tune` subcommand, given its options: list, show, diff and
 * verify, apply (plan -> checks -> the apply driver of tune/apply.h), status and
 * rollback. src/cmd/tune.c parses the command line and calls one of these; each loads
 * what it needs, writes its output (text, or the --json document of
 * docs/schemas/tune-{list,show,items,journal}.schema.json) to req->output, reports its
 * errors itself on stderr (one line naming the input and the fix, as the command's
 * boundary) and returns the command's exit status (util/log.h: PL_EXIT_OK, _FINDINGS
 * for a failed verify, _USAGE for bad input, _RUNTIME). Nothing is left half-applied:
 * apply is all or nothing (tune/apply.h). */
#ifndef PERFLAB_TUNE_ACTIONS_H
#define PERFLAB_TUNE_ACTIONS_H
#include <stdbool.h>
#include <stdint.h>

/** The options of a tune subcommand. Strings are borrowed. */
struct pl_tune_req {
	const char *profile_dir; /**< --profile-dir DIR, searched first; NULL: none */
	const char *state_dir;	 /**< --state-dir DIR of the journal; NULL:
				      PL_JOURNAL_DEFAULT_DIR */
	bool state_in_sysroot;	 /**< @state_dir is the default inside the sysroot
				      (SYSROOT/var/lib/perflab): its missing parents are
				      created on the first write */
	bool dry_run;		 /**< apply: check and print, write nothing */
	uint64_t to;		 /**< rollback: undo only the steps above this one (0: all) */
	bool all;		 /**< status: also list changes already rolled back;
				      recommend: list every profile */
	const char *workload;	 /**< recommend: --workload name, NULL: "general" */
	bool json;		 /**< --json: the document instead of text (progress lines of
				      apply and rollback then go to stderr) */
	const char *output;	 /**< -o FILE (written atomically), NULL: stdout */
	bool persist;		 /**< apply: also make the profile survive reboots
				      (tune/persist.h) */
	bool boot;		 /**< apply: the boot-time apply of a persisted profile:
				      record the outcome for `tune status` */
};

/** `tune list`: the profiles along the search path with their summaries (or the error
 *  that keeps one from loading). */
int pl_tune_do_list(const struct pl_tune_req *q);
/** `tune show NAME`: the merged profile @name with the file and line of every value.
 *  An unknown or broken profile: PL_EXIT_USAGE. */
int pl_tune_do_show(const struct pl_tune_req *q, const char *name);
/** `tune diff NAME` (@verify false) or `tune verify NAME` (@verify true): current vs
 *  wanted per item. verify returns PL_EXIT_FINDINGS when an applicable item differs,
 *  waits for a reboot, is refused, or is a checkable manual item that does not match. */
int pl_tune_do_diff(const struct pl_tune_req *q, const char *name, bool verify);
/** `tune apply NAME`: check every item first (refused targets and values
 *  pl_tune_value_check rejects: PL_EXIT_USAGE, nothing written), then, unless dry_run,
 *  write what differs through the journal all or nothing (a write the kernel refuses
 *  or changes rolls the whole apply back: PL_EXIT_RUNTIME). Without write access to a
 *  target nothing is changed (PL_EXIT_RUNTIME). */
int pl_tune_do_apply(const struct pl_tune_req *q, const char *name);
/** `tune status`: what the journal holds as applied (with @q->all also what was undone). */
int pl_tune_do_status(const struct pl_tune_req *q);
/** `tune rollback [--to STEP]`: undo the journaled changes above @q->to, newest first.
 *  Nothing to undo is a no-op (also without a state directory or root); changes made
 *  with another --sysroot: PL_EXIT_USAGE; a change that cannot be restored:
 *  PL_EXIT_RUNTIME (it stays journaled). */
int pl_tune_do_rollback(const struct pl_tune_req *q);

#endif
