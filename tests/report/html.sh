#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# report.html: self-contained page, findings from --from inputs, headless Chromium check,
# and the "nothing lost" rules for bad --from inputs and unwritable directories.
. "$PERFLAB_SRCDIR/tests/lib.sh"
. "$PERFLAB_SRCDIR/tests/report/browser.sh"
FX=$PERFLAB_SRCDIR/tests/report/fixtures
export PERFLAB_TIMESTAMP=1780000000
R=$TMP/r

ok "report with --from check, bench and profile documents" "$PERFLAB" report --quick -o "$R" \
	--from "$FX/check-2.json" --from "$FX/bench-clock.json" --from "$FX/profile-burn.json"
for f in report.html report.md report.json; do
	ok "$f written" test -s "$R/$f"
done
is "generation time from PERFLAB_TIMESTAMP" "$(jqv "$R/report.json" .generated)" "2026-05-28T20:26:40Z"
is "merged findings" "$(jqv "$R/report.json" '[.check.findings[].id]|join(",")')" "clock.xen-tsc,sysctl.tcp-timestamps-off"
is "inputs recorded" "$(jqv "$R/report.json" '.inputs[0].file')" "$FX/check-2.json"
# clock came with --from: it is not measured again, and its one section names the file
is "bench document merged, clock not measured again" \
	"$(jqv "$R/report.json" '[.benchmarks[]|select(.benchmark=="clock")|.from]|join(",")')" "$FX/bench-clock.json"
is "measured results have no source file" "$(jqv "$R/report.json" '[.benchmarks[]|select(.from==null)|.benchmark]|index("clock")')" null
is "inputs lists the three files" "$(jqv "$R/report.json" '.inputs|length')" "3"
md=$(cat "$R/report.md")
like "markdown has the bench table, values in their units" "$md" '\| gettimeofday \| lower \| [0-9.]+ ns \|'
html=$(cat "$R/report.html")
like "html has a bar chart with units" "$html" '<svg class="chart" role="img".*'
like "html bench table has right-aligned numbers" "$html" '<td class="num">'
like "chart says which direction is better" "$html" '\(ns, lower is better(, log scale)?\)</title>'
like "html has the findings table" "$html" '<table id="findings-table">'
like "html escapes rationale text" "$html" '&lt;b&gt;not html&lt;/b&gt;'
like "severity is written as text, not only colour" "$html" '>CRIT</span>'
if grep -Eq '<(script|link|img)[^>]+(src|href)=' "$R/report.html"; then
	_report fail "no external resources" "$(grep -Eo '<(script|link|img)[^>]+' "$R/report.html" | head -3)"
else
	_report ok "no external resources"
fi

# The facts of this machine with the values that are long on other machines: a cloud
# image's kernel command line (kernel.cmdline.params, one long JSON text), a long
# unbroken value, and a long key and source path. The page must wrap them.
long=$(printf 'x%.0s' $(seq 300))
params=$(seq 40 | jq -R '{("param.name_\(.)"): "value,with,commas,\(.)"}' | jq -s add)
jq --argjson p "$params" --arg long "$long" '{schema_version: 1, facts: (.facts + {
	"kernel.cmdline.params": {value: $p, source: "/proc/cmdline"},
	"kernel.cmdline.initrd": {value: ("/boot/initrd.img-" + $long), source: "/proc/cmdline"},
	"sysctl.net.ipv4.conf.enp0s31f6_with_a_rather_long_interface_name.accept_redirects":
		{value: 0, source: "/proc/sys/net/ipv4/conf/enp0s31f6_with_a_rather_long_interface_name/accept_redirects"}})}' \
	"$R/report.json" >"$TMP/inspect-long.json"
L=$TMP/long
ok "report with long facts, a benchmark and a profile" "$PERFLAB" report --no-bench -o "$L" \
	--from "$TMP/inspect-long.json" --from "$FX/bench-clock.json" --from "$FX/profile-burn.json"
like "long values wrap after their commas" "$(cat "$L/report.html")" 'name_40=value,<wbr>with,<wbr>commas'

# Every kind of bench figure and a comparison: net's rates (7.2k/s to 111k/s) on one axis,
# io, mem, and the comparison table's metric names.
A=$TMP/all
ok "report with clock, net, mem, io and compare results" "$PERFLAB" report --no-bench -o "$A" \
	--from "$FX/bench-clock.json" --from "$FX/bench-net.json" --from "$FX/bench-mem.json" \
	--from "$FX/bench-io.json" --from "$FX/compare-sleep.json"
