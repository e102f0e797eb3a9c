/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The benchmark registry.
 *
 * To add a benchmark NAME:
 *   1. write src/bench/NAME.c defining `const struct pl_bench pl_bench_NAME = {...}`
 *      (bench.h documents every field; clock.c is a small example with an option table,
 *      syscall.c the smallest one, mem.c a multi-threaded one);
 *   2. add the line `PL_BENCH(NAME)` to src/bench/list.h.
 * That is all: meson compiles src/bench/NAME.c because of that line, and the runner gives
 * the benchmark --help, --runs, --min-time, --warmup, --cpus, --membind, statistics,
 * environment, --json and -o. Helper files shared by several benchmarks go into
 * src/bench/meson.build by hand. Add a smoke-test budget for NAME in
 * tests/bench/smoke.sh if its defaults take more than a second. */
#include <string.h>

#include "bench/bench.h"

#define PL_BENCH(name) extern const struct pl_bench pl_bench_##name;
#include "bench/list.h"
#undef PL_BENCH

const struct pl_bench *const pl_benches[] = {
#define PL_BENCH(name) &pl_bench_##name,
#include "bench/list.h"
#undef PL_BENCH
};
const size_t pl_nbenches = sizeof(pl_benches) / sizeof(pl_benches[0]);

const struct pl_bench *pl_bench_find(const char *name)
{
	for (size_t i = 0; i < pl_nbenches; i++)
		if (strcmp(pl_benches[i]->name, name) == 0)
			return pl_benches[i];
	return NULL;
}
