#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab check --json --sysroot over every fixture sysroot (tests/fixtures/sysroots/):
# the exact findings per machine and workload, schema validation, exit codes, and "missing
# is not bad" on the container whose /proc/sys is unreadable.
. "$PERFLAB_SRCDIR/tests/lib.sh"
S=$FIXTURES/sysroots

# findings FIXTURE WORKLOAD: "id[:subject] ..." in report order (crit, warn, info; id)
findings() {
	"$PERFLAB" check --json --sysroot "$S/$1" --workload "$2" --fail-on crit >"$TMP/$1-$2.json" 2>"$ERR"
	jq -r '[.findings[]|.id+(if .subject then ":"+.subject else "" end)]|join(" ")' "$TMP/$1-$2.json"
}
# expect FIXTURE WORKLOAD "ids"
expect() {
	if [ ! -d "$S/$1" ]; then
		skip "$1 --workload $2" "fixture sysroot $1 not present"
		return
	fi
	is "$1 --workload $2: findings" "$(findings "$1" "$2")" "$3"
}
# field FIXTURE WORKLOAD ID FIELD (from the file expect wrote)
field() { jq -r --arg id "$3" "[.findings[]|select(.id==\$id)][0]|$4" "$TMP/$1-$2.json"; }

# Xen HVM guest (the GPU-instance report): xen clocksource with an invariant TSC, the
# report's risky sysctls, a GPU.
expect xen-hvm general "clock.xen-tsc conflict.rmem-max-tcp net.icmp-echo-ignored net.tcp-timestamps-off accel.gpu conflict.swappiness-no-swap"
if [ -d "$S/xen-hvm" ]; then
	is "xen-hvm: observed clocksource" "$(field xen-hvm general clock.xen-tsc .observed)" \
		"clocksource xen (tsc available)"
	is "xen-hvm: risky settings flagged" \
		"$(jq -r '[.findings[]|select(.risky).id]|join(" ")' "$TMP/xen-hvm-general.json")" \
		"net.icmp-echo-ignored net.tcp-timestamps-off"
	like "xen-hvm: risk explained" "$(field xen-hvm general net.tcp-timestamps-off .rationale)" \
		'^Risky: .*PAWS'
fi
expect xen-hvm latency "clock.xen-tsc conflict.rmem-max-tcp net.icmp-echo-ignored net.tcp-timestamps-off accel.gpu conflict.swappiness-no-swap sched.latency-ns"

# The SPEC report's server with its SMBIOS table (dimm-2s = intel-2s + 16 DIMMs in 12
# channels, one channel empty, one DIMM downclocked, two kits).
expect dimm-2s general "net.tcp-tw-recycle dimm.below-rated:P1-DIMMC1 dimm.channels-empty dimm.channels-uneven mem.thp-defrag sched.nohz-full-unisolated accel.qat dimm.mixed-modules"
if [ -d "$S/dimm-2s" ]; then
	is "dimm-2s: downclocked DIMM" "$(field dimm-2s general dimm.below-rated .observed)" \
		"P1-DIMMC1 runs at 2666 MT/s of its rated 2933 MT/s"
	is "dimm-2s: empty channel" "$(field dimm-2s general dimm.channels-empty .observed)" \
		"11 of 12 memory channels populated"
	is "dimm-2s: STREAM named as evidence" "$(field dimm-2s general dimm.below-rated '.evidence // "none"')" none
fi

