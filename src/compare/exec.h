/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Running one command of a variant and measuring it: vfork, then in the child (before
 * exec, so no wrapper process is timed) the working directory, environment, CPU affinity
 * and NUMA memory binding; exec without a shell; wait4() for the rusage of exactly that
 * child (not getrusage(RUSAGE_CHILDREN), which sums every child so far).
 * With a @held callback (compare --stat) the child is started with fork instead: a vfork
 * child runs in the parent's memory and the parent is suspended until it execs, so the
 * parent could not open counters on it in between. The fork child sets up its context,
 * then waits on a pipe for one byte; the parent calls @held with its pid (which opens the
 * counters with enable_on_exec), writes the byte, and learns an exec failure from a
 * close-on-exec pipe: Linux perf stat's handshake (tools/perf/util/evlist.c,
 * evlist__prepare_workload). The wall time is then taken from the release, so counting
 * set-up is not timed. */
#ifndef PERFLAB_COMPARE_EXEC_H
#define PERFLAB_COMPARE_EXEC_H
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "compare/experiment.h"
#include "util/str.h"

/** Resources of one run. */
struct pl_cmp_usage {
	double wall_s;		/**< CLOCK_MONOTONIC from before fork (a held child: its release) to
				    wait4's return, s */
	double user_s, sys_s;	/**< CPU time of the child, s (ru_utime, ru_stime) */
	uint64_t max_rss_bytes; /**< ru_maxrss * 1024 */
	uint64_t minor_faults, major_faults; /**< ru_minflt, ru_majflt */
	uint64_t vol_ctxsw, invol_ctxsw;     /**< ru_nvcsw, ru_nivcsw */
	int exit_code;			     /**< exit status, or -1 when killed by a signal */
	int term_signal;		     /**< signal that ended the child, or 0 */
};

/** How to run. */
struct pl_cmp_exec_opts {
	bool capture;	  /**< collect stdout and stderr (merged) into *output */
	bool show_output; /**< let the child inherit our stdout/stderr (else /dev/null); with
			       capture, what was captured is also copied to our stdout */
	/** NULL, or called with the child's pid while it is held before its exec (fork and
	 *  a pipe handshake instead of vfork): returns 0, or -errno to kill the child and
	 *  fail the run with that error. */
	int (*held)(void *ctx, pid_t pid);
	void *held_ctx;
};

/** Run @argv (argv[0] resolved as @exe, found beforehand) with the context of variant
 *  @v (env, workdir, cpus, membind). Returns 0 with *u filled (a failing exit status is
 *  not an error: see u->exit_code), or -errno: fork/pipe failures, or the errno the child
 *  hit applying its context or exec'ing (reported back through a close-on-exec pipe:
 *  -ENOENT, -EACCES, -EINVAL for an impossible CPU set...). On -EINTR (a signal arrived
 *  and pl_cmp_exec_interrupted() is set) the child was sent the same signal and reaped. */
int pl_cmp_exec(const struct pl_cmp_variant *v, const char *exe, char *const argv[],
		const struct pl_cmp_exec_opts *o, struct pl_buf *output, struct pl_cmp_usage *u);

/** Run helper command @cmd (prepare/cleanup/setup/teardown) of @v: split into words (or
 *  through /bin/sh -c when @shell), output to /dev/null unless @show. Returns 0 when it
 *  exited 0, -ECHILD when it failed (exit status in *status), or -errno. */
int pl_cmp_exec_helper(const struct pl_cmp_variant *v, const char *cmd, bool shell, bool show,
		       int *status);

/** Install handlers for SIGINT, SIGTERM and SIGHUP that forward the signal to the running
 *  child and remember it (no SA_RESTART, so waits return). */
void pl_cmp_exec_signals(void);
/** The first signal received since pl_cmp_exec_signals(), or 0. */
int pl_cmp_exec_interrupted(void);
/** Forget a received signal and return it, so teardown commands can still run after an
 *  interruption (a second signal interrupts them again). */
int pl_cmp_exec_clear_interrupt(void);

/** CLOCK_MONOTONIC now, in seconds. */
double pl_cmp_now(void);

#endif
