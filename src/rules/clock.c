/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Clocksource rules. The GPU-instance field report measured gettimeofday 4.83x slower on
 * the xen clocksource than on tsc: xen's pvclock is not usable from the vDSO on many
 * kernels, so every time read becomes a syscall. kvm-clock and tsc are both vDSO-capable
 * and fine; hpet and acpi_pm are slow device reads behind a syscall everywhere. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/domains.h"
#include "rules/predicates.h"
#include "util/str.h"

static void eval_xen_tsc(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	const char *cur = pl_facts_get_str(f, "clocksource.current");
	const json_t *avail = pl_facts_value(f, "clocksource.available");
	if (!cur || strcmp(cur, "xen") != 0 || !json_is_array(avail) ||
	    !pl_json_list_has(avail, "tsc"))
		return;
	bool invariant = false;
	if (pl_facts_get_bool(f, "cpu.tsc.invariant", &invariant) && !invariant)
		return; /* an unstable TSC is why the kernel did not pick it */
	pl_finding_add(out, r, NULL, "clocksource xen (tsc available)", "tsc");
}

/* hpet / acpi_pm while a vDSO-capable source is offered. */
static void eval_slow_source(const struct pl_rule *r, const struct pl_facts *f,
			     struct pl_findings *out)
{
	static const char *const fast[] = { "tsc", "kvm-clock", "arch_sys_counter", NULL };
	const char *cur = pl_facts_get_str(f, "clocksource.current");
	const json_t *avail = pl_facts_value(f, "clocksource.available");
	if (!cur || (strcmp(cur, "hpet") != 0 && strcmp(cur, "acpi_pm") != 0) ||
	    !json_is_array(avail))
		return;
	bool invariant = true;
	pl_facts_get_bool(f, "cpu.tsc.invariant", &invariant);
	for (int i = 0; fast[i]; i++) {
		if (!pl_json_list_has(avail, fast[i]) ||
		    (strcmp(fast[i], "tsc") == 0 && !invariant))
			continue;
		char obs[96], exp[64];
		snprintf(obs, sizeof(obs), "clocksource %s (%s available)", cur, fast[i]);
		snprintf(exp, sizeof(exp), "%s", fast[i]);
		struct pl_finding *x = pl_finding_add(out, r, NULL, obs, exp);
		free(x->fix_command);
		x->fix_command = pl_xasprintf("echo %s > /sys/devices/system/clocksource/"
					      "clocksource0/current_clocksource",
					      fast[i]);
		free(x->fix_tune);
		x->fix_tune = pl_xasprintf("[bootloader] cmdline=clocksource=%s", fast[i]);
		return;
	}
}

/* Evidence: what a time read costs here, and what the system call it falls back to costs
 * (bench clock's seccomp probe says which one gettimeofday used). */
static const char *const clock_metrics[] = { "gettimeofday", "gettimeofday [syscall]", NULL };
static const struct pl_evidence clock_evidence = {
	.bench = "clock",
	.metrics = clock_metrics,
	.text = "gettimeofday costs {1} here (via {1:via}); {2} as a system call",
};

static const char *const xen_tsc_keys[] = { "clocksource.current", "clocksource.available",
					    "cpu.tsc.invariant", NULL };

const struct pl_rule pl_rules_clock[] = {
	{
		.id = "clock.xen-tsc",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_WARN,
		.keys = xen_tsc_keys,
		.eval = eval_xen_tsc,
		.title = "clocksource is xen although an invariant TSC is available",
		.rationale = "The xen pvclock clocksource makes gettimeofday/clock_gettime fall "
			     "back to a system call on many kernels; the field report measured "
			     "4.83x slower time reads than with tsc. With an invariant TSC (flags "
			     "constant_tsc and nonstop_tsc) tsc is safe. Make it permanent with "
			     "clocksource=tsc tsc=reliable on the kernel command line.",
		.source = "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/set-time.html; "
			  "Documentation/admin-guide/kernel-parameters.txt (clocksource=)",
		.fix_command = "echo tsc > "
			       "/sys/devices/system/clocksource/clocksource0/current_clocksource",
		.fix_tune = "[bootloader] cmdline=clocksource=tsc tsc=reliable",
		.evidence = &clock_evidence,
	},
	{
		.id = "clock.slow-source",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_WARN,
		.keys = xen_tsc_keys,
		.eval = eval_slow_source,
		.title = "clocksource is hpet or acpi_pm although a faster one is available",
		.rationale = "hpet and acpi_pm are read through a device register behind a system "
			     "call (about a microsecond per read), while tsc, kvm-clock and "
			     "arch_sys_counter are read in user space through the vDSO (tens of "
			     "ns). The kernel falls back to hpet when it once judged the TSC "
			     "unstable; check dmesg for 'clocksource' before switching back.",
		.source = "Documentation/admin-guide/clocksource.rst; Documentation/virt/kvm/x86/"
			  "timekeeping.rst",
		.fix_command = "echo tsc > "
			       "/sys/devices/system/clocksource/clocksource0/current_clocksource",
		.fix_tune = "[bootloader] cmdline=clocksource=tsc",
		.evidence = &clock_evidence,
	},
};
const size_t pl_rules_clock_n = sizeof(pl_rules_clock) / sizeof(pl_rules_clock[0]);
