/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The cluster merge (report/cluster.h): nodes table, drift, partial findings, memory, and
 * one benchmark's figures across the nodes (pl_cluster_bench). Reading the inputs and
 * naming the nodes is cluster_docs.c. */
#include "report/cluster.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "util/json.h"
#include "util/cleanup.h"
#include "util/clock.h"
#include "util/str.h"

const char *const pl_cluster_natural[] = {
	"kernel.hostname",
	"kernel.boot_id",
	"sysctl.kernel.hostname",
	"sysctl.kernel.random.*",
	"sysctl.kernel.ns_last_pid",
	"sysctl.fs.file-nr",
	"sysctl.fs.inode-nr",
	"sysctl.fs.dentry-state",
	"*uptime*",
	"*.mac",
	"*.address",
	"*.addresses",
	"*.ipv4",
	"*.ipv6",
	"*serial*",
	"*uuid*",
	"*.boot_id",
	"mem.available_bytes",
	"mem.free_bytes",
	"mem.hugepages.free",
	"numa.local_pages",
	"numa.other_pages",
	"numa.remote_ratio",
	"numa.node.*.free_bytes",
	NULL,
};

static bool natural(const char *key)
{
	for (const char *const *p = pl_cluster_natural; *p; p++)
		if (fnmatch(*p, key, 0) == 0)
			return true;
	return false;
}

/* "cpu.12.cpufreq.governor" -> "cpu.*.cpufreq.governor" (malloc'd). */
static char *fold_key(const char *key)
{
	struct pl_buf b = { 0 };
	const char *p = key;
	while (*p) {
		const char *dot = strchr(p, '.');
		size_t len = dot ? (size_t)(dot - p) : strlen(p);
		bool digits = len > 0 && strspn(p, "0123456789") == len;
		if (digits)
			pl_buf_puts(&b, "*");
		else
			pl_buf_append(&b, p, len);
		if (!dot)
			break;
		pl_buf_puts(&b, ".");
		p = dot + 1;
	}
	return pl_buf_steal(&b);
}

/* A fact's value as one string: strings as they are, other JSON compact, an unavailable
 * fact as "unavailable". Malloc'd. */
static char *fact_text(const json_t *fact)
{
	const json_t *v = json_object_get(fact, "value");
	if (!v)
		return pl_xstrdup("unavailable");
	if (json_is_string(v))
		return pl_xstrdup(json_string_value(v));
	char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS);
	return s ? s : pl_xstrdup("?");
}

/* The node's facts as {folded key: value text}, natural ones left out. A folded key's
 * value is its distinct values in order, joined by ", " (each value checked against a
 * set of those seen, so the work grows with the number of facts, not its square). */
