/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "util/outdir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/beneath.h"

int pl_outdir_open(const char *dir, const char **why)
{
	if (why)
		*why = NULL;
	if (!dir || !*dir)
		return -EINVAL;
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return -errno;
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	struct stat st;
	int r = 0;
	if (fstat(fd, &st) < 0)
		r = -errno;
	else if (st.st_uid != geteuid())
		r = -EPERM;
	else if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
		r = -EACCES;
	if (r < 0) {
		if (why)
			*why = r == -EPERM    ? "not owned by you"
			       : r == -EACCES ? "writable by other users"
					      : NULL;
		close(fd);
		return r;
	}
	return fd;
}

int pl_outdir_file_open(struct pl_outdir_file *f, int dirfd, const char *name)
{
	memset(f, 0, sizeof(*f));
	if (!name || !*name || strchr(name, '/') || strcmp(name, ".") == 0 ||
	    strcmp(name, "..") == 0)
		return -EINVAL;
	f->fp = open_memstream(&f->buf, &f->len);
	if (!f->fp)
		return -errno;
	f->dirfd = dirfd;
	f->name = name;
	return 0;
}

int pl_outdir_file_close(struct pl_outdir_file *f, bool commit)
{
	if (!f->fp && !f->buf)
		return 0;
	int r = 0;
	if (f->fp) {
		bool err = ferror(f->fp);
		if (fclose(f->fp) != 0 || err)
			r = -EIO;
		f->fp = NULL;
	}
	if (commit && r == 0)
		r = pl_beneath_write_atomic(f->dirfd, f->name, f->buf ? f->buf : "", f->len, 0644);
	free(f->buf);
	f->buf = NULL;
	return r;
}

int pl_outdir_write(int dirfd, const char *name, const char *text)
{
	struct pl_outdir_file f;
	int r = pl_outdir_file_open(&f, dirfd, name);
	if (r < 0)
		return r;
	fputs(text, f.fp);
	return pl_outdir_file_close(&f, true);
}
