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

#endif
