#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab inspect over the fixture sysroots (tests/fixtures/sysroots/*), an empty tree,
# bad input (garbage, unreadable files, missing sysroot) and the JSON schema.
. "$PERFLAB_SRCDIR/tests/lib.sh"
SR=$FIXTURES/sysroots

. "$PERFLAB_SRCDIR/tests/facts/facts-lib.sh"

# --- xen-hvm: the GPU report's instance before the clocksource fix
inspect_json xen "$SR/xen-hvm"
J=$TMP/xen.json
is "xen: virt.hypervisor" "$(fact virt.hypervisor "$J")" xen
is "xen: hypervisor source" "$(jq -r '.facts["virt.hypervisor"].source' "$J")" /sys/hypervisor/type
is "xen: clocksource.current" "$(fact clocksource.current "$J")" xen
is "xen: clocksource.available" "$(fact clocksource.available "$J")" '["xen","tsc","hpet","acpi_pm"]'
is "xen: cpu.tsc.invariant" "$(fact cpu.tsc.invariant "$J")" true
is "xen: cpu.sockets/cores/threads" "$(fact cpu.sockets "$J") $(fact cpu.cores "$J") $(fact cpu.threads_per_core "$J")" "1 2 2"
is "xen: L3 from the fixture's sysfs, not this CPU's cpuid" "$(fact cpu.cache.l3_bytes "$J")" 47185920
like "xen: cache source is sysfs" "$(jq -r '.facts["cpu.cache.l3_bytes"].source' "$J")" '/sys/devices/system/cpu/cpu0/cache'
# the terminal shows sizes, never raw byte counts (the JSON keeps them exact)
"$PERFLAB" inspect --sysroot "$SR/xen-hvm" --domain cpu >"$TMP/xen.txt" 2>/dev/null
like "xen text: L3 as a size" "$(grep 'cpu.cache.l3_bytes' "$TMP/xen.txt")" '^  cpu\.cache\.l3_bytes +45 MiB$'
is "xen text: no byte count of 5 or more digits in a *_bytes line" \
	"$(grep -E '_bytes +[0-9]{5,}$' "$TMP/xen.txt" | head -3)" ""
is "xen: no cpuid on a sysroot" "$(fact virt.cpuid.signature "$J")" missing
like "xen: no cpufreq in a guest" "$(fact cpufreq.governor "$J")" '^unavailable: no cpufreq driver'
is "xen: sysctl tcp_timestamps (risky)" "$(fact sysctl.net.ipv4.tcp_timestamps "$J")" 0
is "xen: sysctl icmp_echo_ignore_all (risky)" "$(fact sysctl.net.ipv4.icmp_echo_ignore_all "$J")" 1
is "xen: tcp_rmem is a list" "$(fact sysctl.net.ipv4.tcp_rmem "$J")" '[4096,1048576,2097152]'
is "xen: qdisc string" "$(fact sysctl.net.core.default_qdisc "$J")" fq
is "xen: 5.10 still has sched_latency_ns" "$(fact sysctl.kernel.sched_latency_ns "$J")" 24000000
like "xen: tcp_tw_recycle gone in 4.12" "$(fact sysctl.net.ipv4.tcp_tw_recycle "$J")" '^unavailable: not present: removed .* 4\.12'
is "xen: GPU (Tesla K80 named by libpci; Cirrus VGA not counted)" "$(jq -r '.facts["accel.gpu.devices"].value | map(.id + " " + .name) | join(";")' "$J")" "10de:102d NVIDIA Corporation GK210GL [Tesla K80]"
is "xen: accel.gpu.count" "$(fact accel.gpu.count "$J")" 1
is "xen: net driver via device/driver link" "$(fact net.eth0.driver "$J")" vif
like "xen: net speed unknown" "$(fact net.eth0.speed_mbps "$J")" '^unavailable: .*unknown'
is "xen: net queues" "$(fact net.eth0.queues "$J")" 4
is "xen: block xvda scheduler" "$(fact block.xvda.queue.scheduler "$J")" mq-deadline

