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
is "busiest CPU >= all CPUs" "$(jqv "$TMP/m.json" '[.runs[].metrics | select(.sys_cpu_max < .sys_cpu - 1e-9)] | length')" 0
busy=$(jqv "$TMP/m.json" '.statistics[] | select(.metric == "sys_cpu") | .variants[1].median')
like "busy variant: sys_cpu median $busy >= half a CPU of $ncpu" \
	"$(awk -v b="$busy" -v n="$ncpu" 'BEGIN { print (b >= 50 / n) ? "yes" : "no" }')" yes
like "sys_cpu has a verdict" "$(jqv "$TMP/m.json" '.statistics[] | select(.metric == "sys_cpu") | .variants[1].verdict')" '^[a-z]'
ok "text output" "$P" compare --monitor --runs 2 --warmup 0 -n a -- sleep 0.1 -n b -- sleep 0.1
like "text: the sys_cpu row" "$(cat "$OUT")" 'sys_cpu +median +[0-9.]+ %'
done_testing
