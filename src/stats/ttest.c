/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "stats/ttest.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

#include "util/str.h"

/* Welford mean and sum of squared deviations. */
static void moments(const double *v, size_t n, double *mean, double *m2)
{
	double m = 0, s = 0;
	for (size_t i = 0; i < n; i++) {
		double d = v[i] - m;
		m += d / (double)(i + 1);
		s += d * (v[i] - m);
	}
	*mean = m;
	*m2 = s;
}

static void finish(struct pl_tinterval *o, double level)
{
	if (o->se > 0) {
		double t = gsl_cdf_tdist_Pinv(1 - (1 - level) / 2, o->df);
		o->half = t * o->se;
		o->p = 2 * gsl_cdf_tdist_Q(fabs(o->diff) / o->se, o->df);
	} else {
		o->half = 0;
		o->p = o->diff != 0 ? 0 : 1;
	}
	o->lo = o->diff - o->half;
	o->hi = o->diff + o->half;
}

/* Both samples' sums of squared deviations into *sa, *sb and the difference of means
 * into o->diff; -EDOM when a sample has fewer than 2 values. */
static int two_samples(const double *a, size_t na, const double *b, size_t nb, double *sa,
		       double *sb, struct pl_tinterval *o)
{
	if (na < 2 || nb < 2)
		return -EDOM;
	double ma, mb;
	moments(a, na, &ma, sa);
	moments(b, nb, &mb, sb);
	o->diff = mb - ma;
	return 0;
}

int pl_ttest_pooled(const double *a, size_t na, const double *b, size_t nb, double level,
		    struct pl_tinterval *out)
{
	double sa, sb;
	if (two_samples(a, na, b, nb, &sa, &sb, out) < 0)
		return -EDOM;
	out->df = (double)(na + nb - 2);
	out->pooled_sd = sqrt((sa + sb) / out->df);
	out->se = out->pooled_sd * sqrt(1.0 / (double)na + 1.0 / (double)nb);
	finish(out, level);
	return 0;
}

int pl_ttest_welch(const double *a, size_t na, const double *b, size_t nb, double level,
		   struct pl_tinterval *out)
{
	double sa, sb;
	if (two_samples(a, na, b, nb, &sa, &sb, out) < 0)
		return -EDOM;
	double va = sa / (double)(na - 1) / (double)na, vb = sb / (double)(nb - 1) / (double)nb;
	out->pooled_sd = NAN;
	out->se = sqrt(va + vb);
	if (va + vb > 0)
		out->df = (va + vb) * (va + vb) /
			  (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	else
		out->df = (double)(na + nb - 2);
	finish(out, level);
	return 0;
}

int pl_ratio_geomean(const double *a, size_t na, const double *b, size_t nb, double level,
		     double *ratio, double *lo, double *hi, double *p)
{
	if (na < 2 || nb < 2)
		return -EDOM;
	double *la = pl_xmalloc(na * sizeof(double)), *lb = pl_xmalloc(nb * sizeof(double));
	int r = 0;
	for (size_t i = 0; i < na && r == 0; i++)
		if (a[i] > 0)
			la[i] = log(a[i]);
		else
			r = -EDOM;
	for (size_t i = 0; i < nb && r == 0; i++)
		if (b[i] > 0)
			lb[i] = log(b[i]);
		else
			r = -EDOM;
	struct pl_tinterval t;
	if (r == 0)
		r = pl_ttest_welch(la, na, lb, nb, level, &t);
	if (r == 0) {
		*ratio = exp(t.diff);
		*lo = exp(t.lo);
		*hi = exp(t.hi);
		*p = t.p;
	}
	free(la);
	free(lb);
	return r;
}

int pl_ratio_fieller(const double *a, size_t na, const double *b, size_t nb, double level,
		     double *ratio, double *lo, double *hi)
{
	*ratio = *lo = *hi = NAN;
	if (na < 2 || nb < 2)
		return -EDOM;
	double ma, mb, sa, sb;
	moments(a, na, &ma, &sa);
	moments(b, nb, &mb, &sb);
	if (ma == 0)
		return -EDOM;
	double va = sa / (double)(na - 1) / (double)na, vb = sb / (double)(nb - 1) / (double)nb;
	double r = mb / ma;
	*ratio = r;
	/* Welch-Satterthwaite df of mb - rho ma at rho = r */
	double w = vb + r * r * va,
	       den = vb * vb / (double)(nb - 1) + r * r * r * r * va * va / (double)(na - 1);
	double df = den > 0 ? w * w / den : (double)(na + nb - 2);
	double t = gsl_cdf_tdist_Pinv(1 - (1 - level) / 2, df), t2 = t * t;
	double qa = ma * ma - t2 * va;
	if (!(qa > 0))
		return -ERANGE;
	/* discriminant / t^2 = vb qa + mb^2 va >= 0 when qa > 0 */
	double disc = t2 * (vb * qa + mb * mb * va);
	double root = sqrt(disc);
	*lo = (ma * mb - root) / qa;
	*hi = (ma * mb + root) / qa;
	return 0;
}

int pl_ratio_hyperfine(double ma, double sa, double mb, double sb, double *factor, double *sd)
{
	*factor = *sd = NAN;
	if (!(ma > 0) || !(mb > 0) || !isfinite(ma) || !isfinite(mb) || !isfinite(sa) ||
	    !isfinite(sb))
		return -EDOM;
	double f = ma > mb ? ma / mb : mb / ma;
	*factor = f;
	*sd = f * sqrt((sa / ma) * (sa / ma) + (sb / mb) * (sb / mb));
	return 0;
}

size_t pl_runs_needed(double sd_log, double delta, double alpha, double power)
{
	if (!(sd_log > 0) || !(delta > 0))
		return 0;
	double z = gsl_cdf_ugaussian_Pinv(1 - alpha / 2) + gsl_cdf_ugaussian_Pinv(power);
	double d = log1p(delta);
	return (size_t)ceil(2 * z * z * sd_log * sd_log / (d * d));
}
