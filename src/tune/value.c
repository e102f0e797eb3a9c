/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tune/value.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune/safepath.h"
#include "util/str.h"
#include "util/sysroot.h"

/* Append token [s, s+n) to @b, dropping the leading zeros of a plain decimal number. */
static void put_token(struct pl_buf *b, const char *s, size_t n)
{
	size_t i = 0;
	bool neg = false;
	if (n > 1 && (s[0] == '-' || s[0] == '+')) {
		neg = s[0] == '-';
		i = 1;
	}
	bool num = i < n;
	for (size_t k = i; k < n; k++)
		if (!isdigit((unsigned char)s[k]))
			num = false;
	if (!num) {
		pl_buf_append(b, s, n);
		return;
	}
	while (i + 1 < n && s[i] == '0')
		i++;
	if (neg && !(n - i == 1 && s[i] == '0'))
		pl_buf_puts(b, "-");
	pl_buf_append(b, s + i, n - i);
}

char *pl_tune_value_norm(const char *s)
{
	struct pl_buf b = { 0 };
	pl_buf_puts(&b, "");
	while (s && *s) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		size_t n = 0;
		while (s[n] && !isspace((unsigned char)s[n]))
			n++;
		if (b.len)
			pl_buf_puts(&b, " ");
		put_token(&b, s, n);
		s += n;
	}
	return pl_buf_steal(&b);
}

/* The "[word]" of a selection file: true with *o at '[' and *c at ']'. */
static bool selected(const char *raw, const char **o, const char **c)
{
	*o = strchr(raw, '[');
	*c = *o ? strchr(*o, ']') : NULL;
	return *o && *c && *c > *o + 1 && !memchr(*o + 1, ' ', (size_t)(*c - *o - 1));
}

char *pl_tune_value_current(const char *raw)
{
	const char *o, *c;
	if (selected(raw, &o, &c)) {
		/* A selection file: every other word is a plain choice. */
		char *w = pl_xmalloc((size_t)(c - o));
		memcpy(w, o + 1, (size_t)(c - o - 1));
		w[c - o - 1] = '\0';
		return w;
	}
	char *t = pl_xstrdup(raw);
	char *r = pl_trim(t);
	memmove(t, r, strlen(r) + 1);
	return t;
}

bool pl_tune_value_eq(const char *a, const char *b)
{
	char *na = pl_tune_value_norm(a), *nb = pl_tune_value_norm(b);
	bool eq = strcmp(na, nb) == 0;
	free(na);
	free(nb);
	return eq;
}

/* ---- checking a value before it is written ---- */

/* How a known target's value is checked. */
enum vkind {
	V_INTS,	  /* n decimal integers, each in [min, max] */
	V_CHOICE, /* one word of the list in file `choices` next to the target */
	V_SELECT, /* one word of the target's own "[a] b c" list */
	V_MASK,	  /* hex CPU mask, 32-bit groups separated by commas ("3", "ff,ffffffff") */
};

struct vtype {
	const char *pat; /* fnmatch(3) pattern of the target, '*' also matches '/' */
	enum vkind kind;
	int n;		     /* V_INTS: fields */
	long long min, max;  /* V_INTS: range of every field */
	const char *choices; /* V_CHOICE: file in the target's directory */
};

#define I32 2147483647LL
#define I64 9223372036854775807LL
#define INT1(p, lo, hi)                                                                            \
	{                                                                                          \
		p, V_INTS, 1, lo, hi, NULL                                                         \
	}

/* Known targets. Ranges are the kernel's (proc_do*_minmax bounds in kernel/sysctl.c,
 * mm/, net/core/sysctl_net_core.c, net/ipv4/sysctl_net_ipv4.c) as documented in
 * Documentation/admin-guide/sysctl/{vm,kernel,net}.rst and networking/ip-sysctl.rst;
 * where the kernel has no bound, the C type's. To add one: a row, most specific first. */
