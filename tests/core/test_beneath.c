/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests of util/beneath: no operation leaves the anchor directory or follows a
 * planted symlink, through openat2 and through the one-component walk, and a directory
 * swapped for a link in a loop (renameat2 RENAME_EXCHANGE) during atomic writes never
 * lets a write land outside. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/beneath.h"
#include "util/outdir.h"

#include "testutil.h"

static char top[] = "/tmp/perflab-beneath.XXXXXX";
static char root[PATH_MAX], outside[PATH_MAX];

/* Does @dir/@name exist (as anything, links not followed)? */
static bool exists(const char *dir, const char *name)
{
	char p[PATH_MAX * 2];
	struct stat st;
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return lstat(p, &st) == 0;
}

static int setup(void **state)
{
	(void)state;
	assert_int_equal(pl_test_mkdtemp(top), 0);
	snprintf(root, sizeof(root), "%s/root", top);
	snprintf(outside, sizeof(outside), "%s/outside", top);
	assert_int_equal(pl_test_mkdirs(root), 0);
	assert_int_equal(pl_test_mkdirs(outside), 0);
	assert_int_equal(pl_test_put(outside, "/victim", "keep\n"), 0);
	char p[PATH_MAX * 2];
	snprintf(p, sizeof(p), "%s/etc", root);
	assert_int_equal(pl_test_mkdirs(p), 0);
	snprintf(p, sizeof(p), "%s/link", root);
	assert_int_equal(symlink(outside, p), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return pl_test_rmtree(top);
}

static void read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* Every operation, once per resolution mode. */
static void confinement(bool walk)
{
	pl_beneath_force_walk(walk);
	char lp[PATH_MAX * 2], t[PATH_MAX * 2];
	snprintf(lp, sizeof(lp), "%s/etc/victim", root);
	snprintf(t, sizeof(t), "%s/victim", outside);
	unlink(lp);
	assert_int_equal(symlink(t, lp), 0);
	int d = pl_beneath_root(root);
	assert_true(d >= 0);
	/* Through a directory symlink: refused, nothing created outside. */
	assert_int_equal(pl_beneath_open(d, "link/new", O_WRONLY | O_CREAT, 0644), -ELOOP);
	assert_false(exists(outside, "new"));
	assert_int_equal(pl_beneath_write_atomic(d, "/link/new", "x", 1, 0644), -ELOOP);
	assert_false(exists(outside, "new"));
	assert_int_equal(pl_beneath_mkdirs(d, "link/sub", 0755), -ELOOP);
	assert_false(exists(outside, "sub"));
	assert_int_equal(pl_beneath_symlink("/", d, "link/s"), -ELOOP);
	assert_int_equal(pl_beneath_unlink(d, "link/victim"), -ELOOP);
	assert_true(exists(outside, "victim"));
	assert_int_equal(pl_beneath_rmdir(d, "link"), -ELOOP);
	/* A final symlink: not opened; replaced (not followed) by an atomic write. */
	assert_int_equal(pl_beneath_open(d, "etc/victim", O_RDONLY, 0), -ELOOP);
	assert_int_equal(pl_beneath_write_atomic(d, "etc/victim", "new\n", 4, 0640), 0);
	char buf[64], p[PATH_MAX * 2];
	snprintf(p, sizeof(p), "%s/victim", outside);
	read_file(p, buf, sizeof(buf));
	assert_string_equal(buf, "keep\n");
	snprintf(p, sizeof(p), "%s/etc/victim", root);
	read_file(p, buf, sizeof(buf));
	assert_string_equal(buf, "new\n");
	struct stat st;
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0640);
	/* "..": refused before any lookup. */
	assert_int_equal(pl_beneath_open(d, "etc/../../outside/victim", O_RDONLY, 0), -EXDEV);
	assert_int_equal(pl_beneath_write_atomic(d, "../outside/victim", "x", 1, 0644), -EXDEV);
	/* The ordinary operations work and leave no temporary file. */
	int m = pl_beneath_mkdirs(d, "etc/systemd/system/multi-user.target.wants", 0755);
	assert_true(m >= 0);
	close(m);
	assert_int_equal(
		pl_beneath_write_atomic(d, "etc/systemd/system/u.service", "[Unit]\n", 7, 0644), 0);
	assert_int_equal(pl_beneath_symlink("../u.service", d,
					    "etc/systemd/system/multi-user.target.wants/u.service"),
			 0);
	assert_int_equal(pl_beneath_symlink("../u.service", d,
					    "etc/systemd/system/multi-user.target.wants/u.service"),
			 -EEXIST);
	snprintf(p, sizeof(p), "%s/etc/systemd/system", root);
	assert_true(exists(p, "u.service"));
	int fd = pl_beneath_open(d, "etc/systemd/system/u.service", O_RDONLY, 0);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(
		pl_beneath_unlink(d, "etc/systemd/system/multi-user.target.wants/u.service"), 0);
	assert_int_equal(pl_beneath_rmdir(d, "etc/systemd/system/multi-user.target.wants"), 0);
	assert_int_equal(pl_beneath_unlink(d, "etc/systemd/system/u.service"), 0);
	assert_int_equal(pl_beneath_unlink(d, "etc/systemd/system/u.service"), -ENOENT);
	assert_int_equal(pl_beneath_rmdir(d, "etc/systemd"), -ENOTEMPTY);
	assert_int_equal(pl_beneath_unlink(d, "etc/"), -EINVAL);
	int n = 0;
	char cmd[PATH_MAX * 3];
	snprintf(cmd, sizeof(cmd), "find '%s' -name '*.perflab-*' | wc -l", top);
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%d", &n), 1);
	pclose(f);
	assert_int_equal(n, 0);
	close(d);
	pl_beneath_force_walk(false);
}

