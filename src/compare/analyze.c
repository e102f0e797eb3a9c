/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "compare/analyze.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/robust.h"
#include "stats/summary.h"
#include "stats/ttest.h"
#include "util/cleanup.h"
#include "util/str.h"

const char *pl_cmp_method_name(enum pl_cmp_method m)
{
	static const char *const names[] = { "geomean-ratio-welch-log", "fieller-ratio-of-means",
					     "welch-relative-to-baseline-mean", "difference-only" };
	return names[m];
}

const char *pl_cmp_verdict_name(enum pl_cmp_verdict v)
{
	static const char *const names[] = { "baseline",	"no-verdict",	 "changed",
					     "below-threshold", "no-difference", "equivalent" };
	return names[v];
}

/* Values of @x that are not NaN, in a new array. */
static double *present(const double *x, size_t n, size_t *k)
{
	double *y = pl_xmalloc((n ? n : 1) * sizeof(double));
	*k = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(x[i]))
			y[(*k)++] = x[i];
	return y;
}

static void vstat(const double *x, size_t nr, double rel_tol, struct pl_cmp_vstat *s)
{
	memset(s, 0, sizeof(*s));
	size_t n;
	pl_autofree double *y = present(x, nr, &n);
	struct pl_summary sum;
	pl_summary_compute(&sum, y, n);
	s->n = n;
	s->median = sum.median;
	s->min = sum.min;
	s->max = sum.max;
	s->mean = sum.mean;
	s->sd = sum.stddev;
	s->modes = 1;
	s->med_lo = s->med_hi = s->mad = s->iqr = NAN;
	if (n == 0)
		return;
	pl_autofree double *sorted = pl_xmalloc(n * sizeof(double));
	memcpy(sorted, y, n * sizeof(double));
	pl_sort_doubles(sorted, n);
	pl_median_ci(sorted, n, 0.95, &s->med_lo, &s->med_hi);
	s->mad = pl_mad_sorted(sorted, n);
	s->iqr = pl_iqr_sorted(sorted, n);
	pl_autofree bool *outy = pl_xcalloc(n, sizeof(bool));
	s->noutliers = pl_outliers_mad(y, n, rel_tol, outy);
	for (size_t i = 0; i < n; i++)
		s->nzero += y[i] == 0;
	/* map back to round indices */
	s->outliers = pl_xcalloc(s->noutliers ? s->noutliers : 1, sizeof(size_t));
	for (size_t i = 0, k = 0, j = 0; i < nr; i++) {
		if (isnan(x[i]))
			continue;
		if (outy[k++])
			s->outliers[j++] = i;
	}
	s->modes = pl_mode_count(y, n);
}

static bool all_positive(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0))
			return false;
	return true;
}

static bool all_nonneg(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(x[i] >= 0))
			return false;
	return true;
}

static double pct(double ratio)
{
	return (ratio - 1) * 100;
}

