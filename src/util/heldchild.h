/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A command started and held before its exec, so counters or sampling events can be
 * opened on it with enable_on_exec first (as perf record and perf stat start a
 * workload): fork, the child waits for one byte on a pipe, then execvp; an exec failure
 * comes back as the child's errno through a close-on-exec pipe, which closes unread at a
 * successful exec. */
#ifndef PERFLAB_UTIL_HELDCHILD_H
#define PERFLAB_UTIL_HELDCHILD_H
#include <sys/types.h>

/** Fork @argv (argv[0] searched in $PATH) held before its exec. Sets *@pid, *@go_fd (write
 *  one byte to let it exec, then close) and *@err_fd (read an int: the exec's errno, or
 *  end of file when the exec succeeded); both descriptors are close-on-exec and owned by
 *  the caller. Returns 0, or -errno from pipe2() or fork() (nothing left open then). */
int pl_held_child_start(char **argv, pid_t *pid, int *go_fd, int *err_fd);

#endif
