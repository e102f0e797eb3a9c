/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "report/report.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/env.h"
#include "config.h"
#include "report/diff.h"
#include "report/figures.h"
#include "util/jcheck.h"
#include "report/keynums.h"
#include "util/json.h"
#include "render/svg.h"
#include "profile/flame.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/escape.h"
#include "util/str.h"

static void set_fact(json_t *m, const char *name, const struct pl_facts *f, const char *key)
{
	const json_t *v = pl_facts_value(f, key);
	json_object_set_new(m, name, v ? json_deep_copy(v) : json_null());
}

json_t *pl_report_machine(const struct pl_facts *f)
{
	json_t *m = json_object();
	set_fact(m, "hostname", f, "kernel.hostname");
	set_fact(m, "kernel", f, "kernel.release");
	set_fact(m, "cpu_model", f, "cpu.model");
	set_fact(m, "cpus", f, "cpu.online");
	set_fact(m, "sockets", f, "cpu.sockets");
	set_fact(m, "mem_bytes", f, "mem.total_bytes");
	set_fact(m, "numa_nodes", f, "numa.nodes");
	set_fact(m, "hypervisor", f, "virt.hypervisor");
	set_fact(m, "clocksource", f, "clocksource.current");
	return m;
}

json_t *pl_report_build(const struct pl_facts *f, const struct pl_findings *fs,
			const char *workload, long long epoch)
{
	char ts[32];
	json_t *doc = json_object();
	json_object_set_new(doc, "schema_version", json_integer(1));
	json_object_set_new(doc, "generated", pl_json_string(pl_iso8601(epoch, ts, sizeof(ts))));
	json_object_set_new(doc, "perflab_version", pl_json_string(PERFLAB_VERSION));
	json_object_set_new(doc, "machine", pl_report_machine(f));
	json_object_set_new(doc, "facts", pl_facts_to_json(f, NULL));
	json_object_set_new(doc, "check", pl_findings_to_json(fs, workload));
	return doc;
}

/* Append @doc (borrowed) to the array @key of @report, creating it. */
static void append_to(json_t *report, const char *key, json_t *doc)
{
	json_t *arr = json_object_get(report, key);
	if (!json_is_array(arr)) {
		arr = json_array();
		json_object_set_new(report, key, arr);
	}
	json_array_append(arr, doc);
}

/* What report --from checks in each kind of document, once, at load (src/util/jcheck.h):
 * every member the renderers below, html.c and the terminal summary read, with the types
 * and ranges of docs/schemas/, required where the schema requires it; members no
 * renderer reads are not looked at, so documents of other perflab versions with the same
 * schema_version still load. After this the renderers may trust the members they read. */
static const char *const severities[] = { "info", "warn", "crit", NULL };
static const char *const bench_status[] = { "ok", "interrupted", "skipped", "failed", NULL };
static const char *const better[] = { "lower", "higher", "neither", NULL };
static const char *const verdicts[] = { "baseline",	 "no-verdict", "changed", "below-threshold",
					"no-difference", "equivalent", NULL };
static const char *const tune_states[] = { "match",	  "differs", "not-applicable",
					   "unsupported", "manual",  "pending-reboot",
					   NULL };

/* check: docs/schemas/check.schema.json */
static const struct pl_jshape check_doc = {
	.types = PL_JT_OBJ,
	.members = PL_JMEMBERS(
		PL_JREQ("workload", &pl_jstr),
		PL_JREQ("summary", PL_JSHAPE(.types = PL_JT_OBJ,
					     .members = PL_JMEMBERS(PL_JREQ("crit", &pl_jcount),
								    PL_JREQ("warn", &pl_jcount),
								    PL_JREQ("info", &pl_jcount)))),
		PL_JREQ("findings",
			PL_JSHAPE(.types = PL_JT_ARR,
				  .each = PL_JSHAPE(
						  .types = PL_JT_OBJ,
						  .members = PL_JMEMBERS(
							  PL_JREQ("id", &pl_jstr),
							  PL_JREQ("severity",
								  PL_JSHAPE(.types = PL_JT_STR,
									    .oneof = severities)),
							  PL_JREQ("title", &pl_jstr),
							  PL_JOPT("subject", &pl_jstr),
							  PL_JREQ("observed", &pl_jstr),
							  PL_JREQ("expected", &pl_jstr),
							  PL_JREQ("rationale", &pl_jstr),
							  PL_JREQ("source", &pl_jstr),
							  PL_JREQ("risky", &pl_jbool),
							  PL_JREQ("fix",
								  PL_JSHAPE(.types = PL_JT_OBJ,
									    .members = PL_JMEMBERS(
										    PL_JREQ("comman"
											    "d",
											    &pl_jstr_or_null),
										    PL_JREQ("tune",
											    &pl_jstr_or_null)))))))))
};

/* bench: docs/schemas/bench.schema.json */
static const struct pl_jshape bench_metric = {
	.types = PL_JT_OBJ,
	.members = PL_JMEMBERS(
		PL_JREQ("name", &pl_jstr), PL_JREQ("unit", &pl_jstr),
		PL_JREQ("better", PL_JSHAPE(.types = PL_JT_STR, .oneof = better)),
		PL_JREQ("best", &pl_jnum_or_null), PL_JREQ("median", &pl_jnum_or_null),
		PL_JREQ("mean", &pl_jnum_or_null), PL_JREQ("stddev", &pl_jnum_or_null),
		PL_JREQ("min", &pl_jnum_or_null), PL_JREQ("max", &pl_jnum_or_null),
		PL_JREQ("p99", &pl_jnum_or_null), PL_JREQ("n", &pl_jcount),
		PL_JOPT("cv", &pl_jnum_or_null),
		PL_JOPT("samples", PL_JSHAPE(.types = PL_JT_ARR, .each = &pl_jnum_or_null)),
		PL_JOPT("notes", PL_JSHAPE(.types = PL_JT_OBJ, .each = &pl_jstr)))
};

