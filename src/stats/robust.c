/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "stats/robust.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/summary.h"
#include "util/str.h"

int pl_median_ci(const double *s, size_t n, double level, double *lo, double *hi)
{
	*lo = *hi = NAN;
	double tail = (1 - level) / 2;
	/* l = largest rank with P(B <= l-1) <= tail; P(B <= -1) = 0 so l >= 0 always */
	size_t l = 0;
	while (l < n / 2 && gsl_cdf_binomial_P((unsigned)l, 0.5, (unsigned)n) <= tail)
		l++;
	if (l == 0)
		return -EDOM;
	*lo = s[l - 1];
	*hi = s[n - l];
	return 0;
}

double pl_mad_sorted(const double *s, size_t n)
{
	if (n == 0)
		return NAN;
	double med = pl_quantile_sorted(s, n, 0.5);
	double *d = pl_xmalloc(n * sizeof(double));
	for (size_t i = 0; i < n; i++)
		d[i] = fabs(s[i] - med);
	pl_sort_doubles(d, n);
	double mad = pl_quantile_sorted(d, n, 0.5);
	free(d);
	return mad;
}

double pl_iqr_sorted(const double *s, size_t n)
{
	if (n == 0)
		return NAN;
	return pl_quantile_sorted(s, n, 0.75) - pl_quantile_sorted(s, n, 0.25);
}

/* Mean absolute deviation of @v[0..n-1] around @med. */
static double mean_abs_dev(const double *v, size_t n, double med)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += fabs(v[i] - med);
	return s / (double)n;
}

size_t pl_outliers_mad(const double *v, size_t n, double rel_tol, bool *is_out)
{
	if (n == 0)
		return 0;
	double *s = pl_xmalloc(n * sizeof(double));
	memcpy(s, v, n * sizeof(double));
	pl_sort_doubles(s, n);
	double med = pl_quantile_sorted(s, n, 0.5);
	double mad = pl_mad_sorted(s, n);
	free(s);
	/* sigma estimate: the MAD, or the mean absolute deviation when half the values tie */
	double scale = mad > 0 ? PL_MAD_NORMAL * mad : PL_MEANAD_NORMAL * mean_abs_dev(v, n, med);
	double floor = mad > 0 ? 0 : fabs(rel_tol) * fabs(med);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		double d = fabs(v[i] - med);
		bool out = scale > 0 && d > floor && d / scale > 3.5;
		if (is_out)
			is_out[i] = out;
		k += out;
	}
	return k;
}

int pl_mode_count(const double *v, size_t n)
{
	enum { GRID = 512 };
	if (n < 10)
		return 1;
	double *s = pl_xmalloc(n * sizeof(double));
	memcpy(s, v, n * sizeof(double));
	pl_sort_doubles(s, n);
	struct pl_summary sum;
	pl_summary_compute(&sum, s, n);
	double iqr = pl_iqr_sorted(s, n);
	double spread = fmin(sum.stddev, iqr / 1.34);
	if (!(spread > 0))
		spread = sum.stddev;
	if (!(spread > 0)) {
		free(s);
		return 1;
	}
	double h = 0.9 * spread * pow((double)n, -0.2);
	double a = s[0] - 3 * h, b = s[n - 1] + 3 * h;
	double dens[GRID] = { 0 };
	/* Each value's kernel over the grid points within 8 bandwidths, by the recurrence of
	 * a Gaussian on a uniform grid: with z_g = (x_g - s) / h and step dz,
	 * e_{g+1} = e_g r_g and r_{g+1} = r_g exp(-dz^2), where e_g = exp(-z_g^2 / 2) and
	 * r_g = exp(-z_g dz - dz^2 / 2): three exp() per value instead of one per grid point
	 * (the sum agrees with the direct one to ~1e-12 relative). */
	double step = (b - a) / (GRID - 1), dz = step / h, c = exp(-dz * dz);
	for (size_t i = 0; i < n; i++) {
		int g = (int)ceil((s[i] - 8 * h - a) / step);
		if (g < 0)
			g = 0;
		double z = (a + step * g - s[i]) / h;
		double e = exp(-0.5 * z * z), r = exp(-z * dz - 0.5 * dz * dz);
		for (; g < GRID && z < 8; g++, z += dz) {
			if (z > -8)
				dens[g] += e;
			e *= r;
			r *= c;
		}
	}
	free(s);
	double top = 0;
	for (int g = 0; g < GRID; g++)
		top = fmax(top, dens[g]);
	/* walk the peaks left to right, merging a peak into the previous one when the valley
	 * between them is shallow */
	int modes = 0;
	double last_peak = 0, valley = INFINITY;
	for (int g = 1; g < GRID - 1; g++) {
		valley = fmin(valley, dens[g]);
		if (!(dens[g] >= dens[g - 1] && dens[g] > dens[g + 1]) || dens[g] < 0.1 * top)
			continue;
		if (modes == 0 || valley < 0.8 * fmin(last_peak, dens[g])) {
			modes++;
			last_peak = dens[g];
		} else {
			last_peak = fmax(last_peak, dens[g]);
		}
		valley = dens[g];
	}
	return modes ? modes : 1;
}
