/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpu.*: identity and flags from /proc/cpuinfo, topology and caches through hwloc
 * (HWLOC_FSROOT = a validated copy of the sysroot's files; the x86 cpuid component
 * excluded: docs/ARCHITECTURE.md, "The sysroot principle", both traps), online CPUs,
 * SMT control and the kernel's vulnerability report
 * (Documentation/admin-guide/hw-vuln/, /sys/devices/system/cpu/vulnerabilities). */
#include <errno.h>
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

#include "facts/collectors.h"
#include "facts/cpuid.h"
#include "facts/hwloc_input.h"
#include "util/json.h"
#include "util/cpuset.h"
#include "util/record.h"
#include "util/str.h"
#include "util/sysroot.h"

/* arm64 MIDR implementer and part codes: arch/arm64/include/asm/cputype.h. */
static const struct {
	unsigned code;
	const char *name;
} arm_implementers[] = {
	{ 0x41, "ARM" },       { 0x42, "Broadcom" },  { 0x43, "Cavium" }, { 0x46, "Fujitsu" },
	{ 0x48, "HiSilicon" }, { 0x4e, "NVIDIA" },    { 0x50, "APM" },	  { 0x51, "Qualcomm" },
	{ 0x61, "Apple" },     { 0x6d, "Microsoft" }, { 0xc0, "Ampere" },
};

static const struct {
	unsigned impl, part;
	const char *name;
} arm_parts[] = {
	{ 0x41, 0xd03, "Cortex-A53" },	{ 0x41, 0xd07, "Cortex-A57" },
	{ 0x41, 0xd08, "Cortex-A72" },	{ 0x41, 0xd0b, "Cortex-A76" },
	{ 0x41, 0xd0c, "Neoverse-N1" }, { 0x41, 0xd40, "Neoverse-V1" },
	{ 0x41, 0xd49, "Neoverse-N2" }, { 0x41, 0xd4f, "Neoverse-V2" },
	{ 0x41, 0xd8e, "Neoverse-N3" }, { 0x41, 0xd84, "Neoverse-V3" },
	{ 0x48, 0xd01, "Kunpeng-920" }, { 0x46, 0x001, "A64FX" },
	{ 0x43, 0x0af, "ThunderX2" },	{ 0xc0, 0xac3, "Ampere-1" },
	{ 0xc0, 0xac4, "Ampere-1a" },
};

/* Extensions worth a line in a report (x86 flag names and arm64 hwcap names). */
static const char *const notable_isa[] = {
	"sse4_2",      "avx",	     "avx2",	   "fma",	   "bmi2",	  "adx",
	"aes",	       "vaes",	     "pclmulqdq",  "vpclmulqdq",   "sha_ni",	  "gfni",
	"rdrand",      "rdseed",     "avx512f",	   "avx512dq",	   "avx512cd",	  "avx512bw",
	"avx512vl",    "avx512ifma", "avx512vbmi", "avx512_vbmi2", "avx512_vnni", "avx512_bf16",
	"avx512_fp16", "avx_vnni",   "amx_tile",   "amx_bf16",	   "amx_int8",	  "movdir64b",
	"enqcmd",      "asimd",	     "sve",	   "sve2",	   "sme",	  "pmull",
	"sha1",	       "sha2",	     "sha3",	   "sha512",	   "crc32",	  "atomics",
	"asimddp",     "i8mm",	     "bf16",	   "sm3",	   "sm4",	  NULL,
};

void pl_cpuinfo_free(struct pl_cpuinfo *ci)
{
	if (!ci)
		return;
	free(ci->vendor);
	free(ci->model);
	pl_strv_free(ci->flags);
	memset(ci, 0, sizeof(*ci));
}

