#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab compare --monitor: the machine-wide metrics (sys_cpu, sys_cpu_max, load1,
# ctxt_rate) are there for every measured run, within their bounds, in the schema, with a
# verdict; a variant that keeps one CPU busy shows at least part of a CPU machine-wide
# (an invariant: other work on the machine only adds).
. "$PERFLAB_SRCDIR/tests/lib.sh"
P=$PERFLAB
ncpu=$(grep -c '^cpu[0-9]' /proc/stat)
ok "compare --monitor" "$P" compare --monitor --json --runs 5 --warmup 0 --shell \
	-n idle -- 'sleep 0.3' -n busy -- 'timeout 0.3 sh -c "while :; do :; done"; true'
cp "$OUT" "$TMP/m.json"
validate compare.schema.json "$TMP/m.json"
is "four monitor metrics" "$(jqv "$TMP/m.json" '[.metrics[] | select(.source == "monitor") | .name] | join(",")')" \
	"sys_cpu,sys_cpu_max,load1,ctxt_rate"
is "a value per run and metric" "$(jqv "$TMP/m.json" '[.runs[] | .metrics | select(.sys_cpu != null and .sys_cpu_max != null and .load1 != null and .ctxt_rate != null)] | length')" 10
is "CPU shares within 0..100" "$(jqv "$TMP/m.json" '[.runs[].metrics | .sys_cpu, .sys_cpu_max | select(. < 0 or . > 100)] | length')" 0
# sys_cpu_max is clamped to at least sys_cpu (src/compare/session.c), so compare's own
# document cannot show the busiest CPU below the average; check the clamp's input instead:
# a monitor document's per-CPU busy shares against its all-CPU share. /proc/stat rounds
# each cpuN line and the total to ticks on their own, so the mean of the per-CPU shares
# is the total within a tick per CPU (plus the total's own tick), and the busiest CPU is
# at least the total less a tick. A tick is 100 / (USER_HZ * dt) % of an interval.
hz=$(getconf CLK_TCK)
ok "monitor --json under a busy loop" "$P" monitor -I 0.2 -d 1 --json -o "$TMP/mon.json" -- \
	sh -c 'timeout 0.8 sh -c "while :; do :; done"; true'
is "monitor: intervals with per-CPU shares" "$(jqv "$TMP/mon.json" '[.samples[] | select((.cpu.per_cpu | length) > 0 and .cpu.all.busy != null)] | length > 0')" true
is "monitor: mean of per-CPU busy = all-CPU busy within 2 ticks" "$(jq -r --argjson hz "$hz" '[.samples[] | select(.cpu.all.busy != null)
	| ((.cpu.per_cpu | map(.busy) | add / length) - .cpu.all.busy) as $d | (200 / ($hz * .dt_s)) as $tol
	| select($d > $tol or $d < -$tol)] | length' "$TMP/mon.json")" 0
is "monitor: busiest CPU >= all-CPU busy less a tick" "$(jq -r --argjson hz "$hz" '[.samples[] | select(.cpu.all.busy != null)
	| select((.cpu.per_cpu | map(.busy) | max) < .cpu.all.busy - 100 / ($hz * .dt_s))] | length' "$TMP/mon.json")" 0
busy=$(jqv "$TMP/m.json" '.statistics[] | select(.metric == "sys_cpu") | .variants[1].median')
like "busy variant: sys_cpu median $busy >= half a CPU of $ncpu" \
	"$(awk -v b="$busy" -v n="$ncpu" 'BEGIN { print (b >= 50 / n) ? "yes" : "no" }')" yes
like "sys_cpu has a verdict" "$(jqv "$TMP/m.json" '.statistics[] | select(.metric == "sys_cpu") | .variants[1].verdict')" '^[a-z]'
ok "text output" "$P" compare --monitor --runs 2 --warmup 0 -n a -- sleep 0.1 -n b -- sleep 0.1
like "text: the sys_cpu row" "$(cat "$OUT")" 'sys_cpu +median +[0-9.]+ %'
done_testing
