/* SPDX-License-Identifier: GPL-3.0-or-later */
/* [sysfs]: files under /sys named by path or glob (tuned's sysfs plugin), one item per
 * matching file in sorted order, the value written as given. */
#include "tune/plugins/plugin.h"

#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/str.h"
#include "util/sysroot.h"

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pl_tune_plugin_sysfs(struct pl_tune_ctx *c, const struct pl_tune_unit *u)
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
			struct pl_tune_item *it = pl_tune_add_item(c, "sysfs", u, o, NULL);
			it->target = pl_xstrdup(o->key);
			pl_tune_set_reason(it, PL_TI_NA, "no such file on this machine");
			continue;
		}
		size_t rl = strlen(pl_sysroot());
		qsort(g.gl_pathv, g.gl_pathc, sizeof(char *), cmp_strp);
		for (size_t k = 0; k < g.gl_pathc; k++) {
			struct pl_tune_item *it = pl_tune_add_item(c, "sysfs", u, o, NULL);
			it->target = pl_xstrdup(g.gl_pathv[k] + rl);
			/* Written as given: '>'/'<' are not modifiers here (tuned's sysfs
			 * plugin writes the value literally). */
			if (pl_tune_read_current(it, "no such file on this machine"))
				pl_tune_decide_literal(it, pl_tune_opt_value(o));
		}
		globfree(&g);
	}
	return 0;
}
