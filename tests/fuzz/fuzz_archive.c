/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Snapshot archives (--sysroot FILE.tar.zst) through pl_archive_extract_mem() into a
 * fresh directory, as the command line reads them (util/archive.h). Invariants: the
 * result is 0 or -EINVAL with a reason and a fix; nothing appears in the harness's
 * temporary directory beside the target; every entry of the target is a file, directory
 * or symlink, and every symlink of an accepted archive resolves inside it (or not at
 * all); the tree is then removed completely by pl_rmtree_below(). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "util/archive.h"
#include "util/beneath.h"
#include "util/privdir.h"

static char target[PATH_MAX];	  /* the extraction directory */
static char realtarget[PATH_MAX]; /* its real path */
static int accepted;

/* Entries of @dir, "." and ".." aside. */
static size_t count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	FUZZ_ASSERT(d != NULL, "the temporary directory can be read");
	size_t n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

static int check_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)ftw;
	(void)flag;
	FUZZ_ASSERT(strncmp(path, target, strlen(target)) == 0, "every path below the target");
	FUZZ_ASSERT(S_ISREG(st->st_mode) || S_ISDIR(st->st_mode) || S_ISLNK(st->st_mode),
		    "only files, directories and symlinks");
	if (S_ISLNK(st->st_mode) && accepted) {
		char real[PATH_MAX];
		if (realpath(path, real)) {
			size_t n = strlen(realtarget);
			FUZZ_ASSERT(strncmp(real, realtarget, n) == 0 &&
					    (real[n] == '/' || real[n] == '\0'),
				    "an accepted symlink resolves inside the tree");
		}
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 20)
		return -1;
	const char *tmp = fuzz_tmpdir();
	size_t before = count_entries(tmp);
	snprintf(target, sizeof(target), "%s/archive.XXXXXX", tmp);
	FUZZ_ASSERT(mkdtemp(target) != NULL, "mkdtemp");
	FUZZ_ASSERT(realpath(target, realtarget) != NULL, "realpath of the target");
	int fd = pl_beneath_root(target);
	FUZZ_ASSERT(fd >= 0, "open the target");
	struct pl_archive_error err;
	int r = pl_archive_extract_mem(data, size, fd, &err);
	FUZZ_ASSERT(r == 0 || r == -EINVAL || r == -ENOSPC, "0, -EINVAL or -ENOSPC");
	if (r < 0)
		FUZZ_ASSERT(err.why[0] && err.fix && strchr(err.why, '\n') == NULL,
			    "a refusal says why on one line, and what to do");
	accepted = r == 0;
	FUZZ_ASSERT(count_entries(tmp) == before + 1, "nothing written beside the target");
	FUZZ_ASSERT(nftw(target, check_entry, 16, FTW_PHYS) == 0, "walk the tree");
	FUZZ_ASSERT(pl_rmtree_below(fd) == 0, "the tree is removed");
	close(fd);
	FUZZ_ASSERT(rmdir(target) == 0, "the target is empty and removed");
	FUZZ_ASSERT(count_entries(tmp) == before, "nothing left");
	return 0;
}
