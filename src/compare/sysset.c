/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fallback until the tune journal is available: old values are kept in memory and
 * restored on every orderly way out (normal end, failing command, SIGINT/SIGTERM). */
#include "compare/sysset.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/str.h"
#include "util/sysroot.h"

struct change {
	char *path;
	char *old;
};

struct pl_cmp_sys {
	struct change *c;
	size_t n;
};

char *pl_cmp_sys_read(const char *path)
{
	char *raw;
	if (pl_read_file(path, &raw, NULL) < 0)
		return NULL;
	char *open = strchr(raw, '['), *close = open ? strchr(open, ']') : NULL;
	char *v;
	if (open && close)
		v = pl_xasprintf("%.*s", (int)(close - open - 1), open + 1);
	else
		v = pl_xstrdup(pl_trim(raw));
	free(raw);
	return v;
}

static int write_value(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t len = strlen(value);
	ssize_t k = write(fd, value, len);
	int r = k < 0 ? -errno : (size_t)k != len ? -EIO : 0;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

int pl_cmp_sys_open(const char *state_dir, struct pl_cmp_sys **out, char *err, size_t errlen)
{
	(void)state_dir;
	if (!pl_sysroot_is_live()) {
		pl_cmp_seterr(err, errlen, "sysctl/sysfs variants change the live system: run without --sysroot");
		return -EROFS;
	}
	*out = pl_xcalloc(1, sizeof(**out));
	return 0;
}

int pl_cmp_sys_apply(struct pl_cmp_sys *s, const struct pl_cmp_variant *v, char *err,
		     size_t errlen)
{
	for (size_t i = 0; i < v->nsettings; i++) {
		const struct pl_cmp_setting *st = &v->settings[i];
		char *old = pl_cmp_sys_read(st->path);
		if (!old) {
			int r = access(st->path, F_OK) == 0 ? -EACCES : -ENOENT;
			pl_cmp_seterr(err, errlen, "variant '%s': cannot read %s (%s): %s", v->name, st->key,
			       st->path, r == -ENOENT ? "no such setting on this kernel" : strerror(-r));
			pl_cmp_sys_restore(s, NULL, 0);
			return r;
		}
		s->c = pl_xrealloc(s->c, (s->n + 1) * sizeof(*s->c));
		s->c[s->n++] = (struct change){ pl_xstrdup(st->path), old };
		int r = write_value(st->path, st->value);
		if (r < 0) {
			pl_cmp_seterr(err, errlen, "variant '%s': cannot set %s=%s: %s%s", v->name, st->key,
			       st->value, strerror(-r),
			       r == -EACCES || r == -EPERM ? " (run as root)" : "");
			pl_cmp_sys_restore(s, NULL, 0);
			return r;
		}
	}
	return 0;
}

int pl_cmp_sys_restore(struct pl_cmp_sys *s, char *err, size_t errlen)
{
	int first = 0;
	if (!s)
		return 0;
	while (s->n > 0) {
		struct change *c = &s->c[--s->n];
		int r = write_value(c->path, c->old);
		if (r < 0 && first == 0) {
			first = r;
			if (err)
				pl_cmp_seterr(err, errlen, "cannot restore %s to '%s': %s", c->path, c->old,
				       strerror(-r));
		}
		free(c->path);
		free(c->old);
	}
	return first;
}

void pl_cmp_sys_close(struct pl_cmp_sys *s)
{
	if (!s)
		return;
	pl_cmp_sys_restore(s, NULL, 0);
	free(s->c);
	free(s);
}
