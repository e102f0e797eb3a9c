/* SPDX-License-Identifier: GPL-3.0-or-later */
/* NIC rules: how received packets are spread over CPUs (queue IRQ affinity, RPS) and the
 * ring and coalescing settings that trade throughput against latency. Facts (src/facts/
 * net.c): net.interfaces, net.IF.{queues,rps_queues,irqs,irq_cpus} and, live,
 * net.IF.{ring,coalesce}; cpu.online. Source: Documentation/networking/scaling.rst and
 * Red Hat's network performance tuning guide. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "rules/domains.h"
#include "rules/predicates.h"
#include "util/cpuset.h"
#include "util/escape.h"
#include "util/str.h"

/* Call @fn for each interface of net.interfaces. */
static void each_iface(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out,
		       void (*fn)(const struct pl_rule *, const struct pl_facts *,
				  struct pl_findings *, const char *))
{
	size_t i;
	const json_t *e;
	json_array_foreach(pl_rf_list(f, "net.interfaces"), i, e) if (json_is_string(e))
		fn(r, f, out, json_string_value(e));
}

static const json_t *iface_fact(const struct pl_facts *f, const char *ifc, const char *what)
{
	char key[256];
	snprintf(key, sizeof(key), "net.%s.%s", ifc, what);
	return pl_facts_value(f, key);
}

static void one_cpu(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out,
		    const char *ifc)
{
	const json_t *irqs = iface_fact(f, ifc, "irqs"), *cpus = iface_fact(f, ifc, "irq_cpus");
	struct pl_cpuset s;
	int64_t online;
	if (!json_is_array(irqs) || json_array_size(irqs) < 2 || !json_is_string(cpus) ||
	    pl_cpuset_parse(json_string_value(cpus), &s) < 0 || pl_cpuset_count(&s) != 1 ||
	    (pl_rf_int(f, "cpu.online", &online) && online < 2))
		return;
	char *obs = pl_xasprintf("all %zu queue IRQs of %s may run only on CPU %s",
				 json_array_size(irqs), ifc, json_string_value(cpus));
	pl_finding_add(out, r, ifc, obs, "queue IRQs spread over the CPUs of the NIC's node");
	free(obs);
}

static void eval_one_cpu(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	each_iface(r, f, out, one_cpu);
}

static void rps_off(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out,
		    const char *ifc)
{
	const json_t *q = iface_fact(f, ifc, "queues"), *rps = iface_fact(f, ifc, "rps_queues");
	int64_t online;
	if (!json_is_integer(q) || json_integer_value(q) != 1 || !json_is_integer(rps) ||
	    json_integer_value(rps) != 0 || !pl_rf_int(f, "cpu.online", &online) || online < 4)
		return;
	char *obs = pl_xasprintf("%s has one receive queue and RPS off on a %" PRId64 "-CPU host",
				 ifc, online);
	struct pl_finding *x =
		pl_finding_add(out, r, ifc, obs, "RPS spreading rx-0 over the other CPUs");
	/* every online CPU but 0 (it takes the IRQ), as the hex mask rps_cpus wants */
	struct pl_buf m = { 0 };
	int64_t n = online > 4096 ? 4096 : online;
	for (int64_t hi = ((n - 1) / 4) * 4; hi >= 0; hi -= 4) {
		unsigned nib = 0;
		for (int b = 0; b < 4; b++)
			if (hi + b < n && hi + b != 0)
				nib |= 1u << b;
		pl_buf_printf(&m, "%x", nib);
	}
	pl_autofree char *q_ifc = pl_shell_quote(ifc);
	pl_finding_set_fix(
		x, pl_xasprintf("echo %s > /sys/class/net/%s/queues/rx-0/rps_cpus", m.data, q_ifc),
		pl_xasprintf("[sysfs] /sys/class/net/%s/queues/rx-0/rps_cpus=%s", ifc, m.data));
	pl_buf_free(&m);
	free(obs);
}

static void eval_rps(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	each_iface(r, f, out, rps_off);
}

static void ring_small(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out,
		       const char *ifc)
{
	const json_t *ring = iface_fact(f, ifc, "ring");
	int64_t rx, rxm, tx, txm;
	if (!pl_rf_member_int(ring, "rx", &rx) || !pl_rf_member_int(ring, "rx_max", &rxm) ||
	    !pl_rf_member_int(ring, "tx", &tx) || !pl_rf_member_int(ring, "tx_max", &txm) ||
	    (rx >= rxm && tx >= txm))
		return;
	char *obs =
		pl_xasprintf("%s rings rx %" PRId64 " of %" PRId64 ", tx %" PRId64 " of %" PRId64,
			     ifc, rx, rxm, tx, txm);
	char *exp = pl_xasprintf("rx %" PRId64 " tx %" PRId64, rxm, txm);
	struct pl_finding *x = pl_finding_add(out, r, ifc, obs, exp);
	pl_autofree char *q_ifc = pl_shell_quote(ifc);
	pl_finding_set_fix(
		x, pl_xasprintf("ethtool -G %s rx %" PRId64 " tx %" PRId64, q_ifc, rxm, txm),
		pl_xasprintf("[net] devices=%s ring=rx %" PRId64 " tx %" PRId64, ifc, rxm, txm));
	free(obs);
	free(exp);
}

static void eval_ring(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	each_iface(r, f, out, ring_small);
}

/* rx-usecs above which coalescing alone adds measurable latency to each packet. */
#define RX_USECS_MAX 20

