/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Contradicting settings: a limit or tuning that another setting makes ineffective, so
 * the engineer believes something is in force that is not. Each rule names both settings
 * with their values and the one the kernel (or a daemon) actually obeys: dirty limits,
 * socket buffer maxima against TCP's autotuning maxima, the SYN backlog against
 * somaxconn, idle-state limits, tuned's governor, swappiness without swap. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/domains.h"
#include "rules/predicates.h"
#include "util/str.h"

static void eval_dirty(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	int64_t bg, fg;
	if (!pl_rf_int(f, "sysctl.vm.dirty_background_ratio", &bg) ||
	    !pl_rf_int(f, "sysctl.vm.dirty_ratio", &fg) || bg <= 0 || fg <= 0 || bg < fg)
		return;
	char obs[128], exp[64];
	snprintf(obs, sizeof(obs),
		 "vm.dirty_background_ratio = %" PRId64 " >= vm.dirty_ratio = %" PRId64
		 " (the kernel uses %" PRId64 ")",
		 bg, fg, fg / 2);
	snprintf(exp, sizeof(exp), "dirty_background_ratio < %" PRId64, fg);
	struct pl_finding *x = pl_finding_add(out, r, NULL, obs, exp);
	pl_finding_set_fix(x, pl_xasprintf("sysctl -w vm.dirty_background_ratio=%" PRId64, fg / 2),
			   pl_xasprintf("[sysctl] vm.dirty_background_ratio=%" PRId64, fg / 2));
}

/* net.core.rmem_max (wmem_max) above the third field of net.ipv4.tcp_rmem (tcp_wmem):
 * r->keys[0] the core maximum, r->keys[1] the TCP triple. */
static void eval_buf_caps(const struct pl_rule *r, const struct pl_facts *f,
			  struct pl_findings *out)
{
	int64_t core, min, def, max;
	if (!pl_rf_int(f, r->keys[0], &core) || !pl_rf_vec(f, r->keys[1], 0, &min) ||
	    !pl_rf_vec(f, r->keys[1], 1, &def) || !pl_rf_vec(f, r->keys[1], 2, &max) || core <= max)
		return;
	const char *cn = pl_rf_name(r->keys[0]), *tn = pl_rf_name(r->keys[1]);
	char obs[256], exp[128];
	snprintf(obs, sizeof(obs),
		 "%s = %" PRId64 " above %s max = %" PRId64 " (%s = %" PRId64 " %" PRId64
		 " %" PRId64 "): TCP autotuning stops at %" PRId64 " bytes",
		 cn, core, tn, max, tn, min, def, max, max);
	snprintf(exp, sizeof(exp), "%s max >= %s (%" PRId64 ")", tn, cn, core);
	struct pl_finding *x = pl_finding_add(out, r, NULL, obs, exp);
	pl_finding_set_fix(
		x,
		pl_xasprintf("sysctl -w %s='%" PRId64 " %" PRId64 " %" PRId64 "'", tn, min, def,
			     core),
		pl_xasprintf("[sysctl] %s=%" PRId64 " %" PRId64 " %" PRId64, tn, min, def, core));
}

/* net.ipv4.tcp_max_syn_backlog above net.core.somaxconn. */
static void eval_syn_backlog(const struct pl_rule *r, const struct pl_facts *f,
			     struct pl_findings *out)
{
	int64_t syn, somax;
	if (!pl_rf_int(f, "sysctl.net.ipv4.tcp_max_syn_backlog", &syn) ||
	    !pl_rf_int(f, "sysctl.net.core.somaxconn", &somax) || syn <= somax)
		return;
	char obs[224], exp[96];
	snprintf(obs, sizeof(obs),
		 "net.ipv4.tcp_max_syn_backlog = %" PRId64 " above net.core.somaxconn = %" PRId64
		 ": a listener's SYN queue holds at most %" PRId64,
		 syn, somax, somax);
	snprintf(exp, sizeof(exp),
		 "net.core.somaxconn >= net.ipv4.tcp_max_syn_backlog (%" PRId64 ")", syn);
	struct pl_finding *x = pl_finding_add(out, r, NULL, obs, exp);
	pl_finding_set_fix(x, pl_xasprintf("sysctl -w net.core.somaxconn=%" PRId64, syn),
			   pl_xasprintf("[sysctl] net.core.somaxconn=>%" PRId64, syn));
}

