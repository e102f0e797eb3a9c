/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The report's counter section through the renderers (render/counters.h), from a
 * document built with a synthetic reading (report/counters.h, counters/window.h): with a
 * core PMU a table benchmark x metric (values worked by hand, "n/a" and the reason once
 * for a metric whose event is missing), without one a single line with the reason and no
 * table; a document without the section renders nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "counters/metric.h"
#include "counters/window.h"
#include "render/counters.h"
#include "report/counters.h"
#include "util/str.h"

/* @fn's output for @doc as a malloc'd string. */
static char *render(void (*fn)(FILE *, const json_t *), const json_t *doc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	fn(f, doc);
	fclose(f);
	return buf;
}

static char *render_html(const json_t *doc)
{
	struct pl_buf b = { 0 };
	pl_render_counters_html(&b, doc);
	return b.data ? pl_buf_steal(&b) : pl_xstrdup("");
}

/* A report document whose section counted bench "mem": 3e9 instructions in 2e9 cycles
 * (ipc 1.5), 5e6 branch misses in 1e9 branches (0.5 %), no LLC-load-misses event. */
static json_t *doc_with_table(void)
{
	const struct pl_metric *ms[3];
	char err[256];
	assert_int_equal(
		pl_metric_select("ipc,llc_mpki,branch_miss_rate", NULL, ms, 3, err, sizeof(err)),
		3);
	struct pl_cnt_event evs[4] = { { .name = "instructions", .scale = 1 },
				       { .name = "cycles", .scale = 1 },
				       { .name = "branch-misses", .scale = 1 },
				       { .name = "branches", .scale = 1 } };
	double val[4] = { 3e9, 2e9, 5e6, 1e9 };
	struct pl_cnt_value v[4];
	memset(v, 0, sizeof(v));
	for (size_t i = 0; i < 4; i++) {
		v[i].ev = &evs[i];
		v[i].raw = (uint64_t)val[i];
		v[i].value = val[i];
		v[i].counted = v[i].supported = true;
	}
	struct pl_cnt_result r = { .v = v, .n = 4, .elapsed_ns = 2000000000 };
	json_t *sec = pl_report_cnt_section(true, NULL, "intel", ms, 3);
	json_array_append_new(json_object_get(sec, "benchmarks"), pl_cnt_row("mem", ms, 3, &r));
	json_t *doc = json_object();
	json_object_set_new(doc, "counters", sec);
	return doc;
}

static void test_table(void **state)
{
	(void)state;
	json_t *doc = doc_with_table();
	const json_t *row =
		json_array_get(json_object_get(json_object_get(doc, "counters"), "benchmarks"), 0);
	assert_true(json_number_value(json_object_get(json_object_get(row, "values"), "ipc")) ==
		    1.5);
	assert_true(json_is_null(json_object_get(json_object_get(row, "values"), "llc_mpki")));
	char *md = render(pl_render_counters_markdown, doc);
	assert_non_null(strstr(md, "## Counters\n"));
	assert_non_null(strstr(md, "| benchmark | ipc | llc_mpki | branch_miss_rate |\n"));
	assert_non_null(strstr(md, "| mem | 1.5 insn/cycle | n/a | 0.5 % |\n"));
	assert_non_null(strstr(md, "- llc_mpki: unavailable: LLC-load-misses not on this PMU\n"));
	assert_null(strstr(md, "No hardware counters"));
	char *html = render_html(doc);
	assert_non_null(strstr(html, "<h2 id=\"counters\">Counters</h2>"));
	assert_non_null(strstr(html, "<th>branch_miss_rate</th>"));
	assert_non_null(strstr(html, "<td>mem</td>"));
	assert_non_null(strstr(html, "1.5"));
	assert_non_null(strstr(html, "LLC-load-misses not on this PMU"));
	char *txt = render(pl_render_counters_text, doc);
	assert_non_null(strstr(txt, "counters (system-wide, per benchmark):\n"));
	assert_non_null(strstr(txt, "1.5 insn/cycle"));
	assert_non_null(strstr(txt, "  llc_mpki: unavailable: LLC-load-misses not on this PMU\n"));
	free(md);
	free(html);
	free(txt);
	json_decref(doc);
}

static void test_no_core_pmu(void **state)
{
	(void)state;
	const char *why = "no core PMU in /sys/bus/event_source/devices (it has: software)";
	json_t *doc = json_object();
	json_object_set_new(doc, "counters", pl_report_cnt_section(false, why, "none", NULL, 0));
	char *md = render(pl_render_counters_markdown, doc);
	assert_string_equal(md, "## Counters\n\nNo hardware counters: no core PMU in "
				"/sys/bus/event_source/devices (it has: software).\n\n");
	char *html = render_html(doc);
	assert_non_null(strstr(html, "No hardware counters: no core PMU"));
	assert_null(strstr(html, "<table>"));
	char *txt = render(pl_render_counters_text, doc);
	assert_string_equal(txt, "counters: No hardware counters: no core PMU in "
				 "/sys/bus/event_source/devices (it has: software).\n");
	free(md);
	free(html);
	free(txt);
	json_decref(doc);
	/* no section (saved reports, --no-bench): nothing */
	doc = json_object();
	md = render(pl_render_counters_markdown, doc);
	txt = render(pl_render_counters_text, doc);
	html = render_html(doc);
	assert_string_equal(md, "");
	assert_string_equal(txt, "");
	assert_string_equal(html, "");
	free(md);
	free(html);
	free(txt);
	json_decref(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_no_core_pmu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