static json_t *node_values(const json_t *doc)
{
	json_t *lists = json_object(); /* folded key -> [distinct values] */
	json_t *seen = json_object();  /* folded key -> {value: true} */
	const char *key;
	json_t *fact;
	json_object_foreach((json_t *)json_object_get(doc, "facts"), key, fact)
	{
		pl_autofree char *fk = fold_key(key);
		if (natural(key) || natural(fk))
			continue;
		pl_autofree char *t = fact_text(fact);
		json_t *list = json_object_get(lists, fk), *set = json_object_get(seen, fk);
		if (!list) {
			list = json_array();
			set = json_object();
			json_object_set_new_nocheck(lists, fk, list);
			json_object_set_new_nocheck(seen, fk, set);
		}
		if (json_object_get(set, t))
			continue;
		json_object_set_new_nocheck(set, t, json_true());
		json_array_append_new(list, pl_json_string(t));
	}
	json_t *out = json_object();
	const char *fk;
	json_t *list;
	json_object_foreach(lists, fk, list)
	{
		struct pl_buf b = { 0 };
		size_t i;
		json_t *v;
		json_array_foreach(list, i, v)
		{
			if (i)
				pl_buf_puts(&b, ", ");
			pl_buf_puts(&b, json_string_value(v));
		}
		pl_autofree char *joined = pl_buf_steal(&b);
		json_object_set_new_nocheck(out, fk, pl_json_string(joined ? joined : ""));
	}
	json_decref(lists);
	json_decref(seen);
	return out;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A value of a drifting fact with its number of nodes and first-seen position. */
struct by_count {
	const char *value;
	size_t count, first;
};

/* Most nodes first; ties in first-seen order (qsort is not stable: the position is the
 * tie-break). */
static int cmp_by_count(const void *a, const void *b)
{
	const struct by_count *x = a, *y = b;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return (x->first > y->first) - (x->first < y->first);
}

/* drift: every folded key whose value differs across the nodes with a document */
static json_t *build_drift(const struct pl_cluster_node *nodes, size_t n)
{
	json_t *vals = json_array(); /* per node: node_values() or null */
	json_t *keys = json_object();
	size_t nok = 0;
	for (size_t i = 0; i < n; i++) {
		json_t *v = nodes[i].doc ? node_values(nodes[i].doc) : json_null();
		if (nodes[i].doc)
			nok++;
		const char *k;
		json_t *x;
		json_object_foreach(v, k, x) json_object_set_new(keys, k, json_true());
		json_array_append_new(vals, v);
	}
	size_t nk = json_object_size(keys), ki = 0;
	const char **sorted = pl_xcalloc(nk ? nk : 1, sizeof(*sorted));
	const char *k;
	json_t *x;
	json_object_foreach(keys, k, x) sorted[ki++] = k;
	qsort(sorted, nk, sizeof(*sorted), cmp_str);

	json_t *facts = json_array();
	for (size_t j = 0; j < nk && nok >= 2; j++) {
		json_t *groups = json_object(); /* value -> [nodes] */
		json_t *order = json_array();	/* values in first-seen order */
		for (size_t i = 0; i < n; i++) {
			if (!nodes[i].doc)
				continue;
			const char *v = pl_json_str(json_array_get(vals, i), sorted[j]);
			if (!v)
				v = "absent";
			json_t *g = json_object_get(groups, v);
			if (!g) {
				g = json_array();
				json_object_set_new(groups, v, g);
				json_array_append_new(order, pl_json_string(v));
			}
			json_array_append_new(g, pl_json_string(nodes[i].name));
		}
		if (json_array_size(order) > 1) {
			/* values by node count, most first; ties keep node order */
			size_t nv = json_array_size(order);
			struct by_count *bc = pl_xcalloc(nv, sizeof(*bc));
			for (size_t q = 0; q < nv; q++) {
				bc[q].value = json_string_value(json_array_get(order, q));
				bc[q].count = json_array_size(json_object_get(groups, bc[q].value));
				bc[q].first = q;
			}
			qsort(bc, nv, sizeof(*bc), cmp_by_count);
			json_t *values = json_array();
			for (size_t r = 0; r < nv; r++) {
				json_t *e = json_object();
				json_object_set_new(e, "value", pl_json_string(bc[r].value));
				json_object_set(e, "nodes", json_object_get(groups, bc[r].value));
				json_array_append_new(values, e);
			}
			free(bc);
			json_t *d = json_object();
			json_object_set_new(d, "key", pl_json_string(sorted[j]));
			const json_t *maj = json_array_get(values, 0);
			size_t majn = json_array_size(json_object_get(maj, "nodes"));
			/* a tie has no majority: every node is listed under its value */
			bool tie = majn == json_array_size(json_object_get(
						   json_array_get(values, 1), "nodes"));
			json_object_set(d, "majority",
					tie ? json_null() : json_object_get(maj, "value"));
			json_object_set_new(d, "majority_nodes",
					    json_integer(tie ? 0 : (json_int_t)majn));
			json_t *odd = json_array();
			size_t vi;
			json_t *ve;
			json_array_foreach(values, vi, ve)
			{
				if (vi == 0 && !tie)
					continue;
				json_array_extend(odd, json_object_get(ve, "nodes"));
			}
			json_object_set_new(d, "odd_nodes", odd);
			json_object_set_new(d, "values", values);
			json_array_append_new(facts, d);
		}
		json_decref(groups);
		json_decref(order);
	}
	free(sorted);
	json_decref(keys);
	json_decref(vals);
	json_t *ex = json_array();
	for (const char *const *p = pl_cluster_natural; *p; p++)
		json_array_append_new(ex, pl_json_string(*p));
	json_t *drift = json_object();
	json_object_set_new(drift, "excluded", ex);
	json_object_set_new(drift, "facts", facts);
	return drift;
}

/* "rule.id" or "rule.id (subject)", malloc'd */
static char *finding_key(const json_t *f)
{
	const char *sub = pl_json_str(f, "subject");
	return sub ? pl_xasprintf("%s (%s)", pl_json_str(f, "id"), sub)
		   : pl_xstrdup(pl_json_str(f, "id"));
}

static json_t *build_findings(const struct pl_cluster_node *nodes, size_t n)
{
	json_t *by = json_object(); /* key -> {id, subject, severity, title, nodes} */
	json_t *order = json_array();
	size_t nok = 0;
	for (size_t i = 0; i < n; i++) {
		if (!nodes[i].doc)
			continue;
		nok++;
		size_t k;
		json_t *f;
		json_array_foreach(
			json_object_get(json_object_get(nodes[i].doc, "check"), "findings"), k, f)
		{
			pl_autofree char *key = finding_key(f);
			json_t *e = json_object_get(by, key);
			if (!e) {
				e = json_object();
				json_object_set(e, "id", json_object_get(f, "id"));
				if (json_object_get(f, "subject"))
					json_object_set(e, "subject",
							json_object_get(f, "subject"));
				json_object_set(e, "severity", json_object_get(f, "severity"));
				json_object_set(e, "title", json_object_get(f, "title"));
				json_object_set_new(e, "nodes", json_array());
				json_object_set_new(by, key, e);
				json_array_append_new(order, pl_json_string(key));
			}
			json_t *on = json_object_get(e, "nodes");
			json_t *last = json_array_get(on, json_array_size(on) - 1);
			if (!last || strcmp(json_string_value(last), nodes[i].name) != 0)
				json_array_append_new(on, pl_json_string(nodes[i].name));
		}
	}
	json_t *partial = json_array(), *common = json_array();
	size_t k;
	json_t *key;
	json_array_foreach(order, k, key)
	{
		json_t *e = json_object_get(by, json_string_value(key));
		json_t *on = json_object_get(e, "nodes");
		if (json_array_size(on) == nok) {
			json_array_append(common, e);
			continue;
		}
		json_t *off = json_array(), *onset = json_object();
		size_t q;
		json_t *x;
		json_array_foreach(on, q, x)
			json_object_set_new_nocheck(onset, json_string_value(x), json_true());
		for (size_t i = 0; i < n; i++) {
			if (nodes[i].doc && !json_object_get(onset, nodes[i].name))
				json_array_append_new(off, pl_json_string(nodes[i].name));
		}
		json_decref(onset);
		json_object_set_new(e, "not_on", off);
		json_array_append(partial, e);
	}
	json_decref(by);
	json_decref(order);
	json_t *out = json_object();
	json_object_set_new(out, "partial", partial);
	json_object_set_new(out, "common", common);
	return out;
}

/* The node's bench mem triad metric, or NULL; *@bench gets its bench document. */
static const json_t *triad_of(const json_t *doc, const json_t **bench)
{
	size_t i, j;
	json_t *b, *m;
	const json_t *found = NULL;
	json_array_foreach(json_object_get(doc, "benchmarks"), i, b)
	{
		const char *name = pl_json_str(b, "benchmark");
		const char *st = pl_json_str(b, "status");
		if (!name || strcmp(name, "mem") != 0 || !st || strcmp(st, "ok") != 0)
			continue;
		json_array_foreach(json_object_get(b, "metrics"), j, m)
		{
			const char *mn = pl_json_str(m, "name");
			if (mn && strcmp(mn, "triad") == 0 && isfinite(pl_json_num(m, "median"))) {
				found = m; /* the last run of mem wins */
				*bench = b;
			}
		}
	}
	return found;
}

/* The spread of the @m values @v (run-to-run stddevs @sd) other than index @skip: their
 * lowest minus s and highest plus s, s the larger of their range and their largest
 * stddev (the others' own spread widens their range). */
static void others_spread(const double *v, const double *sd, size_t m, size_t skip, double *lo,
			  double *hi)
{
	double l = INFINITY, h = -INFINITY, s = 0;
	for (size_t b = 0; b < m; b++) {
		if (b == skip)
			continue;
		l = fmin(l, v[b]);
		h = fmax(h, v[b]);
		s = fmax(s, sd[b]);
	}
	s = fmax(s, h - l);
	/* a bandwidth, latency or rate is never below 0: neither is the spread of them */
	*lo = l >= 0 ? fmax(l - s, 0) : l - s;
	*hi = h + s;
}

/* The run caveats of node @i (pl_cluster_run_facts' @run) appended to the array @out. */
static void add_run_caveats(const json_t *run, size_t i, json_t *out)
{
	size_t k;
	json_t *x;
	json_array_foreach(json_object_get(json_array_get(run, i), "caveats"), k, x)
		json_array_append(out, x);
}

/* The section caveat of @run when nodes share a host (NULL-safe @out), for the odd-node
 * test of a figure. */
static void add_shared_host_caveat(const json_t *run, json_t *out)
{
	size_t k, shared = 0;
	json_t *x;
	json_array_foreach(run, k, x) shared +=
		json_array_size(json_object_get(x, "shares_host_with")) > 0;
	if (!shared)
		return;
	char *t = pl_xasprintf("%zu of %zu nodes share a host with another node: their figures "
			       "are not independent machines, so the odd node and the spread "
			       "compare ranks of one machine",
			       shared, json_array_size(run));
	json_array_append_new(out, pl_json_string(t));
	free(t);
}

static json_t *build_memory(const struct pl_cluster_node *nodes, size_t n, const json_t *run)
{
	json_t *rows = json_array();
	const json_t **metric = pl_xcalloc(n ? n : 1, sizeof(*metric));
	const json_t **bench = pl_xcalloc(n ? n : 1, sizeof(*bench));
	double *v = pl_xcalloc(n ? n : 1, sizeof(*v)), *sd = pl_xcalloc(n ? n : 1, sizeof(*sd));
	size_t *idx = pl_xcalloc(n ? n : 1, sizeof(*idx));
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		const json_t *b = NULL;
		const json_t *t = nodes[i].doc ? triad_of(nodes[i].doc, &b) : NULL;
		if (!t)
			continue;
		metric[m] = t;
		bench[m] = b;
		v[m] = pl_json_num(t, "median");
		sd[m] = pl_json_num(t, "stddev");
		if (!isfinite(sd[m]))
			sd[m] = 0;
		idx[m++] = i;
	}
	json_t *odd = json_array();
	size_t slow = 0;
	for (size_t a = 1; a < m; a++)
		if (v[a] < v[slow])
			slow = a;
	for (size_t a = 0; a < m; a++) {
		json_t *r = json_object();
		json_object_set_new(r, "node", pl_json_string(nodes[idx[a]].name));
		json_object_set_new(r, "triad_gbs", json_real(v[a]));
		json_object_set_new(r, "stddev_gbs", json_real(sd[a]));
		double rmin = pl_json_num(metric[a], "min"), rmax = pl_json_num(metric[a], "max");
		if (isfinite(rmin) && isfinite(rmax) && rmin >= 0 && rmin <= rmax) {
			json_object_set_new(r, "min_gbs", json_real(rmin));
			json_object_set_new(r, "max_gbs", json_real(rmax));
		}
		json_t *cav = json_array();
		pl_cluster_bench_caveats(bench[a], metric[a], cav);
		add_run_caveats(run, idx[a], cav);
		json_object_set_new(r, "caveats", cav);
		if (m >= 3 && a == slow) {
			double lo, hi;
			others_spread(v, sd, m, a, &lo, &hi);
			json_object_set_new(r, "others_lo_gbs", json_real(lo));
			json_object_set_new(r, "others_hi_gbs", json_real(hi));
			if (v[a] < lo) {
				json_object_set_new(r, "odd", pl_json_string("below"));
				json_t *o = json_object();
				json_object_set_new(o, "node", pl_json_string(nodes[idx[a]].name));
				json_object_set_new(o, "triad_gbs", json_real(v[a]));
				json_object_set_new(o, "side", pl_json_string("below"));
				json_object_set_new(o, "others_lo_gbs", json_real(lo));
				json_object_set_new(o, "others_hi_gbs", json_real(hi));
				json_array_append_new(odd, o);
			}
		}
		json_array_append_new(rows, r);
	}
	json_t *mem = json_object();
	json_object_set_new(mem, "metric", pl_json_string("triad"));
	json_object_set_new(mem, "unit", pl_json_string("GB/s"));
	json_object_set_new(mem, "nodes", rows);
	json_object_set_new(mem, "slowest",
			    m ? pl_json_string(nodes[idx[slow]].name) : json_null());
	json_object_set_new(mem, "odd", odd);
	json_t *sec = json_array();
	if (m) /* a caveat of the figures: none without them */
		add_shared_host_caveat(run, sec);
	json_object_set_new(mem, "caveats", sec);
	json_object_set_new(
		mem, "note",
		pl_json_string(m >= 3 ? "The slowest node is odd when below the "
					"others' spread: their lowest minus s (not below "
					"0), s the larger of their range and their largest "
					"stddev"
			       : m    ? "fewer than 3 nodes with a STREAM figure: no odd "
					"node can be named"
				      : "no node has a bench mem result"));
	free(v);
	free(sd);
	free(idx);
	free(metric);
	free(bench);
	return mem;
}

