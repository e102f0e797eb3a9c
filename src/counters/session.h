/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The counting session of `perflab stat`: the events of a struct pl_cnt_config opened
 * with perf_event_open(2) on a command (forked, held before its exec, counted from the
 * exec with enable_on_exec and inherit so children and threads are followed), on the
 * threads of running processes (-p), on CPUs (-a, -C) or on a cgroup on every CPU
 * (PERF_FLAG_PID_CGROUP); events of one group opened as one perf group and read
 * atomically (PERF_FORMAT_GROUP with TOTAL_TIME_ENABLED, TOTAL_TIME_RUNNING and ID);
 * readings scaled as perf scales a multiplexed count and kept per CPU, socket or thread
 * or summed. Layout after Linux perf's builtin-stat.c and util/evsel.c. */
#ifndef PL_COUNTERS_SESSION_H
#define PL_COUNTERS_SESSION_H
#include "counters/counters.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

/** The perf_event_open entry point; tests replace it to inject errors. Same contract as
 *  the syscall: an fd, or -1 with errno set. */
typedef int (*pl_cnt_open_fn)(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			      unsigned long flags);
/** Current opener (default: the raw syscall). */
extern pl_cnt_open_fn pl_cnt_open_hook;

/** How readings are kept: summed over every CPU and thread, or per scope. */
enum pl_cnt_aggr {
	PL_CNT_AGGR_NONE = 0, /**< one value per event */
	PL_CNT_AGGR_CPU,      /**< --per-cpu: per CPU (CPU scopes only) */
	PL_CNT_AGGR_SOCKET,   /**< --per-socket: per physical_package_id */
	PL_CNT_AGGR_THREAD,   /**< --per-thread: per thread (-p only) */
};

/** What to count, where, and how to report intervals. Pointers are borrowed for the
 *  session's life. */
struct pl_cnt_config {
	const struct pl_cnt_event *evs; /**< @nevs events */
	size_t nevs;
	/** Per event: its group number; events with one number >= 0 open as one perf group
	 *  (the first of them leads), -1 alone. NULL: every event alone. */
	const int *group;
	char **argv; /**< -- CMD ARGS (NULL-terminated), or NULL */
	/** A child the caller forked and holds before its exec (compare --stat), or 0: it
	 *  is counted as a command is (enable_on_exec and inherit, from its exec, children
	 *  and threads followed); the caller releases it, reaps it and reads the counts with
	 *  pl_cnt_session_read (pl_cnt_session_run is not for it). Exclusive of @argv. */
	pid_t held;
	const char *pids;   /**< -p "PID[,PID]" (checked by the caller), or NULL */
	bool system_wide;   /**< -a: every online CPU */
	const char *cpus;   /**< -C cpulist (checked by the caller), or NULL */
	const char *cgroup; /**< --cgroup: a path under the cgroup2 mount, or NULL */
	enum pl_cnt_aggr aggr;
	unsigned interval_ms; /**< -I: deltas every @interval_ms ms to @on_interval; 0 none */
	/** Called with each interval's deltas (values owned by the session, valid for the
	 *  call only). */
	void (*on_interval)(const struct pl_cnt_result *delta, void *ctx);
	void *ctx;
};

/** One place counters are opened: a CPU (@tid -1) or a thread (@cpu -1). */
struct pl_cnt_scope {
	int cpu;
	int socket; /**< physical_package_id of @cpu, -1 when not a CPU or unreadable */
	pid_t tid;
	char comm[16]; /**< /proc/PID/task/TID/comm of a thread scope, "" otherwise */
};

/** One opened counter: event @ev on scope @scope; @leader indexes its group leader in
 *  the session's fds (itself for a leader). */
struct pl_cnt_fd {
	int fd;
	size_t ev, scope, leader;
	uint64_t id;		  /**< PERF_EVENT_IOC_ID, to find its value in a group read */
	uint64_t cur[3], base[3]; /**< raw, enabled ns, running ns: latest and previous */
};

