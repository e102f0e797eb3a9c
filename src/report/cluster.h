/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The cluster report: N single-host report documents (report/report.h, one per node) merged
 * into one document with a `nodes` dimension (docs/schemas/cluster.schema.json): a nodes
 * table, the facts that drift across nodes, the findings that fire on some nodes only,
 * per-node memory bandwidth with the odd node named, and (from perflab-mpi) the network
 * matrices. Used by `perflab report --from A/report.json --from B/report.json ...` and by
 * rank 0 of `perflab-mpi report`. Rendered from that document only, so both routes give the
 * same outputs. */
#ifndef PERFLAB_REPORT_CLUSTER_H
#define PERFLAB_REPORT_CLUSTER_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/** One node of a cluster: its name as the tables show it, where its document came from
 *  (a file path, or "rank 3" from perflab-mpi), and either its report document or the
 *  reason it has none (a failed or hung rank). */
struct pl_cluster_node {
	const char *name;    /**< unique across the nodes (borrowed) */
	const char *source;  /**< file or ranks (borrowed) */
	const json_t *doc;   /**< a report document (borrowed); NULL for a failed node */
	const char *reason;  /**< why @doc is NULL ("rank 2: timed out after 30 s"); else NULL */
	const json_t *place; /**< perflab-mpi: where its ranks ran (borrowed; NULL from --from):
				  {hostname, boot_id, ranks, cpus_allowed: [cpulist per rank],
				  host_ranks: the job's ranks on that host, host_cpus} */
};

/** Fact keys whose values naturally differ from node to node, so drift leaves them out
 *  (fnmatch(3) patterns over the fact key): hostname, boot id, MAC and IP addresses,
 *  serial numbers and UUIDs, uptime, free/available memory and other counters that move
 *  while the machine runs (NUMA page counters, free huge pages). NULL-terminated. */
extern const char *const pl_cluster_natural[];

/** Build the cluster document from @n nodes (@n >= 1): {"schema_version":1,
 *  "kind":"cluster", "generated", "perflab_version", "workload", "nodes":[...],
 *  "drift":{"excluded":[patterns], "facts":[{key, majority, majority_nodes, values:[{value,
 *  nodes}], odd_nodes}]}, "findings":{"partial":[...], "common":[...]}, "memory":{...}}.
 *  Per-index facts (cpu.3.cpufreq.governor) are folded into one key with each numeric
 *  segment written as '*' (cpu.*.cpufreq.governor) whose value on a node is its distinct
 *  values in order, joined by ", ". Memory is each node's STREAM triad median (bench mem,
 *  GB/s); the slowest node is "odd" when its median lies below the others' spread:
 *  under the lowest of the others by more than s, s the larger of the others' range
 *  (highest - lowest) and their largest run-to-run stddev (needs >= 3 nodes with a
 *  figure; a mispopulated DIMM channel looks like this); that spread never goes below 0.
 *  Each node row also has its run facts (pl_cluster_run_facts: host, shares_host_with,
 *  shares_cpus_with, host_ranks, host_cpus, caveats; "ranks" from the placement); each
 *  memory row the runs' "min_gbs" and "max_gbs" and "caveats" (pl_cluster_bench_caveats
 *  of its bench mem result, then the node's run caveats); memory "caveats" of the section
 *  (nodes sharing a host). @epoch is the generation time in seconds. Returns a new
 *  reference. */
json_t *pl_cluster_build(const struct pl_cluster_node *nodes, size_t n, long long epoch);

/** The nodes whose every pair is slow, from a network section (perflab-mpi's "network":
 *  "nodes" names and the n x n "latency_oneway_us" matrix in us, null where a pair was not
 *  measured): node X is slow when it has at least one measured pair and every one of them
 *  lies above the median of the pairs that do not involve X by more than s, s the larger
 *  of those other pairs' range (highest - lowest) and 10% of their median (the floor
 *  stands for run-to-run noise: one pair's ping-pong is one figure, without a stddev).
 *  Needs >= 3 nodes (with 2 there is no pair without X). A node behind a slow link or a
 *  slower NIC looks like this; the slowest pair alone does not say which end it is.
 *  Returns a new array of names (possibly empty); an empty array for a malformed section. */
json_t *pl_cluster_slow_nodes(const json_t *net);

