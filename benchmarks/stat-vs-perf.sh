#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab stat against perf stat (target: perflab costs no more CPU): both count the same
# 8 software events system-wide (task-clock, context-switches, cpu-migrations,
# page-faults, minor-faults, major-faults, cpu-clock, alignment-faults: every CPU, one
# counter each per CPU) and print them every second (-I 1000) for SECS seconds, as
#   perflab stat -a -I 1000 -e EVENTS -- sleep SECS
#   perf stat -a -I 1000 -e EVENTS -- sleep SECS
# with their output to /dev/null. The figure is each tool's own CPU time (user +
# system from wait4(2), through benchmarks/runstat.c; the sleep it waits for adds the
# same ~1 ms to both), in N alternating pairs; the row is the median ratio perflab /
# perf, target <= 1.0. The machine is shared: the load average is printed.
# Usage: benchmarks/stat-vs-perf.sh [N=5] [SECS=10]
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/common.sh
SECS=${2:-$(bench_quick 10 3)}
bench_init stat-vs-perf "$(bench_quick 5 3)" "$@"
case $SECS in '' | *[!0-9]* | 0) echo "stat-vs-perf: SECS must be a positive integer, got '$SECS'" >&2; exit 2 ;; esac
command -v perf >/dev/null || { echo "stat-vs-perf: perf not installed (linux-perf)" >&2; exit 2; }
EV=task-clock,context-switches,cpu-migrations,page-faults,minor-faults,major-faults,cpu-clock,alignment-faults
if ! perf stat -a -e "$EV" -- true >/dev/null 2>"$tmp/perf.err"; then
	bench_skip "stat system-wide CPU" "perf stat -a fails here: $(head -c 200 "$tmp/perf.err" | tr '\n' ' ')"
	exit 0
fi
if ! "$PERFLAB" stat -a -e "$EV" -o /dev/null -- true 2>"$tmp/pl.err"; then
	bench_skip "stat system-wide CPU" "perflab stat -a fails here: $(head -c 200 "$tmp/pl.err" | tr '\n' ' ')"
	exit 0
fi
cc -O2 -static -o "$tmp/runstat" benchmarks/runstat.c 2>/dev/null ||
	cc -O2 -o "$tmp/runstat" benchmarks/runstat.c
PL_CMD="$PERFLAB stat -a -I 1000 -e $EV -- sleep $SECS"
PERF_CMD="perf stat -a -I 1000 -e $EV -- sleep $SECS"
echo "== $N pairs of $SECS s, 8 events on $(nproc) CPUs at -I 1000 (load average before: $(cut -d' ' -f1-3 /proc/loadavg))"
cpu_ms() { # CMD...: the CPU time of CMD (user + system, ms)
	"$tmp/runstat" "$@" | awk '{ printf "%.3f", $4 / 1e6 }'
}
pl=() pf=() ratios=()
for i in $(seq 1 "$N"); do
	# shellcheck disable=SC2086
	a=$(cpu_ms $PL_CMD)
	# shellcheck disable=SC2086
	b=$(cpu_ms $PERF_CMD)
	pl+=("$a")
	pf+=("$b")
	r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", (b > 0 ? a / b : 0) }')
	ratios+=("$r")
	echo "  pair $i/$N: perflab stat $a ms CPU, perf stat $b ms CPU, ratio $r" >&2
done
mp=$(bench_median "${pl[@]}")
mf=$(bench_median "${pf[@]}")
echo "perflab stat: median $mp ms CPU over $SECS s; perf stat: median $mf ms CPU; ratios ${ratios[*]}"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
bench_result area="stat system-wide CPU" \
	what="CPU time (user+sys) of counting 8 software events system-wide at -I 1000 for $SECS s on $(nproc) CPUs, output to /dev/null" \
	perflab="$mp" peer="$mf" unit=ms target="<= 1.0" samples="${ratios[*]}" \
	perflab_cmd="perflab stat -a -I 1000 -e $EV -- sleep $SECS" peer_cmd="$PERF_CMD"
