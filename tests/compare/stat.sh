#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab compare --stat: every run counted (perf_event_open on the held child, from its
# exec). A variant that touches D more fresh pages than the baseline shows about D more
# page-faults per run, with a ratio CI that excludes no change and a verdict; every run
# has its counts (at least the pages it touched) and the software metrics; a metric whose
# events this machine lacks says "unavailable: EVENT not on this PMU" once and has no
# value; the Markdown and CSV exports carry the rows; bad --stat lists exit 2. Skips
# where perf_event_open cannot count software events here.
. "$PERFLAB_SRCDIR/tests/lib.sh"
P=$PERFLAB
T=$COMPARE_TOUCH_PAGES
A=100
D=2000

if ! "$P" stat -e page-faults -o /dev/null -- true 2>"$TMP/pl.err"; then
	skip "compare --stat" "perf_event_open cannot count here: $(head -c 300 "$TMP/pl.err")"
	done_testing
fi

ok "compare --stat page-faults,software" "$P" compare --json --runs 6 --warmup 1 \
	--stat page-faults,software --export-markdown "$TMP/c.md" --export-csv "$TMP/c.csv" \
	-n few -- "$T" "$A" -n many -- "$T" "$((A + D))"
cp "$OUT" "$TMP/c.json"
validate compare.schema.json "$TMP/c.json"
is "counter metrics" "$(jqv "$TMP/c.json" '[.metrics[] | select(.source == "counters") | .name] | sort | join(",")')" \
	"context-switches,context_switch_rate,cpu-migrations,cpu_migration_rate,cpu_utilization,page-faults,page_fault_rate,task-clock"
is "nothing unavailable" "$(jqv "$TMP/c.json" '.counters.unavailable | length')" 0
is "the --stat list recorded" "$(jqv "$TMP/c.json" '.counters.stat')" "page-faults,software"
is "every run has its counts" "$(jqv "$TMP/c.json" '[.runs[].metrics | select(.["page-faults"] != null and .page_fault_rate != null and .["task-clock"] != null and .cpu_utilization != null)] | length')" 14
is "every run faults at least once per page it touches" "$(jq -r --argjson a "$A" --argjson d "$D" \
	'[.runs[] | select(.metrics["page-faults"] < (if .variant == "few" then $a else $a + $d end))] | length' "$TMP/c.json")" 0
pf='.statistics[] | select(.metric == "page-faults") | .variants'
few=$(jqv "$TMP/c.json" "$pf | .[0].median")
many=$(jqv "$TMP/c.json" "$pf | .[1].median")
like "median page-faults: $many - $few is $D pages within 5% + 20" \
	"$(awk -v a="$few" -v b="$many" -v d="$D" 'BEGIN { x = b - a - d; if (x < 0) x = -x; print (x <= 0.05 * d + 20) ? "yes" : "no" }')" yes
is "median CIs hold their medians" "$(jqv "$TMP/c.json" "[$pf | .[] | select(.median_ci[0] > .median or .median_ci[1] < .median)] | length")" 0
like "the ratio CI excludes no change" "$(jqv "$TMP/c.json" "$pf | .[1].vs_baseline.ci[0]")" '^[1-9]'
is "verdict: changed" "$(jqv "$TMP/c.json" "$pf | .[1].verdict")" changed
like "verdict text" "$(jqv "$TMP/c.json" "$pf | .[1].verdict_text")" '^higher by '
like "markdown: the page-faults row" "$(cat "$TMP/c.md")" '\| page-faults \|'
like "csv: the page-faults rows" "$(grep -c '^page-faults,,' "$TMP/c.csv")" '^2$'

# the table, and a metric this PMU may lack: a note once, never a value
ok "compare --stat ipc,page-faults (text)" "$P" compare --runs 2 --warmup 0 --stat ipc,page-faults \
	-n a -- "$T" 10 -n b -- "$T" 20
cp "$OUT" "$TMP/t.txt"
like "table: the page-faults row" "$(cat "$TMP/t.txt")" 'page-faults +median +[0-9]'
ok "compare --stat ipc (json)" "$P" compare --json --runs 2 --warmup 0 --stat ipc -n a -- "$T" 10 -n b -- "$T" 20
cp "$OUT" "$TMP/i.json"
validate compare.schema.json "$TMP/i.json"
if [ "$(jqv "$TMP/i.json" '.counters.core_pmu')" = false ]; then
	is "no core PMU: ipc unavailable, once" "$(grep -c '^  ipc: unavailable: [a-z-]* not on this PMU$' "$TMP/t.txt")" 1
	is "no core PMU: no ipc value in any run" "$(jqv "$TMP/i.json" '[.runs[].metrics.ipc | select(. != null)] | length')" 0
	like "no core PMU: the reason in JSON" "$(jqv "$TMP/i.json" '.counters.core_pmu_reason')" 'no core PMU'
	like "no core PMU: the note in JSON" "$(jqv "$TMP/i.json" '.counters.unavailable[0]')" '^ipc: unavailable: '
else
	is "core PMU: an ipc value in every run" "$(jqv "$TMP/i.json" '[.runs[].metrics.ipc | select(. != null and . > 0)] | length')" 4
fi

# bad lists: one line, exit 2, before any run
expect_exit 2 "unknown name" "$P" compare --runs 2 --stat bogus -n a -- "$T" 1 -n b -- "$T" 1
like "unknown name: the fix" "$(cat "$ERR")" "--stat 'bogus': 'bogus' is no metric, metric group or event \(perflab stat --list"
is "unknown name: one line" "$(wc -l <"$ERR")" 1
expect_exit 2 "empty name" "$P" compare --runs 2 --stat 'page-faults,' -n a -- "$T" 1 -n b -- "$T" 1
like "empty name: said" "$(cat "$ERR")" 'an empty name'
expect_exit 2 "malformed event" "$P" compare --runs 2 --stat 'software/page-faults' -n a -- "$T" 1 -n b -- "$T" 1
like "malformed event: named" "$(cat "$ERR")" "^perflab compare: error: --stat 'software/page-faults': "
expect_exit 2 "a name taken by --metric" "$P" compare --runs 2 --metric 'page-faults=(x)' --stat page-faults \
	-n a -- "$T" 1 -n b -- "$T" 1
like "taken name: said" "$(cat "$ERR")" "the name 'page-faults' is taken"
done_testing
