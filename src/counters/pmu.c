/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "counters/pmu.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "counters/pmu_dir.h"
#include "counters/pmu_parse.h"
#include "util/str.h"
#include "util/sysroot.h"

/* tools/perf/util/pmu.h PERF_PMU_TYPE_SHIFT: a generic hardware event opened on one PMU
 * of a hybrid machine carries that PMU's type in config bits 32-63 (what perf 6.1's
 * parse_events__add_numeric_hybrid does; include/uapi/linux/perf_event.h
 * PERF_HW_EVENT_MASK). */
#define PMU_TYPE_SHIFT 32

bool pl_pmu_is_core(const char *name)
{
	if (strcmp(name, "cpu") == 0)
		return true;
	char p[512];
	snprintf(p, sizeof(p), PL_PMU_DEVICES "/%s/cpus", name);
	return pl_exists(p);
}

int pl_pmu_names(char ***out, size_t *n)
{
	return pl_list_dir(PL_PMU_DEVICES, out, n);
}

/* Where one resolution writes its events. */
struct sink {
	struct pl_cnt_event *evs;
	size_t max, n;
	const char *spec;
	char *err;
	size_t errlen;
};

static struct pl_cnt_event *sink_next(struct sink *s)
{
	if (s->n >= s->max) {
		s->n++; /* counted, not stored: the caller reports -E2BIG */
		return NULL;
	}
	struct pl_cnt_event *ev = &s->evs[s->n++];
	memset(ev, 0, sizeof(*ev));
	snprintf(ev->name, sizeof(ev->name), "%s", s->spec);
	ev->scale = 1.0;
	ev->attr.size = sizeof(ev->attr);
	return ev;
}

static int fail(struct sink *s, int e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct sink *s, int e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->err, s->errlen, fmt, ap);
	va_end(ap);
	return e;
}

/* A PMU, alias or term name: [A-Za-z0-9_.-]+ not starting with a dot (so it stays one
 * directory entry below the PMU directory). */
static bool name_ok(const char *s, size_t len)
{
	if (len == 0 || s[0] == '.')
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-' && s[i] != '.')
			return false;
	return true;
}

/* The PMU names @keep(name, @arg) accepts, sorted (NULL-terminated vector, owned by the
 * caller); *@n the count. No PMU directory at all is an empty list. Returns 0 or -errno. */
static int pmus_where(bool (*keep)(const char *name, const void *arg), const void *arg, char ***out,
		      size_t *n)
{
	char **all = NULL;
	size_t na = 0;
	int r = pl_pmu_names(&all, &na);
	*out = NULL;
	*n = 0;
	if (r < 0)
		return r == -ENOENT ? 0 : r;
	size_t k = 0;
	for (size_t i = 0; i < na; i++) {
		if (keep(all[i], arg))
			all[k++] = all[i];
		else
			free(all[i]);
	}
	all[k] = NULL;
	*out = all;
	*n = k;
	return 0;
}

static bool keep_core(const char *name, const void *arg)
{
	(void)arg;
	return pl_pmu_is_core(name);
}

/* The core PMUs, sorted (NULL-terminated vector); *n the count. */
static int core_pmus(char ***out, size_t *n)
{
	return pmus_where(keep_core, NULL, out, n);
}

static bool hybrid(char **cores, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(cores[i], "cpu_core") == 0 || strcmp(cores[i], "cpu_atom") == 0)
			return true;
	return false;
}

static int apply_mods(struct sink *s, struct pl_cnt_event *ev, const char *mods)
{
	char bad = 0;
	if (!mods || !*mods)
		return 0;
	if (pl_pmu_modifiers(mods, &ev->attr, &bad) < 0)
		return fail(
			s, -EINVAL,
			"unknown modifier '%c' in '%s' (modifiers: u user, k kernel, h hypervisor, "
			"G guest, H host, I exclude idle)",
			bad, s->spec);
	return 0;
}

/* Generic hardware, cache or software event @type/@config with modifiers @mods: one
 * event, or one per core PMU of a hybrid machine. */