static const struct vtype vtypes[] = {
	INT1("/proc/sys/vm/swappiness", 0, 200),
	INT1("/proc/sys/vm/dirty_ratio", 0, 100),
	INT1("/proc/sys/vm/dirty_background_ratio", 0, 100),
	INT1("/proc/sys/vm/dirty_bytes", 0, I64),
	INT1("/proc/sys/vm/dirty_background_bytes", 0, I64),
	INT1("/proc/sys/vm/dirty_expire_centisecs", 0, I32),
	INT1("/proc/sys/vm/dirty_writeback_centisecs", 0, I32),
	INT1("/proc/sys/vm/vfs_cache_pressure", 0, I32),
	INT1("/proc/sys/vm/overcommit_memory", 0, 2),
	INT1("/proc/sys/vm/overcommit_ratio", 0, I64),
	INT1("/proc/sys/vm/min_free_kbytes", 0, I32),
	INT1("/proc/sys/vm/max_map_count", 0, I32),
	INT1("/proc/sys/vm/zone_reclaim_mode", 0, I32),
	INT1("/proc/sys/vm/nr_hugepages", 0, I64),
	INT1("/proc/sys/vm/stat_interval", 0, I32),
	INT1("/proc/sys/vm/watermark_scale_factor", 1, 3000),
	INT1("/proc/sys/kernel/numa_balancing", 0, 3),
	INT1("/proc/sys/kernel/nmi_watchdog", 0, 1),
	INT1("/proc/sys/kernel/watchdog", 0, 1),
	INT1("/proc/sys/kernel/sched_autogroup_enabled", 0, 1),
	INT1("/proc/sys/kernel/timer_migration", 0, 1),
	INT1("/proc/sys/kernel/randomize_va_space", 0, 2),
	INT1("/proc/sys/kernel/kptr_restrict", 0, 2),
	INT1("/proc/sys/kernel/perf_event_paranoid", -I32 - 1, I32),
	INT1("/proc/sys/kernel/sched_rt_runtime_us", -1, I32),
	INT1("/proc/sys/net/core/somaxconn", 0, I32),
	INT1("/proc/sys/net/core/rmem_max", 0, I32),
	INT1("/proc/sys/net/core/wmem_max", 0, I32),
	INT1("/proc/sys/net/core/rmem_default", 0, I32),
	INT1("/proc/sys/net/core/wmem_default", 0, I32),
	INT1("/proc/sys/net/core/optmem_max", 0, I32),
	INT1("/proc/sys/net/core/netdev_max_backlog", 0, I32),
	INT1("/proc/sys/net/core/netdev_budget", 0, I32),
	INT1("/proc/sys/net/core/netdev_budget_usecs", 0, I32),
	INT1("/proc/sys/net/core/busy_poll", 0, I32),
	INT1("/proc/sys/net/core/busy_read", 0, I32),
	{ "/proc/sys/net/ipv4/tcp_rmem", V_INTS, 3, 1, I32, NULL },
	{ "/proc/sys/net/ipv4/tcp_wmem", V_INTS, 3, 1, I32, NULL },
	{ "/proc/sys/net/ipv4/tcp_mem", V_INTS, 3, 0, I64, NULL },
	{ "/proc/sys/net/ipv4/udp_mem", V_INTS, 3, 0, I64, NULL },
	{ "/proc/sys/net/ipv4/ip_local_port_range", V_INTS, 2, 1, 65535, NULL },
	{ "/proc/sys/net/ipv4/ping_group_range", V_INTS, 2, 0, I32, NULL },
	{ "/proc/sys/net/ipv4/tcp_congestion_control", V_CHOICE, 0, 0, 0,
	  "tcp_available_congestion_control" },
	INT1("/proc/sys/net/ipv4/tcp_syn_retries", 1, 127),
	INT1("/proc/sys/net/ipv4/tcp_synack_retries", 0, 255),
	INT1("/proc/sys/net/ipv4/tcp_keepalive_time", 0, I32),
	INT1("/proc/sys/net/ipv4/tcp_keepalive_intvl", 0, I32),
	INT1("/proc/sys/net/ipv4/tcp_keepalive_probes", 0, 255),
	INT1("/proc/sys/net/ipv4/tcp_fin_timeout", 0, I32),
	INT1("/proc/sys/net/ipv4/tcp_tw_reuse", 0, 2),
	INT1("/proc/sys/net/ipv4/tcp_timestamps", 0, 2),
	INT1("/proc/sys/net/ipv4/tcp_sack", 0, 1),
	INT1("/proc/sys/net/ipv4/tcp_window_scaling", 0, 1),
	INT1("/proc/sys/net/ipv4/tcp_slow_start_after_idle", 0, 1),
	INT1("/proc/sys/net/ipv4/tcp_no_metrics_save", 0, 1),
	INT1("/proc/sys/net/ipv4/tcp_mtu_probing", 0, 2),
	INT1("/proc/sys/net/ipv4/tcp_fastopen", 0, I32),
	INT1("/proc/sys/net/ipv4/tcp_max_syn_backlog", 0, I32),
	INT1("/proc/sys/net/ipv4/tcp_notsent_lowat", 0, 4294967295LL),
	INT1("/proc/sys/net/ipv4/ip_forward", 0, 1),
	INT1("/proc/sys/net/ipv4/ip_default_ttl", 1, 255),
	INT1("/proc/sys/net/ipv4/conf/*/rp_filter", 0, 2),
	{ "/sys/devices/system/cpu/*/scaling_governor", V_CHOICE, 0, 0, 0,
	  "scaling_available_governors" },
	{ "/sys/devices/system/cpu/*/energy_performance_preference", V_CHOICE, 0, 0, 0,
	  "energy_performance_available_preferences" },
	INT1("/sys/devices/system/cpu/cpu*/power/energy_perf_bias", 0, 15),
	INT1("/sys/devices/system/cpu/intel_pstate/min_perf_pct", 0, 100),
	INT1("/sys/devices/system/cpu/intel_pstate/max_perf_pct", 0, 100),
	INT1("/sys/devices/system/cpu/intel_pstate/no_turbo", 0, 1),
	INT1("/sys/devices/system/cpu/cpufreq/boost", 0, 1),
	{ "/sys/devices/system/clocksource/*/current_clocksource", V_CHOICE, 0, 0, 0,
	  "available_clocksource" },
	{ "/sys/kernel/mm/transparent_hugepage/enabled", V_SELECT, 0, 0, 0, NULL },
	{ "/sys/kernel/mm/transparent_hugepage/defrag", V_SELECT, 0, 0, 0, NULL },
	{ "/sys/*/queue/scheduler", V_SELECT, 0, 0, 0, NULL },
	INT1("/sys/*/queue/read_ahead_kb", 0, I32),
	INT1("/sys/*/queue/nr_requests", 1, I32),
	{ "/sys/*/cpumask", V_MASK, 0, 0, 0, NULL },
};

