#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Print the units tuned itself would load for profile ARGV[1] (tuned's own loader and
merger from Debian's tuned package), as {unit: {type, enabled, options}} JSON, so
tests/tune/stock.sh can compare it with `perflab tune show --json`."""
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

loc = tp.locator.Locator(["/usr/lib/tuned", "/etc/tuned"])
loader = tp.loader.Loader(loc, tp.factory.Factory(), tp.merger.Merger(), None,
                          tp.variables.Variables())
p = loader.load(sys.argv[1])
out = {}
for name, u in p.units.items():
    opts = {k: (" ".join(v) if isinstance(v, list) else str(v)) for k, v in u.options.items()}
    out[name] = {"type": u.type, "enabled": u.enabled, "options": opts}
print(json.dumps(out, sort_keys=True))
