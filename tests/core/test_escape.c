/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests: outside bytes made safe (util/escape.h: invalid UTF-8 and control characters
 * as \xNN, shell quoting), JSON strings that never vanish (util/json.h), fix commands with
 * quoted device names (rules.c), and the sysroot reader's refusals (regular files only,
 * non-blocking, size cap). */
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

#include "util/json.h"
#include "rules/rules.h"
#include "util/escape.h"
#include "util/str.h"
#include "util/sysroot.h"

#include "testutil.h"

static void expect_escape(const char *in, unsigned flags, const char *want)
{
	char *got = pl_str_escape(in, flags);
	assert_string_equal(got, want);
	free(got);
}

static void expect_prom(const char *in, const char *want)
{
	char *got = pl_prom_label_escape(in);
	assert_string_equal(got, want);
	free(got);
}

/* Prometheus label values: the exposition format's three escapes, invalid UTF-8 as the
 * text \xNN (its backslash escaped), nothing cut; metric names of the safe charset. */
static void test_prom_label(void **state)
{
	(void)state;
	expect_prom("eth0", "eth0");
	expect_prom(NULL, "");
	expect_prom("a\"b\\c\nd", "a\\\"b\\\\c\\nd");
	expect_prom("\"} 1\nforged{x=\"", "\\\"} 1\\nforged{x=\\\"");
	expect_prom("w\xff\tx\xc3\xa9", "w\\\\xff\tx\xc3\xa9");
	char big[4001];
	memset(big, '"', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	char *got = pl_prom_label_escape(big);
	assert_int_equal(strlen(got), 8000);
	assert_int_equal(strspn(got, "\\\""), 8000);
	free(got);
	char *mem = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&mem, &n);
	assert_non_null(f);
	pl_prom_label_value(f, "x\"y");
	assert_int_equal(fclose(f), 0);
	assert_string_equal(mem, "\"x\\\"y\"");
	free(mem);
	assert_true(pl_prom_name_ok("perflab_monitor_cpu_percent"));
	assert_true(pl_prom_name_ok(":a_B9:"));
	assert_false(pl_prom_name_ok(""));
	assert_false(pl_prom_name_ok(NULL));
	assert_false(pl_prom_name_ok("9a"));
	assert_false(pl_prom_name_ok("a-b"));
	assert_false(pl_prom_name_ok("a{b=\"c\"}"));
	assert_false(pl_prom_name_ok("a\nb"));
}

static void test_utf8(void **state)
{
	(void)state;
	assert_int_equal(pl_utf8_seq_len("a"), 1);
	assert_int_equal(pl_utf8_seq_len(""), 0);
	assert_int_equal(pl_utf8_seq_len("\xc3\xa9"), 2);	  /* é */
	assert_int_equal(pl_utf8_seq_len("\xe2\x82\xac"), 3);	  /* € */
	assert_int_equal(pl_utf8_seq_len("\xf0\x9f\x98\x80"), 4); /* U+1F600 */
	assert_int_equal(pl_utf8_seq_len("\xc0\xaf"), 0);	  /* overlong '/' */
	assert_int_equal(pl_utf8_seq_len("\xe0\x80\xaf"), 0);	  /* overlong, 3 bytes */
	assert_int_equal(pl_utf8_seq_len("\xed\xa0\x80"), 0);	  /* surrogate U+D800 */
	assert_int_equal(pl_utf8_seq_len("\xf4\x90\x80\x80"), 0); /* U+110000 */
	assert_int_equal(pl_utf8_seq_len("\xc3"), 0);		  /* cut short by the NUL */
	assert_int_equal(pl_utf8_seq_len("\x80"), 0);		  /* lone continuation */
	assert_true(pl_utf8_valid("caf\xc3\xa9"));
	assert_false(pl_utf8_valid("caf\xe9"));
	assert_true(pl_utf8_valid(NULL));
}

