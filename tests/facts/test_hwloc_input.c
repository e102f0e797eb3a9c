/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests of what we hand hwloc in sysroot mode (facts/hwloc_input.h): a good tree is
 * copied, a bad one (reversed node list, FIFO or /dev/zero cache map, multi-MB cpumask)
 * is refused with the file named and nothing left on disk, and `cpu.*` topology facts
 * become unavailable with that reason instead of hwloc aborting or hanging. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "facts/collectors.h"
#include "facts/hwloc_input.h"
#include "util/sysroot.h"

#include "testutil.h"

static char root[] = "/tmp/perflab-hwin.XXXXXX";

/* Write @rel inside the tree; a FIFO or device put there by replace_with() is replaced,
 * not opened. */
static void put(const char *rel, const char *content)
{
	char p[512];
	snprintf(p, sizeof(p), "%s%s", root, rel);
	unlink(p);
	assert_int_equal(pl_test_put(root, rel, content), 0);
}

static void replace_with(const char *rel, const char *what)
{
	char p[512];
	snprintf(p, sizeof(p), "%s%s", root, rel);
	unlink(p);
	if (strcmp(what, "fifo") == 0)
		assert_int_equal(mkfifo(p, 0644), 0);
	else
		assert_int_equal(symlink(what, p), 0);
}

#define CPU "/sys/devices/system/cpu"

/* A 2-CPU, 1-core-each, 1-package machine with an L1d and a shared L2. */
static void good_tree(void)
{
	put(CPU "/online", "0-1\n");
	put(CPU "/possible", "0-1\n");
	put(CPU "/present", "0-1\n");
	for (int c = 0; c < 2; c++) {
		char p[256];
		const char *self = c ? "2\n" : "1\n";
#define PUT(rel, v)                                                                                \
	do {                                                                                       \
		snprintf(p, sizeof(p), CPU "/cpu%d/%s", c, rel);                                   \
		put(p, v);                                                                         \
	} while (0)
		PUT("topology/core_cpus", self);
		PUT("topology/thread_siblings", self);
		PUT("topology/package_cpus", "3\n");
		PUT("topology/core_siblings", "3\n");
		PUT("topology/physical_package_id", "0\n");
		PUT("topology/core_id", c ? "1\n" : "0\n");
		PUT("cache/index0/level", "1\n");
		PUT("cache/index0/type", "Data\n");
		PUT("cache/index0/size", "48K\n");
		PUT("cache/index0/shared_cpu_map", self);
		PUT("cache/index2/level", "2\n");
		PUT("cache/index2/type", "Unified\n");
		PUT("cache/index2/size", "2048K\n");
		PUT("cache/index2/shared_cpu_map", "3\n");
#undef PUT
	}
	put("/sys/devices/system/node/online", "0\n");
	put("/sys/devices/system/node/node0/cpumap", "3\n");
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(root))
		return -1;
	good_tree();
	return pl_sysroot_set(root);
}

static int teardown(void **state)
{
	(void)state;
	pl_sysroot_set(NULL);
	return pl_test_rmtree(root) == 0 ? 0 : -1;
}

static void test_good_tree_copied(void **state)
{
	(void)state;
	struct pl_hwloc_input in = { { 0 } };
	char why[256];
	assert_int_equal(pl_hwloc_input_make(&in, why, sizeof(why)), 0);
	char p[sizeof(in.dir) + 128];
	struct stat st;
	snprintf(p, sizeof(p), "%s" CPU "/cpu1/cache/index2/size", in.dir);
	assert_int_equal(stat(p, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	snprintf(p, sizeof(p), "%s/sys/bus/cpu/devices/cpu1/topology/core_id", in.dir);
	assert_int_equal(stat(p, &st), 0); /* the bus link resolves inside the copy */
	char dir[sizeof(in.dir)];
	snprintf(dir, sizeof(dir), "%s", in.dir);
	pl_hwloc_input_remove(&in);
	assert_int_equal(in.dir[0], '\0');
	assert_int_equal(stat(dir, &st), -1);
	assert_int_equal(errno, ENOENT);

	struct pl_facts f;
	pl_facts_init(&f);
	pl_collect_cpu(&f);
	int64_t v = 0;
	assert_true(pl_facts_get_int(&f, "cpu.cores", &v));
	assert_int_equal(v, 2);
	assert_true(pl_facts_get_int(&f, "cpu.cache.l2_bytes", &v));
	assert_int_equal(v, 2048 << 10);
	pl_facts_free(&f);
}

/* Make @rel bad with @content (or "fifo", or a symlink target starting with '/'), expect
 * the copy refused naming @rel with @reason, and the topology facts unavailable. */
static void expect_refused(const char *rel, const char *content, const char *reason)
{
	if (strcmp(content, "fifo") == 0 || content[0] == '/')
		replace_with(rel, content);
	else
		put(rel, content);
	struct pl_hwloc_input in = { { 0 } };
	char why[256];
	alarm(30); /* a FIFO opened without O_NONBLOCK would hang here */
	int r = pl_hwloc_input_make(&in, why, sizeof(why));
	alarm(0);
	assert_true(r < 0);
	assert_int_equal(in.dir[0], '\0');
	assert_non_null(strstr(why, rel));
	assert_non_null(strstr(why, reason));

	struct pl_facts f;
	pl_facts_init(&f);
	alarm(30);
	pl_collect_cpu(&f);
	alarm(0);
	const struct pl_fact *x = pl_facts_get(&f, "cpu.sockets");
	assert_non_null(x);
	assert_non_null(x->unavailable);
	assert_non_null(strstr(x->unavailable, rel));
	x = pl_facts_get(&f, "cpu.cache.l3_bytes");
	assert_non_null(x);
	assert_non_null(x->unavailable);
	pl_facts_free(&f);
	good_tree();
}

static void test_bad_trees_refused(void **state)
{
	(void)state;
	expect_refused("/sys/devices/system/node/online", "5-2\n", "not a CPU list: '5-2'");
	expect_refused(CPU "/online", "0-4294967295\n", "not a CPU list");
	expect_refused(CPU "/cpu0/cache/index2/shared_cpu_map", "fifo", "not a regular file");
	expect_refused(CPU "/cpu1/cache/index0/shared_cpu_map", "/dev/zero", "not a regular file");
	expect_refused(CPU "/cpu0/topology/core_id", "18446744073709551616\n", "not an id");
	expect_refused(CPU "/cpu0/cache/index0/type", "\x1b[2J\n", "not a cache type: '\\x1b[2J'");
	expect_refused(CPU "/cpu0/cache/index0/size", "-1K\n", "not a cache size");

	/* a multi-MB cpumask of zero words: a valid mask, but no kernel writes one */
	size_t words = 300000;
	char *mask = malloc(words * 9 + 2);
	assert_non_null(mask);
	for (size_t i = 0; i < words; i++)
		memcpy(mask + i * 9, "00000000,", 9);
	memcpy(mask + words * 9 - 1, "3\n", 3);
	expect_refused(CPU "/cpu0/topology/package_cpus", mask, "not a CPU mask");
	free(mask);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_tree_copied),
		cmocka_unit_test(test_bad_trees_refused),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
