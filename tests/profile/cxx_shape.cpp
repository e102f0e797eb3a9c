// SPDX-License-Identifier: GPL-3.0-or-later
// C++ program of known shape for the demangling tests (tests/profile/profile_cxx.sh),
// built by the test with g++: five hot functions with the same loop length, each about
// 20% of the CPU time -- one in a nested namespace, a function template instance, two
// overloads of one name and a lambda.
// Usage: cxx-shape [SCALE]   (SCALE 10 = about 0.4 s of CPU here)
#include <stdlib.h>

volatile double cxx_sink;

namespace geo {
namespace inner {
__attribute__((noinline)) void spin(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += (double)i * 0.5;
	cxx_sink = x;
}
} // namespace inner

template <typename T> __attribute__((noinline)) T accumulate(long n)
{
	T x = 0;
	for (long i = 0; i < n; i++)
		x += (T)i * (T)0.25;
	return x;
}
} // namespace geo

__attribute__((noinline)) void work(int n)
{
	double x = 0;
	for (int i = 0; i < n; i++)
		x += (double)i * 0.75;
	cxx_sink = x;
}

__attribute__((noinline)) void work(double n)
{
	double x = 0;
	for (double i = 0; i < n; i += 1.0)
		x += i * 0.125;
	cxx_sink = x;
}

int main(int argc, char **argv)
{
	long u = (long)((argc > 1 ? atof(argv[1]) : 10.0) * 1000000);
	auto lam = [](long n) __attribute__((noinline)) {
		double x = 0;
		for (long i = 0; i < n; i++)
			x += (double)i * 0.375;
		cxx_sink = x;
	};
	for (int r = 0; r < 10; r++) {
		geo::inner::spin(u);
		cxx_sink = geo::accumulate<double>(u);
		work((int)u);
		work((double)u);
		lam(u);
	}
	return 0;
}
