/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "util/archive.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "util/beneath.h"
#include "util/cleanup.h"
#include "util/escape.h"
#include "util/json.h"
#include "util/libarchive.h"
#include "util/str.h"
#include "util/testhook.h"

/* Headers allowed per member on top of the contents in the decompressed stream: a ustar
 * header (512 bytes) and a pax extended header with its own header (1 KiB or so). */
#define HEADER_ALLOWANCE 2048ull
/* Symlinks the kernel follows in one path walk before ELOOP (fs/namei.c, MAXSYMLINKS). */
#define MAX_SYMLINKS 40

static const char FIX_NOT_ARCHIVE[] =
	"give a snapshot written by perflab snapshot, a zstd-compressed tar, or a directory";
static const char FIX_DAMAGED[] = "copy the archive again, or take a new snapshot";
static const char FIX_FOREIGN[] = "perflab snapshot never writes such a member: take a new "
				  "snapshot with perflab snapshot";
static const char FIX_LIMIT[] = "a snapshot of one machine is far smaller: take a new "
				"snapshot with perflab snapshot";
static const char FIX_WRITE[] = "free space in $TMPDIR, or point TMPDIR elsewhere";

/* The archive's bytes: a file descriptor or a buffer, decompressed here when they are a
 * zstd stream, with the decompressed bytes counted against @cap. */
struct source {
	int fd; /* -1: read @mem */
	const unsigned char *mem;
	size_t memlen, mempos;
	bool sniffed, zstd, eof, need_more;
	ZSTD_DStream *z;
	ZSTD_inBuffer zin;
	unsigned char in[1 << 16];
	unsigned char out[1 << 17];
	uint64_t produced, cap;
	bool over_cap;	 /* stopped at @cap */
	bool zcorrupt;	 /* zstd said the stream is damaged */
	bool ztruncated; /* the stream ended inside a frame */
	const char *zerr;
};

/* Fill @s->in from the source: bytes read, 0 at the end, -1 with errno on error. */
static ssize_t fill(struct source *s)
{
	if (s->fd < 0) {
		size_t n = s->memlen - s->mempos;
		if (n > sizeof(s->in))
			n = sizeof(s->in);
		memcpy(s->in, s->mem + s->mempos, n);
		s->mempos += n;
		return (ssize_t)n;
	}
	for (;;) {
		ssize_t n = read(s->fd, s->in, sizeof(s->in));
		if (n >= 0 || errno != EINTR)
			return n;
	}
}

