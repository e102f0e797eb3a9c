/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The latency matrix analysis of the cluster merge (report/cluster.h pl_cluster_slow_nodes)
 * on synthetic matrices: which node has every pair slow, and when none is named; and the
 * per-node benchmark table (pl_cluster_bench): the worst node, odd only outside the
 * others' spread, in the direction the metric says is better; node names made unique
 * (pl_cluster_unique_names) whatever names the nodes bring; the run's caveats of shared
 * hosts, oversubscription, shared CPUs and loopback pairs (pl_cluster_run_facts,
 * pl_cluster_network_caveats). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/cluster.h"
#include "util/str.h"

/* A network section of @n nodes "n0".."n{n-1}" with the symmetric one-way matrix @m
 * (row-major n x n; NAN = not measured; the diagonal is null). */
static json_t *net_of(size_t n, const double *m)
{
	json_t *net = json_object(), *names = json_array(), *lat = json_array();
	for (size_t i = 0; i < n; i++) {
		char nm[32];
		snprintf(nm, sizeof(nm), "n%zu", i);
		json_array_append_new(names, json_string(nm));
		json_t *row = json_array();
		for (size_t j = 0; j < n; j++)
			json_array_append_new(row, i == j || isnan(m[i * n + j])
							   ? json_null()
							   : json_real(m[i * n + j]));
		json_array_append_new(lat, row);
	}
	json_object_set_new(net, "nodes", names);
	json_object_set_new(net, "latency_oneway_us", lat);
	return net;
}

static char *names_of(const json_t *a)
{
	static char buf[128];
	buf[0] = '\0';
	size_t i;
	const json_t *v;
	json_array_foreach(a, i, v)
	{
		if (i)
			strcat(buf, ",");
		strcat(buf, json_string_value(v));
	}
	return buf;
}

static void check(size_t n, const double *m, const char *want)
{
	json_t *net = net_of(n, m);
	json_t *slow = pl_cluster_slow_nodes(net);
	assert_non_null(slow);
	assert_string_equal(names_of(slow), want);
	json_decref(slow);
	json_decref(net);
}

/* 4 nodes, n2's three pairs at ~23 us (TCP), the other three pairs ~1 us (shm) */
static void one_slow_node(void **state)
{
	(void)state;
	const double m[16] = { 0,    1.0,  23.0, 1.2,  1.0, 0,	 22.5, 1.1,
			       23.0, 22.5, 0,	 24.0, 1.2, 1.1, 24.0, 0 };
	check(4, m, "n2");
}

/* the same matrix with one of n2's pairs as fast as the rest: not every pair is slow */
static void one_fast_pair_clears_it(void **state)
{
	(void)state;
	const double m[16] = { 0,    1.0,  1.05, 1.2,  1.0, 0,	 22.5, 1.1,
			       1.05, 22.5, 0,	 24.0, 1.2, 1.1, 24.0, 0 };
	check(4, m, "");
}

/* uniform within noise: 3 nodes at 1.00/1.05/1.08 us (under the 10% floor) */
static void uniform_names_none(void **state)
{
	(void)state;
	const double m[9] = { 0, 1.0, 1.05, 1.0, 0, 1.08, 1.05, 1.08, 0 };
	check(3, m, "");
}

/* 3 nodes: n0 - n1 fast, both pairs of n2 slow; n2 is named, and only n2 */
static void three_nodes(void **state)
{
	(void)state;
	const double m[9] = { 0, 0.2, 5.0, 0.2, 0, 5.5, 5.0, 5.5, 0 };
	check(3, m, "n2");
}

/* the others' own range widens the threshold: n3's pairs (3.0..3.2) are within the
 * others' spread (1.0..3.5 + 2.5) */
static void within_others_spread(void **state)
{
	(void)state;
	const double m[16] = { 0,   1.0, 3.5, 3.0, 1.0, 0,   2.0, 3.1,
			       3.5, 2.0, 0,   3.2, 3.0, 3.1, 3.2, 0 };
	check(4, m, "");
}

