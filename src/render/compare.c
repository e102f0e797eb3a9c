/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "render/compare.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bench/env.h"
#include "util/json.h"
#include "util/str.h"

static double num_or_nan(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

char *pl_report_cmp_median(const json_t *x, const char *unit)
{
	char m[48], a[48], b[48];
	const json_t *ci = json_object_get(x, "median_ci");
	double lo = num_or_nan(json_array_get(ci, 0)), hi = num_or_nan(json_array_get(ci, 1));
	pl_fmt_unit(m, sizeof(m), num_or_nan(json_object_get(x, "median")), unit);
	if (isnan(lo) || isnan(hi))
		return pl_xstrdup(m);
	return pl_xasprintf("%s [%s, %s]", m, pl_fmt_unit(a, sizeof(a), lo, unit),
			    pl_fmt_unit(b, sizeof(b), hi, unit));
}

/* "+1.2 ms" */
static char *signed_unit(char *buf, size_t len, double x, const char *unit)
{
	char b[48];
	snprintf(buf, len, "%s%s", x > 0 ? "+" : "", pl_fmt_unit(b, sizeof(b), x, unit));
	return buf;
}

char *pl_report_cmp_vs(const json_t *x, const char *unit)
{
	const json_t *vs = json_object_get(x, "vs_baseline");
	if (!json_is_object(vs))
		return NULL;
	const json_t *ci = json_object_get(vs, "ci");
	double r = num_or_nan(json_object_get(vs, "ratio"));
	double lo = num_or_nan(json_array_get(ci, 0)), hi = num_or_nan(json_array_get(ci, 1));
	/* a time or a size cannot fall by more than 100%: a relative CI reaching below -100%
	 * (documents whose ratio came from Welch's CI relative to the baseline mean) is shown
	 * as the difference in the metric's unit */
	bool nonneg_unit = unit && (strcmp(unit, "s") == 0 || strcmp(unit, "B") == 0);
	if (json_is_true(json_object_get(vs, "baseline_near_zero")) || (nonneg_unit && lo < 0)) {
		const json_t *d = json_object_get(vs, "difference");
		const json_t *dci = json_object_get(d, "ci");
		double e = num_or_nan(json_object_get(d, "estimate"));
		double dl = num_or_nan(json_array_get(dci, 0)),
		       dh = num_or_nan(json_array_get(dci, 1));
		if (isnan(e))
			return NULL;
		char a[48], b[48], c[48];
		if (isnan(dl) || isnan(dh))
			return pl_xasprintf("diff %s", signed_unit(a, sizeof(a), e, unit));
		return pl_xasprintf("diff %s [%s, %s]", signed_unit(a, sizeof(a), e, unit),
				    signed_unit(b, sizeof(b), dl, unit),
				    signed_unit(c, sizeof(c), dh, unit));
	}
	if (isnan(r))
		return NULL;
	if (isnan(lo) || isnan(hi))
		return pl_xasprintf("%+.2f%%", (r - 1) * 100);
	return pl_xasprintf("%+.2f%% [%+.2f, %+.2f]", (r - 1) * 100, (lo - 1) * 100,
			    (hi - 1) * 100);
}

char *pl_report_cmp_context(const json_t *doc)
{
	struct pl_buf b = { 0 };
	const json_t *env = json_object_get(doc, "environment");
	if (json_is_object(env)) {
		char *t = pl_env_text(env);
		pl_buf_printf(&b, "environment: %s\n", t);
		free(t);
	}
	size_t i;
	json_t *o;
	json_array_foreach(json_object_get(doc, "original_settings"), i, o)
	{
		const char *be = pl_json_str(o, "before"), *af = pl_json_str(o, "after");
		pl_buf_printf(&b, "%s: '%s' before the first run, '%s' after the last%s\n",
			      pl_json_str(o, "key") ? pl_json_str(o, "key") : "?",
			      be ? be : "(unreadable)", af ? af : "(unreadable)",
			      json_is_true(json_object_get(o, "restored")) ? " (restored)"
									   : " (NOT the same)");
	}
	return pl_buf_steal(&b);
}