static la_ssize_t src_read(struct archive *a, void *client, const void **out)
{
	struct source *s = client;
	if (s->eof)
		return 0;
	if (!s->sniffed) {
		ssize_t n = fill(s);
		if (n < 0) {
			pl_la.archive_set_error(a, errno, "cannot read: %s", strerror(errno));
			return -1;
		}
		s->sniffed = true;
		s->zin = (ZSTD_inBuffer){ s->in, (size_t)n, 0 };
		/* a zstd frame (RFC 8878: magic 0xFD2FB528) or skippable frame (0x184D2A5?),
		 * little-endian */
		uint32_t magic = n >= 4 ? (uint32_t)s->in[0] | (uint32_t)s->in[1] << 8 |
						  (uint32_t)s->in[2] << 16 |
						  (uint32_t)s->in[3] << 24
					: 0;
		s->zstd = magic == 0xFD2FB528u || (magic & 0xFFFFFFF0u) == 0x184D2A50u;
		if (s->zstd && !(s->z = ZSTD_createDStream())) {
			pl_la.archive_set_error(a, ENOMEM, "out of memory");
			return -1;
		}
		if (!s->zstd) {
			if (n == 0)
				s->eof = true;
			s->produced += (uint64_t)n;
			*out = s->in;
			return n;
		}
	}
	if (!s->zstd) {
		ssize_t n = fill(s);
		if (n < 0) {
			pl_la.archive_set_error(a, errno, "cannot read: %s", strerror(errno));
			return -1;
		}
		s->produced += (uint64_t)n;
		if (s->produced > s->cap) {
			s->over_cap = true;
			pl_la.archive_set_error(a, EFBIG, "decompressed contents over the limit");
			return -1;
		}
		*out = s->in;
		return n;
	}
	for (;;) {
		if (s->zin.pos == s->zin.size) {
			ssize_t n = fill(s);
			if (n < 0) {
				pl_la.archive_set_error(a, errno, "cannot read: %s",
							strerror(errno));
				return -1;
			}
			if (n == 0) {
				if (s->need_more) {
					s->ztruncated = true;
					pl_la.archive_set_error(a, EINVAL,
								"the zstd stream is cut short");
					return -1;
				}
				s->eof = true;
				return 0;
			}
			s->zin = (ZSTD_inBuffer){ s->in, (size_t)n, 0 };
		}
		ZSTD_outBuffer zout = { s->out, sizeof(s->out), 0 };
		size_t r = ZSTD_decompressStream(s->z, &zout, &s->zin);
		if (ZSTD_isError(r)) {
			s->zcorrupt = true;
			s->zerr = ZSTD_getErrorName(r);
			pl_la.archive_set_error(a, EINVAL, "zstd: %s", s->zerr);
			return -1;
		}
		s->need_more = r != 0;
		if (zout.pos == 0)
			continue;
		s->produced += zout.pos;
		if (s->produced > s->cap) {
			s->over_cap = true;
			pl_la.archive_set_error(a, EFBIG, "decompressed contents over the limit");
			return -1;
		}
		*out = s->out;
		return (la_ssize_t)zout.pos;
	}
}

/* One extraction's state. */
struct ex {
	struct archive *a;
	struct source *src;
	int root;
	struct pl_archive_error *err;
	char *member;	/* the current member's raw name (libarchive's storage) */
	size_t members; /* headers seen */
	uint64_t total; /* content bytes written */
	char *lastdir;	/* the directory of the last member made, and its descriptor: */
	int lastfd;	/* members come in tree order, so most share it */
	char **links;	/* symlink members' relative paths, to resolve at the end */
	size_t nlinks, caplinks;
};

