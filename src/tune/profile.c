/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tune/profile.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <limits.h>
#include <regex.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "tune/functions.h"
#include "util/cleanup.h"
#include "util/str.h"
#include "util/sysroot.h"

/* ---- option vectors ---- */

/* Option vectors carry a hash index by key (open addressing, linear probing), so that
 * merging and ${} expansion stay linear in the input: a profile with 100000 options or
 * variable references must not take minutes (FNV-1a, public domain constants). */
static size_t key_hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (size_t)h;
}

/* The slot of @key in @o's index: the one holding it, or the empty one where it goes. */
static size_t *opts_slot(const struct pl_tune_opts *o, const char *key)
{
	size_t m = o->nslot - 1;
	for (size_t i = key_hash(key) & m;; i = (i + 1) & m) {
		size_t *sl = &o->slot[i];
		if (*sl == 0 || strcmp(o->v[*sl - 1].key, key) == 0)
			return sl;
	}
}

static void opts_reindex(struct pl_tune_opts *o)
{
	size_t want = 16;
	while (want < 2 * (o->n + 1))
		want *= 2;
	if (want != o->nslot) {
		free(o->slot);
		o->slot = pl_xcalloc(want, sizeof(*o->slot));
		o->nslot = want;
	} else {
		memset(o->slot, 0, want * sizeof(*o->slot));
	}
	for (size_t i = 0; i < o->n; i++)
		*opts_slot(o, o->v[i].key) = i + 1;
}

const struct pl_tune_opt *pl_tune_opts_get(const struct pl_tune_opts *o, const char *key)
{
	if (o->slot) {
		size_t sl = *opts_slot(o, key);
		return sl ? &o->v[sl - 1] : NULL;
	}
	for (size_t i = 0; i < o->n; i++)
		if (strcmp(o->v[i].key, key) == 0)
			return &o->v[i];
	return NULL;
}

static void opt_free(struct pl_tune_opt *o)
{
	free(o->key);
	free(o->value);
	free(o->expanded);
	free(o->file);
	free(o->profile);
}

static void opts_free(struct pl_tune_opts *o)
{
	for (size_t i = 0; i < o->n; i++)
		opt_free(&o->v[i]);
	free(o->v);
	free(o->slot);
	memset(o, 0, sizeof(*o));
}

/* Set key to a copy of @src (OrderedDict semantics: an existing key keeps its place). */
static void opts_set(struct pl_tune_opts *o, const struct pl_tune_opt *src)
{
	if (!o->slot)
		opts_reindex(o);
	size_t *sl = opts_slot(o, src->key);
	struct pl_tune_opt *d;
	if (*sl) {
		d = &o->v[*sl - 1];
		opt_free(d);
	} else {
		if (o->n == o->cap) {
			o->cap = o->cap ? o->cap * 2 : 8;
			o->v = pl_xrealloc(o->v, o->cap * sizeof(*o->v));
		}
		d = &o->v[o->n++];
		*sl = o->n;
	}
	d->key = pl_xstrdup(src->key);
	d->value = pl_xstrdup(src->value);
	d->expanded = src->expanded ? pl_xstrdup(src->expanded) : NULL;
	d->file = pl_xstrdup(src->file);
	d->profile = pl_xstrdup(src->profile);
	d->line = src->line;
	if (2 * (o->n + 1) > o->nslot)
		opts_reindex(o);
}

/* Remove the options named in @keys (NULL-terminated), keeping the order of the rest:
 * one pass however many keys `drop=` names. */
static void opts_drop(struct pl_tune_opts *o, char *const *keys)
{
	if (!o->slot)
		opts_reindex(o);
	bool *gone = NULL;
	for (size_t k = 0; keys[k]; k++) {
		size_t sl = *opts_slot(o, keys[k]);
		if (!sl)
			continue;
		if (!gone)
			gone = pl_xcalloc(o->n, sizeof(*gone));
		gone[sl - 1] = true;
	}
	if (!gone)
		return;
	size_t w = 0;
	for (size_t i = 0; i < o->n; i++) {
		if (gone[i])
			opt_free(&o->v[i]);
		else
			o->v[w++] = o->v[i];
	}
	o->n = w;
	free(gone);
	opts_reindex(o);
}

static void opts_copy(struct pl_tune_opts *dst, const struct pl_tune_opts *src)
{
	for (size_t i = 0; i < src->n; i++)
		opts_set(dst, &src->v[i]);
}

/* ---- one file ---- */

struct section {
	char *name;
	char *file;
	int line;
	struct pl_tune_opts opts;
};

struct conf {
	char *name; /* profile name */
	char *file;
	struct section *s;
	size_t n;
	struct section *last; /* the section found last (a cache for repeated headers) */
};

static void conf_free(struct conf *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->s[i].name);
		free(c->s[i].file);
		opts_free(&c->s[i].opts);
	}
	free(c->s);
	free(c->name);
	free(c->file);
	memset(c, 0, sizeof(*c));
}

/* The section @name of @c, created at @line when new; NULL when @c already has
 * PL_TUNE_MAX_SECTIONS sections (so the lookup stays cheap). */
static struct section *conf_section(struct conf *c, const char *name, int line)
{
	if (c->last && strcmp(c->last->name, name) == 0)
		return c->last;
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->s[i].name, name) == 0)
			return c->last = &c->s[i];
	if (c->n >= PL_TUNE_MAX_SECTIONS)
		return NULL;
	c->s = pl_xrealloc(c->s, (c->n + 1) * sizeof(*c->s));
	struct section *s = &c->s[c->n++];
	memset(s, 0, sizeof(*s));
	s->name = pl_xstrdup(name);
	s->file = pl_xstrdup(c->file);
	s->line = line;
	return c->last = s;
}

/* Reader state. The file is read whole (bounded) and handed to inih line by line: this
 * counts lines for error messages (Debian's inih has no line numbers in the handler),
 * protects ':' in keys (tuned's parser splits only at '='), and knows which calls
 * continue a long line (inih asks for more of a line longer than its buffer), so a
 * fragment is never taken for a "[section]" and a line longer than inih takes is an
 * error instead of being split into two. */
struct reader {
	const char *p, *end; /* the rest of the file */
	int line;
	bool cont;	  /* the next call continues the current line */
	bool seen_eq;	  /* the current line had its first '=' */
	size_t linelen;	  /* bytes of the current line so far */
	const char *fail; /* why reading stopped early (in failbuf), or NULL */
	char failbuf[96];
	struct conf *c;
	char *profile_dir;
};

#define COLON_MARK '\x01'
/* Joins the lines of a value continued on indented lines (cp_continuations); on_kv turns
 * it into the '\n' ConfigParser joins them with. */
#define CONT_MARK '\x02'
/* inih's line buffer (ini_max_line): a longer line is refused. */
#define MAX_LINE 65536

static void too_many_sections(struct reader *r)
{
	snprintf(r->failbuf, sizeof(r->failbuf),
		 "more than %d sections (tuned profiles have a few)", PL_TUNE_MAX_SECTIONS);
	r->fail = r->failbuf;
}

