/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What one perflab stat run counts (plan.h): event lists with their groups, perf's
 * default set, and the metrics with their events. */
#include "counters/plan.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters/expr.h"
#include "counters/pmu.h"
#include "util/cleanup.h"
#include "util/str.h"
#include "util/sysroot.h"

void pl_cnt_plan_free(struct pl_cnt_plan *p)
{
	if (!p)
		return;
	free(p->evs);
	free(p->group);
	free(p->explicit_ev);
	memset(p, 0, sizeof(*p));
}

/* Whether @p counts @name: spelled alike, or (@alias) named alike as the metrics match
 * names ("cs" counts what a metric calls "context-switches"). */
static bool have_event(const struct pl_cnt_plan *p, const char *name, bool alias)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->evs[i].name, name) ||
		    (alias && pl_expr_same_event(p->evs[i].name, name)))
			return true;
	return false;
}

/* Resolve @spec and add its events (group @g) unless they are there already (the same
 * spelling; for an event not given with -e, any spelling of it). Returns 0, or the
 * resolver's negative errno with @err set. */
static int add_spec(struct pl_cnt_plan *p, const char *spec, int g, bool explicit_ev, char *err,
		    size_t errlen)
{
	struct pl_cnt_event tmp[64];
	int n = pl_pmu_resolve_all(spec, tmp, 64, err, errlen);
	if (n < 0)
		return n;
	if (have_event(p, tmp[0].name, !explicit_ev))
		return 0;
	if (p->n + (size_t)n > PL_CNT_PLAN_EVENTS) {
		snprintf(err, errlen, "more than %d events (count fewer at once)",
			 PL_CNT_PLAN_EVENTS);
		return -E2BIG;
	}
	p->evs = pl_xrealloc(p->evs, (p->n + (size_t)n) * sizeof(*p->evs));
	p->group = pl_xrealloc(p->group, (p->n + (size_t)n) * sizeof(int));
	p->explicit_ev = pl_xrealloc(p->explicit_ev, (p->n + (size_t)n) * sizeof(bool));
	for (int i = 0; i < n; i++) {
		p->evs[p->n] = tmp[i];
		p->group[p->n] = g;
		p->explicit_ev[p->n] = explicit_ev;
		p->n++;
	}
	return 0;
}

/* One -e value: events separated by commas outside "pmu/.../" and "{...}"; a {...}
 * is a group. Returns 0 or a negative errno with @err set (see plan.h). */
int pl_cnt_plan_events(struct pl_cnt_plan *p, const char *list, char *err, size_t errlen)
{
	size_t len = strlen(list);
	int depth = 0;
	bool slash = false;
	size_t start = 0;
	int g = -1;
	for (size_t i = 0; i <= len; i++) {
		char c = list[i];
		if (c == '/')
			slash = !slash;
		if (slash && c != '\0')
			continue;
		if (c == '{') {
			if (depth || i != start) {
				snprintf(err, errlen,
					 "-e '%s': a '{' inside an event or a group (groups do not "
					 "nest: -e '{a,b},c')",
					 list);
				return -EINVAL;
			}
			depth = 1;
			g = p->ngroups++;
			start = i + 1;
			continue;
		}
		bool close = c == '}';
		if (close && !depth) {
			snprintf(err, errlen, "-e '%s': a '}' without its '{' (give -e '{a,b}')",
				 list);
			return -EINVAL;
		}
		if (c != ',' && c != '\0' && !close)
			continue;
		if (c == '\0' && (depth || slash)) {
			if (depth)
				snprintf(err, errlen,
					 "-e '%s': unterminated group '{' (close it with '}')",
					 list);
			else
				snprintf(err, errlen,
					 "-e '%s': unterminated PMU event (a PMU event is "
					 "'pmu/terms/': add the closing '/')",
					 list);
			return -EINVAL;
		}
		pl_autofree char *one = pl_xasprintf("%.*s", (int)(i - start), list + start);
		char *t = pl_trim(one);
		if (!t[0]) {
			if (close || (c == '\0' && i > 0 && list[i - 1] == '}') ||
			    (c == ',' && i > 0 && list[i - 1] == '}')) {
				/* right after a group's '}' */
			} else {
				snprintf(err, errlen,
					 "-e '%s': an empty event name (give EVENT,EVENT)", list);
				return -EINVAL;
			}
		} else {
			int r = add_spec(p, t, depth ? g : -1, true, err, errlen);
			if (r < 0)
				return r;
		}
		if (close) {
			depth = 0;
			/* the '}' is followed by ',' or the end */
			if (list[i + 1] != ',' && list[i + 1] != '\0') {
				snprintf(err, errlen,
					 "-e '%s': '%c' after a group's '}' (separate with ',')",
					 list, list[i + 1]);
				return -EINVAL;
			}
		}
		start = i + 1;
	}
	return 0;
}

/* The value of the first line of /proc/cpuinfo text @ci whose key is @key ("cpu family",
 * "model": the key exactly, before its tabs and colon) into @buf; "" when none. */
static void cpuinfo_field(const char *ci, const char *key, char *buf, size_t len)
{
	buf[0] = '\0';
	size_t klen = strlen(key);
	for (const char *l = ci; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, key, klen) || (l[klen] != '\t' && l[klen] != ' ' && l[klen] != ':'))
			continue;
		const char *c = strchr(l, ':');
		const char *eol = strchr(l, '\n');
		if (!c || (eol && c > eol))
			continue;
		c++;
		while (*c == ' ' || *c == '\t')
			c++;
		size_t n = eol ? (size_t)(eol - c) : strlen(c);
		snprintf(buf, len, "%.*s", (int)n, c);
		return;
	}
}

