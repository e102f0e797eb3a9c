#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Differential test of perflab's tuned-profile loader against tuned's own.

For every profile directory in CORPUS (CORPUS/NAME/tuned.conf) and every stock profile
of /usr/lib/tuned, load and merge it with
tuned's own modules (Debian's tuned package: tuned.profiles Loader, Merger, Locator,
Variables; no daemon) and with `perflab tune show NAME --json`, and compare the merged
units item by item: unit order, type, enabled, devices, uname_regex, cpuinfo_regex, the
unit keys perflab does not use (devices_udev_regex, script_pre, script_post) and every
option in order with its value after ${} expansion (tuned expands option values when a
plugin applies them: Variables.expand, functions included, so the dump does the same).

Both sides see the same machine: SYSROOT (a fixture tree). tuned's file reads through
tuned.utils.commands (read_file, used by the ${f:...} functions) are redirected into it,
and the programs tuned would run for them, virt-what (${f:virt_check}) and nproc
(${f:check_net_queue_count}), are answered from it the way perflab decides (a
"hypervisor" CPU flag or /sys/hypervisor/type; the online CPUs). Any other program tuned would run (${f:exec}) is refused: the driver never runs one, and the
value is dumped as "<runs a program>".

Output: TAP, one line per profile ("ok N - NAME: same as tuned" or the differences).
KNOWN (tests/tune/tuned-known.txt) lists the profiles that differ on purpose, one
"NAME  REASON" a line; such a profile must still differ (the test pins the difference)
and its line is printed with the reason. Exit status 0 when every profile outside KNOWN
agrees and every one in KNOWN differs.

Usage: tuned_diff.py PERFLAB CORPUS SYSROOT KNOWN [NAME...]
When tuned's modules cannot be imported, prints a TAP skip with the reason."""
import glob
import json
import logging
import os
import re
import subprocess
import sys

SKIP = None
try:
    logging.disable(logging.CRITICAL)
    import tuned.logs  # noqa: F401

    logging.disable(logging.CRITICAL)
    import tuned.profiles as tp
    import tuned.profiles.factory  # noqa: F401
    import tuned.profiles.loader  # noqa: F401
    import tuned.profiles.locator  # noqa: F401
    import tuned.profiles.merger  # noqa: F401
    import tuned.profiles.variables  # noqa: F401
    import tuned.utils.commands as tcmd
    import tuned.plugins.plugin_bootloader as plugin_bootloader
    import tuned.profiles.functions.function_calc_isolated_cores as calc_isolated_cores
except Exception as e:  # any import problem: skip with the reason
    SKIP = "tuned's Python modules cannot be imported (%s: %s)" % (type(e).__name__, e)

RUNS = "<runs a program>"
STOCK = "/usr/lib/tuned"


class RefusedProgram(Exception):
    pass


def answer_programs(sysroot, read, record=None):
    """Make tuned's commands.execute answer virt-what and nproc from the fixture tree the
    way perflab decides (sysroot() is the tree, @read(PATH) reads PATH in it); a program
    in @record (a dict NAME -> fn(args) giving (rc, out)) is answered by it; any other
    raises RefusedProgram: the driver never runs one."""
    def execute(self, args, shell=False, cwd=None, env={}, no_errors=[], return_err=False):
        prog = args if isinstance(args, str) else (args[0] if args else "")
        if prog == "virt-what":
            cpuinfo = read("/proc/cpuinfo")
            virt = os.path.exists(sysroot().rstrip("/") + "/sys/hypervisor/type") or (
                " hypervisor" in cpuinfo)
            rc, out = 0, "kvm\n" if virt else ""
        elif prog == "nproc":  # ${f:check_net_queue_count}: the fixture's online CPUs
            online = tcmd.commands().cpulist_unpack(
                read("/sys/devices/system/cpu/online").strip())
            rc, out = 0, "%d\n" % len(online)
        elif record is not None and prog in record:
            rc, out = record[prog](args)
        else:
            raise RefusedProgram(prog)
        return (rc, out, "") if return_err else (rc, out)

    tcmd.commands.execute = execute


def redirect(sysroot):
    """Make tuned's commands read the fixture tree and answer virt-what from it."""
    orig_read = tcmd.commands.read_file

    def read_file(self, f, err_ret="", no_error=False):
        if sysroot and isinstance(f, str) and f.startswith("/"):
            f = sysroot.rstrip("/") + f
        return orig_read(self, f, err_ret, no_error)

    tcmd.commands.read_file = read_file
    answer_programs(lambda: sysroot, lambda f: read_file(tcmd.commands(), f, no_error=True))
    # [variables] include=FILE and calc_isolated_cores's glob of /sys read the tree too.
    orig_add = tp.variables.Variables.add_from_file

    def add_from_file(self, filename):
        return orig_add(self, sysroot.rstrip("/") + filename if filename.startswith("/")
                        else filename)

    tp.variables.Variables.add_from_file = add_from_file
    root = sysroot.rstrip("/")

    class Glob:
        @staticmethod
        def iglob(pattern):
            for p in glob.iglob(root + pattern):
                yield p[len(root):]

    calc_isolated_cores.glob = Glob


