/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Network stack rules: socket buffer limits, backlogs, congestion control and qdisc, slow
 * start after idle, and the risky settings from the GPU-instance field report's sysctl
 * list (tcp_timestamps=0, icmp_echo_ignore_all=1) plus tcp_tw_recycle. Meanings from
 * Documentation/networking/ip-sysctl.rst and Documentation/admin-guide/sysctl/net.rst. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "rules/domains.h"
#include "rules/predicates.h"

/* 16 MiB: tuned network-throughput's tcp_rmem/tcp_wmem maximum, and the GPU-instance
 * report's rmem_max/wmem_max; enough for 10 Gb/s at ~13 ms RTT. */
#define BUF_MAX (16 * 1024 * 1024)

/* Kernel defaults of the buffer maxima (Documentation/networking/ip-sysctl.rst: tcp_rmem
 * max 6 MiB, tcp_wmem max 4 MiB; rmem_max/wmem_max are SK_RMEM_MAX/SK_WMEM_MAX, 212992
 * bytes on 64-bit kernels with 4 KiB pages). */
static int64_t buf_default(const char *key)
{
	if (strstr(key, "tcp_rmem"))
		return 6291456;
	if (strstr(key, "tcp_wmem"))
		return 4194304;
	return 212992;
}

/* "NAME = V (SIZE[, the kernel default]: at most X Gb/s at 1 ms RTT)": the window bound
 * of a buffer maximum of @v bytes, v x 8 bit / 1 ms in Gb/s (10^9 bit/s), worked out from
 * the value seen rather than a fixed figure (a fixed "4 MiB" reads as a size, not as 1.7 Gb/s at 1
 * ms). */
static void add_buf_finding(struct pl_findings *out, const struct pl_rule *r, const char *name,
			    int64_t v)
{
	char size[32] = "";
	if (v >= (1 << 20) && v % (1 << 20) == 0)
		snprintf(size, sizeof(size), "%" PRId64 " MiB", v >> 20);
	else if (v >= 1024 && v % 1024 == 0)
		snprintf(size, sizeof(size), "%" PRId64 " KiB", v >> 10);
	else
		snprintf(size, sizeof(size), "%" PRId64 " bytes", v);
	double gbps = (double)v * 8 / 1e-3 / 1e9;
	char obs[192];
	snprintf(obs, sizeof(obs), "%s = %" PRId64 " (%s%s: at most %.*f Gb/s at 1 ms RTT)", name,
		 v, size, v == buf_default(r->keys[0]) ? ", the kernel default" : "",
		 gbps < 100 ? 1 : 0, gbps);
	pl_finding_add(out, r, NULL, obs, r->expect);
}

/* rmem_max / wmem_max below r->limit. */
static void eval_core_buf(const struct pl_rule *r, const struct pl_facts *f,
			  struct pl_findings *out)
{
	int64_t v;
	if (pl_rf_int(f, r->keys[0], &v) && v < r->limit)
		add_buf_finding(out, r, pl_rf_name(r->keys[0]), v);
}

/* The third field (max) of tcp_rmem / tcp_wmem. */
static void eval_tcp_buf(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	int64_t max;
	if (!pl_rf_vec(f, r->keys[0], 2, &max) || max >= r->limit)
		return;
	char name[96];
	snprintf(name, sizeof(name), "%s max", pl_rf_name(r->keys[0]));
	add_buf_finding(out, r, name, max);
}

static void eval_bbr_fq(const struct pl_rule *r, const struct pl_facts *f, struct pl_findings *out)
{
	const char *cc = pl_facts_get_str(f, "sysctl.net.ipv4.tcp_congestion_control");
	const char *q = pl_facts_get_str(f, "sysctl.net.core.default_qdisc");
	if (!cc || !q || strcmp(cc, "bbr") != 0 || strcmp(q, "fq") == 0)
		return;
	char obs[96];
	snprintf(obs, sizeof(obs), "tcp_congestion_control = bbr, default_qdisc = %s", q);
	pl_finding_add(out, r, NULL, obs, "default_qdisc = fq");
}

/* IPv4 or IPv6 echo ignored. */
static void eval_icmp_echo(const struct pl_rule *r, const struct pl_facts *f,
			   struct pl_findings *out)
{
	int64_t v4 = 0, v6 = 0;
	bool h4 = pl_rf_int(f, "sysctl.net.ipv4.icmp_echo_ignore_all", &v4);
	bool h6 = pl_rf_int(f, "sysctl.net.ipv6.icmp.echo_ignore_all", &v6);
	if (!(h4 && v4 == 1) && !(h6 && v6 == 1))
		return;
	char obs[128];
	snprintf(obs, sizeof(obs), "%s%s%s",
		 h4 && v4 == 1 ? "net.ipv4.icmp_echo_ignore_all = 1" : "",
		 h4 && v4 == 1 && h6 && v6 == 1 ? ", " : "",
		 h6 && v6 == 1 ? "net.ipv6.icmp.echo_ignore_all = 1" : "");
	pl_finding_add(out, r, NULL, obs, "0 (answer pings; rate-limited by icmp_ratelimit)");
}

