/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "stats/rank.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/summary.h"
#include "util/cleanup.h"
#include "util/str.h"

/* Counts of U = 0..na*nb: multiply by (1 - q^(nb+i)) and divide by (1 - q^i) for
 * i = 1..na; each step leaves the non-negative coefficients of [nb+i choose i]_q. */
static double *mw_counts(size_t na, size_t nb)
{
	size_t len = na * nb + 1;
	double *c = pl_xcalloc(len, sizeof(double));
	c[0] = 1;
	for (size_t i = 1; i <= na; i++) {
		size_t top = i * nb; /* degree after this step */
		for (size_t k = top; k >= nb + i && k < len; k--)
			c[k] -= c[k - nb - i];
		for (size_t k = i; k <= top; k++)
			c[k] += c[k - i];
		for (size_t k = 0; k <= top; k++)
			if (c[k] < 0.5)
				c[k] = 0; /* clean rounding noise of the integer counts */
			else
				c[k] = nearbyint(c[k]);
	}
	return c;
}

static double cdf_from_counts(const double *c, size_t len, double x)
{
	if (x < 0)
		return 0;
	double tot = 0, below = 0;
	for (size_t k = 0; k < len; k++) {
		tot += c[k];
		if ((double)k <= x + 1e-9)
			below += c[k];
	}
	return below / tot;
}

double pl_mw_cdf_exact(size_t na, size_t nb, double u)
{
	if (na + nb > PL_RANK_EXACT_MAX || na == 0 || nb == 0)
		return NAN;
	double *c = mw_counts(na, nb);
	double r = cdf_from_counts(c, na * nb + 1, u);
	free(c);
	return r;
}

static double *signrank_counts(size_t n)
{
	size_t len = n * (n + 1) / 2 + 1;
	double *c = pl_xcalloc(len, sizeof(double));
	c[0] = 1;
	for (size_t i = 1; i <= n; i++)
		for (size_t k = len - 1; k >= i; k--)
			c[k] += c[k - i];
	return c;
}

double pl_signrank_cdf_exact(size_t n, double w)
{
	if (n > PL_RANK_EXACT_MAX)
		return NAN;
	double *c = signrank_counts(n);
	double r = cdf_from_counts(c, n * (n + 1) / 2 + 1, w);
	free(c);
	return r;
}

struct ranked {
	double v;
	size_t idx;
};

static int cmp_ranked(const void *x, const void *y)
{
	double a = ((const struct ranked *)x)->v, b = ((const struct ranked *)y)->v;
	return (a > b) - (a < b);
}

/* Mid-ranks (1-based) of v[0..n-1] into rank[]; returns sum over tie groups of t^3 - t. */
static double midranks(const double *v, size_t n, double *rank)
{
	struct ranked *r = pl_xmalloc(n * sizeof(*r));
	for (size_t i = 0; i < n; i++)
		r[i] = (struct ranked){ v[i], i };
	qsort(r, n, sizeof(*r), cmp_ranked);
	double ties = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && r[j + 1].v == r[i].v)
			j++;
		double mid = (double)(i + j + 2) / 2, t = (double)(j - i + 1);
		for (size_t k = i; k <= j; k++)
			rank[r[k].idx] = mid;
		ties += t * t * t - t;
		i = j + 1;
	}
	free(r);
	return ties;
}

static double two_sided(double lower, double upper)
{
	return fmin(1.0, 2 * fmin(lower, upper));
}

static double normal_p(double stat, double mu, double var, double *z)
{
	if (!(var > 0)) {
		*z = 0;
		return 1;
	}
	double d = stat - mu;
	double cc = d > 0 ? 0.5 : d < 0 ? -0.5 : 0;
	*z = (d - cc) / sqrt(var);
	return fmin(1.0, 2 * gsl_cdf_ugaussian_Q(fabs(*z)));
}