ah=$(cat "$A/report.html")
# clock's vDSO reads (10-97 ns) beside its system calls (2.6-3.5 us): a log axis, labelled
like "clock chart on a log scale, said above it" "$ah" 'class="axis better">lower is better, log scale</text>'
like "its ticks are whole decades" "$(sed -n '/id="bench-clock"/,/<\/svg>/p' "$A/report.html" | grep -o '<g class="scale">.*' |
	grep -o 'class="axis" text-anchor="[a-z]*">[^<]*' | sed 's/.*>//' | tr '\n' ' ')" '^10 ns 100 ns 1 us 10 us $'
like "charts as wide as their column (no viewBox, 100% wide)" "$ah" '<svg class="chart" role="img" xmlns="http://www.w3.org/2000/svg" width="100%" height="[0-9]+" font-size="14">'
unlike "no chart capped at a fixed width" "$ah" 'svg class="chart"[^>]*max-width'
like "a number kept with its unit in prose" "$ah" 'as a system call: <span class="nw">3\.455 us</span>'
like "metric names break at their natural points only" "$ah" '<td>clock_<wbr>gettime\(<wbr>MONOTONIC_<wbr>COARSE\)</td>'
unlike "no break-anywhere on metric names" "$(grep -o 'table.metrics td:first-child{[^}]*}' "$A/report.html")" 'anywhere|break-all'
# a rate 30 times another (3.6k/s beside 96k/s) is past PL_SVG_LOG_RATIO (20): log scale
jq '(.metrics[] | select(.name == "tcp_crr 64B rate") | .median) = 3600 |
	(.metrics[] | select(.name == "tcp_pp 64B rate") | .median) = 96000 |
	(.metrics[] | select(.name == "udp_stream 1400B receiver rate") | .median) = 50000' \
	"$FX/bench-net.json" >"$TMP/net30.json"
ok "report with net rates 3.6k/s to 96k/s" "$PERFLAB" report --no-bench -o "$TMP/n30" --from "$TMP/net30.json"
like "those rates on a log scale" "$(cat "$TMP/n30/report.html")" '\(1/s, higher is better, log scale\)</title>'
like "the fixture's rates (15x) stay linear" "$(cat "$A/report.html")" '\(1/s, higher is better\)</title>'

# Headless Chromium: console errors, findings rows, the layout at three widths (nothing
# wider than the page but inside a scrolling table wrapper, no number apart from its unit,
# no metric name broken inside a word, charts at least half their column, the facts
# table's columns, the flame graph in its frame), and screenshots as test artifacts.
browser_check "report.html" "$R/report.html" "$PERFLAB_BUILDDIR/report-screenshot.png" \
	"clock.xen-tsc,sysctl.tcp-timestamps-off" --flame
browser_check "report.html with long facts" "$L/report.html" \
	"$PERFLAB_BUILDDIR/report-long-screenshot.png" - --flame
browser_check "report.html with every kind of bench figure" "$A/report.html" \
	"$PERFLAB_BUILDDIR/report-all-screenshot.png" - --charts

# Bad inputs leave the earlier report untouched.
before=$(cat "$R"/report.* | md5sum)
echo '{"schema_version":2,"kind":"bench"}' >"$TMP/v2.json"
expect_exit 2 "--from another schema version" "$PERFLAB" report -o "$R" --from "$TMP/v2.json"
like "version error names the file" "$(cat "$ERR")" "v2.json' has schema_version 2"
printf '{"schema_version":1,"kind":"bench","res' >"$TMP/trunc.json"
expect_exit 2 "--from truncated JSON" "$PERFLAB" report -o "$R" --from "$TMP/trunc.json"
like "truncated JSON error names the file" "$(cat "$ERR")" "trunc.json"
echo '{"schema_version":1,"kind":"spreadsheet"}' >"$TMP/kind.json"
expect_exit 2 "--from unknown kind" "$PERFLAB" report -o "$R" --from "$TMP/kind.json"
expect_exit 2 "--from missing file" "$PERFLAB" report -o "$R" --from "$TMP/nope.json"
is "earlier report untouched" "$(cat "$R"/report.* | md5sum)" "$before"
is "no temporary files left" "$(ls -A "$R" | grep -c tmp)" "0"
touch "$TMP/afile"
expect_exit 2 "report directory is a file" "$PERFLAB" report -o "$TMP/afile"
expect_exit 2 "report directory cannot be created" "$PERFLAB" report -o "$TMP/afile/sub"
done_testing
