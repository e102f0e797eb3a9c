/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Scheduler and interrupt placement rules: adaptive-tick CPUs (nohz_full) without
 * isolation, the CFS targeted latency, and irqbalance under pinned HPC work. The SPEC CPU
 * field report tried all three by hand (RHEL 7 performance tuning guide). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/domains.h"
#include "rules/predicates.h"
#include "util/cpuset.h"
#include "util/str.h"

/* isolcpus=[flag,...,]cpulist (flags: nohz, domain, managed_irq). Returns 0 or -EINVAL. */
static int parse_isolcpus(const char *s, struct pl_cpuset *out)
{
	char **tok = pl_split(s, ",", NULL);
	struct pl_buf list = { 0 };
	for (char **t = tok; *t; t++)
		if (strcmp(*t, "nohz") != 0 && strcmp(*t, "domain") != 0 &&
		    strcmp(*t, "managed_irq") != 0)
			pl_buf_printf(&list, "%s%s", list.len ? "," : "", *t);
	pl_strv_free(tok);
	int r = pl_cpuset_parse(list.data ? list.data : "", out);
	pl_buf_free(&list);
	return r;
}

static void eval_nohz_full(const struct pl_rule *r, const struct pl_facts *f,
			   struct pl_findings *out)
{
	bool has_nohz, has_iso, has_nocb;
	const char *nohz, *iso, *nocb;
	if (!pl_rf_cmdline(f, "nohz_full", &has_nohz, &nohz) || !has_nohz || !nohz)
		return;
	pl_rf_cmdline(f, "isolcpus", &has_iso, &iso);
	pl_rf_cmdline(f, "rcu_nocbs", &has_nocb, &nocb);
	struct pl_cpuset want, have;
	if (pl_cpuset_parse(nohz, &want) < 0 || pl_cpuset_count(&want) == 0)
		return; /* malformed: the kernel ignored it too */
	pl_cpuset_clear(&have);
	if (has_iso && iso && parse_isolcpus(iso, &have) < 0)
		return;
	struct pl_cpuset missing;
	pl_cpuset_clear(&missing);
	for (int c = pl_cpuset_next(&want, 0); c >= 0; c = pl_cpuset_next(&want, (unsigned)c + 1))
		if (!pl_cpuset_isset(&have, (unsigned)c))
			pl_cpuset_set(&missing, (unsigned)c);
	if (pl_cpuset_count(&missing) == 0)
		return;
	char m[256];
	pl_cpuset_format(&missing, m, sizeof(m));
	char *obs = pl_xasprintf("nohz_full=%s; CPUs %s not in isolcpus%s%s", nohz, m,
				 has_nocb ? "; rcu_nocbs=" : "; no rcu_nocbs",
				 has_nocb && nocb ? nocb : "");
	char *exp = pl_xasprintf("isolcpus=%s rcu_nocbs=%s", nohz, nohz);
	struct pl_finding *x = pl_finding_add(out, r, NULL, obs, exp);
	free(x->fix_command);
	x->fix_command = pl_xasprintf("sed -i 's/nohz_full=/isolcpus=%s rcu_nocbs=%s &/' "
				      "/etc/default/grub && update-grub  # then reboot",
				      nohz, nohz);
	free(x->fix_tune);
	x->fix_tune = pl_xasprintf("[bootloader] cmdline=nohz_full=%s isolcpus=%s rcu_nocbs=%s",
				   nohz, nohz, nohz);
	free(obs);
	free(exp);
}

static void eval_irqbalance(const struct pl_rule *r, const struct pl_facts *f,
			    struct pl_findings *out)
{
	bool running;
	if (!pl_rf_running(f, "irqbalance", &running) || !running)
		return;
	pl_finding_add(out, r, NULL, "irqbalance running",
		       "irqbalance stopped, IRQs pinned "
		       "away from the compute CPUs");
}

/* Evidence: bench ticks loads the first nohz_full CPU and counts its timer interrupts. */
static const char *const ticks_metrics[] = { "local timer interrupts", NULL };
static const struct pl_evidence nohz_evidence = {
	.bench = "ticks",
	.metrics = ticks_metrics,
	.text = "a busy nohz_full CPU took {1} local timer interrupts (about 1/s when the "
		"tick stops, CONFIG_HZ when it does not)",
};