# GPU node: an A100 at x8 of x16 on node 1 while the workload is isolated on node 0's
# CPUs 1-3, a 16-queue NIC with every IRQ on CPU 0, kernel log events, the GPU report's
# noise sources (auto-reboot, cloud agent, snapd, cron, timers).
expect gpu-node general "net.tcp-tw-recycle kmsg.clocksource-unstable kmsg.nvme-timeout kmsg.thermal-throttle mem.thp-defrag nic.irqs-one-cpu:eno1 pcie.gpu-link-degraded:0000:af:00.0 pcie.gpu-remote-numa:0000:af:00.0 accel.gpu accel.qat kmsg.perf-rate-lowered"
expect gpu-node benchmark "net.tcp-tw-recycle kmsg.clocksource-unstable kmsg.nvme-timeout kmsg.thermal-throttle noise.auto-reboot pcie.gpu-link-degraded:0000:af:00.0 pcie.gpu-remote-numa:0000:af:00.0 power.governor accel.gpu accel.qat kmsg.perf-rate-lowered noise.aslr noise.cloud-agent noise.cron noise.smt-siblings noise.snapd noise.timers power.boost-benchmark"
if [ -d "$S/gpu-node" ]; then
	is "gpu-node: downtrained GPU link" "$(field gpu-node general pcie.gpu-link-degraded .observed)" \
		"link 16 GT/s x8 of 16 GT/s x16"
	is "gpu-node: remote GPU" "$(field gpu-node general pcie.gpu-remote-numa .observed)" \
		"0000:af:00.0 on NUMA node 1 (CPUs 4-7,12-15); the workload's CPUs (isolcpus) are 1-3"
	# --cpus names the workload's CPUs (before isolcpus=): on the GPU's node no finding,
	# on the other node the finding names them and where they came from.
	"$PERFLAB" check --json --sysroot "$S/gpu-node" --cpus 4-5 --fail-on crit >"$TMP/gn-local.json" 2>"$ERR"
	is "gpu-node: --cpus on the GPU's node: no remote-GPU finding" \
		"$(jq '[.findings[] | select(.id == "pcie.gpu-remote-numa")] | length' "$TMP/gn-local.json")" 0
	"$PERFLAB" check --json --sysroot "$S/gpu-node" --cpus 0,2 --fail-on crit >"$TMP/gn-remote.json" 2>"$ERR"
	is "gpu-node: --cpus on the other node: the finding names them" \
		"$(jq -r '[.findings[] | select(.id == "pcie.gpu-remote-numa")][0].observed' "$TMP/gn-remote.json")" \
		"0000:af:00.0 on NUMA node 1 (CPUs 4-7,12-15); the workload's CPUs (workload.cpus) are 0,2"
	expect_exit 2 "check --cpus with a bad list" "$PERFLAB" check --sysroot "$S/gpu-node" --cpus 3-1
	is "check --cpus bad list: one line" "$(wc -l <"$ERR")" 1
	is "gpu-node: remote GPU fix binds to its node" "$(field gpu-node general pcie.gpu-remote-numa .fix.command)" \
		"numactl --cpunodebind=1 --membind=1 -- COMMAND"
	is "gpu-node: NIC IRQs on CPU 0" "$(field gpu-node general nic.irqs-one-cpu .observed)" \
		"all 16 queue IRQs of eno1 may run only on CPU 0"
	like "gpu-node: clocksource event with its time" "$(field gpu-node general kmsg.clocksource-unstable .observed)" \
		"^1 time, last 2 s after boot: clocksource: .*'tsc' as unstable"
	is "gpu-node: timers fix" "$(field gpu-node benchmark noise.timers .fix.command)" \
		"systemctl stop apt-daily-upgrade.timer apt-daily.timer snapd.snap-repair.timer"
	validate check.schema.json "$TMP/gpu-node-benchmark.json"
fi

