/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Benchmark noise rules (workload "benchmark"; auto-reboot also hpc): what runs or
 * changes between two runs of a benchmark on the same machine. Facts: noise.* (src/facts/
 * noise.c), cpu.smt.control, cpu.threads_per_core, sysctl.kernel.randomize_va_space.
 * Whether systemd runs (noise.systemd.running, sd_booted(3)) decides what can fire and
 * how to stop it: timers fire only under systemd, unattended upgrades start from
 * apt-daily-upgrade.timer or, without systemd, from cron (Debian's
 * /etc/cron.daily/apt-compat), and without systemd `systemctl stop` fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "rules/domains.h"
#include "rules/predicates.h"
#include "util/escape.h"
#include "util/str.h"

/* True when noise.systemd.running says systemd is not running; false when it runs or is
 * unknown (a fact missing from an older document keeps the systemd fixes). */
static bool no_systemd(const struct pl_facts *f)
{
	bool on;
	return pl_facts_get_bool(f, "noise.systemd.running", &on) && !on;
}

static void eval_reboot(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	bool on, cron;
	if (!pl_facts_get_bool(f, r->keys[0], &on) || !on)
		return;
	if (!no_systemd(f)) {
		pl_finding_add(out, r, NULL,
			       "unattended-upgrades installs updates and reboots automatically",
			       "no automatic reboot on a measurement machine");
		return;
	}
	/* without systemd only cron starts it (/etc/cron.daily/apt-compat); unknown cron
	 * state is taken as running */
	if (pl_facts_get_bool(f, "noise.cron.running", &cron) && !cron)
		return;
	struct pl_finding *x = pl_finding_add(
		out, r, NULL,
		"unattended-upgrades installs updates and reboots automatically "
		"(started by cron's /etc/cron.daily/apt-compat: systemd is not running)",
		"no automatic reboot on a measurement machine");
	pl_finding_set_fix(x,
			   pl_xstrdup("echo 'Unattended-Upgrade::Automatic-Reboot \"false\";' > "
				      "/etc/apt/apt.conf.d/99no-automatic-reboot"),
			   NULL);
}

static void eval_running(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	bool on;
	if (!pl_facts_get_bool(f, r->keys[0], &on) || !on)
		return;
	/* "noise.snapd.running" -> "snapd running" */
	const char *n = r->keys[0] + strlen("noise.");
	int len = (int)strcspn(n, ".");
	char *obs = pl_xasprintf("%.*s running", len, n);
	struct pl_finding *x = pl_finding_add(out, r, NULL, obs, "stopped while benchmarking");
	if (no_systemd(f)) /* systemctl fails; stop the process by its name */
		pl_finding_set_fix(x, pl_xasprintf("pkill -x %.*s", len, n), NULL);
	free(obs);
}

/* One finding listing the entries of the array keys[0]; the fix stops them (systemctl
 * stop, or pkill -x by name when systemd is not running). Timers never fire without
 * systemd (the fact is then unavailable; an older document may still list them). */
static void eval_list(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	const json_t *l = pl_rf_list(f, r->keys[0]);
	bool timers = strcmp(r->id, "noise.timers") == 0, nosd = no_systemd(f);
	if (!l || json_array_size(l) == 0 || (timers && nosd))
		return;
	struct pl_buf names = { 0 }, cmd = { 0 };
	size_t i;
	const json_t *e;
	json_array_foreach(l, i, e)
	{
		if (!json_is_string(e))
			continue;
		pl_autofree char *q = pl_shell_quote(json_string_value(e));
		pl_buf_printf(&names, "%s%s", names.len ? ", " : "", json_string_value(e));
		if (nosd) /* one pkill -x pattern NAME|NAME (no regex metacharacters in the agents
			     table) */
			pl_buf_printf(&cmd, "%s%s", cmd.len ? "|" : "", json_string_value(e));
		else
			pl_buf_printf(&cmd, " %s", q);
	}
	if (names.len) {
		char *obs =
			pl_xasprintf("%s: %s", timers ? "enabled timers" : "running", names.data);
		struct pl_finding *x = pl_finding_add(out, r, NULL, obs, "none while benchmarking");
		if (nosd) {
			pl_autofree char *pat = pl_shell_quote(cmd.data);
			pl_finding_set_fix(x, pl_xasprintf("pkill -x %s", pat), NULL);
		} else {
			pl_finding_set_fix(x, pl_xasprintf("systemctl stop%s", cmd.data), NULL);
		}
		free(obs);
	}
	pl_buf_free(&names);
	pl_buf_free(&cmd);
}

