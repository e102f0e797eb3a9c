#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every stock profile of Debian's tuned package parses, and `tune show` lists the same
# units, types and options as tuned's own loader (tests/tune/tunedump.py), in particular
# for throughput-performance and latency-performance.
. "$PERFLAB_SRCDIR/tests/lib.sh"
STOCK=/usr/lib/tuned
if ! ls "$STOCK"/*/tuned.conf >/dev/null 2>&1; then
	skip "stock tuned profiles" "Debian's tuned package is not installed ($STOCK)"
	done_testing
fi
have_tuned=1
/usr/bin/python3 -c 'import tuned.profiles.loader' 2>/dev/null || have_tuned=0
names=$(for c in "$STOCK"/*/tuned.conf; do basename "$(dirname "$c")"; done)
if [ $have_tuned -eq 1 ]; then
	# shellcheck disable=SC2086
	/usr/bin/python3 "$PERFLAB_SRCDIR/tests/tune/tunedump.py" $names >"$TMP/tuned.all" 2>/dev/null
fi
for conf in "$STOCK"/*/tuned.conf; do
	p=$(basename "$(dirname "$conf")")
	"$PERFLAB" tune show "$p" --json >"$TMP/s.json" 2>"$TMP/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		_report fail "stock $p parses" "exit $rc: $(cat "$TMP/err")"
		continue
	fi
	"$PERFLAB" tune diff "$p" >"$TMP/d.txt" 2>"$TMP/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		_report fail "stock $p parses and plans" "diff exit $rc: $(cat "$TMP/err")"
		continue
	fi
	if [ $have_tuned -eq 0 ]; then
		_report ok "stock $p parses and plans"
		continue
	fi
	grep "^$p " "$TMP/tuned.all" | cut -d' ' -f2- | jq -S -c . >"$TMP/a.json"
	jq -S -c '[.units[] | select(.name != "variables")
		| {key: .name, value: {type, enabled, options: ([.options[] | {key, value}] | from_entries)}}]
		| from_entries' "$TMP/s.json" >"$TMP/b.json"
	if cmp -s "$TMP/a.json" "$TMP/b.json"; then
		_report ok "stock $p: same units and options as tuned's loader"
	else
		_report fail "stock $p: same units and options as tuned's loader" \
			"$(diff <(jq -S . "$TMP/a.json") <(jq -S . "$TMP/b.json") | head -20)"
	fi
done
validate tune-show.schema.json "$TMP/s.json"
# The items tuned would apply from throughput-performance on this machine (x86: the
# ThunderX units do not apply) are exactly ours.
"$PERFLAB" tune diff throughput-performance --json >"$TMP/tp.json"
is "throughput-performance items" "$(jq -r '[.items[] | "\(.unit).\(.key)"] | unique | join(" ")' "$TMP/tp.json")" \
	"cpu.energy_perf_bias cpu.governor cpu.min_perf_pct disk.readahead sysctl.net.core.somaxconn sysctl.vm.dirty_background_ratio sysctl.vm.dirty_ratio sysctl.vm.swappiness"
"$PERFLAB" tune diff latency-performance --json >"$TMP/lp.json"
is "latency-performance items" "$(jq -r '[.items[] | "\(.unit).\(.key)"] | unique | join(" ")' "$TMP/lp.json")" \
	"cpu.energy_perf_bias cpu.force_latency cpu.governor cpu.min_perf_pct sysctl.vm.dirty_background_ratio sysctl.vm.dirty_ratio sysctl.vm.swappiness"
done_testing
