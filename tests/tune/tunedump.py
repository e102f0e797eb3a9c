#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""For each profile named on the command line, print one line "NAME JSON" with the units
tuned itself would load (tuned's own loader and merger from Debian's tuned package) as
{unit: {type, enabled, options}}, so tests/tune/stock.sh can compare them with
`perflab tune show --json`. `--dir DIR` first searches DIR before the stock directories
(tests/tune/emit.sh loads the profiles `perflab check --emit-profile` writes)."""
import json
import logging
import sys

logging.disable(logging.CRITICAL)
import tuned.profiles as tp  # noqa: E402
import tuned.profiles.factory  # noqa: E402,F401
import tuned.profiles.loader  # noqa: E402,F401
import tuned.profiles.locator  # noqa: E402,F401
import tuned.profiles.merger  # noqa: E402,F401
import tuned.profiles.variables  # noqa: E402,F401

args = sys.argv[1:]
dirs = ["/usr/lib/tuned", "/etc/tuned"]
if args[:1] == ["--dir"]:
    dirs.append(args[1])  # the locator takes the last directory that has the profile
    args = args[2:]
for name in args:
    loc = tp.locator.Locator(dirs)
    loader = tp.loader.Loader(loc, tp.factory.Factory(), tp.merger.Merger(), None,
                              tp.variables.Variables())
    try:
        p = loader.load(name)
    except Exception as e:  # report, the shell test fails the comparison
        print(name, json.dumps({"error": str(e)}))
        continue
    out = {}
    for uname, u in p.units.items():
        opts = {k: (" ".join(v) if isinstance(v, list) else str(v)) for k, v in u.options.items()}
        out[uname] = {"type": u.type, "enabled": u.enabled, "options": opts}
    print(name, json.dumps(out, sort_keys=True))
