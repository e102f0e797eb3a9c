/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The tune journal (tune/journal.h): its record format, the loader that checks every
 * record, and the writes and rollbacks the records describe. One file above 800 lines on
 * purpose: a record's validation and the action that trusts it stay side by side. */
#include "tune/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/json.h"
#include "tune/safepath.h"
#include "tune/value.h"
#include "util/beneath.h"
#include "util/cleanup.h"
#include "util/str.h"
#include "util/sysroot.h"
#include "util/testhook.h"

struct pl_journal {
	char *dir;
	char *path;
	int fd;	   /* -1 when read only */
	int dirfd; /* -1 when read only */
	struct pl_journal_entry *v;
	size_t n, cap;
	unsigned long last; /* highest step */
	long writes;	    /* target writes through this handle (fault injection) */
};

static char *jstr(json_t *o, const char *k)
{
	json_t *s = json_object_get(o, k);
	return json_is_string(s) ? pl_xstrdup(json_string_value(s)) : NULL;
}

static void entry_free(struct pl_journal_entry *e)
{
	free(e->target);
	free(e->sysroot);
	free(e->old);
	free(e->old_raw);
	free(e->new_value);
	free(e->profile);
	free(e->accepted);
	free(e->copy);
}

static struct pl_journal_entry *by_step(struct pl_journal *j, unsigned long step)
{
	/* Steps are dense and start at 1, but be robust to gaps. */
	if (step >= 1 && step <= j->n && j->v[step - 1].step == step)
		return &j->v[step - 1];
	for (size_t i = 0; i < j->n; i++)
		if (j->v[i].step == step)
			return &j->v[i];
	return NULL;
}

static enum pl_journal_status status_from(const char *s)
{
	if (!s)
		return PL_JS_UNKNOWN;
	if (strcmp(s, "ok") == 0)
		return PL_JS_OK;
	if (strcmp(s, "changed") == 0)
		return PL_JS_CHANGED;
	if (strcmp(s, "refused") == 0)
		return PL_JS_REFUSED;
	return PL_JS_UNKNOWN;
}

const char *pl_journal_status_name(enum pl_journal_status s)
{
	switch (s) {
	case PL_JS_OK:
		return "ok";
	case PL_JS_CHANGED:
		return "changed";
	case PL_JS_REFUSED:
		return "refused";
	default:
		return "unknown";
	}
}