static void eval_intel_idle(const struct pl_rule *r, const struct pl_facts *f,
			    struct pl_findings *out)
{
	bool present;
	const char *v, *drv = pl_facts_get_str(f, "cpuidle.driver");
	/* intel_idle.max_cstate=0 disables intel_idle on purpose: then acpi_idle is right */
	if (!drv || !pl_rf_cmdline(f, "intel_idle.max_cstate", &present, &v) || !present || !v ||
	    strcmp(v, "0") == 0 || strcmp(drv, "intel_idle") == 0)
		return;
	char *obs = pl_xasprintf("intel_idle.max_cstate=%s, but the idle driver is %s", v, drv);
	struct pl_finding *x =
		pl_finding_add(out, r, NULL, obs, "processor.max_cstate for acpi_idle");
	pl_finding_set_fix(x, NULL,
			   pl_xasprintf("[bootloader] cmdline=processor.max_cstate=%s", v));
	free(obs);
}

static void eval_processor(const struct pl_rule *r, const struct pl_facts *f,
			   struct pl_findings *out)
{
	bool present, ip;
	const char *v, *iv, *drv = pl_facts_get_str(f, "cpuidle.driver");
	if (!drv || strcmp(drv, "intel_idle") != 0 ||
	    !pl_rf_cmdline(f, "processor.max_cstate", &present, &v) || !present || !v ||
	    !pl_rf_cmdline(f, "intel_idle.max_cstate", &ip, &iv) || ip)
		return;
	char *obs = pl_xasprintf("processor.max_cstate=%s, but the idle driver is intel_idle", v);
	struct pl_finding *x =
		pl_finding_add(out, r, NULL, obs, "intel_idle.max_cstate for intel_idle");
	pl_finding_set_fix(x, NULL,
			   pl_xasprintf("[bootloader] cmdline=intel_idle.max_cstate=%s", v));
	free(obs);
}

/* tuned profiles whose [cpu] unit sets a governor other than performance */
static const char *const saving_profiles[] = { "balanced", "powersave", "desktop",
					       "balanced-battery", NULL };

static void eval_tuned_governor(const struct pl_rule *r, const struct pl_facts *f,
				struct pl_findings *out)
{
	const char *prof = pl_facts_get_str(f, "services.tuned.profile");
	const char *gov = pl_facts_get_str(f, "cpufreq.governor");
	bool running;
	if (!prof || !gov || strcmp(gov, "performance") != 0 ||
	    !pl_rf_running(f, "tuned", &running) || !running)
		return;
	for (const char *const *p = saving_profiles; *p; p++)
		if (strcmp(prof, *p) == 0) {
			char *obs = pl_xasprintf("governor performance, tuned profile %s (sets a "
						 "power-saving governor)",
						 prof);
			pl_finding_add(out, r, NULL, obs,
				       "a tuned profile that sets the governor you want");
			free(obs);
			return;
		}
}

static void eval_swappiness(const struct pl_rule *r, const struct pl_facts *f,
			    struct pl_findings *out)
{
	int64_t sw, swap;
	if (!pl_rf_int(f, "sysctl.vm.swappiness", &sw) ||
	    !pl_rf_int(f, "mem.swap.total_bytes", &swap) || swap != 0 || sw == 60)
		return;
	char obs[96];
	snprintf(obs, sizeof(obs), "vm.swappiness = %" PRId64 " with no swap configured", sw);
	pl_finding_add(out, r, NULL, obs, "swap configured, or swappiness left at 60");
}

static const char *const dirty_keys[] = { "sysctl.vm.dirty_background_ratio",
					  "sysctl.vm.dirty_ratio", NULL };
