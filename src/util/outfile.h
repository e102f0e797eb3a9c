/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Output files written atomically: a temporary file beside the target, renamed into place
 * only when everything was written and flushed, so a failure never leaves a partial file
 * and never destroys an earlier good one. */
#ifndef PERFLAB_UTIL_OUTFILE_H
#define PERFLAB_UTIL_OUTFILE_H
#include <stdbool.h>
#include <stdio.h>

/** An open output. fp is stdout for path NULL or "-". */
struct pl_outfile {
	FILE *fp;
	char *path; /**< final path, or NULL for stdout; owned */
	char *tmp;  /**< temporary path while open (NULL: written in place); owned */
};

/** Open @path (NULL or "-" = stdout) for writing. An existing device, FIFO, socket or
 *  symlink (/dev/null, /dev/stdout, a pipe) is opened and written in place, not
 *  replaced (tmp stays NULL). Returns 0 or -errno (e.g. -ENOENT when the directory does
 *  not exist, -EACCES when it cannot be written). */
int pl_outfile_open(struct pl_outfile *o, const char *path);
/** Finish: when @commit, flush, fsync and rename into place (stdout: flush and check for
 *  write errors); otherwise remove the temporary file. Returns 0 or -errno. Safe to call
 *  twice; NULL-safe. */
int pl_outfile_close(struct pl_outfile *o, bool commit);

/** Flush stdout and report a write error (full disk, closed pipe) as -errno, so commands
 *  can exit non-zero instead of 0 (git's rule). */
int pl_flush_stdout(void);

#endif