/* Compare b against a (baseline); fills everything but p_holm and the verdict. */
static void cstat(const double *xa, const double *xb, size_t nr, const struct pl_cmp_aopts *o,
		  struct pl_cmp_cstat *c)
{
	memset(c, 0, sizeof(*c));
	c->ratio = c->lo = c->hi = c->p_welch = c->median_ratio = NAN;
	c->diff = c->diff_lo = c->diff_hi = NAN;
	c->hl_ratio = c->hl_lo = c->hl_hi = c->p_holm = NAN;
	c->times = c->times_sd = NAN;
	c->mw.p = c->wsr.p = NAN;
	size_t na, nb;
	pl_autofree double *a = present(xa, nr, &na);
	pl_autofree double *b = present(xb, nr, &nb);
	if (na < 2 || nb < 2)
		return;
	c->ok = true;
	c->log_scale = all_positive(a, na) && all_positive(b, nb);
	c->method = PL_CMP_GEOMEAN_LOG;
	struct pl_summary sa, sb;
	pl_summary_compute(&sa, a, na);
	pl_summary_compute(&sb, b, nb);
	c->median_ratio = sa.median != 0 ? sb.median / sa.median : NAN;
	double sd_rel;
	if (c->log_scale) {
		pl_ratio_geomean(a, na, b, nb, o->level, &c->ratio, &c->lo, &c->hi, &c->p_welch);
		pl_autofree double *la = pl_xmalloc(na * sizeof(double));
		pl_autofree double *lb = pl_xmalloc(nb * sizeof(double));
		for (size_t i = 0; i < na; i++)
			la[i] = log(a[i]);
		for (size_t i = 0; i < nb; i++)
			lb[i] = log(b[i]);
		double est, lo, hi;
		if (pl_hodges_lehmann(la, na, lb, nb, o->level, &est, &lo, &hi) == 0) {
			c->hl_ratio = exp(est);
			c->hl_lo = exp(lo);
			c->hl_hi = exp(hi);
		} else {
			c->hl_ratio = exp(est);
		}
		struct pl_summary ls_a, ls_b;
		pl_summary_compute(&ls_a, la, na);
		pl_summary_compute(&ls_b, lb, nb);
		sd_rel = sqrt((ls_a.stddev * ls_a.stddev * (double)(na - 1) +
			       ls_b.stddev * ls_b.stddev * (double)(nb - 1)) /
			      (double)(na + nb - 2));
	} else {
		bool nonneg = all_nonneg(a, na) && all_nonneg(b, nb);
		c->method = nonneg ? PL_CMP_FIELLER : PL_CMP_WELCH_RELATIVE;
		struct pl_tinterval t;
		pl_ttest_welch(a, na, b, nb, o->level, &t);
		c->diff = t.diff;
		c->diff_lo = t.lo;
		c->diff_hi = t.hi;
		double base = sa.mean;
		/* ~0 relative to the spread: the baseline's own CI of the mean reaches 0 */
		double tq = gsl_cdf_tdist_Pinv(1 - (1 - o->level) / 2, (double)(na - 1));
		c->near_zero = fabs(base) <= tq * sa.stddev / sqrt((double)na);
		if (!c->near_zero && nonneg) {
			/* a ratio of non-negative means lies in [0, inf): Fieller's interval, cut
			 * at 0 (the additive one reached -538% for sys time in ticks) */
			int k = pl_ratio_fieller(a, na, b, nb, o->level, &c->ratio, &c->lo, &c->hi);
			if (k == 0)
				c->lo = fmax(c->lo, 0);
			else
				c->near_zero = true; /* unbounded set: the baseline is ~0 */
		} else if (!c->near_zero) {
			c->ratio = 1 + t.diff / fabs(base);
			c->lo = 1 + t.lo / fabs(base);
			c->hi = 1 + t.hi / fabs(base);
		}
		if (c->near_zero) {
			c->method = PL_CMP_DIFFERENCE_ONLY;
			c->ratio = c->lo = c->hi = NAN;
			base = 0; /* no relative figures below */
		}
		c->p_welch = t.p;
		double est, lo, hi;
		if (base != 0 && pl_hodges_lehmann(a, na, b, nb, o->level, &est, &lo, &hi) == 0) {
			c->hl_ratio = 1 + est / fabs(base);
			c->hl_lo = 1 + lo / fabs(base);
			c->hl_hi = 1 + hi / fabs(base);
			if (nonneg)
				c->hl_lo = fmax(c->hl_lo, 0);
		}
		sd_rel = base != 0 ? sqrt((sa.stddev * sa.stddev * (double)(na - 1) +
					   sb.stddev * sb.stddev * (double)(nb - 1)) /
					  (double)(na + nb - 2)) /
					     fabs(base)
				   : NAN;
	}
	if (!c->near_zero && pl_ratio_hyperfine(sa.mean, sa.stddev, sb.mean, sb.stddev, &c->times,
						&c->times_sd) == 0)
		c->times_up = sb.mean > sa.mean;
	pl_mann_whitney(a, na, b, nb, &c->mw);
	c->runs_needed = c->near_zero ? 0 : pl_runs_needed(sd_rel, o->threshold, o->alpha, 0.8);
	c->rules_out = fmax(fabs(c->hi - 1), fabs(c->lo - 1));
	/* per-round pairs: log ratio (or difference) of the two runs of the same round */
	pl_autofree double *d = pl_xmalloc((nr ? nr : 1) * sizeof(double));
	size_t np = 0;
	for (size_t i = 0; i < nr; i++)
		if (!isnan(xa[i]) && !isnan(xb[i])) {
			if (c->log_scale)
				d[np++] = log(xb[i] / xa[i]);
			else
				d[np++] = xb[i] - xa[i];
		}
	c->pairs = np;
	if (np > 0)
		c->wsr_ok = pl_signed_rank(d, np, &c->wsr) == 0;
}

static const char *fmt_p(char *buf, size_t len, double p)
{
	if (p < 0.0001)
		snprintf(buf, len, "p<0.0001");
	else
		snprintf(buf, len, "p=%.2g", p);
	return buf;
}

/* "+1.5 ms" */
static char *signed_unit(char *buf, size_t len, double x, const char *unit)
{
	char b[48];
	snprintf(buf, len, "%s%s", x > 0 ? "+" : "",
		 pl_fmt_unit(b, sizeof(b), x, unit ? unit : ""));
	return buf;
}

