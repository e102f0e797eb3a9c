/* SPDX-License-Identifier: GPL-3.0-or-later */
/* [cpu]: the cpufreq governor, energy_perf_bias and energy_performance_preference per
 * CPU of devices=, intel_pstate's min/max_perf_pct and no_turbo, cpufreq boost, and
 * force_latency, which needs a process holding /dev/cpu_dma_latency (tuned's cpu
 * plugin). */
#include "tune/plugins/plugin.h"

#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "util/str.h"
#include "util/sysroot.h"

static const char *const epb_names[][2] = {
	{ "performance", "0" },
	{ "balance-performance", "4" },
	{ "balance_performance", "4" },
	{ "normal", "6" },
	{ "default", "6" },
	{ "balance-power", "8" },
	{ "balance_power", "8" },
	{ "power", "15" },
	{ "powersave", "15" },
};

static char *epb_number(const char *name)
{
	for (size_t i = 0; i < sizeof(epb_names) / sizeof(epb_names[0]); i++)
		if (strcmp(name, epb_names[i][0]) == 0)
			return pl_xstrdup(epb_names[i][1]);
	uint64_t n;
	if (pl_parse_u64(name, &n) == 0 && n <= 15)
		return pl_xasprintf("%llu", (unsigned long long)n);
	return NULL;
}

static int force_latency(struct pl_tune_ctx *c, const struct pl_tune_unit *u,
			 const struct pl_tune_opt *o)
{
	const char *v = pl_tune_opt_value(o);
	struct pl_tune_item *it = pl_tune_add_item(c, "cpu", u, o, NULL);
	it->target = pl_xstrdup("/dev/cpu_dma_latency");
	char **alts = pl_split(v, "|", NULL);
	long usec = -1;
	bool cstate = false, bad = false;
	for (size_t i = 0; alts[i] && usec < 0; i++) {
		char *a = pl_trim(alts[i]);
		if (strcmp(a, "n/a") == 0)
			continue;
		if (pl_startswith(a, "cstate.")) {
			cstate = true;
			/* cstate.id:N / cstate.id_no_zero:N / cstate.name:NAME -> that state's exit
			 * latency in cpuidle (tuned's plugin_cpu). */
			char *colon = strchr(a, ':');
			if (!colon) {
				bad = true;
				break;
			}
			char *path = NULL;
			if (pl_startswith(a, "cstate.id:") ||
			    pl_startswith(a, "cstate.id_no_zero:")) {
				uint64_t id;
				if (pl_parse_u64(colon + 1, &id) < 0) {
					bad = true;
					break;
				}
				path = pl_xasprintf(
					"/sys/devices/system/cpu/cpu0/cpuidle/state%llu/latency",
					(unsigned long long)id);
			} else if (pl_startswith(a, "cstate.name:")) {
				char **st = NULL;
				size_t ns = 0;
				if (pl_list_dir("/sys/devices/system/cpu/cpu0/cpuidle", &st, &ns) ==
				    0) {
					for (size_t k = 0; k < ns && !path; k++) {
						char *nm = NULL;
						if (pl_read_strf(&nm,
								 "/sys/devices/system/cpu/cpu0/"
								 "cpuidle/%s/name",
								 st[k]) == 0 &&
						    strcmp(nm, colon + 1) == 0)
							path = pl_xasprintf(
								"/sys/devices/system/cpu/"
								"cpu0/cpuidle/%s/latency",
								st[k]);
						free(nm);
					}
					pl_strv_free(st);
				}
			} else {
				bad = true;
				break;
			}
			uint64_t lat;
			if (path && pl_read_u64(path, &lat) == 0)
				usec = (long)lat;
			free(path);
			continue;
		}
		int64_t n;
		if (pl_parse_i64(a, &n) < 0 || n < 0 || n > INT32_MAX) {
			bad = true;
			break;
		}
		usec = (long)n;
	}
	pl_strv_free(alts);
	if (bad)
		return pl_tune_bad_value(
			c, u, o,
			"is not microseconds, 'n/a' or cstate.id:N / cstate.name:NAME "
			"alternatives");
	if (usec < 0) {
		pl_tune_set_reason(
			it, PL_TI_NA, "%s",
			cstate ? "no cpuidle driver on this machine (no C-states to limit)"
			       : "n/a: nothing to set");
		return 0;
	}
	it->want = pl_xasprintf("%ld", usec);
	if (pl_sysroot_is_live()) {
		int fd = open("/dev/cpu_dma_latency", O_RDONLY | O_CLOEXEC);
		int32_t cur;
		if (fd >= 0 && read(fd, &cur, sizeof(cur)) == (ssize_t)sizeof(cur)) {
			it->current = pl_xasprintf("%d", cur);
			it->match = cur <= usec;
		}
		if (fd >= 0)
			close(fd);
	}
	pl_tune_set_reason(
		it, PL_TI_MANUAL,
		"a CPU latency limit lasts only while a process holds /dev/cpu_dma_latency "
		"open: run 'perflab tune hold-latency %ld' (foreground; Ctrl-C ends it)",
		usec);
	if (it->match) {
		free(it->want);
		it->want = NULL;
	}
	return 0;
}

/* Whether CPU @name ("cpu3") is offline: its /sys/devices/system/cpu/NAME/online says
 * something else than 1. tuned's cpu plugin (commands.is_cpu_online) skips such a CPU
 * for governor, energy_perf_bias and energy_performance_preference. (A CPU without the
 * file cannot be taken offline: online for perflab; tuned treats any but cpu0 as
 * offline then.) */
