#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `perflab profile --syscalls` beside `strace -c -f` on 100,000 open+close
# (tests/profile/openclose.c), run alternately A B C A B C, PAIRS times. Wall time of the
# whole tool process (benchmarks/runstat.c: CLOCK_MONOTONIC around fork/exec/wait) for:
#   alone       the program without a tool
#   summary     perflab profile --syscalls-via ptrace, the text summary, as strace -c
#               prints it: nothing shows samples, so none are taken (scoreboard row
#               "syscalls ptrace summary")
#   json        the same with --json (row "syscalls ptrace", as before 2026-12-03, when
#               every run sampled): the document carries the samples, taken at
#               999 Hz beside the counting: the sampling timer is switched at each of the
#               ~400,000 context switches between tracer and tracee, which costs on a VM)
#   strace      strace -c -f -o /dev/null (the peer: ptrace syscall stops too)
#   tracepoint  perflab profile --syscalls-via tracepoint (root only; skipped otherwise)
# Prints medians, spread (min-max), each side's slowdown vs alone and the ratio
# ptrace/strace (the fallback is "like strace"; < 1 means perflab is faster).
# Each run also checks that perflab's openat and close counts equal strace's.
# The machine is shared with other builds: numbers are noisy; read ratios and spread.
# Usage: benchmarks/syscalls-vs-strace.sh [PAIRS] [CALLS]   (default 3, 100000;
#   PERFLAB=path uses that binary)
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/common.sh
CALLS=${2:-$(bench_quick 100000 20000)}
bench_init syscalls-vs-strace "$(bench_quick 3 1)" "${1:-}"
command -v strace >/dev/null || { echo "syscalls-vs-strace: strace not installed (make test-deps)" >&2; exit 2; }
cc -O2 -o "$tmp/openclose" tests/profile/openclose.c
cc -O2 -o "$tmp/runstat" benchmarks/runstat.c

/usr/bin/python3 - "$N" "$CALLS" "$PERFLAB" "$tmp" <<'PY'
import json, os, statistics as st, subprocess as sp, sys
sys.path.insert(0, "benchmarks")
from pairs import result

n, calls, perflab, tmp = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
prog = [f"{tmp}/openclose", calls]

def wall(argv):
    out = sp.run([f"{tmp}/runstat"] + argv, capture_output=True, text=True, check=True).stdout
    ns, _rss, code, _cpu = out.split()
    if code != "0":
        sys.exit(f"{' '.join(argv)}: exit {code}")
    return int(ns) / 1e9

def counts_perflab(j):
    rows = json.load(open(j))["syscalls"]["rows"]
    return {r["name"]: r["calls"] for r in rows if r["name"] in ("openat", "close")}

def counts_text(f):
    """perflab's text summary: '  NAME  CALLS  ERRORS ...' rows."""
    c = {}
    for line in open(f):
        v = line.split()
        if len(v) >= 3 and v[0] in ("openat", "close") and v[1].isdigit():
            c[v[0]] = int(v[1])
    return c

def counts_strace(f):
    c = {}
    for line in open(f):
        v = line.split()
        if len(v) >= 5 and v[-1] in ("openat", "close"):
            c[v[-1]] = int(v[3])
    return c

sides = [("alone", lambda: wall(prog)),
         ("summary", lambda: wall([perflab, "profile", "-o", f"{tmp}/pt.txt",
                                   "--syscalls-via", "ptrace", "--"] + prog)),
         ("json", lambda: wall([perflab, "profile", "--json", "-o", f"{tmp}/pt.json",
                                "--syscalls-via", "ptrace", "--"] + prog)),
         ("strace", lambda: wall(["strace", "-c", "-f", "-o", f"{tmp}/st.txt", "--"] + prog))]
if os.geteuid() == 0:
    sides.append(("tracepoint", lambda: wall([perflab, "profile", "--json", "-o",
                                              f"{tmp}/tp.json", "--syscalls-via",
                                              "tracepoint", "--"] + prog)))
vals = {k: [] for k, _ in sides}
for i in range(n):
    line = []
    for name, fn in sides:
        vals[name].append(fn())
        line.append(f"{name} {vals[name][-1]:.3f}s")
    a, b = counts_perflab(f"{tmp}/pt.json"), counts_strace(f"{tmp}/st.txt")
    t = counts_text(f"{tmp}/pt.txt")
    line.append("counts equal strace" if a == b == t
                else f"COUNTS DIFFER perflab json {a} text {t} strace {b}")
    print(f"pair {i + 1}/{n}: " + "  ".join(line), flush=True)

med = {k: st.median(v) for k, v in vals.items()}
print()
for k, v in vals.items():
    print(f"{k:<14} median {med[k]:7.3f}s  [{min(v):.3f} .. {max(v):.3f}]  "
          f"{med[k] / med['alone']:6.1f}x the program alone")
for side, area in (("summary", "syscalls ptrace summary"), ("json", "syscalls ptrace")):
    r = [p / s for p, s in zip(vals[side], vals["strace"])]
    print(f"{side}/strace  median ratio {st.median(r):.2f} [{min(r):.2f} .. {max(r):.2f}] "
          f"(per pair; < 1: perflab is faster than strace -c -f)")
    extra = "--json " if side == "json" else ""
    result(area, f"wall s of {calls} open+close counted per syscall (ptrace stops on both sides); no target (the fallback is 'like strace')",
           med[side], med["strace"], "s", f"perflab profile {extra}--syscalls-via ptrace -- openclose {calls}",
           f"strace -c -f -o FILE -- openclose {calls}", samples=r)
PY
