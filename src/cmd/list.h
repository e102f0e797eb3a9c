/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The commands of perflab, one PL_COMMAND(NAME, "summary") line each, sorted by name.
 * This list is the registry: meson compiles src/cmd/NAME.c for every line
 * (src/cmd/meson.build), src/cmd/commands.h declares cmd_NAME() from it, src/main.c builds
 * its dispatch table and the command list of `perflab --help` from it (summary: one line,
 * what `perflab --help` prints), and tests/core/docs-sync.sh checks README.md and the man
 * pages against it. To add a command: write src/cmd/NAME.c with cmd_NAME() (copy a
 * neighbour), add its line here, and its man page docs/man/perflab-NAME.1.scd
 * (docs/EXTENDING.md). The includer defines PL_COMMAND(name, summary). */
// clang-format off
PL_COMMAND(bench, "run a benchmark (clock, syscall, mem, ticks, io, net, compress, spin, wakeup, freq)")
PL_COMMAND(check, "check the machine against tuning rules for a workload")
PL_COMMAND(compare, "compare variants with repeated interleaved runs and statistics")
PL_COMMAND(diff, "what changed between two saved report, inspect, check or bench documents")
PL_COMMAND(inspect, "collect platform facts from /proc, /sys, /etc and cpuid")
PL_COMMAND(monitor, "sample the whole machine over time (CPU, IRQs, memory, NUMA, PSI, disks, net)")
PL_COMMAND(profile, "sample where CPU time goes (perf_event_open)")
PL_COMMAND(report, "inspect + check + a benchmark plan (about 60 s; --quick, --full), written as a report")
PL_COMMAND(snapshot, "capture what perflab reads of this machine into one archive (tar + zstd)")
PL_COMMAND(stat, "count events and compute metrics from them, like perf stat (perf_event_open)")
PL_COMMAND(tune, "apply tuned-format profiles with a journal and exact rollback")
// clang-format on
