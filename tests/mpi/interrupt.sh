#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Ctrl-C on `mpirun ... perflab-mpi report` writes what was gathered. A test
# hook holds the run at a known point (PERFLAB_MPI_TEST_STALL_PAIR=K: the lead of pair K
# waits for a signal; PERFLAB_MPI_TEST_HANG_RANK=R: rank R before its document), writing
# its pid to $PERFLAB_MPI_TEST_STALLED (and rank 0 the count of documents it has to
# $PERFLAB_MPI_TEST_GATHERED); then the test signals mpirun (OpenMPI's mpirun
# sends SIGTERM to the ranks, SIGKILL 1 s later, and exits 1) or one rank only (rank 0
# learns of it and ends the job: mpirun exits 143). mpirun runs in the background of this
# non-interactive shell, where SIGINT starts ignored: SIGINT is sent with job control on
# (set -m). PERFLAB_MPI_TEST_STALL_PEER=K holds the other rank of pair K (pair 0: rank 0's
# peer, so rank 0's --timeout must end the run). The partial report.json must match the schema, name the signal, the phase
# and what is missing, list the nodes, and nothing may be left half-written.
. "$PERFLAB_SRCDIR/tests/lib.sh"
. "$PERFLAB_SRCDIR/tests/mpi/lib-mpi.sh"

