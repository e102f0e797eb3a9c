#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Text that is not UTF-8 (a Latin-1 byte, 0xE9) in a symbol name, a compare variant name,
# a device name and a file name keeps every output valid: the flame graph SVG and the SVG
# charts parse as XML, report.html and monitor.html are UTF-8, the JSON documents parse,
# and each such byte reads back as the text \xe9 (util/escape.h), the same in every output.
. "$PERFLAB_SRCDIR/tests/lib.sh"
PY=/usr/bin/python3
export PERFLAB_TIMESTAMP=1780000000
E=$(printf '\xe9')

xml_ok() { # NAME FILE: FILE parses as XML
	if "$PY" -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$2" >"$TMP/py" 2>&1; then
		_report ok "$1"
	else
		_report fail "$1" "$(tail -1 "$TMP/py")"
	fi
}

utf8_ok() { # NAME FILE: FILE is UTF-8 and each <svg>...</svg> in it parses as XML
	if "$PY" - "$2" >"$TMP/py" 2>&1 <<'EOF'; then
import re, sys, xml.etree.ElementTree as E
text = open(sys.argv[1], "rb").read().decode("utf-8")
svgs = re.findall(r"<svg\b.*?</svg>", text, re.S)
for s in svgs:
    E.fromstring(s)
print(len(svgs))
EOF
		_report ok "$1 ($(cat "$TMP/py") SVG charts parse)"
	else
		_report fail "$1" "$(tail -1 "$TMP/py")"
	fi
}

json_ok() { # NAME FILE: FILE parses with jq and with python
	if jq -e . "$2" >/dev/null 2>&1 && "$PY" -c 'import json, sys; json.load(open(sys.argv[1], "rb"))' "$2" 2>/dev/null; then
		_report ok "$1"
	else
		_report fail "$1" "$(head -c 300 "$2")"
	fi
}

# --- profile --from-folded --svg: a symbol name with 0xE9, one with a control byte ----------
printf 'main;caf%s;leaf 5\nmain;b\001x 3\nmain;%s 2\n' "$E" "$(printf 'x%.0s' $(seq 40))$E" >"$TMP/in.folded"
ok "folded stacks with a 0xE9 byte draw" "$PERFLAB" profile --from-folded "$TMP/in.folded" --svg "$TMP/f.svg"
xml_ok "flame graph SVG parses as XML" "$TMP/f.svg"
like "the byte reads \\xe9 in the SVG" "$(cat "$TMP/f.svg")" 'caf\\xe9 \(5 samples'
like "a control byte reads \\x01" "$(cat "$TMP/f.svg")" 'b\\x01x \(3 samples'

# --- compare: a variant name with 0xE9, then report --from its document ----------------
"$PERFLAB" compare --json --runs 1 --warmup 0 -n "caf$E" -- /bin/true -n plain -- /bin/true \
	>"$TMP/c.json" 2>"$ERR"
json_ok "compare JSON with a 0xE9 variant name parses" "$TMP/c.json"
is "the variant name reads caf\\xe9" "$(jq -r '.variants[0].name' "$TMP/c.json")" 'caf\xe9'
cp "$TMP/c.json" "$TMP/caf$E.json"
ok "report --from a compare document (file name with 0xE9)" "$PERFLAB" report --no-bench \
	-o "$TMP/r" --from "$TMP/caf$E.json"
utf8_ok "report.html is UTF-8" "$TMP/r/report.html"
json_ok "report.json parses" "$TMP/r/report.json"
like "report.html names the variant caf\\xe9" "$(cat "$TMP/r/report.html")" 'caf\\xe9'

# --- JSON with a raw 0xE9 byte is refused: one line, exit 2, the message UTF-8 ----------
sed "s/\"plain\"/\"pl$E\"/" "$TMP/c.json" >"$TMP/raw.json"
expect_exit 2 "report --from JSON with a raw 0xE9 byte: exit 2" "$PERFLAB" report --no-bench \
	-o "$TMP/r2" --from "$TMP/raw.json"
like "the error names the file" "$(cat "$ERR")" 'raw\.json'
is "the error is one line" "$(wc -l <"$ERR")" 1
if "$PY" -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$ERR" 2>/dev/null; then
	_report ok "the error is UTF-8"
else
	_report fail "the error is UTF-8" "$(od -c "$ERR" | head -3)"
fi

# --- monitor: device names with 0xE9 (a fixture sysroot), a document name with 0xE9 -------
F=$PERFLAB_SRCDIR/tests/monitor/fixtures
R=$TMP/root
mkdir -p "$R/proc/net" "$R/proc/pressure"
for f in stat loadavg interrupts softirqs vmstat diskstats net-dev net-snmp net-netstat pressure-cpu pressure-io; do
	cp "$F/kvm2-$f.a" "$R/proc/$(echo "$f" | tr - /)"
done
sed -i "s/ vda / vd$E /" "$R/proc/diskstats"
sed -i "s/^ *lo:/  l$E:/" "$R/proc/net/dev"
M=$TMP/mon$E.json
ok "monitor with device names with 0xE9" "$PERFLAB" monitor --sysroot "$R" -I 0.1 -d 0.25 --json -o "$M"
json_ok "monitor JSON parses" "$M"
is "the disk name reads vd\\xe9" \
	"$(jq -r '[.samples[0].disks[].name] | map(select(startswith("vd"))) | .[0]' "$M")" 'vd\xe9'
ok "report --from the monitor document" "$PERFLAB" report --from "$M" -o "$TMP/m"
utf8_ok "monitor.html is UTF-8" "$TMP/m/monitor.html"
like "monitor.html names the document mon\\xe9.json" "$(cat "$TMP/m/monitor.html")" 'mon\\xe9\.json'
done_testing