/* one row of the nodes table */
static json_t *node_row(const struct pl_cluster_node *nd)
{
	json_t *r = json_object();
	json_object_set_new(r, "name", pl_json_string(nd->name));
	json_object_set_new(r, "source", pl_json_string(nd->source));
	json_object_set_new(r, "status", pl_json_string(nd->doc ? "ok" : "failed"));
	if (!nd->doc) {
		json_object_set_new(r, "reason",
				    pl_json_string(nd->reason ? nd->reason
							      : "no "
								"document"));
		return r;
	}
	const json_t *m = json_object_get(nd->doc, "machine");
	static const char *const mk[] = { "hostname", "cpu_model",   "cpus",	   "mem_bytes",
					  "kernel",   "clocksource", "hypervisor", NULL };
	for (const char *const *k = mk; *k; k++) {
		const json_t *v = json_object_get(m, *k);
		json_object_set(r, *k, v ? (json_t *)v : json_null());
	}
	static const char *const fk[][2] = { { "governor", "cpufreq.governor" },
					     { "thp", "mem.thp.enabled" },
					     { "tuned_profile", "services.tuned.profile" } };
	const json_t *facts = json_object_get(nd->doc, "facts");
	for (size_t i = 0; i < sizeof(fk) / sizeof(fk[0]); i++) {
		const json_t *v = json_object_get(json_object_get(facts, fk[i][1]), "value");
		json_object_set(r, fk[i][0], v ? (json_t *)v : json_null());
	}
	const json_t *sum = json_object_get(json_object_get(nd->doc, "check"), "summary");
	json_t *c = json_object();
	static const char *const sev[] = { "crit", "warn", "info" };
	for (size_t i = 0; i < 3; i++)
		json_object_set_new(c, sev[i], json_integer(pl_json_int(sum, sev[i])));
	json_object_set_new(r, "findings", c);
	return r;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

json_t *pl_cluster_slow_nodes(const json_t *net)
{
	json_t *slow = json_array();
	const json_t *names = json_object_get(net, "nodes");
	const json_t *lat = json_object_get(net, "latency_oneway_us");
	size_t n = json_array_size(names);
	if (n < 3 || json_array_size(lat) != n)
		return slow;
	double *others = pl_xcalloc(n * n, sizeof(*others));
	for (size_t x = 0; x < n; x++) {
		double mine_lo = INFINITY;
		size_t no = 0, nmine = 0;
		for (size_t i = 0; i < n; i++)
			for (size_t j = i + 1; j < n; j++) {
				const json_t *v = json_array_get(json_array_get(lat, i), j);
				if (!json_is_number(v) || !isfinite(json_number_value(v)))
					continue;
				double d = json_number_value(v);
				if (i == x || j == x) {
					mine_lo = fmin(mine_lo, d);
					nmine++;
				} else {
					others[no++] = d;
				}
			}
		if (!nmine || !no)
			continue;
		qsort(others, no, sizeof(*others), cmp_double);
		double med = no % 2 ? others[no / 2] : (others[no / 2 - 1] + others[no / 2]) / 2;
		double s = fmax(others[no - 1] - others[0], 0.1 * med);
		const char *name = json_string_value(json_array_get(names, x));
		if (mine_lo > med + s && name)
			json_array_append_new(slow, pl_json_string(name));
	}
	free(others);
	return slow;
}

json_t *pl_cluster_build(const struct pl_cluster_node *nodes, size_t n, long long epoch)
{
	char ts[32];
	json_t *doc = json_object();
	json_object_set_new(doc, "schema_version", json_integer(1));
	json_object_set_new(doc, "kind", pl_json_string("cluster"));
	json_object_set_new(doc, "generated", pl_json_string(pl_iso8601(epoch, ts, sizeof(ts))));
	json_object_set_new(doc, "perflab_version", pl_json_string(PERFLAB_VERSION));
	const char *wl = NULL;
	json_t *rows = json_array();
	json_t *run = pl_cluster_run_facts(nodes, n);
	size_t nok = 0;
	for (size_t i = 0; i < n; i++) {
		json_t *row = node_row(&nodes[i]);
		json_object_update(row, json_array_get(run, i));
		if (nodes[i].place)
			json_object_set(row, "ranks", json_object_get(nodes[i].place, "ranks"));
		json_array_append_new(rows, row);
		if (nodes[i].doc) {
			nok++;
			if (!wl)
				wl = pl_json_str(json_object_get(nodes[i].doc, "check"),
						 "workload");
		}
	}
	json_object_set_new(doc, "workload", pl_json_string(wl ? wl : "general"));
	json_t *cnt = json_object();
	json_object_set_new(cnt, "total", json_integer((json_int_t)n));
	json_object_set_new(cnt, "ok", json_integer((json_int_t)nok));
	json_object_set_new(cnt, "failed", json_integer((json_int_t)(n - nok)));
	json_object_set_new(doc, "node_count", cnt);
	json_object_set_new(doc, "nodes", rows);
	json_object_set_new(doc, "drift", build_drift(nodes, n));
	json_object_set_new(doc, "findings", build_findings(nodes, n));
	json_object_set_new(doc, "memory", build_memory(nodes, n, run));
	json_decref(run);
	return doc;
}

/* The node's result of benchmark @bench in its "benchmarks" (the last one), or NULL. */
static const json_t *bench_of(const json_t *doc, const char *bench)
{
	size_t i;
	json_t *b;
	const json_t *found = NULL;
	json_array_foreach(json_object_get(doc, "benchmarks"), i, b)
	{
		const char *name = pl_json_str(b, "benchmark");
		if (name && strcmp(name, bench) == 0)
			found = b;
	}
	return found;
}

/* The node's result of @bench when its status is "ok", else NULL. */
static const json_t *ok_result(const struct pl_cluster_node *nd, const char *bench)
{
	const json_t *b = nd->doc ? bench_of(nd->doc, bench) : NULL;
	const char *st = pl_json_str(b, "status");
	return st && strcmp(st, "ok") == 0 ? b : NULL;
}

/* One metric of bench @bench across the nodes: their medians, the worst node, the odd one. */
static json_t *bench_metric(const struct pl_cluster_node *nodes, size_t n, const char *bench,
			    const json_t *proto, const json_t *run)
{
	const char *mname = pl_json_str(proto, "name");
	const char *better = pl_json_str(proto, "better");
	bool higher = better && strcmp(better, "higher") == 0;
	bool neither = !better || strcmp(better, "neither") == 0;
	json_t *rows = json_array(), *odd = json_array();
	double *v = pl_xcalloc(n ? n : 1, sizeof(*v)), *sd = pl_xcalloc(n ? n : 1, sizeof(*sd));
	size_t *idx = pl_xcalloc(n ? n : 1, sizeof(*idx));
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j;
		json_t *x;
		json_array_foreach(json_object_get(ok_result(&nodes[i], bench), "metrics"), j, x)
		{
			const char *xn = pl_json_str(x, "name");
			double med = pl_json_num(x, "median");
			if (!xn || strcmp(xn, mname) != 0 || !isfinite(med))
				continue;
			v[m] = med;
			sd[m] = isfinite(pl_json_num(x, "stddev")) ? pl_json_num(x, "stddev") : 0;
			idx[m++] = i;
			json_t *r = json_object();
			json_object_set_new(r, "node", pl_json_string(nodes[i].name));
			json_object_set_new(r, "median", json_real(med));
			json_object_set_new(r, "stddev", json_real(sd[m - 1]));
			json_object_set_new(r, "n", json_integer(pl_json_int(x, "n")));
			double lo = pl_json_num(x, "min"), hi = pl_json_num(x, "max");
			if (isfinite(lo) && isfinite(hi) && lo <= hi) {
				json_object_set_new(r, "min", json_real(lo));
				json_object_set_new(r, "max", json_real(hi));
			}
			json_t *cav = json_array();
			pl_cluster_bench_caveats(ok_result(&nodes[i], bench), x, cav);
			add_run_caveats(run, i, cav);
			json_object_set_new(r, "caveats", cav);
			json_array_append_new(rows, r);
			break;
		}
	}
	size_t w = 0;
	for (size_t a = 1; a < m; a++)
		if (higher ? v[a] < v[w] : v[a] > v[w])
			w = a;
	if (m >= 3 && !neither) {
		double lo, hi;
		others_spread(v, sd, m, w, &lo, &hi);
		json_t *r = json_array_get(rows, w);
		json_object_set_new(r, "others_lo", json_real(lo));
		json_object_set_new(r, "others_hi", json_real(hi));
		if (higher ? v[w] < lo : v[w] > hi) {
			const char *side = higher ? "below" : "above";
			json_object_set_new(r, "odd", pl_json_string(side));
			json_t *o = json_object();
			json_object_set_new(o, "node", pl_json_string(nodes[idx[w]].name));
			json_object_set_new(o, "median", json_real(v[w]));
			json_object_set_new(o, "side", pl_json_string(side));
			json_object_set_new(o, "others_lo", json_real(lo));
			json_object_set_new(o, "others_hi", json_real(hi));
			json_array_append_new(odd, o);
		}
	}
	json_t *out = json_object();
	json_object_set_new(out, "name", pl_json_string(mname));
	json_object_set_new(out, "unit", pl_json_string(pl_json_str(proto, "unit")));
	json_object_set_new(out, "better",
			    pl_json_string(neither  ? "neither"
					   : higher ? "higher"
						    : "lower"));
	json_object_set_new(out, "nodes", rows);
	json_object_set_new(out, "worst",
			    m && !neither ? pl_json_string(nodes[idx[w]].name) : json_null());
	json_object_set_new(out, "odd", odd);
	free(v);
	free(sd);
	free(idx);
	return out;
}

