/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "compare/output.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bench/env.h"
#include "compare/counting.h"
#include "compare/sysset.h"
#include "config.h"
#include "util/cleanup.h"
#include "util/escape.h"
#include "util/json.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/str.h"

void pl_cmp_report_build(struct pl_cmp_report *r, const struct pl_cmp_session *s)
{
	memset(r, 0, sizeof(*r));
	r->s = s;
	r->nm = s->nm;
	r->nv = s->exp->n;
	r->vs = pl_xcalloc(r->nm * r->nv, sizeof(*r->vs));
	r->cs = pl_xcalloc(r->nm * r->nv, sizeof(*r->cs));
	for (size_t m = 0; m < r->nm; m++) {
		double **x = pl_xmalloc(r->nv * sizeof(double *));
		for (size_t v = 0; v < r->nv; v++)
			x[v] = pl_cmp_values(s, m, v);
		struct pl_cmp_aopts o = {
			.level = s->cfg->level,
			.alpha = s->cfg->alpha,
			.threshold = s->cfg->threshold,
			.up = s->m[m].up,
			.down = s->m[m].down,
			.higher_better = s->m[m].higher_better,
			.unit = s->m[m].unit,
			.base_name = s->exp->v[0].name,
			.resolution = s->m[m].resolution,
		};
		pl_cmp_analyze_metric(x, r->nv, s->measured, &o, &r->vs[m * r->nv],
				      &r->cs[m * r->nv]);
		for (size_t v = 0; v < r->nv; v++)
			free(x[v]);
		free(x);
	}
	for (size_t i = 0; i < s->nruns; i++)
		r->failed_runs += s->runs[i].u.exit_code != 0;
}

static bool restored(const struct pl_cmp_original *o)
{
	return o->before && o->after && strcmp(o->before, o->after) == 0;
}

/* The environment and the settings' values before and after, as text lines. */
static void print_context(FILE *f, const struct pl_cmp_report *r, const char *indent)
{
	if (r->environment) {
		char *t = pl_env_text(r->environment);
		fprintf(f, "%senvironment: %s\n", indent, t);
		free(t);
	}
	for (size_t i = 0; i < r->noriginals; i++) {
		const struct pl_cmp_original *o = &r->originals[i];
		fprintf(f, "%s%s: '%s' before the first run, '%s' after the last%s\n", indent,
			o->key, o->before ? o->before : "(unreadable)",
			o->after ? o->after : "(unreadable)",
			restored(o) ? " (restored)" : " (NOT the same)");
	}
}

void pl_cmp_report_free(struct pl_cmp_report *r)
{
	if (!r)
		return;
	for (size_t m = 0; m < r->nm; m++)
		pl_cmp_stats_free(&r->vs[m * r->nv], &r->cs[m * r->nv], r->nv);
	free(r->vs);
	free(r->cs);
	memset(r, 0, sizeof(*r));
}

/* A value with its unit as everywhere in perflab (ns..s, B..GiB). */
static char *fmt_val(char *buf, size_t len, double x, const char *unit)
{
	return pl_fmt_unit(buf, len, x, unit);
}

static char *fmt_ci(char *buf, size_t len, double lo, double hi, const char *unit)
{
	char a[48], b[48];
	if (isnan(lo) || isnan(hi))
		snprintf(buf, len, "CI n/a (n<6)");
	else
		snprintf(buf, len, "[%s, %s]", fmt_val(a, sizeof(a), lo, unit),
			 fmt_val(b, sizeof(b), hi, unit));
	return buf;
}

static char *fmt_ratio(char *buf, size_t len, const struct pl_cmp_cstat *c, const char *unit)
{
	if (c->ok && c->near_zero && !isnan(c->diff)) {
		/* no ratio to a baseline of ~0: the difference in the metric's unit */
		char d[48], lo[48], hi[48];
		snprintf(buf, len, "diff %s%s [%s%s, %s%s]", c->diff > 0 ? "+" : "",
			 fmt_val(d, sizeof(d), c->diff, unit), c->diff_lo > 0 ? "+" : "",
			 fmt_val(lo, sizeof(lo), c->diff_lo, unit), c->diff_hi > 0 ? "+" : "",
			 fmt_val(hi, sizeof(hi), c->diff_hi, unit));
	} else if (!c->ok || isnan(c->ratio))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.2f%% [%+.2f, %+.2f]", (c->ratio - 1) * 100,
			 (c->lo - 1) * 100, (c->hi - 1) * 100);
	return buf;
}