# 2-socket Intel server (the SPEC CPU report): powersave, deep C-states, THP always,
# irqbalance and numad running, nohz_full without isolcpus, an old kernel with
# tcp_tw_recycle and sched_latency_ns, a QAT card, a rotational disk.
expect intel-2s general "net.tcp-tw-recycle mem.thp-defrag sched.nohz-full-unisolated accel.qat"
expect intel-2s latency "net.tcp-tw-recycle mem.thp-defrag mem.thp-latency numa.balancing-pinned power.cstates-deep power.governor sched.nohz-full-unisolated accel.qat conflict.syn-backlog-somaxconn mem.dirty-latency net.slow-start-after-idle sched.latency-ns"
expect intel-2s hpc "net.tcp-tw-recycle numa.balancing-pinned numa.numad-hpc power.governor sched.nohz-full-unisolated accel.qat sched.irqbalance-hpc"
# Socket buffer maxima: the window bound (bytes x 8 / 1 ms RTT) from the value seen, the
# kernel default (intel-2s: 212992) named as such; this VM's 4 MiB is 33.6 Gb/s, not the
# 1.7 Gb/s of a fixed sentence.
if [ -d "$S/intel-2s" ] && [ -d "$S/this-vm" ]; then
	findings intel-2s throughput >/dev/null
	is "intel-2s: rmem_max default bound" "$(field intel-2s throughput net.rmem-max .observed)" \
		"net.core.rmem_max = 212992 (208 KiB, the kernel default: at most 1.7 Gb/s at 1 ms RTT)"
	findings this-vm throughput >/dev/null
	is "this-vm: rmem_max 4 MiB bound" "$(field this-vm throughput net.rmem-max .observed)" \
		"net.core.rmem_max = 4194304 (4 MiB: at most 33.6 Gb/s at 1 ms RTT)"
	is "this-vm: tcp_wmem 4 MiB (the default) bound" "$(field this-vm throughput net.tcp-wmem .observed)" \
		"net.ipv4.tcp_wmem max = 4194304 (4 MiB, the kernel default: at most 33.6 Gb/s at 1 ms RTT)"
	like "this-vm: the rationale says whose figure 1.7 Gb/s is" \
		"$(field this-vm throughput net.rmem-max .rationale)" \
		'the kernel default rmem_max/wmem_max of 212992 bytes allows at most 1.7 Gb/s'
fi
expect intel-2s storage "net.tcp-tw-recycle power.governor sched.nohz-full-unisolated accel.qat block.nr-requests:sda block.read-ahead:sda mem.vfs-cache-pressure"
if [ -d "$S/intel-2s" ]; then
	is "intel-2s: governor observed" "$(field intel-2s latency power.governor .observed)" \
		"governor powersave (intel_pstate active)"
	like "intel-2s: deep C-states named with their latency" \
		"$(field intel-2s latency power.cstates-deep .observed)" 'C6 \([0-9]+ us\)'
	is "intel-2s: THP observed" "$(field intel-2s latency mem.thp-latency .observed)" \
		"mem.thp.enabled = always"
	is "intel-2s: THP profile line" "$(field intel-2s latency mem.thp-latency .fix.tune)" \
		"[vm] transparent_hugepages=madvise"
	is "intel-2s: nohz_full fix names the CPUs" \
		"$(field intel-2s latency sched.nohz-full-unisolated .fix.tune)" \
		"[bootloader] cmdline=nohz_full=1-7 isolcpus=1-7 rcu_nocbs=1-7"
	is "intel-2s: per-device fix" "$(field intel-2s storage block.read-ahead .fix.command)" \
		"echo 4096 > /sys/block/sda/queue/read_ahead_kb"
	is "intel-2s: per-device facts" "$(field intel-2s storage block.read-ahead '.facts|join(",")')" \
		"block.sda.queue.read_ahead_kb,block.sda.rotational"
	expect_exit 1 "intel-2s: tcp_tw_recycle is crit: default --fail-on exits 1" \
		"$PERFLAB" check --sysroot "$S/intel-2s"
	like "intel-2s: human output starts with Critical" "$(cat "$OUT")" $'\nCritical\n  \\[CRIT\\] tcp_tw_recycle'
fi

