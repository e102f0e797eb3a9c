/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Function names for people: pl_demangle (libiberty; expected strings are what binutils'
 * c++filt 2.40 prints, except where the docstring says we differ: no DMGL_VERBOSE) and
 * pl_name_abbrev (the terminal table's shortening of long C++ names). */
#include <setjmp.h>
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profile/aggregate.h"
#include "profile/symbols.h"

static void expect_dm(const char *mangled, const char *want)
{
	char *d = pl_demangle(mangled);
	if (!want) {
		assert_null(d);
		return;
	}
	assert_non_null(d);
	assert_string_equal(d, want);
	free(d);
}

static void test_demangle_cxx(void **state)
{
	(void)state;
	expect_dm("_ZN3geo5inner4spinEl", "geo::inner::spin(long)");
	expect_dm("_ZN3geo10accumulateIdEET_l", "double geo::accumulate<double>(long)");
	expect_dm("_Z4worki", "work(int)");
	expect_dm("_Z4workd", "work(double)");
	expect_dm("_ZZ4mainENKUllE_clEl", "main::{lambda(long)#1}::operator()(long) const");
	expect_dm("_ZN12_GLOBAL__N_13fooEv", "(anonymous namespace)::foo()");
	/* gcc's clones keep their suffix, as in c++filt */
	expect_dm("_ZN3foo3barEv.cold", "foo::bar() [clone .cold]");
	expect_dm("_ZNSt6vectorIiSaIiEE9push_backERKi",
		  "std::vector<int, std::allocator<int> >::push_back(int const&)");
	/* without DMGL_VERBOSE the standard abbreviations stay (c++filt spells them out) */
	expect_dm("_Z1fSs", "f(std::string)");
}

static void test_demangle_rust(void **state)
{
	(void)state;
	/* legacy: the hash is dropped, like rustc-demangle's {:#} and perf */
	expect_dm("_ZN4core3fmt5write17h0123456789abcdefE", "core::fmt::write");
	/* v0 */
	expect_dm("_RNvCs1234_7mycrate3foo", "mycrate::foo");
}

static void test_not_mangled(void **state)
{
	(void)state;
	expect_dm("main", NULL);
	expect_dm("__libc_start_main", NULL);
	expect_dm("_start", NULL);
	expect_dm("_Zbogus", NULL);
	/* D is not demangled: DMGL_AUTO does not include DMGL_DLANG */
	expect_dm("_D3foo3barFZv", NULL);
	expect_dm("", NULL);
	assert_null(pl_demangle(NULL));
}

static void expect_abbrev(const char *name, size_t max, const char *want)
{
	char *s = pl_name_abbrev(name, max);
	assert_string_equal(s, want);
	assert_true(strlen(s) <= (max < 8 ? 8 : max));
	free(s);
}

static void test_abbrev(void **state)
{
	(void)state;
	const char *v = "std::vector<int, std::allocator<int> >::_M_realloc_insert<int const&>("
			"__gnu_cxx::__normal_iterator<int*, std::vector<int, std::allocator<int> > "
			">, int const&)"; /* 158 bytes */
	/* fits: unchanged */
	expect_abbrev("work(int)", 40, "work(int)");
	expect_abbrev(v, strlen(v), v);
	/* a few bytes too long: one group, the last template argument list outside the
	 * parameters; std::allocator<int> stays ("int" is not longer than "...") */
	expect_abbrev(v, 152,
		      "std::vector<int, std::allocator<int> >::_M_realloc_insert<...>("
		      "__gnu_cxx::__normal_iterator<int*, std::vector<int, std::allocator<int> > "
		      ">, int const&)");
	/* template arguments inside the parameter list go after those outside it */
	expect_abbrev(v, 140,
		      "std::vector<...>::_M_realloc_insert<...>(__gnu_cxx::__normal_iterator<int*, "
		      "std::vector<int, std::allocator<int> > >, int const&)");
	expect_abbrev(v, 90,
		      "std::vector<...>::_M_realloc_insert<...>(__gnu_cxx::__normal_iterator<...>, "
		      "int const&)");
	/* the parameter list last */
	expect_abbrev(v, 50, "std::vector<...>::_M_realloc_insert<...>(...)");
	/* then the front, at a "::" so the rest is whole */
	expect_abbrev(v, 30, "..._M_realloc_insert<...>(...)");
	/* no boundary fits: the tail, which keeps the parameter list */
	expect_abbrev(v, 20, "..._insert<...>(...)");
	/* operators are names, not brackets */
	expect_abbrev("bool geo::operator< <int>(geo::Box<int> const&, geo::Box<int> const&)", 30,
		      "bool geo::operator< <int>(...)");
	expect_abbrev("std::less<int>::operator()(int const&, int const&) const", 40,
		      "std::less<int>::operator()(...) const");
	expect_abbrev("geo::Box<int>::operator->(geo::Box<int> const&) const", 36,
		      "geo::Box<int>::operator->(...) const");
	expect_abbrev("std::ostream& geo::operator<< <int>(std::ostream&, geo::Box<int> const&)",
		      40, "std::ostream& geo::operator<< <int>(...)");
	/* (anonymous namespace) is a name too */
	expect_abbrev("(anonymous namespace)::foo<int>(int, long, long, long)", 40,
		      "(anonymous namespace)::foo<int>(...)");
}

/* The reviewer's lambda: the old steps collapsed every group, then cut inside the braces
 * ("...lambda(...)#1}::operator()(...) const", "main::" lost). */
static void test_abbrev_lambda(void **state)
{
	(void)state;
	const char *l = "main::{lambda(std::vector<int, std::allocator<int> > const&, long)#1}::"
			"operator()(std::vector<int, std::allocator<int> > const&, long) const";
	expect_abbrev(l, 70,
		      "main::{lambda(...)#1}::operator()(std::vector<...> const&, long) const");
	expect_abbrev(l, 44, "main::{lambda(...)#1}::operator()(...) const");
	/* a cut never starts inside the braces */
	expect_abbrev(l, 40, "...operator()(...) const");
}

/* "->" is a token: it neither closes a "<" group (Rust's Fn(&str) -> bool; old output
 * "<...> bool>::call_once") nor opens one. */
static void test_abbrev_arrow(void **state)
{
	(void)state;
	expect_abbrev("<F as core::ops::function::Fn(&str) -> bool>::call_once", 40,
		      "<...>::call_once");
	expect_abbrev("geo::get<decltype(a->b), geo::Box<int> >(geo::Box<int>&)", 40,
		      "geo::get<...>(geo::Box<int>&)");
	expect_abbrev("decltype (({parm#1}->value)) geo::get<geo::Box>(geo::Box&)", 50,
		      "decltype ((...)) geo::get<...>(geo::Box&)");
	/* a cut is not made between "decltype" and its group */
	expect_abbrev("decltype (({parm#1}->value)) geo::get<geo::Box>(geo::Box&)", 30,
		      "...geo::get<...>(...)");
}

static void expect_set(const char *const *names, size_t n, size_t max, const char *const *want)
{
	size_t m[8];
	for (size_t i = 0; i < n; i++)
		m[i] = max;
	char **s = pl_names_abbrev(names, m, n);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(s[i], want[i]);
		assert_true(strlen(s[i]) <= max);
		free(s[i]);
	}
	free(s);
}

