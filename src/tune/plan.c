/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The plugins. To add one: write a `plugin_NAME(struct ctx *, unit)` that calls add()
 * for each option (one item per device) and register it in plugins[] below. */
#include "tune/plan.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <glob.h>
#include <limits.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "tune/safepath.h"
#include "tune/value.h"
#include "util/str.h"
#include "util/sysroot.h"

struct ctx {
	const struct pl_tune_profile *pr;
	struct pl_tune_plan *plan;
	char *err;
	size_t el;
	/* The CPUs and disks earlier [cpu] and [disk] units took (NULL-terminated): tuned
	 * gives each device to the first unit of its plugin that matches it. */
	char **taken_cpu, **taken_disk;
};

const char *pl_tune_state_name(enum pl_tune_state s)
{
	switch (s) {
	case PL_TI_APPLY:
		return "apply";
	case PL_TI_NA:
		return "not-applicable";
	case PL_TI_UNSUPPORTED:
		return "unsupported";
	case PL_TI_REFUSED:
		return "refused";
	default:
		return "manual";
	}
}

static struct pl_tune_item *add(struct ctx *c, const char *plugin, const struct pl_tune_unit *u,
				const struct pl_tune_opt *o, const char *device)
{
	struct pl_tune_plan *p = c->plan;
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 32;
		p->v = pl_xrealloc(p->v, p->cap * sizeof(*p->v));
	}
	struct pl_tune_item *it = &p->v[p->n++];
	memset(it, 0, sizeof(*it));
	it->plugin = pl_xstrdup(plugin);
	it->unit = pl_xstrdup(u->name);
	it->key = pl_xstrdup(o ? o->key : "*");
	it->value = pl_xstrdup(o ? (o->expanded ? o->expanded : o->value) : "");
	it->device = device ? pl_xstrdup(device) : NULL;
	it->origin = o ? pl_xasprintf("%s:%d", o->file, o->line)
		       : pl_xasprintf("%s:%d", u->file, u->line);
	it->profile = pl_xstrdup(o ? o->profile : "");
	it->state = PL_TI_APPLY;
	return it;
}

