#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab inspect on the live system. Only what holds on every machine: each fact is
# compared with an independent reading of the same source (the sysfs files read here,
# lscpu, hwloc-calc, a captured copy of the tree) or checked against an invariant
# (glibc's cpuid-based getconf reports a cache as large as sysfs or larger: a VM's cpuid
# may pass the host socket's L3 through, AMD's legacy leaf gives the whole socket's L3),
# never against this machine's values. tests/facts/disagree.sh runs this file again with
# the cache sysfs changed under perflab (sysfs and cpuid disagreeing).
. "$PERFLAB_SRCDIR/tests/lib.sh"
. "$PERFLAB_SRCDIR/tests/facts/facts-lib.sh"

inspect_json live /
J=$TMP/live.json

# --- a hypervisor named by cpuid (the CPUID hypervisor bit means leaf 0x40000000 exists)
if [ -r /proc/cpuinfo ] && grep -qw hypervisor /proc/cpuinfo; then
	like "live: hypervisor named (not unknown)" "$(fact virt.hypervisor "$J")" '^(kvm|xen|vmware|hyperv|qemu|bhyve|parallels|acrn|virtualbox)$'
	like "live: cpuid signature recorded" "$(source_of virt.cpuid.signature "$J")" '^cpuid:0x40000000$'
else
	skip "live: hypervisor via cpuid" "not running under a hypervisor (no hypervisor flag in /proc/cpuinfo)"
fi

# --- caches: sysfs (through hwloc, as lscpu reads it) when the kernel exposes it, else cpuid
C0=/sys/devices/system/cpu/cpu0/cache
to_bytes() { # sysfs size text (48K, 32M) -> bytes
	awk '{ n = $0 + 0; u = substr($0, length($0)); m = u == "K" ? 1024 : u == "M" ? 1048576 : u == "G" ? 1073741824 : 1; print n * m }' <<<"$1"
}
sysfs_size() { # LEVEL TYPE -> cpu0's cache size in bytes, or nothing
	local d
	for d in "$C0"/index[0-9]*; do
		[ "$(cat "$d/level" 2>/dev/null)" = "$1" ] && [ "$(cat "$d/type" 2>/dev/null)" = "$2" ] &&
			to_bytes "$(cat "$d/size")" && return
	done
}
lscpu_size() { # LEVEL TYPE -> lscpu's ONE-SIZE in bytes, or nothing
	lscpu -B -C=LEVEL,TYPE,ONE-SIZE 2>/dev/null | awk -v l="$1" -v t="$2" '$1 == l && $2 == t { print $3; exit }'
}
# getconf on CPU 0 (whose caches perflab reports; hybrid CPUs differ per core type)
if command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null; then
	getconf0() { taskset -c 0 getconf "$1" 2>/dev/null; }
else
	getconf0() { getconf "$1" 2>/dev/null; }
fi
have_lscpu=$([ -n "$(lscpu_size 1 Data)" ] && echo 1 || echo 0)
for l in "l1d_bytes 1 Data LEVEL1_DCACHE_SIZE" "l2_bytes 2 Unified LEVEL2_CACHE_SIZE" \
	"l3_bytes 3 Unified LEVEL3_CACHE_SIZE"; do
	set -- $l
	k=cpu.cache.$1 v=$(fact "cpu.cache.$1" "$J") g=$(getconf0 "$4")
	if [ -e "$C0/index0" ]; then
		is "live: $k read from sysfs (hwloc)" "$(source_of "$k" "$J")" "hwloc:$C0"
		s=$(sysfs_size "$2" "$3")
		if [ -z "$s" ]; then
			like "live: $k unavailable like sysfs (no level-$2 $3 cache)" "$v" '^unavailable'
			continue
		fi
		is "live: $k equals sysfs $C0 level $2 $3 size" "$v" "$s"
		if [ "$have_lscpu" = 1 ]; then
			is "live: $k equals lscpu -C ONE-SIZE" "$v" "$(lscpu_size "$2" "$3")"
		else
			skip "live: $k equals lscpu -C" "lscpu shows no caches here"
		fi
	else
		like "live: $k from cpuid when sysfs has no caches" "$(source_of "$k" "$J")$v" '^cpuid|^unavailable'
	fi
	if [ -n "$g" ] && [ "$g" != 0 ] && [[ $v =~ ^[0-9]+$ ]]; then
		like "live: getconf $4 ($g, cpuid) >= $k ($v)" "$((g >= v))" 1
	else
		skip "live: getconf $4 >= $k" "getconf reports nothing or $k is unavailable"
	fi
done

