/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A profiling session: the target (a command started with the enable_on_exec handshake,
 * running processes for -p, or every CPU for -a), the sampling events and their rings,
 * --syscalls (tracepoints, or ptrace with its own wait loop), the region markers, and the
 * drain loop that moves ring records into the profile until the target is done, the
 * duration has passed or Ctrl-C. After pl_psession_run() the profile, the markers and the
 * syscall counts are read by the outputs (profile/output.h).
 *
 *     struct pl_psession s;
 *     int rc = pl_psession_open(&s, &cfg, err, sizeof(err));   // events open, target held
 *     if (rc == PL_EXIT_OK)
 *             rc = pl_psession_run(&s, err, sizeof(err));       // release, sample, stop
 *     ... report from s.prof, s.markers, s.sc ...
 *     pl_psession_close(&s);                                    // always, once
 *
 * Nothing here logs: errors come back as an exit code (util/log.h) with one line in the
 * caller's buffer, warnings during the run through the config's callback. The session
 * installs SIGINT and SIGTERM handlers (Ctrl-C stops sampling; with a command SIGINT is
 * ignored, as the command gets it too, until the command exits) and, with ptrace, a
 * SIGALRM interval timer while it runs. One session per process. */
#ifndef PERFLAB_PROFILE_SESSION_H
#define PERFLAB_PROFILE_SESSION_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "profile/futex.h"
#include "profile/markers.h"
#include "profile/perf_event.h"
#include "profile/profile.h"
#include "profile/sched.h"
#include "profile/syscalls.h"

struct pl_sched_collect;

/** How --syscalls counts (--syscalls-via), in the order of its choices. */
enum pl_syscalls_via {
	PL_SYSCALLS_VIA_AUTO,	    /**< tracepoints, else ptrace (not with -a) */
	PL_SYSCALLS_VIA_TRACEPOINT, /**< raw_syscalls tracepoints only (root) */
	PL_SYSCALLS_VIA_PTRACE,	    /**< ptrace syscall stops only (not with -a) */
};

/** Receives one warning line (no trailing newline; not kept after the call). */
typedef void (*pl_psession_warn_fn)(void *ctx, const char *msg);

/** What to profile and how. Exactly one of @argv, @pids and @all is set (the command
 *  checks). Borrowed: the strings, @argv and @cpus must stay alive until
 *  pl_psession_close(). */
struct pl_psession_config {
	char **argv;		  /**< -- CMD ARGS..., NULL-terminated; NULL when not a command */
	const char *pids;	  /**< -p "PID[,PID...]", or NULL */
	bool all;		  /**< -a: every task on @cpus */
	const int *cpus;	  /**< CPU numbers to sample on (see pl_psession_cpus) */
	size_t ncpus;		  /**< >= 1 */
	struct pl_pe_config pe;	  /**< event, freq/period, callchains, stack bytes, ring pages;
				   *   enable_on_exec and inherit are set by pl_psession_open
				   *   (a command: on exec; -a: no inherit) */
	bool syscalls;		  /**< --syscalls: count every syscall */
	bool off_cpu;		  /**< --off-cpu: scheduler events (profile/sched.h) */
	bool no_sampling;	  /**< open no sampling events (@pe unused, pl_psession.pe stays
				   *   empty: nfds 0): --syscalls whose report shows no samples,
				   *   so the target pays only for the counting (and no
				   *   perf_event_open permission is needed with ptrace) */
	enum pl_syscalls_via via; /**< how (with @syscalls) */
	bool locks;		  /**< --locks: futex waits by call site (profile/futex.h) */
	double duration_s;	  /**< stop after this many seconds; 0 = until the target is
				   *   done (a command) or Ctrl-C (-p: all exited; -a) */
	const char *debug_root;	  /**< separate debug files (pl_symtab_init), or NULL */
	bool no_demangle;	  /**< keep mangled names (pl_profile.no_demangle) */
	pl_psession_warn_fn warn; /**< warnings during open, run and close; NULL = dropped */
	void *warn_ctx;		  /**< passed to @warn */
};

/** A session. The public members are valid after a successful pl_psession_run() (@what
 *  and @markers after pl_psession_open()); the rest is internal. */
