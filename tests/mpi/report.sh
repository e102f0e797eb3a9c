#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab-mpi report under `mpirun --oversubscribe -np 4` on this machine: each
# rank gets a fixture sysroot (--sysroot-per-rank DIR/%r) and the drift table must name
# node4's governor, kernel and THP; --per-rank-nodes makes every rank a node so the
# all-pairs network matrix and the simultaneous STREAM run here; a hung rank is bounded
# by --timeout and named; --net-tcp adds each pair's round trip over perflab's TCP test;
# bad input is one line, exit 2, nothing written; the report directory is refused when
# another user owns it or may write it, and a symlink planted in it is replaced.
. "$PERFLAB_SRCDIR/tests/lib.sh"
. "$PERFLAB_SRCDIR/tests/mpi/lib-mpi.sh"

rank_sysroots

C=$TMP/c
ok "4 ranks, one fixture sysroot each" MPI report -o "$C" --sysroot-per-rank "$TMP/sr/%r"
J=$C/report.json
validate cluster.schema.json "$J"
is "four nodes, one per rank" "$(jqv "$J" '[.nodes[]|"\(.name)=\(.source)"]|join(",")')" \
	"node1=rank 0,node2=rank 1,node3=rank 2,node4=rank 3"
node4_drift "$J" report:
ok "no network matrix on fixture nodes" jq -e '.network == null' "$J"

P=$TMP/p
ok "--per-rank-nodes --quick: every rank a node, matrix and STREAM measured" \
	MPI report -o "$P" --quick --per-rank-nodes
PJ=$P/report.json
validate cluster.schema.json "$PJ"
is "4 nodes" "$(jqv "$PJ" '.node_count.ok')" "4"
is "6 pairs measured" "$(jqv "$PJ" '.network.pairs|length')" "6"
is "every off-diagonal latency > 0, diagonal empty" \
	"$(jqv "$PJ" '[.network.latency_oneway_us|to_entries[]|.key as $i|.value|to_entries[]|
		if .key == $i then (.value == null) else (.value > 0) end]|all')" "true"
is "one-way is half the round trip" \
	"$(jqv "$PJ" '[.network.pairs[].points[]|((.rtt_us / 2 - .oneway_us)|fabs) < 1e-9]|all')" "true"
is "matrices are symmetric" \
	"$(jqv "$PJ" '.network.bandwidth_gbs as $m|[range(4) as $i|range(4) as $j|$m[$i][$j] == $m[$j][$i]]|all')" "true"
ok "slowest pair named" jq -e '.network.slowest_pair.oneway_us > 0' "$PJ"
# one host: no node is behind a slow link, and the field is always filled (an array)
ok "slow nodes filled" jq -e '.network.slow_nodes|type == "array"' "$PJ"
is "STREAM on every node, at the same time" "$(jqv "$PJ" '"\(.memory.nodes|length) \(.memory.simultaneous)"')" "4 true"
like "report.html: latency heatmap and bandwidth matrix" "$(tr '\n' ' ' <"$P/report.html")" \
	'id="latency-heatmap".*id="bandwidth-matrix"'
like "report.md: one-way latency labelled" "$(cat "$P/report.md")" 'One-way latency \(us, round trip / 2'
# caveats: one host, four ranks: every pair is loopback with its two ranks pinned to two
# CPUs; every STREAM figure carries the quick run's caveats and the shared host's
is "every pair on one host, pinned to two distinct CPUs" \
	"$(jqv "$PJ" '[.network.pairs[]|.same_host and (.cpus|length == 2 and .[0] != .[1])]|all')" "true"
is "every pair says it measures loopback" \
	"$(jqv "$PJ" '[.network.pairs[]|.caveats|map(test("shared-memory path on one machine \\(loopback\\)"))|any]|all')" "true"
like "the network section says so" "$(jqv "$PJ" '.network.caveats|join("; ")')" \
	'quick run: .*every pair is on one host'
