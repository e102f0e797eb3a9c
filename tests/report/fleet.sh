#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The fleet report from snapshots: `perflab report --fleet SNAPSHOT...` (or a directory of
# them). Snapshots of three fixture trees (intel-2s, xen-hvm, arm64-2node: different
# kernels, CPUs, clocksources) and of intel-2s without a hostname are the fleet. The
# drift rows are the facts whose values really differ (each node's value as inspect
# --sysroot gives it), each node's findings are those of check --sysroot on its snapshot,
# the nodes are named by the hostname in the facts (the file name when there is none;
# a repeated hostname gets #2), and the document is the one report --from builds from the
# nodes' report --no-bench --sysroot documents. A corrupt snapshot among them is exit 2
# naming it, and nothing is written.
. "$PERFLAB_SRCDIR/tests/lib.sh"
. "$PERFLAB_SRCDIR/tests/report/browser.sh"
export PERFLAB_TIMESTAMP=1700000000

S=$TMP/snaps
mkdir -p "$S" "$TMP/trees"
snap() { # TREE OUT: a snapshot of fixture tree TREE
	"$PERFLAB" snapshot --sysroot "$1" -o "$2" 2>>"$TMP/snap.err" || echo "snapshot of $1 failed"
}
snap "$FIXTURES/sysroots/intel-2s" "$S/a-intel.tar.zst"
snap "$FIXTURES/sysroots/xen-hvm" "$S/b-xen.tar.zst"
snap "$FIXTURES/sysroots/arm64-2node" "$S/c-arm.tar.zst"
cp -r "$FIXTURES/sysroots/intel-2s" "$TMP/trees/nohost"
rm -f "$TMP/trees/nohost/proc/sys/kernel/hostname" "$TMP/trees/nohost/etc/hostname"
snap "$TMP/trees/nohost" "$TMP/nameless.tar.zst"
ok "three fixture snapshots and a nameless one" test -s "$S/a-intel.tar.zst" -a -s "$S/b-xen.tar.zst" \
	-a -s "$S/c-arm.tar.zst" -a -s "$TMP/nameless.tar.zst"

F=$TMP/fleet
ok "report --fleet of three snapshots" "$PERFLAB" report --fleet "$S/a-intel.tar.zst" \
	"$S/b-xen.tar.zst" "$S/c-arm.tar.zst" -o "$F"
J=$F/report.json
like "terminal summary: the node count" "$(cat "$OUT")" 'cluster: 3 nodes \(3 ok, 0 failed\)'
ok "report.json, report.md, report.html written" test -s "$J" -a -s "$F/report.md" -a -s "$F/report.html"
validate cluster.schema.json "$J"
is "nodes named by the facts' hostname, in argument order" "$(jqv "$J" '[.nodes[].name]|join(",")')" \
	"spec-node01,ip-172-31-7-41,grace-02"
is "each node's source is its snapshot" "$(jqv "$J" '[.nodes[].source]|join(",")')" \
	"$S/a-intel.tar.zst,$S/b-xen.tar.zst,$S/c-arm.tar.zst"

# drift: a key is in it exactly when inspect --sysroot gives the three snapshots different
# values, and its values are theirs
for s in a-intel b-xen c-arm; do
	"$PERFLAB" inspect --json --sysroot "$S/$s.tar.zst" >"$TMP/$s.facts.json" 2>/dev/null
done
for key in kernel.release cpu.model clocksource.current cpu.online mem.thp.enabled; do
	want=$(for s in a-intel b-xen c-arm; do jq -c --arg k "$key" '.facts[$k].value' "$TMP/$s.facts.json"; done |
		sort -u | wc -l)
	got=$(jq --arg k "$key" '[.drift.facts[]|select(.key==$k)]|length' "$J")
	is "drift has $key exactly when the snapshots' values differ" "$got" "$([ "$want" -gt 1 ] && echo 1 || echo 0)"
