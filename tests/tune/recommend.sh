#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tune recommend over fixture sysroots: a virtual guest (this-vm, kvm), an HPC node
# (intel-2s, --workload hpc and latency) and a laptop-like tree (intel-2s with SMBIOS
# chassis type 10 and a battery): the ranking and the reasons (workload fit, machine
# fit, the findings each profile fixes or works against, the items it changes).
. "$PERFLAB_SRCDIR/tests/lib.sh"
FIX=$PERFLAB_SRCDIR/tests/fixtures/sysroots
R() { "$PERFLAB" tune recommend "$@"; }
top() { jq -r '[.candidates[] | select(.error | not) | .name][:'"$2"'] | join(" ")' "$1"; }
cand() { jq -c --arg n "$2" '.candidates[] | select(.name == $n) | {score, r: [.reasons[].text], fixes, against: [.against[].rule]}' "$1"; }

R --sysroot "$FIX/this-vm" --json >"$TMP/vm.json"
is "vm: exit 0" "$?" 0
validate tune-recommend.schema.json "$TMP/vm.json"
is "vm: the machine" "$(jqv "$TMP/vm.json" .machine)" "a virtual guest (kvm)"
# Premises ([main] perflab_needs): the bundled cloud-gpu-mpi needs a GPU and a NIC; on a
# machine without a GPU it comes after every profile that fits, with the reason, and the
# text leaves it out of the top 5.
unmet() { jq -c --arg n "$2" '.candidates[] | select(.name == $n) | .unmet' "$1"; }
rank() { jq --arg n "$2" '[.candidates[] | select(.error | not) | .name] | index($n)' "$1"; }
R --sysroot "$FIX/this-vm" -W hpc --json >"$TMP/vmhpc.json"
validate tune-recommend.schema.json "$TMP/vmhpc.json"
is "no GPU: cloud-gpu-mpi needs one" "$(unmet "$TMP/vmhpc.json" cloud-gpu-mpi)" '["needs a GPU: accel.gpu.count is 0"]'
is "no GPU: cloud-gpu-mpi ranked after every profile that fits" \
	"$(jq '[.candidates[] | select(.error | not)] | (map(.name) | index("cloud-gpu-mpi")) == (map(select(.unmet == [])) | length)' "$TMP/vmhpc.json")" true
is "no GPU: hpc-compute's premises hold" "$(unmet "$TMP/vmhpc.json" hpc-compute)" '[]'
R --sysroot "$FIX/this-vm" -W hpc >"$OUT"
is "no GPU: the text leaves cloud-gpu-mpi out of the top 5" "$(grep -c cloud-gpu-mpi "$OUT")" 0
like "no GPU: and says why" "$(cat "$OUT")" "1 profile left out: not for this machine"
R --sysroot "$FIX/this-vm" -W hpc --all >"$OUT"
like "no GPU: --all names it with the reason" "$(cat "$OUT")" "  -  cloud-gpu-mpi: not for this machine: needs a GPU: accel.gpu.count is 0"
R --sysroot "$FIX/gpu-node" -W hpc --json >"$TMP/gpuhpc.json"
is "GPU node: cloud-gpu-mpi's premises hold" "$(unmet "$TMP/gpuhpc.json" cloud-gpu-mpi)" '[]'
mkdir -p "$TMP/pd/needs-numa" "$TMP/pd/needs-nic" "$TMP/pd/needs-typo"
printf '[main]\nsummary=n\nperflab_needs=numa\n[sysctl]\nvm.swappiness=11\n' >"$TMP/pd/needs-numa/tuned.conf"
printf '[main]\nsummary=n\nperflab_needs=nic\n[sysctl]\nvm.swappiness=11\n' >"$TMP/pd/needs-nic/tuned.conf"
printf '[main]\nsummary=n\nperflab_needs=gpu,fpga\n[sysctl]\nvm.swappiness=11\n' >"$TMP/pd/needs-typo/tuned.conf"
R --sysroot "$FIX/this-vm" --profile-dir "$TMP/pd" --json >"$TMP/pd1.json"
is "one NUMA node: needs-numa unmet" "$(unmet "$TMP/pd1.json" needs-numa)" '["needs more than one NUMA node: numa.nodes is 1"]'
is "a virtio NIC: needs-nic holds" "$(unmet "$TMP/pd1.json" needs-nic)" '[]'
is "an unknown premise is named" "$(unmet "$TMP/pd1.json" needs-typo)" '["needs a GPU: accel.gpu.count is 0","unknown premise '"'fpga'"' in perflab_needs (known: gpu, numa, nic)"]'
R --sysroot "$FIX/intel-2s" --profile-dir "$TMP/pd" --json >"$TMP/pd2.json"
is "two NUMA nodes: needs-numa holds" "$(unmet "$TMP/pd2.json" needs-numa)" '[]'
cp -a "$FIX/this-vm" "$TMP/nonic"
rm -rf "$TMP/nonic/sys/class/net/eth0"
R --sysroot "$TMP/nonic" --profile-dir "$TMP/pd" --json >"$TMP/pd3.json"
is "virtual interfaces only: needs-nic unmet" "$(unmet "$TMP/pd3.json" needs-nic)" '["needs a network interface backed by a device (a NIC): net.interfaces has no interface with a device (virtual ones only)"]'

if [ ! -e /usr/lib/tuned/virtual-guest/tuned.conf ]; then
	skip "ranking with the stock profiles" "Debian's tuned package is not installed (/usr/lib/tuned)"
	done_testing