/* unmeasured pairs are left out; 2 nodes never name one; a malformed section gives [] */
static void edges(void **state)
{
	(void)state;
	const double m[16] = { 0,    1.0,  20.0, NAN, 1.0, 0,	21.0, 1.1,
			       20.0, 21.0, 0,	 NAN, NAN, 1.1, NAN,  0 };
	check(4, m, "n2");
	const double two[4] = { 0, 50.0, 50.0, 0 };
	check(2, two, "");
	json_t *bad =
		json_pack("{s:[s,s,s],s:s}", "nodes", "a", "b", "c", "latency_oneway_us", "x");
	json_t *slow = pl_cluster_slow_nodes(bad);
	assert_int_equal(json_array_size(slow), 0);
	json_decref(slow);
	json_decref(bad);
	slow = pl_cluster_slow_nodes(NULL);
	assert_int_equal(json_array_size(slow), 0);
	json_decref(slow);
}

/* A node whose document holds one bench NAME result with metric "m" (@better) of
 * median @med and stddev @sd; @med NAN: a skipped result. */
static json_t *bench_node(const char *better, double med, double sd)
{
	if (isnan(med))
		return json_pack("{s:[{s:s,s:s,s:s}]}", "benchmarks", "benchmark", "clock",
				 "status", "skipped", "reason", "no vDSO");
	return json_pack("{s:[{s:s,s:s,s:[{s:s,s:s,s:s,s:f,s:f,s:i}]}]}", "benchmarks", "benchmark",
			 "clock", "status", "ok", "metrics", "name", "m", "unit", "ns", "better",
			 better, "median", med, "stddev", sd, "n", 5);
}

/* "worst odd-node side" of pl_cluster_bench over @n nodes n0.. with medians @med. */
static const char *bench_check(const char *better, size_t n, const double *med, double sd)
{
	static char buf[128];
	struct pl_cluster_node nodes[8] = { 0 };
	json_t *docs[8];
	static const char *const nm[] = { "n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7" };
	for (size_t i = 0; i < n; i++) {
		docs[i] = bench_node(better, med[i], sd);
		nodes[i] = (struct pl_cluster_node){ nm[i], "rank", docs[i], NULL };
	}
	json_t *b = pl_cluster_bench(nodes, n, "clock");
	const json_t *m = json_array_get(json_object_get(b, "metrics"), 0);
	const json_t *odd = json_array_get(json_object_get(m, "odd"), 0);
	const char *w = json_string_value(json_object_get(m, "worst"));
	snprintf(buf, sizeof(buf), "%s %s %s %zu/%zu", w ? w : "-",
		 odd ? json_string_value(json_object_get(odd, "node")) : "-",
		 odd ? json_string_value(json_object_get(odd, "side")) : "-",
		 json_array_size(json_object_get(m, "nodes")),
		 json_array_size(json_object_get(b, "results")));
	json_decref(b);
	for (size_t i = 0; i < n; i++)
		json_decref(docs[i]);
	return buf;
}

static void bench_odd_node(void **state)
{
	(void)state;
	const double slow_one[4] = { 25, 26, 25.5, 60 };
	assert_string_equal(bench_check("lower", 4, slow_one, 0.5), "n3 n3 above 4/4");
	const double low_one[4] = { 10, 10.2, 9.9, 6.1 };
	assert_string_equal(bench_check("higher", 4, low_one, 0.05), "n3 n3 below 4/4");
	/* within the others' range widened by their stddev: worst, not odd */
	assert_string_equal(bench_check("lower", 4, slow_one, 40), "n3 - - 4/4");
	/* the others' spread is wide: 25..40 (s = 15) reaches past 50 */
	const double wide[4] = { 25, 40, 30, 50 };
	assert_string_equal(bench_check("lower", 4, wide, 0.5), "n3 - - 4/4");
	/* 2 nodes: no odd node; "neither": no worst either */
	assert_string_equal(bench_check("lower", 2, slow_one, 0.5), "n1 - - 2/2");
	assert_string_equal(bench_check("neither", 4, slow_one, 0.5), "- - - 4/4");
	/* a skipped node has a result row with its reason and no figure */
	const double skipped[4] = { 25, NAN, 25.5, 60 };
	assert_string_equal(bench_check("lower", 4, skipped, 0.5), "n3 n3 above 3/4");
}

