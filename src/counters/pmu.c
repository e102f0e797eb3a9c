/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A minimal stand-in for the event resolver of pmu.h: the generic hardware and software
 * events of include/uapi/linux/perf_event.h and raw "rNNNN" (PERF_TYPE_RAW). PMU
 * events, tracepoints, cache events and powercap are refused as unknown. */
#include "counters/pmu.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/str.h"
#include "util/sysroot.h"

struct generic {
	const char *name, *alias;
	uint32_t type;
	uint64_t config;
	const char *desc;
};

/* perf's names (tools/perf/util/parse-events.c event_symbols_hw/sw) */
static const struct generic generic[] = {
	{ "cycles", "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "core cycles" },
	{ "instructions", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
	  "retired instructions" },
	{ "cache-references", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES,
	  "last-level cache accesses" },
	{ "cache-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES,
	  "last-level cache misses" },
	{ "branches", "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
	  "retired branches" },
	{ "branch-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES,
	  "mispredicted branches" },
	{ "bus-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES, "bus cycles" },
	{ "stalled-cycles-frontend", NULL, PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, "cycles stalled in the front end" },
	{ "stalled-cycles-backend", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND,
	  "cycles stalled in the back end" },
	{ "ref-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES,
	  "reference cycles" },
	{ "cpu-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "CPU clock (ns)" },
	{ "task-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task clock (ns)" },
	{ "page-faults", "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page faults" },
	{ "context-switches", "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES,
	  "context switches" },
	{ "cpu-migrations", "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS,
	  "migrations between CPUs" },
	{ "minor-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN,
	  "minor page faults" },
	{ "major-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ,
	  "major page faults" },
	{ "alignment-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS,
	  "alignment faults" },
	{ "emulation-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS,
	  "emulation faults" },
	{ "dummy", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, "no counts" },
};

int pl_pmu_resolve(const char *spec, struct pl_cnt_event *ev, char *err, size_t errlen)
{
	memset(ev, 0, sizeof(*ev));
	ev->scale = 1;
	ev->attr.size = sizeof(ev->attr);
	for (size_t i = 0; i < sizeof(generic) / sizeof(generic[0]); i++) {
		const struct generic *g = &generic[i];
		if (strcmp(spec, g->name) && (!g->alias || strcmp(spec, g->alias)))
			continue;
		snprintf(ev->name, sizeof(ev->name), "%s", g->name);
		snprintf(ev->pmu, sizeof(ev->pmu), "%s",
			 g->type == PERF_TYPE_SOFTWARE ? "software" : "cpu");
		ev->attr.type = g->type;
		ev->attr.config = g->config;
		if (g->type == PERF_TYPE_SOFTWARE && g->config <= PERF_COUNT_SW_TASK_CLOCK) {
			ev->scale = 1e-6;
			snprintf(ev->unit, sizeof(ev->unit), "msec");
		}
		return 0;
	}
	if (spec[0] == 'r' && spec[1] &&
	    strspn(spec + 1, "0123456789abcdefABCDEF") == strlen(spec + 1)) {
		if (strlen(spec + 1) > 16) {
			snprintf(err, errlen, "raw event '%s': more than 64 bits (give rNNNN)",
				 spec);
			return -EINVAL;
		}
		snprintf(ev->name, sizeof(ev->name), "%s", spec);
		snprintf(ev->pmu, sizeof(ev->pmu), "cpu");
		ev->attr.type = PERF_TYPE_RAW;
		ev->attr.config = strtoull(spec + 1, NULL, 16);
		return 0;
	}
	snprintf(err, errlen,
		 "unknown event '%s' (perflab stat --list shows this machine's events)", spec);
	return -ENOENT;
}

int pl_pmu_resolve_all(const char *spec, struct pl_cnt_event *evs, size_t max, char *err,
		       size_t errlen)
{
	if (max < 1)
		return -ENOSPC;
	int r = pl_pmu_resolve(spec, &evs[0], err, errlen);
	return r < 0 ? r : 1;
}

bool pl_pmu_have_core(char *why, size_t whylen)
{
	static const char *const names[] = { "cpu", "cpu_core", "cpu_atom", "armv8_pmuv3",
					     "armv8_pmuv3_0" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char p[128];
		snprintf(p, sizeof(p), "/sys/bus/event_source/devices/%s", names[i]);
		if (pl_exists(p))
			return true;
	}
	snprintf(why, whylen,
		 "no core PMU in /sys/bus/event_source/devices: a VM without a virtual PMU");
	return false;
}

int pl_pmu_list(int (*fn)(const char *kind, const char *name, const char *desc, void *ctx),
		void *ctx)
{
	char why[160];
	bool core = pl_pmu_have_core(why, sizeof(why));
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < sizeof(generic) / sizeof(generic[0]); i++) {
			const struct generic *g = &generic[i];
			bool hw = g->type == PERF_TYPE_HARDWARE;
			if (hw != (pass == 0) || (hw && !core))
				continue;
			int r = fn(hw ? "hardware" : "software", g->name, g->desc, ctx);
			if (r)
				return r;
		}
	return 0;
}
