/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests of the facts parsers: cpuinfo (x86, arm64, garbage), kernel command line,
 * cpu lists, sysctl values and paths, removed sysctls, bracketed scheduler lists,
 * meminfo, numastat and cpuidle states (read from a temporary sysroot). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "facts/collectors.h"
#include "util/sysroot.h"

#include "testutil.h"

static const char x86_cpuinfo[] =
	"processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n"
	"model name\t: Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz\n"
	"flags\t\t: fpu tsc constant_tsc nonstop_tsc avx2 avx512f sha_ni hypervisor\n\n"
	"processor\t: 1\nvendor_id\t: GenuineIntel\nmodel name\t: other\nflags\t\t: fpu\n\n";

static const char arm_cpuinfo[] =
	"processor\t: 0\nBogoMIPS\t: 50.00\n"
	"Features\t: fp asimd aes pmull sve sve2\n"
	"CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\n"
	"CPU part\t: 0xd0c\nCPU revision\t: 1\n\n"
	"processor\t: 1\nFeatures\t: fp\nCPU implementer\t: 0x41\n"
	"CPU part\t: 0xd0c\n";

static void test_cpuinfo_x86(void **state)
{
	(void)state;
	struct pl_cpuinfo ci;
	assert_int_equal(pl_cpuinfo_parse(x86_cpuinfo, &ci), 0);
	assert_string_equal(ci.vendor, "GenuineIntel");
	assert_string_equal(ci.model, "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz");
	assert_int_equal(ci.nprocessors, 2);
	assert_false(ci.arm);
	/* flags come from the first processor only */
	assert_true(pl_cpuinfo_has_flag(&ci, "nonstop_tsc"));
	assert_true(pl_cpuinfo_has_flag(&ci, "hypervisor"));
	assert_false(pl_cpuinfo_has_flag(&ci, "nonstop"));
	assert_false(pl_cpuinfo_has_flag(&ci, "sve"));
	pl_cpuinfo_free(&ci);
}

static void test_cpuinfo_arm(void **state)
{
	(void)state;
	struct pl_cpuinfo ci;
	assert_int_equal(pl_cpuinfo_parse(arm_cpuinfo, &ci), 0);
	assert_true(ci.arm);
	assert_string_equal(ci.vendor, "ARM");
	assert_string_equal(ci.model, "Neoverse-N1");
	assert_int_equal(ci.nprocessors, 2);
	assert_true(pl_cpuinfo_has_flag(&ci, "sve2"));
	assert_false(pl_cpuinfo_has_flag(&ci, "avx2"));
	pl_cpuinfo_free(&ci);

	/* an unknown part keeps its number */
	assert_int_equal(
		pl_cpuinfo_parse("processor : 0\nCPU implementer : 0x99\nCPU part : 0xabc\n", &ci),
		0);
	assert_string_equal(ci.vendor, "0x99");
	assert_string_equal(ci.model, "part 0xabc");
	pl_cpuinfo_free(&ci);
}

static void test_cpuinfo_garbage(void **state)
{
	(void)state;
	struct pl_cpuinfo ci;
	assert_int_equal(pl_cpuinfo_parse("\x01\x02 garbage\n:::\n", &ci), -EINVAL);
	pl_cpuinfo_free(&ci);
	assert_int_equal(pl_cpuinfo_parse("", &ci), -EINVAL);
	pl_cpuinfo_free(&ci);
	assert_int_equal(pl_cpuinfo_parse(NULL, &ci), -EINVAL);
	pl_cpuinfo_free(&ci);
	/* truncated in the middle of the first block: still one processor, no model */
	assert_int_equal(pl_cpuinfo_parse("processor\t: 0\nvendor_id\t: Genu", &ci), 0);
	assert_string_equal(ci.vendor, "Genu");
	assert_null(ci.model);
	assert_null(ci.flags[0]);
	pl_cpuinfo_free(&ci);
}

