/* SPDX-License-Identifier: GPL-3.0-or-later */
/* From node documents to a cluster document (report/cluster.h): the `report --from`
 * inputs read and checked (pl_cluster_scan_inputs), their nodes named
 * (pl_cluster_unique_names), and the documents of `perflab report` and of perflab-mpi's
 * commands built from them with the merge of cluster.c (pl_cluster_from_docs,
 * pl_cluster_command). */
#include "report/cluster.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/from.h"
#include "report/limits.h"
#include "util/cleanup.h"
#include "util/json.h"
#include "util/str.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char **pl_cluster_unique_names(const char *const *in, size_t n)
{
	char **out = pl_xcalloc(n + 1, sizeof(*out));
	json_t *taken = json_object(); /* every name given or made */
	json_t *first = json_object(); /* names handed out as given */
	json_t *next = json_object();  /* a repeated name -> the next suffix to try */
	for (size_t i = 0; i < n; i++)
		json_object_set_new_nocheck(taken, in[i], json_true());
	for (size_t i = 0; i < n; i++) {
		if (!json_object_get(first, in[i])) {
			json_object_set_new_nocheck(first, in[i], json_true());
			out[i] = pl_xstrdup(in[i]);
			continue;
		}
		json_int_t k = json_integer_value(json_object_get(next, in[i]));
		char *name = NULL;
		for (k = k < 2 ? 2 : k;; k++) {
			name = pl_xasprintf("%s#%lld", in[i], (long long)k);
			if (!json_object_get(taken, name))
				break;
			free(name);
		}
		json_object_set_new_nocheck(next, in[i], json_integer(k + 1));
		json_object_set_new_nocheck(taken, name, json_true());
		out[i] = name;
	}
	json_decref(taken);
	json_decref(first);
	json_decref(next);
	return out;
}

/* The nodes of @docs (pl_cluster_scan_inputs()' array), named by their "name", else
 * hostname, else source, made unique (pl_cluster_unique_names); *@names gets the @n
 * malloc'd names (free with pl_strv_free). */
static struct pl_cluster_node *nodes_of(const json_t *docs, char ***names)
{
	size_t n = json_array_size(docs);
	struct pl_cluster_node *nodes = pl_xcalloc(n ? n : 1, sizeof(*nodes));
	const char **base = pl_xcalloc(n ? n : 1, sizeof(*base));
	for (size_t i = 0; i < n; i++) {
		const json_t *e = json_array_get(docs, i);
		nodes[i].doc = json_object_get(e, "doc");
		if (!json_is_object(nodes[i].doc))
			nodes[i].doc = NULL;
		nodes[i].source = pl_json_str(e, "file");
		if (!nodes[i].source)
			nodes[i].source = "?";
		nodes[i].reason = pl_json_str(e, "reason");
		nodes[i].place = json_object_get(e, "place");
		if (!json_is_object(nodes[i].place))
			nodes[i].place = NULL;
		const char *host = pl_json_str(e, "name");
		if (!host)
			host = pl_json_str(json_object_get(nodes[i].doc, "machine"), "hostname");
		if (!host)
			host = nodes[i].source;
		base[i] = host;
	}
	*names = pl_cluster_unique_names(base, n);
	for (size_t i = 0; i < n; i++)
		nodes[i].name = (*names)[i];
	free(base);
	return nodes;
}

json_t *pl_cluster_from_docs(const json_t *docs, long long epoch)
{
	size_t n = json_array_size(docs);
	char **names;
	struct pl_cluster_node *nodes = nodes_of(docs, &names);
	json_t *doc = pl_cluster_build(nodes, n, epoch);
	pl_strv_free(names);
	free(nodes);
	return doc;
}

/* File names as given (bytes kept: a JSON string would write a byte that is not UTF-8 as
 * the text \xNN, and that name does not open). */
struct pathlist {
	char **v;
	size_t n, cap;
};

static void pathlist_add(struct pathlist *l, const char *path)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		l->v = pl_xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n++] = pl_xstrdup(path);
}

