/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "util/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/str.h"

int pl_outfile_open(struct pl_outfile *o, const char *path)
{
	memset(o, 0, sizeof(*o));
	if (!path || strcmp(path, "-") == 0) {
		o->fp = stdout;
		return 0;
	}
	/* A device, FIFO or socket (-o /dev/null, /dev/stdout, a pipe) and a symlink are
	 * written in place: a temporary file renamed over them would replace /dev/null
	 * with a regular file (as root) or the link with a copy. */
	struct stat lst;
	if (lstat(path, &lst) == 0 && !S_ISREG(lst.st_mode)) {
		int dfd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0666);
		if (dfd < 0)
			return -errno;
		o->fp = fdopen(dfd, "w");
		if (!o->fp) {
			int e = -errno;
			close(dfd);
			return e;
		}
		o->path = pl_xstrdup(path); /* tmp NULL: written in place */
		return 0;
	}
	char *tmp = pl_xasprintf("%s.tmpXXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		int e = -errno;
		free(tmp);
		return e;
	}
	/* mkstemp creates 0600; output files are ordinary user files. */
	mode_t mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
	o->fp = fdopen(fd, "w");
	if (!o->fp) {
		int e = -errno;
		close(fd);
		unlink(tmp);
		free(tmp);
		return e;
	}
	o->tmp = tmp;
	o->path = pl_xstrdup(path);
	return 0;
}

int pl_outfile_close(struct pl_outfile *o, bool commit)
{
	if (!o || !o->fp)
		return 0;
	int r = 0;
	if (o->fp == stdout) {
		if (fflush(stdout) != 0 || ferror(stdout))
			r = -(errno ? errno : EIO);
		o->fp = NULL;
		return r;
	}
	if (commit) {
		/* (fsync only where there is a file to sync: /dev/null and pipes refuse it) */
		struct stat st;
		bool reg = fstat(fileno(o->fp), &st) == 0 && S_ISREG(st.st_mode);
		if (fflush(o->fp) != 0 || ferror(o->fp) || (reg && fsync(fileno(o->fp)) != 0))
			r = -(errno ? errno : EIO);
	}
	if (fclose(o->fp) != 0 && r == 0 && commit)
		r = -errno;
	o->fp = NULL;
	if (!o->tmp) { /* written in place */
		free(o->path);
		o->path = NULL;
		return r;
	}
	if (commit && r == 0) {
		if (rename(o->tmp, o->path) != 0)
			r = -errno;
	}
	if (!commit || r < 0)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	return r;
}

int pl_flush_stdout(void)
{
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout))
		return -(errno ? errno : EIO);
	return 0;
}