fi
is "vm: virtual-guest first, then balanced" "$(top "$TMP/vm.json" 2)" "virtual-guest balanced"
is "vm: virtual-guest's reason" "$(cand "$TMP/vm.json" virtual-guest)" '{"score":3,"r":["made for virtual guests (what tuned-adm recommend picks on a VM)"],"fixes":[],"against":[]}'
is "vm: cloud-gpu-mpi fixes the one finding" "$(jq -c '.candidates[] | select(.name == "cloud-gpu-mpi") | .fixes' "$TMP/vm.json")" '["net.bbr-qdisc"]'
is "vm: virtual-guest's changes here (from the plan)" "$(jq -r '.candidates[] | select(.name == "virtual-guest") | [.changes[] | "\(.key) \(.current) -> \(.value)"] | join(", ")' "$TMP/vm.json")" "vm.dirty_ratio 20 -> 30, vm.swappiness 60 -> 30"
R --sysroot "$FIX/this-vm" >"$OUT"
like "vm: text names the winner with its reason" "$(cat "$OUT")" $'1\\. virtual-guest +score +3 .*\n +why: +made for virtual guests'
is "vm: text shows the top 5" "$(grep -c '^ *[0-9]*\. ' "$OUT")" 5
like "vm: and points to --all" "$(tail -1 "$OUT")" "--all lists every profile"
R --sysroot "$FIX/this-vm" --all >"$OUT"
ok "vm: --all lists more than 5" test "$(grep -c '^ *[0-9]*\. ' "$OUT")" -gt 5

R --sysroot "$FIX/intel-2s" -W hpc --json >"$TMP/hpc.json"
validate tune-recommend.schema.json "$TMP/hpc.json"
is "hpc: bare metal" "$(jqv "$TMP/hpc.json" .machine)" "bare metal, not a laptop"
is "hpc: hpc-compute, then accelerator-performance" "$(top "$TMP/hpc.json" 2)" "hpc-compute accelerator-performance"
is "hpc: hpc-compute's reasons" "$(cand "$TMP/hpc.json" hpc-compute)" '{"score":7,"r":["made for the hpc workload","fixes 2 warning findings: numa.balancing-pinned, power.governor"],"fixes":["numa.balancing-pinned","power.governor"],"against":[]}'
is "hpc: hpc-compute's governor change on every CPU" "$(jq '[.candidates[] | select(.name == "hpc-compute") | .changes[] | select(.key == "governor")] | length' "$TMP/hpc.json")" 16

is "hpc: the points of the fixes" "$(jq -c '.candidates[] | select(.name == "hpc-compute") | [.reasons[].points]' "$TMP/hpc.json")" '[3,4]'
R --sysroot "$FIX/intel-2s" -W hpc >"$OUT"
like "hpc: text names the fixed findings with their severity" "$(cat "$OUT")" "why: +made for the hpc workload \(\+3\); fixes 2 warning findings: numa.balancing-pinned, power.governor \(\+4\)"
like "hpc: text explains the points" "$(cat "$OUT")" "score: the fit to the workload and the machine, plus 3, 2 or 1 per critical, warning or info finding"

R --sysroot "$FIX/intel-2s" -W latency --json >"$TMP/lat.json"
is "latency: three profiles tie at the top" "$(jq -r '[.candidates[:3][] | "\(.name)=\(.score)"] | join(" ")' "$TMP/lat.json")" "latency=6 latency-performance=6 network-latency=6"
is "latency: network-latency works against THP madvise" "$(jq -c '.candidates[] | select(.name == "network-latency") | .against' "$TMP/lat.json")" '[{"rule":"mem.thp-latency","why":"sets vm transparent_hugepages=never, mem.thp-latency wants madvise"}]'
is "latency: throughput-performance works against the dirty limits" "$(cand "$TMP/lat.json" throughput-performance | jq -c .against)" '["mem.dirty-latency"]'

cp -a "$FIX/intel-2s" "$TMP/laptop"
mkdir -p "$TMP/laptop/sys/class/dmi/id" "$TMP/laptop/sys/class/power_supply/BAT0"
echo 10 >"$TMP/laptop/sys/class/dmi/id/chassis_type"
echo Battery >"$TMP/laptop/sys/class/power_supply/BAT0/type"
R --sysroot "$TMP/laptop" --json >"$TMP/lap.json"
validate tune-recommend.schema.json "$TMP/lap.json"
is "laptop: the machine" "$(jqv "$TMP/lap.json" .machine)" "a laptop (chassis type or battery)"
is "laptop: balanced first" "$(top "$TMP/lap.json" 1)" "balanced"
like "laptop: power-saving profiles next" "$(top "$TMP/lap.json" 6)" "^balanced( (desktop-powersave|laptop-ac-powersave|laptop-battery-powersave|powersave)){4}"
is "laptop: a performance profile loses points" "$(cand "$TMP/lap.json" throughput-performance | jq -c .r)" '["a performance profile: costs battery and heat on a laptop"]'
rm "$TMP/laptop/sys/class/dmi/id/chassis_type"
R --sysroot "$TMP/laptop" --json >"$TMP/lap2.json"
is "laptop: a battery alone is enough" "$(jqv "$TMP/lap2.json" .machine)" "a laptop (chassis type or battery)"

expect_exit 2 "unknown workload: exit 2" R --sysroot "$FIX/this-vm" -W bogus
like "unknown workload: names the choices" "$(cat "$ERR")" "unknown workload 'bogus' \(use general, latency"
expect_exit 2 "recommend takes no argument" R extra
done_testing
