#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab stat's event classes through the command, live where this machine has them and
# over the fixture PMU trees (--sysroot, --list) where it does not: msr/tsc/ against the
# TSC rate, a tracepoint against the reads a command made and perf stat's count, PMU
# syntax and aliases, powercap, --from on the hand-worked perf stat files with -M (the
# values of test_metric.c), and bad input: each one line, exit 2 (or 3 for an event this
# machine cannot count), the input and the reason named.
. "$PERFLAB_SRCDIR/tests/lib.sh"
P=$PERFLAB
FX=$FIXTURES
near() { # A B TOLERANCE(fraction of B)
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * t) }'
}
bad() { # CODE NAME REGEX ARGS...
	local code=$1 name=$2 re=$3
	shift 3
	expect_exit "$code" "$name: exit $code" "$P" stat "$@"
	is "$name: one line on stderr" "$(wc -l <"$ERR")" 1
	like "$name: names the input and the reason" "$(cat "$ERR")" "$re"
	is "$name: nothing on stdout" "$(wc -c <"$OUT")" 0
}

# --- bad input --------------------------------------------------------------------------
bad 2 "unknown event" "unknown event 'cyclez'" -e cyclez -- true
bad 2 "unknown PMU" "unknown PMU 'nopmu' in 'nopmu/event=1/'" -e nopmu/event=1/ -- true
bad 2 "malformed term" "term 'event=zz' needs a number .* in 'software/event=zz/'" \
	-e software/event=zz/ -- true
bad 2 "unterminated PMU event" "unterminated PMU event" -e 'nopmu/event=1,' -- true
bad 2 "unknown metric" "-M: unknown metric or group 'nosuch'" -M ipc,nosuch -- true
mkfifo "$TMP/fifo"
bad 2 "--from a FIFO" "'$TMP/fifo': not a regular file" --from "$TMP/fifo"
bad 2 "--from a directory" "'$TMP': not a regular file" --from "$TMP"
printf 'garbage here\n' >"$TMP/garbage.txt"
bad 2 "--from a malformed file" "garbage.txt:1: not a perf stat -x, line" --from "$TMP/garbage.txt"
if [ -d /sys/bus/event_source/devices/msr ]; then
	bad 2 "unknown term" "unknown term or event 'foo' of PMU 'msr' in 'msr/foo=1/'" -e msr/foo=1/ -- true
else
	skip "unknown term" "no msr PMU here"
fi
if [ -f /sys/bus/event_source/devices/uprobe/format/ref_ctr_offset ]; then
	bad 2 "a value too wide" "value 0x1ffffffff of term 'ref_ctr_offset' .* wider than its 32 bits" \
		-e uprobe/ref_ctr_offset=0x1ffffffff/ -- true
else
	skip "a value too wide" "no uprobe PMU here (test_pmu checks it over the fixtures)"
fi
core=$("$P" stat --list --json | jq -r .core_pmu)
if [ "$core" = false ]; then
	bad 3 "a core PMU event without one" "cannot count 'cpu/event=0x3c/': this machine has no core PMU" \
		-e cpu/event=0x3c/ -- true
	bad 3 "an event that cannot be opened" "cannot count 'r01c2': no core PMU" -e r01c2 -- true
	# a metric with a missing event: said in the output, exit 0
	ok "-M ipc without a core PMU: exit 0" "$P" stat --json -o "$TMP/ipc.json" -M ipc -- true
	is "-M ipc: unavailable, no value" "$(jq -r '.metrics[0] | [.metric, .unavailable, (.value | tostring)] | join(",")' "$TMP/ipc.json")" \
		"ipc,instructions not on this PMU,null"
	ok "-M ipc, text" "$P" stat -o "$TMP/ipc.txt" -M ipc -- true
	like "-M ipc: the text says so" "$(cat "$TMP/ipc.txt")" "ipc unavailable: instructions not on this PMU"
