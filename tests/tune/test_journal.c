/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests of the tune journal, the safe path resolver and value comparison, over a
 * small fixture tree built in a temporary directory. */
#include <errno.h>
#include <linux/fs.h>
#include <fcntl.h>
#include <setjmp.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "tune/journal.h"
#include "tune/safepath.h"
#include "tune/value.h"
#include "util/str.h"
#include "util/sysroot.h"

#include "testutil.h"

static char root[64];
static char state[96];

static void put(const char *rel, const char *content)
{
	char p[512], d[512];
	snprintf(p, sizeof(p), "%s%s", root, rel);
	snprintf(d, sizeof(d), "%s", p);
	for (char *s = d + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(d, 0755);
		*s = '/';
	}
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static char *get(const char *rel)
{
	char p[512];
	snprintf(p, sizeof(p), "%s%s", root, rel);
	FILE *f = fopen(p, "r");
	if (!f)
		return NULL;
	static char buf[4096];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int setup(void **st)
{
	(void)st;
	snprintf(root, sizeof(root), "/tmp/perflab-tunej.XXXXXX");
	assert_non_null(mkdtemp(root));
	snprintf(state, sizeof(state), "%s-state", root);
	put("/proc/sys/vm/swappiness", "60\n");
	put("/proc/sys/net/ipv4/tcp_rmem", "4096\t131072\t6291456\n");
	put("/sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
	put("/etc/default/grub", "GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX=\"quiet\"\n");
	put("/etc/shadow", "secret\n");
	char p[512];
	snprintf(p, sizeof(p), "%s/proc/sys/kernel", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/proc/sys/kernel/escape", root);
	assert_int_equal(symlink("../../../etc/shadow", p), 0);
	snprintf(p, sizeof(p), "%s/sys/abs", root);
	assert_int_equal(symlink("/etc", p), 0);
	assert_int_equal(pl_sysroot_set(root), 0);
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	int r = pl_test_rmtree(root);
	int r2 = pl_test_rmtree(state);
	return r == 0 && r2 == 0 ? 0 : -1;
}

static void test_value(void **st)
{
	(void)st;
	assert_true(pl_tune_value_eq("4096\t087380  6291456\n", "4096 87380 6291456"));
	assert_true(pl_tune_value_eq("-05", "-5"));
	assert_true(pl_tune_value_eq("0", "000"));
	assert_false(pl_tune_value_eq("10", "100"));
	char *c = pl_tune_value_current("always [madvise] never\n");
	assert_string_equal(c, "madvise");
	free(c);
	c = pl_tune_value_current("  60\n");
	assert_string_equal(c, "60");
	free(c);
}

static void test_paths(void **st)
{
	(void)st;
	char buf[4096];
	assert_int_equal(pl_tune_target_check("/proc/sys/../../etc/shadow"), -EINVAL);
	assert_int_equal(pl_tune_target_check("/proc/sys//vm"), -EINVAL);
	assert_int_equal(pl_tune_target_check("/etc/shadow"), -EPERM);
	assert_int_equal(pl_tune_target_check("/proc/sysx/vm"), -EPERM);
	assert_int_equal(pl_tune_target_check("/proc/sys/"), -EINVAL);
	assert_int_equal(pl_tune_target_check("/proc/sys/vm/swappiness"), 0);
	assert_int_equal(pl_tune_resolve("/proc/sys/kernel/escape", buf, sizeof(buf)), -EXDEV);
	assert_int_equal(pl_tune_resolve("/sys/abs/passwd", buf, sizeof(buf)), -EXDEV);
	assert_int_equal(pl_tune_resolve("/proc/sys/vm/swappiness", buf, sizeof(buf)), 0);
	assert_true(pl_startswith(buf, pl_sysroot()));
	char *p = NULL;
	assert_int_equal(pl_tune_sysctl_path("../../etc/shadow", &p), -EINVAL);
	assert_int_equal(pl_tune_sysctl_path("net.core..x", &p), -EINVAL);
	assert_int_equal(pl_tune_sysctl_path("net/../../../etc/shadow", &p), -EINVAL);
	assert_int_equal(pl_tune_sysctl_path("kernel.sh;rm", &p), -EINVAL);
	assert_int_equal(pl_tune_sysctl_path("net.ipv4.tcp_rmem", &p), 0);
	assert_string_equal(p, "/proc/sys/net/ipv4/tcp_rmem");
	free(p);
	assert_int_equal(pl_tune_sysctl_path("net/ipv4/conf/eth0.100/rp_filter", &p), 0);
	assert_string_equal(p, "/proc/sys/net/ipv4/conf/eth0.100/rp_filter");
	free(p);
}

static void test_write_rollback(void **st)
{
	(void)st;
	struct pl_journal *j;
	assert_int_equal(pl_journal_open(state, PL_JOURNAL_READ, &j), 0);
	assert_int_equal(pl_journal_last_step(j), 0);
	assert_int_equal(pl_journal_rollback(j, 0, NULL, NULL), -EBADF);
	pl_journal_close(j);

	assert_int_equal(pl_journal_open(state, PL_JOURNAL_WRITE, &j), 0);
	struct stat sb;
	assert_int_equal(stat(state, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0700);
	assert_int_equal(stat(pl_journal_path(j), &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	/* A second writer is refused while the first holds the lock. */
	struct pl_journal *j2;
	assert_int_equal(pl_journal_open(state, PL_JOURNAL_WRITE, &j2), -EBUSY);
	/* A peek does not wait for the writer. */
	assert_int_equal(pl_journal_open(state, PL_JOURNAL_PEEK, &j2), -EBUSY);

	/* Rollback of nothing is a no-op. */
	assert_int_equal(pl_journal_rollback(j, 0, NULL, NULL), 0);

	const struct pl_journal_entry *e;
	assert_int_equal(pl_journal_write(j, "/proc/sys/vm/swappiness", "10", "p1", &e), 0);
	assert_int_equal(e->step, 1);
	assert_string_equal(e->old, "60");
	assert_string_equal(e->old_raw, "60\n");
	assert_int_equal(e->status, PL_JS_OK);
	assert_string_equal(get("/proc/sys/vm/swappiness"), "10\n");
	assert_int_equal(pl_journal_write(j, "/sys/kernel/mm/transparent_hugepage/enabled", "never",
					  "p1", &e),
			 0);
	assert_string_equal(e->old, "madvise");
	assert_int_equal(pl_journal_write(j, "/proc/sys/vm/swappiness", "5", "p2", &e), 0);
	assert_string_equal(e->old, "10");
	const char *grub = "GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX=\"quiet mitigations=off\"\n";
	assert_int_equal(pl_journal_write(j, PL_TUNE_GRUB_FILE, grub, "p2", &e), 0);
	assert_int_equal(e->status, PL_JS_OK);
	assert_string_equal(get("/etc/default/grub"), grub);
	assert_int_equal(pl_journal_last_step(j), 4);
	assert_int_equal(pl_journal_live(j), 4);
	assert_non_null(pl_journal_find(j, "/proc/sys/vm/swappiness"));
	assert_int_equal(pl_journal_find(j, "/proc/sys/vm/swappiness")->step, 3);

	/* Refused targets are not journaled. */
	assert_int_equal(pl_journal_write(j, "/proc/sys/kernel/escape", "x", "p", NULL), -EXDEV);
	assert_int_equal(pl_journal_write(j, "/proc/sys/../../etc/shadow", "x", "p", NULL),
			 -EINVAL);
	assert_int_equal(pl_journal_write(j, "/proc/sys/vm/nope", "1", "p", NULL), -ENOENT);
	assert_string_equal(get("/etc/shadow"), "secret\n");
	assert_int_equal(pl_journal_last_step(j), 4);
	pl_journal_close(j);

	/* Reopen: state comes back from disk; undo the second profile only. */
	assert_int_equal(pl_journal_open(state, PL_JOURNAL_WRITE, &j), 0);
	assert_int_equal(pl_journal_live(j), 4);
	assert_int_equal(pl_journal_rollback(j, 2, NULL, NULL), 0);
	assert_string_equal(get("/proc/sys/vm/swappiness"), "10\n");
	assert_string_equal(get("/etc/default/grub"),
			    "GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX=\"quiet\"\n");
	assert_int_equal(pl_journal_live(j), 2);
	assert_int_equal(pl_journal_rollback(j, 0, NULL, NULL), 0);
	assert_string_equal(get("/proc/sys/vm/swappiness"), "60\n");
	assert_string_equal(get("/sys/kernel/mm/transparent_hugepage/enabled"),
			    "always [madvise] never\n");
	assert_int_equal(pl_journal_live(j), 0);
	assert_int_equal(pl_journal_rollback(j, 0, NULL, NULL), 0);
	/* Steps keep increasing after a rollback. */
	assert_int_equal(
		pl_journal_write(j, "/proc/sys/net/ipv4/tcp_rmem", "4096 87380 6291456", "p3", &e),
		0);
	assert_int_equal(e->step, 5);
	assert_int_equal(pl_journal_rollback(j, 0, NULL, NULL), 0);
	assert_string_equal(get("/proc/sys/net/ipv4/tcp_rmem"), "4096\t131072\t6291456\n");
	pl_journal_close(j);
}

static void test_torn_and_fault(void **st)
{
	(void)st;
	/* A child killed after its 2nd write, then one killed mid-record. */
	for (int round = 0; round < 2; round++) {
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			setenv("PERFLAB_TUNE_FAULT_AFTER", round == 0 ? "2" : "2j", 1);
			struct pl_journal *j;
			if (pl_journal_open(state, PL_JOURNAL_WRITE, &j) < 0)
				_exit(1);
			int r = pl_journal_write(j, "/proc/sys/vm/swappiness", "1", "f", NULL);
			if (r < 0)
				_exit(10 - r);
			pl_journal_write(j, "/sys/kernel/mm/transparent_hugepage/enabled", "always",
					 "f", NULL);
			pl_journal_write(j, "/proc/sys/vm/swappiness", "2", "f", NULL);
			_exit(0);
		}
		int ws;
		assert_int_equal(waitpid(pid, &ws, 0), pid);
		assert_true(WIFEXITED(ws));
		assert_int_equal(WEXITSTATUS(ws), 137);
		assert_string_equal(get("/proc/sys/vm/swappiness"), "1\n");
		struct pl_journal *j;
		assert_int_equal(pl_journal_open(state, PL_JOURNAL_WRITE, &j), 0);
		size_t n;
		const struct pl_journal_entry *v = pl_journal_entries(j, &n);
		assert_true(n >= 2);
		if (round == 0)
			assert_int_equal(v[n - 1].status, PL_JS_UNKNOWN);
		assert_int_equal(pl_journal_rollback(j, 0, NULL, NULL), 0);
		pl_journal_close(j);
		assert_string_equal(get("/proc/sys/vm/swappiness"), "60\n");
		assert_string_equal(get("/sys/kernel/mm/transparent_hugepage/enabled"),
				    "always [madvise] never\n");
	}
	/* The torn line was cut: every line of the file is complete JSON. */
	char p[256];
	snprintf(p, sizeof(p), "%s/%s", state, PL_JOURNAL_FILE);
	FILE *f = fopen(p, "r");
	assert_non_null(f);
	int c, last = '\n';
	while ((c = fgetc(f)) != EOF)
		last = c;
	fclose(f);
	assert_int_equal(last, '\n');
}

/* pl_tune_value_check(): one function for tune apply and compare variants. */
static void test_value_check(void **st)
{
	(void)st;
	char why[512], *c;
	put("/proc/sys/net/core/somaxconn", "4096\n");
	put("/proc/sys/net/ipv4/tcp_available_congestion_control", "reno cubic\n");
	put("/proc/sys/net/ipv4/tcp_congestion_control", "cubic\n");
	put("/proc/sys/kernel/pair", "-1 2\n");
	put("/sys/bus/workqueue/devices/writeback/cpumask", "00000000,00000003\n");
	put("/sys/block/vda/queue/scheduler", "[mq-deadline] none\n");
	assert_int_equal(
		pl_tune_value_check("/proc/sys/net/core/somaxconn", "abc", &c, why, sizeof(why)),
		-EINVAL);
	assert_null(c);
	assert_string_equal(why, "is not a decimal integer (0..2147483647)");
	assert_int_equal(
		pl_tune_value_check("/proc/sys/net/core/somaxconn", "-1", NULL, why, sizeof(why)),
		-EINVAL);
	assert_string_equal(why, "is out of range (0..2147483647)");
	assert_int_equal(
		pl_tune_value_check("/proc/sys/net/core/somaxconn", "0x10", NULL, why, sizeof(why)),
		-EINVAL);
	assert_int_equal(pl_tune_value_check("/proc/sys/net/core/somaxconn", "99999999999999999999",
					     NULL, why, sizeof(why)),
			 -EINVAL);
	assert_int_equal(pl_tune_value_check("/proc/sys/net/core/somaxconn", " 08192\t", &c, why,
					     sizeof(why)),
			 0);
	assert_string_equal(c, "8192"); /* decimal, not the kernel's octal reading of 0... */
	free(c);
	assert_int_equal(pl_tune_value_check("/proc/sys/net/ipv4/tcp_rmem", "4096\t87380  6291456",
					     &c, why, sizeof(why)),
			 0);
	assert_string_equal(c, "4096 87380 6291456");
	free(c);
	assert_int_equal(pl_tune_value_check("/proc/sys/net/ipv4/tcp_rmem", "4096 0 6291456", NULL,
					     why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "field 2 (0) is out of range (1..2147483647)");
	assert_int_equal(pl_tune_value_check("/proc/sys/net/ipv4/tcp_congestion_control", "cubic",
					     NULL, why, sizeof(why)),
			 0);
	assert_int_equal(pl_tune_value_check("/proc/sys/net/ipv4/tcp_congestion_control", "bbr",
					     NULL, why, sizeof(why)),
			 -EINVAL);
	/* unknown targets: shaped like the current value */
	assert_int_equal(
		pl_tune_value_check("/proc/sys/kernel/pair", "3 -4", NULL, why, sizeof(why)), 0);
	assert_int_equal(pl_tune_value_check("/proc/sys/kernel/pair", "3", NULL, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why,
			    "is not 2 integers separated by spaces like the current value '-1 2'");
	assert_int_equal(pl_tune_value_check("/proc/sys/vm/nope", "anything", &c, why, sizeof(why)),
			 0); /* missing: the write says so */
	free(c);
	assert_int_equal(pl_tune_value_check("/sys/block/vda/queue/scheduler", "none", NULL, why,
					     sizeof(why)),
			 0);
	assert_int_equal(pl_tune_value_check("/sys/block/vda/queue/scheduler", "bfq", NULL, why,
					     sizeof(why)),
			 -EINVAL);
	assert_int_equal(pl_tune_value_check("/sys/kernel/mm/transparent_hugepage/enabled",
					     "never\nalways", NULL, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why,
			    "contains a newline (only integers may continue on the next line)");
	assert_int_equal(pl_tune_value_check("/sys/bus/workqueue/devices/writeback/cpumask", "ff,1",
					     NULL, why, sizeof(why)),
			 0);
	assert_int_equal(pl_tune_value_check("/sys/bus/workqueue/devices/writeback/cpumask", "3,,1",
					     NULL, why, sizeof(why)),
			 -EINVAL);
	/* refused targets */
	assert_int_equal(
		pl_tune_value_check("/proc/sys/kernel/escape", "1", NULL, why, sizeof(why)),
		-EXDEV);
	assert_true(pl_startswith(why, "refused: outside the sysroot"));
	assert_int_equal(pl_tune_value_check(PL_TUNE_GRUB_FILE, "GRUB_X=1\n", &c, why, sizeof(why)),
			 0);
	free(c);
	/* read back: masks as numbers, everything else by fields */
	assert_true(pl_tune_value_match("/sys/bus/workqueue/devices/writeback/cpumask",
					"00000000,00000003", "3"));
	assert_false(pl_tune_value_match("/sys/bus/workqueue/devices/writeback/cpumask", "3", "1"));
	/* tuned's verify: a kernel-shaped mask holds the same hex number anywhere, a list
	 * with commas is not a mask, hex ignores case, `a|b` holds either. */
	assert_string_equal(
		pl_tune_value_match_how("/proc/sys/kernel/pair", "00000000,00000003", "3"),
		"as CPU masks");
	assert_false(pl_tune_value_match("/proc/sys/kernel/pair", "1,2", "12"));
	assert_string_equal(pl_tune_value_match_how(NULL, "deadbeef", "DEADBEEF"),
			    "as hexadecimal numbers");
	assert_false(pl_tune_value_match(NULL, "16", "10"));
	assert_string_equal(pl_tune_value_match_how(NULL, "60", "10|60"),
			    "as one of the alternatives");
	assert_false(pl_tune_value_match(NULL, "60", "10|20"));
	assert_string_equal(pl_tune_value_match_how(NULL, "010", "10"), "equal");
	assert_true(pl_tune_value_match(NULL, "1\t0", "1 0"));
}

static atomic_bool swap_stop;

/* Swap <dirfd>/race (a directory) with <dirfd>/swap (a symlink out of the sysroot) until
 * told to stop. */
static void *swap_loop(void *arg)
{
	int d = *(int *)arg;
	while (!atomic_load(&swap_stop))
		syscall(SYS_renameat2, d, "race", d, "swap", RENAME_EXCHANGE);
	return NULL;
}

/* A directory of the sysroot swapped for a link out of it (renameat2 RENAME_EXCHANGE in
 * a loop) while a target below it is opened for writing 20,000 times: the file outside
 * is never opened (inotify reports every open of it; an open alone blocks on a FIFO or
 * acts on a device), and opens go through while the directory is in place. */
static void test_open_race(void **st)
{
	(void)st;
	char p[1024], out[512];
	put("/sys/kernel/race/knob", "1\n");
	snprintf(out, sizeof(out), "%s/outside", state);
	assert_int_equal(pl_test_mkdirs(out), 0);
	snprintf(p, sizeof(p), "%s/knob", out);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("outside\n", f);
	fclose(f);
	int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	assert_true(in >= 0);
	assert_true(inotify_add_watch(in, p, IN_OPEN) >= 0);
	snprintf(p, sizeof(p), "%s/sys/kernel/swap", root);
	assert_int_equal(symlink(out, p), 0);
	snprintf(p, sizeof(p), "%s/sys/kernel", root);
	int d = open(p, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(d >= 0);
	atomic_store(&swap_stop, false);
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, swap_loop, &d), 0);
	int opened = 0;
	for (int i = 0; i < 20000; i++) {
		int fd = pl_tune_open_write("/sys/kernel/race/knob");
		if (fd >= 0) {
			opened++;
			close(fd);
		}
	}
	atomic_store(&swap_stop, true);
	pthread_join(t, NULL);
	close(d);
	char ev[4096];
	ssize_t n = read(in, ev, sizeof(ev));
	close(in);
	/* no event: read fails with EAGAIN */
	assert_int_equal(n, -1);
	assert_true(opened > 0);
	snprintf(p, sizeof(p), "%s/sys/kernel/swap", root);
	unlink(p);
	assert_int_equal(pl_test_rmtree(out), 0);
}

/* Hard links in a sysroot, the kernel test hooks, recovery by owner, damage reports. */
static void test_links_hooks_damage(void **st)
{
	(void)st;
	char a[512], b[512], buf[4096];
	put("/proc/sys/vm/linked", "1\n");
	snprintf(a, sizeof(a), "%s/proc/sys/vm/linked", root);
	snprintf(b, sizeof(b), "%s/etc/linked-outside", root);
	assert_int_equal(link(a, b), 0);
	assert_int_equal(pl_tune_resolve("/proc/sys/vm/linked", buf, sizeof(buf)), -EMLINK);
	assert_int_equal(pl_tune_open_write("/proc/sys/vm/linked"), -EMLINK);
	struct pl_journal *j;
	assert_int_equal(pl_journal_open(state, PL_JOURNAL_WRITE, &j), 0);
	unsigned long s0 = pl_journal_last_step(j);
	assert_int_equal(pl_journal_write(j, "/proc/sys/vm/linked", "2", "p", NULL), -EMLINK);
	assert_int_equal(pl_journal_last_step(j), s0);
	assert_string_equal(get("/etc/linked-outside"), "1\n");

	/* A simulated kernel (sysroot only): keeps another value, or refuses. */
	const struct pl_journal_entry *e;
	setenv("PERFLAB_TUNE_TEST_KEEP", "/proc/sys/net/ipv4/tcp_rmem=4096 87380 6291456", 1);
	assert_int_equal(pl_journal_write(j, "/proc/sys/net/ipv4/tcp_rmem", "4096 87380 16777216",
					  "bench:x", &e),
			 0);
	assert_int_equal(e->status, PL_JS_CHANGED);
	assert_string_equal(e->accepted, "4096 87380 6291456");
	unsetenv("PERFLAB_TUNE_TEST_KEEP");
	setenv("PERFLAB_TUNE_TEST_REFUSE", "/proc/sys/vm/swappiness", 1);
	assert_int_equal(pl_journal_write(j, "/proc/sys/vm/swappiness", "7", "bench:x", &e), 0);
	assert_int_equal(e->status, PL_JS_REFUSED);
	assert_int_equal(e->error, EINVAL);
	assert_string_equal(get("/proc/sys/vm/swappiness"), "60\n");
	unsetenv("PERFLAB_TUNE_TEST_REFUSE");

	/* Recovery undoes one owner's newest entries, and only when nothing newer is live. */
	assert_int_equal(pl_journal_write(j, "/proc/sys/vm/swappiness", "8", "other", &e), 0);
	size_t n;
	assert_int_equal(pl_journal_recover(j, "bench:", &n), -EBUSY);
	assert_string_equal(get("/proc/sys/vm/swappiness"), "8\n");
	assert_int_equal(pl_journal_rollback(j, pl_journal_last_step(j) - 1, NULL, NULL), 0);
	assert_int_equal(pl_journal_recover(j, "bench:", &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(get("/proc/sys/net/ipv4/tcp_rmem"), "4096\t131072\t6291456\n");
	assert_int_equal(pl_journal_recover(j, "bench:", &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(pl_journal_live(j), 0);
	unsigned long last = pl_journal_last_step(j);
	pl_journal_close(j);

	/* A damaged record: refused with the file and line, nothing rolled back. */
	char p[256];
	snprintf(p, sizeof(p), "%s/%s", state, PL_JOURNAL_FILE);
	FILE *f = fopen(p, "a");
	assert_non_null(f);
	fprintf(f,
		"{\"op\":\"set\",\"step\":%lu,\"target\":\"/proc/sys/vm/swappiness\","
		"\"sysroot\":\"%s\",\"old\":null,\"old_raw\":null,\"new\":\"1\","
		"\"profile\":\"p\",\"time\":1}\n",
		last + 1, root);
	fclose(f);
	char why[1024] = "";
	assert_int_equal(pl_journal_open_why(state, PL_JOURNAL_READ, &j, why, sizeof(why)),
			 -EBADMSG);
	char want[512];
	snprintf(want, sizeof(want), "journal %s:", p);
	assert_true(pl_startswith(why, want));
	assert_non_null(strstr(why, ": step "));
	assert_non_null(strstr(why, "\"old\" is not a string (a rollback would write garbage or "
				    "remove /proc/sys/vm/swappiness)"));
	assert_int_equal(pl_journal_open(state, PL_JOURNAL_WRITE, &j), -EBADMSG);
	assert_string_equal(get("/proc/sys/vm/swappiness"), "60\n");
	unlink(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value),	       cmocka_unit_test(test_paths),
		cmocka_unit_test(test_write_rollback), cmocka_unit_test(test_torn_and_fault),
		cmocka_unit_test(test_value_check),    cmocka_unit_test(test_links_hooks_damage),
		cmocka_unit_test(test_open_race),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
