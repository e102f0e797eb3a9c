/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Kernel log rules: events in the kernel ring buffer since boot that make measurements
 * wrong (an unstable clocksource, throttling, perf lowering its sample rate) or show a
 * sick machine (machine checks, lockups, hung tasks, I/O timeouts). Facts: kmsg.EVENT =
 * {count, last_s, last} (src/facts/kmsg.c). One rule per event. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "rules/domains.h"
#include "rules/predicates.h"
#include "util/str.h"

static void eval_event(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	const json_t *e = pl_facts_value(f, r->keys[0]);
	int64_t n;
	if (!pl_rf_member_int(e, "count", &n) || n <= 0)
		return;
	const json_t *t = json_object_get(e, "last_s");
	const char *last = pl_json_str(e, "last");
	char when[48] = "";
	if (json_is_number(t))
		snprintf(when, sizeof(when), " %.0f s after boot", json_number_value(t));
	char *obs = pl_xasprintf("%lld time%s, last%s: %.160s", (long long)n, n == 1 ? "" : "s",
				 when, last ? last : "?");
	pl_finding_add(out, r, NULL, obs, "none in the kernel log");
	free(obs);
}

#define KEYS(name) static const char *const name##_keys[] = { "kmsg." #name, NULL }
KEYS(clocksource_unstable);
KEYS(thermal_throttle);
KEYS(machine_check);
KEYS(perf_rate_lowered);
KEYS(hung_task);
KEYS(soft_lockup);
KEYS(nvme_timeout);
KEYS(scsi_timeout);

#define EVENT(ID, NAME, SEV, TITLE, WHY, SRC, FIX)                                                 \
	{                                                                                          \
		.id = "kmsg." ID, .workloads = PL_WL_ALL, .severity = SEV, .keys = NAME##_keys,    \
		.eval = eval_event, .title = TITLE, .rationale = WHY, .source = SRC,               \
		.fix_command = FIX, .fix_tune = NULL,                                              \
	}

const struct pl_rule pl_rules_kmsg[] = {
	EVENT("clocksource-unstable", clocksource_unstable, PL_SEV_WARN,
	      "the kernel marked a clocksource unstable",
	      "The clocksource watchdog saw the TSC (usually) drift against another clock and "
	      "switched to a slower one (hpet, acpi_pm): every clock_gettime becomes a system "
	      "call or a slow device read, and timings taken before and after disagree. Check "
	      "clocksource.current and the BIOS/hypervisor TSC settings.",
	      "Documentation/admin-guide/kernel-parameters.txt (tsc=, clocksource=); "
	      "kernel/time/clocksource.c",
	      "cat /sys/devices/system/clocksource/clocksource0/current_clocksource"),
	EVENT("thermal-throttle", thermal_throttle, PL_SEV_WARN,
	      "CPUs were throttled for temperature",
	      "A core or package crossed its thermal threshold and the hardware lowered its "
	      "clock: throughput drops and benchmark runs differ by how hot the machine was. "
	      "Check cooling, fans, airflow and power limits; the per-CPU counters are in "
	      "/sys/devices/system/cpu/cpu*/thermal_throttle/.",
	      "Documentation/ABI/testing/sysfs-devices-system-cpu (thermal_throttle)",
	      "grep . /sys/devices/system/cpu/cpu*/thermal_throttle/*_count"),
	EVENT("machine-check", machine_check, PL_SEV_CRIT, "the hardware reported machine checks",
	      "Machine check exceptions report hardware errors (corrected or not) in memory, "
	      "caches or buses. Corrected memory errors cost retries and may precede "
	      "uncorrected ones that kill processes or the machine; results on this machine are "
	      "suspect until the part is replaced. Decode them with rasdaemon or mcelog.",
	      "Documentation/admin-guide/ras.rst; rasdaemon ras-mc-ctl(8)", "ras-mc-ctl --summary"),
	EVENT("perf-rate-lowered", perf_rate_lowered, PL_SEV_INFO,
	      "perf lowered its maximum sample rate",
	      "Sampling interrupts took longer than perf_cpu_time_max_percent allows, so the "
	      "kernel lowered kernel.perf_event_max_sample_rate: profiles taken with a high "
	      "frequency get fewer samples than asked, and the interrupt cost itself was "
	      "disturbing the workload.",
	      "Documentation/admin-guide/sysctl/kernel.rst (perf_cpu_time_max_percent, "
	      "perf_event_max_sample_rate)",
	      "sysctl kernel.perf_event_max_sample_rate"),
	EVENT("hung-task", hung_task, PL_SEV_WARN, "tasks hung in uninterruptible sleep",
	      "A task stayed in D state longer than kernel.hung_task_timeout_secs: usually "
	      "I/O that did not complete (a stuck disk, NFS server, or a lock held across "
	      "I/O). Benchmarks that touched that device measured the stall.",
	      "Documentation/admin-guide/sysctl/kernel.rst (hung_task_timeout_secs)", NULL),
	EVENT("soft-lockup", soft_lockup, PL_SEV_CRIT,
	      "the kernel reported a soft lockup, hard lockup or RCU stall",
	      "A CPU ran kernel code without scheduling for seconds (soft lockup), without "
	      "taking interrupts (hard lockup) or held up an RCU grace period: in a VM often a "
	      "host that stole the vCPU, on metal a driver or firmware bug. Latencies measured "
	      "around it are meaningless.",
	      "Documentation/admin-guide/lockup-watchdogs.rst; "
	      "Documentation/RCU/stallwarn.rst",
	      NULL),
	EVENT("nvme-timeout", nvme_timeout, PL_SEV_WARN, "NVMe commands timed out",
	      "The NVMe driver aborted or reset after a command exceeded its timeout: the "
	      "drive, its firmware, power state transitions (APST) or the PCIe link stalled. "
	      "Every storage benchmark on it includes those stalls; check smartctl and the "
	      "firmware.",
	      "https://nvmexpress.org/specifications/ (command timeouts); "
	      "Documentation/admin-guide/kernel-parameters.txt (nvme_core.io_timeout)",
	      "nvme smart-log /dev/nvme0"),
	EVENT("scsi-timeout", scsi_timeout, PL_SEV_WARN, "SCSI/SATA commands timed out",
	      "The SCSI layer timed out commands and started error handling (abort, reset): "
	      "a failing disk, cable or controller, or an overloaded array. I/O measured "
	      "during error handling stalls for seconds.",
	      "Documentation/scsi/scsi_eh.rst", "smartctl -a /dev/sda"),
};
const size_t pl_rules_kmsg_n = sizeof(pl_rules_kmsg) / sizeof(pl_rules_kmsg[0]);
