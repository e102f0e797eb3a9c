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
like "chart says which direction is better" "$html" '\(ns, lower is better\)</title>' 
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

# Headless Chromium: console errors, findings rows, the layout at two widths (nothing
# wider than the page, the facts table's columns, the flame graph in its frame), and
# full-page screenshots at both widths as test artifacts.
browser_check "report.html" "$R/report.html" "$PERFLAB_BUILDDIR/report-screenshot.png" \
	"clock.xen-tsc,sysctl.tcp-timestamps-off" --flame
browser_check "report.html with long facts" "$L/report.html" \
	"$PERFLAB_BUILDDIR/report-long-screenshot.png" - --flame

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
