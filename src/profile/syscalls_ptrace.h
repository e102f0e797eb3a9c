/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The ptrace backend of --syscalls (internal: use it through profile/syscalls.h). Counts
 * syscalls at ptrace syscall stops like `strace -c -f` when the raw_syscalls tracepoints
 * are not usable (no root, no tracefs): PTRACE_SEIZE with TRACESYSGOOD, TRACEEXEC,
 * TRACEFORK, TRACEVFORK and TRACECLONE (every thread and child followed), PTRACE_SYSCALL
 * resumptions and PTRACE_GET_SYSCALL_INFO (Linux >= 5.3) for the number, the return
 * value and entry vs exit. Method: ptrace(2) "Syscall-stops", "Group-stop",
 * "execve(2) under ptrace"; strace's counting rules (a call is counted at its exit stop,
 * so exit/exit_group, which never return, are not counted).
 * The tracer waits with waitpid(-1, __WALL): it reaps every child of the calling
 * process, not only tracees, so the caller must not have other children it waits for
 * while a pl_sc_ptrace is open (perflab's only child is the command). */
#ifndef PERFLAB_PROFILE_SYSCALLS_PTRACE_H
#define PERFLAB_PROFILE_SYSCALLS_PTRACE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/** Syscall numbers 0..PL_SC_MAX_NR-1 are counted (x86-64 and arm64 use < 512). */
#define PL_SC_MAX_NR 1024

/** Per-syscall totals shared by both backends. Times are wall ns from the entry to the
 *  exit (tracepoint timestamps, or CLOCK_MONOTONIC at the ptrace stops); @timed is the
 *  number of calls whose entry was seen (the mean is total_ns / timed). */
struct pl_sc_row {
	unsigned long long calls, errors;
	uint64_t total_ns, max_ns, timed;
};

struct pl_sc_ptrace;

/** Start tracing. @command: @pids[0] is a child forked by the caller that has not yet
 *  exec'd (blocked before its execve); it is seized with PTRACE_O_EXITKILL and
 *  interrupted, and calls are counted from its first successful execve on (that execve
 *  included, like strace). Otherwise @pids are running processes (-p): every thread
 *  listed in /proc/PID/task is seized and interrupted (the list is re-read until no new
 *  thread appears) and calls are counted at once. The tracees stay stopped until
 *  pl_sc_ptrace_wait() handles their first stop. @rows (PL_SC_MAX_NR entries, zeroed,
 *  owned by the caller) receive the counts. Returns 0 or -errno: -EPERM (not allowed to
 *  trace: another tracer, another user's process without CAP_SYS_PTRACE), -ESRCH (no
 *  such process). */
int pl_sc_ptrace_open(struct pl_sc_ptrace **out, const pid_t *pids, size_t npids, bool command,
		      struct pl_sc_row *rows);
/** Wait (when @block; any signal with a handler installed without SA_RESTART interrupts
 *  it) for the next stop or exit of any tracee, count it and resume the tracee: syscall
 *  stops are paired per thread, signals are re-injected, group-stops are kept with
 *  PTRACE_LISTEN, new threads and children are followed, a thread that execs takes the
 *  thread-group leader's id. Returns 1 when an event was handled, 0 when no tracee is
 *  left, -EAGAIN when !@block and no stop or exit is pending, -EINTR when interrupted,
 *  -ENOSYS when the kernel lacks PTRACE_GET_SYSCALL_INFO,
 *  other -errno from waitpid/ptrace. */
int pl_sc_ptrace_wait(struct pl_sc_ptrace *p, bool block);
/** True when opened for a command (not -p). */
bool pl_sc_ptrace_is_command(const struct pl_sc_ptrace *p);
/** True once the command (pids[0] of a @command open) has completed its first execve. */
bool pl_sc_ptrace_execed(const struct pl_sc_ptrace *p);
/** True, with its wait status in *status (optional), once the command has exited (the
 *  wait status was reaped by pl_sc_ptrace_wait). */
bool pl_sc_ptrace_leader_exited(const struct pl_sc_ptrace *p, int *status);
/** Calls seen but not counted: exit stops whose entry was not seen (a thread attached
 *  inside a call) and calls of another ABI than perflab's (32-bit programs on x86-64). */
unsigned long long pl_sc_ptrace_uncounted(const struct pl_sc_ptrace *p);
/** Send @sig to the process of every tracee (the command and all its followed children:
 *  stopping a command stops its whole traced tree). Returns how many were signalled. */
size_t pl_sc_ptrace_kill(struct pl_sc_ptrace *p, int sig);
/** Stop tracing: interrupt every remaining tracee and detach it at its next stop,
 *  re-injecting a signal that was about to be delivered, so nothing is left stopped or
 *  traced (a process in a job-control stop stays stopped, as it was). Waits at most 2 s,
 *  once (a second call returns the first one's result at once); returns 0, or -ETIMEDOUT
 *  when some tracee did not stop in time: PTRACE_INTERRUPT cannot stop a task in a
 *  killable wait (a vfork parent waiting for its child). Those stay traced until the
 *  tracer exits; the kernel then detaches them, and kills them if they were seized with
 *  PTRACE_O_EXITKILL (the command and its children, never -p targets): see
 *  pl_sc_ptrace_undetached. */
int pl_sc_ptrace_detach(struct pl_sc_ptrace *p);
/** Tasks detached alive by pl_sc_ptrace_detach (their calls after it are not counted). */
size_t pl_sc_ptrace_detached(const struct pl_sc_ptrace *p);
/** After pl_sc_ptrace_detach: the number of tasks that could not be detached; up to @max
 *  of their thread ids are stored in @tids. 0 before the detach. */
size_t pl_sc_ptrace_undetached(const struct pl_sc_ptrace *p, pid_t *tids, size_t max);
/** Detach (see above; not repeated when it already ran) and free. NULL-safe. */
void pl_sc_ptrace_close(struct pl_sc_ptrace *p);

#endif
