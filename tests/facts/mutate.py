#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Mutation test of whole machine trees.

Each case copies a fixture sysroot (tests/fixtures/sysroots/NAME), applies 1-3 seeded
random mutations (empty files, binary junk, 2^64 and negative numbers as whole files or
one number inside meminfo, numastat, cpuinfo..., 1 MB lines, NUL bytes, directories,
FIFOs, symlink loops and /dev/zero in place of files, reversed and huge CPU lists,
multi-MB cpumasks, non-square NUMA distance matrices, invalid UTF-8, control characters
and shell metacharacters in values and in directory names) and runs `perflab inspect`
(--json and text), `perflab check` for every workload (--json; text for one) and
`perflab report --no-bench` (--json or text) on it, each under a timeout. A case passes
when every run exits 0 or 1 (inspect: 0), prints no sanitizer report, ends within the
timeout, --json output is valid UTF-8 JSON that matches its schema (with
python3-jsonschema) and keeps every fact's value or reason, fix commands quote device
names, and text output (and report.md) has no control characters other than newline and
tab, and no invalid UTF-8 (machine-tree bytes must be escaped on the terminal).

Python 3 standard library (python3-jsonschema optional). Reproducible: a case is named by SEED:INDEX and is the
same on every machine. A failing case prints its seed, index, mutation list (as one JSON
line) and how to run it alone; paste that line into tests/facts/mutate-regress.jsonl to
keep it as a regression case (those run first, every time).

