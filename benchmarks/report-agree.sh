#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Do the figures of the default `perflab report` agree with the same benchmarks run alone
# with their defaults? Alternately, N times (A B A B): `perflab report -o DIR`
# (the default plan, about 60 s), then `perflab bench mem`, `bench io`, `bench clock`,
# `bench net`, `bench compress` alone, each with its defaults, except where noted:
#   io        with --cache auto, as the report (O_DIRECT where the file system supports
#             it, else cold; comparing a direct figure with a buffered one would compare
#             two questions), on the same file system as the report;
#   compress  with --level 1 (COMPRESS_ARGS): the report measures level 1 of each backend,
#             and each backend and level is measured on its own, so these are the rows of
#             the default sweep; the whole sweep takes minutes here (COMPRESS_ARGS= for it).
# Both sides run at nice -20 as root (benchmarks/pairs.py) on the same CPUs (all, as the
# report and the defaults do: mem runs a pinned thread per CPU, net pins the two ends of
# its ping-pong tests to two CPUs, the others are unpinned).
#
# A report benchmark that ran with its --quick arguments because a busy machine used up the
# budget first is left out of the comparison and counted in a note (QUICK_TOO=1 compares
# it anyway, its verdict marked "[report ran --quick]").
#
# Per figure it prints the report's value and the standalone value (medians of all runs
# of all rounds), their ratio, the range of the per-round ratios, and the verdict: "agree"
# when the difference is within 2 pooled standard deviations of the runs' samples,
# sqrt((sd_report^2 + sd_alone^2) / 2), i.e. within the figures' own spread; else
# "DIFFER". The load average before and after is printed: on a shared VM it decides how
# wide the spreads are.
#
# usage: benchmarks/report-agree.sh [N]   (N rounds, default 2; about 3 minutes each when
#        the machine is idle)
#   PERFLAB=path        use this binary instead of the release build
#   ALL=1               every metric both sides have, not only the key figures
#   COMPRESS_ARGS=...   arguments of the standalone compress (default: --level 1)
#   QUICK_TOO=1         also compare report figures that ran --quick (budget used up)
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/common.sh
if [ "${QUICK:-0}" = 1 ] && [ $# -eq 0 ]; then
	bench_skip "report agree" "a round takes 3 minutes or more: not in QUICK=1"
	exit 0
fi
bench_init report-agree 2 "$@"
command -v jq >/dev/null || { echo "report-agree: jq not found (make test-deps)" >&2; exit 2; }
echo "machine: $(nproc) CPUs, $(uname -r); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/python3 - "$N" "$PERFLAB" "$tmp" "${COMPRESS_ARGS---level 1}" "${ALL:-0}" <<'PY'
import json, math, os, statistics, sys
sys.path.insert(0, "benchmarks")
from pairs import result, sh

n, perflab, tmp, cz_args, all_metrics = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4].split(), sys.argv[5] == "1"
BENCHES = ["mem", "io", "clock", "net", "compress"]
KEY = {
    "mem": ["copy", "scale", "add", "triad", "memcpy", "sum"],
    "io": ["bandwidth", "iops", "latency"],
    "clock": ["gettimeofday", "clock_gettime(MONOTONIC)", "gettimeofday [syscall]"],
    "net": ["tcp_pp 64B round-trip", "udp_pp 64B round-trip", "tcp_stream x1", "tcp_stream x2",
            "udp_stream 1400B received", "tcp_crr 64B rate"],
    "compress": ["zlib-1 compress", "zlib-1 cpu", "libdeflate-1 compress", "isal-1 compress",
                 "isal-1 decompress", "zstd-1 compress"],
}
# samples[bench][metric][side] = list of per-run samples (all rounds); med[...] = per-round medians
samples, meds, units = {}, {}, {}
notes = {}
degraded = set()
quick_too = os.environ.get("QUICK_TOO") == "1"

def collect(side, bench, doc, rnd):
    if doc.get("status") not in ("ok",):
        notes.setdefault((side, bench), []).append(f"round {rnd + 1}: {doc.get('status')}: {doc.get('reason', '')}")
        return
    if side == "report" and doc.get("runner", {}).get("quick"):
        notes.setdefault((side, bench), []).append(
            f"round {rnd + 1}: ran with its --quick arguments (budget used up)"
            + ("" if quick_too else ", left out"))
        degraded.add(bench)
        if not quick_too:
            return
    for m in doc["metrics"]:
        if m.get("median") is None:
            continue
        units[(bench, m["name"])] = m["unit"]
        samples.setdefault(bench, {}).setdefault(m["name"], {}).setdefault(side, []).extend(
            x for x in m["samples"] if x is not None)
        meds.setdefault(bench, {}).setdefault(m["name"], {}).setdefault(side, {})[rnd] = m["median"]