/* Why a record is refused, for the "FILE:LINE: ..." message. */
static int bad(char *why, size_t wl, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(char *why, size_t wl, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, wl, fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

/* Member @k of @o must be a string (or, with @null_ok, null): 0, 1 when null, or -1. */
static int want_str(json_t *o, const char *k, bool null_ok)
{
	json_t *v = json_object_get(o, k);
	if (json_is_string(v))
		return 0;
	return null_ok && json_is_null(v) ? 1 : -1;
}

/* The strings @strs (NULL-terminated) and the integer "time" of a set or persist record
 * of step @step: 0 or -EBADMSG with the reason in @why. */
static int want_fields(json_t *o, const char *const *strs, unsigned long step, char *why, size_t wl)
{
	for (size_t i = 0; strs[i]; i++)
		if (want_str(o, strs[i], false) < 0)
			return bad(why, wl, "step %lu: \"%s\" is missing or not a string", step,
				   strs[i]);
	if (!json_is_integer(json_object_get(o, "time")))
		return bad(why, wl, "step %lu: \"time\" is missing or not an integer", step);
	return 0;
}

/* Check one parsed record completely before anything of it is used: a damaged record
 * (an old value that is null or not a string, a missing field, a step that is not an
 * integer >= 1 or does not increase) would make rollback write garbage or remove the
 * target. Returns 0 or -EBADMSG with the reason in @why. */
static int check_record(struct pl_journal *j, json_t *o, char *why, size_t wl)
{
	if (!json_is_object(o))
		return bad(why, wl, "not a JSON object");
	const char *op = json_string_value(json_object_get(o, "op"));
	json_t *st = json_object_get(o, "step");
	if (!op)
		return bad(why, wl, "no \"op\" string");
	if (!json_is_integer(st) || json_integer_value(st) < 1)
		return bad(why, wl, "\"step\" is not an integer >= 1");
	unsigned long step = (unsigned long)json_integer_value(st);
	if (strcmp(op, "set") == 0) {
		static const char *const strs[] = { "target", "sysroot", "new", "profile", NULL };
		if (want_fields(o, strs, step, why, wl) < 0)
			return -EBADMSG;
		const char *target = json_string_value(json_object_get(o, "target"));
		if (pl_tune_target_check(target) < 0)
			return bad(why, wl, "step %lu: target '%s' is not a writable name (%s)",
				   step, target,
				   pl_tune_path_strerror(pl_tune_target_check(target)));
		bool grub = strcmp(target, PL_TUNE_GRUB_FILE) == 0;
		int old = want_str(o, "old", grub), raw = want_str(o, "old_raw", grub);
		if (old < 0 || raw < 0)
			return bad(
				why, wl,
				"step %lu: \"%s\" is %s (a rollback would write garbage or remove "
				"%s)",
				step, old < 0 ? "old" : "old_raw",
				json_object_get(o, old < 0 ? "old" : "old_raw") ? "not a string"
										: "missing",
				target);
		if (old != raw)
			return bad(why, wl,
				   "step %lu: \"old\" and \"old_raw\" disagree (one is null)",
				   step);
		if (j->last >= step)
			return bad(why, wl, "step %lu does not follow step %lu", step, j->last);
		return 0;
	}
	if (strcmp(op, "persist") == 0) {
		static const char *const strs[] = { "unit",    "link",	  "copy",
						    "sysroot", "profile", NULL };
		if (want_fields(o, strs, step, why, wl) < 0)
			return -EBADMSG;
		if (!json_is_boolean(json_object_get(o, "made_dir")))
			return bad(why, wl, "step %lu: \"made_dir\" is missing or not a boolean",
				   step);
		if (strcmp(json_string_value(json_object_get(o, "unit")), PL_PERSIST_UNIT) != 0)
			return bad(why, wl, "step %lu: \"unit\" is not %s", step, PL_PERSIST_UNIT);
		if (!pl_journal_persist_paths_ok(json_string_value(json_object_get(o, "link")),
						 json_string_value(json_object_get(o, "copy"))))
			return bad(why, wl,
				   "step %lu: \"link\" or \"copy\" is not a path perflab writes (a "
				   "rollback would remove another file)",
				   step);
		if (j->last >= step)
			return bad(why, wl, "step %lu does not follow step %lu", step, j->last);
		return 0;
	}
	if (!by_step(j, step))
		return bad(why, wl, "\"%s\" record for step %lu, which has no \"set\" record", op,
			   step);
	if (strcmp(op, "accepted") == 0) {
		const char *s = json_string_value(json_object_get(o, "status"));
		json_t *en = json_object_get(o, "errno");
		if (!s || (strcmp(s, "ok") && strcmp(s, "changed") && strcmp(s, "refused")))
			return bad(why, wl, "step %lu: \"status\" is not ok, changed or refused",
				   step);
		if (want_str(o, "value", true) < 0)
			return bad(why, wl, "step %lu: \"value\" is not a string or null", step);
		if (en && (!json_is_integer(en) || json_integer_value(en) < 1 ||
			   json_integer_value(en) > 4095))
			return bad(why, wl, "step %lu: \"errno\" is not an error number", step);
		return 0;
	}
	if (strcmp(op, "undo") == 0)
		return 0;
	return bad(why, wl, "unknown \"op\" '%s'", op);
}

/* Apply one checked record (check_record) to the in-memory state. */
static void apply_record(struct pl_journal *j, json_t *o)
{
	const char *op = json_string_value(json_object_get(o, "op"));
	unsigned long step = (unsigned long)json_integer_value(json_object_get(o, "step"));
	bool persist = strcmp(op, "persist") == 0;
	if (strcmp(op, "set") == 0 || persist) {
		if (j->n == j->cap) {
			j->cap = j->cap ? j->cap * 2 : 16;
			j->v = pl_xrealloc(j->v, j->cap * sizeof(*j->v));
		}
		struct pl_journal_entry *e = &j->v[j->n++];
		memset(e, 0, sizeof(*e));
		e->step = step;
		e->persist = persist;
		e->target = jstr(o, persist ? "unit" : "target");
		e->sysroot = jstr(o, "sysroot");
		e->old = jstr(o, "old");
		e->old_raw = jstr(o, "old_raw");
		e->new_value = jstr(o, persist ? "link" : "new");
		e->copy = persist ? jstr(o, "copy") : NULL;
		e->made_dir = persist && json_is_true(json_object_get(o, "made_dir"));
		e->status = persist ? PL_JS_OK : PL_JS_UNKNOWN;
		e->profile = jstr(o, "profile");
		e->time = json_integer_value(json_object_get(o, "time"));
		j->last = step;
		return;
	}
	struct pl_journal_entry *e = by_step(j, step);
	if (strcmp(op, "accepted") == 0) {
		e->status = status_from(json_string_value(json_object_get(o, "status")));
		free(e->accepted);
		e->accepted = jstr(o, "value");
		e->error = (int)json_integer_value(json_object_get(o, "errno"));
	} else {
		e->undone = true;
	}
}

/* Parse the whole file; *good_len gets the length of the complete lines. A last line
 * without its newline is a torn append (a crash while writing it; the protocol writes a
 * target only after its record is complete and synced): it is ignored. Any complete
 * line that is not a valid record is damage: -EBADMSG, with "LINE: reason" in @why. */
static int load(struct pl_journal *j, const char *buf, size_t len, size_t *good_len, char *why,
		size_t wl)
{
	size_t pos = 0, line = 0;
	*good_len = 0;
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		if (!nl)
			break; /* torn last line */
		line++;
		size_t n = (size_t)(nl - (buf + pos));
		json_error_t err;
		json_t *o = json_loadb(buf + pos, n, JSON_REJECT_DUPLICATES, &err);
		char reason[256];
		int r = o ? check_record(j, o, reason, sizeof(reason))
			  : bad(reason, sizeof(reason), "not valid JSON (%s)", err.text);
		if (r == 0)
			apply_record(j, o);
		json_decref(o);
		if (r < 0) {
			snprintf(why, wl, "%zu: %s", line, reason);
			return r;
		}
		pos += n + 1;
		*good_len = pos;
	}
	return 0;
}

static int read_all(int fd, char **out, size_t *len)
{
	size_t cap = 8192, n = 0;
	char *b = pl_xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap)
			b = pl_xrealloc(b, cap *= 2);
		ssize_t g = pread(fd, b + n, cap - n - 1, (off_t)n);
		if (g < 0) {
			if (errno == EINTR)
				continue;
			int e = -errno;
			free(b);
			return e;
		}
		if (g == 0)
			break;
		n += (size_t)g;
	}
	b[n] = '\0';
	*out = b;
	*len = n;
	return 0;
}

