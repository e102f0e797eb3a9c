/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "util/record.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/str.h"
#include "util/sysroot.h"

/* The kernel's limit of symlinks followed in one path walk (MAXSYMLINKS, fs/namei.c). */
#define MAXLINKS 40

static struct {
	struct pl_rec_entry *v;
	size_t n, cap;
	size_t *slot; /* open addressing: index + 1 into v, 0 = empty */
	size_t nslot; /* a power of two, at least twice n */
	struct pl_rec_problem *p;
	size_t np, pcap;
} rec;
static bool on, paused;

/* FNV-1a, 64 bit (http://www.isthe.com/chongo/tech/comp/fnv/): a hash of path strings. */
static uint64_t hash(const char *s)
{
	uint64_t h = 14695981039346656037ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static void rehash(size_t nslot)
{
	free(rec.slot);
	rec.nslot = nslot;
	rec.slot = pl_xcalloc(nslot, sizeof(*rec.slot));
	for (size_t i = 0; i < rec.n; i++) {
		size_t s = hash(rec.v[i].path) & (nslot - 1);
		while (rec.slot[s])
			s = (s + 1) & (nslot - 1);
		rec.slot[s] = i + 1;
	}
}

/* The entry of @path, or NULL. */
static struct pl_rec_entry *find(const char *path)
{
	if (!rec.nslot)
		return NULL;
	for (size_t s = hash(path) & (rec.nslot - 1); rec.slot[s]; s = (s + 1) & (rec.nslot - 1))
		if (strcmp(rec.v[rec.slot[s] - 1].path, path) == 0)
			return &rec.v[rec.slot[s] - 1];
	return NULL;
}

/* The entry of @path, added with @type when new (*isnew says which). The first kind
 * recorded for a path stays. */
static struct pl_rec_entry *add(const char *path, enum pl_rec_type type, bool *isnew)
{
	struct pl_rec_entry *e = find(path);
	*isnew = !e;
	if (e)
		return e;
	if (rec.n + 1 > rec.cap) {
		rec.cap = rec.cap ? rec.cap * 2 : 256;
		rec.v = pl_xrealloc(rec.v, rec.cap * sizeof(*rec.v));
	}
	e = &rec.v[rec.n++];
	memset(e, 0, sizeof(*e));
	e->path = pl_xstrdup(path);
	e->type = type;
	if (rec.n * 2 > rec.nslot)
		rehash(rec.nslot ? rec.nslot * 2 : 1024);
	else {
		size_t s = hash(path) & (rec.nslot - 1);
		while (rec.slot[s])
			s = (s + 1) & (rec.nslot - 1);
		rec.slot[s] = rec.n;
	}
	return e;
}

/* Note @what with @why once; returns false when it was noted before. */
static bool problem(const char *what, const char *why)
{
	for (size_t i = 0; i < rec.np; i++)
		if (strcmp(rec.p[i].path, what) == 0)
			return false;
	if (rec.np + 1 > rec.pcap) {
		rec.pcap = rec.pcap ? rec.pcap * 2 : 16;
		rec.p = pl_xrealloc(rec.p, rec.pcap * sizeof(*rec.p));
	}
	rec.p[rec.np].path = pl_xstrdup(what);
	rec.p[rec.np].why = pl_xstrdup(why);
	rec.np++;
	return true;
}

void pl_record_stop(void)
{
	for (size_t i = 0; i < rec.n; i++) {
		free(rec.v[i].path);
		free(rec.v[i].data);
		free(rec.v[i].target);
	}
	for (size_t i = 0; i < rec.np; i++) {
		free(rec.p[i].path);
		free(rec.p[i].why);
	}
	free(rec.v);
	free(rec.slot);
	free(rec.p);
	memset(&rec, 0, sizeof(rec));
	on = false;
	paused = false;
}

void pl_record_start(void)
{
	pl_record_stop();
	on = true;
}

bool pl_record_on(void)
{
	return on && !paused;
}

bool pl_record_pause(bool p)
{
	bool was = paused;
	paused = p;
	return was;
}

/* True when the absolute path @p lies in the top-level directory @area ("proc"). */
static bool in_area(const char *p, const char *area)
{
	size_t l = strlen(area);
	return p[0] == '/' && strncmp(p + 1, area, l) == 0 && (p[l + 1] == '/' || !p[l + 1]);
}

/* Record the link @path (canonical) with @target, when the target stays inside the tree
 * (a relative one climbing above the root does not). Returns 0 or -EXDEV. */
static int add_link(const char *path, const char *target)
{
	if (target[0] != '/') {
		long depth = -1; /* components of the link's directory */
		for (const char *c = path; *c; c++)
			depth += *c == '/';
		for (const char *t = target; *t;) {
			size_t l = strcspn(t, "/");
			if (l == 2 && t[0] == '.' && t[1] == '.')
				depth--;
			else if (l && !(l == 1 && t[0] == '.'))
				depth++;
			if (depth < 0) {
				char why[PATH_MAX + 64];
				snprintf(why, sizeof(why),
					 "symlink to %s climbs above /: not recorded", target);
				problem(path, why);
				return -EXDEV;
			}
			t += l;
			t += *t == '/';
		}
	}
	bool isnew;
	struct pl_rec_entry *e = add(path, PL_REC_LINK, &isnew);
	if (isnew)
		e->target = pl_xstrdup(target);
	return 0;
}

/* Resolve @abs inside the sysroot as the kernel would, recording every symlink met on the
 * way, into the canonical path @cur (@curlen bytes; "" for "/"). A link is not followed out
 * of the top-level directory @abs starts in. Returns 0, -EXDEV (left that directory or
 * climbed above the root), -ELOOP (more than MAXLINKS links), -ENAMETOOLONG or -errno. */
static int walk(const char *abs, char *cur, size_t curlen)
{
	char rest[PATH_MAX], tmp[PATH_MAX], area[NAME_MAX + 1];
	size_t al = strcspn(abs + 1, "/");
	if (abs[0] != '/' || al == 0 || al > NAME_MAX)
		return -EINVAL;
	memcpy(area, abs + 1, al);
	area[al] = '\0';
	if (snprintf(rest, sizeof(rest), "%s", abs) >= (int)sizeof(rest))
		return -ENAMETOOLONG;
	cur[0] = '\0';
	int links = 0;
	const char *r = rest;
	for (;;) {
		while (*r == '/')
			r++;
		if (!*r)
			break;
		size_t l = strcspn(r, "/");
		char comp[NAME_MAX + 1];
		if (l > NAME_MAX)
			return -ENAMETOOLONG;
		memcpy(comp, r, l);
		comp[l] = '\0';
		r += l;
		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0) {
			char *s = strrchr(cur, '/');
			if (s)
				*s = '\0';
			continue;
		}
		if (cur[0] && !in_area(cur, area))
			return -EXDEV;
		size_t cl = strlen(cur);
		if (cl + 1 + l >= curlen)
			return -ENAMETOOLONG;
		cur[cl] = '/';
		memcpy(cur + cl + 1, comp, l + 1);
		char sp[PATH_MAX];
		if (pl_sysroot_path(sp, sizeof(sp), cur) < 0)
			return -ENAMETOOLONG;
		struct stat st;
		if (lstat(sp, &st) < 0)
			return -errno;
		if (!S_ISLNK(st.st_mode))
			continue;
		if (++links > MAXLINKS)
			return -ELOOP;
		char target[PATH_MAX];
		ssize_t n = readlink(sp, target, sizeof(target) - 1);
		if (n <= 0)
			return n < 0 ? -errno : -ENOENT;
		target[n] = '\0';
		if (add_link(cur, target) < 0)
			return -EXDEV;
		cur[cl] = '\0';
		if (target[0] == '/')
			cur[0] = '\0';
		if (snprintf(tmp, sizeof(tmp), "%s/%s", target, r) >= (int)sizeof(tmp))
			return -ENAMETOOLONG;
		memcpy(rest, tmp, strlen(tmp) + 1);
		r = rest;
	}
	return in_area(cur, area) ? 0 : -EXDEV;
}