static const struct pl_jshape bench_doc = {
	.types = PL_JT_OBJ,
	.members = PL_JMEMBERS(
		PL_JREQ("benchmark", &pl_jstr), PL_JREQ("summary", &pl_jstr),
		PL_JREQ("status", PL_JSHAPE(.types = PL_JT_STR, .oneof = bench_status)),
		PL_JOPT("reason", &pl_jstr),
		PL_JOPT("runner", PL_JSHAPE(.types = PL_JT_OBJ,
					    .members = PL_JMEMBERS(PL_JREQ("runs", &pl_jcount),
								   PL_JREQ("warmup", &pl_jcount),
								   PL_JREQ("elapsed_s", &pl_jnum),
								   PL_JREQ("cpus", &pl_jstr),
								   PL_JREQ("pinned", &pl_jbool),
								   PL_JOPT("quick", &pl_jbool),
								   PL_JOPT("max_cv", &pl_jnum)))),
		PL_JOPT("metrics", PL_JSHAPE(.types = PL_JT_ARR, .each = &bench_metric)),
		PL_JOPT("environment", PL_JSHAPE(.types = PL_JT_OBJ)),
		PL_JOPT("info", PL_JSHAPE(.types = PL_JT_OBJ)), PL_JOPT("notes", &pl_jstrings),
		PL_JOPT("warnings", &pl_jstrings))
};

/* compare: docs/schemas/compare.schema.json */
static const struct pl_jshape ci_pair = {
	.types = PL_JT_ARR, .each = &pl_jnum_or_null, .min_len = 2, .max_len = 2
};

/* Every statistics entry has one column per variant, in the order of "variants". */
static int compare_columns(const json_t *doc, struct pl_jctx *c)
{
	size_t nv = json_array_size(json_object_get(doc, "variants")), i;
	json_t *st;
	json_array_foreach(json_object_get(doc, "statistics"), i, st)
	{
		size_t n = json_array_size(json_object_get(st, "variants"));
		if (n != nv) {
			char sub[64];
			snprintf(sub, sizeof(sub), ".statistics[%zu].variants", i);
			return pl_jfail(c, sub, "has %zu entries, $.variants has %zu", n, nv);
		}
	}
	return 0;
}

static const struct pl_jshape compare_cell = {
	.types = PL_JT_OBJ,
	.members = PL_JMEMBERS(
		PL_JREQ("variant", &pl_jstr), PL_JREQ("n", &pl_jcount),
		PL_JREQ("median", &pl_jnum_or_null), PL_JREQ("median_ci", &ci_pair),
		PL_JREQ("verdict", PL_JSHAPE(.types = PL_JT_STR, .oneof = verdicts)),
		PL_JOPT("verdict_text", &pl_jstr),
		PL_JOPT("vs_baseline",
			PL_JSHAPE(.types = PL_JT_OBJ | PL_JT_NULL,
				  .members = PL_JMEMBERS(PL_JREQ("ratio", &pl_jnum_or_null),
							 PL_JREQ("ci", &ci_pair)))))
};

static const struct pl_jshape compare_stat = {
	.types = PL_JT_OBJ,
	.members = PL_JMEMBERS(
		PL_JREQ("metric", &pl_jstr),
		PL_JREQ("variants", PL_JSHAPE(.types = PL_JT_ARR, .each = &compare_cell)))
};

static const struct pl_jshape compare_metric = {
	.types = PL_JT_OBJ,
	.members = PL_JMEMBERS(PL_JREQ("name", &pl_jstr), PL_JREQ("unit", &pl_jstr),
			       PL_JREQ("higher_is_better", &pl_jbool))
};

static const struct pl_jshape compare_doc = {
	.types = PL_JT_OBJ,
	.members = PL_JMEMBERS(
		PL_JREQ("seed", &pl_jint), PL_JREQ("rounds_measured", &pl_jcount),
		PL_JREQ("rounds_warmup", &pl_jcount), PL_JREQ("stop_reason", &pl_jstr_or_null),
		PL_JREQ("variants", PL_JSHAPE(.types = PL_JT_ARR, .min_len = 1,
					      .each = PL_JSHAPE(.types = PL_JT_OBJ,
								.members = PL_JMEMBERS(PL_JREQ(
									"name", &pl_jstr))))),
		PL_JREQ("metrics", PL_JSHAPE(.types = PL_JT_ARR, .each = &compare_metric)),
		PL_JREQ("statistics", PL_JSHAPE(.types = PL_JT_ARR, .each = &compare_stat))),
	.check = compare_columns
};

/* profile: docs/schemas/profile.schema.json. The timeline is at most 100000 buckets
 * (what profile writes), and every row has exactly "buckets" counts. */
#define PL_REPORT_MAX_BUCKETS 100000

static int timeline_rows(const json_t *tl, struct pl_jctx *c)
{
	size_t nb = (size_t)json_integer_value(json_object_get(tl, "buckets")), i;
	static const char *const rows[] = { "threads", "cpus" };
	for (size_t r = 0; r < 2; r++) {
		json_t *x;
		json_array_foreach(json_object_get(tl, rows[r]), i, x)
		{
			size_t n = json_array_size(json_object_get(x, "counts"));
			if (n != nb) {
				char sub[64];
				snprintf(sub, sizeof(sub), ".%s[%zu].counts", rows[r], i);
				return pl_jfail(c, sub,
						"has %zu entries, $.timeline.buckets says %zu", n,
						nb);
			}
		}
	}
	return 0;
}

/* The folded stacks make a flame graph: each stack as --from-folded reads it, and the
 * counts add up without overflow. */
static int folded_stacks(const json_t *arr, struct pl_jctx *c)
{
	uint64_t sum = 0;
	size_t i;
	json_t *x;
	json_array_foreach(arr, i, x)
	{
		char sub[64];
		const json_t *st = json_object_get(x, "stack");
		int r = pl_flame_check_stack(json_string_value(st), json_string_length(st));
		if (r < 0) {
			snprintf(sub, sizeof(sub), "[%zu].stack", i);
			return pl_jfail(c, sub, "%s", pl_flame_strerror(r));
		}
		if (__builtin_add_overflow(
			    sum, (uint64_t)json_integer_value(json_object_get(x, "count")), &sum)) {
			snprintf(sub, sizeof(sub), "[%zu].count", i);
			return pl_jfail(c, sub, "%s", pl_flame_strerror(-EOVERFLOW));
		}
	}
	return 0;
}