static bool cpu_offline(const char *name)
{
	pl_autofree char *path = pl_xasprintf("/sys/devices/system/cpu/%s/online", name);
	pl_autofree char *v = NULL;
	return strcmp(name, "cpu0") != 0 && pl_read_file(path, &v, NULL) == 0 &&
	       strcmp(pl_trim(v), "1") != 0;
}

int pl_tune_plugin_cpu(struct pl_tune_ctx *c, const struct pl_tune_unit *u)
{
	static const char *const cpu_opts[] = {
		"governor",	"energy_perf_bias", "energy_performance_preference",
		"min_perf_pct", "max_perf_pct",	    "no_turbo",
		"boost",	"force_latency",    NULL
	};
	char **cpus =
		pl_tune_devices(u, "/sys/devices/system/cpu", "^cpu[0-9]+$", NULL, &c->taken_cpu);
	int r = 0;
	for (size_t i = 0; i < u->opts.n && r == 0; i++) {
		const struct pl_tune_opt *o = &u->opts.v[i];
		const char *v = pl_tune_opt_value(o);
		bool known = false;
		for (size_t k = 0; cpu_opts[k]; k++)
			if (strcmp(o->key, cpu_opts[k]) == 0)
				known = true;
		if (!known) {
			struct pl_tune_item *it = pl_tune_add_item(c, "cpu", u, o, NULL);
			pl_tune_set_reason(it, PL_TI_UNSUPPORTED,
					   "[cpu] option '%s' is not supported by perflab", o->key);
			continue;
		}
		if (strcmp(o->key, "force_latency") == 0) {
			r = force_latency(c, u, o);
			continue;
		}
		if (strcmp(o->key, "min_perf_pct") == 0 || strcmp(o->key, "max_perf_pct") == 0 ||
		    strcmp(o->key, "no_turbo") == 0 || strcmp(o->key, "boost") == 0) {
			uint64_t n;
			bool pct = o->key[0] == 'm';
			/* No '>'/'<' here: tuned writes these values as they are (a '>50' is
			 * refused by intel_pstate), so they are checked as plain values. */
			if (!pct && (strcasecmp(v, "true") == 0 || strcasecmp(v, "yes") == 0))
				v = "1";
			else if (!pct && (strcasecmp(v, "false") == 0 || strcasecmp(v, "no") == 0))
				v = "0";
			if (pl_parse_u64(v, &n) < 0 || n > (pct ? 100 : 1)) {
				r = pl_tune_bad_value(c, u, o,
						      pct ? "is not a percentage 0-100"
							  : "is not 0 or 1");
				break;
			}
			struct pl_tune_item *it = pl_tune_add_item(c, "cpu", u, o, NULL);
			bool boost = strcmp(o->key, "boost") == 0;
			it->target = pl_xasprintf("/sys/devices/system/cpu/%s/%s",
						  boost ? "cpufreq" : "intel_pstate", o->key);
			if (pl_tune_read_current(it,
						 boost ? "no cpufreq boost control on this machine"
						       : "no intel_pstate driver on this machine"))
				pl_tune_decide(it, v);
			continue;
		}
		if (!cpus[0]) {
			struct pl_tune_item *it = pl_tune_add_item(c, "cpu", u, o, NULL);
			pl_tune_set_reason(
				it, PL_TI_NA,
				"no CPU matches devices=%s that an earlier [cpu] unit did not take "
				"(tuned gives each CPU to one unit)",
				u->devices);
			continue;
		}
		char *epb = NULL;
		if (strcmp(o->key, "energy_perf_bias") == 0) {
			char **alts = pl_split(v, "|", NULL);
			for (size_t k = 0; alts[k]; k++) {
				epb = epb_number(pl_trim(alts[k]));
				if (epb)
					break;
			}
			pl_strv_free(alts);
			if (!epb) {
				r = pl_tune_bad_value(c, u, o,
						      "is not performance, normal, powersave, "
						      "balance-performance, balance-power or 0-15");
				break;
			}
		}
		for (size_t k = 0; cpus[k]; k++) {
			struct pl_tune_item *it = pl_tune_add_item(c, "cpu", u, o, cpus[k]);
			const char *base = "/sys/devices/system/cpu";
			if (cpu_offline(cpus[k])) {
				pl_tune_set_reason(
					it, PL_TI_NA,
					"%s is offline (its 'online' file is not 1); tuned skips "
					"it too",
					cpus[k]);
				continue;
			}
			if (strcmp(o->key, "governor") == 0) {
				it->target = pl_xasprintf("%s/%s/cpufreq/scaling_governor", base,
							  cpus[k]);
				if (!pl_tune_read_current(it, "no cpufreq on this machine"))
					continue;
				char *ap = pl_xasprintf("%s/%s/cpufreq/scaling_available_governors",
							base, cpus[k]);
				pl_tune_decide_alt(it, v, ap, "none of these governors is offered");
				free(ap);
			} else if (strcmp(o->key, "energy_performance_preference") == 0) {
				it->target =
					pl_xasprintf("%s/%s/cpufreq/energy_performance_preference",
						     base, cpus[k]);
				if (!pl_tune_read_current(
					    it, "no energy_performance_preference on this machine"))
					continue;
				char *ap = pl_xasprintf(
					"%s/%s/cpufreq/energy_performance_available_preferences",
					base, cpus[k]);
				pl_tune_decide_alt(it, v, ap,
						   "none of these preferences is offered");
				free(ap);
			} else {
				it->target =
					pl_xasprintf("%s/%s/power/energy_perf_bias", base, cpus[k]);
				if (pl_tune_read_current(it, "no energy_perf_bias on this machine"))
					pl_tune_decide(it, epb);
			}
		}
		free(epb);
	}
	pl_strv_free(cpus);
	return r;
}
