#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 14, key numbers and findings backed by measurements, over a fixture: the xen-hvm
# tree (clocksource xen, so clock.xen-tsc fires) with a saved bench clock result of a Xen
# guest (tests/report/fixtures/bench-clock-xen.json: gettimeofday 1234 ns through the
# system call, 1250 ns forced) shows the evidence line under the finding in the terminal,
# report.md, report.html and report.json, and the key numbers open every output with the
# clock figure, its call path, its reference and its caveat. Derived members that come with
# --from inputs are recomputed, never trusted.
. "$PERFLAB_SRCDIR/tests/lib.sh"
# report.html as text: without the markup that only steers line breaks (a number kept
# with its unit, a metric name's break points; browser.py checks those)
html_text() { sed -E 's#<span class="nw">([^<]*)</span>#\1#g; s#<wbr>##g' "$@"; }
FX=$PERFLAB_SRCDIR/tests/fixtures/sysroots/xen-hvm
CLK=$PERFLAB_SRCDIR/tests/report/fixtures/bench-clock-xen.json
export PERFLAB_TIMESTAMP=1700000000
LINE="gettimeofday costs 1.234 us here (via syscall); 1.25 us as a system call"
LINE_RE="gettimeofday costs 1\.234 us here \(via syscall\); 1\.25 us as a system call"

R=$TMP/r
ok "report over xen-hvm with a Xen clock result" "$PERFLAB" report --sysroot "$FX" --from "$CLK" -o "$R"
S=$(cat "$OUT")
J=$R/report.json
validate report.schema.json "$J"
jq '.check' "$J" >"$TMP/check.json"
validate check.schema.json "$TMP/check.json"

# the finding and its evidence, in all four outputs
is "json: clock.xen-tsc has the evidence" \
	"$(jqv "$J" '.check.findings[]|select(.id=="clock.xen-tsc")|.evidence.text')" "$LINE"
is "json: evidence names its benchmark and metrics" \
	"$(jqv "$J" '.check.findings[]|select(.id=="clock.xen-tsc")|.evidence|[.benchmark]+[.metrics[]|"\(.name)=\(.median) \(.unit)"]|join(",")')" \
	"clock,gettimeofday=1234 ns,gettimeofday [syscall]=1250 ns"
is "json: only findings whose rule has evidence get it" \
	"$(jqv "$J" '[.check.findings[]|select(.evidence)|.id]|join(",")')" "clock.xen-tsc"
is "terminal: the evidence under the finding and its fix" \
	"$(grep -A2 '^  \[warn\] clocksource is xen although an invariant TSC is available$' "$OUT" | sed -n 2,3p | cut -c1-20)" \
	"         fix: echo t
         measured: g"
is "terminal: the evidence line" "$(grep '^         measured: ' "$OUT")" "         measured: $LINE"
like "md: the evidence after the rationale" "$(cat "$R/report.md")" \
	"\*\*clock\.xen-tsc\*\*: The xen pvclock .* \*\*Measured here:\*\* $LINE_RE \(\[bench clock\]\(#bench-clock\)\)\."
H=$(html_text "$R/report.html")
like "html: the evidence in the finding's row" "$H" \
	"<tr class=\"finding\" data-id=\"clock.xen-tsc\">.*<div class=\"evidence\"><b>Measured here:</b> $LINE_RE \(<a href=\"#bench-clock\">bench clock</a>\)</div>"
like "html: the link has its target" "$H" '<section class="bench" id="bench-clock"'

# key numbers: first in every output, with the clock's context
is "json: key numbers rows" "$(jqv "$J" '[.key_numbers[].name]|join(",")')" \
	"machine,findings,time read,syscall,memory,io bandwidth,io IOPS,loopback RTT,compression"
is "json: time read is the fixture's median" "$(jqv "$J" '.key_numbers[2]|"\(.value) \(.unit) \(.text)"')" "1234 ns 1.234 us"
is "json: time read says it is a system call" "$(jqv "$J" '.key_numbers[2].detail')" \
	"gettimeofday, a system call (no vDSO here)"
is "json: the clock's reference is the forced system call" "$(jqv "$J" '.key_numbers[2].reference')" \
	"as a system call: 1.25 us"