/* Columns of the table: a label longer than this is cut with "..." and the full name
 * given in a legend under the table. */
#define TABLE_MAX_LABEL 40

/* Characters a terminal shows for UTF-8 @s (continuation bytes take no column). */
static size_t text_width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* @s padded with spaces to @w columns. */
static void put_padded(FILE *f, const char *s, size_t w)
{
	fputs(s, f);
	for (size_t k = text_width(s); k < w; k++)
		fputc(' ', f);
}

/* The header label of variant @v, malloc'd: its name (+ " (base)"), cut to
 * TABLE_MAX_LABEL columns at a character boundary with "..." (*cut is then true). */
static char *column_label(const char *name, size_t v, bool *cut)
{
	char *full = pl_xasprintf("%s%s", name, v == 0 ? " (base)" : "");
	*cut = text_width(full) > TABLE_MAX_LABEL;
	if (!*cut)
		return full;
	const char *suffix = v == 0 ? "... (base)" : "...";
	size_t keep = TABLE_MAX_LABEL - strlen(suffix), cols = 0, i = 0;
	while (name[i] && cols < keep) {
		int k = pl_utf8_seq_len(name + i);
		i += k > 0 ? (size_t)k : 1;
		cols++;
	}
	char *t = pl_xasprintf("%.*s%s", (int)i, name, suffix);
	free(full);
	return t;
}

/* The text of table cell @row (0 median, 1 CI, 2 vs base, 3 verdict) of variant @v of
 * metric @m into @cell. */
static void table_cell(char *cell, size_t len, const struct pl_cmp_report *r, size_t m, size_t v,
		       int row)
{
	const struct pl_cmp_metric *mt = &r->s->m[m];
	const struct pl_cmp_vstat *vs = &r->vs[m * r->nv + v];
	const struct pl_cmp_cstat *cs = &r->cs[m * r->nv + v];
	switch (row) {
	case 0:
		fmt_val(cell, len, vs->median, mt->unit);
		break;
	case 1:
		fmt_ci(cell, len, vs->med_lo, vs->med_hi, mt->unit);
		break;
	case 2:
		if (v == 0)
			snprintf(cell, len, "-");
		else
			fmt_ratio(cell, len, cs, mt->unit);
		break;
	default:
		snprintf(cell, len, "%s", v == 0 ? "baseline" : cs->brief);
	}
}

/* Metrics shown in the table: all of them. Every column is as wide as its widest cell or
 * label, with two spaces between columns. */
