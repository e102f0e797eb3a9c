#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Cost of a region marker call when the ring counts events (perflab stat --region): the
# begin/end loop of benchmarks/profile-marks.c (linked with lib/mark.c, -O2) run
# alternately under a markers-only ring (version 1, what perflab profile makes) and under
# counting rings of 1 and 3 software events (task-clock, page-faults, context-switches),
# made by benchmarks/region-ring.c as perflab makes them; N runs each. Prints the medians
# and spread of the thread's CPU time per call (kernel time of the group read() included).
# With counting every begin and end is one read() of the thread's group, a system call;
# without, two atomic operations and the vDSO clock.
# usage: benchmarks/region-marks.sh [N] [CALLS]   (default 5 runs, 500,000 pairs)
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/common.sh
N=${1:-$(bench_quick 5 2)}
CALLS=${2:-$(bench_quick 500000 100000)}
case $N$CALLS in *[!0-9]*) echo "region-marks: N and CALLS must be positive integers" >&2; exit 2 ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/region-marks.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cc -O2 -Iinclude -o "$tmp/marks" benchmarks/profile-marks.c lib/mark.c -lpthread
cc -O2 -D_GNU_SOURCE -Iinclude -o "$tmp/ring" benchmarks/region-ring.c
if ! "$tmp/ring" 1 "$tmp/marks" 10 >/dev/null 2>"$tmp/probe" || ! grep -q 'flags 1$' "$tmp/probe"; then
	bench_skip "marker counting" "no per-thread software counters here: $(tail -n1 "$tmp/probe")"
	exit 0
fi
m0=() m1=() m3=()
for i in $(seq "$N"); do
	read -r _ c _ <<<"$("$tmp/ring" 0 "$tmp/marks" "$CALLS" 2>/dev/null)"
	m0+=("$c")
	read -r _ c _ <<<"$("$tmp/ring" 1 "$tmp/marks" "$CALLS" 2>/dev/null)"
	m1+=("$c")
	read -r _ c _ <<<"$("$tmp/ring" 3 "$tmp/marks" "$CALLS" 2>/dev/null)"
	m3+=("$c")
done
med() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.1f ns [%.1f .. %.1f]", m, v[1], v[NR] }'; }
echo "markers only (version 1 ring): CPU $(med "${m0[@]}") per call"
echo "counting 1 event:              CPU $(med "${m1[@]}") per call"
echo "counting 3 events:             CPU $(med "${m3[@]}") per call (target < 5000 ns)"
bench_result area="marker counting" what="CPU ns per region marker call counting 3 software events in the thread's group (lib/mark.c, -O2, one read() per begin or end); absolute target" \
	perflab="$(bench_median "${m3[@]}")" peer= unit=ns target="< 5000" target_of=perflab \
	perflab_cmd="benchmarks/region-ring.c 3 benchmarks/profile-marks.c $CALLS" peer_cmd="" samples="${m3[*]}"