static const char *const rmem_max_keys[] = { "sysctl.net.core.rmem_max", NULL };
static const char *const wmem_max_keys[] = { "sysctl.net.core.wmem_max", NULL };
static const char *const tcp_rmem_keys[] = { "sysctl.net.ipv4.tcp_rmem", NULL };
static const char *const tcp_wmem_keys[] = { "sysctl.net.ipv4.tcp_wmem", NULL };
static const char *const backlog_keys[] = { "sysctl.net.core.netdev_max_backlog", NULL };
static const char *const somaxconn_keys[] = { "sysctl.net.core.somaxconn", NULL };
static const char *const cc_keys[] = { "sysctl.net.ipv4.tcp_congestion_control",
				       "sysctl.net.core.default_qdisc", NULL };
static const char *const ssai_keys[] = { "sysctl.net.ipv4.tcp_slow_start_after_idle", NULL };
static const char *const ts_keys[] = { "sysctl.net.ipv4.tcp_timestamps", NULL };
static const char *const icmp_keys[] = { "sysctl.net.ipv4.icmp_echo_ignore_all",
					 "sysctl.net.ipv6.icmp.echo_ignore_all", NULL };
static const char *const tw_recycle_keys[] = { "sysctl.net.ipv4.tcp_tw_recycle", NULL };

#define NET_BUF_RATIONALE                                                                          \
	"The maximum socket buffer bounds the TCP window, and one window per round trip bounds "   \
	"throughput to at most buffer x 8 / RTT (the finding gives the bound for the value "       \
	"seen): the kernel default rmem_max/wmem_max of 212992 bytes allows at most 1.7 Gb/s at "  \
	"1 ms RTT, 4 MiB 33.6 Gb/s. MPI and bulk transfers over "                                  \
	"fast links need buffers of bandwidth x RTT. Autotuning grows buffers only up to the "     \
	"tcp_rmem/tcp_wmem maximum; rmem_max/wmem_max cap what applications request with "         \
	"SO_RCVBUF/SO_SNDBUF. Memory is used only when the window actually grows."
#define NET_BUF_SOURCE                                                                             \
	"Documentation/networking/ip-sysctl.rst (tcp_rmem, tcp_wmem); Documentation/admin-"        \
	"guide/sysctl/net.rst (rmem_max, wmem_max); tuned network-throughput; "                    \
	"https://fasterdata.es.net/host-tuning/linux/"