is "every node: one host with the other three, its ranks listed" \
	"$(jqv "$PJ" '[.nodes[]|"\(.shares_host_with|length)\(.ranks|length)"]|unique|join(",")')" "31"
is "every STREAM figure: quick run, arrays vs the caches, shared host" \
	"$(jqv "$PJ" '[.memory.nodes[]|.caveats|join("; ")|test("quick run: the benchmark") and
		test("shares host .* with 3 other nodes")]|all')" "true"
ncpu=$(nproc)
if [ "$ncpu" -lt 4 ]; then
	like "more ranks than CPUs: oversubscribed" "$(jqv "$PJ" '.memory.nodes[0].caveats|join("; ")')" \
		"oversubscribed: host .* runs 4 MPI ranks on $ncpu CPUs"
else
	is "no more ranks than CPUs: not oversubscribed" \
		"$(jqv "$PJ" '[.memory.nodes[].caveats[]|select(test("^oversubscribed"))]|length')" "0"
fi
ok "no spread below 0" jq -e '[.memory.nodes[]|(.others_lo_gbs // 0) >= 0 and .min_gbs >= 0]|all' "$PJ"
like "report.md and report.html: the caveats" "$(cat "$P/report.md" "$P/report.html" | tr '\n' ' ')" \
	'Caveats:.*shared-memory path.*id="memory-caveats".*id="network-caveats"'
is "fixture nodes: four hosts, none shared" "$(jqv "$J" '[.nodes[].shares_host_with|length]|add')" "0"

T=$TMP/t
ok "--net-tcp --quick: the pairs over TCP too" MPI report -o "$T" --quick --per-rank-nodes --net-tcp
TJ=$T/report.json
validate cluster.schema.json "$TJ"
is "TCP: every pair has a round trip > 0 and its ratio to MPI's" \
	"$(jqv "$TJ" '[.network.pairs[]|.tcp.rtt_us > 0 and .tcp.over_mpi > 0 and
		((.tcp.oneway_us * 2 / .tcp.rtt_us - 1)|fabs) < 1e-6]|"\(length) \(all)"')" "6 true"
# the server is reached by its hostname where that resolves (else by an interface address
# on the lead's subnet: tests/mpi/netns.sh, whose namespaces' names resolve nowhere)
if getent hosts "$(hostname)" >/dev/null; then want=hostname; else want=address; fi
is "TCP: every pair's server reached by $want" \
	"$(jqv "$TJ" '[.network.pairs[]|.tcp.reached]|unique|join(",")')" "$want"
is "TCP matrix: symmetric, off-diagonal > 0, equal to the pairs' figures" \
	"$(jqv "$TJ" '.network.tcp.latency_rtt_us as $m|.network.nodes as $n|
		[range(4) as $i|range(4) as $j|if $i == $j then $m[$i][$j] == null
			else $m[$i][$j] > 0 and $m[$i][$j] == $m[$j][$i] end]|all' )" "true"
is "TCP: the median ratio to MPI and the method" \
	"$(jqv "$TJ" '"\(.network.tcp.median_over_mpi > 0) \(.network.tcp.bytes) \(.network.tcp.method|test("tcp_pp"))"')" \
	"true 8 true"
like "summary: TCP's round trip against MPI's" "$(cat "$OUT")" "network: TCP's 8 B round trip is [0-9.e+]+x MPI's"
like "report.md and report.html: the TCP matrix" "$(cat "$T/report.md" "$T/report.html" | tr '\n' ' ')" \
	'### TCP round trip \(us, --net-tcp\) at 8 B.*id="tcp-matrix"'

H=$TMP/h
PERFLAB_MPI_TEST_HANG_RANK=2 timeout 120 mpirun --oversubscribe -np 4 "$PERFLAB_MPI" report -o "$H" \
	--timeout 3 --sysroot-per-rank "$TMP/sr/%r" >"$OUT" 2>"$ERR"