int pl_journal_open(const char *state_dir, enum pl_journal_mode mode, struct pl_journal **out)
{
	return pl_journal_open_why(state_dir, mode, out, NULL, 0);
}

int pl_journal_open_why(const char *state_dir, enum pl_journal_mode mode, struct pl_journal **out,
			char *why, size_t whylen)
{
	char reason[512] = "";
	if (!state_dir)
		state_dir = PL_JOURNAL_DEFAULT_DIR;
	/* Freed (and its descriptors closed) on every error return; handed out at the end. */
	__attribute__((cleanup(pl_journal_closep))) struct pl_journal *j =
		pl_xcalloc(1, sizeof(*j));
	j->fd = j->dirfd = -1;
	j->dir = pl_xstrdup(state_dir);
	j->path = pl_xasprintf("%s/%s", state_dir, PL_JOURNAL_FILE);
	pl_autoclose int fd = -1;
	int r;
	if (mode == PL_JOURNAL_WRITE) {
		if (mkdir(state_dir, 0700) < 0 && errno != EEXIST)
			return -errno;
		j->dirfd = open(state_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (j->dirfd < 0)
			return -errno;
		fd = open(j->path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd < 0)
			return -errno;
		if (flock(fd, LOCK_EX | LOCK_NB) < 0)
			return errno == EWOULDBLOCK ? -EBUSY : -errno;
	} else {
		fd = open(j->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0) {
			if (errno != ENOENT)
				return -errno;
			*out = pl_steal_ptr(&j); /* no journal yet: empty */
			return 0;
		}
		/* Wait for a writer to finish its record rather than read half of it (a peek
		 * does not wait: writers such as compare hold the lock for a long time). */
		if (mode == PL_JOURNAL_PEEK && flock(fd, LOCK_SH | LOCK_NB) < 0)
			return errno == EWOULDBLOCK ? -EBUSY : -errno;
		if (mode != PL_JOURNAL_PEEK)
			(void)flock(fd, LOCK_SH);
	}
	pl_autofree char *buf = NULL;
	size_t len = 0, good;
	r = read_all(fd, &buf, &len);
	if (r < 0)
		return r;
	r = load(j, buf, len, &good, reason, sizeof(reason));
	if (r < 0) {
		if (why && whylen)
			snprintf(why, whylen, "journal %s:%s", j->path, reason);
		return r;
	}
	if (mode == PL_JOURNAL_WRITE) {
		if (good < len && (ftruncate(fd, (off_t)good) < 0 || fsync(fd) < 0))
			return -errno;
		j->fd = pl_steal_fd(&fd);
	}
	*out = pl_steal_ptr(&j);
	return 0;
}

void pl_journal_close(struct pl_journal *j)
{
	if (!j)
		return;
	for (size_t i = 0; i < j->n; i++)
		entry_free(&j->v[i]);
	free(j->v);
	if (j->fd >= 0)
		close(j->fd);
	if (j->dirfd >= 0)
		close(j->dirfd);
	free(j->dir);
	free(j->path);
	free(j);
}

const char *pl_journal_path(const struct pl_journal *j)
{
	return j->path;
}

const struct pl_journal_entry *pl_journal_entries(const struct pl_journal *j, size_t *n)
{
	*n = j->n;
	return j->v;
}

unsigned long pl_journal_last_step(const struct pl_journal *j)
{
	return j->last;
}

size_t pl_journal_live(const struct pl_journal *j)
{
	size_t c = 0;
	for (size_t i = 0; i < j->n; i++)
		c += !j->v[i].undone;
	return c;
}

const struct pl_journal_entry *pl_journal_find(const struct pl_journal *j, const char *target)
{
	for (size_t i = j->n; i-- > 0;) {
		const struct pl_journal_entry *e = &j->v[i];
		if (!e->undone && strcmp(e->target, target) == 0 &&
		    strcmp(e->sysroot, pl_sysroot()) == 0)
			return e;
	}
	return NULL;
}

/* Fault injection (file comment): K > 0 when set; *torn for the "Kj" form. */
static long fault_after(bool *torn)
{
	const char *s = PL_TEST_HOOK("PERFLAB_TUNE_FAULT_AFTER");
	*torn = false;
	if (!s || !*s)
		return 0;
	char *end;
	long k = strtol(s, &end, 10);
	if (*end == 'j') {
		*torn = true;
		end++;
	}
	return *end == '\0' && k > 0 ? k : 0;
}

/* Append one record and make it durable: write, fsync the file, fsync the directory. */
static int append(struct pl_journal *j, json_t *o, bool may_tear)
{
	pl_autofree char *s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
	if (!s)
		return -ENOMEM;
	struct pl_buf b = { 0 };
	pl_buf_printf(&b, "%s\n", s);
	size_t len = b.len;
	bool torn;
	long k = fault_after(&torn);
	if (may_tear && torn && j->writes + 1 == k) {
		ssize_t w = write(j->fd, b.data, len / 2);
		(void)w;
		(void)fsync(j->fd);
		_exit(137);
	}
	size_t off = 0;
	int r = 0;
	while (off < len) {
		ssize_t w = write(j->fd, b.data + off, len - off);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			break;
		}
		off += (size_t)w;
	}
	pl_buf_free(&b);
	if (r == 0 && (fsync(j->fd) < 0 || fsync(j->dirfd) < 0))
		r = -errno;
	if (r < 0) {
		/* Do not leave half a record behind for the next append to glue onto. */
		struct stat st;
		if (fstat(j->fd, &st) == 0 && (size_t)st.st_size >= off &&
		    ftruncate(j->fd, st.st_size - (off_t)off) < 0) {
			/* the append's own error is the one to report; a reader stops at the
			 * torn last line (load() ignores a line without its newline) */
		}
	}
	return r;
}

