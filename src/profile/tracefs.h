/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Kernel tracepoints as perf events: where tracefs is, a tracepoint's id, and the
 * offset and size of a field of its raw record from the event's `format` file
 * (Documentation/trace/events.rst, "Event formats"). Every read goes through the
 * sysroot helper. */
#ifndef PERFLAB_PROFILE_TRACEFS_H
#define PERFLAB_PROFILE_TRACEFS_H
#include <stdint.h>

/** The tracefs directory that holds events/@sys ("raw_syscalls", "sched"):
 *  /sys/kernel/tracing, else /sys/kernel/debug/tracing; on a live machine where neither
 *  has it and /sys/kernel/tracing exists, tracefs is mounted there first (root only).
 *  Returns a static string, or NULL when no tracefs with that subsystem is readable. */
const char *pl_tracefs_dir(const char *sys);

/** Whether a missing tracefs is a permission matter: -EACCES when
 *  /sys/kernel/tracing exists but cannot be listed (not root), else -ENOENT. */
int pl_tracefs_missing_errno(void);

/** The id of tracepoint @sys:@ev under tracefs @dir (events/SYS/EV/id) into *@id and,
 *  when @format is non-NULL, its format text (malloc'd, owned by the caller) into
 *  *@format. Returns 0 or -errno of the read (-ENOENT: no such tracepoint). */
int pl_tracefs_event(const char *dir, const char *sys, const char *ev, uint64_t *id, char **format);

/** Find field @name in the format text @fmt ("\tfield:unsigned int prev_state;\t
 *  offset:24;\tsize:4;\tsigned:0;"): *@offset and *@size (bytes, either may be NULL)
 *  from the raw record's start. Returns 0, or -ENOENT when the field, its offset or a
 *  positive size is missing (the outputs are then left unchanged). */
int pl_tracefs_field(const char *fmt, const char *name, int *offset, int *size);

#endif
