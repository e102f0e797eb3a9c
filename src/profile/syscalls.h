/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --syscalls: exact per-syscall counts, latency (paired sys_enter/sys_exit of the same
 * thread) and errors, like `strace -c`. Two methods behind one API, sharing the table
 * and JSON: the raw_syscalls tracepoints sampled at period 1 (no stopping of the
 * tracee; tracefs is mounted at /sys/kernel/tracing when it is not, root only), or,
 * when those are not usable (non-root), ptrace syscall stops like strace -f
 * (profile/syscalls_ptrace.h; exact counts, inflated times). Names from libseccomp. */
#ifndef PERFLAB_PROFILE_SYSCALLS_H
#define PERFLAB_PROFILE_SYSCALLS_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct pl_syscalls;

/** How the calls are counted. */
enum pl_syscalls_method {
	PL_SYSCALLS_TRACEPOINT, /**< raw_syscalls tracepoints through perf_event_open */
	PL_SYSCALLS_PTRACE,	/**< ptrace syscall stops (the program runs slower) */
};

/** Open sys_enter and sys_exit for @pids (-1 = all tasks) on @cpus, disabled, with
 *  enable_on_exec when @on_exec and inherit when @inherit. Returns 0 or -errno:
 *  -ENOENT tracefs or the raw_syscalls events are missing, -EACCES/-EPERM no permission. */
int pl_syscalls_open(struct pl_syscalls **out, const pid_t *pids, size_t npids, const int *cpus,
		     size_t ncpus, bool on_exec, bool inherit);
/** Count with ptrace instead (see profile/syscalls_ptrace.h): @command true: @pids[0]
 *  is a forked child that has not exec'd yet (counted from its execve on); false:
 *  @pids are running processes (every thread attached, -p). The caller must then drive
 *  the tracees with pl_syscalls_wait() and end with pl_syscalls_detach(). Returns 0 or
 *  -errno (-EPERM, -ESRCH; pl_syscalls_ptrace_strerror explains). */
int pl_syscalls_open_ptrace(struct pl_syscalls **out, const pid_t *pids, size_t npids,
			    bool command);
/** The method of @s. */
enum pl_syscalls_method pl_syscalls_method(const struct pl_syscalls *s);
/** Record why the tracepoints were not used (printed and in the JSON "fallback";
 *  copied). */
void pl_syscalls_set_fallback(struct pl_syscalls *s, const char *why);
/** ptrace: handle the next stop or exit of any tracee (blocking when @block; a signal
 *  handler installed without SA_RESTART interrupts it). Returns 1 handled, 0 no tracee
 *  left, -EAGAIN (!@block, nothing pending), -EINTR, or -errno (-ENOSYS: kernel before
 *  5.3). Tracepoints: returns 0. */
int pl_syscalls_wait(struct pl_syscalls *s, bool block);
/** ptrace, command: true once the command's execve has succeeded. */
bool pl_syscalls_execed(const struct pl_syscalls *s);
/** ptrace, command: true once the command has exited; its wait status (reaped by
 *  pl_syscalls_wait) in *status (optional). */
bool pl_syscalls_leader_exited(const struct pl_syscalls *s, int *status);
/** ptrace: send @sig to every traced process (the command's whole tree). Returns how
 *  many tasks were signalled; 0 for tracepoints. NULL-safe. */
size_t pl_syscalls_kill(struct pl_syscalls *s, int sig);
/** ptrace: detach from every remaining tracee so none is left stopped or traced.
 *  Returns 0 or -ETIMEDOUT (see pl_sc_ptrace_detach). No-op for tracepoints; NULL-safe. */
int pl_syscalls_detach(struct pl_syscalls *s);
/** ptrace, after pl_syscalls_detach: the tasks that could not be detached (count; up to
 *  @max thread ids in @tids). See pl_sc_ptrace_undetached. 0 for tracepoints. */
size_t pl_syscalls_undetached(const struct pl_syscalls *s, pid_t *tids, size_t max);
/** Advice line for a -errno from pl_syscalls_open_ptrace/pl_syscalls_wait. Static. */
const char *pl_syscalls_ptrace_strerror(int err);
/** Enable / disable the events (tracepoints; no-op for ptrace). Disable also reads every
 *  event's count (the hits the kernel saw, children included): after the last drain,
 *  that count minus the samples read is the exact number of events lost ("lost"), which
 *  also covers drops the kernel never reported in a PERF_RECORD_LOST. */
void pl_syscalls_enable(struct pl_syscalls *s);
void pl_syscalls_disable(struct pl_syscalls *s);
/** Move the records in the rings into memory (call often, and once more after
 *  pl_syscalls_disable; a full ring loses events, which are counted and reported). */
void pl_syscalls_drain(struct pl_syscalls *s);
/** Print the table: per syscall calls, errors, total ms, mean and max us, sorted by
 *  calls; then lost events. Pairs are formed on first use. */
void pl_syscalls_print(const struct pl_syscalls *s, FILE *out);
/** The same as JSON: {"method": "tracepoint"|"ptrace", "source", "fallback": why the
 *  tracepoints were not used or null, "lost", "uncounted" (ptrace: calls seen but not
 *  counted), "detached" (ptrace: tasks detached alive, whose later calls are not
 *  counted), "undetached" (ptrace: tasks that could not be detached), "exact" (no call
 *  lost or left uncounted), "calls", "errors", "rows":[{name, nr, calls, errors,
 *  total_ms, mean_us, max_us}]}. */
json_t *pl_syscalls_json(const struct pl_syscalls *s);
/** Calls counted for syscall @name (e.g. "openat"), or 0. */
unsigned long long pl_syscalls_count(const struct pl_syscalls *s, const char *name);
/** Advice line for a -errno from pl_syscalls_open. Static string. */
const char *pl_syscalls_strerror(int err);
/** Close and free. NULL-safe. */
void pl_syscalls_close(struct pl_syscalls *s);

#endif