Environment (options override): MUTATE_CASES (random cases, default 300), MUTATE_SEED
(default 12), MUTATE_JOBS (parallel cases, default 2), MUTATE_TIMEOUT (seconds per
command, default 60), PERFLAB (the binary), FIXTURES (tests/fixtures).
"""
import argparse
import concurrent.futures
import json
import os
import queue
import random
import re
import resource
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
WORKLOADS = ["general", "latency", "throughput", "hpc", "network", "storage", "benchmark"]
FIXTURE_WEIGHTS = {"intel-2s": 3, "arm64-2node": 3, "xen-hvm": 2, "this-vm": 2, "container": 1}

# Paths the collectors and hwloc read, where mutations hurt most (fnmatch-style under the
# tree root; a pattern may match nothing in some fixtures).
HOT = [
    "sys/devices/system/cpu/online", "sys/devices/system/cpu/possible",
    "sys/devices/system/cpu/present", "sys/devices/system/cpu/kernel_max",
    "sys/devices/system/cpu/cpu*/topology/*", "sys/devices/system/cpu/cpu*/cache/index*/*",
    "sys/devices/system/cpu/cpu*/online", "sys/devices/system/cpu/cpu*/cpufreq/*",
    "sys/devices/system/cpu/cpu*/cpuidle/state*/*", "sys/devices/system/cpu/vulnerabilities/*",
    "sys/devices/system/cpu/smt/*", "sys/devices/system/node/online",
    "sys/devices/system/node/possible", "sys/devices/system/node/has_*",
    "sys/devices/system/node/node*/distance", "sys/devices/system/node/node*/cpulist",
    "sys/devices/system/node/node*/cpumap", "sys/devices/system/node/node*/meminfo",
    "sys/devices/system/node/node*/numastat", "sys/devices/system/node/node*/hugepages/*/*",
    "sys/devices/system/clocksource/clocksource0/*", "sys/block/*/queue/*",
    "sys/class/net/*/*", "sys/kernel/mm/transparent_hugepage/*", "sys/hypervisor/*",
    "sys/class/dmi/id/*", "proc/cpuinfo", "proc/meminfo", "proc/cmdline", "proc/mounts",
    "proc/sys/*/*", "proc/sys/*/*/*", "proc/1/comm", "proc/version", "proc/interrupts",
    "etc/tuned/*", "etc/os-release",
]
# Directories whose entry names become fact keys, subjects and fix commands.
NAMED = ["sys/block/*", "sys/class/net/*", "sys/devices/system/cpu/vulnerabilities/*",
         "sys/devices/system/clocksource/*", "proc/sys/net/core/*", "sys/devices/system/cpu/cpu*"]

BAD_NUMBERS = ["18446744073709551616", "18446744073709551615", "-1", "-4096",
               "-9223372036854775808", "-9223372036854775809", "9223372036854775808",
               "99999999999999999999999999999999", "0", "1e308", "-0", "nan", "0x", "0xffffffffffffffffff",
               "4294967296", "2147483648", " 12 34", "1.5", "+7"]
BAD_LISTS = ["5-2", "0-4294967295", "0-1048575", "0-8191", "8192", "0-3,2-1", ",", "-", "0-",
             "-3", "0,,1", "1-1-1", "0-18446744073709551615", "4294967296-4294967297",
             "0-3:2/4", "0 1 2", "99999"]
BAD_TEXT = ["\xff\xfe\xfd", "caf\xe9 na\xefve", "\xc3\x28", "\xed\xa0\x80 surrogate",
            "\xf4\x90\x80\x80", "\x1b[31mred\x1b[0m\x1b]0;title\x07", "a\rb\x08c\x7fd",
            "$(touch /tmp/perflab-pwned)", "'; rm -rf / #", "a b\tc", "`id`", "\\", "\"",
            "   ", "\n\n\n", "x\ny\nz", "[none] mq-deadline\xff kyber",
            "\x00", "ok\x00hidden"]
BAD_NAMES = ["a b", "$(id)", "x'y", "\x1b[2J", "caf\xe9", "\xff", "-rf", "..x", "a\nb", "%s%n",
             "q\"", "\x7f"]


def b(s):
    """Mutation text (a str of code points 0..255) to bytes."""
    return s.encode("latin-1")


# ---- applying mutations ------------------------------------------------------------------

def _clear(p):
    if os.path.islink(p) or (os.path.lexists(p) and not os.path.isdir(p)):
        os.unlink(p)
    elif os.path.isdir(p):
        shutil.rmtree(p)


def _write(p, data):
    _clear(p)
    with open(p, "wb") as fh:
        fh.write(data)


def apply(root, m):
    """Apply mutation @m ({"op","path",...}) to the tree at @root."""
    p = os.path.join(root, m["path"])
    op = m["op"]
    if op == "text":
        _write(p, b(m["arg"]))
    elif op == "empty":
        _write(p, b"")
    elif op == "junk":
        r = random.Random(m["arg"])
        _write(p, bytes(r.randrange(256) for _ in range(m["n"])))
    elif op == "bigline":
        _write(p, b(m["arg"]) * (m["n"] // len(m["arg"])) + b"\n")
    elif op == "nul":
        with open(p, "rb") as fh:
            data = fh.read()
        k = min(m["at"], len(data))
        _write(p, data[:k] + b"\0" * m["n"] + data[k:])
    elif op == "truncate":
        with open(p, "rb") as fh:
            data = fh.read()
        _write(p, data[:m["n"]])
    elif op == "flip":
        with open(p, "rb") as fh:
            data = bytearray(fh.read())
        r = random.Random(m["arg"])
        for _ in range(max(1, len(data) // 50)):
            if data:
                data[r.randrange(len(data))] = r.randrange(256)
        _write(p, bytes(data))
    elif op == "numsub":
        # one number inside a structured file (meminfo, numastat, cpuinfo...) replaced
        with open(p, "rb") as fh:
            data = fh.read()
        nums = list(re.finditer(rb"[0-9]+", data))
        if nums:
            n = nums[m["at"] % len(nums)]
            data = data[:n.start()] + b(m["arg"]) + data[n.end():]
        else:
            data = b(m["arg"])
        _write(p, data)
    elif op == "dir":
        _clear(p)
        os.mkdir(p)
        with open(os.path.join(p, "inner"), "w") as fh:
            fh.write("1\n")
    elif op == "fifo":
        _clear(p)
        os.mkfifo(p)
    elif op == "symloop":
        _clear(p)
        os.symlink(os.path.basename(p), p)
    elif op == "symloop2":
        _clear(p)
        other = p + ".loop"
        _clear(other)
        os.symlink(os.path.basename(other), p)
        os.symlink(os.path.basename(p), other)
    elif op == "devzero":
        _clear(p)
        os.symlink(m.get("arg", "/dev/zero"), p)
    elif op == "delete":
        _clear(p)
    elif op == "rename":
        new = os.path.join(os.path.dirname(p), b(m["arg"]).decode("utf-8", "surrogateescape"))
        if os.path.lexists(new):
            _clear(new)
        os.rename(p, new)
    elif op == "hugemask":
        # a cpumask of n 32-bit words, the kernel's format: "ffffffff,ffffffff,..."
        _write(p, ",".join([m["arg"]] * m["n"]).encode() + b"\n")
    elif op == "distance":
        _write(p, " ".join(str(x) for x in m["arg"]).encode() + b"\n")
    else:
        raise ValueError(f"unknown mutation op {op!r}")


def restore(root, src, m):
    """Undo mutation @m: put the pristine entry from @src back."""
    p = os.path.join(root, m["path"])
    extra = []
    if m["op"] == "symloop2":
        extra.append(p + ".loop")
    if m["op"] == "rename":
        extra.append(os.path.join(os.path.dirname(p),
                                  b(m["arg"]).decode("utf-8", "surrogateescape")))
    for e in [p] + extra:
        if os.path.lexists(e):
            _clear(e)
    s = os.path.join(src, m["path"])
    if os.path.islink(s):
        os.symlink(os.readlink(s), p)
    elif os.path.isdir(s):
        shutil.copytree(s, p, symlinks=True)
    elif os.path.lexists(s):
        shutil.copy2(s, p)


# ---- generating cases --------------------------------------------------------------------

class Tree:
    """The entries of one fixture: files, directories, symlinks, hot files, named dirs."""

    def __init__(self, root):
        import fnmatch
        self.files, self.dirs, self.links = [], [], []
        for d, dirnames, filenames in os.walk(root):
            rel = os.path.relpath(d, root)
            for n in sorted(dirnames) + sorted(filenames):
                r = os.path.normpath(os.path.join(rel, n))
                full = os.path.join(root, r)
                if os.path.islink(full):
                    self.links.append(r)
                elif os.path.isdir(full):
                    self.dirs.append(r)
                else:
                    self.files.append(r)
            dirnames.sort()
        self.files.sort(), self.dirs.sort(), self.links.sort()
        self.hot = [f for f in self.files if any(fnmatch.fnmatchcase(f, h) for h in HOT)]
        every = self.dirs + self.links + self.files
        self.named = [e for e in every if any(fnmatch.fnmatchcase(e, n) for n in NAMED)]
        self.distance = [f for f in self.files if fnmatch.fnmatchcase(
            f, "sys/devices/system/node/node*/distance")]
        self.masks = [f for f in self.files if f.endswith(("_map", "_cpus", "siblings", "cpumap"))
                      and "list" not in f]
        self.lists = [f for f in self.files if f.endswith(("list", "/online", "/possible",
                                                            "/present", "/has_cpu",
                                                            "/has_normal_memory"))]


def gen_mutation(r, t):
    """One random mutation of tree @t (a Tree) from generator @r."""
    kind = r.choices(["value", "number", "shape", "list", "mask", "distance", "name", "bytes"],
                     weights=[22, 14, 16, 11, 7, 5, 8, 17])[0]
    if kind == "list" and t.lists:
        return {"op": "text", "path": r.choice(t.lists), "arg": r.choice(BAD_LISTS) + "\n"}
    if kind == "mask" and t.masks:
        if r.random() < 0.5:
            return {"op": "hugemask", "path": r.choice(t.masks), "n": r.choice([300000, 1 << 18]),
                    "arg": r.choice(["ffffffff", "00000000", "zzzzzzzz"])}
        return {"op": "text", "path": r.choice(t.masks),
                "arg": r.choice(["0", "", "g", "ffffffff,ffffffff,ffffffff,ffffffff,"
                                 "ffffffff,ffffffff,ffffffff,ffffffff,ffffffff", "-1",
                                 "fffffffff", ",", "00000000,00000000"]) + "\n"}
    if kind == "distance" and t.distance:
        n = r.choice([0, 1, 3, 5, 64, 300])
        return {"op": "distance", "path": r.choice(t.distance),
                "arg": [r.choice([10, 20, 255, 256, 0, 99999]) for _ in range(n)]}
    if kind == "name" and t.named:
        return {"op": "rename", "path": r.choice(t.named), "arg": r.choice(BAD_NAMES)}
    pool = t.hot if t.hot and r.random() < 0.7 else t.files
    if not pool:
        pool = t.files or t.dirs
    path = r.choice(pool)
    if kind == "number":
        return {"op": "numsub", "path": path, "at": r.randrange(1 << 16),
                "arg": r.choice(BAD_NUMBERS)}
    if kind == "shape":
        op = r.choice(["dir", "fifo", "symloop", "symloop2", "devzero", "delete", "empty"])
        m = {"op": op, "path": path}
        if op == "devzero":
            m["arg"] = r.choice(["/dev/zero", "/dev/urandom", "/dev/null", "/proc/self/fd/0"])
        return m
    if kind == "bytes":
        op = r.choice(["junk", "bigline", "nul", "truncate", "flip"])
        if op == "junk":
            return {"op": op, "path": path, "arg": r.randrange(1 << 30), "n": r.choice([1, 64, 4096, 70000])}
        if op == "bigline":
            return {"op": op, "path": path, "n": 1 << 20, "arg": r.choice(["a", "7", "0,", "f", "\xff", " "])}
        if op == "nul":
            return {"op": op, "path": path, "at": r.randrange(64), "n": r.choice([1, 3, 100])}
        if op == "truncate":
            return {"op": op, "path": path, "n": r.randrange(8)}
        return {"op": op, "path": path, "arg": r.randrange(1 << 30)}
    v = r.choice(BAD_NUMBERS + BAD_TEXT)
    return {"op": "text", "path": path, "arg": v + r.choice(["\n", ""])}


def gen_case(seed, index, trees):
    r = random.Random(f"{seed}:{index}")
    names = sorted(trees)
    fixture = r.choices(names, weights=[FIXTURE_WEIGHTS.get(n, 1) for n in names])[0]
    muts, used = [], set()
    for _ in range(r.choice([1, 1, 2, 3])):
        m = gen_mutation(r, trees[fixture])
        # one mutation per entry, none inside an entry already changed
        if any(m["path"] == u or m["path"].startswith(u + "/") or u.startswith(m["path"] + "/")
               for u in used):
            continue
        used.add(m["path"])
        muts.append(m)
    return {"fixture": fixture, "muts": muts}


# ---- running one case --------------------------------------------------------------------

SANITIZER_MARKS = ["AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer",
                   "runtime error:", "Assertion", "assert", "Segmentation fault", "Aborted"]


def run(cmd, timeout, env):
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=timeout, env=env)
        return p.returncode, p.stdout, p.stderr, time.monotonic() - t0
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or b"", e.stderr or b"", time.monotonic() - t0


def text_problems(data):
    """Control characters (but newline and tab), C1 controls or invalid UTF-8 in @data."""
    bad = sorted({c for c in data if (c < 0x20 and c not in (0x0a, 0x09)) or c == 0x7f})
    out = []
    if bad:
        out.append(f"control characters {[hex(c) for c in bad]}")
    try:
        text = data.decode("utf-8")
        c1 = sorted({hex(ord(ch)) for ch in text if 0x80 <= ord(ch) <= 0x9f})
        if c1:
            out.append(f"C1 control characters {c1}")
    except UnicodeDecodeError as e:
        out.append(f"invalid UTF-8 ({e})")
    return out


SCHEMAS = {}


def schema_problems(name, doc):
    """Errors of @doc against docs/schemas/@name, when python3-jsonschema is installed."""
    try:
        import jsonschema
    except ImportError:
        return []
    if name not in SCHEMAS:
        with open(os.path.join(HERE, "..", "..", "docs", "schemas", name)) as fh:
            schema = json.load(fh)
        SCHEMAS[name] = jsonschema.validators.validator_for(schema)(schema)
    errs = sorted(SCHEMAS[name].iter_errors(doc), key=lambda e: list(e.path))
    return [f"{name}: {'/'.join(map(str, e.path)) or '<root>'}: {e.message[:200]}" for e in errs[:3]]


def fact_problems(doc):
    """Facts that lost their value or reason (jansson drops what it cannot encode)."""
    out = []
    for k, v in (doc.get("facts") or {}).items():
        if not isinstance(v, dict) or not (("value" in v) ^ ("unavailable" in v)):
            out.append(f"fact {k!r} has neither a value nor a reason: {v!r}")
        elif "value" in v and v["value"] is None and not k.startswith("cpuidle."):
            out.append(f"fact {k!r} has a null value")
    return out[:5]


SHELL_SAFE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-")


def finding_problems(doc):
    """Fix commands that paste a device name unquoted (check and report documents)."""
    out = []
    findings = doc.get("findings") or (doc.get("check") or {}).get("findings") or []
    for x in findings:
        subj, cmd = x.get("subject"), (x.get("fix") or {}).get("command")
        if not subj or not cmd or set(subj) <= SHELL_SAFE:
            continue
        if "'" not in subj and f"'{subj}'" not in cmd and "\\x" not in subj:
            out.append(f"finding {x.get('id')}: subject {subj!r} not shell-quoted in {cmd!r}")
    return out


def check_run(name, cmd, timeout, env, ok_codes, kind, problems, schema=None):
    """Run @cmd; add what is wrong with it to @problems; return its stdout or None."""
    rc, out, err, secs = run(cmd, timeout, env)
    what = " ".join(cmd[1:])
    if rc is None:
        problems.append(f"{name}: no result within {timeout:g} s (hang): {what}")
        return None
    errs = err.decode("utf-8", "replace")
    marks = [mk for mk in SANITIZER_MARKS if mk in errs]
    if marks or rc < 0 or rc not in ok_codes:
        tail = "\n".join(errs.strip().splitlines()[-12:])
        problems.append(f"{name}: exit {rc}{' (signal %d)' % -rc if rc < 0 else ''}"
                        f"{', sanitizer: ' + ','.join(marks) if marks else ''}: {what}\n{tail}")
        return None
    for pr in text_problems(err):
        problems.append(f"{name}: {pr} on stderr: {what}")
    if kind == "json":
        try:
            doc = json.loads(out.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            problems.append(f"{name}: invalid JSON on stdout ({e}): {what}")
            return None
        for pr in ((schema_problems(schema, doc) if schema else []) + fact_problems(doc) +
                   finding_problems(doc)):
            problems.append(f"{name}: {pr}")
        return doc
    for pr in text_problems(out):
        problems.append(f"{name}: {pr} in text output: {what}")
    return out


def run_case(perflab, case, root, outdir, timeout, env, k):
    problems = []
    sr = ["--sysroot", root]
    doc = check_run("inspect --json", [perflab, "inspect", "--json"] + sr, timeout, env,
                    (0,), "json", problems, "inspect.schema.json")
    text = check_run("inspect --all", [perflab, "inspect", "--all"] + sr, timeout, env, (0,),
                     "text", problems)
    if doc is not None and text is not None:
        # one line per fact: a fact whose key jansson refused would be missing from the JSON
        nlines = sum(1 for l in text.split(b"\n") if l.startswith(b"  ") and not l.startswith(b"    - "))
        if nlines != len(doc.get("facts", {})):
            problems.append(f"inspect: {nlines} facts in the text, {len(doc.get('facts', {}))} "
                            "in the JSON (keys dropped?)")
    for w in WORKLOADS:
        check_run(f"check --workload {w} --json", [perflab, "check", "--json", "--workload", w] + sr, timeout,
                  env, (0, 1), "json", problems, "check.schema.json")
    w = WORKLOADS[k % len(WORKLOADS)]
    check_run(f"check --workload {w} -v", [perflab, "check", "-v", "--fail-on", "info", "--workload", w] + sr,
              timeout, env, (0, 1), "text", problems)
    # report: --json on even cases, the terminal summary on odd ones; report.md always
    if k % 2 == 0:
        check_run("report --no-bench --json", [perflab, "report", "--no-bench", "--json", "-o",
                                               outdir] + sr, timeout, env, (0, 1), "json",
                  problems, "report.schema.json")
    else:
        check_run("report --no-bench", [perflab, "report", "--no-bench", "-o", outdir] + sr,
                  timeout, env, (0, 1), "text", problems)
    md = os.path.join(outdir, "report.md")
    if os.path.exists(md):
        with open(md, "rb") as fh:
            for pr in text_problems(fh.read()):
                problems.append(f"report.md: {pr}")
    return problems


def describe(case):
    return json.dumps(case, ensure_ascii=True, separators=(",", ":"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=int(os.environ.get("MUTATE_CASES", "300")))
    ap.add_argument("--seed", default=os.environ.get("MUTATE_SEED", "12"))
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("MUTATE_JOBS", "2")))
    ap.add_argument("--timeout", type=float, default=float(os.environ.get("MUTATE_TIMEOUT", "60")))
    ap.add_argument("--only", type=int, help="run only random case INDEX (with --seed)")
    ap.add_argument("--case", help="run only this case (one JSON line as printed)")
    ap.add_argument("--no-regress", action="store_true", help="skip the committed regression cases")
    ap.add_argument("--keep", help="leave the mutated tree of a single case (--only/--case) in DIR")
    a = ap.parse_args()
    perflab = os.environ.get("PERFLAB")
    fixtures = os.environ.get("FIXTURES", os.path.join(HERE, "..", "fixtures"))
    if not perflab or not os.access(perflab, os.X_OK):
        print("1..0 # SKIP PERFLAB is not set to the perflab binary (run through meson test)")
        return 0
    sysroots = os.path.join(fixtures, "sysroots")
    trees = {n: Tree(os.path.join(sysroots, n)) for n in sorted(os.listdir(sysroots))}

    cases = []  # (label, case)
    if a.case:
        cases.append(("given case", json.loads(a.case)))
    elif a.only is not None:
        cases.append((f"seed {a.seed} case {a.only}", gen_case(a.seed, a.only, trees)))
    else:
        if not a.no_regress:
            with open(os.path.join(HERE, "mutate-regress.jsonl")) as fh:
                for k, line in enumerate(fh, 1):
                    line = line.strip()
                    if line and not line.startswith("#"):
                        c = json.loads(line)
                        cases.append((f"regression line {k} ({c.get('found', '')})", c))
        for i in range(a.cases):
            cases.append((f"seed {a.seed} case {i}", gen_case(a.seed, i, trees)))

    env = dict(os.environ)
    # a sanitizer report must not look like exit 1 ("findings"); ASan's own RSS cap turns
    # "hwloc takes GBs" into a reported failure instead of a swapping machine
    env["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=0:exitcode=86:hard_rss_limit_mb=1536"
    env["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1:exitcode=87"
    env["LC_ALL"] = "C"
    env["NO_COLOR"] = "1"
    env.pop("HWLOC_FSROOT", None)

    scratch = tempfile.mkdtemp(prefix="perflab-mutate.")
    slots = queue.Queue()
    for j in range(max(1, a.jobs)):
        slots.put(os.path.join(scratch, f"w{j}"))
    print_lock = threading.Lock()
    results = {}
    t_start = time.monotonic()

    def one(k):
        label, case = cases[k]
        slot = slots.get()
        try:
            root = os.path.join(slot, case["fixture"])
            src = os.path.join(sysroots, case["fixture"])
            if not os.path.isdir(root):
                shutil.copytree(src, root, symlinks=True)
            applied = []
            try:
                for m in case["muts"]:
                    apply(root, m)
                    applied.append(m)
                outdir = os.path.join(slot, "report")
                t0 = time.monotonic()
                problems = run_case(perflab, case, root, outdir, a.timeout, env, k)
                secs = time.monotonic() - t0
                if a.keep and len(cases) == 1:
                    shutil.copytree(root, a.keep, symlinks=True)
            except OSError as e:
                problems, secs = [f"cannot apply the mutation: {e}"], 0.0
            finally:
                for m in reversed(applied):
                    restore(root, src, m)
                shutil.rmtree(os.path.join(slot, "report"), ignore_errors=True)
            return problems, secs
        finally:
            slots.put(slot)

    print(f"1..{len(cases)}")
    nreg = sum(1 for label, _ in cases if label.startswith("regression"))
    print(f"# seed {a.seed}: {len(cases) - nreg} random and {nreg} regression cases, "
          f"{a.jobs} jobs, {a.timeout:g} s timeout per command", flush=True)
    failed = 0
    slowest = (0.0, "")
    nxt = 0  # results are printed in case order as soon as they are in

    def report(k):
        nonlocal failed, slowest
        label, case = cases[k]
        problems, secs = results.pop(k)
        if secs > slowest[0]:
            slowest = (secs, label)
        ops = ", ".join(f"{m['op']} {m['path']!a}" for m in case["muts"])
        name = f"{label}: {case['fixture']}: {ops}"
        if problems:
            failed += 1
            print(f"not ok {k + 1} - {name}")
            print(f"# case: {describe(case)}")
            if label.startswith("seed "):
                print(f"# rerun: PERFLAB=... tests/facts/mutate.py --seed {a.seed} "
                      f"--only {label.split()[-1]}")
            for pr in problems:
                for line in pr.splitlines():
                    print(f"#   {line}")
        else:
            print(f"ok {k + 1} - {name}")
        sys.stdout.flush()

    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            futs = {ex.submit(one, k): k for k in range(len(cases))}
            for fut in concurrent.futures.as_completed(futs):
                results[futs[fut]] = fut.result()
                while nxt in results:
                    report(nxt)
                    nxt += 1
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    total = time.monotonic() - t_start
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    me = resource.getrusage(resource.RUSAGE_SELF)
    print(f"# {len(cases)} cases, {failed} failed, {total:.1f} s wall, "
          f"{ru.ru_utime + ru.ru_stime:.1f} s CPU in perflab and "
          f"{me.ru_utime + me.ru_stime:.1f} s in this script; slowest case {slowest[0]:.1f} s "
          f"({slowest[1]})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
