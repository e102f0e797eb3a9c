#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The cluster report without MPI: `perflab report --from N1/report.json --from
# N2/report.json ...` (or --from DIR) merges the nodes' reports into a nodes table, drift,
# findings on some nodes only and per-node STREAM with the odd node named. Four copies of
# the intel-2s fixture are the nodes; node4 differs in governor, kernel and THP (and a
# sysctl that fires a rule), and its STREAM triad is low.
. "$PERFLAB_SRCDIR/tests/lib.sh"
export PERFLAB_TIMESTAMP=1700000000

N=$TMP/nodes
. "$PERFLAB_SRCDIR/tests/report/cluster-nodes.sh"
make_cluster_nodes "$N"
ok "four node reports" test -s "$N/n4/report.json"

C=$TMP/cluster
ok "cluster report from four --from files" "$PERFLAB" report -o "$C" \
	--from "$N/n1/report.json" --from "$N/n2/report.json" --from "$N/n3/report.json" \
	--from "$N/n4/report.json"
J=$C/report.json
S=$(cat "$OUT")
like "terminal summary: drift line" "$S" 'kernel.release: 3.10.0-1160.el7.x86_64 on 3 nodes; differs on node4'
like "terminal summary: odd memory node" "$S" 'memory: node4 STREAM triad 6.10 GB/s is below'
like "terminal summary: partial finding" "$S" 'tcp_tw_recycle is on.*: on node1, node2, node3'
ok "report.json, report.md, report.html written" test -s "$J" -a -s "$C/report.md" -a -s "$C/report.html"
validate cluster.schema.json "$J"
is "kind and node count" "$(jqv "$J" '"\(.kind) \(.node_count.total) \(.node_count.ok)"')" "cluster 4 4"
is "nodes table rows" "$(jqv "$J" '[.nodes[].name]|join(",")')" "node1,node2,node3,node4"
is "node4's governor, kernel, THP in the nodes table" \
	"$(jqv "$J" '.nodes[3] | "\(.governor) \(.kernel) \(.thp)"')" "performance 5.14.0-362.el9.x86_64 never"
is "node1's findings by severity" "$(jqv "$J" '.nodes[0].findings|"\(.crit) \(.warn) \(.info)"')" \
	"$(jqv "$N/n1/report.json" '.check.summary|"\(.crit) \(.warn) \(.info)"')"
drift() { jqv "$J" ".drift.facts[] | select(.key == \"$1\") | \"\(.majority) \(.majority_nodes) \(.odd_nodes|join(\",\"))\""; }
is "drift: governor" "$(drift cpufreq.governor)" "powersave 3 node4"
is "drift: per-CPU governor folded" "$(drift 'cpu.*.cpufreq.governor')" "powersave 3 node4"
is "drift: kernel release" "$(drift kernel.release)" "3.10.0-1160.el7.x86_64 3 node4"
is "drift: THP" "$(drift mem.thp.enabled)" "always 3 node4"
is "drift: the sysctl" "$(drift sysctl.net.ipv4.tcp_tw_recycle)" "1 3 node4"
is "node4's value in the drift entry" \
	"$(jqv "$J" '.drift.facts[]|select(.key=="kernel.release")|.values[1]|"\(.value) \(.nodes|join(","))"')" \
	"5.14.0-362.el9.x86_64 node4"
is "naturally different facts are not drift" \
	"$(jqv "$J" '[.drift.facts[].key|select(.=="kernel.hostname" or test("uptime"))]|length')" "0"
ok "the exclusion list is in the document" jq -e '.drift.excluded|index("kernel.hostname")' "$J"
is "a finding on some nodes only" \
	"$(jqv "$J" '.findings.partial[]|select(.id=="net.tcp-tw-recycle")|"\(.nodes|join(",")) / \(.not_on|join(","))"')" \
	"node1,node2,node3 / node4"