/** Read the `report --from` inputs @paths (NULL-terminated; a directory stands for the
 *  report documents in it: DIR/NAME.json and DIR/SUB/report.json, in name order) and
 *  tell whether they form a cluster: returns the number of report documents (0 or 1: not
 *  a cluster, *@docs untouched and NULL) or, when there are 2 or more and every input is
 *  a report, sets *@docs to a new array of {"file":PATH,"doc":DOC}. Returns -EINVAL with
 *  one line in @err when an input cannot be read or checked (report/report.h's
 *  pl_report_check_doc), is past report/limits.h's sizes, when 2+ reports come with
 *  documents of another kind, when more than PL_CLUSTER_MAX_NODES reports are given, or
 *  when a directory holds fewer than 2 reports. */
int pl_cluster_scan_inputs(char *const *paths, json_t **docs, char *err, size_t errlen);

/** Node names made unique: a copy of the @n names @in where the first node with a name
 *  keeps it and each later one gets NAME#K, K the smallest number from 2 up (counting on
 *  from the last K given to NAME) that makes a name no node has, given or made ("dup",
 *  "dup", "dup#2" -> "dup", "dup#3", "dup#2"). Names are compared whole, byte for byte.
 *  Returns a NULL-terminated malloc'd array of @n malloc'd strings (pl_strv_free). */
char **pl_cluster_unique_names(const char *const *in, size_t n);

/** Build the cluster document of @docs (pl_cluster_scan_inputs()' array): node names
 *  are each element's "name", else the document's hostname, else its file, made unique
 *  with pl_cluster_unique_names(). */
json_t *pl_cluster_from_docs(const json_t *docs, long long epoch);

/** The per-node figures of benchmark @bench (the "benchmarks" member of each node's
 *  document holds its bench --json result, the last one named @bench counting):
 *  {"name":BENCH, "results":[{node, status, reason}] (every node; a node without a result
 *  is "failed"), "metrics":[{name, unit, better, "nodes":[{node, median, stddev, n, min,
 *  max, caveats, others_lo, others_hi, odd}], worst, odd:[{node, median, side, others_lo,
 *  others_hi}]}], "caveats", "note"} (caveats as pl_cluster_build's memory rows and
 *  section). Metrics in the order of first appearance; each row is a node with an "ok"
 *  result. The worst node (lowest median when higher is better, highest when lower is
 *  better, none for "neither") is odd when outside the others' spread (as memory's
 *  slowest node: beyond their worst by more than the larger of their range and largest
 *  stddev; needs >= 3 nodes with a figure). Units are the benchmark's. New reference. */
json_t *pl_cluster_bench(const struct pl_cluster_node *nodes, size_t n, const char *bench);

/** perflab-mpi inspect, check and bench NAME: the cluster document of @docs (as
 *  pl_cluster_from_docs) cut to what @command ("inspect", "check", "bench") shows, with
 *  "kind" "cluster-COMMAND" (docs/schemas/cluster-command.schema.json): inspect keeps the
 *  nodes table and drift; check the nodes table with findings counts, the workload and
 *  findings {partial, common}; bench the nodes table and "benchmark"
 *  (pl_cluster_bench of @bench, NULL for the other commands). New reference. */
json_t *pl_cluster_command(const json_t *docs, const char *command, const char *bench,
			   long long epoch);

/* ---- caveats (report/cluster_caveats.c) ---- */

/** Append to the array @out the caveats a single-node report gives figure @m (a metric
 *  of bench document @doc; NULL for the document's alone), as full sentences: the
 *  warnings and notes of report/figures.h's pl_caveats_metric() and pl_caveats_bench()
 *  (runs, spread, quick run, arrays within the caches, machine not idle, CPU steal,
 *  shared CPU), not the info items. A text already in @out is not added again. */
void pl_cluster_bench_caveats(const json_t *doc, const json_t *m, json_t *out);

/** The run's facts of the @n nodes, one object per node (a new array): {"host": name,
 *  "shares_host_with": [nodes on the same host], "shares_cpus_with": [nodes on it whose
 *  ranks may run on one of this node's CPUs], "host_ranks", "host_cpus" (null when not
 *  known), "caveats": [sentences]}. One host: the same hostname and boot id from
 *  perflab-mpi's placement (struct pl_cluster_node's place), else the same hostname
 *  (facts kernel.hostname, then machine.hostname). Caveats: sharing a host, more ranks
 *  than the host's CPUs (oversubscribed), sharing CPUs. */
json_t *pl_cluster_run_facts(const struct pl_cluster_node *nodes, size_t n);

/** Add the caveats of the network section of cluster document @c (perflab-mpi report),
 *  after its "nodes" rows have their run facts: each pair's "caveats" (its two nodes on
 *  one host: MPI's shared-memory path, not the network; the CPUs it was pinned to, or
 *  that it could not be; either host oversubscribed) and the section's "caveats" (kept,
 *  plus: every pair on one host). Does nothing without a "network". */
void pl_cluster_network_caveats(json_t *c);

#endif