int pl_cpuinfo_parse(const char *text, struct pl_cpuinfo *out)
{
	memset(out, 0, sizeof(*out));
	unsigned impl = 0, part = 0;
	bool have_impl = false, have_part = false, in_first = true;
	const char *p = text ? text : "";
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		const char *colon = memchr(p, ':', len);
		if (colon) {
			char *key = pl_xasprintf("%.*s", (int)(colon - p), p);
			char *val = pl_xasprintf("%.*s", (int)(len - (size_t)(colon - p) - 1),
						 colon + 1);
			char *k = pl_trim(key), *v = pl_trim(val);
			if (strcmp(k, "processor") == 0) {
				uint64_t n;
				/* arm32 has "Processor : ARMv7..." (capital P); only numbers count
				 */
				if (pl_parse_u64(v, &n) == 0) {
					out->nprocessors++;
					in_first = out->nprocessors == 1;
				}
			} else if (in_first) {
				if (strcmp(k, "vendor_id") == 0 && !out->vendor)
					out->vendor = pl_xstrdup(v);
				else if (strcmp(k, "model name") == 0 && !out->model)
					out->model = pl_xstrdup(v);
				else if ((strcmp(k, "flags") == 0 || strcmp(k, "Features") == 0) &&
					 !out->flags) {
					out->flags = pl_split(v, " \t", NULL);
					out->arm |= strcmp(k, "Features") == 0;
				} else if (strcmp(k, "CPU implementer") == 0) {
					uint64_t n;
					if (pl_parse_u64(v, &n) == 0) {
						impl = (unsigned)n;
						have_impl = true;
					}
				} else if (strcmp(k, "CPU part") == 0) {
					uint64_t n;
					if (pl_parse_u64(v, &n) == 0) {
						part = (unsigned)n;
						have_part = true;
					}
				}
			}
			free(key);
			free(val);
		}
		p += len;
		if (*p == '\n')
			p++;
	}
	if (have_impl) {
		out->arm = true;
		if (!out->vendor) {
			for (size_t i = 0;
			     i < sizeof(arm_implementers) / sizeof(arm_implementers[0]); i++)
				if (arm_implementers[i].code == impl)
					out->vendor = pl_xstrdup(arm_implementers[i].name);
			if (!out->vendor)
				out->vendor = pl_xasprintf("0x%02x", impl);
		}
		if (!out->model && have_part) {
			for (size_t i = 0; i < sizeof(arm_parts) / sizeof(arm_parts[0]); i++)
				if (arm_parts[i].impl == impl && arm_parts[i].part == part)
					out->model = pl_xstrdup(arm_parts[i].name);
			if (!out->model)
				out->model = pl_xasprintf("part 0x%03x", part);
		}
	}
	if (!out->flags)
		out->flags = pl_split("", " ", NULL);
	return out->nprocessors ? 0 : -EINVAL;
}

bool pl_cpuinfo_has_flag(const struct pl_cpuinfo *ci, const char *flag)
{
	for (char **p = ci->flags; p && *p; p++)
		if (strcmp(*p, flag) == 0)
			return true;
	return false;
}

int pl_cpuinfo_read(char **out)
{
	/* One read per process and sysroot: on x86 every read of /proc/cpuinfo samples each
	 * CPU's frequency (an IPI per CPU), which costs milliseconds on a busy host. */
	static char *cached;
	static char *cached_root;
	static int cached_err;
	if (!cached_root || strcmp(cached_root, pl_sysroot()) != 0) {
		free(cached);
		free(cached_root);
		cached = NULL;
		cached_root = pl_xstrdup(pl_sysroot());
		cached_err = pl_read_file("/proc/cpuinfo", &cached, NULL);
	}
	if (cached_err < 0)
		return cached_err;
	*out = pl_xstrdup(cached);
	return 0;
}

int pl_cpulist_count(const char *s)
{
	struct pl_cpuset set;
	if (pl_cpuset_parse(s, &set) < 0)
		return -EINVAL;
	return (int)pl_cpuset_count(&set);
}

static void collect_cpuinfo(struct pl_facts *f)
{
	static const char src[] = "/proc/cpuinfo";
	static const char *const keys[] = { "cpu.vendor", "cpu.model",	       "cpu.flags",
					    "cpu.isa",	  "cpu.tsc.invariant", NULL };
	char *text;
	int r = pl_cpuinfo_read(&text);
	struct pl_cpuinfo ci;
	if (r == 0) {
		r = pl_cpuinfo_parse(text, &ci);
		free(text);
		if (r < 0)
			pl_cpuinfo_free(&ci);
	}
	if (r < 0) {
		for (const char *const *k = keys; *k; k++)
			pl_fact_unavailable(f, *k, "%s: %s", src,
					    r == -EINVAL ? "no processor entries (malformed)"
							 : pl_read_strerror(r));
		return;
	}
	pl_fact_str_or(f, "cpu.vendor", ci.vendor, src, "%s: no vendor_id or CPU implementer", src);
	pl_fact_str_or(f, "cpu.model", ci.model, src, "%s: no model name or CPU part", src);
	pl_fact_int(f, "cpu.processors", ci.nprocessors, src);

	json_t *flags = json_array(), *isa = json_array();
	for (char **p = ci.flags; *p; p++)
		json_array_append_new(flags, pl_json_string(*p));
	for (const char *const *n = notable_isa; *n; n++)
		if (pl_cpuinfo_has_flag(&ci, *n))
			json_array_append_new(isa, pl_json_string(*n));
	pl_fact_set(f, "cpu.flags", flags, src);
	pl_fact_set(f, "cpu.isa", isa, src);

	if (ci.arm) {
		pl_fact_unavailable(f, "cpu.tsc.invariant",
				    "not x86: arm64 has the generic timer, no TSC");
	} else if (!ci.flags[0]) {
		pl_fact_unavailable(f, "cpu.tsc.invariant", "%s: no flags line", src);
	} else {
		/* Linux sets both when CPUID.80000007H:EDX[8] (invariant TSC) is present:
		 * arch/x86/kernel/cpu/{intel,amd}.c. */
		bool inv = pl_cpuinfo_has_flag(&ci, "constant_tsc") &&
			   pl_cpuinfo_has_flag(&ci, "nonstop_tsc");
		pl_fact_bool(f, "cpu.tsc.invariant", inv, src);
	}
	pl_cpuinfo_free(&ci);
}

