#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# --format prom of check (and bench when its documents are available): the exposition
# passes `promtool check metrics` when installed, and always our grammar check.
. "$PERFLAB_SRCDIR/tests/lib.sh"
FX=$PERFLAB_SRCDIR/tests/report/fixtures

prom_valid() { # NAME FILE
	if /usr/bin/python3 "$PERFLAB_SRCDIR/tests/report/promcheck.py" "$2" >"$TMP/pc" 2>&1; then
		_report ok "$1: exposition grammar"
	else
		_report fail "$1: exposition grammar" "$(cat "$TMP/pc")"
	fi
	if command -v promtool >/dev/null; then
		if promtool check metrics <"$2" >"$TMP/pt" 2>&1; then
			_report ok "$1: promtool check metrics"
		else
			_report fail "$1: promtool check metrics" "$(cat "$TMP/pt")"
		fi
	else
		skip "$1: promtool check metrics" "promtool not installed (Debian package prometheus)"
	fi
}

for wl in general latency network hpc; do
	# exit 1 where this machine has a critical finding for the workload (JSON read first)
	crit=$("$PERFLAB" check --json -W "$wl" | jq '.summary.crit')
	expect_exit "$([ "$crit" -gt 0 ] && echo 1 || echo 0)" "check --format prom -W $wl ($crit crit)" \
		"$PERFLAB" check --format prom -W "$wl" --fail-on crit
	cp "$OUT" "$TMP/check-$wl.prom"
	prom_valid "check $wl" "$TMP/check-$wl.prom"
	is "check $wl: three severity counts" "$(grep -c '^perflab_check_findings{' "$TMP/check-$wl.prom")" 3
	n_json=$("$PERFLAB" check --json -W "$wl" | jq '.findings|length')
	is "check $wl: one series per finding" "$(grep -c '^perflab_check_finding{' "$TMP/check-$wl.prom")" "$n_json"
done
like "workload label" "$(cat "$TMP/check-hpc.prom")" 'perflab_check_findings\{workload="hpc",severity="crit"\} [0-9]+'
ok "bench clock --quick --format prom" "$PERFLAB" bench clock --quick --runs 2 --format prom
cp "$OUT" "$TMP/bench.prom"
prom_valid "bench clock" "$TMP/bench.prom"
like "bench: median of gettimeofday in ns" "$(cat "$TMP/bench.prom")" \
	'perflab_bench_value\{benchmark="clock",metric="gettimeofday",unit="ns",stat="median"\} [0-9.e+]+'
like "bench: runs" "$(cat "$TMP/bench.prom")" 'perflab_bench_runs\{benchmark="clock"\} 2'
like "bench: ok" "$(cat "$TMP/bench.prom")" 'perflab_bench_ok\{benchmark="clock"\} 1'
expect_exit 2 "unknown format" "$PERFLAB" check --format xml
like "unknown format lists the choices" "$(cat "$ERR")" 'one of: text, json, prom'

done_testing
