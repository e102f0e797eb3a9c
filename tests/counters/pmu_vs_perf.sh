#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The perf_event_attr perflab's resolver builds for a spelling equals the one perf builds:
# in a private mount namespace each fixture's PMU tree (tests/fixtures/pmu/TREE/sys/bus/
# event_source/devices) is bind-mounted over /sys/bus/event_source/devices, and
# `perf stat -vv -e SPEC true` prints the attr before its open fails (the fixture's PMU
# types do not exist here). type, config, config1 ("{ bp_addr, config1 }" in perf 6.1's
# print), config2 and exclude_user/kernel/hv are compared with what the test helper
# pmu-attr prints for the same spelling over the same tree (--sysroot). perf sets
# exclude_guest on every event it opens (event_attr_init); perflab leaves that to the
# counting session, so it is not compared. Tracepoints are not compared: perf reads their
# ids from this machine's tracefs, which the bind mount does not cover (test_pmu checks
# them against the fixtures' ids). perf also attaches its own JSON event tables for this
# host's CPUID ("Using CPUID ..." in its output, echoed below) to the core PMU; the
# spellings compared are the kernel's sysfs ones, and a failure on a host whose tables
# define one of these names differently is that, not a resolver bug. Skips with the reason when not root, perf is missing
# or mount namespaces are refused.
. "$PERFLAB_SRCDIR/tests/lib.sh"
: "${PMU_ATTR:?run through meson test}"
FIX=$PERFLAB_SRCDIR/tests/fixtures/pmu
DEVS=/sys/bus/event_source/devices

why=""
if [ "$(id -u)" != 0 ]; then
	why="not root: a private mount namespace and bind mounts need CAP_SYS_ADMIN"
elif ! command -v perf >/dev/null 2>&1 || ! perf --version >/dev/null 2>&1; then
	why="perf is not installed"
elif ! unshare -m true 2>/dev/null; then
	why="unshare -m is refused here (no mount namespaces in this container)"
elif [ ! -d $DEVS ]; then
	why="$DEVS does not exist to mount over"
fi
if [ -n "$why" ]; then
	skip "perflab's attrs equal perf stat -vv's over the fixture trees" "$why"
	done_testing
fi
echo "# $(perf --version); $(perf stat -vv -e task-clock true 2>&1 | grep -m1 'Using CPUID' || echo 'no CPUID line')"

# perf's attrs for each spelling of $2.. over tree $1, as "SPEC|type config config1
# config2 eu ek eh" lines (one per attr perf printed; none when perf refused the spelling).
perf_attrs() {
	local tree=$1
	shift
	unshare -m bash -s "$FIX/$tree/sys/bus/event_source/devices" "$@" <<'EOS'
set -u
mount --bind "$1" /sys/bus/event_source/devices || exit 3
shift
for spec in "$@"; do
	perf stat -vv -e "$spec" -- true 2>&1 | awk -v spec="$spec" '
		/^perf_event_attr:/ { in_a = 1; t = 0; c = "0x0"; c1 = "0x0"; c2 = "0x0"; eu = 0; ek = 0; eh = 0; next }
		in_a && /^-----/ { printf "%s|%s %s %s %s %s %s %s\n", spec, t, c, c1, c2, eu, ek, eh; in_a = 0; next }
		in_a && $1 == "type" { t = $2 }
		in_a && $1 == "config" { c = $2 }
		in_a && /config1 }/ { c1 = $NF }
		in_a && /config2 }/ { c2 = $NF }
		in_a && $1 == "exclude_user" { eu = $2 }
		in_a && $1 == "exclude_kernel" { ek = $2 }
		in_a && $1 == "exclude_hv" { eh = $2 }'
done
EOS
}

# perflab's attrs in the same shape.
ours() {
	local tree=$1
	shift
	"$PMU_ATTR" --sysroot "$FIX/$tree" "$@" 2>/dev/null | sed -nE \
		's/^(.*) type=([0-9]+) config=([^ ]+) config1=([^ ]+) config2=([^ ]+) exclude_user=([01]) exclude_kernel=([01]) exclude_hv=([01]) .*/\1|\2 \3 \4 \5 \6 \7 \8/p'
}