/* The unique names of @n names @in joined by spaces (static buffer). */
static const char *unique(size_t n, const char *const *in)
{
	static char buf[4096];
	char **v = pl_cluster_unique_names(in, n);
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", i ? " " : "", v[i]);
	assert_null(v[n]);
	pl_strv_free(v);
	return buf;
}

static void unique_names(void **state)
{
	(void)state;
	const char *dup[] = { "dup", "dup", "dup#2" };
	assert_string_equal(unique(3, dup), "dup dup#3 dup#2");
	const char *many[] = { "a", "a#2", "a", "a", "a#3", "a" };
	assert_string_equal(unique(6, many), "a a#2 a#4 a#5 a#3 a#6");
	const char *plain[] = { "n1", "n2", "n3" };
	assert_string_equal(unique(3, plain), "n1 n2 n3");
	/* a made name never meets a given one, however the suffixes nest */
	const char *nest[] = { "x#2", "x", "x", "x#2", "x#2#2" };
	assert_string_equal(unique(5, nest), "x#2 x x#3 x#2#3 x#2#2");
	/* names alike for their first 256 bytes stay apart, whole */
	char a[301], b[301];
	memset(a, 'h', 300);
	memcpy(b, a, 300);
	a[299] = 'a';
	b[299] = 'b';
	a[300] = b[300] = '\0';
	const char *longn[] = { a, b };
	char **v = pl_cluster_unique_names(longn, 2);
	assert_string_equal(v[0], a);
	assert_string_equal(v[1], b);
	pl_strv_free(v);
	/* 2000 nodes of one name: all distinct */
	const char **same = calloc(2000, sizeof(*same));
	for (size_t i = 0; i < 2000; i++)
		same[i] = "n";
	v = pl_cluster_unique_names(same, 2000);
	json_t *set = json_object();
	for (size_t i = 0; i < 2000; i++)
		json_object_set_new(set, v[i], json_true());
	assert_int_equal(json_object_size(set), 2000);
	assert_string_equal(v[1999], "n#2000");
	json_decref(set);
	pl_strv_free(v);
	free(same);
}

/* A placement of node ranks @r on host @host (boot id "b") with cpulist @cpus, @hr of
 * the job's ranks on a host of @hc CPUs. */
static json_t *place(const char *host, int r, const char *cpus, int hr, int hc)
{
	return json_pack("{s:s, s:s, s:[i], s:[s], s:i, s:i}", "hostname", host, "boot_id", "b",
			 "ranks", r, "cpus_allowed", cpus, "host_ranks", hr, "host_cpus", hc);
}

/* the caveats of the run text @c (an array) joined by " | ", malloc'd */
static char *joined(const json_t *c)
{
	struct pl_buf b = { 0 };
	size_t i;
	json_t *x;
	json_array_foreach(c, i, x) pl_buf_printf(&b, "%s%s", i ? " | " : "", json_string_value(x));
	return b.data ? pl_buf_steal(&b) : pl_xstrdup("");
}

/* Three ranks on a 2-CPU host "h" (two of them allowed CPU 0-1, one CPU 1) and one alone
 * on "g": the three share the host and are oversubscribed; the two on 0-1 and the one on
 * 1 share CPUs; "g" has no run caveat. Pairs: loopback on "h" with the pinned CPUs, the
 * network between "h" and "g". */
