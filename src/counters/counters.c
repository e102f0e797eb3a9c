/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What every part of the counters engine shares: sums over a result and its release. */
#include "counters/counters.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double pl_cnt_result_sum(const struct pl_cnt_result *r, const char *name)
{
	double sum = 0;
	bool any = false;
	for (size_t i = 0; r && i < r->n; i++) {
		const struct pl_cnt_value *v = &r->v[i];
		if (!v->ev || strcmp(v->ev->name, name) || !v->supported || !v->counted)
			continue;
		sum += v->value;
		any = true;
	}
	return any ? sum : NAN;
}

void pl_cnt_result_free(struct pl_cnt_result *r)
{
	if (!r)
		return;
	free(r->v);
	memset(r, 0, sizeof(*r));
}
