# SPDX-License-Identifier: GPL-3.0-or-later
"""Run measurements alternately (A B A B ...) and print medians, spread and ratios.

Used by the benchmarks/*.sh side-by-side scripts of the bench area: host noise hits both
sides alike when they alternate; compare medians, not single runs."""
import os
import statistics
import subprocess
import sys

# As root, both sides run at nice -20: the machine is shared with other builds, and a
# higher weight keeps time sharing out of both measurements alike (set PAIRS_NICE=0 to
# run at the default priority).
PRIO = ["nice", "-n", "-20"] if os.geteuid() == 0 and os.environ.get("PAIRS_NICE", "1") != "0" else []
if PRIO and sys.argv[1:2] != ["result"] and os.path.basename(sys.argv[0]) != "scoreboard.py":
    print("both sides run under nice -n -20 (PAIRS_NICE=0 to disable)", file=sys.stderr)


def sh(argv, **kw):
    """Run argv, return stdout (text); raise with stderr on failure."""
    p = subprocess.run(PRIO + list(argv), capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(argv)}: exit {p.returncode}: {p.stderr.strip()[:500]}")
    return p.stdout


def alternate(n, sides):
    """sides: list of (name, fn) where fn() returns one number. Returns {name: [values]}."""
    vals = {name: [] for name, _ in sides}
    for i in range(n):
        for name, fn in sides:
            v = fn()
            vals[name].append(v)
            print(f"  pair {i + 1}/{n}: {name}: {v:.4g}", file=sys.stderr, flush=True)
    return vals


def describe(vals, unit):
    for name, v in vals.items():
        med = statistics.median(v)
        spread = (max(v) - min(v)) / med * 100 if med else float("nan")
        print(f"{name:44s} median {med:10.4g} {unit}  min {min(v):.4g}  max {max(v):.4g}"
              f"  spread {spread:.0f}%  n={len(v)}")


def pair_ratios(vals, a, b):
    """The per-pair ratios vals[a][i] / vals[b][i] (for result()'s samples)."""
    return [x / y for x, y in zip(vals[a], vals[b])]


def ratio(vals, a, b, target, higher_is_better=True):
    """Print median(a)/median(b) and the ratios of each pair; returns the median ratio."""
    ra = statistics.median(vals[a]) / statistics.median(vals[b])
    pairs = [x / y for x, y in zip(vals[a], vals[b])]
    pm = statistics.median(pairs)
    ok = ra >= target if higher_is_better else abs(ra - 1) <= target
    goal = f">= {target}" if higher_is_better else f"within {target * 100:.0f}% of 1"
    print(f"ratio {a} / {b}: {ra:.3f} (median of per-pair ratios {pm:.3f}, "
          f"pairs {min(pairs):.3f}..{max(pairs):.3f}); target {goal}: {'MET' if ok else 'NOT MET'}")
    return ra


# ---- The scoreboard's result line (benchmarks/README.md "Result line") ----
# Every side-by-side script prints one line per comparison:
#     PERFLAB-RESULT {"area": ..., ...}
# a JSON object on one line after the marker, built only here (result() from Python,
# `bench_result` from shell through `python3 benchmarks/pairs.py result KEY=VALUE...`),
# so benchmarks/scoreboard.py collects every script's rows the same way.
MARK = "PERFLAB-RESULT "
TARGET_HELP = "'>= X', '<= X', '> X', '< X', 'LO..HI' (inclusive) or '' (no target)"


def target_met(target, value):
    """True/False whether value meets target (TARGET_HELP), None without a target or
    value. Raises ValueError on a target of another shape."""
    t = (target or "").strip()
    if not t or value is None:
        return None
    for op in (">=", "<=", ">", "<"):
        if t.startswith(op):
            x = float(t[len(op):])
            return {">=": value >= x, "<=": value <= x, ">": value > x, "<": value < x}[op]
    if ".." in t:
        lo, hi = (float(x) for x in t.split(".."))
        return lo <= value <= hi
    raise ValueError(f"target '{target}': expected {TARGET_HELP}")


