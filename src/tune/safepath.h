/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Where perflab tune may write, and how a target name becomes a real path inside the
 * sysroot. perflab writes only below <sysroot>/proc/sys, below <sysroot>/sys and to the
 * grub default file <sysroot>/etc/default/grub. A target is checked
 * twice: its name (no "..", no "." or empty components) and the real path after every
 * symlink is resolved (it must still lie inside the same allowed area of the sysroot);
 * that real path is then opened from the sysroot's descriptor with no symlink followed
 * (util/beneath.h) and the descriptor is checked again through /proc/self/fd, so a
 * symlink swapped in between cannot redirect the open or the write. */
#ifndef PERFLAB_TUNE_SAFEPATH_H
#define PERFLAB_TUNE_SAFEPATH_H
#include <stdbool.h>
#include <stddef.h>

/** The grub default file, the only writable target outside /proc/sys and /sys. */
#define PL_TUNE_GRUB_FILE "/etc/default/grub"

/** Check the syntax of target @abs (an absolute path as seen inside the sysroot, e.g.
 *  "/proc/sys/net/core/somaxconn"): it must start with "/proc/sys/" or "/sys/" or equal
 *  PL_TUNE_GRUB_FILE, and contain no "..", "." or empty components and no control
 *  characters. Returns 0, -EINVAL (bad syntax, traversal) or -EPERM (outside the allowed
 *  areas). Does not touch the file system. */
int pl_tune_target_check(const char *abs);

/** Resolve target @abs to its real host path (sysroot prefix included) in @buf of @len
 *  bytes, following symlinks, and check that the result stays inside the allowed area
 *  of the sysroot the name started in (a /sys name must resolve under <sysroot>/sys,
 *  the grub file must resolve to itself). With a sysroot other than "/", a regular file
 *  with more than one hard link is refused: it may share its inode with a file outside
 *  the sysroot. A missing grub file resolves through its directory. Returns
 *  0, the errors of pl_tune_target_check(), -EXDEV (a symlink leads out of the allowed
 *  area: "outside the sysroot"), -EMLINK (hard link in a sysroot), -ENOENT or another
 *  -errno from realpath(3). */
int pl_tune_resolve(const char *abs, char *buf, size_t len);

/** Open target @abs for writing (O_WRONLY | O_CLOEXEC, never O_CREAT) after
 *  pl_tune_resolve(): the resolved name is opened below the sysroot's descriptor without
 *  following any symlink (util/beneath.h), so a component swapped for a link since the
 *  resolution is -EXDEV, and the opened descriptor is checked to be the resolved file
 *  (and, in a sysroot, to still have one link). Returns the descriptor (caller closes)
 *  or the -errno of pl_tune_resolve()/open(2). */
int pl_tune_open_write(const char *abs);

/** True when the open descriptor @fd is on procfs or sysfs (the kernel interprets writes;
 *  a regular file in a fixture tree is replaced instead). */
bool pl_tune_fd_is_kernel(int fd);

/** Short reason for the errors of this module ("name contains '..'", "symlink leads out
 *  of the sysroot"...), falling back to strerror(). Static string, never NULL. */
const char *pl_tune_path_strerror(int neg_errno);

/** Map a sysctl name as written in profiles ("net.core.somaxconn",
 *  "net/ipv4/conf/eth0.100/rp_filter") to its /proc/sys path in a malloc'd string
 *  (*out, caller frees), following sysctl(8): dots separate components unless the name
 *  contains a slash. Returns 0 or -EINVAL (empty, "..", ".", leading separator,
 *  characters outside [A-Za-z0-9_.:@+-/]). */
int pl_tune_sysctl_path(const char *name, char **out);

#endif
