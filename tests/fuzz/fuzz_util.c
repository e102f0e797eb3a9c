/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		abort();
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

static char tmpdir[PATH_MAX];
static pid_t tmp_owner;

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	if (ftw->level > 0)
		remove(path);
	return 0;
}

static void tmp_clear(void)
{
	if (tmpdir[0])
		nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void tmp_remove(void)
{
	/* a forked child (none of ours fork, but be safe) must not remove the parent's */
	if (!tmpdir[0] || getpid() != tmp_owner)
		return;
	tmp_clear();
	rmdir(tmpdir);
	tmpdir[0] = '\0';
}

const char *fuzz_tmpdir(void)
{
	if (tmpdir[0])
		return tmpdir;
	const char *base = getenv("TMPDIR");
	struct stat st;
	if (!base || !*base)
		base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp";
	snprintf(tmpdir, sizeof(tmpdir), "%s/perflab-fuzz.XXXXXX", base);
	if (!mkdtemp(tmpdir)) {
		fprintf(stderr, "fuzz: cannot create a directory in %s: %s\n", base,
			strerror(errno));
		abort();
	}
	tmp_owner = getpid();
	atexit(tmp_remove);
	return tmpdir;
}

static void mkparents(char *path)
{
	for (char *p = path + strlen(fuzz_tmpdir()) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0700);
			*p = '/';
		}
}

const char *fuzz_write(const char *rel, const void *data, size_t n)
{
	static char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", fuzz_tmpdir(), rel);
	mkparents(path);
	FILE *f = fopen(path, "w");
	if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f) != 0) {
		fprintf(stderr, "fuzz: cannot write %s: %s\n", path, strerror(errno));
		abort();
	}
	return path;
}

void fuzz_remove(const char *rel)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", fuzz_tmpdir(), rel);
	unlink(path);
}

void fuzz_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: invariant broken: %s\n", file, line, what);
	abort();
}
