/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared libraries loaded with dlopen(3) where a command needs them rather than linked:
 * every library linked is mapped and relocated at every command's start (libarchive,
 * libpci and libisal were 14 of perflab check's 22 shared objects). */
#ifndef PERFLAB_UTIL_DL_H
#define PERFLAB_UTIL_DL_H
#include <stddef.h>

/** Load the shared object @file (dlopen(3) with RTLD_NOW | RTLD_LOCAL: its symbols stay
 *  out of the global scope, and a missing symbol of its own dependencies fails here) and
 *  look up its @n functions @names into @fns, in order. Returns the handle, kept open for
 *  the life of the process; or NULL with dlerror()'s text (or "FILE has no NAME") in @why
 *  (@wl bytes), nothing left loaded. */
void *pl_dl_open(const char *file, const char *const *names, void **fns, size_t n, char *why,
		 size_t wl);

#endif