static char *read_line(char *buf, int size, void *stream)
{
	struct reader *r = stream;
	if (r->fail || r->p >= r->end || size < 2)
		return NULL;
	const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
	size_t n = (size_t)((nl ? nl + 1 : r->end) - r->p);
	if (n > (size_t)size - 1)
		n = (size_t)size - 1;
	memcpy(buf, r->p, n);
	buf[n] = '\0';
	r->p += n;
	bool start = !r->cont;
	if (start) {
		r->line++;
		r->linelen = 0;
	}
	r->linelen += n;
	r->cont = n == (size_t)size - 1 && buf[n - 1] != '\n';
	if (r->cont && r->linelen >= MAX_LINE - 1) {
		snprintf(r->failbuf, sizeof(r->failbuf), "line longer than %d bytes", MAX_LINE - 1);
		r->fail = r->failbuf;
		return NULL;
	}
	/* Register "[name]" here: inih calls the handler only for key=value lines, and an
	 * empty section is still a unit for tuned. */
	const char *t = buf + strspn(buf, " \t");
	const char *close = start && t[0] == '[' ? strchr(t, ']') : NULL;
	if (close) {
		char *name = pl_xmalloc((size_t)(close - t));
		memcpy(name, t + 1, (size_t)(close - t - 1));
		name[close - t - 1] = '\0';
		/* Kept as written, blanks included: tuned's ConfigParser does not trim a
		 * section name ("[ padded ]" is the unit " padded "), nor does inih. */
		struct section *s = conf_section(r->c, name, r->line);
		free(name);
		if (!s) {
			too_many_sections(r);
			return NULL;
		}
		return buf;
	}
	/* Mark the colons of the key: those before the line's first '=', which may be in a
	 * later fragment of a long line; the value keeps its own. */
	if (start)
		r->seen_eq = false;
	for (char *q = buf; *q && !r->seen_eq; q++) {
		if (*q == '=')
			r->seen_eq = true;
		else if (*q == ':')
			*q = COLON_MARK;
	}
	return buf;
}

static void unmark(char *s)
{
	for (; *s; s++)
		if (*s == COLON_MARK)
			*s = ':';
}

/* Replace ${i:PROFILE_DIR} (tuned expands it when the file is read). NULL when the
 * result would be longer than PL_TUNE_MAX_VALUE. */
static char *expand_profile_dir(const char *v, const char *dir)
{
	struct pl_buf b = { 0 };
	pl_buf_puts(&b, "");
	const char *tok = "${i:PROFILE_DIR}";
	const char *p;
	while ((p = strstr(v, tok))) {
		pl_buf_append(&b, v, (size_t)(p - v));
		pl_buf_puts(&b, dir);
		v = p + strlen(tok);
		if (b.len > PL_TUNE_MAX_VALUE) {
			pl_buf_free(&b);
			return NULL;
		}
	}
	pl_buf_puts(&b, v);
	return pl_buf_steal(&b);
}

/* @path with "." and empty components removed and each ".." taking away the one before,
 * lexically (Python's os.path.normpath, which tuned's loader applies to script=; read,
 * not copied): "/a/./b/../c" -> "/a/c", "" -> ".". Malloc'd. */
static char *normpath(const char *path)
{
	size_t lead = strspn(path, "/");
	lead = lead == 2 ? 2 : lead ? 1 : 0;
	char **comps = pl_split(path, "/", NULL);
	size_t n = 0;
	for (size_t i = 0; comps[i]; i++) {
		if (strcmp(comps[i], ".") == 0)
			continue;
		if (strcmp(comps[i], "..") == 0 && n > 0 && strcmp(comps[n - 1], "..") != 0) {
			n--;
			continue;
		}
		if (strcmp(comps[i], "..") == 0 && lead)
			continue;
		char *c = comps[i];
		comps[i] = comps[n];
		comps[n++] = c;
	}
	struct pl_buf b = { 0 };
	pl_buf_printf(&b, "%.*s", (int)lead, "//");
	for (size_t i = 0; i < n; i++)
		pl_buf_printf(&b, "%s%s", i ? "/" : "", comps[i]);
	if (b.len == 0)
		pl_buf_puts(&b, ".");
	pl_strv_free(comps);
	return pl_buf_steal(&b);
}

static int on_kv(void *user, const char *section, const char *name, const char *value)
{
	struct reader *r = user;
	char *raw = pl_xstrdup(value);
	unmark(raw);
	char *v = expand_profile_dir(raw, r->profile_dir);
	free(raw);
	if (!v) {
		snprintf(r->failbuf, sizeof(r->failbuf),
			 "value longer than %u bytes after ${i:PROFILE_DIR}", PL_TUNE_MAX_VALUE);
		r->fail = r->failbuf;
		return 0;
	}
	for (char *q = v; *q; q++)
		if (*q == CONT_MARK)
			*q = '\n';
	if (strcmp(name, "script") == 0) {
		/* tuned's loader resolves `script=` (in any section) against the profile's
		 * directory, when the file is read. */
		char *j = v[0] == '/' ? pl_xstrdup(v) : pl_xasprintf("%s/%s", r->profile_dir, v);
		free(v);
		v = normpath(j);
		free(j);
	}
	char *n = pl_xstrdup(name), *sec = pl_xstrdup(section);
	unmark(n);
	unmark(sec);
	struct section *s = conf_section(r->c, sec, r->line);
	if (s) {
		struct pl_tune_opt o = { .key = n,
					 .value = v,
					 .file = r->c->file,
					 .profile = r->c->name,
					 .line = r->line };
		opts_set(&s->opts, &o);
	} else {
		too_many_sections(r);
	}
	free(n);
	free(v);
	free(sec);
	return s != NULL;
}

/* Read @path whole: a regular file (opened without blocking, so a FIFO or a device in
 * its place is refused, not waited on) of at most PL_TUNE_MAX_FILE bytes and no NUL
 * byte. Returns 0 and *out (malloc'd, NUL-terminated, *len bytes) or -errno with one
 * line in @err.
 *
 * Not pl_read_file() (util/sysroot.h) on purpose: @path is a host path from the search
 * path (pl_tune_path_default), whose directories have different roots: --profile-dir,
 * the bundled profiles and /usr/lib/tuned are read from the host (installed software,
 * not the machine's configuration), while /etc/tuned is already the sysroot's
 * (<sysroot>/etc/tuned, made with pl_sysroot_path()). pl_read_file() would prefix the
 * sysroot a second time, or a host directory wrongly; an include resolves along the
 * whole path and names the file it read in its messages. This reader keeps the helper's
 * protections (O_NONBLOCK, regular files only, a size cap, checked before the first
 * read) with the smaller cap and the text checks a profile needs. */
static int slurp(const char *path, char **out, size_t *len, char *err, size_t el)
{
	pl_autoclose int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		int e = errno;
		snprintf(err, el, "cannot read '%s': %s", path, strerror(e));
		return -e;
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, el, "cannot read '%s': not a regular file", path);
		return -EINVAL;
	}
	if (st.st_size > (off_t)PL_TUNE_MAX_FILE) {
		snprintf(err, el, "'%s' is larger than %u bytes (a tuned profile is a few KiB)",
			 path, PL_TUNE_MAX_FILE);
		return -EFBIG;
	}
	pl_autofree char *buf = pl_xmalloc(PL_TUNE_MAX_FILE + 2);
	size_t n = 0;
	for (;;) {
		ssize_t k = read(fd, buf + n, PL_TUNE_MAX_FILE + 1 - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			int e = errno;
			snprintf(err, el, "cannot read '%s': %s", path, strerror(e));
			return -e;
		}
		if (k == 0 || (n += (size_t)k) > PL_TUNE_MAX_FILE)
			break;
	}
	if (n > PL_TUNE_MAX_FILE) {
		snprintf(err, el, "'%s' is larger than %u bytes (a tuned profile is a few KiB)",
			 path, PL_TUNE_MAX_FILE);
		return -EFBIG;
	}
	buf[n] = '\0';
	/* NUL would end the line early for inih; COLON_MARK would turn into ':', CONT_MARK
	 * into a newline. */
	const char *bin = memchr(buf, '\0', n);
	const char *marks[2] = { memchr(buf, COLON_MARK, n), memchr(buf, CONT_MARK, n) };
	for (int i = 0; i < 2; i++)
		if (!bin || (marks[i] && marks[i] < bin))
			bin = marks[i];
	if (bin) {
		int line = 1;
		for (const char *q = buf; q < bin; q++)
			line += *q == '\n';
		snprintf(err, el, "%s:%d: byte 0x%02x (not a text file)", path, line,
			 (unsigned char)*bin);
		return -EBADMSG;
	}
	*out = pl_steal_ptr(&buf);
	*len = n;
	return 0;
}

