/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "util/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/record.h"
#include "util/str.h"

static char sysroot[PATH_MAX] = "";

int pl_sysroot_set(const char *dir)
{
	if (!dir || strcmp(dir, "/") == 0 || *dir == '\0') {
		sysroot[0] = '\0';
		return 0;
	}
	struct stat st;
	if (stat(dir, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	char real[PATH_MAX];
	if (!realpath(dir, real))
		return -errno;
	if (strcmp(real, "/") == 0)
		real[0] = '\0';
	snprintf(sysroot, sizeof(sysroot), "%s", real);
	return 0;
}

const char *pl_sysroot(void)
{
	return sysroot;
}

bool pl_sysroot_is_live(void)
{
	return sysroot[0] == '\0';
}

int pl_sysroot_path(char *buf, size_t len, const char *abs)
{
	if (!abs || abs[0] != '/')
		return -EINVAL;
	int n = snprintf(buf, len, "%s%s", sysroot, abs);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* Open @path for reading if it is a regular file: the fd, or -errno (pl_read_file's). */
static int open_regular(const char *path)
{
	/* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int e = -errno;
		close(fd);
		return e;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -PL_ENOTREG;
	}
	return fd;
}

static long read_all(int fd, bool at0, char **buf, size_t *cap);

/* In a sysroot: the -errno PL_READ_ERRORS records for @abs, or -ENOENT. The file is read
 * once per sysroot. */
static int replayed_error(const char *abs)
{
	static char *root, *text;
	if (pl_sysroot_is_live())
		return -ENOENT;
	if (!root || strcmp(root, sysroot) != 0) {
		free(root);
		free(text);
		root = pl_xstrdup(sysroot);
		text = NULL;
		char path[PATH_MAX];
		int fd = pl_sysroot_path(path, sizeof(path), PL_READ_ERRORS) < 0
				 ? -ENAMETOOLONG
				 : open_regular(path);
		if (fd >= 0) {
			size_t cap = 0;
			if (read_all(fd, false, &text, &cap) < 0) {
				free(text);
				text = NULL;
			}
			close(fd);
		}
	}
	size_t al = strlen(abs);
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		char *end;
		long e = strtol(p, &end, 10);
		if (end > p && *end == ' ' && (size_t)(end + 1 - p) + al == l &&
		    memcmp(end + 1, abs, al) == 0 && e > 0 && e < 4096 && e != ENOENT)
			return (int)-e;
		p = nl ? nl + 1 : p + l;
	}
	return -ENOENT;
}

/* Read @fd to EOF into *buf (malloc'd, *cap bytes, grown as needed) and NUL-terminate
 * it: with read() from where it is, or with @at0 by pread() from offset 0. Returns the
 * length, or -errno (-EFBIG past PL_READ_MAX; -ESPIPE: a stream that cannot pread). */
static long read_all(int fd, bool at0, char **buf, size_t *cap)
{
	/* /proc and /sys files report size 0 or 4096: read until EOF, one byte past the cap
	 * to tell a file of exactly PL_READ_MAX bytes from a longer one. */
	size_t n = 0;
	if (!*buf) {
		*cap = 4096;
		*buf = pl_xmalloc(*cap);
	}
	for (;;) {
		if (n + 1 >= *cap) {
			if (*cap > PL_READ_MAX)
				return -EFBIG;
			*cap = *cap * 2 > (size_t)PL_READ_MAX + 2 ? (size_t)PL_READ_MAX + 2
								  : *cap * 2;
			*buf = pl_xrealloc(*buf, *cap);
		}
		ssize_t got = at0 ? pread(fd, *buf + n, *cap - n - 1, (off_t)n)
				  : read(fd, *buf + n, *cap - n - 1);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	(*buf)[n] = '\0';
	return (long)n;
}

int pl_read_file(const char *abs, char **out, size_t *len)
{
	char path[PATH_MAX];
	int r = pl_sysroot_path(path, sizeof(path), abs);
	if (r < 0)
		return r;
	int fd = open_regular(path);
	if (fd == -ENOENT)
		fd = replayed_error(abs);
	if (fd < 0) {
		pl_record_failure(abs, fd);
		return fd;
	}
	char *buf = NULL;
	size_t cap = 0;
	long n = read_all(fd, false, &buf, &cap);
	close(fd);
	if (n < 0) {
		free(buf);
		pl_record_failure(abs, (int)n);
		return (int)n;
	}
	pl_record_file(abs, buf, (size_t)n);
	*out = buf;
	if (len)
		*len = (size_t)n;
	return 0;
}

void pl_reader_close(struct pl_reader *r)
{
	if (!r)
		return;
	if (r->path)
		close(r->fd);
	free(r->path);
	free(r->buf);
	memset(r, 0, sizeof(*r));
}

int pl_reader_read(struct pl_reader *r, const char *abs, const char **text, size_t *len)
{
	char path[PATH_MAX];
	int e = pl_sysroot_path(path, sizeof(path), abs);
	if (e < 0)
		return e;
	struct stat st;
	/* removed or replaced (renamed over) since it was opened: open the path again */
	if (r->path && (strcmp(r->path, path) != 0 || fstat(r->fd, &st) < 0 || st.st_nlink == 0)) {
		close(r->fd);
		free(r->path);
		r->path = NULL;
	}
	if (!r->path) {
		int fd = open_regular(path);
		if (fd == -ENOENT)
			fd = replayed_error(abs);
		if (fd < 0) {
			pl_record_failure(abs, fd);
			return fd;
		}
		r->fd = fd;
		r->path = pl_xstrdup(path);
	}
	long n = read_all(r->fd, true, &r->buf, &r->cap);
	if (n == -ESPIPE) { /* a stream (stream_open) cannot pread: read a fresh open */
		close(r->fd);
		int fd = open_regular(path);
		n = fd < 0 ? fd : read_all(fd, false, &r->buf, &r->cap);
		if (fd >= 0)
			close(fd);
		free(r->path);
		r->path = NULL;
		if (n < 0) {
			pl_record_failure(abs, (int)n);
			return (int)n;
		}
		pl_record_file(abs, r->buf, (size_t)n);
		*text = r->buf;
		if (len)
			*len = (size_t)n;
		return 0;
	}
	if (n < 0) {
		close(r->fd);
		free(r->path);
		r->path = NULL;
		pl_record_failure(abs, (int)n);
		return (int)n;
	}
	pl_record_file(abs, r->buf, (size_t)n);
	*text = r->buf;
	if (len)
		*len = (size_t)n;
	return 0;
}

int pl_read_str(const char *abs, char **out)
{
	char *buf;
	int r = pl_read_file(abs, &buf, NULL);
	if (r < 0)
		return r;
	buf[strcspn(buf, "\n")] = '\0';
	char *t = pl_trim(buf);
	if (*t == '\0') {
		free(buf);
		return -ENODATA;
	}
	memmove(buf, t, strlen(t) + 1);
	*out = buf;
	return 0;
}

int pl_read_u64(const char *abs, uint64_t *out)
{
	char *s;
	int r = pl_read_str(abs, &s);
	if (r < 0)
		return r;
	r = pl_parse_u64(s, out);
	free(s);
	return r < 0 ? -EINVAL : 0;
}

int pl_read_i64(const char *abs, int64_t *out)
{
	char *s;
	int r = pl_read_str(abs, &s);
	if (r < 0)
		return r;
	r = pl_parse_i64(s, out);
	free(s);
	return r < 0 ? -EINVAL : 0;
}

#define FMT_PATH(buf, fmt)                                                                         \
	do {                                                                                       \
		va_list ap_;                                                                       \
		va_start(ap_, fmt);                                                                \
		int n_ = vsnprintf(buf, sizeof(buf), fmt, ap_);                                    \
		va_end(ap_);                                                                       \
		if (n_ < 0 || (size_t)n_ >= sizeof(buf))                                           \
			return -ENAMETOOLONG;                                                      \
	} while (0)

int pl_read_filef(char **out, size_t *len, const char *fmt, ...)
{
	char p[PATH_MAX];
	FMT_PATH(p, fmt);
	return pl_read_file(p, out, len);
}

int pl_read_strf(char **out, const char *fmt, ...)
{
	char p[PATH_MAX];
	FMT_PATH(p, fmt);
	return pl_read_str(p, out);
}

int pl_read_u64f(uint64_t *out, const char *fmt, ...)
{
	char p[PATH_MAX];
	FMT_PATH(p, fmt);
	return pl_read_u64(p, out);
}

bool pl_exists(const char *abs)
{
	char path[PATH_MAX];
	if (pl_sysroot_path(path, sizeof(path), abs) < 0)
		return false;
	if (access(path, F_OK) < 0)
		return false;
	pl_record_exists(abs);
	return true;
}

DIR *pl_opendir(const char *abs)
{
	char path[PATH_MAX];
	int r = pl_sysroot_path(path, sizeof(path), abs);
	if (r < 0) {
		errno = -r;
		return NULL;
	}
	return opendir(path);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pl_list_dir(const char *abs, char ***out, size_t *n)
{
	DIR *d = pl_opendir(abs);
	if (!d) {
		int e = -errno;
		pl_record_failure(abs, e);
		return e;
	}
	size_t cap = 16, cnt = 0;
	char **v = pl_xmalloc(cap * sizeof(*v));
	struct dirent *de;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (cnt + 2 > cap) {
			cap *= 2;
			v = pl_xrealloc(v, cap * sizeof(*v));
		}
		v[cnt++] = pl_xstrdup(de->d_name);
	}
	closedir(d);
	qsort(v, cnt, sizeof(*v), cmp_str);
	v[cnt] = NULL;
	pl_record_dir(abs, v);
	*out = v;
	if (n)
		*n = cnt;
	return 0;
}

int pl_readlink(const char *abs, char **out)
{
	char path[PATH_MAX], target[PATH_MAX];
	int r = pl_sysroot_path(path, sizeof(path), abs);
	if (r < 0)
		return r;
	ssize_t n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	pl_record_link(abs);
	*out = pl_xstrdup(target);
	return 0;
}

const char *pl_read_strerror(int neg_errno)
{
	switch (-neg_errno) {
	case ENOENT:
		return "not present";
	case EACCES:
		return "permission denied";
	case EPERM:
		return "operation not permitted";
	case EINVAL:
		return "not a number or malformed";
	case ENODATA:
		return "empty";
	case EISDIR:
		return "is a directory";
	case ENOTDIR:
		return "not a directory";
	case ENAMETOOLONG:
		return "path too long";
	case EIO:
		return "I/O error";
	case ENODEV:
		return "no such device";
	case EOPNOTSUPP:
		return "not supported";
	case PL_ENOTREG:
		return "not a regular file (FIFO, socket or device)";
	case ELOOP:
		return "symlink loop";
	case EFBIG:
		return "larger than 16 MiB";
	default:
		return strerror(-neg_errno);
	}
}
