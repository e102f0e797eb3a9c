/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests of perflab stat's event resolver over the fixture PMU trees of
 * tests/fixtures/pmu/ (Sapphire Rapids, Zen 4, Neoverse N1, a VM with the powercap sysfs;
 * sources in its README): every spelling class with the attr perf builds for it (type,
 * config, config1, config2, exclude bits; the values as perf 6.1 prints them for the same
 * trees, see pmu_vs_perf.sh), scale, unit, the instances of an uncore spelling, the core
 * PMU check, the listing, and every error class with its errno and one-line message. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "counters/pmu.h"
#include "counters/pmu_parse.h"
#include "util/sysroot.h"

#include "testutil.h"

static void use_tree(const char *tree)
{
	const char *fx = getenv("FIXTURES");
	char p[4096];
	snprintf(p, sizeof(p), "%s/pmu/%s", fx ? fx : "tests/fixtures", tree);
	assert_int_equal(pl_sysroot_set(p), 0);
}

static struct pl_cnt_event ev;
static char err[512];

/* Resolve @spec into ev, expecting success. */
static void ok(const char *spec)
{
	int r = pl_pmu_resolve(spec, &ev, err, sizeof(err));
	if (r != 0)
		fail_msg("'%s': %d %s", spec, r, err);
	assert_string_equal(ev.name, spec);
}

static void attr_is(const char *spec, uint32_t type, uint64_t config, uint64_t config1)
{
	ok(spec);
	if (ev.attr.type != type || ev.attr.config != config || ev.attr.config1 != config1)
		fail_msg("'%s': type %u config %#llx config1 %#llx, want %u %#llx %#llx", spec,
			 ev.attr.type, (unsigned long long)ev.attr.config,
			 (unsigned long long)ev.attr.config1, type, (unsigned long long)config,
			 (unsigned long long)config1);
	assert_int_equal(ev.source, PL_CNT_PERF);
}

/* Expect @spec to fail with @e and a message containing @spec and @what. */
static void bad(const char *spec, int e, const char *what)
{
	int r = pl_pmu_resolve(spec, &ev, err, sizeof(err));
	if (r != e)
		fail_msg("'%s': got %d (%s), want %d", spec, r, err, e);
	if (!strstr(err, spec) || !strstr(err, what))
		fail_msg("'%s': message '%s' lacks the input or '%s'", spec, err, what);
	assert_null(strchr(err, '\n'));
}

static void test_generic_hardware(void **state)
{
	(void)state;
	use_tree("spr");
	static const struct {
		const char *name;
		uint64_t config;
	} hw[] = {
		{ "cycles", 0 },
		{ "cpu-cycles", 0 },
		{ "instructions", 1 },
		{ "cache-references", 2 },
		{ "cache-misses", 3 },
		{ "branches", 4 },
		{ "branch-instructions", 4 },
		{ "branch-misses", 5 },
		{ "bus-cycles", 6 },
		{ "stalled-cycles-frontend", 7 },
		{ "idle-cycles-frontend", 7 },
		{ "stalled-cycles-backend", 8 },
		{ "ref-cycles", 9 },
	};
	for (size_t i = 0; i < sizeof(hw) / sizeof(hw[0]); i++) {
		attr_is(hw[i].name, PERF_TYPE_HARDWARE, hw[i].config, 0);
		assert_string_equal(ev.pmu, "cpu");
		assert_true(ev.scale == 1.0);
		assert_string_equal(ev.unit, "");
	}
	/* a spelling that is close but not perf's */
	bad("Cycles", -ENOENT, "unknown event");
}

