#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# --format prom of check (and bench when its documents are available): the exposition
# passes `promtool check metrics` when installed, and always our grammar check, also when
# the machine names its disks with quotes, backslashes, newlines and bytes that are not
# UTF-8.
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
# disks named with a quote, a backslash, a newline, a byte that is not UTF-8, and a long
# name: the subject label holds the whole name, escaped, and the file still parses
R=$TMP/root
cp -r "$FIXTURES/sysroots/intel-2s" "$R"
hostile=$'q"u\\o\nte\xff'
long="$(printf 'L%.0s' $(seq 60))\"\\$(printf 'M%.0s' $(seq 60))"
for d in "$hostile" "$long"; do
	mkdir -p "$R/sys/block/$d/queue"
	echo 1 >"$R/sys/block/$d/queue/rotational"
	echo "[none] mq-deadline" >"$R/sys/block/$d/queue/scheduler"
	echo 100 >"$R/sys/block/$d/size"
done
expect_exit 1 "check --format prom: hostile disk names (the fixture has a crit finding)" \
	"$PERFLAB" check --sysroot "$R" --format prom
cp "$OUT" "$TMP/hostile.prom"
prom_valid "check hostile names" "$TMP/hostile.prom"
like "hostile name escaped whole" "$(cat "$TMP/hostile.prom")" \
	'perflab_check_finding\{workload="general",id="block.scheduler-hdd",severity="warn",subject="q\\"u\\\\o\\nte\\\\xff"\} 1'
like "long name whole" "$(cat "$TMP/hostile.prom")" \
	"subject=\"$(printf 'L%.0s' $(seq 60))\\\\\"\\\\\\\\$(printf 'M%.0s' $(seq 60))\"\\} 1"
is "every line a comment or a sample" \
	"$(grep -cvE '^(# (HELP|TYPE) perflab_check_[a-z_]+ .+|perflab_check_[a-z_]+\{.*\} [0-9]+)$' "$TMP/hostile.prom")" 0
ok "bench clock --quick --format prom" "$PERFLAB" bench clock --quick --runs 2 --format prom
cp "$OUT" "$TMP/bench.prom"
prom_valid "bench clock" "$TMP/bench.prom"
like "bench: median of gettimeofday in ns" "$(cat "$TMP/bench.prom")" \
	'perflab_bench_value\{benchmark="clock",metric="gettimeofday",unit="ns",stat="median"\} [0-9.e+]+'
like "bench: runs" "$(cat "$TMP/bench.prom")" 'perflab_bench_runs\{benchmark="clock"\} 2'
like "bench: ok" "$(cat "$TMP/bench.prom")" 'perflab_bench_ok\{benchmark="clock"\} 1'
like "bench --quick: a caveat says so" "$(cat "$TMP/bench.prom")" \
	'perflab_bench_caveat\{benchmark="clock",caveat="quick run \(--quick\): [^"]+"\} 1'
# the warnings of the run (on stderr, one line each) are caveats too, one series each
is "bench: one caveat per warning of the run, and the quick one" \
	"$(grep -c '^perflab_bench_caveat{' "$TMP/bench.prom")" "$(($(grep -c ': warning: ' "$ERR") + 1))"
expect_exit 2 "unknown format" "$PERFLAB" check --format xml
like "unknown format lists the choices" "$(cat "$ERR")" 'one of: text, json, prom'

done_testing