void pl_cmp_print_table(FILE *f, const struct pl_cmp_report *r)
{
	const struct pl_cmp_session *s = r->s;
	const char *b = pl_style(f, "bold"), *z = pl_style(f, "reset");
	fprintf(f,
		"%sperflab compare%s: %zu variants, %zu rounds measured (+%zu warm-up), seed %llu, "
		"stopped by %s after %.1f s\n",
		b, z, r->nv, s->measured, s->nrounds - s->measured,
		(unsigned long long)s->cfg->seed,
		s->stop_reason && !s->interrupted ? s->stop_reason : "interruption", s->elapsed_s);
	if (s->interrupted)
		fprintf(f,
			"%sinterrupted after %zu of %s%zu rounds%s: the statistics cover the "
			"completed rounds\n",
			b, s->measured, s->cfg->runs ? "" : "at most ",
			s->cfg->runs ? s->cfg->runs : s->cfg->max_runs, z);
	fprintf(f,
		"medians with %.0f%% CIs; vs baseline: ratio of geometric means, %.0f%% CI "
		"(Welch t on logs; Fieller's CI of the ratio of means when a value is 0); "
		"verdicts: Mann-Whitney, Holm-adjusted, with a CI excluding 0, threshold %g%%\n\n",
		s->cfg->level * 100, s->cfg->level * 100, s->cfg->threshold * 100);
	static const char *const lab[4] = { "median", "CI", "vs base", "verdict" };
	const int nrows = 4;
	/* column widths: the row heads, then each variant's label and cells */
	size_t w0 = 0;
	for (size_t m = 0; m < r->nm; m++) {
		size_t nw = text_width(s->m[m].name);
		size_t h = (nw > 10 ? nw : 10) + 1 + strlen("verdict"); /* "%-10s %s" */
		if (h > w0)
			w0 = h;
	}
	char **labels = pl_xcalloc(r->nv, sizeof(char *));
	size_t *wc = pl_xcalloc(r->nv, sizeof(size_t));
	bool any_cut = false;
	for (size_t v = 0; v < r->nv; v++) {
		bool cut;
		labels[v] = column_label(s->exp->v[v].name, v, &cut);
		any_cut |= cut;
		wc[v] = text_width(labels[v]);
		for (size_t m = 0; m < r->nm; m++)
			for (int row = 0; row < nrows; row++) {
				char cell[256];
				table_cell(cell, sizeof(cell), r, m, v, row);
				if (text_width(cell) > wc[v])
					wc[v] = text_width(cell);
			}
	}
	put_padded(f, "", w0 + 2);
	for (size_t v = 0; v < r->nv; v++) {
		fputs(b, f);
		put_padded(f, labels[v], v + 1 < r->nv ? wc[v] + 2 : 0);
		fputs(z, f);
	}
	fputc('\n', f);
	for (size_t m = 0; m < r->nm; m++)
		for (int row = 0; row < nrows; row++) {
			char head[128];
			snprintf(head, sizeof(head), "%-10s %s", row == 0 ? s->m[m].name : "",
				 lab[row]);
			put_padded(f, head, w0 + 2);
			for (size_t v = 0; v < r->nv; v++) {
				char cell[256];
				table_cell(cell, sizeof(cell), r, m, v, row);
				put_padded(f, cell, v + 1 < r->nv ? wc[v] + 2 : 0);
			}
			fputc('\n', f);
		}
	if (any_cut) {
		fprintf(f, "\ncolumns cut to %d characters; the variants in full:\n",
			TABLE_MAX_LABEL);
		for (size_t v = 0; v < r->nv; v++)
			fprintf(f, "  %s: %s\n", labels[v], s->exp->v[v].name);
	}
	for (size_t v = 0; v < r->nv; v++)
		free(labels[v]);
	free(labels);
	free(wc);
	fprintf(f, "\n%sVerdicts%s (vs %s)\n", b, z, s->exp->v[0].name);
	for (size_t m = 0; m < r->nm; m++)
		for (size_t v = 1; v < r->nv; v++)
			fprintf(f, "  %s, %s: %s\n", s->m[m].name, s->exp->v[v].name,
				r->cs[m * r->nv + v].text);
	bool notes = false;
	for (size_t m = 0; m < r->nm; m++)
		for (size_t v = 0; v < r->nv; v++) {
			const struct pl_cmp_vstat *vs = &r->vs[m * r->nv + v];
			/* CPU times come in scheduler ticks and RSS in pages: their modes are
			 * quantisation, not behaviour (JSON has them all) */
			bool coarse = s->m[m].src == PL_CMP_SRC_USER ||
				      s->m[m].src == PL_CMP_SRC_SYS ||
				      s->m[m].src == PL_CMP_SRC_RSS;
			bool zeros = s->m[m].resolution > 0 && vs->nzero > 0;
			if (!zeros && (coarse || (!vs->noutliers && vs->modes < 2)))
				continue;
			if (!notes)
				fprintf(f, "\n%sNotes%s\n", b, z);
			notes = true;
			if (zeros) {
				char res[48], zero[48];
				fprintf(f,
					"  %s, %s: %zu of %zu runs read %s: below the %s "
					"clock-tick "
					"resolution\n",
					s->m[m].name, s->exp->v[v].name, vs->nzero, vs->n,
					fmt_val(zero, sizeof(zero), 0, s->m[m].unit),
					fmt_val(res, sizeof(res), s->m[m].resolution,
						s->m[m].unit));
			}
			if (coarse)
				continue;
			if (vs->noutliers)
				fprintf(f,
					"  %s, %s: %zu outlier%s (MAD rule), kept in the "
					"statistics\n",
					s->m[m].name, s->exp->v[v].name, vs->noutliers,
					vs->noutliers > 1 ? "s" : "");
			if (vs->modes >= 2)
				fprintf(f,
					"  %s, %s: the distribution looks %s (%d modes): a median "
					"hides that\n",
					s->m[m].name, s->exp->v[v].name,
					vs->modes == 2 ? "bimodal" : "multimodal", vs->modes);
		}
	if (r->failed_runs) {
		fprintf(f, "%s  %zu runs exited non-zero (kept: --ignore-failure)\n",
			notes ? "" : "\nNotes\n", r->failed_runs);
		notes = true;
	}
	for (size_t i = 0; s->stat && i < s->stat->nnotes; i++) {
		pl_autofree char *t = pl_str_escape(s->stat->notes[i], PL_ESC_TERM);
		fprintf(f, "%s  %s\n", notes ? "" : "\nNotes\n", t);
		notes = true;
	}
	if (r->environment || r->noriginals)
		fputc('\n', f);
	print_context(f, r, "");
}