# L3 instances: distinct shared_cpu_list of the online CPUs' level-3 caches
if [ -e "$C0/index0" ] && [ -n "$(sysfs_size 3 Unified)" ]; then
	n=0 total=0 seen=" "
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		[ "$(cat "$c/online" 2>/dev/null || echo 1)" = 1 ] || continue
		for d in "$c"/cache/index[0-9]*; do
			[ "$(cat "$d/level")" = 3 ] || continue
			sh=$(cat "$d/shared_cpu_list")
			case "$seen" in *" $sh "*) continue ;; esac
			seen="$seen$sh " n=$((n + 1)) total=$((total + $(to_bytes "$(cat "$d/size")")))
		done
	done
	is "live: cpu.cache.l3_count equals the distinct sysfs L3 instances" "$(fact cpu.cache.l3_count "$J")" "$n"
	if command -v hwloc-calc >/dev/null; then
		is "live: cpu.cache.l3_count equals hwloc-calc's" "$n" \
			"$(HWLOC_COMPONENTS=-x86 hwloc-calc --number-of l3cache all 2>/dev/null)"
	else
		skip "live: l3_count equals hwloc-calc's" "hwloc-calc not installed"
	fi
	# bench mem sizes its arrays from the same caches (hwloc): the same total
	ok "bench mem reads the last-level cache" "$PERFLAB" bench mem --size 4MiB --only sum --runs 1 \
		--warmup 0 --json -o "$TMP/mem.json"
	is "live: bench mem's last-level cache total equals the sysfs L3 sizes summed" \
		"$(jq -r .info.llc_total_bytes "$TMP/mem.json")" "$total"
else
	skip "live: L3 instances from sysfs" "no level-3 cache in $C0"
fi

# --- capture-sysroot.sh round trip: every file-derived live fact reads the same from the
# captured tree (proves the collectors read only through the sysroot helper and the
# capture copies everything they read). Skipped: cpuid-derived facts, the live-only ethtool
# ioctl and syslog(2) kernel log (a tree has /dev/kmsg as a file instead), and counters that
# move between the two runs (memory balloons here, allocation counters).
if command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null; then
	# (several live readings around the capture: a setting another process changes
	# meanwhile, such as a concurrent bench clock --all-clocksources switching the
	# clocksource, is not stable across them and is left out, and named; a difference
	# is captured again, up to three times, since such a change can also fall between
	# stable readings: a collector that bypasses the sysroot differs every time)
	cmp='$l[0].facts | to_entries
		| map(select((.value | has("value")) and (.value.source | test("^(cpuid|ethtool|syslog)") | not)
			and (.key | test("^(virt\\.cpuid|mem\\.(available_bytes|hugepages\\.free)|numa\\.(local_pages|other_pages|remote_ratio|node\\.[0-9]+\\.mem_bytes))") | not)))
		| map(.key as $k | select([$l[1:][].facts[$k].value] | all(. == $l[0].facts[$k].value) | VOLATILE))'
	capfail=0 diffs="(no capture)"
	for try in 1 2 3; do
		C=$TMP/captured$try
		"$PERFLAB" inspect --json >"$TMP/l0.json"
		env ASAN_OPTIONS=detect_leaks=0 "$PERFLAB_SRCDIR/tests/fixtures/capture-sysroot.sh" "$PERFLAB" "$C" >"$OUT" 2>"$ERR" ||
			{ capfail=1; break; }
		for i in 1 2 3; do "$PERFLAB" inspect --json >"$TMP/l$i.json"; done
		"$PERFLAB" inspect --json --sysroot "$C" >"$TMP/c.json"
		jq -s . "$TMP"/l[0-3].json | jq -c '.[]' >"$TMP/lives.json"
		diffs=$(jq -r -n --slurpfile l "$TMP/lives.json" --slurpfile c "$TMP/c.json" \
			"${cmp/VOLATILE/.} | map(select(.value.value != \$c[0].facts[.key].value)) | map(.key) | join(\" \")")
		volatile=$(jq -r -n --slurpfile l "$TMP/lives.json" "${cmp/VOLATILE/not} | map(.key) | join(\" \")")
		[ -n "$volatile" ] && echo "# changed while the test ran (left out): $volatile"
		[ -z "$diffs" ] && break
		echo "# capture $try differs in: $diffs"
	done
	if [ "$capfail" = 1 ]; then
		_report fail "capture-sysroot.sh on this machine" "$(head -c 2000 "$ERR")"
	else
		_report ok "capture-sysroot.sh on this machine ($try captures)"
	fi
	is "captured tree gives the live facts" "$diffs" ""
	n=$(jq '[.facts[] | select(has("value"))] | length' "$TMP/c.json")
	like "captured tree has many facts ($n)" "$n" '^[1-9][0-9]{2,}$'
else
	skip "capture-sysroot.sh round trip" "strace missing or ptrace not permitted"
	skip "captured tree fact count" "strace missing or ptrace not permitted"
fi
done_testing
