# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by tests/report/cluster.sh and tests/mpi/report.sh: four fixture nodes for the
# cluster report. make_cluster_nodes DIR writes DIR/root1..4 (copies of the intel-2s
# tree, hostnames node1..node4; node4 has governor performance, kernel 5.14, THP never
# and tcp_tw_recycle 0), DIR/memN.json (bench mem with triad 10, 10.2, 9.9 and 6.1 GB/s)
# and DIR/nN/report.json (perflab report --sysroot DIR/rootN --no-bench --from memN.json).
make_cluster_nodes() {
	local N=$1
	mkdir -p "$N"
	# bench mem documents with a given triad median (GB/s) and a small stddev
	mem_doc() { # OUT TRIAD
		jq --argjson t "$2" '.metrics |= map(if .name == "triad" then .median = $t |
			.stddev = 0.05 else . end)' "$PERFLAB_SRCDIR/tests/report/fixtures/bench-mem.json" >"$1"
	}
	for i in 1 2 3 4; do
		cp -r "$FIXTURES/sysroots/intel-2s" "$N/root$i"
		echo "node$i" >"$N/root$i/proc/sys/kernel/hostname"
		echo "$((i * 1000))" >"$N/root$i/proc/uptime" # naturally different: never drift
	done
	R4=$N/root4
	for g in "$R4"/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor; do echo performance >"$g"; done
	echo "5.14.0-362.el9.x86_64" >"$R4/proc/sys/kernel/osrelease"
	# the new kernel comes with its own /boot/config (same CONFIG_HZ: kernel.release drifts,
	# kernel.config_hz does not)
	for c in "$R4"/boot/config-*; do [ -e "$c" ] && mv "$c" "$R4/boot/config-5.14.0-362.el9.x86_64"; done
	echo "always madvise [never]" >"$R4/sys/kernel/mm/transparent_hugepage/enabled"
	echo 0 >"$R4/proc/sys/net/ipv4/tcp_tw_recycle"
	for i in 1 2 3 4; do
		t=10.0
		[ "$i" = 2 ] && t=10.2
		[ "$i" = 3 ] && t=9.9
		[ "$i" = 4 ] && t=6.1
		mem_doc "$N/mem$i.json" "$t"
		"$PERFLAB" report --sysroot "$N/root$i" --no-bench --from "$N/mem$i.json" -o "$N/n$i" \
			>/dev/null 2>&1 || echo "node $i report failed"
	done
}