static const struct vtype *vtype_of(const char *target)
{
	for (size_t i = 0; i < sizeof(vtypes) / sizeof(vtypes[0]); i++)
		if (fnmatch(vtypes[i].pat, target, 0) == 0)
			return &vtypes[i];
	return NULL;
}

/* One decimal integer token ("-5", "0042"): *v gets it. False for anything else (hex,
 * octal prefixes are left to the caller's normalisation: "0042" is 42 for perflab). */
static bool int_token(const char *s, long long *v)
{
	const char *d = s[0] == '-' ? s + 1 : s;
	if (!*d)
		return false;
	for (const char *p = d; *p; p++)
		if (!isdigit((unsigned char)*p))
			return false;
	errno = 0;
	char *end;
	long long x = strtoll(s, &end, 10);
	if (errno == ERANGE || *end)
		return false;
	*v = x;
	return true;
}

/* Whitespace-separated fields of @s, NULL-terminated; *n gets the count. */
static char **fields(const char *s, size_t *n)
{
	return pl_split(s ? s : "", " \t\n", n);
}

/* True when @s has at least one field and all its fields are decimal integers; *n gets
 * the number of fields. */
static bool all_ints(const char *s, size_t *n)
{
	char **f = fields(s, n);
	bool ok = *n > 0;
	long long dummy;
	for (size_t i = 0; i < *n && ok; i++)
		ok = int_token(f[i], &dummy);
	pl_strv_free(f);
	return ok;
}

