/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Folded stacks: what profile writes (pl_preport_write_folded) is always what
 * --from-folded reads back (pl_flame_read), also for an empty thread name, a newline in
 * a name, ';' in a C++ name; and pl_flame_add_line's range checks. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profile/flame.h"
#include "profile/aggregate.h"

static void test_written_lines_read_back(void **state)
{
	(void)state;
	struct pl_func funcs[] = {
		{ .name = "main" },
		{ .name = "ns::f(a;b)" },
		{ .name = "", .kernel = true },
	};
	uint32_t f1[] = { 0, 1 }, f2[] = { 2 };
	struct pl_chain chains[] = {
		{ .comm = "", .frames = f1, .n = 2, .count = 5 },
		{ .comm = "x\ny", .frames = f2, .n = 1, .count = 7 },
	};
	struct pl_preport r = { .funcs = funcs, .nfuncs = 3, .chains = chains, .nchains = 2 };
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	assert_int_equal(pl_preport_write_folded(&r, m), 0);
	fclose(m);
	assert_string_equal(buf, "[unknown];main;ns::f(a:b) 5\nx?y;[unknown]_[k] 7\n");
	struct pl_flame *fl = pl_flame_new();
	FILE *in = fmemopen(buf, len, "r");
	size_t bad = 0;
	assert_int_equal(pl_flame_read(fl, in, &bad), 0);
	fclose(in);
	assert_int_equal(pl_flame_total(fl), 12);
	pl_flame_free(fl);
	free(buf);
}

static void test_add_line(void **state)
{
	(void)state;
	struct pl_flame *fl = pl_flame_new();
	assert_int_equal(pl_flame_add_line(fl, "a;b 18446744073709551615\n"), 0);
	assert_int_equal(pl_flame_add_line(fl, "a;c 1"), -EOVERFLOW);
	assert_int_equal(pl_flame_total(fl), UINT64_MAX);
	assert_int_equal(pl_flame_add_line(fl, "a;c 0"), 0);
	assert_int_equal(pl_flame_add_line(fl, "a 18446744073709551616"), -ERANGE);
	assert_int_equal(pl_flame_add_line(fl, "a -1"), -EDOM);
	assert_int_equal(pl_flame_add_line(fl, "a 1x"), -EDOM);
	assert_int_equal(pl_flame_add_line(fl, "a;b"), -EINVAL);
	assert_int_equal(pl_flame_add_line(fl, " 3"), -ENODATA);
	assert_int_equal(pl_flame_add_line(fl, "a;;b 3"), -ENOMSG);
	assert_int_equal(pl_flame_add_line(fl, " \t\r\n"), 0);
	assert_int_equal(pl_flame_total(fl), UINT64_MAX);
	pl_flame_free(fl);
	assert_string_equal(pl_flame_strerror(-ERANGE),
			    "the count is past 2^64-1 (18446744073709551615)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_written_lines_read_back),
		cmocka_unit_test(test_add_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