json_t *pl_cluster_bench(const struct pl_cluster_node *nodes, size_t n, const char *bench)
{
	json_t *metrics = json_array(), *seen = json_object(), *status = json_array();
	json_t *run = pl_cluster_run_facts(nodes, n);
	for (size_t i = 0; i < n; i++) {
		const json_t *b = nodes[i].doc ? bench_of(nodes[i].doc, bench) : NULL;
		json_t *st = json_object();
		json_object_set_new(st, "node", pl_json_string(nodes[i].name));
		const char *s = pl_json_str(b, "status");
		json_object_set_new(st, "status", pl_json_string(s ? s : "failed"));
		const char *why = b ? pl_json_str(b, "reason") : nodes[i].reason;
		if (why || !s)
			json_object_set_new(
				st, "reason",
				pl_json_string(why ? why : "no result of the benchmark"));
		json_array_append_new(status, st);
		size_t j;
		json_t *x;
		json_array_foreach(json_object_get(ok_result(&nodes[i], bench), "metrics"), j, x)
		{
			const char *mn = pl_json_str(x, "name");
			if (!mn || json_object_get(seen, mn))
				continue;
			json_object_set_new(seen, mn, json_true());
			json_array_append_new(metrics, bench_metric(nodes, n, bench, x, run));
		}
	}
	json_decref(seen);
	json_t *out = json_object();
	json_object_set_new(out, "name", pl_json_string(bench));
	json_object_set_new(out, "results", status);
	json_object_set_new(out, "metrics", metrics);
	json_t *sec = json_array();
	add_shared_host_caveat(run, sec);
	json_object_set_new(out, "caveats", sec);
	json_decref(run);
	json_object_set_new(
		out, "note",
		pl_json_string("Each metric's worst node (lowest when higher is better, else "
			       "highest) is odd when outside the others' spread: their worst "
			       "side by more than s (a spread not below 0 for figures that are "
			       "not), s the larger of their range and their largest "
			       "stddev (needs 3 or more nodes with a figure)"));
	return out;
}
