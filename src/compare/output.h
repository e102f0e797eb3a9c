/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Outputs of compare: the terminal table (variants as columns, metrics as rows, each
 * cell value + CI + verdict, then the verdict sentences and notes), JSON
 * (docs/schemas/compare.schema.json), Markdown and CSV. */
#ifndef PERFLAB_COMPARE_OUTPUT_H
#define PERFLAB_COMPARE_OUTPUT_H
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "compare/analyze.h"
#include "compare/session.h"
#include "compare/sysset.h"

/** Statistics of every metric of a finished session. */
struct pl_cmp_report {
	const struct pl_cmp_session *s;
	size_t nm, nv;
	struct pl_cmp_vstat *vs; /**< [m * nv + v] */
	struct pl_cmp_cstat *cs; /**< [m * nv + v]; v == 0 is the baseline */
	size_t failed_runs;	 /**< runs that exited non-zero (--ignore-failure) */
	/* set by the caller after pl_cmp_report_build (borrowed, may stay NULL/0): */
	const json_t *environment; /**< bench/env.h's pl_env_json object of the whole experiment */
	const struct pl_cmp_original *originals; /**< the settings' values before and after */
	size_t noriginals;
};

/** Analyse every metric of @s. Free with pl_cmp_report_free. */
void pl_cmp_report_build(struct pl_cmp_report *r, const struct pl_cmp_session *s);
/** NULL-safe. */
void pl_cmp_report_free(struct pl_cmp_report *r);

/** The terminal table, verdicts, notes, the environment and the settings' values before
 *  and after. */
void pl_cmp_print_table(FILE *f, const struct pl_cmp_report *r);
/** The JSON document (new reference). Same seed and inputs give the same bytes apart from
 *  the timing fields (runs[].resources, statistics of wait4 metrics, elapsed_s, the load,
 *  steal and others' CPU of the environment). */
json_t *pl_cmp_to_json(const struct pl_cmp_report *r);
/** A Markdown table (one row per metric, one column per variant) and the verdicts. */
void pl_cmp_write_markdown(FILE *f, const struct pl_cmp_report *r);
/** CSV: one row per metric and variant with the statistics and the verdict (RFC 4180
 *  quoting). */
void pl_cmp_write_csv(FILE *f, const struct pl_cmp_report *r);

/** Where and how pl_cmp_write_report writes. */
struct pl_cmp_dest {
	const char *path; /**< -o FILE (written atomically, util/outfile.h), NULL: stdout */
	bool json;	  /**< --json: the JSON document, else the terminal table */
	bool to_stderr;	  /**< --show-output without -o: the commands' output owns stdout */
};

/** Write the report of @r to @d (the JSON document or the table). Returns 0 or -errno with
 *  "cannot write 'FILE'..." in @err; a file is then not left half-written. */
int pl_cmp_write_report(const struct pl_cmp_report *r, const struct pl_cmp_dest *d, char *err,
			size_t errlen);

/** Write @r with @fn (pl_cmp_write_markdown or pl_cmp_write_csv) to file @path
 *  atomically. Returns 0 or -errno with "cannot write 'FILE': reason" in @err. */
int pl_cmp_export(const char *path, const struct pl_cmp_report *r,
		  void (*fn)(FILE *, const struct pl_cmp_report *), char *err, size_t errlen);

/** State of the progress line (--runs or --precision). */
struct pl_cmp_progress {
	bool on;       /**< print it (stderr is a terminal, not -q, not --show-output) */
	size_t target; /**< --runs N, 0 with --precision */
};

/** pl_cmp_progress_fn: rewrite the progress line on stderr ("round 3/10  CI half-width
 *  +-1.20%  0.4 s"); @ctx is a struct pl_cmp_progress. */
void pl_cmp_progress_show(void *ctx, const struct pl_cmp_session *s, double ci_half);
/** Erase the progress line, if it is on. */
void pl_cmp_progress_end(const struct pl_cmp_progress *p);

#endif
