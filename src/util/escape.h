/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Making outside bytes safe to print: what machine trees, symbol tables and users hand
 * us may be invalid UTF-8 (jansson refuses such a string, so a value or key would vanish
 * from the JSON), may hold terminal control sequences (ESC [2J, a carriage return that
 * overwrites a line), may hold shell metacharacters (a device name pasted into a fix
 * command), or quotes that would end a Prometheus label value early. Bytes are never
 * dropped: an unsafe byte becomes the literal text \xNN. */
#ifndef PERFLAB_UTIL_ESCAPE_H
#define PERFLAB_UTIL_ESCAPE_H
#include <stdbool.h>
#include <stdio.h>

struct pl_buf;

/** Flags of pl_str_escape(). */
enum pl_escape_flags {
	PL_ESC_UTF8 = 1 << 0,	 /**< bytes that are not part of valid UTF-8 -> \xNN */
	PL_ESC_CTRL = 1 << 1,	 /**< C0 controls, DEL and C1 controls (U+0080..U+009F) ->
				      \xNN (each byte of a C1 character's encoding) */
	PL_ESC_KEEP_NL = 1 << 2, /**< with PL_ESC_CTRL: keep '\n' as is */
	PL_ESC_TERM = PL_ESC_UTF8 | PL_ESC_CTRL, /**< for a terminal: valid UTF-8, no controls */
};

/** Length (1..4) of the valid UTF-8 sequence at @p (RFC 3629: shortest form, no
 *  surrogates, at most U+10FFFF), or 0 when the byte at @p does not start one. @p points
 *  into a NUL-terminated string; a NUL byte is never part of a sequence. */
int pl_utf8_seq_len(const char *p);
/** True when the NUL-terminated @s is valid UTF-8 (NULL counts as valid). */
bool pl_utf8_valid(const char *s);
/** True when @s needs pl_str_escape(@s, @flags) to change anything. */
bool pl_str_needs_escape(const char *s, unsigned flags);
/** A malloc'd copy of @s (NULL -> "") with the bytes selected by @flags (enum
 *  pl_escape_flags) written as the four characters \xNN (lowercase hex). A backslash is
 *  kept as is, so the escape is for reading, not for reversing. Never fails (aborts on
 *  out-of-memory like pl_xmalloc). */
char *pl_str_escape(const char *s, unsigned flags);
/** Append @s (NULL -> "") to @out as XML or HTML text or attribute value: &, <, >, " and '
 *  as the entities &amp; &lt; &gt; &quot; &#39;; every byte that is not part of valid
 *  UTF-8, and every character XML 1.0 forbids or HTML calls a control (C0 controls but tab,
 *  line feed and carriage return, DEL, C1 controls U+0080..U+009F, the noncharacters
 *  U+FFFE and U+FFFF), as the text \xNN of each of its bytes, as pl_str_escape() writes
 *  them into JSON and onto a terminal. So an SVG or HTML document stays well-formed UTF-8
 *  whatever the input (XML 1.0, 2.2 Characters; the HTML Standard, 13.2.5 preprocessing
 *  the input stream). Never fails (aborts on out-of-memory like pl_xmalloc). */
void pl_xml_escape(struct pl_buf *out, const char *s);
/** pl_xml_escape() of @s written to @f. */
void pl_xml_escape_file(FILE *f, const char *s);

/** @s quoted for a POSIX shell, malloc'd: unchanged when it is non-empty and only
 *  [A-Za-z0-9_@%+=:,./-]; otherwise in single quotes, each ' written as '\''. Control
 *  characters and invalid UTF-8 are escaped as \xNN first (pl_str_escape, PL_ESC_TERM),
 *  so the command stays one printable line. */
char *pl_shell_quote(const char *s);

/** @s (NULL -> "") as a Prometheus label value without the quotes, malloc'd: the text
 *  exposition format's escapes for backslash, double quote and line feed (\\, \", \n);
 *  bytes that are not valid UTF-8 (the format requires UTF-8) become the text \xNN with
 *  its backslash escaped, so they read back as \xNN. Never cut, never fails (aborts on
 *  out-of-memory like pl_xmalloc). */
char *pl_prom_label_escape(const char *s);
/** Write @s as a quoted Prometheus label value (pl_prom_label_escape) to @out. */
void pl_prom_label_value(FILE *out, const char *s);
/** True when @name is a valid Prometheus metric name, [a-zA-Z_:][a-zA-Z0-9_:]* (not
 *  empty). */
bool pl_prom_name_ok(const char *name);

#endif