/* walk(), noting a link out of its directory or a loop as a problem of @abs. */
static int walk_noting(const char *abs, char *cur, size_t curlen)
{
	int r = walk(abs, cur, curlen);
	if (r == -EXDEV) {
		char why[NAME_MAX + 80];
		snprintf(why, sizeof(why), "a symlink on the way leads out of /%.*s: not followed",
			 (int)strcspn(abs + 1, "/"), abs + 1);
		problem(abs, why);
	} else if (r == -ELOOP) {
		problem(abs, pl_read_strerror(r));
	}
	return r;
}

void pl_record_file(const char *abs, const char *data, size_t len)
{
	char canon[PATH_MAX];
	if (!pl_record_on() || walk_noting(abs, canon, sizeof(canon)) < 0)
		return;
	bool isnew;
	struct pl_rec_entry *e = add(canon, PL_REC_FILE, &isnew);
	if (isnew) {
		e->data = pl_xmalloc(len + 1);
		memcpy(e->data, data, len);
		e->data[len] = '\0';
		e->len = len;
	}
}

/* True for a name of digits only: a process directory of /proc. */
static bool is_pid(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

void pl_record_dir(const char *abs, char *const *names)
{
	char canon[PATH_MAX];
	if (!pl_record_on() || walk_noting(abs, canon, sizeof(canon)) < 0)
		return;
	bool isnew;
	add(canon, PL_REC_DIR, &isnew);
	/* The entries that are directories or links, so a listing of the tree sees them:
	 * without contents (a file in them is recorded when it is read). Other processes'
	 * directories of /proc are left out: a collector that reads one records it. */
	bool proc = strcmp(canon, "/proc") == 0;
	for (char *const *n = names; n && *n; n++) {
		if (proc && is_pid(*n))
			continue;
		char p[PATH_MAX], sp[PATH_MAX];
		if (snprintf(p, sizeof(p), "%s/%s", canon, *n) >= (int)sizeof(p) ||
		    pl_sysroot_path(sp, sizeof(sp), p) < 0)
			continue;
		struct stat st;
		if (lstat(sp, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			add(p, PL_REC_DIR, &isnew);
		} else if (S_ISLNK(st.st_mode)) {
			char target[PATH_MAX];
			ssize_t l = readlink(sp, target, sizeof(target) - 1);
			if (l > 0) {
				target[l] = '\0';
				add_link(p, target);
			}
		}
	}
}

void pl_record_exists(const char *abs)
{
	char canon[PATH_MAX], sp[PATH_MAX];
	if (!pl_record_on() || walk_noting(abs, canon, sizeof(canon)) < 0 ||
	    pl_sysroot_path(sp, sizeof(sp), canon[0] ? canon : "/") < 0)
		return;
	struct stat st;
	if (lstat(sp, &st) < 0)
		return;
	bool isnew;
	if (S_ISDIR(st.st_mode)) {
		add(canon, PL_REC_DIR, &isnew);
	} else if (S_ISREG(st.st_mode)) {
		/* found but not read: its bytes, read now through the helper */
		bool was = pl_record_pause(true);
		char *buf;
		size_t len;
		int r = pl_read_file(canon, &buf, &len);
		pl_record_pause(was);
		if (r < 0) {
			problem(abs, pl_read_strerror(r));
			return;
		}
		struct pl_rec_entry *e = add(canon, PL_REC_FILE, &isnew);
		if (isnew) {
			e->data = buf;
			e->len = len;
		} else {
			free(buf);
		}
	} else {
		problem(abs, pl_read_strerror(-PL_ENOTREG));
	}
}

void pl_record_link(const char *abs)
{
	char dir[PATH_MAX], canon[PATH_MAX], p[PATH_MAX], sp[PATH_MAX], target[PATH_MAX];
	if (!pl_record_on() || snprintf(dir, sizeof(dir), "%s", abs) >= (int)sizeof(dir))
		return;
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir || !slash[1])
		return;
	*slash = '\0';
	/* the link's directory resolved, with the area of the link itself */
	if (walk_noting(dir, canon, sizeof(canon)) < 0 ||
	    snprintf(p, sizeof(p), "%s/%s", canon, slash + 1) >= (int)sizeof(p) ||
	    pl_sysroot_path(sp, sizeof(sp), p) < 0)
		return;
	ssize_t l = readlink(sp, target, sizeof(target) - 1);
	if (l <= 0)
		return;
	target[l] = '\0';
	add_link(p, target);
}

/* Note @what's failure with @neg_errno, and the error for a read of @abs to give again
 * (PL_READ_ERRORS, read by the sysroot helper in a snapshot). */
static void failure(const char *what, const char *abs, int neg_errno)
{
	if (problem(what, pl_read_strerror(neg_errno)) && !strchr(abs, '\n')) {
		char line[PATH_MAX + 16];
		int n = snprintf(line, sizeof(line), "%d %s\n", -neg_errno, abs);
		if (n > 0 && (size_t)n < sizeof(line))
			pl_record_live(PL_READ_ERRORS, line, (size_t)n);
	}
}

void pl_record_failure(const char *abs, int neg_errno)
{
	if (!pl_record_on() || neg_errno == -ENOENT || neg_errno == -ENOTDIR)
		return;
	if (neg_errno == -EISDIR) {
		pl_record_exists(abs);
		return;
	}
	failure(abs, abs, neg_errno);
}

void pl_record_probe_failure(const char *probe, const char *abs, int neg_errno)
{
	if (pl_record_on() && neg_errno != -ENOENT)
		failure(probe, abs, neg_errno);
}

void pl_record_live(const char *abs, const void *data, size_t len)
{
	if (!pl_record_on())
		return;
	bool isnew;
	struct pl_rec_entry *e = add(abs, PL_REC_FILE, &isnew);
	e->data = pl_xrealloc(e->data, e->len + len + 1);
	memcpy(e->data + e->len, data, len);
	e->len += len;
	e->data[e->len] = '\0';
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct pl_rec_entry *)a)->path,
		      ((const struct pl_rec_entry *)b)->path);
}