/* The baseline is ~0: a relative change, its CI and a run estimate would be noise (a mean
 * of 0.4 ms with a 1.2 ms spread gives "-100% [-309%, +109%]" and "1585487 runs"), so the
 * verdict says what the difference is, in the metric's unit. A change needs the rank test
 * and the CI of the difference to agree. */
static void near_zero_verdict(const struct pl_cmp_vstat *va, const struct pl_cmp_vstat *vb,
			      const struct pl_cmp_aopts *o, struct pl_cmp_cstat *c)
{
	char pb[32], d[64], lo[64], hi[64], m[64];
	signed_unit(d, sizeof(d), c->diff, o->unit);
	signed_unit(lo, sizeof(lo), c->diff_lo, o->unit);
	signed_unit(hi, sizeof(hi), c->diff_hi, o->unit);
	pl_fmt_unit(m, sizeof(m), va->mean, o->unit ? o->unit : "");
	bool ci_excludes_0 = c->diff_lo > 0 || c->diff_hi < 0;
	if (c->p_holm < o->alpha && ci_excludes_0) {
		const char *word = c->diff >= 0 ? o->up : o->down;
		c->verdict = PL_CMP_CHANGED;
		c->text = pl_xasprintf("%s by %s (the baseline is ~0, mean %s: no relative change; "
				       "%.0f%% CI %s to %s, %s, n=%zu/%zu)",
				       word, d, m, o->level * 100, lo, hi,
				       fmt_p(pb, sizeof(pb), c->p_holm), va->n, vb->n);
		c->brief = pl_xasprintf("%s %s", word, d);
	} else {
		c->verdict = PL_CMP_NO_DIFF;
		c->text = pl_xasprintf(
			"no difference detected; the baseline is ~0 (mean %s, within its "
			"own CI of zero), so no relative CI or run estimate: difference "
			"%s (%.0f%% CI %s to %s%s, %s, n=%zu/%zu)",
			m, d, o->level * 100, lo, hi, ci_excludes_0 ? "" : ", contains 0",
			fmt_p(pb, sizeof(pb), c->p_holm), va->n, vb->n);
		c->brief = pl_xasprintf("no difference (base ~0)");
	}
}

/* "; 1.05 +- 0.01 times slower than base" (hyperfine's form), or "" */
static void times_text(char *buf, size_t len, const struct pl_cmp_cstat *c,
		       const struct pl_cmp_aopts *o)
{
	buf[0] = '\0';
	if (isnan(c->times) || isnan(c->times_sd))
		return;
	snprintf(buf, len, "%.2f \u00b1 %.2f times %s than %s; ", c->times, c->times_sd,
		 c->times_up ? o->up : o->down, o->base_name ? o->base_name : "the baseline");
}

