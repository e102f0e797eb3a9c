#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab-mpi report across "hosts" that are network namespaces: three
# namespaces with their own UTS namespace (hostname = the namespace's name) on a bridge in
# a fourth one, where mpirun runs, so nothing is added to this machine's own network.
# OpenMPI starts its daemons in them through an rsh agent (`ip netns exec NS unshare
# --uts`), and the ranks can reach each other only over TCP on the bridge's subnet: the
# report must have the namespaces as its nodes (ranks grouped by hostname), a latency
# matrix whose pairs OpenMPI's verbose output shows connected over TCP to the other
# namespaces' addresses, STREAM on every node, --net-tcp's pairs reached by address (the
# namespaces' names resolve nowhere), and the drift of the fixture nodes naming node4.
# Every namespace is removed on exit, also after a failure or a signal; the test is
# skipped with the reason where it is not root or namespaces cannot be made.
. "$PERFLAB_SRCDIR/tests/lib.sh"
. "$PERFLAB_SRCDIR/tests/mpi/lib-mpi.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "network namespaces as hosts" "needs root (ip netns add, veth pairs)"
	done_testing
fi
for c in ip unshare; do
	if ! command -v "$c" >/dev/null; then
		skip "network namespaces as hosts" "no '$c' command (iproute2, util-linux)"
		done_testing
	fi
done

# NS0 runs mpirun and holds the bridge; HOSTS are the "hosts", 10.77.0.2.. on the bridge
P=pl$$
NS0=${P}m
HOSTS=("${P}a" "${P}b" "${P}c")
SUBNET=10.77.0.0/24
made=()
# cleanup: end what still runs in the namespaces (orteds and ranks a killed mpirun left
# behind: only processes this test started live there), then remove them
cleanup() {
	local ns pid
	for ns in "${made[@]}"; do
		for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null; done
		ip netns del "$ns" 2>/dev/null
	done
	made=()
}
trap 'cleanup; rm -rf "$TMP"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# setup: the namespaces, the bridge and a veth pair per host, loopback up everywhere
# (OpenMPI's daemons and ranks need it: hwloc probes X displays on 127.0.0.1 and the
# PMIx server of each daemon listens there); the failing command's line on error
setup() {
	ip netns add "$NS0" && made+=("$NS0") &&
		ip -n "$NS0" link set lo up &&
		ip -n "$NS0" link add br0 type bridge &&
		ip -n "$NS0" addr add 10.77.0.1/24 dev br0 &&
		ip -n "$NS0" link set br0 up || return 1
	local i=0 h
	for h in "${HOSTS[@]}"; do
		i=$((i + 1))
		ip netns add "$h" && made+=("$h") &&
			ip -n "$NS0" link add "v$i" type veth peer name eth0 netns "$h" &&
			ip -n "$NS0" link set "v$i" master br0 up &&
			ip -n "$h" addr add "10.77.0.$((i + 1))/24" dev eth0 &&
			ip -n "$h" link set eth0 up &&
			ip -n "$h" link set lo up || return 1
	done
}
if ! setup 2>"$TMP/setup.err"; then
	skip "network namespaces as hosts" "cannot make them here: $(head -1 "$TMP/setup.err")"
	done_testing
fi

# the rsh agent OpenMPI calls as AGENT HOST CMD...: CMD (a shell command line, as ssh
# runs it) in namespace HOST, in a UTS namespace of its own named HOST
AGENT=$TMP/agent
cat >"$AGENT" <<'EOF'
#!/bin/sh
h=$1
shift
exec ip netns exec "$h" unshare --uts /bin/sh -c "hostname \"\$0\" && exec $*" "$h"
EOF
chmod +x "$AGENT"

# NSMPI MPIRUN_ARGS... -- ARGS...: perflab-mpi ARGS under mpirun in NS0 with the ranks
# on HOSTS, only TCP between them (and self), bounded to 300 s
NSMPI() {
	local m=()
	while [ "$1" != -- ]; do m+=("$1"); shift; done
	shift
	timeout -k 5 300 ip netns exec "$NS0" mpirun --mca plm_rsh_agent "$AGENT" \
		--mca btl tcp,self --mca btl_tcp_if_include "$SUBNET" \
		--mca oob_tcp_if_include "$SUBNET" "${m[@]}" "$PERFLAB_MPI" "$@" </dev/null
}
H3=$(IFS=,; echo "${HOSTS[*]}")

ok "the daemons start in the namespaces, each rank its hostname" \
	timeout -k 5 120 ip netns exec "$NS0" mpirun --mca plm_rsh_agent "$AGENT" \
	--mca oob_tcp_if_include "$SUBNET" -H "$H3" hostname </dev/null