static void collect_online(struct pl_facts *f)
{
	static const char path[] = "/sys/devices/system/cpu/online";
	char *s;
	int r = pl_read_str(path, &s);
	if (r < 0) {
		pl_fact_unavailable(f, "cpu.online", "%s: %s", path, pl_read_strerror(r));
		return;
	}
	int n = pl_cpulist_count(s);
	if (n < 0)
		pl_fact_unavailable(f, "cpu.online", "%s: not a CPU list: '%.40s'", path, s);
	else
		pl_fact_int(f, "cpu.online", n, path);
	if (n >= 0)
		pl_fact_str(f, "cpu.online.list", s, path);
	free(s);
}

static const char *const topo_keys[] = { "cpu.sockets",
					 "cpu.cores",
					 "cpu.threads_per_core",
					 "cpu.cache.l1d_bytes",
					 "cpu.cache.l2_bytes",
					 "cpu.cache.l3_bytes",
					 NULL };

static void topo_unavailable(struct pl_facts *f, const char *why)
{
	for (const char *const *k = topo_keys; *k; k++)
		pl_fact_unavailable(f, *k, "%s", why);
}

/* Restores HWLOC_FSROOT (and friends) to what the user had after loading. */
struct env_save {
	const char *name;
	char *old;
};

static void env_push(struct env_save *e, const char *name, const char *value)
{
	const char *o = getenv(name);
	e->name = name;
	e->old = o ? pl_xstrdup(o) : NULL;
	if (value)
		setenv(name, value, 1);
	else
		unsetenv(name);
}

static void env_pop(struct env_save *e)
{
	if (e->old)
		setenv(e->name, e->old, 1);
	else
		unsetenv(e->name);
	free(e->old);
}

/* Cache sizes in bytes by level (index 1..3; [1] is L1 data), 0 when unknown. */
struct cache_sizes {
	uint64_t level[4];
	const char *src;
};

/* Deterministic cache parameters of the CPU this runs on: leaf 4 (Intel) or 0x8000001D
 * (AMD topology extensions), size = ways * partitions * line size * sets (Intel SDM vol. 2
 * "CPUID leaf 04H"; AMD APM vol. 3 "Fn8000_001D"). No binding to other CPUs: hwloc's x86
 * backend binds to every PU in turn, and on a busy host each migration waits for a time
 * slice (19 ms measured here), which alone would break the 20 ms budget of `check`.
 * The leaves come from facts/cpuid.h: the live CPU, or a snapshot's readings. */
