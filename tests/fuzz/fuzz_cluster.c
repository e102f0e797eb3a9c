/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The cluster merge (report/cluster.h): up to 8 node documents, the input's parts split at
 * form feeds (\f), each a JSON text. Two routes, as perflab has them:
 *  - `report --from`: the parts that pl_report_check_doc accepts as reports become the
 *    nodes of pl_cluster_from_docs, rendered as report.json, report.md, report.html and
 *    the terminal summary; a part that is not JSON is a failed node with its reason;
 *  - perflab-mpi: every part that is a JSON object, unchecked (a rank's document), merged
 *    by pl_cluster_command for inspect, check and bench clock and printed; the first
 *    part's "network" member, when an object, becomes the report's network section
 *    (pl_cluster_slow_nodes, the Markdown and HTML matrices).
 * Renderers write to /dev/null. Invariants: every node is in the nodes table, counted as
 * ok or failed, under a name no other node has (whatever the hostnames); the terminal
 * outputs hold no control character but newlines. Parts past report/limits.h's counts
 * are left out of the `report --from` route, as perflab refuses them. */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "render/cluster.h"
#include "report/cluster.h"
#include "util/json.h"
#include "report/from.h"
#include "report/limits.h"

enum { MAXNODES = 8 };

/* The terminal output of @c (pl_cluster_print_command, or with @summary the summary) has
 * no control character but newlines. */
static void check_terminal(const json_t *c, bool summary)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	FUZZ_ASSERT(m, "open_memstream");
	if (summary)
		pl_cluster_print_summary(m, c, "/nonexistent-cluster-dir");
	else
		pl_cluster_print_command(m, c);
	fclose(m);
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)buf[i];
		FUZZ_ASSERT(ch == '\n' || (ch >= 0x20 && ch != 0x7f), "no control character");
	}
	free(buf);
}

static void check_counts(const json_t *c, size_t n)
{
	json_t *names = json_object();
	size_t i;
	json_t *row;
	json_array_foreach(json_object_get(c, "nodes"), i, row) json_object_set_new_nocheck(
		names, json_string_value(json_object_get(row, "name")), json_true());
	FUZZ_ASSERT(json_object_size(names) == n, "a name of its own per node");
	json_decref(names);
	const json_t *cnt = json_object_get(c, "node_count");
	FUZZ_ASSERT(json_array_size(json_object_get(c, "nodes")) == n, "a row per node");
	FUZZ_ASSERT(json_integer_value(json_object_get(cnt, "ok")) +
				    json_integer_value(json_object_get(cnt, "failed")) ==
			    (json_int_t)n,
		    "every node ok or failed");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 20)
		return -1;
	static FILE *null;
	if (!null)
		null = fopen("/dev/null", "w");
	json_t *from = json_array(), *ranks = json_array();
	json_t *net = NULL;
	size_t start = 0;
	for (size_t i = 0; i <= size && json_array_size(ranks) < MAXNODES; i++) {
		if (i < size && data[i] != '\f')
			continue;
		char name[32];
		snprintf(name, sizeof(name), "node%zu", json_array_size(ranks));
		json_error_t je;
		json_t *doc = json_loadb((const char *)data + start, i - start, 0, &je);
		start = i + 1;
		json_t *e = json_object();
		json_object_set_new(e, "file", pl_json_string(name));
		if (!json_is_object(doc)) {
			json_object_set_new(e, "reason", pl_json_string(je.text));
			json_array_append(from, e);
			json_array_append_new(ranks, e);
			json_decref(doc);
			continue;
		}
		if (!net && json_is_object(json_object_get(doc, "network")))
			net = json_incref(json_object_get(doc, "network"));
		char err[512] = "";
		const char *kind = NULL;
		json_object_set(e, "doc", doc);
		json_array_append_new(ranks, e);
		if (pl_report_check_doc(doc, name, &kind, NULL, err, sizeof(err)) == 0 &&
		    strcmp(kind, "report") == 0 &&
		    pl_doc_check_limits(doc, name, err, sizeof(err)) == 0) {
			json_t *f = json_object();
			json_object_set_new(f, "file", pl_json_string(name));
			json_object_set(f, "doc", doc);
			json_array_append_new(from, f);
		}
		json_decref(doc);
	}
	if (json_array_size(from) >= 1) {
		json_t *c = pl_cluster_from_docs(from, 0);
		check_counts(c, json_array_size(from));
		if (net)
			json_object_set_new(c, "network", json_incref(net));
		pl_json_write(null, c);
		pl_cluster_write_markdown(null, c);
		pl_cluster_write_html(null, c);
		check_terminal(c, true);
		json_decref(c);
	}
	static const char *const cmds[] = { "inspect", "check", "bench" };
	for (size_t k = 0; k < 3 && json_array_size(ranks) >= 1; k++) {
		json_t *c = pl_cluster_command(ranks, cmds[k], k == 2 ? "clock" : NULL, 0);
		check_counts(c, json_array_size(ranks));
		pl_json_write(null, c);
		check_terminal(c, false);
		json_decref(c);
	}
	json_t *slow = pl_cluster_slow_nodes(net);
	FUZZ_ASSERT(json_is_array(slow), "slow nodes is an array");
	json_decref(slow);
	json_decref(net);
	json_decref(from);
	json_decref(ranks);
	return 0;
}
