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
if PRIO:
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
