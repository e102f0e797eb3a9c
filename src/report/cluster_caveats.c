/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The caveats of the cluster report's figures (report/cluster.h): each node's benchmark
 * caveats as its single-node report gives them (report/figures.h), and those of the run:
 * nodes sharing a host, more ranks than a host's CPUs, ranks sharing CPUs, and network
 * pairs whose two ranks share a host. */
#include <stdlib.h>
#include <string.h>

#include "report/cluster.h"
#include "report/figures.h"
#include "util/cpuset.h"
#include "util/json.h"
#include "util/str.h"

/* Append @text to the array @out unless it is there already. */
static void add_once(json_t *out, const char *text)
{
	size_t i;
	json_t *x;
	json_array_foreach(out, i, x) if (strcmp(json_string_value(x), text) == 0) return;
	json_array_append_new(out, pl_json_string(text));
}

/* The warnings and notes of @cs into @out (not the info items). */
static void add_caveats(json_t *out, const struct pl_caveats *cs)
{
	for (size_t k = 0; k < cs->n; k++)
		if (cs->v[k].kind != PL_CAVEAT_INFO)
			add_once(out, cs->v[k].text);
}

void pl_cluster_bench_caveats(const json_t *doc, const json_t *m, json_t *out)
{
	struct pl_caveats mc = { 0 }, bc = { 0 };
	if (m)
		pl_caveats_metric(doc, m, &mc);
	pl_caveats_bench(doc, &bc);
	add_caveats(out, &mc);
	add_caveats(out, &bc);
	pl_caveats_free(&mc);
	pl_caveats_free(&bc);
}

/* Node @nd's host as "HOSTNAME" plus, from the placement, "\nBOOT_ID" (malloc'd), or
 * NULL when unknown. */
static char *host_key(const struct pl_cluster_node *nd)
{
	const char *h = pl_json_str(nd->place, "hostname");
	if (h)
		return pl_xasprintf(
			"%s\n%s", h,
			pl_json_str(nd->place, "boot_id") ? pl_json_str(nd->place, "boot_id") : "");
	h = pl_json_str(json_object_get(json_object_get(nd->doc, "facts"), "kernel.hostname"),
			"value");
	if (!h)
		h = pl_json_str(json_object_get(nd->doc, "machine"), "hostname");
	return h ? pl_xstrdup(h) : NULL;
}

/* The union of the cpulists of node @nd's ranks into @s; false when there are none. */
static bool node_cpus(const struct pl_cluster_node *nd, struct pl_cpuset *s)
{
	pl_cpuset_clear(s);
	bool any = false;
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(nd->place, "cpus_allowed"), i, x)
	{
		struct pl_cpuset one;
		if (!json_is_string(x) || pl_cpuset_parse(json_string_value(x), &one) < 0)
			continue;
		for (size_t w = 0; w < PL_MAX_CPUS / 64; w++)
			s->bits[w] |= one.bits[w];
		any = true;
	}
	return any;
}

/* The CPUs in both @a and @b into @out; false when none. */
static bool cpus_common(const struct pl_cpuset *a, const struct pl_cpuset *b, struct pl_cpuset *out)
{
	bool any = false;
	for (size_t w = 0; w < PL_MAX_CPUS / 64; w++) {
		out->bits[w] = a->bits[w] & b->bits[w];
		any = any || out->bits[w];
	}
	return any;
}

