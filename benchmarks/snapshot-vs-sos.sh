#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `perflab snapshot` beside `sos report --batch` limited to the plugins that cover the
# same facts (CPU, memory, kernel and sysctl, boot, hardware and DMI, PCI, block, network,
# NUMA, devices, file systems), run alternately A B A B. Both write one compressed archive
# of the machine's state for someone else to read.
# Targets (issue "perflab snapshot"): at most 1/10 of sos's wall time and archive size;
# `perflab check --sysroot SNAPSHOT` at most 2x `perflab check` live.
#
# usage: benchmarks/snapshot-vs-sos.sh [N]   (N pairs, default 3; QUICK=1: 1)
#   PERFLAB=path  use this binary instead of the release build (make build -> build/perflab)
#
# Wall time and CPU time come from benchmarks/runstat.c (fork+exec+wait, wait4 rusage),
# the same for both tools; the size is the archive file's size in bytes (sos also writes
# an .md5 file beside it, not counted). sos report needs root: without it, or without
# sos (Debian package sosreport, `make bench-deps`), the rows say skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/common.sh
N=${1:-$(bench_quick 3 1)}
case $N in '' | *[!0-9]*) echo "snapshot-vs-sos: N must be a positive integer, got '$N'" >&2; exit 2 ;; esac
[ "$N" -gt 0 ] || { echo "snapshot-vs-sos: N must be at least 1" >&2; exit 2; }

if [ -z "${PERFLAB:-}" ]; then
	make build >/dev/null
	PERFLAB=$PWD/build/perflab
fi
[ -x "$PERFLAB" ] || { echo "snapshot-vs-sos: '$PERFLAB' is not an executable (run make build)" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/snapshot-vs-sos.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cc -O2 -static -o "$tmp/runstat" benchmarks/runstat.c 2>/dev/null ||
	cc -O2 -o "$tmp/runstat" benchmarks/runstat.c

skip=
if ! command -v sos >/dev/null; then
	skip="sos not found (make bench-deps installs sosreport)"
elif [ "$(id -u)" -ne 0 ]; then
	skip="sos report needs root"
fi

/usr/bin/python3 - "$N" "$PERFLAB" "$tmp" "$skip" <<'PY'
import glob, os, shutil, statistics, subprocess, sys
sys.path.insert(0, "benchmarks")
from pairs import result

n, perflab, tmp, skip = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
runstat = os.path.join(tmp, "runstat")
PLUGINS = "kernel,processor,hardware,memory,networking,pci,block,system,host,numa,boot,devices,filesys"
snap = os.path.join(tmp, "snap.tar.zst")
snap_cmd = [perflab, "snapshot", "-o", snap]
sos_dir = os.path.join(tmp, "sos")
sos_cmd = ["sos", "report", "--batch", "--quiet", "--only-plugins=" + PLUGINS, "--tmp-dir", sos_dir]


def run(argv, ok=(0,)):
    """One run: (wall s, CPU s) from runstat."""
    out = subprocess.run([runstat, *argv], check=True, capture_output=True, text=True).stdout
    ns, _rss, code, cpu = map(int, out.split())
    if code not in ok:
        sys.exit(f"snapshot-vs-sos: {' '.join(argv)} exited {code}")
    return ns / 1e9, cpu / 1e9


def perflab_once():
    if os.path.exists(snap):
        os.unlink(snap)
    wall, cpu = run(snap_cmd)
    return wall, cpu, os.path.getsize(snap)


def sos_once():
    shutil.rmtree(sos_dir, ignore_errors=True)
    os.makedirs(sos_dir)
    wall, cpu = run(sos_cmd)
    found = glob.glob(os.path.join(sos_dir, "sosreport-*.tar.*"))
    found = [f for f in found if not f.endswith((".md5", ".sha256"))]
    if len(found) != 1:
        sys.exit(f"snapshot-vs-sos: expected one sos archive in {sos_dir}, found {found}")
    return wall, cpu, os.path.getsize(found[0])


what_t = "wall s to write one compressed archive of the machine's state (runstat.c)"
what_s = "archive size, bytes: perflab .tar.zst vs sos .tar.xz (same facts, plugins listed in the script)"
pcmd = "perflab snapshot -o snap.tar.zst"
scmd = "sos report --batch --only-plugins=" + PLUGINS
if skip:
    for area in ("snapshot wall", "snapshot size"):
        result(area, what_t if area.endswith("wall") else what_s, None, None, "", pcmd, scmd,
               status="skipped", reason=skip)
else:
    P, S = [], []
    for i in range(n):
        for name, fn, acc in (("perflab", perflab_once, P), ("sos", sos_once, S))[:: 1 if i % 2 == 0 else -1]:
            acc.append(fn())
            w, c, b = acc[-1]
            print(f"  pair {i + 1}/{n}: {name}: {w:.3f} s wall, {c:.3f} s CPU, {b} bytes",
                  file=sys.stderr, flush=True)
    med = lambda v, k: statistics.median(x[k] for x in v)
    print(f"perflab snapshot: median {med(P, 0):.3f} s wall, {med(P, 1):.3f} s CPU, {med(P, 2):.0f} bytes")
    print(f"sos report:       median {med(S, 0):.3f} s wall, {med(S, 1):.3f} s CPU, {med(S, 2):.0f} bytes")
    result("snapshot wall", what_t, med(P, 0), med(S, 0), "s", pcmd, scmd, target="<= 0.1",
           samples=[p[0] / s[0] for p, s in zip(P, S)])
    result("snapshot size", what_s, med(P, 2), med(S, 2), "bytes", pcmd, scmd, target="<= 0.1",
           samples=[p[2] / s[2] for p, s in zip(P, S)])

# check on the archive against check live: the reader's cost (extraction into a private
# directory, then the same rules)
if not os.path.exists(snap):
    perflab_once()
live, arch = [], []
m = max(5, 3 * n)
for i in range(m):
    # check exits 1 when a finding reaches --fail-on
    for acc, argv in ((live, [perflab, "check"]), (arch, [perflab, "check", "--sysroot", snap]))[:: 1 if i % 2 == 0 else -1]:
        acc.append(run(argv, ok=(0, 1))[0] * 1e3)
print(f"perflab check live: median {statistics.median(live):.1f} ms; "
      f"--sysroot snapshot: median {statistics.median(arch):.1f} ms")
result("check on a snapshot", "wall ms of perflab check --sysroot SNAPSHOT.tar.zst vs perflab check live",
       statistics.median(arch), statistics.median(live), "ms",
       "perflab check --sysroot snap.tar.zst", "perflab check", target="<= 2",
       samples=[a / b for a, b in zip(arch, live)])
PY
