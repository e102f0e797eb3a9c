/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Output files written atomically: a temporary file beside the target, renamed into place
 * only when everything was written and flushed, so a failure never leaves a partial file
 * and never destroys an earlier good one. An existing symlink, device or FIFO is written
 * in place instead (renaming over it would replace it), from memory at commit, so a
 * failure leaves it untouched there too. A symlink is followed only where nobody else
 * could have planted it: in a directory others can write (sticky or not) it must belong
 * to this user or to the directory's owner (fs.protected_symlinks' rule,
 * Documentation/admin-guide/sysctl/fs.rst), checked at open and again at commit, where
 * the link is read and its target opened from the directory's descriptor. */
#ifndef PERFLAB_UTIL_OUTFILE_H
#define PERFLAB_UTIL_OUTFILE_H
#include <stdbool.h>
#include <stdio.h>

/** An open output. fp is stdout for path NULL or "-". */
struct pl_outfile {
	FILE *fp;
	char *path; /**< final path, or NULL for stdout; owned */
	char *tmp;  /**< temporary path while open (NULL: written in place); owned */
	char *buf;  /**< in place: the output so far (open_memstream); owned */
	size_t len; /**< in place: bytes in buf */
};

/** Open @path (NULL or "-" = stdout) for writing. An existing symlink, character device
 *  or FIFO (/dev/null, /dev/stdout, a pipe) is written in place, not replaced (tmp stays
 *  NULL): it is only checked for write access here, without opening it (a FIFO's reader
 *  would see an early end), the output is kept in memory (fp is a memory stream, no
 *  fileno), and the target is opened and written at pl_outfile_close(commit). @o must
 *  not be copied while open. Returns 0 or -errno (e.g. -ENOENT when the directory does
 *  not exist, -EACCES when it cannot be written, -EISDIR for a directory, -ENOTSUP for
 *  a block device, whose data the output would overwrite, -EPERM for a symlink of
 *  another user in a directory others can write). */
int pl_outfile_open(struct pl_outfile *o, const char *path);
/** Finish: when @commit, flush, fsync and rename into place (in place: open the target
 *  with O_TRUNC, a link checked again as at open (-EPERM), anything else with
 *  O_NOFOLLOW, and write the output, fsync where it is a regular file; stdout: flush
 *  and check for write errors); otherwise remove the temporary file (in place: the
 *  target is left untouched). Returns 0 or -errno. Safe to call twice; NULL-safe. */
int pl_outfile_close(struct pl_outfile *o, bool commit);

/** Check, before long work, that @path (NULL or "-": standard output, always fine) can
 *  take an output, creating nothing: an existing file must be writable (a directory is
 *  -EISDIR, a block device -ENOTSUP, as pl_outfile_open() says), a new one needs the
 *  directory pl_outfile_check_parent() checks. Returns 0 or -errno. The checks are
 *  access(2)'s: root passes them all except on a read-only file system (-EROFS). */
int pl_outfile_check(const char *path);
/** Check that the directory @path is (to be) created in, its part before the last '/'
 *  ("." when none), exists and can be written: -ENOENT, -ENOTDIR, -EACCES (or another
 *  access(2) error), else 0. */
int pl_outfile_check_parent(const char *path);
/** The error line of every command whose -o FILE @path (NULL or "-": standard output)
 *  cannot be written, @err a negative errno: "cannot write 'PATH': REASON (choose
 *  another -o FILE)" ("cannot write standard output: REASON (give -o FILE)"), in @buf
 *  (@len bytes, truncated to fit). Returns @buf. */
const char *pl_outfile_strerror(char *buf, size_t len, const char *path, int err);

/** Flush stdout and report a write error (full disk, closed pipe) as -errno, so commands
 *  can exit non-zero instead of 0 (git's rule). */
int pl_flush_stdout(void);
/** Keep descriptors 0, 1 and 2 taken: one closed at start (`2>&-`) gets /dev/null,
 *  opened read-only for 1 and 2 (writes fail with EBADF, as on the closed descriptor,
 *  so output written there is an error, exit 3) and write-only for 0 (reads fail).
 *  Without it the first open() (a memfd, a perf event fd, an -o file) takes the number
 *  and stderr or stdout output silently lands in it. Call first in main(). */
void pl_stdfds_reserve(void);

#endif
