#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab bench --precision: a noisy series takes more runs than a quiet one, a precision
# too tight for the time stops at --max-time and says so, the warm-up rule drops a planted
# slow start, bad values exit 2 with one line. The series are bench spin's synthetic ones
# (test hook PERFLAB_TEST_SPIN_SERIES="NOISE%:SLOW_RUNS", test builds only): each run
# records 1 ms +- NOISE% (seeded), the first SLOW_RUNS runs 3 ms.
. "$PERFLAB_SRCDIR/tests/lib.sh"

spin() { # SERIES ARGS...: bench spin with a synthetic series (a short loop per run)
	local series=$1
	shift
	PERFLAB_TEST_SPIN_SERIES=$series "$PERFLAB" bench spin --iters 1000 "$@"
}
slow_spin() { # SERIES ARGS...: the same with 2 ms of work per run
	local series=$1
	shift
	PERFLAB_TEST_SPIN_SERIES=$series "$PERFLAB" bench spin --work 2ms "$@"
}

ok "quiet series" spin 0.1:0 --precision 1% --json -o "$TMP/quiet.json"
ok "noisy series" spin 5:0 --precision 1% --json -o "$TMP/noisy.json"
validate bench.schema.json "$TMP/quiet.json"
validate bench.schema.json "$TMP/noisy.json"
for f in quiet noisy; do
	is "$f: stopped on the precision" "$(jqv "$TMP/$f.json" .runner.precision.stop)" precision
	is "$f: reached within 1%" "$(jqv "$TMP/$f.json" '.runner.precision.reached_pct <= 1')" true
	is "$f: the headline metric is spin's one" \
		"$(jqv "$TMP/$f.json" '[.runner.precision.metrics[].name] | join(",")')" run
	is "$f: runs, samples and the interval's runs agree" \
		"$(jqv "$TMP/$f.json" '[.runner.runs, .runner.precision.runs, .metrics[0].n] | unique | length')" 1
	is "$f: reached_pct is the interval's larger side over the median" \
		"$(jqv "$TMP/$f.json" '.metrics[0].median as $m | .runner.precision.metrics[0] |
			((([.ci_high - $m, $m - .ci_low] | max) / $m * 100) - .reached_pct) | fabs < 1e-6')" true
done
# the order-statistic interval exists from 6 runs: a 0.1% series needs no more
is "quiet: the fewest runs with a 95% interval" "$(jqv "$TMP/quiet.json" .runner.runs)" 6
is "noisy: more runs than quiet" \
	"$(jq -n --slurpfile q "$TMP/quiet.json" --slurpfile n "$TMP/noisy.json" \
		'$n[0].runner.runs > 2 * $q[0].runner.runs')" true
is "noisy: nothing dropped as warm-up" "$(jqv "$TMP/noisy.json" .runner.precision.warmup_dropped)" 0
is "the wall time covers the runs" \
	"$(jqv "$TMP/noisy.json" '.runner.precision.wall_s >= .runner.elapsed_s')" true

# too tight for the time: --max-time ends it, in the JSON, the table and a warning
ok "too tight" slow_spin 5:0 --precision 0.01% --max-time 300ms --json \
	-o "$TMP/tight.json"
validate bench.schema.json "$TMP/tight.json"
is "too tight: stopped at --max-time" "$(jqv "$TMP/tight.json" .runner.precision.stop)" max-time
is "too tight: the precision reached is wider than asked" \
	"$(jqv "$TMP/tight.json" '.runner.precision.reached_pct > 0.01')" true
is "too tight: the runs took --max-time" \
	"$(jqv "$TMP/tight.json" '.runner.precision.wall_s >= 0.3 and .runner.precision.max_time_s == 0.3')" true
# the interval as +-X%, or its two sides where they differ
CI='(\+-[0-9.]+%|-[0-9.]+%/\+[0-9.]+%)'
like "too tight: the warning says so" "$(cat "$ERR")" \
	"precision not reached: $CI for run .*stopped: --max-time 300 ms reached; the 0.01% target was not reached \($CI\)"
# a setup longer than the runs: the runs line says the whole time, which --max-time does
# not bound
ok "slow setup (text)" spin 0.1:0:1200 --precision 1%
like "text: the runs line gives the time with setup" "$(sed -n 2p "$OUT")" \
	'^6 runs \(\+[0-9]+ warm-up\) in [0-9.]+ s on CPUs .*; [0-9.]+ s in all with setup and teardown$'
