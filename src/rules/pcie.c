/* SPDX-License-Identifier: GPL-3.0-or-later */
/* PCIe rules: links that trained below what both ends support (a dirty or loose card, a
 * riser, a slot wired x8, BIOS bifurcation) and devices on another NUMA node than the CPUs
 * the workload runs on. Facts: pcie.devices, one object per GPU, NIC, NVMe controller or
 * accelerator {slot, kind, speed_gts, max_speed_gts, width, max_width, numa_node,
 * local_cpus} (src/facts/pcie.c); the workload's CPUs from isolcpus=/nohz_full=. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "rules/domains.h"
#include "rules/predicates.h"
#include "util/cpuset.h"
#include "util/str.h"

static bool json_num(const json_t *o, const char *k, double *out)
{
	const json_t *v = json_object_get(o, k);
	if (!json_is_number(v))
		return false;
	*out = json_number_value(v);
	return true;
}

/* rule id "pcie.KIND-..." -> "KIND" into @buf */
static const char *rule_kind(const struct pl_rule *r, char *buf, size_t len)
{
	const char *k = r->id + strlen("pcie.");
	snprintf(buf, len, "%.*s", (int)strcspn(k, "-"), k);
	return buf;
}

static void eval_link(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	char kind[16];
	rule_kind(r, kind, sizeof(kind));
	size_t i;
	const json_t *d;
	json_array_foreach(pl_rf_list(f, "pcie.devices"), i, d)
	{
		const char *k = pl_json_str(d, "kind"), *slot = pl_json_str(d, "slot");
		double sp, msp;
		int64_t w, mw;
		if (!k || !slot || strcmp(k, kind) != 0 || !json_num(d, "speed_gts", &sp) ||
		    !json_num(d, "max_speed_gts", &msp) || !pl_rf_member_int(d, "width", &w) ||
		    !pl_rf_member_int(d, "max_width", &mw))
			continue;
		/* GPUs drop the link speed when idle (power management) and raise it under
		 * load: for them only a narrow link is a fault */
		bool slow = sp < msp && strcmp(kind, "gpu") != 0;
		if (!slow && w >= mw)
			continue;
		char obs[160], exp[64];
		snprintf(obs, sizeof(obs), "link %g GT/s x%lld of %g GT/s x%lld", sp, (long long)w,
			 msp, (long long)mw);
		snprintf(exp, sizeof(exp), "%g GT/s x%lld", msp, (long long)mw);
		pl_finding_add(out, r, slot, obs, exp);
	}
}

static void eval_remote(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	char kind[16];
	rule_kind(r, kind, sizeof(kind));
	struct pl_cpuset wl;
	const char *from;
	if (!pl_rf_workload_cpus(f, &wl, &from))
		return;
	size_t i;
	const json_t *d;
	json_array_foreach(pl_rf_list(f, "pcie.devices"), i, d)
	{
		const char *k = pl_json_str(d, "kind"), *slot = pl_json_str(d, "slot");
		const char *local = pl_json_str(d, "local_cpus");
		int64_t node;
		struct pl_cpuset lc;
		if (!k || !slot || !local || strcmp(k, kind) != 0 ||
		    !pl_rf_member_int(d, "numa_node", &node) || node < 0 ||
		    pl_cpuset_parse(local, &lc) < 0)
			continue;
		bool near = false;
		for (int c = pl_cpuset_next(&wl, 0); c >= 0 && !near;
		     c = pl_cpuset_next(&wl, (unsigned)c + 1))
			near = pl_cpuset_isset(&lc, (unsigned)c);
		if (near)
			continue;
		char wbuf[128];
		char *obs = pl_xasprintf("%s on NUMA node %lld (CPUs %s); the workload's CPUs "
					 "(%s) are %s",
					 slot, (long long)node, local, from,
					 pl_cpuset_format(&wl, wbuf, sizeof(wbuf)));
		char *exp =
			pl_xasprintf("workload on node %lld's CPUs (%s)", (long long)node, local);
		struct pl_finding *x = pl_finding_add(out, r, slot, obs, exp);
		pl_finding_set_fix(
			x,
			pl_xasprintf("numactl --cpunodebind=%lld --membind=%lld -- COMMAND",
				     (long long)node, (long long)node),
			NULL);
		free(obs);
		free(exp);
	}
}

