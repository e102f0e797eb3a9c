/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The plan (tune/plan.h): each enabled unit that applies on this machine goes to the
 * plugin of its type (the registry of tune/plugins/list.h); units of other types, unit
 * options perflab does not use and values it cannot evaluate become unsupported items. */
#include "tune/plan.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "tune/plugins/plugin.h"
#include "util/str.h"
#include "util/sysroot.h"

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

/* The plugins of tune/plugins/list.h, by tuned plugin name. */
static const struct {
	const char *name;
	int (*fn)(struct pl_tune_ctx *, const struct pl_tune_unit *);
} plugins[] = {
#define PL_TUNE_PLUGIN(name) { #name, pl_tune_plugin_##name },
#include "tune/plugins/list.h"
#undef PL_TUNE_PLUGIN
};

bool pl_tune_plugin_supported(const char *t)
{
	for (size_t k = 0; k < sizeof(plugins) / sizeof(plugins[0]); k++)
		if (strcmp(plugins[k].name, t) == 0)
			return true;
	return false;
}

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
	struct pl_tune_ctx c = { .pr = pr, .plan = plan, .err = err, .el = errlen };
	for (size_t i = 0; i < pr->nunits; i++) {
		const struct pl_tune_unit *u = &pr->units[i];
		if (!u->enabled)
			continue;
		char *why = NULL;
		if (!pl_tune_unit_applies(u, &why)) {
			free(why);
			continue;
		}
		int (*fn)(struct pl_tune_ctx *, const struct pl_tune_unit *) = NULL;
		for (size_t k = 0; k < sizeof(plugins) / sizeof(plugins[0]); k++)
			if (strcmp(u->type, plugins[k].name) == 0)
				fn = plugins[k].fn;
		if (!fn) {
			if (u->opts.n == 0) {
				struct pl_tune_item *it =
					pl_tune_add_item(&c, u->type, u, NULL, NULL);
				pl_tune_set_reason(it, PL_TI_UNSUPPORTED,
						   "plugin '%s' is not supported by perflab",
						   u->type);
			}
			for (size_t k = 0; k < u->opts.n; k++) {
				struct pl_tune_item *it =
					pl_tune_add_item(&c, u->type, u, &u->opts.v[k], NULL);
				pl_tune_set_reason(it, PL_TI_UNSUPPORTED,
						   "plugin '%s' is not supported by perflab",
						   u->type);
			}
			continue;
		}
		bool udev = false;
		for (size_t k = 0; u->unsupported_keys && u->unsupported_keys[k]; k++) {
			struct pl_tune_item *it = pl_tune_add_item(&c, u->type, u, NULL, NULL);
			free(it->key);
			it->key = pl_xstrdup(u->unsupported_keys[k]);
			pl_tune_set_reason(it, PL_TI_UNSUPPORTED,
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
				struct pl_tune_item *it =
					pl_tune_add_item(&c, u->type, u, &u->opts.v[k], NULL);
				pl_tune_set_reason(
					it, PL_TI_UNSUPPORTED,
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
			struct pl_tune_item *it = pl_tune_add_item(&c, u->type, u, prio, NULL);
			pl_tune_set_reason(
				it, PL_TI_UNSUPPORTED,
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
				pl_tune_set_reason(
					it, PL_TI_UNSUPPORTED,
					"value '%s' runs a program (${f:exec}); perflab never "
					"runs one: put the value in the profile",
					it->value);
			else
				pl_tune_set_reason(
					it, PL_TI_UNSUPPORTED,
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
