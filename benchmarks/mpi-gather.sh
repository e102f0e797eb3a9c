#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab-mpi's gather cost: 8, 16, 32 and 64 ranks (--oversubscribe, --per-rank-nodes so
# every rank sends one document, --no-bench), N runs each; prints rank 0's gather time
# (report.json mpi.gather_s: from the last collector's document arriving until every
# document is received and parsed, what the gather adds after the slowest node; rank 0
# receives and parses the earlier ones while it waits) against the target < 50 ms for 64
# ranks, and rank 0's CPU time parsing all documents (mpi.parse_cpu_s) per document, which
# should stay flat (linear growth); mpi.wait_s, until the last document arrived, beside it.
# Usage: benchmarks/mpi-gather.sh [N]
cd "$(dirname "$0")/.." || exit 1
. benchmarks/common.sh
bench_init mpi-gather "$(bench_quick 3 1)" "$@"
MPIX=${PERFLAB_MPI:-$PWD/build/perflab-mpi}
[ -x "$MPIX" ] || { echo "mpi-gather: '$MPIX' not built (no MPI found by meson?)" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%6s %10s %10s %14s %11s %9s\n' ranks "gather ms" "parse ms" "parse ms/doc" "report KiB" "wait ms"
for np in 8 16 32 64; do
	: >"$tmp/g"
	for r in $(seq "$N"); do
		timeout 600 mpirun --oversubscribe -np "$np" "$MPIX" report -o "$tmp/c" --no-bench \
			--per-rank-nodes >/dev/null 2>&1 || { echo "mpi-gather: $np ranks failed" >&2; exit 3; }
		jq -r '"\(.mpi.gather_s) \(.mpi.wait_s) \(.mpi.parse_cpu_s)"' "$tmp/c/report.json" >>"$tmp/g"
	done
	kib=$(( $(stat -c %s "$tmp/c/report.json") / 1024 ))
	if [ "$np" = 64 ]; then
		bench_result area="mpi gather 64" what="rank 0's gather time of 64 report documents (64 ranks, --oversubscribe, --per-rank-nodes, --no-bench)" \
			perflab="$(sort -g "$tmp/g" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]*1000}')" peer= unit=ms \
			perflab_cmd="mpirun --oversubscribe -np 64 perflab-mpi report --no-bench --per-rank-nodes" peer_cmd="" \
			target='< 50' target_of=perflab samples="$(awk '{printf "%s ", $1*1000}' "$tmp/g")"
	fi
	sort -g "$tmp/g" | awk -v np="$np" -v kib="$kib" '{v[NR]=$1; w[NR]=$2; c[NR]=$3} END {k=int((NR+1)/2); m=v[k];
		printf "%6d %10.2f %10.2f %14.3f %11d %9.0f%s\n", np, m*1000, c[k]*1000, c[k]*1000/(np-1), kib, w[k]*1000, np==64 ? (m < 0.05 ? "  target < 50 ms: met" : "  target < 50 ms: MISSED") : ""}'
done
echo "gather = from the last document's arrival to all parsed; parse = rank 0's CPU time in"
echo "json_loadb over all documents (the row of the median gather); wait = until the last"
echo "document arrived (the others still collecting facts: 64 ranks share 2 CPUs here)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
