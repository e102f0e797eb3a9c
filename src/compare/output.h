/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Outputs of compare: the terminal table (variants as columns, metrics as rows, each
 * cell value + CI + verdict, then the verdict sentences and notes), JSON
 * (docs/schemas/compare.schema.json), Markdown and CSV. */
#ifndef PERFLAB_COMPARE_OUTPUT_H
#define PERFLAB_COMPARE_OUTPUT_H
#include <jansson.h>
#include <stdio.h>

#include "compare/analyze.h"
#include "compare/session.h"

/** Statistics of every metric of a finished session. */
struct pl_cmp_report {
	const struct pl_cmp_session *s;
	size_t nm, nv;
	struct pl_cmp_vstat *vs; /**< [m * nv + v] */
	struct pl_cmp_cstat *cs; /**< [m * nv + v]; v == 0 is the baseline */
	size_t failed_runs;      /**< runs that exited non-zero (--ignore-failure) */
};

/** Analyse every metric of @s. Free with pl_cmp_report_free. */
void pl_cmp_report_build(struct pl_cmp_report *r, const struct pl_cmp_session *s);
/** NULL-safe. */
void pl_cmp_report_free(struct pl_cmp_report *r);

/** The terminal table, verdicts and notes. */
void pl_cmp_print_table(FILE *f, const struct pl_cmp_report *r);
/** The JSON document (new reference). Same seed and inputs give the same bytes apart from
 *  the timing fields (runs[].resources, statistics of wait4 metrics, elapsed_s). */
json_t *pl_cmp_to_json(const struct pl_cmp_report *r);
/** A Markdown table (one row per metric, one column per variant) and the verdicts. */
void pl_cmp_write_markdown(FILE *f, const struct pl_cmp_report *r);
/** CSV: one row per metric and variant with the statistics and the verdict (RFC 4180
 *  quoting). */
void pl_cmp_write_csv(FILE *f, const struct pl_cmp_report *r);

#endif