static void pathlist_free(struct pathlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/* DIR's report documents: DIR/NAME.json and DIR/SUB/report.json, sorted. */
static int expand_dir(const char *dir, struct pathlist *paths, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "cannot read directory '%s': %s", dir, strerror(errno));
		return -EINVAL;
	}
	struct pathlist found = { 0 };
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		pl_autofree char *p = pl_xasprintf("%s/%s", dir, de->d_name);
		pl_autofree char *sub = pl_xasprintf("%s/report.json", p);
		struct stat st;
		size_t len = strlen(de->d_name);
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (stat(sub, &st) == 0)
				pathlist_add(&found, sub);
		} else if (len > 5 && strcmp(de->d_name + len - 5, ".json") == 0) {
			pathlist_add(&found, p);
		}
	}
	closedir(d);
	size_t n = found.n;
	if (n > 1)
		qsort(found.v, n, sizeof(*found.v), cmp_str);
	for (size_t i = 0; i < n; i++)
		pathlist_add(paths, found.v[i]);
	pathlist_free(&found);
	if (n < 2) {
		snprintf(err, errlen,
			 "directory '%s' holds %zu report document(s); a cluster report needs 2 or "
			 "more (NODE/report.json or NAME.json)",
			 dir, n);
		return -EINVAL;
	}
	return 0;
}

int pl_cluster_scan_inputs(char *const *paths, json_t **docs, char *err, size_t errlen)
{
	*docs = NULL;
	struct pathlist files = { 0 };
	for (char *const *p = paths; p && *p; p++) {
		struct stat st;
		if (stat(*p, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (expand_dir(*p, &files, err, errlen) < 0) {
				pathlist_free(&files);
				return -EINVAL;
			}
		} else {
			pathlist_add(&files, *p);
		}
	}
	json_t *out = json_array();
	int nrep = 0;
	const char *other = NULL, *other_kind = NULL;
	for (size_t i = 0; i < files.n; i++) {
		const char *path = files.v[i];
		json_t *doc = pl_report_read_json(path, err, errlen);
		const char *kind = NULL;
		if (!doc || pl_report_check_doc(doc, path, &kind, NULL, err, errlen) < 0 ||
		    pl_doc_check_limits(doc, path, err, errlen) < 0) {
			json_decref(doc);
			nrep = -EINVAL;
			break;
		}
		if (strcmp(kind, "report") == 0) {
			if (++nrep > PL_CLUSTER_MAX_NODES) {
				snprintf(err, errlen,
					 "more than %d report documents: a cluster report takes at "
					 "most %d nodes",
					 PL_CLUSTER_MAX_NODES, PL_CLUSTER_MAX_NODES);
				json_decref(doc);
				nrep = -EINVAL;
				break;
			}
			json_t *e = json_object();
			json_object_set_new(e, "file", pl_json_string(path));
			json_object_set_new(e, "doc", doc);
			json_array_append_new(out, e);
		} else {
			if (!other) {
				other = path;
				other_kind = kind;
			}
			json_decref(doc);
		}
	}
	if (nrep >= 2 && other) {
		snprintf(err, errlen,
			 "'%s' is a %s document: a cluster report (2 or more report.json) merges "
			 "report documents only (add it to its node's report first)",
			 other, other_kind);
		nrep = -EINVAL;
	}
	if (nrep < 2)
		json_decref(out);
	else
		*docs = out;
	pathlist_free(&files);
	return nrep;
}

json_t *pl_cluster_command(const json_t *docs, const char *command, const char *bench,
			   long long epoch)
{
	size_t n = json_array_size(docs);
	char **names;
	struct pl_cluster_node *nodes = nodes_of(docs, &names);
	json_t *c = pl_cluster_build(nodes, n, epoch);
	bool check = strcmp(command, "check") == 0;
	char *kind = pl_xasprintf("cluster-%s", command);
	json_object_set_new(c, "kind", pl_json_string(kind));
	free(kind);
	json_object_del(c, "memory");
	if (!check) {
		json_object_del(c, "findings");
		json_object_del(c, "workload");
		size_t i;
		json_t *row;
		json_array_foreach(json_object_get(c, "nodes"), i, row)
			json_object_del(row, "findings");
	}
	if (strcmp(command, "inspect") != 0)
		json_object_del(c, "drift");
	if (bench)
		json_object_set_new(c, "benchmark", pl_cluster_bench(nodes, n, bench));
	pl_strv_free(names);
	free(nodes);
	return c;
}