def report_round(i):
    d = f"{tmp}/rep{i}"
    sh([perflab, "report", "-o", d, "-q"])
    rep = json.load(open(f"{d}/report.json"))
    run = rep.get("run", {})
    print(f"  round {i + 1}: report ({run.get('mode')} mode, benchmarks {run.get('bench_elapsed_s', 0):.0f} s)",
          file=sys.stderr, flush=True)
    got = {}
    for b in rep.get("benchmarks", []):
        if b["benchmark"] in BENCHES:
            got[b["benchmark"]] = b
            collect("report", b["benchmark"], b, i)
    return got

def alone_round(i, rep):
    for bench in BENCHES:
        args = []
        if bench == "io":
            args = ["--cache", "auto", "--dir", tmp]
        if bench == "compress":
            args = cz_args
        out = f"{tmp}/{bench}{i}.json"
        sh([perflab, "bench", bench, *args, "--json", "-o", out, "-q"])
        collect("alone", bench, json.load(open(out)), i)
        print(f"  round {i + 1}: bench {bench} {' '.join(args)}", file=sys.stderr, flush=True)

for i in range(n):
    rep = report_round(i)
    alone_round(i, rep)

def fmt(x, unit):
    # as the terminal shows them: ns -> us -> ms -> s, and no exponent below 10^7
    if unit == "ns":
        for div, u in ((1e9, "s"), (1e6, "ms"), (1e3, "us")):
            if x >= div:
                return f"{x / div:.4g} {u}"
    if abs(x) >= 1e4 and abs(x) < 1e7:
        return f"{x:.0f} {unit}"
    return f"{x:.4g} {unit}"

rows = []
for bench in BENCHES:
    names = KEY[bench]
    if all_metrics:
        names = [k for k in samples.get(bench, {})]
    for name in names:
        s = samples.get(bench, {}).get(name, {})
        md = meds.get(bench, {}).get(name, {})
        if "report" not in s or "alone" not in s:
            rows.append((bench, name, None))
            continue
        r, a = statistics.median(s["report"]), statistics.median(s["alone"])
        sd_r = statistics.stdev(s["report"]) if len(s["report"]) > 1 else math.nan
        sd_a = statistics.stdev(s["alone"]) if len(s["alone"]) > 1 else math.nan
        pooled = math.sqrt((sd_r ** 2 + sd_a ** 2) / 2)
        ratio = r / a if a else math.nan
        pr = [md["report"][k] / md["alone"][k] for k in md["report"] if md["alone"].get(k)]
        if math.isnan(pooled):
            verdict = "no spread (one run)"
        else:
            verdict = "agree" if abs(r - a) <= 2 * pooled else "DIFFER"
        if quick_too and bench in degraded:
            verdict += " [report ran --quick]"
        rows.append((bench, name, (r, a, ratio, min(pr, default=None), max(pr, default=None), sd_r, sd_a, len(s["report"]), len(s["alone"]), verdict)))

print(f"\n{n} rounds, alternating report / standalone; medians of all runs (n = report + alone)")
print(f"{'figure':<36} {'report':>12} {'alone':>12} {'ratio':>6} {'per round':>13} {'cv r/a':>11} {'n':>7}  verdict")
ndiff = nagree = 0
for bench, name, v in rows:
    label = f"{bench} {name}"
    if v is None:
        print(f"{label:<36} {'(missing on one side)':>40}")
        continue
    r, a, ratio, lo, hi, sd_r, sd_a, nr, na, verdict = v
    u = units[(bench, name)]
    cv = f"{100 * sd_r / r:.0f}%/{100 * sd_a / a:.0f}%" if r and a and not math.isnan(sd_r + sd_a) else "-"
    rng = f"{lo:6.2f}-{hi:<6.2f}" if lo is not None else f"{'-':^13}"
    print(f"{label:<36} {fmt(r, u):>12} {fmt(a, u):>12} {ratio:6.3f} {rng} {cv:>11} {nr:>3}+{na:<3}  {verdict}")
    ndiff += verdict.startswith("DIFFER")
    nagree += verdict.startswith("agree")
for (side, bench), why in sorted(notes.items()):
    print(f"note: {side} {bench}: {'; '.join(why)}")
print(f"\n{nagree} figures agree within their spread, {ndiff} differ")
result("report agree", "share of the report's key figures within 2 pooled sd of the same benchmarks run alone (docs/scoreboard.md: which differ and why); no target",
       nagree / max(nagree + ndiff, 1), None, "fraction", "perflab report -o DIR",
       "perflab bench mem|io|clock|net|compress alone", target_of="perflab")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
