#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `perflab profile --off-cpu` beside `perf record` of the scheduler tracepoints on a
# context-switch-heavy workload: two threads ping-ponging one byte over a pipe, both
# pinned to one CPU (benchmarks/pipe-pingpong.c, ROUNDS round trips; every round trip is
# two blocking reads, two wakeups and, as the wakeup preempts the waker, up to four
# switches). Each pair runs the workload alone, then under each tool, the tools' order
# rotating from pair to pair. Targets:
#   1. overhead: the workload's own CLOCK_MONOTONIC loop time under the tool / alone
#      (median slowdown) no higher under perflab than under
#      `perf record -a -g -e sched:sched_switch,sched:sched_waking,sched:sched_migrate_task`
#      (the events perflab records, on every CPU, with callchains). The issue also names
#      `perf record -e sched:sched_switch -g` (the switches alone, per task): its row is
#      the same comparison against a tool that records one event with one callchain per
#      switch where perflab records a switch and a wakeup (the waker's kernel stack)
#      per wait, and on-CPU samples beside them;
#   2. report: perflab's work after the run (`perflab -v`: the log's sort plus the report
#      phase, which holds the off-CPU analysis, symbolization and printing) vs the wall
#      time of `perf sched timehist` (its default per-switch view with the callchains,
#      output to /dev/null) over the perf.data of the three-event run of the same pair.
#
# usage: benchmarks/offcpu-vs-perf.sh [N] [ROUNDS]   (N pairs, default 7, QUICK 3; ROUNDS
#   round trips, default 200000, QUICK 50000). CPU=n pins the workload (default 0).
#   PERFLAB=path uses that binary.
# The machine is shared with other builds: numbers are noisy; read medians and spread.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/common.sh
bench_init offcpu-vs-perf "$(bench_quick 7 3)" "$@"
ROUNDS=${2:-$(bench_quick 200000 50000)}
CPU=${CPU:-0}
case $ROUNDS in '' | *[!0-9]* | 0) echo "offcpu-vs-perf: ROUNDS must be a positive integer, got '$ROUNDS'" >&2; exit 2 ;; esac
command -v perf >/dev/null || { echo "offcpu-vs-perf: perf not found (make bench-deps)" >&2; exit 2; }
[ -e /sys/kernel/tracing/events/sched/sched_switch ] || [ -e /sys/kernel/debug/tracing/events/sched/sched_switch ] ||
	{ echo "offcpu-vs-perf: the sched tracepoints are not available (run as root with tracefs mounted)" >&2; exit 2; }
cc -O2 -pthread -o "$tmp/pingpong" benchmarks/pipe-pingpong.c

/usr/bin/python3 - "$N" "$ROUNDS" "$CPU" "$PERFLAB" "$tmp" <<'PY'
import re, statistics as st, subprocess as sp, sys, time
sys.path.insert(0, "benchmarks")
from pairs import PRIO, result

n, rounds, cpu, perflab, tmp = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
wl = [f"{tmp}/pingpong", rounds, cpu]
EV3 = "sched:sched_switch,sched:sched_waking,sched:sched_migrate_task"

def run(argv, what):
    r = sp.run(PRIO + argv, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"{what} failed (exit {r.returncode}):\n" + r.stderr[-2000:])
    m = re.search(r"elapsed_ns (\d+)", r.stderr)
    if not m:
        sys.exit(f"{what}: the workload did not report its time:\n" + r.stderr[-2000:])
    return int(m.group(1)) / 1e9, r.stderr

def alone():
    return run(wl, "the workload")[0]

post = []  # perflab's work after the run (sort + report phase), s
events = []

def perflab_run():
    e, err = run([perflab, "-v", "profile", "--off-cpu", "-o", f"{tmp}/pl.txt", "--"] + wl,
                 "perflab profile --off-cpu")
    a = re.search(r"off-CPU analysis: ([0-9.]+) ms for (\d+) events .*sort ([0-9.]+) ms", err)
    r = re.search(r"report: ([0-9.]+) ms for", err)
    if not a or not r:
        sys.exit("perflab -v printed no analysis or report time:\n" + err[-2000:])
    post.append((float(r.group(1)) + float(a.group(3))) / 1e3)
    events.append(int(a.group(2)))
    lost = re.search(r"(\d+) scheduler events lost", open(f"{tmp}/pl.txt").read())
    if lost and int(lost.group(1)):
        print(f"  perflab: {lost.group(1)} scheduler events lost", flush=True)
    return e

