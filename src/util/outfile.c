/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "util/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/str.h"

/* Whether an existing non-regular @path (a symlink, device, FIFO) may be written in
 * place at commit, checked without opening it (opening a FIFO blocks for a reader and
 * then hands it an early end of file). 0 or -errno. */
static int check_in_place(const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return -EISDIR;
		/* a disk, partition or loop device is never an output: the report would be
		 * written over its data */
		if (S_ISBLK(st.st_mode))
			return -ENOTSUP;
	} else if (errno != ENOENT) {
		return -errno; /* a symlink loop, a component that is not a directory... */
	}
	/* (a dangling symlink: its target is created at commit, so the directory the
	 * link points into must be writable; open() will say) */
	if (access(path, W_OK) != 0 && errno != ENOENT)
		return -errno;
	return 0;
}

int pl_outfile_open(struct pl_outfile *o, const char *path)
{
	memset(o, 0, sizeof(*o));
	if (!path || strcmp(path, "-") == 0) {
		o->fp = stdout;
		return 0;
	}
	/* A device, FIFO or socket (-o /dev/null, /dev/stdout, a pipe) and a symlink are
	 * written in place: a temporary file renamed over them would replace /dev/null
	 * with a regular file (as root) or the link with a copy. The output is held in
	 * memory and written only at commit, so a failed command leaves the target (the
	 * symlink's file, say) as it was, and a FIFO's reader gets the whole output. */
	struct stat lst;
	if (lstat(path, &lst) == 0 && !S_ISREG(lst.st_mode)) {
		int e = check_in_place(path);
		if (e < 0)
			return e;
		o->fp = open_memstream(&o->buf, &o->len);
		if (!o->fp)
			return -errno;
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

/* Write the @len bytes of @buf to @path in place (a device, FIFO or symlink). 0 or
 * -errno; a short write is -EIO. */
static int write_in_place(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0666);
	if (fd < 0)
		return -errno;
	int r = 0;
	for (size_t off = 0; off < len;) {
		ssize_t n = write(fd, buf + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -EIO;
			break;
		}
		off += (size_t)n;
	}
	/* (fsync only where there is a file to sync: /dev/null and pipes refuse it) */
	struct stat st;
	if (r == 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && fsync(fd) != 0)
		r = -errno;
	if (close(fd) != 0 && r == 0 && errno != EINTR)
		r = -errno;
	return r;
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
	if (!o->tmp) { /* in place: the memory stream, written out only on commit */
		errno = 0;
		if (ferror(o->fp) || fclose(o->fp) != 0)
			r = -(errno ? errno : EIO);
		o->fp = NULL;
		if (commit && r == 0)
			r = write_in_place(o->path, o->buf ? o->buf : "", o->buf ? o->len : 0);
		free(o->buf);
		free(o->path);
		o->buf = o->path = NULL;
		o->len = 0;
		return r;
	}
	if (commit) {
		if (fflush(o->fp) != 0 || ferror(o->fp) || fsync(fileno(o->fp)) != 0)
			r = -(errno ? errno : EIO);
	}
	if (fclose(o->fp) != 0 && r == 0 && commit)
		r = -errno;
	o->fp = NULL;
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

int pl_outfile_check_parent(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? pl_xasprintf("%.*s", slash == path ? 1 : (int)(slash - path), path)
			  : pl_xstrdup(".");
	struct stat st;
	int r = 0;
	if (stat(dir, &st) != 0)
		r = -errno;
	else if (!S_ISDIR(st.st_mode))
		r = -ENOTDIR;
	else if (access(dir, W_OK | X_OK) != 0)
		r = -errno;
	free(dir);
	return r;
}

int pl_outfile_check(const char *path)
{
	if (!path || strcmp(path, "-") == 0)
		return 0;
	/* as pl_outfile_open(): a regular file is replaced by a new one made in its
	 * directory, anything else (a directory, symlink, device, FIFO) is checked in place */
	struct stat lst;
	if (lstat(path, &lst) == 0)
		return S_ISREG(lst.st_mode) ? pl_outfile_check_parent(path) : check_in_place(path);
	if (errno != ENOENT)
		return -errno;
	return pl_outfile_check_parent(path);
}

const char *pl_outfile_strerror(char *buf, size_t len, const char *path, int err)
{
	if (!path || strcmp(path, "-") == 0)
		snprintf(buf, len, "cannot write standard output: %s (give -o FILE)",
			 strerror(-err));
	else
		snprintf(buf, len, "cannot write '%s': %s (choose another -o FILE)", path,
			 strerror(-err));
	return buf;
}

int pl_flush_stdout(void)
{
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout))
		return -(errno ? errno : EIO);
	return 0;
}

void pl_stdfds_reserve(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* the lowest free number: fd itself, as the lower ones are open by now */
		int n = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
		if (n >= 0 && n != fd) {
			dup2(n, fd);
			close(n);
		}
	}
}