ok "findings on every node are listed as common" jq -e '.findings.common|length > 0' "$J"
is "memory: node4 is odd, below" "$(jqv "$J" '.memory.odd|map("\(.node) \(.side)")|join(",")')" "node4 below"
is "memory: slowest node" "$(jqv "$J" '.memory.slowest')" "node4"
is "memory: the others are inside the spread" "$(jqv "$J" '[.memory.nodes[]|select(.odd)]|length')" "1"
like "report.md: drift table row" "$(cat "$C/report.md")" '\| mem.thp.enabled \| `always` \(3 nodes\) \| node4: never \|'
like "report.md: partial findings" "$(cat "$C/report.md")" '## Findings on some nodes only'
like "report.md: odd memory node" "$(cat "$C/report.md")" '\| node4 \| 6.1 GB/s .*\*\*odd: below\*\*'
H=$(tr '\n' ' ' <"$C/report.html")
like "report.html: drift table names node4's governor" "$H" 'id="drift-table".*cpufreq.<wbr>governor.*node4: </span>performance'
like "report.html: per-node bars" "$H" '<svg[^>]*class="chart".*node4 \(odd: below\)'
like "report.html: nodes table" "$H" 'id="nodes-table"'

# --from DIR: NODE/report.json in name order, the same document
C2=$TMP/cluster2
mkdir "$TMP/fleet"
for i in 1 2 3 4; do mkdir "$TMP/fleet/n$i" && cp "$N/n$i/report.json" "$TMP/fleet/n$i/"; done
ok "cluster report from --from DIR" "$PERFLAB" report -o "$C2" --from "$TMP/fleet"
is "--from DIR gives the same drift" "$(jq -c .drift "$C2/report.json")" "$(jq -c .drift "$J")"
ok "--json prints the cluster document" "$PERFLAB" report -o "$TMP/c3" --json --from "$TMP/fleet"
is "--json document" "$(jq -r .kind "$OUT")" "cluster"

# two nodes with one hostname get unique names
ok "two reports of one host" "$PERFLAB" report -o "$TMP/c4" --from "$N/n1/report.json" \
	--from "$N/n1/report.json"
is "unique node names" "$(jqv "$TMP/c4/report.json" '[.nodes[].name]|join(",")')" "node1,node1#2"
is "no drift between identical nodes" "$(jqv "$TMP/c4/report.json" '.drift.facts|length')" "0"
like "fewer than 3 memory figures: no odd node" "$(jqv "$TMP/c4/report.json" '.memory.note')" 'fewer than 3'

# caveats: every memory figure carries its single-node report's (the fixture's bench mem
# is a quick run on a busy machine, arrays within the caches) and those of the run
is "memory: every row has caveats" "$(jqv "$J" '[.memory.nodes[]|.caveats|length > 0]|all')" "true"
is "memory: the bench's warnings and notes are each row's caveats" \
	"$(jq -r --slurpfile m "$N/mem1.json" '[.memory.nodes[].caveats as $c|($m[0].warnings + $m[0].notes)[]|. as $w|$c|index([$w]) != null]|all' "$J")" "true"
like "memory: quick sizes within the caches" "$(jqv "$J" '.memory.nodes[0].caveats|join("; ")')" \
	'quick run: arrays smaller than 4x the last-level cache.*cache bandwidth'
like "memory: busy machine" "$(jqv "$J" '.memory.nodes[0].caveats|join("; ")')" 'machine not idle'
is "distinct hosts: no node shares one" "$(jqv "$J" '[.nodes[].shares_host_with|length]|add')" "0"
like "report.md: the caveats, once for the nodes they share" "$(tr '\n' ' ' <"$C/report.md")" \
	'Caveats:.*- node1, node2, node3, node4: machine not idle'
like "report.html: the memory caveats" "$H" 'id="memory-caveats".*quick run: arrays smaller'
C4=$TMP/c4
is "one host: each node names the other" "$(jqv "$C4/report.json" '[.nodes[]|"\(.host):\(.shares_host_with|join(","))"]|join(" ")')" \
	"node1:node1#2 node1:node1"
