/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests of the tuned profile loader against hostile input: [bootloader] cmdline
 * tokens (the loader and, as a second line of defence, the planner that writes
 * GRUB_CMDLINE_LINUX), a top-level optional include name, and the bounds on include
 * depth (a generated chain), ${} expansion, condition regexes, file and line sizes,
 * sections and options. Profiles are written into a temporary directory. */
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
#include <sys/types.h>
#include <unistd.h>

#include <cmocka.h>

#include "tune/plan.h"
#include "tune/profile.h"
#include "tune/validate.h"
#include "util/str.h"
#include "util/sysroot.h"

#include "testutil.h"

static char dir[64];  /* profiles: dir/NAME/tuned.conf */
static char root[96]; /* a sysroot with /etc/default/grub and /proc/cmdline */
static char err[1024];
static struct pl_tune_path path;

static void write_file(const char *p, const char *content, size_t len)
{
	char d[4096];
	snprintf(d, sizeof(d), "%s", p);
	for (char *s = d + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(d, 0755);
		*s = '/';
	}
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(content, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* Write profile @name with printf-style content. */
static void profile(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void profile(const char *name, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct pl_buf b = { 0 };
	pl_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	char p[512];
	snprintf(p, sizeof(p), "%s/%s/tuned.conf", dir, name);
	write_file(p, b.data, b.len);
	pl_buf_free(&b);
}

static int load(const char *name, struct pl_tune_profile **pr)
{
	*pr = NULL;
	err[0] = '\0';
	int r = pl_tune_profile_load(&path, name, pr, err, sizeof(err));
	if (r == 0)
		assert_non_null(*pr);
	else
		assert_null(*pr);
	return r;
}

/* Load @name expecting error @want; the message must contain @msg. */
static void refused(const char *name, int want, const char *msg)
{
	struct pl_tune_profile *pr;
	int r = load(name, &pr);
	if (r != want || !strstr(err, msg))
		fail_msg("profile '%s': got %d '%s', want %d with '%s'", name, r, err, want, msg);
}

static int setup(void **st)
{
	(void)st;
	snprintf(dir, sizeof(dir), "/tmp/perflab-tunep.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(root, sizeof(root), "%s/root", dir);
	memset(&path, 0, sizeof(path));
	path.dirs[path.n++] = dir;
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	return pl_test_rmtree(dir) == 0 ? 0 : -1;
}

/* ---- [bootloader] cmdline tokens ---- */

static void test_cmdline_tokens(void **st)
{
	(void)st;
	/* Parameters as kernel-parameters.rst and stock tuned profiles write them. */
	const char *good[] = { "quiet",
			       "intel_idle.max_cstate=1",
			       "console=ttyS0,115200n8",
			       "isolcpus=managed_irq,domain,2-7",
			       "crashkernel=512M-2G:64M,2G-:128M",
			       "root=UUID=0a1b-2c3d",
			       "root=/dev/disk/by-path/pci-0000:00:1f.2-ata-1",
			       "video=HDMI-A-1:1920x1080@60",
			       "memmap=64M@1G",
			       "8250.nr_uarts=4",
			       "nvme_core.io_timeout=4294967295",
			       "iommu.strict=0",
			       "skew_tick=1",
			       "tuned.non_isolcpus=0000000f",
			       "systemd.unit=multi-user.target",
			       "a=b=c",
			       "x=",
			       "rd.luks.options=discard",
			       "dyndbg=+p",
			       "pct=50%",
			       NULL };
	for (size_t i = 0; good[i]; i++)
		if (!pl_tune_cmdline_token_ok(good[i]))
			fail_msg("refused '%s'", good[i]);
	/* Everything the shell or grub's script parser would read as syntax. */
	const char *bad[] = { "",	"a=\"b\"", "a=$(reboot)", "a=`id`", "a=$HOME",
			      "a=${x}", "a=\\",	   "a=x;reboot",  "a=x&b",  "a=x|b",
			      "a=<b",	"a=>b",	   "a=(b)",	  "a=*",    "a=?",
			      "a=!b",	"a=~",	   "a=#b",	  "a='b'",  "a=[1]",
			      "a={1}",	"a=b c",   "a=b\tc",	  "a=b\nc", "a=b\rc",
			      "a=\x01", "a=\x7f",  "a=\xc3\xa9",  "-x",	    "--",
			      "=x",	"a.b+c=1", "a/b=1",	  "a:b",    NULL };
	for (size_t i = 0; bad[i]; i++)
		if (pl_tune_cmdline_token_ok(bad[i]))
			fail_msg("accepted '%s'", bad[i]);
	assert_false(pl_tune_cmdline_token_ok(NULL));

	char why[512];
	assert_int_equal(pl_tune_cmdline_check("+idle=poll nohz=on", why, sizeof(why)), 0);
	assert_int_equal(pl_tune_cmdline_check("-intel_pstate=disable", why, sizeof(why)), 0);
	assert_int_equal(pl_tune_cmdline_check("\tquiet  splash\t", why, sizeof(why)), 0);
	/* Unevaluated ${...} is set aside (the planner marks the option unsupported), even
	 * with spaces or shell characters inside; what is outside is still checked. */
	assert_int_equal(
		pl_tune_cmdline_check("+nohz=on${cmd_isolcpus} nohz_full=${isolated_cores}", why,
				      sizeof(why)),
		0);
	assert_int_equal(pl_tune_cmdline_check("a=${f:exec:rm -rf /}", why, sizeof(why)), 0);
	assert_int_equal(pl_tune_cmdline_check("a=${x}$(reboot)", why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "'a=$(reboot)' has '$'"));
	assert_int_equal(pl_tune_cmdline_check("a=${unterminated", why, sizeof(why)), -EINVAL);
	assert_int_equal(pl_tune_cmdline_check("+ok a=\"x y\"", why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "'a=\"x' has '\"'"));
	assert_int_equal(pl_tune_cmdline_check("a=\x01", why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "byte 0x01"));
	assert_int_equal(pl_tune_cmdline_check("++a", why, sizeof(why)), -EINVAL);
}

static void test_cmdline_at_load(void **st)
{
	(void)st;
	const char *hostile[] = { "quiet\" ; reboot ; \"",
				  "$(touch /tmp/perflab-pwned)",
				  "`touch /tmp/perflab-pwned`",
				  "a=\\\" b",
				  "a=x;b",
				  "init=/bin/sh#",
				  NULL };
	for (size_t i = 0; hostile[i]; i++) {
		profile("evil",
			"[main]\nsummary=x\n[bootloader]\ncmdline=quiet\ncmdline_x=+ok=1 %s\n",
			hostile[i]);
		char want[256];
		snprintf(want, sizeof(want),
			 "%s/evil/tuned.conf:5: profile 'evil', section "
			 "[bootloader], key 'cmdline_x': kernel command line token",
			 dir);
		refused("evil", -EINVAL, want);
	}
	/* Through a variable, in a unit of type bootloader under another name, removal
	 * tokens too. */
	profile("evil", "[variables]\nv=a=$(id)\n[boot2]\ntype=bootloader\ncmdline=-${v}\n");
	refused("evil", -EINVAL,
		"evil/tuned.conf:5: profile 'evil', section [boot2], key 'cmdline'");
	/* A clean profile with unevaluated functions loads; tokens elsewhere are not
	 * kernel parameters and are not checked as such. */
	profile("fine", "[variables]\nc=${f:cpulist2hex:1-3}\n[bootloader]\n"
			"cmdline=+nohz=on tuned.non_isolcpus=${c}\n[sysfs]\n/sys/x=a b $c\n");
	struct pl_tune_profile *pr;
	assert_int_equal(load("fine", &pr), 0);
	pl_tune_profile_free(pr);
}

/* The planner refuses a hostile token even when the profile did not come through the
 * loader, and leaves a GRUB_CMDLINE_LINUX line alone that it cannot rewrite faithfully. */
static void test_cmdline_writer(void **st)
{
	(void)st;
	char p[512];
	snprintf(p, sizeof(p), "%s/proc/cmdline", root);
	write_file(p, "BOOT_IMAGE=/vmlinuz quiet\n", 26);
	snprintf(p, sizeof(p), "%s/etc/default/grub", root);
	const char *grub = "GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX=\"quiet\"\n";
	write_file(p, grub, strlen(grub));
	assert_int_equal(pl_sysroot_set(root), 0);

	struct pl_tune_opt opt = { .key = "cmdline_x",
				   .value = "+ok=1 a=$(reboot)",
				   .expanded = "+ok=1 a=$(reboot)",
				   .file = "hand.conf",
				   .profile = "hand",
				   .line = 7 };
	struct pl_tune_unit unit = { .name = "bootloader",
				     .type = "bootloader",
				     .enabled = true,
				     .devices = "*",
				     .opts = { .v = &opt, .n = 1, .cap = 1 },
				     .file = "hand.conf",
				     .line = 6 };
	struct pl_tune_profile pr = { .name = "hand", .units = &unit, .nunits = 1 };
	struct pl_tune_plan plan;
	assert_int_equal(pl_tune_plan_build(&pr, &plan, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "hand.conf:7: profile 'hand', section [bootloader], key "
				    "'cmdline_x'"));
	assert_null(plan.grub_new);
	pl_tune_plan_free(&plan);

	/* A clean token is added to a plain line. */
	opt.value = opt.expanded = "+nohz=on";
	assert_int_equal(pl_tune_plan_build(&pr, &plan, err, sizeof(err)), 0);
	assert_non_null(plan.grub_new);
	assert_non_null(strstr(plan.grub_new, "GRUB_CMDLINE_LINUX=\"quiet nohz=on\"\n"));
	pl_tune_plan_free(&plan);

	/* Lines perflab would change the meaning of by rewriting them as "TOKENS": the
	 * item is manual and nothing is to be written. The last line is the one that
	 * counts (the shell keeps the last assignment). */
	const char *unsafe[] = { "GRUB_CMDLINE_LINUX='quiet $x'\n",
				 "GRUB_CMDLINE_LINUX=\"quiet\" # comment\n",
				 "GRUB_CMDLINE_LINUX=\"a\"\"b\"\n",
				 "GRUB_CMDLINE_LINUX=\"a \\\"b\\\"\"\n",
				 "GRUB_CMDLINE_LINUX=\"`cat /etc/cmdline`\"\n",
				 "GRUB_CMDLINE_LINUX=\"quiet $(cat /etc/cmdline)\"\n",
				 "GRUB_CMDLINE_LINUX=\"quiet ${EXTRA:-a  b}\"\n",
				 "GRUB_CMDLINE_LINUX=\"quiet\"\nGRUB_CMDLINE_LINUX=$(cat /x)\n",
				 NULL };
	for (size_t i = 0; unsafe[i]; i++) {
		write_file(p, unsafe[i], strlen(unsafe[i]));
		assert_int_equal(pl_tune_plan_build(&pr, &plan, err, sizeof(err)), 0);
		assert_null(plan.grub_new);
		assert_int_equal(plan.n, 1);
		assert_int_equal(plan.v[0].state, PL_TI_MANUAL);
		assert_non_null(strstr(plan.v[0].reason, "add 'nohz=on' to it by hand"));
		pl_tune_plan_free(&plan);
	}
	/* Faithful rewrites: '$' inside double quotes stays as it was; the last line. */
	const char *safe[][2] = {
		{ "GRUB_CMDLINE_LINUX=\"quiet $EXTRA\"\n",
		  "GRUB_CMDLINE_LINUX=\"quiet $EXTRA nohz=on\"\n" },
		{ "GRUB_CMDLINE_LINUX='quiet'  \n", "GRUB_CMDLINE_LINUX=\"quiet nohz=on\"\n" },
		{ "GRUB_CMDLINE_LINUX=quiet\n", "GRUB_CMDLINE_LINUX=\"quiet nohz=on\"\n" },
		{ "GRUB_CMDLINE_LINUX=\"a\"\nX=1\nGRUB_CMDLINE_LINUX=\"b\"\n",
		  "GRUB_CMDLINE_LINUX=\"a\"\nX=1\nGRUB_CMDLINE_LINUX=\"b nohz=on\"\n" },
	};
	for (size_t i = 0; i < sizeof(safe) / sizeof(safe[0]); i++) {
		write_file(p, safe[i][0], strlen(safe[i][0]));
		assert_int_equal(pl_tune_plan_build(&pr, &plan, err, sizeof(err)), 0);
		assert_non_null(plan.grub_new);
		assert_string_equal(plan.grub_new, safe[i][1]);
		pl_tune_plan_free(&plan);
	}
	assert_int_equal(pl_sysroot_set("/"), 0);
}

/* ---- optional include as the top-level name ---- */

static void test_dash_name(void **st)
{
	(void)st;
	refused("-no-such-profile", -ENOENT, "profile 'no-such-profile' not found");
	assert_non_null(strstr(err, "a leading '-' makes only an include optional"));
	profile("present", "[main]\nsummary=here\n[sysctl]\nvm.swappiness=1\n");
	struct pl_tune_profile *pr;
	assert_int_equal(load("-present", &pr), 0);
	assert_string_equal(pr->summary, "here");
	assert_int_equal(pr->nunits, 1);
	pl_tune_profile_free(pr);
	/* As an include, '-name' stays optional. */
	profile("opt", "[main]\ninclude=-no-such-profile,present\n");
	assert_int_equal(load("opt", &pr), 0);
	assert_non_null(strstr(pr->notes[0], "optional include '-no-such-profile'"));
	pl_tune_profile_free(pr);
}

/* ---- bounds ---- */

static void test_include_depth(void **st)
{
	(void)st;
	/* A generated chain d0 -> d1 -> ... -> d199: refused at the limit, whatever the
	 * length (the loader never goes deeper, so a chain of 50000, which overflowed the
	 * stack before, fails the same way; 50000 directories take minutes to delete). */
	enum { DEEP = 200 };
	for (int i = 0; i < DEEP; i++) {
		char name[32];
		snprintf(name, sizeof(name), "d%d", i);
		if (i + 1 < DEEP)
			profile(name, "[main]\ninclude=d%d\n[sysctl]\nvm.x%d=1\n", i + 1, i);
		else
			profile(name, "[sysctl]\nvm.last=1\n");
	}
	char want[160];
	snprintf(want, sizeof(want),
		 "d%d/tuned.conf:2: include of 'd%d' nests profiles more than %d deep",
		 PL_TUNE_MAX_INCLUDE_DEPTH - 1, PL_TUNE_MAX_INCLUDE_DEPTH,
		 PL_TUNE_MAX_INCLUDE_DEPTH);
	refused("d0", -E2BIG, want);
	assert_non_null(strstr(err, "(d0 -> ... -> d31)"));
	/* Exactly the limit loads: d(DEEP-32) .. d(DEEP-1) is 32 profiles. */
	char top[32];
	snprintf(top, sizeof(top), "d%d", DEEP - PL_TUNE_MAX_INCLUDE_DEPTH);
	struct pl_tune_profile *pr;
	assert_int_equal(load(top, &pr), 0);
	size_t n = 0;
	while (pr->chain[n])
		n++;
	assert_int_equal(n, PL_TUNE_MAX_INCLUDE_DEPTH);
	pl_tune_profile_free(pr);
	snprintf(top, sizeof(top), "d%d", DEEP - PL_TUNE_MAX_INCLUDE_DEPTH - 1);
	refused(top, -E2BIG, "nests profiles more than 32 deep");
}

static void test_expansion(void **st)
{
	(void)st;
	/* Each variable doubles the one before: 2^60 bytes unbounded. */
	struct pl_buf b = { 0 };
	pl_buf_puts(&b, "[variables]\nv0=xxxxxxxx\n");
	for (int i = 1; i <= 60; i++)
		pl_buf_printf(&b, "v%d=${v%d}${v%d}\n", i, i - 1, i - 1);
	pl_buf_puts(&b, "[sysctl]\nvm.swappiness=${v60}\n");
	profile("double", "%s", b.data);
	pl_buf_free(&b);
	/* v13 is 8 * 2^13 = PL_TUNE_MAX_VALUE bytes and fits; v14 (line 16) does not. */
	refused("double", -E2BIG,
		"double/tuned.conf:16: variable 'v14' is longer than 65536 bytes");
	/* The same through an option value. */
	profile("double2", "[variables]\nv0=xxxxxxxx\nv1=${v0}${v0}\n[sysctl]\nvm.swappiness=%s\n",
		"${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}"
		"${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}"
		"${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}${v1}");
	struct pl_tune_profile *pr;
	assert_int_equal(load("double2", &pr), 0); /* 48 * 16 bytes: fine */
	pl_tune_profile_free(pr);
	/* Many values each under the limit: the total over the whole profile is bounded. */
	b = (struct pl_buf){ 0 };
	pl_buf_puts(&b, "[variables]\nbig=");
	for (int i = 0; i < 60000; i++)
		pl_buf_puts(&b, "y");
	pl_buf_puts(&b, "\n[sysctl]\n");
	for (int i = 0; i < 100; i++)
		pl_buf_printf(&b, "vm.k%d=${big}\n", i);
	profile("wide", "%s", b.data);
	pl_buf_free(&b);
	refused("wide", -E2BIG, "expansion of this profile passes 4194304 bytes in total");
	/* ${i:PROFILE_DIR} repeated in one line is bounded too. */
	b = (struct pl_buf){ 0 };
	pl_buf_puts(&b, "[sysctl]\nvm.k=");
	for (int i = 0; i < 4000; i++)
		pl_buf_puts(&b, "${i:PROFILE_DIR}");
	pl_buf_puts(&b, "\n");
	profile("pdir", "%s", b.data);
	pl_buf_free(&b);
	refused("pdir", -E2BIG, "pdir/tuned.conf:2: profile 'pdir': value longer than 65536 bytes");
}

static void test_regex(void **st)
{
	(void)st;
	bool br;
	assert_int_equal(pl_tune_regex_cost("abc", &br), 3);
	assert_false(br);
	assert_true(pl_tune_regex_cost("a+", &br) <= 3);
	assert_true(pl_tune_regex_cost("a{100}", &br) >= 100);
	assert_true(pl_tune_regex_cost("(a{1,100}){1,100}", &br) >= 10000);
	assert_true(pl_tune_regex_cost("((a{1,255}){1,255}){1,255}", &br) > 16000000);
	/* '+' doubles: 40 of them are 2^40. */
	assert_true(pl_tune_regex_cost("a++++++++++++++++++++++++++++++++++++++++", &br) >
		    ((size_t)1 << 39));
	/* Saturates instead of wrapping. */
	assert_int_equal(pl_tune_regex_cost("((((a{32767}){32767}){32767}){32767}){32767}", &br),
			 SIZE_MAX);
	/* Brackets are one element, '+' in them is not a repetition. */
	assert_int_equal(pl_tune_regex_cost("[+++]", &br), 1);
	assert_int_equal(pl_tune_regex_cost("[]+[:alpha:]+]", &br), 1);
	/* Alternatives add. */
	assert_int_equal(pl_tune_regex_cost("ab|cd|ef", &br), 6);
	/* The stock ThunderX condition is small. */
	assert_true(
		pl_tune_regex_cost("CPU part\\s+:\\s+(0x0?516)|(0x0?af)|(0x0?a[0-3])|(0x0?b8)\\b",
				   &br) < 100);
	assert_false(br);
	pl_tune_regex_cost("(a*)*\\1", &br);
	assert_true(br);

	profile("rx1",
		"[cpu]\ncpuinfo_regex=a++++++++++++++++++++++++++++++++++++++++\ngovernor=x\n");
	refused("rx1", -E2BIG, "rx1/tuned.conf:2: section [cpu], cpuinfo_regex 'a+++");
	assert_non_null(strstr(err, "more than 4096 elements"));
	struct pl_buf b = { 0 };
	pl_buf_puts(&b, "[variables]\nr=");
	for (int i = 0; i < 1100; i++)
		pl_buf_puts(&b, "a");
	pl_buf_puts(&b, "\n[cpu]\n\nuname_regex=${r}\n");
	profile("rx2", "%s", b.data);
	pl_buf_free(&b);
	refused("rx2", -E2BIG,
		"rx2/tuned.conf:5: section [cpu], uname_regex is 1100 bytes long (at most 1024)");
	profile("rx3", "[cpu]\ncpuinfo_regex=(a*)*\\1\n");
	refused("rx3", -EINVAL, "uses a back-reference");
	profile("rx4", "[cpu]\ncpuinfo_regex=(unclosed\n");
	refused("rx4", -EINVAL,
		"rx4/tuned.conf:2: section [cpu], cpuinfo_regex '(unclosed' is not a regex");
	profile("rx5",
		"[cpu]\ncpuinfo_regex=model name\\s+:.*\\bAMD\\b\nuname_regex=x86_64|aarch64\n");
	struct pl_tune_profile *pr;
	assert_int_equal(load("rx5", &pr), 0);
	pl_tune_profile_free(pr);
}

static void test_files_and_lines(void **st)
{
	(void)st;
	char p[512];
	/* Larger than PL_TUNE_MAX_FILE. */
	size_t big = PL_TUNE_MAX_FILE + 10;
	char *buf = pl_xmalloc(big);
	memset(buf, '#', big);
	buf[big - 1] = '\n';
	snprintf(p, sizeof(p), "%s/huge/tuned.conf", dir);
	write_file(p, buf, big);
	refused("huge", -EFBIG, "is larger than 1048576 bytes");
	/* A NUL byte. */
	snprintf(p, sizeof(p), "%s/nul/tuned.conf", dir);
	write_file(p, "[main]\nsummary=a\0b\n", 19);
	refused("nul", -EBADMSG, "nul/tuned.conf:2: byte 0x00 (not a text file)");
	/* The reader's own mark for ':' in keys is refused too (it would become ':'). */
	profile("ctl", "[main]\nsummary=x\n[bootloader]\ncmdline=a=\x01\n");
	refused("ctl", -EBADMSG, "ctl/tuned.conf:4: byte 0x01");
	/* A line longer than inih's buffer: an error, not two lines. */
	struct pl_buf b = { 0 };
	pl_buf_puts(&b, "[main]\nsummary=");
	for (int i = 0; i < 70000; i++)
		pl_buf_puts(&b, "z");
	pl_buf_puts(&b, "\n[sysctl]\nvm.swappiness=1\n");
	profile("longline", "%s", b.data);
	pl_buf_free(&b);
	refused("longline", -E2BIG,
		"longline/tuned.conf:2: profile 'longline': line longer than 65535");
	/* A long line whose tail starts with '[' is no section, and the line numbers after
	 * long lines stay right. */
	b = (struct pl_buf){ 0 };
	pl_buf_puts(&b, "[main]\nsummary=");
	for (int i = 0; i < 199 - 8; i++)
		pl_buf_puts(&b, "s");
	pl_buf_puts(&b, "[evil]\n# ");
	for (int i = 0; i < 5000; i++)
		pl_buf_puts(&b, "c");
	pl_buf_puts(&b, "\n[sysctl]\nvm.swappiness=1\n");
	profile("frag", "%s", b.data);
	pl_buf_free(&b);
	struct pl_tune_profile *pr;
	assert_int_equal(load("frag", &pr), 0);
	assert_int_equal(pr->nunits, 1);
	assert_string_equal(pr->units[0].name, "sysctl");
	assert_int_equal(pr->units[0].opts.v[0].line, 5);
	assert_int_equal((int)strlen(pr->summary), 199 - 8 + 6);
	pl_tune_profile_free(pr);
	/* A FIFO as the [variables] include file is refused, not waited on. */
	snprintf(p, sizeof(p), "%s/a-fifo", dir);
	assert_int_equal(mkfifo(p, 0600), 0);
	profile("fifo", "[variables]\ninclude=%s\nv=1\n[sysctl]\nvm.swappiness=${v}\n", p);
	assert_int_equal(load("fifo", &pr), 0);
	assert_non_null(strstr(pr->notes[0], "not a regular file"));
	assert_string_equal(pr->units[0].opts.v[0].expanded, "1");
	pl_tune_profile_free(pr);
	/* A directory or a device there too. */
	profile("dev", "[variables]\ninclude=/dev/zero\n");
	assert_int_equal(load("dev", &pr), 0);
	assert_non_null(strstr(pr->notes[0], "not a regular file"));
	pl_tune_profile_free(pr);
	free(buf);
}

static void test_sections_and_options(void **st)
{
	(void)st;
	struct pl_buf b = { 0 };
	for (int i = 0; i <= PL_TUNE_MAX_SECTIONS; i++)
		pl_buf_printf(&b, "[s%d]\n", i);
	profile("secs", "%s", b.data);
	pl_buf_free(&b);
	refused("secs", -E2BIG, "secs/tuned.conf:1025: profile 'secs': more than 1024 sections");
	/* Over the chain too. */
	b = (struct pl_buf){ 0 };
	for (int i = 0; i < 600; i++)
		pl_buf_printf(&b, "[a%d]\n", i);
	profile("secs-a", "%s", b.data);
	pl_buf_free(&b);
	b = (struct pl_buf){ 0 };
	pl_buf_puts(&b, "[main]\ninclude=secs-a\n");
	for (int i = 0; i < 600; i++)
		pl_buf_printf(&b, "[b%d]\n", i);
	profile("secs-b", "%s", b.data);
	pl_buf_free(&b);
	refused("secs-b", -E2BIG, "it and the profiles it includes have more than 1024 sections");
	/* Many options and references: linear work (hash index), correct merge order,
	 * drop= of many keys in one pass. */
	enum { N = 20000, DROP = 8000 };
	b = (struct pl_buf){ 0 };
	pl_buf_puts(&b, "[variables]\n");
	for (int i = 0; i < N; i++)
		pl_buf_printf(&b, "v%d=%d\n", i, i);
	pl_buf_puts(&b, "[sysctl]\n");
	for (int i = 0; i < N; i++)
		pl_buf_printf(&b, "k%d=${v%d}${nope}\n", i, N - 1 - i);
	profile("many-base", "%s", b.data);
	pl_buf_free(&b);
	b = (struct pl_buf){ 0 };
	pl_buf_puts(&b, "[main]\ninclude=many-base\n[sysctl]\ndrop=");
	for (int i = 0; i < DROP; i += 2)
		pl_buf_printf(&b, "k%d,", i);
	pl_buf_puts(&b, "\nk1=new\n");
	profile("many", "%s", b.data);
	pl_buf_free(&b);
	struct pl_tune_profile *pr;
	assert_int_equal(load("many", &pr), 0);
	assert_int_equal(pr->nunits, 1);
	const struct pl_tune_opts *o = &pr->units[0].opts;
	assert_int_equal(o->n, N - DROP / 2);
	assert_string_equal(o->v[0].key, "k1");
	assert_string_equal(o->v[0].expanded, "new");
	assert_string_equal(o->v[1].key, "k3");
	char want[32];
	snprintf(want, sizeof(want), "%d${nope}", N - 4);
	assert_string_equal(o->v[1].expanded, want);
	assert_string_equal(o->v[DROP / 2].key, "k8000");
	assert_null(pl_tune_opts_get(o, "k2"));
	assert_non_null(pl_tune_opts_get(o, "k8001"));
	assert_non_null(pl_tune_opts_get(o, "k19999"));
	assert_string_equal(pl_tune_opts_get(&pr->variables, "v123")->expanded, "123");
	pl_tune_profile_free(pr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmdline_tokens),
		cmocka_unit_test(test_cmdline_at_load),
		cmocka_unit_test(test_cmdline_writer),
		cmocka_unit_test(test_dash_name),
		cmocka_unit_test(test_include_depth),
		cmocka_unit_test(test_expansion),
		cmocka_unit_test(test_regex),
		cmocka_unit_test(test_files_and_lines),
		cmocka_unit_test(test_sections_and_options),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
