#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Harness overhead: `perflab bench spin --work 1ms --runs 1000` must report the workload's
# true cost within 2%. The true cost is the same pl_spin_work() loop (src/bench/spin.h)
# with the same iteration count, timed 1000 times by a standalone program
# (benchmarks/harness-true.c, gcc -O2); both medians, and both minimums (preemption only
# adds time, so the minimum is the steadiest estimate of the cost on a shared machine).
# Also prints the runner's wall time per repetition against the mean reported cost: what
# the runner spends between repetitions.
# Alternately A B A B.
#
# usage: benchmarks/harness-overhead.sh [N]   (N pairs, default 5)
#   PERFLAB=path  use this binary instead of the release build (make build -> build/perflab)
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/common.sh
bench_init harness-overhead "$(bench_quick 5 2)" "$@"
gcc -O2 -Isrc -o "$tmp/true" benchmarks/harness-true.c
# one calibration, then the same iteration count on both sides
"$PERFLAB" bench spin --work 1ms --runs 10 --json -o "$tmp/cal.json" -q
ITERS=$(jq -r .info.iters "$tmp/cal.json")
echo "workload: $ITERS steps of pl_spin_work (about 1 ms)"
/usr/bin/python3 - "$N" "$PERFLAB" "$tmp" "$ITERS" <<'PY'
import json, statistics, sys
sys.path.insert(0, "benchmarks")
from pairs import alternate, describe, pair_ratios, ratio, result, sh
n, perflab, tmp, iters = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
wall, mean, pmin, tmin = [], [], [], []

def bench():
    sh([perflab, "bench", "spin", "--iters", iters, "--runs", "1000", "--json", "-o", f"{tmp}/s.json", "-q"])
    d = json.load(open(f"{tmp}/s.json"))
    m = d["metrics"][0]
    wall.append(d["runner"]["elapsed_s"] / d["runner"]["runs"] * 1e9)
    mean.append(m["mean"])
    pmin.append(m["min"])
    return m["median"]

def true():
    med, mn = map(float, sh([f"{tmp}/true", iters, "1000"]).split())
    tmin.append(mn)
    return med

a, b = "perflab bench spin --runs 1000 (median)", "standalone loop x1000 (median)"
v = alternate(n, [(a, bench), (b, true)])
describe(v, "ns")
ratio(v, a, b, 0.02, higher_is_better=False)
result("harness", "median ns of a ~1 ms pl_spin_work loop: perflab bench spin --runs 1000 vs the same loop timed by a standalone program",
       statistics.median(v[a]), statistics.median(v[b]), "ns",
       f"perflab bench spin --iters {iters} --runs 1000", f"benchmarks/harness-true.c {iters} 1000",
       target="0.98..1.02", samples=pair_ratios(v, a, b))
vm = {"perflab bench spin (min of 1000)": pmin, "standalone loop (min of 1000)": tmin}
describe(vm, "ns")
ratio(vm, "perflab bench spin (min of 1000)", "standalone loop (min of 1000)", 0.02,
      higher_is_better=False)
# what the runner adds between repetitions: its wall time per repetition against the mean
# of the reported values (the mean, as wall time includes every preempted run too)
over = [w / m for w, m in zip(wall, mean)]
print(f"runner wall time per repetition / mean reported cost: median {statistics.median(over):.4f} "
      f"(pairs {min(over):.4f}..{max(over):.4f})")
PY
