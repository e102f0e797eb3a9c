#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab report as the main job: the quick benchmarks, --quick/--full/--no-bench,
# --sysroot leaves benchmarks out, report.json valid against its schema, Ctrl-C writes
# what is done.
. "$PERFLAB_SRCDIR/tests/lib.sh"
FX=$PERFLAB_SRCDIR/tests/fixtures/sysroots

ok "report --quick" "$PERFLAB" report --quick -o "$TMP/q"
validate report.schema.json "$TMP/q/report.json"
is "mode recorded" "$(jqv "$TMP/q/report.json" .run.mode)" "quick"
is "not interrupted" "$(jqv "$TMP/q/report.json" .run.interrupted)" "false"
n=$(jqv "$TMP/q/report.json" '.benchmarks|length')
like "quick benchmarks ran" "$n" '^[1-9][0-9]*$'
for d in $(jqv "$TMP/q/report.json" '.benchmarks|keys[]'); do
	jq ".benchmarks[$d]" "$TMP/q/report.json" >"$TMP/b$d.json"
	validate bench.schema.json "$TMP/b$d.json"
done
st=$(jqv "$TMP/q/report.json" '[.benchmarks[]|select(.status=="ok" or .status=="skipped")]|length')
is "every benchmark ran or says why it was skipped" "$st" "$n"
like "summary lists key numbers" "$(cat "$OUT")" 'key numbers \(median\)'
like "html has the benchmark section" "$(cat "$TMP/q/report.html")" '<h2 id="benchmarks">'

ok "report --no-bench" "$PERFLAB" report --no-bench -o "$TMP/nb"
is "--no-bench: no benchmarks" "$(jqv "$TMP/nb/report.json" '.benchmarks|length')" "0"
ok "report --sysroot fixture" "$PERFLAB" report --sysroot "$FX/xen-hvm" -o "$TMP/sx"
is "--sysroot: no benchmarks of this machine" "$(jqv "$TMP/sx/report.json" '.benchmarks|length')" "0"
like "--sysroot: says why" "$(jqv "$TMP/sx/report.json" .run.note)" 'another machine'
is "--sysroot: the fixture's hypervisor" "$(jqv "$TMP/sx/report.json" .machine.hypervisor)" "xen"
expect_exit 2 "--quick with --full" "$PERFLAB" report --quick --full -o "$TMP/x"
like "conflict named" "$(cat "$ERR")" 'exclude each other'
is "nothing created on a usage error" "$(test -e "$TMP/x" && echo yes || echo no)" "no"

# Ctrl-C: SIGINT during the run writes the report with what was done, exit 130.
"$PERFLAB" report -o "$TMP/int" >"$TMP/int.out" 2>"$TMP/int.err" &
pid=$!
sleep 0.4
kill -INT "$pid"
wait "$pid"
rc=$?
if [ "$(jq -r .run.interrupted "$TMP/int/report.json" 2>/dev/null)" = true ]; then
	is "SIGINT: exit 130" "$rc" "130"
	ok "SIGINT: report.html written" test -s "$TMP/int/report.html"
	like "SIGINT: says so" "$(cat "$TMP/int.err")" 'interrupted'
else
	# the whole report finished before the signal: still a complete report
	is "SIGINT after the end: exit 0" "$rc" "0"
	skip "SIGINT: report.html written" "the report finished in under 0.4 s"
	skip "SIGINT: says so" "the report finished in under 0.4 s"
fi
is "no temporary files left" "$(ls -A "$TMP/int" | grep -c tmp)" "0"
done_testing