static void eval_smt(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	const char *c = pl_facts_get_str(f, "cpu.smt.control");
	int64_t tpc;
	if (!c || strcmp(c, "on") != 0 || !pl_rf_int(f, "cpu.threads_per_core", &tpc) || tpc < 2)
		return;
	char obs[96];
	snprintf(obs, sizeof(obs), "SMT on, %lld threads per core", (long long)tpc);
	pl_finding_add(out, r, NULL, obs,
		       "benchmark CPUs without a busy sibling (one thread per core)");
}

static void eval_aslr(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	int64_t v;
	if ((pl_rf_int(f, r->keys[0], &v) || pl_rf_int(f, "noise.aslr", &v)) && v != 0) {
		char obs[64];
		snprintf(obs, sizeof(obs), "kernel.randomize_va_space = %lld", (long long)v);
		pl_finding_add(out, r, NULL, obs, "0 for the benchmark process (setarch -R)");
	}
}

static const char *const reboot_keys[] = { "noise.unattended_upgrade.automatic_reboot",
					   "noise.systemd.running", "noise.cron.running", NULL };
static const char *const agents_keys[] = { "noise.agents", "noise.systemd.running", NULL };
static const char *const snapd_keys[] = { "noise.snapd.running", NULL };
static const char *const cron_keys[] = { "noise.cron.running", "noise.systemd.running", NULL };
static const char *const timers_keys[] = { "noise.timers", "noise.systemd.running", NULL };
static const char *const smt_keys[] = { "cpu.smt.control", "cpu.threads_per_core", NULL };
static const char *const aslr_keys[] = { "sysctl.kernel.randomize_va_space", "noise.aslr", NULL };

