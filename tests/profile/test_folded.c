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
#include "util/str.h"

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

/* A broken unwind repeats one unresolved frame: a run of identical "[unknown]" frames
 * is one frame in the folded stacks and in the flame graph, other repeats (recursion)
 * stay; a stack deeper than PL_FLAME_DRAW_DEPTH is drawn to that depth, and said. */
static void test_unknown_runs(void **state)
{
	(void)state;
	struct pl_func funcs[] = {
		{ .name = "main" },
		{ .name = "[unknown]" },
		{ .name = "" }, /* folded as [unknown] too */
		{ .name = "[unknown]", .kernel = true },
		{ .name = "rec" },
	};
	uint32_t f1[120];
	f1[0] = 0;
	for (int i = 1; i < 118; i++)
		f1[i] = i % 2 ? 1 : 2;
	f1[118] = 4;
	f1[119] = 4;
	uint32_t f2[] = { 0, 1, 3, 3, 1 };
	struct pl_chain chains[] = {
		{ .comm = "t", .frames = f1, .n = 120, .count = 5 },
		{ .comm = "t", .frames = f2, .n = 5, .count = 2 },
	};
	struct pl_preport r = { .funcs = funcs, .nfuncs = 5, .chains = chains, .nchains = 2 };
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	assert_int_equal(pl_preport_write_folded(&r, m), 0);
	fclose(m);
	assert_string_equal(buf, "t;main;[unknown];[unknown]_[k];[unknown] 2\n"
				 "t;main;[unknown];rec;rec 5\n");
	free(buf);
	/* the flame graph of a folded file that has the runs (another profiler's) */
	struct pl_flame *fl = pl_flame_new();
	struct pl_buf line = { 0 };
	pl_buf_puts(&line, "t;main");
	for (int i = 0; i < 117; i++)
		pl_buf_puts(&line, ";[unknown]");
	pl_buf_puts(&line, ";leaf 3");
	assert_int_equal(pl_flame_add_line(fl, line.data), 0);
	assert_int_equal(pl_flame_add_line(fl, "t;[unknown]_[o];[unknown]_[o];x 1"), 0);
	char *svg = NULL;
	size_t slen = 0;
	m = open_memstream(&svg, &slen);
	assert_int_equal(pl_flame_write_svg(fl, m, "t", NULL), 0);
	fclose(m);
	/* all, t, main, [unknown], leaf: depths -1 to 3 */
	assert_non_null(strstr(svg, "data-d=\"3\""));
	assert_null(strstr(svg, "data-d=\"4\""));
	assert_non_null(strstr(svg, "<title>leaf (3 samples"));
	assert_null(strstr(svg, "id=\"cut\""));
	free(svg);
	pl_flame_free(fl);
	/* a deep stack of distinct frames: cut at the drawing depth, the rest kept */
	fl = pl_flame_new();
	line.len = 0;
	pl_buf_puts(&line, "t");
	for (int i = 0; i < 300; i++)
		pl_buf_printf(&line, ";f%d", i);
	pl_buf_puts(&line, " 4");
	assert_int_equal(pl_flame_add_line(fl, line.data), 0);
	assert_int_equal(pl_flame_add_line(fl, "u;g 4"), 0);
	svg = NULL;
	m = open_memstream(&svg, &slen);
	assert_int_equal(pl_flame_write_svg(fl, m, "t", NULL), 0);
	fclose(m);
	char want[64];
	snprintf(want, sizeof(want), "data-d=\"%d\"", PL_FLAME_DRAW_DEPTH - 1);
	assert_non_null(strstr(svg, want));
	snprintf(want, sizeof(want), "data-d=\"%d\"", PL_FLAME_DRAW_DEPTH);
	assert_null(strstr(svg, want));
	assert_non_null(strstr(svg, "<title>g (4 samples"));
	assert_non_null(strstr(svg, "Stacks up to 301 frames deep"));
	/* the picture is as tall as the frames drawn, not the deepest stack */
	double h = 0;
	assert_int_equal(sscanf(strstr(svg, "height=\""), "height=\"%lf\"", &h), 1);
	assert_true(h < 50 + (PL_FLAME_DRAW_DEPTH + 4) * 16);
	free(svg);
	pl_flame_free(fl);
	pl_buf_free(&line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_written_lines_read_back),
		cmocka_unit_test(test_add_line),
		cmocka_unit_test(test_unknown_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