static int fail(struct ex *x, const char *member, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Fill the error: @member (raw, NULL for the archive as a whole), the reason and @fix.
 * Returns -EINVAL. */
static int fail(struct ex *x, const char *member, const char *fix, const char *fmt, ...)
{
	struct pl_archive_error *e = x->err;
	e->member[0] = '\0';
	if (member) {
		pl_autofree char *esc = pl_str_escape(member, PL_ESC_TERM);
		size_t n = strlen(esc);
		if (n >= sizeof(e->member))
			snprintf(e->member, sizeof(e->member), "%.*s...",
				 (int)sizeof(e->member) - 4, esc);
		else
			memcpy(e->member, esc, n + 1);
	}
	char why[sizeof(e->why)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	pl_autofree char *esc = pl_str_escape(why, PL_ESC_TERM);
	snprintf(e->why, sizeof(e->why), "%s", esc);
	e->fix = fix;
	return -EINVAL;
}

/* A failure reading the archive through libarchive: the limit, zstd's damage, or tar's.
 * @member is the member being read, or NULL when the failure came reading the header
 * after @after (NULL: before the first member). */
static int fail_read(struct ex *x, const char *member, const char *after)
{
	char where[sizeof(x->err->member) + 64] = "";
	if (!member && after) {
		pl_autofree char *esc = pl_str_escape(after, PL_ESC_TERM);
		snprintf(where, sizeof(where), " after member '%.*s'", 256, esc);
	} else if (!member && x->src->produced == 0) {
		/* zstd gives nothing of a block (up to 128 KiB decompressed) cut short, so
		 * the name of the member the cut is in never came out */
		snprintf(where, sizeof(where),
			 " within its first 128 KiB, before any member's name");
	}
	const char *s = pl_la.archive_error_string(x->a);
	if (x->src->over_cap)
		return fail(x, member, FIX_LIMIT,
			    "%s over %llu MiB in all once decompressed%s (the limit; a "
			    "compression bomb?)",
			    member ? "takes the archive" : "the archive is",
			    PL_ARCHIVE_MAX_TOTAL >> 20, where);
	if (x->src->ztruncated)
		return fail(x, member, FIX_DAMAGED, "%s cut short (truncated)%s",
			    member ? "is" : "the archive is", where);
	if (x->src->zcorrupt)
		return fail(x, member, FIX_DAMAGED, "%s damaged%s (zstd: %s)",
			    member ? "is" : "the archive is", where, x->src->zerr);
	return fail(x, member, FIX_DAMAGED, "%s damaged or cut short%s (%s)",
		    member ? "is" : "the archive is", where, s ? s : "unknown error");
}

/* The member name @name as a relative path without "." and empty components into @out
 * (PATH_MAX bytes): "" for the root itself. Returns NULL, or why it is refused. */
static const char *normalize(const char *name, char *out)
{
	if (!name)
		return "has no name this system can read";
	if (name[0] == '/')
		return "has an absolute path";
	size_t o = 0;
	for (const char *p = name; *p;) {
		const char *e = strchrnul(p, '/');
		size_t n = (size_t)(e - p);
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return "climbs out of the tree with '..'";
		if (n > NAME_MAX)
			return "has a path component longer than NAME_MAX";
		if (n && !(n == 1 && p[0] == '.')) {
			if (o + n + 2 > PATH_MAX)
				return "has a path longer than PATH_MAX";
			if (o)
				out[o++] = '/';
			memcpy(out + o, p, n);
			o += n;
		}
		p = *e ? e + 1 : e;
	}
	out[o] = '\0';
	return NULL;
}

/* The directory of @rel opened below the root (made when missing), and in *@base its
 * last component. Returns an fd to close (the root's own is duplicated) or -errno. */
static int open_parent(struct ex *x, char *rel, const char **base)
{
	char *slash = strrchr(rel, '/');
	if (!slash) {
		*base = rel;
		int fd = fcntl(x->root, F_DUPFD_CLOEXEC, 0);
		return fd < 0 ? -errno : fd;
	}
	*base = slash + 1;
	*slash = '\0';
	if (x->lastdir && x->lastfd >= 0 && strcmp(x->lastdir, rel) == 0) {
		*slash = '/';
		int fd = fcntl(x->lastfd, F_DUPFD_CLOEXEC, 0);
		return fd < 0 ? -errno : fd;
	}
	int fd = pl_beneath_mkdirs(x->root, rel, 0700);
	if (fd >= 0) {
		if (x->lastfd >= 0)
			close(x->lastfd);
		free(x->lastdir);
		x->lastdir = pl_xstrdup(rel);
		x->lastfd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	}
	*slash = '/';
	return fd;
}

/* The reason for a failure to create @rel's file or directory. */
static int fail_create(struct ex *x, int r)
{
	if (r == -ELOOP || r == -ENOTDIR)
		return fail(x, x->member, FIX_FOREIGN,
			    "lies below a symlink or a file of the archive");
	if (r == -EEXIST)
		return fail(x, x->member, FIX_FOREIGN, "appears twice in the archive");
	if (r == -ENAMETOOLONG || r == -EINVAL)
		return fail(x, x->member, FIX_FOREIGN, "has a name this system cannot create");
	fail(x, x->member, FIX_WRITE, "cannot be written: %s", strerror(-r));
	return r;
}

/* Check the manifest's bytes: a JSON object whose "format", when present, names ours. */
static int check_manifest(struct ex *x, const char *buf, size_t len)
{
	json_error_t je;
	pl_autojson json_t *doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (!doc || !json_is_object(doc))
		return fail(x, x->member, FIX_NOT_ARCHIVE,
			    "is not a perflab snapshot manifest (%s)",
			    doc ? "not a JSON object" : je.text);
	json_t *f = json_object_get(doc, "format");
	if (f && (!json_is_string(f) || strcmp(json_string_value(f), "perflab-snapshot") != 0))
		return fail(x, x->member, FIX_NOT_ARCHIVE,
			    "has \"format\": \"%s\", not \"perflab-snapshot\"",
			    json_is_string(f) ? json_string_value(f) : "(not a string)");
	return 0;
}

/* Write the current member's contents to the new file @fd, within the limits; the
 * manifest is also checked. */
static int write_contents(struct ex *x, int fd, bool manifest)
{
	static char buf[1 << 16];
	pl_autofree char *man = NULL;
	size_t manlen = 0;
	uint64_t size = 0;
	for (;;) {
		la_ssize_t n = pl_la.archive_read_data(x->a, buf, sizeof(buf));
		if (n < 0)
			return fail_read(x, x->member, NULL);
		if (n == 0)
			break;
		size += (uint64_t)n;
		x->total += (uint64_t)n;
		if (size > PL_ARCHIVE_MAX_MEMBER)
			return fail(x, x->member, FIX_LIMIT,
				    "is over %llu MiB (the limit of one member)",
				    PL_ARCHIVE_MAX_MEMBER >> 20);
		if (x->total > PL_ARCHIVE_MAX_TOTAL)
			return fail(x, x->member, FIX_LIMIT,
				    "brings the contents over %llu MiB in all (the limit)",
				    PL_ARCHIVE_MAX_TOTAL >> 20);
		if (manifest) {
			man = pl_xrealloc(man, manlen + (size_t)n);
			memcpy(man + manlen, buf, (size_t)n);
			manlen += (size_t)n;
		}
		for (la_ssize_t off = 0; off < n;) {
			ssize_t w = write(fd, buf + off, (size_t)(n - off));
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				return fail_create(x, -errno);
			off += w;
		}
	}
	return manifest ? check_manifest(x, man ? man : "", manlen) : 0;
}

/* Store @target of the symlink at @rel as the link the tree needs: an absolute target is
 * made relative to the link's directory (the tree's root stands for "/"; "." and ".."
 * are resolved against it lexically, stopping at the root as the kernel does at "/").
 * Returns a malloc'd string. */
static char *tree_target(const char *rel, const char *target)
{
	if (target[0] != '/')
		return pl_xstrdup(target);
	char norm[PATH_MAX];
	size_t o = 0;
	for (const char *p = target; *p;) {
		const char *e = strchrnul(p, '/');
		size_t n = (size_t)(e - p);
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			while (o > 0 && norm[o - 1] != '/')
				o--;
			if (o > 0)
				o--;
		} else if (n && !(n == 1 && p[0] == '.') && o + n + 2 < sizeof(norm)) {
			if (o)
				norm[o++] = '/';
			memcpy(norm + o, p, n);
			o += n;
		}
		p = *e ? e + 1 : e;
	}
	norm[o] = '\0';
	size_t depth = 0;
	for (const char *p = rel; *p; p++)
		depth += *p == '/';
	char *out = pl_xmalloc(depth * 3 + o + 2);
	size_t k = 0;
	for (size_t i = 0; i < depth; i++) {
		memcpy(out + k, "../", 3);
		k += 3;
	}
	if (o) {
		memcpy(out + k, norm, o);
		k += o;
	} else if (k) {
		k--; /* "../.." rather than "../../" */
	} else {
		out[k++] = '.';
	}
	out[k] = '\0';
	return out;
}

/* Make the current member @rel (normalized) of type @type. */
static int make_member(struct ex *x, char *rel, struct archive_entry *e)
{
	mode_t type = pl_la.archive_entry_filetype(e);
	if (pl_la.archive_entry_hardlink(e))
		return fail(x, x->member, FIX_FOREIGN, "is a hard link (to '%s')",
			    pl_la.archive_entry_hardlink(e));
	if (type == AE_IFDIR) {
		if (!*rel)
			return 0;
		int fd = pl_beneath_mkdirs(x->root, rel, 0700);
		if (fd < 0)
			return fail_create(x, fd);
		close(fd);
		return 0;
	}
	if (type != AE_IFREG && type != AE_IFLNK)
		return fail(x, x->member, FIX_FOREIGN, "is a %s, not a file, directory or symlink",
			    type == AE_IFCHR || type == AE_IFBLK ? "device node"
			    : type == AE_IFIFO			 ? "FIFO"
			    : type == AE_IFSOCK			 ? "socket"
								 : "member of an unknown type");
	if (!*rel)
		return fail(x, x->member, FIX_FOREIGN, "names the tree's root as a file");
	if (type == AE_IFREG && pl_la.archive_entry_size_is_set(e)) {
		uint64_t size = (uint64_t)pl_la.archive_entry_size(e);
		if (size > PL_ARCHIVE_MAX_MEMBER)
			return fail(x, x->member, FIX_LIMIT,
				    "is %llu bytes, over %llu MiB (the limit of one member)",
				    (unsigned long long)size, PL_ARCHIVE_MAX_MEMBER >> 20);
		if (x->total + size > PL_ARCHIVE_MAX_TOTAL)
			return fail(x, x->member, FIX_LIMIT,
				    "brings the contents over %llu MiB in all (the limit)",
				    PL_ARCHIVE_MAX_TOTAL >> 20);
	}
	const char *base;
	pl_autoclose int dfd = open_parent(x, rel, &base);
	if (dfd < 0)
		return fail_create(x, dfd);
	if (type == AE_IFLNK) {
		const char *t = pl_la.archive_entry_symlink(e);
		if (!t || !*t)
			return fail(x, x->member, FIX_FOREIGN, "is a symlink without a target");
		if (strlen(t) >= PATH_MAX)
			return fail(x, x->member, FIX_FOREIGN,
				    "is a symlink with a target longer "
				    "than PATH_MAX");
		pl_autofree char *target = tree_target(rel, t);
		if (symlinkat(target, dfd, base) < 0)
			return fail_create(x, -errno);
		if (x->nlinks == x->caplinks) {
			x->caplinks = x->caplinks ? 2 * x->caplinks : 64;
			x->links = pl_xrealloc(x->links, x->caplinks * sizeof(*x->links));
		}
		x->links[x->nlinks++] = pl_xstrdup(rel);
		return 0;
	}
	pl_autoclose int fd =
		openat(dfd, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return fail_create(x, -errno);
	int r = write_contents(x, fd, strcmp(rel, PL_ARCHIVE_MANIFEST) == 0);
	if (r == 0 && close(pl_steal_fd(&fd)) < 0)
		return fail_create(x, -errno);
	return r;
}

/* Whether the symlink member @rel, resolved through the tree's own symlinks as the kernel
 * resolves a path (each ".." physically, after the symlinks before it), leaves the tree.
 * A walk that meets more than MAX_SYMLINKS links ends in ELOOP for the kernel too, so it
 * counts as staying inside; a missing or non-directory component is walked through
 * lexically (the kernel would stop there), which can only refuse more. */
static bool escapes(int root, const char *rel)
{
	/* the physical path so far (no symlink in it) and the path still to walk */
	size_t cap = (MAX_SYMLINKS + 2) * (size_t)PATH_MAX;
	pl_autofree char *done = pl_xmalloc(PATH_MAX + 1);
	pl_autofree char *todo = pl_xmalloc(cap);
	pl_autofree char *link = pl_xmalloc(PATH_MAX);
	size_t dlen = 0;
	/* start at the link itself: it is a symlink, so the first step expands it */
	snprintf(todo, cap, "%s", rel);
	int seen = 0;
	char *p = todo;
	while (*p) {
		char *e = strchrnul(p, '/');
		size_t n = (size_t)(e - p);
		char *next = *e ? e + 1 : e;
		if (n == 0 || (n == 1 && p[0] == '.')) {
			p = next;
			continue;
		}
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (dlen == 0)
				return true;
			while (dlen > 0 && done[dlen - 1] != '/')
				dlen--;
			if (dlen > 0)
				dlen--;
			done[dlen] = '\0';
			p = next;
			continue;
		}
		size_t keep = dlen;
		if (dlen + n + 2 > PATH_MAX)
			return false; /* the kernel: ENAMETOOLONG */
		if (dlen)
			done[dlen++] = '/';
		memcpy(done + dlen, p, n);
		dlen += n;
		done[dlen] = '\0';
		ssize_t l = readlinkat(root, done, link, PATH_MAX - 1);
		if (l < 0) {
			p = next;
			continue;
		}
		if (++seen > MAX_SYMLINKS)
			return false;
		link[l] = '\0';
		/* replace the component by the link's target, in front of the rest */
		size_t rest = strlen(next);
		if ((size_t)l + 1 + rest + 1 > cap)
			return false;
		memmove(todo + l + 1, next, rest + 1);
		memcpy(todo, link, (size_t)l);
		todo[l] = '/';
		p = todo;
		dlen = link[0] == '/' ? 0 : keep;
		done[dlen] = '\0';
	}
	return false;
}

void pl_archive_utf8_begin(struct pl_archive_locale *l)
{
	l->utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	l->prev = l->utf8 ? uselocale(l->utf8) : (locale_t)0;
}

void pl_archive_utf8_end(struct pl_archive_locale *l)
{
	if (!l->utf8)
		return;
	uselocale(l->prev);
	freelocale(l->utf8);
	l->utf8 = (locale_t)0;
}

static int extract_utf8(struct source *src, int dirfd, struct pl_archive_error *err);

/* extract_utf8() with the thread's LC_CTYPE in UTF-8, so member names that are not ASCII
 * read as the bytes they were written from. */
static int extract(struct source *src, int dirfd, struct pl_archive_error *err)
{
	memset(err, 0, sizeof(*err));
	int r = pl_libarchive_load(err->why, sizeof(err->why));
	if (r < 0) {
		err->fix = PL_LIBARCHIVE_FIX;
		return r;
	}
	struct pl_archive_locale l;
	pl_archive_utf8_begin(&l);
	r = extract_utf8(src, dirfd, err);
	pl_archive_utf8_end(&l);
	return r;
}

static int extract_utf8(struct source *src, int dirfd, struct pl_archive_error *err)
{
	memset(err, 0, sizeof(*err));
	struct ex x = { .src = src, .err = err, .lastfd = -1 };
	/* the last member made, to place a damaged header after it (before any goto) */
	char *prevname = NULL;
	x.root = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
	if (x.root < 0) {
		int r = -errno;
		fail(&x, NULL, FIX_WRITE, "cannot use the directory: %s", strerror(-r));
		return r;
	}
	src->cap = PL_ARCHIVE_MAX_TOTAL + HEADER_ALLOWANCE * (PL_ARCHIVE_MAX_MEMBERS + 1);
	x.a = pl_la.archive_read_new();
	if (!x.a) {
		close(x.root);
		fail(&x, NULL, FIX_WRITE, "out of memory");
		return -ENOMEM;
	}
	pl_la.archive_read_support_format_tar(x.a);
	int r = 0;
	if (pl_la.archive_read_open(x.a, src, NULL, src_read, NULL) != ARCHIVE_OK) {
		/* libarchive reads the first block to choose the format here */
		if (src->over_cap || src->zcorrupt || src->ztruncated)
			r = fail_read(&x, NULL, NULL);
		else if (src->produced == 0)
			r = fail(&x, NULL, FIX_NOT_ARCHIVE, "the file is empty");
		else
			r = fail(&x, NULL, FIX_NOT_ARCHIVE,
				 "the file is not a tar archive, zstd-compressed or plain");
		goto out;
	}
	/* tests: stop after this many members until a signal ends the run, to check the
	 * directory goes with it */
	long stall = pl_test_hook_int(PL_TEST_HOOK("PERFLAB_TEST_ARCHIVE_STALL"), -1);
	char rel[PATH_MAX];
	const char *prev = NULL;
	for (;;) {
		struct archive_entry *e;
		int h = pl_la.archive_read_next_header(x.a, &e);
		if (h == ARCHIVE_EOF)
			break;
		if (h < ARCHIVE_WARN) {
			if (x.members == 0 && !src->over_cap && !src->zcorrupt && !src->ztruncated)
				r = fail(&x, NULL, FIX_NOT_ARCHIVE,
					 "the file is not a tar archive, zstd-compressed or plain");
			else
				r = fail_read(&x, NULL, prev);
			goto out;
		}
		x.member = (char *)pl_la.archive_entry_pathname(e);
		if (++x.members > PL_ARCHIVE_MAX_MEMBERS) {
			r = fail(&x, x.member, FIX_LIMIT,
				 "is one member too many (the limit is %d)",
				 PL_ARCHIVE_MAX_MEMBERS);
			goto out;
		}
		const char *why = normalize(x.member, rel);
		if (why) {
			r = fail(&x, x.member ? x.member : "", FIX_FOREIGN, "%s", why);
			goto out;
		}
		r = make_member(&x, rel, e);
		if (r < 0)
			goto out;
		if (stall >= 0 && x.members == (size_t)stall)
			for (;;)
				pause();
		free(prevname);
		prevname = pl_xstrdup(x.member);
		prev = prevname;
	}
	if (x.members == 0) {
		r = fail(&x, NULL, FIX_NOT_ARCHIVE, "the archive holds no members");
		goto out;
	}
	for (size_t i = 0; i < x.nlinks; i++) {
		if (escapes(x.root, x.links[i])) {
			char t[PATH_MAX];
			ssize_t l = readlinkat(x.root, x.links[i], t, sizeof(t) - 1);
			t[l < 0 ? 0 : l] = '\0';
			r = fail(&x, x.links[i], FIX_FOREIGN,
				 "is a symlink whose target '%s' resolves outside the tree", t);
			goto out;
		}
	}
out:
	free(prevname);
	for (size_t i = 0; i < x.nlinks; i++)
		free(x.links[i]);
	free(x.links);
	free(x.lastdir);
	if (x.lastfd >= 0)
		close(x.lastfd);
	pl_la.archive_read_free(x.a);
	close(x.root);
	return r;
}

static struct source *source_new(void)
{
	struct source *s = pl_xcalloc(1, sizeof(*s));
	s->fd = -1;
	return s;
}

static void source_free(struct source *s)
{
	if (!s)
		return;
	ZSTD_freeDStream(s->z);
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}

int pl_archive_extract_file(const char *path, int dirfd, struct pl_archive_error *err)
{
	memset(err, 0, sizeof(*err));
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int e = fd < 0 ? errno : 0;
		if (fd >= 0)
			close(fd);
		snprintf(err->why, sizeof(err->why), "%s",
			 e ? strerror(e) : "is not a regular file");
		err->fix = FIX_NOT_ARCHIVE;
		return -EINVAL;
	}
	struct source *s = source_new();
	s->fd = fd;
	int r = extract(s, dirfd, err);
	source_free(s);
	return r;
}

int pl_archive_extract_mem(const void *buf, size_t len, int dirfd, struct pl_archive_error *err)
{
	struct source *s = source_new();
	s->mem = buf;
	s->memlen = len;
	int r = extract(s, dirfd, err);
	source_free(s);
	return r;
}
