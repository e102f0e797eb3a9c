#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `perflab bench mem` beside likwid-bench and sysbench memory on the same array size and
# threads, alternately A B A B. Targets: perflab's Triad >= 0.98x likwid-bench's
# STREAM triad (`-t stream_avx`: a = b + s*c, 24 B per element, no write-allocate counted,
# MByte/s = 10^6 B/s), all threads and single thread; perflab's read-only sum >= 0.98x
# `sysbench memory --memory-oper=read` (MiB/s converted to GB/s), where comparable.
# Streaming stores: perflab's triad_nt (`bench mem --nt`, non-temporal stores, no
# read-for-ownership of the destination) >= 0.98x likwid-bench's `stream_mem_avx` (the same
# triad with non-temporal AVX stores) and, where the CPU has AVX-512 (avx512f in
# /proc/cpuinfo) and likwid-bench lists it (`likwid-bench -a`), `stream_mem_avx512`: the
# highest bandwidth these tools get from the machine. All threads and single thread. One
# perflab run (`--only triad --nt`) gives both of its triads; it alternates with
# likwid-bench's temporal and streaming-store runs (A B C ...), the sum with sysbench's.
# perflab's figure is the median over its runs (best-of-N is printed too); likwid-bench's
# is its own average over its iterations; sysbench's the total over --time.
#
# likwid-bench allocates and first-touches its arrays in each invocation and has no
# warm-up: on this VM the first pass over fresh memory is several times slower (host-side
# faults), and that pass is inside likwid's average; perflab discards it (--warmup 1).
#
# usage: benchmarks/mem-vs-peers.sh [N] [BYTES]   (N pairs, default 3; BYTES per array, a
#        power of two as sysbench requires, default 1 GiB; likwid-bench gets 3x that as
#        its total -w size, in kB of 1000 B)
#   PERFLAB=path  use this binary instead of the release build (make build -> build/perflab)
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/common.sh
bench_init mem-vs-peers "$(bench_quick 3 2)" "$@"
BYTES=${2:-$(bench_quick 1073741824 268435456)}
case $BYTES in '' | *[!0-9]*) echo "mem-vs-peers: BYTES must be a number of bytes, got '$BYTES'" >&2; exit 2 ;; esac
[ $((BYTES & (BYTES - 1))) -eq 0 ] && [ "$BYTES" -ge 1048576 ] ||
	{ echo "mem-vs-peers: BYTES must be a power of two >= 1 MiB (sysbench's block size), got $BYTES" >&2; exit 2; }
for t in likwid-bench sysbench; do
	command -v $t >/dev/null || { echo "mem-vs-peers: $t not found (make bench-deps)" >&2; exit 2; }
done
T=$(nproc)
# likwid-bench's AVX-512 streaming-store triad, where both the CPU and likwid-bench have it
# (the list is read whole first: grep -q would end the pipe early under pipefail)
NT_KERNELS=stream_mem_avx
kernels=$(likwid-bench -a 2>/dev/null || true)
if grep -qw avx512f /proc/cpuinfo && printf '%s\n' "$kernels" | grep -q '^stream_mem_avx512 '; then
	NT_KERNELS="stream_mem_avx stream_mem_avx512"
fi
echo "array size $BYTES B each (likwid-bench total $((3 * BYTES)) B), threads $T and 1; streaming stores vs $NT_KERNELS"
/usr/bin/python3 - "$N" "$PERFLAB" "$tmp" "$BYTES" "$T" "$NT_KERNELS" "${QUICK:-0}" <<'PY'
import json, re, statistics, sys
sys.path.insert(0, "benchmarks")
from pairs import alternate, describe, pair_ratios, ratio, result, sh
n, perflab, tmp, size, T = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
nt_kernels, quick = sys.argv[6].split(), sys.argv[7] == "1"
best = {}

def perflab_mem(threads, metric, kernels="triad,sum", nt=False, also=None):
    """One perflab run's median of metric; with also={name: list}, those metrics' medians
    of the same run appended to the lists."""
    def run():
        cpus = ["--cpus", "0"] if threads == 1 else []
        sh([perflab, "bench", "mem", "--size", str(size), "--only", kernels, "--runs", "5",
            *(["--nt"] if nt else []), *cpus, "--json", "-o", f"{tmp}/m.json", "-q"])
        d = json.load(open(f"{tmp}/m.json"))
        m = {x["name"]: x for x in d["metrics"]}
        best.setdefault((threads, metric), []).append(m[metric]["best"])
        for k, vals in (also or {}).items():
            vals.append(m[k]["median"])
        return m[metric]["median"]
    return run

