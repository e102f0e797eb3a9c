#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Golden test: report.md and report.json over fixture inputs (the xen-hvm sysroot and saved
# bench, compare, profile and tune diff documents), at a fixed time. After an intended
# change, refresh with: tests/report/golden.sh --update (needs $PERFLAB and $PERFLAB_SRCDIR
# set; tests/report/fixtures/README.md says how each input was made) and review the diff.
. "$PERFLAB_SRCDIR/tests/lib.sh"
. "$PERFLAB_SRCDIR/tests/report/browser.sh"
FX=$PERFLAB_SRCDIR/tests/report/fixtures
GOLD=$PERFLAB_SRCDIR/tests/report/golden
export PERFLAB_TIMESTAMP=1780000000

make_report() { # DIR
	(cd "$FX" && "$PERFLAB" report --no-bench -o "$1" \
		--sysroot "$PERFLAB_SRCDIR/tests/fixtures/sysroots/xen-hvm" \
		--from bench-clock.json --from bench-io.json --from compare-sleep.json --from profile-burn.json \
		--from tune-diff-cloud.json) >/dev/null
	# the version changes with every release; everything else must not change
	sed -i 's/perflab 0\.[0-9]*\.[0-9]*\b/perflab VERSION/g' "$1/report.md"
	jq --sort-keys '.perflab_version = "VERSION"' "$1/report.json" >"$1/report.norm.json"
}

if [ "${1:-}" = --update ]; then
	make_report "$TMP/g"
	cp "$TMP/g/report.md" "$GOLD/report.md"
	cp "$TMP/g/report.norm.json" "$GOLD/report.json"
	echo "golden files updated in $GOLD"
	exit 0
fi

make_report "$TMP/g"
if diff -u "$GOLD/report.md" "$TMP/g/report.md" >"$TMP/d.md"; then
	_report ok "report.md equals the golden file"
else
	_report fail "report.md equals the golden file" "$(head -40 "$TMP/d.md")"
fi
if diff -u "$GOLD/report.json" "$TMP/g/report.norm.json" >"$TMP/d.json"; then
	_report ok "report.json equals the golden file"
else
	_report fail "report.json equals the golden file" "$(head -40 "$TMP/d.json")"
fi
validate report.schema.json "$TMP/g/report.json"
is "every section present" "$(jq -c '[.benchmarks,.comparisons,.profiles,.tune]|map(length)' "$TMP/g/report.json")" "[2,1,1,1]"
# the HTML of the same inputs: flame graph and comparison in headless Chromium
browser_check "report.html with a profile" "$TMP/g/report.html" \
	"$PERFLAB_BUILDDIR/report-golden-screenshot.png" "-" --flame
like "html: comparison table" "$(cat "$TMP/g/report.html")" '<table class="comparison">'
like "html: tune items" "$(cat "$TMP/g/report.html")" '<table class="tune-items">'
done_testing