static void test_openat2(void **state)
{
	(void)state;
	confinement(false);
}

static void test_walk(void **state)
{
	(void)state;
	confinement(true);
}

static atomic_bool stop;

/* Swap root/race (a directory) with root/swap (a symlink out) until told to stop. */
static void *swapper(void *arg)
{
	int d = *(int *)arg;
	while (!atomic_load(&stop))
		syscall(SYS_renameat2, d, "race", d, "swap", RENAME_EXCHANGE);
	return NULL;
}

static void race(bool walk)
{
	pl_beneath_force_walk(walk);
	char p[PATH_MAX * 2];
	snprintf(p, sizeof(p), "%s/race", root);
	assert_int_equal(pl_test_mkdirs(p), 0);
	snprintf(p, sizeof(p), "%s/swap", root);
	assert_int_equal(symlink(outside, p), 0);
	int d = pl_beneath_root(root);
	assert_true(d >= 0);
	atomic_store(&stop, false);
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, swapper, &d), 0);
	int ok = 0, refused = 0;
	for (int i = 0; i < 4000; i++) {
		int rc = pl_beneath_write_atomic(d, "race/grub", "GRUB\n", 5, 0644);
		if (rc == 0)
			ok++;
		else
			refused++;
		assert_false(exists(outside, "grub"));
	}
	atomic_store(&stop, true);
	pthread_join(t, NULL);
	assert_false(exists(outside, "grub"));
	assert_int_equal(ok + refused, 4000);
	/* Some writes got through the directory while it was in place. */
	assert_true(ok > 0);
	snprintf(p, sizeof(p), "%s/race", root);
	assert_int_equal(pl_test_rmtree(p), 0);
	snprintf(p, sizeof(p), "%s/swap", root);
	assert_int_equal(pl_test_rmtree(p), 0);
	close(d);
	pl_beneath_force_walk(false);
}

static void test_race(void **state)
{
	(void)state;
	race(false);
	race(true);
}

/* Output directories: owner and mode checked, a planted link at an output name replaced
 * and not followed. */
static void test_outdir(void **state)
{
	(void)state;
	char dir[PATH_MAX * 2], p[PATH_MAX * 3];
	snprintf(dir, sizeof(dir), "%s/out", top);
	const char *why = "x";
	int d = pl_outdir_open(dir, &why);
	assert_true(d >= 0);
	assert_null(why);
	snprintf(p, sizeof(p), "%s/victim", outside);
	char lp[PATH_MAX * 3];
	snprintf(lp, sizeof(lp), "%s/report.md", dir);
	assert_int_equal(symlink(p, lp), 0);
	assert_int_equal(pl_outdir_write(d, "report.md", "# report\n"), 0);
	char buf[64];
	read_file(p, buf, sizeof(buf));
	assert_string_not_equal(buf, "# report\n");
	read_file(lp, buf, sizeof(buf));
	assert_string_equal(buf, "# report\n");
	struct stat st;
	assert_int_equal(lstat(lp, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(pl_outdir_write(d, "../escape", "x"), -EINVAL);
	struct pl_outdir_file f;
	assert_int_equal(pl_outdir_file_open(&f, d, "gone.json"), 0);
	fputs("{}", f.fp);
	assert_int_equal(pl_outdir_file_close(&f, false), 0);
	assert_false(exists(dir, "gone.json"));
	close(d);
	/* Writable by others without the sticky bit: refused; with it: accepted. */
	assert_int_equal(chmod(dir, 0777), 0);
	assert_int_equal(pl_outdir_open(dir, &why), -EACCES);
	assert_string_equal(why, "writable by other users");
	assert_int_equal(chmod(dir, 01777), 0);
	d = pl_outdir_open(dir, NULL);
	assert_true(d >= 0);
	close(d);
	/* Another owner: refused (root can hand the directory to another user). */
	if (geteuid() == 0) {
		assert_int_equal(chmod(dir, 0755), 0);
		assert_int_equal(chown(dir, 65534, 65534), 0);
		assert_int_equal(pl_outdir_open(dir, &why), -EPERM);
		assert_string_equal(why, "not owned by you");
	}
	/* Not a directory. */
	assert_int_equal(pl_outdir_open(p, NULL), -ENOTDIR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_openat2),
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_race),
		cmocka_unit_test(test_outdir),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
