/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A private temporary directory that goes away with the process: made with mkdtemp(3)
 * (mode 0700) under $TMPDIR, else /dev/shm (memory: creating and removing a few hundred
 * files there costs a tenth of what it does on a disk file system that discards freed
 * blocks), else /tmp, and removed with everything in it on every exit
 * path: pl_privdir_remove(), exit() and a return from main() (atexit), and the signals
 * that end a run by default, SIGINT, SIGTERM and SIGHUP (the handler removes the tree,
 * restores the default action and raises the signal again, so the exit status still
 * says which signal ended the run). A command that installs its own handler for one of
 * them later takes that signal over and ends through exit(), which removes the tree too.
 *
 * The removal is async-signal-safe (openat, getdents64, unlinkat, close: no malloc, no
 * stdio), walks below the directory's descriptor without following a symlink, and only
 * runs in the process that made the directory (a forked child that exits leaves it).
 * One directory per process at a time. */
#ifndef PERFLAB_UTIL_PRIVDIR_H
#define PERFLAB_UTIL_PRIVDIR_H

/** Create the private directory "<$TMPDIR, /dev/shm or /tmp>/@prefix.XXXXXX" (0700) and arrange its
 *  removal as above. *@path gets its absolute path (static storage, valid until
 *  pl_privdir_remove()). Returns 0, -EBUSY when this process already holds one, or
 *  -errno from mkdtemp (-ENAMETOOLONG when $TMPDIR is too long). */
int pl_privdir_create(const char *prefix, const char **path);

/** Remove the private directory and everything in it now, if this process holds one
 *  (idempotent; the signal handlers stay installed and do nothing after it). */
void pl_privdir_remove(void);

/** Remove everything below the directory descriptor @dirfd (not the directory itself),
 *  never following a symlink (a symlink is removed as itself) and using only
 *  async-signal-safe calls, so a signal handler can call it. @dirfd is not closed.
 *  Returns 0 or the first -errno met (it goes on removing what it can). */
int pl_rmtree_below(int dirfd);

#endif
