/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "report/from.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile/flame.h"
#include "util/jcheck.h"
#include "util/json.h"
#include "util/str.h"

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
 * every member the renderers of render/ (markdown.c, html.c, summary.c) read, with the types
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
		PL_JOPT("warnings", &pl_jstrings), PL_JOPT("from", &pl_jstr))
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

/* What a file that is not a regular file is, for the error line. */
static const char *file_type(mode_t m)
{
	return S_ISDIR(m)    ? "a directory"
	       : S_ISFIFO(m) ? "a FIFO"
	       : S_ISSOCK(m) ? "a socket"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
			     : "not a regular file";
}

json_t *pl_report_read_json(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot read JSON from '%s': %s", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "cannot read JSON from '%s': %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen,
			 "cannot read JSON from '%s': %s (give a regular file written by perflab "
			 "--json or -o)",
			 path, file_type(st.st_mode));
		close(fd);
		return NULL;
	}
	if ((uintmax_t)st.st_size > PL_REPORT_MAX_INPUT) {
		snprintf(err, errlen,
			 "cannot read JSON from '%s': %jd bytes, more than the %u MiB an input may "
			 "have",
			 path, (intmax_t)st.st_size, PL_REPORT_MAX_INPUT >> 20);
		close(fd);
		return NULL;
	}
	/* read to the end, the cap included: a file that grows past it is refused too */
	size_t cap = (size_t)st.st_size + 1, len = 0;
	char *buf = pl_xmalloc(cap);
	for (;;) {
		if (len == cap) {
			if (cap > PL_REPORT_MAX_INPUT)
				break;
			cap = cap * 2 > PL_REPORT_MAX_INPUT + 1 ? PL_REPORT_MAX_INPUT + 1 : cap * 2;
			buf = pl_xrealloc(buf, cap);
		}
		ssize_t n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "cannot read JSON from '%s': %s", path,
				 strerror(errno));
			free(buf);
			close(fd);
			return NULL;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (len > PL_REPORT_MAX_INPUT) {
		snprintf(err, errlen,
			 "cannot read JSON from '%s': more than the %u MiB an input may have", path,
			 PL_REPORT_MAX_INPUT >> 20);
		free(buf);
		return NULL;
	}
	json_error_t je;
	json_t *doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	free(buf);
	if (!doc && je.line > 0)
		snprintf(err, errlen, "cannot read JSON from '%s': %s (line %d, column %d)", path,
			 je.text, je.line, je.column);
	else if (!doc)
		snprintf(err, errlen, "cannot read JSON from '%s': %s", path, je.text);
	return doc;
}

int pl_report_merge_file(json_t *report, const char *path, char *err, size_t errlen)
{
	json_t *doc = pl_report_read_json(path, err, errlen);
	if (!doc)
		return -EINVAL;
	const char *kind = NULL, *section = NULL;
	int r = pl_report_check_doc(doc, path, &kind, &section, err, errlen);
	if (r == 0) {
		/* each saved bench result says which file it came from (a result of an
		 * earlier report: that report's file, not the one it named) */
		json_t *b;
		size_t j;
		if (strcmp(kind, "bench") == 0)
			json_object_set_new(doc, "from", pl_json_string(path));
		else if (strcmp(kind, "report") == 0)
			json_array_foreach(json_object_get(doc, "benchmarks"), j, b)
				json_object_set_new(b, "from", pl_json_string(path));
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

json_t *pl_report_read_inputs(char *const *paths, char *err, size_t errlen)
{
	json_t *from = json_object();
	for (char *const *p = paths; p && *p; p++) {
		if (pl_report_merge_file(from, *p, err, errlen) < 0) {
			json_decref(from);
			return NULL;
		}
	}
	return from;
}

void pl_report_add_inputs(json_t *report, const json_t *inputs)
{
	/* whole sections replace, result lists append */
	const char *key;
	json_t *val;
	json_object_foreach((json_t *)inputs, key, val)
	{
		if (json_is_array(val)) {
			json_t *arr = json_object_get(report, key);
			if (!arr) {
				arr = json_array();
				json_object_set_new(report, key, arr);
			}
			json_array_extend(arr, val);
		} else {
			json_object_set(report, key, val);
		}
	}
}
