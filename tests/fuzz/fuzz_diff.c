/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab diff (report/diff.h) of two documents: the input split at the first form feed
 * (\f) into OLD and NEW, each a JSON text. A part is taken as `perflab diff` takes a file
 * (render/diff.c's inputs): pl_report_check_doc, a kind diff compares (report, inspect,
 * check, bench) and report/limits.h's counts; two such parts are diffed with the default
 * options and the diff printed for the terminal, and as a report's "Changes since
 * baseline" (terminal summary, report.md, report.html), to /dev/null. Invariants: the
 * summary's counts are the lengths of their lists, and the diff of a document against
 * itself has no fact changed, added or removed and no finding appeared or resolved. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "render/diff.h"
#include "report/diff.h"
#include "report/from.h"
#include "report/limits.h"
#include "util/json.h"
#include "util/str.h"

/* @doc's kind when `perflab diff` would take it, else NULL. */
static const char *diff_kind(const json_t *doc, const char *name)
{
	char err[512];
	const char *kind = NULL;
	if (!json_is_object(doc) ||
	    pl_report_check_doc(doc, name, &kind, NULL, err, sizeof(err)) < 0 ||
	    pl_doc_check_limits(doc, name, err, sizeof(err)) < 0)
		return NULL;
	static const char *const kinds[] = { "report", "inspect", "check", "bench" };
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(kind, kinds[i]) == 0)
			return kinds[i];
	return NULL;
}

/* summary.@count is the length of @sect.@list (when the section is there) */
static void check_count(const json_t *d, const char *sect, const char *list, const char *count)
{
	const json_t *s = json_object_get(d, sect);
	if (!s)
		return;
	FUZZ_ASSERT(json_integer_value(json_object_get(json_object_get(d, "summary"), count)) ==
			    (json_int_t)json_array_size(json_object_get(s, list)),
		    "a summary count is its list's length");
}

static void render(FILE *null, const json_t *d)
{
	pl_diff_print_text(null, d);
	json_t *rep = json_object();
	json_object_set(rep, "baseline", (json_t *)d);
	pl_diff_report_summary(null, rep);
	pl_diff_report_markdown(null, rep);
	struct pl_buf b = { 0 };
	pl_diff_report_html(&b, rep);
	free(b.data);
	json_decref(rep);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 20)
		return -1;
	static FILE *null;
	if (!null)
		null = fopen("/dev/null", "w");
	const uint8_t *ff = memchr(data, '\f', size);
	if (!ff)
		return 0;
	json_t *a = json_loadb((const char *)data, (size_t)(ff - data), 0, NULL);
	json_t *b = json_loadb((const char *)ff + 1, size - (size_t)(ff - data) - 1, 0, NULL);
	const char *ka = diff_kind(a, "old"), *kb = diff_kind(b, "new");
	struct pl_diff_opts o = PL_DIFF_OPTS_DEFAULT;
	char err[1024];
	if (ka && kb) {
		json_t *d = pl_diff_build(a, ka, "old", b, kb, "new", &o, err, sizeof(err));
		FUZZ_ASSERT(d || err[0], "a refused diff says why");
		if (d) {
			check_count(d, "facts", "changed", "facts_changed");
			check_count(d, "facts", "added", "facts_added");
			check_count(d, "findings", "appeared", "findings_appeared");
			check_count(d, "findings", "resolved", "findings_resolved");
			check_count(d, "findings", "changed", "findings_changed");
			check_count(d, "benchmarks", "figures", "figures");
			pl_json_write(null, d);
			render(null, d);
			json_decref(d);
		}
	}
	if (ka && strcmp(ka, "bench") != 0) {
		json_t *d = pl_diff_build(a, ka, "old", a, ka, "new", &o, err, sizeof(err));
		FUZZ_ASSERT(d, "a document diffs against itself");
		const json_t *sum = json_object_get(d, "summary");
		/* findings_changed may count a repeated rule id and subject */
		static const char *const none[] = { "facts_changed", "facts_added", "facts_removed",
						    "findings_appeared", "findings_resolved" };
		for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++)
			FUZZ_ASSERT(json_integer_value(json_object_get(sum, none[i])) == 0,
				    "a document against itself changes nothing");
		render(null, d);
		json_decref(d);
	}
	json_decref(a);
	json_decref(b);
	return 0;
}
