#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Check an extracted perflab snapshot DIR against its manifest (docs/snapshot.md):
each file member's size and sha256, each symlink's target, and that every file and
symlink of DIR is listed. Prints up to 5 problems, one a line; nothing when it matches.
    usage: manifest-check.py DIR"""
import hashlib, json, os, sys
d = sys.argv[1]
m = json.load(open(os.path.join(d, "perflab-snapshot.json")))
bad, listed = [], set()
for e in m["members"]:
    p = os.path.join(d, e["path"])
    listed.add(e["path"])
    if e["type"] == "file":
        if os.path.islink(p) or not os.path.isfile(p):
            bad.append("missing file " + e["path"])
            continue
        data = open(p, "rb").read()
        if len(data) != e["size"] or hashlib.sha256(data).hexdigest() != e["sha256"]:
            bad.append("size or sha256 " + e["path"])
    elif not os.path.islink(p) or os.readlink(p) != e["target"]:
        bad.append("symlink " + e["path"])
for root, dirs, files in os.walk(d):
    for n in files + [x for x in dirs if os.path.islink(os.path.join(root, x))]:
        r = os.path.relpath(os.path.join(root, n), d)
        if r != "perflab-snapshot.json" and r not in listed:
            bad.append("not in the manifest " + r)
print("\n".join(bad[:5]))
