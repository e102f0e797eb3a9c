/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "util/escape.h"

#include <stdlib.h>
#include <string.h>

#include "util/str.h"

int pl_utf8_seq_len(const char *p)
{
	const unsigned char *s = (const unsigned char *)p;
	unsigned c = s[0];
	if (c < 0x80)
		return c ? 1 : 0;
	int n;
	unsigned min, cp;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2, min = 0x80, cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3, min = 0x800, cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4, min = 0x10000, cp = c & 0x07;
	} else {
		return 0; /* continuation byte, overlong lead (c0, c1) or > U+10FFFF (f5..ff) */
	}
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0; /* also stops at the NUL terminator */
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

bool pl_utf8_valid(const char *s)
{
	return !pl_str_needs_escape(s, PL_ESC_UTF8);
}

/* Is the character of @n bytes at @p one PL_ESC_CTRL escapes? */
static bool is_ctrl(const unsigned char *p, int n, unsigned flags)
{
	if (n == 1)
		return (p[0] < 0x20 && !(p[0] == '\n' && (flags & PL_ESC_KEEP_NL))) || p[0] == 0x7f;
	return n == 2 && p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f;
}

bool pl_str_needs_escape(const char *s, unsigned flags)
{
	for (const char *p = s ? s : ""; *p;) {
		int n = pl_utf8_seq_len(p);
		if (n == 0) {
			if (flags & (PL_ESC_UTF8 | PL_ESC_CTRL))
				return true;
			n = 1;
		} else if ((flags & PL_ESC_CTRL) && is_ctrl((const unsigned char *)p, n, flags)) {
			return true;
		}
		p += n;
	}
	return false;
}

static void put_hex(struct pl_buf *b, const unsigned char *p, int n)
{
	for (int i = 0; i < n; i++)
		pl_buf_printf(b, "\\x%02x", p[i]);
}

char *pl_str_escape(const char *s, unsigned flags)
{
	struct pl_buf b = { 0 };
	for (const char *p = s ? s : ""; *p;) {
		const unsigned char *u = (const unsigned char *)p;
		int n = pl_utf8_seq_len(p);
		if (n == 0) {
			/* invalid UTF-8: escaped under either flag (a terminal would show junk) */
			if (flags & (PL_ESC_UTF8 | PL_ESC_CTRL))
				put_hex(&b, u, 1);
			else
				pl_buf_append(&b, p, 1);
			p++;
			continue;
		}
		if ((flags & PL_ESC_CTRL) && is_ctrl(u, n, flags))
			put_hex(&b, u, n);
		else
			pl_buf_append(&b, p, (size_t)n);
		p += n;
	}
	return pl_buf_steal(&b);
}

/* Is the character of @n bytes at @p one an XML or HTML document must not hold as is? */
static bool xml_forbidden(const unsigned char *p, int n)
{
	if (n == 1)
		return (p[0] < 0x20 && p[0] != '\t' && p[0] != '\n' && p[0] != '\r') ||
		       p[0] == 0x7f;
	if (n == 2)
		return p[0] == 0xc2 && p[1] <= 0x9f;		       /* U+0080..U+009F */
	return n == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe; /* U+FFFE, U+FFFF */
}

void pl_xml_escape(struct pl_buf *out, const char *s)
{
	for (const char *p = s ? s : ""; *p;) {
		const unsigned char *u = (const unsigned char *)p;
		int n = pl_utf8_seq_len(p);
		if (n == 0 || xml_forbidden(u, n)) {
			put_hex(out, u, n ? n : 1);
			p += n ? n : 1;
			continue;
		}
		switch (*p) {
		case '&':
			pl_buf_puts(out, "&amp;");
			break;
		case '<':
			pl_buf_puts(out, "&lt;");
			break;
		case '>':
			pl_buf_puts(out, "&gt;");
			break;
		case '"':
			pl_buf_puts(out, "&quot;");
			break;
		case '\'':
			pl_buf_puts(out, "&#39;");
			break;
		default:
			pl_buf_append(out, p, (size_t)n);
		}
		p += n;
	}
}

void pl_xml_escape_file(FILE *f, const char *s)
{
	struct pl_buf b = { 0 };
	pl_xml_escape(&b, s);
	if (b.len)
		fwrite(b.data, 1, b.len, f);
	pl_buf_free(&b);
}

char *pl_shell_quote(const char *s)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789_@%+=:,./-";
	char *t = pl_str_escape(s, PL_ESC_TERM);
	if (*t && strspn(t, safe) == strlen(t))
		return t;
	struct pl_buf b = { 0 };
	pl_buf_puts(&b, "'");
	for (const char *p = t; *p; p++) {
		if (*p == '\'')
			pl_buf_puts(&b, "'\\''");
		else
			pl_buf_append(&b, p, 1);
	}
	pl_buf_puts(&b, "'");
	free(t);
	return pl_buf_steal(&b);
}

char *pl_prom_label_escape(const char *s)
{
	struct pl_buf b = { 0 };
	for (const char *p = s ? s : ""; *p;) {
		int n = pl_utf8_seq_len(p);
		if (n == 0) {
			pl_buf_printf(&b, "\\\\x%02x", (unsigned char)*p);
			p++;
			continue;
		}
		if (*p == '\\')
			pl_buf_puts(&b, "\\\\");
		else if (*p == '"')
			pl_buf_puts(&b, "\\\"");
		else if (*p == '\n')
			pl_buf_puts(&b, "\\n");
		else
			pl_buf_append(&b, p, (size_t)n);
		p += n;
	}
	return pl_buf_steal(&b);
}

void pl_prom_label_value(FILE *out, const char *s)
{
	char *e = pl_prom_label_escape(s);
	fputc('"', out);
	fputs(e, out);
	fputc('"', out);
	free(e);
}

bool pl_prom_name_ok(const char *name)
{
	static const char first[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_:";
	static const char rest[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_:"
				   "0123456789";
	return name && *name && strchr(first, *name) && strspn(name, rest) == strlen(name);
}
