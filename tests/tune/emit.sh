#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# check --emit-profile: the fixes of the findings at or above --fail-on as a tuned-format
# profile, over fixture sysroots where several rules fire. The file loads in
# `perflab tune show` and in tuned's own loader (tests/tune/tunedump.py, as stock.sh),
# each option under a comment naming its rule, risky fixes and placeholders left out with
# the reason, [disk] fixes one section per device, and a bad FILE writes nothing.
. "$PERFLAB_SRCDIR/tests/lib.sh"
FIX=$PERFLAB_SRCDIR/tests/fixtures/sysroots
P=$TMP/profiles
have_tuned=1
/usr/bin/python3 -c 'import tuned.profiles.loader' 2>/dev/null || have_tuned=0

emit() { # NAME SYSROOT WORKLOAD SEVERITY: write $P/NAME/tuned.conf
	mkdir -p "$P/$1"
	"$PERFLAB" check --sysroot "$FIX/$2" -W "$3" --fail-on "$4" --emit-profile "$P/$1/tuned.conf" >"$OUT" 2>"$ERR"
}
# tune show and tuned's loader see the same units, types and options.
loads() { # NAME
	local n=$1
	"$PERFLAB" tune show "$n" --profile-dir "$P" --json >"$TMP/$n.show" 2>"$ERR"
	is "$n: loads in tune show" "$?" 0
	if [ $have_tuned -eq 0 ]; then
		skip "$n: loads in tuned's loader" "tuned's Python modules cannot be imported (Debian package tuned)"
		return
	fi
	/usr/bin/python3 "$PERFLAB_SRCDIR/tests/tune/tunedump.py" --dir "$P" "$n" 2>/dev/null |
		cut -d' ' -f2- | jq -S -c . >"$TMP/a.json"
	jq -S -c '[.units[] | select(.name != "variables")
		| {key: .name, value: {type, enabled, options: ([.options[] | {key, value}] | from_entries)}}]
		| from_entries' "$TMP/$n.show" >"$TMP/b.json"
	if cmp -s "$TMP/a.json" "$TMP/b.json" && ! grep -q '"error"' "$TMP/a.json"; then
		_report ok "$n: tuned's loader reads the same units and options"
	else
		_report fail "$n: tuned's loader reads the same units and options" \
			"$(diff <(jq -S . "$TMP/a.json") <(jq -S . "$TMP/b.json") | head -20)"
	fi
}
opts() { # NAME: "unit.key=value" of tune show, sorted
	jq -r '.units[] | select(.name != "variables") | .name as $u | .options[] | "\($u).\(.key)=\(.value)"' "$TMP/$1.show" | sort | tr '\n' ' '
}
# The comment lines right above option KEY= in FILE (up to the previous option).
comment_of() { # FILE KEY
	awk -v k="$2=" 'index($0, k) == 1 { print c; exit } /^#/ { c = c $0 "\n"; next } { c = "" }' "$1"
}

# ---- intel-2s, latency, everything from info up ----
emit lat intel-2s latency info
is "latency: check's exit status unchanged (findings at or above info)" "$?" 1
like "latency: counts on stderr" "$(cat "$ERR")" "profile '.*lat/tuned.conf': 11 options from 12 findings, 1 fix left out"
like "latency: check output still on stdout" "$(cat "$OUT")" "perflab check.*workload: latency"
loads lat
is "latency: the options" "$(opts lat)" "cpu.force_latency=10 cpu.governor=performance sysctl.kernel.numa_balancing=0 sysctl.kernel.sched_latency_ns=12000000 sysctl.net.core.somaxconn=>1024 sysctl.net.ipv4.tcp_slow_start_after_idle=0 sysctl.net.ipv4.tcp_tw_recycle=0 sysctl.vm.dirty_background_ratio=3 sysctl.vm.dirty_ratio=10 sysfs./sys/kernel/mm/transparent_hugepage/defrag=madvise vm.transparent_hugepages=madvise "
is "latency: one section per plugin, in finding order" "$(grep '^\[' "$P/lat/tuned.conf" | tr '\n' ' ')" "[main] [sysctl] [sysfs] [vm] [cpu] "
like "latency: an option's comment names rule, severity and title" "$(comment_of "$P/lat/tuned.conf" net.ipv4.tcp_tw_recycle)" "^# net.tcp-tw-recycle \(crit\): tcp_tw_recycle is on"
like "latency: and the rationale" "$(comment_of "$P/lat/tuned.conf" net.ipv4.tcp_tw_recycle | tr -d '#\n' | tr -s ' ')" "why: Risky: tcp_tw_recycle drops SYNs whose timestamp is older"
like "latency: the second line of a fix refers to the first" "$(comment_of "$P/lat/tuned.conf" vm.dirty_background_ratio)" "^# mem.dirty-latency \(info\): as above"
like "latency: the isolation fix is left out as risky" "$(tr -d '#\n' <"$P/lat/tuned.conf" | tr -s ' ')" "left out: sched.nohz-full-unisolated \(warn\).* because: isolates CPUs.* fix line: \[bootloader\] cmdline=nohz_full=1-7 isolcpus=1-7 rcu_nocbs=1-7"
like "latency: a rule without a profile item is named" "$(cat "$P/lat/tuned.conf")" "# no profile item: accel.qat \(info\)"
ok "latency: nothing isolating is an option" bash -c "! grep -v '^#' '$P/lat/tuned.conf' | grep -q isolcpus"
"$PERFLAB" tune diff lat --profile-dir "$P" --sysroot "$FIX/intel-2s" --json >"$TMP/d.json"
is "latency: tune diff plans it on the machine it came from" "$?" 0
is "latency: every option differs there (or is manual)" "$(jq -r '[.items[].state] | unique | join(" ")' "$TMP/d.json")" "differs manual"

