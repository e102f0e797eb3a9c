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

/* The directory part of @path ("." when none; "/" for "/x"), malloc'd. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? pl_xasprintf("%.*s", slash == path ? 1 : (int)(slash - path), path)
		     : pl_xstrdup(".");
}

/* Whether the symlink @lst, found in the directory @dst, may be followed by this process:
 * the kernel's fs.protected_symlinks rule (Documentation/admin-guide/sysctl/fs.rst),
 * applied to every directory others can write, sticky or not: in such a directory the
 * link must belong to us or to the directory's owner, since anyone else could have
 * planted it to turn root's output into a write of any file. */
static bool link_trusted(const struct stat *lst, const struct stat *dst)
{
	if (!(dst->st_mode & (S_IWGRP | S_IWOTH)))
		return true;
	return lst->st_uid == geteuid() || lst->st_uid == dst->st_uid;
}

/* Whether the symlink @path may be followed (link_trusted on its directory): 0 or
 * -EPERM; -errno when the directory cannot be examined. */
static int check_link(const char *path)
{
	char *dir = dir_of(path);
	struct stat lst, dst;
	int r = 0;
	if (stat(dir, &dst) != 0 || lstat(path, &lst) != 0)
		r = -errno;
	else if (S_ISLNK(lst.st_mode) && !link_trusted(&lst, &dst))
		r = -EPERM;
	free(dir);
	return r;
}

/* Whether an existing non-regular @path (a symlink, device, FIFO) may be written in
 * place at commit, checked without opening it (opening a FIFO blocks for a reader and
 * then hands it an early end of file). 0 or -errno. */
static int check_in_place(const char *path)
{
	int e = check_link(path);
	if (e < 0)
		return e;
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

/* Open @path in place for writing (a device, FIFO or symlink) from its directory's
 * descriptor, so what is opened is what was checked: a symlink must pass link_trusted
 * and is read (readlinkat) and checked again (same inode) before its target is opened;
 * anything else is opened with O_NOFOLLOW, so a link planted since the check is refused
 * (-ELOOP). Returns the fd or -errno (-EPERM: a link of another user). */
static int open_in_place(const char *path)
{
	char *dir = dir_of(path);
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (dfd < 0)
		return -errno;
	const int flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY;
	struct stat dst, lst, again;
	int fd;
	if (fstat(dfd, &dst) != 0 || fstatat(dfd, name, &lst, AT_SYMLINK_NOFOLLOW) != 0) {
		fd = errno == ENOENT ? openat(dfd, name, flags | O_NOFOLLOW, 0666) : -1;
	} else if (!S_ISLNK(lst.st_mode)) {
		fd = openat(dfd, name, flags | O_NOFOLLOW, 0666);
	} else if (!link_trusted(&lst, &dst)) {
		errno = EPERM;
		fd = -1;
	} else {
		char target[4096];
		ssize_t n = readlinkat(dfd, name, target, sizeof(target) - 1);
		if (n < 0) {
			fd = -1;
		} else if (fstatat(dfd, name, &again, AT_SYMLINK_NOFOLLOW) != 0 ||
			   again.st_ino != lst.st_ino || again.st_dev != lst.st_dev ||
			   again.st_uid != lst.st_uid) {
			errno = EAGAIN; /* replaced between the two looks */
			fd = -1;
		} else {
			target[n] = '\0';
			fd = openat(dfd, target, flags, 0666);
		}
	}
	int e = errno;
	close(dfd);
	return fd < 0 ? -e : fd;
}

/* Write the @len bytes of @buf to @path in place (a device, FIFO or symlink). 0 or
 * -errno; a short write is -EIO. */
static int write_in_place(const char *path, const char *buf, size_t len)
{
	int fd = open_in_place(path);
	if (fd < 0)
		return fd;
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
	char *dir = dir_of(path);
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
	else if (err == -EPERM && check_link(path) == -EPERM)
		snprintf(buf, len,
			 "cannot write '%s': a symbolic link of another user in a directory "
			 "others can write is never followed (remove it or choose another -o FILE)",
			 path);
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
