#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Write the hostile snapshot archives of tests/facts/archive.sh into OUTDIR, each
NAME.tar.zst (tar written by Python's tarfile, compressed with the zstd command), and
print one line per archive: NAME<TAB>the member the error must name ('-' for none).
Usage: bad-archives.py FIXTURE_TREE OUTDIR"""
import io
import json
import os
import subprocess
import sys
import tarfile

tree, out = sys.argv[1], sys.argv[2]
MIB = 1 << 20


class Zeros(io.RawIOBase):
    """n zero bytes, read as a file without holding them."""

    def __init__(self, n):
        self.left = n

    def readable(self):
        return True

    def readinto(self, b):
        k = min(len(b), self.left)
        b[:k] = bytes(k)
        self.left -= k
        return k


def write(name, member, build, manifest=True):
    """Archive NAME: the manifest, then what build(tar) adds, through zstd."""
    path = os.path.join(out, name + ".tar.zst")
    with open(path, "wb") as f:
        z = subprocess.Popen(["zstd", "-q", "-1", "-c"], stdin=subprocess.PIPE, stdout=f)
        with tarfile.open(fileobj=z.stdin, mode="w|", format=tarfile.PAX_FORMAT) as t:
            if manifest:
                add_bytes(t, "perflab-snapshot.json",
                          json.dumps({"format": "perflab-snapshot", "format_version": 1}).encode())
            build(t)
        z.stdin.close()
        if z.wait() != 0:
            sys.exit("zstd failed")
    print(f"{name}\t{member}")


def add_bytes(t, name, data):
    i = tarfile.TarInfo(name)
    i.size = len(data)
    t.addfile(i, io.BytesIO(data))


def add_zeros(t, name, n):
    i = tarfile.TarInfo(name)
    i.size = n
    t.addfile(i, Zeros(n))


def add_kind(t, name, kind, link=""):
    i = tarfile.TarInfo(name)
    i.type = kind
    i.linkname = link
    if kind in (tarfile.CHRTYPE, tarfile.BLKTYPE):
        i.devmajor, i.devminor = 1, 5
    t.addfile(i)


def tree_then(extra):
    """The fixture tree's files, then extra(tar)."""
    def build(t):
        t.add(tree, arcname=".")
        extra(t)
    return build


write("dotdot", "proc/../../escape", lambda t: add_bytes(t, "proc/../../escape", b"x\n"))
write("absolute", "/tmp/perflab-archive-absolute",
      lambda t: add_bytes(t, "/tmp/perflab-archive-absolute", b"x\n"))
write("symlink-out", "etc/out", lambda t: add_kind(t, "etc/out", tarfile.SYMTYPE, "../../x"))
# lexically inside (a/b/s/../.. is a), physically out: a/b/s is the root, and two more
# ".." climb above it
write("symlink-chain", "l", lambda t: (add_kind(t, "a/b/s", tarfile.SYMTYPE, "../.."),
                                       add_kind(t, "l", tarfile.SYMTYPE, "a/b/s/../..")))
write("hardlink", "etc/hard", lambda t: (add_bytes(t, "etc/file", b"x\n"),
                                         add_kind(t, "etc/hard", tarfile.LNKTYPE, "etc/file")))
write("device", "dev/zero", lambda t: add_kind(t, "dev/zero", tarfile.CHRTYPE))
write("fifo", "proc/fifo", lambda t: add_kind(t, "proc/fifo", tarfile.FIFOTYPE))
write("below-symlink", "etc/ln/passwd",
      lambda t: (add_kind(t, "etc/ln", tarfile.SYMTYPE, "/etc"),
                 add_bytes(t, "etc/ln/passwd", b"x\n")))
write("twice", "etc/hostname",
      lambda t: (add_bytes(t, "etc/hostname", b"a\n"), add_bytes(t, "etc/hostname", b"b\n")))
write("member-over", "proc/big", lambda t: add_zeros(t, "proc/big", 16 * MIB + 1))
# 16 MiB each: proc/f15 brings the contents (with the manifest) over 256 MiB
write("total-over", "proc/f15",
      lambda t: [add_zeros(t, f"proc/f{k}", 16 * MIB) for k in range(17)])
# a compression bomb: 1 GiB of zeros in one member, some 30 KiB compressed
write("bomb", "proc/bomb", lambda t: add_zeros(t, "proc/bomb", 1024 * MIB))


def many(t):
    # one directory named again and again: the count is the limit, not the files
    for _ in range(100001):
        add_kind(t, "d", tarfile.DIRTYPE)


write("members-over", "d", many, manifest=False)
write("manifest-format", "perflab-snapshot.json",
      lambda t: add_bytes(t, "perflab-snapshot.json", b'{"format": "sos-report"}'),
      manifest=False)
write("manifest-json", "perflab-snapshot.json",
      lambda t: add_bytes(t, "perflab-snapshot.json", b'{"format": '), manifest=False)
