/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "testutil.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int pl_test_mkdtemp(char *tmpl)
{
	return mkdtemp(tmpl) ? 0 : -errno;
}

int pl_test_mkdirs(const char *path)
{
	char d[PATH_MAX];
	if (snprintf(d, sizeof(d), "%s", path) >= (int)sizeof(d))
		return -ENAMETOOLONG;
	for (char *s = d + 1;; s++) {
		s = strchr(s, '/');
		if (s)
			*s = '\0';
		if (mkdir(d, 0755) < 0 && errno != EEXIST)
			return -errno;
		if (!s)
			return 0;
		*s = '/';
	}
}

int pl_test_write(const char *path, const void *content, size_t len)
{
	char d[PATH_MAX];
	if (snprintf(d, sizeof(d), "%s", path) >= (int)sizeof(d))
		return -ENAMETOOLONG;
	char *slash = strrchr(d, '/');
	if (slash && slash != d) {
		*slash = '\0';
		int r = pl_test_mkdirs(d);
		if (r < 0)
			return r;
	}
	FILE *f = fopen(path, "w");
	if (!f)
		return -errno;
	size_t n = fwrite(content, 1, len, f);
	int e = ferror(f) ? errno : 0;
	if (fclose(f) != 0 && !e)
		e = errno;
	if (e)
		return -e;
	return n == len ? 0 : -EIO;
}

int pl_test_put(const char *root, const char *rel, const char *content)
{
	char p[PATH_MAX];
	if (snprintf(p, sizeof(p), "%s%s", root, rel) >= (int)sizeof(p))
		return -ENAMETOOLONG;
	return pl_test_write(p, content, strlen(content));
}

static int rm_first_error;

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	if (remove(path) < 0 && errno != ENOENT && !rm_first_error)
		rm_first_error = -errno;
	return 0; /* keep going: remove what can be removed */
}

int pl_test_rmtree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	rm_first_error = 0;
	if (nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS) < 0)
		return -errno;
	return rm_first_error;
}