static void test_escape(void **state)
{
	(void)state;
	expect_escape("caf\xe9 na\xefve", PL_ESC_UTF8, "caf\\xe9 na\\xefve");
	expect_escape("caf\xc3\xa9", PL_ESC_UTF8, "caf\xc3\xa9"); /* valid: unchanged */
	expect_escape("\xed\xa0\x80x", PL_ESC_UTF8, "\\xed\\xa0\\x80x");
	expect_escape("\x1b[31mred", PL_ESC_UTF8, "\x1b[31mred"); /* JSON escapes controls */
	expect_escape("\x1b[31mred\x1b[0m", PL_ESC_TERM, "\\x1b[31mred\\x1b[0m");
	expect_escape("a\rb\bc\x7f", PL_ESC_TERM, "a\\x0db\\x08c\\x7f");
	expect_escape("a\nb", PL_ESC_TERM, "a\\x0ab");
	expect_escape("a\nb\tc", PL_ESC_TERM | PL_ESC_KEEP_NL, "a\nb\\x09c");
	expect_escape("\xc2\x9b"
		      "2J",
		      PL_ESC_TERM, "\\xc2\\x9b2J");  /* C1 CSI */
	expect_escape("\xff", PL_ESC_CTRL, "\\xff"); /* a terminal gets no invalid UTF-8 */
	expect_escape(NULL, PL_ESC_TERM, "");
	expect_escape("back\\slash", PL_ESC_TERM, "back\\slash");
	assert_false(pl_str_needs_escape("plain text", PL_ESC_TERM));
	assert_true(pl_str_needs_escape("tab\there", PL_ESC_TERM));
	assert_false(pl_str_needs_escape("tab\there", PL_ESC_UTF8));
}

static void expect_quote(const char *in, const char *want)
{
	char *got = pl_shell_quote(in);
	assert_string_equal(got, want);
	free(got);
}

static void expect_xml(const char *in, const char *want)
{
	struct pl_buf b = { 0 };
	pl_xml_escape(&b, in);
	assert_string_equal(b.data ? b.data : "", want);
	pl_buf_free(&b);
}

/* XML/HTML text: markup as entities; a Latin-1 byte, a cut UTF-8 sequence, controls XML
 * forbids, C1 controls and U+FFFE/U+FFFF as \xNN; valid UTF-8, tab and newline kept. */
static void test_xml_escape(void **state)
{
	(void)state;
	expect_xml(NULL, "");
	expect_xml("a<b>&\"c'", "a&lt;b&gt;&amp;&quot;c&#39;");
	expect_xml("caf\xe9", "caf\\xe9");
	expect_xml("caf\xc3\xa9", "caf\xc3\xa9");
	expect_xml("\xe2\x82", "\\xe2\\x82");
	expect_xml("a\001b\033\177", "a\\x01b\\x1b\\x7f");
	expect_xml("t\tn\nr\r", "t\tn\nr\r");
	expect_xml("\xc2\x85", "\\xc2\\x85");
	expect_xml("\xef\xbf\xbe\xef\xbf\xbf\xef\xbf\xbd",
		   "\\xef\\xbf\\xbe\\xef\\xbf\\xbf\xef\xbf\xbd");
	expect_xml("\xed\xa0\x80", "\\xed\\xa0\\x80");
}

static void test_shell_quote(void **state)
{
	(void)state;
	expect_quote("vda", "vda");
	expect_quote("nvme0n1", "nvme0n1");
	expect_quote("dm-0", "dm-0");
	expect_quote("a b", "'a b'");
	expect_quote("$(id)", "'$(id)'");
	expect_quote("`id`", "'`id`'");
	expect_quote("x'y", "'x'\\''y'");
	expect_quote("", "''");
	expect_quote("a\nb", "'a\\x0ab'"); /* stays one line */
	expect_quote("-rf", "-rf");
}

static void test_json_string(void **state)
{
	(void)state;
	json_t *s = pl_json_string("caf\xe9");
	assert_non_null(s);
	assert_string_equal(json_string_value(s), "caf\\xe9");
	json_decref(s);
	s = pl_json_string("caf\xc3\xa9");
	assert_string_equal(json_string_value(s), "caf\xc3\xa9");
	json_decref(s);
	s = pl_json_string(NULL);
	assert_true(json_is_null(s));
	json_decref(s);

	json_t *o = json_object();
	assert_int_equal(
		pl_json_set(o, "block.sd\xff.queue.scheduler", pl_json_string("[none]\xfe")), 0);
	assert_int_equal(pl_json_set(o, "plain", NULL), 0);
	assert_int_equal(json_object_size(o), 2);
	const json_t *v = json_object_get(o, "block.sd\\xff.queue.scheduler");
	assert_non_null(v);
	assert_string_equal(json_string_value(v), "[none]\\xfe");
	assert_true(json_is_null(json_object_get(o, "plain")));
	char *dump = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
	assert_non_null(dump);
	assert_string_equal(
		dump, "{\"block.sd\\\\xff.queue.scheduler\":\"[none]\\\\xfe\",\"plain\":null}");
	free(dump);
	json_decref(o);
}

