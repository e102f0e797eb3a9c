#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Differential test of what perflab and tuned WRITE for the sysctl, sysfs, vm, cpu and
disk plugins.

The fixture tree is BASE (tests/fixtures/tune/compat) with OVERLAY
(tests/fixtures/tune/writes: cpufreq policies, intel_pstate, energy_perf_bias, cpuidle
states, THP defrag, more disks, the sysctl and sysfs files of the stock profiles) copied
over it. For every profile of CORPUS and every stock profile of /usr/lib/tuned whose
merged units (as tuned's Loader makes them) have one of those five plugins, two copies of
the tree are made:
  A: `perflab --sysroot A tune apply NAME --profile-dir CORPUS --state-dir ...`;
  B: tuned 2.20's own code applies the profile: tuned's Loader, its unit Manager (unit
     order, priority, enabled, cpuinfo_regex/uname_regex, device assignment, one device
     to one unit) and its plugins (plugin_sysctl, plugin_sysfs, plugin_vm, plugin_cpu,
     plugin_disk, their _instance_apply_static and command methods), with every file
     access of tuned's code under /sys, /proc, /dev, /etc and /run redirected into B
     (open, os.open, os.path, os.listdir, glob), dynamic tuning off (Debian's
     tuned-main.conf), only the units of those five plugins created.
Then the two trees are compared file by file (content up to a trailing newline).

What tuned would do that is not a file write is compared too, as lines:
  - the latency tuned's cpu plugin writes to /dev/cpu_dma_latency (B's file holds the
    binary int) against the N of perflab's "perflab tune hold-latency N" item;
  - the programs tuned would run (hdparm for apm/spindown, answered as a disk that
    supports APM; x86_energy_perf_policy is answered as not installed, so energy_perf_bias
    goes to sysfs as with the hwp_epp CPU flag of the fixture): perflab runs none.

