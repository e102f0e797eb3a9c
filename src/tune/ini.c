/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One tuned.conf read as tuned's ConfigParser reads it, with inih
 * (pl_tune_ini_parse, tune/profile_internal.h). */
#include "tune/profile_internal.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "util/str.h"

void pl_tune_conf_free(struct pl_tune_conf *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->s[i].name);
		free(c->s[i].file);
		pl_tune_opts_free(&c->s[i].opts);
	}
	free(c->s);
	free(c->name);
	free(c->file);
	memset(c, 0, sizeof(*c));
}

/* The section @name of @c, created at @line when new; NULL when @c already has
 * PL_TUNE_MAX_SECTIONS sections (so the lookup stays cheap). */
static struct pl_tune_section *conf_section(struct pl_tune_conf *c, const char *name, int line)
{
	if (c->last && strcmp(c->last->name, name) == 0)
		return c->last;
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->s[i].name, name) == 0)
			return c->last = &c->s[i];
	if (c->n >= PL_TUNE_MAX_SECTIONS)
		return NULL;
	c->s = pl_xrealloc(c->s, (c->n + 1) * sizeof(*c->s));
	struct pl_tune_section *s = &c->s[c->n++];
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
	struct pl_tune_conf *c;
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
		struct pl_tune_section *s = conf_section(r->c, name, r->line);
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
	struct pl_tune_section *s = conf_section(r->c, sec, r->line);
	if (s) {
		struct pl_tune_opt o = { .key = n,
					 .value = v,
					 .file = r->c->file,
					 .profile = r->c->name,
					 .line = r->line };
		pl_tune_opts_set(&s->opts, &o);
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

int pl_tune_ini_parse(const char *path, const char *name, struct pl_tune_conf *c, char *err,
		      size_t el)
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