int pl_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		    struct pl_rank_test *out)
{
	if (na == 0 || nb == 0)
		return -EDOM;
	size_t n = na + nb;
	pl_autofree double *all = pl_xmalloc(n * sizeof(double));
	pl_autofree double *rank = pl_xmalloc(n * sizeof(double));
	memcpy(all, a, na * sizeof(double));
	memcpy(all + na, b, nb * sizeof(double));
	double ties = midranks(all, n, rank);
	double rb = 0;
	for (size_t i = na; i < n; i++)
		rb += rank[i];
	double u = rb - (double)nb * (double)(nb + 1) / 2;
	out->stat = u;
	out->n = n;
	double mn = (double)na * (double)nb;
	if (ties == 0 && n <= PL_RANK_EXACT_MAX) {
		pl_autofree double *c = mw_counts(na, nb);
		size_t len = na * nb + 1;
		out->exact = true;
		out->z = NAN;
		out->p = two_sided(cdf_from_counts(c, len, u), 1 - cdf_from_counts(c, len, u - 1));
		return 0;
	}
	double N = (double)n;
	double var = mn / 12 * ((N + 1) - ties / (N * (N - 1)));
	out->exact = false;
	out->p = normal_p(u, mn / 2, var, &out->z);
	return 0;
}

int pl_signed_rank(const double *d, size_t n, struct pl_rank_test *out)
{
	pl_autofree double *abs_d = pl_xmalloc((n ? n : 1) * sizeof(double));
	pl_autofree double *sign = pl_xmalloc((n ? n : 1) * sizeof(double));
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (d[i] != 0 && !isnan(d[i])) {
			abs_d[m] = fabs(d[i]);
			sign[m++] = d[i] > 0 ? 1 : -1;
		}
	out->n = m;
	out->stat = 0;
	out->z = NAN;
	out->exact = false;
	out->p = 1;
	if (m == 0)
		return -EDOM;
	pl_autofree double *rank = pl_xmalloc(m * sizeof(double));
	double ties = midranks(abs_d, m, rank);
	double w = 0;
	for (size_t i = 0; i < m; i++)
		if (sign[i] > 0)
			w += rank[i];
	out->stat = w;
	if (ties == 0 && m <= PL_RANK_EXACT_MAX) {
		pl_autofree double *c = signrank_counts(m);
		size_t len = m * (m + 1) / 2 + 1;
		out->exact = true;
		out->p = two_sided(cdf_from_counts(c, len, w), 1 - cdf_from_counts(c, len, w - 1));
		return 0;
	}
	double M = (double)m;
	double var = M * (M + 1) * (2 * M + 1) / 24 - ties / 48;
	out->p = normal_p(w, M * (M + 1) / 4, var, &out->z);
	return 0;
}

/* Pairwise differences d(i, j) = b[j] - a[i] of ascending @a (na) and @b (nb): each row
 * i ascends in j, and the cut-offs at a value t move right as i grows (a[i] ascends), so
 * one pass of two pointers counts them all. row_lt[i]: the number of j with
 * d(i, j) < t; row_le[i]: with d(i, j) <= t. */
static void pairdiff_cut(const double *a, size_t na, const double *b, size_t nb, double t,
			 size_t *row_lt, size_t *row_le)
{
	size_t lt = 0, le = 0;
	for (size_t i = 0; i < na; i++) {
		while (lt < nb && b[lt] - a[i] < t)
			lt++;
		if (le < lt)
			le = lt;
		while (le < nb && b[le] - a[i] <= t)
			le++;
		row_lt[i] = lt;
		row_le[i] = le;
	}
}

/* The @k-th smallest (0-based) of the na*nb differences b[j] - a[i] of ascending @a and
 * @b, without forming them: randomized selection over the rows' candidate ranges
 * [lo[i], hi[i]) with a pivot drawn uniformly from the candidates (Monahan, "Algorithm
 * 616: fast computation of the Hodges-Lehmann location estimator", ACM TOMS 10(3), 1984,
 * the two-sample form): expected O(log(na nb)) passes of O(na + nb), memory O(na). The
 * pivots come from a fixed-seed xorshift, so the run is deterministic; the result is
 * exact whatever the pivots. */
