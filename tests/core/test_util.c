/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests: sysroot reader, number/size/duration parsing, cpulists, summary stats. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "stats/summary.h"
#include "util/cleanup.h"
#include "util/cpuset.h"
#include "util/opt.h"
#include "util/outfile.h"
#include "util/str.h"
#include "util/sysroot.h"

#include "testutil.h"

static char root[] = "/tmp/perflab-util.XXXXXX";

static void put(const char *rel, const char *content)
{
	assert_int_equal(pl_test_put(root, rel, content), 0);
}

static int setup(void **state)
{
	(void)state;
	assert_non_null(mkdtemp(root));
	put("/proc/sys/kernel/osrelease", "6.1.0-test\n");
	put("/sys/x/num", "  42\n");
	put("/sys/x/hex", "0x1f\n");
	put("/sys/x/garbage", "12abc\n");
	put("/sys/x/empty", "\n");
	return pl_sysroot_set(root);
}

static int teardown(void **state)
{
	(void)state;
	pl_sysroot_set(NULL);
	return pl_test_rmtree(root) == 0 ? 0 : -1;
}

static void test_sysroot_reads(void **state)
{
	(void)state;
	char *s = NULL;
	assert_int_equal(pl_read_str("/proc/sys/kernel/osrelease", &s), 0);
	assert_string_equal(s, "6.1.0-test");
	free(s);
	uint64_t v = 0;
	assert_int_equal(pl_read_u64("/sys/x/num", &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(pl_read_u64("/sys/x/hex", &v), 0);
	assert_int_equal(v, 31);
	assert_int_equal(pl_read_u64("/sys/x/garbage", &v), -EINVAL);
	assert_int_equal(pl_read_str("/sys/x/empty", &s), -ENODATA);
	assert_int_equal(pl_read_str("/sys/x/missing", &s), -ENOENT);
	assert_int_equal(pl_read_str("/sys/x", &s), -EISDIR);
	assert_int_equal(pl_read_str("relative", &s), -EINVAL);
	assert_true(pl_exists("/sys/x/num"));
	assert_false(pl_exists("/sys/x/nope"));
	assert_false(pl_sysroot_is_live());
	char **names;
	size_t n;
	assert_int_equal(pl_list_dir("/sys/x", &names, &n), 0);
	assert_int_equal(n, 4);
	assert_string_equal(names[0], "empty"); /* sorted */
	pl_strv_free(names);
}

/* pl_reader: the same contents as pl_read_file, read again through the open file after
 * an in-place rewrite (longer than its first buffer), reopened after a replacement;
 * pl_read_file's errors; a live /proc file read twice. */
static void test_reader(void **state)
{
	(void)state;
	struct pl_reader r = { 0 };
	const char *t = NULL;
	size_t n = 0;
	put("/sys/y/r", "42\n");
	assert_int_equal(pl_reader_read(&r, "/sys/y/r", &t, &n), 0);
	assert_string_equal(t, "42\n");
	assert_int_equal(n, 3);
	char path[600];
	snprintf(path, sizeof(path), "%s/sys/y/r", root);
	static char big[10000];
	memset(big, 'a', sizeof(big) - 1);
	FILE *f = fopen(path, "w"); /* the same file, rewritten in place */
	assert_non_null(f);
	fputs(big, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(pl_reader_read(&r, "/sys/y/r", &t, &n), 0);
	assert_int_equal(n, sizeof(big) - 1);
	assert_int_equal(strlen(t), n);
	char tmp[620];
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "w");
	assert_non_null(f);
	fputs("42\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(rename(tmp, path), 0); /* replaced: opened again */
	assert_int_equal(pl_reader_read(&r, "/sys/y/r", &t, &n), 0);
	assert_string_equal(t, "42\n");
	assert_int_equal(pl_reader_read(&r, "/sys/x/missing", &t, &n), -ENOENT);
	assert_null(r.path);
	assert_int_equal(pl_reader_read(&r, "/sys/x", &t, &n), -EISDIR);
	assert_int_equal(pl_reader_read(&r, "relative", &t, &n), -EINVAL);
	assert_int_equal(pl_reader_read(&r, "/sys/x/empty", &t, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(t, "\n");
	pl_reader_close(&r);
	assert_null(r.buf);
	pl_reader_close(NULL);
	/* live procfs: a second pread from 0 gives a whole fresh file */
	assert_int_equal(pl_sysroot_set(NULL), 0);
	assert_int_equal(pl_reader_read(&r, "/proc/self/stat", &t, &n), 0);
	size_t n1 = n;
	assert_int_equal(pl_reader_read(&r, "/proc/self/stat", &t, &n), 0);
	assert_true(n1 > 10 && n > 10 && t[n - 1] == '\n');
	pl_reader_close(&r);
	assert_int_equal(pl_sysroot_set(root), 0);
}

static void test_sysroot_set_errors(void **state)
{
	(void)state;
	assert_int_equal(pl_sysroot_set("/nonexistent/perflab"), -ENOENT);
	assert_int_equal(pl_sysroot_set("/etc/hostname"), -ENOTDIR);
	assert_int_equal(pl_sysroot_set(root), 0);
}

static void test_parse_numbers(void **state)
{
	(void)state;
	uint64_t u;
	int64_t i;
	double d;
	assert_int_equal(pl_parse_u64("123", &u), 0);
	assert_int_equal(u, 123);
	assert_int_equal(pl_parse_u64("-1", &u), -EINVAL);
	assert_int_equal(pl_parse_u64("", &u), -EINVAL);
	assert_int_equal(pl_parse_u64("12x", &u), -EINVAL);
	assert_int_equal(pl_parse_u64("99999999999999999999999", &u), -ERANGE);
	/* decimal, not octal, with a leading zero; 0x is hex */
	assert_int_equal(pl_parse_u64("010", &u), 0);
	assert_int_equal(u, 10);
	assert_int_equal(pl_parse_u64("0x1f", &u), 0);
	assert_int_equal(u, 31);
	assert_int_equal(pl_parse_u64("0x", &u), -EINVAL);
	assert_int_equal(pl_parse_i64("-5", &i), 0);
	assert_int_equal(i, -5);
	assert_int_equal(pl_parse_double("2.5", &d), 0);
	assert_true(d == 2.5);
	assert_int_equal(pl_parse_double("nan", &d), -EINVAL);
	assert_int_equal(pl_parse_size("4k", &u), 0);
	assert_int_equal(u, 4096);
	assert_int_equal(pl_parse_size("1GiB", &u), 0);
	assert_int_equal(u, 1ull << 30);
	assert_int_equal(pl_parse_size("1.5m", &u), 0);
	assert_int_equal(u, 1572864);
	assert_int_equal(pl_parse_size("3 parsecs", &u), -EINVAL);
	assert_int_equal(pl_parse_size("-4k", &u), -EINVAL);
	assert_int_equal(pl_parse_duration("500ms", &d), 0);
	assert_true(fabs(d - 0.5) < 1e-12);
	assert_int_equal(pl_parse_duration("2m", &d), 0);
	assert_true(d == 120);
	assert_int_equal(pl_parse_duration("soon", &d), -EINVAL);
	/* seconds that are not finite overflowed into undefined conversions */
	assert_int_equal(pl_parse_duration("1e308h", &d), -ERANGE);
	assert_int_equal(pl_parse_size("1e30", &u), -ERANGE);
	/* formatting in the unit the parsers read back */
	char b[64];
	assert_string_equal(pl_fmt_duration(b, sizeof(b), 1e-9), "1ns");
	assert_string_equal(pl_fmt_duration(b, sizeof(b), 0.01), "10ms");
	assert_string_equal(pl_fmt_duration(b, sizeof(b), 1.5), "1.5s");
	assert_string_equal(pl_fmt_duration(b, sizeof(b), 43200), "12h");
	assert_string_equal(pl_fmt_duration(b, sizeof(b), 30 * 86400), "30d");
	assert_int_equal(pl_parse_duration("40d", &d), 0);
	assert_true(d == 40 * 86400.0);
	assert_string_equal(pl_fmt_duration(b, sizeof(b), 0), "0s");
	assert_int_equal(pl_parse_duration(pl_fmt_duration(b, sizeof(b), 90), &d), 0);
	assert_true(d == 90);
	assert_string_equal(pl_fmt_size(b, sizeof(b), 4096), "4 KiB");
	assert_string_equal(pl_fmt_size(b, sizeof(b), 0x1p50), "1 PiB");
	assert_string_equal(pl_fmt_size(b, sizeof(b), 512), "512 B");
	assert_string_equal(pl_fmt_size(b, sizeof(b), 4294967295.0), "4.00 GiB (4294967295 B)");
}

static void test_cpuset(void **state)
{
	(void)state;
	struct pl_cpuset s;
	char buf[64];
	assert_int_equal(pl_cpuset_parse("0-3,8,10-11\n", &s), 0);
	assert_int_equal(pl_cpuset_count(&s), 7);
	assert_true(pl_cpuset_isset(&s, 8));
	assert_false(pl_cpuset_isset(&s, 9));
	assert_string_equal(pl_cpuset_format(&s, buf, sizeof(buf)), "0-3,8,10-11");
	assert_int_equal(pl_cpuset_parse("", &s), 0);
	assert_int_equal(pl_cpuset_count(&s), 0);
	assert_int_equal(pl_cpuset_parse("3-1", &s), -EINVAL);
	assert_int_equal(pl_cpuset_parse("a", &s), -EINVAL);
	assert_int_equal(pl_cpuset_parse("1,,2", &s), -EINVAL);
	assert_int_equal(pl_cpuset_parse("99999", &s), -ERANGE);
	assert_int_equal(pl_cpuset_parse_mask("00000000,00000003", &s), 0);
	assert_string_equal(pl_cpuset_format(&s, buf, sizeof(buf)), "0-1");
	assert_int_equal(pl_cpuset_parse_mask("1,00000000", &s), 0);
	assert_string_equal(pl_cpuset_format(&s, buf, sizeof(buf)), "32");
	assert_int_equal(pl_cpuset_next(&s, 0), 32);
	assert_int_equal(pl_cpuset_next(&s, 33), -1);
	/* one member is "0", never "0-0" */
	assert_int_equal(pl_cpuset_parse("0", &s), 0);
	assert_string_equal(pl_cpuset_format(&s, buf, sizeof(buf)), "0");
	assert_int_equal(pl_cpuset_parse("0-0,2,4-5", &s), 0);
	assert_string_equal(pl_cpuset_format(&s, buf, sizeof(buf)), "0,2,4-5");
	/* a number named twice, alone or inside a range */
	assert_int_equal(pl_cpuset_repeated("0,0,0"), 0);
	assert_int_equal(pl_cpuset_repeated("0-3,2"), 2);
	assert_int_equal(pl_cpuset_repeated("5,1-7"), 5);
	assert_int_equal(pl_cpuset_repeated("0-3,8,10-11"), -1);
	assert_int_equal(pl_cpuset_repeated("x"), -1);
}

static void test_summary(void **state)
{
	(void)state;
	struct pl_summary s;
	const double big[] = { 1e12 + 1, 1e12 + 2, 1e12 + 3 };
	pl_summary_compute(&s, big, 3);
	assert_true(fabs(s.stddev - 1.0) < 1e-9);
	assert_true(s.median == 1e12 + 2);
	const double v[] = { 5, 1, 4, 2, 3 };
	pl_summary_compute(&s, v, 5);
	assert_true(s.min == 1 && s.max == 5 && s.mean == 3 && s.median == 3);
	assert_true(fabs(s.p99 - 4.96) < 1e-12);
	pl_summary_compute(&s, v, 0);
	assert_true(isnan(s.mean));
}

static void test_split_buf(void **state)
{
	(void)state;
	size_t n;
	char **v = pl_split("  a b\tc  ", " \t", &n);
	assert_int_equal(n, 3);
	assert_string_equal(v[2], "c");
	pl_strv_free(v);
	struct pl_buf b = { 0 };
	for (int i = 0; i < 100; i++)
		pl_buf_printf(&b, "%d,", i);
	assert_int_equal(b.len, 290);
	pl_buf_free(&b);
}

/* The whole content of @path ("" when unreadable), in a static buffer. */
static const char *slurp(const char *path)
{
	static char buf[256];
	buf[0] = '\0';
	FILE *f = fopen(path, "r");
	if (f) {
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);
		buf[n] = '\0';
		fclose(f);
	}
	return buf;
}

/* pl_outfile: a regular file is replaced by a renamed temporary file; a symlink is
 * written through, in place, only at commit, so an abandoned output (a failed run)
 * leaves the link's file as it was and the link a link; a FIFO is not opened before
 * commit; a directory and a block device are refused at open. */
static void test_outfile(void **state)
{
	(void)state;
	char reg[512], tgt[512], lnk[512], fifo[512];
	snprintf(reg, sizeof(reg), "%s/out.txt", root);
	snprintf(tgt, sizeof(tgt), "%s/target.txt", root);
	snprintf(lnk, sizeof(lnk), "%s/link.txt", root);
	snprintf(fifo, sizeof(fifo), "%s/fifo", root);
	struct pl_outfile o;
	struct stat st0, st1;

	/* regular file: atomic rename (a new inode), the old content kept on abandon */
	put("/out.txt", "old\n");
	assert_int_equal(stat(reg, &st0), 0);
	assert_int_equal(pl_outfile_open(&o, reg), 0);
	assert_non_null(o.tmp);
	fputs("new\n", o.fp);
	assert_int_equal(pl_outfile_close(&o, false), 0);
	assert_string_equal(slurp(reg), "old\n");
	assert_int_equal(pl_outfile_open(&o, reg), 0);
	fputs("new\n", o.fp);
	assert_int_equal(pl_outfile_close(&o, true), 0);
	assert_string_equal(slurp(reg), "new\n");
	assert_int_equal(stat(reg, &st1), 0);
	assert_true(st0.st_ino != st1.st_ino);

	/* symlink to a good file: abandoned -> untouched (it was truncated at open before) */
	put("/target.txt", "precious\n");
	assert_int_equal(symlink("target.txt", lnk), 0);
	assert_int_equal(stat(tgt, &st0), 0);
	assert_int_equal(pl_outfile_open(&o, lnk), 0);
	assert_null(o.tmp);
	assert_string_equal(slurp(tgt), "precious\n"); /* nothing written while open */
	fputs("partial", o.fp);
	assert_int_equal(pl_outfile_close(&o, false), 0);
	assert_string_equal(slurp(tgt), "precious\n");
	/* committed: written through the link, in place (same inode), link kept */
	assert_int_equal(pl_outfile_open(&o, lnk), 0);
	fputs("report\n", o.fp);
	assert_int_equal(pl_outfile_close(&o, true), 0);
	assert_string_equal(slurp(tgt), "report\n");
	assert_int_equal(lstat(lnk, &st1), 0);
	assert_true(S_ISLNK(st1.st_mode));
	assert_int_equal(stat(tgt, &st1), 0);
	assert_true(st0.st_ino == st1.st_ino);
	/* an empty output truncates the target on commit */
	assert_int_equal(pl_outfile_open(&o, lnk), 0);
	assert_int_equal(pl_outfile_close(&o, true), 0);
	assert_string_equal(slurp(tgt), "");

	/* a FIFO without a reader: open does not block, abandon does not open it */
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(pl_outfile_open(&o, fifo), 0);
	fputs("x", o.fp);
	assert_int_equal(pl_outfile_close(&o, false), 0);
	assert_int_equal(lstat(fifo, &st1), 0);
	assert_true(S_ISFIFO(st1.st_mode));

	/* a directory (also through a symlink) is refused at open */
	char dl[512];
	snprintf(dl, sizeof(dl), "%s/dirlink", root);
	assert_int_equal(symlink("sys", dl), 0);
	assert_int_equal(pl_outfile_open(&o, dl), -EISDIR);
	assert_null(o.fp);
	/* a block device of our own (root only): refused, never written over */
	char blk[512];
	snprintf(blk, sizeof(blk), "%s/blk", root);
	if (mknod(blk, S_IFBLK | 0600, makedev(7, 200)) == 0) {
		assert_int_equal(pl_outfile_open(&o, blk), -ENOTSUP);
		assert_null(o.fp);
		assert_int_equal(pl_outfile_check(blk), -ENOTSUP);
	}

	/* the check before a long run says what pl_outfile_open() would, creating nothing */
	char p[600], m[700];
	assert_int_equal(pl_outfile_check(NULL), 0);
	assert_int_equal(pl_outfile_check("-"), 0);
	assert_int_equal(pl_outfile_check(reg), 0);
	assert_int_equal(pl_outfile_check(lnk), 0);
	assert_int_equal(pl_outfile_check(fifo), 0);
	assert_int_equal(pl_outfile_check(root), -EISDIR);
	assert_int_equal(pl_outfile_check(dl), -EISDIR);
	snprintf(p, sizeof(p), "%s/new.json", root);
	assert_int_equal(pl_outfile_check(p), 0);
	assert_int_equal(access(p, F_OK), -1);
	snprintf(p, sizeof(p), "%s/missing/new.json", root);
	assert_int_equal(pl_outfile_check(p), -ENOENT);
	snprintf(p, sizeof(p), "%s/out.txt/new.json", root);
	assert_int_equal(pl_outfile_check(p), -ENOTDIR);
	/* the one error line every command gives */
	assert_string_equal(pl_outfile_strerror(m, sizeof(m), "/x/y.json", -ENOENT),
			    "cannot write '/x/y.json': No such file or directory (choose another "
			    "-o FILE)");
	assert_string_equal(pl_outfile_strerror(m, sizeof(m), NULL, -ENOSPC),
			    "cannot write standard output: No space left on device (give -o FILE)");
}

/* pl_outfile in a directory others can write (no sticky bit): a symlink another user
 * planted there is never followed, at open or at commit (the link swapped in after a
 * good open); our own link there is, and so is any link in a directory only we write.
 * The planted link's owner is set with lchown, which needs root. */
static void test_outfile_planted(void **state)
{
	(void)state;
	if (geteuid() != 0) {
		skip();
		return;
	}
	char shared[256], victim[512], lnk[512], own[512], m[700];
	snprintf(shared, sizeof(shared), "%s/shared", root);
	snprintf(victim, sizeof(victim), "%s/victim.txt", root);
	snprintf(lnk, sizeof(lnk), "%s/planted.json", shared);
	snprintf(own, sizeof(own), "%s/own.json", shared);
	assert_int_equal(mkdir(shared, 0777), 0);
	assert_int_equal(chmod(shared, 0777), 0);
	put("/victim.txt", "secret\n");
	struct pl_outfile o;

	/* planted by uid 65534: refused at the check and at open, with the reason */
	assert_int_equal(symlink(victim, lnk), 0);
	assert_int_equal(lchown(lnk, 65534, 65534), 0);
	assert_int_equal(pl_outfile_check(lnk), -EPERM);
	assert_int_equal(pl_outfile_open(&o, lnk), -EPERM);
	assert_null(o.fp);
	assert_non_null(strstr(pl_outfile_strerror(m, sizeof(m), lnk, -EPERM),
			       "a symbolic link of another user in a directory others can write"));
	assert_string_equal(slurp(victim), "secret\n");

	/* our own link there is written through */
	assert_int_equal(symlink(victim, own), 0);
	assert_int_equal(pl_outfile_open(&o, own), 0);
	fputs("mine\n", o.fp);
	assert_int_equal(pl_outfile_close(&o, true), 0);
	assert_string_equal(slurp(victim), "mine\n");

	/* swapped after a good open: the commit refuses the planted link */
	put("/victim.txt", "secret\n");
	char devnull[300];
	snprintf(devnull, sizeof(devnull), "%s/null", shared);
	assert_int_equal(symlink("/dev/null", devnull), 0);
	assert_int_equal(pl_outfile_open(&o, devnull), 0);
	assert_int_equal(unlink(devnull), 0);
	assert_int_equal(symlink(victim, devnull), 0);
	assert_int_equal(lchown(devnull, 65534, 65534), 0);
	fputs("hijack\n", o.fp);
	assert_int_equal(pl_outfile_close(&o, true), -EPERM);
	assert_string_equal(slurp(victim), "secret\n");
	/* a FIFO swapped for a planted link: refused too */
	char fifo[300];
	snprintf(fifo, sizeof(fifo), "%s/fifo", shared);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(pl_outfile_open(&o, fifo), 0);
	assert_int_equal(unlink(fifo), 0);
	assert_int_equal(symlink(victim, fifo), 0);
	assert_int_equal(lchown(fifo, 65534, 65534), 0);
	fputs("hijack\n", o.fp);
	assert_true(pl_outfile_close(&o, true) < 0);
	assert_string_equal(slurp(victim), "secret\n");

	/* in a directory only we write, any link is ours to follow */
	assert_int_equal(chmod(shared, 0755), 0);
	assert_int_equal(pl_outfile_check(lnk), 0);
	assert_int_equal(chmod(shared, 0777), 0);
}

/* values in their unit, as every terminal table shows them */
static void test_fmt_unit(void **state)
{
	(void)state;
	char b[64];
	assert_string_equal(pl_fmt_unit(b, sizeof(b), 0.012345, "s"), "12.35 ms");
	assert_string_equal(pl_fmt_unit(b, sizeof(b), 2.5e-7, "s"), "250 ns");
	assert_string_equal(pl_fmt_unit(b, sizeof(b), -4e-4, "s"), "-400 us");
	assert_string_equal(pl_fmt_unit(b, sizeof(b), 0, "s"), "0 s");
	assert_string_equal(pl_fmt_unit(b, sizeof(b), 3.5, "s"), "3.5 s");
	assert_string_equal(pl_fmt_unit(b, sizeof(b), 1572864, "B"), "1.50 MiB");
	assert_string_equal(pl_fmt_unit(b, sizeof(b), -2048, "B"), "-2.00 KiB");
	assert_string_equal(pl_fmt_unit(b, sizeof(b), 12.3456, ""), "12.35");
	assert_string_equal(pl_fmt_unit(b, sizeof(b), 7, "ops/s"), "7 ops/s");
	assert_string_equal(pl_fmt_unit(b, sizeof(b), NAN, "s"), "-");
	assert_string_equal(pl_fmt_unit(b, sizeof(b), 2.5e6, "ns"), "2.5 ms");
	assert_string_equal(pl_fmt_unit(b, sizeof(b), 73.36, "ns"), "73.36 ns");
	assert_string_equal(pl_fmt_unit(b, sizeof(b), 1500, "us"), "1.5 ms");
	assert_string_equal(pl_fmt_unit(b, sizeof(b), 25000, "1/s"), "25000/s");
	assert_string_equal(pl_fmt_unit(b, sizeof(b), 675.25, "1/s"), "675.2/s");
	assert_string_equal(pl_fmt_unit(b, sizeof(b), 3, "count"), "3");
	assert_string_equal(pl_fmt_unit(b, sizeof(b), 2.5, "GB/s"), "2.5 GB/s");
	assert_string_equal(pl_fmt_unit(b, sizeof(b), 9999, "MB/s"), "9999 MB/s");
}

/* util/cleanup.h: the descriptor is closed at scope exit, a stolen one is not, and a
 * pl_autofree buffer is freed (ASan's leak check fails the test otherwise). */
static int scoped_open(int steal)
{
	pl_autoclose int fd = open("/dev/null", O_RDONLY);
	pl_autofree char *buf = malloc(64);
	pl_autofclose FILE *f = fopen("/dev/null", "r");
	pl_autofclose FILE *none = NULL;
	(void)none;
	assert_true(fd >= 0 && buf && f);
	return steal ? pl_steal_fd(&fd) : fd;
}

/* pl_fmt_g writes printf's "%.*g" bytes: random values over every magnitude its fast
 * path takes and around it, decimal fractions, integers, ties and near-ties, both signs,
 * every precision it handles and some it passes to snprintf. */
static void test_fmt_g(void **state)
{
	(void)state;
	uint64_t x = 88172645463325252ull; /* xorshift64 */
	char want[64], got[64];
	size_t checked = 0;
	for (int i = 0; i < 100000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		double v;
		switch (i % 5) {
		case 0: /* any mantissa, 10^-6 .. 10^11 */
			v = (double)(x >> 11) / 9007199254740992.0 *
			    pow(10, (double)((int)(x % 18) - 6));
			break;
		case 1: /* short decimals: k / 10^j */
			v = (double)(x % 100000000) / pow(10, (double)(x % 13));
			break;
		case 2: /* integers */
			v = (double)(x % 2000000000);
			break;
		case 3: /* ties and near-ties at the last digit: (k + 0.5) / 10^j, +-1 ulp */
			v = ((double)(x % 100000000) + 0.5) / pow(10, (double)(x % 9));
			v = (x >> 40) % 3 == 0	 ? nextafter(v, 0)
			    : (x >> 40) % 3 == 1 ? nextafter(v, 1e300)
						 : v;
			break;
		default: /* just below and above powers of ten and 9.99.. */
			v = pow(10, (double)((int)(x % 14) - 5)) * (1 - (double)(x % 1000) * 1e-12);
			break;
		}
		if (x & (1ull << 50))
			v = -v;
		for (int prec = 1; prec <= 10; prec++) {
			int nw = snprintf(want, sizeof(want), "%.*g", prec, v);
			int ng = pl_fmt_g(got, sizeof(got), v, prec);
			if (nw != ng || strcmp(want, got) != 0)
				fail_msg("%%.%dg of %.17g: printf '%s', pl_fmt_g '%s'", prec, v,
					 want, got);
			checked++;
		}
	}
	/* the values snprintf handles: zero, -0, tiny, huge, NaN, infinity */
	const double odd[] = { 0.0,	 -0.0,	    1e-300, 5e-324,	1e300,	    NAN,
			       INFINITY, -INFINITY, 1e-4,   99999999.5, 9.99999995, 0.00099999999 };
	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		snprintf(want, sizeof(want), "%.8g", odd[i]);
		pl_fmt_g(got, sizeof(got), odd[i], 8);
		assert_string_equal(got, want);
	}
	assert_true(checked == 1000000);
}

static void test_cleanup(void **state)
{
	(void)state;
	int closed = scoped_open(0);
	errno = 0;
	assert_int_equal(fcntl(closed, F_GETFD), -1);
	assert_int_equal(errno, EBADF);
	int kept = scoped_open(1);
	assert_true(fcntl(kept, F_GETFD) >= 0);
	close(kept);
	pl_autofree char *p = strdup("x");
	char *q = pl_steal_ptr(&p);
	assert_null(p);
	assert_string_equal(q, "x");
	free(q);
	pl_autoclose int neg = -1; /* accepted: nothing to close */
	(void)neg;
}

/* tests/testutil.c: the tree helper removes a tree, a symlink in it but not what the link
 * points to, and accepts a tree that is already gone. */
static void test_testutil_rmtree(void **state)
{
	(void)state;
	char t[] = "/tmp/perflab-rmtree.XXXXXX";
	assert_int_equal(pl_test_mkdtemp(t), 0);
	char p[700], keep[600];
	assert_int_equal(pl_test_put(t, "/a/b/c/file", "x\n"), 0);
	assert_int_equal(pl_test_put(t, "/outside/keep", "precious\n"), 0);
	snprintf(keep, sizeof(keep), "%s/outside", t);
	snprintf(p, sizeof(p), "%s/a/link", t);
	assert_int_equal(symlink(keep, p), 0);
	snprintf(p, sizeof(p), "%s/a", t);
	assert_int_equal(pl_test_rmtree(p), 0);
	struct stat st;
	assert_int_equal(lstat(p, &st), -1);
	snprintf(p, sizeof(p), "%s/keep", keep);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_size, 9);
	assert_int_equal(pl_test_rmtree(t), 0);
	assert_int_equal(lstat(t, &st), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(pl_test_rmtree(t), 0);
}

/* pl_opt_parse_pct: compare's and diff's --threshold/--precision spelling. */
static void test_parse_pct(void **state)
{
	(void)state;
	double v = -1;
	assert_int_equal(pl_opt_parse_pct("threshold", "1%", &v), 0);
	assert_true(fabs(v - 0.01) < 1e-12);
	assert_int_equal(pl_opt_parse_pct("threshold", "2.5", &v), 0);
	assert_true(fabs(v - 0.025) < 1e-12);
	assert_int_equal(pl_opt_parse_pct("threshold", "100%", &v), 0);
	assert_true(fabs(v - 1.0) < 1e-12);
	v = 7;
	assert_int_equal(pl_opt_parse_pct("threshold", "0", &v), -EINVAL);
	assert_int_equal(pl_opt_parse_pct("threshold", "100.5%", &v), -EINVAL);
	assert_int_equal(pl_opt_parse_pct("threshold", "-1%", &v), -EINVAL);
	assert_int_equal(pl_opt_parse_pct("threshold", "%", &v), -EINVAL);
	assert_int_equal(pl_opt_parse_pct("threshold", "1%%", &v), -EINVAL);
	assert_true(v == 7); /* unchanged on error */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysroot_reads),	cmocka_unit_test(test_sysroot_set_errors),
		cmocka_unit_test(test_parse_numbers),	cmocka_unit_test(test_cpuset),
		cmocka_unit_test(test_summary),		cmocka_unit_test(test_split_buf),
		cmocka_unit_test(test_outfile),		cmocka_unit_test(test_outfile_planted),
		cmocka_unit_test(test_fmt_unit),	cmocka_unit_test(test_cleanup),
		cmocka_unit_test(test_testutil_rmtree), cmocka_unit_test(test_parse_pct),
		cmocka_unit_test(test_fmt_g),		cmocka_unit_test(test_reader),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