static void coalesce_slow(const struct pl_rule *r, const struct pl_facts *f,
			  struct pl_findings *out, const char *ifc)
{
	const json_t *c = iface_fact(f, ifc, "coalesce");
	int64_t us;
	const json_t *ad = json_object_get(c, "adaptive_rx");
	if (!pl_rf_member_int(c, "rx_usecs", &us) || !json_is_boolean(ad) ||
	    (!json_is_true(ad) && us <= RX_USECS_MAX))
		return;
	char *obs = pl_xasprintf("%s rx-usecs %" PRId64 ", adaptive-rx %s", ifc, us,
				 json_is_true(ad) ? "on" : "off");
	pl_finding_add(out, r, ifc, obs, "adaptive-rx off, rx-usecs <= 20");
	free(obs);
}

static void eval_coalesce(const struct pl_rule *r, const struct pl_facts *f,
			  struct pl_findings *out)
{
	each_iface(r, f, out, coalesce_slow);
}

static const char *const irq_keys[] = { "net.*.irq_cpus", "net.*.irqs", "net.interfaces",
					"cpu.online", NULL };
static const char *const rps_keys[] = { "net.*.rps_queues", "net.*.queues", "net.interfaces",
					"cpu.online", NULL };
static const char *const ring_keys[] = { "net.*.ring", "net.interfaces", NULL };
static const char *const coal_keys[] = { "net.*.coalesce", "net.interfaces", NULL };

const struct pl_rule pl_rules_nic[] = {
	{
		.id = "nic.irqs-one-cpu",
		/* not hpc: pinned HPC work wants IRQs kept off its CPUs (sched.irqbalance-hpc) */
		.workloads = PL_WL_GENERAL | PL_WL_LATENCY | PL_WL_THROUGHPUT | PL_WL_NETWORK |
			     PL_WL_STORAGE,
		.severity = PL_SEV_WARN,
		.keys = irq_keys,
		.eval = eval_one_cpu,
		.title = "every queue IRQ of a NIC is confined to one CPU",
		.rationale = "Multi-queue NICs spread receive work with RSS only when each queue's "
			     "interrupt lands on a different CPU; with all of them allowed only "
			     "on one CPU that CPU does every hardirq and softirq and becomes the "
			     "bottleneck (a manual smp_affinity or a stopped irqbalance leaves "
			     "this). Spread them over the CPUs of the NIC's node.",
		.source = "Documentation/networking/scaling.rst (RSS, IRQ affinity); "
			  "Documentation/core-api/irq/irq-affinity.rst",
		.fix_command = "systemctl enable --now irqbalance",
		.fix_tune = "[service] service.irqbalance=start,enable",
	},
	{
		.id = "nic.rps-off-single-queue",
		.workloads = PL_WL_NETWORK | PL_WL_THROUGHPUT,
		.severity = PL_SEV_WARN,
		.keys = rps_keys,
		.eval = eval_rps,
		.title = "RPS is off for a single-queue NIC on a many-CPU host",
		.rationale = "With one receive queue, one CPU takes every packet's interrupt and "
			     "protocol processing. Receive Packet Steering hashes flows to other "
			     "CPUs in software; the kernel documentation suggests it for "
			     "single-queue devices (virtio without multiqueue, many VMs).",
		.source = "Documentation/networking/scaling.rst (RPS: Receive Packet Steering, "
			  "Suggested Configuration)",
		.fix_command = "echo MASK > /sys/class/net/%s/queues/rx-0/rps_cpus",
		.fix_tune = "[sysfs] /sys/class/net/%s/queues/rx-0/rps_cpus=MASK",
	},
	{
		.id = "nic.ring-below-max",
		.workloads = PL_WL_THROUGHPUT | PL_WL_NETWORK | PL_WL_STORAGE,
		.severity = PL_SEV_INFO,
		.keys = ring_keys,
		.eval = eval_ring,
		.title = "NIC rings are smaller than the hardware allows",
		.rationale = "Small descriptor rings overflow during bursts and when the softirq "
			     "is late (rx_missed/rx_no_buffer counters): packets are dropped and "
			     "TCP backs off. For throughput work the maximum ring costs only "
			     "memory; latency work may prefer smaller rings for cache residency.",
		.source = "Red Hat Enterprise Linux 8 'Tuning the network performance' "
			  "(Increasing the ring buffers); ethtool(8) -G",
		.fix_command = "ethtool -G %s rx MAX tx MAX",
		.fix_tune = "[net] devices=%s ring=rx MAX tx MAX",
	},
	{
		.id = "nic.coalesce-latency",
		.workloads = PL_WL_LATENCY,
		.severity = PL_SEV_INFO,
		.keys = coal_keys,
		.eval = eval_coalesce,
		.title = "interrupt coalescing delays packets for latency work",
		.rationale = "Coalescing holds the receive interrupt for rx-usecs or until "
			     "rx-frames packets arrived, and adaptive coalescing raises the delay "
			     "under load; a request/response workload pays it on every packet. "
			     "Latency tuning turns adaptive off and lowers rx-usecs (at more "
			     "interrupts per second).",
		.source = "ethtool(8) -C; Red Hat Enterprise Linux 8 'Tuning the network "
			  "performance' (interrupt coalescence)",
		.fix_command = "ethtool -C %s adaptive-rx off rx-usecs 0",
		.fix_tune = "[net] devices=%s coalesce=adaptive-rx off rx-usecs 0",
	},
};
const size_t pl_rules_nic_n = sizeof(pl_rules_nic) / sizeof(pl_rules_nic[0]);