/* Overloads whose names alone shorten to the same "work(...)" stay apart in a set. */
static void test_abbrev_apart(void **state)
{
	(void)state;
	const char *w[] = { "work(std::vector<int, std::allocator<int> > const&, int)",
			    "work(std::vector<int, std::allocator<int> > const&, double)",
			    "work(std::vector<int, std::allocator<int> > const&, long)",
			    "work(std::vector<int, std::allocator<int> > const&, int)" };
	char *alone = pl_name_abbrev(w[0], 30);
	assert_string_equal(alone, "work(...)");
	free(alone);
	expect_set(w, 4, 40,
		   (const char *const[]){ "work(std::vector<...> const&, int)",
					  "work(std::vector<...> const&, double)",
					  "work(std::vector<...> const&, long)",
					  "work(std::vector<...> const&, int)" });
	expect_set(w, 3, 30,
		   (const char *const[]){ "...d::vector<...> const&, int)",
					  "...vector<...> const&, double)",
					  "...::vector<...> const&, long)" });
	/* the difference in a template argument: that group stays, the others go */
	const char *t[] = { "geo::transform<geo::Box<double>, geo::Policy<4> >(std::vector<int, "
			    "std::allocator<int> > const&)",
			    "geo::transform<geo::Box<float>, geo::Policy<4> >(std::vector<int, "
			    "std::allocator<int> > const&)" };
	expect_set(
		t, 2, 60,
		(const char *const[]){ "geo::transform<geo::Box<double>, geo::Policy<4> >(...)",
				       "geo::transform<geo::Box<float>, geo::Policy<4> >(...)" });
	/* documented limit: the difference cannot be kept within 20 bytes */
	const char *d[] = { "void ns::very_long_namespace_name::f(int)",
			    "void other::very_long_namespace_name::f(int)" };
	expect_set(d, 2, 40,
		   (const char *const[]){ "...ns::very_long_namespace_name::f(int)",
					  "...very_long_namespace_name::f(int)" });
	expect_set(d, 2, 20,
		   (const char *const[]){ "...pace_name::f(int)", "...pace_name::f(int)" });
}