# --- intel-2s: 2-socket server from the SPEC report
inspect_json intel "$SR/intel-2s"
J=$TMP/intel.json
is "intel: virt.hypervisor" "$(fact virt.hypervisor "$J")" none
is "intel: cpu.sockets" "$(fact cpu.sockets "$J")" 2
is "intel: cpu.cores" "$(fact cpu.cores "$J")" 8
is "intel: cpu.threads_per_core" "$(fact cpu.threads_per_core "$J")" 2
is "intel: cpu.online" "$(fact cpu.online "$J")" 16
like "intel: cpu.isa has avx512f" "$(fact cpu.isa "$J")" '"avx512f"'
is "intel: cpufreq.driver" "$(fact cpufreq.driver "$J")" intel_pstate
is "intel: cpufreq.governor" "$(fact cpufreq.governor "$J")" powersave
is "intel: cpu.15.cpufreq.governor" "$(fact cpu.15.cpufreq.governor "$J")" powersave
is "intel: intel_pstate status" "$(fact cpufreq.intel_pstate.status "$J")" active
is "intel: boost from no_turbo" "$(fact cpufreq.boost "$J") $(jq -r '.facts["cpufreq.boost"].source' "$J")" "true /sys/devices/system/cpu/intel_pstate/no_turbo"
is "intel: cpuidle.driver" "$(fact cpuidle.driver "$J")" intel_idle
is "intel: cpuidle.states" "$(jq -c '[.facts["cpuidle.states"].value[] | [.name, .latency_us, .disabled]]' "$J")" '[["POLL",0,false],["C1",2,false],["C1E",10,false],["C6",133,false]]'
is "intel: THP always" "$(fact mem.thp.enabled "$J")" always
is "intel: numa.nodes" "$(fact numa.nodes "$J")" 2
is "intel: numa.distance" "$(fact numa.distance "$J")" '[[10,21],[21,10]]'
is "intel: node 1 cpus" "$(fact numa.node.1.cpus "$J")" 4-7,12-15
is "intel: node 0 memory" "$(fact numa.node.0.mem_bytes "$J")" $((98304000 * 1024))
is "intel: remote ratio ~5%" "$(jq -r '.facts["numa.remote_ratio"].value * 1000 | floor' "$J")" 52
is "intel: irqbalance running" "$(fact services.irqbalance.running "$J")" true
is "intel: numad running" "$(fact services.numad.running "$J")" true
is "intel: tuned running" "$(fact services.tuned.running "$J")" true
is "intel: tuned profile" "$(fact services.tuned.profile "$J")" balanced
is "intel: nohz_full param" "$(jq -r '.facts["kernel.cmdline.params"].value.nohz_full' "$J")" 1-7
is "intel: 3.10 has sched_latency_ns" "$(fact sysctl.kernel.sched_latency_ns "$J")" 24000000
is "intel: 3.10 has tcp_tw_recycle" "$(fact sysctl.net.ipv4.tcp_tw_recycle "$J")" 1
is "intel: QAT C62x" "$(jq -r '.facts["accel.qat.devices"].value | map(.slot + " " + .name) | join(";")' "$J")" "0000:3d:00.0 Intel Corporation C62x Chipset QuickAssist Technology"
is "intel: BMC VGA is not a GPU" "$(fact accel.gpu.count "$J")" 0
is "intel: HDD rotational, legacy deadline" "$(fact block.sda.rotational "$J") $(fact block.sda.queue.scheduler "$J")" "true deadline"
is "intel: nvme none, nr_requests" "$(fact block.nvme0n1.queue.scheduler "$J") $(fact block.nvme0n1.queue.nr_requests "$J")" "none 1023"
is "intel: tmpfs mounts" "$(fact fs.tmpfs.mounts "$J")" '["/dev/shm","/run","/home/spec/cpu2006/tmp"]'
is "intel: eno1" "$(fact net.eno1.driver "$J") $(fact net.eno1.speed_mbps "$J") $(fact net.eno1.queues "$J")" "i40e 10000 16"