def tuned_units(corpus, name):
    """The merged units as tuned loads them: [[unit, {...}], ...] or {"error": ...}."""
    loc = tp.locator.Locator(["/usr/lib/tuned", corpus])
    variables = tp.variables.Variables()
    loader = tp.loader.Loader(loc, tp.factory.Factory(), tp.merger.Merger(), None, variables)
    try:
        p = loader.load(name)
    except RefusedProgram:
        return {"error": RUNS}
    except Exception as e:
        return {"error": "%s: %s" % (type(e).__name__, e)}

    def expand(v):
        try:
            return variables.expand(v)
        except RefusedProgram:
            return RUNS

    out = []
    cmdline = None
    for uname, u in p.units.items():
        if u.type == "bootloader" and u.enabled and applies(u):
            # What tuned's bootloader plugin makes of the cmdline* options (merged in
            # order by BootloaderPlugin._get_effective_options, then unquoted and
            # expanded by _cmdline), as tokens.
            bl = object.__new__(plugin_bootloader.BootloaderPlugin)
            eff = bl._get_effective_options(dict(u.options)).get("cmdline")
            if eff is not None:
                v = expand(tcmd.commands().unquote(eff))
                cmdline = (cmdline or []) + v.split()
        opts = []
        for k, v in u.options.items():
            if isinstance(v, list):  # [script] script: paths, resolved by the loader
                opts.append([k, " ".join(v)])
            else:
                opts.append([k, expand(str(v))])
        keys = [k for k in ("devices_udev_regex", "script_pre", "script_post")
                if getattr(u, k) is not None]
        out.append([uname, {"type": u.type, "enabled": u.enabled, "devices": u.devices,
                            "uname_regex": u.uname_regex, "cpuinfo_regex": u.cpuinfo_regex,
                            "unit_keys": keys, "applies": u.enabled and applies(u),
                            "options": opts}])
    if cmdline is not None:
        out.append(["=bootloader cmdline", cmdline])
    return out


def applies(u):
    """tuned's unit manager rule: cpuinfo_regex searched in /proc/cpuinfo, uname_regex in
    " ".join(os.uname()) (MULTILINE), here both from the fixture tree."""
    c = tcmd.commands()
    if u.cpuinfo_regex is not None and not re.search(
            u.cpuinfo_regex, c.read_file("/proc/cpuinfo", no_error=True), re.MULTILINE):
        return False
    if u.uname_regex is not None:
        parts = [c.read_file("/proc/sys/kernel/" + f, no_error=True).strip()
                 for f in ("ostype", "hostname", "osrelease", "version", "arch")]
        if not re.search(u.uname_regex, " ".join(parts), re.MULTILINE):
            return False
    return True


def perflab_units(perflab, corpus, sysroot, name):
    r = subprocess.run([perflab, "--sysroot", sysroot, "tune", "show", name, "--json",
                        "--profile-dir", corpus], capture_output=True, text=True)
    if r.returncode != 0:
        return {"error": r.stderr.strip() or "exit %d" % r.returncode}
    doc = json.loads(r.stdout)
    d = subprocess.run([perflab, "--sysroot", sysroot, "tune", "diff", name, "--json",
                        "--profile-dir", corpus], capture_output=True, text=True)
    if d.returncode != 0:
        return {"error": "tune diff: " + (d.stderr.strip() or "exit %d" % d.returncode)}
    items = json.loads(d.stdout)["items"]
    out = []
    for u in doc["units"]:
        opts = []
        for o in u["options"]:
            v = o["expanded"] if o["expanded"] is not None else o["value"]
            opts.append([o["key"], v])
        out.append([u["name"], {"type": u["type"], "enabled": u["enabled"],
                                "devices": u["devices"], "uname_regex": u["uname_regex"],
                                "cpuinfo_regex": u["cpuinfo_regex"],
                                "unit_keys": sorted(u.get("unsupported_keys", [])),
                                "applies": u["enabled"] and u["applies_here"],
                                "options": opts}])
    toks = [i["wanted"] for i in items if i["plugin"] == "bootloader" and i["key"] == "cmdline"]
    if toks or any(u["type"] == "bootloader" and x[1]["applies"] and x[1]["options"]
                   for x in out for u in [x[1]]):
        out.append(["=bootloader cmdline", toks])
    return out


