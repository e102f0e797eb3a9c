/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Prometheus writers: label escaping and the series written for check and bench docs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render/prom.h"

static char *render(int (*fn)(FILE *, const json_t *), const char *json)
{
	json_error_t e;
	json_t *doc = json_loads(json, 0, &e);
	assert_non_null(doc);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(fn(f, doc), 0);
	fclose(f);
	json_decref(doc);
	return buf;
}

static int bench_with_header(FILE *f, const json_t *doc)
{
	return pl_prom_write_bench(f, doc, 1);
}

static void test_label_escaping(void **state)
{
	(void)state;
	char *out =
		render(pl_prom_write_check,
		       "{\"workload\":\"general\",\"summary\":{\"crit\":1,\"warn\":0,\"info\":0},"
		       "\"findings\":[{\"id\":\"disk.x\",\"severity\":\"crit\","
		       "\"subject\":\"a\\\"b\\\\c\\nd\"}]}");
	assert_non_null(
		strstr(out, "perflab_check_findings{workload=\"general\",severity=\"crit\"} 1\n"));
	assert_non_null(strstr(out, "perflab_check_finding{workload=\"general\",id=\"disk.x\","
				    "severity=\"crit\",subject=\"a\\\"b\\\\c\\nd\"} 1\n"));
	free(out);
}

static void test_bench_series(void **state)
{
	(void)state;
	char *out = render(bench_with_header,
			   "{\"benchmark\":\"mem\",\"status\":\"ok\",\"runner\":{\"runs\":5},"
			   "\"metrics\":[{\"name\":\"triad\",\"unit\":\"GB/s\",\"best\":12.5,"
			   "\"median\":12,\"mean\":11.9,\"p99\":12.4,\"min\":11.2,\"max\":12.5,"
			   "\"stddev\":null,"
			   "\"notes\":{\"backend\":\"avx2\"}}]}");
	assert_non_null(strstr(out, "# TYPE perflab_bench_value gauge\n"));
	assert_non_null(strstr(out, "perflab_bench_value{benchmark=\"mem\",metric=\"triad\","
				    "unit=\"GB/s\",stat=\"best\",backend=\"avx2\"} 12.5\n"));
	assert_null(strstr(out, "stat=\"stddev\"")); /* undefined values are left out */
	/* the runs' range, not a p99 of five runs */
	assert_non_null(strstr(out, "stat=\"min\",backend=\"avx2\"} 11.2\n"));
	assert_non_null(strstr(out, "stat=\"max\",backend=\"avx2\"} 12.5\n"));
	assert_null(strstr(out, "stat=\"p99\""));
	assert_non_null(strstr(out, "perflab_bench_runs{benchmark=\"mem\"} 5\n"));
	assert_non_null(strstr(out, "perflab_bench_ok{benchmark=\"mem\"} 1\n"));
	/* not quick, no warnings: no caveat series, only the family's HELP and TYPE */
	assert_non_null(strstr(out, "# TYPE perflab_bench_caveat gauge\n"));
	assert_null(strstr(out, "perflab_bench_caveat{"));
	free(out);
}

/* A --quick run and every warning of the document are caveat series, the warning's
 * text escaped whole as the label value. */
static void test_bench_caveats(void **state)
{
	(void)state;
	char *out = render(bench_with_header,
			   "{\"benchmark\":\"mem\",\"status\":\"ok\",\"runner\":{\"runs\":2,"
			   "\"quick\":true},\"metrics\":[],\"warnings\":[\"machine not idle: "
			   "84% busy\",\"a \\\"quoted\\\" \\\\ name\\nnext\"]}");
	assert_non_null(strstr(out, "perflab_bench_caveat{benchmark=\"mem\",caveat=\"quick run "
				    "(--quick): brief arguments"));
	assert_non_null(strstr(out, "perflab_bench_caveat{benchmark=\"mem\",caveat=\"machine "
				    "not idle: 84% busy\"} 1\n"));
	assert_non_null(strstr(out, "perflab_bench_caveat{benchmark=\"mem\",caveat=\"a "
				    "\\\"quoted\\\" \\\\ name\\nnext\"} 1\n"));
	size_t n = 0;
	for (const char *p = out; (p = strstr(p, "perflab_bench_caveat{")); p++)
		n++;
	assert_int_equal(n, 3);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_label_escaping),
		cmocka_unit_test(test_bench_series),
		cmocka_unit_test(test_bench_caveats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
