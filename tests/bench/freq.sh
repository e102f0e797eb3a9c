#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab bench freq: bad input, and invariants of a real run that hold on any machine
# (one metric per CPU and per busy count, clocks positive and below 10 GHz, cpuinfo's MHz
# as /proc/cpuinfo says, APERF/MPERF either measured or said to be unavailable).
. "$PERFLAB_SRCDIR/tests/lib.sh"
ALLOWED=$(/usr/bin/python3 -c 'import os; print(" ".join(map(str, sorted(os.sched_getaffinity(0)))))')
CPU=${ALLOWED%% *}
NCPU=$(echo $ALLOWED | wc -w)

expect_exit 2 "freq: --max-busy above the CPUs of the run" "$PERFLAB" bench freq --quick --cpus "$CPU" --max-busy 2
like "freq: --max-busy names the CPUs" "$(cat "$ERR")" "--max-busy 2: more than the CPUs of the run \(1\)"
expect_exit 2 "freq: --time below 5 ms" "$PERFLAB" bench freq --time 1ms

ok "freq --quick --duration --json" "$PERFLAB" bench freq --quick --duration 200ms --sample 100ms --json -o "$TMP/f.json"
f=$TMP/f.json
validate bench.schema.json "$f"
want=
for c in $ALLOWED; do want="$want,cpu$c"; [ "$(jqv "$f" .info.aperf_mperf)" = unavailable ] || want="$want,cpu$c aperf/mperf"; done
for k in $(seq 1 "$NCPU"); do want="$want,busy $k"; done
want="${want#,},sustained first,sustained last"
is "freq: a metric per CPU, per busy count, and the sustained ends" "$(jq -r '[.metrics[].name] | join(",")' "$f")" "$want"
is "freq: every clock is between 10 MHz and 10 GHz" \
	"$(jq -r '[.metrics[] | select(.median < 10 or .median > 10000)] | length' "$f")" 0
is "freq: --duration 200ms / --sample 100ms = two samples" "$(jq -r '.info.sustained_mhz | length' "$f")" 2
am=$(jqv "$f" .info.aperf_mperf)
if [ "$am" = unavailable ]; then
	like "freq: APERF/MPERF unavailable, and a note says why" "$(jqv "$f" '.notes[]')" "APERF/MPERF not readable \("
else
	like "freq: APERF/MPERF read through $am" "$am" "perf_event msr PMU|/dev/cpu/N/msr"
fi
mhz=$(awk -v c="$CPU" '/^processor/ { p = $3 } /^cpu MHz/ && p == c { print $4; exit }' /proc/cpuinfo)
if [ -n "$mhz" ]; then
	is "freq: cpuinfo_mhz of CPU $CPU as /proc/cpuinfo says (at most 1 MHz apart: it moves)" \
		"$(jq -r --argjson m "$mhz" "((.info.cpuinfo_mhz[\"$CPU\"] - \$m) | if . < 0 then -. else . end) <= 1" "$f")" true
else
	skip "freq: cpuinfo_mhz as /proc/cpuinfo says" "no 'cpu MHz' in /proc/cpuinfo (not x86)"
fi
case $(uname -m) in
x86_64 | i?86) like "freq: the TSC rate is measured on x86" "$(jqv "$f" .info.tsc_mhz)" '^[0-9]+(\.[0-9]+)?$' ;;
*) is "freq: no TSC rate off x86" "$(jqv "$f" .info.tsc_mhz)" null ;;
esac
# the text shows no long floats: the TSC rate to 5 significant digits, as the JSON has it
if [ "$(jqv "$f" .info.tsc_mhz)" != null ]; then
	"$PERFLAB" bench freq --quick --duration 200ms --sample 100ms >"$TMP/f.txt" 2>/dev/null
	t=$(sed -n 's/^  tsc_mhz: //p' "$TMP/f.txt")
	like "freq text: tsc_mhz short ($t)" "$t" '^[0-9]{1,5}(\.[0-9]{1,4})?$'
	is "freq text: at most 5 significant digits" "$(printf '%s' "$t" | tr -d . | sed 's/^0*//' | awk '{ print length($0) <= 5 }')" 1
fi
done_testing
