/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The benchmark list: one PL_BENCH(name) line per benchmark, in --list order. This file
 * is also read by src/bench/meson.build, which compiles src/bench/<name>.c for every
 * line that starts with "PL_BENCH(", or the folder src/bench/<name>/ through its
 * meson.build when there is one. See registry.c for how to add a benchmark. */
PL_BENCH(clock)
PL_BENCH(syscall)
PL_BENCH(mem)
PL_BENCH(ticks)
PL_BENCH(io)
PL_BENCH(net)
PL_BENCH(compress)
PL_BENCH(spin)
PL_BENCH(wakeup)
PL_BENCH(freq)
