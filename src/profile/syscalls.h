/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --syscalls: exact per-syscall counts, latency (paired sys_enter/sys_exit of the same
 * thread) and errors, from the raw_syscalls tracepoints sampled at period 1, like
 * `strace -c` without stopping the tracee. Names from libseccomp. tracefs is mounted at
 * /sys/kernel/tracing when it is not (root only). */
#ifndef PERFLAB_PROFILE_SYSCALLS_H
#define PERFLAB_PROFILE_SYSCALLS_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct pl_syscalls;

/** Open sys_enter and sys_exit for @pids (-1 = all tasks) on @cpus, disabled, with
 *  enable_on_exec when @on_exec and inherit when @inherit. Returns 0 or -errno:
 *  -ENOENT tracefs or the raw_syscalls events are missing, -EACCES/-EPERM no permission. */
int pl_syscalls_open(struct pl_syscalls **out, const pid_t *pids, size_t npids, const int *cpus,
		     size_t ncpus, bool on_exec, bool inherit);
/** Enable / disable the events. */
void pl_syscalls_enable(struct pl_syscalls *s);
void pl_syscalls_disable(struct pl_syscalls *s);
/** Move the records in the rings into memory (call often; a full ring loses events,
 *  which are counted and reported). */
void pl_syscalls_drain(struct pl_syscalls *s);
/** Print the table: per syscall calls, errors, total ms, mean and max us, sorted by
 *  calls; then lost events. Pairs are formed on first use. */
void pl_syscalls_print(const struct pl_syscalls *s, FILE *out);
/** The same as JSON: {"source", "lost", "calls", "errors", "rows":[{name, nr, calls,
 *  errors, total_ms, mean_us, max_us}]}. */
json_t *pl_syscalls_json(const struct pl_syscalls *s);
/** Calls counted for syscall @name (e.g. "openat"), or 0. */
unsigned long long pl_syscalls_count(const struct pl_syscalls *s, const char *name);
/** Advice line for a -errno from pl_syscalls_open. Static string. */
const char *pl_syscalls_strerror(int err);
/** Close and free. NULL-safe. */
void pl_syscalls_close(struct pl_syscalls *s);

#endif
