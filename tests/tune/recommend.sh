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
is "hpc: hpc-compute's reasons" "$(cand "$TMP/hpc.json" hpc-compute)" '{"score":7,"r":["made for the hpc workload","fixes 2 findings"],"fixes":["numa.balancing-pinned","power.governor"],"against":[]}'
is "hpc: hpc-compute's governor change on every CPU" "$(jq '[.candidates[] | select(.name == "hpc-compute") | .changes[] | select(.key == "governor")] | length' "$TMP/hpc.json")" 16

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
