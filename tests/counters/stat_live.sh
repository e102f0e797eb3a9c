#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab stat against perf stat on the same deterministic commands, side by side:
#   page-faults of a program touching N fresh pages: both counts >= N, and within 2 %
#     + 10 of each other (the loader's faults vary by a few between runs);
#   context-switches of K 1-ms nanosleeps: both >= K (each sleep blocks), and within
#     10 % + 5 of each other (preemptions by other work on a shared machine only add).
# Each tool counts only the command (from its exec, children followed). Skips with the
# reason where perf or perf_event_open is missing.
. "$PERFLAB_SRCDIR/tests/lib.sh"
P=$PERFLAB
N=4000
K=200

if ! command -v perf >/dev/null 2>&1; then
	skip "perflab stat vs perf stat" "perf is not installed (linux-perf)"
	done_testing
fi
if ! perf stat -x, -e page-faults -- true >/dev/null 2>"$TMP/perf.err"; then
	skip "perflab stat vs perf stat" "perf stat fails here: $(head -c 300 "$TMP/perf.err")"
	done_testing
fi
if ! "$P" stat -e page-faults -o /dev/null -- true 2>"$TMP/pl.err"; then
	skip "perflab stat vs perf stat" "perflab stat cannot count here: $(head -c 300 "$TMP/pl.err")"
	done_testing
fi

# perf's count of EVENT for CMD... (CSV: value,unit,event,...)
perf_count() {
	local ev=$1
	shift
	perf stat -x, -e "$ev" -- "$@" 2>&1 >/dev/null | awk -F, -v e="$ev" '$3 == e { print $1 }'
}
pl_count() {
	local ev=$1
	shift
	"$P" stat --json -o "$TMP/pl.json" -e "$ev" -- "$@" >/dev/null 2>&1 &&
		jq -r '.events[0]["counter-value"] | floor' "$TMP/pl.json"
}
close() { # A B PCT ABS: |A - B| <= PCT % of the larger + ABS
	awk -v a="$1" -v b="$2" -v p="$3" -v t="$4" \
		'BEGIN { d = a - b; if (d < 0) d = -d; m = a > b ? a : b; exit !(d <= m * p / 100 + t) }'
}

pf_perf=$(perf_count page-faults "$COUNTERS_TOUCH_PAGES" "$N")
pf_pl=$(pl_count page-faults "$COUNTERS_TOUCH_PAGES" "$N")
echo "# page-faults of $N pages touched: perf stat $pf_perf, perflab stat $pf_pl"
like "perf stat page-faults is a number" "$pf_perf" '^[0-9]+$'
like "perflab stat page-faults is a number" "$pf_pl" '^[0-9]+$'
ok "perf stat: page-faults >= $N ($pf_perf)" test "${pf_perf:-0}" -ge "$N"
ok "perflab stat: page-faults >= $N ($pf_pl)" test "${pf_pl:-0}" -ge "$N"
ok "page-faults within 2 % + 10 of perf's ($pf_pl vs $pf_perf)" close "${pf_pl:-0}" "${pf_perf:-0}" 2 10

cs_perf=$(perf_count context-switches "$COUNTERS_NANOSLEEPS" "$K")
cs_pl=$(pl_count context-switches "$COUNTERS_NANOSLEEPS" "$K")
echo "# context-switches of $K nanosleeps: perf stat $cs_perf, perflab stat $cs_pl"
like "perf stat context-switches is a number" "$cs_perf" '^[0-9]+$'
like "perflab stat context-switches is a number" "$cs_pl" '^[0-9]+$'
ok "perf stat: context-switches >= $K ($cs_perf)" test "${cs_perf:-0}" -ge "$K"
ok "perflab stat: context-switches >= $K ($cs_pl)" test "${cs_pl:-0}" -ge "$K"
ok "context-switches within 10 % + 5 of perf's ($cs_pl vs $cs_perf)" close "${cs_pl:-0}" "${cs_perf:-0}" 10 5

# children are followed: the same pages touched by a child of a shell count too
pf_sh=$(pl_count page-faults sh -c "\"$COUNTERS_TOUCH_PAGES\" $N; true")
ok "a child's page-faults are counted (inherit): >= $N ($pf_sh)" test "${pf_sh:-0}" -ge "$N"

done_testing
