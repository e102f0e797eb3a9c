/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CPU power management rules: frequency governor, turbo boost and idle states (C-states).
 * Sources: tuned's latency-performance / throughput-performance profiles, the AWS
 * processor state control guide (the GPU-instance field report limits C-states with
 * intel_idle.max_cstate=1) and the kernel's cpufreq / cpuidle documentation. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/domains.h"
#include "rules/predicates.h"
#include "util/str.h"

/* Deepest acceptable idle-state exit latency for latency work, in us: C1 and C1E (1-10 us
 * on Intel server parts) stay, C3/C6 (tens to >100 us) go. */
#define CSTATE_MAX_LATENCY_US 10

static void eval_governor(const struct pl_rule *r, const struct pl_facts *f,
			  struct pl_findings *out)
{
	const char *g = pl_facts_get_str(f, "cpufreq.governor");
	if (!g || strcmp(g, "performance") == 0)
		return;
	const char *drv = pl_facts_get_str(f, "cpufreq.driver");
	const char *st = pl_facts_get_str(f, "cpufreq.intel_pstate.status");
	char obs[160];
	if (drv && strcmp(drv, "intel_pstate") == 0 && st)
		snprintf(obs, sizeof(obs), "governor %s (intel_pstate %s)", g, st);
	else
		snprintf(obs, sizeof(obs), "governor %s%s%s", g, drv ? ", driver " : "",
			 drv ? drv : "");
	pl_finding_add(out, r, NULL, obs, "performance on every CPU");
}

static bool is_intel_pstate(const struct pl_facts *f)
{
	const char *drv = pl_facts_get_str(f, "cpufreq.driver");
	return drv && strcmp(drv, "intel_pstate") == 0;
}

/* Boost switch: intel_pstate has no_turbo (inverted), acpi-cpufreq and amd-pstate the
 * generic cpufreq/boost. */
static void set_boost_fix(struct pl_finding *x, const struct pl_facts *f, bool on)
{
	free(x->fix_command);
	free(x->fix_tune);
	if (is_intel_pstate(f)) {
		x->fix_command = pl_xasprintf(
			"echo %d > /sys/devices/system/cpu/intel_pstate/no_turbo", on ? 0 : 1);
		x->fix_tune = pl_xasprintf(
			"[sysfs] /sys/devices/system/cpu/intel_pstate/no_turbo=%d", on ? 0 : 1);
	} else {
		x->fix_command =
			pl_xasprintf("echo %d > /sys/devices/system/cpu/cpufreq/boost", on);
		x->fix_tune = pl_xasprintf("[sysfs] /sys/devices/system/cpu/cpufreq/boost=%d", on);
	}
}

static void eval_boost(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out,
		       bool want)
{
	bool on;
	if (!pl_facts_get_bool(f, "cpufreq.boost", &on) || on == want)
		return;
	struct pl_finding *x =
		pl_finding_add(out, r, NULL, on ? "turbo boost on" : "turbo boost off",
			       want ? "turbo boost on" : "turbo boost off");
	set_boost_fix(x, f, want);
}

static void eval_boost_off(const struct pl_rule *r, const struct pl_facts *f,
			   struct pl_findings *out)
{
	eval_boost(r, f, out, true);
}

static void eval_boost_bench(const struct pl_rule *r, const struct pl_facts *f,
			     struct pl_findings *out)
{
	eval_boost(r, f, out, false);
}

/* A tuned profile holding /dev/cpu_dma_latency keeps CPUs out of deep states without
 * disabling them in sysfs. */
static bool pm_qos_profile(const struct pl_facts *f)
{
	static const char *const p[] = { "latency-performance", "network-latency",
					 "hpc-compute",		"realtime",
					 "cpu-partitioning",	NULL };
	const char *t = pl_facts_get_str(f, "services.tuned.profile");
	for (int i = 0; t && p[i]; i++)
		if (strcmp(t, p[i]) == 0)
			return true;
	return false;
}

