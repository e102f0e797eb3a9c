# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the tests/mpi scripts after tests/lib.sh: OpenMPI's settings for root and
# oversubscription on this machine, one skip with the reason (and the end of the test)
# where perflab-mpi was not built or mpirun cannot start, and MPI ARGS... = perflab-mpi
# ARGS under `mpirun --oversubscribe -np 4`, bounded to 300 s.
export PERFLAB_TIMESTAMP=1700000000
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
if [ -z "${PERFLAB_MPI:-}" ] || [ ! -x "$PERFLAB_MPI" ]; then
	skip "perflab-mpi" "not built (no MPI found by meson; scripts/install-deps.sh installs libopenmpi-dev)"
	done_testing
fi
if ! command -v mpirun >/dev/null || ! timeout 60 mpirun -np 1 true >/dev/null 2>&1; then
	skip "perflab-mpi" "mpirun cannot start here: $(timeout 60 mpirun -np 1 true 2>&1 | head -1)"
	done_testing
fi
MPI() { timeout 300 mpirun --oversubscribe -np 4 "$PERFLAB_MPI" "$@"; }
# one_error: "COUNT LINE" of the perflab-mpi error lines in $ERR (one is wanted)
one_error() { echo "$(grep -c 'perflab-mpi: error' "$ERR") $(grep 'perflab-mpi: error' "$ERR")"; }
# node4_drift FILE WHAT: the drift of the cluster document FILE names node4's governor,
# kernel and THP (tests/report/cluster-nodes.sh's nodes) and equals perflab report
# --from's over the nodes' report.json in $N (WHAT prefixes the test names)
node4_drift() {
	local f=$1 w=$2
	drift() { jqv "$f" ".drift.facts[] | select(.key == \"$1\") | \"\(.majority) \(.odd_nodes|join(\",\")) \(.values[1].value)\""; }
	is "$w drift names node4's governor" "$(drift cpufreq.governor)" "powersave node4 performance"
	is "$w drift names node4's kernel" "$(drift kernel.release)" "3.10.0-1160.el7.x86_64 node4 5.14.0-362.el9.x86_64"
	is "$w drift names node4's THP" "$(drift mem.thp.enabled)" "always node4 never"
	is "$w the same drift as perflab report --from" "$(jq -c .drift "$f")" \
		"$("$PERFLAB" report -o "$TMP/from" --json --from "$N/n1/report.json" --from "$N/n2/report.json" \
			--from "$N/n3/report.json" --from "$N/n4/report.json" | jq -c .drift)"
}
# rank_sysroots: the four fixture nodes of tests/report/cluster-nodes.sh in N=$TMP/nodes
# and $TMP/sr/0..3 linked to them, one tree per rank (--sysroot-per-rank "$TMP/sr/%r")
rank_sysroots() {
	N=$TMP/nodes
	. "$PERFLAB_SRCDIR/tests/report/cluster-nodes.sh"
	make_cluster_nodes "$N"
	mkdir "$TMP/sr"
	for i in 1 2 3 4; do ln -s "$N/root$i" "$TMP/sr/$((i - 1))"; done
}