static json_t *jreal(double x)
{
	return isnan(x) || isinf(x) ? json_null() : json_real(x);
}

static json_t *variant_json(const struct pl_cmp_variant *v, size_t i)
{
	json_t *o = json_object();
	json_object_set_new(o, "name", pl_json_string(v->name));
	json_object_set_new(o, "baseline", json_boolean(i == 0));
	json_t *argv = json_array();
	for (size_t k = 0; v->argv && v->argv[k]; k++)
		json_array_append_new(argv, pl_json_string(v->argv[k]));
	json_object_set_new(o, "argv", argv);
	json_t *env = json_object();
	for (size_t k = 0; k < v->nenv; k++) {
		const char *eq = strchr(v->env[k], '=');
		char *name = pl_xasprintf("%.*s", (int)(eq - v->env[k]), v->env[k]);
		pl_json_set(env, name, pl_json_string(eq + 1));
		free(name);
	}
	json_object_set_new(o, "env", env);
	json_object_set_new(o, "cwd", v->cwd ? pl_json_string(v->cwd) : json_null());
	json_object_set_new(o, "cpus", v->cpus ? pl_json_string(v->cpus) : json_null());
	json_object_set_new(o, "membind", v->membind ? pl_json_string(v->membind) : json_null());
	json_object_set_new(o, "profile", v->profile ? pl_json_string(v->profile) : json_null());
	json_t *set = json_array();
	for (size_t k = 0; k < v->nsettings; k++) {
		json_t *x = json_object();
		json_object_set_new(x, "key", pl_json_string(v->settings[k].key));
		json_object_set_new(x, "path", pl_json_string(v->settings[k].path));
		json_object_set_new(x, "value", pl_json_string(v->settings[k].value));
		json_array_append_new(set, x);
	}
	json_object_set_new(o, "settings", set);
	json_t *na = json_array();
	for (size_t k = 0; k < v->n_not_applied; k++)
		json_array_append_new(na, pl_json_string(v->not_applied[k]));
	json_object_set_new(o, "not_applied", na);
	const char *hk[] = { "prepare", "cleanup", "setup", "teardown" };
	const char *hv[] = { v->prepare, v->cleanup, v->setup, v->teardown };
	for (size_t k = 0; k < 4; k++)
		json_object_set_new(o, hk[k], hv[k] ? pl_json_string(hv[k]) : json_null());
	return o;
}

static const char *src_name(enum pl_cmp_src s)
{
	static const char *const n[] = { "wait4", "wait4",   "wait4",	"wait4",
					 "regex", "geomean", "monitor", "counters" };
	return n[s];
}

static json_t *ci_json(double lo, double hi)
{
	json_t *a = json_array();
	json_array_append_new(a, jreal(lo));
	json_array_append_new(a, jreal(hi));
	return a;
}

static json_t *rank_json(const struct pl_rank_test *t, bool ok)
{
	if (!ok)
		return json_null();
	json_t *o = json_object();
	json_object_set_new(o, "statistic", jreal(t->stat));
	json_object_set_new(o, "p", jreal(t->p));
	json_object_set_new(o, "exact", json_boolean(t->exact));
	json_object_set_new(o, "n", json_integer((json_int_t)t->n));
	return o;
}

/* compare --stat: the list, the core PMU, and what could not be counted (or null). */
static json_t *counters_json(const struct pl_cmp_stat *st)
{
	if (!st)
		return json_null();
	json_t *o = json_object();
	json_object_set_new(o, "stat", pl_json_string(st->spec));
	json_object_set_new(o, "core_pmu", json_boolean(st->core));
	json_object_set_new(o, "core_pmu_reason",
			    st->core ? json_null() : pl_json_string(st->core_why));
	json_t *u = json_array();
	for (size_t i = 0; i < st->nnotes; i++)
		json_array_append_new(u, pl_json_string(st->notes[i]));
	json_object_set_new(o, "unavailable", u);
	return o;
}

