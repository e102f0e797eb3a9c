#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The performance scoreboard: run every side-by-side comparison in benchmarks/ once and
print one table (`make bench-peers`, `QUICK=1` for the short version).

usage: benchmarks/scoreboard.py [--quick] [--only NAME[,NAME]] [--json FILE]
                                [--from FILE] [--markdown docs/scoreboard.md] [--dir DIR]

  --quick        QUICK=1 for every script: fewer pairs, smaller sizes (under 5 minutes on
                 an idle 2-vCPU machine); also QUICK=1 in the environment
  --only a,b     only the scripts whose name (without .sh) is listed
  --json FILE    also write the scoreboard as JSON (docs/schemas/scoreboard.schema.json:
                 a bench-shaped document, so `perflab diff OLD.json NEW.json` shows which
                 ratios moved; '-' = stdout)
  --from FILE    no runs: read a scoreboard written by --json (print it, --markdown it)
  --markdown FILE rewrite the block between "<!-- scoreboard:begin -->" and
                 "<!-- scoreboard:end -->" in FILE with the table (machine, date, load)
  --dir DIR      the scripts' directory (default: this file's; tests use a fixture one)

Every benchmarks/*.sh is one comparison script. It joins the scoreboard by printing one
result line per comparison (benchmarks/common.sh bench_result, benchmarks/pairs.py
result(): "PERFLAB-RESULT {json}") and by honouring QUICK=1 in its defaults. A script that
exits non-zero without a result line (a peer is not installed: exit 2) is a skipped row
with its last line of stderr as the reason. The scripts run one after the other; each
alternates its own sides A B A B.

A row may name a section (pairs.py result(section=...); SECTIONS below): the scoreboard
shows it in that section's own table after the main one, text and markdown alike.

Ratios are always perflab / peer; the target says which side is better (<= for times and
costs, >= for rates). A row is met, not met, or a tie: its medians miss the target while
at least a third of 3 or more pairs meet it (pairs.py target_tie()). Figures are wall time unless the row says CPU time; the load
average (1 min) before each script is printed beside its rows: on a shared machine a
wall-time ratio measured at a high load is noise, CPU-time and instruction counts less so.
"""
import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from pairs import MARK, target_met, target_tie  # noqa: E402

BEGIN, END = "<!-- scoreboard:begin -->", "<!-- scoreboard:end -->"


def scripts(d, only):
    names = sorted(f[:-3] for f in os.listdir(d) if f.endswith(".sh") and f != "common.sh")
    if only:
        unknown = [x for x in only if x not in names]
        if unknown:
            print(f"scoreboard: --only: no benchmarks/{unknown[0]}.sh (have: {', '.join(names)})",
                  file=sys.stderr)
            sys.exit(2)
        names = [x for x in names if x in only]
    return names


def run_script(d, name, quick, log):
    """Run one script; return its rows (result lines), with the script name, load average
    before and its elapsed wall time added; a skipped row when it printed none."""
    env = dict(os.environ)
    if quick:
        env["QUICK"] = "1"
    load0 = os.getloadavg()
    t0 = time.monotonic()
    print(f"scoreboard: {name} (load average {load0[0]:.1f})", file=sys.stderr, flush=True)
    p = subprocess.Popen(["bash", os.path.join(d, name + ".sh")], cwd=os.path.dirname(d) or ".",
                         env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = p.communicate()
    elapsed = time.monotonic() - t0
    log.write(f"==== {name} (exit {p.returncode}, {elapsed:.0f} s)\n{out}{err}\n")
    log.flush()
    rows = []
    for line in out.splitlines():
        if line.startswith(MARK):
            try:
                r = json.loads(line[len(MARK):])
            except json.JSONDecodeError as e:
                r = {"area": name, "status": "failed", "reason": f"bad result line: {e}"}
            rows.append(r)
    if not rows:
        why = (err.strip().splitlines() or [f"exit {p.returncode}, no result line"])[-1]
        rows.append({"area": name, "status": "skipped" if p.returncode == 2 else "failed",
                     "reason": why[:300]})
    elif p.returncode != 0:
        for r in rows:
            r.setdefault("reason", f"script exited {p.returncode} after this row")
    for r in rows:
        r["script"] = name
        r["script_load"] = load0[0]
        r["script_elapsed_s"] = round(elapsed, 1)
        r.setdefault("what", "")
        r.setdefault("status", "ok")
        # recomputed here, so a row's verdict never depends on the script's own arithmetic
        if r["status"] == "ok":
            judged = r.get("ratio") if r.get("target_of", "ratio") == "ratio" else r.get("perflab")
            try:
                r["met"] = target_met(r.get("target", ""), judged)
                r["tie"] = target_tie(r.get("target", ""), judged, r.get("samples"))
                if r.get("miss"):  # pairs.result(miss=...): not met whatever the figures
                    r["met"] = r["tie"] = False
            except ValueError as e:
                r["met"] = r["tie"] = None
                r["reason"] = str(e)
    return rows


def fmt(x):
    if x is None:
        return "-"
    if x == 0 or 0.01 <= abs(x) < 1e5:
        return f"{x:.3g}" if abs(x) < 100 else f"{x:.0f}"
    return f"{x:.3g}"


def is_tie(r):
    """A row missed by its medians but met by enough of its pairs (pairs.target_tie)."""
    return r.get("met") is False and bool(r.get("tie"))


def verdict(r, missed):
    """The met column: met, tie (is_tie), @missed, or - without a target."""
    if is_tie(r):
        return "tie"
    return {True: "met", False: missed, None: "-"}[r.get("met")]


# The sections of the scoreboard besides its main table: a row with "section" (pairs.py
# result(section=...)) is shown in its section's own table, under the title, with this
# line saying what its rows compare. Sections follow the main table in this order.
SECTIONS = {
    "time to a trustworthy figure":
        "Wall time of the whole `perflab bench ... --precision 1%` command (start-up, setup, "
        "warm-up, the runs until the 95% CI of the median is within 1% of it or --max-time) / "
        "the wall time of the peer's default run on the same work (benchmarks/"
        "precision-vs-peers.sh); each row's what says the precision perflab reached and how far "
        "each side's figure spread over the repetitions. Target < 1: perflab has a figure it "
        "can vouch for sooner than the peer has one it cannot.",
}


def sections(rows):
    """[(title or None, rows)]: the main table's rows (no section) first, then each
    section's, in SECTIONS order and then in order of first appearance."""
    main = [r for r in rows if not r.get("section")]
    names = [x for x in SECTIONS if any(r.get("section") == x for r in rows)]
    for r in rows:
        if r.get("section") and r["section"] not in names:
            names.append(r["section"])
    return [(None, main)] + [(x, [r for r in rows if r.get("section") == x]) for x in names]


def table(rows):
    """The scoreboard as text lines: the main table, then each section's (sections())
    under its title."""
    out = []
    for title, rs in sections(rows):
        if title:
            out += ["", f"== {title} =="]
        if rs or not title:
            out += table_lines(rs)
    return out


def table_lines(rows):
    """One table of rows as text lines."""
    head = ("area", "perflab", "peer", "unit", "ratio", "target", "met", "spread", "load")
    body = []
    for r in rows:
        if r.get("status") != "ok":
            body.append((r["area"], "-", "-", "", "-", r.get("target", "") or "-",
                         r.get("status", "?"), "-", fmt(r.get("script_load"))))
            continue
        sp = r.get("spread")
        met = verdict(r, "NOT met")
        of = "" if r.get("target_of", "ratio") == "ratio" else " (perflab)"
        body.append((r["area"], fmt(r.get("perflab")), fmt(r.get("peer")), r.get("unit", ""),
                     fmt(r.get("ratio")), (r.get("target") or "-") + of, met,
                     f"{fmt(sp[0])}..{fmt(sp[1])}" if sp else "-", fmt(r.get("script_load"))))
    w = [max(len(str(x[i])) for x in [head] + body) for i in range(len(head))]
    lines = ["  ".join(str(c).ljust(w[i]) for i, c in enumerate(head)).rstrip()]
    lines += ["  ".join(str(c).ljust(w[i]) for i, c in enumerate(b)).rstrip() for b in body]
    return lines


def details(rows):
    out = []
    for r in rows:
        if r.get("status") != "ok":
            out.append(f"{r['area']}: {r.get('status')}: {r.get('reason', '')}")
            continue
        out.append(f"{r['area']}: {r.get('what', '')}")
        out.append(f"    perflab: {r.get('perflab_cmd', '')}")
        if r.get("peer_cmd"):
            out.append(f"    peer:    {r['peer_cmd']}")
        if r.get("reason"):
            out.append(f"    note:    {r['reason']}")
    return out


def machine():
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"hostname": platform.node(), "kernel": platform.release(), "cpus": os.cpu_count(),
            "cpu_model": model}


def perflab_version(d):
    exe = os.environ.get("PERFLAB") or os.path.join(os.path.dirname(d), "build", "perflab")
    try:
        out = subprocess.run([exe, "--version"], capture_output=True, text=True,
                             timeout=30).stdout.strip()
        return out.splitlines()[0] if out else "unknown"  # "perflab X.Y.Z"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def metric(r):
    """A row as a bench metric (docs/schemas/bench.schema.json), so `perflab diff` of two
    scoreboards compares the ratios: samples are the per-pair ratios (or per-pair perflab
    figures for an absolute target)."""
    t = (r.get("target") or "").strip()
    better = "higher" if t.startswith(">") else "lower" if t.startswith("<") else "neither"
    absolute = r.get("target_of", "ratio") != "ratio"
    v = r.get("perflab") if absolute else r.get("ratio")
    s = [x for x in r.get("samples", []) if x is not None] or ([v] if v is not None else [])
    n = len(s)
    mean = sum(s) / n if n else None
    sd = (sum((x - mean) ** 2 for x in s) / (n - 1)) ** 0.5 if n > 1 else (0.0 if n else None)
    return {
        "name": r["area"] + ("" if absolute else " ratio"),
        "unit": r.get("unit", "") if absolute else "perflab/peer",
        "better": better,
        "best": (max(s) if better == "higher" else min(s)) if s else None,
        "median": v, "mean": mean, "stddev": sd,
        "min": min(s) if s else None, "max": max(s) if s else None,
        "p99": max(s) if s else None,
        "cv": sd / mean if n and mean else None, "n": n, "samples": s,
        "help": r.get("what", "") + (f" (target {t})" if t else ""),
    }


def document(rows, quick, started, d):
    met = sum(1 for r in rows if r.get("met") is True)
    tied = [r["area"] for r in rows if is_tie(r)]
    missed = [r["area"] for r in rows if r.get("met") is False and not is_tie(r)]
    skipped = sum(1 for r in rows if r.get("status") != "ok")
    ok = [r for r in rows if r.get("status") == "ok"]
    return {
        "schema_version": 1,
        "benchmark": "scoreboard",
        "summary": f"{met} targets met"
                   + (f", {len(tied)} tied ({', '.join(tied)}: pairs on both sides of the target)"
                      if tied else "")
                   + f", {len(missed)} not met"
                   + (f" ({', '.join(missed)})" if missed else "") + f", {skipped} skipped",
        "status": "ok" if ok else "skipped",
        **({} if ok else {"reason": "no comparison could run here"}),
        "generated": started.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "perflab_version": perflab_version(d),
        "metrics": [metric(r) for r in ok if r.get("perflab") is not None],
        "info": {"quick": quick, "machine": machine(), "rows": rows},
        "notes": ["ratios are perflab / peer; rows are wall time unless they say CPU time; "
                  "script_load is the 1-minute load average before the script ran"],
    }


def markdown_block(doc):
    info = doc["info"]
    m = info["machine"]
    loads = [r.get("script_load") for r in info["rows"] if r.get("script_load") is not None]
    lr = f"{min(loads):.1f}-{max(loads):.1f}" if loads else "?"
    lines = [BEGIN,
             f"Generated by `make bench-peers{' QUICK=1' if info['quick'] else ''}` "
             f"(benchmarks/scoreboard.py) on {doc['generated'][:10]} at {doc['generated'][11:16]} UTC, "
             f"{m['cpus']} CPUs ({m['cpu_model'] or 'unknown CPU'}), kernel {m['kernel']}, "
             f"{doc['perflab_version']}; load average {lr} before its scripts (the "
             f"benchmarks' own load included). {doc['summary']}.",
             ""]
    for title, rows in sections(info["rows"]):
        if title:
            lines += ["", f"### {title[0].upper() + title[1:]}", ""]
            if SECTIONS.get(title):
                lines += [SECTIONS[title], ""]
        lines += markdown_rows(rows)
    lines.append(END)
    return "\n".join(lines)


def markdown_rows(rows):
    """One markdown table of rows (lines)."""
    lines = ["| area | what is compared | perflab | peer | ratio | target | met | spread | load |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if r.get("status") != "ok":
            lines.append(f"| {r['area']} | {r.get('status')}: {r.get('reason', '')} | - | - | - | "
                         f"{r.get('target') or '-'} | - | - | {fmt(r.get('script_load'))} |")
            continue
        sp = r.get("spread")
        met = verdict(r, "**not met**")
        of = "" if r.get("target_of", "ratio") == "ratio" else " (perflab)"
        peer = f" vs `{r['peer_cmd']}`" if r.get("peer_cmd") else ""
        what = f"{r.get('what', '')}: `{r.get('perflab_cmd', '')}`{peer}".replace("|", "\\|")
        lines.append(f"| {r['area']} | {what} | {fmt(r.get('perflab'))} {r.get('unit', '')} | "
                     f"{fmt(r.get('peer'))}{' ' + r.get('unit', '') if r.get('peer') is not None else ''} | {fmt(r.get('ratio'))} | {r.get('target') or '-'}{of} | "
                     f"{met} | {fmt(sp[0]) + '..' + fmt(sp[1]) if sp else '-'} | "
                     f"{fmt(r.get('script_load'))} |")
    return lines


def rewrite_markdown(path, doc):
    text = open(path).read()
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        sys.exit(f"scoreboard: {path}: needs one '{BEGIN}' line before one '{END}' line")
    a, b = text.index(BEGIN), text.index(END) + len(END)
    new = text[:a] + markdown_block(doc) + text[b:]
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(new)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", default=os.environ.get("QUICK") == "1")
    ap.add_argument("--only", default="")
    ap.add_argument("--json")
    ap.add_argument("--from", dest="from_")
    ap.add_argument("--markdown")
    ap.add_argument("--dir", default=HERE)
    ap.add_argument("--log", default=None, help="the scripts' whole output (default: a file in $TMPDIR)")
    a = ap.parse_args()
    d = os.path.abspath(a.dir)
    if a.from_:
        try:
            doc = json.load(open(a.from_))
            rows = doc["info"]["rows"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"scoreboard: --from '{a.from_}': not a scoreboard JSON ({e}); write one "
                  f"with --json", file=sys.stderr)
            return 2
    else:
        started = datetime.datetime.now(datetime.timezone.utc)
        names = scripts(d, [x for x in a.only.split(",") if x])
        logp = a.log or os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                     f"scoreboard-{started:%Y%m%dT%H%M%S}.log")
        rows = []
        with open(logp, "w") as log:
            for name in names:
                rows += run_script(d, name, a.quick, log)
        print(f"scoreboard: every script's output is in {logp}", file=sys.stderr)
        doc = document(rows, a.quick, started, d)
    out = sys.stderr if a.json == "-" else sys.stdout
    m = doc["info"]["machine"]
    print(f"perflab scoreboard{' (QUICK)' if doc['info']['quick'] else ''}: {doc['generated']}, "
          f"{m['hostname']}, {m['cpus']} CPUs, {m['kernel']}; ratio = perflab / peer", file=out)
    for line in table(rows):
        print(line, file=out)
    print(file=out)
    for line in details(rows):
        print(line, file=out)
    print(f"\n{doc['summary']}", file=out)
    if a.json:
        s = json.dumps(doc, indent=1) + "\n"
        if a.json == "-":
            sys.stdout.write(s)
        else:
            with open(a.json + ".tmp", "w") as f:
                f.write(s)
            os.replace(a.json + ".tmp", a.json)
    if a.markdown:
        rewrite_markdown(a.markdown, doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
