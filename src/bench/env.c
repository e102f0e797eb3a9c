/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "bench/env.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench/bench.h"
#include "config.h"
#include "facts/facts.h"
#include "util/json.h"
#include "util/str.h"
#include "util/sysroot.h"

/* The numbers of a "cpuN v0 v1 ..." row of /proc/stat up to @eol: *cpu and up to 10
 * values. Returns the count of values, or -1 when the row is not one (a sign, a number
 * past 2^64: sscanf's %llu read "-300" as 2^64-300). */
static int cpu_row(const char *p, const char *eol, unsigned *cpu, uint64_t v[10])
{
	if (strncmp(p, "cpu", 3) != 0 || !isdigit((unsigned char)p[3]))
		return -1;
	p += 3;
	int n = -1;
	while (n < 10) {
		while (p < eol && (*p == ' ' || *p == '\t'))
			p++;
		if (p >= eol || !isdigit((unsigned char)*p))
			break;
		char *end;
		errno = 0;
		unsigned long long x = strtoull(p, &end, 10);
		if (errno == ERANGE || (end < eol && *end != ' ' && *end != '\t'))
			return -1;
		if (n < 0) {
			if (x >= PL_MAX_CPUS)
				return -1;
			*cpu = (unsigned)x;
		} else {
			v[n] = x;
		}
		n++;
		p = end;
	}
	return n;
}

int pl_cpustat_parse(const char *text, const struct pl_cpuset *set, struct pl_cpustat *out)
{
	struct pl_cpustat s = { 0 };
	struct pl_cpuset seen;
	pl_cpuset_clear(&seen);
	bool any_cpu_row = false;
	for (const char *p = text; p && *p;) {
		const char *eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		unsigned cpu = 0;
		uint64_t v[10] = { 0 };
		if (cpu_row(p, eol, &cpu, v) >= 4) {
			any_cpu_row = true;
			/* user nice system idle iowait irq softirq steal guest guest_nice; guest
			 * time is already counted in user (proc(5)). A CPU counts once: a repeated
			 * row (not a kernel's) is ignored, as is one whose sum overflows. */
			uint64_t total = 0, sum;
			bool over = false;
			for (int k = 0; k < 8; k++)
				over |= __builtin_add_overflow(total, v[k], &total);
			if (!over && pl_cpuset_isset(set, cpu) && !pl_cpuset_isset(&seen, cpu) &&
			    !__builtin_add_overflow(s.total, total, &sum)) {
				/* busy and steal are parts of total: they cannot overflow now */
				pl_cpuset_set(&seen, cpu);
				s.total = sum;
				s.busy += v[0] + v[1] + v[2] + v[5] + v[6];
				s.steal += v[7];
				s.ncpus++;
			}
		}
		p = *eol ? eol + 1 : NULL;
	}
	if (!any_cpu_row)
		return -EINVAL;
	if (s.ncpus == 0)
		return -ENOENT;
	*out = s;
	return 0;
}

