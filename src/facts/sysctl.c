/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sysctl.NAME: every sysctl a rule reads (the names the caller gave to
 * pl_facts_set_sysctl_names(): check, report and inspect pass pl_rules_sysctl_names(), the
 * keys[] of every rule table starting with "sysctl.") plus a base list from the field reports (the
 * GPU instance's network/VM settings, the SPEC run's scheduler and NUMA knobs). Values are typed by
 * pl_sysctl_value_parse(). A sysctl the kernel dropped gets a reason saying so. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "facts/collectors.h"
#include "util/json.h"
#include "util/str.h"
#include "util/sysroot.h"

static const char *const base_sysctls[] = {
	/* 000 (GPU instance, MPI traffic): backlog, buffers, BBR+fq, keepalive, risky ones */
	"net.core.netdev_max_backlog",
	"net.core.netdev_budget",
	"net.core.netdev_budget_usecs",
	"net.core.somaxconn",
	"net.core.rmem_default",
	"net.core.rmem_max",
	"net.core.wmem_default",
	"net.core.wmem_max",
	"net.core.optmem_max",
	"net.core.default_qdisc",
	"net.ipv4.tcp_rmem",
	"net.ipv4.tcp_wmem",
	"net.ipv4.udp_rmem_min",
	"net.ipv4.udp_wmem_min",
	"net.ipv4.tcp_fastopen",
	"net.ipv4.tcp_max_syn_backlog",
	"net.ipv4.tcp_max_tw_buckets",
	"net.ipv4.tcp_tw_reuse",
	"net.ipv4.tcp_tw_recycle",
	"net.ipv4.tcp_fin_timeout",
	"net.ipv4.tcp_slow_start_after_idle",
	"net.ipv4.tcp_keepalive_time",
	"net.ipv4.tcp_keepalive_intvl",
	"net.ipv4.tcp_keepalive_probes",
	"net.ipv4.tcp_mtu_probing",
	"net.ipv4.tcp_timestamps",
	"net.ipv4.tcp_sack",
	"net.ipv4.tcp_window_scaling",
	"net.ipv4.tcp_congestion_control",
	"net.ipv4.tcp_available_congestion_control",
	"net.ipv4.tcp_syncookies",
	"net.ipv4.tcp_rfc1337",
	"net.ipv4.tcp_low_latency",
	"net.ipv4.ip_local_port_range",
	"net.ipv4.conf.all.rp_filter",
	"net.ipv4.conf.default.rp_filter",
	"net.ipv4.conf.all.log_martians",
	"net.ipv4.conf.default.log_martians",
	"net.ipv4.conf.all.accept_redirects",
	"net.ipv4.conf.default.accept_redirects",
	"net.ipv4.conf.all.secure_redirects",
	"net.ipv4.conf.default.secure_redirects",
	"net.ipv4.conf.all.send_redirects",
	"net.ipv4.conf.default.send_redirects",
	"net.ipv6.conf.all.accept_redirects",
	"net.ipv6.conf.default.accept_redirects",
	"net.ipv4.icmp_echo_ignore_all",
	"net.ipv6.icmp.echo_ignore_all",
	"net.core.busy_poll",
	"net.core.busy_read",
	/* VM */
	"vm.swappiness",
	"vm.dirty_ratio",
	"vm.dirty_background_ratio",
	"vm.dirty_bytes",
	"vm.dirty_background_bytes",
	"vm.dirty_expire_centisecs",
	"vm.dirty_writeback_centisecs",
	"vm.vfs_cache_pressure",
	"vm.zone_reclaim_mode",
	"vm.overcommit_memory",
	"vm.min_free_kbytes",
	"vm.nr_hugepages",
	"vm.max_map_count",
	"vm.stat_interval",
	/* 001 (SPEC run): scheduler and NUMA */
	"kernel.sched_latency_ns",
	"kernel.sched_min_granularity_ns",
	"kernel.sched_wakeup_granularity_ns",
	"kernel.sched_migration_cost_ns",
	"kernel.sched_autogroup_enabled",
	"kernel.numa_balancing",
	"kernel.timer_migration",
	"kernel.nmi_watchdog",
	"kernel.watchdog",
	"kernel.perf_event_paranoid",
	"kernel.kptr_restrict",
	"kernel.randomize_va_space",
	"fs.file-max",
	"fs.aio-max-nr",
	NULL,
};

/* Sysctls kernels dropped or moved. Version codes as pl_kernel_version_code(). */
static const struct {
	const char *name;
	uint32_t since;
	const char *reason;
	uint32_t moved; /* an earlier move, 0 when none */
	const char *moved_reason;
} removed[] = {
#define KV(a, b) ((uint32_t)(a) << 16 | (uint32_t)(b) << 8)
	{ "kernel.sched_latency_ns", KV(6, 6),
	  "not present: removed from this kernel, EEVDF since 6.6 (base slice: "
	  "/sys/kernel/debug/sched/base_slice_ns)",
	  KV(5, 13), "not present: moved to /sys/kernel/debug/sched/latency_ns in 5.13" },
	{ "kernel.sched_min_granularity_ns", KV(6, 6),
	  "not present: removed from this kernel, EEVDF since 6.6 (base slice: "
	  "/sys/kernel/debug/sched/base_slice_ns)",
	  KV(5, 13), "not present: moved to /sys/kernel/debug/sched/min_granularity_ns in 5.13" },
	{ "kernel.sched_wakeup_granularity_ns", KV(6, 6),
	  "not present: removed from this kernel, EEVDF since 6.6", KV(5, 13),
	  "not present: moved to /sys/kernel/debug/sched/wakeup_granularity_ns in 5.13" },
	{ "kernel.sched_migration_cost_ns", KV(5, 13),
	  "not present: moved to /sys/kernel/debug/sched/migration_cost_ns in 5.13", 0, NULL },
	{ "net.ipv4.tcp_tw_recycle", KV(4, 12),
	  "not present: removed from this kernel in 4.12 (broke clients behind NAT)", 0, NULL },
	{ "net.ipv4.tcp_low_latency", KV(4, 14),
	  "not present: removed from this kernel in 4.14 (no effect since the prequeue went)", 0,
	  NULL },
#undef KV
};