/* A call tree over a synthetic report of 250 samples: at 1% the cut is ceil(2.5) = 3
 * samples, so the 3-sample branch stays and the 2-sample branch goes (the floor, 2,
 * kept it). Also: on a terminal the two overloads stay apart. */
static void test_tree(void **state)
{
	(void)state;
#define V "std::vector<int, std::allocator<int> > const&"
	static char n0[] = "main", n1[] = "geo::inner::spin(long)",
		    n2[] = "work(" V ", " V ", int)", n3[] = "work(" V ", " V ", long)",
		    n4[] = "rare3()", n5[] = "rare2()", mod[] = "prog", libc[] = "libc.so.6";
	struct pl_func funcs[] = {
		{ .name = n0, .module = mod },	{ .name = n1, .module = mod },
		{ .name = n2, .module = mod },	{ .name = n3, .module = mod },
		{ .name = n4, .module = libc }, { .name = n5, .module = mod },
	};
	uint32_t c0[] = { 0, 1 }, c1[] = { 0, 2 }, c2[] = { 0, 3 }, c3[] = { 0, 1, 4 },
		 c4[] = { 0, 5 };
	struct pl_chain chains[] = {
		{ "prog", c0, 2, 150 }, { "prog", c1, 2, 60 }, { "prog", c2, 2, 35 },
		{ "prog", c3, 3, 3 },	{ "prog", c4, 2, 2 },
	};
	struct pl_preport r = {
		.funcs = funcs, .nfuncs = 6, .chains = chains, .nchains = 5, .nsamples = 250
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	pl_preport_write_tree(&r, f, 1.0, 0);
	fclose(f);
	assert_string_equal(buf, "100.00%  main [prog]\n"
				 " 61.20%    geo::inner::spin(long) [prog]\n"
				 "  1.20%      rare3() [libc.so.6]\n"
				 " 24.00%    work(" V ", " V ", int) [prog]\n"
				 " 14.00%    work(" V ", " V ", long) [prog]\n");
	free(buf);
	/* 60 columns: 42 bytes of name at depth 1; alone, both works would be "work(...)" */
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	pl_preport_write_tree(&r, f, 1.0, 60);
	fclose(f);
	assert_string_equal(buf, "100.00%  main [prog]\n"
				 " 61.20%    geo::inner::spin(long) [prog]\n"
				 "  1.20%      rare3() [libc.so.6]\n"
				 " 24.00%    ...> const&, std::vector<...> const&, int) [prog]\n"
				 " 14.00%    ... const&, std::vector<...> const&, long) [prog]\n");
	free(buf);
	char *alone = pl_name_abbrev(n2, 42);
	assert_string_equal(alone, "work(...)");
	free(alone);
#undef V
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_demangle_cxx),  cmocka_unit_test(test_demangle_rust),
		cmocka_unit_test(test_not_mangled),   cmocka_unit_test(test_abbrev),
		cmocka_unit_test(test_abbrev_lambda), cmocka_unit_test(test_abbrev_arrow),
		cmocka_unit_test(test_abbrev_apart),  cmocka_unit_test(test_tree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