const struct pl_rule pl_rules_net[] = {
	{
		.id = "net.rmem-max",
		.workloads = PL_WL_NETWORK | PL_WL_THROUGHPUT,
		.severity = PL_SEV_INFO,
		.keys = rmem_max_keys,
		.eval = eval_core_buf,
		.limit = BUF_MAX,
		.expect = ">= 16777216 (16 MiB)",
		.title = "maximum socket receive buffer (rmem_max) is small",
		.rationale = NET_BUF_RATIONALE,
		.source = NET_BUF_SOURCE,
		.fix_command = "sysctl -w net.core.rmem_max=16777216",
		.fix_tune = "[sysctl] net.core.rmem_max=16777216",
	},
	{
		.id = "net.wmem-max",
		.workloads = PL_WL_NETWORK | PL_WL_THROUGHPUT,
		.severity = PL_SEV_INFO,
		.keys = wmem_max_keys,
		.eval = eval_core_buf,
		.limit = BUF_MAX,
		.expect = ">= 16777216 (16 MiB)",
		.title = "maximum socket send buffer (wmem_max) is small",
		.rationale = NET_BUF_RATIONALE,
		.source = NET_BUF_SOURCE,
		.fix_command = "sysctl -w net.core.wmem_max=16777216",
		.fix_tune = "[sysctl] net.core.wmem_max=16777216",
	},
	{
		.id = "net.tcp-rmem",
		.workloads = PL_WL_NETWORK | PL_WL_THROUGHPUT,
		.severity = PL_SEV_INFO,
		.keys = tcp_rmem_keys,
		.eval = eval_tcp_buf,
		.limit = BUF_MAX,
		.expect = "max >= 16777216 (\"4096 87380 16777216\")",
		.title = "TCP receive buffer autotuning maximum (tcp_rmem) is small",
		.rationale = NET_BUF_RATIONALE,
		.source = NET_BUF_SOURCE,
		.fix_command = "sysctl -w net.ipv4.tcp_rmem='4096 87380 16777216'",
		.fix_tune = "[sysctl] net.ipv4.tcp_rmem=4096 87380 16777216",
	},
	{
		.id = "net.tcp-wmem",
		.workloads = PL_WL_NETWORK | PL_WL_THROUGHPUT,
		.severity = PL_SEV_INFO,
		.keys = tcp_wmem_keys,
		.eval = eval_tcp_buf,
		.limit = BUF_MAX,
		.expect = "max >= 16777216 (\"4096 16384 16777216\")",
		.title = "TCP send buffer autotuning maximum (tcp_wmem) is small",
		.rationale = NET_BUF_RATIONALE,
		.source = NET_BUF_SOURCE,
		.fix_command = "sysctl -w net.ipv4.tcp_wmem='4096 16384 16777216'",
		.fix_tune = "[sysctl] net.ipv4.tcp_wmem=4096 16384 16777216",
	},
	{
		.id = "net.netdev-backlog",
		.workloads = PL_WL_NETWORK,
		.severity = PL_SEV_INFO,
		.keys = backlog_keys,
		.eval = pl_pred_below,
		.limit = 10000,
		.expect = ">= 10000",
		.title = "per-CPU input backlog (netdev_max_backlog) is short",
		.rationale =
			"netdev_max_backlog is how many received packets may wait per CPU "
			"before the network stack processes them (default 1000). Bursts at "
			"10 Gb/s and above overflow it and the packets are dropped (second "
			"column of /proc/net/softnet_stat). The GPU-instance field report sets "
			"100000 for MPI traffic.",
		.source = "Documentation/admin-guide/sysctl/net.rst (netdev_max_backlog); Red Hat "
			  "Enterprise Linux 9 'Monitoring and managing system status and "
			  "performance', tuning the network performance",
		.fix_command = "sysctl -w net.core.netdev_max_backlog=10000",
		.fix_tune = "[sysctl] net.core.netdev_max_backlog=10000",
	},
	{
		.id = "net.somaxconn",
		.workloads = PL_WL_NETWORK | PL_WL_THROUGHPUT,
		.severity = PL_SEV_INFO,
		.keys = somaxconn_keys,
		.eval = pl_pred_below,
		.limit = 4096,
		.expect = ">= 4096 (the kernel default since 5.4)",
		.title = "listen backlog limit (somaxconn) is low",
		.rationale =
			"somaxconn caps the accept queue of every listening socket; when it is "
			"full, new connections are dropped or retried after a SYN timeout (1 s "
			"and more). Linux 5.4 raised the default from 128 to 4096; the "
			"GPU-instance field report's 1024 lowers it on current kernels. tuned "
			"throughput-performance asks for at least 2048.",
		.source = "Documentation/networking/ip-sysctl.rst (somaxconn); tuned "
			  "throughput-performance (net.core.somaxconn=>2048)",
		.fix_command = "sysctl -w net.core.somaxconn=4096",
		.fix_tune = "[sysctl] net.core.somaxconn=>4096",
	},
	{
		.id = "net.congestion-control",
		.workloads = PL_WL_NETWORK,
		.severity = PL_SEV_INFO,
		.keys = cc_keys,
		.eval = pl_pred_str_differs,
		.expect = "bbr",
		.title = "TCP congestion control is not BBR",
		.rationale =
			"Loss-based congestion control (cubic, reno) backs off on every loss and "
			"fills bottleneck queues; BBR paces to the measured bandwidth and RTT, "
			"which keeps throughput up on lossy or long paths and queues short. "
			"Measure before adopting it on a LAN (perflab bench net): between "
			"hosts on one switch cubic is often as good. Use it with the fq qdisc.",
		.source = "Documentation/networking/ip-sysctl.rst (tcp_congestion_control); "
			  "https://queue.acm.org/detail.cfm?id=3022184 (BBR)",
		.fix_command = "modprobe tcp_bbr && sysctl -w net.core.default_qdisc=fq "
			       "net.ipv4.tcp_congestion_control=bbr",
		.fix_tune = "[sysctl] net.core.default_qdisc=fq\n"
			    "[sysctl] net.ipv4.tcp_congestion_control=bbr",
	},
	{
		.id = "net.bbr-qdisc",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_INFO,
		.keys = cc_keys,
		.eval = eval_bbr_fq,
		.title = "BBR runs without the fq qdisc",
		.rationale =
			"BBR sends at a paced rate. Before Linux 4.13 pacing came only from the "
			"fq qdisc and BBR without it sent in bursts; newer kernels fall back to "
			"TCP-internal pacing, which costs more CPU (a high-resolution timer per "
			"flow) than fq's. default_qdisc applies to interfaces set up after the "
			"change.",
		.source = "Documentation/networking/ip-sysctl.rst (default_qdisc); tc-fq(8); "
			  "Linux 4.13 commit \"tcp: internal implementation for pacing\"",
		.fix_command = "sysctl -w net.core.default_qdisc=fq",
		.fix_tune = "[sysctl] net.core.default_qdisc=fq",
	},
	{
		.id = "net.slow-start-after-idle",
		.workloads = PL_WL_NETWORK | PL_WL_LATENCY,
		.severity = PL_SEV_INFO,
		.keys = ssai_keys,
		.eval = pl_pred_equals,
		.limit = 1,
		.expect = "0",
		.title = "TCP restarts slow start after every idle period",
		.rationale =
			"With tcp_slow_start_after_idle=1 (default, RFC 2861) a connection that "
			"was idle longer than one RTO falls back to the initial window, so every "
			"request after a pause on a persistent connection (RPC, MPI, HTTP "
			"keep-alive) pays extra round trips. The GPU-instance field report sets 0.",
		.source = "Documentation/networking/ip-sysctl.rst (tcp_slow_start_after_idle); "
			  "RFC 2861",
		.fix_command = "sysctl -w net.ipv4.tcp_slow_start_after_idle=0",
		.fix_tune = "[sysctl] net.ipv4.tcp_slow_start_after_idle=0",
	},
	{
		.id = "net.tcp-timestamps-off",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_WARN,
		.keys = ts_keys,
		.eval = pl_pred_equals,
		.limit = 0,
		.expect = "1 (the default)",
		.risky = true,
		.title = "TCP timestamps are disabled",
		.rationale =
			"Risky: turning timestamps off (as the GPU-instance field report does) "
			"saves 12 bytes per segment but removes PAWS, the protection against "
			"wrapped sequence numbers that fast links (10 Gb/s wraps in ~3 s) "
			"need, makes RTT estimates and loss recovery coarser, and disables "
			"tcp_tw_reuse, which needs timestamps to be safe.",
		.source = "RFC 7323 (sections 3, 4 and 5); Documentation/networking/ip-sysctl.rst "
			  "(tcp_timestamps, tcp_tw_reuse)",
		.fix_command = "sysctl -w net.ipv4.tcp_timestamps=1",
		.fix_tune = "[sysctl] net.ipv4.tcp_timestamps=1",
	},
	{
		.id = "net.icmp-echo-ignored",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_WARN,
		.keys = icmp_keys,
		.eval = eval_icmp_echo,
		.risky = true,
		.title = "ICMP echo (ping) is ignored",
		.rationale = "Risky: ignoring every echo request (as the GPU-instance field report "
			     "does) gains no performance, since replies are already rate-limited, "
			     "but breaks ping-based health checks, monitoring and latency "
			     "diagnosis. Filter at the firewall if pings must be blocked.",
		.source = "Documentation/networking/ip-sysctl.rst (icmp_echo_ignore_all, "
			  "icmp_ratelimit)",
		.fix_command = "sysctl -w net.ipv4.icmp_echo_ignore_all=0 "
			       "net.ipv6.icmp.echo_ignore_all=0",
		.fix_tune = "[sysctl] net.ipv4.icmp_echo_ignore_all=0\n"
			    "[sysctl] net.ipv6.icmp.echo_ignore_all=0",
	},
	{
		.id = "net.tcp-tw-recycle",
		.workloads = PL_WL_ALL,
		.severity = PL_SEV_CRIT,
		.keys = tw_recycle_keys,
		.eval = pl_pred_equals,
		.limit = 1,
		.expect = "0 (removed in Linux 4.12)",
		.risky = true,
		.title = "tcp_tw_recycle is on: connections from clients behind NAT fail",
		.rationale =
			"Risky: tcp_tw_recycle drops SYNs whose timestamp is older than the last "
			"one seen from the same IP address. Clients behind one NAT address have "
			"unrelated timestamp clocks, so their connections fail at random. Linux "
			"4.12 removed the option for that reason; use tcp_tw_reuse for outgoing "
			"connections instead.",
		.source = "Documentation/networking/ip-sysctl.rst (tcp_tw_reuse); Linux commit "
			  "\"tcp: remove tcp_tw_recycle\" (Linux 4.12)",
		.fix_command = "sysctl -w net.ipv4.tcp_tw_recycle=0",
		.fix_tune = "[sysctl] net.ipv4.tcp_tw_recycle=0",
	},
};
const size_t pl_rules_net_n = sizeof(pl_rules_net) / sizeof(pl_rules_net[0]);