ok "a hung rank: the others' report is written" test -s "$H/report.json"
is "the hung rank is named with the reason" \
	"$(jqv "$H/report.json" '.nodes[]|select(.status=="failed")|.reason')" \
	"rank 2: no document after --timeout 3 s (hung or still running)"
is "3 nodes ok" "$(jqv "$H/report.json" '.node_count.ok')" "3"

B=$TMP/bad
expect_exit 2 "unknown command" MPI frobnicate -o "$B"
like "one line naming it" "$(grep -c 'perflab-mpi: error' "$ERR") $(grep 'perflab-mpi: error' "$ERR")" \
	"^1 .*unknown command 'frobnicate'"
expect_exit 2 "--net-tcp with --no-bench" MPI report -o "$B" --net-tcp --no-bench
like "one line naming both" "$(grep -c 'perflab-mpi: error' "$ERR") $(grep 'perflab-mpi: error' "$ERR")" \
	"^1 .*--net-tcp measures the pairs, --no-bench skips them"
expect_exit 2 "missing per-rank sysroot" MPI report -o "$B" --sysroot-per-rank "$TMP/none/%r"
like "one line naming the rank and the path" \
	"$(grep -c 'perflab-mpi: error' "$ERR") $(grep 'perflab-mpi: error' "$ERR")" \
	"^1 .*rank 0: '$TMP/none/0' is not a directory"
ok "nothing written" test ! -e "$B"
# The network matrix takes at most PL_MPI_NET_MAX_NODES nodes (1024; the test lowers it
# to 3 so 4 ranks exceed it): refused before anything is measured or written.
export PERFLAB_MPI_TEST_NET_MAX=3
expect_exit 2 "more nodes than the network matrix takes" MPI report -o "$B" --quick --per-rank-nodes
unset PERFLAB_MPI_TEST_NET_MAX
like "one line naming the node count and the limit" \
	"$(grep -c 'perflab-mpi: error' "$ERR") $(grep 'perflab-mpi: error' "$ERR")" \
	"^1 .*report: 4 nodes; the network matrix .* at most 3 nodes"
ok "too many nodes: nothing written" test ! -e "$B"

# The report directory goes through the same checks as perflab report's: a symlink
# planted at report.md is replaced, not followed; a directory others may write without
# the sticky bit, or one another user (nobody) owns, is one line and exit 2, nothing
# written.
mkdir "$TMP/own"
echo precious >"$TMP/target"
ln -s "$TMP/target" "$TMP/own/report.md"
ok "a planted report.md symlink" MPI report -o "$TMP/own" --sysroot-per-rank "$TMP/sr/%r"
is "its target untouched" "$(cat "$TMP/target")" precious
ok "report.md replaced by the report" test -f "$TMP/own/report.md" -a ! -L "$TMP/own/report.md"
mkdir -m 0777 "$TMP/open"
chmod 0777 "$TMP/open"
expect_exit 2 "a 0777 report directory" MPI report -o "$TMP/open" --sysroot-per-rank "$TMP/sr/%r"
like "one line naming it, the reason and the fix" "$(one_error)" \
	"^1 .*refusing report directory '$TMP/open': writable by other users \(choose another with -o DIR\)"
is "0777: nothing written" "$(ls -A "$TMP/open")" ""
if [ "$(id -u)" -eq 0 ]; then
	mkdir "$TMP/theirs"
	chown 65534:65534 "$TMP/theirs"
	expect_exit 2 "a report directory owned by nobody" \
		MPI report -o "$TMP/theirs" --sysroot-per-rank "$TMP/sr/%r"
	like "one line: not owned by you" "$(one_error)" \
		"^1 .*refusing report directory '$TMP/theirs': not owned by you"
	is "nobody's: nothing written" "$(ls -A "$TMP/theirs")" ""
else
	skip "a report directory owned by nobody" "not root: cannot give a directory to nobody"
fi

done_testing