struct pl_psession {
	char *what;		    /**< the target, for the report: "'cmd'", "pid 1,2",
				     *   "all CPUs (N)" (owned) */
	struct pl_pe_session pe;    /**< the sampling events as opened (after fallbacks) */
	struct pl_syscalls *sc;	    /**< --syscalls counts, or NULL */
	struct pl_futex *locks;	    /**< --locks: the futex waits (finished), or NULL */
	struct pl_profile prof;	    /**< the collected samples and address spaces */
	struct pl_sched_log sched;  /**< --off-cpu: the scheduler events (stacks interned in
				     *   @prof), else empty */
	uint64_t sched_finish_ns;   /**< --off-cpu: CLOCK_MONOTONIC ns spent after the run
				     *   sorting the log and finding the targets (the start of
				     *   the off-CPU analysis), else 0 */
	struct pl_markring markers; /**< region markers (a command only; hdr NULL when the
				     *   ring could not be created or for -p/-a) */
	uint64_t t0, t1;	    /**< CLOCK_MONOTONIC ns: the run window (release to stop) */
	bool have_child;	    /**< a command was run */
	int child_status;	    /**< its wait status (waitpid(2)), when @have_child */
	bool interrupted;	    /**< a command's run was ended by SIGINT (Ctrl-C) or
				     *   SIGTERM to perflab: what was recorded is kept, and the
				     *   command exits 130 */

	/* internal */
	struct pl_psession_config cfg;
	pid_t child; /* -- CMD, -1 before the fork */
	int go_fd;   /* write end: one byte releases the child */
	int err_fd;  /* read end: errno of a failed exec, EOF on success */
	pid_t *pids; /* tasks the events are opened for (-1 alone: all) */
	size_t npids;
	pid_t *procs; /* -p processes */
	size_t nprocs;
	bool exited; /* the child has been reaped (child_status is its status) */
	bool ptrace_warned;
	uint8_t *scratch;	       /* PL_REC_MAX bytes for records that wrap the ring */
	struct pl_sched_collect *schc; /* --off-cpu: the scheduler events' collector */
};

/** The CPUs to sample on: @list (a cpulist such as "0-3", already validated by the
 *  option parser) or, when NULL, the online CPUs (/sys/devices/system/cpu/online through
 *  the sysroot helper, else sysconf(_SC_NPROCESSORS_ONLN)). *@cpus gets a malloc'd array
 *  of *@ncpus ascending CPU numbers (owned by the caller; at least one entry allocated).
 *  Returns 0, or -ENOENT when the list holds no CPU (*@ncpus 0). */
int pl_psession_cpus(const char *list, int **cpus, size_t *ncpus);

/** Prepare the session for @cfg (copied; what it points to is borrowed): start a command
 *  (forked, held before its execve; region markers created first, a failure to create
 *  them is a warning) or list the tasks of -p, open the sampling events (disabled, or
 *  enabled at the command's exec), open --syscalls (tracepoints; ptrace when asked or,
 *  with auto, when they are not usable: a warning says why), initialise the profile and
 *  add the existing mappings of -p/-a processes; with --off-cpu open the scheduler events
 *  on every CPU of @cfg->cpus for all tasks (profile/sched_collect.h; disabled until the
 *  run). Returns PL_EXIT_OK, or PL_EXIT_USAGE (-p names no running process) /
 *  PL_EXIT_RUNTIME (fork, perf_event_open or mmap refused with the advice of
 *  pl_pe_strerror, --syscalls unusable, --off-cpu refused: pl_sched_strerror) with one
 *  line in @err (@errlen bytes). Call pl_psession_close() in every case. */
int pl_psession_open(struct pl_psession *s, const struct pl_psession_config *cfg, char *err,
		     size_t errlen);

/** Run: release the command (driving ptrace through its execve) or enable the events,
 *  then drain the rings every 50 ms (ptrace: the wait for tracee stops is the loop, see
 *  session.c) until the command exits (with tracepoint --syscalls: until the processes
 *  it left running have exited too, perflab being their child subreaper), every -p
 *  process has exited, the duration passed (a command then gets SIGTERM) or Ctrl-C /
 *  SIGTERM (a command is then passed the signal, given 2 s to exit and killed, and
 *  @interrupted set); then disable, drain the rest, and reap or kill the command. Sets
 *  @t0, @t1 and @child_status. With --off-cpu the scheduler events are enabled before
 *  the command is released (so its forks are seen) or with the -p/-a events, drained
 *  with the rings, and @sched sorted at the end with its targets: the command and the
 *  processes descended from it, the -p processes and theirs, or all for -a. Returns PL_EXIT_OK,
 * PL_EXIT_USAGE (the command could not be executed: not found, permission denied) or
 * PL_EXIT_RUNTIME (ptrace failed), with one line in @err. */
int pl_psession_run(struct pl_psession *s, char *err, size_t errlen);

/** End everything: a traced command's tree is killed (none runs on untraced), ptrace
 *  detached, --syscalls, the profile and the events closed, a command not yet reaped
 *  killed and reaped, the markers and the target lists freed. Safe after a failed
 *  pl_psession_open(); not twice. */
void pl_psession_close(struct pl_psession *s);

#endif