# 2-node ARM64 server (the MLPerf Storage report): high remote-access ratio.
expect arm64-2node general "numa.remote-ratio numa.zone-reclaim"
expect arm64-2node hpc "numa.balancing-pinned numa.remote-ratio power.governor"
if [ -d "$S/arm64-2node" ]; then
	like "arm64-2node: remote ratio observed" "$(field arm64-2node general numa.remote-ratio .observed)" \
		'^[0-9]+% of page allocations were remote'
	expect_exit 0 "arm64-2node: warn findings, default --fail-on crit exits 0" \
		"$PERFLAB" check --sysroot "$S/arm64-2node"
	expect_exit 1 "arm64-2node: --fail-on warn exits 1" \
		"$PERFLAB" check --sysroot "$S/arm64-2node" --fail-on warn
fi

# This VM, captured: KVM, kvm-clock, no cpufreq/cpuidle, one node, THP madvise, vda with
# mq-deadline; BBR runs with pfifo_fast.
expect this-vm general "net.bbr-qdisc"
expect this-vm latency "mem.dirty-latency net.bbr-qdisc net.slow-start-after-idle"
expect this-vm storage "mem.vfs-cache-pressure net.bbr-qdisc"
# Six timers are enabled in /etc but PID 1 is process_api, not systemd (no
# /run/systemd/system, sd_booted(3)): no timer can fire, so no noise.timers finding, and
# the fact says why. On gpu-node systemd runs and the timers finding is there (above).
expect this-vm benchmark "net.bbr-qdisc noise.aslr"
if [ -d "$S/this-vm" ]; then
	"$PERFLAB" inspect --json --sysroot "$S/this-vm" >"$TMP/vm-facts.out" 2>"$ERR"
	is "this-vm: systemd not running" "$(jq -r '.facts["noise.systemd.running"].value' "$TMP/vm-facts.out")" false
	is "this-vm: timers unavailable with the reason" \
		"$(jq -r '.facts["noise.timers"].unavailable' "$TMP/vm-facts.out")" \
		"/run/systemd/system: not present (systemd is not running, PID 1 is 'process_api': the 6 timers enabled in /etc/systemd/system/timers.target.wants cannot fire)"
fi
if [ -d "$S/gpu-node" ]; then
	"$PERFLAB" inspect --json --sysroot "$S/gpu-node" >"$TMP/gn-facts.out" 2>"$ERR"
	is "gpu-node: systemd running" "$(jq -r '.facts["noise.systemd.running"].value' "$TMP/gn-facts.out")" true
fi

# Container: /proc/sys unreadable. No crash, no findings, the sysctl rules reported as not
# evaluated rather than passed or failed.
for w in general latency throughput hpc network storage benchmark; do
	expect container "$w" ""
done
if [ -d "$S/container" ]; then
	expect_exit 0 "container: --fail-on info exits 0" "$PERFLAB" check --sysroot "$S/container" --fail-on info --json
	like "container: sysctl rules not evaluated" \
		"$(jq -r '.summary.unevaluated|join(" ")' "$OUT")" 'net.tcp-timestamps-off'
	is "container: nothing on stderr" "$(cat "$ERR")" ""
fi

# Every document above against the schema, in one interpreter (jsonschema start-up is slow
# on this shared machine): one TAP line per document.
docs=("$TMP"/*-*.json)
if [ -e "${docs[0]}" ]; then
	/usr/bin/python3 - "$PERFLAB_SRCDIR/docs/schemas/check.schema.json" "${docs[@]}" >"$TMP/v" <<'PY'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
cls = jsonschema.validators.validator_for(schema)
for path in sys.argv[2:]:
    errs = list(cls(schema).iter_errors(json.load(open(path))))
    name = path.rsplit("/", 1)[-1]
    print(("ok " if not errs else "bad ") + name + (" " + errs[0].message if errs else ""))
PY
	while read -r st name rest; do
		if [ "$st" = ok ]; then _report ok "$name matches check.schema.json"; else
			_report fail "$name matches check.schema.json" "$rest"
		fi
	done <"$TMP/v"
	is "every document validated" "$(wc -l <"$TMP/v")" "${#docs[@]}"
fi
done_testing