json_t *pl_cmp_to_json(const struct pl_cmp_report *r)
{
	const struct pl_cmp_session *s = r->s;
	const struct pl_cmp_config *c = s->cfg;
	json_t *doc = json_object();
	json_object_set_new(doc, "schema_version", json_integer(1));
	json_object_set_new(doc, "tool", pl_json_string("perflab compare"));
	json_object_set_new(doc, "perflab_version", pl_json_string(PERFLAB_VERSION));
	json_object_set_new(doc, "seed", json_integer((json_int_t)c->seed));
	json_t *cfg = json_object();
	json_object_set_new(cfg, "runs", c->runs ? json_integer((json_int_t)c->runs) : json_null());
	json_object_set_new(cfg, "warmup", json_integer((json_int_t)c->warmup));
	json_object_set_new(cfg, "precision", c->runs ? json_null() : jreal(c->precision));
	json_object_set_new(cfg, "max_runs", json_integer((json_int_t)c->max_runs));
	json_object_set_new(cfg, "max_time_s", c->max_time > 0 ? jreal(c->max_time) : json_null());
	json_object_set_new(cfg, "threshold", jreal(c->threshold));
	json_object_set_new(cfg, "alpha", jreal(c->alpha));
	json_object_set_new(cfg, "confidence", jreal(c->level));
	json_object_set_new(cfg, "shell", json_boolean(c->shell));
	json_object_set_new(cfg, "ignore_failure", json_boolean(c->ignore_failure));
	json_object_set_new(doc, "config", cfg);
	struct utsname u;
	json_t *mach = json_object();
	if (uname(&u) == 0) {
		json_object_set_new(mach, "kernel", pl_json_string(u.release));
		json_object_set_new(mach, "arch", pl_json_string(u.machine));
	}
	json_object_set_new(mach, "online_cpus", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	json_object_set_new(doc, "machine", mach);
	json_t *vars = json_array();
	for (size_t v = 0; v < r->nv; v++)
		json_array_append_new(vars, variant_json(&s->exp->v[v], v));
	json_object_set_new(doc, "variants", vars);
	json_t *mets = json_array();
	for (size_t m = 0; m < r->nm; m++) {
		json_t *o = json_object();
		json_object_set_new(o, "name", pl_json_string(s->m[m].name));
		json_object_set_new(o, "unit", pl_json_string(s->m[m].unit));
		json_object_set_new(o, "source", pl_json_string(src_name(s->m[m].src)));
		json_object_set_new(o, "regex",
				    s->m[m].regex ? pl_json_string(s->m[m].regex) : json_null());
		json_object_set_new(o, "higher_is_better", json_boolean(s->m[m].higher_better));
		json_object_set_new(o, "resolution",
				    s->m[m].resolution > 0 ? json_real(s->m[m].resolution)
							   : json_null());
		json_array_append_new(mets, o);
	}
	json_object_set_new(doc, "metrics", mets);
	json_object_set_new(doc, "rounds_measured", json_integer((json_int_t)s->measured));
	json_object_set_new(doc, "rounds_warmup",
			    json_integer((json_int_t)(s->nrounds - s->measured)));
	json_object_set_new(doc, "stop_reason",
			    s->stop_reason ? pl_json_string(s->stop_reason) : json_null());
	json_object_set_new(doc, "elapsed_s", jreal(s->elapsed_s));
	json_object_set_new(doc, "interrupted", json_boolean(s->interrupted));
	json_t *rounds = json_array();
	for (size_t k = 0; k < s->nrounds; k++) {
		json_t *ord = json_array();
		for (size_t i = 0; i < r->nv; i++)
			json_array_append_new(
				ord, pl_json_string(s->exp->v[s->order[k * r->nv + i]].name));
		json_array_append_new(rounds, ord);
	}
	json_object_set_new(doc, "round_order", rounds);
	json_t *runs = json_array();
	for (size_t i = 0; i < s->nruns; i++) {
		const struct pl_cmp_run *run = &s->runs[i];
		json_t *o = json_object();
		json_object_set_new(o, "variant", pl_json_string(s->exp->v[run->variant].name));
		json_object_set_new(o, "round", json_integer((json_int_t)run->round));
		json_object_set_new(o, "slot", json_integer((json_int_t)run->slot));
		json_object_set_new(o, "warmup", json_boolean(run->warmup));
		json_object_set_new(o, "exit_code", json_integer(run->u.exit_code));
		json_object_set_new(o, "signal", json_integer(run->u.term_signal));
		json_t *res = json_object();
		json_object_set_new(res, "wall_s", jreal(run->u.wall_s));
		json_object_set_new(res, "user_s", jreal(run->u.user_s));
		json_object_set_new(res, "sys_s", jreal(run->u.sys_s));
		json_object_set_new(res, "max_rss_bytes",
				    json_integer((json_int_t)run->u.max_rss_bytes));
		json_object_set_new(res, "minor_faults",
				    json_integer((json_int_t)run->u.minor_faults));
		json_object_set_new(res, "major_faults",
				    json_integer((json_int_t)run->u.major_faults));
		json_object_set_new(res, "voluntary_ctxsw",
				    json_integer((json_int_t)run->u.vol_ctxsw));
		json_object_set_new(res, "involuntary_ctxsw",
				    json_integer((json_int_t)run->u.invol_ctxsw));
		json_object_set_new(o, "resources", res);
		json_t *mv = json_object();
		for (size_t m = 0; m < s->nm; m++)
			if (s->m[m].src == PL_CMP_SRC_REGEX || s->m[m].src == PL_CMP_SRC_GEOMEAN ||
			    s->m[m].src == PL_CMP_SRC_MONITOR || s->m[m].src == PL_CMP_SRC_COUNTER)
				pl_json_set(mv, s->m[m].name, jreal(run->val[m]));
		json_object_set_new(o, "metrics", mv);
		json_array_append_new(runs, o);
	}
	json_object_set_new(doc, "runs", runs);
	json_t *stats = json_array();
	for (size_t m = 0; m < r->nm; m++) {
		json_t *so = json_object();
		json_object_set_new(so, "metric", pl_json_string(s->m[m].name));
		json_object_set_new(so, "source", pl_json_string(src_name(s->m[m].src)));
		json_t *va = json_array();
		for (size_t v = 0; v < r->nv; v++) {
			const struct pl_cmp_vstat *vs = &r->vs[m * r->nv + v];
			const struct pl_cmp_cstat *cs = &r->cs[m * r->nv + v];
			json_t *o = json_object();
			json_object_set_new(o, "variant", pl_json_string(s->exp->v[v].name));
			json_object_set_new(o, "n", json_integer((json_int_t)vs->n));
			json_object_set_new(o, "median", jreal(vs->median));
			json_object_set_new(o, "median_ci", ci_json(vs->med_lo, vs->med_hi));
			json_object_set_new(o, "mad", jreal(vs->mad));
			json_object_set_new(o, "iqr", jreal(vs->iqr));
			json_object_set_new(o, "min", jreal(vs->min));
			json_object_set_new(o, "max", jreal(vs->max));
			json_object_set_new(o, "mean", jreal(vs->mean));
			json_object_set_new(o, "sd", jreal(vs->sd));
			json_t *out = json_array();
			for (size_t k = 0; k < vs->noutliers; k++)
				json_array_append_new(out,
						      json_integer((json_int_t)vs->outliers[k]));
			json_object_set_new(o, "outlier_rounds", out);
			json_object_set_new(o, "modes", json_integer(vs->modes));
			json_object_set_new(o, "zero_runs", json_integer((json_int_t)vs->nzero));
			if (v == 0) {
				json_object_set_new(o, "verdict", pl_json_string("baseline"));
				json_array_append_new(va, o);
				continue;
			}
			json_t *cmp = json_object();
			json_object_set_new(cmp, "method",
					    pl_json_string(pl_cmp_method_name(cs->method)));
			json_object_set_new(cmp, "ratio", jreal(cs->ratio));
			json_object_set_new(cmp, "ci", ci_json(cs->lo, cs->hi));
			json_object_set_new(cmp, "p_welch", jreal(cs->p_welch));
			json_object_set_new(cmp, "median_ratio", jreal(cs->median_ratio));
			json_t *times = json_null();
			if (!isnan(cs->times)) {
				times = json_object();
				json_object_set_new(times, "factor", jreal(cs->times));
				json_object_set_new(times, "sd", jreal(cs->times_sd));
				json_object_set_new(times, "larger", json_boolean(cs->times_up));
			}
			json_object_set_new(cmp, "times", times);
			json_object_set_new(cmp, "hodges_lehmann_ratio", jreal(cs->hl_ratio));
			json_object_set_new(cmp, "hodges_lehmann_ci",
					    ci_json(cs->hl_lo, cs->hl_hi));
			json_object_set_new(cmp, "mann_whitney", rank_json(&cs->mw, cs->ok));
			json_object_set_new(cmp, "p_holm", jreal(cs->p_holm));
			json_object_set_new(cmp, "wilcoxon_signed_rank",
					    rank_json(&cs->wsr, cs->wsr_ok));
			json_object_set_new(cmp, "pairs", json_integer((json_int_t)cs->pairs));
			json_object_set_new(cmp, "runs_needed",
					    cs->near_zero
						    ? json_null()
						    : json_integer((json_int_t)cs->runs_needed));
			json_object_set_new(cmp, "baseline_near_zero", json_boolean(cs->near_zero));
			json_t *diff = json_object();
			json_object_set_new(diff, "estimate", jreal(cs->diff));
			json_object_set_new(diff, "ci", ci_json(cs->diff_lo, cs->diff_hi));
			json_object_set_new(cmp, "difference", diff);
			json_object_set_new(o, "vs_baseline", cmp);
			json_object_set_new(o, "verdict",
					    pl_json_string(pl_cmp_verdict_name(cs->verdict)));
			json_object_set_new(o, "verdict_text", pl_json_string(cs->text));
			json_array_append_new(va, o);
		}
		json_object_set_new(so, "variants", va);
		json_array_append_new(stats, so);
	}
	json_object_set_new(doc, "statistics", stats);
	json_object_set_new(doc, "environment",
			    r->environment ? json_deep_copy(r->environment) : json_null());
	json_t *orig = json_array();
	for (size_t i = 0; i < r->noriginals; i++) {
		const struct pl_cmp_original *o = &r->originals[i];
		json_t *x = json_object();
		json_object_set_new(x, "key", pl_json_string(o->key));
		json_object_set_new(x, "path", pl_json_string(o->path));
		json_object_set_new(x, "before",
				    o->before ? pl_json_string(o->before) : json_null());
		json_object_set_new(x, "after", o->after ? pl_json_string(o->after) : json_null());
		json_object_set_new(x, "restored", json_boolean(restored(o)));
		json_array_append_new(orig, x);
	}
	json_object_set_new(doc, "original_settings", orig);
	json_object_set_new(doc, "counters", counters_json(s->stat));
	return doc;
}

static void md_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else
			fputc(*s, f);
	}
}

