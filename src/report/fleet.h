/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The fleet report's inputs: `perflab report --fleet SNAPSHOT...` reads snapshot archives
 * (docs/snapshot.md, made by `perflab snapshot` on each machine) one at a time, builds
 * each machine's report document from it as `perflab report --no-bench --sysroot
 * SNAPSHOT` does (facts and findings, no benchmarks), and hands them to the cluster merge
 * (report/cluster.h) that `report --from` and perflab-mpi use: drift, findings on some
 * nodes only, odd nodes, caveats. No MPI and no shared file system: the snapshots are
 * collected by ssh, pdsh, srun or anything else that copies files. */
#ifndef PERFLAB_REPORT_FLEET_H
#define PERFLAB_REPORT_FLEET_H
#include <jansson.h>
#include <stddef.h>

/** The file name suffix of a snapshot archive that a directory given to --fleet is
 *  searched for. */
#define PL_FLEET_SUFFIX ".tar.zst"

/** The snapshot files of the --fleet arguments @paths (NULL-terminated): a regular file
 *  stands for itself, a directory for its entries named *PL_FLEET_SUFFIX that are regular
 *  files (sorted by name; entries starting with '.' skipped), in argument order. Returns
 *  the count with *@files a NULL-terminated malloc'd vector of malloc'd paths
 *  (pl_strv_free), or -EINVAL with one line in @err (@errlen bytes) and *@files NULL: a
 *  path that cannot be opened, one that is neither a file nor a directory, a directory
 *  without a snapshot, one file given twice (the same real path: its name twice, a
 *  link to it, or a directory and a file in it), fewer than 2 snapshots in all (a fleet report
 * compares machines; one machine's report is `perflab report --no-bench --sysroot FILE`), or more
 * than PL_CLUSTER_MAX_NODES. */
int pl_fleet_scan(char *const *paths, char ***files, char *err, size_t errlen);

/** The warnings about @files (pl_fleet_scan()'s, @n of them) whose bytes are the same
 *  (SHA-256 of the whole file): one machine's snapshot under two names, copied or
 *  collected twice, which the report would count as two nodes. Each is one line naming
 *  both files (the earlier first) and the fix; a file that cannot be read is left to
 *  pl_fleet_docs() to refuse. Returns a NULL-terminated malloc'd vector of malloc'd lines
 *  (pl_strv_free), NULL when there is none. */
char **pl_fleet_same_content(char *const *files, size_t n);

/** The node documents of the snapshot files @files (pl_fleet_scan()'s, @n of them), for
 *  pl_cluster_from_docs() / pl_cluster_report(): a new array of {"file": PATH, "name":
 *  NAME, "doc": DOC}. Each archive is extracted (util/archive.h: checked member by
 *  member, limits enforced) into its own directory below one private temporary directory
 *  (util/privdir.h: removed on every exit path, signals included), read as the sysroot
 *  while its document is built (report/node.h's pl_report_node_doc with workload index
 *  @workload, then its "run" as --no-bench and the findings' evidence and key numbers, as
 *  report.json has them), and removed before the next one; the sysroot is the live
 *  system again on return. The facts' "source" paths are left out of the documents (the
 *  merge reads values only). NAME is the document's machine.hostname (the facts'
 *  kernel.hostname: a redacted snapshot gives its pseudonym), else the file's name
 *  without its directory and PL_FLEET_SUFFIX; pl_cluster_from_docs() makes the names
 *  unique. All or nothing: returns NULL at the first snapshot that cannot be used, with
 *  one line in @err naming the file (and the member at fault) and the fix, and *@rc set
 *  to -EINVAL (a refused archive, or one with no facts: exit 2) or another -errno (the
 *  temporary directory could not be made or written). */
json_t *pl_fleet_docs(char *const *files, size_t n, int workload, int *rc, char *err,
		      size_t errlen);

#endif
