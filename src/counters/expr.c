/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The metrics' formula language (expr.h): a recursive-descent parser into a node array
 * and a recursive evaluator over a reading. */
#include "counters/expr.h"

#include "counters/pmu_parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/escape.h"
#include "util/str.h"

enum op { OP_NUM, OP_NAME, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_NEG, OP_MIN, OP_MAX };

struct node {
	enum op op;
	double num;	  /* OP_NUM */
	const char *name; /* OP_NAME: into pool */
	int a, b;	  /* operands (node indexes) */
};

struct pl_expr {
	int root;
	size_t n;
	struct node nodes[PL_EXPR_MAX_NODES];
	char *pool; /* the names, NUL-terminated one after another */
};

struct parser {
	const char *src, *p;
	struct pl_expr *e;
	size_t pool_used;
	int depth;
	int rc;
	char *err;
	size_t errlen;
};

static int fail(struct parser *ps, int rc, const char *what)
{
	if (ps->rc == 0) {
		ps->rc = rc;
		/* the formula as the error shows it: one line, whatever bytes it holds */
		char *shown = pl_str_escape(ps->src, PL_ESC_TERM);
		snprintf(ps->err, ps->errlen, "%s at byte %zu of '%s'", what,
			 (size_t)(ps->p - ps->src), shown);
		free(shown);
	}
	return -1;
}

static void skip_ws(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
		ps->p++;
}

static int new_node(struct parser *ps, enum op op, int a, int b)
{
	if (ps->e->n >= PL_EXPR_MAX_NODES)
		return fail(ps, -E2BIG, "formula has too many terms");
	struct node *nd = &ps->e->nodes[ps->e->n];
	*nd = (struct node){ .op = op, .a = a, .b = b };
	return (int)ps->e->n++;
}

static int parse_expr(struct parser *ps);

static bool name_start(char c)
{
	return isalpha((unsigned char)c) || c == '_' || c == '#';
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == ':' || c == '@';
}

static int name_node(struct parser *ps, const char *s, size_t len)
{
	if (len == 0)
		return fail(ps, -EINVAL, "empty event name");
	if (len >= PL_CNT_NAME_MAX)
		return fail(ps, -EINVAL, "event name too long");
	int i = new_node(ps, OP_NAME, -1, -1);
	if (i < 0)
		return -1;
	char *dst = ps->e->pool + ps->pool_used;
	memcpy(dst, s, len);
	dst[len] = '\0';
	ps->pool_used += len + 1;
	ps->e->nodes[i].name = dst;
	return i;
}

static int parse_call(struct parser *ps, enum op op)
{
	skip_ws(ps);
	if (*ps->p != '(')
		return fail(ps, -EINVAL, "expected '(' after min or max");
	ps->p++;
	int a = parse_expr(ps);
	if (a < 0)
		return -1;
	skip_ws(ps);
	if (*ps->p != ',')
		return fail(ps, -EINVAL, "expected ','");
	ps->p++;
	int b = parse_expr(ps);
	if (b < 0)
		return -1;
	skip_ws(ps);
	if (*ps->p != ')')
		return fail(ps, -EINVAL, "expected ')'");
	ps->p++;
	return new_node(ps, op, a, b);
}

