/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "util/dl.h"

#include <dlfcn.h>
#include <stdio.h>

void *pl_dl_open(const char *file, const char *const *names, void **fns, size_t n, char *why,
		 size_t wl)
{
	void *h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		snprintf(why, wl, "%s", e ? e : "dlopen failed");
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		fns[i] = dlsym(h, names[i]);
		if (!fns[i]) {
			snprintf(why, wl, "%s has no %s", file, names[i]);
			dlclose(h);
			return NULL;
		}
	}
	return h;
}