static const char *const rbuf_keys[] = { "sysctl.net.core.rmem_max", "sysctl.net.ipv4.tcp_rmem",
					 NULL };
static const char *const wbuf_keys[] = { "sysctl.net.core.wmem_max", "sysctl.net.ipv4.tcp_wmem",
					 NULL };
static const char *const syn_keys[] = { "sysctl.net.ipv4.tcp_max_syn_backlog",
					"sysctl.net.core.somaxconn", NULL };
static const char *const idle_keys[] = { "kernel.cmdline.params", "cpuidle.driver", NULL };
static const char *const tuned_keys[] = { "services.tuned.profile", "cpufreq.governor",
					  "services.tuned.running", NULL };
static const char *const swap_keys[] = { "sysctl.vm.swappiness", "mem.swap.total_bytes", NULL };

const struct pl_rule pl_rules_conflict[] = {
	{
		.id = "conflict.dirty-background",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_WARN,
		.keys = dirty_keys,
		.eval = eval_dirty,
		.title = "the background writeback limit is not below the dirty limit",
		.rationale = "Background writeback must start before writers are throttled; when "
			     "dirty_background_ratio >= dirty_ratio the kernel silently uses half "
			     "of dirty_ratio instead (mm/page-writeback.c domain_dirty_limits), "
			     "so the configured background value never applies.",
		.source = "Documentation/admin-guide/sysctl/vm.rst (dirty_background_ratio, "
			  "dirty_ratio)",
		.fix_command = "sysctl -w vm.dirty_background_ratio=N",
		.fix_tune = "[sysctl] vm.dirty_background_ratio=N",
	},
	{
		.id = "conflict.rmem-max-tcp",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_WARN,
		.keys = rbuf_keys,
		.eval = eval_buf_caps,
		.title = "the socket receive buffer maximum is above TCP's autotuning maximum",
		.rationale = "net.core.rmem_max caps only what applications ask for with "
			     "SO_RCVBUF (which turns autotuning off for that socket); TCP's own "
			     "receive buffers grow up to the third field of net.ipv4.tcp_rmem and "
			     "no further. Raising rmem_max alone leaves every autotuned TCP "
			     "connection at the smaller limit (the GPU-instance report set 16 MiB "
			     "and 2 MiB).",
		.source = "Documentation/networking/ip-sysctl.rst (tcp_rmem: \"does not override "
			  "net.core.rmem_max\"); Documentation/admin-guide/sysctl/net.rst "
			  "(rmem_max); net/ipv4/tcp_input.c tcp_rcv_space_adjust",
		.fix_command = "sysctl -w net.ipv4.tcp_rmem='MIN DEFAULT RMEM_MAX'",
		.fix_tune = "[sysctl] net.ipv4.tcp_rmem=MIN DEFAULT RMEM_MAX",
	},
	{
		.id = "conflict.wmem-max-tcp",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_WARN,
		.keys = wbuf_keys,
		.eval = eval_buf_caps,
		.title = "the socket send buffer maximum is above TCP's autotuning maximum",
		.rationale = "net.core.wmem_max caps only SO_SNDBUF requests; TCP's send buffers "
			     "autotune up to the third field of net.ipv4.tcp_wmem. Raising "
			     "wmem_max alone leaves autotuned TCP connections at the smaller "
			     "limit.",
		.source = "Documentation/networking/ip-sysctl.rst (tcp_wmem); "
			  "Documentation/admin-guide/sysctl/net.rst (wmem_max); "
			  "net/ipv4/tcp_input.c tcp_sndbuf_expand",
		.fix_command = "sysctl -w net.ipv4.tcp_wmem='MIN DEFAULT WMEM_MAX'",
		.fix_tune = "[sysctl] net.ipv4.tcp_wmem=MIN DEFAULT WMEM_MAX",
	},
	{
		.id = "conflict.syn-backlog-somaxconn",
		.workloads = PL_WL_NETWORK | PL_WL_THROUGHPUT | PL_WL_LATENCY,
		.severity = PL_SEV_INFO,
		.keys = syn_keys,
		.eval = eval_syn_backlog,
		.title = "tcp_max_syn_backlog is above somaxconn, which caps it",
		.rationale = "A listener's queue of half-open connections is full at its accept "
			     "backlog, the listen() backlog capped by net.core.somaxconn "
			     "(inet_csk_reqsk_queue_is_full); tcp_max_syn_backlog only decides "
			     "when to drop early without SYN cookies. A value above somaxconn "
			     "does not lengthen any queue: raise somaxconn with it.",
		.source = "Documentation/networking/ip-sysctl.rst (tcp_max_syn_backlog, "
			  "somaxconn); include/net/inet_connection_sock.h "
			  "inet_csk_reqsk_queue_is_full; listen(2)",
		.fix_command = "sysctl -w net.core.somaxconn=N",
		.fix_tune = "[sysctl] net.core.somaxconn=>N",
	},
	{
		.id = "conflict.intel-idle-limit-unused",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_WARN,
		.keys = idle_keys,
		.eval = eval_intel_idle,
		.title = "intel_idle.max_cstate is set but intel_idle is not the idle driver",
		.rationale = "intel_idle.max_cstate limits only the intel_idle driver; with "
			     "acpi_idle, haltpoll or none in use (a VM, an AMD CPU, intel_idle "
			     "disabled) the limit does nothing and deep C-states stay enabled. "
			     "Use processor.max_cstate for acpi_idle.",
		.source = "Documentation/admin-guide/pm/intel_idle.rst; "
			  "Documentation/admin-guide/kernel-parameters.txt (processor.max_cstate)",
		.fix_command = NULL,
		.fix_tune = "[bootloader] cmdline=processor.max_cstate=1",
	},
	{
		.id = "conflict.processor-limit-unused",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_WARN,
		.keys = idle_keys,
		.eval = eval_processor,
		.title = "processor.max_cstate is set but intel_idle ignores it",
		.rationale = "processor.max_cstate limits the ACPI idle driver; intel_idle, "
			     "the driver in use here, reads its own intel_idle.max_cstate, so "
			     "the deep C-states the parameter was meant to forbid stay enabled "
			     "(the GPU-instance report set both for that reason).",
		.source = "Documentation/admin-guide/pm/intel_idle.rst (max_cstate); "
			  "Documentation/admin-guide/kernel-parameters.txt",
		.fix_command = NULL,
		.fix_tune = "[bootloader] cmdline=intel_idle.max_cstate=1",
	},
	{
		.id = "conflict.tuned-governor",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_WARN,
		.keys = tuned_keys,
		.eval = eval_tuned_governor,
		.title = "the performance governor was set by hand under a power-saving tuned "
			 "profile",
		.rationale = "tuned applies its profile's [cpu] governor at start, on profile "
			     "reload and after resume: the hand-set performance governor lasts "
			     "until the next of those, and runs before and after differ. Choose a "
			     "profile that sets what you want (throughput-performance, "
			     "latency-performance) instead of fighting it.",
		.source = "tuned-adm(8); tuned profiles balanced and powersave ([cpu] governor)",
		.fix_command = "tuned-adm profile throughput-performance",
		.fix_tune = NULL,
	},
	{
		.id = "conflict.swappiness-no-swap",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_INFO,
		.keys = swap_keys,
		.eval = eval_swappiness,
		.title = "vm.swappiness is tuned but there is no swap",
		.rationale = "Without swap the kernel cannot reclaim anonymous memory, so "
			     "reclaim scans only the page cache whatever vm.swappiness says "
			     "(mm/vmscan.c get_scan_count): the tuning is ineffective, and a "
			     "profile that relies on it to protect the cache does nothing.",
		.source = "Documentation/admin-guide/sysctl/vm.rst (swappiness)",
		.fix_command = NULL,
		.fix_tune = NULL,
	},
};
const size_t pl_rules_conflict_n = sizeof(pl_rules_conflict) / sizeof(pl_rules_conflict[0]);
