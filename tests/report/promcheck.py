#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Check a Prometheus text exposition (format 0.0.4) against its grammar: comment lines
(# HELP name text / # TYPE name type), samples `name{label="value",...} number [ts]`,
label values escaped, one TYPE per family before its samples, no duplicate series.
Usage: promcheck.py FILE. Prints the first problems; exit 1 when any."""
import re
import sys

NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r"[a-zA-Z_][a-zA-Z0-9_]*"
VALUE = r'"(?:[^"\\\n]|\\[\\"n])*"'
SAMPLE = re.compile(rf"^({NAME})(\{{(?:{LABEL}={VALUE}(?:,{LABEL}={VALUE})*,?)?\}})? "
                    r"([-+]?(?:[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?|NaN|[-+]?Inf))( -?[0-9]+)?$")
problems = []
types = {}
seen = set()
for no, line in enumerate(open(sys.argv[1]), 1):
    line = line.rstrip("\n")
    if not line:
        continue
    if line.startswith("#"):
        m = re.match(rf"^# (HELP|TYPE) ({NAME})(?: (.*))?$", line)
        if not m:
            if not re.match(r"^#( |$)", line):
                problems.append(f"{no}: bad comment: {line}")
            continue
        if m.group(1) == "TYPE":
            if m.group(3) not in ("counter", "gauge", "histogram", "summary", "untyped"):
                problems.append(f"{no}: bad type: {line}")
            if m.group(2) in types:
                problems.append(f"{no}: second TYPE for {m.group(2)}")
            types[m.group(2)] = m.group(3)
        continue
    m = SAMPLE.match(line)
    if not m:
        problems.append(f"{no}: not a sample: {line}")
        continue
    if m.group(1) not in types:
        problems.append(f"{no}: sample before its TYPE line: {m.group(1)}")
    key = (m.group(1), m.group(2) or "")
    if key in seen:
        problems.append(f"{no}: duplicate series: {line}")
    seen.add(key)
for p in problems[:10]:
    print(p)
sys.exit(1 if problems else 0)