static void run_caveats(void **state)
{
	(void)state;
	json_t *pl[4] = { place("h", 0, "0-1", 3, 2), place("h", 1, "0-1", 3, 2),
			  place("h", 2, "1", 3, 2), place("g", 3, "0-7", 1, 8) };
	const char *names[4] = { "a", "b", "c", "d" };
	struct pl_cluster_node nodes[4];
	json_t *docs[4];
	for (int i = 0; i < 4; i++) {
		docs[i] = json_pack("{s:{s:s}}", "machine", "hostname", "ignored");
		nodes[i] = (struct pl_cluster_node){
			.name = names[i], .source = "t", .doc = docs[i], .place = pl[i]
		};
	}
	json_t *run = pl_cluster_run_facts(nodes, 4);
	char *c0 = joined(json_object_get(json_array_get(run, 0), "caveats"));
	assert_non_null(strstr(c0, "shares host h with 2 other nodes (one hostname and boot id"));
	assert_non_null(strstr(c0, "oversubscribed: host h runs 3 MPI ranks on 2 CPUs"));
	assert_non_null(strstr(c0, "shares CPUs 0-1 with 2 other nodes"));
	char *c2 = joined(json_object_get(json_array_get(run, 2), "caveats"));
	assert_non_null(strstr(c2, "shares CPUs 1 with 2 other nodes"));
	char *c3 = joined(json_object_get(json_array_get(run, 3), "caveats"));
	assert_string_equal(c3, "");
	assert_int_equal(
		json_array_size(json_object_get(json_array_get(run, 3), "shares_host_with")), 0);
	free(c0);
	free(c2);
	free(c3);

	/* the network caveats read the nodes rows of the cluster document */
	json_t *arr = json_array();
	for (int i = 0; i < 4; i++)
		json_array_append_new(arr, json_pack("{s:s, s:s, s:O, s:O}", "file", "t", "name",
						     names[i], "doc", docs[i], "place", pl[i]));
	json_t *c = pl_cluster_from_docs(arr, 0);
	json_t *net =
		json_pack("{s:[{s:s, s:s, s:b, s:[i,i]}, {s:s, s:s, s:b}]}", "pairs", "a", "a", "b",
			  "b", "same_host", 1, "cpus", 0, 1, "a", "a", "b", "d", "same_host", 0);
	json_object_set_new(c, "network", net);
	pl_cluster_network_caveats(c);
	char *p0 = joined(
		json_object_get(json_array_get(json_object_get(net, "pairs"), 0), "caveats"));
	assert_non_null(strstr(p0, "both ranks on host h: the pair measures MPI's shared-memory"));
	assert_non_null(strstr(p0, "pinned to CPUs 0 and 1"));
	assert_non_null(strstr(p0, "oversubscribed"));
	char *p1 = joined(
		json_object_get(json_array_get(json_object_get(net, "pairs"), 1), "caveats"));
	assert_null(strstr(p1, "shared-memory"));
	assert_non_null(strstr(p1, "oversubscribed: host h")); /* a's host */
	char *sec = joined(json_object_get(net, "caveats"));
	assert_string_equal(sec, "1 of 2 pairs are on one host: those measure MPI's shared-memory "
				 "path (loopback), not the network");
	free(p0);
	free(p1);
	free(sec);
	json_decref(c);
	json_decref(arr);
	json_decref(run);
	for (int i = 0; i < 4; i++) {
		json_decref(pl[i]);
		json_decref(docs[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_slow_node),	cmocka_unit_test(one_fast_pair_clears_it),
		cmocka_unit_test(uniform_names_none),	cmocka_unit_test(three_nodes),
		cmocka_unit_test(within_others_spread), cmocka_unit_test(edges),
		cmocka_unit_test(bench_odd_node),	cmocka_unit_test(unique_names),
		cmocka_unit_test(run_caveats),
	};
	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
