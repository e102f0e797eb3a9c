#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab stat's hardware metrics against perf stat on the same command, where a core PMU
# exists (skipped with the reason elsewhere, e.g. a VM without a virtual PMU):
#   user-mode instructions of a program touching N pages: within 1 % of perf's (the same
#     instructions retire in every run; the loader adds a little);
#   IPC: within 15 % of perf's instructions / cycles (cycles vary with frequency and
#     other work);
#   LLC misses per kilo-instruction: within 30 % + 0.5 of perf's LLC-load-misses /
#     instructions * 1000 where both count it;
#   top-down level 1, where this PMU kind has it: each share in 0..100 and the four
#     summing to 100 +- 2 (the method's invariant, Yasin 2014).
. "$PERFLAB_SRCDIR/tests/lib.sh"
P=$PERFLAB
N=20000

if ! command -v perf >/dev/null 2>&1; then
	skip "hardware metrics vs perf stat" "perf is not installed (linux-perf)"
	done_testing
fi
"$P" stat --json -o "$TMP/probe.json" -- true 2>/dev/null
if [ "$(jq -r .core_pmu "$TMP/probe.json" 2>/dev/null)" != true ]; then
	skip "hardware metrics vs perf stat" \
		"$(jq -r '.core_pmu_reason // "no core PMU"' "$TMP/probe.json" 2>/dev/null)"
	done_testing
fi
close() { # A B PCT ABS: |A - B| <= PCT % of the larger + ABS
	awk -v a="$1" -v b="$2" -v p="$3" -v t="$4" \
		'BEGIN { d = a - b; if (d < 0) d = -d; m = a > b ? a : b; exit !(d <= m * p / 100 + t) }'
}
perf_val() { # EVENT FILE: perf stat -x, value of EVENT
	awk -F, -v e="$1" '$3 == e { print $1 }' "$2"
}
metric() { # NAME FILE: perflab's metric value, or "unavailable"
	jq -r --arg m "$1" '.metrics[] | select(.metric == $m) | (.value // "unavailable")' "$2"
}

perf stat -x, -o "$TMP/perf.csv" -e instructions:u,cycles:u,instructions,cycles,LLC-load-misses \
	-- "$COUNTERS_TOUCH_PAGES" "$N" >/dev/null 2>&1
ok "perflab stat -M ipc,llc_mpki,topdown" "$P" stat --json -o "$TMP/pl.json" \
	-e instructions:u -M ipc,llc_mpki,topdown -- "$COUNTERS_TOUCH_PAGES" "$N"
iu_perf=$(perf_val instructions:u "$TMP/perf.csv")
iu_pl=$(jq -r '.events[] | select(.event == "instructions:u") | .["counter-value"] | floor' "$TMP/pl.json")
echo "# instructions:u: perf $iu_perf, perflab $iu_pl"
ok "user instructions within 1 % of perf's ($iu_pl vs $iu_perf)" close "${iu_pl:-0}" "${iu_perf:-1}" 1 1000
ins=$(perf_val instructions "$TMP/perf.csv")
cyc=$(perf_val cycles "$TMP/perf.csv")
ipc_perf=$(awk -v i="$ins" -v c="$cyc" 'BEGIN { if (c > 0) printf "%.4f", i / c }')
ipc_pl=$(metric ipc "$TMP/pl.json")
echo "# ipc: perf $ipc_perf, perflab $ipc_pl"
ok "IPC within 15 % of perf's ($ipc_pl vs $ipc_perf)" close "$ipc_pl" "$ipc_perf" 15 0
llc=$(perf_val LLC-load-misses "$TMP/perf.csv")
mpki_pl=$(metric llc_mpki "$TMP/pl.json")
if [[ $llc =~ ^[0-9]+$ && $mpki_pl != unavailable ]]; then
	mpki_perf=$(awk -v m="$llc" -v i="$ins" 'BEGIN { printf "%.4f", m / i * 1000 }')
	echo "# LLC MPKI: perf $mpki_perf, perflab $mpki_pl"
	ok "LLC MPKI within 30 % + 0.5 of perf's" close "$mpki_pl" "$mpki_perf" 30 0.5
else
	skip "LLC MPKI vs perf" "LLC-load-misses not counted here (perf: '$llc', perflab: $mpki_pl)"
fi
td=$(jq -r '[.metrics[] | select(.metric | startswith("topdown_")) | .value // empty] | length' "$TMP/pl.json")
if [ "$td" = 4 ]; then
	sum=$(jq '[.metrics[] | select(.metric | startswith("topdown_")) | .value] | add' "$TMP/pl.json")
	ok "top-down level 1 sums to 100 +- 2 ($sum)" close "$sum" 100 0 2
	ok "each top-down share in 0..100" test "$(jq '[.metrics[] | select(.metric | startswith("topdown_")) | .value | select(. < 0 or . > 100)] | length' "$TMP/pl.json")" = 0
else
	skip "top-down level 1" "this PMU kind has no level-1 top-down events ($td of 4 counted)"
fi
done_testing