def likwid(threads, kernel="stream_avx"):
    def run():
        out = sh(["likwid-bench", "-t", kernel, "-w", f"S0:{3 * size // 1000}kB:{threads}"])
        return float(re.search(r"MByte/s:\s+([0-9.]+)", out).group(1)) / 1000
    return run

def sysbench(threads):
    def run():
        out = sh(["sysbench", "memory", f"--memory-block-size={size // 1024}K", "--memory-total-size=1T",
                  "--memory-scope=local", "--memory-oper=read", "--memory-access-mode=seq",
                  f"--threads={threads}", "--time=3", "run"])
        mib = float(re.search(r"\(([0-9.]+) MiB/sec\)", out).group(1))
        return mib * 1048576 / 1e9
    return run

for threads in (T, 1):
    # one loop: perflab's run measures triad and triad_nt (--nt), alternating with
    # likwid-bench's temporal and streaming-store triads
    print(f"\n== {threads} thread(s): triad vs likwid-bench stream_avx, triad_nt vs {', '.join(nt_kernels)} ==")
    a, b = f"perflab mem triad ({threads} thr, median)", f"likwid-bench stream_avx ({threads} thr)"
    ant = f"perflab mem triad_nt ({threads} thr, median)"
    nt_vals = []
    sides = [(a, perflab_mem(threads, "triad", "triad", nt=True, also={"triad_nt": nt_vals})),
             (b, likwid(threads))]
    sides += [(f"likwid-bench {k} ({threads} thr)", likwid(threads, k)) for k in nt_kernels]
    v = alternate(n, sides)
    v[ant] = nt_vals
    describe(v, "GB/s")
    print(f"  (perflab best-of-N triad: {max(best[(threads, 'triad')]):.3f} GB/s)")
    pcmd = f"perflab bench mem --size {size} --only triad --nt --runs 5" + (" --cpus 0" if threads == 1 else "")
    qn = f"; QUICK: {n} pairs" if quick else ""
    ratio(v, a, b, 0.98)
    result(f"mem triad {threads}T", f"STREAM triad GB/s, {size} B per array, {threads} thread(s){qn}",
           statistics.median(v[a]), statistics.median(v[b]), "GB/s", pcmd,
           f"likwid-bench -t stream_avx -w S0:{3 * size // 1000}kB:{threads}",
           target=">= 0.98", samples=pair_ratios(v, a, b))
    for k in nt_kernels:
        bk = f"likwid-bench {k} ({threads} thr)"
        ratio(v, ant, bk, 0.98)
        result(f"mem triad_nt {threads}T vs {k}",
               f"STREAM triad with streaming (non-temporal) stores, GB/s, {size} B per array, "
               f"{threads} thread(s){qn}",
               statistics.median(v[ant]), statistics.median(v[bk]), "GB/s", pcmd,
               f"likwid-bench -t {k} -w S0:{3 * size // 1000}kB:{threads}",
               target=">= 0.98", samples=pair_ratios(v, ant, bk))
    print(f"== {threads} thread(s): read-only sum vs sysbench memory read ==")
    a, b = f"perflab mem sum ({threads} thr, median)", f"sysbench memory read ({threads} thr)"
    v = alternate(n, [(a, perflab_mem(threads, "sum", "sum")), (b, sysbench(threads))])
    describe(v, "GB/s")
    ratio(v, a, b, 0.98)
    result(f"mem sum {threads}T", f"read-only sequential GB/s, {size} B, {threads} thread(s)",
           statistics.median(v[a]), statistics.median(v[b]), "GB/s",
           f"perflab bench mem --size {size} --only sum --runs 5" + (" --cpus 0" if threads == 1 else ""),
           f"sysbench memory --memory-block-size={size // 1024}K --memory-total-size=1T --memory-scope=local "
           f"--memory-oper=read --memory-access-mode=seq --threads={threads} --time=3 run",
           target=">= 0.98", samples=pair_ratios(v, a, b))
PY
