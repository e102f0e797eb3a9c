#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Speed and memory of `perflab check` beside `tuned-adm recommend` (tuned's own "what fits
# this machine" check), run alternately A B A B so host noise hits both alike.
# Target: perflab check < 20 ms wall and < 10 MB peak RSS on this machine.
#
# usage: benchmarks/check-speed.sh [N]      (N pairs, default 30)
#   PERFLAB=path  use this binary instead of the release build (make build -> build/perflab)
#   CHECK_ARGS="--workload latency"  extra arguments for perflab check
#
# Each run goes through benchmarks/runstat.c (built here, static when possible): wall time
# is CLOCK_MONOTONIC around fork+exec+wait, peak RSS the child's ru_maxrss from wait4()
# (KiB), so both tools are measured the same way. (A Python parent would not do: ru_maxrss
# counts the forked child's memory before exec, ~10 MiB of interpreter.)
# /bin/true runs in the same rotation as the floor: what any process costs here right now.
# Prints median, min, max and the interquartile range of the wall time, the median CPU time
# (user+system: less sensitive to other load than wall time) and peak RSS of each, and the
# median ratios.
# The machine is shared with other builds: expect noise; compare medians, not single runs.
# On a loaded host (load average far above the CPU count) run it as root under
# `chrt -f 10 benchmarks/check-speed.sh` so both tools (and the floor) get the CPU first;
# the policy is inherited by every measured process, so the comparison stays fair.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/common.sh
N=${1:-$(bench_quick 30 8)}
case $N in '' | *[!0-9]*) echo "check-speed: N must be a positive integer, got '$N'" >&2; exit 2 ;; esac
[ "$N" -gt 0 ] || { echo "check-speed: N must be at least 1" >&2; exit 2; }

if [ -z "${PERFLAB:-}" ]; then
	if make build >/dev/null 2>&1; then
		PERFLAB=$PWD/build/perflab
	else
		# same optimisation (-O3 release); only a -Werror failure elsewhere is tolerated
		echo "check-speed: 'make build' failed; measuring a release build without -Werror" \
			"in build-bench/" >&2
		[ -f build-bench/build.ninja ] ||
			meson setup build-bench --buildtype=release -Dtests=false -Dwerror=false >/dev/null
		ninja -C build-bench >/dev/null
		PERFLAB=$PWD/build-bench/perflab
	fi
fi
[ -x "$PERFLAB" ] || { echo "check-speed: '$PERFLAB' is not an executable (run make build)" >&2; exit 2; }
if ! command -v tuned-adm >/dev/null; then
	echo "check-speed: tuned-adm not found (make bench-deps installs tuned)" >&2
	exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-speed.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cc -O2 -static -o "$tmp/runstat" benchmarks/runstat.c 2>/dev/null ||
	cc -O2 -o "$tmp/runstat" benchmarks/runstat.c

/usr/bin/python3 - "$N" "$PERFLAB" "${CHECK_ARGS:-}" "$tmp/runstat" <<'PY'
import os, shlex, statistics, subprocess, sys
sys.path.insert(0, "benchmarks")
from pairs import result

n = int(sys.argv[1])
perflab = sys.argv[2]
extra = shlex.split(sys.argv[3])
runstat = sys.argv[4]
cmds = {
    "perflab check": [perflab, "check", *extra],
    "tuned-adm recommend": ["tuned-adm", "recommend"],
    "floor: /bin/true": ["/bin/true"],  # process start-up on this host, for scale
}

def run(argv):
    """One run: wall ms (CLOCK_MONOTONIC) and the child's own peak RSS in KiB."""
    out = subprocess.run([runstat, *argv], check=True, capture_output=True, text=True).stdout
    ns, rss, code, cpu = map(int, out.split())
    # check exits 1 when findings reach --fail-on; anything above is a failure
    if code not in (0, 1):
        sys.exit(f"check-speed: {' '.join(argv)} exited {code}")
    return ns / 1e6, rss, cpu / 1e6

for argv in cmds.values():  # warm the page cache once, not measured
    run(argv)
res = {k: ([], [], []) for k in cmds}
for i in range(n):
    order = list(cmds) if i % 2 == 0 else list(reversed(cmds))  # A B C, C B A, ...
    for k in order:
        ms, rss, cpu = run(cmds[k])
        res[k][0].append(ms)
        res[k][1].append(rss)
        res[k][2].append(cpu)

def q(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(p * (len(v) - 1) + 0.5))]

print(f"pairs: {n} (alternating), machine: {os.uname().nodename} {os.uname().release}, "
      f"{os.cpu_count()} CPUs; shared host: numbers are noisy")
print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
print(f"{'command':<22} {'median ms':>10} {'min':>8} {'max':>8} {'IQR ms':>8} {'CPU ms':>8} "
      f"{'peak RSS MB':>12} {'max RSS MB':>11}")
med = {}
for k, (ms, rss, cpu) in res.items():
    med[k] = (statistics.median(ms), statistics.median(rss) / 1024, statistics.median(cpu))
    print(f"{k:<22} {med[k][0]:>10.2f} {min(ms):>8.2f} {max(ms):>8.2f} "
          f"{q(ms, .75) - q(ms, .25):>8.2f} {med[k][2]:>8.2f} {med[k][1]:>12.2f} {max(rss) / 1024:>11.2f}")
a, b = med["perflab check"], med["tuned-adm recommend"]
print(f"ratio tuned-adm / perflab: wall {b[0] / a[0]:.1f}x, CPU {b[2] / a[2]:.1f}x, "
      f"peak RSS {b[1] / a[1]:.1f}x")
ok_wall, ok_rss = a[0] < 20, a[1] < 10
print(f"target perflab check < 20 ms wall: {'met' if ok_wall else 'NOT met'} ({a[0]:.2f} ms); "
      f"< 10 MB peak RSS: {'met' if ok_rss else 'NOT met'} ({a[1]:.2f} MB)")
P, T = res["perflab check"], res["tuned-adm recommend"]
pcmd = " ".join(["perflab check", *extra])
result("check wall", "wall ms of one process (fork+exec+wait, runstat.c); absolute target, tuned-adm for scale",
       a[0], b[0], "ms", pcmd, "tuned-adm recommend", target="< 20", target_of="perflab", samples=P[0])
result("check RSS", "peak RSS MB of the process (ru_maxrss); absolute target",
       a[1], b[1], "MB", pcmd, "tuned-adm recommend", target="< 10", target_of="perflab",
       samples=[x / 1024 for x in P[1]])
result("check vs tuned-adm", "CPU ms (user+sys, getrusage) of a tuning check: perflab's rules vs tuned's recommendation",
       a[2], b[2], "ms", pcmd, "tuned-adm recommend", target="<= 1",
       samples=[x / y for x, y in zip(P[2], T[2]) if y])
PY
