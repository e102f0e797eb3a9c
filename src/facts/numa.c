/* SPDX-License-Identifier: GPL-3.0-or-later */
/* numa.*: nodes, their CPUs and memory, the SLIT distance matrix and how many
 * allocations landed off-node (Documentation/ABI/stable/sysfs-devices-node;
 * numastat's local_node/other_node, Documentation/admin-guide/numastat.rst). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "facts/collectors.h"
#include "util/json.h"
#include "util/cpuset.h"
#include "util/str.h"
#include "util/sysroot.h"

#define NODE_DIR "/sys/devices/system/node"

int pl_numastat_parse(const char *text, uint64_t *local, uint64_t *other)
{
	bool hl = false, ho = false;
	uint64_t l = 0, o = 0;
	char **lines = pl_split(text ? text : "", "\n", NULL);
	for (char **p = lines; *p; p++) {
		char **w = pl_split(*p, " \t", NULL);
		if (w[0] && w[1] && !w[2]) {
			if (strcmp(w[0], "local_node") == 0)
				hl = pl_parse_u64(w[1], &l) == 0;
			else if (strcmp(w[0], "other_node") == 0)
				ho = pl_parse_u64(w[1], &o) == 0;
		}
		pl_strv_free(w);
	}
	pl_strv_free(lines);
	if (!hl || !ho)
		return -EINVAL;
	if (l > UINT64_MAX - *local || o > UINT64_MAX - *other)
		return -ERANGE; /* counts of pages summed over nodes cannot pass 2^64 */
	*local += l;
	*other += o;
	return 0;
}

/* Node numbers from the online list, falling back to the nodeN directories. */
static int node_set(struct pl_cpuset *nodes, const char **src)
{
	char *s;
	pl_cpuset_clear(nodes);
	*src = NODE_DIR "/online";
	int r = pl_read_str(NODE_DIR "/online", &s);
	if (r == 0) {
		r = pl_cpuset_parse(s, nodes);
		free(s);
		if (r == 0 && pl_cpuset_count(nodes))
			return 0;
	}
	char **names;
	int e = pl_list_dir(NODE_DIR, &names, NULL);
	if (e < 0)
		return e;
	*src = NODE_DIR "/node*";
	for (char **n = names; *n; n++) {
		uint64_t k;
		if (pl_startswith(*n, "node") && pl_parse_u64(*n + 4, &k) == 0 && k < PL_MAX_CPUS)
			pl_cpuset_set(nodes, (unsigned)k);
	}
	pl_strv_free(names);
	return pl_cpuset_count(nodes) ? 0 : -ENOENT;
}

static void collect_node(struct pl_facts *f, int n)
{
	char key[96], path[128], *s;
	int r;
	snprintf(key, sizeof(key), "numa.node.%d.cpus", n);
	snprintf(path, sizeof(path), NODE_DIR "/node%d/cpulist", n);
	if ((r = pl_read_file(path, &s, NULL)) == 0) {
		struct pl_cpuset set;
		char *t = pl_trim(s);
		if (pl_cpuset_parse(t, &set) == 0)
			pl_fact_str(f, key, t, path); /* "" for a memory-only node */
		else
			pl_fact_unavailable(f, key, "%s: not a CPU list", path);
		free(s);
	} else {
		pl_fact_unavailable(f, key, "%s: %s", path, pl_read_strerror(r));
	}
	snprintf(key, sizeof(key), "numa.node.%d.mem_bytes", n);
	snprintf(path, sizeof(path), NODE_DIR "/node%d/meminfo", n);
	if ((r = pl_read_file(path, &s, NULL)) == 0) {
		uint64_t v;
		if (pl_meminfo_get(s, "MemTotal", &v) == 0)
			pl_fact_uint(f, key, v, path);
		else
			pl_fact_unavailable(f, key, "%s: no MemTotal line", path);
		free(s);
	} else {
		pl_fact_unavailable(f, key, "%s: %s", path, pl_read_strerror(r));
	}
}

