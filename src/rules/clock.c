/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Clocksource rules. The GPU-instance field report measured gettimeofday 4.83x slower on
 * the xen clocksource than on tsc: xen's pvclock is not usable from the vDSO on many
 * kernels, so every time read becomes a syscall. */
#include <stdbool.h>
#include <string.h>

#include "rules/domains.h"
#include "util/str.h"

static bool list_has(const json_t *arr, const char *s)
{
	size_t i;
	json_t *e;
	json_array_foreach(arr, i, e) if (json_is_string(e) && strcmp(json_string_value(e), s) == 0) return true;
	return false;
}

static void eval_xen_tsc(const struct pl_rule *r, const struct pl_facts *f,
			 struct pl_findings *out)
{
	const char *cur = pl_facts_get_str(f, "clocksource.current");
	const json_t *avail = pl_facts_value(f, "clocksource.available");
	if (!cur || strcmp(cur, "xen") != 0 || !json_is_array(avail) || !list_has(avail, "tsc"))
		return;
	bool invariant = false;
	if (pl_facts_get_bool(f, "cpu.tsc.invariant", &invariant) && !invariant)
		return; /* an unstable TSC is why the kernel did not pick it */
	pl_finding_add(out, r, NULL, "clocksource xen (tsc available)", "tsc");
}

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
		.fix_command = "echo tsc > /sys/devices/system/clocksource/clocksource0/current_clocksource",
		.fix_tune = "[sysfs] /sys/devices/system/clocksource/clocksource0/current_clocksource=tsc",
	},
};
const size_t pl_rules_clock_n = sizeof(pl_rules_clock) / sizeof(pl_rules_clock[0]);
