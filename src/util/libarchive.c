/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "util/libarchive.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>

#include "util/testhook.h"

struct pl_libarchive pl_la;

int pl_libarchive_load(char *why, size_t wl)
{
	static int state; /* 0 not tried, 1 loaded, -1 failed */
	static char err[300];
	if (state == 0) {
		/* tests: load this file instead, to check the error when it is missing */
		const char *path = PL_TEST_HOOK("PERFLAB_TEST_LIBARCHIVE");
		if (!path || !*path)
			path = PL_LIBARCHIVE_SONAME;
		/* RTLD_LOCAL: its symbols stay out of the global scope; RTLD_NOW: a missing
		 * function of its own dependencies fails here, not in the middle of a write */
		void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		const char *e = h ? NULL : dlerror();
		struct pl_libarchive l = { 0 };
#define PL_LIBARCHIVE_SYM(name)                                                                    \
	if (h && !e && !(l.name = (__typeof__(name) *)dlsym(h, #name)))                            \
		e = "libarchive has no " #name;
		PL_LIBARCHIVE_FUNCS(PL_LIBARCHIVE_SYM)
#undef PL_LIBARCHIVE_SYM
		if (e) {
			snprintf(err, sizeof(err), "%s", e);
			if (h)
				dlclose(h);
			state = -1;
		} else {
			pl_la = l;
			state = 1;
		}
	}
	if (state < 0) {
		snprintf(why, wl, "%s", err);
		return -ELIBACC;
	}
	return 0;
}