/* Where the comment of line [l, l+n) starts (tuned's ConfigParser: a line whose first
 * non-blank is '#' or ';', or an inline '#' at the start or after a blank), or @n. */
static size_t comment_at(const char *l, size_t n)
{
	size_t b = 0;
	while (b < n && isspace((unsigned char)l[b]))
		b++;
	if (b < n && (l[b] == '#' || l[b] == ';'))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (l[i] == '#' && (i == 0 || isspace((unsigned char)l[i - 1])))
			return i;
	return n;
}

/* Rewrite @text so that inih reads values continued on indented lines as tuned does.
 * tuned reads profiles with Python's ConfigParser, where a non-blank line indented deeper
 * than the option line before it continues that option's value (also after blank lines,
 * which stay in the value as empty lines), joined with '\n' once each line is stripped
 * of its comment and blanks (Lib/configparser.py RawConfigParser._read; read, not
 * copied). inih has no such rule, so each continued option becomes one line: the option
 * line without its comment, then CONT_MARK and each continuation line's text (on_kv turns
 * the marks into '\n'); each continuation line is left empty, so later line numbers stay
 * right. Returns a malloc'd text, *len its length. */
static char *cp_continuations(const char *text, size_t *len)
{
	/* The output lines, one per input line; @opt is the option line being continued. */
	size_t nlines = 1;
	for (size_t i = 0; i < *len; i++)
		nlines += text[i] == '\n';
	struct pl_buf *lines = pl_xcalloc(nlines, sizeof(*lines));
	const char *p = text, *end = text + *len;
	bool in_section = false;
	struct pl_buf *opt = NULL;
	size_t indent_level = SIZE_MAX, empties = 0, k = 0;
	for (; p <= end && k < nlines; k++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		size_t cs = comment_at(p, n);
		size_t b = 0, e = cs;
		while (b < e && isspace((unsigned char)p[b]))
			b++;
		while (e > b && isspace((unsigned char)p[e - 1]))
			e--;
		pl_buf_puts(&lines[k], "");
		if (b == e) {
			/* Blank or comment: a blank line inside a value is an empty line of it. */
			if (cs == n && opt)
				empties++;
			pl_buf_append(&lines[k], p, n);
		} else if (in_section && opt && b > indent_level) {
			for (size_t i = 0; i <= empties; i++)
				pl_buf_append(opt, (const char[]){ CONT_MARK }, 1);
			pl_buf_append(opt, p + b, e - b);
			empties = 0;
		} else {
			indent_level = b;
			empties = 0;
			opt = NULL;
			if (p[b] == '[' && e - b > 2 && memchr(p + b + 2, ']', e - b - 2)) {
				in_section = true;
				pl_buf_append(&lines[k], p, n);
			} else if (in_section && memchr(p + b, '=', e - b)) {
				/* The option without its comment, so continuations can follow. */
				pl_buf_append(&lines[k], p + b, e - b);
				opt = &lines[k];
			} else {
				pl_buf_append(&lines[k], p, n);
			}
		}
		p = nl ? nl + 1 : end + 1;
	}
	struct pl_buf out = { 0 };
	pl_buf_puts(&out, "");
	for (size_t i = 0; i < k; i++) {
		pl_buf_append(&out, lines[i].data, lines[i].len);
		if (i + 1 < k)
			pl_buf_puts(&out, "\n");
		pl_buf_free(&lines[i]);
	}
	free(lines);
	*len = out.len;
	return pl_buf_steal(&out);
}

static int parse_file(const char *path, const char *name, struct conf *c, char *err, size_t el)
{
	memset(c, 0, sizeof(*c));
	c->name = pl_xstrdup(name);
	c->file = pl_xstrdup(path);
	pl_autofree char *text = NULL;
	size_t len = 0;
	int e = slurp(path, &text, &len, err, el);
	if (e < 0)
		return e;
	char *joined = cp_continuations(text, &len);
	free(text);
	text = joined;
	ini_allow_multiline = false;
	ini_allow_inline_comments = true;
	ini_inline_comment_prefixes = "#";
	ini_start_comment_prefixes = ";#";
	ini_use_stack = false;
	ini_allow_realloc = true;
	ini_max_line = MAX_LINE;
	ini_stop_on_first_error = true;
	pl_autofree char *dir = pl_xstrdup(path);
	char *sl = strrchr(dir, '/');
	if (sl)
		*sl = '\0';
	struct reader r = { .p = text, .end = text + len, .c = c, .profile_dir = dir };
	int rc = ini_parse_stream(read_line, &r, on_kv, &r);
	if (r.fail) {
		snprintf(err, el, "%s:%d: profile '%s': %s", path, r.line, name, r.fail);
		return -E2BIG;
	}
	if (rc != 0) {
		snprintf(err, el,
			 "%s:%d: profile '%s': not a 'key = value' line or '[section]' header",
			 path, rc > 0 ? rc : r.line, name);
		return -EBADMSG;
	}
	return 0;
}

/* ---- search path ---- */

static char bundled[PATH_MAX];
static char etc_dir[PATH_MAX];

void pl_tune_path_default(struct pl_tune_path *p, const char *profile_dir)
{
	memset(p, 0, sizeof(*p));
	if (profile_dir)
		p->dirs[p->n++] = profile_dir;
	const char *env = getenv("PERFLAB_PROFILEDIR");
	struct stat st;
	if (env && *env)
		snprintf(bundled, sizeof(bundled), "%s", env);
	else if (stat(PERFLAB_SRCDATADIR "/profiles", &st) == 0 && S_ISDIR(st.st_mode))
		snprintf(bundled, sizeof(bundled), "%s", PERFLAB_SRCDATADIR "/profiles");
	else
		snprintf(bundled, sizeof(bundled), "%s", PERFLAB_DATADIR "/profiles");
	p->dirs[p->n++] = bundled;
	/* The machine's own profiles: /etc is the sysroot's (util/sysroot.h), so a fixture
	 * tree's /etc/tuned is searched, never the host's, with --sysroot. */
	if (pl_sysroot_path(etc_dir, sizeof(etc_dir), "/etc/tuned") == 0)
		p->dirs[p->n++] = etc_dir;
	/* Installed software, like our bundled profiles: read from the host (tuned's own
	 * profiles are the same on every machine with that package). */
	p->dirs[p->n++] = "/usr/lib/tuned";
}