done
node_val() { # NODE KEY: the value drift gives NODE for KEY
	jq -c --arg n "$1" --arg k "$2" '.drift.facts[]|select(.key==$k)|.values[]|select(.nodes|index($n))|.value' "$J"
}
for pair in spec-node01:a-intel ip-172-31-7-41:b-xen grace-02:c-arm; do
	n=${pair%%:*} s=${pair#*:}
	for key in kernel.release cpu.model; do
		is "drift: $n's $key is its snapshot's" "$(node_val "$n" "$key")" \
			"$(jq -c --arg k "$key" '.facts[$k].value' "$TMP/$s.facts.json")"
	done
done
is "drift: the kernel releases" \
	"$(jqv "$J" '.drift.facts[]|select(.key=="kernel.release")|[.values[].value]|sort|join(",")')" \
	"3.10.0-1160.el7.x86_64,5.10.0-28-cloud-amd64,6.8.0-1008-nvidia-64k"

# findings: each node's are check --sysroot's on its snapshot
for pair in spec-node01:a-intel ip-172-31-7-41:b-xen grace-02:c-arm; do
	n=${pair%%:*} s=${pair#*:}
	"$PERFLAB" check --json --sysroot "$S/$s.tar.zst" >"$TMP/$s.check.json" 2>/dev/null
	is "$n's findings are check --sysroot's on its snapshot" \
		"$(jq -r --arg n "$n" '[(.findings.common[]|.id), (.findings.partial[]|select(.nodes|index($n))|.id)]|sort|join(",")' "$J")" \
		"$(jqv "$TMP/$s.check.json" '[.findings[].id]|sort|join(",")')"
	is "$n's findings counts are check's" \
		"$(jq -r --arg n "$n" '.nodes[]|select(.name==$n)|.findings|"\(.crit) \(.warn) \(.info)"' "$J")" \
		"$(jqv "$TMP/$s.check.json" '.summary|"\(.crit) \(.warn) \(.info)"')"
done
like "a finding on one node only is named there" "$(jqv "$J" '.findings.partial[]|select(.id=="clock.xen-tsc")|.nodes|join(",")')" \
	'^ip-172-31-7-41$'

# the same merge as report --from over the nodes' report --no-bench --sysroot documents
for s in a-intel b-xen c-arm; do
	"$PERFLAB" report --no-bench --sysroot "$S/$s.tar.zst" -o "$TMP/n-$s" >/dev/null 2>&1
done
"$PERFLAB" report --json -o "$TMP/from" --from "$TMP/n-a-intel/report.json" \
	--from "$TMP/n-b-xen/report.json" --from "$TMP/n-c-arm/report.json" >"$TMP/from.json" 2>/dev/null
is "drift as report --from gives it" "$(jq -c .drift "$J")" "$(jq -c .drift "$TMP/from.json")"
is "findings as report --from gives them" "$(jq -c .findings "$J")" "$(jq -c .findings "$TMP/from.json")"

# report.md's table of the findings on some nodes only: 4 cells a row under its 4
# headings, the "on" and "not on" cells the document's nodes and not_on, row by row; the
# renderer is the cluster report's, so report --from's table is the same
md_partial() { # REPORT.md: each row's cell count, its "on" and its "not on" cell
	awk '/^## Findings on some nodes only/ { s = 1; next } /^## / { s = 0 }
		s && /^\| / && !/^\|---/ && !/^\| severity \|/ {
			sub(/^\| /, ""); sub(/ \|$/, ""); gsub(/\\\|/, "")
			n = split($0, c, / \| /); print n "|" c[3] "|" c[4] }' "$1"
}
is "report.md: a partial finding's row has the header's 4 cells, on and not on" \
	"$(md_partial "$F/report.md")" \
	"$(jq -r '.findings.partial[]|"4|\(.nodes|join(", "))|\(.not_on|join(", "))"' "$J")"
like "report.md: the table has rows" "$(md_partial "$F/report.md" | wc -l)" '^[1-9]'
is "report --from's report.md: the same table" "$(md_partial "$TMP/from/report.md")" \
	"$(md_partial "$F/report.md")"

# report.html in headless chromium at 1280, 800 and 480 px: nothing past the window but
# inside a scrolling wrapper with its shadow, the drift table's columns on screen (a long
# cpu.flags is cut, the odd nodes' lists shown as what they have more and less)
browser_check "the fleet's report.html" "$F/report.html" "$PERFLAB_BUILDDIR/report-fleet.png" "-" --cluster
H=$(tr '\n' ' ' <"$F/report.html")
like "report.html: every table in a scrolling wrapper" \
	"$(grep -o '<table' "$F/report.html" | wc -l) $(grep -o '<div class="tw"><table' "$F/report.html" | wc -l)" '^([0-9]+) \1$'
like "report.html: a long value is cut, all of it in its title" "$H" \
	'<span class="cut" title="\[&quot;[^"]*">[^<]*(<wbr>[^<]*)*\.\.\.</span> <span class="muted">\([0-9]+ characters\)'

# an odd node's list (cpu.flags) is shown as the items it has more and less than the
# majority's: the two snapshots of intel-2s are the majority
"$PERFLAB" report --fleet "$S/a-intel.tar.zst" "$S/b-xen.tar.zst" "$TMP/nameless.tar.zst" -o "$TMP/maj" >/dev/null 2>&1
flags() { # JQ-SET-EXPR over $m (the majority's flags) and $v (ip-172-31-7-41's)
	jq -r '.drift.facts[]|select(.key=="cpu.flags")|(.majority|fromjson) as $m|.values[]|
		select(.nodes==["ip-172-31-7-41"])|(.value|fromjson) as $v|'"$1"'|join(", ")' "$TMP/maj/report.json"
}
more=$(flags '$v - $m') less=$(flags '$m - $v')
like "the xen node has flags more and less than the majority" "$more;$less" '^[a-z].*;[a-z]'
like "report.html: the xen node's cpu.flags are those more and less" \
	"$(sed 's/<wbr>//g' "$TMP/maj/report.html" | tr '\n' ' ')" \
	"ip-172-31-7-41: </span><span title=\"[^\"]*\">(<span class=\"cut\" title=\"[^\"]*\">)?\\+$more; -${less:0:60}"

# --json prints report.json
ok "--json" "$PERFLAB" report --fleet "$S/a-intel.tar.zst" "$S/b-xen.tar.zst" "$S/c-arm.tar.zst" \
	-o "$TMP/fj" --json
is "--json prints the document written" "$(jq -c 'del(.generated)' "$OUT")" \
	"$(jq -c 'del(.generated)' "$TMP/fj/report.json")"

# a directory of snapshots: sorted by name; a repeated hostname gets #2, a snapshot
# without one is named by its file
cp "$S/a-intel.tar.zst" "$S/d-intel-again.tar.zst"
cp "$TMP/nameless.tar.zst" "$S/e-nameless.tar.zst"
echo "not a snapshot" >"$S/notes.txt"
ok "report --fleet DIR" "$PERFLAB" report --fleet "$S" -o "$TMP/dir" --json
is "node names: hostnames, #2, the file name" "$(jq -r '[.nodes[].name]|join(",")' "$OUT")" \
	"spec-node01,ip-172-31-7-41,grace-02,spec-node01#2,e-nameless"
is "two snapshots of one tree: no drift between them" \
	"$(jq '[.drift.facts[]|[.values[]|select(.nodes|index("spec-node01"))]|select(length>0)|select(.[0].nodes|index("spec-node01#2")|not)]|length' "$OUT")" "0"

# identical content under two names (d-intel-again is a copy of a-intel): both counted,
# one warning line naming both; nodes that share a host without a figure: no figure
# caveat and no empty figure section, in the terminal, report.md and report.html alike
ok "report --fleet DIR with a copy in it" "$PERFLAB" report --fleet "$S" -o "$TMP/dir2"
is "one warning line" "$(wc -l <"$ERR")" "1"
like "it names both files and the fix" "$(cat "$ERR")" \
	"^perflab report: warning: --fleet: '$S/a-intel.tar.zst' and '$S/d-intel-again.tar.zst' have the same content .*\(leave one out\)$"
is "both are nodes" "$(jq '.node_count.total' "$TMP/dir2/report.json")" "5"
is "the copies share a host" "$(jq -r '[.nodes[]|select(.shares_host_with|length>0)|.name]|join(",")' "$TMP/dir2/report.json")" \
	"spec-node01,spec-node01#2"
is "no memory figure, no memory caveat in the document" "$(jq -c '[.memory.nodes, .memory.caveats]' "$TMP/dir2/report.json")" "[[],[]]"
is "terminal: no memory caveat" "$(grep -c 'caveat' "$OUT")" "0"
is "report.md: no memory section, no caveat" "$(grep -cE 'Memory bandwidth|[Cc]aveat|share a host' "$TMP/dir2/report.md")" "0"
is "report.html: no memory section, no caveat" "$(grep -cE 'id="memory|[Cc]aveat|share a host' "$TMP/dir2/report.html")" "0"

# one file given twice (its name twice, a link to it, a directory and a file in it) is
# one machine: exit 2 naming it, nothing written
expect_exit 2 "a snapshot given twice: exit 2" "$PERFLAB" report --fleet "$S/a-intel.tar.zst" \
	"$S/b-xen.tar.zst" "$S/a-intel.tar.zst" -o "$TMP/no"
is "the error names it once and the fix" "$(cat "$ERR")" \
	"perflab report: error: --fleet: '$S/a-intel.tar.zst' is given twice: one machine would count as two (give each snapshot once)"
ln -s "$S/b-xen.tar.zst" "$TMP/link.tar.zst"
expect_exit 2 "a snapshot and a link to it: exit 2" "$PERFLAB" report --fleet "$S/b-xen.tar.zst" \
	"$S/a-intel.tar.zst" "$TMP/link.tar.zst" -o "$TMP/no"
like "the error names both" "$(cat "$ERR")" \
	"error: --fleet: '$S/b-xen.tar.zst' and '$TMP/link.tar.zst' are one file: .*\(give each snapshot once\)$"
expect_exit 2 "a directory and a snapshot in it: exit 2" "$PERFLAB" report --fleet "$S" \
	"$S/../snaps/c-arm.tar.zst" -o "$TMP/no"
like "the error names both" "$(cat "$ERR")" "'$S/c-arm.tar.zst' and '$S/../snaps/c-arm.tar.zst' are one file"
is "one error line" "$(wc -l <"$ERR")" "1"
ok "nothing written" test ! -e "$TMP/no"

# bad input: exit 2, one line naming the snapshot and the fix, nothing written
head -c 9000 "$S/b-xen.tar.zst" >"$TMP/cut.tar.zst"
expect_exit 2 "a truncated snapshot among three: exit 2" "$PERFLAB" report --fleet "$S/a-intel.tar.zst" \
	"$TMP/cut.tar.zst" "$S/c-arm.tar.zst" -o "$TMP/no"
like "the error names the truncated snapshot and the fix" "$(cat "$ERR")" \
	"^perflab report: error: --fleet: '$TMP/cut.tar.zst': .*\(.*leave this snapshot out\)$"
is "one error line" "$(wc -l <"$ERR")" "1"
ok "no report directory left" test ! -e "$TMP/no"
cp "$TMP/cut.tar.zst" "$S/f-cut.tar.zst"
expect_exit 2 "a truncated snapshot in the directory: exit 2" "$PERFLAB" report --fleet "$S" -o "$TMP/no"
like "the error names it" "$(cat "$ERR")" "'$S/f-cut.tar.zst'"
ok "still no report directory" test ! -e "$TMP/no"
rm "$S/f-cut.tar.zst"
printf 'x%.0s' $(seq 100) >"$TMP/junk.tar.zst"
expect_exit 2 "a file that is not an archive: exit 2" "$PERFLAB" report --fleet "$S/a-intel.tar.zst" \
	"$TMP/junk.tar.zst" -o "$TMP/no"
like "named" "$(cat "$ERR")" "'$TMP/junk.tar.zst': .*not a tar archive"
ok "a failed fleet leaves an earlier report untouched" cmp -s "$J" "$F/report.json"
expect_exit 2 "one snapshot: exit 2" "$PERFLAB" report --fleet "$S/a-intel.tar.zst" -o "$TMP/no"
like "it says 2 or more and the one-machine command" "$(cat "$ERR")" '2 or more machines .*--no-bench --sysroot FILE'
expect_exit 2 "a missing snapshot: exit 2" "$PERFLAB" report --fleet "$S/a-intel.tar.zst" "$TMP/nope.tar.zst"
like "named" "$(cat "$ERR")" "cannot open '$TMP/nope.tar.zst'"
mkdir "$TMP/empty"
expect_exit 2 "a directory without snapshots: exit 2" "$PERFLAB" report --fleet "$TMP/empty" "$S/a-intel.tar.zst"
like "named" "$(cat "$ERR")" "directory '$TMP/empty' holds no snapshot"
expect_exit 2 "--fleet with no snapshot: exit 2" "$PERFLAB" report --fleet -o "$TMP/no"
for opt in --quick --full "--cpus 0" --dry-run "--from $TMP/from/report.json" "--baseline $J" \
	"--sysroot $FIXTURES/sysroots/intel-2s"; do
	# shellcheck disable=SC2086
	expect_exit 2 "--fleet with $opt: exit 2" "$PERFLAB" report --fleet "$S/a-intel.tar.zst" \
		"$S/b-xen.tar.zst" $opt -o "$TMP/no"
	like "--fleet with ${opt%% *}: says it does not go with --fleet" "$(cat "$ERR")" \
		"error: ${opt%% *} does not go with --fleet"
done
ok "nothing written by the refused runs" test ! -e "$TMP/no"
expect_exit 2 "snapshots without --fleet: exit 2" "$PERFLAB" report "$S/a-intel.tar.zst" -o "$TMP/no"
like "it points at --fleet" "$(cat "$ERR")" 'snapshots go with --fleet'
ok "no temporary directory left behind" test -z "$(find "${TMPDIR:-/tmp}" /dev/shm -maxdepth 1 -name 'perflab-fleet.*' -newer "$J" 2>/dev/null)"
done_testing
