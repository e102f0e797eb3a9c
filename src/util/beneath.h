/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Path operations confined to a directory: every create, write, rename, mkdir, symlink and
 * unlink that perflab does below a sysroot (or below / when live) names its target
 * relative to a directory descriptor and never follows a symlink on the way, so a tree
 * whose owner plants a link, or swaps a directory for one between a check and a write,
 * cannot make root act outside it. The walk uses openat2(2) with RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS (Linux 5.6, Documentation/filesystems/
 * path-lookup.rst) and falls back to opening one component at a time with O_NOFOLLOW
 * where openat2 is missing or refused (ENOSYS, EPERM under a seccomp filter). The action
 * itself then works on the parent's descriptor (renameat, symlinkat, unlinkat, mkdirat),
 * so checking and acting cannot be split by a race.
 *
 * Relative paths: leading '/' characters are skipped, so "/etc/x" below root "/srv/t"
 * means "/srv/t/etc/x". Empty components and "." are skipped; ".." is refused (-EXDEV).
 * A path ending in '/' names no file to act on (-EINVAL where a last component is needed).
 * Every function returns a descriptor or 0 on success and -errno on failure; -ELOOP
 * means a symlink was met on the way or at the end. */
#ifndef PERFLAB_UTIL_BENEATH_H
#define PERFLAB_UTIL_BENEATH_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/** Open the directory @root (NULL or "": "/") as the anchor of the other calls: an
 *  O_PATH | O_DIRECTORY descriptor, close-on-exec; the caller closes it. The root itself
 *  may be reached through symlinks (it is the user's own choice of tree). Returns the fd
 *  or -errno (-ENOTDIR when @root is not a directory). */
int pl_beneath_root(const char *root);

/** openat(2) of @rel below @dirfd with @flags (O_CLOEXEC and O_NOFOLLOW are added) and
 *  @mode, never following a symlink or leaving @dirfd's tree. Returns the fd or -errno. */
int pl_beneath_open(int dirfd, const char *rel, int flags, mode_t mode);

/** The directory holding the last component of @rel, opened O_PATH | O_DIRECTORY below
 *  @dirfd, and in *@base a pointer into @rel at that last component (not empty, not "."
 *  or ".."; -EINVAL otherwise). Returns the fd (the caller closes it) or -errno. */
int pl_beneath_parent(int dirfd, const char *rel, const char **base);

/** mkdir -p of @rel below @dirfd: each missing directory is created with @mode (an
 *  existing symlink in the way is -ELOOP, an existing non-directory -ENOTDIR). Returns
 *  an O_PATH | O_DIRECTORY fd of the last directory (the caller closes it) or -errno. */
int pl_beneath_mkdirs(int dirfd, const char *rel, mode_t mode);

/** Replace the file @rel below @dirfd with @len bytes of @buf, atomically: a temporary
 *  file is created O_EXCL | O_NOFOLLOW in the target's directory (opened beneath),
 *  written, fsync'd, given @mode and renamed over the target with renameat(2) on that
 *  directory's descriptor; on any failure the temporary file is removed and the target
 *  is untouched. An existing symlink at @rel is replaced, not followed. Returns 0 or
 *  -errno. */
int pl_beneath_write_atomic(int dirfd, const char *rel, const void *buf, size_t len, mode_t mode);

/** unlinkat(2) of the non-directory @rel below @dirfd (a symlink there is removed
 *  itself). Returns 0 or -errno (-ENOENT when it is absent). */
int pl_beneath_unlink(int dirfd, const char *rel);

/** Remove the empty directory @rel below @dirfd (unlinkat AT_REMOVEDIR). Returns 0 or
 *  -errno (-ENOTEMPTY, -ENOENT, -ENOTDIR for a symlink or file). */
int pl_beneath_rmdir(int dirfd, const char *rel);

/** Create the symlink @rel below @dirfd pointing at @target (symlinkat(2); the target
 *  string is stored as given, not resolved). Returns 0 or -errno (-EEXIST). */
int pl_beneath_symlink(const char *target, int dirfd, const char *rel);

/** Tests: when @on, never use openat2 and take the one-component-at-a-time walk. */
void pl_beneath_force_walk(bool on);

#endif
