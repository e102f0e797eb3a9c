#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Cost of a region marker call (target: < 5 ns without the profiler, < 100 ns
# under it). benchmarks/profile-marks.c is linked with lib/mark.c (-O2) and run
# alternately alone and under `perflab profile`, N times each; prints the medians and the
# spread of the thread's CPU time per call (and of wall time, which on this shared machine
# also counts the time other work held the CPU). Under the profiler the calls also share
# the CPU with sampling (999 Hz).
# The ring holds 2^20 records: loops longer than that overwrite (counted as dropped).
# usage: benchmarks/profile-marks.sh [N] [CALLS]   (default 5 runs, 2,000,000 pairs)
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/common.sh
N=${1:-$(bench_quick 5 2)}
CALLS=${2:-$(bench_quick 2000000 500000)}
case $N$CALLS in *[!0-9]*) echo "profile-marks: N and CALLS must be positive integers" >&2; exit 2 ;; esac
if [ -z "${PERFLAB:-}" ]; then
	make build >/dev/null
	PERFLAB=$PWD/build/perflab
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/profile-marks.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cc -O2 -Iinclude -o "$tmp/marks" benchmarks/profile-marks.c lib/mark.c -lpthread
off=() on=() offw=() onw=()
for i in $(seq "$N"); do
	r=$("$tmp/marks" "$CALLS")
	read -r _ c _ _ _ w <<<"$r"
	off+=("$c") offw+=("$w")
	r=$("$PERFLAB" profile -q -o "$tmp/report.txt" -- "$tmp/marks" "$CALLS")
	read -r _ c _ _ _ w <<<"$r"
	on+=("$c") onw+=("$w")
done
med() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f ns [%.2f .. %.2f]", m, v[1], v[NR] }'; }
echo "without the profiler: CPU $(med "${off[@]}") per call (target < 5 ns); wall $(med "${offw[@]}")"
echo "under perflab profile: CPU $(med "${on[@]}") per call (target < 100 ns); wall $(med "${onw[@]}")"
bench_result area="marker off" what="CPU ns per region marker call (lib/mark.c, -O2), no profiler; absolute target" \
	perflab="$(bench_median "${off[@]}")" peer= unit=ns target="< 5" target_of=perflab \
	perflab_cmd="benchmarks/profile-marks.c $CALLS" peer_cmd="" samples="${off[*]}"
bench_result area="marker under profile" what="CPU ns per region marker call under perflab profile (999 Hz sampling); absolute target" \
	perflab="$(bench_median "${on[@]}")" peer= unit=ns target="< 100" target_of=perflab \
	perflab_cmd="perflab profile -- benchmarks/profile-marks.c $CALLS" peer_cmd="" samples="${on[*]}"
grep -E '^\s+loop ' "$tmp/report.txt" | sed 's/^/last run region: /' || true
