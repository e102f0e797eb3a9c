/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One node's report document as `perflab report` builds it: the facts of this machine,
 * the findings of the rules of a workload, the benchmarks of the report's plan measured
 * in the report's file system, and what the run was ("run"). perflab report builds its
 * document with these functions; perflab-mpi builds each node's the same way before
 * rank 0 merges them (report/cluster.h). */
#ifndef PERFLAB_REPORT_NODE_H
#define PERFLAB_REPORT_NODE_H
#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "facts/facts.h"
#include "report/bench_plan.h"

/** Told before each stage of pl_report_node_doc(): @stage is "inspect" (the facts are
 *  about to be collected), then "check" (the rules are about to be evaluated); @ctx is
 *  the caller's. */
typedef void pl_report_stage_fn(const char *stage, void *ctx);

/** Build this node's report document the way `perflab report` does: collect every fact
 *  domain into @f (pl_facts_init'd; the caller frees it) with the sysctls the rules read,
 *  set "workload.cpus" to @cpus (a cpulist from --cpus; NULL: not set), evaluate the
 *  rules of workload index @workload (pl_workload_names) and build the document
 *  (pl_report_build(), dated when it is built). @stage (may be NULL) is told of each
 *  stage with @ctx. Returns a new reference, or NULL (nothing evaluated) when --sysroot
 *  names a tree in which no fact is available (the caller says why: perflab report exits
 *  2, perflab-mpi marks the node failed). */
json_t *pl_report_node_doc(struct pl_facts *f, int workload, const char *cpus,
			   pl_report_stage_fn *stage, void *ctx);

/** The directory bench io measures in for a report written into @dir: @dir when it
 *  exists, else the directory it is to be created in ("." for a name without a slash,
 *  "/" for one directly under the root). Returns 0 with it in *@workdir (malloc'd, the
 *  caller frees it), or -errno with *@workdir NULL when @dir does not exist and that
 *  parent cannot hold it (-ENOENT, -ENOTDIR, ...): a report directory that cannot be
 *  created fails before a minute of benchmarks. */
int pl_report_io_dir(const char *dir, char **workdir);

/** Run the benchmarks of @plan (pl_bench_plan_run_all(): @stop, @progress and @ctx as
 *  there) and put their results into @report's "benchmarks" ahead of the ones already
 *  there (those of --from inputs), and the counter section, each benchmark counted
 *  system-wide while it ran, into @report's "counters" (report/counters.h). Returns the
 *  seconds the benchmarks took. */
double pl_report_run_benchmarks(json_t *report, const struct pl_bench_plan *plan,
				volatile sig_atomic_t *stop,
				void (*progress)(size_t k, const char *what, void *ctx), void *ctx);

/** The report's "run" object (docs/schemas/report.schema.json): "mode" ("no-bench" when
 *  @bench is false, else pl_bench_mode_name(@mode)), "interrupted" (@interrupted), "cpus"
 *  (@cpus, left out when NULL), with @bench "budget_s" (the mode's budget, s) and
 *  "bench_elapsed_s" (@bench_s, s), and a "note" when --sysroot left the benchmarks out.
 *  New reference. */
json_t *pl_report_run_info(enum pl_bench_mode mode, bool bench, bool interrupted, const char *cpus,
			   double bench_s);

#endif