static void why_set(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void why_set(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (why && len)
		vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

/* @n integers in [min, max] (@like: the current value they are shaped after, NULL for a
 * known target, whose range is then named). */
static int check_ints(const char *value, int n, long long min, long long max, const char *like,
		      char *why, size_t wl)
{
	char what[160];
	if (like)
		snprintf(what, sizeof(what), "like the current value '%s'", like);
	else
		snprintf(what, sizeof(what), "(%s%lld..%lld)", n > 1 ? "each " : "", min, max);
	size_t k;
	char **f = fields(value, &k);
	int r = 0;
	if (k != (size_t)n) {
		if (n == 1)
			why_set(why, wl, "is not a decimal integer %s", what);
		else
			why_set(why, wl, "is not %d integers separated by spaces %s", n, what);
		r = -EINVAL;
	}
	for (size_t i = 0; r == 0 && i < k; i++) {
		long long v;
		if (!int_token(f[i], &v)) {
			if (n == 1)
				why_set(why, wl, "is not a decimal integer %s", what);
			else
				why_set(why, wl, "field %zu ('%s') is not a decimal integer %s",
					i + 1, f[i], what);
			r = -EINVAL;
		} else if (v < min || v > max) {
			if (n == 1)
				why_set(why, wl, "is out of range (%lld..%lld)", min, max);
			else
				why_set(why, wl, "field %zu (%lld) is out of range (%lld..%lld)",
					i + 1, v, min, max);
			r = -EINVAL;
		}
	}
	pl_strv_free(f);
	return r;
}

/* One word of the space-separated list @avail ("[x]" brackets ignored). */
static int check_choice(const char *value, const char *avail, const char *from, char *why,
			size_t wl)
{
	char *list = pl_xstrdup(avail);
	for (char *p = list; *p; p++)
		if (*p == '[' || *p == ']')
			*p = ' ';
	size_t n;
	char **w = fields(list, &n);
	char *v = pl_xstrdup(value);
	char *t = pl_trim(v);
	bool found = false;
	for (size_t i = 0; i < n && !found; i++)
		found = strcmp(w[i], t) == 0;
	int r = 0;
	if (!found) {
		struct pl_buf b = { 0 };
		for (size_t i = 0; i < n; i++)
			pl_buf_printf(&b, "%s%s", i ? " " : "", w[i]);
		why_set(why, wl, "is not one of the available choices (%s, from %s)",
			b.data ? b.data : "none", from);
		pl_buf_free(&b);
		r = -EINVAL;
	}
	free(v);
	free(list);
	pl_strv_free(w);
	return r;
}

/* A plain word (when the list of choices cannot be read). */
static int check_word(const char *value, char *why, size_t wl)
{
	size_t n;
	char **f = fields(value, &n);
	pl_strv_free(f);
	if (n != 1) {
		why_set(why, wl, "is not a single word");
		return -EINVAL;
	}
	return 0;
}

static bool mask_ok(const char *s)
{
	char *t = pl_xstrdup(s);
	char *m = pl_trim(t);
	bool ok = *m && *m != ',';
	for (const char *p = m; *p && ok; p++)
		ok = isxdigit((unsigned char)*p) || (*p == ',' && p[1] && p[1] != ',');
	free(t);
	return ok;
}

/* A mask without commas and leading zeros, lower case ("00000000,00000003" -> "3"). */
static char *mask_norm(const char *s)
{
	struct pl_buf b = { 0 };
	pl_buf_puts(&b, "");
	for (const char *p = s; *p; p++)
		if (isxdigit((unsigned char)*p) && !(b.len == 0 && *p == '0')) {
			char c = (char)tolower((unsigned char)*p);
			pl_buf_append(&b, &c, 1);
		}
	if (b.len == 0)
		pl_buf_puts(&b, "0");
	return pl_buf_steal(&b);
}

/* True when @s has no comma, or has the kernel's mask shape: groups after the first of
 * exactly 8 digits ("ff,00000003"); "1,2" is a list, not a mask. */
static bool kernel_mask_shape(const char *s)
{
	const char *c = strchr(s, ',');
	while (c) {
		const char *n = strchr(c + 1, ',');
		size_t len = n ? (size_t)(n - c - 1) : strcspn(c + 1, " \t\n");
		if (len != 8)
			return false;
		c = n;
	}
	return true;
}

const char *pl_tune_value_match_how(const char *target, const char *got, const char *want)
{
	if (!got || !want)
		return NULL;
	if (pl_tune_value_eq(got, want))
		return "equal";
	const struct vtype *t = target ? vtype_of(target) : NULL;
	/* Hex numbers and CPU masks by value: case, leading zeros and the commas between
	 * 32-bit groups do not count (tuned's _verify_value tries int(v, 16) after
	 * stripping leading zero groups). Decimal numbers were compared above. */
	bool is_mask = t && t->kind == V_MASK;
	if (mask_ok(got) && mask_ok(want) &&
	    (is_mask || (kernel_mask_shape(got) && kernel_mask_shape(want)))) {
		char *a = mask_norm(got), *b = mask_norm(want);
		bool eq = strcmp(a, b) == 0;
		free(a);
		free(b);
		if (eq)
			return is_mask || strchr(got, ',') || strchr(want, ',')
				       ? "as CPU masks"
				       : "as hexadecimal numbers";
	}
	/* tuned's `a|b`: the current value is one of the alternatives. */
	if (strchr(want, '|')) {
		char **alts = pl_split(want, "|", NULL);
		bool any = false;
		for (size_t i = 0; alts[i] && !any; i++) {
			char *a = pl_trim(alts[i]);
			any = *a && !strchr(a, '|') && pl_tune_value_match_how(target, got, a);
		}
		pl_strv_free(alts);
		if (any)
			return "as one of the alternatives";
	}
	return NULL;
}

bool pl_tune_value_match(const char *target, const char *got, const char *want)
{
	return pl_tune_value_match_how(target, got, want) != NULL;
}

/* Value check proper, target already known to be safe. */
static int check_value(const char *target, const char *value, bool *ints, char *why, size_t wl)
{
	*ints = false;
	const struct vtype *t = vtype_of(target);
	char *raw = NULL;
	int r = 0;
	if (t && t->kind == V_INTS) {
		*ints = true;
		return check_ints(value, t->n, t->min, t->max, NULL, why, wl);
	}
	if (t && t->kind == V_MASK) {
		if (mask_ok(value))
			return 0;
		why_set(why, wl, "is not a hexadecimal CPU mask (e.g. 3 or ff,ffffffff)");
		return -EINVAL;
	}
	if (t && t->kind == V_CHOICE) {
		const char *slash = strrchr(target, '/');
		char *from = pl_xasprintf("%.*s/%s", (int)(slash - target), target, t->choices);
		if (pl_read_file(from, &raw, NULL) == 0)
			r = check_choice(value, raw, from, why, wl);
		else
			r = check_word(value, why, wl);
		free(from);
		free(raw);
		return r;
	}
	/* V_SELECT, or an unknown target: shaped like the current value. */
	if (pl_read_file(target, &raw, NULL) < 0)
		return t ? check_word(value, why, wl) : 0; /* missing: the write says so */
	const char *o, *c;
	size_t n;
	bool numeric = all_ints(raw, &n);
	if ((t && t->kind == V_SELECT) || selected(raw, &o, &c)) {
		r = check_choice(value, raw, target, why, wl);
	} else if (numeric) {
		*ints = true;
		char *like = pl_tune_value_norm(raw);
		r = check_ints(value, (int)n, -I64 - 1, I64, like, why, wl);
		free(like);
	}
	free(raw);
	return r;
}

int pl_tune_value_check(const char *target, const char *value, char **canon, char *why,
			size_t whylen)
{
	if (canon)
		*canon = NULL;
	why_set(why, whylen, "%s", "");
	char real[PATH_MAX];
	int r = pl_tune_resolve(target, real, sizeof(real));
	if (r < 0 && r != -ENOENT) {
		why_set(why, whylen, "refused: %s", pl_tune_path_strerror(r));
		return r;
	}
	if (strcmp(target, PL_TUNE_GRUB_FILE) == 0) {
		if (canon)
			*canon = pl_xstrdup(value);
		return 0;
	}
	/* A newline separates integers like a space (a value continued on indented lines,
	 * as tuned reads profiles); anywhere else it is refused with the other controls. */
	for (const char *p = value; *p; p++)
		if (((unsigned char)*p < 0x20 && *p != ' ' && *p != '\t' && *p != '\n') ||
		    *p == 0x7f) {
			why_set(why, whylen, "contains a control character");
			return -EINVAL;
		}
	size_t nf;
	if (strchr(value, '\n') && !all_ints(value, &nf)) {
		why_set(why, whylen,
			"contains a newline (only integers may continue on the next line)");
		return -EINVAL;
	}
	bool ints;
	r = check_value(target, value, &ints, why, whylen);
	if (r < 0)
		return r;
	if (canon)
		*canon = ints ? pl_tune_value_norm(value) : pl_xstrdup(value);
	return 0;
}