is "one rank per namespace" "$(sort "$OUT" | tr '\n' ' ')" "${HOSTS[*]} "

L=$TMP/live
ok "report --quick --net-tcp on 3 namespace hosts" \
	NSMPI -H "$H3" --mca btl_base_verbose 30 -- report -o "$L" --quick --net-tcp
LJ=$L/report.json
validate cluster.schema.json "$LJ"
is "the nodes are the namespaces" "$(jqv "$LJ" '[.nodes[]|"\(.name)=\(.status)"]|join(",")')" \
	"${HOSTS[0]}=ok,${HOSTS[1]}=ok,${HOSTS[2]}=ok"
# "[HOST:PID] btl:tcp: now connected to ADDR, process ..." lines: the host pairs whose
# ranks OpenMPI connected over TCP (ADDR 10.77.0.N is HOSTS[N-2])
pairs=$(sed -n 's/^\[\([^:]*\):[0-9]*\] btl:tcp: now connected to 10\.77\.0\.\([0-9]*\),.*/\1 \2/p' \
	"$OUT" "$ERR" | while read -r h n; do
	o=${HOSTS[$((n - 2))]}
	[ "$h" != "$o" ] && printf '%s\n' "$h $o" | tr ' ' '\n' | sort | paste -sd-
done | sort -u | paste -sd' ')
is "OpenMPI connected every pair of namespaces over TCP" "$pairs" \
	"${HOSTS[0]}-${HOSTS[1]} ${HOSTS[0]}-${HOSTS[2]} ${HOSTS[1]}-${HOSTS[2]}"
is "3 pairs measured between the namespaces" \
	"$(jqv "$LJ" '[.network.pairs[]|"\(.a)-\(.b)"]|join(" ")')" \
	"${HOSTS[0]}-${HOSTS[1]} ${HOSTS[0]}-${HOSTS[2]} ${HOSTS[1]}-${HOSTS[2]}"
# TCP through a veth and a bridge takes tens of us at least; shared memory 0.2-1.4 us
# here (../shared/PEERS.md): a pair that went over shared memory would be below 2 us
is "every pair's 8 B round trip is above shared memory's (> 2 us)" \
	"$(jqv "$LJ" '[.network.pairs[]|.points[0]|select(.bytes == 8)|.rtt_us > 2]|"\(length) \(all)"')" \
	"3 true"
is "latency matrix: off-diagonal > 0, diagonal empty" \
	"$(jqv "$LJ" '[.network.latency_oneway_us|to_entries[]|.key as $i|.value|to_entries[]|
		if .key == $i then (.value == null) else (.value > 0) end]|all')" "true"
is "STREAM on every namespace, at the same time" \
	"$(jqv "$LJ" '"\([.memory.nodes[]|"\(.node):\(.triad_gbs > 0)"]|join(",")) \(.memory.simultaneous)"')" \
	"${HOSTS[0]}:true,${HOSTS[1]}:true,${HOSTS[2]}:true true"
is "--net-tcp: every pair's TCP round trip > 0, its server reached by address" \
	"$(jqv "$LJ" '[.network.pairs[]|"\(.tcp.rtt_us > 0) \(.tcp.reached)"]|unique|join(",")')" \
	"true address"

# two ranks on one namespace host are one node: grouped by hostname (the UTS namespace's)
# and boot id (the same for all)
G=$TMP/group
ok "report --no-bench, 4 ranks on 3 namespace hosts" \
	NSMPI -np 4 -H "$H3,${HOSTS[2]}" -- report -o "$G" --no-bench
is "3 nodes, 3 collectors of 4 ranks" \
	"$(jqv "$G/report.json" '"\([.nodes[]|.name]|join(",")) \(.mpi.collectors) \(.mpi.ranks)"')" \
	"$H3 3 4"

rank_sysroots
D=$TMP/drift
ok "report with one fixture sysroot per rank, 4 ranks on 3 namespace hosts" \
	NSMPI -np 4 -H "$H3,${HOSTS[2]}" -- report -o "$D" --sysroot-per-rank "$TMP/sr/%r"
validate cluster.schema.json "$D/report.json"
is "four fixture nodes, one per rank" \
	"$(jqv "$D/report.json" '[.nodes[]|"\(.name)=\(.source)"]|join(",")')" \
	"node1=rank 0,node2=rank 1,node3=rank 2,node4=rank 3"
node4_drift "$D/report.json" netns:

cleanup
is "the namespaces are removed" "$(ip netns list | grep -c "^$P")" "0"

done_testing
