#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab-mpi inspect, check and bench NAME under `mpirun --oversubscribe -np 4`:
# on a fixture sysroot per rank, inspect's drift names node4's governor, kernel and THP
# (the same drift as perflab report --from), check names the findings on some nodes only
# with the nodes they are not on; bench clock --quick with every rank a node gives one row
# per node of each metric; bad input is one line from the lowest failing rank, exit 2,
# nothing written. --json documents match docs/schemas/cluster-command.schema.json.
. "$PERFLAB_SRCDIR/tests/lib.sh"
. "$PERFLAB_SRCDIR/tests/mpi/lib-mpi.sh"

rank_sysroots
mkdir "$TMP/half"
ln -s "$N/root1" "$TMP/half/0"
ln -s "$N/root2" "$TMP/half/1"
SR=(--sysroot-per-rank "$TMP/sr/%r")

# --- inspect ---
J=$TMP/inspect.json
ok "inspect --json -o FILE on 4 fixture nodes" MPI inspect "${SR[@]}" --json -o "$J"
validate cluster-command.schema.json "$J"
is "inspect: kind and nodes" "$(jqv "$J" '"\(.kind) \([.nodes[]|"\(.name)=\(.source)"]|join(","))"')" \
	"cluster-inspect node1=rank 0,node2=rank 1,node3=rank 2,node4=rank 3"
node4_drift "$J" inspect:
ok "inspect: no findings or benchmark section" jq -e '.findings == null and .benchmark == null' "$J"
ok "inspect (text)" MPI inspect "${SR[@]}"
like "inspect text: the odd node's value under the majority" "$(tr '\n' '|' <"$OUT")" \
	'mem.thp.enabled: always on 3 nodes; differs on node4\|    node4: never\|'
is "inspect text: a line per node" "$(grep -cE '^  node[1-4] ' "$OUT")" 4
ok "inspect --domain kernel" MPI inspect "${SR[@]}" --domain kernel --json -o "$TMP/k.json"
is "--domain: drift of that domain only" "$(jqv "$TMP/k.json" '[.drift.facts[].key]|join(",")')" "kernel.release"

# --- check ---
C=$TMP/check.json
expect_exit 1 "check: exit 1 (a crit finding on some node)" MPI check "${SR[@]}" --json -o "$C"
validate cluster-command.schema.json "$C"
is "check: kind and workload" "$(jqv "$C" '"\(.kind) \(.workload)"')" "cluster-check general"
is "check: a finding on node1-3 only, not on node4" \
	"$(jqv "$C" '.findings.partial[]|select(.id=="net.tcp-tw-recycle")|"\(.nodes|join(",")) / \(.not_on|join(","))"')" \
	"node1,node2,node3 / node4"
is "check: node4's own finding" \
	"$(jqv "$C" '.findings.partial[]|select(.id=="conflict.tuned-governor")|"\(.nodes|join(",")) / \(.not_on|join(","))"')" \
	"node4 / node1,node2,node3"
ok "check: common findings are on every node" jq -e '[.findings.common[]|.nodes|length == 4]|all' "$C"
is "check: findings counts per node" "$(jqv "$C" '[.nodes[]|"\(.name):\(.findings.crit)"]|join(",")')" \
	"node1:1,node2:1,node3:1,node4:0"
ok "check: no drift section" jq -e '.drift == null' "$C"
mkdir "$TMP/four"
for r in 0 1 2 3; do ln -s "$N/root4" "$TMP/four/$r"; done
expect_exit 0 "check: exit 0 when no finding on any node reaches --fail-on (node4's tree x4)" \
	MPI check --sysroot-per-rank "$TMP/four/%r" --json -o "$TMP/four.json"
is "check: 4 ranks on one machine tree are one node" "$(jqv "$TMP/four.json" '[.nodes[].name]|join(",")')" \
	"node4"
