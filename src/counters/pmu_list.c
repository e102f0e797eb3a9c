/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What this machine offers: whether it has a core PMU, every event it can count (perflab
 * stat --list), and the powercap zones that stand in for the power PMU. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters/pmu.h"
#include "counters/pmu_dir.h"
#include "counters/pmu_parse.h"
#include "util/str.h"
#include "util/sysroot.h"

#define POWERCAP "/sys/class/powercap"

bool pl_pmu_have_core(char *why, size_t whylen)
{
	char **v = NULL;
	size_t n = 0;
	int r = pl_pmu_names(&v, &n);
	if (r < 0) {
		snprintf(why, whylen, "no core PMU: cannot list " PL_PMU_DEVICES " (%s)",
			 pl_read_strerror(r));
		return false;
	}
	char list[256] = "";
	size_t o = 0;
	bool core = false;
	for (size_t i = 0; i < n; i++) {
		char p[512];
		snprintf(p, sizeof(p), PL_PMU_DEVICES "/%s/events/cpu-cycles", v[i]);
		if (pl_pmu_is_core(v[i]) || pl_exists(p))
			core = true;
		if (o < sizeof(list))
			o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s", i ? ", " : "",
					      v[i]);
	}
	pl_strv_free(v);
	if (!core)
		snprintf(why, whylen,
			 "no core PMU in " PL_PMU_DEVICES
			 " (it has: %s): a virtual machine without "
			 "a virtual PMU, or no PMU driver for this CPU",
			 n ? list : "nothing");
	else if (whylen)
		why[0] = '\0';
	return core;
}

int pl_pmu_powercap_zones(const char *alias, int (*fn)(const char *zone, void *ctx), void *ctx)
{
	static const struct {
		const char *alias, *zone;
		bool prefix;
	} map[] = {
		{ "energy-pkg", "package-", true }, { "energy-cores", "core", false },
		{ "energy-ram", "dram", false },    { "energy-gpu", "uncore", false },
		{ "energy-psys", "psys", false },
	};
	size_t m = 0;
	while (m < sizeof(map) / sizeof(map[0]) && strcmp(map[m].alias, alias) != 0)
		m++;
	if (m == sizeof(map) / sizeof(map[0]))
		return -EINVAL;
	char **v = NULL;
	size_t n = 0;
	if (pl_list_dir(POWERCAP, &v, &n) < 0)
		return 0;
	int count = 0;
	for (size_t i = 0; i < n; i++) {
		if (strncmp(v[i], "intel-rapl:", 11) != 0)
			continue;
		char *name = NULL;
		if (pl_read_strf(&name, POWERCAP "/%s/name", v[i]) < 0)
			continue;
		bool hit = map[m].prefix ? strncmp(name, map[m].zone, strlen(map[m].zone)) == 0
					 : strcmp(name, map[m].zone) == 0;
		free(name);
		if (!hit)
			continue;
		int r = fn(v[i], ctx);
		if (r < 0) {
			pl_strv_free(v);
			return r;
		}
		count++;
	}
	pl_strv_free(v);
	return count;
}

struct list_ctx {
	int (*fn)(const char *kind, const char *name, const char *desc, void *ctx);
	void *ctx;
	const char *kind;
};

static int emit_generic(const char *name, void *vctx)
{
	struct list_ctx *c = vctx;
	return c->fn(c->kind, name, "", c->ctx);
}

static int count_zone(const char *zone, void *ctx)
{
	(void)zone;
	(void)ctx;
	return 0;
}

/* Each PMU's aliases as "pmu/alias/" (its .scale, .unit, .per-pkg and .snapshot files
 * left out), the unit as the description. */
static int list_pmus(struct list_ctx *c, bool *have_power)
{
	char **pmus = NULL;
	size_t np = 0;
	if (pl_pmu_names(&pmus, &np) < 0)
		return 0;
	int r = 0;
	for (size_t i = 0; i < np && !r; i++) {
		if (strcmp(pmus[i], "power") == 0)
			*have_power = true;
		char dir[512];
		char **ev = NULL;
		size_t ne = 0;
		snprintf(dir, sizeof(dir), PL_PMU_DEVICES "/%s/events", pmus[i]);
		if (pl_list_dir(dir, &ev, &ne) < 0)
			continue;
		for (size_t j = 0; j < ne && !r; j++) {
			if (strchr(ev[j], '.'))
				continue;
			char name[PL_CNT_NAME_MAX], *unit = NULL;
			snprintf(name, sizeof(name), "%s/%s/", pmus[i], ev[j]);
			if (pl_read_strf(&unit, "%s/%s.unit", dir, ev[j]) < 0)
				unit = NULL;
			r = c->fn("pmu", name, unit ? unit : "", c->ctx);
			free(unit);
		}
		pl_strv_free(ev);
	}
	pl_strv_free(pmus);
	return r;
}

static int list_tracepoints(struct list_ctx *c)
{
	static const char *const dirs[] = { "/sys/kernel/tracing/events",
					    "/sys/kernel/debug/tracing/events" };
	for (size_t d = 0; d < 2; d++) {
		char **v = NULL;
		size_t n = 0;
		if (pl_list_dir(dirs[d], &v, &n) < 0)
			continue;
		int r = 0;
		for (size_t i = 0; i < n && !r; i++) {
			char p[512];
			snprintf(p, sizeof(p), "%s/%s", dirs[d], v[i]);
			char **sub = NULL;
			size_t ns = 0;
			if (pl_list_dir(p, &sub, &ns) < 0) /* files such as header_page */
				continue;
			pl_strv_free(sub);
			char name[PL_CNT_NAME_MAX];
			snprintf(name, sizeof(name), "%s:*", v[i]);
			r = c->fn("tracepoint", name, "", c->ctx);
		}
		pl_strv_free(v);
		return r;
	}
	return 0;
}

int pl_pmu_list(int (*fn)(const char *kind, const char *name, const char *desc, void *ctx),
		void *ctx)
{
	struct list_ctx c = { fn, ctx, "hardware" };
	char why[8];
	int r = 0;
	if (pl_pmu_have_core(why, sizeof(why))) {
		r = pl_pmu_generic_each(PERF_TYPE_HARDWARE, emit_generic, &c);
		c.kind = "cache";
		if (!r)
			r = pl_pmu_generic_each(PERF_TYPE_HW_CACHE, emit_generic, &c);
	}
	c.kind = "software";
	if (!r)
		r = pl_pmu_generic_each(PERF_TYPE_SOFTWARE, emit_generic, &c);
	bool have_power = false;
	if (!r)
		r = list_pmus(&c, &have_power);
	static const char *const energy[] = { "energy-cores", "energy-gpu", "energy-pkg",
					      "energy-psys", "energy-ram" };
	for (size_t i = 0; i < 5 && !r && !have_power; i++) {
		if (pl_pmu_powercap_zones(energy[i], count_zone, NULL) <= 0)
			continue;
		char name[64];
		snprintf(name, sizeof(name), "power/%s/", energy[i]);
		r = fn("powercap", name, "Joules", ctx);
	}
	if (!r)
		r = list_tracepoints(&c);
	return r;
}