/* Whether a PMU whose name starts with @prefix is in the PMU directory. */
static bool have_pmu_prefix(const char *prefix)
{
	char **names = NULL;
	size_t n = 0;
	if (pl_list_dir("/sys/bus/event_source/devices", &names, &n) < 0)
		return false;
	bool found = false;
	for (size_t i = 0; i < n; i++) {
		found |= !strncmp(names[i], prefix, strlen(prefix));
		free(names[i]);
	}
	free(names);
	return found;
}

/* The kind of the CPU: Arm by its core PMU (armv8_pmuv3*) or /proc/cpuinfo's "CPU
 * implementer" 0x41; Intel and AMD by vendor_id, AMD's family and model deciding Zen 4
 * (AMD's PPR: Zen 4 is family 19h models 10h and later, Zen 5 family 1Ah, both with the
 * pipeline-utilisation events); without /proc/cpuinfo, Intel by its PMU names. The core
 * PMU need not exist: a guest without one still gets its own CPU's formulas, so a
 * metric names the events its CPU would count as unavailable. */
const char *pl_cnt_pmu_kind(bool core)
{
	(void)core;
	if (have_pmu_prefix("armv8_pmuv3") || have_pmu_prefix("armv8_"))
		return "arm-neoverse";
	pl_autofree char *ci = NULL;
	if (pl_read_file("/proc/cpuinfo", &ci, NULL) < 0) {
		if (have_pmu_prefix("cpu_core") ||
		    pl_exists("/sys/bus/event_source/devices/cpu/caps/pmu_name"))
			return "intel";
		return "any";
	}
	char v[64], fam[32], model[32];
	cpuinfo_field(ci, "vendor_id", v, sizeof(v));
	if (!strcmp(v, "GenuineIntel"))
		return "intel";
	if (!strcmp(v, "AuthenticAMD") || !strcmp(v, "HygonGenuine")) {
		cpuinfo_field(ci, "cpu family", fam, sizeof(fam));
		cpuinfo_field(ci, "model", model, sizeof(model));
		uint64_t f = 0, m = 0;
		if (pl_parse_u64(fam, &f) < 0 || pl_parse_u64(model, &m) < 0)
			return "amd";
		return (f == 0x19 && m >= 0x10) || f >= 0x1a ? "amd-zen4" : "amd";
	}
	cpuinfo_field(ci, "CPU implementer", v, sizeof(v));
	if (!strcmp(v, "0x41"))
		return "arm-neoverse";
	return "any";
}

const char *pl_cnt_pmu_kind_of(const struct pl_cnt_result *r)
{
	static const char *const kinds[] = { "intel", "amd-zen4", "arm-neoverse" };
	size_t nt;
	const struct pl_metric *t = pl_metric_table(&nt);
	const char *best = "any";
	size_t best_n = 0;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		size_t n = 0;
		for (size_t i = 0; i < nt; i++) {
			if (strcmp(t[i].pmu_kind, kinds[k]))
				continue;
			bool all = true;
			for (size_t e = 0; t[i].events[e] && all; e++)
				all = t[i].events[e][0] == '#' ||
				      !isnan(pl_expr_event_sum(r, t[i].events[e]));
			n += all;
		}
		if (n > best_n) {
			best = kinds[k];
			best_n = n;
		}
	}
	return best;
}

/* The metrics of @spec with their events (one group per metric); an event that does not
 * resolve is left out, and the metric says which is missing. */
int pl_cnt_plan_metrics(struct pl_cnt_plan *p, const char *spec, const char *kind,
			bool only_present, char *err, size_t errlen)
{
	const struct pl_metric *ms[PL_CNT_PLAN_METRICS];
	int n = pl_metric_select(spec, kind, ms, PL_CNT_PLAN_METRICS, err, errlen);
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		const struct pl_metric *m = ms[i];
		bool all = true;
		for (size_t k = 0; m->events[k]; k++)
			all &= have_event(p, m->events[k], true);
		if (only_present && !all)
			continue;
		int g = p->ngroups++;
		for (size_t k = 0; m->events[k]; k++) {
			char e2[512];
			int r = add_spec(p, m->events[k], g, false, e2, sizeof(e2));
			if (r == -E2BIG) {
				snprintf(err, errlen, "-M '%s': %s", spec, e2);
				return r;
			}
		}
		if (p->nmetrics < PL_CNT_PLAN_METRICS)
			p->metrics[p->nmetrics++] = m;
	}
	return 0;
}

int pl_cnt_plan_default(struct pl_cnt_plan *p, bool core, char *err, size_t errlen)
{
	static const char *const sw[] = { "task-clock", "context-switches", "cpu-migrations",
					  "page-faults" };
	static const char *const hw[] = { "cycles", "instructions", "branches", "branch-misses" };
	for (size_t i = 0; i < 4; i++) {
		int r = add_spec(p, sw[i], -1, false, err, errlen);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; core && i < 4; i++) {
		int r = add_spec(p, hw[i], -1, false, err, errlen);
		if (r < 0)
			return r;
	}
	return 0;
}
