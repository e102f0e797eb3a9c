/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The metrics' formula language (counters/expr.h) on arbitrary formulas, evaluated over
 * one fixed reading (a few events, one of them zero, #slots, 2 s), through pl_expr_* and
 * through pl_metric_eval as a metric outside the table; the same bytes also as a
 * pl_metric_select list. Invariants: a refused formula says where; an accepted one
 * evaluates to a finite value, or names the missing event, or says why it has none. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters/expr.h"
#include "counters/metric.h"
#include "fuzz.h"

static struct pl_cnt_event evs[] = {
	{ .name = "cycles", .scale = 1 },     { .name = "instructions", .scale = 1 },
	{ .name = "task-clock", .scale = 1 }, { .name = "cpu/event=0xaa,umask=0x7/", .scale = 1 },
	{ .name = "#slots", .scale = 1 },     { .name = "zero", .scale = 1 },
};
static struct pl_cnt_value vals[] = {
	{ .ev = &evs[0], .value = 6e9, .counted = true, .supported = true, .cpu = 0 },
	{ .ev = &evs[0], .value = 1e9, .counted = true, .supported = true, .cpu = 1 },
	{ .ev = &evs[1], .value = 9e9, .counted = true, .supported = true, .cpu = -1 },
	{ .ev = &evs[2], .value = 2000, .counted = true, .supported = true, .cpu = -1 },
	{ .ev = &evs[3], .value = 13.5e9, .counted = true, .supported = true, .cpu = -1 },
	{ .ev = &evs[4], .value = 5, .counted = true, .supported = true, .cpu = -1 },
	{ .ev = &evs[5], .value = 0, .counted = true, .supported = true, .cpu = -1 },
};

static void check(int rc, double v, const char *missing)
{
	if (rc == 0)
		FUZZ_ASSERT(isfinite(v), "a value is finite");
	else
		FUZZ_ASSERT((rc == -ENOENT || rc == -EDOM) && missing[0],
			    "a formula without a value says why");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 8192)
		return -1;
	char *src = fuzz_cstr(data, size);
	struct pl_cnt_result r = {
		.v = vals, .n = sizeof(vals) / sizeof(vals[0]), .elapsed_ns = 2000000000, .ncpus = 2
	};
	struct pl_expr *e = NULL;
	char err[512] = "";
	int rc = pl_expr_parse(src, &e, err, sizeof(err));
	if (rc != 0) {
		FUZZ_ASSERT(rc == -EINVAL || rc == -E2BIG, "a refusal is -EINVAL or -E2BIG");
		FUZZ_ASSERT(e == NULL && err[0], "a refused formula says why");
	} else {
		const char *names[8];
		size_t nn = pl_expr_names(e, names, 8);
		for (size_t i = 0; i < nn && i < 8; i++)
			FUZZ_ASSERT(names[i][0] && strlen(names[i]) < PL_CNT_NAME_MAX,
				    "a name is not empty and fits");
		double v = NAN;
		char missing[128] = "";
		int erc = pl_expr_eval(e, &r, &v, missing, sizeof(missing));
		check(erc, v, missing);
		pl_expr_free(e);
		/* the same formula as a metric outside the table */
		struct pl_metric m = { .name = "fuzz", .expr = src };
		missing[0] = '\0';
		erc = pl_metric_eval(&m, &r, &v, missing, sizeof(missing));
		check(erc, v, missing);
	}
	/* and the bytes as a list of metric names */
	const struct pl_metric *out[16];
	int n = pl_metric_select(src, "intel", out, 16, err, sizeof(err));
	FUZZ_ASSERT(n != 0, "a selection names at least one metric or says why not");
	if (n < 0)
		FUZZ_ASSERT(err[0] && !strchr(err, '\n'), "a refused selection is one line");
	free(src);
	return 0;
}