static bool cpuid_caches(struct cache_sizes *cs)
{
	unsigned r[4];
	if (!pl_cpuid_available())
		return false;
	pl_cpuid(0x80000000, 0, r);
	unsigned maxext = r[0];
	pl_cpuid(0, 0, r);
	unsigned maxbasic = r[0];
	unsigned leaves[2] = { 4, 0x8000001d };
	for (int li = 0; li < 2; li++) {
		unsigned leaf = leaves[li];
		if (leaf == 4 && maxbasic < 4)
			continue;
		if (leaf == 0x8000001d && maxext < 0x8000001d)
			continue;
		bool any = false;
		for (unsigned sub = 0; sub < 16; sub++) {
			pl_cpuid(leaf, sub, r);
			unsigned a = r[0], b = r[1], c = r[2];
			unsigned type = a & 0x1f, level = (a >> 5) & 0x7;
			if (type == 0)
				break;
			if (type == 2 || level < 1 || level > 3)
				continue; /* instruction cache, or a level we do not report */
			uint64_t size = (uint64_t)((b >> 22) + 1) * (((b >> 12) & 0x3ff) + 1) *
					((b & 0xfff) + 1) * ((uint64_t)c + 1);
			cs->level[level] = size;
			any = true;
		}
		if (any) {
			cs->src = leaf == 4 ? "cpuid:4 (this CPU, or what the hypervisor reports)"
					    : "cpuid:0x8000001d (this CPU, or what the hypervisor "
					      "reports)";
			return true;
		}
	}
	/* AMD's legacy leaves (AMD APM vol. 3 "Fn8000_0005", "Fn8000_0006"): L1d KB in
	 * 5:ECX[31:24], L2 KB in 6:ECX[31:16], L3 in 512 KB units in 6:EDX[31:18]. This VM's
	 * PVM hypervisor fills only these. */
	if (maxext < 0x80000006)
		return false;
	pl_cpuid(0x80000005, 0, r);
	cs->level[1] = (uint64_t)(r[2] >> 24) << 10;
	pl_cpuid(0x80000006, 0, r);
	cs->level[2] = (uint64_t)(r[2] >> 16) << 10;
	cs->level[3] = (uint64_t)(r[3] >> 18) * (512u << 10);
	cs->src = "cpuid:0x80000005/0x80000006 (this CPU, or what the hypervisor reports)";
	return cs->level[1] || cs->level[2] || cs->level[3];
}

static void cache_facts(struct pl_facts *f, hwloc_topology_t t)
{
	static const char *const keys[] = { NULL, "cpu.cache.l1d_bytes", "cpu.cache.l2_bytes",
					    "cpu.cache.l3_bytes" };
	static const hwloc_obj_type_t types[] = { HWLOC_OBJ_PU, HWLOC_OBJ_L1CACHE,
						  HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE };
	struct cache_sizes cs = { { 0 }, NULL };
	bool sysfs = pl_exists("/sys/devices/system/cpu/cpu0/cache/index0");
	if (sysfs) {
		cs.src = "hwloc:/sys/devices/system/cpu/cpu0/cache";
		for (int l = 1; l <= 3; l++) {
			hwloc_obj_t o = hwloc_get_obj_by_type(t, types[l], 0);
			cs.level[l] = o && o->attr ? o->attr->cache.size : 0;
		}
		int n = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_L3CACHE);
		if (n > 0)
			pl_fact_int(f, "cpu.cache.l3_count", n, cs.src);
	} else if (!cpuid_caches(&cs)) {
		for (int l = 1; l <= 3; l++)
			pl_fact_unavailable(f, keys[l],
					    "/sys/devices/system/cpu/cpu0/cache: not "
					    "present%s",
					    pl_cpuid_available() ? " and cpuid has no cache leaf"
								 : "");
		return;
	}
	/* In a VM cpuid often passes the host's values through (this machine: a 508 MB L3
	 * of the host socket): the source says where the number came from. */
	for (int l = 1; l <= 3; l++) {
		if (cs.level[l])
			pl_fact_int(f, keys[l], (int64_t)cs.level[l], cs.src);
		else
			pl_fact_unavailable(f, keys[l], "no level-%d cache reported by %s", l,
					    cs.src);
	}
}

