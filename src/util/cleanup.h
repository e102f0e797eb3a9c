/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Scope-bound cleanup (STYLE.md habit 6): a variable declared with one of these macros is
 * released when it goes out of scope, on every return path, so a function needs neither
 * repeated frees nor a goto ladder. The method is systemd's _cleanup_free_ /
 * _cleanup_close_ (src/basic/alloc-util.h, fd-util.h), written with GCC/Clang's
 * __attribute__((cleanup)), which both compilers we build with support.
 *
 *     pl_autofree char *path = pl_strdup(...);    // free(path) at scope exit
 *     pl_autoclose int fd = open(...);             // close(fd) when fd >= 0
 *     pl_autofclose FILE *f = fopen(...);          // fclose(f) when f != NULL
 *
 * To hand ownership on, return pl_steal_ptr(&p) (or pl_steal_fd(&fd)): it yields the
 * value and leaves NULL (or -1) behind, so the cleanup does nothing. Every destructor
 * accepts NULL / -1. Type-specific ones (json_t, struct pl_facts, ...) are declared with
 * PL_DEFINE_CLEANUP beside their type, never here, so util depends on nothing above it. */
#ifndef PERFLAB_UTIL_CLEANUP_H
#define PERFLAB_UTIL_CLEANUP_H
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/** free(*p); for pl_autofree. */
static inline void pl_freep(void *p)
{
	free(*(void **)p);
}

/** close(*fd) when *fd >= 0; errno is kept (a close in cleanup must not hide the error
 *  being reported). For pl_autoclose. */
static inline void pl_closep(int *fd)
{
	if (*fd >= 0) {
		int e = errno;
		close(*fd);
		errno = e;
	}
}

/** fclose(*f) when *f != NULL; errno is kept. For pl_autofclose (read-only streams: a
 *  stream whose write must be checked is closed by hand and its result checked). */
static inline void pl_fclosep(FILE **f)
{
	if (*f) {
		int e = errno;
		fclose(*f);
		errno = e;
	}
}

/** A heap pointer freed at scope exit. */
#define pl_autofree __attribute__((cleanup(pl_freep)))
/** A file descriptor closed at scope exit (initialise it to -1 or a valid fd). */
#define pl_autoclose __attribute__((cleanup(pl_closep)))
/** A FILE * closed at scope exit (initialise it to NULL or an open stream). */
#define pl_autofclose __attribute__((cleanup(pl_fclosep)))

/** Call FUNC(&var) at scope exit, for a struct held by value whose release function takes
 *  a pointer to it and accepts it zeroed (pl_args_free, pl_cmp_session_free, ...):
 *      pl_cleanup(pl_args_free) struct pl_args args = { 0 }; */
#define pl_cleanup(FUNC) __attribute__((cleanup(FUNC)))

/** Declare a cleanup function NAME##p for pointers to TYPE released with FUNC(TYPE *),
 *  which must accept NULL or is called only when the pointer is non-NULL; use it as
 *  __attribute__((cleanup(NAME##p))). Example beside jansson's type:
 *  PL_DEFINE_CLEANUP(json_t, pl_json_decref, json_decref). */
#define PL_DEFINE_CLEANUP(TYPE, NAME, FUNC)                                                        \
	static inline void NAME##p(TYPE **p)                                                       \
	{                                                                                          \
		if (*p)                                                                            \
			FUNC(*p);                                                                  \
	}

/** Take a pointer out of a cleanup variable: returns *pp and sets *pp = NULL. */
static inline void *pl_steal_ptr(void *pp)
{
	void **p = pp;
	void *v = *p;
	*p = NULL;
	return v;
}

/** Take a descriptor out of a pl_autoclose variable: returns *fd and sets *fd = -1. */
static inline int pl_steal_fd(int *fd)
{
	int v = *fd;
	*fd = -1;
	return v;
}

#endif
