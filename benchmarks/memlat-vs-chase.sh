#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `perflab bench mem --latency` beside a plain pointer-chase loop in C
# (benchmarks/memlat-chase.c, gcc -O2, an independent random cycle over the same number of
# 64-byte lines), on the same CPU, alternately A B A B, at working sets in L1, L2 and
# beyond the caches. Target: perflab's ns per load within 5% of the plain loop's
# at each size. The load average is printed before and after.
#
# usage: benchmarks/memlat-vs-chase.sh [N]   (N pairs, default 5)
#   SIZES="16384 1048576 268435456"  working sets in bytes (powers of two)
#   CPU=n         the CPU (default: the first this process may use)
#   PERFLAB=path  use this binary instead of the release build (make build -> build/perflab)
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/common.sh
bench_init memlat-vs-chase 5 "$@"
CPU=${CPU:-$(taskset -pc $$ | sed 's/.*: //; s/[,-].*//')}
SIZES=${SIZES:-$(bench_quick "16384 1048576 268435456" "16384 1048576")}
gcc -O2 -o "$tmp/chase" benchmarks/memlat-chase.c
echo "CPU $CPU; working sets: $SIZES bytes"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/python3 - "$N" "$PERFLAB" "$tmp" "$CPU" $SIZES <<'PY'
import json, sys
sys.path.insert(0, "benchmarks")
from pairs import alternate, describe, pair_ratios, ratio, result, sh
import statistics
n, perflab, tmp, cpu, sizes = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], [int(s) for s in sys.argv[5:]]
top = max(sizes)
got = {}

def fmt(b):
    for u, k in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= k:
            return f"{b / k:.2f} {u}"
    return f"{b} B"

def bench():
    sh([perflab, "bench", "mem", "--latency", "--max-size", str(top), "--cpus", cpu, "--runs", "1",
        "--warmup", "0", "--json", "-o", f"{tmp}/m.json", "-q"])
    d = json.load(open(f"{tmp}/m.json"))
    for s in sizes:
        got[s] = next(m["median"] for m in d["metrics"] if m["name"] == f"latency {fmt(s)}")
    return got[top]

vals = {}
def perflab_at(s):
    def f():
        if s == top:
            bench()
        return got[s]
    return f
def plain_at(s):
    def f():
        loads = str(max(200000, int(20e6 / (3 if s <= 1 << 20 else 100))))
        out = sh(["taskset", "-c", cpu, f"{tmp}/chase", str(s), loads])
        return float(out.split("ns per load")[1].split()[0])
    return f
# perflab measures every size in one run: its side runs first in each pair (size top),
# the others read that run
sides = [(f"perflab {fmt(top)}", perflab_at(top))]
sides += [(f"perflab {fmt(s)}", perflab_at(s)) for s in sizes if s != top]
sides += [(f"plain loop {fmt(s)}", plain_at(s)) for s in sizes]
v = alternate(n, sides)
describe(v, "ns/load")
for s in sorted(sizes):
    if s != top:
        ratio(v, f"perflab {fmt(s)}", f"plain loop {fmt(s)}", 0.05, higher_is_better=False)
ratio(v, f"perflab {fmt(top)}", f"plain loop {fmt(top)}", 0.05, higher_is_better=False)
for s in sorted(sizes):
    a, b = f"perflab {fmt(s)}", f"plain loop {fmt(s)}"
    result(f"mem latency {fmt(s)}", f"ns per dependent load, random cyclic chase of 64 B lines, {fmt(s)} working set, CPU {cpu}",
           statistics.median(v[a]), statistics.median(v[b]), "ns",
           f"perflab bench mem --latency --cpus {cpu}", f"benchmarks plain pointer chase ({fmt(s)})",
           target="0.95..1.05", samples=pair_ratios(v, a, b))
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
