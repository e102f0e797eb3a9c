/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The checks of cmdline tokens and condition regexes (tune/validate.h). */
#include "tune/validate.h"

#include <errno.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tune/profile.h"
#include "tune/profile_internal.h"
#include "util/str.h"

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
	/* Set aside ${...} (balanced, as pl_tune_expand() finds them): left unexpanded, they make
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
			const char *e = pl_tune_ref_end(v);
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

/* Check condition regex @re of section @section (option @key at "FILE:LINE" @at) at
 * load: bounded in length and in what regcomp would build, no back-references, and
 * compiling. */
int pl_tune_check_regex(const char *section, const char *key, const char *re, const char *at,
			char *err, size_t el)
{
	size_t len = strlen(re);
	const char *more = len > 80 ? "..." : "";
	if (len > PL_TUNE_MAX_REGEX) {
		snprintf(err, el, "%s: section [%s], %s is %zu bytes long (at most %d)", at,
			 section, key, len, PL_TUNE_MAX_REGEX);
		return -E2BIG;
	}
	bool backref;
	size_t cost = pl_tune_regex_cost(re, &backref);
	if (cost > PL_TUNE_MAX_REGEX_NODES) {
		snprintf(err, el,
			 "%s: section [%s], %s '%.80s%s' repeats too much: its repetitions "
			 "('+', '{m,n}') multiply out to more than %d elements",
			 at, section, key, re, more, PL_TUNE_MAX_REGEX_NODES);
		return -E2BIG;
	}
	if (backref) {
		snprintf(err, el,
			 "%s: section [%s], %s '%.80s%s' uses a back-reference (\\1 to \\9), "
			 "which perflab does not match (it can take exponential time)",
			 at, section, key, re, more);
		return -EINVAL;
	}
	regex_t rx;
	int rc = regcomp(&rx, re, REG_EXTENDED | REG_NOSUB | REG_NEWLINE);
	if (rc != 0) {
		char msg[128];
		regerror(rc, &rx, msg, sizeof(msg));
		snprintf(err, el, "%s: section [%s], %s '%.80s%s' is not a regex: %s", at, section,
			 key, re, more, msg);
		return -EINVAL;
	}
	regfree(&rx);
	return 0;
}