static const struct pl_jshape timeline_counts = { .types = PL_JT_ARR, .each = &pl_jcount };

static const struct pl_jshape timeline = {
	.types = PL_JT_OBJ,
	.members = PL_JMEMBERS(
		PL_JREQ("bucket_ms", PL_JSHAPE(.types = PL_JT_INT, PL_JRANGE(1, HUGE_VAL))),
		PL_JREQ("buckets",
			PL_JSHAPE(.types = PL_JT_INT, PL_JRANGE(1, PL_REPORT_MAX_BUCKETS))),
		PL_JREQ("threads",
			PL_JSHAPE(.types = PL_JT_ARR,
				  .each = PL_JSHAPE(.types = PL_JT_OBJ,
						    .members = PL_JMEMBERS(
							    PL_JREQ("label", &pl_jstr),
							    PL_JREQ("counts", &timeline_counts))))),
		PL_JREQ("cpus",
			PL_JSHAPE(.types = PL_JT_ARR,
				  .each = PL_JSHAPE(.types = PL_JT_OBJ,
						    .members = PL_JMEMBERS(PL_JREQ(
							    "counts", &timeline_counts)))))),
	.check = timeline_rows
};

static const struct pl_jshape folded = {
	.types = PL_JT_ARR,
	.each = PL_JSHAPE(.types = PL_JT_OBJ,
			  .members = PL_JMEMBERS(
				  PL_JREQ("stack", PL_JSHAPE(.types = PL_JT_STR, .min_len = 1)),
				  PL_JREQ("count",
					  PL_JSHAPE(.types = PL_JT_INT, PL_JRANGE(1, HUGE_VAL))))),
	.check = folded_stacks
};

static const struct pl_jshape profile_func = {
	.types = PL_JT_OBJ,
	.members = PL_JMEMBERS(PL_JREQ("function", &pl_jstr), PL_JREQ("module", &pl_jstr),
			       PL_JREQ("self", &pl_jcount), PL_JREQ("self_pct", &pl_jpct),
			       PL_JREQ("total_pct", &pl_jpct))
};

static const struct pl_jshape profile_doc = {
	.types = PL_JT_OBJ,
	.members = PL_JMEMBERS(
		PL_JREQ("target", &pl_jstr), PL_JREQ("samples", &pl_jcount),
		PL_JREQ("duration_s", PL_JSHAPE(.types = PL_JT_NUM, PL_JRANGE(0, HUGE_VAL))),
		PL_JREQ("user_pct", &pl_jpct), PL_JREQ("kernel_pct", &pl_jpct),
		PL_JREQ("lost_pct", &pl_jpct),
		PL_JREQ("event",
			PL_JSHAPE(.types = PL_JT_OBJ,
				  .members = PL_JMEMBERS(PL_JREQ("name", &pl_jstr),
							 PL_JREQ("fallback", &pl_jstr_or_null),
							 PL_JREQ("user_only", &pl_jbool)))),
		PL_JREQ("top_self", PL_JSHAPE(.types = PL_JT_ARR, .each = &profile_func)),
		PL_JOPT("timeline", &timeline), PL_JREQ("folded", &folded))
};

/* tune diff/verify/apply: docs/schemas/tune-items.schema.json */
static const struct pl_jshape tune_doc = {
	.types = PL_JT_OBJ,
	.members = PL_JMEMBERS(
		PL_JREQ("command", &pl_jstr), PL_JREQ("profile", &pl_jstr),
		PL_JREQ("summary", PL_JSHAPE(.types = PL_JT_OBJ, .each = &pl_jcount)),
		PL_JREQ("items",
			PL_JSHAPE(.types = PL_JT_ARR,
				  .each = PL_JSHAPE(.types = PL_JT_OBJ,
						    .members = PL_JMEMBERS(
							    PL_JREQ("plugin", &pl_jstr),
							    PL_JREQ("key", &pl_jstr),
							    PL_JOPT("device", &pl_jstr_or_null),
							    PL_JREQ("wanted", &pl_jstr),
							    PL_JREQ("current", &pl_jstr_or_null),
							    PL_JREQ("state",
								    PL_JSHAPE(.types = PL_JT_STR,
									      .oneof =
										      tune_states)),
							    PL_JOPT("reason", &pl_jstr_or_null))))))
};

/* inspect: docs/schemas/inspect.schema.json; a fact is {value, source} or {unavailable} */
static int fact_value_or_reason(const json_t *fact, struct pl_jctx *c)
{
	if (!json_object_get(fact, "value") && !json_object_get(fact, "unavailable"))
		return pl_jfail(c, "", "has neither \"value\" nor \"unavailable\"");
	return 0;
}

static const struct pl_jshape facts_map = {
	.types = PL_JT_OBJ,
	.each = PL_JSHAPE(.types = PL_JT_OBJ,
			  .members = PL_JMEMBERS(PL_JOPT("source", &pl_jstr),
						 PL_JOPT("unavailable", &pl_jstr)),
			  .check = fact_value_or_reason)
};

static const struct pl_jshape inspect_doc = { .types = PL_JT_OBJ,
					      .members =
						      PL_JMEMBERS(PL_JREQ("facts", &facts_map)) };

/* Kinds of saved documents, the report array each goes to, and their shapes. */
static const struct {
	const char *kind;
	const char *section;
	const struct pl_jshape *shape;
} kinds[] = {
	{ "bench", "benchmarks", &bench_doc },	 { "compare", "comparisons", &compare_doc },
	{ "profile", "profiles", &profile_doc }, { "tune-diff", "tune", &tune_doc },
	{ "tune", "tune", &tune_doc },
};

/* An earlier report: the sections it contributes (report.schema.json). */
static const struct pl_jshape report_doc = {
	.types = PL_JT_OBJ,
	.members = PL_JMEMBERS(
		PL_JREQ("generated", &pl_jstr), PL_JREQ("check", &check_doc),
		PL_JOPT("facts", &facts_map),
		PL_JOPT("benchmarks", PL_JSHAPE(.types = PL_JT_ARR, .each = &bench_doc)),
		PL_JOPT("comparisons", PL_JSHAPE(.types = PL_JT_ARR, .each = &compare_doc)),
		PL_JOPT("profiles", PL_JSHAPE(.types = PL_JT_ARR, .each = &profile_doc)),
		PL_JOPT("tune", PL_JSHAPE(.types = PL_JT_ARR, .each = &tune_doc)))
};