int pl_kernel_version_code(const char *release, uint32_t *out)
{
	if (!release)
		return -EINVAL;
	unsigned v[3] = { 0, 0, 0 };
	const char *p = release;
	int got = 0;
	for (int i = 0; i < 3; i++) {
		if (*p < '0' || *p > '9') {
			if (i < 2)
				return -EINVAL;
			break;
		}
		char *end;
		unsigned long n = strtoul(p, &end, 10);
		v[i] = n > 255 ? 255 : (unsigned)n;
		got++;
		p = end;
		if (*p != '.')
			break;
		p++;
		if (i == 0 && (*p < '0' || *p > '9'))
			return -EINVAL;
	}
	if (got < 2)
		return -EINVAL;
	*out = (uint32_t)v[0] << 16 | (uint32_t)v[1] << 8 | v[2];
	return 0;
}

const char *pl_sysctl_removed_reason(const char *name, const char *release)
{
	uint32_t code = 0;
	bool known = pl_kernel_version_code(release, &code) == 0;
	for (size_t i = 0; i < sizeof(removed) / sizeof(removed[0]); i++) {
		if (strcmp(removed[i].name, name) != 0)
			continue;
		if (!known)
			return removed[i].reason;
		if (code >= removed[i].since)
			return removed[i].reason;
		if (removed[i].moved && code >= removed[i].moved)
			return removed[i].moved_reason;
		return NULL;
	}
	return NULL;
}

json_t *pl_sysctl_value_parse(const char *s)
{
	char *copy = pl_xstrdup(s ? s : "");
	char *t = pl_trim(copy);
	size_t n;
	char **w = pl_split(t, " \t\n", &n);
	json_t *arr = json_array();
	bool ints = n > 0;
	for (size_t i = 0; i < n && ints; i++) {
		int64_t v;
		if (pl_parse_i64(w[i], &v) == 0)
			json_array_append_new(arr, json_integer(v));
		else
			ints = false;
	}
	json_t *res;
	if (ints && n == 1)
		res = json_incref(json_array_get(arr, 0));
	else if (ints)
		res = json_incref(arr);
	else
		res = pl_json_string(t);
	json_decref(arr);
	pl_strv_free(w);
	free(copy);
	return res;
}

int pl_sysctl_path(const char *name, char *buf, size_t len)
{
	if (!name || !*name || strchr(name, '/') || strstr(name, ".."))
		return -EINVAL;
	int n = snprintf(buf, len, "/proc/sys/%s", name);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	for (char *p = buf + 10; *p; p++)
		if (*p == '.')
			*p = '/';
	return 0;
}

/* The list of names to collect, deduplicated, in first-seen order. */
struct names {
	const char **v;
	size_t n, cap;
};

static void names_add(struct names *ns, const char *name)
{
	if (strchr(name, '*'))
		return;
	for (size_t i = 0; i < ns->n; i++)
		if (strcmp(ns->v[i], name) == 0)
			return;
	if (ns->n == ns->cap) {
		ns->cap = ns->cap ? ns->cap * 2 : 128;
		ns->v = pl_xrealloc(ns->v, ns->cap * sizeof(*ns->v));
	}
	ns->v[ns->n++] = name;
}

static void collect_one(struct pl_facts *f, const char *name, const char *release, bool procsys)
{
	char key[PATH_MAX], path[PATH_MAX];
	snprintf(key, sizeof(key), "sysctl.%s", name);
	if (pl_sysctl_path(name, path, sizeof(path)) < 0) {
		pl_fact_unavailable(f, key, "not a sysctl name");
		return;
	}
	char *s;
	int r = pl_read_file(path, &s, NULL);
	if (r == 0) {
		if (*pl_trim(s))
			pl_fact_set(f, key, pl_sysctl_value_parse(s), path);
		else
			pl_fact_unavailable(f, key, "%s: empty", path);
		free(s);
		return;
	}
	const char *why;
	if (r == -ENOENT && !procsys)
		pl_fact_unavailable(f, key,
				    "%s: not present: /proc/sys is not available "
				    "(container or restricted procfs)",
				    path);
	else if (r == -ENOENT && (why = pl_sysctl_removed_reason(name, release)))
		pl_fact_unavailable(f, key, "%s", why);
	else if (r == -ENOENT)
		pl_fact_unavailable(f, key,
				    "%s: not present in this kernel (or its module is not "
				    "loaded)",
				    path);
	else
		pl_fact_unavailable(f, key, "%s: %s", path, pl_read_strerror(r));
}

static const char *const *extra_names;

void pl_facts_set_sysctl_names(const char *const *names)
{
	extra_names = names;
}

void pl_collect_sysctl(struct pl_facts *f)
{
	struct names ns = { 0 };
	for (const char *const *b = base_sysctls; *b; b++)
		names_add(&ns, *b);
	for (const char *const *n = extra_names; n && *n; n++)
		names_add(&ns, *n);
	char *release = pl_kernel_release(NULL);
	bool procsys = pl_exists("/proc/sys/kernel") || pl_exists("/proc/sys/net") ||
		       pl_exists("/proc/sys/vm");
	for (size_t i = 0; i < ns.n; i++)
		collect_one(f, ns.v[i], release, procsys);
	free(release);
	free(ns.v);
}