# --- arm64-2node: the storage report's ARM server, 80% remote accesses
inspect_json arm "$SR/arm64-2node"
J=$TMP/arm.json
is "arm: vendor/model from MIDR" "$(fact cpu.vendor "$J") $(fact cpu.model "$J")" "ARM Neoverse-V2"
like "arm: isa has sve and sve2" "$(fact cpu.isa "$J")" '"sve".*"sve2"'
like "arm: no TSC on arm64" "$(fact cpu.tsc.invariant "$J")" '^unavailable: not x86'
is "arm: 2 sockets, 8 cores, 1 thread" "$(fact cpu.sockets "$J") $(fact cpu.cores "$J") $(fact cpu.threads_per_core "$J")" "2 8 1"
is "arm: numa.nodes" "$(fact numa.nodes "$J")" 2
is "arm: numa.distance" "$(fact numa.distance "$J")" '[[10,40],[40,10]]'
is "arm: remote ratio ~80%" "$(jq -r '.facts["numa.remote_ratio"].value * 100 | floor' "$J")" 79
is "arm: mixed governors" "$(fact cpufreq.governor "$J") $(fact cpu.0.cpufreq.governor "$J") $(fact cpu.7.cpufreq.governor "$J")" "mixed performance schedutil"
is "arm: boost" "$(fact cpufreq.boost "$J")" true
like "arm: sched_latency_ns gone with EEVDF" "$(fact sysctl.kernel.sched_latency_ns "$J")" '^unavailable: not present: removed from this kernel, EEVDF since 6\.6'
is "arm: zone_reclaim_mode" "$(fact sysctl.vm.zone_reclaim_mode "$J")" 1
is "arm: hypervisor none" "$(fact virt.hypervisor "$J")" none
is "arm: clocksource" "$(fact clocksource.current "$J")" arch_sys_counter
is "arm: L3 per socket" "$(fact cpu.cache.l3_bytes "$J") $(fact cpu.cache.l3_count "$J")" "119537664 2"
is "arm: tmpfs mounts once each, as the last mount shows them" "$(fact fs.tmpfs.mounts "$J")" '["/run","/dev/shm"]'

# --- container: no /proc/sys, no topology, garbage THP file
inspect_json container "$SR/container"
J=$TMP/container.json
like "container: sysctls unavailable, saying why" "$(fact sysctl.vm.swappiness "$J")" '/proc/sys is not available'
is "container: release from /proc/version" "$(fact kernel.release "$J") $(jq -r '.facts["kernel.release"].source' "$J")" "6.1.0-18-amd64 /proc/version"
is "container: hostname from /etc/hostname" "$(fact kernel.hostname "$J")" 3f2a9c1d7e4b
like "container: no topology, no invented socket" "$(fact cpu.sockets "$J")" '^unavailable: .*topology: not present'
like "container: garbage THP file" "$(fact mem.thp.enabled "$J")" '^unavailable: /sys/kernel/mm/transparent_hugepage/enabled'
is "container: services from its own pids" "$(fact services.irqbalance.running "$J")" false
is "container: tmpfs" "$(fact fs.tmpfs.mounts "$J")" '["/dev","/dev/shm"]'
like "container: no PCI" "$(fact accel.gpu.count "$J")" '^unavailable'

# --- this-vm (captured): must match the live facts for what a sysroot can show
inspect_json this-vm "$SR/this-vm"
J=$TMP/this-vm.json
# a virtio NIC: eth0's device is virtio2, its queue IRQs are named after that
# ("virtio2-input.0"), the config vector is not a queue
cp -a "$SR/this-vm" "$TMP/vio"
mkdir -p "$TMP/vio/proc/irq/38" "$TMP/vio/proc/irq/39" "$TMP/vio/proc/irq/37"
printf '           CPU0       CPU1\n 37:          0          0 PCI-MSIX-0000:00:03.0   0-edge      virtio2-config\n 38:          0       2047 PCI-MSIX-0000:00:03.0   1-edge      virtio2-input.0\n 39:       2124          0 PCI-MSIX-0000:00:03.0   2-edge      virtio2-output.0\n 40:          5          0 PCI-MSIX-0000:00:04.0   1-edge      virtio3-input.0\n' >"$TMP/vio/proc/interrupts"
echo 1 >"$TMP/vio/proc/irq/38/smp_affinity_list"
echo 0 >"$TMP/vio/proc/irq/39/smp_affinity_list"
echo 0-1 >"$TMP/vio/proc/irq/37/smp_affinity_list"
inspect_json vio "$TMP/vio"
is "virtio NIC: queue IRQs named after its virtio device, without config" \
	"$(jq -r '.facts["net.eth0.irqs"].value | map("\(.irq)=\(.name)@\(.cpus)") | join(" ")' "$TMP/vio.json")" \
	"38=virtio2-input.0@1 39=virtio2-output.0@0"
