/* SPDX-License-Identifier: GPL-3.0-or-later */
/* [sysctl]: kernel parameters under /proc/sys, by their dotted names (tuned's sysctl
 * plugin). Values may use `>N`/`<N`; one pair of double quotes around a value is dropped. */
#include "tune/plugins/plugin.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune/safepath.h"
#include "util/str.h"

int pl_tune_plugin_sysctl(struct pl_tune_ctx *c, const struct pl_tune_unit *u)
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
		int r = pl_tune_check_modifier(c, u, o);
		if (r < 0) {
			free(path);
			return r;
		}
		struct pl_tune_item *it = pl_tune_add_item(c, "sysctl", u, o, NULL);
		it->target = path;
		/* tuned's sysctl plugin refuses these two (DEPRECATED_SYSCTL_OPTIONS, by the last
		 * name component: the _ms variants replace them). */
		const char *last = strrchr(path, '/') + 1;
		if (strcmp(last, "base_reachable_time") == 0 || strcmp(last, "retrans_time") == 0) {
			pl_tune_set_reason(it, PL_TI_UNSUPPORTED,
					   "deprecated sysctl, refused like tuned does: use %s_ms",
					   last);
			continue;
		}
		/* tuned's sysctl plugin drops one pair of surrounding double quotes (stock
		 * profiles write net.ipv4.tcp_rmem="4096 87380 16777216"). */
		const char *v = pl_tune_opt_value(o);
		size_t vl = strlen(v);
		char *uq = vl >= 2 && v[0] == '"' && v[vl - 1] == '"'
				   ? pl_xasprintf("%.*s", (int)(vl - 2), v + 1)
				   : pl_xstrdup(v);
		if (pl_tune_read_current(it, "no such sysctl on this kernel"))
			pl_tune_decide(it, uq);
		free(uq);
	}
	return 0;
}