def differences(a, b):
    """Differences between tuned's dump @a and perflab's @b, one line each."""
    if isinstance(a, dict) or isinstance(b, dict):
        ea = a.get("error") if isinstance(a, dict) else None
        eb = b.get("error") if isinstance(b, dict) else None
        if ea and eb:
            return []  # both refuse the profile
        return ["tuned: %s; perflab: %s" % (ea or "loads", eb or "loads")]
    d = []
    ca = dict(a).get("=bootloader cmdline", [])
    cb = dict(b).get("=bootloader cmdline", [])
    if ca != cb:
        d.append("bootloader cmdline tokens: tuned %s, perflab %s" % (ca, cb))
    a = [x for x in a if not x[0].startswith("=")]
    b = [x for x in b if not x[0].startswith("=")]
    an, bn = [x[0] for x in a], [x[0] for x in b]
    if an != bn:
        d.append("units: tuned %s, perflab %s" % (an, bn))
    bu = dict((x[0], x[1]) for x in b)
    for name, ua in a:
        ub = bu.get(name)
        if ub is None:
            continue
        for f in ("type", "enabled", "devices", "uname_regex", "cpuinfo_regex", "applies"):
            if ua[f] != ub[f]:
                d.append("[%s] %s: tuned %r, perflab %r" % (name, f, ua[f], ub[f]))
        if sorted(ua["unit_keys"]) != ub["unit_keys"]:
            d.append("[%s] unit keys: tuned %s, perflab %s" % (name, ua["unit_keys"],
                                                              ub["unit_keys"]))
        ka, kb = [o[0] for o in ua["options"]], [o[0] for o in ub["options"]]
        if ka != kb:
            d.append("[%s] options: tuned %s, perflab %s" % (name, ka, kb))
        ob = dict((o[0], o[1]) for o in ub["options"])
        for k, v in ua["options"]:
            if k in ob and ob[k] != v:
                d.append("[%s] %s: tuned %r, perflab %r" % (name, k, v, ob[k]))
    return d


def read_known(path, prefix=""):
    """The lines "PREFIXNAME REASON" of the known-differences file @path: {NAME: REASON}.
    The loader comparison's lines have no prefix; another comparison's start with its
    own ("writes:"); without @prefix every line whose name has a ':' is skipped."""
    known = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, _, why = line.partition(" ")
            if prefix and name.startswith(prefix):
                known[name[len(prefix):]] = why.strip()
            elif not prefix and ":" not in name:
                known[name] = why.strip()
    return known


def report(names, known, compare, what, every=True):
    """TAP over @names: compare(NAME) gives the differences (lines); a NAME of @known must
    differ (its reason printed), any other must not. With @every, a NAME of @known not in
    @names fails too. @what says what agreed ("same merged units as tuned's loader").
    Returns the exit status: 0 when all agree with the list, else 1."""
    n = failed = 0
    for name in names:
        n += 1
        d = compare(name)
        if name in known:
            if d:
                print("ok %d - %s: differs from tuned on purpose (%s)" % (n, name, known[name]))
                for x in d:
                    print("# %s" % x)
            else:
                failed += 1
                print("not ok %d - %s: listed in tuned-known.txt (%s) but now the same as tuned:"
                      " remove it from the list" % (n, name, known[name]))
        elif d:
            failed += 1
            print("not ok %d - %s: %s" % (n, name, what))
            for x in d:
                print("# %s" % x)
        else:
            print("ok %d - %s: %s" % (n, name, what))
    for name in sorted(set(known) - set(names)):
        if not every:
            continue
        n += 1
        failed += 1
        print("not ok %d - %s: listed in tuned-known.txt but not compared" % (n, name))
    print("1..%d" % n)
    return 1 if failed else 0


def main():
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    perflab, corpus, sysroot, known_file = sys.argv[1:5]
    corpus = os.path.abspath(corpus)
    sysroot = os.path.abspath(sysroot)
    if SKIP:
        print("ok 1 - tuned differential test # SKIP %s" % SKIP)
        print("1..1")
        return 0
    redirect(sysroot)
    known = read_known(known_file)
    def profiles(d):
        return sorted(n for n in os.listdir(d) if os.path.isfile(os.path.join(d, n, "tuned.conf")))

    # The corpus, then the stock profiles of Debian's tuned package it does not shadow.
    names = sys.argv[5:]
    if not names:
        names = profiles(corpus)
        if os.path.isdir(STOCK):
            names += [x for x in profiles(STOCK) if x not in names]
    return report(names, known, lambda name: differences(
        tuned_units(corpus, name), perflab_units(perflab, corpus, sysroot, name)),
        "same merged units as tuned's loader", every=not sys.argv[5:])

if __name__ == "__main__":
    sys.exit(main())