bool pl_tune_name_ok(const char *name)
{
	if (!name || !*name || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return false;
	return strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") ==
	       strlen(name);
}

static bool in_list(char *const *v, const char *s)
{
	for (size_t i = 0; v && v[i]; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

/* Find @name along @p skipping @skip; *skipped set when a candidate was skipped. */
static char *locate(const struct pl_tune_path *p, const char *name, char *const *skip,
		    char **skipped)
{
	for (size_t i = 0; i < p->n; i++) {
		char *f = pl_xasprintf("%s/%s/tuned.conf", p->dirs[i], name);
		struct stat st;
		if (stat(f, &st) == 0 && S_ISREG(st.st_mode)) {
			char real[PATH_MAX];
			if (realpath(f, real)) {
				free(f);
				f = pl_xstrdup(real);
			}
			if (!in_list(skip, f))
				return f;
			if (skipped && !*skipped)
				*skipped = pl_xstrdup(f);
		}
		free(f);
	}
	return NULL;
}

char *pl_tune_locate(const struct pl_tune_path *p, const char *name, char *const *skip)
{
	return locate(p, name, skip, NULL);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **pl_tune_profile_list(const struct pl_tune_path *p, char ***dirs)
{
	char **names = NULL;
	size_t n = 0;
	for (size_t i = 0; i < p->n; i++) {
		char path[PATH_MAX];
		struct stat st;
		DIR *d = opendir(p->dirs[i]);
		if (!d)
			continue;
		struct dirent *de;
		while ((de = readdir(d))) {
			if (!pl_tune_name_ok(de->d_name) || de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s/tuned.conf", p->dirs[i], de->d_name);
			if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
				continue;
			if (in_list(names, de->d_name))
				continue;
			names = pl_xrealloc(names, (n + 2) * sizeof(*names));
			names[n++] = pl_xstrdup(de->d_name);
			names[n] = NULL;
		}
		closedir(d);
	}
	if (!names)
		names = pl_xcalloc(1, sizeof(*names));
	qsort(names, n, sizeof(*names), cmp_str);
	if (dirs) {
		*dirs = pl_xcalloc(n + 1, sizeof(char *));
		for (size_t i = 0; i < n; i++) {
			char *f = locate(p, names[i], NULL, NULL);
			char *sl = f ? strrchr(f, '/') : NULL;
			if (sl) {
				*sl = '\0';
				sl = strrchr(f, '/');
				if (sl)
					*sl = '\0';
			}
			(*dirs)[i] = f ? f : pl_xstrdup("?");
		}
	}
	return names;
}

/* ---- loading and merging ---- */

struct loader {
	const struct pl_tune_path *path;
	char **processed; /* files loaded (tuned's processed_files) */
	size_t nproc;
	char **stack_names; /* profile names being loaded (for the cycle message) */
	char **stack_files;
	size_t depth;
	struct conf *confs; /* in merge order */
	size_t nconfs;
	size_t nsections; /* in all files loaded */
	size_t expanded;  /* bytes produced by ${} expansion so far */
	char **notes;
	size_t nnotes;
	char *err;
	size_t el;
};

/* What a load leaves behind besides the profile (the cleanup of pl_tune_profile_load). */
static void loader_free(struct loader *L)
{
	for (size_t i = 0; i < L->nconfs; i++)
		conf_free(&L->confs[i]);
	free(L->confs);
	pl_strv_free(L->processed);
	pl_strv_free(L->notes);
	free(L->stack_names);
	free(L->stack_files);
}

static void add_note(struct loader *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_note(struct loader *L, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct pl_buf b = { 0 };
	pl_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	L->notes = pl_xrealloc(L->notes, (L->nnotes + 2) * sizeof(char *));
	L->notes[L->nnotes++] = pl_buf_steal(&b);
	L->notes[L->nnotes] = NULL;
}

static int load_one(struct loader *L, const char *name, const char *from_file, int from_line);
static int expand(const char *v, const struct pl_tune_opts *vars, char **unsupported, char **out);

static int load_includes(struct loader *L, struct conf *c)
{
	struct section *m = NULL;
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->s[i].name, "main") == 0)
			m = &c->s[i];
	const struct pl_tune_opt *inc = m ? pl_tune_opts_get(&m->opts, "include") : NULL;
	if (!inc)
		return 0;
	/* tuned expands include= before any variable is known: only functions apply. */
	const struct pl_tune_opts none = { 0 };
	char *incv = NULL;
	if (expand(inc->value, &none, NULL, &incv) < 0)
		incv = pl_xstrdup(inc->value);
	if (strstr(incv, "${")) {
		free(incv);
		snprintf(L->err, L->el,
			 "%s:%d: profile '%s': include '%s' uses a variable or function; perflab "
			 "does not evaluate ${...} in include (name the profile directly)",
			 inc->file, inc->line, c->name, inc->value);
		return -ENOTSUP;
	}
	char **names = pl_split(incv, ",;", NULL);
	free(incv);
	char *file = pl_xstrdup(inc->file);
	int line = inc->line;
	int r = 0;
	for (size_t i = 0; names[i] && r == 0; i++) {
		char *nm = pl_trim(names[i]);
		if (!*nm)
			continue;
		r = load_one(L, nm, file, line);
	}
	free(file);
	pl_strv_free(names);
	return r;
}

static int load_one(struct loader *L, const char *name, const char *from_file, int from_line)
{
	/* '-name' makes an include optional; the profile asked for is never optional (tuned
	 * itself fails with an IndexError then: nothing is loaded). */
	bool dash = name[0] == '-', cond = dash && from_file;
	if (dash)
		name++;
	if (L->depth >= PL_TUNE_MAX_INCLUDE_DEPTH) {
		snprintf(L->err, L->el,
			 "%s:%d: include of '%s' nests profiles more than %d deep (%s -> ... -> "
			 "%s): perflab's limit; stock profiles nest 3",
			 from_file, from_line, name, PL_TUNE_MAX_INCLUDE_DEPTH, L->stack_names[0],
			 L->stack_names[L->depth - 1]);
		return -E2BIG;
	}
	if (!pl_tune_name_ok(name)) {
		if (from_file)
			snprintf(L->err, L->el,
				 "%s:%d: include '%s' is not a profile name (letters, digits, '_', "
				 "'.', '-'; no '/' or '..')",
				 from_file, from_line, name);
		else
			snprintf(L->err, L->el,
				 "'%s' is not a profile name (letters, digits, '_', '.', '-'; no "
				 "'/' "
				 "or '..')",
				 name);
		return -EINVAL;
	}
	pl_autofree char *skipped = NULL;
	pl_autofree char *f = locate(L->path, name, L->processed, &skipped);
	if (!f) {
		bool on_stack = false;
		for (size_t i = 0; skipped && i < L->depth; i++)
			if (strcmp(L->stack_files[i], skipped) == 0)
				on_stack = true;
		if (on_stack) {
			struct pl_buf b = { 0 };
			size_t start = 0;
			for (size_t i = 0; i < L->depth; i++)
				if (strcmp(L->stack_names[i], name) == 0) {
					start = i;
					break;
				}
			for (size_t i = start; i < L->depth; i++)
				pl_buf_printf(&b, "%s -> ", L->stack_names[i]);
			pl_buf_puts(&b, name);
			snprintf(L->err, L->el, "%s:%d: include loop: %s", from_file, from_line,
				 b.data);
			pl_buf_free(&b);
			return -ELOOP;
		}
		if (skipped || cond) {
			if (!skipped)
				add_note(L, "optional include '-%s' (%s:%d) not found: skipped",
					 name, from_file, from_line);
			return 0;
		}
		struct pl_buf b = { 0 };
		for (size_t i = 0; i < L->path->n; i++)
			pl_buf_printf(&b, "%s%s/%s/tuned.conf", i ? ", " : "", L->path->dirs[i],
				      name);
		if (from_file)
			snprintf(L->err, L->el,
				 "%s:%d: included profile '%s' not found (looked for %s)",
				 from_file, from_line, name, b.data);
		else
			snprintf(
				L->err, L->el,
				"profile '%s' not found (looked for %s; see 'perflab tune list')%s",
				name, b.data,
				dash ? "; a leading '-' makes only an include optional" : "");
		pl_buf_free(&b);
		return -ENOENT;
	}
	L->processed = pl_xrealloc(L->processed, (L->nproc + 2) * sizeof(char *));
	L->processed[L->nproc++] = pl_xstrdup(f);
	L->processed[L->nproc] = NULL;
	struct conf c;
	int r = parse_file(f, name, &c, L->err, L->el);
	if (r == 0 && (L->nsections += c.n) > PL_TUNE_MAX_SECTIONS) {
		snprintf(L->err, L->el,
			 "%s: profile '%s': it and the profiles it includes have more than %d "
			 "sections (tuned profiles have a few)",
			 f, name, PL_TUNE_MAX_SECTIONS);
		r = -E2BIG;
	}
	if (r < 0) {
		conf_free(&c);
		return r;
	}
	L->stack_names = pl_xrealloc(L->stack_names, (L->depth + 1) * sizeof(char *));
	L->stack_files = pl_xrealloc(L->stack_files, (L->depth + 1) * sizeof(char *));
	L->stack_names[L->depth] = (char *)name;
	L->stack_files[L->depth] = f;
	L->depth++;
	r = load_includes(L, &c);
	L->depth--;
	if (r < 0) {
		conf_free(&c);
		return r;
	}
	L->confs = pl_xrealloc(L->confs, (L->nconfs + 1) * sizeof(*L->confs));
	L->confs[L->nconfs++] = c;
	return 0;
}

static const char *const unit_reserved[] = { "type",	      "enabled",     "replace",
					     "drop",	      "devices",     "devices_udev_regex",
					     "cpuinfo_regex", "uname_regex", "script_pre",
					     "script_post",   NULL };

static bool truthy(const char *v)
{
	return strcmp(v, "1") == 0 || strcmp(v, "true") == 0 || strcmp(v, "True") == 0;
}

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = v ? pl_xstrdup(v) : NULL;
}

static void unit_free(struct pl_tune_unit *u)
{
	free(u->name);
	free(u->type);
	free(u->devices);
	free(u->cpuinfo_regex);
	free(u->uname_regex);
	free(u->cpuinfo_regex_at);
	free(u->uname_regex_at);
	pl_strv_free(u->unsupported_keys);
	opts_free(&u->opts);
	free(u->file);
}

static struct pl_tune_unit *find_unit(struct pl_tune_profile *pr, const char *name)
{
	for (size_t i = 0; i < pr->nunits; i++)
		if (strcmp(pr->units[i].name, name) == 0)
			return &pr->units[i];
	return NULL;
}

static void strv_add(char ***v, const char *s)
{
	size_t n = 0;
	while (*v && (*v)[n])
		n++;
	if (in_list(*v, s))
		return;
	*v = pl_xrealloc(*v, (n + 2) * sizeof(char *));
	(*v)[n] = pl_xstrdup(s);
	(*v)[n + 1] = NULL;
}

/* Merge section @s of one file over the profile (tuned's Merger._merge_two). */
static void merge_section(struct pl_tune_profile *pr, const struct section *s)
{
	const struct pl_tune_opt *o;
	struct pl_tune_unit *u = find_unit(pr, s->name);
	bool replace = (o = pl_tune_opts_get(&s->opts, "replace")) && truthy(o->value);
	bool merged = u && !replace;
	if (u && replace) {
		unit_free(u);
		memset(u, 0, sizeof(*u));
	}
	if (!u || replace) {
		if (!u) {
			pr->units = pl_xrealloc(pr->units, (pr->nunits + 1) * sizeof(*pr->units));
			u = &pr->units[pr->nunits++];
			memset(u, 0, sizeof(*u));
		}
		u->name = pl_xstrdup(s->name);
		u->enabled = true;
		u->devices = pl_xstrdup("*");
		u->type = pl_xstrdup(s->name);
	}
	set_str(&u->file, s->file);
	u->line = s->line;
	/* type, enabled and devices are taken from the newer unit (with their defaults). */
	o = pl_tune_opts_get(&s->opts, "type");
	set_str(&u->type, o ? o->value : s->name);
	o = pl_tune_opts_get(&s->opts, "enabled");
	u->enabled = o ? truthy(o->value) : true;
	o = pl_tune_opts_get(&s->opts, "devices");
	set_str(&u->devices, o ? o->value : "*");
	if ((o = pl_tune_opts_get(&s->opts, "cpuinfo_regex"))) {
		set_str(&u->cpuinfo_regex, o->value);
		free(u->cpuinfo_regex_at);
		u->cpuinfo_regex_at = pl_xasprintf("%s:%d", o->file, o->line);
	}
	if ((o = pl_tune_opts_get(&s->opts, "uname_regex"))) {
		set_str(&u->uname_regex, o->value);
		free(u->uname_regex_at);
		u->uname_regex_at = pl_xasprintf("%s:%d", o->file, o->line);
	}
	if ((o = pl_tune_opts_get(&s->opts, "drop"))) {
		/* Names separated by ',' or ';' (tuned's Unit: re.split(r"\b\s*[,;]\s*")); "a b"
		 * is one name, which drops nothing. */
		char **d = pl_split(o->value, ",;", NULL);
		for (size_t k = 0; d[k]; k++) {
			char *t = pl_trim(d[k]);
			memmove(d[k], t, strlen(t) + 1);
		}
		opts_drop(&u->opts, d);
		pl_strv_free(d);
	}
	for (size_t i = 0; i < s->opts.n; i++) {
		const struct pl_tune_opt *x = &s->opts.v[i];
		bool reserved = false;
		for (size_t k = 0; unit_reserved[k]; k++)
			if (strcmp(x->key, unit_reserved[k]) == 0)
				reserved = true;
		const struct pl_tune_opt *prev = pl_tune_opts_get(&u->opts, x->key);
		if (!reserved && strcmp(s->name, "script") == 0 && strcmp(x->key, "script") == 0 &&
		    prev) {
			/* tuned runs the scripts of every merged [script] unit, earlier first. */
			struct pl_tune_opt cat = *x;
			cat.value = pl_xasprintf("%s %s", prev->value, x->value);
			opts_set(&u->opts, &cat);
			free(cat.value);
		} else if (!reserved) {
			opts_set(&u->opts, x);
		} else if (strcmp(x->key, "devices_udev_regex") == 0 ||
			   strcmp(x->key, "script_pre") == 0 ||
			   strcmp(x->key, "script_post") == 0) {
			strv_add(&u->unsupported_keys, x->key);
		}
	}
	/* tuned's Merger sets a merged [script]'s scripts to the earlier ones followed by the
	 * unit's own after the update; without a script= of its own the earlier ones come
	 * twice (tuned runs them twice), as here. */
	const struct pl_tune_opt *sc = pl_tune_opts_get(&u->opts, "script");
	if (merged && strcmp(s->name, "script") == 0 && sc &&
	    !pl_tune_opts_get(&s->opts, "script")) {
		struct pl_tune_opt twice = *sc; /* opts_set frees sc's strings: copies */
		twice.key = pl_xstrdup(sc->key);
		twice.value = pl_xasprintf("%s %s", sc->value, sc->value);
		twice.expanded = NULL;
		twice.file = pl_xstrdup(sc->file);
		twice.profile = pl_xstrdup(sc->profile);
		opts_set(&u->opts, &twice);
		free(twice.key);
		free(twice.value);
		free(twice.file);
		free(twice.profile);
	}
}

/* ---- variables ---- */

/* The '}' that closes the reference "${..." at @v (functions nest:
 * ${f:strip:${f:exec:..}}), or the terminating NUL when it is not closed. */
static const char *ref_end(const char *v)
{
	int depth = 0;
	const char *e = v + 1;
	for (; *e; e++) {
		if (*e == '{')
			depth++;
		else if (*e == '}' && --depth == 0)
			break;
	}
	return e;
}

/* @v with each "\${WORD}" (WORD of letters, digits, '_') turned into "${WORD}", as
 * tuned's Variables.expand_static does after substituting. Malloc'd. */
static char *unescape_refs(const char *v)
{
	struct pl_buf b = { 0 };
	pl_buf_puts(&b, "");
	for (const char *p = v; *p; p++) {
		if (p[0] == '\\' && p[1] == '$' && p[2] == '{') {
			size_t w =
				strspn(p + 3, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					      "0123456789_");
			if (w && p[3 + w] == '}')
				continue; /* drop the backslash */
		}
		pl_buf_append(&b, p, 1);
	}
	return pl_buf_steal(&b);
}

/* Why the last ${f:...} failed (an assertion): expand() returns -EINVAL then. */
static char func_why[512];

/* ${f:NAME:ARGS} with @inner = "f:NAME:ARGS": expand the arguments (variables, nested
 * functions), split them at each ':' not escaped as "\:", and evaluate the function
 * (tune/functions.h). Returns 0 with *res the text to put in its place, or NULL to leave
 * the reference as written (and name it in *unsupported when perflab cannot evaluate
 * it); -EINVAL for a failed assertion (func_why), -E2BIG as expand(). */
static int call_function(const char *inner, const struct pl_tune_opts *vars, char **unsupported,
			 char **res)
{
	*res = NULL;
	pl_autofree char *args = NULL;
	int r = expand(inner, vars, unsupported, &args);
	if (r < 0)
		return r;
	char **part = NULL;
	size_t np = 0;
	struct pl_buf cur = { 0 };
	pl_buf_puts(&cur, "");
	for (const char *p = args;; p++) {
		if (*p == '\\' && p[1] == ':') {
			pl_buf_puts(&cur, ":");
			p++;
			continue;
		}
		if (*p == ':' || !*p) {
			part = pl_xrealloc(part, (np + 2) * sizeof(*part));
			part[np++] = pl_buf_steal(&cur);
			part[np] = NULL;
			pl_buf_puts(&cur, "");
			if (!*p)
				break;
			continue;
		}
		pl_buf_append(&cur, p, 1);
	}
	pl_buf_free(&cur);
	char why[256] = "";
	r = np >= 2 ? pl_tune_func(part[1], part + 2, np - 2, res, why, sizeof(why)) : 1;
	pl_strv_free(part);
	if (r == -EINVAL) {
		snprintf(func_why, sizeof(func_why), "%s", why);
		return -EINVAL;
	}
	if (r < 0 && unsupported && !*unsupported)
		*unsupported = pl_xasprintf("${%s} (%s)", inner, why);
	return 0;
}

/* Expand ${name} using @vars (values already expanded). \${ stays literal. Unknown
 * variables stay as written; ${f:...} and ${i:...} are reported through *unsupported.
 * Returns 0 and *out (malloc'd), or -E2BIG when the result would pass
 * PL_TUNE_MAX_VALUE bytes (variables that repeat each other grow exponentially). */
static int expand(const char *v, const struct pl_tune_opts *vars, char **unsupported, char **out)
{
	struct pl_buf b = { 0 };
	pl_buf_puts(&b, "");
	while (*v) {
		const char *add = v;
		char *fres = NULL;
		size_t n = 1, used = 1;
		if (v[0] == '\\' && v[1] == '$' && v[2] == '{') {
			add = "${";
			n = 2;
			used = 3;
		} else if (v[0] == '$' && v[1] == '{') {
			const char *e = ref_end(v);
			if (!*e) {
				n = used = strlen(v);
			} else {
				size_t in = (size_t)(e - v - 2);
				char *inner = pl_xmalloc(in + 1);
				memcpy(inner, v + 2, in);
				inner[in] = '\0';
				const struct pl_tune_opt *var = pl_tune_opts_get(vars, inner);
				int fr = 1;
				if (pl_startswith(inner, "f:"))
					fr = call_function(inner, vars, unsupported, &fres);
				if (fr < 0) {
					free(inner);
					pl_buf_free(&b);
					return fr;
				}
				if (fres) {
					add = fres;
					n = strlen(add);
				} else if (var && var->expanded) {
					/* tuned unescapes after substituting: a value holding
					 * "\${name}" puts "${name}" in. */
					fres = unescape_refs(var->expanded);
					add = fres;
					n = strlen(add);
				} else {
					if ((pl_startswith(inner, "f:") ||
					     pl_startswith(inner, "i:")) &&
					    unsupported && !*unsupported)
						*unsupported = pl_xasprintf("${%s}", inner);
					n = in + 3;
				}
				used = in + 3;
				free(inner);
			}
		}
		if (n > PL_TUNE_MAX_VALUE - b.len) {
			free(fres);
			pl_buf_free(&b);
			return -E2BIG;
		}
		pl_buf_append(&b, add, n);
		free(fres);
		v += used;
	}
	*out = pl_buf_steal(&b);
	return 0;
}

/* expand() for option @what (file @file, line @line) of profile @L, counting the bytes
 * against PL_TUNE_MAX_EXPANDED; on error one line in L->err. */
static int expand_at(struct loader *L, const char *v, const struct pl_tune_opts *vars,
		     char **unsupported, char **out, const char *file, int line, const char *what)
{
	int r = expand(v, vars, unsupported, out);
	if (r == -EINVAL) {
		snprintf(L->err, L->el, "%s:%d: %s: %s (tuned refuses the profile too)", file, line,
			 what, func_why);
		return r;
	}
	if (r < 0) {
		snprintf(L->err, L->el,
			 "%s:%d: %s is longer than %u bytes after ${} expansion (variables "
			 "repeating each other?)",
			 file, line, what, PL_TUNE_MAX_VALUE);
		return r;
	}
	L->expanded += strlen(*out);
	if (L->expanded > PL_TUNE_MAX_EXPANDED) {
		free(*out);
		*out = NULL;
		snprintf(L->err, L->el,
			 "%s:%d: %s: ${} expansion of this profile passes %u bytes in total "
			 "(variables repeating each other?)",
			 file, line, what, PL_TUNE_MAX_EXPANDED);
		return -E2BIG;
	}
	return 0;
}

/* Read more variables from FILE (the `include` of [variables]), inside the sysroot. */
static int vars_from_file(struct pl_tune_profile *pr, const struct pl_tune_opt *inc,
			  struct loader *L)
{
	char path[PATH_MAX];
	if (pl_sysroot_path(path, sizeof(path), inc->value) < 0) {
		add_note(L, "%s:%d: variables file '%s' is not an absolute path: ignored",
			 inc->file, inc->line, inc->value);
		return 0;
	}
	struct conf c;
	char err[512];
	if (parse_file(path, pr->name, &c, err, sizeof(err)) < 0) {
		/* tuned logs "unable to find variables_file" and goes on. */
		add_note(L,
			 "%s:%d: variables file '%s' not readable (%s): its variables stay unset",
			 inc->file, inc->line, inc->value, err);
		conf_free(&c);
		return 0;
	}
	/* The file has no section header: inih reports its keys under section "". */
	int r = 0;
	for (size_t i = 0; i < c.n && r == 0; i++)
		for (size_t k = 0; k < c.s[i].opts.n && r == 0; k++) {
			struct pl_tune_opt o = c.s[i].opts.v[k];
			char *ex = NULL;
			char what[160];
			snprintf(what, sizeof(what), "variable '%.100s'", o.key);
			r = expand_at(L, o.value, &pr->variables, NULL, &ex, o.file, o.line, what);
			if (r < 0)
				break;
			o.expanded = ex;
			opts_set(&pr->variables, &o);
			free(ex);
		}
	conf_free(&c);
	return r;
}

/* ---- checks of what will be used ---- */

static const char cmdline_name_ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				      "0123456789_.-";
static const char cmdline_value_ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				       "0123456789_.-,=:/+@%";

/* Offset of the first byte of @tok that pl_tune_cmdline_token_ok() refuses, or its
 * length when there is none. */
static size_t cmdline_bad_at(const char *tok)
{
	if (tok[0] == '-' || tok[0] == '=')
		return 0;
	size_t nl = strcspn(tok, "=");
	size_t ok = strspn(tok, cmdline_name_ok);
	if (ok < nl)
		return ok;
	if (tok[nl] == '\0')
		return nl;
	return nl + 1 + strspn(tok + nl + 1, cmdline_value_ok);
}

bool pl_tune_cmdline_token_ok(const char *tok)
{
	return tok && *tok && tok[cmdline_bad_at(tok)] == '\0';
}

int pl_tune_cmdline_check(const char *value, char *why, size_t whylen)
{
	/* Set aside ${...} (balanced, as expand() finds them): left unexpanded, they make
	 * the planner report the option as unsupported. */
	struct pl_buf b = { 0 };
	pl_buf_puts(&b, "");
	const char *v = value;
	if (*v == '+' || *v == '-')
		v++;
	/* One pair of double quotes around the whole value is tuned's quoting
	 * (commands.unquote of the merged cmdline): checked without them; the planner
	 * refuses quotes that tuned would not remove. */
	size_t vl = strlen(v);
	const char *vend = v + vl;
	if (vl >= 2 && v[0] == '"' && v[vl - 1] == '"') {
		v++;
		vend--;
	}
	while (v < vend) {
		if (v[0] == '$' && v[1] == '{') {
			const char *e = ref_end(v);
			if (*e) {
				v = e + 1;
				continue;
			}
		}
		pl_buf_append(&b, v, 1);
		v++;
	}
	char **toks = pl_split(b.data, " \t\n", NULL);
	int r = 0;
	for (size_t i = 0; toks[i] && r == 0; i++) {
		if (pl_tune_cmdline_token_ok(toks[i]))
			continue;
		unsigned char ch = (unsigned char)toks[i][cmdline_bad_at(toks[i])];
		char c[16];
		if (ch > ' ' && ch < 0x7f)
			snprintf(c, sizeof(c), "'%c'", ch);
		else
			snprintf(c, sizeof(c), "byte 0x%02x", ch);
		snprintf(why, whylen,
			 "kernel command line token '%.200s' has %s: perflab writes only "
			 "name[=value] tokens of letters, digits and _ - . , = : / + @ %% (no "
			 "quotes or shell characters; edit /etc/default/grub by hand for others)",
			 toks[i], c);
		r = -EINVAL;
	}
	pl_strv_free(toks);
	pl_buf_free(&b);
	return r;
}

#define SAT_ADD(a, b) ((a) > SIZE_MAX - (b) ? SIZE_MAX : (a) + (b))
#define SAT_MUL(a, b) ((b) && (a) > SIZE_MAX / (b) ? SIZE_MAX : (a) * (b))

size_t pl_tune_regex_cost(const char *re, bool *backref)
{
	/* One frame per open group: the cost of its finished alternatives, of the current
	 * branch, and of the last piece (what a following repetition copies). Deeper
	 * groups than the frames cost as if flat: a pattern that long is refused anyway. */
	struct frame {
		size_t alts, branch, last;
	} st[64];
	size_t d = 0, lost = 0;
	st[0] = (struct frame){ 0, 0, 0 };
	*backref = false;
	const char *p = re;
	while (*p) {
		size_t atom = 0, mult = 0;
		switch (*p) {
		case '(':
			if (d + 1 < sizeof(st) / sizeof(st[0]))
				st[++d] = (struct frame){ 0, 0, 0 };
			else
				lost++;
			p++;
			continue;
		case ')':
			p++;
			if (lost) {
				lost--;
				continue;
			}
			if (d == 0) {
				atom = 1; /* a lone ')' is a literal in ERE */
				break;
			}
			atom = SAT_ADD(SAT_ADD(st[d].alts, st[d].branch), 1);
			d--;
			break;
		case '|':
			st[d].alts = SAT_ADD(st[d].alts, st[d].branch);
			st[d].branch = st[d].last = 0;
			p++;
			continue;
		case '[': {
			/* A bracket expression is one element: skip to its closing ']'. */
			const char *q = p + 1;
			if (*q == '^')
				q++;
			if (*q == ']')
				q++;
			while (*q && *q != ']') {
				if (q[0] == '[' && (q[1] == ':' || q[1] == '.' || q[1] == '=')) {
					const char end[3] = { q[1], ']', '\0' };
					const char *e = strstr(q + 2, end);
					q = e ? e + 2 : q + 1;
				} else {
					q++;
				}
			}
			p = *q ? q + 1 : q;
			atom = 1;
			break;
		}
		case '\\':
			if (p[1] >= '1' && p[1] <= '9')
				*backref = true;
			p += p[1] ? 2 : 1;
			atom = 1;
			break;
		case '*':
		case '?':
			mult = 1;
			p++;
			break;
		case '+':
			mult = 2; /* x+ = xx* */
			p++;
			break;
		case '{': {
			char *e;
			unsigned long m = strtoul(p + 1, &e, 10), n = m;
			if (e == p + 1 && *e != ',') {
				atom = 1; /* not an interval: a literal '{' */
				p++;
				break;
			}
			if (*e == ',') {
				const char *f = e + 1;
				n = strtoul(f, &e, 10);
				if (e == f)
					n = m + 1; /* {m,}: m copies and a star */
			}
			if (*e == '}')
				e++;
			mult = n > m ? n : m;
			if (mult == 0)
				mult = 1;
			p = e;
			break;
		}
		default:
			atom = 1;
			p++;
			break;
		}
		struct frame *f = &st[d];
		if (mult) {
			/* The repetition copies the last piece (mult - 1) more times. */
			f->branch = SAT_ADD(SAT_ADD(f->branch, SAT_MUL(f->last, mult - 1)), 1);
			f->last = SAT_ADD(SAT_MUL(f->last, mult), 1);
		} else {
			f->branch = SAT_ADD(f->branch, atom);
			f->last = atom;
		}
	}
	while (d > 0) { /* unclosed groups (regcomp refuses them) */
		size_t in = SAT_ADD(st[d].alts, st[d].branch);
		d--;
		st[d].branch = SAT_ADD(st[d].branch, in);
	}
	return SAT_ADD(st[0].alts, st[0].branch);
}

/* Check condition regex @re of @u (option @key at "FILE:LINE" @at) at load: bounded in
 * length and in what regcomp would build, no back-references, and compiling. */
static int check_regex(struct loader *L, const struct pl_tune_unit *u, const char *key,
		       const char *re, const char *at)
{
	size_t len = strlen(re);
	const char *more = len > 80 ? "..." : "";
	if (len > PL_TUNE_MAX_REGEX) {
		snprintf(L->err, L->el, "%s: section [%s], %s is %zu bytes long (at most %d)", at,
			 u->name, key, len, PL_TUNE_MAX_REGEX);
		return -E2BIG;
	}
	bool backref;
	size_t cost = pl_tune_regex_cost(re, &backref);
	if (cost > PL_TUNE_MAX_REGEX_NODES) {
		snprintf(L->err, L->el,
			 "%s: section [%s], %s '%.80s%s' repeats too much: its repetitions "
			 "('+', '{m,n}') multiply out to more than %d elements",
			 at, u->name, key, re, more, PL_TUNE_MAX_REGEX_NODES);
		return -E2BIG;
	}
	if (backref) {
		snprintf(L->err, L->el,
			 "%s: section [%s], %s '%.80s%s' uses a back-reference (\\1 to \\9), "
			 "which perflab does not match (it can take exponential time)",
			 at, u->name, key, re, more);
		return -EINVAL;
	}
	regex_t rx;
	int rc = regcomp(&rx, re, REG_EXTENDED | REG_NOSUB | REG_NEWLINE);
	if (rc != 0) {
		char msg[128];
		regerror(rc, &rx, msg, sizeof(msg));
		snprintf(L->err, L->el, "%s: section [%s], %s '%.80s%s' is not a regex: %s", at,
			 u->name, key, re, more, msg);
		return -EINVAL;
	}
	regfree(&rx);
	return 0;
}

/* Expand the unit's devices, regexes and options; check the regexes and the
 * [bootloader] cmdline tokens. */
static int finish_unit(struct loader *L, struct pl_tune_profile *pr, struct pl_tune_unit *u)
{
	char what[256], *x = NULL;
	snprintf(what, sizeof(what), "section [%.80s], devices", u->name);
	int r = expand_at(L, u->devices, &pr->variables, NULL, &x, u->file, u->line, what);
	if (r < 0)
		return r;
	set_str(&u->devices, x);
	free(x);
	char **res[2] = { &u->cpuinfo_regex, &u->uname_regex };
	const char *ats[2] = { u->cpuinfo_regex_at, u->uname_regex_at };
	const char *keys[2] = { "cpuinfo_regex", "uname_regex" };
	for (int i = 0; i < 2; i++) {
		if (!*res[i])
			continue;
		snprintf(what, sizeof(what), "section [%.80s], %s", u->name, keys[i]);
		r = expand_at(L, *res[i], &pr->variables, NULL, &x, u->file, u->line, what);
		if (r < 0)
			return r;
		set_str(res[i], x);
		free(x);
		r = check_regex(L, u, keys[i], *res[i], ats[i] ? ats[i] : u->file);
		if (r < 0)
			return r;
	}
	bool boot = strcmp(u->type, "bootloader") == 0;
	for (size_t k = 0; k < u->opts.n; k++) {
		struct pl_tune_opt *o = &u->opts.v[k];
		free(o->expanded);
		o->expanded = NULL;
		snprintf(what, sizeof(what), "profile '%.60s', section [%.60s], key '%.60s'",
			 o->profile, u->name, o->key);
		r = expand_at(L, o->value, &pr->variables, NULL, &o->expanded, o->file, o->line,
			      what);
		if (r < 0)
			return r;
		if (boot && pl_startswith(o->key, "cmdline")) {
			char why[512];
			if (pl_tune_cmdline_check(o->expanded, why, sizeof(why)) < 0) {
				snprintf(L->err, L->el, "%s:%d: %s: %s", o->file, o->line, what,
					 why);
				return -EINVAL;
			}
		}
	}
	return 0;
}

int pl_tune_profile_load(const struct pl_tune_path *p, const char *name,
			 struct pl_tune_profile **out, char *err, size_t errlen)
{
	__attribute__((
		cleanup(loader_free))) struct loader L = { .path = p, .err = err, .el = errlen };
	err[0] = '\0';
	int r = load_one(&L, name, NULL, 0);
	if (r == 0 && L.nconfs == 0) {
		snprintf(err, errlen, "profile '%s': nothing loaded", name);
		r = -ENOENT;
	}
	if (r < 0)
		return r;
	__attribute__((cleanup(pl_tune_profile_freep))) struct pl_tune_profile *pr =
		pl_xcalloc(1, sizeof(*pr));
	pr->name = pl_xstrdup(name);
	pr->file = pl_xstrdup(L.confs[L.nconfs - 1].file);
	pr->chain = pl_xcalloc(L.nconfs + 1, sizeof(char *));
	__attribute__((cleanup(opts_free))) struct pl_tune_opts vars_raw = { 0 };
	for (size_t i = 0; i < L.nconfs; i++) {
		struct conf *c = &L.confs[i];
		pr->chain[i] = pl_xstrdup(c->file);
		for (size_t k = 0; k < c->n; k++) {
			struct section *s = &c->s[k];
			if (strcmp(s->name, "main") == 0) {
				for (size_t m = 0; m < s->opts.n; m++)
					if (strcmp(s->opts.v[m].key, "include") != 0)
						opts_set(&pr->main, &s->opts.v[m]);
			} else if (strcmp(s->name, "variables") == 0) {
				opts_copy(&vars_raw, &s->opts);
			} else if (s->name[0] == '\0') {
				snprintf(err, errlen,
					 "%s:%d: profile '%s': option '%s' before any [section]",
					 s->file, s->opts.n ? s->opts.v[0].line : 1, c->name,
					 s->opts.n ? s->opts.v[0].key : "?");
				return -EBADMSG;
			} else {
				merge_section(pr, s);
			}
		}
	}
	/* Variables in definition order, each expanded with the ones before it. */
	for (size_t i = 0; i < vars_raw.n && r == 0; i++) {
		struct pl_tune_opt *o = &vars_raw.v[i];
		if (strcmp(o->key, "include") == 0) {
			r = vars_from_file(pr, o, &L);
			continue;
		}
		pl_autofree char *uns = NULL;
		pl_autofree char *ex = NULL;
		char what[160];
		snprintf(what, sizeof(what), "variable '%.100s'", o->key);
		r = expand_at(&L, o->value, &pr->variables, &uns, &ex, o->file, o->line, what);
		if (uns)
			add_note(&L, "%s:%d: variable '%s' uses %s: functions are not supported",
				 o->file, o->line, o->key, uns);
		if (r < 0)
			break;
		struct pl_tune_opt c = *o;
		c.expanded = ex;
		opts_set(&pr->variables, &c);
	}
	for (size_t i = 0; i < pr->main.n && r == 0; i++) {
		struct pl_tune_opt *o = &pr->main.v[i];
		char what[160];
		snprintf(what, sizeof(what), "[main] option '%.100s'", o->key);
		r = expand_at(&L, o->value, &pr->variables, NULL, &o->expanded, o->file, o->line,
			      what);
	}
	for (size_t i = 0; i < pr->nunits && r == 0; i++)
		r = finish_unit(&L, pr, &pr->units[i]);
	if (r < 0)
		return r;
	const struct pl_tune_opt *sum = pl_tune_opts_get(&pr->main, "summary");
	pr->summary = pl_xstrdup(sum ? sum->expanded : "");
	pr->notes = pl_steal_ptr(&L.notes);
	if (!pr->notes)
		pr->notes = pl_xcalloc(1, sizeof(char *));
	*out = pl_steal_ptr(&pr);
	return 0;
}

void pl_tune_profile_free(struct pl_tune_profile *pr)
{
	if (!pr)
		return;
	free(pr->name);
	free(pr->file);
	free(pr->summary);
	pl_strv_free(pr->chain);
	pl_strv_free(pr->notes);
	opts_free(&pr->main);
	opts_free(&pr->variables);
	for (size_t i = 0; i < pr->nunits; i++)
		unit_free(&pr->units[i]);
	free(pr->units);
	free(pr);
}