is "virtio NIC: irq_cpus" "$(fact net.eth0.irq_cpus "$TMP/vio.json")" "0-1"
is "this-vm: hypervisor from kvm-clock" "$(fact virt.hypervisor "$J")" kvm
# CONFIG_HZ (bench ticks compares its count with it): /proc/config.gz here, /boot on RHEL 7
is "this-vm: CONFIG_HZ from /proc/config.gz" \
	"$(jq -r '.facts["kernel.config_hz"] | "\(.value) \(.source)"' "$J")" "250 /proc/config.gz"
inspect_json intel-2s-hz "$SR/intel-2s"
is "intel-2s: CONFIG_HZ from /boot/config-RELEASE" \
	"$(jq -r '.facts["kernel.config_hz"] | "\(.value) \(.source)"' "$TMP/intel-2s-hz.json")" \
	"1000 /boot/config-3.10.0-1160.el7.x86_64"
cp -a "$SR/this-vm" "$TMP/hz"
echo 'CONFIG_HZ=250' >"$TMP/hz/proc/config.gz" # not gzip
inspect_json hz "$TMP/hz"
is "CONFIG_HZ: a config.gz that is not gzip" "$(fact kernel.config_hz "$TMP/hz.json")" \
	"unavailable: /proc/config.gz: not gzip data"
printf '# CONFIG_HZ_250 is not set\n' | gzip -n >"$TMP/hz/proc/config.gz"
inspect_json hz "$TMP/hz"
is "CONFIG_HZ: not set" "$(fact kernel.config_hz "$TMP/hz.json")" \
	"unavailable: /proc/config.gz: CONFIG_HZ not set"
# a gzip bomb (9 MiB of zeros in 9 KB) is refused at 8 MiB, and says so
head -c 9437184 /dev/zero | gzip -n >"$TMP/hz/proc/config.gz"
inspect_json hz "$TMP/hz"
is "CONFIG_HZ: a config.gz that inflates past 8 MiB" "$(fact kernel.config_hz "$TMP/hz.json")" \
	"unavailable: /proc/config.gz: inflates past 8 MiB: not a kernel config"
is "this-vm: clocksource" "$(fact clocksource.current "$J")" kvm-clock
is "this-vm: 1 socket, 2 cores" "$(fact cpu.sockets "$J") $(fact cpu.cores "$J")" "1 2"
like "this-vm: no cache sysfs, no cpuid in a sysroot" "$(fact cpu.cache.l3_bytes "$J")" '^unavailable'
is "this-vm: cpuidle driver none" "$(fact cpuidle.driver "$J")" none
is "this-vm: vda" "$(fact block.vda.queue.scheduler "$J")" mq-deadline
like "this-vm: sched_latency_ns on 6.18" "$(fact sysctl.kernel.sched_latency_ns "$J")" 'EEVDF since 6\.6'

# (the live system: tests/facts/live.sh; the same with sysfs and cpuid disagreeing:
# tests/facts/disagree.sh)