int pl_report_check_doc(const json_t *doc, const char *path, const char **kindp,
			const char **sectionp, char *err, size_t errlen)
{
	int r = 0;
	const json_t *ver = json_object_get(doc, "schema_version");
	const json_t *kindv = json_object_get(doc, "kind");
	const char *kind = pl_json_str(doc, "kind");
	/* The documents of bench, compare, profile and tune have no "kind" member: recognise
	 * them by their required members (docs/schemas/). */
	if (!kind && pl_json_str(doc, "benchmark"))
		kind = "bench";
	else if (!kind && pl_json_str(doc, "tool") &&
		 strcmp(pl_json_str(doc, "tool"), "perflab compare") == 0)
		kind = "compare";
	else if (!kind && json_object_get(doc, "top_self") && json_object_get(doc, "samples"))
		kind = "profile";
	else if (!kind && pl_json_str(doc, "command") &&
		 json_is_array(json_object_get(doc, "items")) && pl_json_str(doc, "profile"))
		kind = "tune";
	const struct pl_jshape *shape = NULL;
	const char *section = NULL;
	if (!json_is_object(doc)) {
		snprintf(err, errlen,
			 "%s: $: expected an object, got %s (not a perflab JSON document)", path,
			 json_is_array(doc) ? "an array" : "a single value");
		r = -EINVAL;
	} else if (!ver) {
		snprintf(err, errlen, "'%s' is not a perflab JSON document (no schema_version)",
			 path);
		r = -EINVAL;
	} else if (!json_is_integer(ver)) {
		snprintf(err, errlen, "%s: $.schema_version: expected an integer (1)", path);
		r = -EINVAL;
	} else if (json_integer_value(ver) != 1) {
		snprintf(err, errlen, "'%s' has schema_version %lld; this perflab reads version 1",
			 path, (long long)json_integer_value(ver));
		r = -EINVAL;
	} else if (kindv && !kind) {
		snprintf(err, errlen, "%s: $.kind: expected a string", path);
		r = -EINVAL;
	} else if (kind) {
		for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
			if (strcmp(kinds[i].kind, kind) == 0) {
				section = kinds[i].section;
				shape = kinds[i].shape;
			}
		if (!section) {
			snprintf(err, errlen,
				 "'%s' is a '%s' document, which a report cannot include", path,
				 kind);
			r = -EINVAL;
		}
	} else if (json_object_get(doc, "generated") && json_object_get(doc, "check")) {
		shape = &report_doc;
		kind = "report";
	} else if (json_object_get(doc, "findings") && json_object_get(doc, "workload")) {
		shape = &check_doc;
		kind = "check";
	} else if (json_object_get(doc, "facts")) {
		shape = &inspect_doc;
		kind = "inspect";
	} else {
		snprintf(err, errlen,
			 "'%s' is not a perflab bench, compare, profile, tune, check, "
			 "inspect or report document",
			 path);
		r = -EINVAL;
	}
	if (r == 0)
		r = pl_jcheck(doc, shape, path, err, errlen);
	if (r == 0) {
		*kindp = kind;
		if (sectionp)
			*sectionp = section;
	}
	return r;
}

int pl_report_merge_file(json_t *report, const char *path, char *err, size_t errlen)
{
	json_t *doc = pl_json_read_path(path, err, errlen);
	if (!doc)
		return -EINVAL;
	const char *kind = NULL, *section = NULL;
	int r = pl_report_check_doc(doc, path, &kind, &section, err, errlen);
	if (r == 0) {
		if (section) {
			append_to(report, section, doc);
		} else if (strcmp(kind, "report") == 0) {
			/* a whole earlier report: take its merged sections */
			for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
				size_t k;
				json_t *x;
				if (i > 0 && strcmp(kinds[i].section, kinds[i - 1].section) == 0)
					continue; /* "tune" once */
				json_array_foreach(json_object_get(doc, kinds[i].section), k, x)
					append_to(report, kinds[i].section, x);
			}
		} else if (strcmp(kind, "check") == 0) {
			json_object_set(report, "check", doc);
		} else {
			json_object_set(report, "facts", json_object_get(doc, "facts"));
		}
		json_t *in = json_object();
		json_object_set_new(in, "file", pl_json_string(path));
		json_object_set_new(in, "kind", pl_json_string(section ? kind : "perflab"));
		append_to(report, "inputs", in);
		json_decref(in);
	}
	json_decref(doc);
	return r;
}

char *pl_report_machine_line(const json_t *report)
{
	const json_t *m = json_object_get(report, "machine");
	struct pl_buf b = { 0 };
	const char *host = pl_json_str(m, "hostname");
	pl_buf_printf(&b, "%s: ", host ? host : "this machine");
	const char *model = pl_json_str(m, "cpu_model");
	pl_buf_puts(&b, model ? model : "unknown CPU");
	const json_t *cpus = json_object_get(m, "cpus");
	if (json_is_integer(cpus))
		pl_buf_printf(&b, ", %lld CPUs", (long long)json_integer_value(cpus));
	const json_t *mem = json_object_get(m, "mem_bytes");
	if (json_is_integer(mem)) {
		char t[32];
		pl_buf_printf(&b, ", %s",
			      pl_fmt_bytes(t, sizeof(t), (double)json_integer_value(mem)));
	}
	const char *hv = pl_json_str(m, "hypervisor");
	pl_buf_printf(&b, ", %s", hv && strcmp(hv, "none") != 0 ? hv : "bare metal");
	const char *k = pl_json_str(m, "kernel");
	if (k)
		pl_buf_printf(&b, ", Linux %s", k);
	const char *cs = pl_json_str(m, "clocksource");
	if (cs)
		pl_buf_printf(&b, ", clocksource %s", cs);
	return pl_buf_steal(&b);
}

