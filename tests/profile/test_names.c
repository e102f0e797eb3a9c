/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Function names for people: pl_demangle (libiberty; expected strings are what binutils'
 * c++filt 2.40 prints, except where the docstring says we differ: no DMGL_VERBOSE) and
 * pl_name_abbrev (the terminal table's shortening of long C++ names). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profile/report.h"
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
			">, int const&)";
	/* fits: unchanged */
	expect_abbrev("work(int)", 40, "work(int)");
	expect_abbrev(v, strlen(v), v);
	/* step 1: template arguments */
	expect_abbrev(v, 90,
		      "std::vector<...>::_M_realloc_insert<...>(__gnu_cxx::__normal_iterator<...>, "
		      "int const&)");
	/* step 2: parameter lists */
	expect_abbrev(v, 50, "std::vector<...>::_M_realloc_insert<...>(...)");
	/* step 3: keep the tail (the function's own name is at the end) */
	expect_abbrev(v, 20, "..._insert<...>(...)");
	/* operators are names, not brackets */
	expect_abbrev("bool geo::operator< <int>(geo::Box<int> const&, geo::Box<int> const&)", 30,
		      "bool geo::operator< <...>(...)");
	expect_abbrev("std::less<int>::operator()(int const&, int const&) const", 40,
		      "std::less<...>::operator()(...) const");
	expect_abbrev("geo::Box<int>::operator->(geo::Box<int> const&) const", 36,
		      "geo::Box<...>::operator->(...) const");
	expect_abbrev("std::ostream& geo::operator<< <int>(std::ostream&, geo::Box<int> const&)", 40,
		      "std::ostream& geo::operator<< <...>(...)");
	/* (anonymous namespace) is a name too */
	expect_abbrev("(anonymous namespace)::foo<int>(int, long, long, long)", 40,
		      "(anonymous namespace)::foo<...>(...)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_demangle_cxx),
		cmocka_unit_test(test_demangle_rust),
		cmocka_unit_test(test_not_mangled),
		cmocka_unit_test(test_abbrev),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
