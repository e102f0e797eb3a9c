/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab monitor's sampling loop: snapshots every interval (CLOCK_MONOTONIC, absolute
 * deadlines, so intervals do not drift), until a duration, the end of a command, or
 * SIGINT/SIGTERM; each interval is written as it is computed (streaming: memory does not
 * grow with the run), as text lines, CSV rows or JSON samples, and optionally to a
 * Prometheus textfile. */
#ifndef PERFLAB_MONITOR_SESSION_H
#define PERFLAB_MONITOR_SESSION_H
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "monitor/proc.h"
#include "monitor/textfile.h"
#include "util/cpuset.h"

/** Output formats. */
enum pl_mon_format { PL_MON_FMT_TEXT, PL_MON_FMT_JSON, PL_MON_FMT_CSV };

/** Shortest interval (s): below it the sampling itself shows in what it measures, and
 *  USER_HZ = 100 ticks give a CPU share in steps of 10% anyway. */
#define PL_MON_INTERVAL_MIN 0.1

/** What to run and where to write. */
struct pl_mon_opts {
	double interval_s;     /**< >= PL_MON_INTERVAL_MIN */
	double duration_s;     /**< 0: until the command ends or a signal */
	struct pl_cpuset cpus; /**< the CPUs shown per CPU (the whole machine is always summed) */
	char **argv;	       /**< the command to run (NULL-terminated), or NULL */
	enum pl_mon_format format;
	FILE *out;			/**< the document (text lines, CSV or JSON) */
	FILE *live;			/**< live text lines besides the document, or NULL */
	bool bars;			/**< per-CPU bars on the live lines (a terminal) */
	const struct pl_mon_prom *prom; /**< the textfile rewritten each interval, or NULL */
};

/** How the run ended. */
struct pl_mon_result {
	size_t nsamples;
	bool interrupted; /**< SIGINT or SIGTERM ended it */
	bool has_cmd;
	int cmd_exit;	/**< exit status, or -1 when killed by a signal */
	int cmd_signal; /**< the signal that ended it, or 0 */
	double cmd_user_s, cmd_system_s, cmd_wall_s; /**< the command's own CPU (wait4) */
	int prom_errno; /**< the first error writing the textfile (positive), or 0 */
};

/** Which CPU of @cpus has no line in @s's /proc/stat (not present or offline): its
 *  number, or -1 when all are there. */
int pl_mon_missing_cpu(const struct pl_mon_snap *s, const struct pl_cpuset *cpus);

/** Start @argv (PATH search) with stdin, stdout and stderr inherited. Returns 0 and the
 *  pid, or -errno (-ENOENT: not found) with nothing started. */
int pl_mon_spawn(char **argv, pid_t *pid);

/** Run the loop from the snapshot @first (taken by the caller, who checked the CPUs
 *  against it; consumed). @pid is the command started with pl_mon_spawn() right after
 *  @first, or 0. SIGINT, SIGTERM and SIGCHLD handlers are installed for the run and
 *  restored after; a SIGINT is passed on to the command, which is always waited for.
 *  Returns 0, or -errno when writing the document failed (the loop stops). */
int pl_mon_run(struct pl_mon_snap *first, pid_t pid, const struct pl_mon_opts *o,
	       struct pl_mon_result *res);

#endif