static void set_reason(struct pl_tune_item *it, enum pl_tune_state st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set_reason(struct pl_tune_item *it, enum pl_tune_state st, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct pl_buf b = { 0 };
	pl_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	free(it->reason);
	it->reason = pl_buf_steal(&b);
	it->state = st;
}

static int bad_value(struct ctx *c, const struct pl_tune_unit *u, const struct pl_tune_opt *o,
		     const char *why)
{
	snprintf(c->err, c->el, "%s:%d: profile '%s', section [%s], key '%s': value '%s' %s",
		 o->file, o->line, o->profile, u->name, o->key,
		 o->expanded ? o->expanded : o->value, why);
	return -EINVAL;
}

static const char *val(const struct pl_tune_opt *o)
{
	return o->expanded ? o->expanded : o->value;
}

/* Parse a `>N`/`<N` modifier: returns '>' or '<' and *n, 0 when none, -1 when the number
 * after the operator does not parse. */
static int modifier(const char *v, int64_t *n)
{
	if (v[0] != '>' && v[0] != '<')
		return 0;
	char *t = pl_xstrdup(v + 1);
	int r = pl_parse_i64(pl_trim(t), n);
	free(t);
	return r < 0 ? -1 : v[0];
}

/* Read the target's current value; mark NA when missing, REFUSED when the target may not
 * be written (nor read: a symlink out of the sysroot, a hard link in one). Returns true
 * when readable. */
static bool read_current(struct pl_tune_item *it, const char *what_missing)
{
	char real[PATH_MAX];
	int r = pl_tune_resolve(it->target, real, sizeof(real));
	if (r < 0 && r != -ENOENT) {
		set_reason(it, PL_TI_REFUSED, "refused: %s", pl_tune_path_strerror(r));
		return false;
	}
	char *raw;
	r = pl_read_file(it->target, &raw, NULL);
	if (r < 0) {
		if (r == -ENOENT)
			set_reason(it, PL_TI_NA, "%s", what_missing);
		else
			set_reason(it, PL_TI_NA, "cannot read %s: %s", it->target,
				   pl_read_strerror(r));
		return false;
	}
	it->current = pl_tune_value_current(raw);
	free(raw);
	return true;
}

/* Decide want/match for a value taken literally (no `>N`/`<N`). */
static void decide_literal(struct pl_tune_item *it, const char *wanted)
{
	const char *how =
		it->current ? pl_tune_value_match_how(it->target, it->current, wanted) : NULL;
	it->match = how != NULL;
	it->want = it->match ? NULL : pl_xstrdup(wanted);
	/* Say how a value that is not written the same way matched. */
	if (how && strcmp(how, "equal") != 0 && !it->reason)
		it->reason = pl_xasprintf("matches %s", how);
}

/* Decide want/match for a plain or `>N`/`<N` value. */
static void decide(struct pl_tune_item *it, const char *wanted)
{
	int64_t n, cur;
	int op = modifier(wanted, &n);
	if (op > 0) {
		if (it->current && pl_parse_i64(it->current, &cur) == 0) {
			bool ok = op == '>' ? cur >= n : cur <= n;
			it->match = ok;
			it->want = ok ? NULL : pl_xasprintf("%lld", (long long)n);
		} else {
			it->want = pl_xasprintf("%lld", (long long)n);
		}
		return;
	}
	decide_literal(it, wanted);
}

/* Check a modifier's syntax up front so a bad value is an input error. */
static int check_modifier(struct ctx *c, const struct pl_tune_unit *u, const struct pl_tune_opt *o)
{
	int64_t n;
	if (modifier(val(o), &n) < 0)
		return bad_value(c, u, o, "is not '>N' or '<N' with an integer N");
	return 0;
}

/* ---- [sysctl] ---- */

static int plugin_sysctl(struct ctx *c, const struct pl_tune_unit *u)
{
	for (size_t i = 0; i < u->opts.n; i++) {
		const struct pl_tune_opt *o = &u->opts.v[i];
		char *path;
		if (pl_tune_sysctl_path(o->key, &path) < 0) {
			snprintf(c->err, c->el,
				 "%s:%d: profile '%s', section [%s]: '%s' is not a sysctl name "
				 "(dotted "
				 "name without '..', '/' at the start or shell characters)",
				 o->file, o->line, o->profile, u->name, o->key);
			return -EINVAL;
		}
		int r = check_modifier(c, u, o);
		if (r < 0) {
			free(path);
			return r;
		}
		struct pl_tune_item *it = add(c, "sysctl", u, o, NULL);
		it->target = path;
		/* tuned's sysctl plugin refuses these two (DEPRECATED_SYSCTL_OPTIONS, by the last
		 * name component: the _ms variants replace them). */
		const char *last = strrchr(path, '/') + 1;
		if (strcmp(last, "base_reachable_time") == 0 || strcmp(last, "retrans_time") == 0) {
			set_reason(it, PL_TI_UNSUPPORTED,
				   "deprecated sysctl, refused like tuned does: use %s_ms", last);
			continue;
		}
		/* tuned's sysctl plugin drops one pair of surrounding double quotes (stock
		 * profiles write net.ipv4.tcp_rmem="4096 87380 16777216"). */
		const char *v = val(o);
		size_t vl = strlen(v);
		char *uq = vl >= 2 && v[0] == '"' && v[vl - 1] == '"'
				   ? pl_xasprintf("%.*s", (int)(vl - 2), v + 1)
				   : pl_xstrdup(v);
		if (read_current(it, "no such sysctl on this kernel"))
			decide(it, uq);
		free(uq);
	}
	return 0;
}

/* ---- [sysfs] ---- */

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int plugin_sysfs(struct ctx *c, const struct pl_tune_unit *u)
{
	for (size_t i = 0; i < u->opts.n; i++) {
		const struct pl_tune_opt *o = &u->opts.v[i];
		if (!pl_startswith(o->key, "/sys/") || strstr(o->key, "/../") ||
		    strstr(o->key, "/./") || pl_startswith(o->key, "/sys/../")) {
			snprintf(c->err, c->el,
				 "%s:%d: profile '%s', section [%s]: '%s' is not a path under /sys "
				 "(no '..')",
				 o->file, o->line, o->profile, u->name, o->key);
			return -EINVAL;
		}
		char pat[PATH_MAX];
		if (pl_sysroot_path(pat, sizeof(pat), o->key) < 0)
			continue;
		glob_t g;
		int gr = glob(pat, GLOB_NOSORT, NULL, &g);
		if (gr != 0) {
			struct pl_tune_item *it = add(c, "sysfs", u, o, NULL);
			it->target = pl_xstrdup(o->key);
			set_reason(it, PL_TI_NA, "no such file on this machine");
			continue;
		}
		size_t rl = strlen(pl_sysroot());
		qsort(g.gl_pathv, g.gl_pathc, sizeof(char *), cmp_strp);
		for (size_t k = 0; k < g.gl_pathc; k++) {
			struct pl_tune_item *it = add(c, "sysfs", u, o, NULL);
			it->target = pl_xstrdup(g.gl_pathv[k] + rl);
			/* Written as given: '>'/'<' are not modifiers here (tuned's sysfs
			 * plugin writes the value literally). */
			if (read_current(it, "no such file on this machine"))
				decide_literal(it, val(o));
		}
		globfree(&g);
	}
	return 0;
}

/* ---- devices ---- */

/* Devices of a unit: entries of @dir matching @re (e.g. cpu[0-9]+), filtered by the
 * unit's comma-separated `devices=` globs ("!" prefix excludes), less those in *taken
 * (earlier units' devices), which get the result added: tuned's
 * Plugin.assign_free_devices gives each device to one unit only, the first that matches
 * it (a profile including throughput-performance, whose [disk] takes every disk, and
 * adding [disk-nvme] devices=nvme* tunes no disk with the latter). */
static char **devices(const struct pl_tune_unit *u, const char *dir, const char *re,
		      const char *const *skip_prefix, char ***taken)
{
	char **ents = NULL;
	size_t n = 0;
	char **out = pl_xcalloc(1, sizeof(char *));
	if (pl_list_dir(dir, &ents, &n) < 0)
		return out;
	regex_t rx;
	if (regcomp(&rx, re, REG_EXTENDED | REG_NOSUB) != 0) {
		pl_strv_free(ents);
		return out;
	}
	char **globs = pl_split(u->devices, ", \t", NULL);
	size_t no = 0;
	for (size_t i = 0; i < n; i++) {
		if (regexec(&rx, ents[i], 0, NULL, 0) != 0)
			continue;
		bool skip = false;
		for (size_t k = 0; skip_prefix && skip_prefix[k]; k++)
			if (pl_startswith(ents[i], skip_prefix[k]) && strcmp(u->devices, "*") == 0)
				skip = true;
		if (skip)
			continue;
		bool in = false, anypos = false;
		for (size_t k = 0; globs[k]; k++) {
			if (globs[k][0] == '!') {
				if (fnmatch(globs[k] + 1, ents[i], 0) == 0) {
					in = false;
					break;
				}
				continue;
			}
			anypos = true;
			if (fnmatch(globs[k], ents[i], 0) == 0)
				in = true;
		}
		if (!anypos) {
			in = true;
			for (size_t k = 0; globs[k]; k++)
				if (globs[k][0] == '!' && fnmatch(globs[k] + 1, ents[i], 0) == 0)
					in = false;
		}
		size_t nt = 0;
		while (in && *taken && (*taken)[nt])
			if (strcmp((*taken)[nt++], ents[i]) == 0)
				in = false;
		if (!in)
			continue;
		*taken = pl_xrealloc(*taken, (nt + 2) * sizeof(char *));
		(*taken)[nt] = pl_xstrdup(ents[i]);
		(*taken)[nt + 1] = NULL;
		out = pl_xrealloc(out, (no + 2) * sizeof(char *));
		out[no++] = pl_xstrdup(ents[i]);
		out[no] = NULL;
	}
	regfree(&rx);
	pl_strv_free(globs);
	pl_strv_free(ents);
	return out;
}

/* Pick the first of `a|b|c` that appears in the space-separated @avail list (NULL = not
 * known: the first). Returns a malloc'd string or NULL when none is offered. */
static char *pick_alt(const char *v, const char *avail)
{
	char **alts = pl_split(v, "|", NULL);
	char *res = NULL;
	for (size_t i = 0; alts[i] && !res; i++) {
		char *a = pl_trim(alts[i]);
		if (!avail) {
			res = pl_xstrdup(a);
			break;
		}
		char **av = pl_split(avail, " \t\n", NULL);
		for (size_t k = 0; av[k]; k++)
			if (strcmp(av[k], a) == 0)
				res = pl_xstrdup(a);
		pl_strv_free(av);
	}
	pl_strv_free(alts);
	return res;
}

/* Item with alternatives: current from target, choices from @avail_path (may be NULL). */
static void decide_alt(struct pl_tune_item *it, const char *v, const char *avail_path,
		       const char *none_msg)
{
	char *avail = NULL;
	if (avail_path)
		(void)pl_read_str(avail_path, &avail);
	/* Selection files list the choices themselves: "none [mq-deadline] kyber". */
	if (!avail && it->target && strcmp(it->key, "elevator") == 0) {
		char *raw;
		if (pl_read_file(it->target, &raw, NULL) == 0) {
			for (char *s = raw; *s; s++)
				if (*s == '[' || *s == ']')
					*s = ' ';
			avail = raw;
		}
	}
	char *pick = pick_alt(v, avail);
	if (!pick) {
		set_reason(it, PL_TI_NA, "%s (offered: %s)", none_msg,
			   avail ? pl_trim(avail) : "?");
		free(avail);
		return;
	}
	free(avail);
	decide(it, pick);
	free(pick);
}

/* ---- [cpu] ---- */

static const char *const epb_names[][2] = {
	{ "performance", "0" },
	{ "balance-performance", "4" },
	{ "balance_performance", "4" },
	{ "normal", "6" },
	{ "default", "6" },
	{ "balance-power", "8" },
	{ "balance_power", "8" },
	{ "power", "15" },
	{ "powersave", "15" },
};

static char *epb_number(const char *name)
{
	for (size_t i = 0; i < sizeof(epb_names) / sizeof(epb_names[0]); i++)
		if (strcmp(name, epb_names[i][0]) == 0)
			return pl_xstrdup(epb_names[i][1]);
	uint64_t n;
	if (pl_parse_u64(name, &n) == 0 && n <= 15)
		return pl_xasprintf("%llu", (unsigned long long)n);
	return NULL;
}

static int force_latency(struct ctx *c, const struct pl_tune_unit *u, const struct pl_tune_opt *o)
{
	const char *v = val(o);
	struct pl_tune_item *it = add(c, "cpu", u, o, NULL);
	it->target = pl_xstrdup("/dev/cpu_dma_latency");
	char **alts = pl_split(v, "|", NULL);
	long usec = -1;
	bool cstate = false, bad = false;
	for (size_t i = 0; alts[i] && usec < 0; i++) {
		char *a = pl_trim(alts[i]);
		if (strcmp(a, "n/a") == 0)
			continue;
		if (pl_startswith(a, "cstate.")) {
			cstate = true;
			/* cstate.id:N / cstate.id_no_zero:N / cstate.name:NAME -> that state's exit
			 * latency in cpuidle (tuned's plugin_cpu). */
			char *colon = strchr(a, ':');
			if (!colon) {
				bad = true;
				break;
			}
			char *path = NULL;
			if (pl_startswith(a, "cstate.id:") ||
			    pl_startswith(a, "cstate.id_no_zero:")) {
				uint64_t id;
				if (pl_parse_u64(colon + 1, &id) < 0) {
					bad = true;
					break;
				}
				path = pl_xasprintf(
					"/sys/devices/system/cpu/cpu0/cpuidle/state%llu/latency",
					(unsigned long long)id);
			} else if (pl_startswith(a, "cstate.name:")) {
				char **st = NULL;
				size_t ns = 0;
				if (pl_list_dir("/sys/devices/system/cpu/cpu0/cpuidle", &st, &ns) ==
				    0) {
					for (size_t k = 0; k < ns && !path; k++) {
						char *nm = NULL;
						if (pl_read_strf(&nm,
								 "/sys/devices/system/cpu/cpu0/"
								 "cpuidle/%s/name",
								 st[k]) == 0 &&
						    strcmp(nm, colon + 1) == 0)
							path = pl_xasprintf(
								"/sys/devices/system/cpu/"
								"cpu0/cpuidle/%s/latency",
								st[k]);
						free(nm);
					}
					pl_strv_free(st);
				}
			} else {
				bad = true;
				break;
			}
			uint64_t lat;
			if (path && pl_read_u64(path, &lat) == 0)
				usec = (long)lat;
			free(path);
			continue;
		}
		int64_t n;
		if (pl_parse_i64(a, &n) < 0 || n < 0 || n > INT32_MAX) {
			bad = true;
			break;
		}
		usec = (long)n;
	}
	pl_strv_free(alts);
	if (bad)
		return bad_value(c, u, o,
				 "is not microseconds, 'n/a' or cstate.id:N / cstate.name:NAME "
				 "alternatives");
	if (usec < 0) {
		set_reason(it, PL_TI_NA, "%s",
			   cstate ? "no cpuidle driver on this machine (no C-states to limit)"
				  : "n/a: nothing to set");
		return 0;
	}
	it->want = pl_xasprintf("%ld", usec);
	if (pl_sysroot_is_live()) {
		int fd = open("/dev/cpu_dma_latency", O_RDONLY | O_CLOEXEC);
		int32_t cur;
		if (fd >= 0 && read(fd, &cur, sizeof(cur)) == (ssize_t)sizeof(cur)) {
			it->current = pl_xasprintf("%d", cur);
			it->match = cur <= usec;
		}
		if (fd >= 0)
			close(fd);
	}
	set_reason(it, PL_TI_MANUAL,
		   "a CPU latency limit lasts only while a process holds /dev/cpu_dma_latency "
		   "open: run 'perflab tune hold-latency %ld' (foreground; Ctrl-C ends it)",
		   usec);
	if (it->match) {
		free(it->want);
		it->want = NULL;
	}
	return 0;
}

/* Whether CPU @name ("cpu3") is offline: its /sys/devices/system/cpu/NAME/online says
 * something else than 1. tuned's cpu plugin (commands.is_cpu_online) skips such a CPU
 * for governor, energy_perf_bias and energy_performance_preference. (A CPU without the
 * file cannot be taken offline: online for perflab; tuned treats any but cpu0 as
 * offline then.) */
static bool cpu_offline(const char *name)
{
	pl_autofree char *path = pl_xasprintf("/sys/devices/system/cpu/%s/online", name);
	pl_autofree char *v = NULL;
	return strcmp(name, "cpu0") != 0 && pl_read_file(path, &v, NULL) == 0 &&
	       strcmp(pl_trim(v), "1") != 0;
}

static int plugin_cpu(struct ctx *c, const struct pl_tune_unit *u)
{
	static const char *const cpu_opts[] = {
		"governor",	"energy_perf_bias", "energy_performance_preference",
		"min_perf_pct", "max_perf_pct",	    "no_turbo",
		"boost",	"force_latency",    NULL
	};
	char **cpus = devices(u, "/sys/devices/system/cpu", "^cpu[0-9]+$", NULL, &c->taken_cpu);
	int r = 0;
	for (size_t i = 0; i < u->opts.n && r == 0; i++) {
		const struct pl_tune_opt *o = &u->opts.v[i];
		const char *v = val(o);
		bool known = false;
		for (size_t k = 0; cpu_opts[k]; k++)
			if (strcmp(o->key, cpu_opts[k]) == 0)
				known = true;
		if (!known) {
			struct pl_tune_item *it = add(c, "cpu", u, o, NULL);
			set_reason(it, PL_TI_UNSUPPORTED,
				   "[cpu] option '%s' is not supported by perflab", o->key);
			continue;
		}
		if (strcmp(o->key, "force_latency") == 0) {
			r = force_latency(c, u, o);
			continue;
		}
		if (strcmp(o->key, "min_perf_pct") == 0 || strcmp(o->key, "max_perf_pct") == 0 ||
		    strcmp(o->key, "no_turbo") == 0 || strcmp(o->key, "boost") == 0) {
			uint64_t n;
			bool pct = o->key[0] == 'm';
			/* No '>'/'<' here: tuned writes these values as they are (a '>50' is
			 * refused by intel_pstate), so they are checked as plain values. */
			if (!pct && (strcasecmp(v, "true") == 0 || strcasecmp(v, "yes") == 0))
				v = "1";
			else if (!pct && (strcasecmp(v, "false") == 0 || strcasecmp(v, "no") == 0))
				v = "0";
			if (pl_parse_u64(v, &n) < 0 || n > (pct ? 100 : 1)) {
				r = bad_value(c, u, o,
					      pct ? "is not a percentage 0-100" : "is not 0 or 1");
				break;
			}
			struct pl_tune_item *it = add(c, "cpu", u, o, NULL);
			bool boost = strcmp(o->key, "boost") == 0;
			it->target = pl_xasprintf("/sys/devices/system/cpu/%s/%s",
						  boost ? "cpufreq" : "intel_pstate", o->key);
			if (read_current(it, boost ? "no cpufreq boost control on this machine"
						   : "no intel_pstate driver on this machine"))
				decide(it, v);
			continue;
		}
		if (!cpus[0]) {
			struct pl_tune_item *it = add(c, "cpu", u, o, NULL);
			set_reason(
				it, PL_TI_NA,
				"no CPU matches devices=%s that an earlier [cpu] unit did not take "
				"(tuned gives each CPU to one unit)",
				u->devices);
			continue;
		}
		char *epb = NULL;
		if (strcmp(o->key, "energy_perf_bias") == 0) {
			char **alts = pl_split(v, "|", NULL);
			for (size_t k = 0; alts[k]; k++) {
				epb = epb_number(pl_trim(alts[k]));
				if (epb)
					break;
			}
			pl_strv_free(alts);
			if (!epb) {
				r = bad_value(c, u, o,
					      "is not performance, normal, powersave, "
					      "balance-performance, balance-power or 0-15");
				break;
			}
		}
		for (size_t k = 0; cpus[k]; k++) {
			struct pl_tune_item *it = add(c, "cpu", u, o, cpus[k]);
			const char *base = "/sys/devices/system/cpu";
			if (cpu_offline(cpus[k])) {
				set_reason(
					it, PL_TI_NA,
					"%s is offline (its 'online' file is not 1); tuned skips "
					"it too",
					cpus[k]);
				continue;
			}
			if (strcmp(o->key, "governor") == 0) {
				it->target = pl_xasprintf("%s/%s/cpufreq/scaling_governor", base,
							  cpus[k]);
				if (!read_current(it, "no cpufreq on this machine"))
					continue;
				char *ap = pl_xasprintf("%s/%s/cpufreq/scaling_available_governors",
							base, cpus[k]);
				decide_alt(it, v, ap, "none of these governors is offered");
				free(ap);
			} else if (strcmp(o->key, "energy_performance_preference") == 0) {
				it->target =
					pl_xasprintf("%s/%s/cpufreq/energy_performance_preference",
						     base, cpus[k]);
				if (!read_current(
					    it, "no energy_performance_preference on this machine"))
					continue;
				char *ap = pl_xasprintf(
					"%s/%s/cpufreq/energy_performance_available_preferences",
					base, cpus[k]);
				decide_alt(it, v, ap, "none of these preferences is offered");
				free(ap);
			} else {
				it->target =
					pl_xasprintf("%s/%s/power/energy_perf_bias", base, cpus[k]);
				if (read_current(it, "no energy_perf_bias on this machine"))
					decide(it, epb);
			}
		}
		free(epb);
	}
	pl_strv_free(cpus);
	return r;
}

/* ---- [vm] ---- */

static int plugin_vm(struct ctx *c, const struct pl_tune_unit *u)
{
	for (size_t i = 0; i < u->opts.n; i++) {
		const struct pl_tune_opt *o = &u->opts.v[i];
		const char *v = val(o);
		struct pl_tune_item *it;
		if (strcmp(o->key, "transparent_hugepages") == 0 ||
		    strcmp(o->key, "transparent_hugepage") == 0 ||
		    strcmp(o->key, "transparent_hugepage.defrag") == 0) {
			bool defrag = strstr(o->key, "defrag") != NULL;
			if (!defrag && strcmp(v, "always") != 0 && strcmp(v, "madvise") != 0 &&
			    strcmp(v, "never") != 0)
				return bad_value(c, u, o, "is not always, madvise or never");
			it = add(c, "vm", u, o, NULL);
			it->target = pl_xasprintf("/sys/kernel/mm/transparent_hugepage/%s",
						  defrag ? "defrag" : "enabled");
			/* tuned's vm plugin leaves THP alone when the boot command line chose
			 * (transparent_hugepage= found after the start of /proc/cmdline). */
			pl_autofree char *cmdline = NULL;
			const char *at = NULL;
			if (!defrag && pl_read_file("/proc/cmdline", &cmdline, NULL) == 0)
				at = strstr(cmdline, "transparent_hugepage=");
			if (at && at > cmdline) {
				set_reason(it, PL_TI_NA,
					   "the kernel command line sets transparent_hugepage=, "
					   "which tuned keeps too");
				continue;
			}
			if (read_current(it, "no transparent hugepages on this kernel"))
				decide(it, v);
			continue;
		}
		if (strcmp(o->key, "dirty_bytes") == 0 || strcmp(o->key, "dirty_ratio") == 0 ||
		    strcmp(o->key, "dirty_background_bytes") == 0 ||
		    strcmp(o->key, "dirty_background_ratio") == 0) {
			/* tuned: dirty_bytes=N% means dirty_ratio=N. */
			char *t = pl_xstrdup(v);
			size_t l = strlen(t);
			bool pct = l > 0 && t[l - 1] == '%';
			if (pct)
				t[l - 1] = '\0';
			uint64_t n;
			bool bg = strstr(o->key, "background") != NULL;
			bool ratio_key = strstr(o->key, "ratio") != NULL;
			int r = pl_parse_u64(t, &n);
			if (r < 0 || ((pct || ratio_key) && n > 100)) {
				free(t);
				return bad_value(
					c, u, o,
					"is not a byte count or a percentage 'N%' (0-100)");
			}
			it = add(c, "vm", u, o, NULL);
			it->target =
				pl_xasprintf("/proc/sys/vm/dirty_%s%s", bg ? "background_" : "",
					     pct || ratio_key ? "ratio" : "bytes");
			if (read_current(it, "no such sysctl on this kernel"))
				decide(it, t);
			free(t);
			continue;
		}
		it = add(c, "vm", u, o, NULL);
		set_reason(it, PL_TI_UNSUPPORTED, "[vm] option '%s' is not supported by perflab",
			   o->key);
	}
	return 0;
}

/* ---- [disk] ---- */

/* The readahead value to decide with (KiB, a leading '>'/'<' kept), as tuned's disk
 * plugin reads it (_parse_ra after _process_assignment_modifiers): "N", or "N WORD" where
 * a WORD starting with 's' means 512-byte sectors (halved, rounded down) and any other
 * WORD is ignored; ">N"/"<N" only with a plain integer N (">8192 s" is not a modifier
 * for tuned, then not a number: it writes nothing). NULL for anything else. Malloc'd. */
static char *readahead_value(const char *v)
{
	char op = v[0] == '>' || v[0] == '<' ? v[0] : 0;
	pl_autofree char *t = pl_xstrdup(op ? v + 1 : v);
	char *num = pl_trim(t);
	uint64_t n;
	if (op)
		return *num && strspn(num, "0123456789") == strlen(num) &&
				       pl_parse_u64(num, &n) == 0
			       ? pl_xasprintf("%c%llu", op, (unsigned long long)n)
			       : NULL;
	size_t dl = strspn(num, "0123456789");
	if (dl == 0 || (num[dl] && !isspace((unsigned char)num[dl])))
		return NULL;
	char *word = num + dl;
	while (isspace((unsigned char)*word))
		*word++ = '\0';
	if (pl_parse_u64(num, &n) < 0)
		return NULL;
	return pl_xasprintf("%llu", (unsigned long long)(word[0] == 's' ? n / 2 : n));
}

/* Whether tuned's disk plugin tunes block device @name at all, whatever devices= says
 * (DiskPlugin._device_is_supported, tuned 2.20): not removable (/sys/block/NAME/removable
 * is "0"), and either virtual (no device link) or on a scsi, virtio, xen or nvme parent
 * (the subsystem link of /sys/block/NAME/device). A CD drive or an SD card is never tuned. */
static bool disk_supported(const char *name)
{
	pl_autofree char *rem_path = pl_xasprintf("/sys/block/%s/removable", name);
	pl_autofree char *rem = NULL;
	if (pl_read_file(rem_path, &rem, NULL) == 0 && strcmp(pl_trim(rem), "0") != 0)
		return false;
	pl_autofree char *link = pl_xasprintf("/sys/block/%s/device/subsystem", name);
	pl_autofree char *target = NULL;
	if (pl_readlink(link, &target) < 0)
		return true;
	const char *sub = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	return strcmp(sub, "scsi") == 0 || strcmp(sub, "virtio") == 0 || strcmp(sub, "xen") == 0 ||
	       strcmp(sub, "nvme") == 0;
}

static int plugin_disk(struct ctx *c, const struct pl_tune_unit *u)
{
	static const char *const skip[] = { "loop", "ram", "zram", "sr", "fd", "dm-", "md", NULL };
	char **devs = devices(u, "/sys/block", "^[a-zA-Z]", skip, &c->taken_disk);
	size_t nd = 0;
	for (size_t k = 0; devs[k]; k++) {
		if (disk_supported(devs[k]))
			devs[nd++] = devs[k];
		else
			free(devs[k]);
	}
	devs[nd] = NULL;
	int r = 0;
	for (size_t i = 0; i < u->opts.n && r == 0; i++) {
		const struct pl_tune_opt *o = &u->opts.v[i];
		const char *v = val(o);
		const char *file = NULL;
		char *want = NULL, *ra_first = NULL;
		double mult = -1;
		if (strcmp(o->key, "elevator") == 0) {
			file = "scheduler";
		} else if (strcmp(o->key, "readahead") == 0) {
			file = "read_ahead_kb";
			want = readahead_value(v);
			if (!want) {
				r = bad_value(
					c, u, o,
					"is not a readahead tuned accepts ('N' KiB, 'N s' for "
					"512-byte sectors, '>N', '<N'; tuned writes nothing "
					"for it)");
				break;
			}
		} else if (strcmp(o->key, "readahead_multiply") == 0) {
			/* tuned: the readahead becomes int(F * current) KiB (after a readahead=
			 * of the same unit, which tuned applies first). */
			file = "read_ahead_kb";
			char *end;
			errno = 0;
			mult = strtod(v, &end);
			if (errno || end == v || *end || !(mult >= 0) || mult > 1e6) {
				r = bad_value(c, u, o, "is not a factor (a number >= 0)");
				break;
			}
			const struct pl_tune_opt *ra = pl_tune_opts_get(&u->opts, "readahead");
			ra_first = ra ? readahead_value(val(ra)) : NULL;
		} else if (strcmp(o->key, "nr_requests") == 0) {
			file = "nr_requests";
			uint64_t n;
			if ((r = check_modifier(c, u, o)) < 0)
				break;
			if (v[0] != '>' && v[0] != '<' && pl_parse_u64(v, &n) < 0) {
				r = bad_value(c, u, o, "is not a number of requests");
				break;
			}
		} else {
			struct pl_tune_item *it = add(c, "disk", u, o, NULL);
			set_reason(it, PL_TI_UNSUPPORTED,
				   "[disk] option '%s' is not supported by perflab", o->key);
			continue;
		}
		if (!devs[0]) {
			struct pl_tune_item *it = add(c, "disk", u, o, NULL);
			set_reason(it, PL_TI_NA,
				   "no disk matches devices=%s that an earlier [disk] unit did not "
				   "take (tuned gives each disk to one unit)",
				   u->devices);
		}
		for (size_t k = 0; devs[k]; k++) {
			struct pl_tune_item *it = add(c, "disk", u, o, devs[k]);
			it->target = pl_xasprintf("/sys/block/%s/queue/%s", devs[k], file);
			if (!read_current(it, "no such queue setting for this device"))
				continue;
			uint64_t base;
			if (strcmp(file, "scheduler") == 0) {
				decide_alt(it, v, NULL, "none of these schedulers is offered");
			} else if (mult >= 0) {
				const char *b = ra_first && isdigit((unsigned char)ra_first[0])
							? ra_first
							: it->current;
				if (pl_parse_u64(b, &base) < 0) {
					set_reason(it, PL_TI_NA,
						   "the readahead '%s' is not a number", b);
					continue;
				}
				pl_autofree char *n = pl_xasprintf(
					"%llu", (unsigned long long)(mult * (double)base));
				decide(it, n);
			} else {
				decide(it, want ? want : v);
			}
		}
		free(want);
		free(ra_first);
	}
	pl_strv_free(devs);
	return r;
}

/* ---- [bootloader] ---- */

/* The value of the last GRUB_CMDLINE_LINUX= line in @file (the one the shell keeps when
 * update-grub sources the file), quotes removed, or NULL when absent; *line_start and
 * *line_end delimit that line. *safe is false when the value cannot be rewritten as
 * "TOKENS" with the same meaning to the shell: more than one quoted string, a comment
 * or code after it, or inside the quotes a character that double quotes would read
 * differently (a quote, a backslash, a backquote, $(...) or ${...}; any '$' in single
 * quotes or unquoted). perflab then leaves the line to the user. */
static char *grub_cmdline(const char *file, size_t *line_start, size_t *line_end, bool *safe)
{
	const char *p = file, *found = NULL;
	size_t flen = 0;
	while (p && *p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (strncmp(p, "GRUB_CMDLINE_LINUX=", 19) == 0) {
			found = p;
			flen = len;
		}
		p = e ? e + 1 : NULL;
	}
	if (!found)
		return NULL;
	*line_start = (size_t)(found - file);
	*line_end = *line_start + flen;
	size_t n = flen - 19;
	char *v = pl_xmalloc(n + 1);
	memcpy(v, found + 19, n);
	v[n] = '\0';
	/* Trailing blanks (and a CR) after the value do not change it. */
	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t' || v[n - 1] == '\r'))
		v[--n] = '\0';
	char q = n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0] ? v[0] : 0;
	if (q) {
		memmove(v, v + 1, n - 2);
		v[n - 2] = '\0';
	}
	/* Re-joined with single spaces; in double quotes a plain $NAME means the same, a
	 * $(...) or ${...} might not. */
	const char *bad = q == '"' ? "\"'\\`(){}" : q == '\'' ? "'\"\\`$" : "'\"\\`$ \t;&|<>()#";
	*safe = strpbrk(v, bad) == NULL;
	return v;
}

