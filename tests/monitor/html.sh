#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# monitor.html (perflab report --from monitor.json) drawn from fixture documents: each y
# axis in one precision, no blank first interval (the first sample's rates end at its
# t_s: the time axis starts there), legend swatches in their series' colours, and a
# series with a missing value drawn with a gap, not a drop to 0 (htmlcheck.py).
. "$PERFLAB_SRCDIR/tests/lib.sh"
F=$PERFLAB_SRCDIR/tests/monitor/fixtures
check() { # NAME DIR
	if /usr/bin/python3 "$PERFLAB_SRCDIR/tests/monitor/htmlcheck.py" "$2/monitor.html" >"$TMP/hc" 2>&1; then
		_report ok "$1: $(tail -1 "$TMP/hc") pass"
	else
		_report fail "$1" "$(cat "$TMP/hc")"
	fi
}
ok "report --from a monitor document with a command" "$PERFLAB" report --from "$F/monitor-kvm2-cmd.json" -o "$TMP/a"
check "charts of a command's run" "$TMP/a"
like "the time axis starts at the first sample (0.203 s)" "$(cat "$TMP/a/monitor.html")" \
	'class="xtick">0\.203 s</text>'
like "the CPU axis reads 0 25 50 75 100 %" \
	"$(grep -o 'class="ytick">[^<]*' "$TMP/a/monitor.html" | head -5 | sed 's/.*>//' | tr '\n' ' ')" \
	'^0 25 50 75 100 % $'
# a second sample whose context-switch rate is missing: the line has a gap there
jq '.samples[1].ctxt_per_s = null' "$F/monitor-kvm2-cmd.json" >"$TMP/gap.json"
ok "report --from a document with a missing rate" "$PERFLAB" report --from "$TMP/gap.json" -o "$TMP/g"
check "charts with a missing rate" "$TMP/g"
is "the context-switch line is two pieces around the gap" \
	"$(sed -n 's/.*Interrupts, softirqs and context switches per second<\/title>//p' "$TMP/g/monitor.html" |
		grep -o '<polyline fill="none" stroke="#e15759"' | wc -l)" 2
done_testing
