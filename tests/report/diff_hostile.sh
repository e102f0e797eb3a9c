#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab diff with inputs built to cost: 10,000 findings a side must take about ten
# times 1,000's, not a hundred (findings are matched through a hash, not a scan);
# medians near the double's range give a short percentage, not hundreds of digits;
# documents past the limits (64 MiB, 100,000 findings) are refused with exit 2 and one
# line naming the file and the limit.
. "$PERFLAB_SRCDIR/tests/lib.sh"
D=$PERFLAB_SRCDIR/tests/report/fixtures/diff
export PERFLAB_TIMESTAMP=1780000000

# ---- huge and tiny relative changes ----
# longpct: the percentages of $OUT longer than 16 characters
longpct() { grep -oE '[-+][0-9][0-9.e+-]*%' "$OUT" | awk 'length > 16'; }
jq '.metrics[0].median = 100' "$D/bench-old.json" >"$TMP/b-old.json"
jq '.metrics[0].median = 1e308' "$D/bench-old.json" >"$TMP/b-new.json"
ok "diff of medians 100 -> 1e308" "$PERFLAB" diff "$TMP/b-old.json" "$TMP/b-new.json"
T=$(cat "$OUT")
like "the change is written short" "$T" '\+1e\+308%'
is "no percentage longer than 16 characters" "$(longpct)" ""
ok "the same in report.md form (--json keeps the number)" "$PERFLAB" diff --json \
	"$TMP/b-old.json" "$TMP/b-new.json"
is "JSON: change_pct as a number" "$(jq -r '.benchmarks.figures[0].change_pct' "$OUT")" "1e+308"
jq '.metrics[0].median = 1e-300' "$D/bench-old.json" >"$TMP/b-tiny.json"
ok "diff of medians 1e-300 -> 1e308 (an infinite change)" "$PERFLAB" diff \
	"$TMP/b-tiny.json" "$TMP/b-new.json"
is "no percentage longer than 16 characters" "$(longpct)" ""
jq '.metrics[0].median = 100.0000001' "$D/bench-old.json" >"$TMP/b-near.json"
ok "diff of a tiny change" "$PERFLAB" diff "$TMP/b-old.json" "$TMP/b-near.json"
like "a tiny change reads +0.0%" "$(cat "$OUT")" ' \+0\.0%'

# ---- many findings: near-linear ----
"$PERFLAB" report --sysroot "$FIXTURES/sysroots/intel-2s" --no-bench -o "$TMP/base" >/dev/null 2>&1
# findings N OUT OBS: the base report with N copies of its first finding as r.I (subject
# sI, observed OBS-I for even I, "same" for odd I); facts cut to a few (jq rounds
# integers past 2^53)
findings() {
	jq --argjson n "$1" --arg o "$3" '.facts |= with_entries(select(.key|startswith("kernel.")))
		| .check.findings[0] as $f | .check.findings = [range(0; $n) | $f + {id: "r.\(.)",
		subject: "s\(.)", observed: (if . % 2 == 0 then "\($o)-\(.)" else "same" end)}
		| .rationale = "r" | .source = "s" | .title = "t" | del(.evidence)]' \
		"$TMP/base/report.json" >"$2"
}
findings 1000 "$TMP/s-old.json" a
findings 1000 "$TMP/s-new.json" b
findings 10000 "$TMP/l-old.json" a
findings 10000 "$TMP/l-new.json" b
now() { date +%s.%N; }
t0=$(now)
ok "diff of 1,000 findings a side" "$PERFLAB" diff --json "$TMP/s-old.json" "$TMP/s-new.json"
t1=$(now)
is "1,000: half of them changed" "$(jq '.summary.findings_changed' "$OUT")" "500"
t2=$(now)
ok "diff of 10,000 findings a side" "$PERFLAB" diff --json "$TMP/l-old.json" "$TMP/l-new.json"
t3=$(now)
is "10,000: half of them changed" "$(jq '.summary.findings_changed' "$OUT")" "5000"
small=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
big=$(awk -v a="$t2" -v b="$t3" 'BEGIN { printf "%.2f", b - a }')
if awk -v b="$big" -v s="$small" 'BEGIN { exit !(b <= 5 * s + 10) }'; then
	_report ok "10,000 findings take about 10x 1,000's (${big}s vs ${small}s)"
else
	_report fail "10,000 findings take about 10x 1,000's" "${big}s vs ${small}s: quadratic?"
fi

# ---- limits ----
{ head -c $((64 * 1024 * 1024)) /dev/zero | tr '\0' ' '; cat "$TMP/s-old.json"; } >"$TMP/huge.json"
expect_exit 2 "a document over 64 MiB: exit 2" "$PERFLAB" diff "$TMP/huge.json" "$TMP/s-new.json"
is "one line naming the file and the limit" "$(cat "$ERR")" \
	"perflab diff: error: '$TMP/huge.json' is larger than 64 MiB, the most perflab reads of a document"
findings 100001 "$TMP/many.json" a
expect_exit 2 "100,001 findings: exit 2" "$PERFLAB" diff "$TMP/many.json" "$TMP/s-new.json"
is "one line naming the file and the limit" "$(cat "$ERR")" \
	"perflab diff: error: '$TMP/many.json' holds 100001 findings; perflab takes at most 100000 per document"
expect_exit 2 "a missing file: exit 2, jansson's reason" "$PERFLAB" diff "$TMP/nope.json" "$TMP/s-new.json"
like "the reason names the file" "$(cat "$ERR")" "cannot read JSON from '$TMP/nope.json': unable to open"
done_testing
