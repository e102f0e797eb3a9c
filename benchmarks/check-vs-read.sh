#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CPU time of `perflab check` beside a plain C program that opens and reads the same files
# (benchmarks/readfiles.c): the read floor of a check (target: at most 2x it).
# The file list is what `perflab check` itself opened, from `strace -f -e trace=openat`
# of one run (successful opens; the shared libraries and ld.so.cache that the dynamic
# loader opens are left out: their cost is perflab's, not the floor's; so are devices, as
# /dev/urandom, which never ends). Both run through
# benchmarks/runstat.c, alternately A B A B; the figure is user+system CPU time of the
# process from wait4() (rusage), which other load on the machine changes less than wall
# time. With valgrind installed it also counts the instructions of one run of each
# (callgrind, every instruction of the process from the first one of ld.so; the same
# count whatever else runs) and prints their ratio, with the top five functions.
#
# usage: benchmarks/check-vs-read.sh [N]   (N pairs, default 30; QUICK=1: 10)
#   PERFLAB=path  use this binary instead of the release build
#   CHECK_ARGS="--workload latency"  extra arguments for perflab check
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/common.sh
bench_init check-vs-read "$(bench_quick 30 10)" "$@"
command -v strace >/dev/null || { echo "check-vs-read: strace not installed (make test-deps)" >&2; exit 2; }
cc -O2 -o "$tmp/readfiles" benchmarks/readfiles.c
cc -O2 -o "$tmp/runstat" benchmarks/runstat.c
# shellcheck disable=SC2086
strace -f -qq -e trace=openat,open -o "$tmp/st" "$PERFLAB" check ${CHECK_ARGS:-} --json -o /dev/null >/dev/null || [ $? -eq 1 ]
sed -n 's/.*open[a-z]*([^"]*"\([^"]*\)".* = [0-9][0-9]*$/\1/p' "$tmp/st" |
	grep -v -E '\.so(\.[0-9.]+)?$|^/etc/ld\.so\.cache$|^/dev/' >"$tmp/files"
echo "files perflab check opened (the floor reads the same): $(wc -l <"$tmp/files")"
/usr/bin/python3 - "$N" "$PERFLAB" "$tmp" "${CHECK_ARGS:-}" <<'PY'
import os, re, shlex, shutil, statistics as st, subprocess as sp, sys
sys.path.insert(0, "benchmarks")
from pairs import result
n, perflab, tmp, extra = int(sys.argv[1]), sys.argv[2], sys.argv[3], shlex.split(sys.argv[4])
files = open(f"{tmp}/files").read().split()
sides = {"perflab check": [perflab, "check", *extra, "--json", "-o", "/dev/null"],
         "readfiles (same files)": [f"{tmp}/readfiles", *files]}

def run(argv):
    ns, rss, code, cpu = map(int, sp.run([f"{tmp}/runstat", *argv], check=True,
                                         capture_output=True, text=True).stdout.split())
    if code not in (0, 1):  # check exits 1 when findings reach --fail-on
        sys.exit(f"check-vs-read: {argv[0]} exited {code}")
    return cpu / 1e6, ns / 1e6

for argv in sides.values():
    run(argv)  # page cache and dentries warm, not measured
cpu = {k: [] for k in sides}
wall = {k: [] for k in sides}
for i in range(n):
    for k in (list(sides) if i % 2 == 0 else list(reversed(sides))):
        c, w = run(sides[k])
        cpu[k].append(c)
        wall[k].append(w)
A, B = list(sides)
print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}; {n} pairs; {len(files)} files")
for k in sides:
    print(f"{k:<24} CPU median {st.median(cpu[k]):.3f} ms [{min(cpu[k]):.3f} .. {max(cpu[k]):.3f}]"
          f"  wall median {st.median(wall[k]):.3f} ms")
pairs = [a / b for a, b in zip(cpu[A], cpu[B]) if b > 0]
r = st.median(cpu[A]) / st.median(cpu[B])
print(f"ratio CPU perflab check / read floor: {r:.2f} (target <= 2)")
cmd = " ".join(["perflab check", *extra])
result("check CPU vs read floor", f"CPU ms (user+sys, rusage) of perflab check vs a C program that opens and reads the same {len(files)} files",
       st.median(cpu[A]), st.median(cpu[B]), "ms CPU", cmd, f"benchmarks/readfiles.c FILE... ({len(files)} files)",
       target="<= 2", samples=pairs)

if shutil.which("valgrind"):
    def ir(argv, tag):
        out = f"{tmp}/cg.{tag}"
        p = sp.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv],
                   capture_output=True, text=True)
        m = re.search(r"refs:\s+([0-9,]+)", p.stderr)
        return int(m.group(1).replace(",", "")) if m else None
    a, b = ir(sides[A], "perflab"), ir(sides[B], "floor")
    if a and b:
        print(f"instructions (callgrind): perflab check {a:,}, read floor {b:,}: {a / b:.2f}x")
        top = sp.run(["callgrind_annotate", f"{tmp}/cg.perflab"], capture_output=True, text=True).stdout
        fl = [l for l in top.splitlines() if re.match(r"\s*[0-9,]+ \(", l)][1:6]
        print("  perflab check's top functions by instructions:\n" + "\n".join("  " + l.strip()[:110] for l in fl))
        # no target: callgrind counts user-space instructions only, and the floor's work
        # is almost all in the kernel (reading /proc and /sys); this row shows perflab's
        # own start-up and parsing, load-independent, so it is the one to watch in a diff
        result("check instructions vs read floor", f"user-space instructions of one run (valgrind callgrind, load-independent; the floor's work is in the kernel), same {len(files)} files",
               a / 1e6, b / 1e6, "M instr", cmd, f"benchmarks/readfiles.c FILE... ({len(files)} files)",
               samples=[a / b])
PY