static int add_generic(struct sink *s, uint32_t type, uint64_t config, const char *mods)
{
	char **cores = NULL;
	size_t nc = 0;
	int r = 0;
	if (type != PERF_TYPE_SOFTWARE)
		r = core_pmus(&cores, &nc);
	if (r < 0)
		nc = 0;
	bool hy = type != PERF_TYPE_SOFTWARE && hybrid(cores, nc);
	size_t times = hy ? nc : 1;
	r = 0;
	for (size_t i = 0; i < times && r == 0; i++) {
		struct pl_cnt_event *ev = sink_next(s);
		if (!ev)
			continue;
		ev->attr.type = type;
		ev->attr.config = config;
		if (type == PERF_TYPE_SOFTWARE) {
			snprintf(ev->pmu, sizeof(ev->pmu), "software");
			if (config == PERF_COUNT_SW_TASK_CLOCK ||
			    config == PERF_COUNT_SW_CPU_CLOCK) {
				ev->scale = 1e-6;
				snprintf(ev->unit, sizeof(ev->unit), "msec");
			}
		} else {
			snprintf(ev->pmu, sizeof(ev->pmu), "%s", nc ? cores[i] : "cpu");
			if (hy) {
				uint64_t t = 0;
				r = pl_read_u64f(&t, PL_PMU_DEVICES "/%s/type", cores[i]);
				if (r < 0) {
					r = fail(s, r,
						 "cannot read the type of PMU '%s' for '%s': %s",
						 cores[i], s->spec, pl_read_strerror(r));
					break;
				}
				ev->attr.config |= t << PMU_TYPE_SHIFT;
			}
		}
		r = apply_mods(s, ev, mods);
	}
	pl_strv_free(cores);
	return r;
}

/* Read a float file (events/NAME.scale); 0 when absent. */
static int read_double(const char *pmu, const char *alias, const char *suffix, double *out)
{
	char *t = NULL;
	int r = pl_read_strf(&t, PL_PMU_DEVICES "/%s/events/%s.%s", pmu, alias, suffix);
	if (r < 0)
		return r == -ENOENT ? 0 : r;
	char *e;
	errno = 0;
	double v = strtod(t, &e);
	bool ok = !errno && e != t && *e == '\0' && v == v;
	free(t);
	if (!ok)
		return -EINVAL;
	*out = v;
	return 0;
}

/* The file name in @pmu's events/ that is @alias without regard to case (perf compares
 * aliases with strcasecmp), into @out; false when none. */
static bool find_alias(const char *pmu, const char *alias, char *out, size_t outlen)
{
	char dir[512];
	char **v = NULL;
	size_t n = 0;
	snprintf(dir, sizeof(dir), PL_PMU_DEVICES "/%s/events", pmu);
	if (pl_list_dir(dir, &v, &n) < 0)
		return false;
	bool found = false;
	for (size_t i = 0; i < n && !found; i++)
		if (strcasecmp(v[i], alias) == 0) {
			snprintf(out, outlen, "%s", v[i]);
			found = true;
		}
	pl_strv_free(v);
	return found;
}

/* Expand @alias of @pmu into @terms (appending at *n), its scale, unit and per-pkg into
 * @ev. */
static int expand_alias(struct sink *s, const char *pmu, const char *alias,
			struct pl_pmu_term *terms, size_t *n, struct pl_cnt_event *ev)
{
	char *text = NULL;
	int r = pl_read_strf(&text, PL_PMU_DEVICES "/%s/events/%s", pmu, alias);
	if (r < 0)
		return fail(s, r, "cannot read event '%s' of PMU '%s' for '%s': %s", alias, pmu,
			    s->spec, pl_read_strerror(r));
	size_t k = 0;
	char why[160];
	r = pl_pmu_terms_parse(text, terms + *n, PL_PMU_TERMS_MAX - *n, &k, why, sizeof(why));
	free(text);
	if (r < 0)
		return fail(s, r,
			    "event '%s' of PMU '%s' in '%s' cannot be used as written in sysfs "
			    "(%s); spell its terms out: '%s/event=...,umask=.../'",
			    alias, pmu, s->spec, why, pmu);
	*n += k;
	double scale = 0;
	r = read_double(pmu, alias, "scale", &scale);
	if (r < 0)
		return fail(s, r, "bad scale file of event '%s' of PMU '%s' for '%s'", alias, pmu,
			    s->spec);
	if (scale != 0)
		ev->scale = scale;
	char *t = NULL;
	if (pl_read_strf(&t, PL_PMU_DEVICES "/%s/events/%s.unit", pmu, alias) == 0) {
		snprintf(ev->unit, sizeof(ev->unit), "%s", t);
		free(t);
		t = NULL;
	}
	uint64_t pp = 0;
	if (pl_read_u64f(&pp, PL_PMU_DEVICES "/%s/events/%s.per-pkg", pmu, alias) == 0 && pp)
		ev->per_pkg = true;
	return 0;
}