static size_t tok_keylen(const char *t)
{
	return strcspn(t, "=");
}

static bool tok_in(char *const *v, const char *t)
{
	for (size_t i = 0; v && v[i]; i++)
		if (strcmp(v[i], t) == 0)
			return true;
	return false;
}

/* pl_tune_cmdline_token_ok, allowing a double quote at the start and at the end of the
 * token (tuned's quoting of the whole value; plugin_bootloader decides on them). */
static bool cmdline_token_ok_quoted(const char *tok)
{
	pl_autofree char *t = pl_xstrdup(tok);
	char *p = t[0] == '"' ? t + 1 : t;
	size_t l = strlen(p);
	if (l && p[l - 1] == '"')
		p[l - 1] = '\0';
	return !*p || pl_tune_cmdline_token_ok(p);
}

static int plugin_bootloader(struct ctx *c, const struct pl_tune_unit *u)
{
	/* Accumulate the cmdline* options in their merged order (tuned's bootloader plugin,
	 * _get_effective_options): "+tokens" and plain tokens are appended, so a profile's
	 * cmdline_NAME adds to those of the profiles it includes; "-tokens" removes every
	 * earlier occurrence of each token. */
	char **want = pl_xcalloc(1, sizeof(char *));
	size_t nw = 0;
	const struct pl_tune_opt *last = NULL;
	for (size_t i = 0; i < u->opts.n; i++) {
		const struct pl_tune_opt *o = &u->opts.v[i];
		if (!pl_startswith(o->key, "cmdline")) {
			struct pl_tune_item *it = add(c, "bootloader", u, o, NULL);
			set_reason(it, PL_TI_UNSUPPORTED,
				   "[bootloader] option '%s' is not supported by perflab (only "
				   "cmdline)",
				   o->key);
			continue;
		}
		const char *v = val(o);
		if (strstr(v, "${")) {
			struct pl_tune_item *it = add(c, "bootloader", u, o, NULL);
			set_reason(it, PL_TI_UNSUPPORTED,
				   "uses an undefined variable or a function");
			continue;
		}
		last = o;
		char op = v[0] == '+' || v[0] == '-' ? v[0] : 0;
		char **toks = pl_split(op ? v + 1 : v, " \t\n", NULL);
		for (size_t k = 0; toks[k]; k++) {
			/* The loader refused such tokens already (pl_tune_cmdline_check); never
			 * write one that a caller built some other way. */
			if (!cmdline_token_ok_quoted(toks[k])) {
				pl_strv_free(toks);
				pl_strv_free(want);
				return bad_value(c, u, o,
						 "has a token that is not a plain kernel parameter "
						 "(letters, digits and _ - . , = : / + @ %)");
			}
			if (op == '-') {
				for (size_t m = 0; m < nw;) {
					if (strcmp(want[m], toks[k]) != 0) {
						m++;
						continue;
					}
					free(want[m]);
					memmove(&want[m], &want[m + 1], (nw - m) * sizeof(char *));
					nw--;
				}
				continue;
			}
			want = pl_xrealloc(want, (nw + 2) * sizeof(char *));
			want[nw++] = pl_xstrdup(toks[k]);
			want[nw] = NULL;
		}
		pl_strv_free(toks);
	}
	if (!last) {
		pl_strv_free(want);
		return 0;
	}
	/* tuned unquotes the merged cmdline as one string (commands.unquote: ^"(.*)"$), so
	 * cmdline="a b" means a b. A quote it would keep is refused: it would land in the
	 * kernel command line. */
	size_t wl = nw ? strlen(want[nw - 1]) : 0;
	if (nw && want[0][0] == '"' && wl && want[nw - 1][wl - 1] == '"' && (nw > 1 || wl >= 2)) {
		want[nw - 1][wl - 1] = '\0';
		memmove(want[0], want[0] + 1, strlen(want[0]));
		for (size_t m = 0; m < nw;) {
			if (want[m][0]) {
				m++;
				continue;
			}
			free(want[m]);
			memmove(&want[m], &want[m + 1], (nw - m) * sizeof(char *));
			nw--;
		}
	}
	for (size_t k = 0; k < nw; k++) {
		if (strchr(want[k], '"')) {
			pl_strv_free(want);
			return bad_value(c, u, last,
					 "has quotes that tuned keeps (it removes only one pair "
					 "around the whole merged cmdline): they would be written "
					 "into the kernel command line");
		}
	}
	char *file = NULL, *cmd = NULL;
	int rf = pl_read_file(PL_TUNE_GRUB_FILE, &file, NULL);
	(void)pl_read_str("/proc/cmdline", &cmd);
	char **running = cmd ? pl_split(cmd, " \t", NULL) : pl_xcalloc(1, sizeof(char *));
	size_t ls = 0, le = 0;
	bool safe = true;
	char *cur = rf == 0 ? grub_cmdline(file, &ls, &le, &safe) : NULL;
	char **have = cur ? pl_split(cur, " \t", NULL) : pl_xcalloc(1, sizeof(char *));
	size_t nh = 0;
	while (have[nh])
		nh++;
	bool changed = false;
	for (size_t k = 0; k < nw; k++) {
		struct pl_tune_item *it = add(c, "bootloader", u, last, NULL);
		free(it->key);
		it->key = pl_xstrdup("cmdline");
		free(it->value);
		it->value = pl_xstrdup(want[k]);
		it->target = pl_xstrdup(PL_TUNE_GRUB_FILE);
		if (rf < 0) {
			set_reason(it, PL_TI_NA, "no %s on this machine (not booted with GRUB)",
				   PL_TUNE_GRUB_FILE);
			continue;
		}
		it->current = pl_xstrdup(cur ? cur : "");
		bool in_grub = tok_in(have, want[k]);
		bool in_running = tok_in(running, want[k]);
		it->match = in_running;
		if (in_grub && !in_running) {
			it->pending_reboot = true;
			it->reason = pl_xstrdup(
				"pending reboot: in the grub file, not yet in /proc/cmdline");
		}
		if (in_grub)
			continue;
		if (!safe) {
			set_reason(
				it, PL_TI_MANUAL,
				"GRUB_CMDLINE_LINUX in %s is quoted or built in a way perflab does "
				"not rewrite: add '%s' to it by hand",
				PL_TUNE_GRUB_FILE, want[k]);
			continue;
		}
		it->want = pl_xstrdup(want[k]);
		/* Replace a token with the same key (e.g. intel_idle.max_cstate=), else append. */
		size_t kl = tok_keylen(want[k]);
		bool done = false;
		for (size_t m = 0; m < nh && !done; m++)
			if (tok_keylen(have[m]) == kl && strncmp(have[m], want[k], kl) == 0 &&
			    strchr(want[k], '=')) {
				free(have[m]);
				have[m] = pl_xstrdup(want[k]);
				done = true;
			}
		if (!done) {
			have = pl_xrealloc(have, (nh + 2) * sizeof(char *));
			have[nh++] = pl_xstrdup(want[k]);
			have[nh] = NULL;
		}
		changed = true;
	}
	if (changed) {
		struct pl_buf b = { 0 };
		struct pl_buf line = { 0 };
		pl_buf_puts(&line, "GRUB_CMDLINE_LINUX=\"");
		for (size_t m = 0; m < nh; m++)
			pl_buf_printf(&line, "%s%s", m ? " " : "", have[m]);
		pl_buf_puts(&line, "\"");
		if (cur) {
			pl_buf_append(&b, file, ls);
			pl_buf_puts(&b, line.data);
			pl_buf_puts(&b, file + le);
		} else {
			pl_buf_puts(&b, file);
			if (b.len && b.data[b.len - 1] != '\n')
				pl_buf_puts(&b, "\n");
			pl_buf_printf(&b, "%s\n", line.data);
		}
		pl_buf_free(&line);
		free(c->plan->grub_new);
		c->plan->grub_new = pl_buf_steal(&b);
	}
	char *osr = NULL;
	(void)pl_read_file("/etc/os-release", &osr, NULL);
	bool deb = osr && (strstr(osr, "ID=debian") || strstr(osr, "ID=ubuntu") ||
			   strstr(osr, "ID_LIKE=debian") || strstr(osr, "ID_LIKE=ubuntu"));
	free(c->plan->grub_update);
	c->plan->grub_update =
		pl_xstrdup(deb || !osr ? "update-grub" : "grub2-mkconfig -o /boot/grub2/grub.cfg");
	free(osr);
	free(file);
	free(cmd);
	free(cur);
	pl_strv_free(running);
	pl_strv_free(have);
	pl_strv_free(want);
	return 0;
}