# ---- --fail-on warn drops the info fixes ----
emit warn intel-2s latency warn
is "warn: exit 1" "$?" 1
loads warn
is "warn: only warn and crit fixes" "$(opts warn)" "cpu.force_latency=10 cpu.governor=performance sysctl.kernel.numa_balancing=0 sysctl.net.ipv4.tcp_tw_recycle=0 sysfs./sys/kernel/mm/transparent_hugepage/defrag=madvise vm.transparent_hugepages=madvise "
ok "warn: the info finding is not mentioned" bash -c "! grep -q 'sched.latency-ns\|accel.qat' '$P/warn/tuned.conf'"

# ---- intel-2s throughput: [disk] per device, a section with type= and devices= ----
emit thr intel-2s throughput info
loads thr
like "throughput: disk options in their device's section" "$(opts thr)" "disk_sda.nr_requests=256 disk_sda.readahead=>4096 "
is "throughput: that section is type=disk, devices=sda" "$(jq -r '.units[] | select(.name == "disk_sda") | "\(.type) \(.devices)"' "$TMP/thr.show")" "disk sda"
"$PERFLAB" tune diff thr --profile-dir "$P" --sysroot "$FIX/intel-2s" --json >"$TMP/d.json"
is "throughput: the disk items plan against sda" "$(jq -r '[.items[] | select(.plugin == "disk") | "\(.key)@\(.device)"] | join(" ")' "$TMP/d.json")" "nr_requests@sda readahead@sda"

# ---- intel-2s hpc: services are left out (perflab cannot roll them back) ----
emit hpc intel-2s hpc warn
loads hpc
like "hpc: numad left out with the reason" "$(tr -d '#\n' <"$P/hpc/tuned.conf" | tr -s ' ')" "left out: numa.numad-hpc \(warn\).* because: stops and disables a system service"
ok "hpc: no [service] section" bash -c "! grep -q '^\[service\]' '$P/hpc/tuned.conf'"

# ---- xen-hvm: the clocksource fix with tsc=reliable is risky; sysctls stay ----
emit xen xen-hvm general warn
loads xen
is "xen: the options" "$(opts xen)" "sysctl.net.ipv4.icmp_echo_ignore_all=0 sysctl.net.ipv4.tcp_rmem=4096 1048576 16777216 sysctl.net.ipv4.tcp_timestamps=1 sysctl.net.ipv6.icmp.echo_ignore_all=0 "
like "xen: tsc=reliable left out with the reason" "$(tr -d '#\n' <"$P/xen/tuned.conf" | tr -s ' ')" "left out: clock.xen-tsc \(warn\).* because: turns the clocksource watchdog off"

# ---- a clean machine: an empty but loadable profile ----
emit clean this-vm general crit
is "clean: exit 0" "$?" 0
loads clean
is "clean: no options" "$(opts clean)" ""

# ---- bad FILE: exit 2, nothing written; an earlier file survives ----
expect_exit 2 "a FILE in a missing directory: exit 2" "$PERFLAB" check --sysroot "$FIX/intel-2s" --emit-profile "$TMP/nodir/x/tuned.conf"
like "the error names the file and the fix" "$(cat "$ERR")" "cannot write the profile '.*nodir/x/tuned.conf': No such file or directory \(give a file in an existing, writable directory\)"
is "nothing written to stdout either" "$(cat "$OUT")" ""
ok "no directory made" test ! -e "$TMP/nodir"
expect_exit 2 "a directory as FILE: exit 2" "$PERFLAB" check --sysroot "$FIX/intel-2s" --emit-profile "$P"
cp "$P/lat/tuned.conf" "$TMP/before"
expect_exit 2 "bad --fail-on: exit 2" "$PERFLAB" check --sysroot "$FIX/intel-2s" --fail-on bogus --emit-profile "$P/lat/tuned.conf"
ok "an existing profile is untouched after an error" cmp "$TMP/before" "$P/lat/tuned.conf"
ok "no temporary file left beside it" bash -c "[ \$(ls -A '$P/lat' | wc -l) -eq 1 ]"
# A block device whose name carries profile lines ("sda\n[bootloader]\ncmdline=..."):
# the name reaches the profile only inside comments, on one line, so tune loads no
# [bootloader] section from it.
H=$TMP/hostile
cp -a "$FIX/intel-2s" "$H"
BD=sys/devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block
EVIL=$'sda\n[bootloader]\ncmdline=mitigations=off nokaslr'
mv "$H/$BD/sda" "$H/$BD/$EVIL"
rm "$H/sys/block/sda"
ln -s "../devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/$EVIL" "$H/sys/block/$EVIL"
mkdir -p "$P/hostile"
"$PERFLAB" check --sysroot "$H" -W throughput --fail-on info --emit-profile "$P/hostile/tuned.conf" >"$OUT" 2>"$ERR"
like "hostile device name: the rule still fires (left out, the name is not a device name)" "$(cat "$P/hostile/tuned.conf")" "left out: block.nr-requests"
is "hostile device name: no line outside a comment carries it" "$(grep -c '^cmdline=\|^\[bootloader\]\|^\[disk' "$P/hostile/tuned.conf")" "0"
"$PERFLAB" tune show hostile --profile-dir "$P" --json >"$TMP/hostile.json"
is "hostile device name: the profile has no bootloader unit" "$(jq '[.units[] | select(.type == "bootloader" or .name == "bootloader")] | length' "$TMP/hostile.json")" "0"
done_testing