/* Read a target's raw bytes through the safe resolver. *raw NULL when it does not
 * exist (only allowed for the grub file). */
static int read_target(const char *target, char **raw)
{
	char real[PATH_MAX];
	int r = pl_tune_resolve(target, real, sizeof(real));
	if (r == -ENOENT || (r == 0 && access(real, F_OK) < 0 && errno == ENOENT)) {
		*raw = NULL;
		return strcmp(target, PL_TUNE_GRUB_FILE) == 0 ? 0 : -ENOENT;
	}
	if (r < 0)
		return r;
	/* Read through the sysroot helper with the checked name. */
	size_t len;
	r = pl_read_file(target, raw, &len);
	if (r == 0 && strlen(*raw) != len) {
		free(*raw);
		return -EINVAL; /* binary content: not a tunable */
	}
	return r;
}

/* Write @val to a target. Kernel files get "VAL\n" in one write(2); regular files
 * (fixtures) get exactly @bytes when given. Only the grub file is replaced as a whole
 * (@val NULL: @bytes, or removed when @bytes is NULL too); any other target without a
 * value is refused, so no /proc or /sys file is ever removed or replaced. */
static int write_target(const char *target, const char *val, const char *bytes)
{
	bool grub = strcmp(target, PL_TUNE_GRUB_FILE) == 0;
	if (!grub && !val)
		return -EINVAL;
	if (grub) {
		/* Whole-file replacement below the sysroot's descriptor (util/beneath.h): no
		 * symlink is followed and the rename acts on the directory that was checked,
		 * so swapping a directory for a link cannot redirect the write. */
		char real[PATH_MAX];
		int r = pl_tune_resolve(target, real, sizeof(real));
		if (r < 0)
			return r;
		int root = pl_beneath_root(pl_sysroot());
		if (root < 0)
			return root;
		if (!bytes) {
			r = pl_beneath_unlink(root, target);
			close(root);
			return r == -ENOENT ? 0 : r;
		}
		mode_t mode = 0644;
		int fd = pl_beneath_open(root, target, O_PATH, 0);
		struct stat st;
		if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
			mode = st.st_mode & 07777;
		if (fd >= 0)
			close(fd);
		r = pl_beneath_write_atomic(root, target, bytes, strlen(bytes), mode);
		close(root);
		return r;
	}
	int fd = pl_tune_open_write(target);
	if (fd < 0)
		return fd;
	int r = 0;
	bool kernel = pl_tune_fd_is_kernel(fd);
	pl_autofree char *data = !kernel && bytes ? pl_xstrdup(bytes) : pl_xasprintf("%s\n", val);
	if (!kernel && ftruncate(fd, 0) < 0)
		r = -errno;
	size_t len = strlen(data);
	if (r == 0) {
		ssize_t w = write(fd, data, len);
		if (w < 0)
			r = -errno;
		else if ((size_t)w != len)
			r = -EIO;
	}
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

/* Remove a file, a missing one being no error. */
static int unlink_ok(const char *path)
{
	return unlink(path) < 0 && errno != ENOENT ? -errno : 0;
}

/* Undo a "persist" entry: the enable symlink (and its .wants directory when the
 * persist made it and it is empty), the unit, the stored copy and its directory.
 * Paths were checked at load (pl_journal_persist_paths_ok). The unit, the link and the
 * .wants directory are removed below the sysroot's descriptor (util/beneath.h), so a
 * directory swapped for a link out of the tree stops the rollback (-ELOOP) instead of
 * deleting the host's files. */
static int unpersist(const struct pl_journal_entry *e)
{
	int root = pl_beneath_root(pl_sysroot());
	if (root < 0)
		return root;
	const char *base;
	int r = 0, dir = pl_beneath_parent(root, e->new_value, &base);
	struct stat st;
	if (dir == -ENOENT)
		dir = -1; /* no .wants directory: no link to remove */
	else if (dir < 0)
		r = dir;
	/* Only a symlink (what persist made) is removed from the .wants directory. */
	else if (fstatat(dir, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISLNK(st.st_mode))
		r = -EEXIST;
	else if (unlinkat(dir, base, 0) < 0 && errno != ENOENT)
		r = -errno;
	if (dir >= 0)
		close(dir);
	if (r == 0 && e->made_dir) {
		pl_autofree char *wants = pl_xstrdup(e->new_value);
		*strrchr(wants, '/') = '\0';
		r = pl_beneath_rmdir(root, wants);
		if (r == -ENOENT || r == -ENOTEMPTY || r == -EEXIST)
			r = 0;
	}
	if (r == 0) {
		r = pl_beneath_unlink(root, e->target);
		if (r == -ENOENT)
			r = 0;
	}
	close(root);
	if (r < 0 || (r = unlink_ok(e->copy)) < 0)
		return r;
	pl_autofree char *cdir = pl_xstrdup(e->copy);
	*strrchr(cdir, '/') = '\0';
	if (rmdir(cdir) < 0 && errno != ENOENT && errno != ENOTEMPTY && errno != EEXIST)
		return -errno;
	*strrchr(cdir, '/') = '\0'; /* <state>/persist: removed when it is empty */
	(void)rmdir(cdir);
	return 0;
}

/* The test hooks of the file comment, honoured only with a sysroot other than "/":
 * PERFLAB_TUNE_TEST_KEEP="TARGET=VALUE" (*keep gets VALUE) or
 * PERFLAB_TUNE_TEST_REFUSE="TARGET"; @s is the variable's value (util/testhook.h). */
static bool test_hook(const char *s, const char *target, const char **keep)
{
	if (!s || pl_sysroot_is_live())
		return false;
	size_t n = strlen(target);
	if (strncmp(s, target, n) != 0)
		return false;
	if (keep) {
		*keep = s + n + 1;
		return s[n] == '=';
	}
	return s[n] == '\0';
}

/* Write @new_value to @target for pl_journal_write(), with the test hooks. */
static int write_new(const char *target, const char *new_value, bool whole)
{
	const char *keep;
	if (test_hook(PL_TEST_HOOK("PERFLAB_TUNE_TEST_REFUSE"), target, NULL))
		return -EINVAL;
	int r = write_target(target, whole ? NULL : new_value, whole ? new_value : NULL);
	if (r == 0 && !whole && test_hook(PL_TEST_HOOK("PERFLAB_TUNE_TEST_KEEP"), target, &keep))
		r = write_target(target, keep, NULL);
	return r;
}

int pl_journal_write(struct pl_journal *j, const char *target, const char *new_value,
		     const char *who, const struct pl_journal_entry **out)
{
	if (j->fd < 0)
		return -EBADF;
	if (!target || !new_value)
		return -EINVAL;
	/* Steps are JSON integers (int64): the next one must fit. */
	if (j->last >= (unsigned long)INT64_MAX)
		return -EOVERFLOW;
	pl_autofree char *raw = NULL;
	int r = read_target(target, &raw);
	if (r < 0)
		return r;
	bool whole = strcmp(target, PL_TUNE_GRUB_FILE) == 0;
	pl_autofree char *old = raw ? (whole ? pl_xstrdup(raw) : pl_tune_value_current(raw)) : NULL;
	/* Check that the target can be opened for writing before journaling anything. */
	if (!whole) {
		int fd = pl_tune_open_write(target);
		if (fd < 0)
			return fd;
		close(fd);
	}

	unsigned long step = pl_journal_last_step(j) + 1;
	long long now = (long long)time(NULL);
	json_t *o = json_object();
	json_object_set_new(o, "op", pl_json_string("set"));
	json_object_set_new(o, "step", json_integer((json_int_t)step));
	json_object_set_new(o, "target", pl_json_string(target));
	json_object_set_new(o, "sysroot", pl_json_string(pl_sysroot()));
	json_object_set_new(o, "old", pl_json_string(old));
	json_object_set_new(o, "old_raw", pl_json_string(raw));
	json_object_set_new(o, "new", pl_json_string(new_value));
	json_object_set_new(o, "profile", pl_json_string(who ? who : ""));
	json_object_set_new(o, "time", json_integer(now));
	r = append(j, o, true);
	if (r == 0)
		apply_record(j, o);
	json_decref(o);
	if (r < 0)
		return r;

	int werr = write_new(target, new_value, whole);
	bool torn;
	long k = fault_after(&torn);
	j->writes++;
	if (!torn && k == j->writes)
		_exit(137);

	pl_autofree char *back = NULL;
	enum pl_journal_status st;
	pl_autofree char *acc = NULL;
	if (read_target(target, &back) == 0 && back)
		acc = whole ? pl_xstrdup(back) : pl_tune_value_current(back);
	if (werr < 0)
		st = PL_JS_REFUSED;
	else if (acc && (whole ? strcmp(acc, new_value) == 0
			       : pl_tune_value_match(target, acc, new_value)))
		st = PL_JS_OK;
	else
		st = PL_JS_CHANGED;
	o = json_object();
	json_object_set_new(o, "op", pl_json_string("accepted"));
	json_object_set_new(o, "step", json_integer((json_int_t)step));
	json_object_set_new(o, "status", pl_json_string(pl_journal_status_name(st)));
	json_object_set_new(o, "value", pl_json_string(acc));
	if (werr < 0)
		json_object_set_new(o, "errno", json_integer(-werr));
	r = append(j, o, false);
	if (r == 0)
		apply_record(j, o);
	json_decref(o);
	if (out)
		*out = by_step(j, step);
	return r;
}

static bool has_ctrl(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

bool pl_journal_persist_paths_ok(const char *link, const char *copy)
{
	static const char *const targets[] = { "sysinit.target", "multi-user.target" };
	bool link_ok = false;
	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		char want[128];
		snprintf(want, sizeof(want), "/etc/systemd/system/%s.wants/perflab-tune.service",
			 targets[i]);
		link_ok |= strcmp(link, want) == 0;
	}
	size_t n = strlen(copy);
	return link_ok && copy[0] == '/' && !strstr(copy, "/../") && !strstr(copy, "/./") &&
	       !strstr(copy, "//") && strstr(copy, "/persist/") && n > 11 &&
	       strcmp(copy + n - 11, "/tuned.conf") == 0 && !has_ctrl(copy);
}

int pl_journal_persist(struct pl_journal *j, const char *unit, const char *link, const char *copy,
		       bool made_dir, const char *who, unsigned long *step)
{
	if (j->fd < 0)
		return -EBADF;
	if (strcmp(unit, PL_PERSIST_UNIT) != 0 || !pl_journal_persist_paths_ok(link, copy))
		return -EINVAL;
	if (j->last >= (unsigned long)INT64_MAX)
		return -EOVERFLOW;
	unsigned long s = j->last + 1;
	json_t *o = json_object();
	json_object_set_new(o, "op", pl_json_string("persist"));
	json_object_set_new(o, "step", json_integer((json_int_t)s));
	json_object_set_new(o, "unit", pl_json_string(unit));
	json_object_set_new(o, "link", pl_json_string(link));
	json_object_set_new(o, "copy", pl_json_string(copy));
	json_object_set_new(o, "made_dir", json_boolean(made_dir));
	json_object_set_new(o, "sysroot", pl_json_string(pl_sysroot()));
	json_object_set_new(o, "profile", pl_json_string(who ? who : ""));
	json_object_set_new(o, "time", json_integer((json_int_t)time(NULL)));
	int r = append(j, o, false);
	if (r == 0)
		apply_record(j, o);
	json_decref(o);
	if (r == 0 && step)
		*step = s;
	return r;
}

int pl_journal_rollback(struct pl_journal *j, unsigned long to_step, pl_journal_undo_fn fn,
			void *ud)
{
	if (j->fd < 0)
		return -EBADF;
	for (size_t i = 0; i < j->n; i++) {
		const struct pl_journal_entry *e = &j->v[i];
		if (!e->undone && e->step > to_step && strcmp(e->sysroot, pl_sysroot()) != 0)
			return -EXDEV;
	}
	int first = 0;
	for (size_t i = j->n; i-- > 0;) {
		struct pl_journal_entry *e = &j->v[i];
		if (e->undone || e->step <= to_step)
			continue;
		bool whole = strcmp(e->target, PL_TUNE_GRUB_FILE) == 0;
		int r = e->persist ? unpersist(e)
				   : write_target(e->target, whole ? NULL : e->old, e->old_raw);
		if (r == 0) {
			json_t *o = json_object();
			json_object_set_new(o, "op", pl_json_string("undo"));
			json_object_set_new(o, "step", json_integer((json_int_t)e->step));
			json_object_set_new(o, "time", json_integer((json_int_t)time(NULL)));
			r = append(j, o, false);
			if (r == 0)
				apply_record(j, o);
			json_decref(o);
		}
		if (fn)
			fn(&j->v[i], r, ud);
		if (r < 0 && first == 0)
			first = r;
	}
	return first;
}

int pl_journal_recover(struct pl_journal *j, const char *who_prefix, size_t *restored)
{
	unsigned long first = 0;
	*restored = 0;
	for (size_t i = 0; i < j->n; i++)
		if (!j->v[i].undone && pl_startswith(j->v[i].profile, who_prefix) &&
		    (first == 0 || j->v[i].step < first))
			first = j->v[i].step;
	if (first == 0)
		return 0;
	size_t count = 0;
	for (size_t i = 0; i < j->n; i++) {
		if (j->v[i].undone || j->v[i].step < first)
			continue;
		if (!pl_startswith(j->v[i].profile, who_prefix))
			return -EBUSY;
		count++;
	}
	int r = pl_journal_rollback(j, first - 1, NULL, NULL);
	if (r == 0)
		*restored = count;
	return r;
}