json_t *pl_cluster_run_facts(const struct pl_cluster_node *nodes, size_t n)
{
	char **keys = pl_xcalloc(n ? n : 1, sizeof(*keys));
	struct pl_cpuset *cpus = pl_xcalloc(n ? n : 1, sizeof(*cpus));
	bool *has_cpus = pl_xcalloc(n ? n : 1, sizeof(*has_cpus));
	for (size_t i = 0; i < n; i++) {
		keys[i] = host_key(&nodes[i]);
		has_cpus[i] = node_cpus(&nodes[i], &cpus[i]);
	}
	json_t *out = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *f = json_object(), *share = json_array(), *cshare = json_array();
		json_t *cav = json_array();
		struct pl_cpuset common, all;
		pl_cpuset_clear(&all);
		for (size_t j = 0; j < n && keys[i]; j++) {
			if (j == i || !keys[j] || strcmp(keys[i], keys[j]) != 0)
				continue;
			json_array_append_new(share, pl_json_string(nodes[j].name));
			if (has_cpus[i] && has_cpus[j] &&
			    cpus_common(&cpus[i], &cpus[j], &common)) {
				json_array_append_new(cshare, pl_json_string(nodes[j].name));
				for (size_t w = 0; w < PL_MAX_CPUS / 64; w++)
					all.bits[w] |= common.bits[w];
			}
		}
		const char *host = keys[i] ? keys[i] : "?";
		size_t hl = strcspn(host, "\n");
		bool booted = nodes[i].place != NULL;
		pl_autofree char *hname = pl_xasprintf("%.*s", (int)hl, host);
		json_object_set_new(f, "host", keys[i] ? pl_json_string(hname) : json_null());
		const json_t *hr = json_object_get(nodes[i].place, "host_ranks");
		const json_t *hc = json_object_get(nodes[i].place, "host_cpus");
		json_object_set_new(f, "host_ranks",
				    json_is_integer(hr) ? json_copy((json_t *)hr) : json_null());
		json_object_set_new(f, "host_cpus",
				    json_is_integer(hc) && json_integer_value(hc) > 0
					    ? json_copy((json_t *)hc)
					    : json_null());
		if (json_array_size(share)) {
			size_t k = json_array_size(share);
			pl_autofree char *t = pl_xasprintf(
				"shares host %s with %zu other node%s (%s; shares_host_with names "
				"them): not an independent machine; figures taken at the same time "
				"split the host's CPUs, memory bandwidth and caches",
				hname, k, k == 1 ? "" : "s",
				booted ? "one hostname and boot id" : "one hostname");
			add_once(cav, t);
		}
		if (json_is_integer(hr) && json_is_integer(hc) && json_integer_value(hc) > 0 &&
		    json_integer_value(hr) > json_integer_value(hc)) {
			pl_autofree char *t = pl_xasprintf(
				"oversubscribed: host %s runs %lld MPI ranks on %lld CPUs, so "
				"ranks "
				"take turns on the CPUs and the figures include the waiting",
				hname, (long long)json_integer_value(hr),
				(long long)json_integer_value(hc));
			add_once(cav, t);
		}
		if (json_array_size(cshare)) {
			char list[256];
			size_t k = json_array_size(cshare);
			pl_autofree char *t = pl_xasprintf(
				"shares CPUs %s with %zu other node%s (shares_cpus_with names "
				"them): "
				"their ranks may run on the same CPUs, so each figure includes "
				"that "
				"sharing (bind the ranks apart, e.g. mpirun --bind-to core)",
				pl_cpuset_format(&all, list, sizeof(list)), k, k == 1 ? "" : "s");
			add_once(cav, t);
		}
		json_object_set_new(f, "shares_host_with", share);
		json_object_set_new(f, "shares_cpus_with", cshare);
		json_object_set_new(f, "caveats", cav);
		json_array_append_new(out, f);
	}
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	free(cpus);
	free(has_cpus);
	return out;
}

/* The row of node @name in cluster document @c's "nodes", or NULL. */
static const json_t *node_row_of(const json_t *c, const char *name)
{
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(c, "nodes"), i, r)
	{
		const char *nm = pl_json_str(r, "name");
		if (name && nm && strcmp(nm, name) == 0)
			return r;
	}
	return NULL;
}

/* Whether node row @ra names node @b among those on its host. */
static bool shares_host(const json_t *ra, const char *b)
{
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(ra, "shares_host_with"), i, x)
	{
		if (b && json_is_string(x) && strcmp(json_string_value(x), b) == 0)
			return true;
	}
	return false;
}

void pl_cluster_network_caveats(json_t *c)
{
	json_t *net = json_object_get(c, "network");
	if (!net)
		return;
	json_t *sec = json_object_get(net, "caveats");
	if (!json_is_array(sec)) {
		sec = json_array();
		json_object_set_new(net, "caveats", sec);
	}
	size_t i, npairs = 0, nlocal = 0;
	json_t *pr;
	json_array_foreach(json_object_get(net, "pairs"), i, pr)
	{
		const char *a = pl_json_str(pr, "a"), *b = pl_json_str(pr, "b");
		const json_t *ra = node_row_of(c, a), *rb = node_row_of(c, b);
		const json_t *sh = json_object_get(pr, "same_host");
		bool local = json_is_boolean(sh) ? json_is_true(sh) : shares_host(ra, b);
		json_t *cav = json_array();
		npairs++;
		if (local) {
			nlocal++;
			const char *h = pl_json_str(ra, "host");
			pl_autofree char *t = pl_xasprintf(
				"both ranks on host %s: the pair measures MPI's shared-memory path "
				"on one machine (loopback), not the network",
				h ? h : "?");
			add_once(cav, t);
			const json_t *pc = json_object_get(pr, "cpus");
			if (json_array_size(pc) == 2) {
				pl_autofree char *p = pl_xasprintf(
					"the two ranks pinned to CPUs %lld and %lld for the pair "
					"(so "
					"they do not take turns on one CPU)",
					(long long)json_integer_value(json_array_get(pc, 0)),
					(long long)json_integer_value(json_array_get(pc, 1)));
				add_once(cav, p);
			} else {
				add_once(cav,
					 "not pinned apart (no two distinct CPUs allowed): the "
					 "two ranks may have taken turns on one CPU");
			}
		}
		const json_t *rows[2] = { ra, rb };
		for (int k = 0; k < 2; k++) {
			size_t j;
			json_t *x;
			json_array_foreach(json_object_get(rows[k], "caveats"), j, x)
			{
				if (pl_startswith(json_string_value(x), "oversubscribed"))
					add_once(cav, json_string_value(x));
			}
		}
		json_object_set_new(pr, "caveats", cav);
	}
	if (npairs && nlocal == npairs)
		add_once(sec, "every pair is on one host: the matrices measure MPI's shared-memory "
			      "path (loopback), not the network; the slowest pair and slow nodes "
			      "say nothing about links");
	else if (nlocal) {
		pl_autofree char *t = pl_xasprintf(
			"%zu of %zu pairs are on one host: those measure MPI's shared-memory path "
			"(loopback), not the network",
			nlocal, npairs);
		add_once(sec, t);
	}
}
