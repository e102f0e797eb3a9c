#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab-mpi's pair latency vs a plain OSU-style MPI ping-pong (benchmarks/mpi-pingpong.c)
# on the same pair: 2 ranks on this host (shared memory), --per-rank-nodes so they are two
# "nodes", N rounds alternating. Prints per size the medians, the ratio perflab / plain
# and whether it is within the 5% target. Usage: benchmarks/mpi-latency.sh [N]
cd "$(dirname "$0")/.." || exit 1
. benchmarks/common.sh
bench_init mpi-latency "$(bench_quick 5 2)" "$@"
MPIX=${PERFLAB_MPI:-$PWD/build/perflab-mpi}
[ -x "$MPIX" ] || { echo "mpi-latency: '$MPIX' not built (no MPI found by meson?)" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
mpicc -O2 -o "$tmp/pp" benchmarks/mpi-pingpong.c || exit 2
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$N"); do
	mpirun --oversubscribe -np 2 "$MPIX" report -o "$tmp/r$r" --full --per-rank-nodes >/dev/null 2>&1 ||
		{ echo "mpi-latency: perflab-mpi failed" >&2; exit 3; }
	jq -r '.network.pairs[0].points[]|"\(.bytes) \(.rtt_us)"' "$tmp/r$r/report.json" >>"$tmp/perflab"
	for s in 8 1024 65536 1048576; do
		it=10000
		[ "$s" -gt 8192 ] && it=1000
		mpirun --oversubscribe -np 2 "$tmp/pp" "$s" "$it" 100 | awk '{print $1, $2}' >>"$tmp/plain"
	done
done
/usr/bin/python3 - "$tmp/perflab" "$tmp/plain" <<'PY'
import sys, statistics as st
sys.path.insert(0, "benchmarks")
from pairs import result
def load(p):
    d = {}
    for line in open(p):
        s, v = line.split(); d.setdefault(int(s), []).append(float(v))
    return d
a, b = load(sys.argv[1]), load(sys.argv[2])
print(f"{'bytes':>8} {'perflab RTT us':>15} {'plain RTT us':>13} {'one-way us':>11} {'ratio':>6}  target 5%")
for s in sorted(a):
    pa, pb = st.median(a[s]), st.median(b[s])
    r = pa / pb
    print(f"{s:>8} {pa:>15.3f} {pb:>13.3f} {pa/2:>11.3f} {r:>6.3f}  {'within' if abs(r-1) <= 0.05 else 'OUTSIDE'}")
    result(f"mpi RTT {s} B", f"MPI ping-pong round trip of {s} B between 2 ranks on this host (shared memory), perflab-mpi's pair matrix vs a plain OSU-style loop",
           pa, pb, "us", "mpirun --oversubscribe -np 2 perflab-mpi report --full --per-rank-nodes",
           f"mpirun --oversubscribe -np 2 benchmarks/mpi-pingpong {s} ITERS 100",
           target="0.95..1.05", samples=[x / y for x, y in zip(a[s], b.get(s, []))])
PY
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