void pl_env_snap(struct pl_env_snap *s, const struct pl_cpuset *set)
{
	memset(s, 0, sizeof(*s));
	char *text;
	if (pl_read_file("/proc/stat", &text, NULL) == 0) {
		s->stat_ok = pl_cpustat_parse(text, set, &s->stat) == 0;
		free(text);
	}
	s->loadavg1 = NAN;
	char *la;
	if (pl_read_str("/proc/loadavg", &la) == 0) {
		char *sp = strchr(la, ' ');
		if (sp)
			*sp = '\0';
		double v;
		if (pl_parse_double(la, &v) == 0)
			s->loadavg1 = v;
		free(la);
	}
	/* ours: this process and the children it waited for (compare's commands, worker
	 * processes of a benchmark), which are not "other tasks" */
	static const int who[] = { RUSAGE_SELF, RUSAGE_CHILDREN };
	for (size_t i = 0; i < sizeof(who) / sizeof(who[0]); i++) {
		struct rusage ru;
		if (getrusage(who[i], &ru) == 0)
			s->own_cpu_s +=
				(double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
				(double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	}
	s->t_ns = pl_now_ns();
}

void pl_env_during(const struct pl_env_snap *a, const struct pl_env_snap *b,
		   struct pl_env_during *out)
{
	out->steal_pct = out->others_busy_pct = NAN;
	out->load_start = a->loadavg1;
	out->load_end = b->loadavg1;
	if (!a->stat_ok || !b->stat_ok || b->stat.total <= a->stat.total)
		return;
	double total = (double)(b->stat.total - a->stat.total);
	double busy = (double)(b->stat.busy - a->stat.busy);
	double steal = (double)(b->stat.steal - a->stat.steal);
	out->steal_pct = 100.0 * steal / total;
	/* total is in USER_HZ ticks over all CPUs of the set; our own CPU time (all threads)
	 * is subtracted from the busy time, what is left ran for someone else. */
	long hz = sysconf(_SC_CLK_TCK);
	double own_ticks = (b->own_cpu_s - a->own_cpu_s) * (double)(hz > 0 ? hz : 100);
	double others = busy - own_ticks;
	if (others < 0)
		others = 0;
	out->others_busy_pct = 100.0 * others / total;
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(round(v * 100) / 100) : json_null();
}

/* The domains the environment reads; others (pci, services...) are not needed and may be
 * slow. Collectors that do not exist (yet) are simply not run. */
static const char *const env_domains[] = { "virt",    "kernel", "clocksource", "cpu",
					   "cpufreq", "mem",	NULL };

json_t *pl_env_json(const struct pl_env_during *d, const struct pl_cpuset *cpus, bool pinned)
{
	struct pl_facts f;
	pl_facts_init(&f);
	for (size_t i = 0; i < pl_ncollectors; i++)
		for (const char *const *w = env_domains; *w; w++)
			if (strcmp(pl_collectors[i].name, *w) == 0)
				pl_collectors[i].collect(&f);

	json_t *o = json_object(), *unav = json_object();
	/* The governor's key differs between collector versions: the first one collected. */
	static const char *const gov_keys[] = { "cpufreq.governor", "cpu.governor",
						"cpu.0.cpufreq.governor", NULL };
	const char *gov = gov_keys[0];
	for (const char *const *k = gov_keys; *k; k++)
		if (pl_facts_get(&f, *k)) {
			gov = *k;
			break;
		}
	static const struct {
		const char *name, *key;
	} keys[] = { { "kernel", "kernel.release" },
		     { "cpu_model", "cpu.model" },
		     { "governor", NULL },
		     { "clocksource", "clocksource.current" },
		     { "hypervisor", "virt.hypervisor" },
		     { "thp", "mem.thp.enabled" } };
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const struct pl_fact *x = pl_facts_get(&f, keys[i].key ? keys[i].key : gov);
		json_object_set_new(o, keys[i].name,
				    x && x->value ? json_deep_copy(x->value) : json_null());
		if (x && x->unavailable)
			json_object_set_new(unav, keys[i].name, pl_json_string(x->unavailable));
	}
	/* mitigations= on the kernel command line (kernel-parameters.txt), "auto" when absent. */
	const json_t *params = pl_facts_value(&f, "kernel.cmdline.params");
	const json_t *mit = params ? json_object_get(params, "mitigations") : NULL;
	if (json_is_string(mit))
		json_object_set_new(o, "mitigations", pl_json_string(json_string_value(mit)));
	else if (params)
		json_object_set_new(o, "mitigations", pl_json_string("auto (kernel default)"));
	else
		json_object_set_new(o, "mitigations", json_null());
	const json_t *vul = pl_facts_value(&f, "cpu.vulnerabilities");
	json_t *vo = NULL;
	if (json_is_object(vul)) {
		vo = json_deep_copy(vul);
	} else {
		const char *pfx = "cpu.vulnerabilities.";
		for (size_t i = 0; i < f.n; i++)
			if (pl_startswith(f.v[i].key, pfx) && f.v[i].value) {
				if (!vo)
					vo = json_object();
				pl_json_set(vo, f.v[i].key + strlen(pfx),
					    json_deep_copy(f.v[i].value));
			}
	}
	json_object_set_new(o, "vulnerabilities", vo ? vo : json_null());

	char buf[256];
	json_object_set_new(o, "pinning", pl_json_string(pinned ? "pinned" : "unpinned"));
	json_object_set_new(o, "cpus", pl_json_string(pl_cpuset_format(cpus, buf, sizeof(buf))));
	json_t *la = json_object();
	json_object_set_new(la, "start", num_or_null(d->load_start));
	json_object_set_new(la, "end", num_or_null(d->load_end));
	json_object_set_new(o, "load_avg", la);
	json_object_set_new(o, "steal_pct", num_or_null(d->steal_pct));
	json_object_set_new(o, "others_busy_pct", num_or_null(d->others_busy_pct));
	json_object_set_new(o, "perflab_version", pl_json_string(PERFLAB_VERSION));
	json_object_set_new(o, "unavailable", unav);
	pl_facts_free(&f);
	return o;
}

/* "0.53", or "-" when not a number */
static void num_text(char *buf, size_t len, const json_t *v)
{
	if (json_is_number(v))
		snprintf(buf, len, "%.2f", json_number_value(v));
	else
		snprintf(buf, len, "-");
}

char *pl_env_text(const json_t *e)
{
	struct pl_buf b = { 0 };
	static const char *const ek[] = { "kernel",   "cpu_model", "hypervisor",  "clocksource",
					  "governor", "thp",	   "mitigations", NULL };
	/* the words for the keys that are not words ("cpu_model", "thp") */
	static const char *const words[] = { "kernel",	 "CPU", "hypervisor",  "clocksource",
					     "governor", "THP", "mitigations", NULL };
	for (const char *const *p = ek; *p; p++) {
		const json_t *x = json_object_get(e, *p);
		if (!x && strcmp(*p, "thp") == 0)
			continue; /* a document written before THP was recorded */
		const char *why = pl_json_str(json_object_get(e, "unavailable"), *p);
		int wl = why ? (int)strcspn(why, "(;") : 0; /* the reason without its details */
		while (wl > 0 && why[wl - 1] == ' ')
			wl--;
		char *t = (x && !json_is_null(x)) ? pl_fact_value_text(x)
			  : why			  ? pl_xasprintf("none (%.*s)", wl, why)
						  : pl_xstrdup("unknown");
		pl_buf_printf(&b, "%s%s %s", b.len ? ", " : "", words[p - ek], t);
		free(t);
	}
	const json_t *la = json_object_get(e, "load_avg");
	char l0[32], l1[32], st[32], ob[32];
	num_text(l0, sizeof(l0), json_object_get(la, "start"));
	num_text(l1, sizeof(l1), json_object_get(la, "end"));
	num_text(st, sizeof(st), json_object_get(e, "steal_pct"));
	num_text(ob, sizeof(ob), json_object_get(e, "others_busy_pct"));
	pl_buf_printf(&b,
		      "; during the run: load %s -> %s, steal %s%%, other tasks %s%% of the CPUs",
		      l0, l1, st, ob);
	if (pl_json_str(e, "perflab_version"))
		pl_buf_printf(&b, "; perflab %s", pl_json_str(e, "perflab_version"));
	return pl_buf_steal(&b);
}
