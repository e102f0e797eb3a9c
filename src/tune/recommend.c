/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tune recommend (tune/recommend.h): every profile ranked by what it would do here. */
#include "tune/recommend.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "facts/facts.h"
#include "util/json.h"
#include "rules/rules.h"
#include "tune/plan.h"
#include "tune/profile.h"
#include "util/cleanup.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/str.h"
#include "util/sysroot.h"

enum machine { M_METAL, M_GUEST, M_LAPTOP };

/* Profiles made for a workload (stock tuned and bundled ones, from their summaries). */
static const struct {
	const char *profile;
	unsigned workloads;
} made_for[] = {
	{ "throughput-performance", PL_WL_THROUGHPUT | PL_WL_STORAGE },
	{ "latency-performance", PL_WL_LATENCY | PL_WL_BENCHMARK },
	{ "network-latency", PL_WL_NETWORK | PL_WL_LATENCY },
	{ "network-throughput", PL_WL_NETWORK | PL_WL_THROUGHPUT },
	{ "hpc-compute", PL_WL_HPC },
	{ "accelerator-performance", PL_WL_HPC },
	{ "enterprise-storage", PL_WL_STORAGE },
	{ "latency", PL_WL_LATENCY },
	{ "throughput", PL_WL_THROUGHPUT },
	{ "spec-cpu", PL_WL_BENCHMARK },
	{ "storage-client", PL_WL_STORAGE },
	{ "cloud-gpu-mpi", PL_WL_HPC | PL_WL_NETWORK },
};
static const char *const power_saving[] = {
	"balanced",	     "powersave", "laptop-battery-powersave", "laptop-ac-powersave",
	"desktop-powersave", NULL
};

static bool in(const char *const *v, const char *s)
{
	for (; *v; v++)
		if (strcmp(*v, s) == 0)
			return true;
	return false;
}

static unsigned made_for_mask(const char *name)
{
	for (size_t i = 0; i < sizeof(made_for) / sizeof(made_for[0]); i++)
		if (strcmp(made_for[i].profile, name) == 0)
			return made_for[i].workloads;
	return 0;
}

/* A laptop: SMBIOS chassis type portable (8), laptop (9), notebook (10), sub-notebook
 * (14), convertible (31), detachable (32) (DMTF DSP0134 7.4.1), or a battery in
 * /sys/class/power_supply (Documentation/ABI/testing/sysfs-class-power). */
static bool is_laptop(void)
{
	uint64_t t;
	if (pl_read_u64("/sys/class/dmi/id/chassis_type", &t) == 0 &&
	    (t == 8 || t == 9 || t == 10 || t == 14 || t == 31 || t == 32))
		return true;
	pl_autostrv char **ents = NULL;
	size_t n = 0;
	if (pl_list_dir("/sys/class/power_supply", &ents, &n) < 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		pl_autofree char *type = NULL;
		if (pl_read_strf(&type, "/sys/class/power_supply/%s/type", ents[i]) == 0 &&
		    strcmp(type, "Battery") == 0)
			return true;
	}
	return false;
}

static enum machine machine_of(const struct pl_facts *f, char **desc)
{
	const char *hv = pl_facts_get_str(f, "virt.hypervisor");
	if (hv && strcmp(hv, "none") != 0 && strcmp(hv, "unknown") != 0) {
		*desc = pl_xasprintf("a virtual guest (%s)", hv);
		return M_GUEST;
	}
	if (is_laptop()) {
		*desc = pl_xstrdup("a laptop (chassis type or battery)");
		return M_LAPTOP;
	}
	*desc = pl_xstrdup("bare metal, not a laptop");
	return M_METAL;
}

/* ---- premises: what a profile needs the machine to have ---- */

/* The premises a profile may declare in its [main] "perflab_needs" (names separated by
 * spaces or commas; tuned ignores [main] keys it does not know). Each is checked against
 * the facts; a fact that was not collected leaves the premise assumed (no penalty for
 * what cannot be seen). */
