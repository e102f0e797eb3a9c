#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `perflab bench clock` beside the field report's plain loop of 10^8 gettimeofday() calls
# compiled with gcc -O2 (benchmarks/seed-gettimeofday.c), alternately A B A B.
# Target: perflab's gettimeofday median within 5% of the seed loop's ns/call.
#
# Same work on both sides: the seed's loop calls gettimeofday() and never reads the
# result; perflab's timed loop (src/bench/clock.c loop_gtod) does the same. It adds no
# tv.tv_usec into an accumulator (the call cannot be optimised away without it: the
# compiler sees neither its body nor a pure attribute): that load and add are not free, as
# the vDSO reads the TSC with rdtscp, which waits for every earlier instruction, so they
# would lie on the critical path of each call. The seed stays as the field report wrote
# it; both compile (gcc -O2 / -O3) to the same loop around the call: xor, mov, add, call,
# cmp, jne (objdump -d).
#
# usage: benchmarks/clock-vs-seed.sh [N]    (N pairs, default 5; each pair ~5 s)
#   PERFLAB=path  use this binary instead of the release build (make build -> build/perflab)
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/common.sh
bench_init clock-vs-seed "$(bench_quick 5 2)" "$@"
gcc -O2 -o "$tmp/seed" benchmarks/seed-gettimeofday.c
echo "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
/usr/bin/python3 - "$N" "$PERFLAB" "$tmp" <<'PY'
import json, statistics, sys
sys.path.insert(0, "benchmarks")
from pairs import alternate, describe, pair_ratios, ratio, result, sh
n, perflab, tmp = int(sys.argv[1]), sys.argv[2], sys.argv[3]

def seed():
    out = sh([f"{tmp}/seed"])
    return float(out.split("ns per call")[1])

def bench():
    sh([perflab, "bench", "clock", "--only", "gettimeofday", "--json", "-o", f"{tmp}/c.json", "-q"])
    d = json.load(open(f"{tmp}/c.json"))
    return d["metrics"][0]["median"]

A, B = "perflab bench clock gettimeofday (median)", "seed loop 10^8 gettimeofday -O2"
vals = alternate(n, [(A, bench), (B, seed)])
describe(vals, "ns/call")
ratio(vals, A, B, 0.05, higher_is_better=False)
result("clock", "ns per gettimeofday() call: perflab's timed loop vs the seed's 10^8-call loop (gcc -O2), same vDSO clock",
       statistics.median(vals[A]), statistics.median(vals[B]), "ns",
       "perflab bench clock --only gettimeofday", "benchmarks/seed-gettimeofday.c (gcc -O2)",
       target="0.95..1.05", samples=pair_ratios(vals, A, B))
PY
