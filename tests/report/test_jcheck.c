/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The JSON shape checker behind report --from (src/util/jcheck.h): the JSON path and the
 * message of the first problem, for each kind of check. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/jcheck.h"

static const char *const colours[] = { "red", "green", NULL };

/* "rows" entries each have "n" == the document's "width" */
static int rows_match(const json_t *v, struct pl_jctx *c)
{
	json_int_t w = json_integer_value(json_object_get(v, "width"));
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(v, "rows"), i,
			   x) if (json_integer_value(json_object_get(x, "n")) != w)
	{
		char sub[32];
		snprintf(sub, sizeof(sub), ".rows[%zu].n", i);
		return pl_jfail(c, sub, "is not the width (%lld)", (long long)w);
	}
	return 0;
}

static const struct pl_jshape doc = {
	.types = PL_JT_OBJ,
	.members = PL_JMEMBERS(
		PL_JREQ("name", PL_JSHAPE(.types = PL_JT_STR, .min_len = 1, .max_len = 8)),
		PL_JOPT("colour", PL_JSHAPE(.types = PL_JT_STR, .oneof = colours)),
		PL_JOPT("note", &pl_jstr_or_null), PL_JOPT("width", &pl_jcount),
		PL_JOPT("pct", &pl_jpct),
		PL_JOPT("rows", PL_JSHAPE(.types = PL_JT_ARR, .max_len = 3,
					  .each = PL_JSHAPE(.types = PL_JT_OBJ,
							    .members = PL_JMEMBERS(
								    PL_JREQ("n", &pl_jint))))),
		PL_JOPT("map", PL_JSHAPE(.types = PL_JT_OBJ, .each = &pl_jstrings))),
	.check = rows_match
};

/* The message for @json, or "" when it passes. */
static const char *check(const char *json)
{
	static char err[512];
	json_error_t e;
	json_t *v = json_loads(json, 0, &e);
	assert_non_null(v);
	err[0] = '\0';
	int r = pl_jcheck(v, &doc, "t.json", err, sizeof(err));
	assert_true(r == 0 ? err[0] == '\0' : r == -EINVAL && err[0] != '\0');
	json_decref(v);
	return err;
}

static void test_valid(void **state)
{
	(void)state;
	assert_string_equal(check("{\"name\":\"a\",\"extra\":[1,{}]}"), "");
	assert_string_equal(check("{\"name\":\"abcdefgh\",\"colour\":\"green\",\"note\":null,"
				  "\"width\":2,\"pct\":100,\"rows\":[{\"n\":2},{\"n\":2}],"
				  "\"map\":{\"x\":[\"a\"],\"y z\":[]}}"),
			    "");
}

static void test_types(void **state)
{
	(void)state;
	assert_string_equal(check("[]"), "t.json: $: expected an object, got an array");
	assert_string_equal(check("{}"), "t.json: $.name: missing (expected a string)");
	assert_string_equal(check("{\"name\":null}"),
			    "t.json: $.name: expected a string, got null");
	assert_string_equal(check("{\"name\":\"a\",\"note\":1.5}"),
			    "t.json: $.note: expected a string or null, got a number");
	assert_string_equal(check("{\"name\":\"a\",\"width\":true}"),
			    "t.json: $.width: expected an integer, got a boolean");
	assert_string_equal(check("{\"name\":\"a\",\"rows\":[{\"n\":1},{\"n\":\"1\"}]}"),
			    "t.json: $.rows[1].n: expected an integer, got a string");
	assert_string_equal(check("{\"name\":\"a\",\"rows\":[{}]}"),
			    "t.json: $.rows[0].n: missing (expected an integer)");
}

static void test_ranges_and_values(void **state)
{
	(void)state;
	assert_string_equal(check("{\"name\":\"\"}"),
			    "t.json: $.name: expected at least 1 character, got \"\"");
	assert_string_equal(check("{\"name\":\"abcdefghi\"}"),
			    "t.json: $.name: longer than 8 bytes (9)");
	assert_string_equal(check("{\"name\":\"a\",\"colour\":\"blue\\n\"}"),
			    "t.json: $.colour: expected one of red, green; got \"blue\\x0a\"");
	assert_string_equal(check("{\"name\":\"a\",\"width\":-1}"),
			    "t.json: $.width: -1 is out of range (expected at least 0)");
	assert_string_equal(check("{\"name\":\"a\",\"width\":9223372036854775807,\"rows\":[]}"),
			    "");
	assert_string_equal(check("{\"name\":\"a\",\"pct\":100.5}"),
			    "t.json: $.pct: 100.5 is out of range (expected 0 to 100)");
	assert_string_equal(
		check("{\"name\":\"a\",\"rows\":[{\"n\":1},{\"n\":1},{\"n\":1},{\"n\":1}]}"),
		"t.json: $.rows: expected at most 3 entries, got 4");
}

static void test_paths(void **state)
{
	(void)state;
	assert_string_equal(check("{\"name\":\"a\",\"map\":{\"ok_1\":[\"x\",2]}}"),
			    "t.json: $.map.ok_1[1]: expected a string, got an integer");
	assert_string_equal(check("{\"name\":\"a\",\"map\":{\"cpu.0\":{}}}"),
			    "t.json: $.map[\"cpu.0\"]: expected an array, got an object");
	assert_string_equal(
		check("{\"name\":\"a\",\"map\":{\"a\\\"b\\\\\\u0007\":0}}"),
		"t.json: $.map[\"a\\\"b\\\\\\x07\"]: expected an array, got an integer");
	/* a custom check names the member below the value it was given */
	assert_string_equal(check("{\"name\":\"a\",\"width\":2,\"rows\":[{\"n\":2},{\"n\":3}]}"),
			    "t.json: $.rows[1].n: is not the width (2)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_ranges_and_values),
		cmocka_unit_test(test_paths),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