/* ---- units ---- */

static const struct {
	const char *name;
	int (*fn)(struct ctx *, const struct pl_tune_unit *);
} plugins[] = {
	{ "sysctl", plugin_sysctl }, { "vm", plugin_vm },	{ "cpu", plugin_cpu },
	{ "disk", plugin_disk },     { "sysfs", plugin_sysfs }, { "bootloader", plugin_bootloader },
};

/* The string tuned matches uname_regex against: " ".join(os.uname()), i.e. system, node,
 * release, version and machine separated by single spaces (tuned/units/manager.py). Live
 * from uname(2); in a sysroot from /proc/sys/kernel/{ostype,hostname,osrelease,version,
 * arch}, which hold the same strings (a missing file gives an empty field). Malloc'd. */
static char *uname_string(void)
{
	struct utsname un;
	if (pl_sysroot_is_live() && uname(&un) == 0)
		return pl_xasprintf("%s %s %s %s %s", un.sysname, un.nodename, un.release,
				    un.version, un.machine);
	static const char *const f[] = { "ostype", "hostname", "osrelease", "version", "arch" };
	struct pl_buf b = { 0 };
	pl_buf_puts(&b, "");
	for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
		char path[64], *v = NULL;
		snprintf(path, sizeof(path), "/proc/sys/kernel/%s", f[k]);
		if (pl_read_str(path, &v) < 0)
			v = pl_xstrdup("");
		pl_buf_printf(&b, "%s%s", k ? " " : "", v);
		free(v);
	}
	return pl_buf_steal(&b);
}