const struct pl_rule pl_rules_noise[] = {
	{
		.id = "noise.auto-reboot",
		.workloads = PL_WL_BENCHMARK | PL_WL_HPC,
		.severity = PL_SEV_WARN,
		.keys = reboot_keys,
		.eval = eval_reboot,
		.title = "unattended upgrades may reboot the machine",
		.rationale = "With Unattended-Upgrade::Automatic-Reboot the machine installs "
			     "packages in the background (CPU, disk, page cache) and reboots when "
			     "one needs it: a long benchmark or job is killed, and runs before and "
			     "after differ in kernel and libraries. The GPU-instance field report "
			     "configured exactly this.",
		.source = "https://wiki.debian.org/UnattendedUpgrades; apt.conf(5); the "
			  "GPU-instance field report",
		.fix_command =
			"systemctl disable --now unattended-upgrades apt-daily-upgrade.timer",
		.fix_tune = "[service] service.unattended-upgrades=stop,disable",
	},
	{
		.id = "noise.cloud-agent",
		.workloads = PL_WL_BENCHMARK,
		.severity = PL_SEV_INFO,
		.keys = agents_keys,
		.eval = eval_list,
		.title = "cloud guest agents run during benchmarks",
		.rationale = "Guest agents (AWS SSM, Google guest agent and OS Config, Azure "
			     "waagent, qemu-ga) poll their metadata service, collect inventory and "
			     "run commands on their own schedule: periodic wakeups and CPU bursts "
			     "that show up as outliers. Stop them for the measurement.",
		.source = "https://docs.aws.amazon.com/systems-manager/latest/userguide/"
			  "ssm-agent.html; https://cloud.google.com/compute/docs/images/"
			  "guest-environment",
		.fix_command = "systemctl stop AGENT",
		.fix_tune = NULL,
	},
	{
		.id = "noise.snapd",
		.workloads = PL_WL_BENCHMARK,
		.severity = PL_SEV_INFO,
		.keys = snapd_keys,
		.eval = eval_running,
		.title = "snapd runs during benchmarks",
		.rationale = "snapd refreshes snaps in the background (by default four times a "
			     "day), downloading, mounting squashfs images and restarting "
			     "services; a refresh during a run costs CPU, I/O and page cache.",
		.source = "https://snapcraft.io/docs/managing-updates (refresh.timer, "
			  "refresh.hold)",
		.fix_command = "snap refresh --hold=24h",
		.fix_tune = "[service] service.snapd=stop",
	},
	{
		.id = "noise.cron",
		.workloads = PL_WL_BENCHMARK,
		.severity = PL_SEV_INFO,
		.keys = cron_keys,
		.eval = eval_running,
		.title = "cron runs jobs during benchmarks",
		.rationale = "cron starts jobs by the clock (logrotate, man-db, updatedb, "
			     "backups): a run that spans the hour or the daily slot competes with "
			     "them for CPU and I/O. Stop cron or schedule runs around its jobs.",
		.source = "cron(8); crontab(5)",
		.fix_command = "systemctl stop cron",
		.fix_tune = "[service] service.cron=stop",
	},
	{
		.id = "noise.timers",
		.workloads = PL_WL_BENCHMARK,
		.severity = PL_SEV_INFO,
		.keys = timers_keys,
		.eval = eval_list,
		.title = "systemd timers may fire during benchmarks",
		.rationale = "Enabled timers (apt-daily, apt-daily-upgrade, fstrim, man-db, "
			     "e2scrub...) start services on a schedule with a random delay: a "
			     "package download, an fstrim of every file system or a man-db "
			     "rebuild in the middle of a run. Stop the timers while measuring.",
		.source = "systemd.timer(5); systemctl(1) list-timers",
		.fix_command = "systemctl stop TIMERS",
		.fix_tune = NULL,
	},
	{
		.id = "noise.smt-siblings",
		.workloads = PL_WL_BENCHMARK,
		.severity = PL_SEV_INFO,
		.keys = smt_keys,
		.eval = eval_smt,
		.title = "SMT siblings share cores with benchmark CPUs",
		.rationale = "Hyper-threads of a core share its execution units, L1 and L2: "
			     "anything on a benchmark CPU's sibling (another benchmark thread, "
			     "an IRQ, a daemon) changes the result. Pin to one thread per core and "
			     "keep the siblings idle, or turn SMT off for the measurement.",
		.source = "Documentation/admin-guide/hw-vuln/core-scheduling.rst; "
			  "Documentation/ABI/testing/sysfs-devices-system-cpu (smt/control)",
		.fix_command = "echo off > /sys/devices/system/cpu/smt/control",
		.fix_tune = "[sysfs] /sys/devices/system/cpu/smt/control=off",
	},
	{
		.id = "noise.aslr",
		.workloads = PL_WL_BENCHMARK,
		.severity = PL_SEV_INFO,
		.keys = aslr_keys,
		.eval = eval_aslr,
		.title = "address space layout randomisation varies benchmark layouts",
		.rationale = "ASLR places stack, heap, mmap and (PIE) code at random addresses in "
			     "each run, so cache-set and branch-predictor aliasing differ run to "
			     "run and small differences between variants drown. Run the "
			     "benchmark under setarch -R (this process only); turning it off "
			     "system-wide weakens security.",
		.source = "Documentation/admin-guide/sysctl/kernel.rst (randomize_va_space); "
			  "setarch(8)",
		.fix_command = "setarch -R COMMAND",
		.fix_tune = NULL,
	},
};
const size_t pl_rules_noise_n = sizeof(pl_rules_noise) / sizeof(pl_rules_noise[0]);