else
	skip "events this machine cannot count" "this machine has a core PMU"
fi

# --- PMU syntax, aliases and powercap over the fixture trees (--list) --------------------
ok "--list over the Sapphire Rapids tree" "$P" --sysroot "$FX/pmu/spr" stat --list
for e in "cpu/topdown-retiring/ +pmu" "msr/tsc/ +pmu" "power/energy-pkg/ +pmu +Joules" \
	"uncore_imc_0/cas_count_read/ +pmu +MiB" "cycles +hardware" "LLC-load-misses +cache"; do
	like "spr --list: $e" "$(cat "$OUT")" "$e"
done
ok "--list over the Zen 4 tree" "$P" --sysroot "$FX/pmu/zen4" stat --list
like "zen4 --list: the Data Fabric PMU" "$(cat "$OUT")" "amd_df/"
ok "--list over the Neoverse N1 tree" "$P" --sysroot "$FX/pmu/neoverse-n1" stat --list
like "neoverse-n1 --list: its PMU's aliases" "$(cat "$OUT")" "armv8_pmuv3_0/stall_frontend/ +pmu"
ok "--list over the VM tree" "$P" --sysroot "$FX/pmu/vm" stat --list --json -o "$TMP/vm.json"
validate stat.schema.json "$TMP/vm.json"
is "vm --list: power/energy-* from the powercap zones" \
	"$(jq -r '[.list_events[] | select(.kind == "powercap") | .name] | join(",")' "$TMP/vm.json")" \
	"power/energy-cores/,power/energy-pkg/,power/energy-ram/"
is "vm --list: no core PMU, said why" "$(jq -r '.core_pmu, (.core_pmu_reason | test("no core PMU"))' "$TMP/vm.json" | paste -sd,)" "false,true"
if [ -d /sys/class/powercap ] && ls /sys/class/powercap | grep -q '^intel-rapl:'; then
	ok "power/energy-pkg/ live" "$P" stat -a --json -o "$TMP/pw.json" -e power/energy-pkg/ -- sleep 0.2
	like "energy-pkg in Joules > 0" "$(jq -r '.events[0] | .unit + " " + (.["counter-value"] > 0 | tostring)' "$TMP/pw.json")" "Joules true"
else
	skip "power/energy-pkg/ live" "no /sys/class/powercap RAPL zone here (the VM tree covers its resolution)"
fi

# --- --from on the hand-worked perf stat files (tests/counters/test_metric.c) -------------
PS=$FX/perf-stat
from() { # FILE METRICS: "name=value" per metric, "name=-" when unavailable
	"$P" stat --from "$PS/$1" -M "$2" --json -o "$TMP/from.json" >"$OUT" 2>"$ERR" || return 1
	jq -r '.metrics[] | .metric + "=" + (if .value then (.value * 1000 | round / 1000 | tostring) else "-" end)' \
		"$TMP/from.json" | sort | paste -sd' '
}
is "--from spr: top-down, IPC, L2 MPKI" "$(from hand-spr-topdown.txt topdown,ipc,l2_mpki)" \
	"ipc=1.5 l2_mpki=10 topdown_backend_bound=45 topdown_bad_speculation=10 topdown_frontend_bound=20 topdown_retiring=25"
is "--from zen4: top-down (6 slots), IPC, L2 MPKI" "$(from hand-zen4.csv topdown,ipc,l2_mpki)" \
	"ipc=2 l2_mpki=5 topdown_backend_bound=30 topdown_bad_speculation=5 topdown_frontend_bound=20 topdown_retiring=40"
is "--from neoverse-n2: L2 MPKI; top-down needs #slots, which perf stat output lacks" \
	"$(from hand-neoverse-n2.txt topdown,l2_mpki)" \
	"l2_mpki=5 topdown_backend_bound=- topdown_bad_speculation=- topdown_frontend_bound=- topdown_retiring=-"