static void test_cmdline(void **state)
{
	(void)state;
	json_t *o = pl_cmdline_parse("BOOT_IMAGE=/vmlinuz ro quiet intel_idle.max_cstate=1 "
				     "nohz_full=2-7 isolcpus=2-7 foo=\"a b\" x=1 x=2 -- init=arg");
	assert_string_equal(json_string_value(json_object_get(o, "intel_idle.max_cstate")), "1");
	assert_string_equal(json_string_value(json_object_get(o, "nohz_full")), "2-7");
	assert_true(json_is_true(json_object_get(o, "quiet")));
	assert_string_equal(json_string_value(json_object_get(o, "foo")), "a b");
	assert_string_equal(json_string_value(json_object_get(o, "x")), "2");
	assert_null(json_object_get(o, "init"));
	json_decref(o);
	o = pl_cmdline_parse("");
	assert_int_equal(json_object_size(o), 0);
	json_decref(o);
	o = pl_cmdline_parse("=novalue  \t a= ");
	assert_null(json_object_get(o, ""));
	assert_string_equal(json_string_value(json_object_get(o, "a")), "");
	json_decref(o);
}

static void test_cpulist(void **state)
{
	(void)state;
	assert_int_equal(pl_cpulist_count("0-3,8-11\n"), 8);
	assert_int_equal(pl_cpulist_count("0"), 1);
	assert_int_equal(pl_cpulist_count(""), 0);
	assert_int_equal(pl_cpulist_count("3-1"), -EINVAL);
	assert_int_equal(pl_cpulist_count("zero"), -EINVAL);
}

static void test_sysctl_values(void **state)
{
	(void)state;
	json_t *v = pl_sysctl_value_parse("60\n");
	assert_true(json_is_integer(v));
	assert_int_equal(json_integer_value(v), 60);
	json_decref(v);
	v = pl_sysctl_value_parse("4096\t131072\t6291456\n");
	assert_true(json_is_array(v));
	assert_int_equal(json_array_size(v), 3);
	assert_int_equal(json_integer_value(json_array_get(v, 2)), 6291456);
	json_decref(v);
	v = pl_sysctl_value_parse("bbr\n");
	assert_string_equal(json_string_value(v), "bbr");
	json_decref(v);
	v = pl_sysctl_value_parse("reno cubic 12");
	assert_string_equal(json_string_value(v), "reno cubic 12");
	json_decref(v);
	v = pl_sysctl_value_parse("-1");
	assert_int_equal(json_integer_value(v), -1);
	json_decref(v);
	v = pl_sysctl_value_parse("");
	assert_string_equal(json_string_value(v), "");
	json_decref(v);
	v = pl_sysctl_value_parse("99999999999999999999999"); /* out of range: kept as text */
	assert_true(json_is_string(v));
	json_decref(v);
}