static void collect_distance(struct pl_facts *f, const struct pl_cpuset *nodes, unsigned count)
{
	pl_autojson json_t *m = json_array();
	for (int n = pl_cpuset_next(nodes, 0); n >= 0; n = pl_cpuset_next(nodes, (unsigned)n + 1)) {
		pl_autofree char *s = NULL;
		char path[128];
		snprintf(path, sizeof(path), NODE_DIR "/node%d/distance", n);
		int r = pl_read_str(path, &s);
		if (r < 0) {
			pl_fact_unavailable(f, "numa.distance", "%s: %s", path,
					    pl_read_strerror(r));
			return;
		}
		pl_autostrv char **w = pl_split(s, " \t", NULL);
		pl_autojson json_t *row = json_array();
		size_t k = 0;
		bool bad = false;
		for (; w[k]; k++) {
			uint64_t d;
			if (pl_parse_u64(w[k], &d) < 0 || d > 255) {
				bad = true;
				break;
			}
			json_array_append_new(row, json_integer((json_int_t)d));
		}
		if (bad || k != count) {
			pl_fact_unavailable(f, "numa.distance", "%s: expected %u numbers (0..255)",
					    path, count);
			return;
		}
		json_array_append_new(m, pl_steal_ptr(&row));
	}
	pl_fact_set(f, "numa.distance", pl_steal_ptr(&m), NODE_DIR "/node*/distance");
}

static void collect_remote(struct pl_facts *f, const struct pl_cpuset *nodes)
{
	uint64_t local = 0, other = 0;
	for (int n = pl_cpuset_next(nodes, 0); n >= 0; n = pl_cpuset_next(nodes, (unsigned)n + 1)) {
		char path[128], *s;
		snprintf(path, sizeof(path), NODE_DIR "/node%d/numastat", n);
		int r = pl_read_file(path, &s, NULL);
		if (r == 0) {
			r = pl_numastat_parse(s, &local, &other);
			free(s);
		}
		if (r < 0) {
			pl_fact_unavailable(f, "numa.remote_ratio", "%s: %s", path,
					    r == -EINVAL   ? "no local_node/other_node numbers"
					    : r == -ERANGE ? "counts out of range"
							   : pl_read_strerror(r));
			return;
		}
	}
	if (local > UINT64_MAX - other) {
		pl_fact_unavailable(f, "numa.remote_ratio", "numastat: counts out of range");
		return;
	}
	if (local + other == 0) {
		pl_fact_unavailable(f, "numa.remote_ratio", "numastat: no allocations counted yet");
		return;
	}
	pl_fact_set(f, "numa.remote_ratio", json_real((double)other / (double)(local + other)),
		    NODE_DIR "/node*/numastat");
	pl_fact_uint(f, "numa.local_pages", local, NODE_DIR "/node*/numastat");
	pl_fact_uint(f, "numa.other_pages", other, NODE_DIR "/node*/numastat");
}

void pl_collect_numa(struct pl_facts *f)
{
	struct pl_cpuset nodes;
	const char *src;
	int r = node_set(&nodes, &src);
	if (r < 0) {
		static const char *const keys[] = { "numa.nodes", "numa.distance",
						    "numa.remote_ratio", NULL };
		for (const char *const *k = keys; *k; k++)
			pl_fact_unavailable(f, *k,
					    NODE_DIR ": %s (kernel without NUMA or no sysfs)",
					    pl_read_strerror(r));
		return;
	}
	unsigned count = pl_cpuset_count(&nodes);
	pl_fact_int(f, "numa.nodes", count, src);
	for (int n = pl_cpuset_next(&nodes, 0); n >= 0; n = pl_cpuset_next(&nodes, (unsigned)n + 1))
		collect_node(f, n);
	collect_distance(f, &nodes, count);
	collect_remote(f, &nodes);
}
