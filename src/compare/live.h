/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The real executor of compare (session.h's pl_cmp_exec_fn): per variant setup= before
 * its first run and teardown= after the last (pl_cmp_live_finish); per run: apply the
 * variant's sysctl/sysfs values, prepare=, the measured command, cleanup=, restore. */
#ifndef PERFLAB_COMPARE_LIVE_H
#define PERFLAB_COMPARE_LIVE_H
#include <stdbool.h>
#include <stddef.h>

#include "compare/session.h"
#include "compare/sysset.h"

/** State of the live executor. Zero-initialise, then set the inputs. */
struct pl_cmp_live {
	struct pl_cmp_sys *sys; /**< input: open when a variant has settings, else NULL */
	bool *set_up;		/**< per variant: setup= done (allocated on first use) */
	size_t nvariants;
	size_t failed_runs; /**< runs that exited non-zero (with --ignore-failure) */
};

/** Get the settings of @e ready before any run, when a variant has sysctl/sysfs values
 *  (else nothing is done): check every value (pl_cmp_sys_check), then open the journal in
 *  @state_dir into l->sys, undoing what an interrupted compare left (*recovered gets the
 *  number of values restored, 0 otherwise). Returns 0 or -errno with the reason in @err;
 *  *bad_input is true when the error is the user's input (a refused value, or a sysroot
 *  other than /: exit status 2) rather than a runtime failure. */
int pl_cmp_live_open(struct pl_cmp_live *l, struct pl_cmp_experiment *e, const char *state_dir,
		     size_t *recovered, bool *bad_input, char *err, size_t errlen);

/** Write and restore every variant's settings once, so that a refused or missing one is an
 *  input error before any run. Returns 0 or the first -errno with the reason in @err;
 *  *bad_input is true for a missing target or a refused value (-ENOENT, -EINVAL). */
int pl_cmp_live_try(struct pl_cmp_live *l, const struct pl_cmp_experiment *e, bool *bad_input,
		    char *err, size_t errlen);

/** pl_cmp_exec_fn for live runs; @ctx is a struct pl_cmp_live. Errors: -ECHILD (the
 *  command or a helper failed; the reason quotes the exit status), -EINVAL (a --metric
 *  did not match: the reason quotes one line of the output), -EINTR (signal), the
 *  -errno of pl_cmp_sys_apply or of pl_cmp_exec. Settings are always restored before
 *  returning. */
int pl_cmp_live_exec(void *ctx, struct pl_cmp_session *s, size_t variant, size_t round,
		     struct pl_cmp_usage *u, double *vals, char *err, size_t errlen);

/** Run teardown= of every variant whose setup ran, restore settings and free @l's
 *  memory (not l->sys). Returns 0 or the first error (reason in @err). */
int pl_cmp_live_finish(struct pl_cmp_live *l, struct pl_cmp_session *s, char *err, size_t errlen);

/** Close l->sys (restoring what is left, pl_cmp_sys_close) and free @l's memory; runs no
 *  teardown= (pl_cmp_live_finish does). NULL-safe, and safe to call again. */
void pl_cmp_live_close(struct pl_cmp_live *l);

#endif