# start_stalled DIR ENV... -- ARGS...: perflab-mpi report -o DIR ARGS under 4 ranks in the
# background (pid in $MP; stdout in DIR.out, stderr in DIR.err), the ENV settings given, until the hook's file has the pid of
# the stalled rank ($STALLED_PID; 240 s at most)
start_stalled() {
	local dir=$1 env=()
	shift
	while [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	rm -f "$TMP/stalled"
	# without job control, setsid (which then runs in place: same pid) keeps mpirun out of
	# this shell's process group, so nothing it signals there on its way down reaches us
	local own=(setsid)
	[[ $- == *m* ]] && own=()
	"${own[@]}" env "${env[@]}" PERFLAB_MPI_TEST_STALLED="$TMP/stalled" \
		mpirun --oversubscribe -np 4 "$PERFLAB_MPI" report -o "$dir" "$@" >"$dir.out" 2>"$dir.err" &
	MP=$!
	for _ in $(seq 2400); do
		[ -s "$TMP/stalled" ] && break
		kill -0 "$MP" 2>/dev/null || break
		sleep 0.1
	done
	STALLED_PID=$(cat "$TMP/stalled" 2>/dev/null)
}
# finish: wait for mpirun (120 s at most, then SIGKILL); its exit status in $RC
finish() {
	for _ in $(seq 1200); do kill -0 "$MP" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$MP" 2>/dev/null && kill -KILL "$MP"
	wait "$MP"
	RC=$?
	# a SIGKILLed mpirun leaves its ranks behind, and a stalled one spins until killed:
	# none may outlive its case (one did, for an hour, on this shared machine)
	pkill -KILL -f "perflab-mpi report -o $TMP/" 2>/dev/null
	return 0
}
# complete_files DIR: the three outputs, nothing else (no temporary file left)
complete_files() { is "$1: report.{html,json,md} and nothing else" "$(ls -A "$1" | tr '\n' ' ')" \
	"report.html report.json report.md "; }

# --- SIGTERM to mpirun while pair 3 (node r1 - r2) waits: STREAM done, 3 of 6 pairs ---
A=$TMP/a
start_stalled "$A" PERFLAB_MPI_TEST_STALL_PAIR=3 -- --quick --per-rank-nodes
ok "the run reached the stalled pair (pid $STALLED_PID)" test -n "$STALLED_PID"
kill -TERM "$MP"
finish
ok "mpirun exits non-zero after SIGTERM (OpenMPI: 1)" test "$RC" -ne 0
J=$A/report.json
validate cluster.schema.json "$J"
complete_files "$A"
is "interrupted: signal, rank 0, phase network" \
	"$(jqv "$J" '.interrupted|"\(.cause) \(.signal) \(.signal_number) \(.rank) \(.phase)"')" \
	"signal SIGTERM 15 0 network"
is "the nodes that answered, all four" \
	"$(jqv "$J" '[.nodes[]|"\(.name|sub(".*:";""))=\(.status)"]|join(",")')" "r0=ok,r1=ok,r2=ok,r3=ok"
is "network.complete false, the 3 pairs before pair 3 measured" \
	"$(jqv "$J" '"\(.network.complete) \([.network.pairs[]|"\(.a|sub(".*:";""))-\(.b|sub(".*:";""))"]|join(","))"')" \
	"false r0-r1,r0-r2,r0-r3"
is "the missing pairs named" \
	"$(jqv "$J" '[.interrupted.pairs_missing[]|map(sub(".*:";""))|join("-")]|join(",")')" "r1-r2,r1-r3,r2-r3"
is "unmeasured pairs are null in the matrix, measured ones > 0" \
	"$(jqv "$J" '.network.latency_oneway_us|"\(.[1][2]) \(.[2][3]) \(.[0][3] > 0)"')" "null null true"
is "the STREAM results that arrived: every node" \
	"$(jqv "$J" '"\(.memory.nodes|length) \(.interrupted.memory_missing|length)"')" "4 0"
is "missing, in words" "$(jqv "$J" '.interrupted.missing|join("; ")')" "network: 3 of 6 pairs not measured"
like "summary: the interruption on rank 0's stdout" "$(tr '\n' '|' <"$A.out")" \
	'^cluster: 4 nodes[^|]*\|interrupted by SIGTERM \(rank 0\) during the network phase: partial report; missing: network: 3 of 6 pairs not measured\|'
like "report.md says so" "$(cat "$A/report.md")" '\*\*interrupted by SIGTERM \(rank 0\) during the network phase'
like "report.html says so" "$(cat "$A/report.html")" '<p id="interrupted">'

# --- SIGINT (Ctrl-C) to mpirun with job control on, so SIGINT is not ignored ---
B=$TMP/b
set -m
start_stalled "$B" PERFLAB_MPI_TEST_STALL_PAIR=1 -- --quick --per-rank-nodes
kill -INT "$MP"
finish
set +m
validate cluster.schema.json "$B/report.json"
complete_files "$B"
is "SIGINT: mpirun sent SIGTERM to the ranks; one pair measured" \
	"$(jqv "$B/report.json" '"\(.interrupted.signal) \(.interrupted.phase) \(.network.pairs|length)"')" \
	"SIGTERM network 1"

# --- SIGTERM to one rank only: rank 0 learns of it, writes, and ends the job ---
C=$TMP/c
start_stalled "$C" PERFLAB_MPI_TEST_STALL_PAIR=4 -- --quick --per-rank-nodes
ok "the stalled rank's pid" test -n "$STALLED_PID"
kill -TERM "$STALLED_PID"
finish
is "mpirun's status: rank 0's MPI_Abort with 128 + SIGTERM" "$RC" 143
validate cluster.schema.json "$C/report.json"
is "the signal is named with the rank it reached (pair 4's lead, rank 1)" \
	"$(jqv "$C/report.json" '"\(.interrupted.signal) \(.interrupted.rank) \(.network.pairs|length)"')" \
	"SIGTERM 1 4"

# --- --timeout: rank 0's peer hangs before their pair (rank 0 leads it: a bounded sync) ---
E=$TMP/e
start_stalled "$E" PERFLAB_MPI_TEST_STALL_PEER=0 -- --quick --per-rank-nodes --timeout 4
ok "rank 1 holds pair 0 (pid $STALLED_PID)" test -n "$STALLED_PID"
finish # no signal: rank 0's --timeout ends the job
is "mpirun's status: rank 0's MPI_Abort (exit 3, a runtime failure)" "$RC" 3
validate cluster.schema.json "$E/report.json"
complete_files "$E"
is "interrupted by --timeout in the network phase, no pair measured" \
	"$(jqv "$E/report.json" '"\(.interrupted.cause) \(.interrupted.timeout_s) \(.interrupted.phase) \(.network.pairs|length) \(.interrupted.pairs_missing|length)"')" \
	"timeout 4 network 0 6"

# --- SIGTERM while a node has not sent its document (fixture nodes, no benchmarks) ---
rank_sysroots
D=$TMP/d
start_stalled "$D" PERFLAB_MPI_TEST_HANG_RANK=2 PERFLAB_MPI_TEST_GATHERED="$TMP/gathered" -- \
	--sysroot-per-rank "$TMP/sr/%r"
ok "rank 2 holds its document (pid $STALLED_PID)" test -n "$STALLED_PID"
for _ in $(seq 2400); do # rank 0 has the other three documents (hook file), 240 s at most
	[ "$(cat "$TMP/gathered" 2>/dev/null)" = 3 ] && break
	sleep 0.1
done
is "rank 0 has three documents before the signal" "$(cat "$TMP/gathered" 2>/dev/null)" 3
kill -TERM "$MP"
finish
validate cluster.schema.json "$D/report.json"
complete_files "$D"
is "the nodes that answered, and the one that did not" \
	"$(jqv "$D/report.json" '[.nodes[]|"\(.name)=\(.status)"]|join(",")')" \
	"node1=ok,node2=ok,node3=failed,node4=ok"
is "its reason" "$(jqv "$D/report.json" '.nodes[2].reason')" \
	"rank 2: no document before the run was interrupted"
is "interrupted in the documents phase, node3 missing" \
	"$(jqv "$D/report.json" '"\(.interrupted.phase) \(.interrupted.nodes_missing|join(",")) \(.interrupted.missing|join(";"))"')" \
	"documents node3 the documents of 1 of 4 nodes"
ok "no network section without benchmarks" jq -e '.network == null' "$D/report.json"

done_testing
