/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "compare/live.h"
#include "compare/counting.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "util/str.h"

static int helper(const struct pl_cmp_session *s, const struct pl_cmp_variant *v, const char *what,
		  const char *cmd, char *err, size_t errlen)
{
	if (!cmd)
		return 0;
	int status = 0;
	int r = pl_cmp_exec_helper(v, cmd, s->cfg->shell, s->cfg->show_output, &status);
	if (r == -ECHILD)
		pl_cmp_seterr(err, errlen, "variant '%s': %s command '%s' failed (exit status %d)",
			      v->name, what, cmd, status);
	else if (r == -EINTR)
		pl_cmp_seterr(err, errlen, "interrupted");
	else if (r < 0)
		pl_cmp_seterr(err, errlen, "variant '%s': cannot run %s command '%s': %s", v->name,
			      what, cmd, strerror(-r));
	return r;
}

/* One line of @out to quote in an error: the first non-blank one, at most 160 bytes. */
static char *quote_line(const char *out)
{
	const char *p = out;
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		for (size_t i = 0; i < len; i++)
			if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
				return pl_xasprintf("'%.*s'%s", (int)(len > 160 ? 160 : len), p,
						    len > 160 ? "..." : "");
		if (!e)
			break;
		p = e + 1;
	}
	return pl_xstrdup("(no output at all)");
}

int pl_cmp_live_open(struct pl_cmp_live *l, struct pl_cmp_experiment *e, const char *state_dir,
		     size_t *recovered, bool *bad_input, char *err, size_t errlen)
{
	bool settings = false;
	for (size_t i = 0; i < e->n; i++)
		settings |= e->v[i].nsettings > 0;
	*recovered = 0;
	*bad_input = false;
	if (!settings)
		return 0;
	/* every value checked (type, range, shape) before anything is written */
	int r = pl_cmp_sys_check(e, err, errlen);
	if (r < 0) {
		*bad_input = true;
		return r;
	}
	r = pl_cmp_sys_open(state_dir, &l->sys, recovered, err, errlen);
	*bad_input = r == -EROFS;
	return r;
}

int pl_cmp_live_try(struct pl_cmp_live *l, const struct pl_cmp_experiment *e, bool *bad_input,
		    char *err, size_t errlen)
{
	*bad_input = false;
	for (size_t i = 0; i < e->n; i++) {
		if (!e->v[i].nsettings)
			continue;
		int k = pl_cmp_sys_apply(l->sys, &e->v[i], err, errlen);
		char rerr[512];
		int k2 = pl_cmp_sys_restore(l->sys, rerr, sizeof(rerr));
		if (k < 0 || k2 < 0) {
			if (k == 0)
				pl_cmp_seterr(err, errlen, "%s", rerr);
			*bad_input = k == -ENOENT || k == -EINVAL;
			return k < 0 ? k : k2;
		}
	}
	return 0;
}