/* tuned applies a unit only when its regexes match uname / /proc/cpuinfo. */
bool pl_tune_unit_applies(const struct pl_tune_unit *u, char **why)
{
	const char *res[2] = { u->uname_regex, u->cpuinfo_regex };
	for (int i = 0; i < 2; i++) {
		if (!res[i])
			continue;
		char *subject = NULL;
		if (i == 0) {
			subject = uname_string();
		} else if (pl_read_file("/proc/cpuinfo", &subject, NULL) < 0) {
			subject = pl_xstrdup("");
		}
		regex_t rx;
		bool ok = false;
		if (regcomp(&rx, res[i], REG_EXTENDED | REG_NOSUB | REG_NEWLINE) == 0) {
			ok = regexec(&rx, subject, 0, NULL, 0) == 0;
			regfree(&rx);
		}
		free(subject);
		if (!ok) {
			*why = pl_xasprintf("%s '%s' does not match this machine",
					    i == 0 ? "uname_regex" : "cpuinfo_regex", res[i]);
			return false;
		}
	}
	return true;
}

int pl_tune_plan_build(const struct pl_tune_profile *pr, struct pl_tune_plan *plan, char *err,
		       size_t errlen)
{
	memset(plan, 0, sizeof(*plan));
	struct ctx c = { .pr = pr, .plan = plan, .err = err, .el = errlen };
	for (size_t i = 0; i < pr->nunits; i++) {
		const struct pl_tune_unit *u = &pr->units[i];
		if (!u->enabled)
			continue;
		char *why = NULL;
		if (!pl_tune_unit_applies(u, &why)) {
			free(why);
			continue;
		}
		int (*fn)(struct ctx *, const struct pl_tune_unit *) = NULL;
		for (size_t k = 0; k < sizeof(plugins) / sizeof(plugins[0]); k++)
			if (strcmp(u->type, plugins[k].name) == 0)
				fn = plugins[k].fn;
		if (!fn) {
			if (u->opts.n == 0) {
				struct pl_tune_item *it = add(&c, u->type, u, NULL, NULL);
				set_reason(it, PL_TI_UNSUPPORTED,
					   "plugin '%s' is not supported by perflab", u->type);
			}
			for (size_t k = 0; k < u->opts.n; k++) {
				struct pl_tune_item *it = add(&c, u->type, u, &u->opts.v[k], NULL);
				set_reason(it, PL_TI_UNSUPPORTED,
					   "plugin '%s' is not supported by perflab", u->type);
			}
			continue;
		}
		bool udev = false;
		for (size_t k = 0; u->unsupported_keys && u->unsupported_keys[k]; k++) {
			struct pl_tune_item *it = add(&c, u->type, u, NULL, NULL);
			free(it->key);
			it->key = pl_xstrdup(u->unsupported_keys[k]);
			set_reason(it, PL_TI_UNSUPPORTED,
				   "unit option '%s' is not supported by perflab",
				   u->unsupported_keys[k]);
			udev |= strcmp(u->unsupported_keys[k], "devices_udev_regex") == 0;
		}
		/* tuned picks the devices of [cpu] and [disk] by their udev properties when
		 * devices_udev_regex is given; perflab cannot, and must not widen the unit to
		 * every device instead: none of its options is applied. (Plugins without
		 * devices ignore the key in tuned too.) */
		if (udev && (strcmp(u->type, "cpu") == 0 || strcmp(u->type, "disk") == 0)) {
			for (size_t k = 0; k < u->opts.n; k++) {
				struct pl_tune_item *it = add(&c, u->type, u, &u->opts.v[k], NULL);
				set_reason(it, PL_TI_UNSUPPORTED,
					   "not applied: the unit selects its devices with "
					   "devices_udev_regex, which perflab cannot match");
			}
			continue;
		}
		/* `priority` orders tuned's plugin instances; perflab applies units in file order.
		 */
		struct pl_tune_unit uu = *u;
		const struct pl_tune_opt *prio = pl_tune_opts_get(&u->opts, "priority");
		struct pl_tune_opts rest = { 0 };
		if (prio) {
			rest.v = pl_xcalloc(u->opts.n, sizeof(*rest.v));
			for (size_t k = 0; k < u->opts.n; k++)
				if (&u->opts.v[k] != prio)
					rest.v[rest.n++] = u->opts.v[k];
			uu.opts = rest;
			struct pl_tune_item *it = add(&c, u->type, u, prio, NULL);
			set_reason(it, PL_TI_UNSUPPORTED,
				   "instance priority is not used: perflab applies units in "
				   "profile order");
		}
		size_t before = plan->n;
		int r = fn(&c, &uu);
		free(rest.v);
		if (r < 0) {
			pl_strv_free(c.taken_cpu);
			pl_strv_free(c.taken_disk);
			return r;
		}
		/* Values that still hold ${f:...} or ${undefined} cannot be applied. */
		for (size_t k = before; k < plan->n; k++) {
			struct pl_tune_item *it = &plan->v[k];
			if (it->state != PL_TI_APPLY || !strstr(it->value, "${"))
				continue;
			if (strstr(it->value, "${f:exec:"))
				set_reason(it, PL_TI_UNSUPPORTED,
					   "value '%s' runs a program (${f:exec}); perflab never "
					   "runs one: put the value in the profile",
					   it->value);
			else
				set_reason(it, PL_TI_UNSUPPORTED,
					   "value '%s' uses an undefined variable or a ${f:...} "
					   "function perflab does not evaluate",
					   it->value);
			free(it->want);
			it->want = NULL;
			it->match = false;
		}
	}
	pl_strv_free(c.taken_cpu);
	pl_strv_free(c.taken_disk);
	return 0;
}

