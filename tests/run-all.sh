#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Run every test of build dir $1 with meson and count the TAP results. Last line:
# "N passed, N failed, N skipped". Exit 1 when anything failed.
set -uo pipefail
builddir=${1:-build-test}
meson test -C "$builddir" --print-errorlogs --num-processes 2 "${@:2}" >"$builddir/test-output.txt" 2>&1
mrc=$?
tail -n 40 "$builddir/test-output.txt"
/usr/bin/python3 - "$builddir/meson-logs/testlog.json" "$mrc" <<'PY'
import json, re, sys
passed = failed = skipped = 0
fails = []
with open(sys.argv[1]) as fh:
    for line in fh:
        t = json.loads(line)
        name = t.get("name", "?")
        subs = 0
        for l in (t.get("stdout") or "").splitlines():
            m = re.match(r"^(not ok|ok)\b\s*\d*\s*-?\s*(.*)$", l)
            if not m:
                continue
            subs += 1
            desc = m.group(2)
            if re.search(r"#\s*skip", desc, re.I):
                skipped += 1
            elif m.group(1) == "ok" and not re.search(r"#\s*todo", desc, re.I):
                passed += 1
            else:
                failed += 1
                fails.append(f"{name}: {l.strip()}")
        res = t.get("result")
        if subs == 0:
            if res == "OK": passed += 1
            elif res == "SKIP": skipped += 1
            else:
                failed += 1; fails.append(f"{name}: {res}")
        elif res not in ("OK", "SKIP", "EXPECTEDFAIL"):
            # a crash or bad exit after some TAP lines still fails the file
            if not any(f.startswith(name + ":") for f in fails):
                failed += 1; fails.append(f"{name}: {res} (exit status)")
for f in fails:
    print("FAILED", f)
if int(sys.argv[2]) != 0 and failed == 0:
    failed += 1
    print("FAILED meson test exited", sys.argv[2])
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
PY