static double pairdiff_kth(const double *a, size_t na, const double *b, size_t nb, size_t k,
			   size_t *lo, size_t *hi, size_t *row_lt, size_t *row_le)
{
	uint64_t rng = 0x9e3779b97f4a7c15u;
	for (size_t i = 0; i < na; i++) {
		lo[i] = 0;
		hi[i] = nb;
	}
	size_t below = 0, left = na * nb; /* candidates: every d below them is counted */
	for (;;) {
		if (left <= 2 * (na + nb) + 16) {
			double *c = pl_xmalloc(left * sizeof(double));
			size_t m = 0;
			for (size_t i = 0; i < na; i++)
				for (size_t j = lo[i]; j < hi[i]; j++)
					c[m++] = b[j] - a[i];
			pl_sort_doubles(c, m);
			double v = c[k - below];
			free(c);
			return v;
		}
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		size_t r = (size_t)(rng % left), i = 0;
		while (r >= hi[i] - lo[i]) {
			r -= hi[i] - lo[i];
			i++;
		}
		double t = b[lo[i] + r] - a[i];
		pairdiff_cut(a, na, b, nb, t, row_lt, row_le);
		size_t n_lt = 0, n_le = 0;
		for (size_t q = 0; q < na; q++) {
			n_lt += row_lt[q];
			n_le += row_le[q];
		}
		if (k >= n_lt && k < n_le)
			return t;
		below = 0;
		left = 0;
		for (size_t q = 0; q < na; q++) {
			if (k < n_lt) {
				if (hi[q] > row_lt[q])
					hi[q] = row_lt[q];
			} else if (lo[q] < row_le[q]) {
				lo[q] = row_le[q];
			}
			if (hi[q] < lo[q])
				hi[q] = lo[q];
			below += lo[q];
			left += hi[q] - lo[q];
		}
	}
}

int pl_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb, double level,
		      double *est, double *lo, double *hi)
{
	*est = *lo = *hi = NAN;
	if (na == 0 || nb == 0)
		return -EDOM;
	size_t mn = na * nb;
	pl_autofree double *sa = pl_xmalloc(na * sizeof(double));
	pl_autofree double *sb = pl_xmalloc(nb * sizeof(double));
	memcpy(sa, a, na * sizeof(double));
	memcpy(sb, b, nb * sizeof(double));
	pl_sort_doubles(sa, na);
	pl_sort_doubles(sb, nb);
	pl_autofree size_t *w = pl_xmalloc(4 * na * sizeof(size_t));
	/* the k-th smallest difference, the sorted array of all of them read at k */
#define KTH(k) pairdiff_kth(sa, na, sb, nb, (k), w, w + na, w + 2 * na, w + 3 * na)
	/* the median as pl_quantile_sorted(d, mn, 0.5) reads it: the mean of the two middle
	 * order statistics when mn is even */
	size_t mid = (mn - 1) / 2;
	double m0 = KTH(mid);
	*est = mn % 2 ? m0 : m0 + 0.5 * (KTH(mid + 1) - m0);
	double tail = (1 - level) / 2;
	/* qu: the smallest u with P(U <= u) >= tail (R's qwilcox), at least 1 */
	size_t qu = 0;
	if (na + nb <= PL_RANK_EXACT_MAX) {
		double *c = mw_counts(na, nb);
		double tot = 0, acc = 0;
		for (size_t k = 0; k <= mn; k++)
			tot += c[k];
		for (qu = 0; qu <= mn; qu++) {
			acc += c[qu];
			if (acc / tot >= tail)
				break;
		}
		free(c);
	} else {
		double sd = sqrt((double)mn * (double)(na + nb + 1) / 12);
		double q = (double)mn / 2 - gsl_cdf_ugaussian_Pinv(1 - tail) * sd;
		qu = q > 0 ? (size_t)floor(q) : 0;
	}
	int r = 0;
	if (qu == 0 && tail > 0) {
		/* the sample cannot reach the level: even the extreme differences do not */
		double p0 = na + nb <= PL_RANK_EXACT_MAX ? pl_mw_cdf_exact(na, nb, 0) : 0;
		if (p0 > tail)
			r = -EDOM;
		qu = 1;
	}
	if (r == 0 && qu <= mn) {
		*lo = KTH(qu - 1);
		*hi = KTH(mn - qu);
	} else {
		r = -EDOM;
	}
#undef KTH
	return r;
}

struct pidx {
	double p;
	size_t i;
};

static int cmp_pidx(const void *x, const void *y)
{
	const struct pidx *a = x, *b = y;
	if (a->p != b->p)
		return (a->p > b->p) - (a->p < b->p);
	return (a->i > b->i) - (a->i < b->i);
}

void pl_holm(const double *p, size_t k, double *adj)
{
	if (k == 0)
		return;
	struct pidx *s = pl_xmalloc(k * sizeof(*s));
	for (size_t i = 0; i < k; i++)
		s[i] = (struct pidx){ p[i], i };
	qsort(s, k, sizeof(*s), cmp_pidx);
	double run = 0;
	for (size_t j = 0; j < k; j++) {
		double v = fmin(1.0, (double)(k - j) * s[j].p);
		run = fmax(run, v);
		adj[s[j].i] = run;
	}
	free(s);
}