like "--from neoverse-n2: '#slots' named" "$(jq -r '.metrics[0].unavailable' "$TMP/from.json")" "^#slots not on this PMU"

# --- live: msr/tsc/, tracepoints -----------------------------------------------------------
if ! "$P" stat -e task-clock -o "$TMP/probe.txt" -- true 2>"$TMP/probe.err"; then
	skip "live event classes" "perf_event_open is not usable here: $(head -c 300 "$TMP/probe.err")"
	done_testing
fi
# The TSC rate: the kernel's tsc_khz is what /proc/cpuinfo's "cpu MHz" shows where no
# cpufreq driver changes it and the TSC is constant and its frequency known (a KVM guest)
rate=
if grep -qw tsc_known_freq /proc/cpuinfo && grep -qw constant_tsc /proc/cpuinfo &&
	[ ! -d /sys/devices/system/cpu/cpufreq/policy0 ]; then
	rate=$(awk -F': *' '/^cpu MHz/ { print $2 * 1e6; exit }' /proc/cpuinfo)
fi
if ! "$P" stat --list | grep -q '^  msr/tsc/ '; then
	skip "msr/tsc/" "no msr PMU with tsc here"
elif [ -z "$rate" ]; then
	skip "msr/tsc/ against the TSC rate" "the TSC rate is not known here (no tsc_known_freq, or cpufreq)"
else
	# a command: the TSC advances while its task runs, rate x task-clock (5 %)
	ok "msr/tsc/ of a command" "$P" stat --json -o "$TMP/tsc.json" -e msr/tsc/,task-clock -- \
		sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done'
	tsc=$(jq -r '.events[0]["counter-value"]' "$TMP/tsc.json")
	want=$(jq -r --argjson r "$rate" '.events[1]["counter-value"] / 1000 * $r' "$TMP/tsc.json")
	ok "msr/tsc/ of a command = TSC rate x task-clock ($tsc vs $want, 5 %)" near "$tsc" "$want" 0.05
	# system-wide: every CPU's TSC over the run, rate x elapsed x CPUs (5 %)
	ok "msr/tsc/ system-wide" "$P" stat -a --json -o "$TMP/tsca.json" -e msr/tsc/ -- sleep 0.3
	tsc=$(jq -r '.events[0]["counter-value"]' "$TMP/tsca.json")
	want=$(jq -r --argjson r "$rate" --argjson n "$(nproc)" '.elapsed_s * $r * $n' "$TMP/tsca.json")
	ok "msr/tsc/ -a = TSC rate x elapsed x $(nproc) CPUs ($tsc vs $want, 5 %)" near "$tsc" "$want" 0.05
fi
K=500
if ! "$P" stat -e syscalls:sys_enter_read -o /dev/null -- true 2>"$TMP/tp.err"; then
	skip "tracepoints" "$(head -c 200 "$TMP/tp.err")"
else
	ok "syscalls:sys_enter_read of $K one-byte reads" "$P" stat --json -o "$TMP/tp.json" \
		-e syscalls:sys_enter_read -- dd if=/dev/zero of=/dev/null bs=1 count=$K status=none
	n=$(jq -r '.events[0]["counter-value"]' "$TMP/tp.json")
	like "sys_enter_read >= $K ($n)" "$(awk -v n="$n" -v k=$K 'BEGIN { print (n >= k) ? "yes" : "no" }')" yes
	if command -v perf >/dev/null && perf stat -x, -o "$TMP/perf.csv" -e syscalls:sys_enter_read -- \
		dd if=/dev/zero of=/dev/null bs=1 count=$K status=none 2>/dev/null; then
		pn=$(awk -F, '$3 == "syscalls:sys_enter_read" { print $1 }' "$TMP/perf.csv")
		is "sys_enter_read: perflab stat = perf stat ($n, $pn)" "$n" "$pn"
	else
		skip "sys_enter_read against perf stat" "perf is not installed or cannot count it"
	fi
fi
done_testing