# compare TREE SPEC...: one check per spelling, the sets of distinct attrs equal (perf
# adds an uncore spelling's instances in its own order, and prints an attr again for each
# CPU of a PMU's cpus file and for each retry of a failed open).
compare() {
	local tree=$1 spec p o
	shift
	perf_attrs "$tree" "$@" >"$TMP/perf.$tree"
	ours "$tree" "$@" >"$TMP/ours.$tree"
	for spec in "$@"; do
		p=$(grep -F -- "$spec|" "$TMP/perf.$tree" | awk -F'|' -v s="$spec" '$1 == s { print $2 }' | sort -u)
		o=$(grep -F -- "$spec|" "$TMP/ours.$tree" | awk -F'|' -v s="$spec" '$1 == s { print $2 }' | sort -u)
		if [ -z "$p" ]; then
			_report fail "$tree: $spec: perf printed no attr (it refused the spelling)"
			continue
		fi
		is "$tree: $spec (type config config1 config2 exclude_user/kernel/hv)" "$o" "$p"
	done
}

compare spr cycles instructions:u branch-misses:k ref-cycles cache-misses:h \
	L1-dcache-load-misses LLC-loads dTLB-load-misses iTLB-load-misses branch-loads \
	L1-icache-load-misses node-stores task-clock page-faults cs r01c2 r412e:u \
	'cpu/event=0x3c,umask=0x1/' 'cpu/event=0xd1,umask=0x20,cmask=1,inv/' cpu/mem-loads/ \
	'cpu/mem-loads,ldlat=64/' cpu/topdown-retiring/ topdown-be-bound slots:k \
	'cpu/event=0xc6,umask=0x1,frontend=0x11/' 'cpu/config=0x1234,umask=1/' \
	'cpu/event=0xb7,umask=0x1,offcore_rsp=0x10001/u' uncore_imc/cas_count_read/ \
	imc/cas_count_write/ 'uncore_imc_1/event=0x5,umask=0x1ff/' power/energy-pkg/ \
	energy-cores msr/tsc/ msr/aperf/
compare zen4 cycles instructions stalled-cycles-frontend LLC-load-misses r076 \
	'cpu/event=0x1c0/' 'cpu/event=0xfff,umask=0x3/' cpu/cpu-cycles/ cpu/branch-misses/u \
	'cpu/event=0x76,cmask=2,edge/' 'amd_df/event=0x1f,umask=0xffe/' \
	'amd_l3/event=0x4,umask=0xff,enallcores=1,enallslices=1,threadmask=3/' \
	power/energy-pkg/ energy-pkg msr/aperf/ msr/mperf/ irperf dTLB-loads:u \
	faults migrations
compare neoverse-n1 cycles instructions:u branch-misses stalled-cycles-backend \
	L1-dcache-load-misses LLC-loads r11 r0023:k armv8_pmuv3_0/cpu_cycles/ \
	'armv8_pmuv3_0/event=0x23/' inst_retired stall_frontend:u stall_backend \
	'armv8_pmuv3_0/event=0x11,long=1/' armv8_pmuv3_0/l1d_cache_refill/ \
	armv8_pmuv3_0/ll_cache_miss_rd/k 'armv8_pmuv3_0/config=0x8,config1=1/' \
	dtlb_walk task-clock cpu-clock
compare vm cycles task-clock msr/tsc/ msr/mperf/ tsc

# Where perflab and perf answer differently, on purpose:
# - "cpu/..." on Arm: perflab's "cpu" means the core PMU whatever its name (so metric
#   tables spell core events one way); perf 6.1 knows no PMU called "cpu" there.
perf_attrs neoverse-n1 cpu/inst_retired/ >"$TMP/perf.cpu"
is "neoverse-n1: perf 6.1 has no 'cpu' PMU on Arm" "$(cat "$TMP/perf.cpu")" ""
is "neoverse-n1: perflab's cpu/inst_retired/ is armv8_pmuv3_0's" \
	"$(ours neoverse-n1 cpu/inst_retired/)" "cpu/inst_retired/|8 0x8 0x0 0x0 0 0 0"
# - power/energy-pkg/ without a power PMU: perf refuses it; perflab reads the powercap
#   sysfs (intel-rapl:N zones), one event per package, which pmu-attr shows as pmu=powercap.
perf_attrs vm power/energy-pkg/ >"$TMP/perf.pc"
is "vm: perf 6.1 refuses power/energy-pkg/ without a power PMU" "$(cat "$TMP/perf.pc")" ""
is "vm: perflab reads power/energy-pkg/ from the two package zones" \
	"$("$PMU_ATTR" --sysroot "$FIX/vm" power/energy-pkg/ | grep -c 'pmu=powercap scale=1e-06 unit=Joules')" 2
done_testing