# --- hwloc's own tool agrees with the topology facts of every fixture
if command -v hwloc-calc >/dev/null; then
	for pair in xen-hvm:xen intel-2s:intel arm64-2node:arm this-vm:this-vm; do
		m=${pair%%:*} j=$TMP/${pair#*:}.json
		p=$(HWLOC_COMPONENTS=-x86 hwloc-calc --input "$SR/$m" --number-of package all 2>/dev/null)
		c=$(HWLOC_COMPONENTS=-x86 hwloc-calc --input "$SR/$m" --number-of core all 2>/dev/null)
		is "$m: sockets/cores match hwloc-calc --input" "$(fact cpu.sockets "$j") $(fact cpu.cores "$j")" "$p $c"
	done
else
	skip "sockets/cores match hwloc-calc" "hwloc-calc not installed"
fi

# --- the schema has teeth: wrongly typed known facts are rejected
jq '.facts["cpu.sockets"].value = "two"' "$TMP/intel.json" >"$TMP/bad1.json"
expect_exit 1 "schema rejects a string socket count" /usr/bin/python3 "$PERFLAB_SRCDIR/tests/validate-json.py" "$PERFLAB_SRCDIR/docs/schemas/inspect.schema.json" "$TMP/bad1.json"
jq '.facts["cpuidle.states"].value[0] = {"name":"C1"}' "$TMP/intel.json" >"$TMP/bad2.json"
expect_exit 1 "schema rejects a C-state without latency" /usr/bin/python3 "$PERFLAB_SRCDIR/tests/validate-json.py" "$PERFLAB_SRCDIR/docs/schemas/inspect.schema.json" "$TMP/bad2.json"
jq '.facts["numa.remote_ratio"].value = 1.5' "$TMP/intel.json" >"$TMP/bad3.json"
expect_exit 1 "schema rejects a ratio above 1" /usr/bin/python3 "$PERFLAB_SRCDIR/tests/validate-json.py" "$PERFLAB_SRCDIR/docs/schemas/inspect.schema.json" "$TMP/bad3.json"

# --- human output groups by domain
ok "human output" "$PERFLAB" inspect --sysroot "$SR/intel-2s"
is "domains in order, each once" "$(grep -E '^[a-z]' "$OUT" | tr '\n' ' ')" "virt kernel clocksource cpu cpufreq cpuidle mem numa sysctl block fs net services accel pcie noise "
like "per-CPU governors under cpu" "$(sed -n '/^cpu$/,/^$/p' "$OUT")" 'cpu\.15\.cpufreq\.governor +powersave'
ok "--domain filter" "$PERFLAB" inspect --json --domain numa,services --sysroot "$SR/arm64-2node"
is "--domain keeps only those" "$(jq -r '.facts | keys | map(split(".")[0]) | unique | join(",")' "$OUT")" numa,services
expect_exit 2 "unknown domain" "$PERFLAB" inspect --domain gpu
like "unknown domain named" "$(cat "$ERR")" "'gpu'"
domains=$(sed -n 's/^PL_FACT(\([a-z0-9_]*\),.*/\1/p' "$PERFLAB_SRCDIR/src/facts/list.h" | paste -sd, - | sed 's/,/, /g')
is "unknown domain: one line listing the valid domains (src/facts/list.h)" "$(cat "$ERR")" \
	"perflab inspect: error: --domain 'gpu': unknown domain (one or more of: $domains, comma-separated)"

# --- bad input: garbage in sysfs files, unreadable files, missing sysroot
G=$TMP/garbage
cp -a "$SR/intel-2s" "$G"
printf '\x00\xff\xfe garbage' >"$G/proc/cpuinfo"
printf 'lots of words here\n' >"$G/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
printf '12 x\n' >"$G/sys/devices/system/node/node1/distance"
printf 'local_node many\n' >"$G/sys/devices/system/node/node0/numastat"
printf 'zz\n' >"$G/sys/devices/system/cpu/online"
printf '\n' >"$G/proc/sys/vm/swappiness"
printf 'MemTotal: lots kB\n' >"$G/proc/meminfo"
printf 'notanumber\n' >"$G/sys/block/sda/queue/nr_requests"
printf '0xZZ\n' >"$G/sys/devices/pci0000:00/0000:3d:00.0/vendor"
printf '' >"$G/sys/devices/system/cpu/cpu0/cpuidle/state2/latency"
expect_exit 0 "garbage: inspect still succeeds" "$PERFLAB" inspect --json --sysroot "$G"
cp "$OUT" "$TMP/g.json"
validate inspect.schema.json "$TMP/g.json"
J=$TMP/g.json
like "garbage cpuinfo -> unavailable" "$(fact cpu.model "$J")" '^unavailable: /proc/cpuinfo: no processor entries'
is "garbage governor is kept as text (mixed)" "$(fact cpufreq.governor "$J")" mixed
like "garbage distance -> unavailable" "$(fact numa.distance "$J")" '^unavailable: .*node1/distance: expected 2 numbers'
like "garbage numastat -> unavailable" "$(fact numa.remote_ratio "$J")" '^unavailable: .*numastat: no local_node'
like "garbage online list" "$(fact cpu.online "$J")" '^unavailable: .*not a CPU list'
like "empty sysctl" "$(fact sysctl.vm.swappiness "$J")" '^unavailable: /proc/sys/vm/swappiness: empty'
like "garbage meminfo" "$(fact mem.total_bytes "$J")" '^unavailable: /proc/meminfo: MemTotal not a number'
like "garbage nr_requests" "$(fact block.sda.queue.nr_requests "$J")" '^unavailable: .*not a number'
is "garbage PCI vendor: device skipped" "$(fact accel.qat.count "$J")" 0
is "empty C-state latency -> null" "$(jq -c '.facts["cpuidle.states"].value[2].latency_us' "$J")" null

# Unreadable files: root reads through mode 000, so use a directory where a file is
# expected (EISDIR is what an unreadable sysfs attribute looks like to the reader).
U=$TMP/unreadable
cp -a "$SR/xen-hvm" "$U"
rm "$U/sys/devices/system/clocksource/clocksource0/current_clocksource" "$U/proc/sys/vm/swappiness"
mkdir "$U/sys/devices/system/clocksource/clocksource0/current_clocksource" "$U/proc/sys/vm/swappiness"
chmod 000 "$U/proc/cmdline"
expect_exit 0 "unreadable: inspect still succeeds" "$PERFLAB" inspect --json --sysroot "$U"
cp "$OUT" "$TMP/u.json"
J=$TMP/u.json
like "unreadable clocksource -> unavailable" "$(fact clocksource.current "$J")" '^unavailable: .*current_clocksource: is a directory'
like "unreadable sysctl -> unavailable" "$(fact sysctl.vm.swappiness "$J")" 'is a directory'
if [ "$(id -u)" = 0 ]; then
	skip "chmod 000 file -> permission denied" "running as root: mode 000 does not stop root (checked with a directory instead)"
else
	like "chmod 000 file -> permission denied" "$(fact kernel.cmdline "$J")" 'permission denied'
fi

expect_exit 2 "missing sysroot" "$PERFLAB" inspect --sysroot "$TMP/nope"
like "missing sysroot named" "$(cat "$ERR")" "$TMP/nope"
expect_exit 2 "sysroot is a file" "$PERFLAB" inspect --sysroot "$SR/intel-2s/proc/cmdline"
# an empty directory (or one a level off) has no facts: an input error, not empty output
mkdir "$TMP/empty"
expect_exit 2 "empty sysroot" "$PERFLAB" inspect --sysroot "$TMP/empty"
is "empty sysroot: one line naming the directory" "$(cat "$ERR")" \
	"perflab inspect: error: --sysroot '$TMP/empty': no facts found (expected a machine tree with proc/, sys/ or etc/; make one with perflab snapshot, or give its archive)"
is "empty sysroot: nothing on stdout" "$(wc -c <"$OUT")" 0
expect_exit 2 "empty sysroot, --json" "$PERFLAB" inspect --json --sysroot "$TMP/empty"
is "empty sysroot, --json: no document" "$(wc -c <"$OUT")" 0
expect_exit 2 "a level too deep (proc/ as the sysroot)" "$PERFLAB" inspect --sysroot "$SR/xen-hvm/proc"
expect_exit 0 "a tree without the --domain asked for is fine" "$PERFLAB" inspect --sysroot "$SR/container" --domain accel
is "... and says that nothing is available" "$(cat "$OUT")" "no facts available (--all lists each with the reason)"
# a device name as long as a directory entry can be (NAME_MAX) keeps its own keys and finding
LONG=sd$(printf 'a%.0s' $(seq 1 253))
mkdir -p "$TMP/long/sys/block/$LONG/queue"
echo 1 >"$TMP/long/sys/block/$LONG/queue/rotational"
echo '[none] mq-deadline' >"$TMP/long/sys/block/$LONG/queue/scheduler"
echo 7 >"$TMP/long/sys/block/$LONG/queue/read_ahead_kb"
expect_exit 0 "255-byte device name: inspect" "$PERFLAB" inspect --json --sysroot "$TMP/long"
is "255-byte device name: read_ahead_kb under its full key" "$(jq -r --arg k "block.$LONG.queue.read_ahead_kb" '.facts[$k].value' "$OUT")" 7
expect_exit 0 "255-byte device name: check finds the missing scheduler" "$PERFLAB" check --json --sysroot "$TMP/long"
is "255-byte device name: the finding names the device" "$(jq -r '[.findings[] | select(.id == "block.scheduler-hdd") | .subject] | join(",")' "$OUT")" "$LONG"
# -o that cannot be written: one line with the file, the reason and the fix, text or JSON
for j in "" --json; do
	expect_exit 2 "inspect $j -o into a missing directory" "$PERFLAB" inspect $j --domain clocksource -o /nonexistent/dir/x.json
	is "inspect $j -o into a missing directory: the file and the fix" "$(cat "$ERR")" \
		"perflab inspect: error: cannot write '/nonexistent/dir/x.json': No such file or directory (choose another -o FILE)"
	is "inspect $j -o into a missing directory: nothing on stdout" "$(wc -c <"$OUT")" 0
done
done_testing
