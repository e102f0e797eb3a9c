/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The cluster document (report/cluster.h) and the perflab-mpi command documents as the
 * terminal shows them, as report.md and report.html, and written into a report
 * directory. */
#ifndef PERFLAB_RENDER_CLUSTER_H
#define PERFLAB_RENDER_CLUSTER_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/** Print the pl_cluster_command() document @c for the terminal: the nodes, then drift
 *  with every value and its nodes (inspect), the findings on some nodes (with the nodes
 *  they are not on) and on every node (check), or a table per metric with the worst and
 *  odd node marked (bench). Every string of @c is written escaped for a terminal
 *  (util/escape.h, PL_ESC_TERM: controls and invalid UTF-8 as \xNN), so a node's
 *  hostname or fact value cannot move the cursor or forge a line. */
void pl_cluster_print_command(FILE *out, const json_t *c);

/** Render the cluster document as Markdown to @out: text from the nodes goes into table
 *  cells or lines with '|' escaped, newlines as spaces and other controls as \xNN
 *  (pl_report_md_cell). Returns 0 or -EIO. */
int pl_cluster_write_markdown(FILE *out, const json_t *cluster);

/** Render the cluster document as one self-contained HTML page (drift table, findings
 *  per node, per-node memory bars, latency heatmap and bandwidth matrix when there is a
 *  network section) to @out. Returns 0 or -EIO. */
int pl_cluster_write_html(FILE *out, const json_t *cluster);

/** Print the terminal summary of the cluster document (nodes, drift, partial findings,
 *  odd memory node, slowest pair) to @out; @dir is where the files were written. Strings
 *  of @c and @dir are escaped as in pl_cluster_print_command(). */
void pl_cluster_print_summary(FILE *out, const json_t *cluster, const char *dir);

/** Write @dir/report.json, report.md and report.html of the cluster document into the
 *  output directory @dir (util/outdir.h: created when missing, refused when another user
 *  owns it or may plant names in it; each file written to memory, then to a temporary
 *  name renamed over its name, so a symlink there is replaced, never followed). Returns 0
 *  or -errno (nothing renamed into place on failure); *@why (may be NULL) gets
 *  pl_outdir_open()'s phrase when the directory is refused, NULL otherwise. */
int pl_cluster_write_dir(const char *dir, const json_t *cluster, const char **why);

/** `report --from` of report documents: the cluster document of @docs (as
 *  pl_cluster_from_docs, dated @epoch, s since 1970) written into @dir
 *  (pl_cluster_write_dir), then the terminal summary on stdout, or the document as JSON on
 *  stdout when @json. Returns 0; -errno of writing @dir (logged with the fix: another
 *  -o DIR); -EIO when stdout cannot take the JSON. */
int pl_cluster_report(const json_t *docs, const char *dir, bool json, long long epoch);

/* The cell texts the terminal, Markdown and HTML renderers of the cluster document
 * share (render/cluster.c). */

/** How many columns the nodes table has. */
#define PL_CLUSTER_NCOLS 9
/** The columns of the nodes table: {member of a node row, heading}. */
extern const char *const pl_cluster_node_cols[PL_CLUSTER_NCOLS][2];
/** Member @k of @o as text, malloc'd: "-" when null or missing, a string as it is,
 *  mem_bytes in binary units ("23.4 GiB"), any other value as compact JSON. */
char *pl_cluster_member_text(const json_t *o, const char *k);
/** "a, b, c" of a JSON array of strings ("?" for an element that is not one), malloc'd. */
char *pl_cluster_join_names(const json_t *arr);
/** The findings counts of nodes-table row @row ("1 crit, 2 warn, 0 info"), else its
 *  "reason", else "-"; malloc'd. */
char *pl_cluster_findings_text(const json_t *row);
/** Cell [@i][@j] of matrix @k of network section @net (borrowed), NULL when absent. */
const json_t *pl_cluster_net_matrix(const json_t *net, const char *k, size_t i, size_t j);
/** The caveats of the figures @rows (each with a "caveats" array of strings) grouped by
 *  text, in first-seen order: a new array of {"text", "who": "a, b" (the rows' "node",
 *  or "a - b" of their "a" and "b")}, so a caveat every node shares is shown once. */
json_t *pl_cluster_caveat_groups(const json_t *rows);
/** The "interrupted" section of cluster document @c in one line ("interrupted by SIGTERM
 *  (rank 0) during the network phase: partial report; missing: ..."), or NULL when there
 *  is none. Malloc'd. */
char *pl_cluster_interrupted_text(const json_t *c);

#endif