static void test_generic_cache(void **state)
{
	(void)state;
	use_tree("spr");
	/* config = id | op << 8 | result << 16 (include/uapi/linux/perf_event.h) */
	static const struct {
		const char *name;
		uint64_t config;
	} c[] = {
		{ "L1-dcache-loads", 0x0 },
		{ "L1-dcache-load-misses", 0x10000 },
		{ "L1-dcache-stores", 0x100 },
		{ "L1-dcache-prefetch-misses", 0x10200 },
		{ "L1-dcache", 0x0 },
		{ "l1d-misses", 0x10000 },
		{ "L1-icache-load-misses", 0x10001 },
		{ "LLC-loads", 0x2 },
		{ "LLC-load-misses", 0x10002 },
		{ "LLC-stores", 0x102 },
		{ "L2-misses", 0x10002 },
		{ "dTLB-loads", 0x3 },
		{ "dTLB-load-misses", 0x10003 },
		{ "dTLB-store-misses", 0x10103 },
		{ "iTLB-load-misses", 0x10004 },
		{ "branch-loads", 0x5 },
		{ "branch-load-misses", 0x10005 },
		{ "node-loads", 0x6 },
		{ "node-stores", 0x106 },
		{ "LLC-misses-store", 0x10102 },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		attr_is(c[i].name, PERF_TYPE_HW_CACHE, c[i].config, 0);
	/* ops the cache does not have (evsel__hw_cache_stat) */
	bad("L1-icache-stores", -ENOENT, "unknown event");
	bad("iTLB-stores", -ENOENT, "unknown event");
	bad("branch-prefetches", -ENOENT, "unknown event");
	bad("LLC-load-load", -ENOENT, "unknown event");
}

static void test_software(void **state)
{
	(void)state;
	use_tree("vm");
	static const struct {
		const char *name;
		uint64_t config;
	} sw[] = {
		{ "cpu-clock", 0 },	 { "task-clock", 1 },	    { "page-faults", 2 },
		{ "faults", 2 },	 { "context-switches", 3 }, { "cs", 3 },
		{ "cpu-migrations", 4 }, { "migrations", 4 },	    { "minor-faults", 5 },
		{ "major-faults", 6 },	 { "alignment-faults", 7 }, { "emulation-faults", 8 },
		{ "dummy", 9 },
	};
	for (size_t i = 0; i < sizeof(sw) / sizeof(sw[0]); i++) {
		attr_is(sw[i].name, PERF_TYPE_SOFTWARE, sw[i].config, 0);
		assert_string_equal(ev.pmu, "software");
		bool clock = sw[i].config <= 1;
		assert_true(ev.scale == (clock ? 1e-6 : 1.0));
		assert_string_equal(ev.unit, clock ? "msec" : "");
	}
}

static void test_raw_and_modifiers(void **state)
{
	(void)state;
	use_tree("spr");
	attr_is("r01c2", PERF_TYPE_RAW, 0x1c2, 0);
	attr_is("rA3", PERF_TYPE_RAW, 0xa3, 0);
	assert_int_equal(ev.attr.exclude_user | ev.attr.exclude_kernel | ev.attr.exclude_hv, 0);
	attr_is("r412e:u", PERF_TYPE_RAW, 0x412e, 0);
	assert_int_equal(ev.attr.exclude_user, 0);
	assert_int_equal(ev.attr.exclude_kernel, 1);
	assert_int_equal(ev.attr.exclude_hv, 1);
	attr_is("cycles:k", PERF_TYPE_HARDWARE, 0, 0);
	assert_int_equal(ev.attr.exclude_user, 1);
	assert_int_equal(ev.attr.exclude_kernel, 0);
	assert_int_equal(ev.attr.exclude_hv, 1);
	attr_is("cycles:h", PERF_TYPE_HARDWARE, 0, 0);
	assert_int_equal(ev.attr.exclude_user, 1);
	assert_int_equal(ev.attr.exclude_kernel, 1);
	assert_int_equal(ev.attr.exclude_hv, 0);
	attr_is("cycles:uk", PERF_TYPE_HARDWARE, 0, 0);
	assert_int_equal(ev.attr.exclude_user, 0);
	assert_int_equal(ev.attr.exclude_kernel, 0);
	assert_int_equal(ev.attr.exclude_hv, 1);
	attr_is("instructions:G", PERF_TYPE_HARDWARE, 1, 0);
	assert_int_equal(ev.attr.exclude_host, 1);
	assert_int_equal(ev.attr.exclude_guest, 0);
	attr_is("instructions:H", PERF_TYPE_HARDWARE, 1, 0);
	assert_int_equal(ev.attr.exclude_host, 0);
	assert_int_equal(ev.attr.exclude_guest, 1);
	attr_is("task-clock:I", PERF_TYPE_SOFTWARE, 1, 0);
	assert_int_equal(ev.attr.exclude_idle, 1);
	attr_is("cpu/event=0x3c/u", 4, 0x3c, 0);
	assert_int_equal(ev.attr.exclude_kernel, 1);
	assert_int_equal(ev.attr.exclude_user, 0);
	attr_is("topdown-retiring:k", 4, 0x8000, 0);
	assert_int_equal(ev.attr.exclude_user, 1);
	bad("cycles:x", -EINVAL, "unknown modifier 'x'");
	bad("cycles:up", -EINVAL, "unknown modifier 'p'");
	bad("cpu/event=0x3c/q", -EINVAL, "unknown modifier 'q'");
	bad("cpu/event=0x3c/:u", -EINVAL, "write 'cpu/event=0x3c/u'");
	bad("r12345678901234567", -ENOENT, "unknown event");
	bad("rxyz", -ENOENT, "unknown event");
}

static void test_tracepoints(void **state)
{
	(void)state;
	use_tree("spr");
	attr_is("syscalls:sys_enter_read", PERF_TYPE_TRACEPOINT, 698, 0);
	assert_string_equal(ev.pmu, "tracepoint");
	attr_is("sched:sched_switch:k", PERF_TYPE_TRACEPOINT, 316, 0);
	assert_int_equal(ev.attr.exclude_user, 1);
	bad("sched:sched_nope", -ENOENT, "tracepoint");
	bad("sched:sched_switch:z", -EINVAL, "unknown modifier 'z'");
	bad("sys/x:y", -EINVAL, "unterminated");
	bad("sys/x/", -ENOENT, "unknown PMU 'sys'");
}

static void test_pmu_terms(void **state)
{
	(void)state;
	use_tree("spr");
	attr_is("cpu/event=0x3c,umask=0x1/", 4, 0x13c, 0);
	assert_string_equal(ev.pmu, "cpu");
	/* cmask config:24-31, inv config:23, edge config:18 as a bare term (value 1) */
	attr_is("cpu/event=0xd1,umask=0x20,cmask=1,inv/", 4, 0x018020d1, 0);
	attr_is("cpu/event=0xa3,umask=4,cmask=4,edge/", 4, 0x040404a3, 0);
	/* config1 formats: offcore_rsp 0-63, frontend 0-23 */
	attr_is("cpu/event=0xb7,umask=0x1,offcore_rsp=0x10001/", 4, 0x1b7, 0x10001);
	attr_is("cpu/event=0xc6,umask=0x1,frontend=0x11/", 4, 0x1c6, 0x11);
	/* raw config terms first, format terms OR'd in (perf's config_attr, pmu_config) */
	attr_is("cpu/config=0x1234,umask=1/", 4, 0x1334, 0);
	attr_is("cpu/config1=7,config2=0x10/", 4, 0, 7);
	assert_int_equal(ev.attr.config2, 0x10);
	/* in_tx config:32: a value above bit 31 */
	attr_is("cpu/event=0x3c,in_tx=1/", 4, 0x10000003cULL, 0);
	/* the largest value that fits */
	attr_is("cpu/umask=0xff/", 4, 0xff00, 0);
	bad("cpu/umask=0x100/", -EINVAL, "wider than its 8 bits");
	bad("cpu/edge=2/", -EINVAL, "wider than its 1 bits");
	bad("cpu/foo=1/", -EINVAL, "unknown term or event 'foo'");
	bad("cpu/event=/", -EINVAL, "needs a number");
	bad("cpu/=3/", -EINVAL, "empty term");
	bad("cpu/event=0x3c,,umask=1/", -EINVAL, "empty term");
	bad("cpu/event=0xzz/", -EINVAL, "needs a number");
	bad("cpu/event=99999999999999999999999/", -EINVAL, "needs a number");
	bad("cpu/ev*nt=1/", -EINVAL, "malformed term");
	bad("cpu/event=0x3c", -EINVAL, "unterminated");
	bad("cpu/topdown-retiring=1/", -EINVAL, "takes no value");
	bad("nopmu/event=1/", -ENOENT, "unknown PMU 'nopmu'");
}

static void test_aliases(void **state)
{
	(void)state;
	use_tree("spr");
	attr_is("cpu/topdown-retiring/", 4, 0x8000, 0);
	attr_is("cpu/TOPDOWN-RETIRING/", 4, 0x8000, 0); /* perf compares aliases without case */
	attr_is("topdown-be-bound", 4, 0x8300, 0);
	attr_is("slots", 4, 0x0400, 0);
	/* alias then the user's terms, OR'd: ldlat 3 | 64 */
	attr_is("cpu/mem-loads/", 4, 0x1cd, 3);
	attr_is("cpu/mem-loads,ldlat=64/", 4, 0x1cd, 0x43);
	attr_is("cpu/topdown-retiring,cmask=1/", 4, 0x01008000, 0);
	attr_is("msr/tsc/", 9, 0, 0);
	assert_false(ev.per_pkg);
	attr_is("tsc", 9, 0, 0);
	attr_is("msr/cpu_thermal_margin/", 9, 7, 0);
	assert_string_equal(ev.unit, "C");
	attr_is("power/energy-pkg/", 10, 2, 0);
	assert_true(ev.scale == 2.3283064365386962890625e-10);
	assert_string_equal(ev.unit, "Joules");
	assert_true(ev.per_pkg); /* the power PMU has a cpumask */
	assert_string_equal(ev.pmu, "power");
	attr_is("energy-cores", 10, 1, 0);
	assert_string_equal(ev.unit, "Joules");
	bad("cpu/nope/", -EINVAL, "unknown term or event 'nope'");
	bad("nope-event", -ENOENT, "unknown event 'nope-event'");
}

static void test_uncore_instances(void **state)
{
	(void)state;
	use_tree("spr");
	struct pl_cnt_event evs[8];
	const char *spellings[] = { "uncore_imc/cas_count_read/", "imc/cas_count_read/",
				    "cas_count_read" };
	for (size_t s = 0; s < 3; s++) {
		int n = pl_pmu_resolve_all(spellings[s], evs, 8, err, sizeof(err));
		assert_int_equal(n, 4);
		for (int i = 0; i < n; i++) {
			char pmu[32];
			snprintf(pmu, sizeof(pmu), "uncore_imc_%d", i);
			assert_string_equal(evs[i].pmu, pmu);
			assert_string_equal(evs[i].name, spellings[s]);
			assert_int_equal(evs[i].attr.type, 50 + i);
			assert_int_equal(evs[i].attr.config, 0xcf05);
			assert_true(evs[i].scale == 6.103515625e-5);
			assert_string_equal(evs[i].unit, "MiB");
			assert_true(evs[i].per_pkg);
		}
	}
	/* umask "config:8-15,32-55": the bits above 8 go to bit 32 */
	assert_int_equal(
		pl_pmu_resolve_all("uncore_imc_1/event=0x5,umask=0x1ff/", evs, 8, err, sizeof(err)),
		1);
	assert_int_equal(evs[0].attr.type, 51);
	assert_int_equal(evs[0].attr.config, 0x10000ff05ULL);
	/* too small an array: -E2BIG; pl_pmu_resolve gives the first instance */
	assert_int_equal(pl_pmu_resolve_all("uncore_imc/clockticks/", evs, 2, err, sizeof(err)),
			 -E2BIG);
	assert_non_null(strstr(err, "uncore_imc/clockticks/"));
	ok("uncore_imc/clockticks/");
	assert_int_equal(ev.attr.type, 50);
	assert_int_equal(ev.attr.config, 0x01);
	bad("uncore_imc_9/clockticks/", -ENOENT, "unknown PMU 'uncore_imc_9'");
}

static void test_zen4(void **state)
{
	(void)state;
	use_tree("zen4");
	/* event "config:0-7,32-35": 12 bits, the top 4 at 32 */
	attr_is("cpu/event=0x1c0/", 4, 0x1000000c0ULL, 0);
	attr_is("cpu/event=0xfff,umask=0x3/", 4, 0xf000003ffULL, 0);
	bad("cpu/event=0x1000/", -EINVAL, "wider than its 12 bits");
	attr_is("cpu/cpu-cycles/", 4, 0x76, 0);
	/* amd_df umask "config:8-15,24-27" */
	attr_is("amd_df/event=0x1f,umask=0xffe/", 11, 0x0f00fe1f, 0);
	attr_is("amd_l3/event=0x4,umask=0xff,enallcores=1,enallslices=1,threadmask=3/", 12,
		0x0300c0000000ff04ULL, 0);
	attr_is("energy-pkg", 10, 2, 0);
	assert_string_equal(ev.unit, "Joules");
	attr_is("irperf", 9, 6, 0);
	bad("power/energy-ram/", -EINVAL, "unknown term or event 'energy-ram'");
}

static void test_neoverse_n1(void **state)
{
	(void)state;
	use_tree("neoverse-n1");
	attr_is("armv8_pmuv3_0/cpu_cycles/", 8, 0x11, 0);
	/* "cpu/" means the core PMU whatever its name */
	attr_is("cpu/inst_retired/", 8, 0x08, 0);
	assert_string_equal(ev.pmu, "armv8_pmuv3_0");
	attr_is("cpu/event=0x23/", 8, 0x23, 0);
	attr_is("stall_backend", 8, 0x24, 0);
	attr_is("armv8_pmuv3_0/event=0x11,long=1/", 8, 0x11, 1);
	attr_is("cycles", PERF_TYPE_HARDWARE, 0, 0);
	assert_string_equal(ev.pmu, "armv8_pmuv3_0");
	attr_is("r11", PERF_TYPE_RAW, 0x11, 0);
	bad("cpu/event=0x10000/", -EINVAL, "wider than its 16 bits");
	/* Neoverse N1 has no STALL_SLOT events */
	bad("cpu/stall_slot/", -EINVAL, "unknown term or event 'stall_slot'");
	bad("stall_slot", -ENOENT, "unknown event 'stall_slot'");
}

static void test_powercap(void **state)
{
	(void)state;
	use_tree("vm");
	struct pl_cnt_event evs[4];
	int n = pl_pmu_resolve_all("power/energy-pkg/", evs, 4, err, sizeof(err));
	assert_int_equal(n, 2);
	for (int i = 0; i < n; i++) {
		char p[64];
		snprintf(p, sizeof(p), "/sys/class/powercap/intel-rapl:%d/energy_uj", i);
		assert_int_equal(evs[i].source, PL_CNT_POWERCAP);
		assert_string_equal(evs[i].path, p);
		assert_string_equal(evs[i].pmu, "powercap");
		assert_string_equal(evs[i].unit, "Joules");
		assert_true(evs[i].scale == 1e-6);
		assert_string_equal(evs[i].name, "power/energy-pkg/");
	}
	assert_int_equal(pl_pmu_resolve_all("power/energy-cores/", evs, 4, err, sizeof(err)), 2);
	assert_string_equal(evs[1].path, "/sys/class/powercap/intel-rapl:1:0/energy_uj");
	assert_int_equal(pl_pmu_resolve_all("power/energy-ram/", evs, 4, err, sizeof(err)), 1);
	assert_string_equal(evs[0].path, "/sys/class/powercap/intel-rapl:0:1/energy_uj");
	assert_int_equal(pl_pmu_resolve_all("energy-ram", evs, 4, err, sizeof(err)), 1);
	bad("power/energy-gpu/", -ENOENT, "no power PMU and no powercap zone");
	bad("power/energy-pkg/u", -EINVAL, "takes no modifiers");
	/* the msr PMU of a VM */
	attr_is("msr/mperf/", 9, 2, 0);
}

static void test_hybrid_and_ambiguous(void **state)
{
	(void)state;
	char root[] = "/tmp/perflab-pmu.XXXXXX";
	assert_int_equal(pl_test_mkdtemp(root), 0);
	const char *D = "/sys/bus/event_source/devices";
	char p[256];
#define PUT(rel, text)                                                                             \
	do {                                                                                       \
		snprintf(p, sizeof(p), "%s/%s", D, rel);                                           \
		assert_int_equal(pl_test_put(root, p, text), 0);                                   \
	} while (0)
	PUT("cpu_core/type", "4\n");
	PUT("cpu_core/cpus", "0-7\n");
	PUT("cpu_core/format/event", "config:0-7\n");
	PUT("cpu_core/format/umask", "config:8-15\n");
	PUT("cpu_core/events/topdown-retiring", "event=0x00,umask=0x80\n");
	PUT("cpu_atom/type", "10\n");
	PUT("cpu_atom/cpus", "8-15\n");
	PUT("cpu_atom/format/event", "config:0-7\n");
	PUT("cpu_atom/format/umask", "config:8-15\n");
	PUT("cpu_atom/events/topdown-retiring", "event=0xc2,umask=0x0\n");
	PUT("cpu_atom/events/odd", "event=?\n");
	PUT("alpha/type", "20\n");
	PUT("alpha/events/foo", "config=1\n");
	PUT("beta/type", "21\n");
	PUT("beta/events/foo", "config=2\n");
	PUT("beta/format/event", "config:0-99\n");
	assert_int_equal(pl_sysroot_set(root), 0);
	struct pl_cnt_event evs[4];
	/* perf 6.1: a generic event on each core PMU, the PMU's type in config 32-63 */
	assert_int_equal(pl_pmu_resolve_all("cycles", evs, 4, err, sizeof(err)), 2);
	assert_int_equal(evs[0].attr.config, 10ULL << 32); /* sorted: cpu_atom first */
	assert_string_equal(evs[0].pmu, "cpu_atom");
	assert_int_equal(evs[1].attr.config, 4ULL << 32);
	assert_int_equal(pl_pmu_resolve_all("L1-dcache-load-misses", evs, 4, err, sizeof(err)), 2);
	assert_int_equal(evs[1].attr.config, 4ULL << 32 | 0x10000);
	assert_int_equal(pl_pmu_resolve_all("task-clock", evs, 4, err, sizeof(err)), 1);
	assert_int_equal(pl_pmu_resolve_all("cpu/topdown-retiring/", evs, 4, err, sizeof(err)), 2);
	assert_int_equal(evs[0].attr.config, 0xc2);
	assert_int_equal(evs[1].attr.config, 0x8000);
	assert_int_equal(pl_pmu_resolve_all("topdown-retiring", evs, 4, err, sizeof(err)), 2);
	char why[256];
	assert_true(pl_pmu_have_core(why, sizeof(why)));
	bad("foo", -EINVAL, "defined by PMUs 'alpha' and 'beta'");
	ok("alpha/foo/");
	assert_int_equal(ev.attr.type, 20);
	assert_int_equal(ev.attr.config, 1);
	bad("cpu_atom/odd/", -EINVAL, "cannot be used as written");
	bad("beta/event=1/", -EINVAL, "is not 'configN:BITS'");
	bad("gamma/event=1/", -ENOENT, "unknown PMU 'gamma'");
	assert_int_equal(pl_test_rmtree(root), 0);
#undef PUT
}

static void test_bad_spellings(void **state)
{
	(void)state;
	use_tree("spr");
	assert_int_equal(pl_pmu_resolve("", &ev, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "empty event name"));
	bad("cyc les", -EINVAL, "space or control character");
	char longname[300];
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	assert_int_equal(pl_pmu_resolve(longname, &ev, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "longer than"));
	bad("cyclez", -ENOENT, "perflab stat --list");
	bad("cpu/event=1/cpu/event=2/", -EINVAL, "junk after the PMU event");
	bad("/event=1/", -EINVAL, "bad PMU name");
	/* names stay one entry below the PMU directory */
	bad("../type/", -EINVAL, "bad PMU name");
	bad("cpu/..=1/", -EINVAL, "malformed term");
	bad("cpu/.hidden/", -EINVAL, "malformed term");
	/* a tiny error buffer truncates, never overflows */
	char tiny[8];
	assert_int_equal(pl_pmu_resolve("cyclez", &ev, tiny, sizeof(tiny)), -ENOENT);
	assert_int_equal(strlen(tiny), 7);
}

static void test_have_core(void **state)
{
	(void)state;
	char why[256];
	use_tree("spr");
	assert_true(pl_pmu_have_core(why, sizeof(why)));
	use_tree("neoverse-n1");
	assert_true(pl_pmu_have_core(why, sizeof(why)));
	use_tree("vm");
	assert_false(pl_pmu_have_core(why, sizeof(why)));
	assert_non_null(strstr(why, "no core PMU"));
	assert_non_null(strstr(why, "breakpoint, msr, software, tracepoint"));
}

struct seen {
	int hardware, cache, software, pmu, powercap, tracepoint;
	bool cycles, l1d_miss, task_clock, topdown, cas_mib, energy, syscalls, vm_pkg;
};

static int collect(const char *kind, const char *name, const char *desc, void *ctx)
{
	struct seen *s = ctx;
	if (!strcmp(kind, "hardware"))
		s->hardware++;
	else if (!strcmp(kind, "cache"))
		s->cache++;
	else if (!strcmp(kind, "software"))
		s->software++;
	else if (!strcmp(kind, "pmu"))
		s->pmu++;
	else if (!strcmp(kind, "powercap"))
		s->powercap++;
	else if (!strcmp(kind, "tracepoint"))
		s->tracepoint++;
	else
		fail_msg("unknown kind %s", kind);
	s->cycles |= !strcmp(name, "cpu-cycles");
	s->l1d_miss |= !strcmp(name, "L1-dcache-load-misses");
	s->task_clock |= !strcmp(name, "task-clock");
	s->topdown |= !strcmp(name, "cpu/topdown-retiring/");
	s->cas_mib |= !strcmp(name, "uncore_imc_2/cas_count_read/") && !strcmp(desc, "MiB");
	s->energy |= !strcmp(name, "power/energy-pkg/") && !strcmp(desc, "Joules");
	s->syscalls |= !strcmp(name, "syscalls:*");
	s->vm_pkg |= !strcmp(kind, "powercap") && !strcmp(name, "power/energy-pkg/");
	/* every listed name resolves */
	struct pl_cnt_event one[8];
	char e[256];
	if (strcmp(kind, "tracepoint") && pl_pmu_resolve_all(name, one, 8, e, sizeof(e)) < 1)
		fail_msg("listed '%s' does not resolve: %s", name, e);
	return 0;
}

static void test_list(void **state)
{
	(void)state;
	struct seen s = { 0 };
	use_tree("spr");
	assert_int_equal(pl_pmu_list(collect, &s), 0);
	assert_int_equal(s.hardware, 10);
	assert_int_equal(s.cache, 2 * (3 + 2 + 3 + 3 + 1 + 1 + 3));
	assert_int_equal(s.software, 12);
	assert_true(s.cycles && s.l1d_miss && s.task_clock && s.topdown && s.cas_mib && s.energy);
	assert_true(s.syscalls);
	assert_int_equal(s.tracepoint, 2);
	assert_int_equal(s.powercap, 0);
	memset(&s, 0, sizeof(s));
	use_tree("vm");
	assert_int_equal(pl_pmu_list(collect, &s), 0);
	assert_int_equal(s.hardware + s.cache, 0);
	assert_int_equal(s.pmu, 3); /* msr: tsc, aperf, mperf */
	assert_int_equal(s.powercap, 3);
	assert_true(s.vm_pkg);
}

static void test_parsers(void **state)
{
	(void)state;
	struct pl_pmu_format f;
	assert_int_equal(pl_pmu_format_parse("config:0-7,32-35\n", &f), 0);
	assert_int_equal(f.field, PL_PMU_CONFIG);
	assert_int_equal(f.mask, 0xf000000ffULL);
	assert_int_equal(f.nbits, 12);
	assert_int_equal(pl_pmu_format_place(f.mask, 0x1c0), 0x1000000c0ULL);
	assert_int_equal(pl_pmu_format_parse("config1:0-63", &f), 0);
	assert_int_equal(f.field, PL_PMU_CONFIG1);
	assert_true(pl_pmu_format_fits(&f, UINT64_MAX));
	assert_int_equal(pl_pmu_format_parse("config2:5", &f), 0);
	assert_int_equal(f.mask, 1u << 5);
	assert_false(pl_pmu_format_fits(&f, 2));
	static const char *const badf[] = { "config:",	 "config:7-0", "config:64",
					    "config3:1", "config:1,",  "config:1 x",
					    "cfg:0-7",	 "config:-1",  "config:1-" };
	for (size_t i = 0; i < sizeof(badf) / sizeof(badf[0]); i++)
		assert_int_equal(pl_pmu_format_parse(badf[i], &f), -EINVAL);
	struct pl_pmu_term t[4];
	size_t n;
	char e[128];
	assert_int_equal(pl_pmu_terms_parse("event=0x3c,umask=12,edge\n", t, 4, &n, e, sizeof(e)),
			 0);
	assert_int_equal(n, 3);
	assert_int_equal(t[0].value, 0x3c);
	assert_int_equal(t[1].value, 12);
	assert_false(t[2].has_value);
	assert_int_equal(t[2].value, 1);
	assert_int_equal(pl_pmu_terms_parse("a,b,c,d,e", t, 4, &n, e, sizeof(e)), -EINVAL);
	assert_int_equal(pl_pmu_terms_parse("", t, 4, &n, e, sizeof(e)), 0);
	assert_int_equal(n, 0);
}

/* "#slots" of Arm's top-down metrics: the core PMU's caps/slots (Neoverse N2 and V1 have
 * it; the N1 fixture, Armv8.2 without PMMIR_EL1, does not). */
static void test_core_slots(void **state)
{
	(void)state;
	uint64_t slots = 0;
	use_tree("neoverse-n1");
	assert_int_equal(pl_pmu_core_slots(&slots), -ENOENT);
	use_tree("vm");
	assert_int_equal(pl_pmu_core_slots(&slots), -ENOENT);
	char root[] = "/tmp/perflab-pmu.XXXXXX";
	assert_int_equal(pl_test_mkdtemp(root), 0);
	assert_int_equal(
		pl_test_put(root, "/sys/bus/event_source/devices/armv8_pmuv3_0/type", "8\n"), 0);
	assert_int_equal(
		pl_test_put(root, "/sys/bus/event_source/devices/armv8_pmuv3_0/cpus", "0-3\n"), 0);
	assert_int_equal(
		pl_test_put(root, "/sys/bus/event_source/devices/armv8_pmuv3_0/caps/slots", "5\n"),
		0);
	assert_int_equal(pl_sysroot_set(root), 0);
	assert_int_equal(pl_pmu_core_slots(&slots), 0);
	assert_int_equal(slots, 5);
	assert_int_equal(pl_test_rmtree(root), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generic_hardware),
		cmocka_unit_test(test_generic_cache),
		cmocka_unit_test(test_software),
		cmocka_unit_test(test_raw_and_modifiers),
		cmocka_unit_test(test_tracepoints),
		cmocka_unit_test(test_pmu_terms),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_uncore_instances),
		cmocka_unit_test(test_zen4),
		cmocka_unit_test(test_neoverse_n1),
		cmocka_unit_test(test_powercap),
		cmocka_unit_test(test_hybrid_and_ambiguous),
		cmocka_unit_test(test_bad_spellings),
		cmocka_unit_test(test_have_core),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_parsers),
		cmocka_unit_test(test_core_slots),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