static const struct {
	const char *name;
	const char *what; /* "needs WHAT" */
} premises[] = {
	{ "gpu", "a GPU" },
	{ "numa", "more than one NUMA node" },
	{ "nic", "a network interface backed by a device (a NIC)" },
};

/* NULL when premise @i holds on the machine of @f (or cannot be checked), else why not
 * (malloc'd, "accel.gpu.count is 0"). */
static char *premise_unmet(size_t i, const struct pl_facts *f)
{
	int64_t v;
	if (strcmp(premises[i].name, "gpu") == 0)
		return pl_facts_get_int(f, "accel.gpu.count", &v) && v == 0
			       ? pl_xstrdup("accel.gpu.count is 0")
			       : NULL;
	if (strcmp(premises[i].name, "numa") == 0)
		return pl_facts_get_int(f, "numa.nodes", &v) && v <= 1
			       ? pl_xasprintf("numa.nodes is %lld", (long long)v)
			       : NULL;
	const json_t *ifs = pl_facts_value(f, "net.interfaces");
	if (!json_is_array(ifs))
		return NULL;
	size_t k;
	const json_t *ifc;
	json_array_foreach(ifs, k, ifc)
	{
		char key[160];
		snprintf(key, sizeof(key), "net.%s.driver", json_string_value(ifc));
		if (pl_facts_get_str(f, key))
			return NULL;
	}
	return pl_xasprintf("net.interfaces has %s",
			    json_array_size(ifs) ? "no interface with a device (virtual "
						   "ones only)"
						 : "no interface but lo");
}

/* The premises of profile @pr ([main] perflab_needs) that the machine of @f lacks, as
 * "needs WHAT: WHY" strings in @unmet; an unknown premise name is a note there too
 * ("unknown premise 'x' in perflab_needs (known: gpu, numa, nic)"), so a typo does not
 * pass silently. */
static void check_premises(const struct pl_tune_profile *pr, const struct pl_facts *f,
			   json_t *unmet)
{
	const struct pl_tune_opt *o = pl_tune_opts_get(&pr->main, "perflab_needs");
	if (!o)
		return;
	pl_autostrv char **names = pl_split(o->expanded ? o->expanded : o->value, ", \t", NULL);
	for (size_t n = 0; names[n]; n++) {
		size_t i = 0, np = sizeof(premises) / sizeof(premises[0]);
		while (i < np && strcmp(premises[i].name, names[n]) != 0)
			i++;
		if (i == np) {
			pl_autofree char *u = pl_xasprintf(
				"unknown premise '%s' in perflab_needs (known: gpu, numa, nic)",
				names[n]);
			json_array_append_new(unmet, pl_json_string(u));
			continue;
		}
		pl_autofree char *why = premise_unmet(i, f);
		if (!why)
			continue;
		pl_autofree char *u = pl_xasprintf("needs %s: %s", premises[i].what, why);
		json_array_append_new(unmet, pl_json_string(u));
	}
}

/* ---- does a profile's plan hold a finding's fix? ---- */

static bool num(const char *s, long long *v)
{
	char *end;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return !errno && end != s && *end == '\0';
}

/* Profile value @have against fix value @want (both as written). */
static bool value_holds(const char *have, const char *want)
{
	pl_autostrv char **h = pl_split(have, " \t", NULL);
	pl_autostrv char **w = pl_split(want, " \t", NULL);
	bool same = true;
	size_t i = 0;
	for (; h[i] && w[i]; i++)
		same &= strcmp(h[i], w[i]) == 0;
	if (same && !h[i] && !w[i])
		return true;
	long long a, b;
	const char *hw = have[0] == '>' ? have + 1 : have;
	const char *ww = want[0] == '>' ? want + 1 : want;
	if (num(hw, &a) && num(ww, &b))
		return want[0] == '>' ? a >= b : (a == b && have[0] != '>');
	pl_autostrv char **alts = pl_split(have, "|", NULL);
	return alts[1] && in((const char *const *)alts, want);
}