size_t pl_record_entries(const struct pl_rec_entry **out)
{
	if (rec.n) {
		qsort(rec.v, rec.n, sizeof(*rec.v), cmp_entry);
		rehash(rec.nslot);
	}
	*out = rec.v;
	return rec.n;
}

size_t pl_record_problems(const struct pl_rec_problem **out)
{
	*out = rec.p;
	return rec.np;
}

/* @s (a NUL-terminated string it owns) replaced with its rewrite through @fn. */
static void rewrite_str(char **s, pl_record_rewrite_fn fn, void *ctx)
{
	if (!*s)
		return;
	size_t n;
	char *r = fn(ctx, NULL, *s, strlen(*s), &n);
	free(*s);
	*s = r;
}

void pl_record_rewrite(pl_record_rewrite_fn fn, void *ctx)
{
	for (size_t i = 0; i < rec.n; i++) {
		struct pl_rec_entry *e = &rec.v[i];
		if (e->data) {
			size_t n;
			char *r = fn(ctx, e->path, e->data, e->len, &n);
			free(e->data);
			e->data = r;
			e->len = n;
		}
		rewrite_str(&e->target, fn, ctx);
		rewrite_str(&e->path, fn, ctx);
	}
	for (size_t i = 0; i < rec.np; i++) {
		rewrite_str(&rec.p[i].path, fn, ctx);
		rewrite_str(&rec.p[i].why, fn, ctx);
	}
	if (!rec.n)
		return;
	/* sorted again; a path that two entries came to keeps the first */
	qsort(rec.v, rec.n, sizeof(*rec.v), cmp_entry);
	size_t w = 1;
	for (size_t i = 1; i < rec.n; i++) {
		if (strcmp(rec.v[i].path, rec.v[w - 1].path) == 0) {
			free(rec.v[i].path);
			free(rec.v[i].data);
			free(rec.v[i].target);
			continue;
		}
		rec.v[w++] = rec.v[i];
	}
	rec.n = w;
	rehash(rec.nslot);
}
