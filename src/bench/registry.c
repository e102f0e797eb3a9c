/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The benchmark registry.
 *
 * To add a benchmark NAME:
 *   1. write src/bench/NAME.c defining `const struct pl_bench pl_bench_NAME = {...}`
 *      (bench.h documents every field; spin.c is the smallest example, syscall.c one
 *      with several metrics and timed loops, clock.c one with a larger option table,
 *      mem/mem.c a multi-threaded one);
 *   2. add the line `PL_BENCH(NAME)` to src/bench/list.h.
 * That is the code: meson compiles src/bench/NAME.c because of that line, and the runner
 * gives the benchmark --help, --runs, --min-time, --warmup, --cpus, --membind,
 * statistics, environment, --json and -o. A benchmark with helper files of its own is a
 * folder instead, src/bench/NAME/ with NAME.c, the helpers and a meson.build listing
 * them (net/, io/, compress/, mem/); meson compiles it through that meson.build when the
 * folder has one. Helper files shared by several benchmarks go into
 * src/bench/meson.build by hand. The registry smoke test (tests/bench/smoke.sh)
 * runs every benchmark of `bench --list` with --quick and has no per-benchmark budget:
 * give NAME a quick_argv that keeps --quick to a second or two (the whole test has the
 * timeout in tests/bench/meson.build). The docs that list benchmarks (main.c's bench
 * summary, README, perflab-bench(1)) are checked by tests/core/docs-sync.sh; docs/ARCHITECTURE.md,
 * "How to add a benchmark", lists every place. */
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