expect_exit 1 "check (text)" MPI check "${SR[@]}"
like "check text: the partial finding with its nodes" "$(cat "$OUT")" \
	'tcp_tw_recycle is on.*: on node1, node2, node3; not on node4'

# --- bench NAME: every rank a node, the benchmark at the same time ---
B=$TMP/bench.json
ok "bench clock --quick --runs 2 --per-rank-nodes" MPI bench clock --quick --runs 2 --per-rank-nodes --json -o "$B"
validate cluster-command.schema.json "$B"
is "bench: kind, name, simultaneous" "$(jqv "$B" '"\(.kind) \(.benchmark.name) \(.mpi.simultaneous)"')" \
	"cluster-bench clock true"
is "bench: 4 ok results" "$(jqv "$B" '[.benchmark.results[]|select(.status=="ok")]|length')" 4
is "bench: every metric has one row per node" "$(jqv "$B" '[.benchmark.metrics[]|.nodes|length]|unique|join(",")')" 4
is "bench: --runs reaches every node" "$(jqv "$B" '[.benchmark.metrics[]|.nodes[]|.n]|unique|join(",")')" 2
ok "bench: some metrics, medians > 0, the worst node named" \
	jq -e '(.benchmark.metrics|length) > 0 and ([.benchmark.metrics[]|.nodes[]|.median > 0]|all) and
		([.benchmark.metrics[]|select(.better != "neither")|.worst|type == "string"]|all)' "$B"
ok "bench syscall --quick (text)" MPI bench syscall --quick --per-rank-nodes
like "bench text: a metric heading and a row per node" "$(tr '\n' '|' <"$OUT")" \
	'cluster-bench: 4 nodes.*\(ns, median of the runs; lower is better\)\|  [^|]*:r0 '

# --- bad input: one line from the lowest failing rank, exit 2, nothing written ---
X=$TMP/bad
MPI2() { timeout 300 mpirun --oversubscribe -np 2 "$PERFLAB_MPI" "$@"; }
bad() { # NAME REGEX ARGS... (2 ranks: quicker to start; the rank rule is tested on 4 below)
	local name=$1 re=$2
	shift 2
	expect_exit 2 "$name: exit 2" MPI2 "$@"
	like "$name: one line" "$(one_error)" "^1 perflab-mpi: error: $re"
	is "$name: nothing on stdout" "$(wc -c <"$OUT")" 0
}
bad "unknown subcommand" "unknown command 'frobnicate'" frobnicate -o "$X"
bad "missing bench name" "which benchmark\\?" bench --quick -o "$X"
bad "unknown benchmark" "unknown benchmark 'nosuch'" bench nosuch -o "$X"
bad "unknown workload" "--workload: unknown value 'nope'" check -W nope -o "$X"
bad "unknown option" "unknown option '--bogus' \\(see 'perflab-mpi check --help'\\)" check --bogus -o "$X"
bad "unknown domain" "--domain 'nope': unknown domain" inspect --domain nope -o "$X"
bad "bench on fixture trees" "bench measures this machine" bench clock "${SR[@]}" -o "$X"
bad "bad --timeout" "--timeout: 'soon' is not a duration" inspect --timeout soon -o "$X"
expect_exit 2 "missing per-rank sysroot (ranks 2 and 3): exit 2" MPI inspect --sysroot-per-rank "$TMP/half/%r" -o "$X"
like "missing per-rank sysroot: one line, from rank 2 (the lowest failing)" "$(one_error)" \
	"^1 perflab-mpi: error: --sysroot-per-rank: rank 2: '$TMP/half/2' is not a directory"
ok "nothing written" test ! -e "$X"
ok "inspect --help" MPI2 inspect --help
is "--help: printed once (rank 0)" "$(grep -c '^usage: ' "$OUT")" 1
like "--help: the cluster options" "$(cat "$OUT")" '--sysroot-per-rank DIR/%r'
ok "bench clock --help" MPI2 bench clock --help
like "bench NAME --help: the benchmark's and the runner's options" "$(cat "$OUT")" '--runs.*'

done_testing
