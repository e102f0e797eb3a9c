/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `report --from FILE`: a saved perflab JSON document (bench, compare, profile, tune,
 * check, inspect or a whole report; docs/schemas/) merged into a report (report/from.h)
 * and rendered the way `report` renders it: JSON, Markdown, HTML and the terminal
 * summary (to /dev/null). The input is the file's bytes. Invariant: a merge that fails
 * says why. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "facts/facts.h"
#include "fuzz.h"
#include "render/html.h"
#include "render/markdown.h"
#include "render/summary.h"
#include "util/json.h"
#include "report/from.h"
#include "report/report.h"
#include "rules/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 20)
		return -1;
	static FILE *null;
	if (!null)
		null = fopen("/dev/null", "w");
	const char *path = fuzz_write("from.json", data, size);
	struct pl_facts f;
	pl_facts_init(&f);
	struct pl_findings fs = { 0 };
	json_t *doc = pl_report_build(&f, &fs, "general", 0);
	char err[512] = "";
	if (pl_report_merge_file(doc, path, err, sizeof(err)) == 0) {
		pl_json_write(null, doc);
		pl_report_write_markdown(null, doc);
		pl_report_write_html(null, doc);
		pl_report_print_summary(null, doc, "/nonexistent-report-dir");
	} else {
		FUZZ_ASSERT(err[0], "a refused document is explained");
	}
	json_decref(doc);
	pl_findings_free(&fs);
	pl_facts_free(&f);
	return 0;
}
