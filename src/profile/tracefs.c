/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "profile/tracefs.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

#include "util/str.h"
#include "util/sysroot.h"

const char *pl_tracefs_dir(const char *sys)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char p[PATH_MAX];
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(p, sizeof(p), "%s/events/%s", dirs[i], sys);
		if (pl_exists(p))
			return dirs[i];
	}
	/* Not mounted: mount it where it belongs (allowed for root only). */
	snprintf(p, sizeof(p), "%s/events/%s", dirs[0], sys);
	if (pl_sysroot_is_live() && pl_exists(dirs[0]) &&
	    mount("nodev", dirs[0], "tracefs", 0, NULL) == 0 && pl_exists(p))
		return dirs[0];
	return NULL;
}

int pl_tracefs_missing_errno(void)
{
	char **v = NULL;
	size_t nv = 0;
	int e = pl_list_dir("/sys/kernel/tracing", &v, &nv);
	pl_strv_free(v);
	return e == -EACCES || e == -EPERM ? -EACCES : -ENOENT;
}

int pl_tracefs_event(const char *dir, const char *sys, const char *ev, uint64_t *id, char **format)
{
	int r = pl_read_u64f(id, "%s/events/%s/%s/id", dir, sys, ev);
	if (r < 0 || !format)
		return r;
	return pl_read_filef(format, NULL, "%s/events/%s/%s/format", dir, sys, ev);
}

/* A decimal after "@key:" within [p, end), or -1. */
static long key_value(const char *p, const char *end, const char *key)
{
	const char *k = strstr(p, key);
	if (!k || k >= end)
		return -1;
	char *e;
	long v = strtol(k + strlen(key), &e, 10);
	if (e == k + strlen(key) || v < 0 || v > INT_MAX)
		return -1;
	return v;
}

int pl_tracefs_field(const char *fmt, const char *name, int *offset, int *size)
{
	if (!fmt || !name || !*name)
		return -ENOENT;
	size_t nl = strlen(name);
	for (const char *p = strstr(fmt, "field:"); p; p = strstr(p + 6, "field:")) {
		const char *end = strchr(p, '\n');
		if (!end)
			end = p + strlen(p);
		const char *semi = memchr(p, ';', (size_t)(end - p));
		if (!semi)
			continue;
		/* the name is the last word before ';', after an optional array suffix */
		const char *q = semi;
		if (q > p && q[-1] == ']')
			while (q > p && *q != '[')
				q--;
		if ((size_t)(q - p) < nl || memcmp(q - nl, name, nl) != 0)
			continue;
		char before = q - nl > p ? q[-(long)nl - 1] : ':';
		if (before != ' ' && before != '*' && before != ':' && before != '\t')
			continue;
		long off = key_value(semi, end, "offset:");
		long sz = key_value(semi, end, "size:");
		if (off < 0 || sz <= 0)
			return -ENOENT;
		if (offset)
			*offset = (int)off;
		if (size)
			*size = (int)sz;
		return 0;
	}
	return -ENOENT;
}
