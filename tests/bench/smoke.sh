#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Registry smoke test: every benchmark listed by `perflab bench --list` runs briefly
# (--quick) with --json; the output validates against docs/schemas/bench.schema.json and
# carries real measurements. A benchmark that cannot run here must say why (exit 3,
# "status":"skipped" with a reason) and is counted as skipped.
. "$PERFLAB_SRCDIR/tests/lib.sh"

ok "bench --list" "$PERFLAB" bench --list
names=$(awk 'NR > 1 && $2 ~ /^(yes|no)$/ { print $1 }' "$OUT")
like "--list names benchmarks" "$names" '^clock'
cp "$OUT" "$TMP/list"
for n in $names; do
	f=$TMP/$n.json
	here=$(awk -v n="$n" '$1 == n { print $2 }' "$TMP/list")
	"$PERFLAB" bench "$n" --quick --json -o "$f" 2>"$ERR"
	rc=$?
	if [ "$rc" -eq 3 ] && [ -s "$f" ] && [ "$(jqv "$f" .status)" = skipped ]; then
		is "bench $n: skipped as --list said (here: $here)" "$here" no
		skip "bench $n" "$(jqv "$f" .reason)"
		continue
	fi
	is "bench $n: runs, as --list said" "$here" yes
	is "bench $n --quick exits 0" "$rc" 0
	[ -s "$f" ] || { _report fail "bench $n wrote $f" "$(cat "$ERR")"; continue; }
	validate bench.schema.json "$f"
	is "bench $n: status ok" "$(jqv "$f" .status)" ok
	is "bench $n: benchmark name" "$(jqv "$f" .benchmark)" "$n"
	like "bench $n: has metrics" "$(jqv "$f" '.metrics | length')" '^[1-9][0-9]*$'
	# every metric measured at least once, with a finite non-negative median (a loss, a
	# retransmit count or a cold cache's residency is legitimately 0), and some positive
	bad=$(jq -r '.metrics[] | select(.n < 1 or .median == null or .median < 0) | .name' "$f")
	is "bench $n: every metric has a non-negative median" "$bad" ""
	like "bench $n: some metric is positive" "$(jq '[.metrics[] | select(.median > 0)] | length' "$f")" '^[1-9]'
	like "bench $n: environment has the kernel" "$(jqv "$f" .environment.kernel)" '^[0-9]+\.'
	like "bench $n: runs counted" "$(jqv "$f" .runner.runs)" '^[1-9]'
done
# the human table of one benchmark
ok "bench clock table" "$PERFLAB" bench clock --quick --runs 1
like "table has the column header" "$(cat "$OUT")" 'metric +unit +best +median +mean +stddev +worst run +n'
ok "bench clock table, 3 runs" "$PERFLAB" bench clock --quick --runs 3 --only gettimeofday
like "a time's worst run is its slowest (max)" "$(cat "$OUT")" 'gettimeofday +ns( +[0-9.]+){4} +[0-9.]+ max +3 '
ok "bench mem table, 3 runs" "$PERFLAB" bench mem --quick --runs 3 --only triad
like "a bandwidth's worst run is its lowest (min), as in the report" "$(cat "$OUT")" 'triad +GB/s( +[0-9.]+){4} +[0-9.]+ min +3 '
like "the worst run is explained under the table" "$(cat "$OUT")" 'worst run: of the runs. figures, the max of a lower-is-better metric'
like "table names the environment" "$(cat "$OUT")" 'environment: kernel'

# perflab report --quick holds every in_report benchmark as a bench document, run with
# its quick arguments (the default plan, about 60 s, is checked without running it in
# plan.sh)
ok "report --quick runs the quick benchmarks" "$PERFLAB" report --quick -o "$TMP/rep"
is "report: the in-report benchmarks, each once, in registry order" \
	"$(jq -r '[.benchmarks[] | .benchmark] | join(",")' "$TMP/rep/report.json")" \
	"clock,syscall,mem,ticks,io,net,compress"
jq '.benchmarks[0]' "$TMP/rep/report.json" >"$TMP/rep-b0.json"
validate bench.schema.json "$TMP/rep-b0.json"
"$PERFLAB" report --dry-run --quick --json >"$TMP/qplan.json"
# (a benchmark skipped because a loaded machine used up the budget has no runner)
is "report --quick: each benchmark ran with the arguments of the quick plan, marked quick" \
	"$(jq -c '[.benchmarks[] | select(.status != "skipped") | [.benchmark, .runner.quick, .runner.args]]' "$TMP/rep/report.json")" \
	"$(jq -c --slurpfile r "$TMP/rep/report.json" '[$r[0].benchmarks[] | select(.status != "skipped") | .benchmark] as $ran
		| [.benchmarks[] | select(.benchmark as $b | $ran | index($b)) | [.benchmark, true, .args]]' "$TMP/qplan.json")"
is "report --quick: run.mode and budget" "$(jq -r '"\(.run.mode) \(.run.budget_s)"' "$TMP/rep/report.json")" "quick 15"
like "report.md has the clock table" "$(cat "$TMP/rep/report.md")" '### bench clock'
ok "report --no-bench" "$PERFLAB" report --no-bench -o "$TMP/rep2"
is "report --no-bench: no benchmarks" "$(jq -r '.benchmarks // [] | length' "$TMP/rep2/report.json")" 0
done_testing