static __u64 *field_of(struct perf_event_attr *a, enum pl_pmu_field f)
{
	return f == PL_PMU_CONFIG1 ? &a->config1 : f == PL_PMU_CONFIG2 ? &a->config2 : &a->config;
}

/* The names of @pmu's format/ files, comma-separated, into @buf (for an error). */
static void format_names(const char *pmu, char *buf, size_t len)
{
	char dir[512];
	char **v = NULL;
	size_t n = 0;
	buf[0] = '\0';
	snprintf(dir, sizeof(dir), PL_PMU_DEVICES "/%s/format", pmu);
	if (pl_list_dir(dir, &v, &n) < 0)
		return;
	size_t o = 0;
	for (size_t i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", v[i]);
	pl_strv_free(v);
}

/* One PMU event on PMU directory @pmu: @inside the text between the slashes (or an
 * alias alone), @mods the modifiers. */
static int resolve_on(struct sink *s, const char *pmu, const char *inside, const char *mods)
{
	struct pl_pmu_term user[PL_PMU_TERMS_MAX], terms[PL_PMU_TERMS_MAX];
	size_t nu = 0, n = 0;
	char why[200];
	if (pl_pmu_terms_parse(inside, user, PL_PMU_TERMS_MAX, &nu, why, sizeof(why)) < 0)
		return fail(s, -EINVAL, "%s in '%s' (terms are name=value, e.g. 'cpu/event=0x3c/')",
			    why, s->spec);
	uint64_t type = 0;
	int r = pl_read_u64f(&type, PL_PMU_DEVICES "/%s/type", pmu);
	if (r < 0)
		return fail(s, r, "cannot read the type of PMU '%s' for '%s': %s", pmu, s->spec,
			    pl_read_strerror(r));
	struct pl_cnt_event tmp;
	memset(&tmp, 0, sizeof(tmp));
	tmp.scale = 1.0;
	for (size_t i = 0; i < nu; i++) {
		char file[256];
		char fmt[512];
		snprintf(fmt, sizeof(fmt), PL_PMU_DEVICES "/%.255s/format/%.63s", pmu,
			 user[i].name);
		if (!user[i].has_value && !pl_exists(fmt) &&
		    find_alias(pmu, user[i].name, file, sizeof(file))) {
			r = expand_alias(s, pmu, file, terms, &n, &tmp);
			if (r < 0)
				return r;
			continue;
		}
		if (n >= PL_PMU_TERMS_MAX)
			return fail(s, -EINVAL, "too many terms in '%s'", s->spec);
		terms[n++] = user[i];
	}
	struct perf_event_attr attr;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = (uint32_t)type;
	/* perf's config_attr (raw config terms) runs before pmu_config (format terms), which
	 * ORs each value into its bits. */
	for (size_t i = 0; i < n; i++) {
		static const char *const raw[] = { "config", "config1", "config2" };
		for (int f = 0; f < 3; f++)
			if (strcmp(terms[i].name, raw[f]) == 0) {
				*field_of(&attr, (enum pl_pmu_field)f) = terms[i].value;
				terms[i].name[0] = '\0';
			}
	}
	for (size_t i = 0; i < n; i++) {
		if (!terms[i].name[0])
			continue;
		char *text = NULL;
		r = pl_read_strf(&text, PL_PMU_DEVICES "/%s/format/%s", pmu, terms[i].name);
		if (r == -ENOENT || r == -ENODATA) {
			char names[200];
			format_names(pmu, names, sizeof(names));
			bool known = find_alias(pmu, terms[i].name, why, sizeof(why));
			if (known)
				return fail(
					s, -EINVAL,
					"event '%s' of PMU '%s' takes no value in '%s' (write it "
					"alone: '%s/%s/')",
					terms[i].name, pmu, s->spec, pmu, terms[i].name);
			return fail(
				s, -EINVAL,
				"unknown term or event '%s' of PMU '%s' in '%s' (its terms: %s; "
				"perflab stat --list shows its events)",
				terms[i].name, pmu, s->spec, names[0] ? names : "none");
		}
		if (r < 0)
			return fail(s, r, "cannot read format '%s' of PMU '%s': %s", terms[i].name,
				    pmu, pl_read_strerror(r));
		struct pl_pmu_format f;
		r = pl_pmu_format_parse(text, &f);
		if (r < 0) {
			r = fail(
				s, -EINVAL,
				"format file '%s' of PMU '%s' for '%s' is not 'configN:BITS': '%s' "
				"(a broken PMU driver; spell the event with config=)",
				terms[i].name, pmu, s->spec, text);
			free(text);
			return r;
		}
		if (!pl_pmu_format_fits(&f, terms[i].value)) {
			r = fail(
				s, -EINVAL,
				"value 0x%llx of term '%s' in '%s' is wider than its %d bits (%s); "
				"the most is 0x%llx",
				(unsigned long long)terms[i].value, terms[i].name, s->spec, f.nbits,
				text, (unsigned long long)((1ULL << f.nbits) - 1));
			free(text);
			return r;
		}
		free(text);
		*field_of(&attr, f.field) |= pl_pmu_format_place(f.mask, terms[i].value);
	}
	struct pl_cnt_event *ev = sink_next(s);
	if (!ev)
		return 0;
	ev->attr = attr;
	snprintf(ev->pmu, sizeof(ev->pmu), "%s", pmu);
	ev->scale = tmp.scale;
	memcpy(ev->unit, tmp.unit, sizeof(ev->unit));
	ev->per_pkg = tmp.per_pkg;
	char cm[512];
	snprintf(cm, sizeof(cm), PL_PMU_DEVICES "/%s/cpumask", pmu);
	if (pl_exists(cm))
		ev->per_pkg = true;
	return apply_mods(s, ev, mods);
}

/* The instance part of PMU name @dir given the user's @name: @dir is @name, @name_N,
 * uncore_@name or uncore_@name_N (perf's uncore matching, tools/perf/util/pmu.c). */
static bool instance_of(const char *dir, const char *name)
{
	const char *d = dir;
	size_t l = strlen(name);
	if (strncmp(d, name, l) != 0 && strncmp(d, "uncore_", 7) == 0 &&
	    strncmp(name, "uncore_", 7))
		d += 7;
	if (strncmp(d, name, l) != 0)
		return false;
	d += l;
	if (*d == '\0')
		return true;
	if (*d != '_' || !isdigit((unsigned char)d[1]))
		return false;
	for (d++; *d; d++)
		if (!isdigit((unsigned char)*d))
			return false;
	return true;
}

static bool keep_instance(const char *dir, const void *name)
{
	return instance_of(dir, name);
}

/* The PMU directories @name means, sorted: itself, its instances, or for "cpu" the core
 * PMUs. */
static int pmus_named(const char *name, char ***out, size_t *n)
{
	char p[512];
	snprintf(p, sizeof(p), PL_PMU_DEVICES "/%s/type", name);
	*out = NULL;
	*n = 0;
	if (pl_exists(p)) {
		char **v = calloc(2, sizeof(*v));
		if (!v || !(v[0] = strdup(name))) {
			free(v);
			return -ENOMEM;
		}
		*out = v;
		*n = 1;
		return 0;
	}
	if (strcmp(name, "cpu") == 0)
		return core_pmus(out, n);
	return pmus_where(keep_instance, name, out, n);
}

struct pc_ctx {
	struct sink *s;
};

static int powercap_one(const char *zone, void *vctx)
{
	struct pc_ctx *c = vctx;
	struct pl_cnt_event *ev = sink_next(c->s);
	if (!ev)
		return 0;
	ev->source = PL_CNT_POWERCAP;
	snprintf(ev->pmu, sizeof(ev->pmu), "powercap");
	snprintf(ev->path, sizeof(ev->path), "/sys/class/powercap/%s/energy_uj", zone);
	ev->scale = 1e-6; /* microjoules */
	snprintf(ev->unit, sizeof(ev->unit), "Joules");
	ev->per_pkg = true;
	return 0;
}

static int count_zone(const char *zone, void *ctx)
{
	(void)zone;
	(void)ctx;
	return 0;
}

/* power/energy-*: the powercap zones. 0 when none matched. */
static int powercap(struct sink *s, const char *alias, const char *mods)
{
	struct pc_ctx c = { s };
	char **pm = NULL;
	size_t np = 0;
	if (pmus_named("power", &pm, &np) == 0 && np) {
		pl_strv_free(pm);
		return 0; /* the power PMU exists: it answers */
	}
	pl_strv_free(pm);
	if (mods && *mods) {
		int k = pl_pmu_powercap_zones(alias, count_zone, NULL);
		if (k > 0)
			return fail(
				s, -EINVAL,
				"'%s' is read from the powercap sysfs, which takes no modifiers "
				"(drop '%s')",
				s->spec, mods);
	}
	int r = pl_pmu_powercap_zones(alias, powercap_one, &c);
	return r == -EINVAL ? 0 : r;
}

/* "pmu/inside/mods". */
static int resolve_pmu_form(struct sink *s, const char *spec)
{
	const char *slash = strchr(spec, '/');
	const char *close = strchr(slash + 1, '/');
	if (!close)
		return fail(s, -EINVAL,
			    "unterminated '%s' (a PMU event is 'pmu/terms/', e.g. "
			    "'cpu/event=0x3c/')",
			    spec);
	size_t nl = (size_t)(slash - spec);
	char name[PL_CNT_PMU_MAX];
	if (!name_ok(spec, nl) || nl >= sizeof(name))
		return fail(s, -EINVAL, "bad PMU name in '%s' (a PMU event is 'pmu/terms/')", spec);
	memcpy(name, spec, nl);
	name[nl] = '\0';
	char inside[PL_CNT_NAME_MAX];
	snprintf(inside, sizeof(inside), "%.*s", (int)(close - slash - 1), slash + 1);
	const char *mods = close + 1;
	if (*mods == ':')
		return fail(s, -EINVAL,
			    "modifiers of a PMU event follow its closing slash without a colon: "
			    "write '%.*s%s', not '%s'",
			    (int)(close + 1 - spec), spec, mods + 1, spec);
	if (strchr(mods, '/'))
		return fail(s, -EINVAL,
			    "junk after the PMU event in '%s' (one event per spelling; "
			    "separate events with commas)",
			    spec);
	char **pmus = NULL;
	size_t np = 0;
	int r = pmus_named(name, &pmus, &np);
	if (r < 0)
		return fail(s, r, "cannot list the PMUs in " PL_PMU_DEVICES ": %s",
			    pl_read_strerror(r));
	if (np == 0) {
		pl_strv_free(pmus);
		if (strcmp(name, "power") == 0 && name_ok(inside, strlen(inside))) {
			r = powercap(s, inside, mods);
			if (r != 0)
				return r < 0 ? r : 0;
		}
		if (strcmp(name, "power") == 0)
			return fail(s, -ENOENT,
				    "no power PMU and no powercap zone "
				    "(/sys/class/powercap/intel-rapl:N) "
				    "for '%s': this machine does not expose RAPL energy counters",
				    spec);
		if (strcmp(name, "cpu") == 0)
			return fail(s, -ENODEV,
				    "cannot count '%s': this machine has no core PMU (perflab stat "
				    "--list shows this machine's events)",
				    spec);
		return fail(s, -ENOENT,
			    "unknown PMU '%s' in '%s' (perflab stat --list shows this machine's "
			    "PMUs and events)",
			    name, spec);
	}
	/* On a hybrid machine "cpu/alias/" goes to each core PMU that has the alias. */
	int first = 0, ok = 0;
	char firsterr[256] = "";
	for (size_t i = 0; i < np; i++) {
		size_t before = s->n;
		r = resolve_on(s, pmus[i], inside, mods);
		if (r == 0) {
			ok++;
			continue;
		}
		s->n = before;
		if (!first) {
			first = r;
			snprintf(firsterr, sizeof(firsterr), "%s", s->err);
		}
		if (strcmp(name, "cpu") != 0 || np == 1)
			break;
	}
	pl_strv_free(pmus);
	if (!ok) {
		snprintf(s->err, s->errlen, "%s", firsterr);
		return first;
	}
	return 0;
}

/* The PMU-group name of @dir for telling two PMUs' aliases apart: "cpu" for a core
 * PMU, the name without its instance suffix otherwise. */
static void pmu_group(const char *dir, char *out, size_t len)
{
	if (pl_pmu_is_core(dir)) {
		snprintf(out, len, "cpu");
		return;
	}
	size_t l = strlen(dir);
	size_t k = l;
	while (k > 0 && isdigit((unsigned char)dir[k - 1]))
		k--;
	if (k < l && k > 1 && dir[k - 1] == '_')
		l = k - 1;
	snprintf(out, len, "%.*s", (int)l, dir);
}

/* A bare alias: 1 when some PMU has it (events added or an error set in r), 0 when
 * none. */
static int resolve_bare_alias(struct sink *s, const char *alias, const char *mods, int *rr)
{
	char **all = NULL;
	size_t na = 0;
	*rr = 0;
	if (!name_ok(alias, strlen(alias)) || pl_pmu_names(&all, &na) < 0)
		return 0;
	char group[PL_CNT_PMU_MAX] = "", g[PL_CNT_PMU_MAX], file[256];
	int found = 0;
	for (size_t i = 0; i < na && *rr == 0; i++) {
		if (!find_alias(all[i], alias, file, sizeof(file)))
			continue;
		pmu_group(all[i], g, sizeof(g));
		if (found && strcmp(g, group) != 0) {
			*rr = fail(s, -EINVAL,
				   "event '%s' is defined by PMUs '%s' and '%s' (spell it "
				   "'%s/%s/' or '%s/%s/')",
				   alias, group, g, group, alias, g, alias);
			break;
		}
		snprintf(group, sizeof(group), "%s", g);
		found = 1;
		*rr = resolve_on(s, all[i], file, mods);
	}
	pl_strv_free(all);
	if (!found) {
		int r = powercap(s, alias, mods);
		if (r != 0) {
			*rr = r < 0 ? r : 0;
			return 1;
		}
	}
	return found;
}

static bool tp_name_ok(const char *s, size_t len)
{
	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

/* "sys:name" with optional ":mods": the tracepoint id from tracefs. */
static int resolve_tracepoint(struct sink *s, const char *sys, size_t sl, const char *rest)
{
	const char *colon = strchr(rest, ':');
	size_t el = colon ? (size_t)(colon - rest) : strlen(rest);
	if (!tp_name_ok(sys, sl) || !tp_name_ok(rest, el))
		return fail(
			s, -ENOENT,
			"unknown event '%s' (perflab stat --list shows this machine's events; a "
			"tracepoint is 'system:name')",
			s->spec);
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	uint64_t id = 0;
	int r = -ENOENT;
	for (size_t i = 0; i < 2 && r < 0; i++) {
		int e = pl_read_u64f(&id, "%s/events/%.*s/%.*s/id", dirs[i], (int)sl, sys, (int)el,
				     rest);
		if (e == 0 || r == -ENOENT)
			r = e;
	}
	if (r == -EACCES || r == -EPERM)
		return fail(
			s, r,
			"cannot read the id of tracepoint '%.*s:%.*s': permission denied (run as "
			"root, or make tracefs readable)",
			(int)sl, sys, (int)el, rest);
	if (r < 0)
		return fail(s, -ENOENT,
			    "unknown event or tracepoint '%s' (perflab stat --list shows this "
			    "machine's events and tracepoint systems)",
			    s->spec);
	struct pl_cnt_event *ev = sink_next(s);
	if (!ev)
		return 0;
	ev->attr.type = PERF_TYPE_TRACEPOINT;
	ev->attr.config = id;
	snprintf(ev->pmu, sizeof(ev->pmu), "tracepoint");
	return apply_mods(s, ev, colon ? colon + 1 : NULL);
}

/* "rNNNN": PERF_TYPE_RAW (perf's lexer: r followed by 1 to 16 hex digits). */
static bool raw_event(const char *name, size_t len, uint64_t *config)
{
	if (len < 2 || len > 17 || name[0] != 'r')
		return false;
	uint64_t v = 0;
	for (size_t i = 1; i < len; i++) {
		int c = (unsigned char)name[i];
		if (!isxdigit(c))
			return false;
		v = v << 4 | (uint64_t)(isdigit(c) ? c - '0' : tolower(c) - 'a' + 10);
	}
	*config = v;
	return true;
}

static int resolve_plain(struct sink *s, const char *spec)
{
	const char *colon = strchr(spec, ':');
	size_t al = colon ? (size_t)(colon - spec) : strlen(spec);
	char a[PL_CNT_NAME_MAX];
	snprintf(a, sizeof(a), "%.*s", (int)al, spec);
	const char *mods = colon ? colon + 1 : NULL;
	uint32_t type;
	uint64_t config;
	if (pl_pmu_generic(a, &type, &config))
		return add_generic(s, type, config, mods);
	if (raw_event(a, al, &config)) {
		char **cores = NULL;
		size_t nc = 0;
		struct pl_cnt_event *ev = sink_next(s);
		if (!ev)
			return 0;
		ev->attr.type = PERF_TYPE_RAW;
		ev->attr.config = config;
		if (core_pmus(&cores, &nc) < 0)
			nc = 0;
		snprintf(ev->pmu, sizeof(ev->pmu), "%s", nc ? cores[0] : "cpu");
		pl_strv_free(cores);
		return apply_mods(s, ev, mods);
	}
	int r = 0;
	if (resolve_bare_alias(s, a, mods, &r))
		return r;
	if (colon)
		return resolve_tracepoint(s, spec, al, colon + 1);
	return fail(s, -ENOENT,
		    "unknown event '%s' (perflab stat --list shows this machine's events)", spec);
}

int pl_pmu_resolve_all(const char *spec, struct pl_cnt_event *evs, size_t max, char *err,
		       size_t errlen)
{
	struct sink s = { evs, max, 0, spec, err, errlen };
	if (errlen)
		err[0] = '\0';
	size_t len = strlen(spec);
	if (len == 0)
		return fail(&s, -EINVAL, "empty event name (give one, e.g. -e cycles)");
	if (len >= PL_CNT_NAME_MAX)
		return fail(&s, -EINVAL, "event name '%.40s...' longer than %d bytes", spec,
			    PL_CNT_NAME_MAX - 1);
	for (size_t i = 0; i < len; i++)
		if (isspace((unsigned char)spec[i]) || !isprint((unsigned char)spec[i]))
			return fail(&s, -EINVAL,
				    "space or control character in event name '%s' (names are "
				    "'cycles', 'cpu/event=0x3c/', 'sys:name')",
				    spec);
	int r = strchr(spec, '/') ? resolve_pmu_form(&s, spec) : resolve_plain(&s, spec);
	if (r < 0)
		return r;
	if (s.n == 0)
		return fail(&s, -ENOENT, "'%s' resolves to no event on this machine", spec);
	if (s.n > max)
		return fail(&s, -E2BIG, "'%s' resolves to %zu events, more than %zu", spec, s.n,
			    max);
	return (int)s.n;
}

int pl_pmu_resolve(const char *spec, struct pl_cnt_event *ev, char *err, size_t errlen)
{
	struct pl_cnt_event one[1];
	struct pl_cnt_event *many = NULL;
	size_t max = 1;
	int r = pl_pmu_resolve_all(spec, one, max, err, errlen);
	while (r == -E2BIG && max < 4096) {
		/* several instances: resolve them all, hand back the first */
		max *= 16;
		free(many);
		many = calloc(max, sizeof(*many));
		if (!many)
			return -ENOMEM;
		r = pl_pmu_resolve_all(spec, many, max, err, errlen);
	}
	if (r > 0)
		*ev = many ? many[0] : one[0];
	free(many);
	return r < 0 ? r : 0;
}

int pl_pmu_core_slots(uint64_t *slots)
{
	char **cores = NULL;
	size_t n = 0;
	int r = core_pmus(&cores, &n);
	if (r < 0)
		return r;
	r = -ENOENT;
	for (size_t i = 0; i < n; i++) {
		uint64_t v = 0;
		if (r < 0 &&
		    pl_read_u64f(&v, "/sys/bus/event_source/devices/%s/caps/slots", cores[i]) ==
			    0 &&
		    v > 0) {
			*slots = v;
			r = 0;
		}
		free(cores[i]);
	}
	free(cores);
	return r;
}
