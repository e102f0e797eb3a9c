/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpufreq.*: driver, governor per CPU, boost and intel_pstate state
 * (Documentation/admin-guide/pm/cpufreq.rst, intel_pstate.rst). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "facts/collectors.h"
#include "util/cpuset.h"
#include "util/str.h"
#include "util/sysroot.h"

#define CPU_DIR "/sys/devices/system/cpu"
#define PSTATE_DIR CPU_DIR "/intel_pstate"

/* The online CPUs; the cpuN directories when the list is unreadable; else cpu0. */
static void online_cpus(struct pl_cpuset *set)
{
	char *s;
	pl_cpuset_clear(set);
	if (pl_read_str(CPU_DIR "/online", &s) == 0) {
		if (pl_cpuset_parse(s, set) < 0)
			pl_cpuset_clear(set);
		free(s);
	}
	char **names;
	if (pl_cpuset_count(set) == 0 && pl_list_dir(CPU_DIR, &names, NULL) == 0) {
		for (char **n = names; *n; n++) {
			uint64_t c;
			if (pl_startswith(*n, "cpu") && pl_parse_u64(*n + 3, &c) == 0 &&
			    c < PL_MAX_CPUS)
				pl_cpuset_set(set, (unsigned)c);
		}
		pl_strv_free(names);
	}
	if (pl_cpuset_count(set) == 0)
		pl_cpuset_set(set, 0);
}

static void collect_governors(struct pl_facts *f, const struct pl_cpuset *cpus)
{
	char *first = NULL;
	bool mixed = false;
	int nread = 0, lasterr = -ENOENT;
	for (int c = pl_cpuset_next(cpus, 0); c >= 0; c = pl_cpuset_next(cpus, (unsigned)c + 1)) {
		char path[128], key[64];
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cpufreq/scaling_governor", c);
		snprintf(key, sizeof(key), "cpu.%d.cpufreq.governor", c);
		char *g;
		int r = pl_read_str(path, &g);
		if (r < 0) {
			lasterr = r;
			pl_fact_unavailable(f, key, "%s: %s", path, pl_read_strerror(r));
			continue;
		}
		pl_fact_str(f, key, g, path);
		nread++;
		if (!first)
			first = g;
		else {
			mixed |= strcmp(first, g) != 0;
			free(g);
		}
	}
	if (!nread)
		pl_fact_unavailable(f, "cpufreq.governor",
				    CPU_DIR "/cpuN/cpufreq/scaling_governor: %s",
				    pl_read_strerror(lasterr));
	else
		pl_fact_str(f, "cpufreq.governor", mixed ? "mixed" : first,
			    CPU_DIR "/cpu*/cpufreq/scaling_governor");
	free(first);
}

void pl_collect_cpufreq(struct pl_facts *f)
{
	struct pl_cpuset cpus;
	online_cpus(&cpus);
	int c0 = pl_cpuset_next(&cpus, 0);
	char path[128];
	snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cpufreq", c0);
	bool have = pl_exists(path);
	if (!have) {
		const char *why = "no cpufreq driver (" CPU_DIR "/cpuN/cpufreq not present; "
				  "usual in VMs: the host controls frequency)";
		pl_fact_unavailable(f, "cpufreq.driver", "%s", why);
		pl_fact_unavailable(f, "cpufreq.governor", "%s", why);
	} else {
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cpufreq/scaling_driver", c0);
		pl_fact_from_file_str(f, "cpufreq.driver", path);
		collect_governors(f, &cpus);
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cpufreq/cpuinfo_min_freq", c0);
		pl_fact_from_file_uint(f, "cpufreq.min_khz", path);
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cpufreq/cpuinfo_max_freq", c0);
		pl_fact_from_file_uint(f, "cpufreq.max_khz", path);
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cpufreq/energy_performance_preference",
			 c0);
		if (pl_exists(path))
			pl_fact_from_file_str(f, "cpufreq.energy_performance_preference", path);
	}

	/* intel_pstate: status (active/passive/off) and no_turbo (boost inverted). */
	bool pstate = pl_exists(PSTATE_DIR "/status");
	if (pstate)
		pl_fact_from_file_str(f, "cpufreq.intel_pstate.status", PSTATE_DIR "/status");
	else
		pl_fact_unavailable(f, "cpufreq.intel_pstate.status",
				    PSTATE_DIR "/status: not present (intel_pstate not in use)");
	int64_t v;
	int r;
	if ((r = pl_read_i64(CPU_DIR "/cpufreq/boost", &v)) == 0) {
		pl_fact_bool(f, "cpufreq.boost", v != 0, CPU_DIR "/cpufreq/boost");
	} else if (pstate && (r = pl_read_i64(PSTATE_DIR "/no_turbo", &v)) == 0) {
		pl_fact_bool(f, "cpufreq.boost", v == 0, PSTATE_DIR "/no_turbo");
		pl_fact_bool(f, "cpufreq.intel_pstate.no_turbo", v != 0, PSTATE_DIR "/no_turbo");
	} else {
		pl_fact_unavailable(f, "cpufreq.boost", "%s: %s",
				    pstate ? PSTATE_DIR "/no_turbo" : CPU_DIR "/cpufreq/boost",
				    pl_read_strerror(r));
	}
}