void pl_tune_plan_free(struct pl_tune_plan *plan)
{
	if (!plan)
		return;
	for (size_t i = 0; i < plan->n; i++) {
		struct pl_tune_item *it = &plan->v[i];
		free(it->plugin);
		free(it->unit);
		free(it->key);
		free(it->value);
		free(it->device);
		free(it->origin);
		free(it->profile);
		free(it->target);
		free(it->reason);
		free(it->current);
		free(it->want);
	}
	free(plan->v);
	free(plan->grub_new);
	free(plan->grub_update);
	memset(plan, 0, sizeof(*plan));
}

static volatile sig_atomic_t stop;
static void on_sig(int s)
{
	(void)s;
	stop = 1;
}

int pl_tune_hold_latency(int usec, void (*ready)(int usec))
{
	if (!pl_sysroot_is_live())
		return -EXDEV;
	int fd = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int32_t v = usec;
	if (write(fd, &v, sizeof(v)) != (ssize_t)sizeof(v)) {
		int e = -errno;
		close(fd);
		return e ? e : -EIO;
	}
	/* Block the signals, then wait for them atomically with sigsuspend(): a signal that
	 * arrives before we sleep is not lost. */
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	struct sigaction sa = { .sa_handler = on_sig };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (ready)
		ready(usec);
	while (!stop)
		sigsuspend(&old);
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(fd);
	return 0;
}