TIE_MIN_PAIRS = 3


def target_tie(target, value, samples):
    """True when value misses target while at least a third of TIE_MIN_PAIRS or more
    per-pair samples meet it: the distance to the target is inside the pair-to-pair
    spread, so the comparison is a tie at this noise, not a gap. False when value meets
    the target, when fewer pairs meet it, or with fewer than TIE_MIN_PAIRS samples (two
    pairs cannot tell a tie from a gap, so a short run that misses stays "not met"); None
    without a target or a value. The scoreboard shows a tie as "tie", never as "met"."""
    met = target_met(target, value)
    if met is None:
        return None
    samples = samples or []
    if met or len(samples) < TIE_MIN_PAIRS:
        return False
    meeting = sum(1 for x in samples if target_met(target, float(x)))
    return 3 * meeting >= len(samples)


def result(area, what, perflab, peer, unit, perflab_cmd, peer_cmd, target="",
           target_of="ratio", samples=None, status="ok", reason=None, section=None, file=None,
           miss=None):
    """Print one PERFLAB-RESULT line and return its dict.

    area        short name of the comparison ("check", "profile overhead", ...): the
                scoreboard's row key together with what
    what        what is compared, in words: same work, pinning and sizes
    perflab, peer  the two figures (medians) in unit; peer None for a figure with an
                absolute target and no peer
    ratio       perflab / peer (always this way round; the target says which side is
                better)
    target      on the ratio, or on the perflab figure with target_of="perflab"
    samples     the per-pair ratios (or per-pair perflab figures for target_of="perflab"):
                their min..max is the row's spread
    status      "ok", or "skipped" with reason (a peer missing, too long for QUICK)
    section     the scoreboard section the row belongs to (None: the main table); the
                scoreboard prints each section as a table of its own under that title
    miss        a condition of the target other than the figures failed (the time to a
                1% figure when perflab stopped before reaching 1%): the row is "not
                met" whatever the ratio, and this text is its reason"""
    ratio = perflab / peer if perflab is not None and peer else None
    judged = ratio if target_of == "ratio" else perflab
    samples = [float(x) for x in (samples or [])]
    row = {
        "area": area, "what": what, "status": status,
        "perflab": perflab, "peer": peer, "unit": unit, "ratio": ratio,
        "target": target, "target_of": target_of,
        "met": (False if miss else target_met(target, judged)) if status == "ok" else None,
        "tie": (False if miss else target_tie(target, judged, samples)) if status == "ok" else None,
        "spread": [min(samples), max(samples)] if samples else None,
        "pairs": len(samples), "samples": samples,
        "perflab_cmd": perflab_cmd, "peer_cmd": peer_cmd,
        "load": list(os.getloadavg()),
    }
    if reason or miss:
        row["reason"] = reason or miss
    if miss:
        row["miss"] = miss
    if section:
        row["section"] = section
    import json
    print(MARK + json.dumps(row, separators=(",", ":")), file=file or sys.stdout, flush=True)
    return row


def _num(v):
    if v in ("", "null", "none"):
        return None
    return float(v)


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "result":
    # shell form (common.sh bench_result): KEY=VALUE arguments; perflab, peer numbers;
    # samples a space-separated list of numbers
    kw = {}
    for a in sys.argv[2:]:
        k, sep, v = a.partition("=")
        if not sep:
            raise SystemExit(f"pairs.py result: '{a}' is not KEY=VALUE")
        kw[k] = v
    for k in ("perflab", "peer"):
        kw[k] = _num(kw.get(k, ""))
    kw["samples"] = [float(x) for x in kw.get("samples", "").split()]
    try:
        result(**kw)
    except (TypeError, ValueError) as e:
        raise SystemExit(f"pairs.py result: {e}")