is "json: a quick run's caveat" "$(jqv "$J" '.key_numbers[2].caveats|join(";")')" "quick run"
is "json: the findings row counts by severity" "$(jqv "$J" '.key_numbers[1].text')" \
	"$(jqv "$J" '.check.summary|"\(.crit) crit, \(.warn) warn, \(.info) info"')"
is "json: machine row is the machine line" "$(jqv "$J" '.key_numbers[0].text')" \
	"ip-172-31-7-41: Intel(R) Xeon(R) CPU E5-2686 v4 @ 2.30GHz, 4 CPUs, 60.00 GiB, xen, Linux 5.10.0-28-cloud-amd64, clocksource xen"
is "json: benchmarks not in the report: no value, no link" \
	"$(jqv "$J" '[.key_numbers[3:][]|select(.value==null and .section=="" and (.text|startswith("not measured (perflab bench ")))]|length')" 6
is "terminal: the machine line first" "$(head -1 "$OUT")" "$(jqv "$J" '.key_numbers[0].text')"
is "terminal: the time read row" "$(sed -n 3p "$OUT")" \
	"  time read     1.234 us  gettimeofday, a system call (no vDSO here); as a system call: 1.25 us  [quick run]"
is "md: key numbers right after the title" "$(sed -n 5p "$R/report.md")" "## Key numbers"
like "md: the time read row" "$(cat "$R/report.md")" \
	'\| \[time read\]\(#bench-clock\) \| 1\.234 us \| gettimeofday, a system call \(no vDSO here\) \| as a system call: 1\.25 us \| quick run \|'
like "html: key numbers before the findings" "$(grep -o 'id="key-numbers"\|id="findings"' "$R/report.html" | tr '\n' ' ')" \
	'^id="key-numbers" id="findings"'
like "html: the time read row" "$H" \
	'<tr><th><a href="#bench-clock">time read</a></th><td class="num"><b>1.234 us</b></td><td>gettimeofday, a system call \(no vDSO here\)</td><td>as a system call: 1.25 us</td><td><ul class="caveats"><li>quick run</li></ul></td></tr>'

# a skipped clock result: no evidence, the row says why
jq '.status="skipped" | .reason="not here" | .metrics=[]' "$CLK" >"$TMP/skipped.json"
ok "report with a skipped clock result" "$PERFLAB" report --sysroot "$FX" --from "$TMP/skipped.json" -o "$TMP/s"
is "skipped: no evidence" "$(jqv "$TMP/s/report.json" '[.check.findings[]|select(.evidence)]|length')" 0
is "skipped: the row says why" "$(jqv "$TMP/s/report.json" '.key_numbers[2].text')" "skipped: not here"
is "skipped: and links the section that says it" "$(jqv "$TMP/s/report.json" '.key_numbers[2].section')" "bench-clock"

# derived members of --from inputs are recomputed: a saved report with other key numbers,
# a check document with forged evidence (of any type)
# (python keeps the 64-bit integers of the facts that jq would round)
python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
d["key_numbers"] = [{"name": "forged"}]
d["check"]["findings"][0]["evidence"] = {"text": "forged"}
json.dump(d, open(sys.argv[2], "w"))' "$J" "$TMP/old.json"
ok "report --from an earlier report" "$PERFLAB" report --sysroot "$FX" --from "$TMP/old.json" -o "$TMP/o"
is "earlier key numbers replaced" "$(jqv "$TMP/o/report.json" '.key_numbers[0].name')" machine
is "earlier evidence recomputed from the benchmarks" \
	"$(jqv "$TMP/o/report.json" '.check.findings[]|select(.id=="clock.xen-tsc")|.evidence.text')" "$LINE"
jq '.check | .findings[0].evidence=5' "$J" >"$TMP/c.json"
ok "report --from a check document with a bad evidence member" "$PERFLAB" report --sysroot "$FX" --from "$TMP/c.json" -o "$TMP/c"
is "bad evidence dropped" "$(jqv "$TMP/c/report.json" '[.check.findings[]|select(.evidence)]|length')" 0
validate report.schema.json "$TMP/c/report.json"
like "md of it has no evidence" "$(grep -c 'Measured here' "$TMP/c/report.md")" '^0$'
done_testing