static void eval_cstates(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	const json_t *states = pl_facts_value(f, "cpuidle.states");
	if (!json_is_array(states) || pm_qos_profile(f))
		return;
	struct pl_buf deep = { 0 };
	size_t i;
	json_t *s;
	json_array_foreach(states, i, s)
	{
		const json_t *lat = json_object_get(s, "latency_us");
		const json_t *dis = json_object_get(s, "disabled");
		const json_t *name = json_object_get(s, "name");
		if (!json_is_integer(lat) || json_integer_value(lat) <= CSTATE_MAX_LATENCY_US ||
		    json_is_true(dis))
			continue;
		pl_buf_printf(&deep, "%s%s (%" PRId64 " us)", deep.len ? ", " : "",
			      json_is_string(name) ? json_string_value(name) : "?",
			      (int64_t)json_integer_value(lat));
	}
	if (deep.len) {
		char *obs = pl_xasprintf("enabled idle states deeper than %d us: %s",
					 CSTATE_MAX_LATENCY_US, deep.data);
		char exp[96];
		snprintf(exp, sizeof(exp), "no enabled idle state with exit latency > %d us",
			 CSTATE_MAX_LATENCY_US);
		pl_finding_add(out, r, NULL, obs, exp);
		free(obs);
	}
	pl_buf_free(&deep);
}

/* intel_idle.max_cstate=0 unregisters intel_idle; acpi_idle then offers the firmware's
 * _CST states (often C3) unless processor.max_cstate limits them too. */
static void eval_cstate_cmdline(const struct pl_rule *r, const struct pl_facts *f,
				struct pl_findings *out)
{
	bool has_intel, has_proc;
	const char *vi, *vp;
	if (!pl_rf_cmdline(f, "intel_idle.max_cstate", &has_intel, &vi) ||
	    !pl_rf_cmdline(f, "processor.max_cstate", &has_proc, &vp))
		return;
	if (!has_intel || !vi || strcmp(vi, "0") != 0 || has_proc)
		return;
	pl_finding_add(out, r, NULL, "intel_idle.max_cstate=0 without processor.max_cstate",
		       "intel_idle.max_cstate=1, or processor.max_cstate=1 as well");
}

/* Evidence: the clock a busy CPU runs at (bench freq), and how late a sleeping thread
 * wakes (bench wakeup: what deep idle states add to every response). */
static const char *const freq_metrics[] = { "busy 1", NULL };
static const struct pl_evidence freq_evidence = {
	.bench = "freq",
	.metrics = freq_metrics,
	.text = "a busy CPU runs at {1} (a dependent add chain, one cycle per add; compare "
		"the nominal clock in /proc/cpuinfo)",
};
static const char *const wakeup_metrics[] = { "timer", "timer p99", "futex wakeup", NULL };
static const struct pl_evidence wakeup_evidence = {
	.bench = "wakeup",
	.metrics = wakeup_metrics,
	.text = "a sleeping thread wakes {1} late on its timer (p99 {2}); a wakeup from another "
		"CPU through a futex takes {3}",
};

static const char *const governor_keys[] = { "cpufreq.governor", "cpufreq.driver",
					     "cpufreq.intel_pstate.status", NULL };
static const char *const boost_keys[] = { "cpufreq.boost", "cpufreq.driver", NULL };
static const char *const cstate_keys[] = { "cpuidle.states", "cpuidle.driver",
					   "services.tuned.profile", NULL };
static const char *const cmdline_keys[] = { "kernel.cmdline.params", NULL };