def perf3_run():
    return run(["perf", "record", "-q", "-a", "-g", "-e", EV3, "-o", f"{tmp}/perf3.data", "--"]
               + wl, "perf record -a -g")[0]

def perfsw_run():
    return run(["perf", "record", "-q", "-g", "-e", "sched:sched_switch", "-o",
                f"{tmp}/perfsw.data", "--"] + wl, "perf record -e sched:sched_switch -g")[0]

def timehist():
    t0 = time.monotonic()
    sp.run(PRIO + ["perf", "sched", "timehist", "-i", f"{tmp}/perf3.data"], stdout=sp.DEVNULL,
           stderr=sp.DEVNULL, check=True)
    return time.monotonic() - t0

sides = [("perflab", perflab_run), ("perf3", perf3_run), ("perfsw", perfsw_run)]
base, el, th = [], {k: [] for k, _ in sides}, []
for i in range(n):
    base.append(alone())
    order = sides[i % 3:] + sides[:i % 3]  # the tools' order rotates from pair to pair
    for k, fn in order:
        el[k].append(fn())
    th.append(timehist())
    print(f"pair {i+1}: alone {base[-1]:.3f}s  perflab {el['perflab'][-1]:.3f}s  "
          f"perf -a -g (3 events) {el['perf3'][-1]:.3f}s  perf -e sched_switch -g "
          f"{el['perfsw'][-1]:.3f}s  after the run: perflab {post[-1]*1e3:.0f} ms "
          f"({events[-1]} events), perf sched timehist {th[-1]*1e3:.0f} ms", flush=True)

med = st.median
def spread(v): return f"[{min(v):.3f} .. {max(v):.3f}]"
b = med(base)
slow = {k: [x / y for x, y in zip(v, base)] for k, v in el.items()}
print()
print(f"workload alone                median {b:.3f}s {spread(base)} ({rounds} round trips on CPU {cpu})")
for k, name in (("perflab", "perflab --off-cpu"), ("perf3", "perf record -a -g 3 events"),
                ("perfsw", "perf record sched_switch -g")):
    print(f"{name:<28}  median {med(el[k]):.3f}s {spread(el[k])}  slowdown {med(slow[k]):.2f}x "
          f"{spread(slow[k])}")
r3 = [x / y for x, y in zip(slow["perflab"], slow["perf3"])]
rsw = [x / y for x, y in zip(slow["perflab"], slow["perfsw"])]
print(f"slowdown ratio            perflab / perf -a -g (same events) {med(slow['perflab'])/med(slow['perf3']):.3f} "
      f"(pairs {spread(r3)}); perflab / perf sched_switch -g {med(slow['perflab'])/med(slow['perfsw']):.3f} "
      f"(pairs {spread(rsw)}); target <= 1")
print(f"after the run             perflab median {med(post)*1e3:.0f} ms ({med(events):.0f} events), "
      f"perf sched timehist median {med(th)*1e3:.0f} ms: perflab {med(th)/med(post):.1f}x faster (target > 1x)")
wlcmd = f"benchmarks/pipe-pingpong.c {rounds} {cpu}"
what = f"slowdown of a two-thread pipe ping-pong pinned to CPU {cpu} ({rounds} round trips, own loop time) under the tool / alone"
result("off-CPU overhead", what + "; perf records the same three events on every CPU with callchains",
       med(slow["perflab"]), med(slow["perf3"]), "x alone", f"perflab profile --off-cpu -- {wlcmd}",
       f"perf record -a -g -e {EV3} -- {wlcmd}", target="<= 1", samples=r3)
result("off-CPU overhead vs switches", what + "; perf records sched_switch alone, per task, with callchains",
       med(slow["perflab"]), med(slow["perfsw"]), "x alone", f"perflab profile --off-cpu -- {wlcmd}",
       f"perf record -e sched:sched_switch -g -- {wlcmd}", target="<= 1", samples=rsw)
result("off-CPU report", "work after the run: perflab's log sort + report phase (off-CPU analysis, symbols, text; perflab -v) vs perf sched timehist over the perf.data of the same pair's three-event run",
       med(post) * 1e3, med(th) * 1e3, "ms", f"perflab -v profile --off-cpu -- {wlcmd}",
       "perf sched timehist -i perf.data", target="<= 1",
       samples=[x / y for x, y in zip(post, th)])
PY