/** A session: owns its fds, the forked command and the scopes. */
struct pl_cnt_session {
	struct pl_cnt_config cfg;
	struct pl_cnt_scope *scopes;
	size_t nscopes;
	bool cpu_scopes; /**< scopes are CPUs (-a, -C, --cgroup) */
	struct pl_cnt_fd *fds;
	size_t nfds;
	int *ev_errno;		 /**< per event: errno of its first failed open, or 0 */
	char (*ev_why)[128];	 /**< per event: the reason it is not supported, or "" */
	bool group_read;	 /**< groups read with PERF_FORMAT_GROUP (false: per event) */
	int cgroup_fd;		 /**< --cgroup's directory, or -1 */
	pid_t child;		 /**< the command, or -1 */
	int go_fd, err_fd;	 /**< the command's start pipe and exec-error pipe, or -1 */
	bool exited;		 /**< the command was reaped */
	int child_status;	 /**< its wait status when @exited */
	struct rusage child_ru;	 /**< its resource usage when @exited (user, sys time) */
	bool interrupted;	 /**< SIGINT or SIGTERM ended the run */
	int stop_signal;	 /**< that signal */
	uint64_t t0, t1;	 /**< CLOCK_MONOTONIC ns at enable and at the final reading */
	struct pl_cnt_result iv; /**< the latest interval's deltas (for @on_interval) */
	uint64_t iv_t;		 /**< the latest interval's end (ns) */
};

/** Scale one reading in place as perf does (tools/perf/util/stat.c perf_counts_values__
 *  scale): @v->value = @v->raw * @v->ev->scale (1 when @v->ev is NULL), multiplied by
 *  enabled / running when 0 < running < enabled (the event was multiplexed); with
 *  running 0 @v->counted is false and @v->value 0 ("<not counted>"). */
void pl_cnt_scale(struct pl_cnt_value *v);

/** The percentage of its enabled time @v's counter ran on the PMU (100 when it was never
 *  multiplexed or never enabled). */
double pl_cnt_pcnt_running(const struct pl_cnt_value *v);

/** Set up @s for @cfg: find the scopes (a command is forked and held before its exec;
 *  -p lists the threads through the sysroot; -a/-C the online CPUs, with each CPU's
 *  socket), open every event on every scope (per-pkg events and PMUs with a cpumask file
 *  only on the CPUs of their mask). An event that cannot be opened is kept, marked in
 *  @s->ev_errno and @s->ev_why (the caller decides whether that is fatal). Returns 0;
 *  or a negative errno with one line in @err: -ENOENT for a --cgroup path that is not a
 *  directory under the cgroup2 mount, -ESRCH for a -p process that is gone, -errno of
 *  fork or pipe. Call pl_cnt_session_close in every case. */
int pl_cnt_session_open(struct pl_cnt_session *s, const struct pl_cnt_config *cfg, char *err,
			size_t errlen);

/** Run: enable (or release the command), wait for the command to end, every -p process
 *  to exit, or SIGINT/SIGTERM (then @s->interrupted, and the command gets the signal and
 *  2 s before SIGKILL), calling cfg.on_interval every interval (and once for the last,
 *  partial one). The whole run's readings go into @total (free with
 *  pl_cnt_result_free). Returns 0; -ENOENT/-EACCES when the command cannot be executed
 *  (one line in @err). */
int pl_cnt_session_run(struct pl_cnt_session *s, struct pl_cnt_result *total, char *err,
		       size_t errlen);

/** Enable the counters of a CPU-scope session (-a, -C) from now on, for a caller that
 *  reads them itself with pl_cnt_session_read instead of pl_cnt_session_run (perflab
 *  report counts each benchmark so). */
void pl_cnt_session_start(struct pl_cnt_session *s);

/** Read the counts of a session on a held child (pl_cnt_config.held) once the caller
 *  has reaped it: every counter's total since its exec into @total (free with
 *  pl_cnt_result_free), @elapsed_ns the caller's wall time of the run (the metrics'
 *  duration_time). Returns 0. */
int pl_cnt_session_read(struct pl_cnt_session *s, struct pl_cnt_result *total, uint64_t elapsed_ns);

/** Close every fd, kill a command still held or running, free everything. NULL-safe,
 *  safe twice. */
void pl_cnt_session_close(struct pl_cnt_session *s);

/** The name of thread @tid as read at open ("" when unknown). */
const char *pl_cnt_session_comm(const struct pl_cnt_session *s, int tid);

#endif
