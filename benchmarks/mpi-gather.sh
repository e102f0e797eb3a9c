#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab-mpi's gather cost: 8, 16, 32 and 64 ranks (--oversubscribe, --per-rank-nodes so
# every rank sends one document, --no-bench), N runs each; prints rank 0's gather time
# (report.json mpi.gather_s: the seconds with documents in flight or being parsed; up to
# 64 receives in flight, each document parsed as it lands) and the time per document,
# target < 50 ms for 64 ranks and linear growth; mpi.wait_s, rank 0's time with no
# document arrived or in flight (the collectors still collecting), is printed beside it.
# Usage: benchmarks/mpi-gather.sh [N]
cd "$(dirname "$0")/.." || exit 1
. benchmarks/common.sh
bench_init mpi-gather "$(bench_quick 3 1)" "$@"
MPIX=${PERFLAB_MPI:-$PWD/build/perflab-mpi}
[ -x "$MPIX" ] || { echo "mpi-gather: '$MPIX' not built (no MPI found by meson?)" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%6s %14s %14s %12s %12s\n' ranks "gather ms" "ms/document" "report KiB" "wait ms"
for np in 8 16 32 64; do
	: >"$tmp/g"
	for r in $(seq "$N"); do
		timeout 600 mpirun --oversubscribe -np "$np" "$MPIX" report -o "$tmp/c" --no-bench \
			--per-rank-nodes >/dev/null 2>&1 || { echo "mpi-gather: $np ranks failed" >&2; exit 3; }
		jq -r '"\(.mpi.gather_s) \(.mpi.wait_s)"' "$tmp/c/report.json" >>"$tmp/g"
	done
	kib=$(( $(stat -c %s "$tmp/c/report.json") / 1024 ))
	if [ "$np" = 64 ]; then
		bench_result area="mpi gather 64" what="rank 0's gather time of 64 report documents (64 ranks, --oversubscribe, --per-rank-nodes, --no-bench)" \
			perflab="$(sort -g "$tmp/g" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]*1000}')" peer= unit=ms \
			perflab_cmd="mpirun --oversubscribe -np 64 perflab-mpi report --no-bench --per-rank-nodes" peer_cmd="" \
			target='< 50' target_of=perflab samples="$(awk '{printf "%s ", $1*1000}' "$tmp/g")"
	fi
	sort -g "$tmp/g" | awk -v np="$np" -v kib="$kib" '{v[NR]=$1; w[NR]=$2} END {m=v[int((NR+1)/2)];
		printf "%6d %14.2f %14.3f %12d %12.0f%s\n", np, m*1000, m*1000/np, kib, w[int((NR+1)/2)]*1000, np==64 ? (m < 0.05 ? "  target < 50 ms: met" : "  target < 50 ms: MISSED") : ""}'
done
echo "wait = rank 0 with no document arrived or in flight (the others still collecting"
echo "facts: 64 ranks share the CPUs here); not part of the gather cost"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