static void test_sysctl_path(void **state)
{
	(void)state;
	char buf[128];
	assert_int_equal(pl_sysctl_path("net.ipv4.conf.all.rp_filter", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/proc/sys/net/ipv4/conf/all/rp_filter");
	assert_int_equal(pl_sysctl_path("fs.file-max", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/proc/sys/fs/file-max");
	assert_int_equal(pl_sysctl_path("../etc/shadow", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(pl_sysctl_path("a/b", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(pl_sysctl_path("", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(pl_sysctl_path("vm.swappiness", buf, 8), -ENAMETOOLONG);
}

static void test_sysctl_removed(void **state)
{
	(void)state;
	const char *r = pl_sysctl_removed_reason("kernel.sched_latency_ns", "6.18.44-fc");
	assert_non_null(r);
	assert_non_null(strstr(r, "EEVDF since 6.6"));
	r = pl_sysctl_removed_reason("kernel.sched_latency_ns", "6.1.0-18-amd64");
	assert_non_null(strstr(r, "moved to /sys/kernel/debug/sched/latency_ns in 5.13"));
	/* on 5.10 it should exist: no explanation */
	assert_null(pl_sysctl_removed_reason("kernel.sched_latency_ns", "5.10.0-28-cloud-amd64"));
	assert_non_null(
		strstr(pl_sysctl_removed_reason("net.ipv4.tcp_tw_recycle", "5.4.0"), "4.12"));
	assert_null(pl_sysctl_removed_reason("net.ipv4.tcp_tw_recycle", "3.10.0-1160.el7.x86_64"));
	assert_null(pl_sysctl_removed_reason("vm.swappiness", "6.6.0"));
	/* unknown release: say what is known */
	assert_non_null(pl_sysctl_removed_reason("kernel.sched_latency_ns", NULL));
}

static void test_kernel_version(void **state)
{
	(void)state;
	uint32_t v;
	assert_int_equal(pl_kernel_version_code("6.6.0-rc1", &v), 0);
	assert_int_equal(v, 6u << 16 | 6u << 8);
	assert_int_equal(pl_kernel_version_code("3.10.0-1160.el7.x86_64", &v), 0);
	assert_int_equal(v, 3u << 16 | 10u << 8);
	assert_int_equal(pl_kernel_version_code("6.18", &v), 0);
	assert_int_equal(v, 6u << 16 | 18u << 8);
	assert_int_equal(pl_kernel_version_code("4.19.300", &v), 0);
	assert_int_equal(v, 4u << 16 | 19u << 8 | 255u);
	assert_int_equal(pl_kernel_version_code("garbage", &v), -EINVAL);
	assert_int_equal(pl_kernel_version_code("6", &v), -EINVAL);
	assert_int_equal(pl_kernel_version_code("6.x", &v), -EINVAL);
}

/* the facts a command wants (check: its rules' keys): equal, parent or child keys */
static void test_facts_wanted(void **state)
{
	(void)state;
	assert_true(pl_facts_wanted("kernel.config_hz")); /* no list: every fact */
	static const char *const keys[] = { "kernel.cmdline.params", "cpu", NULL };
	pl_facts_set_wanted(keys);
	assert_false(pl_facts_wanted("kernel.config_hz"));
	assert_false(pl_facts_wanted("kernel.cmdline.param"));
	assert_false(pl_facts_wanted("cpus"));
	assert_true(pl_facts_wanted("kernel.cmdline.params"));
	assert_true(pl_facts_wanted("kernel.cmdline"));
	assert_true(pl_facts_wanted("kernel"));
	assert_true(pl_facts_wanted("kernel.cmdline.params.x"));
	assert_true(pl_facts_wanted("cpu.model"));
	pl_facts_set_wanted(NULL);
	assert_true(pl_facts_wanted("kernel.config_hz"));
}

/* kernel .config text (/proc/config.gz, /boot/config-RELEASE): CONFIG_HZ */
static void test_kconfig(void **state)
{
	(void)state;
	int64_t v = -1;
	const char *cfg = "#\n# CONFIG_HZ_100 is not set\nCONFIG_HZ_250=y\nCONFIG_HZ=250\n"
			  "CONFIG_HZ_PERIODIC_X=0x10\n";
	assert_int_equal(pl_kconfig_int(cfg, "CONFIG_HZ", &v), 0);
	assert_int_equal(v, 250);
	assert_int_equal(pl_kconfig_int(cfg, "CONFIG_HZ_PERIODIC_X", &v), 0);
	assert_int_equal(v, 16);
	v = -1;
	/* a longer name with the same prefix, a "not set" comment, y/n values */
	assert_int_equal(pl_kconfig_int("CONFIG_HZ_1000=y\n", "CONFIG_HZ", &v), -ENOENT);
	assert_int_equal(pl_kconfig_int("# CONFIG_HZ is not set\n", "CONFIG_HZ", &v), -ENOENT);
	assert_int_equal(pl_kconfig_int("CONFIG_HZ=y\n", "CONFIG_HZ", &v), -EINVAL);
	assert_int_equal(pl_kconfig_int("CONFIG_HZ=\n", "CONFIG_HZ", &v), -EINVAL);
	assert_int_equal(pl_kconfig_int("CONFIG_HZ=1000", "CONFIG_HZ", &v), 0); /* no newline */
	assert_int_equal(v, 1000);
	assert_int_equal(pl_kconfig_int("", "CONFIG_HZ", &v), -ENOENT);
	/* decimal with a leading zero, not octal; hex only with 0x */
	assert_int_equal(pl_kconfig_int("CONFIG_HZ=0250\n", "CONFIG_HZ", &v), 0);
	assert_int_equal(v, 250);
	assert_int_equal(pl_kconfig_int("CONFIG_HZ=0x\n", "CONFIG_HZ", &v), -EINVAL);
	assert_int_equal(pl_kconfig_int("CONFIG_HZ=fa\n", "CONFIG_HZ", &v), -EINVAL);
	assert_int_equal(pl_kconfig_int("CONFIG_HZ= 100\n", "CONFIG_HZ", &v), -EINVAL);
	/* the last assignment decides, whichever of the two is malformed */
	assert_int_equal(pl_kconfig_int("CONFIG_HZ=\nCONFIG_HZ=300\n", "CONFIG_HZ", &v), 0);
	assert_int_equal(v, 300);
	/* only at the start of a line: not after "#" or another name's end */
	assert_int_equal(
		pl_kconfig_int("CONFIG_HZ=100\n#CONFIG_HZ=200\nXCONFIG_HZ=300\n", "CONFIG_HZ", &v),
		0);
	assert_int_equal(v, 100);
	assert_int_equal(pl_kconfig_int("A=1\n\nCONFIG_HZ=400", "CONFIG_HZ", &v), 0);
	assert_int_equal(v, 400);
	assert_int_equal(pl_kconfig_int("CONFIG_HZ=100\nCONFIG_HZ=1000\n", "CONFIG_HZ", &v), 0);
	assert_int_equal(v, 1000);
	assert_int_equal(pl_kconfig_int("CONFIG_HZ=100\nCONFIG_HZ=y\n", "CONFIG_HZ", &v), -EINVAL);
}

static void test_bracket_list(void **state)
{
	(void)state;
	json_t *all;
	char *a = pl_parse_bracket_list("none [mq-deadline] kyber bfq\n", &all);
	assert_string_equal(a, "mq-deadline");
	assert_int_equal(json_array_size(all), 4);
	assert_string_equal(json_string_value(json_array_get(all, 1)), "mq-deadline");
	free(a);
	json_decref(all);
	a = pl_parse_bracket_list("always defer defer+madvise [madvise] never", NULL);
	assert_string_equal(a, "madvise");
	free(a);
	assert_null(pl_parse_bracket_list("none", NULL));
	assert_null(pl_parse_bracket_list("[", NULL));
	assert_null(pl_parse_bracket_list(NULL, NULL));
}

static void test_meminfo(void **state)
{
	(void)state;
	static const char mi[] = "MemTotal:       24683620 kB\nMemFree:        24251260 kB\n"
				 "HugePages_Total:     512\nHugepagesize:       2048 kB\n"
				 "Broken:        12x kB\n";
	uint64_t v;
	assert_int_equal(pl_meminfo_get(mi, "MemTotal", &v), 0);
	assert_int_equal(v, 24683620ull * 1024);
	assert_int_equal(pl_meminfo_get(mi, "HugePages_Total", &v), 0);
	assert_int_equal(v, 512);
	assert_int_equal(pl_meminfo_get(mi, "Hugepagesize", &v), 0);
	assert_int_equal(v, 2 << 20);
	assert_int_equal(pl_meminfo_get(mi, "Mem", &v), -ENOENT);
	assert_int_equal(pl_meminfo_get(mi, "SwapTotal", &v), -ENOENT);
	assert_int_equal(pl_meminfo_get(mi, "Broken", &v), -EINVAL);
	assert_int_equal(pl_meminfo_get("Node 1 MemTotal:       98304000 kB\n", "MemTotal", &v), 0);
	assert_int_equal(v, 98304000ull * 1024);
}

static void test_numastat(void **state)
{
	(void)state;
	uint64_t local = 0, other = 0;
	assert_int_equal(
		pl_numastat_parse("numa_hit 10\nnuma_miss 0\nlocal_node 100\nother_node 300\n",
				  &local, &other),
		0);
	assert_int_equal(pl_numastat_parse("local_node 0\nother_node 100\n", &local, &other), 0);
	assert_int_equal(local, 100);
	assert_int_equal(other, 400);
	/* missing field or garbage: error, sums untouched */
	assert_int_equal(pl_numastat_parse("local_node 5\n", &local, &other), -EINVAL);
	assert_int_equal(pl_numastat_parse("local_node x\nother_node 1\n", &local, &other),
			 -EINVAL);
	assert_int_equal(local, 100);
	assert_int_equal(other, 400);
}

static char root[] = "/tmp/perflab-facts.XXXXXX";

/* Write @content to @rel inside the temporary root, creating directories (mkdir -p). */
static void put(const char *rel, const char *content)
{
	assert_int_equal(pl_test_put(root, rel, content), 0);
}

static void test_cpuidle_states(void **state)
{
	(void)state;
	assert_non_null(mkdtemp(root));
	const char *base = "/sys/devices/system/cpu/cpu0/cpuidle";
	char p[256];
	/* state10 sorts after state2; garbage latency becomes -1; a bogus entry is skipped */
	static const struct {
		const char *dir, *name, *lat, *dis;
	} s[] = { { "state0", "POLL", "0", "0" },
		  { "state10", "C10", "890", "1" },
		  { "state2", "C6", "garbage", "0" } };
	for (size_t i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/%s/name", base, s[i].dir);
		put(p, s[i].name);
		snprintf(p, sizeof(p), "%s/%s/latency", base, s[i].dir);
		put(p, s[i].lat);
		snprintf(p, sizeof(p), "%s/%s/disable", base, s[i].dir);
		put(p, s[i].dis);
	}
	snprintf(p, sizeof(p), "%s/statex/name", base);
	put(p, "bogus");
	assert_int_equal(pl_sysroot_set(root), 0);
	struct pl_idle_state *st;
	int n = pl_cpuidle_read_states(0, &st);
	assert_int_equal(n, 3);
	assert_string_equal(st[0].name, "POLL");
	assert_string_equal(st[1].name, "C6");
	assert_int_equal(st[1].latency_us, -1);
	assert_string_equal(st[2].name, "C10");
	assert_int_equal(st[2].latency_us, 890);
	assert_true(st[2].disabled);
	assert_false(st[0].disabled);
	assert_int_equal(st[0].residency_us, -1); /* no residency file */
	for (int i = 0; i < n; i++)
		free(st[i].name);
	free(st);
	assert_int_equal(pl_cpuidle_read_states(1, &st), -ENOENT);
	pl_sysroot_set(NULL);
	assert_int_equal(pl_test_rmtree(root), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpuinfo_x86),	cmocka_unit_test(test_cpuinfo_arm),
		cmocka_unit_test(test_cpuinfo_garbage), cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_cpulist),		cmocka_unit_test(test_sysctl_values),
		cmocka_unit_test(test_sysctl_path),	cmocka_unit_test(test_sysctl_removed),
		cmocka_unit_test(test_kernel_version),	cmocka_unit_test(test_bracket_list),
		cmocka_unit_test(test_meminfo),		cmocka_unit_test(test_numastat),
		cmocka_unit_test(test_cpuidle_states),	cmocka_unit_test(test_kconfig),
		cmocka_unit_test(test_facts_wanted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
