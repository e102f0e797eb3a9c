/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "util/libarchive.h"

#include <errno.h>
#include <stdio.h>

#include "util/dl.h"
#include "util/testhook.h"

struct pl_libarchive pl_la;

int pl_libarchive_load(char *why, size_t wl)
{
	static int state; /* 0 not tried, 1 loaded, -1 failed */
	static char err[300];
	if (state == 0) {
#define PL_LIBARCHIVE_NAME(name) #name,
		static const char *const names[] = { PL_LIBARCHIVE_FUNCS(PL_LIBARCHIVE_NAME) };
#undef PL_LIBARCHIVE_NAME
		enum { N = sizeof(names) / sizeof(names[0]) };
		void *fns[N];
		/* tests: load this file instead, to check the error when it is missing */
		const char *path = PL_TEST_HOOK("PERFLAB_TEST_LIBARCHIVE");
		if (!path || !*path)
			path = PL_LIBARCHIVE_SONAME;
		if (!pl_dl_open(path, names, fns, N, err, sizeof(err))) {
			state = -1;
		} else {
			size_t i = 0;
#define PL_LIBARCHIVE_SET(name) pl_la.name = (__typeof__(name) *)fns[i++];
			PL_LIBARCHIVE_FUNCS(PL_LIBARCHIVE_SET)
#undef PL_LIBARCHIVE_SET
			state = 1;
		}
	}
	if (state < 0) {
		snprintf(why, wl, "%s", err);
		return -ELIBACC;
	}
	return 0;
}
