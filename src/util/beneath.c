/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "util/beneath.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static bool force_walk;

void pl_beneath_force_walk(bool on)
{
	force_walk = on;
}

int pl_beneath_root(const char *root)
{
	int fd = open(root && *root ? root : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Copy @rel into @buf without leading '/', refusing ".." components and over-long paths.
 * An empty result becomes ".". Returns 0 or -errno. */
static int normalize(const char *rel, char *buf, size_t len)
{
	if (!rel)
		return -EINVAL;
	while (*rel == '/')
		rel++;
	size_t n = strlen(rel);
	if (n + 2 > len)
		return -ENAMETOOLONG;
	for (const char *p = rel; *p;) {
		size_t c = strcspn(p, "/");
		if (c == 2 && p[0] == '.' && p[1] == '.')
			return -EXDEV;
		p += c;
		while (*p == '/')
			p++;
	}
	memcpy(buf, n ? rel : ".", n ? n + 1 : 2);
	return 0;
}

/* -ELOOP when @name below @dirfd is a symlink, else @err (the error openat gave). */
static int why(int dirfd, const char *name, int err)
{
	struct stat st;
	if ((err == ENOTDIR || err == ELOOP) &&
	    fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
		return -ELOOP;
	return -err;
}

/* One component at a time from @dirfd: directories opened O_PATH | O_NOFOLLOW, the last
 * component with @flags. @path is normalized and is modified (cut at each '/'). */
static int walk(int dirfd, char *path, int flags, mode_t mode)
{
	int cur = dirfd;
	char *p = path;
	for (;;) {
		size_t c = strcspn(p, "/");
		char *next = p + c;
		while (*next == '/')
			next++;
		bool last = !*next;
		p[c] = '\0';
		int fd;
		if (last)
			fd = openat(cur, p, flags | O_NOFOLLOW | O_CLOEXEC, mode);
		else if (c == 0 || (c == 1 && p[0] == '.'))
			fd = openat(cur, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
		else
			fd = openat(cur, p, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int err = fd < 0 ? why(cur, p, errno) : 0;
		if (cur != dirfd)
			close(cur);
		if (fd < 0)
			return err;
		if (last)
			return fd;
		cur = fd;
		p = next;
	}
}

int pl_beneath_open(int dirfd, const char *rel, int flags, mode_t mode)
{
	char path[PATH_MAX];
	int rc = normalize(rel, path, sizeof(path));
	if (rc < 0)
		return rc;
	if (!force_walk) {
		struct open_how how = {
			.flags = (uint64_t)(flags | O_NOFOLLOW | O_CLOEXEC),
			.mode = (flags & (O_CREAT | __O_TMPFILE)) ? mode : 0,
			.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
		};
		/* EAGAIN: a rename elsewhere in the tree raced the lookup; retry a few times,
		 * then take the walk, which cannot be raced into following a link either. */
		for (int i = 0; i < 8; i++) {
			long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
			if (fd >= 0)
				return (int)fd;
			if (errno == ENOSYS || errno == EPERM || errno == E2BIG)
				break;
			if (errno != EAGAIN)
				return why(dirfd, path, errno);
		}
	}
	return walk(dirfd, path, flags, mode);
}

int pl_beneath_parent(int dirfd, const char *rel, const char **base)
{
	char path[PATH_MAX];
	int rc = normalize(rel, path, sizeof(path));
	if (rc < 0)
		return rc;
	size_t n = strlen(rel);
	if (n && rel[n - 1] == '/')
		return -EINVAL;
	char *slash = strrchr(path, '/');
	const char *b = slash ? slash + 1 : path;
	if (strcmp(b, ".") == 0)
		return -EINVAL;
	*base = rel + n - strlen(b);
	if (slash)
		*slash = '\0';
	return pl_beneath_open(dirfd, slash ? path : ".", O_PATH | O_DIRECTORY, 0);
}

int pl_beneath_mkdirs(int dirfd, const char *rel, mode_t mode)
{
	char path[PATH_MAX];
	int rc = normalize(rel, path, sizeof(path));
	if (rc < 0)
		return rc;
	int cur = openat(dirfd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cur < 0)
		return -errno;
	for (char *p = path; *p;) {
		size_t c = strcspn(p, "/");
		char *next = p + c;
		while (*next == '/')
			next++;
		p[c] = '\0';
		if (!(c == 1 && p[0] == '.')) {
			int fd = openat(cur, p, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0 && errno == ENOENT) {
				if (mkdirat(cur, p, mode) < 0 && errno != EEXIST) {
					int err = -errno;
					close(cur);
					return err;
				}
				fd = openat(cur, p, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			}
			int err = fd < 0 ? why(cur, p, errno) : 0;
			close(cur);
			if (fd < 0)
				return err;
			cur = fd;
		}
		p = next;
	}
	return cur;
}

/* Write all of @buf to @fd. Returns 0 or -errno. */
static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int pl_beneath_write_atomic(int dirfd, const char *rel, const void *buf, size_t len, mode_t mode)
{
	const char *base;
	int dir = pl_beneath_parent(dirfd, rel, &base);
	if (dir < 0)
		return dir;
	char tmp[NAME_MAX + 1];
	int fd = -1, rc = 0;
	for (int tries = 0; tries < 16; tries++) {
		uint32_t r = 0;
		if (getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r))
			r = (uint32_t)getpid() * 2654435761u + (uint32_t)tries;
		int n = snprintf(tmp, sizeof(tmp), ".%.200s.perflab-%08x", base, r);
		if (n < 0 || (size_t)n >= sizeof(tmp)) {
			rc = -ENAMETOOLONG;
			break;
		}
		fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0) {
		rc = rc ? rc : -errno;
		close(dir);
		return rc;
	}
	rc = write_all(fd, buf, len);
	if (!rc && fchmod(fd, mode) < 0)
		rc = -errno;
	if (!rc && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (!rc && renameat(dir, tmp, dir, base) < 0)
		rc = -errno;
	if (rc)
		unlinkat(dir, tmp, 0);
	close(dir);
	return rc;
}

/* unlinkat(parent of @rel, its last component, @flags). */
static int remove_at(int dirfd, const char *rel, int flags)
{
	const char *base;
	int dir = pl_beneath_parent(dirfd, rel, &base);
	if (dir < 0)
		return dir;
	int rc = unlinkat(dir, base, flags) < 0 ? -errno : 0;
	if (rc == -ENOTDIR && (flags & AT_REMOVEDIR))
		rc = why(dir, base, ENOTDIR);
	close(dir);
	return rc;
}

int pl_beneath_unlink(int dirfd, const char *rel)
{
	return remove_at(dirfd, rel, 0);
}

int pl_beneath_rmdir(int dirfd, const char *rel)
{
	return remove_at(dirfd, rel, AT_REMOVEDIR);
}

int pl_beneath_symlink(const char *target, int dirfd, const char *rel)
{
	const char *base;
	int dir = pl_beneath_parent(dirfd, rel, &base);
	if (dir < 0)
		return dir;
	int rc = symlinkat(target, dir, base) < 0 ? -errno : 0;
	close(dir);
	return rc;
}