static void collect_topology(struct pl_facts *f)
{
	/* Without the sysfs topology directory hwloc invents one package with every PU
	 * (and prints "failed to find sysfs cpu topology directory"): say so instead. */
	if (!pl_exists("/sys/devices/system/cpu/cpu0/topology")) {
		topo_unavailable(f, "/sys/devices/system/cpu/cpu0/topology: not present");
		return;
	}
	/* A machine tree is outside input: hwloc reads a validated copy of the files it
	 * needs, never the tree itself (facts/hwloc_input.h says why). The live sysfs is the
	 * kernel's own and is read directly; while a snapshot records (util/record.h), the
	 * copy is made anyway so the files it needs are read through the helper and
	 * recorded, and removed unused. */
	bool live = pl_sysroot_is_live();
	struct pl_hwloc_input in = { { 0 } };
	if (!live || pl_record_on()) {
		char why[512];
		if (pl_hwloc_input_make(&in, why, sizeof(why)) < 0 && !live) {
			char *msg = pl_xasprintf("hwloc input %s", why);
			topo_unavailable(f, msg);
			free(msg);
			return;
		}
	}
	/* hwloc_topology_init() dlopen()s every plugin of libhwloc-plugins (gl, opencl, pci,
	 * xml_libxml) the first time; they pull in libX11, libOpenCL, libxml2, ICU and
	 * libstdc++, and resolving their symbols was about 70% of the instructions of a whole
	 * `perflab check` (callgrind: 14.2 M, most in ld.so's do_lookup_x). The topology
	 * facts need only the Linux sysfs backend, which is built into libhwloc, so keep the
	 * plugins out (hwloc 2.x reads HWLOC_PLUGINS_BLACKLIST when it initialises its
	 * components; a list the user set is kept as it is). */
	struct env_save plugins;
	env_push(&plugins, "HWLOC_PLUGINS_BLACKLIST",
		 getenv("HWLOC_PLUGINS_BLACKLIST")
			 ? getenv("HWLOC_PLUGINS_BLACKLIST")
			 : "hwloc_gl.so,hwloc_opencl.so,hwloc_pci.so,hwloc_xml_libxml.so");
	hwloc_topology_t t;
	int ri = hwloc_topology_init(&t);
	env_pop(&plugins);
	if (ri < 0) {
		pl_hwloc_input_remove(&in);
		topo_unavailable(f, "hwloc: cannot initialise a topology");
		return;
	}
	struct env_save fsroot, hide;
	env_push(&fsroot, "HWLOC_FSROOT", live ? NULL : in.dir);
	env_push(&hide, "HWLOC_HIDE_ERRORS", "2");
	/* Never run hwloc's x86 backend: against a fixture it would read this CPU's cpuid
	 * (docs/ARCHITECTURE.md, sysroot trap 1), and live it binds to every PU (see
	 * cpuid_caches()). The Linux backend reads the sysfs topology either way. */
	hwloc_topology_set_components(t, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "x86");
	hwloc_topology_set_type_filter(t, HWLOC_OBJ_L1ICACHE, HWLOC_TYPE_FILTER_KEEP_NONE);
	int r = hwloc_topology_load(t);
	env_pop(&hide);
	env_pop(&fsroot);
	pl_hwloc_input_remove(&in);
	if (r < 0) {
		topo_unavailable(f, "hwloc: topology load failed");
		hwloc_topology_destroy(t);
		return;
	}
	int packages = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE);
	int cores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
	int pus = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
	const char *src = "hwloc:/sys/devices/system/cpu";
	if (packages > 0)
		pl_fact_int(f, "cpu.sockets", packages, src);
	else
		pl_fact_unavailable(f, "cpu.sockets", "hwloc found no package");
	if (cores > 0) {
		pl_fact_int(f, "cpu.cores", cores, src);
		/* the largest SMT width (hybrid parts mix 1 and 2) */
		int tpc = 1;
		for (int i = 0; i < cores; i++) {
			hwloc_obj_t c = hwloc_get_obj_by_type(t, HWLOC_OBJ_CORE, (unsigned)i);
			int n = hwloc_get_nbobjs_inside_cpuset_by_type(t, c->cpuset, HWLOC_OBJ_PU);
			if (n > tpc)
				tpc = n;
		}
		pl_fact_int(f, "cpu.threads_per_core", tpc, src);
	} else {
		pl_fact_unavailable(f, "cpu.cores", "hwloc found no core");
		pl_fact_unavailable(f, "cpu.threads_per_core", "hwloc found no core");
	}
	if (pus > 0)
		pl_fact_int(f, "cpu.pus", pus, src);

	cache_facts(f, t);
	hwloc_topology_destroy(t);
}

static void collect_smt(struct pl_facts *f)
{
	static const char ctl[] = "/sys/devices/system/cpu/smt/control";
	if (pl_exists(ctl))
		pl_fact_from_file_str(f, "cpu.smt.control", ctl);
}

static void collect_vulnerabilities(struct pl_facts *f)
{
	static const char dir[] = "/sys/devices/system/cpu/vulnerabilities";
	char **names;
	int r = pl_list_dir(dir, &names, NULL);
	if (r < 0) {
		pl_fact_unavailable(f, "cpu.vulnerabilities", "%s: %s", dir, pl_read_strerror(r));
		return;
	}
	for (char **n = names; *n; n++) {
		char key[256], path[512];
		snprintf(key, sizeof(key), "cpu.vulnerabilities.%s", *n);
		snprintf(path, sizeof(path), "%s/%s", dir, *n);
		pl_fact_from_file_str(f, key, path);
	}
	pl_strv_free(names);
}

void pl_collect_cpu(struct pl_facts *f)
{
	collect_cpuinfo(f);
	collect_online(f);
	collect_topology(f);
	collect_smt(f);
	collect_vulnerabilities(f);
}
