/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests of the apply driver (tune/apply.h) over a small fixture tree in a temporary
 * directory: results per setting, skip_same, the rollback after each kind of failure
 * (write error, refusal, a value the kernel keeps differently) and restore. The kernel's
 * refusals are simulated with the journal's test hooks (tune/journal.h). */
#include <errno.h>
#include <ftw.h>
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

#include "tune/apply.h"
#include "tune/journal.h"
#include "util/sysroot.h"

static char root[64];
static char state[96];

static void put(const char *rel, const char *content)
{
	char p[512];
	snprintf(p, sizeof(p), "%s%s", root, rel);
	for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

/* The first line of a file of the tree, without its newline (static buffer). */
static const char *get(const char *rel)
{
	static char buf[256];
	char p[512];
	snprintf(p, sizeof(p), "%s%s", root, rel);
	FILE *f = fopen(p, "r");
	assert_non_null(f);
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb, (void)flag, (void)ftw;
	return remove(path);
}

static int setup(void **st)
{
	(void)st;
	snprintf(root, sizeof(root), "/tmp/perflab-tunea.XXXXXX");
	assert_non_null(mkdtemp(root));
	snprintf(state, sizeof(state), "%s-state", root);
	assert_int_equal(pl_sysroot_set(root), 0);
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	nftw(state, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Fresh values and an empty journal for each test. */
static struct pl_journal *fresh(void)
{
	put("/proc/sys/vm/swappiness", "60\n");
	put("/proc/sys/vm/dirty_ratio", "20\n");
	put("/proc/sys/net/core/somaxconn", "4096\n");
	char p[160];
	snprintf(p, sizeof(p), "%s/%s", state, PL_JOURNAL_FILE);
	unlink(p);
	unsetenv("PERFLAB_TUNE_TEST_REFUSE");
	unsetenv("PERFLAB_TUNE_TEST_KEEP");
	struct pl_journal *j;
	assert_int_equal(pl_journal_open(state, PL_JOURNAL_WRITE, &j), 0);
	return j;
}

struct seen {
	size_t results, undone;
	size_t last; /* index of the last result */
};

static void on_result(size_t i, const struct pl_tune_result *r, void *ud)
{
	struct seen *s = ud;
	(void)r;
	s->results++;
	s->last = i;
}

static void on_undo(const struct pl_journal_entry *e, int err, void *ud)
{
	struct seen *s = ud;
	(void)e;
	assert_int_equal(err, 0);
	s->undone++;
}

static const struct pl_tune_setting three[] = {
	{ "/proc/sys/vm/swappiness", "10" },
	{ "/proc/sys/vm/dirty_ratio", "20" }, /* already holds it */
	{ "/proc/sys/net/core/somaxconn", "8192" },
};

static void test_all_set_then_restore(void **st)
{
	(void)st;
	struct pl_journal *j = fresh();
	struct seen s = { 0 };
	struct pl_tune_apply a = { .j = j,
				   .who = "t",
				   .skip_same = true,
				   .on_result = on_result,
				   .on_undo = on_undo,
				   .ud = &s };
	struct pl_tune_result res[3];
	assert_int_equal(pl_tune_apply_run(&a, three, 3, res), 0);
	assert_int_equal(res[0].outcome, PL_TUNE_SET);
	assert_int_equal(res[0].step, 1);
	assert_string_equal(res[0].accepted, "10");
	assert_int_equal(res[1].outcome, PL_TUNE_SAME);
	assert_int_equal(res[1].step, 0);
	assert_null(res[1].accepted);
	assert_int_equal(res[2].outcome, PL_TUNE_SET);
	assert_int_equal(res[2].step, 2);
	assert_int_equal(s.results, 3);
	assert_int_equal(a.nwrites, 2);
	assert_int_equal(pl_journal_live(j), 2);
	assert_string_equal(get("/proc/sys/vm/swappiness"), "10");
	assert_string_equal(get("/proc/sys/net/core/somaxconn"), "8192");
	assert_true(a.active);
	assert_int_equal(pl_tune_apply_restore(&a), 0);
	assert_false(a.active);
	assert_int_equal(s.undone, 2);
	assert_string_equal(get("/proc/sys/vm/swappiness"), "60");
	assert_string_equal(get("/proc/sys/net/core/somaxconn"), "4096");
	assert_int_equal(pl_journal_live(j), 0);
	/* A second restore has nothing to do; NULL is fine too. */
	assert_int_equal(pl_tune_apply_restore(&a), 0);
	assert_int_equal(s.undone, 2);
	assert_int_equal(pl_tune_apply_restore(NULL), 0);
	pl_tune_results_free(res, 3);
	pl_tune_results_free(NULL, 3);
	pl_journal_close(j);
}

static void test_without_skip_same_writes_all(void **st)
{
	(void)st;
	struct pl_journal *j = fresh();
	struct pl_tune_apply a = { .j = j, .who = "t" };
	struct pl_tune_result res[3];
	assert_int_equal(pl_tune_apply_run(&a, three, 3, res), 0);
	assert_int_equal(res[1].outcome, PL_TUNE_SET);
	assert_int_equal(a.nwrites, 3);
	assert_int_equal(pl_journal_live(j), 3);
	assert_int_equal(pl_tune_apply_restore(&a), 0);
	pl_tune_results_free(res, 3);
	pl_journal_close(j);
}

/* A refusal stops the run and rolls back what it wrote; later settings stay pending. */
static void test_refused_rolls_back(void **st)
{
	(void)st;
	struct pl_journal *j = fresh();
	setenv("PERFLAB_TUNE_TEST_REFUSE", "/proc/sys/vm/dirty_ratio", 1);
	struct seen s = { 0 };
	struct pl_tune_apply a = {
		.j = j, .who = "t", .on_result = on_result, .on_undo = on_undo, .ud = &s
	};
	const struct pl_tune_setting v[] = { { "/proc/sys/vm/swappiness", "10" },
					     { "/proc/sys/vm/dirty_ratio", "15" },
					     { "/proc/sys/net/core/somaxconn", "8192" } };
	struct pl_tune_result res[3];
	assert_int_equal(pl_tune_apply_run(&a, v, 3, res), -EINVAL);
	assert_int_equal(res[0].outcome, PL_TUNE_SET);
	assert_int_equal(res[1].outcome, PL_TUNE_REFUSED);
	assert_int_equal(res[1].error, -EINVAL);
	assert_string_equal(res[1].accepted, "20");
	assert_int_equal(res[2].outcome, PL_TUNE_PENDING);
	assert_int_equal(s.results, 2);
	assert_int_equal(s.last, 1);
	/* Both journaled entries (the refused one too) are undone. */
	assert_int_equal(a.nwrites, 2);
	assert_int_equal(s.undone, 2);
	assert_int_equal(a.rollback_error, 0);
	assert_false(a.active);
	assert_int_equal(pl_journal_live(j), 0);
	assert_string_equal(get("/proc/sys/vm/swappiness"), "60");
	assert_string_equal(get("/proc/sys/vm/dirty_ratio"), "20");
	assert_string_equal(get("/proc/sys/net/core/somaxconn"), "4096");
	pl_tune_results_free(res, 3);
	pl_journal_close(j);
}

/* The kernel keeps another value: -ERANGE, what it kept in accepted, rolled back. */
static void test_kept_rolls_back(void **st)
{
	(void)st;
	struct pl_journal *j = fresh();
	setenv("PERFLAB_TUNE_TEST_KEEP", "/proc/sys/net/core/somaxconn=4095", 1);
	struct pl_tune_apply a = { .j = j, .who = "t", .skip_same = true };
	struct pl_tune_result res[3];
	assert_int_equal(pl_tune_apply_run(&a, three, 3, res), -ERANGE);
	assert_int_equal(res[2].outcome, PL_TUNE_KEPT);
	assert_string_equal(res[2].accepted, "4095");
	assert_int_equal(res[2].error, 0);
	assert_string_equal(get("/proc/sys/net/core/somaxconn"), "4096");
	assert_string_equal(get("/proc/sys/vm/swappiness"), "60");
	assert_int_equal(pl_journal_live(j), 0);
	pl_tune_results_free(res, 3);
	pl_journal_close(j);
}

/* A target that cannot be written: its -errno, nothing journaled for it, earlier ones
 * rolled back; the mark survives several runs until a restore. */
static void test_failed_write_and_mark(void **st)
{
	(void)st;
	struct pl_journal *j = fresh();
	struct pl_tune_apply a = { .j = j, .who = "t" };
	struct pl_tune_result res[2];
	const struct pl_tune_setting first[] = { { "/proc/sys/vm/swappiness", "10" } };
	assert_int_equal(pl_tune_apply_run(&a, first, 1, res), 0);
	pl_tune_results_free(res, 1);
	const struct pl_tune_setting v[] = { { "/proc/sys/vm/dirty_ratio", "15" },
					     { "/proc/sys/vm/no_such_knob", "1" } };
	assert_int_equal(pl_tune_apply_run(&a, v, 2, res), -ENOENT);
	assert_int_equal(res[1].outcome, PL_TUNE_FAILED);
	assert_int_equal(res[1].error, -ENOENT);
	assert_int_equal(res[1].step, 0);
	assert_int_equal(a.nwrites, 2);
	/* The failure undid everything since the mark of the first run. */
	assert_string_equal(get("/proc/sys/vm/swappiness"), "60");
	assert_string_equal(get("/proc/sys/vm/dirty_ratio"), "20");
	assert_int_equal(pl_journal_live(j), 0);
	pl_tune_results_free(res, 2);
	const struct pl_tune_setting out[] = { { "/etc/shadow", "x" } };
	assert_int_equal(pl_tune_apply_run(&a, out, 1, res), -EPERM);
	assert_int_equal(res[0].outcome, PL_TUNE_FAILED);
	pl_tune_results_free(res, 2);
	pl_journal_close(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_set_then_restore),
		cmocka_unit_test(test_without_skip_same_writes_all),
		cmocka_unit_test(test_refused_rolls_back),
		cmocka_unit_test(test_kept_rolls_back),
		cmocka_unit_test(test_failed_write_and_mark),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
