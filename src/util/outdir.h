/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Output directories (report -o DIR, the default ./perflab-report, monitor --html-dir,
 * perflab-mpi report): a directory perflab made, or one that already belongs to the user
 * and that no other user can plant names in, and files created in it through its
 * descriptor: each is written to memory, then to a temporary file made O_EXCL |
 * O_NOFOLLOW and renamed over its name with renameat(2) (util/beneath.h), so a symlink
 * planted at an output's name is replaced, never followed, and a failure leaves the
 * earlier file as it was. */
#ifndef PERFLAB_UTIL_OUTDIR_H
#define PERFLAB_UTIL_OUTDIR_H
#include <stdbool.h>
#include <stdio.h>

/** Open the output directory @dir, creating it (mode 0777 less the umask) when absent;
 *  the path may go through symlinks (the user's choice), the directory it reaches is
 *  checked after it is opened. Returns an O_PATH | O_DIRECTORY descriptor (the caller
 *  closes it) or -errno: -EPERM when it exists but belongs to another user than the
 *  effective one, -EACCES when group or others may write it without the sticky bit
 *  (another user could plant names in it), -ENOTDIR when it is not a directory. *@why
 *  (may be NULL) gets a static phrase for -EPERM and -EACCES ("not owned by you", "writable
 *  by other users"), NULL otherwise. */
int pl_outdir_open(const char *dir, const char **why);

/** One file of an output directory while it is written. */
struct pl_outdir_file {
	FILE *fp;	  /**< where the caller writes (a memory stream) */
	char *buf;	  /**< the bytes so far (open_memstream); owned */
	size_t len;	  /**< bytes in buf */
	int dirfd;	  /**< the directory (borrowed, pl_outdir_open's) */
	const char *name; /**< the file's name in it (borrowed; no '/') */
};

/** Start file @name (one component) of the directory @dirfd. Returns 0 or -errno
 *  (-EINVAL for a name with '/', ".", ".." or empty). */
int pl_outdir_file_open(struct pl_outdir_file *f, int dirfd, const char *name);

/** Finish: when @commit and the stream has no error, write the bytes as the file with
 *  mode 0644 (pl_beneath_write_atomic); always free the buffer. Returns 0 or -errno
 *  (-EIO after a stream error). Safe to call twice. */
int pl_outdir_file_close(struct pl_outdir_file *f, bool commit);

/** pl_outdir_file_open, @text written, pl_outdir_file_close(commit). Returns 0 or -errno. */
int pl_outdir_write(int dirfd, const char *name, const char *text);

#endif
