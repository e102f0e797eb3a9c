/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "stats/settle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/robust.h"
#include "stats/summary.h"
#include "util/str.h"

double pl_settle_precision(const double *v, size_t n, double *lo, double *hi)
{
	double l = NAN, h = NAN;
	double r = INFINITY;
	if (n >= PL_SETTLE_MIN_RUNS) {
		double *s = pl_xmalloc(n * sizeof(double));
		memcpy(s, v, n * sizeof(double));
		pl_sort_doubles(s, n);
		double med = pl_quantile_sorted(s, n, 0.5);
		if (pl_median_ci(s, n, 0.95, &l, &h) == 0) {
			double side = fmax(h - med, med - l);
			if (side == 0)
				r = 0;
			else if (med != 0)
				r = side / fabs(med);
		}
		free(s);
	}
	if (lo)
		*lo = l;
	if (hi)
		*hi = h;
	return r;
}

size_t pl_settle_warmup(const double *v, size_t n)
{
	if (n < PL_SETTLE_WARMUP_MIN_RUNS)
		return 0;
	size_t half = n / 2, nr = n - half;
	double *s = pl_xmalloc(nr * sizeof(double));
	memcpy(s, v + half, nr * sizeof(double));
	pl_sort_doubles(s, nr);
	double med = pl_quantile_sorted(s, nr, 0.5);
	double mad = pl_mad_sorted(s, nr);
	double scale = PL_MAD_NORMAL * mad;
	if (!(scale > 0)) {
		double sum = 0;
		for (size_t i = 0; i < nr; i++)
			sum += fabs(s[i] - med);
		scale = PL_MEANAD_NORMAL * sum / (double)nr;
	}
	free(s);
	/* half the reference ties at its median (whole clock ticks): a run within 1% of it
	 * has settled */
	double band = PL_SETTLE_WARMUP_K * scale;
	if (!(mad > 0))
		band = fmax(band, 0.01 * fabs(med));
	size_t d = 0;
	while (d < half && !(fabs(v[d] - med) <= band))
		d++;
	return d;
}
