/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The documents of perflab inspect, check and bench NAME as functions of their options, so
 * the single-host commands and perflab-mpi (one document per node, merged by rank 0) build
 * them with the same code. Each logs its one error line (pl_error) and returns an exit
 * code, or -1 to go on. They are defined beside the command that owns each document
 * (src/cmd/inspect.c, check.c, bench.c), which links them into both programs. */
#ifndef PERFLAB_CLI_NODE_H
#define PERFLAB_CLI_NODE_H
#include <jansson.h>
#include <stdbool.h>

#include "bench/bench.h"
#include "cli/common.h"
#include "facts/facts.h"
#include "rules/rules.h"

/** inspect: collect the facts of the comma-separated @domains (NULL: all) into @f
 *  (pl_facts_init'd; the caller frees it). Returns -1, or PL_EXIT_USAGE after one error
 *  (an unknown domain, a --sysroot tree without a readable fact). */
int pl_inspect_collect(const char *domains, struct pl_facts *f);
/** inspect --json: {"schema_version":1,"facts":{...}} (docs/schemas/inspect.schema.json)
 *  of @f, as a new reference. */
json_t *pl_inspect_doc(const struct pl_facts *f);

/** check: collect the fact domains the rules of workload index @workload
 *  (pl_workload_names) read into @f (pl_facts_init'd), set workload.cpus to @cpus (a
 *  cpulist, may be NULL) and evaluate the rules into @fs (zeroed). With @rules_only (a
 *  caller that prints no facts, as perflab check) the collectors may leave out the facts
 *  no rule reads (pl_facts_set_wanted()). Returns -1, or PL_EXIT_USAGE after one error (a
 *  --sysroot tree without a readable fact). The caller frees @f and @fs. */
int pl_check_findings(int workload, const char *cpus, bool rules_only, struct pl_facts *f,
		      struct pl_findings *fs);

/** bench NAME: the parsed command line of one benchmark run. */
struct pl_bench_cmd {
	const struct pl_bench *b;    /**< the benchmark */
	void *opts;		     /**< its options (pl_bench_opts_new) */
	struct pl_bench_run_opts ro; /**< the runner's options */
};
/** Parse `bench ...` (@argv[0] the command name, the benchmark's name among the other
 *  arguments) against the benchmark's options, the runner's, @nextra more sets @extra (at
 *  most 2; perflab-mpi's) and the global ones. @prog and @usage_fmt ("%s" the benchmark's
 *  name) name the command in --help and errors. Returns -1 with @c filled (free it with
 *  pl_bench_cmd_free), or an exit code: 0 after --help or --list (printed on stdout),
 *  PL_EXIT_USAGE after one error (no name, an unknown benchmark, a bad option), with @c
 *  empty. */
int pl_bench_cmd_parse(int argc, char **argv, const char *usage_fmt, const struct pl_optset *extra,
		       size_t nextra, struct pl_bench_cmd *c);
/** Free what pl_bench_cmd_parse() put into @c. NULL-safe. */
void pl_bench_cmd_free(struct pl_bench_cmd *c);

#endif
