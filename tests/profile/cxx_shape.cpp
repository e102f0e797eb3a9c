// SPDX-License-Identifier: GPL-3.0-or-later
// C++ program of known shape for the demangling tests (tests/profile/profile_cxx.sh),
// built by the test with g++: five hot functions with the same loop length, each about
// 20% of the CPU time -- one in a nested namespace, a function template instance, two
// overloads of one name and a lambda. Built with -fno-omit-frame-pointer
// -mno-omit-leaf-frame-pointer so every stack is main -> function; g++ 12 still sets up
// no frame in a leaf that needs no stack, so each hot function ends by calling publish()
// (not a tail call at -O1; accumulate calls it first) and is not a leaf.
// Usage: cxx-shape [SCALE]   (SCALE 10 = about 0.4 s of CPU here)
#include <stdlib.h>

volatile double cxx_sink;

__attribute__((noinline)) void publish(double x)
{
	cxx_sink = x;
}

namespace geo {
namespace inner {
__attribute__((noinline)) void spin(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += (double)i * 0.5;
	publish(x);
}
} // namespace inner

template <typename T> __attribute__((noinline)) T accumulate(long n)
{
	publish((double)n); /* first: x need not live across the call (in memory at -O1) */
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
	publish(x);
}

__attribute__((noinline)) void work(double n)
{
	double x = 0;
	for (double i = 0; i < n; i += 1.0)
		x += i * 0.125;
	publish(x);
}

int main(int argc, char **argv)
{
	long u = (long)((argc > 1 ? atof(argv[1]) : 10.0) * 1000000);
	auto lam = [](long n) __attribute__((noinline)) {
		double x = 0;
		for (long i = 0; i < n; i++)
			x += (double)i * 0.375;
		publish(x);
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
