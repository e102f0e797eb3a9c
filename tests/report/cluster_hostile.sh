#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The cluster report (`perflab report --from A --from B ...`) with hostile node documents:
# hostnames and fact values holding terminal control sequences, Markdown and HTML
# metacharacters; hostnames that collide once made unique ("dup", "dup", "dup#2") or
# share a long prefix. The terminal shows controls as \xNN, report.md keeps one table row
# per fact, report.html escapes markup, and every node keeps a name of its own.
. "$PERFLAB_SRCDIR/tests/lib.sh"
export PERFLAB_TIMESTAMP=1700000000

"$PERFLAB" report --sysroot "$FIXTURES/sysroots/intel-2s" --no-bench -o "$TMP/base" >/dev/null 2>&1
B=$TMP/base/report.json
ok "a node report to copy" test -s "$B"
# node OUT HOSTNAME [JQ]: the base report with machine.hostname HOSTNAME, then JQ (jq
# rounds integers past 2^53, which perflab then refuses: those facts are left out)
node() {
	jq --arg h "$2" '.facts |= with_entries(select((.value.value|type) != "number" or
		(.value.value < 1e15 and .value.value > -1e15))) | .machine.hostname = $h | '"${3:-.}" \
		"$B" >"$1"
}
has_ctrl() { LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$1"; }

# ---- control sequences in names and values ----
evil=$'evil\e[2J\rforged'
node "$TMP/e1.json" "$evil" '.facts["kernel.release"].value = "v\u001b[31mred"'
node "$TMP/e2.json" "$evil" '.facts["mem.thp.enabled"].value = "a`b|c\nd"'
node "$TMP/e3.json" '<script>alert(1)</script>|x' \
	'.facts["mem.thp.enabled"].value = "a`b|c\nd"'
node "$TMP/e4.json" 'n4' '.facts["mem.thp.enabled"].value = "a`b|c\nd"'
C=$TMP/ce
ok "cluster report of nodes with control characters" "$PERFLAB" report -o "$C" \
	--from "$TMP/e1.json" --from "$TMP/e2.json" --from "$TMP/e3.json" --from "$TMP/e4.json"
cp "$OUT" "$TMP/summary"
if has_ctrl "$TMP/summary"; then
	_report fail "terminal summary: no control characters" "$(od -c "$TMP/summary" | head -20)"
else _report ok "terminal summary: no control characters"; fi
like "terminal summary: the hostname escaped" "$(cat "$TMP/summary")" 'evil\\x1b\[2J\\x0dforged'
like "terminal summary: the fact value escaped" "$(cat "$TMP/summary")" 'THP a`b\|c\\x0ad'
is "JSON keeps the names as they are" "$(jqv "$C/report.json" '.nodes[0].name')" "$evil"
if has_ctrl "$C/report.md"; then
	_report fail "report.md: no control characters" "$(grep -n $'\e' "$C/report.md" | head)"
else _report ok "report.md: no control characters"; fi
is "report.md: the THP drift row is one line" \
	"$(grep -c '^| mem.thp.enabled | ' "$C/report.md")" "1"
like "report.md: the backtick value is a code span that a backtick cannot end" "$(cat "$C/report.md")" \
	'\| mem.thp.enabled \| ``a`b\\\|c d`` \(3 nodes\)'
H=$(cat "$C/report.html")
like "report.html: the markup is escaped" "$H" '&lt;script&gt;alert\(1\)&lt;/script&gt;'
like "report.md: the markup as escaped entities" "$(cat "$C/report.md")" '\| \\&lt;script\\&gt;alert\(1\)\\&lt;/script\\&gt;\\\|x \|'
if grep -q '<script>alert' "$C/report.md"; then
	_report fail "report.md: no raw <script> from a hostname"
else _report ok "report.md: no raw <script> from a hostname"; fi
if printf '%s' "$H" | grep -q '<script>alert'; then
	_report fail "report.html: no raw <script> from a hostname"
else _report ok "report.html: no raw <script> from a hostname"; fi

# ---- many folded facts: near-linear ----
# facts N OUT HOST V: a node whose N facts cpu.I.test.v (folded into one key) hold VI
facts() {
	jq --argjson n "$1" --arg h "$3" --arg v "$4" '.machine.hostname = $h | .facts =
		([range(0; $n) | {key: "cpu.\(.).test.v", value: {value: "\($v)\(.)",
		source: "/x"}}] | from_entries)' "$B" >"$2"
}
facts 1000 "$TMP/fs1.json" a v
facts 1000 "$TMP/fs2.json" b w
facts 10000 "$TMP/fl1.json" a v
facts 10000 "$TMP/fl2.json" b w
now() { date +%s.%N; }
t0=$(now)
ok "cluster of two nodes with 1,000 folded facts" "$PERFLAB" report -o "$TMP/cs" --json \
	--from "$TMP/fs1.json" --from "$TMP/fs2.json"
t1=$(now)
is "1,000: one drifting key" "$(jq -r '.drift.facts|map(.key)|join(",")' "$OUT")" "cpu.*.test.v"
t2=$(now)
ok "cluster of two nodes with 10,000 folded facts" "$PERFLAB" report -o "$TMP/cl" --json \
	--from "$TMP/fl1.json" --from "$TMP/fl2.json"
t3=$(now)
is "10,000: the folded value lists every value" \
	"$(jq -r '.drift.facts[0].values[0].value|split(", ")|length' "$OUT")" "10000"
small=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
big=$(awk -v a="$t2" -v b="$t3" 'BEGIN { printf "%.2f", b - a }')
if awk -v b="$big" -v s="$small" 'BEGIN { exit !(b <= 5 * s + 3) }'; then
	_report ok "10,000 folded facts take about 10x 1,000's (${big}s vs ${small}s)"
else
	_report fail "10,000 folded facts take about 10x 1,000's" "${big}s vs ${small}s: quadratic?"
fi

# ---- limits: exit 2, one line ----
{ head -c $((64 * 1024 * 1024)) /dev/zero | tr '\0' ' '; cat "$TMP/fs1.json"; } >"$TMP/huge.json"
expect_exit 2 "a node document over 64 MiB: exit 2" "$PERFLAB" report -o "$TMP/cx" \
	--from "$TMP/huge.json" --from "$TMP/fs2.json"
like "one line naming the file and the limit" "$(wc -l <"$ERR") $(cat "$ERR")" \
	"^1 perflab report: error: --from: cannot read JSON from '$TMP/huge.json': [0-9]+ bytes, more than the 64 MiB an input may have$"
facts 200001 "$TMP/many.json" a v
expect_exit 2 "200,001 facts: exit 2" "$PERFLAB" report -o "$TMP/cx" --from "$TMP/many.json" \
	--from "$TMP/fs2.json"
is "one line naming the file and the limit" "$(cat "$ERR")" \
	"perflab report: error: --from: '$TMP/many.json' holds 200001 facts; perflab takes at most 200000 per document"
ok "nothing written" test ! -e "$TMP/cx"

# ---- names: distinct whatever the hostnames ----
node "$TMP/d1.json" dup
node "$TMP/d2.json" dup
node "$TMP/d3.json" 'dup#2'
long=$(printf 'h%.0s' $(seq 300))
node "$TMP/l1.json" "${long}a"
node "$TMP/l2.json" "${long}b"
C=$TMP/cd
ok "cluster report of dup, dup, dup#2 and two long names" "$PERFLAB" report -o "$C" --json \
	--from "$TMP/d1.json" --from "$TMP/d2.json" --from "$TMP/d3.json" --from "$TMP/l1.json" \
	--from "$TMP/l2.json"
is "five nodes, five names" "$(jq -r '[.nodes[].name]|unique|length' "$OUT")" "5"
is "the real dup#2 keeps its name; the second dup gets another" \
	"$(jq -r '[.nodes[0,1,2].name]|join(" ")' "$OUT")" "dup dup#3 dup#2"
is "long hostnames that share 300 bytes stay two nodes" \
	"$(jq -r --arg l "$long" '[.nodes[3,4].name|ltrimstr($l)]|join(" ")' "$OUT")" "a b"
done_testing