static void test_fix_command_quoted(void **state)
{
	(void)state;
	const struct pl_rule *r = pl_rule_find("block.scheduler-nvme");
	assert_non_null(r);
	struct pl_findings fs = { 0 };
	struct pl_finding *x = pl_finding_add(&fs, r, "nvme0n1", "mq-deadline", "none");
	assert_string_equal(x->fix_command, "echo none > /sys/block/nvme0n1/queue/scheduler");
	x = pl_finding_add(&fs, r, "a b$(reboot)", "mq-deadline", "none");
	assert_string_equal(x->fix_command,
			    "echo none > /sys/block/'a b$(reboot)'/queue/scheduler");
	x = pl_finding_add(&fs, r, "x\n[bootloader] cmdline=init=/bin/sh", "mq-deadline", "none");
	assert_null(strchr(x->fix_tune, '\n')); /* the profile line stays one line */
	assert_non_null(strstr(x->fix_tune, "devices=x\\x0a[bootloader]"));
	/* the fact keys keep the raw name: they are looked up, not printed */
	assert_string_equal(json_string_value(json_array_get(fs.v[1].facts, 0)),
			    "block.a b$(reboot).queue.scheduler");
	pl_findings_free(&fs);
}

/* ---- the sysroot reader on what a machine tree may hold -------------------------- */

static char root[] = "/tmp/perflab-esc.XXXXXX";

static void path_of(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s%s", root, rel);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(root))
		return -1;
	char p[512], q[512];
	path_of(p, sizeof(p), "/sys");
	mkdir(p, 0755);
	path_of(p, sizeof(p), "/sys/fifo");
	if (mkfifo(p, 0644) < 0)
		return -1;
	path_of(p, sizeof(p), "/sys/zero");
	if (symlink("/dev/zero", p) < 0)
		return -1;
	path_of(p, sizeof(p), "/sys/loop");
	if (symlink("loop", p) < 0)
		return -1;
	path_of(p, sizeof(p), "/sys/loop2");
	path_of(q, sizeof(q), "/sys/loop3");
	if (symlink("loop3", p) < 0 || symlink("loop2", q) < 0)
		return -1;
	/* sparse files: one of exactly the cap, one a byte longer */
	path_of(p, sizeof(p), "/sys/cap");
	int fd = open(p, O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || ftruncate(fd, PL_READ_MAX) < 0 || close(fd) < 0)
		return -1;
	path_of(p, sizeof(p), "/sys/big");
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)PL_READ_MAX + 1) < 0 || close(fd) < 0)
		return -1;
	return pl_sysroot_set(root);
}

static int teardown(void **state)
{
	(void)state;
	pl_sysroot_set(NULL);
	return pl_test_rmtree(root) == 0 ? 0 : -1;
}

static void test_read_refusals(void **state)
{
	(void)state;
	char *s = NULL;
	size_t len = 0;
	/* a FIFO would block open() forever without O_NONBLOCK: the test dies by SIGALRM */
	alarm(20);
	assert_int_equal(pl_read_file("/sys/fifo", &s, NULL), -PL_ENOTREG);
	assert_int_equal(pl_read_str("/sys/fifo", &s), -PL_ENOTREG);
	assert_int_equal(pl_read_file("/sys/zero", &s, NULL), -PL_ENOTREG);
	alarm(0);
	assert_string_equal(pl_read_strerror(-PL_ENOTREG),
			    "not a regular file (FIFO, socket or device)");
	assert_int_equal(pl_read_file("/sys/loop", &s, NULL), -ELOOP);
	assert_int_equal(pl_read_file("/sys/loop2", &s, NULL), -ELOOP);
	assert_string_equal(pl_read_strerror(-ELOOP), "symlink loop");
	assert_int_equal(pl_read_file("/sys/big", &s, NULL), -EFBIG);
	assert_string_equal(pl_read_strerror(-EFBIG), "larger than 16 MiB");
	assert_null(s);
	assert_int_equal(pl_read_file("/sys/cap", &s, &len), 0);
	assert_int_equal(len, PL_READ_MAX);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8),	      cmocka_unit_test(test_escape),
		cmocka_unit_test(test_prom_label),    cmocka_unit_test(test_shell_quote),
		cmocka_unit_test(test_json_string),   cmocka_unit_test(test_fix_command_quoted),
		cmocka_unit_test(test_read_refusals), cmocka_unit_test(test_xml_escape),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
