#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Write the seed corpora tests/fuzz/corpus/NAME/ from the repository's fixtures
(fixture sysroots, tests/*/fixtures, golden files, test profiles) plus a few hand-made
inputs for formats no fixture has (ring buffers, journals, protocol lines). Idempotent:
rerun after adding fixtures or a harness, then commit what changed. Usage:
    tests/fuzz/seed-corpus.py"""
import glob
import hashlib
import os
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
SYS = os.path.join(TOP, "tests/fixtures/sysroots")


def rd(path):
    with open(os.path.join(TOP, path), "rb") as f:
        return f.read()


def sysroot_files(pattern, limit=6):
    """Distinct contents of a file pattern across the fixture sysroots."""
    seen, out = set(), []
    for p in sorted(glob.glob(os.path.join(SYS, "*", pattern), recursive=True)):
        if not os.path.isfile(p) or os.path.islink(p):
            continue
        b = open(p, "rb").read()
        if b in seen:
            continue
        seen.add(b)
        out.append((os.path.relpath(p, SYS).split("/")[0], b))
        if len(out) >= limit:
            break
    return out


corpora = {}


def add(name, label, data):
    if isinstance(data, str):
        data = data.encode()
    corpora.setdefault(name, {})[label] = data


# numbers: sysfs scalars and option values
for i, v in enumerate(["0", "42\n", " 18446744073709551615 ", "18446744073709551616", "0x1f",
                       "-5", "-9223372036854775808", "4k", "1GiB", "100TiB", "1.5e3", "500ms",
                       "1.5h", "1e308h", "2us", "nan", "inf", "32768K\n"]):
    add("numbers", f"value-{i:02d}", v)
for m, b in sysroot_files("proc/sys/kernel/*", 6):
    add("numbers", f"{m}-sysctl-{hashlib.sha1(b).hexdigest()[:8]}", b)

# cpulist: cpulists, masks, isolation parameters
for m, b in sysroot_files("sys/devices/system/cpu/online"):
    add("cpulist", f"{m}-online", b)
for m, b in sysroot_files("sys/devices/system/node/node*/cpulist"):
    add("cpulist", f"{m}-node-cpulist-{hashlib.sha1(b).hexdigest()[:8]}", b)
for m, b in sysroot_files("sys/devices/system/cpu/cpu*/cache/index*/shared_cpu_map", 4):
    add("cpulist", f"{m}-shared_cpu_map-{hashlib.sha1(b).hexdigest()[:8]}", b)
for i, v in enumerate(["0-3,8,10-11\n", "", "ff,00000001\n", "nohz,domain,managed_irq,2-3",
                       "8191", "5-2", "0-8191"]):
    add("cpulist", f"value-{i:02d}", v)

# sysfs: selection lists, sysctl values, releases
for m, b in sysroot_files("sys/**/queue/scheduler", 4):
    add("sysfs", f"{m}-scheduler-{hashlib.sha1(b).hexdigest()[:8]}", b)
for m, b in sysroot_files("sys/kernel/mm/transparent_hugepage/*", 4):
    add("sysfs", f"{m}-thp-{hashlib.sha1(b).hexdigest()[:8]}", b)
for m, b in sysroot_files("proc/sys/net/ipv4/*", 4):
    add("sysfs", f"{m}-ipv4-{hashlib.sha1(b).hexdigest()[:8]}", b)
for m, b in sysroot_files("proc/sys/kernel/osrelease"):
    add("sysfs", f"{m}-osrelease", b)
add("sysfs", "triple", "4096\t131072\t6291456\n")

# cmdline
for m, b in sysroot_files("proc/cmdline"):
    add("cmdline", m, b)
add("cmdline", "quotes", 'BOOT_IMAGE=/vmlinuz root=UUID=x ro quiet "acpi_osi=Linux x" '
    'isolcpus=nohz,domain,2-3 nohz_full=2-3 rcu_nocbs mitigations=off a=b=c\n')

# cpuinfo
for m, b in sysroot_files("proc/cpuinfo"):
    add("cpuinfo", m, b[:8192])

# procstat: first byte = CPU column, then /proc/interrupts, /proc/stat, meminfo, numastat
for p in sorted(glob.glob(os.path.join(TOP, "tests/bench/fixtures/interrupts-*.txt"))):
    add("procstat", os.path.basename(p)[:-4], b"\x01" + open(p, "rb").read())
for m, b in sysroot_files("proc/meminfo", 3):
    add("procstat", f"{m}-meminfo", b"\x00" + b)
for m, b in sysroot_files("sys/devices/system/node/node*/numastat", 2):
    add("procstat", f"{m}-numastat-{hashlib.sha1(b).hexdigest()[:8]}", b"\x00" + b)
add("procstat", "stat", b"\x00cpu  1000 20 300 40000 50 0 6 70 0 0\n"
    b"cpu0 500 10 150 20000 25 0 3 35 0 0\ncpu1 500 10 150 20000 25 0 3 35 0 0\n"
    b"intr 12345 0 1\nctxt 999\nbtime 1700000000\n")

# monitor: first byte = parser (0 stat, 1 loadavg, 2 interrupts/softirqs, 3 meminfo and
# vmstat, 4 pressure, 5 diskstats, 6 net/dev and snmp), then two snapshots split at
# "\n====\n": the fixture's file and the same with every number halved (counters that
# went down) or doubled
def halve_double(b, k):
    import re
    return re.sub(rb"[0-9]+", lambda m: str(int(m.group()) * k // 2).encode(), b)
for sel, pat in [(0, "proc/stat"), (1, "proc/loadavg"), (2, "proc/interrupts"),
                 (2, "proc/softirqs"), (3, "proc/meminfo"), (3, "proc/vmstat"),
                 (4, "proc/pressure/*"), (5, "proc/diskstats"), (6, "proc/net/dev"),
                 (6, "proc/net/snmp")]:
    for m, b in sysroot_files(pat, 2):
        b = b[:16384]
        tag = pat.replace("proc/", "").replace("/", "-").replace("*", "x")
        add("monitor", f"{m}-{tag}-up", bytes([sel]) + b + b"\n====\n" + halve_double(b, 4))
        add("monitor", f"{m}-{tag}-down", bytes([sel]) + b + b"\n====\n" + halve_double(b, 1))
# two readings 0.3 s apart of a 2-vCPU KVM guest (tests/monitor/fixtures/kvm2-*.a, .b)
for sel, name in [(0, "stat"), (1, "loadavg"), (2, "interrupts"), (2, "softirqs"),
                  (3, "vmstat"), (4, "pressure-cpu"), (4, "pressure-io"), (5, "diskstats"),
                  (6, "net-dev"), (6, "net-snmp")]:
    a = rd(f"tests/monitor/fixtures/kvm2-{name}.a")
    b = rd(f"tests/monitor/fixtures/kvm2-{name}.b")
    add("monitor", f"kvm2-{name}", bytes([sel]) + a + b"\n====\n" + b)
add("monitor", "stat-offline", b"\x00cpu  10 0 10 100 0 0 0 0 0 0\ncpu0 5 0 5 50 0 0 0 0 0 0\n"
    b"cpu1 5 0 5 50 0 0 0 0 0 0\nctxt 10\n\n====\ncpu  12 0 10 60 0 0 0 0 0 0\n"
    b"cpu0 12 0 10 60 0 0 0 0 0 0\nctxt 20\n")

# monitor_view: monitor documents (tests/monitor/fixtures/monitor-*.json)
for p in sorted(glob.glob(os.path.join(TOP, "tests/monitor/fixtures/monitor-*.json"))):
    add("monitor_view", os.path.basename(p)[:-5], open(p, "rb").read())

# net_proto
for i, v in enumerate([
        "PLNET1 test=tcp_pp size=64 seconds=1.000000 streams=1 nodelay=1 busy_poll=0\n",
        "PLNET1 test=udp_stream size=1472 seconds=0.5 streams=1 nodelay=0 busy_poll=50\r\n",
        "PLNET1 test=tcp_stream size=131072 seconds=10 streams=8\n",
        "OK port=40123\n", "ERR unknown test 'x'\n",
        "DONE rx_bytes=123456 rx_msgs=1929 cpu=1 retrans=0\n",
        "DONE rx_bytes=0 rx_msgs=0 cpu=-1 retrans=0\n",
        "PLNET1 test=tcp_crr size=16777216 seconds=3600 streams=64 busy_poll=1000000\n"]):
    add("net_proto", f"line-{i:02d}", v)

# perf_decode: u64 sample_type, u64 regs_mask, u8 log2(size)-3, u16 tail/8, ring bytes
S = dict(IP=1 << 0, TID=1 << 1, TIME=1 << 2, ADDR=1 << 3, CALLCHAIN=1 << 5, ID=1 << 6,
         CPU=1 << 7, PERIOD=1 << 8, RAW=1 << 10, REGS_USER=1 << 12, STACK_USER=1 << 13,
         IDENTIFIER=1 << 16)
ST = S["IDENTIFIER"] | S["IP"] | S["TID"] | S["TIME"] | S["CPU"] | S["PERIOD"]


def rec(type_, misc, body):
    return struct.pack("<IHH", type_, misc, 8 + len(body)) + body


def sample(ip, pid, tid, time, cg=None, regs=None, stack=None):
    b = struct.pack("<QQIIQIIQ", 7, ip, pid, tid, time, 0, 0, 1000000)
    if cg is not None:
        b += struct.pack("<Q", len(cg)) + b"".join(struct.pack("<Q", x) for x in cg)
    if regs is not None:
        b += struct.pack("<Q", 2) + b"".join(struct.pack("<Q", x) for x in regs)
    if stack is not None:
        b += struct.pack("<Q", len(stack)) + stack + struct.pack("<Q", len(stack))
    return rec(9, 2, b)


sid = struct.pack("<IIQIIQ", 100, 100, 5000, 0, 0, 7)  # tid, time, cpu, identifier
comm = rec(3, 0x2000, struct.pack("<II", 100, 100) + b"burn\0\0\0\0" + sid)
fork = rec(7, 0, struct.pack("<IIIIQ", 101, 100, 101, 100, 6000) + sid)
mmap2 = rec(10, 2, struct.pack("<IIQQQIIQQII", 100, 100, 0x400000, 0x1000, 0, 8, 1, 1234, 0, 5, 2)
            + b"/usr/bin/burn\0\0\0" + sid)
lost = rec(2, 0, struct.pack("<QQ", 7, 3) + sid)
plain = comm + mmap2 + fork + sample(0x400123, 100, 100, 7000) + lost
add("perf_decode", "records", struct.pack("<QQBH", ST, 0, 9, 0) + plain)
add("perf_decode", "wrap", struct.pack("<QQBH", ST, 0, 5, 30) + plain[:240])
cgst = ST | S["CALLCHAIN"]
add("perf_decode", "callchain", struct.pack("<QQBH", cgst, 0, 9, 3) +
    sample(0x400123, 100, 100, 7000, cg=[0xfffffffffffffe00, 0x400123, 0x400456]))
dw = cgst | S["REGS_USER"] | S["STACK_USER"]
add("perf_decode", "dwarf", struct.pack("<QQBH", dw, (1 << 6) | (1 << 7), 10, 0) +
    sample(0x400123, 100, 100, 7000, cg=[0x400123], regs=[0x7ffc000, 0x7ffc100],
           stack=bytes(range(64))))
raw_st = S["IDENTIFIER"] | S["TID"] | S["TIME"] | S["RAW"]
raw_body = struct.pack("<QIIQ", 7, 100, 100, 8000) + struct.pack("<I", 12) + bytes(12)
add("perf_decode", "raw", struct.pack("<QQBH", raw_st, 0, 8, 0) + rec(9, 2, raw_body))
# futex: a sys_enter_futex record (uaddr at 16, op at 24, FUTEX_WAIT_PRIVATE) and a
# sys_exit_futex one (ret at 16); the harness reads the layout from the identifier
# (0x83c003c: fields at offset 16, 8 bytes) and the enter/exit from the tid's low bit
fid = 0x83c003c
fraw = bytes(16) + struct.pack("<QQQQQ", 0x5566294ab100, 128, 2, 0, 0) + bytes(4)
fx_raw = bytes(16) + struct.pack("<q", -11) + bytes(4)
add("perf_decode", "futex", struct.pack("<QQBH", raw_st, 0, 9, 0) +
    rec(9, 2, struct.pack("<QIIQ", fid, 100, 100, 8000) + struct.pack("<I", len(fraw)) + fraw) +
    rec(9, 2, struct.pack("<QIIQ", fid, 100, 101, 9000) + struct.pack("<I", len(fx_raw)) + fx_raw))


# --off-cpu's scheduler tracepoints: the harness's synthetic format has tracepoint ids
# 1 (sched_switch, prev_state long at 32), 2 (sched_waking), 3 (sched_migrate_task)
def tp(pid, time, raw, cg):
    raw += bytes((-(4 + len(raw))) % 8)
    b = struct.pack("<QIIQQ", 7, pid, pid, time, 0) + struct.pack("<Q", len(cg))
    b += b"".join(struct.pack("<Q", x) for x in cg) + struct.pack("<I", len(raw)) + raw
    return rec(9, 1, b)


sched_st = S["IDENTIFIER"] | S["TID"] | S["TIME"] | S["CPU"] | S["CALLCHAIN"] | S["RAW"]
sw = struct.pack("<HBBi16siiq16sii", 1, 0, 0, 100, b"burn", 100, 120, 1, b"swapper", 0, 120)
wk = struct.pack("<HBBi16siii", 2, 0, 0, 0, b"burn", 100, 120, 1)
mg = struct.pack("<HBBiIiiii", 3, 0, 0, 0, 0, 100, 120, 0, 1)
kchain = [0xffffffffffffff80, 0xffffffff81000010, 0xfffffffffffffe00, 0x400123]
sched_sid = struct.pack("<IIQQQ", 100, 100, 5000, 0, 7)
sched = (tp(100, 7000, sw, kchain) + tp(0, 7100, wk, kchain[:2]) + tp(0, 7200, mg, []) +
         rec(2, 0, struct.pack("<QQ", 7, 2) + sched_sid) +
         rec(7, 0, struct.pack("<IIIIQ", 101, 100, 101, 100, 7300) + sched_sid))
add("perf_decode", "sched", struct.pack("<QQBH", sched_st, 0, 9, 0) + sched)

# folded
add("folded", "small", rd("tests/profile/golden/small.folded"))
add("folded", "hand", "main;work;leaf 10\nmain;idle 5\n\nmain;work 18446744073709551615\n")

# report_from: saved documents of every kind
for p in sorted(glob.glob(os.path.join(TOP, "tests/report/fixtures/*.json"))):
    add("report_from", os.path.basename(p)[:-5], open(p, "rb").read())
add("report_from", "report", rd("tests/report/golden/report.json"))

# cluster: node documents split at form feeds (the golden report as three nodes, one with
# another kernel and governor and a STREAM result; a perflab-mpi network section; an
# inspect-shaped rank document; a part that is not JSON)
import json as _json
_rep = _json.loads(rd("tests/report/golden/report.json"))
# a few facts of each domain keep the seeds small (drift folds cpu.N.* keys)
_keep, _per = {}, {}
for _k, _f in _rep.get("facts", {}).items():
    _d = _k.split(".")[0]
    if _per.get(_d, 0) < 6:
        _per[_d] = _per.get(_d, 0) + 1
        _keep[_k] = _f
_rep["facts"] = _keep
_rep = {k: _rep[k] for k in ("schema_version", "generated", "perflab_version", "machine",
                              "facts", "check") if k in _rep}
_mem = _json.loads(rd("tests/report/fixtures/bench-mem.json"))
for _m in _mem.get("metrics", []):
    _m["samples"] = _m.get("samples", [])[:3]
_nodes = []
for i in range(3):
    d = _json.loads(_json.dumps(_rep))
    d.setdefault("machine", {})["hostname"] = "node%d" % i
    if i == 2:
        d["machine"]["kernel"] = "5.14.0"
        for k, f in d.get("facts", {}).items():
            if k.endswith("governor") and "value" in f:
                f["value"] = "performance"
        d["benchmarks"] = [_mem]
    _nodes.append(_json.dumps(d))
add("cluster", "three-reports", "\f".join(_nodes))
_net = {"nodes": ["a", "b", "c", "d"], "latency_oneway_us": [
    [None, 1.0, 1.1, 9.0], [1.0, None, 1.2, 9.5], [1.1, 1.2, None, 9.2], [9.0, 9.5, 9.2, None]],
    "latency_rtt_us": [[None, 2.0, 2.2, 18], [2.0, None, 2.4, 19], [2.2, 2.4, None, 18.4],
                       [18, 19, 18.4, None]],
    "bandwidth_gbs": [[None, 5, 5, 1], [5, None, 5, 1], [5, 5, None, 1], [1, 1, 1, None]],
    "pairs": [{"a": "a", "b": "b", "points": [{"bytes": 8, "iterations": 10, "rtt_us": 2.0,
                                               "oneway_us": 1.0, "bw_gbs": 0.008}]}],
    "sizes": [8, 1048576], "latency_bytes": 8, "bandwidth_bytes": 1048576,
    "slowest_pair": {"a": "b", "b": "d", "oneway_us": 9.5, "rtt_us": 19}}
_r0 = _json.loads(_nodes[0])
_r0["network"] = _net
add("cluster", "network", "\f".join([_json.dumps(_r0), _nodes[1], _nodes[2], _nodes[1]]))
_insp = {"schema_version": 1, "facts": _rep.get("facts", {}), "machine": _rep.get("machine", {})}
add("cluster", "ranks", "\f".join([_json.dumps(_insp), '{"failed":"no facts"}', "not json",
                                   _json.dumps({"benchmarks": [_mem], "machine": {}})]))
def _fits(doc):
    """@doc without the facts whose integer jansson cannot hold (the golden report has
    one rounded past 2^63), so the seed reaches the diff."""
    d = _json.loads(doc)
    d["facts"] = {k: f for k, f in d.get("facts", {}).items()
                  if not (isinstance(f.get("value"), int) and abs(f["value"]) >= 2 ** 63)}
    return _json.dumps(d)


# node names that collide once made unique, and one with a terminal control sequence
_dups = []
for _h in ("dup", "dup", "dup#2", "esc\x1b[2J\rx"):
    d = _json.loads(_nodes[0])
    d["machine"]["hostname"] = _h
    _dups.append(_fits(_json.dumps(d)))
add("cluster", "dup-names", "\f".join(_dups))

# diff: two documents split at a form feed (bench results of one benchmark, two reports
# with another kernel and a STREAM result on one side, two check documents with a
# finding changed and one gone)
add("diff", "bench", rd("tests/report/fixtures/diff/bench-old.json") + b"\f" +
    rd("tests/report/fixtures/diff/bench-new.json"))
add("diff", "reports", "\f".join([_fits(_nodes[0]), _fits(_nodes[2])]))
_chk = dict(_rep.get("check", {}))
_chk["schema_version"] = 1
_chk2 = _json.loads(_json.dumps(_chk))
if _chk2.get("findings"):
    _chk2["findings"][0]["observed"] = "changed"
    _chk2["findings"] = _chk2["findings"][:-1] if len(_chk2["findings"]) > 1 else []
add("diff", "check", "\f".join([_json.dumps(_chk), _json.dumps(_chk2)]))

# journal
J = [
    '{"op":"set","step":1,"target":"/proc/sys/vm/swappiness","sysroot":"","old":"60",'
    '"old_raw":"60\\n","new":"10","profile":"latency","time":1700000000}',
    '{"op":"accepted","step":1,"status":"ok","value":"10"}',
    '{"op":"set","step":2,"target":"/sys/block/vda/queue/scheduler","sysroot":"",'
    '"old":"mq-deadline","old_raw":"[mq-deadline] none\\n","new":"none","profile":"latency",'
    '"time":1700000001}',
    '{"op":"accepted","step":2,"status":"changed","value":"none"}',
    '{"op":"set","step":3,"target":"/etc/default/grub","sysroot":"/srv/root","old":null,'
    '"old_raw":null,"new":"GRUB_CMDLINE_LINUX=\\"quiet\\"\\n","profile":"x","time":1}',
    '{"op":"accepted","step":3,"status":"refused","errno":13}',
    '{"op":"undo","step":2}',
]
add("journal", "full", "\n".join(J) + "\n")
add("journal", "torn", "\n".join(J[:3]) + "\n" + J[3][:20])

# tune_profile: main, a, b, c, /vars, /proc/cpuinfo separated by \f
P = "tests/tune/profiles"
def prof(n):
    return rd(f"{P}/{n}/tuned.conf").decode()
add("tune_profile", "all-plugins", "\f".join([
    prof("all-plugins").replace("include=base,-not-installed-anywhere", "include=a,-b"),
    prof("base"), "", "", "", ""]))
add("tune_profile", "stack", "\f".join([
    "[main]\ninclude=a;b\n" + prof("stack-b"), prof("stack-a"),
    "[main]\ninclude=c\n[sysctl]\nvm.dirty_ratio=5\ndrop=vm.swappiness\n",
    "[vm]\nreplace=1\ntransparent_hugepages=never\n"]))
add("tune_profile", "loop", "[main]\ninclude=a\n\f[main]\ninclude=-b\n\f[main]\ninclude=main\n")
add("tune_profile", "variables", "\f".join([
    "[variables]\ninclude=/vars\nx=${y}${y}\nz=${i:PROFILE_DIR}/s.sh\n"
    "v=${f:virt_check:virtual:metal}\n[cpu]\ngovernor=${x}|powersave\n"
    "cpuinfo_regex=GenuineIntel\nuname_regex=x86_64\n[sysctl]\nvm.swappiness=${z}\n",
    "", "", "", "y=performance\nw=${y}\n", rd("tests/fixtures/sysroots/this-vm/proc/cpuinfo")
    .decode()[:2000]]))
for n in ["unknown-plugin", "bad-value", "verify-ok", "net-rounded", "escape"]:
    add("tune_profile", n, prof(n))
for p in sorted(glob.glob(os.path.join(TOP, "data/profiles/*/tuned.conf")))[:3]:
    add("tune_profile", "data-" + os.path.basename(os.path.dirname(p)), open(p, "rb").read())

# experiment: @param lines, then the INI
add("experiment", "ini", "@n=1,2\ncommand = /bin/echo {n}\nenv.COMMON = 1\n[base]\n[arena2]\n"
    "env.MALLOC_ARENA_MAX = 2\ncpus = 0\nmembind = 0\n"
    "sysctl.net.ipv4.tcp_rmem = 4096 131072 6291456\n"
    "sysfs./sys/kernel/mm/transparent_hugepage/enabled = never\n")
add("experiment", "helpers", "[a]\ncommand = sh -c 'echo \"a b\"' c\\ d\nprepare = /bin/true\n"
    "cleanup = /bin/true\nsetup = true\nteardown = true\ncwd = tmpfs\n[b]\ncommand = /bin/true\n"
    "cwd = /\nprofile = latency\n")
add("experiment", "two-params", "@a=x,y\n@b=1,2,3\n[v-{a}]\ncommand = /bin/echo {a} {b}\n")

# archive: small snapshot archives of the fixture trees (a few of their files and
# symlinks, the manifest first), plain tar and zstd-compressed, and hostile members
def tar_bytes(members, compress):
    """A pax tar of (name, kind, data-or-target) members, through zstd when compress."""
    import io
    import subprocess
    import tarfile
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as t:
        for name, kind, data in members:
            i = tarfile.TarInfo(name)
            i.type = kind
            if kind == tarfile.REGTYPE:
                i.size = len(data)
                t.addfile(i, io.BytesIO(data))
            else:
                i.linkname = data
                t.addfile(i)
    b = buf.getvalue()
    if compress:
        b = subprocess.run(["zstd", "-q", "-19", "-c"], input=b, stdout=subprocess.PIPE,
                           check=True).stdout
    return b


import tarfile as _tf
MANIFEST = (b'{"format": "perflab-snapshot", "format_version": 1, "members": [], '
            b'"unreadable": [], "live": []}')
for m in sorted(os.listdir(SYS)):
    root = os.path.join(SYS, m)
    members = [("perflab-snapshot.json", _tf.REGTYPE, MANIFEST)]
    for pat in ["etc/os-release", "proc/sys/kernel/*", "sys/devices/system/cpu/online",
                "sys/bus/cpu/devices/cpu0", "sys/bus/cpu/devices/cpu1"]:
        for p in sorted(glob.glob(os.path.join(root, pat)))[:8]:
            rel = os.path.relpath(p, root)
            if os.path.islink(p):
                members.append((rel, _tf.SYMTYPE, os.readlink(p)))
            elif os.path.isfile(p):
                members.append((rel, _tf.REGTYPE, open(p, "rb").read()))
    add("archive", f"{m}-zst", tar_bytes(members, True))
    add("archive", f"{m}-tar", tar_bytes(members, False))
ok = [("perflab-snapshot.json", _tf.REGTYPE, MANIFEST), ("proc", _tf.DIRTYPE, ""),
      ("proc/cpuinfo", _tf.REGTYPE, b"processor\t: 0\n")]
for label, extra in [
        ("dotdot", [("proc/../../x", _tf.REGTYPE, b"x")]),
        ("absolute", [("/x", _tf.REGTYPE, b"x")]),
        ("symlink-abs", [("etc/l", _tf.SYMTYPE, "/proc/cpuinfo")]),
        ("symlink-out", [("etc/l", _tf.SYMTYPE, "../../x")]),
        ("symlink-chain", [("a/b/s", _tf.SYMTYPE, "../.."), ("l", _tf.SYMTYPE, "a/b/s/../..")]),
        ("hardlink", [("etc/h", _tf.LNKTYPE, "proc/cpuinfo")]),
        ("fifo", [("proc/f", _tf.FIFOTYPE, "")]),
        ("below-symlink", [("etc/d", _tf.SYMTYPE, "/proc"), ("etc/d/x", _tf.REGTYPE, b"x")]),
        ("twice", [("proc/cpuinfo", _tf.REGTYPE, b"y")])]:
    add("archive", label, tar_bytes(ok + extra, True))

# stat_from: perf stat -j and -x, output captured and written by hand
for p in sorted(glob.glob(os.path.join(TOP, "tests/fixtures/perf-stat/*"))):
    if not p.endswith(".md"):
        add("stat_from", os.path.basename(p).replace(".", "-"), open(p, "rb").read())
add("stat_from", "metric-only-json", b'{"counter-value" : "5.000000", "unit" : "", '
    b'"event" : "cycles", "event-runtime" : 10, "pcnt-running" : 50.00, '
    b'"metric-value" : 1.0, "metric-unit" : "GHz"}\n{"metric-value" : 2.0, '
    b'"metric-unit" : "insn per cycle"}\n')
add("stat_from", "metric-only-csv", b"5,,cycles,10,50.00,1.0,GHz\n,,,,,2.0,IPC\n")

# metric_expr: formulas in the shapes of the metrics table, and edge cases
for i, f in enumerate([
        "instructions / cycles", "cycles / (\"task-clock\" * 1e6)",
        "100 * \"cpu/event=0xaa,umask=0x7/\" / (6 * cycles)",
        "100 * (1 - instructions / cycles) * (1 - cycles / (#slots * cycles))",
        "\"task-clock\" / (duration_time * 1000)", "cycles / #num_cpus",
        "max(min(1, 2), -3) + --4", "1 / zero", "1e300 * 1e300 * 10", "missing + 1",
        "((((1))))", "basic,cache", "topdown", "ipc,nonesuch", ".5 - 0.25e1"]):
    add("metric_expr", f"formula-{i:02d}", f)

# pmu: an event spelling, a format file and an alias file, one per line, from the
# fixture PMU trees of tests/fixtures/pmu/
PMU = os.path.join(TOP, "tests/fixtures/pmu")
_fmts = sorted({open(p).read().strip() for p in glob.glob(os.path.join(
    PMU, "*/sys/bus/event_source/devices/*/format/*"))})
_aliases = sorted({open(p).read().strip() for p in glob.glob(os.path.join(
    PMU, "*/sys/bus/event_source/devices/*/events/*")) if "." not in os.path.basename(p)})[:12]
_specs = ["cycles", "instructions:u", "L1-dcache-load-misses", "r01c2:k", "task-clock",
          "cpu/event=0x3c,umask=0x1/", "cpu/fz,umask=0xff/u", "cpu/config=1,config1=2/",
          "syscalls:sys_enter_read", "power/energy-pkg/", "cpu/event=/", "cpu/event=0x3c",
          "fz", "cpu/umask=0x100/"]
for i, spec in enumerate(_specs):
    add("pmu", f"seed-{i:02d}", f"{spec}\n{_fmts[i % len(_fmts)]}\n{_aliases[i % len(_aliases)]}\n")

# markring: region marker rings as the target leaves them (include/perflab/mark.h):
# a counting ring of 64 records (the harness's), pairs, nesting, orphans, point marks
def _fnv(name):
    h = 2166136261
    for c in name.encode()[:55]:
        h = ((h ^ c) * 16777619) & 0xffffffff
    return h or 1


def _ring(recs, names, counting=True, head=None, readings=True):
    import struct
    nrecs, nev = 64, 2
    attr_off = 64 + 256 * 64 + nrecs * 32
    cnt_off = attr_off + nev * 128
    cnt_stride = 32 + 8 * nev
    h = len(recs) if head is None else head
    img = bytearray(cnt_off + nrecs * cnt_stride)
    struct.pack_into("<QIIQIIQIiQII", img, 0, 0x31534b52414d4c50, 2, nrecs, h, nev,
                     1 if counting else 0, attr_off, 128, 0, cnt_off, cnt_stride, 0)
    for n in names:
        i = _fnv(n)
        slot = i % 256
        struct.pack_into("<II56s", img, 64 + slot * 64, i, 1, n.encode()[:55])
    for k, (ns, tid, name, kind) in enumerate(recs):
        s = k % nrecs
        struct.pack_into("<QIIIIQ", img, 64 + 256 * 64 + s * 32, ns, tid, _fnv(name), kind, 0,
                         k + 1)
        if readings and kind != 3:
            struct.pack_into("<QIIQQQQ", img, cnt_off + s * cnt_stride, k + 1, 0, 0,
                             ns, ns, ns // 1000, 10 * k)
    return bytes(img)


add("markring", "pair", _ring([(100, 7, "solve", 1), (900, 7, "solve", 2)], ["solve"]))
add("markring", "nested-threads", _ring(
    [(100, 7, "outer", 1), (150, 7, "inner", 1), (200, 8, "outer", 1), (300, 7, "inner", 2),
     (400, 8, "outer", 2), (500, 7, "point", 3), (600, 7, "outer", 2)], ["outer", "inner",
                                                                         "point"]))
add("markring", "orphan-open", _ring([(100, 7, "a", 2), (200, 7, "b", 1)], ["a", "b"]))
add("markring", "version1", _ring([(100, 7, "a", 1), (200, 7, "a", 2)], ["a"],
                                  counting=False, readings=False))
add("markring", "wrapped", _ring([(i * 10, 7, "w", 1 + i % 2) for i in range(64)], ["w"],
                                 head=130))

for name, files in corpora.items():
    d = os.path.join(HERE, "corpus", name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for label, data in files.items():
        with open(os.path.join(d, label), "wb") as f:
            f.write(data)
    print(f"{name}: {len(files)} files, {sum(len(x) for x in files.values())} bytes")
