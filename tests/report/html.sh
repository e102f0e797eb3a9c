#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# report.html: self-contained page, findings from --from inputs, headless Chromium check,
# and the "nothing lost" rules for bad --from inputs and unwritable directories.
. "$PERFLAB_SRCDIR/tests/lib.sh"
FX=$PERFLAB_SRCDIR/tests/report/fixtures
export PERFLAB_TIMESTAMP=1780000000
R=$TMP/r

ok "report with --from check and bench documents" "$PERFLAB" report -o "$R" \
	--from "$FX/check-2.json" --from "$FX/bench-clock.json"
for f in report.html report.md report.json; do
	ok "$f written" test -s "$R/$f"
done
is "generation time from PERFLAB_TIMESTAMP" "$(jqv "$R/report.json" .generated)" "2026-05-28T20:26:40Z"
is "merged findings" "$(jqv "$R/report.json" '[.check.findings[].id]|join(",")')" "clock.xen-tsc,sysctl.tcp-timestamps-off"
is "inputs recorded" "$(jqv "$R/report.json" '.inputs[0].file')" "$FX/check-2.json"
is "bench document merged" "$(jqv "$R/report.json" '.benchmarks[0].benchmark')" "clock"
is "inputs lists both files" "$(jqv "$R/report.json" '.inputs|length')" "2"
md=$(cat "$R/report.md")
like "markdown has the bench table" "$md" '\| gettimeofday \| ns \|'
html=$(cat "$R/report.html")
like "html has a bar chart with units" "$html" '<svg class="chart" role="img".*'
like "html bench table has right-aligned numbers" "$html" '<td class="num">'
like "chart says which direction is better" "$html" 'ns \(lower is better\)' 
like "html has the findings table" "$html" '<table id="findings-table">'
like "html escapes rationale text" "$html" '&lt;b&gt;not html&lt;/b&gt;'
like "severity is written as text, not only colour" "$html" '>CRIT</span>'
if grep -Eq '<(script|link|img)[^>]+(src|href)=' "$R/report.html"; then
	_report fail "no external resources" "$(grep -Eo '<(script|link|img)[^>]+' "$R/report.html" | head -3)"
else
	_report ok "no external resources"
fi

# Headless Chromium: console errors, findings rows, screenshot as a test artifact.
shot=$PERFLAB_BUILDDIR/report-screenshot.png
if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
	/usr/bin/python3 "$PERFLAB_SRCDIR/tests/report/browser.py" "$R/report.html" "$shot" \
		"clock.xen-tsc,sysctl.tcp-timestamps-off" >"$TMP/tap" 2>&1
	while IFS= read -r line; do
		case "$line" in
		"ok "*) _report ok "chromium: ${line#ok * - }" ;;
		"not ok "*) _report fail "chromium: ${line#not ok * - }" "$(grep '^#' "$TMP/tap")" ;;
		esac
	done <"$TMP/tap"
else
	skip "report.html in headless chromium" "chromium/chromedriver not installed"
fi

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
