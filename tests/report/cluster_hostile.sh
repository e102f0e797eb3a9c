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
like "report.md: the backtick value is not a code span" "$(cat "$C/report.md")" \
	'\| mem.thp.enabled \| a\\`b\\\|c d \(3 nodes\)'
H=$(cat "$C/report.html")
like "report.html: the markup is escaped" "$H" '&lt;script&gt;alert\(1\)&lt;/script&gt;'
like "report.md: the markup as entities" "$(cat "$C/report.md")" '\| &lt;script&gt;alert\(1\)&lt;/script&gt;\\\|x \|'
if grep -q '<script>alert' "$C/report.md"; then
	_report fail "report.md: no raw <script> from a hostname"
else _report ok "report.md: no raw <script> from a hostname"; fi
if printf '%s' "$H" | grep -q '<script>alert'; then
	_report fail "report.html: no raw <script> from a hostname"
else _report ok "report.html: no raw <script> from a hostname"; fi

done_testing