like "one host: a caveat on each memory figure" "$(jqv "$C4/report.json" '.memory.nodes[1].caveats|join("; ")')" \
	'shares host node1 with 1 other node \(one hostname'
like "one host: the section says the figures are not independent" \
	"$(jqv "$C4/report.json" '.memory.caveats|join("; ")')" '2 of 2 nodes share a host'

# spreads never below 0: one node with a huge stddev (a quick run on an oversubscribed
# host: 3.47, 37.7 +- 50.1, 2.94, 32 GB/s) gives the slowest node's others' spread
# 37.7 - 2.94 - 50.1 < 0 unclamped; it is 0 in the document, report.md and report.html,
# and no whisker starts left of the axis (the bars' x)
mkdir "$TMP/wide"
i=0
for t in "3.47 0.2 3.2 3.7" "37.7 50.1 2.5 98" "2.94 0.1 2.8 3.1" "32 1 31 33"; do
	i=$((i + 1))
	set -- $t
	jq --argjson m "$1" --argjson s "$2" --argjson lo "$3" --argjson hi "$4" \
		'.metrics |= map(if .name == "triad" then .median = $m | .stddev = $s |
			.min = $lo | .max = $hi else . end)' "$N/mem$i.json" >"$TMP/wmem$i.json"
	"$PERFLAB" report --sysroot "$N/root$i" --no-bench --from "$TMP/wmem$i.json" \
		-o "$TMP/wide/n$i" >/dev/null 2>&1 || echo "wide node $i report failed"
done
W=$TMP/cw
ok "cluster report of a wide spread" "$PERFLAB" report -o "$W" --from "$TMP/wide"
is "others' spread clamped at 0" "$(jqv "$W/report.json" '[.memory.nodes[]|.others_lo_gbs // empty]|map(. >= 0)|"\(length) \(all)"')" "1 true"
is "the runs' min and max per row" "$(jqv "$W/report.json" '[.memory.nodes[]|"\(.min_gbs)-\(.max_gbs)"]|join(" ")')" \
	"3.2-3.7 2.5-98 2.8-3.1 31-33"
ok "report.md: no negative figure" sh -c "! grep -E '(^| )-[0-9]' '$W/report.md'"
like "report.md: the clamped spread" "$(cat "$W/report.md")" '\| 0 - [0-9.]+ GB/s \|'
is "report.html: no whisker left of the axis" "$(tr '\n' ' ' <"$W/report.html" | grep -oE \
	'<rect x="[0-9.]+"[^>]*class="bar"/><line x1="-?[0-9.]+%?"' |
	sed -E 's/<rect x="([0-9.]+)".*x1="(-?[0-9.]+)%?"/\1 \2/' | awk '$2 < $1 {bad++} END {print NR, bad + 0}')" "4 0"

# bad input: one line, exit 2, nothing written
B=$TMP/bad
expect_exit 2 "unreadable --from file" "$PERFLAB" report -o "$B" --from "$N/n1/report.json" \
	--from "$TMP/missing.json"
is "one line on stderr" "$(wc -l <"$ERR")" "1"
like "it names the file" "$(cat "$ERR")" "missing.json"
ok "nothing written" test ! -e "$B"
expect_exit 2 "a bench document among the reports" "$PERFLAB" report -o "$B" \
	--from "$N/n1/report.json" --from "$N/n2/report.json" --from "$N/mem1.json"
like "it says why" "$(cat "$ERR")" "merges report documents only"
ok "nothing written" test ! -e "$B"
mkdir "$TMP/one" && cp "$N/n1/report.json" "$TMP/one/"
expect_exit 2 "a directory with one report" "$PERFLAB" report -o "$B" --from "$TMP/one"
like "it says how many" "$(cat "$ERR")" "holds 1 report document"
expect_exit 2 "--baseline with a cluster" "$PERFLAB" report -o "$B" --from "$TMP/fleet" \
	--baseline "$N/n1/report.json"
ok "nothing written" test ! -e "$B"

done_testing