enum match { M_NONE, M_FIXES, M_AGAINST };

struct opt_match {
	enum match m;
	const struct pl_tune_item *it; /* the profile's item for the key */
};

/* The items of @plan for plugin @plugin and key @key (device @dev or any). */
static struct opt_match match_opt(const struct pl_tune_plan *plan, const char *plugin,
				  const char *key, const char *dev, const char *want)
{
	struct opt_match r = { M_NONE, NULL };
	for (size_t i = 0; i < plan->n; i++) {
		const struct pl_tune_item *it = &plan->v[i];
		if (strcmp(it->plugin, plugin) != 0 || strcmp(it->key, key) != 0 || !it->value)
			continue;
		if (dev && it->device && strcmp(it->device, dev) != 0)
			continue;
		r.it = it;
		if (!value_holds(it->value, want)) {
			/* Against only for a plain other value: ">N" that falls short, "a|b"
			 * and tuned's own forms (cstate.id_no_zero:1) do not fix it, but need
			 * not undo it either. */
			if (!strpbrk(it->value, "<>|:$")) {
				r.m = M_AGAINST;
				return r;
			}
			return (struct opt_match){ M_NONE, it };
		}
		r.m = M_FIXES;
	}
	return r;
}

/* Each cmdline token of @want in some [bootloader] item of @plan. */
static enum match match_cmdline(const struct pl_tune_plan *plan, const char *want)
{
	pl_autostrv char **w = pl_split(want, " ", NULL);
	for (size_t k = 0; w[k]; k++) {
		bool found = false;
		for (size_t i = 0; i < plan->n && !found; i++) {
			if (strcmp(plan->v[i].plugin, "bootloader") != 0 || !plan->v[i].value)
				continue;
			pl_autostrv char **h = pl_split(plan->v[i].value, " ", NULL);
			found = in((const char *const *)h, w[k]);
		}
		if (!found)
			return M_NONE;
	}
	return M_FIXES;
}

/* Finding @x against @plan: M_FIXES when every fix line holds, M_AGAINST when one of
 * its keys gets another value (then *why names it), else M_NONE. */
static enum match finding_match(const struct pl_tune_plan *plan, const struct pl_finding *x,
				char **why)
{
	if (!x->fix_tune)
		return M_NONE;
	pl_autostrv char **lines = pl_split(x->fix_tune, "\n", NULL);
	bool all = lines[0] != NULL;
	for (size_t l = 0; lines[l]; l++) {
		const char *line = lines[l], *close = strchr(line, ']');
		if (line[0] != '[' || !close)
			return M_NONE;
		pl_autofree char *plugin = pl_xasprintf("%.*s", (int)(close - line - 1), line + 1);
		const char *rest = close + 1 + strspn(close + 1, " ");
		if (strcmp(plugin, "bootloader") == 0) {
			all &= pl_startswith(rest, "cmdline=") &&
			       match_cmdline(plan, rest + 8) == M_FIXES;
			continue;
		}
		pl_autostrv char **toks = NULL;
		const char *dev = NULL;
		if (strcmp(plugin, "disk") == 0) {
			toks = pl_split(rest, " ", NULL);
			if (!toks[0] || !pl_startswith(toks[0], "devices="))
				return M_NONE;
			dev = toks[0] + 8;
		}
		for (size_t t = dev ? 1 : 0; dev ? toks[t] != NULL : t == 0; t++) {
			const char *kv = dev ? toks[t] : rest;
			size_t kl = strcspn(kv, "=");
			if (!kv[kl])
				return M_NONE;
			pl_autofree char *key = pl_xasprintf("%.*s", (int)kl, kv);
			struct opt_match m = match_opt(plan, plugin, key, dev, kv + kl + 1);
			if (m.m == M_AGAINST) {
				*why = pl_xasprintf("sets %s %s=%s, %s wants %s", plugin, key,
						    m.it->value, x->rule->id, kv + kl + 1);
				return M_AGAINST;
			}
			all &= m.m == M_FIXES;
		}
	}
	return all ? M_FIXES : M_NONE;
}

