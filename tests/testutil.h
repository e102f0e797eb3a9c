/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Temporary trees for the C tests, without a shell (STYLE.md: no system("rm -rf ...")):
 * make a directory with mkdtemp(3), put files into it with their parent directories, and
 * remove the whole tree with nftw(3). Compiled into each test that uses it (testutil_dep
 * in tests/meson.build). Functions return 0 or -errno so a test asserts on them, e.g.
 *     static char root[] = "/tmp/perflab-x.XXXXXX";
 *     assert_int_equal(pl_test_mkdtemp(root), 0);
 *     assert_int_equal(pl_test_put(root, "/proc/sys/vm/swappiness", "60\n"), 0);
 *     assert_int_equal(pl_test_rmtree(root), 0); */
#ifndef PERFLAB_TESTS_TESTUTIL_H
#define PERFLAB_TESTS_TESTUTIL_H
#include <stddef.h>

/** mkdtemp(@tmpl): @tmpl ends in "XXXXXX", which is replaced in place by the name of the
 *  new directory (mode 0700). Returns 0 or -errno. */
int pl_test_mkdtemp(char *tmpl);

/** Create directory @path and its missing parents, mode 0755 (mkdir -p). Returns 0 or
 *  -errno of the first mkdir that failed for another reason than EEXIST. */
int pl_test_mkdirs(const char *path);

/** Write the @len bytes of @content to file @path (created or truncated, mode 0644),
 *  creating its parent directories first. A symlink at @path is followed, as fopen(3)
 *  does. Returns 0 or -errno (-EIO for a short write). */
int pl_test_write(const char *path, const void *content, size_t len);

/** pl_test_write of the string @content to @root followed by @rel ("/sys/x/num"). */
int pl_test_put(const char *root, const char *rel, const char *content);

/** Remove @path and everything below it, depth first, never following a symlink (the
 *  link is removed, not its target); a missing @path is not an error. Returns 0 or the
 *  -errno of the first entry that could not be removed (the others are still tried). */
int pl_test_rmtree(const char *path);

#endif