const struct pl_rule pl_rules_power[] = {
	{
		.id = "power.governor",
		.workloads = PL_WL_TUNED,
		.severity = PL_SEV_WARN,
		.keys = governor_keys,
		.eval = eval_governor,
		.title = "CPU frequency governor is not performance",
		.rationale =
			"powersave, schedutil and ondemand lower the clock between bursts and "
			"ramp it up only after load appears, which adds latency and run-to-run "
			"variance (the SPEC CPU field report checks for 'performance' before "
			"every run). With intel_pstate in active mode 'powersave' is the "
			"default and still lets hardware P-states drop the frequency. Every "
			"tuned performance profile sets governor=performance.",
		.source = "Documentation/admin-guide/pm/cpufreq.rst; Documentation/admin-guide/pm/"
			  "intel_pstate.rst; tuned profiles latency-performance and "
			  "throughput-performance ([cpu] governor=performance)",
		.fix_command = "cpupower frequency-set -g performance",
		.fix_tune = "[cpu] governor=performance",
		.evidence = &freq_evidence,
	},
	{
		.id = "power.boost-off",
		.workloads = PL_WL_LATENCY | PL_WL_THROUGHPUT | PL_WL_HPC | PL_WL_NETWORK,
		.severity = PL_SEV_INFO,
		.keys = boost_keys,
		.eval = eval_boost_off,
		.title = "turbo boost is disabled",
		.rationale =
			"Turbo (Intel Turbo Boost, AMD Core Performance Boost) raises the clock "
			"above base frequency while power and thermal headroom last; with it "
			"off single-thread speed is capped at the base clock. Leave it off only "
			"when reproducibility matters more than speed (benchmarking).",
		.source = "Documentation/admin-guide/pm/cpufreq.rst (boost); "
			  "Documentation/admin-guide/pm/intel_pstate.rst (no_turbo)",
		.fix_command = "echo 1 > /sys/devices/system/cpu/cpufreq/boost",
		.fix_tune = "[sysfs] /sys/devices/system/cpu/cpufreq/boost=1",
		.evidence = &freq_evidence,
	},
	{
		.id = "power.boost-benchmark",
		.workloads = PL_WL_BENCHMARK,
		.severity = PL_SEV_INFO,
		.keys = boost_keys,
		.eval = eval_boost_bench,
		.title = "turbo boost is on while benchmarking",
		.rationale =
			"With turbo on the clock depends on temperature, on how many cores are "
			"busy and on recent history, so repeated runs of the same benchmark "
			"differ by more than the effects being measured (the SPEC CPU field "
			"report could not tell <1% effects from noise). Disable it for A/B "
			"comparisons and say so in the results.",
		.source = "Documentation/admin-guide/pm/intel_pstate.rst (no_turbo); "
			  "Documentation/admin-guide/pm/cpufreq.rst (boost)",
		.fix_command = "echo 0 > /sys/devices/system/cpu/cpufreq/boost",
		.fix_tune = "[sysfs] /sys/devices/system/cpu/cpufreq/boost=0",
		.evidence = &freq_evidence,
	},
	{
		.id = "power.cstates-deep",
		.workloads = PL_WL_LATENCY | PL_WL_NETWORK,
		.severity = PL_SEV_WARN,
		.keys = cstate_keys,
		.eval = eval_cstates,
		.title = "deep C-states are enabled for latency-sensitive work",
		.rationale =
			"A core waking from C6 needs tens to hundreds of microseconds before it "
			"runs the interrupt or thread that woke it, which shows up directly in "
			"request latency. The GPU-instance field report limits idle states to "
			"C1 (intel_idle.max_cstate=1) for the fastest response; tuned's "
			"latency-performance holds /dev/cpu_dma_latency for the same effect. "
			"Costs power and some turbo headroom.",
		.source =
			"https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/"
			"processor_state_control."
			"html; Documentation/admin-guide/pm/cpuidle.rst; tuned latency-performance "
			"(force_latency)",
		.fix_command = "cpupower idle-set -D 11",
		.fix_tune = "[cpu] force_latency=10",
		.evidence = &wakeup_evidence,
	},
	{
		.id = "power.cstate-cmdline",
		.workloads = PL_WL_LATENCY | PL_WL_NETWORK | PL_WL_HPC,
		.severity = PL_SEV_WARN,
		.keys = cmdline_keys,
		.eval = eval_cstate_cmdline,
		.title = "intel_idle.max_cstate=0 lets acpi_idle use deep C-states",
		.rationale =
			"intel_idle.max_cstate=0 does not limit C-states: it disables the "
			"intel_idle driver, and acpi_idle then uses the firmware's _CST table, "
			"which usually includes C3 and deeper. Use intel_idle.max_cstate=1, or "
			"add processor.max_cstate=1 to limit acpi_idle too.",
		.source = "Documentation/admin-guide/pm/intel_idle.rst (max_cstate); "
			  "Documentation/admin-guide/kernel-parameters.txt (processor.max_cstate)",
		.fix_command = "sed -i 's/intel_idle.max_cstate=0/intel_idle.max_cstate=1/' "
			       "/etc/default/grub && update-grub  # then reboot",
		.fix_tune = "[bootloader] cmdline=intel_idle.max_cstate=1 processor.max_cstate=1",
		.evidence = &wakeup_evidence,
	},
};
const size_t pl_rules_power_n = sizeof(pl_rules_power) / sizeof(pl_rules_power[0]);