/* ---- candidates ---- */

static int weight(enum pl_severity s)
{
	return s == PL_SEV_CRIT ? 3 : s == PL_SEV_WARN ? 2 : 1;
}

static void reason(json_t *c, int points, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void reason(json_t *c, int points, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct pl_buf b = { 0 };
	pl_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	json_t *r = json_object();
	json_object_set_new(r, "points", json_integer(points));
	json_object_set_new(r, "text", pl_json_string(b.data));
	pl_buf_free(&b);
	json_array_append_new(json_object_get(c, "reasons"), r);
	json_object_set_new(c, "score",
			    json_integer(json_integer_value(json_object_get(c, "score")) + points));
}

static void fit(json_t *c, const char *name, enum machine m, unsigned wl, const char *wname)
{
	if (made_for_mask(name) & wl)
		reason(c, 3, "made for the %s workload", wname);
	if (m == M_GUEST && strcmp(name, "virtual-guest") == 0)
		reason(c, 3, "made for virtual guests (what tuned-adm recommend picks on a VM)");
	if (m == M_LAPTOP && strcmp(name, "balanced") == 0)
		reason(c, 3, "balances power and performance on a laptop (tuned's default there)");
	else if (m == M_LAPTOP && in(power_saving, name))
		reason(c, 2, "saves power on a laptop");
	else if (m == M_LAPTOP && made_for_mask(name))
		reason(c, -2, "a performance profile: costs battery and heat on a laptop");
	else if (wl == PL_WL_GENERAL && strcmp(name, "balanced") == 0)
		reason(c, 1, "the general fallback (tuned-adm recommend's last choice)");
}

/* "fixes 2 warning findings: a, b" / "works against 1 info finding: c": one reason per
 * severity, worth weight x count points, so each number shown says where it comes from. */
static void finding_reasons(json_t *c, const json_t *ids, const json_t *sev, const char *verb,
			    int sign)
{
	static const char *const word[] = { "info", "warning", "critical" };
	for (int k = 2; k >= 0; k--) {
		struct pl_buf b = { 0 };
		size_t n = 0, i;
		const json_t *v;
		json_array_foreach(ids, i, v)
		{
			if (json_integer_value(json_array_get(sev, i)) != k)
				continue;
			const char *id =
				json_is_string(v) ? json_string_value(v) : pl_json_str(v, "rule");
			pl_buf_printf(&b, "%s%s", n ? ", " : "", id);
			n++;
		}
		if (n)
			reason(c, sign * weight((enum pl_severity)k) * (int)n,
			       "%s %zu %s finding%s: %s", verb, n, word[k], n == 1 ? "" : "s",
			       b.data);
		pl_buf_free(&b);
	}
}

static json_t *candidate(const struct pl_tune_path *p, const char *name, const char *dir,
			 const struct pl_findings *fs, const struct pl_facts *f, enum machine m,
			 unsigned wl, const char *wname)
{
	json_t *c = json_object();
	json_object_set_new(c, "name", pl_json_string(name));
	json_object_set_new(c, "dir", pl_json_string(dir));
	json_object_set_new(c, "score", json_integer(0));
	json_object_set_new(c, "reasons", json_array());
	char err[1024];
	__attribute__((cleanup(pl_tune_profile_freep))) struct pl_tune_profile *pr = NULL;
	struct pl_tune_plan plan = { 0 };
	if (pl_tune_profile_load(p, name, &pr, err, sizeof(err)) < 0 ||
	    pl_tune_plan_build(pr, &plan, err, sizeof(err)) < 0) {
		pl_tune_plan_free(&plan);
		json_object_set_new(c, "error", pl_json_string(err));
		return c;
	}
	json_object_set_new(c, "summary", pl_json_string(pr->summary));
	json_t *unmet = json_array();
	check_premises(pr, f, unmet);
	json_object_set_new(c, "unmet", unmet);
	fit(c, name, m, wl, wname);
	json_t *fixes = json_array(), *against = json_array(), *changes = json_array();
	pl_autojson json_t *fsev = json_array(), *asev = json_array();
	for (size_t i = 0; i < fs->n; i++) {
		pl_autofree char *why = NULL;
		enum match mt = finding_match(&plan, &fs->v[i], &why);
		if (mt == M_FIXES) {
			json_array_append_new(fixes, pl_json_string(fs->v[i].rule->id));
			json_array_append_new(fsev, json_integer(fs->v[i].severity));
		} else if (mt == M_AGAINST) {
			json_t *a = json_object();
			json_object_set_new(a, "rule", pl_json_string(fs->v[i].rule->id));
			json_object_set_new(a, "why", pl_json_string(why));
			json_array_append_new(against, a);
			json_array_append_new(asev, json_integer(fs->v[i].severity));
		}
	}
	for (size_t i = 0; i < plan.n; i++) {
		const struct pl_tune_item *it = &plan.v[i];
		if (it->state != PL_TI_APPLY || it->match)
			continue;
		json_t *x = json_object();
		json_object_set_new(x, "plugin", pl_json_string(it->plugin));
		json_object_set_new(x, "key", pl_json_string(it->key));
		json_object_set_new(x, "device", pl_json_string(it->device));
		json_object_set_new(x, "current", pl_json_string(it->current));
		json_object_set_new(x, "value", pl_json_string(it->value));
		json_array_append_new(changes, x);
	}
	finding_reasons(c, fixes, fsev, "fixes", 1);
	finding_reasons(c, against, asev, "works against", -1);
	if (!json_array_size(changes))
		reason(c, 0, "changes nothing here");
	json_object_set_new(c, "fixes", fixes);
	json_object_set_new(c, "against", against);
	json_object_set_new(c, "changes", changes);
	pl_tune_plan_free(&plan);
	return c;
}

static int cmp_cand(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	bool ex = json_object_get(x, "error") != NULL, ey = json_object_get(y, "error") != NULL;
	if (ex != ey)
		return ex ? 1 : -1;
	/* A profile whose premises the machine lacks comes after every one that fits. */
	bool ux = json_array_size(json_object_get(x, "unmet")) > 0;
	bool uy = json_array_size(json_object_get(y, "unmet")) > 0;
	if (ux != uy)
		return ux ? 1 : -1;
	json_int_t sx = json_integer_value(json_object_get(x, "score"));
	json_int_t sy = json_integer_value(json_object_get(y, "score"));
	if (sx != sy)
		return sx > sy ? -1 : 1;
	size_t cx = json_array_size(json_object_get(x, "changes"));
	size_t cy = json_array_size(json_object_get(y, "changes"));
	if (cx != cy)
		return cx < cy ? -1 : 1;
	return strcmp(pl_json_str(x, "name"), pl_json_str(y, "name"));
}

/* ---- output ---- */

static void print_list(FILE *f, const char *label, const json_t *arr, const char *field)
{
	if (!json_array_size(arr))
		return;
	fprintf(f, "     %-8s", label);
	size_t i;
	const json_t *v;
	json_array_foreach(arr, i, v)
	{
		if (i == 6) {
			fprintf(f, " (+%zu more)", json_array_size(arr) - 6);
			break;
		}
		const char *s = field ? pl_json_str(v, field) : json_string_value(v);
		fprintf(f, "%s %s", i ? "," : "", s ? s : "?");
	}
	fputc('\n', f);
}

/* "changes: N items here: key a -> b, governor[16 devices] a -> b, ..." (items of one
 * key with the same change on several devices shown once). */
static void print_changes(FILE *f, const json_t *ch)
{
	size_t n = json_array_size(ch), shown = 0;
	if (!n)
		return;
	fprintf(f, "     changes: %zu item%s here:", n, n == 1 ? "" : "s");
	for (size_t k = 0; k < n; k++) {
		const json_t *r = json_array_get(ch, k);
		const char *cur = pl_json_str(r, "current") ? pl_json_str(r, "current") : "-";
		size_t same = 1;
		while (k + same < n) {
			const json_t *o = json_array_get(ch, k + same);
			const char *oc =
				pl_json_str(o, "current") ? pl_json_str(o, "current") : "-";
			if (strcmp(pl_json_str(o, "key"), pl_json_str(r, "key")) != 0 ||
			    strcmp(oc, cur) != 0 ||
			    strcmp(pl_json_str(o, "value"), pl_json_str(r, "value")) != 0)
				break;
			same++;
		}
		if (shown == 4) {
			fprintf(f, " ...");
			break;
		}
		const char *dev = pl_json_str(r, "device");
		if (same > 1)
			fprintf(f, "%s %s[%zu devices] %s -> %s", shown ? "," : "",
				pl_json_str(r, "key"), same, cur, pl_json_str(r, "value"));
		else
			fprintf(f, "%s %s%s%s%s %s -> %s", shown ? "," : "", pl_json_str(r, "key"),
				dev ? "[" : "", dev ? dev : "", dev ? "]" : "", cur,
				pl_json_str(r, "value"));
		shown++;
		k += same - 1;
	}
	fputc('\n', f);
}

static void print_text(FILE *f, const json_t *doc, bool all)
{
	const json_t *cands = json_object_get(doc, "candidates");
	fprintf(f, "perflab tune recommend (workload %s; this machine is %s; %s)\n",
		pl_json_str(doc, "workload"), pl_json_str(doc, "machine"),
		pl_json_str(doc, "findings_text"));
	size_t i, shown = 0, nunmet = 0;
	const json_t *c;
	json_array_foreach(cands, i, c)
	{
		if (json_object_get(c, "error")) {
			if (all)
				fprintf(f, "  -  %s: does not load: %s\n", pl_json_str(c, "name"),
					pl_json_str(c, "error"));
			continue;
		}
		const json_t *unmet = json_object_get(c, "unmet");
		if (json_array_size(unmet)) {
			nunmet++;
			if (!all)
				continue;
			fprintf(f, "  -  %s: not for this machine:", pl_json_str(c, "name"));
			size_t k;
			const json_t *u;
			json_array_foreach(unmet, k, u)
				fprintf(f, "%s %s", k ? ";" : "", json_string_value(u));
			fputc('\n', f);
			continue;
		}
		if (!all && shown == 5)
			continue;
		shown++;
		fprintf(f, "%3zu. %-28s score %3lld  %s\n", shown, pl_json_str(c, "name"),
			(long long)json_integer_value(json_object_get(c, "score")),
			pl_json_str(c, "summary") ? pl_json_str(c, "summary") : "");
		struct pl_buf why = { 0 };
		size_t k;
		const json_t *r;
		json_array_foreach(json_object_get(c, "reasons"), k, r)
			pl_buf_printf(&why, "%s%s (%+lld)", k ? "; " : "", pl_json_str(r, "text"),
				      (long long)json_integer_value(json_object_get(r, "points")));
		fprintf(f, "     why:     %s\n", why.len ? why.data : "no fit, fixes nothing");
		pl_buf_free(&why);
		print_list(f, "fixes:", json_object_get(c, "fixes"), NULL);
		json_t *ag = json_object_get(c, "against");
		print_list(f, "against:", ag, "why");
		print_changes(f, json_object_get(c, "changes"));
	}
	if (nunmet && !all)
		fprintf(f,
			"(%zu profile%s left out: not for this machine, such as a GPU profile "
			"without a GPU; --all names them and why)\n",
			nunmet, nunmet == 1 ? "" : "s");
	fprintf(f, "(score: the fit to the workload and the machine, plus 3, 2 or 1 per critical, "
		   "warning or info finding the profile fixes here, minus as much per finding it "
		   "works against)\n");
	fprintf(f,
		"(see every item with 'perflab tune diff NAME'; measure with 'perflab tune try "
		"NAME -- CMD'%s)\n",
		all ? "" : "; --all lists every profile");
}

int pl_tune_do_recommend(const struct pl_tune_req *q)
{
	const char *wname = q->workload ? q->workload : "general";
	unsigned wl = pl_workload_parse(wname);
	if (!wl) {
		pl_error("unknown workload '%s' (use general, latency, throughput, hpc, network, "
			 "storage or benchmark)",
			 wname);
		return PL_EXIT_USAGE;
	}
	pl_facts_set_sysctl_names(pl_rules_sysctl_names());
	pl_cleanup(pl_facts_free) struct pl_facts f;
	pl_facts_init(&f);
	const char **names = pl_xcalloc(pl_ncollectors + 1, sizeof(*names));
	for (size_t i = 0; i < pl_ncollectors; i++)
		names[i] = pl_collectors[i].name;
	pl_autofree char *domains = pl_rules_domains(wl, names);
	free(names);
	/* virt for the machine's kind; accel, numa and net for the profiles' premises */
	pl_autofree char *want =
		pl_xasprintf("%s%svirt,accel,numa,net", domains, *domains ? "," : "");
	pl_facts_collect(&f, want);
	pl_cleanup(pl_findings_free) struct pl_findings fs = { 0 };
	pl_rules_eval(&f, wl, &fs);
	pl_autofree char *mdesc = NULL;
	enum machine m = machine_of(&f, &mdesc);

	struct pl_tune_path p;
	pl_tune_path_default(&p, q->profile_dir);
	char **dirs;
	char **pnames = pl_tune_profile_list(&p, &dirs);
	size_t n = 0;
	while (pnames[n])
		n++;
	json_t **v = pl_xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = candidate(&p, pnames[i], dirs[i], &fs, &f, m, wl, wname);
	pl_strv_free(pnames);
	pl_strv_free(dirs);
	qsort(v, n, sizeof(*v), cmp_cand);
	pl_autojson json_t *doc = json_object();
	json_object_set_new(doc, "schema_version", json_integer(1));
	json_object_set_new(doc, "workload", pl_json_string(wname));
	json_object_set_new(doc, "machine", pl_json_string(mdesc));
	size_t count[3] = { 0 };
	for (size_t i = 0; i < fs.n; i++)
		count[fs.v[i].severity]++;
	pl_autofree char *ft = pl_xasprintf("%zu finding%s: %zu crit, %zu warn, %zu info", fs.n,
					    fs.n == 1 ? "" : "s", count[2], count[1], count[0]);
	json_t *arr = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, v[i]);
	free(v);
	json_object_set_new(doc, "candidates", arr);
	json_t *fj = json_object();
	json_object_set_new(fj, "total", json_integer((json_int_t)fs.n));
	for (int k = 0; k < 3; k++)
		json_object_set_new(fj, pl_severity_names[k], json_integer((json_int_t)count[k]));
	json_object_set_new(doc, "findings", fj);
	int r;
	if (q->json) {
		r = pl_json_write_path(q->output, doc);
	} else {
		json_object_set_new(doc, "findings_text", pl_json_string(ft));
		struct pl_outfile out;
		if ((r = pl_outfile_open(&out, q->output)) == 0) {
			print_text(out.fp, doc, q->all);
			r = pl_outfile_close(&out, !ferror(out.fp));
		}
	}
	if (r < 0) {
		char em[512];
		pl_error("%s", pl_outfile_strerror(em, sizeof(em), q->output, r));
		return PL_EXIT_RUNTIME;
	}
	return PL_EXIT_OK;
}
