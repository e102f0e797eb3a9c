/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Test hooks: environment variables that let the tests inject faults or stand-in
 * libraries (PERFLAB_NVML_LIB, PERFLAB_TUNE_FAULT_AFTER, ...). They exist only in builds
 * made with -Dtests=true (meson defines PERFLAB_TEST_HOOKS there); in a release build
 * PL_TEST_HOOK is NULL and the variable's name is not even in the binary, so nothing in a
 * root run's environment can make perflab load code or stop half-way. Where they exist
 * they are read with secure_getenv(3), which ignores them in set-user-ID runs. */
#ifndef PERFLAB_UTIL_TESTHOOK_H
#define PERFLAB_UTIL_TESTHOOK_H
#include <stdlib.h>

#ifdef PERFLAB_TEST_HOOKS
/** The value of test hook variable @name (a string literal), or NULL. */
#define PL_TEST_HOOK(name) ((const char *)secure_getenv(name))
#else
#define PL_TEST_HOOK(name) ((const char *)NULL)
#endif

/** The number in test hook value @s (PL_TEST_HOOK's result), or @dflt when @s is NULL. */
static inline int pl_test_hook_int(const char *s, int dflt)
{
	return s ? atoi(s) : dflt;
}

#endif