tuned's device lists come from the tree, as its udev inventory would give them: the CPUs
are /sys/devices/system/cpu/cpuN; the block devices are /sys/block/*, a disk when its
"removable" file says 0 and its parent (the subsystem link of /sys/block/X/device, or
for the fixture's plain directories the one the name implies: sd* scsi, nvme* nvme, vd*
virtio, mmcblk* mmc) is a scsi/nvme/virtio/xen device or none (loop, zram: virtual
devices), as DiskPlugin._device_is_supported decides. A corpus case may bring its own
files: CORPUS/NAME/sysroot is copied over both trees.

Output: TAP, one line per profile. KNOWN (tests/tune/tuned-known.txt) lines
"writes:NAME REASON" list the profiles whose writes differ on purpose; each must still
differ. Usage: tuned_writes.py PERFLAB CORPUS BASE OVERLAY KNOWN [NAME...]"""
import builtins
import errno
import glob
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tuned_diff as td  # noqa: E402

tcmd = td.tcmd if not td.SKIP else None

PLUGINS = ("sysctl", "sysfs", "vm", "cpu", "disk")
PREFIXES = ("/sys/", "/proc/", "/dev/", "/etc/", "/run/")
ROOT = [None]  # the tree tuned's file accesses go to while tuned runs
if not td.SKIP:
    try:
        import tuned.consts as consts
        import tuned.hardware
        import tuned.plugins.instance
        import tuned.plugins.plugin_cpu as plugin_cpu
        import tuned.plugins.plugin_sysfs as plugin_sysfs
        import tuned.plugins.plugin_sysctl as plugin_sysctl
        import tuned.plugins.repository
        import tuned.profiles.functions.function_calc_isolated_cores as calc_isolated_cores
        import tuned.storage
        import tuned.units.manager
        import tuned.utils.global_config
    except Exception as e:
        td.SKIP = "tuned's Python modules cannot be imported (%s: %s)" % (type(e).__name__, e)


def inside(p):
    """@p in the tree B when it is an absolute /sys, /proc, /dev, /etc or /run path."""
    if ROOT[0] and isinstance(p, str) and p.startswith(PREFIXES):
        return ROOT[0] + p
    if ROOT[0] and isinstance(p, str) and p in ("/sys", "/proc", "/dev", "/etc", "/run"):
        return ROOT[0] + p
    return p


def redirect():
    """Route tuned's file accesses into ROOT[0] (patched once; ROOT[0] None: unchanged)."""
    real_open, real_os_open, real_listdir = builtins.open, os.open, os.listdir
    real_exists, real_isdir, real_isfile = os.path.exists, os.path.isdir, os.path.isfile
    builtins.open = lambda f, *a, **k: real_open(inside(f), *a, **k)
    os.open = lambda f, *a, **k: real_os_open(inside(f), *a, **k)
    os.listdir = lambda p=".": real_listdir(inside(p))
    os.path.exists = lambda p: real_exists(inside(p))
    os.path.isdir = lambda p: real_isdir(inside(p))
    os.path.isfile = lambda p: real_isfile(inside(p))

    class Glob:
        @staticmethod
        def iglob(pattern):
            if not ROOT[0] or not pattern.startswith("/"):
                return glob.iglob(pattern)
            return (p[len(ROOT[0]):] for p in glob.iglob(ROOT[0] + pattern))

        @staticmethod
        def glob(pattern):
            return list(Glob.iglob(pattern))

    plugin_sysfs.glob = Glob
    calc_isolated_cores.glob = Glob

    class Platform:  # plugin_cpu._check_arch: the tree's machine
        @staticmethod
        def machine():
            return read("/proc/sys/kernel/arch").strip()

    plugin_cpu.platform = Platform

    # Writes go through the kernel model: a write the kernel would refuse fails.
    real_write = tcmd.commands.write_to_file

    def write_to_file(self, f, data, makedir=False, no_error=False):
        if ROOT[0] and isinstance(f, str) and f.startswith(PREFIXES) and os.path.exists(f):
            data = kernel_write(f, read(f), data)
            if data is None:
                return False
        return real_write(self, f, data, makedir, no_error)

    tcmd.commands.write_to_file = write_to_file
    real_sysctl = plugin_sysctl._write_sysctl

    def write_sysctl(option, value, ignore_missing=False):
        path = plugin_sysctl._get_sysctl_path(option)
        if ROOT[0] and os.path.exists(path):
            value = kernel_write(path, read(path), value)
            if value is None:
                return False
        return real_sysctl(option, value, ignore_missing)

    plugin_sysctl._write_sysctl = write_sysctl


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


EPB = {"performance": 0, "balance-performance": 4, "normal": 6, "balance-power": 8,
       "power": 15}  # energy_perf_strings of arch/x86/kernel/cpu/intel_epb.c
INTS = re.compile(r"\s*-?[0-9]+(\s+-?[0-9]+)*\s*")
MASK = re.compile(r"\s*[0-9a-fA-F,]+\s*")


def is_mask(path, o):
    """A hexadecimal mask file: a cpumask, or one whose content is hex digits (and commas)
    that are not all decimal digits."""
    return os.path.basename(path).endswith("cpumask") or (
        MASK.fullmatch(o) is not None and INTS.fullmatch(o) is None)


def kernel_write(path, old, value):
    """What a file of the kernel holds after VALUE is written to it when it held OLD, or
    None when the kernel refuses the write (EINVAL): the model both trees are judged by.
    A choice list ("a [b] c": scheduler, THP) takes one of its choices, which becomes the
    bracketed one; energy_perf_bias takes 0-15 or a name of intel_epb.c (stored as its
    number); a hexadecimal mask (cpumask) takes hex digits and commas; a file of integers
    ("60", "4096 87380 6291456": proc_dointvec, kstrtoint) takes integers separated by any
    white space; any other file takes any value, white space at the ends dropped."""
    v, o = str(value).strip(), old.strip()
    if re.search(r"\[[^]]+\]", o):
        choices = o.replace("[", "").replace("]", "").split()
        return " ".join("[%s]" % c if c == v else c for c in choices) if v in choices else None
    if os.path.basename(path) == "energy_perf_bias":
        if v in EPB:
            return str(EPB[v])
        return v if v.isdigit() and int(v) <= 15 else None
    if is_mask(path, o):
        return v if MASK.fullmatch(v) else None
    if INTS.fullmatch(o):
        return v if INTS.fullmatch(v) else None
    return v


def canonical(path, data):
    """File content @data (bytes) as the kernel would read it back, to compare: the active
    choice of a choice list, a mask as a number, integers as numbers single-spaced."""
    t = data.decode(errors="replace").strip()
    m = re.search(r"\[([^]]+)\]", t)
    if m:
        return m.group(1)
    if is_mask(path, t) and MASK.fullmatch(t):
        return "mask %x" % int(t.replace(",", "") or "0", 16)
    if INTS.fullmatch(t):
        return " ".join(str(int(x)) for x in t.split())
    return t


class Device:
    """What tuned's plugins use of a pyudev device: sys_name, device_type, attributes,
    parent (with subsystem), properties and the udev-like items for devices_udev_regex."""

    class Parent:
        def __init__(self, subsystem):
            self.subsystem = subsystem

    def __init__(self, subsystem, name):
        self.sys_name = name
        self.subsystem = subsystem
        self.device_type = "disk" if subsystem == "block" else None
        self.attributes = {}
        self.parent = None
        if subsystem == "block":
            rem = read("/sys/block/%s/removable" % name).strip() or "0"
            self.attributes["removable"] = rem.encode()
            link = "/sys/block/%s/device/subsystem" % name
            if os.path.islink(inside(link)):
                self.parent = Device.Parent(os.path.basename(os.readlink(inside(link))))
            else:  # the fixture's plain directories: the parent the name implies
                for pre, sub in (("sd", "scsi"), ("nvme", "nvme"), ("vd", "virtio"),
                                 ("xvd", "xen"), ("sr", "scsi"), ("fd", "platform"),
                                 ("mmcblk", "mmc")):
                    if name.startswith(pre):
                        self.parent = Device.Parent(sub)
        self.properties = {"DEVNAME": "/dev/" + name, "SUBSYSTEM": subsystem}
        if self.device_type:
            self.properties["DEVTYPE"] = self.device_type

    def items(self):
        return self.properties.items()


class Inventory:
    """tuned's hardware inventory over the tree (no udev)."""

    def get_devices(self, subsystem):
        if subsystem == "cpu":
            d = "/sys/devices/system/cpu"
            names = [n for n in os.listdir(d) if n[3:].isdigit() and n.startswith("cpu")]
        elif subsystem == "block":
            names = os.listdir("/sys/block") if os.path.isdir("/sys/block") else []
        else:
            names = []
        return [Device(subsystem, n) for n in sorted(names)]

    def get_device(self, subsystem, name):
        return Device(subsystem, name)

    def subscribe(self, *a, **k):
        pass

    def unsubscribe(self, *a, **k):
        pass

    def start_processing_events(self):
        pass

    def stop_processing_events(self):
        pass


class Monitors:
    """Monitors are for dynamic tuning, which is off."""

    def create(self, *a, **k):
        return None

    def delete(self, *a, **k):
        pass


def programs():
    """The programs tuned's plugins would run, answered as on a machine with an APM-capable
    disk (hdparm) and without x86_energy_perf_policy; each call that would change a
    setting (hdparm -B N, hdparm -S N) is recorded in "runs", probes are not."""
    rec = {"runs": []}

    def hdparm(args):
        if "-C" in args:
            return 0, " drive state is:  active/idle\n"
        if len(args) == 3 and args[1] == "-B":
            return 0, " APM_level\t= 128\n"
        rec["runs"].append(" ".join(args))
        return 0, ""

    def absent(args):
        return -errno.ENOENT, ""

    rec.update({"hdparm": hdparm, "x86_energy_perf_policy": absent})
    return rec


def tuned_apply(corpus, name, tree):
    """Apply @name with tuned's code on @tree; returns (units applied, extra lines) or
    raises. The extra lines: "program: ..." for each program tuned would run."""
    rec = programs()
    td.answer_programs(lambda: tree, read, rec)
    ROOT[0] = tree
    try:
        loc = td.tp.locator.Locator([td.STOCK, corpus])
        variables = td.tp.variables.Variables()
        loader = td.tp.loader.Loader(loc, td.tp.factory.Factory(), td.tp.merger.Merger(),
                                     None, variables)
        profile = loader.load(name)
        units = dict((k, u) for k, u in profile.units.items() if u.type in PLUGINS)
        if not units:
            return None, []
        conf = os.path.join(tree, "..", "tuned-main.conf")  # Debian's: no dynamic tuning
        with builtins.open(conf, "w") as f:
            f.write("dynamic_tuning = 0\n")
        cfg = tuned.utils.global_config.GlobalConfig(config_file=conf)
        # The unit manager's cpuinfo_regex and uname_regex: the tree's (as tuned_diff.py).
        cfg.set(consts.CFG_CPUINFO_STRING, read("/proc/cpuinfo"))
        cfg.set(consts.CFG_UNAME_STRING, " ".join(
            read("/proc/sys/kernel/" + f).strip()
            for f in ("ostype", "hostname", "osrelease", "version", "arch")))
        storage = tuned.storage.Factory(tuned.storage.PickleProvider(
            os.path.join(tree, "..", "tuned-storage.pickle")))
        inv = Inventory()
        repo = tuned.plugins.repository.Repository(
            Monitors(), storage, inv, tuned.hardware.DeviceMatcher(),
            tuned.hardware.DeviceMatcherUdev(), tuned.plugins.instance.Factory(), cfg,
            variables)
        mgr = tuned.units.manager.Manager(repo, Monitors(),
                                          consts.CFG_DEF_DEFAULT_INSTANCE_PRIORITY, inv, cfg)
        dev = os.path.join(tree, "dev", "cpu_dma_latency")
        os.makedirs(os.path.dirname(dev), exist_ok=True)
        open(dev, "wb").close()
        mgr.create(units)
        mgr.start_tuning()
        for p in mgr.plugins:  # closes /dev/cpu_dma_latency; tuning stays in the tree
            p.cleanup()
        return sorted(units), ["program: " + r for r in sorted(rec["runs"])]
    finally:
        ROOT[0] = None


def tree_files(root):
    out = {}
    for d, dirs, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            if os.path.islink(p):
                continue
            with builtins.open(p, "rb") as fh:
                out[p[len(root):]] = fh.read()
    return out


def latency_of(data):
    """The last int tuned wrote to /dev/cpu_dma_latency (struct "i"), or None."""
    if len(data) < 4:
        return None
    return struct.unpack("i", data[-4:])[0]


def compare(perflab, corpus, base, name, tmp):
    """The differences between perflab's and tuned's writes for @name (lines)."""
    a, b = os.path.join(tmp, name, "A"), os.path.join(tmp, name, "B")
    own = os.path.join(corpus, name, "sysroot")  # a case's own files over the tree
    for t in (a, b):
        shutil.copytree(base, t, symlinks=True)
        if os.path.isdir(own):
            shutil.copytree(own, t, symlinks=True, dirs_exist_ok=True)
    orig = tree_files(a)
    try:
        units, extra = tuned_apply(corpus, name, b)
    except td.RefusedProgram as e:
        units, extra = "error", ["tuned: runs a program (%s) at load" % e]
    except Exception as e:
        units, extra = "error", ["tuned: %s: %s" % (type(e).__name__, e)]
    if units is None:
        return None  # no unit of these plugins: not compared
    r = subprocess.run([perflab, "--sysroot", a, "tune", "apply", name, "--profile-dir",
                        corpus, "--state-dir", os.path.join(tmp, name, "state")],
                       capture_output=True, text=True)
    d = []
    if units == "error":
        if r.returncode != 0:
            return []  # both refuse the profile
        d += extra
        extra = []
    # The latency perflab asks the user to hold: "run 'perflab tune hold-latency N'".
    want = re.findall(r"hold-latency (\d+)", r.stdout + r.stderr)
    fa, fb = tree_files(a), tree_files(b)
    lat = latency_of(fb.pop("/dev/cpu_dma_latency", b""))
    fa.pop("/dev/cpu_dma_latency", None)
    tl = [] if lat is None else [str(lat)]
    if tl != want:
        d.append("/dev/cpu_dma_latency: tuned writes %s, perflab holds %s" % (
            tl or "nothing", want or "nothing"))
    for p in sorted(set(fa) | set(fb)):
        if p.startswith("/etc/"):
            continue  # [bootloader]: compared by tuned_diff.py; [script] not run
        va, vb, vo = fa.get(p), fb.get(p), orig.get(p)
        if va is not None and vo is not None and va != vo and kernel_write(
                p, vo.decode(errors="replace"), va.decode(errors="replace")) is None:
            d.append("%s: perflab writes %r, which the kernel refuses" % (p, va.decode()))
        ca = None if va is None else canonical(p, va)
        cb = None if vb is None else canonical(p, vb)
        if ca != cb:
            d.append("%s: tuned %s, perflab %s" % (p, "absent" if cb is None else repr(cb),
                                                  "absent" if ca is None else repr(ca)))
    if d and r.returncode != 0:
        d.insert(0, "perflab apply: exit %d: %s" % (
            r.returncode, " ".join(r.stderr.strip().splitlines()[-1:])))
    d += extra
    shutil.rmtree(os.path.join(tmp, name))
    return d


def main():
    if len(sys.argv) < 6:
        print(__doc__, file=sys.stderr)
        return 2
    perflab, corpus, base, overlay, known_file = sys.argv[1:6]
    corpus, base, overlay = map(os.path.abspath, (corpus, base, overlay))
    if td.SKIP:
        print("ok 1 - tuned write comparison # SKIP %s" % td.SKIP)
        print("1..1")
        return 0
    redirect()
    known = td.read_known(known_file, "writes:")
    tmp = tempfile.mkdtemp(prefix="tuned-writes.")
    try:
        tree = os.path.join(tmp, "base")
        shutil.copytree(base, tree, symlinks=True)
        shutil.copytree(overlay, tree, symlinks=True, dirs_exist_ok=True)
        names = sys.argv[6:]
        if not names:
            names = sorted(n for n in os.listdir(corpus)
                           if os.path.isfile(os.path.join(corpus, n, "tuned.conf")))
            names += sorted(n for n in os.listdir(td.STOCK) if n not in names and
                            os.path.isfile(os.path.join(td.STOCK, n, "tuned.conf")))
        results = {}
        for n in names:
            results[n] = compare(perflab, corpus, tree, n, tmp)
        compared = [n for n in names if results[n] is not None]
        return td.report(compared, known, lambda n: results[n],
                         "writes the same files as tuned's plugins", every=not sys.argv[6:])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