void pl_cmp_write_markdown(FILE *f, const struct pl_cmp_report *r)
{
	const struct pl_cmp_session *s = r->s;
	fprintf(f,
		"## perflab compare\n\n%zu rounds measured (+%zu warm-up), seed %llu. Cells: "
		"median [%.0f%% CI]; vs baseline: ratio of geometric means with %.0f%% CI; "
		"threshold %g%%.\n\n| metric |",
		s->measured, s->nrounds - s->measured, (unsigned long long)s->cfg->seed,
		s->cfg->level * 100, s->cfg->level * 100, s->cfg->threshold * 100);
	for (size_t v = 0; v < r->nv; v++) {
		fputc(' ', f);
		md_escape(f, s->exp->v[v].name);
		fputs(v == 0 ? " (baseline) |" : " |", f);
	}
	fputs("\n|---|", f);
	for (size_t v = 0; v < r->nv; v++)
		fputs("---|", f);
	fputc('\n', f);
	for (size_t m = 0; m < r->nm; m++) {
		fprintf(f, "| %s |", s->m[m].name);
		for (size_t v = 0; v < r->nv; v++) {
			const struct pl_cmp_vstat *vs = &r->vs[m * r->nv + v];
			const struct pl_cmp_cstat *cs = &r->cs[m * r->nv + v];
			char a[64], ci[128], rt[160];
			fprintf(f, " %s %s", fmt_val(a, sizeof(a), vs->median, s->m[m].unit),
				fmt_ci(ci, sizeof(ci), vs->med_lo, vs->med_hi, s->m[m].unit));
			if (v > 0) {
				fprintf(f, "<br>%s<br>",
					fmt_ratio(rt, sizeof(rt), cs, s->m[m].unit));
				md_escape(f, cs->brief);
			}
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	fputs("\n", f);
	for (size_t m = 0; m < r->nm; m++)
		for (size_t v = 1; v < r->nv; v++) {
			fprintf(f, "- **%s**, ", s->m[m].name);
			md_escape(f, s->exp->v[v].name);
			fprintf(f, ": %s\n", r->cs[m * r->nv + v].text);
		}
	for (size_t i = 0; s->stat && i < s->stat->nnotes; i++) {
		fputs("- ", f);
		md_escape(f, s->stat->notes[i]);
		fputc('\n', f);
	}
	if (r->environment || r->noriginals)
		fputc('\n', f);
	print_context(f, r, "- ");
}

static void csv_field(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
}

static void csv_num(FILE *f, double x)
{
	if (isnan(x))
		fputs(",", f);
	else
		fprintf(f, ",%.10g", x);
}

void pl_cmp_write_csv(FILE *f, const struct pl_cmp_report *r)
{
	const struct pl_cmp_session *s = r->s;
	fputs("metric,unit,variant,n,median,median_ci_lo,median_ci_hi,mad,iqr,min,max,mean,sd,"
	      "outliers,modes,ratio,ratio_ci_lo,ratio_ci_hi,p_mann_whitney,p_holm,"
	      "p_wilcoxon_signed_rank,verdict,verdict_text\n",
	      f);
	for (size_t m = 0; m < r->nm; m++)
		for (size_t v = 0; v < r->nv; v++) {
			const struct pl_cmp_vstat *vs = &r->vs[m * r->nv + v];
			const struct pl_cmp_cstat *cs = &r->cs[m * r->nv + v];
			csv_field(f, s->m[m].name);
			fputc(',', f);
			csv_field(f, s->m[m].unit);
			fputc(',', f);
			csv_field(f, s->exp->v[v].name);
			fprintf(f, ",%zu", vs->n);
			csv_num(f, vs->median);
			csv_num(f, vs->med_lo);
			csv_num(f, vs->med_hi);
			csv_num(f, vs->mad);
			csv_num(f, vs->iqr);
			csv_num(f, vs->min);
			csv_num(f, vs->max);
			csv_num(f, vs->mean);
			csv_num(f, vs->sd);
			fprintf(f, ",%zu,%d", vs->noutliers, vs->modes);
			bool base = v == 0;
			csv_num(f, base ? NAN : cs->ratio);
			csv_num(f, base ? NAN : cs->lo);
			csv_num(f, base ? NAN : cs->hi);
			csv_num(f, base ? NAN : cs->mw.p);
			csv_num(f, base ? NAN : cs->p_holm);
			csv_num(f, base || !cs->wsr_ok ? NAN : cs->wsr.p);
			fprintf(f, ",%s,", pl_cmp_verdict_name(cs->verdict));
			csv_field(f, base ? "" : cs->text);
			fputc('\n', f);
		}
}

int pl_cmp_write_report(const struct pl_cmp_report *r, const struct pl_cmp_dest *d, char *err,
			size_t errlen)
{
	struct pl_outfile out = { .fp = stderr };
	int k = d->to_stderr ? 0 : pl_outfile_open(&out, d->path);
	if (k < 0) {
		pl_outfile_strerror(err, errlen, d->path, k);
		return k;
	}
	if (d->json) {
		json_t *doc = pl_cmp_to_json(r);
		k = pl_json_write(out.fp, doc);
		json_decref(doc);
	} else {
		pl_cmp_print_table(out.fp, r);
	}
	if (d->to_stderr)
		k = fflush(stderr) != 0 || ferror(stderr) || k < 0 ? -EIO : 0;
	if ((!d->to_stderr && pl_outfile_close(&out, k == 0) < 0) || k < 0) {
		pl_cmp_seterr(err, errlen, "cannot write '%s'",
			      d->path	     ? d->path
			      : d->to_stderr ? "standard error"
					     : "standard output");
		return -EIO;
	}
	return 0;
}

int pl_cmp_export(const char *path, const struct pl_cmp_report *r,
		  void (*fn)(FILE *, const struct pl_cmp_report *), char *err, size_t errlen)
{
	struct pl_outfile o;
	int k = pl_outfile_open(&o, path);
	if (k < 0) {
		pl_cmp_seterr(err, errlen, "cannot write '%s': %s", path, strerror(-k));
		return k;
	}
	fn(o.fp, r);
	k = pl_outfile_close(&o, true);
	if (k < 0)
		pl_cmp_seterr(err, errlen, "cannot write '%s': %s", path, strerror(-k));
	return k;
}

void pl_cmp_progress_show(void *ctx, const struct pl_cmp_session *s, double ci_half)
{
	struct pl_cmp_progress *p = ctx;
	if (!p->on)
		return;
	char ci[32];
	if (isinf(ci_half) || isnan(ci_half))
		snprintf(ci, sizeof(ci), "n/a");
	else
		snprintf(ci, sizeof(ci), "+-%.2f%%", ci_half * 100);
	if (p->target)
		fprintf(stderr, "\r\033[Kround %zu/%zu  CI half-width %s  %.1f s", s->measured,
			p->target, ci, s->elapsed_s);
	else
		fprintf(stderr,
			"\r\033[Kround %zu (target +-%.2f%%, max %zu)  CI half-width %s  %.1f s",
			s->measured, s->cfg->precision * 100, s->cfg->max_runs, ci, s->elapsed_s);
	fflush(stderr);
}

void pl_cmp_progress_end(const struct pl_cmp_progress *p)
{
	if (p->on)
		fputs("\r\033[K", stderr);
}