int pl_cmp_live_exec(void *ctx, struct pl_cmp_session *s, size_t variant, size_t round,
		     struct pl_cmp_usage *u, double *vals, char *err, size_t errlen)
{
	struct pl_cmp_live *l = ctx;
	const struct pl_cmp_variant *v = &s->exp->v[variant];
	if (!l->set_up) {
		l->nvariants = s->exp->n;
		l->set_up = pl_xcalloc(l->nvariants, sizeof(bool));
	}
	int r;
	if (!l->set_up[variant]) {
		r = helper(s, v, "setup", v->setup, err, errlen);
		if (r < 0)
			return r;
		l->set_up[variant] = true;
	}
	if (v->nsettings) {
		r = pl_cmp_sys_apply(l->sys, v, err, errlen);
		if (r < 0)
			return r;
	}
	r = helper(s, v, "prepare", v->prepare, err, errlen);
	bool capture = false;
	for (size_t i = 0; i < s->nm; i++)
		capture |= s->m[i].src == PL_CMP_SRC_REGEX;
	struct pl_buf out = { 0 };
	if (r == 0) {
		struct pl_cmp_exec_opts o = { .capture = capture,
					      .show_output = s->cfg->show_output };
		if (s->stat) {
			o.held = pl_cmp_stat_held;
			o.held_ctx = s->stat;
		}
		r = pl_cmp_exec(v, v->exe, v->argv, &o, &out, u);
		if (r == 0)
			pl_cmp_stat_collect(s->stat, u->wall_s, vals);
		pl_cmp_stat_close(s->stat);
		if (r == -EINTR)
			pl_cmp_seterr(err, errlen, "interrupted");
		else if (r < 0 && s->stat && s->stat->err[0])
			pl_cmp_seterr(err, errlen, "variant '%s': %s", v->name, s->stat->err);
		else if (r < 0)
			pl_cmp_seterr(err, errlen, "variant '%s': cannot run '%s': %s", v->name,
				      v->argv[0], pl_exec_strerror(v->argv[0], -r));
	}
	if (r == 0 && u->exit_code != 0) {
		l->failed_runs++;
		if (!s->cfg->ignore_failure) {
			if (u->term_signal)
				pl_cmp_seterr(err, errlen,
					      "variant '%s' (round %zu): command killed by signal "
					      "%d (use "
					      "--ignore-failure to keep going)",
					      v->name, round, u->term_signal);
			else
				pl_cmp_seterr(err, errlen,
					      "variant '%s' (round %zu): command exited with "
					      "status %d (use "
					      "--ignore-failure to keep going)",
					      v->name, round, u->exit_code);
			r = -ECHILD;
		}
	}
	for (size_t i = 0; r == 0 && i < s->nm; i++) {
		if (s->m[i].src != PL_CMP_SRC_REGEX)
			continue;
		const char *text = out.data ? out.data : "";
		int k = pl_cmp_parse_metric(&s->m[i], text, &vals[i]);
		if (k < 0 && !(s->cfg->ignore_failure && u->exit_code != 0)) {
			char *q = quote_line(text);
			pl_cmp_seterr(
				err, errlen,
				"--metric %s: /%s/ %s the output of variant '%s' (round %zu); its "
				"output starts with %s",
				s->m[i].name, s->m[i].regex,
				k == -ENOENT ? "matches no line of" : "captures no number in",
				v->name, round, q);
			free(q);
			r = -EINVAL;
		}
	}
	pl_buf_free(&out);
	char err2[512];
	int r2 = r == -EINTR ? 0 : helper(s, v, "cleanup", v->cleanup, err2, sizeof(err2));
	if (v->nsettings) {
		char err3[512];
		int r3 = pl_cmp_sys_restore(l->sys, err3, sizeof(err3));
		if (r3 < 0 && r == 0) {
			pl_cmp_seterr(err, errlen, "%s", err3);
			r = r3;
		}
	}
	if (r2 < 0 && r == 0) {
		pl_cmp_seterr(err, errlen, "%s", err2);
		r = r2;
	}
	return r;
}

int pl_cmp_live_finish(struct pl_cmp_live *l, struct pl_cmp_session *s, char *err, size_t errlen)
{
	int first = 0;
	for (size_t v = 0; l->set_up && v < l->nvariants; v++) {
		if (!l->set_up[v])
			continue;
		char e[512];
		int r = helper(s, &s->exp->v[v], "teardown", s->exp->v[v].teardown, e, sizeof(e));
		if (r < 0 && first == 0) {
			first = r;
			pl_cmp_seterr(err, errlen, "%s", e);
		}
	}
	if (l->sys) {
		char e[512];
		int r = pl_cmp_sys_restore(l->sys, e, sizeof(e));
		if (r < 0 && first == 0) {
			first = r;
			pl_cmp_seterr(err, errlen, "%s", e);
		}
	}
	free(l->set_up);
	l->set_up = NULL;
	return first;
}

void pl_cmp_live_close(struct pl_cmp_live *l)
{
	if (!l)
		return;
	pl_cmp_sys_close(l->sys);
	l->sys = NULL;
	free(l->set_up);
	l->set_up = NULL;
}