ok "quiet setup (text)" spin 0.1:0 --precision 1%
unlike "text: no setup time where setup is short" "$(sed -n 2p "$OUT")" 'in all with setup'
ok "too tight (text)" slow_spin 5:0 --precision 0.01% --max-time 300ms
like "text: the precision line says why it stopped" "$(sed -n 3p "$OUT")" \
	"^precision: $CI for run \(95% CI of the median, [0-9]+ runs; stopped: --max-time 300 ms reached"

# a planted slow start of 4 runs at 3x: dropped, and the figure is the settled 1 ms
ok "slow start" spin 0.1:4 --precision 1% --json -o "$TMP/slow.json"
is "slow start: the 4 slow runs are warm-up" "$(jqv "$TMP/slow.json" .runner.precision.warmup_dropped)" 4
is "slow start: no slow run among the samples" "$(jqv "$TMP/slow.json" '.metrics[0].max < 1.01e6')" true
is "slow start: counted runs without them" \
	"$(jqv "$TMP/slow.json" '.runner.runs == .runner.precision.runs and .metrics[0].n == .runner.runs')" true
ok "slow start (text)" spin 0.1:4 --precision 1%
like "text: the dropped warm-up is counted" "$(sed -n 3p "$OUT")" \
	'^precision: \+-0\.[0-9]+% for run \(95% CI of the median, [0-9]+ runs after 4 detected warm-up runs dropped; stopped: the 1% target was reached\)$'

# --precision takes over a --runs of --quick's arguments; without it --runs is fixed
ok "--quick --precision" spin 0.1:0 --quick --precision 2% --json -o "$TMP/q.json"
is "--quick --precision: the precision rules" "$(jqv "$TMP/q.json" .runner.precision.stop)" precision
ok "--runs 7 keeps its fixed count" spin 5:0 --runs 7 --warmup 0 --json -o "$TMP/r.json"
is "--runs 7: seven runs, no precision object" "$(jqv "$TMP/r.json" '[.runner.runs, .runner.precision]|tostring')" '[7,null]'

# --max-time bounds a fixed count too, and says so
ok "--runs 100000 --max-time 200ms" slow_spin 5:0 --runs 100000 --warmup 0 --max-time 200ms \
	--json -o "$TMP/mt.json"
is "--max-time: fewer runs than asked" "$(jqv "$TMP/mt.json" '.runner.runs < 1000 and .runner.runs >= 1')" true
like "--max-time: the note says why" "$(jqv "$TMP/mt.json" '.notes | join(";")')" \
	'--max-time 0.2 s reached after [0-9]+ of 100000 runs'

# where max_time_s came from: the default, or the user's --max-time
is "quiet: the default --max-time" "$(jqv "$TMP/quiet.json" .runner.precision.max_time_from)" default
is "too tight: the user's --max-time" "$(jqv "$TMP/tight.json" .runner.precision.max_time_from)" option

# the caveats the report derives for a figure are in the standalone result's warnings too
ok "2 runs" spin 5:0 --runs 2 --warmup 0 --json -o "$TMP/two.json"
like "2 runs: too few for a spread" "$(jqv "$TMP/two.json" '.warnings | join(";")')" \
	'2 runs: too few runs for a spread'
ok "3 runs" spin 5:0 --runs 3 --warmup 0 --json -o "$TMP/three.json"
unlike "3 runs: no runs caveat" "$(jqv "$TMP/three.json" '.warnings | join(";")')" 'too few runs'
ok "a wide series with --precision" spin 40:0 --precision 1% --max-time 200ms --json \
	-o "$TMP/wide.json"
like "--precision: the wide spread is warned" "$(jqv "$TMP/wide.json" '.warnings | join(";")')" \
	'spread too wide to trust for 1 of 1 metrics .*: run \([0-9]+%\)'

# bad values: exit 2 with one line naming the option
bad() { # NAME WANT ARGS...
	local name=$1 want=$2
	shift 2
	expect_exit 2 "$name" "$PERFLAB" bench spin "$@"
	is "$name: one line" "$(wc -l <"$ERR")" 1
	like "$name: names the option" "$(cat "$ERR")" "$want"
	is "$name: no result" "$(wc -c <"$OUT")" 0
}
bad "--precision 0%" "--precision '0%'" --precision 0%
bad "--precision 80%" "--precision '80%': give at most 50%" --precision 80%
bad "--precision 150% (past the parser's 100%)" "--precision '150%': give at most 50%" --precision 150%
bad "--precision abc" "--precision 'abc'" --precision abc
bad "--max-time -1s" "--max-time" --precision 1% --max-time -1s
bad "--max-time 0" "--max-time" --precision 1% --max-time 0
bad "--runs with --precision" "--runs and --precision exclude each other" --runs 5 --precision 1%
done_testing
