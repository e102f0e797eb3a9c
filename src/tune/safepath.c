/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tune/safepath.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "util/beneath.h"
#include "util/str.h"
#include "util/sysroot.h"

/* The allowed areas: a prefix (ending in '/', everything below it) or one exact file. */
static const char *const areas[] = { "/proc/sys/", "/sys/", PL_TUNE_GRUB_FILE };

static const char *area_of(const char *abs)
{
	for (size_t i = 0; i < sizeof(areas) / sizeof(areas[0]); i++) {
		size_t n = strlen(areas[i]);
		if (areas[i][n - 1] == '/' ? strncmp(abs, areas[i], n) == 0 && abs[n]
					   : strcmp(abs, areas[i]) == 0)
			return areas[i];
	}
	return NULL;
}

int pl_tune_target_check(const char *abs)
{
	if (!abs || abs[0] != '/')
		return -EINVAL;
	for (const char *p = abs; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return -EINVAL;
	/* Every component: not empty, not "." and not "..". */
	for (const char *p = abs + 1;;) {
		size_t n = strcspn(p, "/");
		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return -EINVAL;
		if (!p[n])
			break;
		p += n + 1;
	}
	return area_of(abs) ? 0 : -EPERM;
}

/* True when @path equals @prefix-area or lies below it. @area ends in '/' for a tree. */
static bool inside(const char *path, const char *root, const char *area)
{
	size_t rl = strlen(root);
	if (strncmp(path, root, rl) != 0)
		return false;
	path += rl;
	size_t n = strlen(area);
	if (area[n - 1] == '/')
		return strncmp(path, area, n) == 0 && path[n];
	return strcmp(path, area) == 0;
}

int pl_tune_resolve(const char *abs, char *buf, size_t len)
{
	int r = pl_tune_target_check(abs);
	if (r < 0)
		return r;
	const char *area = area_of(abs);
	char path[PATH_MAX], real[PATH_MAX];
	r = pl_sysroot_path(path, sizeof(path), abs);
	if (r < 0)
		return r;
	if (!realpath(path, real)) {
		if (errno != ENOENT || strcmp(area, PL_TUNE_GRUB_FILE) != 0)
			return -errno;
		/* A grub file that does not exist yet: resolve its directory. */
		char dir[PATH_MAX];
		r = pl_sysroot_path(dir, sizeof(dir), "/etc/default");
		if (r < 0)
			return r;
		char rdir[PATH_MAX];
		if (!realpath(dir, rdir))
			return -errno;
		struct stat st;
		if (lstat(path, &st) == 0)
			return -EXDEV; /* a dangling symlink */
		int n = snprintf(real, sizeof(real), "%s/grub", rdir);
		if (n < 0 || (size_t)n >= sizeof(real))
			return -ENAMETOOLONG;
	}
	if (!inside(real, pl_sysroot(), area))
		return -EXDEV;
	/* A hard link in a fixture tree may share its inode with a file outside it: a write
	 * through the name would change that file (procfs and sysfs files have one link). */
	struct stat st;
	if (!pl_sysroot_is_live() && lstat(real, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_nlink > 1)
		return -EMLINK;
	if (strlen(real) >= len)
		return -ENAMETOOLONG;
	memcpy(buf, real, strlen(real) + 1);
	return 0;
}

int pl_tune_open_write(const char *abs)
{
	char real[PATH_MAX];
	int r = pl_tune_resolve(abs, real, sizeof(real));
	if (r < 0)
		return r;
	/* Open the resolved name below the sysroot's descriptor without following any link
	 * (util/beneath.h): a directory swapped for a link after pl_tune_resolve() looked
	 * makes the open fail instead of reaching a file outside (an open alone blocks on a
	 * FIFO or acts on some devices). */
	int root = pl_beneath_root(pl_sysroot());
	if (root < 0)
		return root;
	int fd = pl_beneath_open(root, real + strlen(pl_sysroot()), O_WRONLY | O_NOCTTY, 0);
	close(root);
	if (fd < 0)
		return fd == -ELOOP || fd == -EXDEV ? -EXDEV : fd;
	/* Check what was opened, not what the name said a moment ago. */
	char link[64], got[PATH_MAX];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, got, sizeof(got) - 1);
	if (n > 0) {
		got[n] = '\0';
		if (strcmp(got, real) != 0) {
			close(fd);
			return -EXDEV;
		}
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || S_ISDIR(st.st_mode)) {
		close(fd);
		return -EISDIR;
	}
	if (!pl_sysroot_is_live() && S_ISREG(st.st_mode) && st.st_nlink > 1) {
		close(fd); /* linked after pl_tune_resolve() looked */
		return -EMLINK;
	}
	return fd;
}

bool pl_tune_fd_is_kernel(int fd)
{
	struct statfs s;
	if (fstatfs(fd, &s) < 0)
		return false;
	return s.f_type == PROC_SUPER_MAGIC || s.f_type == SYSFS_MAGIC;
}

const char *pl_tune_path_strerror(int neg_errno)
{
	switch (neg_errno) {
	case -EINVAL:
		return "not a clean absolute name (empty, '.' or '..' component, control "
		       "character)";
	case -EPERM:
		return "outside the writable areas (/proc/sys, /sys, /etc/default/grub)";
	case -EXDEV:
		return "outside the sysroot: a symlink leads out of the writable area of the "
		       "sysroot";
	case -EMLINK:
		return "a hard link (more than one link) in the sysroot: a write would also "
		       "change the file it shares with another directory";
	case -ENOENT:
		return "not present";
	case -EACCES:
		return "permission denied (needs root)";
	case -EOVERFLOW:
		return "the journal's step numbers are used up (INT64_MAX): roll back, then move "
		       "the journal file away";
	default:
		return strerror(-neg_errno);
	}
}

int pl_tune_sysctl_path(const char *name, char **out)
{
	if (!name || !*name || name[0] == '.' || name[0] == '/')
		return -EINVAL;
	for (const char *p = name; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') &&
		    !strchr("_.:@+-/", c))
			return -EINVAL;
	}
	bool slash = strchr(name, '/') != NULL;
	char *p = pl_xasprintf("/proc/sys/%s", name);
	if (!slash)
		for (char *s = p + strlen("/proc/sys/"); *s; s++)
			if (*s == '.')
				*s = '/';
	int r = pl_tune_target_check(p);
	if (r < 0) {
		free(p);
		return -EINVAL;
	}
	*out = p;
	return 0;
}