static const char *const nohz_keys[] = { "kernel.cmdline.params", NULL };
static const char *const sched_latency_keys[] = { "sysctl.kernel.sched_latency_ns", NULL };
static const char *const irqbalance_keys[] = { "services.irqbalance.running", NULL };

const struct pl_rule pl_rules_sched[] = {
	{
		.id = "sched.nohz-full-unisolated",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_WARN,
		.keys = nohz_keys,
		.eval = eval_nohz_full,
		.title = "nohz_full CPUs are not isolated (isolcpus/rcu_nocbs)",
		.rationale =
			"nohz_full stops the scheduler tick only while exactly one task runs on "
			"a CPU. Without isolcpus (or a cpuset) the scheduler keeps placing other "
			"tasks there and the tick comes back; kernels before RCU offloading "
			"became implicit also need rcu_nocbs for the same CPUs, or RCU "
			"callbacks keep interrupting them. The SPEC CPU field report verified "
			"1000 vs 1 local timer interrupts per second on a busy isolated CPU.",
		.source = "Documentation/timers/no_hz.rst; Documentation/admin-guide/"
			  "kernel-parameters.txt (nohz_full, isolcpus, rcu_nocbs); Red Hat "
			  "Enterprise Linux 7 Performance Tuning Guide, 'Configuring kernel tick "
			  "time'",
		.fix_command =
			"sed -i 's/nohz_full=/isolcpus=CPUS rcu_nocbs=CPUS &/' "
			"/etc/default/grub && update-grub  # CPUS = the nohz_full list; reboot",
		.fix_tune = "[bootloader] cmdline=isolcpus=CPUS rcu_nocbs=CPUS",
		.evidence = &nohz_evidence,
	},
	{
		.id = "sched.latency-ns",
		.workloads = PL_WL_LATENCY | PL_WL_NETWORK,
		.severity = PL_SEV_INFO,
		.keys = sched_latency_keys,
		.eval = pl_pred_above,
		.limit = 12000000,
		.expect = "<= 12000000 (12 ms)",
		.title = "CFS targeted latency (sched_latency_ns) is long",
		.rationale =
			"sched_latency_ns is the period in which CFS tries to run every "
			"runnable task once; longer periods mean longer waits for a woken "
			"latency-sensitive thread on a busy CPU. RHEL 7 defaults to 24 ms; the "
			"SPEC CPU field report tried 12 ms (no change for a throughput "
			"benchmark, so measure with perflab compare). The knob exists only on "
			"CFS kernels before 6.6 (moved to debugfs in 5.13, gone with EEVDF).",
		.source =
			"Documentation/scheduler/sched-design-CFS.rst; Red Hat Enterprise Linux 7 "
			"Performance Tuning Guide (kernel.sched_latency_ns)",
		.fix_command = "sysctl -w kernel.sched_latency_ns=12000000",
		.fix_tune = "[sysctl] kernel.sched_latency_ns=12000000",
	},
	{
		.id = "sched.irqbalance-hpc",
		.workloads = PL_WL_HPC,
		.severity = PL_SEV_INFO,
		.keys = irqbalance_keys,
		.eval = eval_irqbalance,
		.title = "irqbalance is running under pinned HPC work",
		.rationale =
			"irqbalance moves device interrupts between CPUs every 10 s according to "
			"load, so interrupts land on the cores where pinned MPI/OpenMP ranks "
			"run and steal cycles from them. For pinned work stop it and pin IRQs "
			"to housekeeping CPUs, or ban the compute CPUs (IRQBALANCE_BANNED_CPUS).",
		.source = "irqbalance(1); Red Hat Enterprise Linux 7 Performance Tuning Guide, "
			  "'Setting interrupt affinity' / irqbalance",
		.fix_command = "systemctl disable --now irqbalance",
		.fix_tune = "[service] service.irqbalance=stop,disable",
	},
};
const size_t pl_rules_sched_n = sizeof(pl_rules_sched) / sizeof(pl_rules_sched[0]);
