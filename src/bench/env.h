/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The environment that shapes a benchmark result: static facts (kernel, CPU model,
 * governor, clocksource, hypervisor, mitigations) read by key from the facts collectors,
 * and what happened during the run: load average, steal time and CPU time used by other
 * tasks on the CPUs of the run, from /proc/stat and /proc/loadavg (proc(5)). */
#ifndef PERFLAB_BENCH_ENV_H
#define PERFLAB_BENCH_ENV_H
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/cpuset.h"

/** Sums over a set of CPUs of the /proc/stat "cpuN" columns, in USER_HZ ticks. */
struct pl_cpustat {
	uint64_t total; /**< all ten columns except guest/guest_nice (already in user/nice) */
	uint64_t busy;	/**< user + nice + system + irq + softirq */
	uint64_t steal; /**< time the hypervisor ran something else */
	unsigned ncpus; /**< CPUs of the set found in the file */
};

/** Parse /proc/stat text @text and sum the rows of the CPUs in @set into @out. Returns 0,
 *  or -ENOENT when no CPU of the set has a row (offline CPUs have none), -EINVAL when the
 *  text has no "cpu" rows. */
int pl_cpustat_parse(const char *text, const struct pl_cpuset *set, struct pl_cpustat *out);

/** A snapshot taken at the start and at the end of a run. */
struct pl_env_snap {
	struct pl_cpustat stat; /**< valid when stat_ok */
	bool stat_ok;
	double loadavg1;  /**< 1-minute load average, NaN when unreadable */
	double own_cpu_s; /**< CPU seconds (user + system) of this process and of its
			       waited-for children so far (RUSAGE_SELF + RUSAGE_CHILDREN) */
	uint64_t t_ns;	  /**< CLOCK_MONOTONIC */
};

/** Take a snapshot over @set (reads through the sysroot helper). */
void pl_env_snap(struct pl_env_snap *s, const struct pl_cpuset *set);

/** What the run saw: steal and others' CPU use as % of the CPU time available on the set,
 *  NaN when /proc/stat was unreadable. */
struct pl_env_during {
	double steal_pct;
	double others_busy_pct;
	double load_start, load_end;
};
/** Compare two snapshots. */
void pl_env_during(const struct pl_env_snap *a, const struct pl_env_snap *b,
		   struct pl_env_during *out);

/** The environment object of a result: {"kernel","cpu_model","governor","clocksource",
 *  "hypervisor","thp" (transparent hugepage mode,
 * mem.thp.enabled),"mitigations","vulnerabilities","pinning","cpus","load_avg":{"start",
 *  "end"},"steal_pct","others_busy_pct","perflab_version","unavailable":{NAME:REASON}};
 *  facts that are missing or unavailable become null (unavailable ones with the reason
 *  under "unavailable"). New reference. */
json_t *pl_env_json(const struct pl_env_during *d, const struct pl_cpuset *cpus, bool pinned);

/** One line for the terminal of an environment object of pl_env_json: "kernel 6.18,
 *  CPU ..., hypervisor kvm, clocksource tsc, governor none (no cpufreq driver), THP
 *  madvise, mitigations auto (kernel default); during the run: load 0.52 -> 0.61, steal
 *  0.10%, other tasks 3.20% of the CPUs; perflab 0.9.0", malloc'd. */
char *pl_env_text(const json_t *env);

#endif