/* Markdown table cells must not contain '|' or newlines; other control characters
 * (machine-tree text) are written as \xNN. */
static void md_cell(FILE *out, const char *s)
{
	for (const char *p = s ? s : ""; *p; p++) {
		if (*p == '|')
			fputs("\\|", out);
		else if (*p == '\n' || *p == '\t')
			fputc(' ', out);
		else if ((unsigned char)*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\x%02x", (unsigned char)*p);
		else
			fputc(*p, out);
	}
}

void pl_report_md_cell(FILE *out, const char *s)
{
	md_cell(out, s);
}

static void md_num(FILE *out, const json_t *v)
{
	char b[32];
	fprintf(out, " %s |",
		json_is_number(v) ? pl_fmt_num(b, sizeof(b), json_number_value(v)) : "n/a");
}

/* The caveats of a figure in a table cell: "spread too wide (cv 22% > 5%); via: vdso". */
static void md_caveat_cell(FILE *out, const struct pl_caveats *c)
{
	for (size_t i = 0; i < c->n; i++) {
		fputs(i ? "; " : "", out);
		md_cell(out,
			c->v[i].kind == PL_CAVEAT_WARN && c->v[i].tag ? c->v[i].tag : c->v[i].text);
	}
}

/* The caveats, notes and info items of a benchmark as a list, right under its table. */
static void md_caveat_list(FILE *out, const struct pl_caveats *c)
{
	for (size_t i = 0; i < c->n; i++) {
		fputs(c->v[i].kind == PL_CAVEAT_WARN   ? "- **caveat:** "
		      : c->v[i].kind == PL_CAVEAT_NOTE ? "- note: "
						       : "- ",
		      out);
		md_cell(out, c->v[i].text);
		fputc('\n', out);
	}
	if (c->n)
		fputc('\n', out);
}

void pl_report_markdown_benchmarks(FILE *out, const json_t *benches)
{
	if (json_array_size(benches) == 0)
		return;
	fprintf(out, "## Benchmarks\n\n");
	size_t i;
	json_t *b;
	json_array_foreach(benches, i, b)
	{
		fprintf(out, "### bench %s\n\n", pl_json_str(b, "benchmark"));
		md_cell(out, pl_json_str(b, "summary"));
		const char *status = pl_json_str(b, "status");
		if (status && strcmp(status, "ok") != 0) {
			fprintf(out, ". **Status: %s**", status);
			if (pl_json_str(b, "reason")) {
				fputs(" (", out);
				md_cell(out, pl_json_str(b, "reason"));
				fputc(')', out);
			}
		}
		char *rl = pl_figure_runner_line(b);
		if (rl)
			fprintf(out, ". %s", rl);
		free(rl);
		fputs(".\n\n", out);
		const json_t *metrics = json_object_get(b, "metrics");
		if (json_array_size(metrics) > 0)
			fprintf(out, "| metric | better | best | median | mean | stddev | tail | n "
				     "| caveats and notes |\n"
				     "|---|---|--:|--:|--:|--:|--:|--:|---|\n");
		size_t k;
		json_t *m;
		json_array_foreach(metrics, k, m)
		{
			struct pl_figure_row r;
			pl_figure_row(m, &r);
			const char *dir = pl_json_str(m, "better");
			fputs("| ", out);
			md_cell(out, pl_json_str(m, "name"));
			fprintf(out, " | %s | %s | %s | %s | %s | %s | %lld | ",
				dir && strcmp(dir, "neither") != 0 ? dir : "", r.best, r.median,
				r.mean, r.stddev, r.tail, pl_json_int(m, "n"));
			struct pl_caveats c = { 0 };
			pl_caveats_metric(b, m, &c);
			md_caveat_cell(out, &c);
			pl_caveats_free(&c);
			fputs(" |\n", out);
		}
		if (json_array_size(metrics) > 0)
			fputc('\n', out);
		struct pl_caveats c = { 0 };
		pl_caveats_bench(b, &c);
		md_caveat_list(out, &c);
		pl_caveats_free(&c);
		const json_t *env = json_object_get(b, "environment");
		if (json_is_object(env)) {
			char *t = pl_env_text(env);
			fputs("Environment: ", out);
			md_cell(out, t);
			fputs(".\n\n", out);
			free(t);
		}
	}
}

static double num_or_nan(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

char *pl_report_cmp_median(const json_t *x, const char *unit)
{
	char m[48], a[48], b[48];
	const json_t *ci = json_object_get(x, "median_ci");
	double lo = num_or_nan(json_array_get(ci, 0)), hi = num_or_nan(json_array_get(ci, 1));
	pl_fmt_unit(m, sizeof(m), num_or_nan(json_object_get(x, "median")), unit);
	if (isnan(lo) || isnan(hi))
		return pl_xstrdup(m);
	return pl_xasprintf("%s [%s, %s]", m, pl_fmt_unit(a, sizeof(a), lo, unit),
			    pl_fmt_unit(b, sizeof(b), hi, unit));
}

/* "+1.2 ms" */
static char *signed_unit(char *buf, size_t len, double x, const char *unit)
{
	char b[48];
	snprintf(buf, len, "%s%s", x > 0 ? "+" : "", pl_fmt_unit(b, sizeof(b), x, unit));
	return buf;
}

char *pl_report_cmp_vs(const json_t *x, const char *unit)
{
	const json_t *vs = json_object_get(x, "vs_baseline");
	if (!json_is_object(vs))
		return NULL;
	const json_t *ci = json_object_get(vs, "ci");
	double r = num_or_nan(json_object_get(vs, "ratio"));
	double lo = num_or_nan(json_array_get(ci, 0)), hi = num_or_nan(json_array_get(ci, 1));
	if (json_is_true(json_object_get(vs, "baseline_near_zero"))) {
		const json_t *d = json_object_get(vs, "difference");
		const json_t *dci = json_object_get(d, "ci");
		double e = num_or_nan(json_object_get(d, "estimate"));
		double dl = num_or_nan(json_array_get(dci, 0)),
		       dh = num_or_nan(json_array_get(dci, 1));
		if (isnan(e))
			return NULL;
		char a[48], b[48], c[48];
		if (isnan(dl) || isnan(dh))
			return pl_xasprintf("diff %s", signed_unit(a, sizeof(a), e, unit));
		return pl_xasprintf("diff %s [%s, %s]", signed_unit(a, sizeof(a), e, unit),
				    signed_unit(b, sizeof(b), dl, unit),
				    signed_unit(c, sizeof(c), dh, unit));
	}
	if (isnan(r))
		return NULL;
	if (isnan(lo) || isnan(hi))
		return pl_xasprintf("%+.2f%%", (r - 1) * 100);
	return pl_xasprintf("%+.2f%% [%+.2f, %+.2f]", (r - 1) * 100, (lo - 1) * 100,
			    (hi - 1) * 100);
}

char *pl_report_cmp_context(const json_t *doc)
{
	struct pl_buf b = { 0 };
	const json_t *env = json_object_get(doc, "environment");
	if (json_is_object(env)) {
		char *t = pl_env_text(env);
		pl_buf_printf(&b, "environment: %s\n", t);
		free(t);
	}
	size_t i;
	json_t *o;
	json_array_foreach(json_object_get(doc, "original_settings"), i, o)
	{
		const char *be = pl_json_str(o, "before"), *af = pl_json_str(o, "after");
		pl_buf_printf(&b, "%s: '%s' before the first run, '%s' after the last%s\n",
			      pl_json_str(o, "key") ? pl_json_str(o, "key") : "?",
			      be ? be : "(unreadable)", af ? af : "(unreadable)",
			      json_is_true(json_object_get(o, "restored")) ? " (restored)"
									   : " (NOT the same)");
	}
	return pl_buf_steal(&b);
}

/* The unit of metric @name of compare document @doc ("" when unknown). */
static const char *cmp_unit(const json_t *doc, const char *name)
{
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(doc, "metrics"), i,
			   m) if (name && pl_json_str(m, "name") &&
				  strcmp(pl_json_str(m, "name"), name) ==
					  0) return pl_json_str(m, "unit")
		? pl_json_str(m, "unit")
		: "";
	return "";
}

/* Comparisons: metrics as rows, variants as columns (median [CI], ratio, verdict). */
static void md_comparisons(FILE *out, const json_t *arr)
{
	if (json_array_size(arr) == 0)
		return;
	fprintf(out, "## Comparisons\n\n");
	size_t i;
	json_t *doc;
	json_array_foreach(arr, i, doc)
	{
		const json_t *variants = json_object_get(doc, "variants");
		size_t k;
		json_t *v;
		fprintf(out, "%lld interleaved rounds (+%lld warm-up), seed %lld, stopped: ",
			pl_json_int(doc, "rounds_measured"), pl_json_int(doc, "rounds_warmup"),
			pl_json_int(doc, "seed"));
		md_cell(out,
			pl_json_str(doc, "stop_reason") ? pl_json_str(doc, "stop_reason") : "-");
		fputs(". Cells: median [95% CI] and n; change vs the baseline in % [CI] (a "
		      "difference when the baseline is ~0); verdict.\n\n| metric |",
		      out);
		json_array_foreach(variants, k, v)
		{
			fputc(' ', out);
			md_cell(out, pl_json_str(v, "name"));
			fputs(k == 0 ? " (baseline) |" : " |", out);
		}
		fputs("\n|---|", out);
		for (k = 0; k < json_array_size(variants); k++)
			fputs("--:|", out);
		fputc('\n', out);
		json_t *st;
		json_array_foreach(json_object_get(doc, "statistics"), k, st)
		{
			fputs("| ", out);
			md_cell(out, pl_json_str(st, "metric"));
			fputs(" |", out);
			size_t j;
			json_t *x;
			const char *unit = cmp_unit(doc, pl_json_str(st, "metric"));
			json_array_foreach(json_object_get(st, "variants"), j, x)
			{
				char *med = pl_report_cmp_median(x, unit),
				     *vs = pl_report_cmp_vs(x, unit);
				fprintf(out, " %s n=%lld", med, pl_json_int(x, "n"));
				if (vs)
					fprintf(out, "; %s", vs);
				free(med);
				free(vs);
				if (pl_json_str(x, "verdict_text")) {
					fputs("; ", out);
					md_cell(out, pl_json_str(x, "verdict_text"));
				}
				fputs(" |", out);
			}
			fputc('\n', out);
		}
		fputc('\n', out);
		char *ctx = pl_report_cmp_context(doc);
		if (ctx && *ctx) {
			/* one list item per line */
			for (char *l = ctx, *nl; *l; l = nl + 1) {
				nl = strchr(l, '\n');
				fprintf(out, "- %.*s\n", (int)(nl - l), l);
			}
			fputc('\n', out);
		}
		free(ctx);
	}
}

/* Profiles: shares and the top functions by self samples. */
static void md_profiles(FILE *out, const json_t *arr)
{
	if (json_array_size(arr) == 0)
		return;
	fprintf(out, "## Profiles\n\n");
	size_t i;
	json_t *doc;
	json_array_foreach(arr, i, doc)
	{
		char a[32], b[32], c[32];
		fputs("### profile ", out);
		md_cell(out, pl_json_str(doc, "target"));
		char d[48];
		fprintf(out, "\n\n%lld samples in %s, user %s %%, kernel %s %%, lost %s %%.",
			(long long)json_integer_value(json_object_get(doc, "samples")),
			pl_fmt_unit(d, sizeof(d), pl_json_num(doc, "duration_s"), "s"),
			pl_fmt_num(a, sizeof(a),
				   json_number_value(json_object_get(doc, "user_pct"))),
			pl_fmt_num(b, sizeof(b),
				   json_number_value(json_object_get(doc, "kernel_pct"))),
			pl_fmt_num(c, sizeof(c),
				   json_number_value(json_object_get(doc, "lost_pct"))));
		const json_t *ev = json_object_get(doc, "event");
		fputs(" Event ", out);
		md_cell(out, pl_json_str(ev, "name"));
		if (pl_json_str(ev, "fallback")) {
			fputs(" (fallback from cycles: ", out);
			md_cell(out, pl_json_str(ev, "fallback"));
			fputc(')', out);
		}
		if (json_is_true(json_object_get(ev, "user_only")))
			fputs(", user space only (no permission for kernel samples)", out);
		fputs(". The flame graph is in report.html.\n\n", out);
		fputs("| function | module | self % | total % | samples |\n|---|---|--:|--:|--:|\n",
		      out);
		size_t k;
		json_t *x;
		json_array_foreach(json_object_get(doc, "top_self"), k, x)
		{
			if (k >= 15)
				break;
			fputs("| ", out);
			md_cell(out, pl_json_str(x, "function"));
			fputs(" | ", out);
			md_cell(out, pl_json_str(x, "module"));
			fputs(" |", out);
			md_num(out, json_object_get(x, "self_pct"));
			md_num(out, json_object_get(x, "total_pct"));
			fprintf(out, " %lld |\n", pl_json_int(x, "self"));
		}
		fputc('\n', out);
	}
}

/* tune diff/verify/apply: the items that differ or are pending, and the counts. */
static void md_tune(FILE *out, const json_t *arr)
{
	if (json_array_size(arr) == 0)
		return;
	fprintf(out, "## Tuning\n\n");
	size_t i;
	json_t *doc;
	json_array_foreach(arr, i, doc)
	{
		fprintf(out, "### tune %s %s\n\n", pl_json_str(doc, "command"),
			pl_json_str(doc, "profile"));
		const json_t *sum = json_object_get(doc, "summary");
		const char *k;
		json_t *v;
		json_object_foreach((json_t *)sum, k, v)
			fprintf(out, "%s: %lld. ", k, (long long)json_integer_value(v));
		fputs("\n\n| plugin | item | current | wanted | state |\n|---|---|---|---|---|\n",
		      out);
		size_t j;
		json_t *x;
		json_array_foreach(json_object_get(doc, "items"), j, x)
		{
			const char *state = pl_json_str(x, "state");
			char *cur = json_is_null(json_object_get(x, "current")) ||
						    !json_object_get(x, "current")
					    ? pl_xstrdup("")
					    : pl_fact_value_text(json_object_get(x, "current"));
			char *want = json_is_null(json_object_get(x, "wanted")) ||
						     !json_object_get(x, "wanted")
					     ? pl_xstrdup("")
					     : pl_fact_value_text(json_object_get(x, "wanted"));
			fputs("| ", out);
			md_cell(out, pl_json_str(x, "plugin"));
			fputs(" | `", out);
			md_cell(out, pl_json_str(x, "key"));
			fputc('`', out);
			if (pl_json_str(x, "device")) {
				fputs(" (", out);
				md_cell(out, pl_json_str(x, "device"));
				fputc(')', out);
			}
			fputs(" | ", out);
			md_cell(out, cur);
			fputs(" | ", out);
			md_cell(out, want);
			fputs(" | ", out);
			md_cell(out, state);
			if (pl_json_str(x, "reason")) {
				fputs(": ", out);
				md_cell(out, pl_json_str(x, "reason"));
			}
			fputs(" |\n", out);
			free(cur);
			free(want);
		}
		fputc('\n', out);
	}
}

/* A finding's measured evidence (pl_report_annotate()), after its rationale. */
static void md_evidence(FILE *out, const json_t *finding)
{
	const json_t *ev = json_object_get(finding, "evidence");
	if (!pl_json_str(ev, "text"))
		return;
	fputs(" **Measured here:** ", out);
	md_cell(out, pl_json_str(ev, "text"));
	fprintf(out, " ([bench %s](#bench-%s)).", pl_json_str(ev, "benchmark"),
		pl_json_str(ev, "benchmark"));
}

int pl_report_write_markdown(FILE *out, const json_t *report)
{
	fprintf(out, "# perflab report\n\n");
	fprintf(out, "Generated %s by perflab %s.\n\n", pl_json_str(report, "generated"),
		pl_json_str(report, "perflab_version"));
	/* "unreliable: ..." before the figures it qualifies (README: every output opens
	 * with it) */
	char *top = pl_caveats_report_top(report);
	if (top) {
		fputs("> **", out);
		md_cell(out, top);
		fputs("**\n\n", out);
	}
	free(top);
	pl_keynums_write_markdown(out, report);

	const json_t *check = json_object_get(report, "check");
	const json_t *sum = json_object_get(check, "summary");
	fprintf(out, "## Findings (workload: %s)\n\n", pl_json_str(check, "workload"));
	fprintf(out, "%lld critical, %lld warnings, %lld info.\n\n",
		(long long)json_integer_value(json_object_get(sum, "crit")),
		(long long)json_integer_value(json_object_get(sum, "warn")),
		(long long)json_integer_value(json_object_get(sum, "info")));
	const json_t *arr = json_object_get(check, "findings");
	if (json_array_size(arr) > 0) {
		fprintf(out, "| severity | finding | observed | expected | fix |\n");
		fprintf(out, "|---|---|---|---|---|\n");
		size_t i;
		json_t *x;
		json_array_foreach(arr, i, x)
		{
			fprintf(out, "| %s | ", pl_json_str(x, "severity"));
			md_cell(out, pl_json_str(x, "title"));
			if (pl_json_str(x, "subject")) {
				fputs(": ", out);
				md_cell(out, pl_json_str(x, "subject"));
			}
			fprintf(out, " (`%s`)%s | ", pl_json_str(x, "id"),
				json_is_true(json_object_get(x, "risky")) ? " *(risky setting)*"
									  : "");
			md_cell(out, pl_json_str(x, "observed"));
			fputs(" | ", out);
			md_cell(out, pl_json_str(x, "expected"));
			fputs(" | ", out);
			const json_t *fix = json_object_get(x, "fix");
			if (pl_json_str(fix, "command")) {
				fputc('`', out);
				md_cell(out, pl_json_str(fix, "command"));
				fputc('`', out);
			}
			if (pl_json_str(fix, "tune")) {
				fputs(pl_json_str(fix, "command") ? "; profile: `" : "profile: `",
				      out);
				md_cell(out, pl_json_str(fix, "tune"));
				fputc('`', out);
			}
			fputs(" |\n", out);
		}
		fputs("\n### Why\n\n", out);
		json_array_foreach(arr, i, x)
		{
			fprintf(out, "- **%s**: ", pl_json_str(x, "id"));
			md_cell(out, pl_json_str(x, "rationale"));
			fprintf(out, " Source: %s", pl_json_str(x, "source"));
			md_evidence(out, x);
			fputc('\n', out);
		}
		fputc('\n', out);
	}

	pl_diff_report_markdown(out, report);
	pl_report_markdown_benchmarks(out, json_object_get(report, "benchmarks"));
	md_comparisons(out, json_object_get(report, "comparisons"));
	md_profiles(out, json_object_get(report, "profiles"));
	md_tune(out, json_object_get(report, "tune"));

	fprintf(out, "## Facts\n\n| fact | value | source |\n|---|---|---|\n");
	const json_t *facts = json_object_get(report, "facts");
	const char *key;
	json_t *e;
	json_object_foreach((json_t *)facts, key, e)
	{
		const json_t *v = json_object_get(e, "value");
		char *t =
			v ? pl_fact_value_text(v)
			  : pl_xasprintf("unavailable: %s", pl_json_str(e, "unavailable")
								    ? pl_json_str(e, "unavailable")
								    : "?");
		fputs("| `", out);
		md_cell(out, key);
		fputs("` | ", out);
		md_cell(out, t);
		fputs(" | ", out);
		md_cell(out, v ? pl_json_str(e, "source") : "");
		fputs(" |\n", out);
		free(t);
	}
	return ferror(out) ? -EIO : 0;
}

void pl_report_print_summary(FILE *out, const json_t *report, const char *dir)
{
	const char *w = pl_style(out, "yellow"), *r = pl_style(out, "reset");
	pl_keynums_write_text(out, report);
	const json_t *check = json_object_get(report, "check");
	const json_t *arr = json_object_get(check, "findings");
	size_t i, shown = 0;
	json_t *x;
	json_array_foreach(arr, i, x)
	{
		if (strcmp(pl_json_str(x, "severity"), "info") == 0 || shown >= 5)
			continue;
		const json_t *fix = json_object_get(x, "fix");
		/* subjects and fix commands carry machine-tree names: escape controls */
		char *subj = pl_str_escape(pl_json_str(x, "subject"), PL_ESC_TERM);
		fprintf(out, "  [%s] %s%s%s\n", pl_json_str(x, "severity"), pl_json_str(x, "title"),
			*subj ? ": " : "", subj);
		free(subj);
		if (pl_json_str(fix, "command")) {
			char *cmd = pl_str_escape(pl_json_str(fix, "command"), PL_ESC_TERM);
			fprintf(out, "         fix: %s\n", cmd);
			free(cmd);
		}
		const char *ev = pl_json_str(json_object_get(x, "evidence"), "text");
		if (ev) { /* {subject} and the via note are machine-tree text */
			char *e = pl_str_escape(ev, PL_ESC_TERM);
			fprintf(out, "         measured: %s\n", e);
			free(e);
		}
		shown++;
	}
	/* key numbers: the first metric of every benchmark that ran, with its caveats (tags
	 * inline), the benchmark's notes and its info items (report/figures.h) */
	const json_t *benches = json_object_get(report, "benchmarks");
	if (json_array_size(benches) > 0)
		fprintf(out, "benchmarks (first figure of each, median, with its caveats):\n");
	json_array_foreach(benches, i, x)
	{
		const json_t *m = json_array_get(json_object_get(x, "metrics"), 0);
		const char *st = pl_json_str(x, "status");
		if (!m || !st || strcmp(st, "ok") != 0) {
			fprintf(out, "  %-10s %s%s%s\n", pl_json_str(x, "benchmark"), st ? st : "?",
				pl_json_str(x, "reason") ? ": " : "",
				pl_json_str(x, "reason") ? pl_json_str(x, "reason") : "");
			continue;
		}
		char num[48];
		const char *lbl = pl_figure_better_label(pl_json_str(m, "better"));
		fprintf(out, "  %-10s %s %s%s%s%s", pl_json_str(x, "benchmark"),
			pl_json_str(m, "name"),
			pl_fmt_unit(num, sizeof(num), pl_json_num(m, "median"),
				    pl_json_str(m, "unit")),
			lbl ? " (" : "", lbl ? lbl : "", lbl ? ")" : "");
		struct pl_caveats mc = { 0 }, bc = { 0 };
		pl_caveats_metric(x, m, &mc);
		pl_caveats_bench(x, &bc);
		size_t ntag = 0;
		const struct pl_caveats *both[] = { &mc, &bc };
		for (size_t l = 0; l < 2; l++)
			for (size_t k = 0; k < both[l]->n; k++)
				if (both[l]->v[k].kind == PL_CAVEAT_WARN && both[l]->v[k].tag)
					fprintf(out, "%s%s%s", ntag++ ? "; " : "  [", w,
						both[l]->v[k].tag);
		fprintf(out, "%s%s\n", ntag ? r : "", ntag ? "]" : "");
		struct pl_buf info = { 0 };
		for (size_t k = 0; k < bc.n; k++) {
			const struct pl_caveat *c = &bc.v[k];
			/* notes and warnings without a short form in full (not the runner's
			 * spread warning: each figure has its own tag), info on one line */
			if (c->kind == PL_CAVEAT_INFO)
				pl_buf_printf(&info, "%s%s", info.len ? "; " : "", c->text);
			else if (c->kind == PL_CAVEAT_NOTE ||
				 (!c->tag && !pl_startswith(c->text, "spread too wide")))
				fprintf(out, "%13s%s: %s\n", "",
					c->kind == PL_CAVEAT_NOTE ? "note" : "caveat", c->text);
		}
		if (info.len)
			fprintf(out, "%13sinfo: %s\n", "", info.data);
		pl_buf_free(&info);
		pl_caveats_free(&mc);
		pl_caveats_free(&bc);
	}
	pl_diff_report_summary(out, report);
	if (dir)
		fprintf(out, "report written to %s/report.html (also report.md, report.json)\n",
			dir);
}
