/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perflab bench: the runner does the work (src/bench/runner.c); benchmarks are listed in
 * src/bench/list.h. */
#include "bench/bench.h"
#include "cmd/common.h"

int cmd_bench(int argc, char **argv)
{
	return pl_bench_main(argc, argv);
}