static int parse_primary(struct parser *ps)
{
	skip_ws(ps);
	const char *s = ps->p;
	if (*s == '(') {
		ps->p++;
		int i = parse_expr(ps);
		if (i < 0)
			return -1;
		skip_ws(ps);
		if (*ps->p != ')')
			return fail(ps, -EINVAL, "expected ')'");
		ps->p++;
		return i;
	}
	if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) {
		char *end;
		errno = 0;
		double v = strtod(s, &end);
		/* strtod would read "0x1p3" and "1e400"; only decimal finite numbers here */
		if (errno == ERANGE || !isfinite(v) ||
		    (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')))
			return fail(ps, -EINVAL, "number out of range");
		ps->p = end;
		int i = new_node(ps, OP_NUM, -1, -1);
		if (i < 0)
			return -1;
		ps->e->nodes[i].num = v;
		return i;
	}
	if (*s == '"') {
		const char *q = s + 1;
		while (*q && *q != '"' && *q != '\n')
			q++;
		if (*q != '"')
			return fail(ps, -EINVAL, "unterminated quoted name");
		ps->p = q + 1;
		return name_node(ps, s + 1, (size_t)(q - s - 1));
	}
	if (name_start(*s)) {
		const char *q = s + 1;
		while (name_char(*q))
			q++;
		size_t len = (size_t)(q - s);
		ps->p = q;
		if (len == 3 && (!strncmp(s, "min", 3) || !strncmp(s, "max", 3))) {
			const char *t = q;
			while (*t == ' ' || *t == '\t')
				t++;
			if (*t == '(')
				return parse_call(ps, s[1] == 'i' ? OP_MIN : OP_MAX);
		}
		return name_node(ps, s, len);
	}
	if (*s == '\0')
		return fail(ps, -EINVAL, "unexpected end of formula");
	return fail(ps, -EINVAL, "unexpected character");
}

static int parse_unary(struct parser *ps)
{
	skip_ws(ps);
	if (*ps->p == '-') {
		ps->p++;
		if (++ps->depth > PL_EXPR_MAX_DEPTH)
			return fail(ps, -E2BIG, "formula nested too deep");
		int a = parse_unary(ps);
		ps->depth--;
		if (a < 0)
			return -1;
		return new_node(ps, OP_NEG, a, -1);
	}
	return parse_primary(ps);
}

static int parse_term(struct parser *ps)
{
	int a = parse_unary(ps);
	for (;;) {
		if (a < 0)
			return -1;
		skip_ws(ps);
		char c = *ps->p;
		if (c != '*' && c != '/')
			return a;
		ps->p++;
		int b = parse_unary(ps);
		if (b < 0)
			return -1;
		a = new_node(ps, c == '*' ? OP_MUL : OP_DIV, a, b);
	}
}

static int parse_expr(struct parser *ps)
{
	if (++ps->depth > PL_EXPR_MAX_DEPTH)
		return fail(ps, -E2BIG, "formula nested too deep");
	int a = parse_term(ps);
	for (;;) {
		if (a < 0)
			break;
		skip_ws(ps);
		char c = *ps->p;
		if (c != '+' && c != '-')
			break;
		ps->p++;
		int b = parse_term(ps);
		if (b < 0) {
			a = -1;
			break;
		}
		a = new_node(ps, c == '+' ? OP_ADD : OP_SUB, a, b);
	}
	ps->depth--;
	return a;
}

int pl_expr_parse(const char *src, struct pl_expr **out, char *err, size_t errlen)
{
	size_t len = strlen(src);
	if (len > PL_EXPR_MAX_LEN) {
		snprintf(err, errlen, "formula of %zu bytes, more than the %d allowed", len,
			 PL_EXPR_MAX_LEN);
		return -E2BIG;
	}
	struct pl_expr *e = pl_xcalloc(1, sizeof(*e));
	/* every name is a disjoint span of the source: with its NUL the pool fits */
	e->pool = pl_xmalloc(2 * len + 2);
	struct parser ps = { .src = src, .p = src, .e = e, .err = err, .errlen = errlen };
	int root = parse_expr(&ps);
	if (root >= 0) {
		skip_ws(&ps);
		if (*ps.p != '\0')
			root = fail(&ps, -EINVAL, "unexpected text after the formula");
	}
	if (root < 0) {
		pl_expr_free(e);
		return ps.rc ? ps.rc : -EINVAL;
	}
	e->root = root;
	*out = e;
	return 0;
}

void pl_expr_free(struct pl_expr *e)
{
	if (!e)
		return;
	free(e->pool);
	free(e);
}

size_t pl_expr_names(const struct pl_expr *e, const char **names, size_t max)
{
	/* nodes are created operands first, so index order is formula order for names */
	size_t k = 0;
	for (size_t i = 0; i < e->n; i++) {
		if (e->nodes[i].op != OP_NAME)
			continue;
		if (k < max)
			names[k] = e->nodes[i].name;
		k++;
	}
	return k;
}

static bool core_pmu(const char *pmu, size_t len)
{
	static const char *const exact[] = { "cpu", "cpu_core", "cpu_atom" };
	for (size_t i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (strlen(exact[i]) == len && !strncasecmp(pmu, exact[i], len))
			return true;
	return len >= 5 && !strncasecmp(pmu, "armv8", 5);
}

/* @name in the form names compare in (expr.h, pl_expr_event_sum) into @buf. */
static void canon(const char *name, char *buf, size_t buflen)
{
	snprintf(buf, buflen, "%s", name);
	size_t len = strlen(buf);
	/* a trailing modifier after the last '/' (or in a bare name): ":u", ":uk", ":ppp" */
	char *colon = strrchr(buf, ':');
	char *slash = strrchr(buf, '/');
	if (colon && (!slash || colon > slash) && colon[1] &&
	    strspn(colon + 1, "ukhIGHpPSDW") == strlen(colon + 1)) {
		*colon = '\0';
		len = strlen(buf);
	}
	char *first = strchr(buf, '/');
	if (first && buf + len - 1 > first && buf[len - 1] == '/' &&
	    core_pmu(buf, (size_t)(first - buf))) {
		char *alias = first + 1;
		size_t alen = (size_t)(buf + len - 1 - alias);
		if (alen && !memchr(alias, '=', alen) && !memchr(alias, ',', alen) &&
		    !memchr(alias, '/', alen)) {
			memmove(buf, alias, alen);
			buf[alen] = '\0';
		} else if (first - buf != 3 || strncasecmp(buf, "cpu", 3)) {
			/* terms on the core PMU under another name: as "cpu/TERMS/" */
			memmove(buf + 3, first, strlen(first) + 1);
			memcpy(buf, "cpu", 3);
		}
	}
	/* perf's aliases of one generic event ("cs", "cycles") as its first spelling */
	char low[PL_CNT_NAME_MAX + 8];
	size_t i = 0;
	for (; buf[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)buf[i]);
	low[i] = '\0';
	const char *gen = pl_pmu_generic_first(low);
	if (gen)
		snprintf(buf, buflen, "%s", gen);
}

bool pl_expr_same_event(const char *a, const char *b)
{
	char ca[PL_CNT_NAME_MAX + 8], cb[PL_CNT_NAME_MAX + 8];
	canon(a, ca, sizeof(ca));
	canon(b, cb, sizeof(cb));
	return !strcasecmp(ca, cb);
}

double pl_expr_event_sum(const struct pl_cnt_result *r, const char *name)
{
	char want[PL_CNT_NAME_MAX + 8], have[PL_CNT_NAME_MAX + 8];
	canon(name, want, sizeof(want));
	double sum = 0;
	bool found = false;
	for (size_t i = 0; i < r->n; i++) {
		const struct pl_cnt_value *v = &r->v[i];
		if (!v->ev || !v->supported || !v->counted)
			continue;
		canon(v->ev->name, have, sizeof(have));
		if (strcasecmp(want, have))
			continue;
		sum += v->value;
		found = true;
	}
	return found ? sum : NAN;
}

struct evalctx {
	const struct pl_expr *e;
	const struct pl_cnt_result *r;
	char *missing;
	size_t missinglen;
};

static double special(const struct evalctx *c, const char *name, bool *known)
{
	*known = true;
	if (!strcmp(name, "duration_time")) {
		if (c->r->elapsed_ns > 0)
			return (double)c->r->elapsed_ns / 1e9;
		/* perf's duration_time event counts nanoseconds */
		double ns = pl_expr_event_sum(c->r, "duration_time");
		return ns > 0 ? ns / 1e9 : NAN;
	}
	if (!strcmp(name, "#num_cpus"))
		return c->r->ncpus > 0 ? (double)c->r->ncpus : NAN;
	if (!strcmp(name, "#slots")) {
		/* one value per PMU, not a count: the largest reading, never a sum */
		double best = NAN;
		for (size_t i = 0; i < c->r->n; i++) {
			const struct pl_cnt_value *v = &c->r->v[i];
			if (v->ev && v->supported && v->counted && !strcmp(v->ev->name, "#slots") &&
			    !(v->value <= best))
				best = v->value;
		}
		return best > 0 ? best : NAN;
	}
	*known = false;
	return NAN;
}

/* 0 with *out; -ENOENT / -EDOM as pl_expr_eval */
static int eval_node(const struct evalctx *c, int i, double *out)
{
	const struct node *nd = &c->e->nodes[i];
	double a = 0, b = 0;
	int rc;
	switch (nd->op) {
	case OP_NUM:
		*out = nd->num;
		return 0;
	case OP_NAME: {
		bool known;
		double v = special(c, nd->name, &known);
		if (!known)
			v = pl_expr_event_sum(c->r, nd->name);
		if (isnan(v)) {
			snprintf(c->missing, c->missinglen, "%s", nd->name);
			return -ENOENT;
		}
		*out = v;
		return 0;
	}
	case OP_NEG:
		if ((rc = eval_node(c, nd->a, &a)) < 0)
			return rc;
		*out = -a;
		return 0;
	default:
		break;
	}
	if ((rc = eval_node(c, nd->a, &a)) < 0 || (rc = eval_node(c, nd->b, &b)) < 0)
		return rc;
	switch (nd->op) {
	case OP_ADD:
		*out = a + b;
		break;
	case OP_SUB:
		*out = a - b;
		break;
	case OP_MUL:
		*out = a * b;
		break;
	case OP_DIV:
		if (b == 0) {
			snprintf(c->missing, c->missinglen, "division by zero");
			return -EDOM;
		}
		*out = a / b;
		break;
	case OP_MIN:
		*out = a < b ? a : b;
		break;
	default: /* OP_MAX */
		*out = a > b ? a : b;
		break;
	}
	return 0;
}

int pl_expr_eval(const struct pl_expr *e, const struct pl_cnt_result *r, double *value,
		 char *missing, size_t missinglen)
{
	struct evalctx c = { .e = e, .r = r, .missing = missing, .missinglen = missinglen };
	double v;
	int rc = eval_node(&c, e->root, &v);
	if (rc < 0)
		return rc;
	if (!isfinite(v)) {
		snprintf(missing, missinglen, "not a finite number");
		return -EDOM;
	}
	*value = v;
	return 0;
}