static const char *const link_keys[] = { "pcie.devices", NULL };
static const char *const remote_keys[] = { "pcie.devices", "kernel.cmdline.params", NULL };

#define LINK_RULE(KIND, WHAT)                                                                      \
	{                                                                                          \
		.id = "pcie." KIND "-link-degraded", .workloads = PL_WL_ALL,                       \
		.severity = PL_SEV_WARN, .keys = link_keys, .eval = eval_link,                     \
		.title = "a " WHAT " PCIe link trained below its maximum",                         \
		.rationale =                                                                       \
			"The link negotiated fewer lanes or a lower generation than both "         \
			"ends support, which caps the " WHAT "'s bandwidth at a fraction "         \
			"(x8 is half of x16; each generation doubles per lane): a card not "       \
			"fully seated, a riser or retimer, a slot wired narrower, BIOS "           \
			"bifurcation or signal errors (see AER counters). Reseat or move the "     \
			"card and compare lspci -vv LnkSta with LnkCap.",                          \
		.source = "Documentation/ABI/testing/sysfs-bus-pci (current_link_speed, "          \
			  "max_link_width); lspci(8) LnkCap/LnkSta",                               \
		.fix_command = "lspci -vv -s %s | grep -E 'LnkCap|LnkSta'", .fix_tune = NULL,      \
	}

const struct pl_rule pl_rules_pcie[] = {
	LINK_RULE("gpu", "GPU"),
	LINK_RULE("nic", "network adapter"),
	LINK_RULE("nvme", "NVMe drive"),
	LINK_RULE("accel", "accelerator"),
	{
		.id = "pcie.gpu-remote-numa",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_WARN,
		.keys = remote_keys,
		.eval = eval_remote,
		.title = "a GPU sits on another NUMA node than the workload's CPUs",
		.rationale = "Host-to-device copies and kernel launches from a remote socket cross "
			     "the inter-socket link: lower copy bandwidth, higher launch latency "
			     "and remote memory for pinned buffers (the MLPerf Storage field "
			     "report: cross-socket copies at 37/28 vs 48 GB/s). Run the feeding "
			     "threads on the GPU's node (nvidia-smi topo -m shows the affinity).",
		.source = "https://docs.nvidia.com/deploy/nvidia-smi/index.html (topo); "
			  "Documentation/ABI/testing/sysfs-bus-pci (numa_node, local_cpulist)",
		.fix_command = "numactl --cpunodebind=NODE --membind=NODE -- COMMAND",
		.fix_tune = NULL,
		.evidence = &pl_numa_copy_evidence,
	},
	{
		.id = "pcie.nic-remote-numa",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_WARN,
		.keys = remote_keys,
		.eval = eval_remote,
		.title = "a network adapter sits on another NUMA node than the workload's CPUs",
		.rationale = "Packets are DMAed into memory of the NIC's node; a consumer on the "
			     "other socket reads every byte across the inter-socket link and its "
			     "IRQs and softirqs run remote. Red Hat's tuning guide: keep the "
			     "application, its memory and the NIC's IRQs on the NIC's node.",
		.source = "Red Hat Enterprise Linux 8 Monitoring and managing system status and "
			  "performance, 'Tuning the network performance' (NUMA locality)",
		.fix_command = "numactl --cpunodebind=NODE --membind=NODE -- COMMAND",
		.fix_tune = NULL,
		.evidence = &pl_numa_copy_evidence,
	},
};
const size_t pl_rules_pcie_n = sizeof(pl_rules_pcie) / sizeof(pl_rules_pcie[0]);
