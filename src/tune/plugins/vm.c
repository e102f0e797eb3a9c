/* SPDX-License-Identifier: GPL-3.0-or-later */
/* [vm]: transparent hugepages and the dirty page limits (tuned's vm plugin). */
#include "tune/plugins/plugin.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/cleanup.h"
#include "util/str.h"
#include "util/sysroot.h"

int pl_tune_plugin_vm(struct pl_tune_ctx *c, const struct pl_tune_unit *u)
{
	for (size_t i = 0; i < u->opts.n; i++) {
		const struct pl_tune_opt *o = &u->opts.v[i];
		const char *v = pl_tune_opt_value(o);
		struct pl_tune_item *it;
		if (strcmp(o->key, "transparent_hugepages") == 0 ||
		    strcmp(o->key, "transparent_hugepage") == 0 ||
		    strcmp(o->key, "transparent_hugepage.defrag") == 0) {
			bool defrag = strstr(o->key, "defrag") != NULL;
			if (!defrag && strcmp(v, "always") != 0 && strcmp(v, "madvise") != 0 &&
			    strcmp(v, "never") != 0)
				return pl_tune_bad_value(c, u, o,
							 "is not always, madvise or never");
			it = pl_tune_add_item(c, "vm", u, o, NULL);
			it->target = pl_xasprintf("/sys/kernel/mm/transparent_hugepage/%s",
						  defrag ? "defrag" : "enabled");
			/* tuned's vm plugin leaves THP alone when the boot command line chose
			 * (transparent_hugepage= found after the start of /proc/cmdline). */
			pl_autofree char *cmdline = NULL;
			const char *at = NULL;
			if (!defrag && pl_read_file("/proc/cmdline", &cmdline, NULL) == 0)
				at = strstr(cmdline, "transparent_hugepage=");
			if (at && at > cmdline) {
				pl_tune_set_reason(
					it, PL_TI_NA,
					"the kernel command line sets transparent_hugepage=, "
					"which tuned keeps too");
				continue;
			}
			if (pl_tune_read_current(it, "no transparent hugepages on this kernel"))
				pl_tune_decide(it, v);
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
				return pl_tune_bad_value(
					c, u, o,
					"is not a byte count or a percentage 'N%' (0-100)");
			}
			it = pl_tune_add_item(c, "vm", u, o, NULL);
			it->target =
				pl_xasprintf("/proc/sys/vm/dirty_%s%s", bg ? "background_" : "",
					     pct || ratio_key ? "ratio" : "bytes");
			if (pl_tune_read_current(it, "no such sysctl on this kernel"))
				pl_tune_decide(it, t);
			free(t);
			continue;
		}
		it = pl_tune_add_item(c, "vm", u, o, NULL);
		pl_tune_set_reason(it, PL_TI_UNSUPPORTED,
				   "[vm] option '%s' is not supported by perflab", o->key);
	}
	return 0;
}