static void verdict(const struct pl_cmp_vstat *va, const struct pl_cmp_vstat *vb,
		    const struct pl_cmp_aopts *o, struct pl_cmp_cstat *c)
{
	char pb[32];
	double thr = o->threshold * 100;
	if (va->n < PL_CMP_MIN_VERDICT_RUNS || vb->n < PL_CMP_MIN_VERDICT_RUNS) {
		c->verdict = PL_CMP_NO_VERDICT;
		c->text = pl_xasprintf("no verdict: fewer than %d runs per variant (baseline %zu, "
				       "this variant %zu); add runs with --runs or --precision",
				       PL_CMP_MIN_VERDICT_RUNS, va->n, vb->n);
		c->brief = pl_xstrdup("no verdict (n<5)");
		return;
	}
	if (c->ok && c->near_zero && !isnan(c->mw.p) && !isnan(c->diff)) {
		near_zero_verdict(va, vb, o, c);
		return;
	}
	if (!c->ok || isnan(c->ratio) || isnan(c->mw.p)) {
		c->verdict = PL_CMP_NO_VERDICT;
		c->text =
			pl_xstrdup("no verdict: the metric is undefined or zero for the baseline");
		c->brief = pl_xstrdup("no verdict");
		return;
	}
	double eff = pct(c->ratio), lo = pct(c->lo), hi = pct(c->hi);
	/* the rank test and the CI must agree: a CI containing 1 (0%) is no change */
	bool ci_excludes_1 = c->lo > 1 || c->hi < 1;
	bool rank_detects = c->p_holm < o->alpha;
	bool detected = rank_detects && ci_excludes_1;
	const char *word = c->ratio >= 1 ? o->up : o->down;
	char ci[96], times[160];
	snprintf(ci, sizeof(ci), "%.0f%% CI %+.2f%% to %+.2f%%", o->level * 100, lo, hi);
	times_text(times, sizeof(times), c, o);
	if (detected && fabs(eff) >= thr) {
		c->verdict = PL_CMP_CHANGED;
		c->text = pl_xasprintf("%s by %.2f%% (%s%s, %s, n=%zu/%zu)", word, fabs(eff), times,
				       ci, fmt_p(pb, sizeof(pb), c->p_holm), va->n, vb->n);
		c->brief = pl_xasprintf("%s %.1f%%", word, fabs(eff));
	} else if (detected) {
		c->verdict = PL_CMP_BELOW;
		c->text =
			pl_xasprintf("difference detected but below the %g%% threshold: %+.2f%% "
				     "(%s, %s, n=%zu/%zu)",
				     thr, eff, ci, fmt_p(pb, sizeof(pb), c->p_holm), va->n, vb->n);
		c->brief = pl_xasprintf("%+.1f%% (< %g%%)", eff, thr);
	} else if (c->lo > 1 - o->threshold && c->hi < 1 + o->threshold) {
		c->verdict = PL_CMP_EQUIVALENT;
		c->text = pl_xasprintf("equivalent within +-%g%% (%s, %s, n=%zu/%zu)", thr, ci,
				       fmt_p(pb, sizeof(pb), c->p_holm), va->n, vb->n);
		c->brief = pl_xasprintf("equivalent +-%g%%", thr);
	} else {
		c->verdict = PL_CMP_NO_DIFF;
		char need[96], why[160] = "";
		if (c->runs_needed > 0)
			snprintf(need, sizeof(need), "about %zu runs per variant", c->runs_needed);
		else
			snprintf(need, sizeof(need), "more runs");
		if (rank_detects)
			snprintf(why, sizeof(why),
				 "the rank test alone gives %s but the CI contains 0, so the "
				 "direction is unknown; ",
				 fmt_p(pb, sizeof(pb), c->p_holm));
		c->text = pl_xasprintf("no difference detected: %sthe CI rules out effects beyond "
				       "%.2f%%; detecting %g%% would need %s (%s, %s, n=%zu/%zu)",
				       why, c->rules_out * 100, thr, need, ci,
				       fmt_p(pb, sizeof(pb), c->p_holm), va->n, vb->n);
		c->brief = pl_xasprintf("no difference (+-%.1f%%)", c->rules_out * 100);
	}
}

/* Name runs that read 0 on a metric counted in clock ticks: "; 7/10 runs of the baseline
 * and 2/10 of this variant read 0 s: below the 10 ms clock-tick resolution". */
static void resolution_note(const struct pl_cmp_vstat *va, const struct pl_cmp_vstat *vb,
			    const struct pl_cmp_aopts *o, struct pl_cmp_cstat *c)
{
	if (!(o->resolution > 0) || (!va->nzero && !vb->nzero))
		return;
	char res[48], z[48];
	const char *u = o->unit ? o->unit : "";
	pl_fmt_unit(res, sizeof(res), o->resolution, u);
	pl_fmt_unit(z, sizeof(z), 0, u);
	char *t = pl_xasprintf("%s; %zu/%zu runs of the baseline and %zu/%zu of this variant "
			       "read %s: below the %s clock-tick resolution",
			       c->text, va->nzero, va->n, vb->nzero, vb->n, z, res);
	free(c->text);
	c->text = t;
}

void pl_cmp_analyze_metric(double *const *x, size_t nv, size_t nr, const struct pl_cmp_aopts *o,
			   struct pl_cmp_vstat *vs, struct pl_cmp_cstat *cs)
{
	for (size_t v = 0; v < nv; v++)
		vstat(x[v], nr, o->threshold, &vs[v]);
	memset(&cs[0], 0, sizeof(cs[0]));
	cs[0].verdict = PL_CMP_BASELINE;
	cs[0].ratio = 1;
	double *p = pl_xmalloc(nv * sizeof(double)), *adj = pl_xmalloc(nv * sizeof(double));
	size_t k = 0;
	for (size_t v = 1; v < nv; v++) {
		cstat(x[0], x[v], nr, o, &cs[v]);
		p[k++] = isnan(cs[v].mw.p) ? 1 : cs[v].mw.p;
	}
	pl_holm(p, k, adj);
	for (size_t v = 1; v < nv; v++) {
		cs[v].p_holm = isnan(cs[v].mw.p) ? NAN : adj[v - 1];
		verdict(&vs[0], &vs[v], o, &cs[v]);
		resolution_note(&vs[0], &vs[v], o, &cs[v]);
	}
	free(p);
	free(adj);
}

void pl_cmp_stats_free(struct pl_cmp_vstat *vs, struct pl_cmp_cstat *cs, size_t nv)
{
	for (size_t v = 0; v < nv; v++) {
		if (vs)
			free(vs[v].outliers);
		if (cs) {
			free(cs[v].text);
			free(cs[v].brief);
		}
	}
}
