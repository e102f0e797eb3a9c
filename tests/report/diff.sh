#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab diff and report --baseline: facts changed/added/removed with units, findings
# appeared/resolved/changed, every figure side by side with a verdict from the samples
# (a significant change, no difference, n=2 without a verdict), the direction from each
# metric's "better", bad inputs (exit 2, one line naming the input), the "Changes since
# baseline" section in the terminal summary, report.md and report.html, and the schemas.
. "$PERFLAB_SRCDIR/tests/lib.sh"
P=$PERFLAB
FX=$PERFLAB_SRCDIR/tests/report/fixtures
D=$FX/diff
export PERFLAB_TIMESTAMP=1780000000

# --- two bench results of bench clock with known samples (tests/report/fixtures/diff) ---
# gettimeofday 100 -> 80 ns (8 runs each, no overlap), clock_gettime(REALTIME) the same
# spread on both sides, rdtsc 2 runs each, time() only old, rdtscp only new.
ok "diff two bench documents (text)" "$P" diff "$D/bench-old.json" "$D/bench-new.json"
T=$(cat "$OUT")
like "text: header names both inputs" "$T" "^old: $D/bench-old.json \(bench, generated 2026-11-30T10:00:00Z\)"
like "text: counts" "$T" 'benchmarks: 3 figures on both sides: 1 better, 0 worse, 0 changed \(no direction\), 1 without a verdict'
like "text: the significant change with both medians" "$T" 'clock gettimeofday +100\.2 ns +80\.25 ns +-20\.0% \(better\) +better by 19\.95% \(1\.25 ± 0\.03 times better than the baseline; 95% CI -21\.22% to -18\.67%, p=0\.00092, n=8/8\)'
like "text: no difference" "$T" 'clock clock_gettime\(REALTIME\) +100\.5 ns +100\.5 ns +\+0\.0% +no difference detected: the CI rules out effects beyond 3\.18%'
like "text: n=2 has no verdict and says so, with no direction word" "$T" 'clock rdtsc +20\.5 ns +30\.5 ns +\+48\.8% +too few runs \(n=2\): no verdict'
like "text: figure only in the old document" "$T" 'only in the old document: clock time\(\)'
like "text: figure only in the new document" "$T" 'only in the new document: clock rdtscp'

ok "diff --json" "$P" diff --json "$D/bench-old.json" "$D/bench-new.json"
cp "$OUT" "$TMP/bd.json"
validate diff.schema.json "$TMP/bd.json"
J=$TMP/bd.json
is "json: kind and inputs" "$(jqv "$J" '[.kind, .old.kind, .old.benchmark, .new.file]|join(",")')" "diff,bench,clock,$D/bench-new.json"
is "json: no facts or findings for bench documents" "$(jqv "$J" '[has("facts"), has("findings")]|join(",")')" "false,false"
is "json: figures in the new document's order" "$(jqv "$J" '[.benchmarks.figures[].metric]|join(",")')" \
	"gettimeofday,clock_gettime(REALTIME),rdtsc"
fig() { jqv "$J" ".benchmarks.figures[] | select(.metric == \"$1\") | $2"; }
is "significant: verdict, direction, medians" \
	"$(fig gettimeofday '[.verdict, .significant, .direction, .old.median, .new.median, .old.n, .new.n]|join(",")')" \
	"changed,better,better,100.25,80.25,8,8"
is "significant: change of the median in %" "$(fig gettimeofday '.change_pct*100|round')" -1995
is "significant: ratio of geometric means and its CI" \
	"$(fig gettimeofday '[.ratio, .ratio_ci[0], .ratio_ci[1]]|map(.*1000|round)|join(",")')" "800,788,813"
is "significant: Mann-Whitney p" "$(fig gettimeofday '.p < 0.001')" true
is "not significant: verdict" "$(fig 'clock_gettime(REALTIME)' '[.verdict, (.significant|tostring), .direction]|join(",")')" \
	"no-difference,null,same"
is "not significant: p" "$(fig 'clock_gettime(REALTIME)' '.p > 0.5')" true
is "n=2: no verdict, no statistics" \
	"$(fig rdtsc '[.verdict, .verdict_text, (.ratio|tostring), (.p|tostring), .direction]|join(",")')" \
	"no-verdict,too few runs (n=2): no verdict,null,null,worse"
is "only_old" "$(jqv "$J" '[.benchmarks.only_old[]|"\(.benchmark)/\(.metric)/\(.figures)"]|join(",")')" "clock/time()/1"
is "only_new" "$(jqv "$J" '[.benchmarks.only_new[]|"\(.benchmark)/\(.metric)/\(.figures)"]|join(",")')" "clock/rdtscp/1"
is "summary" "$(jqv "$J" '.summary|[.figures, .better, .worse, .changed, .no_verdict]|join(",")')" "3,1,0,0,1"
is "statistics recorded" "$(jqv "$J" '.statistics|[.level, .alpha, .threshold, .min_runs]|join(",")')" "0.95,0.05,0.01,5"

# the other way round the same figure is worse; with a 30% threshold it is below it
ok "diff NEW OLD" "$P" diff --json "$D/bench-new.json" "$D/bench-old.json"
is "reversed: worse" "$(jq -r '.benchmarks.figures[0]|[.verdict, .significant, .direction]|join(",")' "$OUT")" "changed,worse,worse"
like "reversed: verdict text" "$(jq -r '.benchmarks.figures[0].verdict_text' "$OUT")" '^worse by 24\.9[0-9]% '
ok "--threshold 30%" "$P" diff --json --threshold 30% "$D/bench-old.json" "$D/bench-new.json"
is "below the threshold" "$(jq -r '.benchmarks.figures[0]|[.verdict, (.significant|tostring)]|join(",")' "$OUT")" "below-threshold,null"
is "threshold recorded" "$(jq -r .statistics.threshold "$OUT")" 0.3
ok "--threshold 5%" "$P" diff --json --threshold 5 "$D/bench-old.json" "$D/bench-new.json"
is "equivalent within 5%" "$(jq -r '.benchmarks.figures[1].verdict' "$OUT")" equivalent

# the direction comes from each metric's own "better"
jq '.metrics[0].better = "higher" | .metrics[1].better = "neither"' "$D/bench-old.json" >"$TMP/hi-old.json"
jq '.metrics[0].better = "higher" | .metrics[1].better = "neither"' "$D/bench-new.json" >"$TMP/hi-new.json"
ok "diff with higher-is-better metrics" "$P" diff --json "$TMP/hi-old.json" "$TMP/hi-new.json"
is "higher is better: a lower median is worse" "$(jq -r '.benchmarks.figures[0]|[.significant, .direction]|join(",")' "$OUT")" "worse,worse"
is "summary counts it as worse" "$(jq -r '.summary|[.better, .worse]|join(",")' "$OUT")" "0,1"
jq '.metrics[0].better = "neither"' "$D/bench-old.json" >"$TMP/ne-old.json"
jq '.metrics[0].better = "neither"' "$D/bench-new.json" >"$TMP/ne-new.json"
ok "diff with a metric of no direction" "$P" diff --json "$TMP/ne-old.json" "$TMP/ne-new.json"
is "neither: lower, not better" "$(jq -r '.benchmarks.figures[0]|[.significant, .direction, .verdict_text[0:8]]|join(",")' "$OUT")" "lower,lower,lower by"
is "neither: counted as changed" "$(jq -r '.summary|[.better, .worse, .changed]|join(",")' "$OUT")" "0,0,1"
jq '.metrics[2].samples = [30, 31, 30.5, 29, 32] | .metrics[2].n = 5' "$D/bench-new.json" >"$TMP/n5.json"
ok "diff with 2 and 5 runs" "$P" diff --json "$D/bench-old.json" "$TMP/n5.json"
is "both counts in the no-verdict text" "$(jq -r '.benchmarks.figures[2].verdict_text' "$OUT")" "too few runs (n=2/5): no verdict"

# a median that moved without a verdict of change has no direction word (better/worse):
# +9.0% of noise beside "no difference detected" is neither
jq '.metrics[1].samples = [60, 140, 55, 135, 84, 150, 50, 145] | .metrics[1].median = 109.5' "$D/bench-new.json" >"$TMP/noisy.json"
ok "diff with a noisy figure" "$P" diff "$D/bench-old.json" "$TMP/noisy.json"
like "noisy: the median moved, no difference detected" "$(grep 'clock_gettime' "$OUT")" '\+9\.0% +no difference detected'
is "noisy: no direction word without a verdict" "$(grep 'clock_gettime' "$OUT" | grep -cE '\((better|worse)\)')" 0
ok "diff --json with a noisy figure" "$P" diff --json "$D/bench-old.json" "$TMP/noisy.json"
is "noisy: the JSON keeps the median's direction, no significance" \
	"$(jq -r '.benchmarks.figures[1] | [.direction, (.significant|tostring), .verdict] | join(",")' "$OUT")" "worse,null,no-difference"

# -o FILE: the text, or the JSON with --json
ok "-o FILE" "$P" diff -o "$TMP/d.txt" "$D/bench-old.json" "$D/bench-new.json"
is "-o: nothing on stdout" "$(cat "$OUT")" ""
like "-o: the text in the file" "$(cat "$TMP/d.txt")" 'clock gettimeofday'
ok "--json -o FILE" "$P" diff --json -o "$TMP/d.json" "$D/bench-old.json" "$D/bench-new.json"
is "--json -o: same document" "$(cmp -s "$TMP/d.json" "$TMP/bd.json" && echo same)" same

expect_exit 3 "--json -o /dev/full: a full disk is a runtime failure" "$P" diff --json -o /dev/full "$D/bench-old.json" "$D/bench-new.json"
like "--json -o /dev/full: says so" "$(cat "$ERR")" "cannot write '/dev/full': No space left on device"
expect_exit 3 "-o /dev/full (text)" "$P" diff -o /dev/full "$D/bench-old.json" "$D/bench-new.json"
expect_exit 2 "-o in a missing directory" "$P" diff --json -o "$TMP/no/such/d.json" "$D/bench-old.json" "$D/bench-new.json"

# --- bad inputs: exit 2, one line naming the input -------------------------------------
bad() { # NAME WANT-REGEX ARGS...
	local name=$1 want=$2
	shift 2
	expect_exit 2 "$name: exit 2" "$P" diff "$@"
	like "$name: names the input" "$(cat "$ERR")" "$want"
	is "$name: one line on stderr" "$(wc -l <"$ERR")" 1
	is "$name: nothing on stdout" "$(wc -c <"$OUT")" 0
}
"$P" check --sysroot "$PERFLAB_SRCDIR/tests/fixtures/sysroots/xen-hvm" --json >"$TMP/check.json"
bad "kinds differ" "'$D/bench-old.json' is a bench document and '$TMP/check.json' a check document: perflab diff compares two documents of the same kind" \
	"$D/bench-old.json" "$TMP/check.json"
head -c 300 "$D/bench-new.json" >"$TMP/trunc.json"
bad "truncated JSON" "$TMP/trunc.json" "$D/bench-old.json" "$TMP/trunc.json"
bad "missing file" "$TMP/nope.json" "$D/bench-old.json" "$TMP/nope.json"
jq '.benchmark = "mem"' "$D/bench-new.json" >"$TMP/mem.json"
bad "other benchmark" "'$D/bench-old.json' is bench clock and '$TMP/mem.json' bench mem: perflab diff compares two results of the same benchmark" \
	"$D/bench-old.json" "$TMP/mem.json"
jq '.metrics |= map(.name = "x " + .name)' "$D/bench-new.json" >"$TMP/other.json"
bad "no figure in common" "'$D/bench-old.json' and '$TMP/other.json' \(bench clock\) have no figure in common" \
	"$D/bench-old.json" "$TMP/other.json"
jq '{schema_version, benchmark, summary, generated, perflab_version, status: "skipped", reason: "not supported here"}' \
	"$D/bench-new.json" >"$TMP/skipped.json"
bad "skipped benchmark" "'$TMP/skipped.json': bench clock was skipped \(not supported here\): no figures to compare" \
	"$D/bench-old.json" "$TMP/skipped.json"
jq '.metrics[0].samples[1] = "x"' "$D/bench-new.json" >"$TMP/damaged.json"
bad "damaged samples" "$TMP/damaged.json: \\\$\\.metrics\\[0\\]\\.samples\\[1\\]: expected a number or null" \
	"$D/bench-old.json" "$TMP/damaged.json"
bad "a compare document" "'$FX/compare-sleep.json' is a compare document: perflab diff compares report, inspect, check or bench documents" \
	"$FX/compare-sleep.json" "$FX/compare-sleep.json"
bad "a diff document" "'$TMP/bd.json' is a diff document" "$TMP/bd.json" "$TMP/bd.json"
jq '.schema_version = 2' "$D/bench-new.json" >"$TMP/v2.json"
bad "another schema_version" "'$TMP/v2.json' has schema_version 2" "$D/bench-old.json" "$TMP/v2.json"
bad "one document" "give two documents" "$D/bench-old.json"
bad "three documents" "more than two documents given" "$D/bench-old.json" "$D/bench-old.json" "$D/bench-old.json"
bad "bad threshold" "--threshold 'x': give a percentage above 0" --threshold x "$D/bench-old.json" "$D/bench-new.json"

# every damaged document of report --from's hostile set is refused by diff too (the same
# checks), exit 2 with one line naming it; under ASan a crash fails the case
H=$FX/hostile
n=0
fails=""
while IFS=$'\t' read -r file want; do
	case "$file" in '#'* | '') continue ;; esac
	n=$((n + 1))
	(cd "$H" && "$P" diff "$file" "$file") >"$OUT" 2>"$ERR"
	rc=$?
	if [ "$rc" -ne 2 ] || [ "$(wc -l <"$ERR")" -ne 1 ] || ! grep -Eq -- "^perflab diff: error: ('?$file'?: )?$want" "$ERR"; then
		fails="$fails$file: exit $rc: $(head -c 300 "$ERR")
"
	fi
done <"$H/cases.txt"
is "hostile documents: all $n refused with one line naming them" "$fails" ""

# --- inspect: facts changed, added, removed, with units ------------------------------
"$P" inspect --sysroot "$PERFLAB_SRCDIR/tests/fixtures/sysroots/xen-hvm" --json >"$TMP/i-old.json"
# (python, not jq: jq 1.6 rounds the 64-bit integers of some facts)
edit() { # IN OUT PYTHON-STATEMENTS-ON-d
	/usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"), indent=2)' "$@"
}
edit "$TMP/i-old.json" "$TMP/i-new.json" 'f = d["facts"]
del f["kernel.hostname"]
f["net.eth1.speed_mbps"] = {"value": 25000, "source": "/sys/class/net/eth1/speed"}
f["cpu.flags"]["value"] = [x for x in f["cpu.flags"]["value"] if x != "pti"] + ["avx512f"]
f["mem.total_bytes"]["value"] = 68719476736
f["sysctl.net.ipv4.tcp_rmem"]["value"] = [4096, 131072, 6291456]'
ok "diff two inspect documents" "$P" diff --json "$TMP/i-old.json" "$TMP/i-new.json"
cp "$OUT" "$TMP/id.json"
validate diff.schema.json "$TMP/id.json"
is "inspect: facts changed" "$(jqv "$TMP/id.json" '[.facts.changed[].key]|join(",")')" "cpu.flags,mem.total_bytes,sysctl.net.ipv4.tcp_rmem"
is "inspect: fact added, with the unit of its key" "$(jqv "$TMP/id.json" '[.facts.added[]|"\(.key) \(.unit) \(.new.value)"]|join(",")')" "net.eth1.speed_mbps Mbit/s 25000"
is "inspect: fact removed" "$(jqv "$TMP/id.json" '[.facts.removed[]|"\(.key) \(.old.value)"]|join(",")')" "kernel.hostname ip-172-31-7-41"
is "inspect: bytes with their unit and change" "$(jqv "$TMP/id.json" '.facts.changed[1]|"\(.unit) \(.change_pct*10|round)"')" "B 67"
is "inspect: no benchmarks or findings" "$(jqv "$TMP/id.json" '[has("benchmarks"), has("findings")]|join(",")')" "false,false"
ok "diff two inspect documents (text)" "$P" diff "$TMP/i-old.json" "$TMP/i-new.json"
T=$(cat "$OUT")
like "text: facts counts" "$T" 'facts: 3 changed, 1 added, 1 removed'
like "text: a list shows what was added and removed" "$T" 'cpu\.flags +added avx512f; removed pti'
like "text: bytes in binary units with the change" "$T" 'mem\.total_bytes +60\.00 GiB -> 64\.00 GiB \(\+6\.7%\)'
like "text: numbers of a tuple stay a tuple" "$T" 'sysctl\.net\.ipv4\.tcp_rmem +4096, 1048576, 2097152 -> 4096, 131072, 6291456'
like "text: added fact with its unit" "$T" 'net\.eth1\.speed_mbps +added: 25000 Mbit/s'
like "text: removed fact" "$T" 'kernel\.hostname +removed: ip-172-31-7-41'

# --- check: severity and observed changes, workloads --------------------------------
jq '.findings[0].severity = "crit" | .findings[0].observed = "clocksource xen (tsc available, 3x slower)" | .workload = "latency"' \
	"$TMP/check.json" >"$TMP/check2.json"
ok "diff two check documents" "$P" diff --json "$TMP/check.json" "$TMP/check2.json"
validate diff.schema.json "$OUT"
is "check: a finding whose severity changed" \
	"$(jq -r '[.findings.changed[]|"\(.id) \(.old.severity)->\(.new.severity)"]|join(",")' "$OUT")" "clock.xen-tsc warn->crit"
is "check: nothing appeared or resolved" "$(jq -r '.summary|[.findings_appeared, .findings_resolved, .findings_changed]|join(",")' "$OUT")" "0,0,1"
like "check: the workload change is noted" "$(jq -r '.notes[0]' "$OUT")" '^the findings are for different workloads \(general -> latency\)'

jq '.findings[0].id = "clock.esc" | .findings[0].title = "red\u001b[31mtitle"' "$TMP/check.json" >"$TMP/check3.json"
ok "diff with a control character in a finding" "$P" diff "$TMP/check.json" "$TMP/check3.json"
like "text: the control character escaped" "$(cat "$OUT")" 'appeared +\[warn\] red\\x1b\[31mtitle \(clock\.esc\)'
is "text: no raw escape reaches the terminal" "$(grep -c $'\x1b' "$OUT")" 0

# --- report --baseline over two fixture trees, with bench results from --from --------
# the new tree: clocksource tsc, tcp_timestamps on, THP defrag always, read-ahead 4 MiB,
# less free memory
N=$TMP/new-tree
cp -a "$PERFLAB_SRCDIR/tests/fixtures/sysroots/xen-hvm" "$N"
echo tsc >"$N/sys/devices/system/clocksource/clocksource0/current_clocksource"
echo 1 >"$N/proc/sys/net/ipv4/tcp_timestamps"
echo '[always] defer defer+madvise madvise never' >"$N/sys/kernel/mm/transparent_hugepage/defrag"
echo 4096 >"$N/sys/devices/vbd-51712/block/xvda/queue/read_ahead_kb"
sed -i 's/^MemAvailable:.*/MemAvailable:   40000000 kB/' "$N/proc/meminfo"
ok "baseline report" "$P" report --sysroot "$PERFLAB_SRCDIR/tests/fixtures/sysroots/xen-hvm" --no-bench \
	--from "$D/bench-old.json" -o "$TMP/old"
ok "report --baseline" "$P" report --sysroot "$N" --no-bench --from "$D/bench-new.json" \
	--baseline "$TMP/old/report.json" -o "$TMP/r"
S=$(cat "$OUT")
like "summary: section header" "$S" "changes since baseline $TMP/old/report\.json \(generated 2026-05-28T20:26:40Z\):"
like "summary: facts" "$S" 'facts: 5 changed, 0 added, 0 removed'
like "summary: a changed fact" "$S" 'clocksource\.current +xen -> tsc'
like "summary: volatile readings apart" "$S" 'readings that change by themselves: mem\.available_bytes 51\.00 GiB -> 38\.15 GiB'
like "summary: finding appeared" "$S" 'appeared +\[warn\] THP defrag is .always.*\(mem\.thp-defrag\)'
like "summary: finding resolved" "$S" 'resolved +\[warn\] clocksource is xen .*\(clock\.xen-tsc\)'
like "summary: the significant figure only" "$S" 'clock gettimeofday +100\.2 ns +80\.25 ns +-20\.0% \(better\) +better 20\.0%'
if printf '%s\n' "$S" | grep -qE 'clock (rdtsc|clock_gettime\(REALTIME\)) '; then
	_report fail "summary: figures without a verdict of change left out" "$S"
else
	_report ok "summary: figures without a verdict of change left out"
fi
like "summary: only in the baseline" "$S" 'only in the baseline: clock time\(\)'
R=$TMP/r/report.json
validate report.schema.json "$R"
jq .baseline "$R" >"$TMP/rb.json"
validate diff.schema.json "$TMP/rb.json"
B=$TMP/rb.json
is "baseline: inputs" "$(jqv "$B" '[.old.file, .old.kind, .new.file]|join(",")')" "$TMP/old/report.json,report,this report"
is "baseline: facts changed, exactly" "$(jqv "$B" '[.facts.changed[].key]|join(",")')" \
	"clocksource.current,mem.available_bytes,mem.thp.defrag,sysctl.net.ipv4.tcp_timestamps,block.xvda.queue.read_ahead_kb"
is "baseline: old -> new values" "$(jqv "$B" '[.facts.changed[]|select(.volatile|not)|"\(.old.value)>\(.new.value)"]|join(",")')" \
	"xen>tsc,madvise>always,0>1,128>4096"
is "baseline: units" "$(jqv "$B" '[.facts.changed[]|.unit|tostring]|join(",")')" "null,B,null,null,KiB"
is "baseline: only free memory is volatile" "$(jqv "$B" '[.facts.changed[]|select(.volatile)|.key]|join(",")')" "mem.available_bytes"
is "baseline: read-ahead change in %" "$(jqv "$B" '.facts.changed[4].change_pct')" 3100
is "baseline: findings appeared" "$(jqv "$B" '[.findings.appeared[].id]|join(",")')" "mem.thp-defrag"
is "baseline: findings resolved" "$(jqv "$B" '[.findings.resolved[].id]|join(",")')" "clock.xen-tsc,net.tcp-timestamps-off"
is "baseline: verdicts" "$(jqv "$B" '[.benchmarks.figures[]|"\(.metric)=\(.verdict)"]|join(",")')" \
	"gettimeofday=changed,clock_gettime(REALTIME)=no-difference,rdtsc=no-verdict"
ok "perflab diff of the two report.json" "$P" diff --json "$TMP/old/report.json" "$R"
is "diff gives what the report's baseline has" "$(jq -c 'del(.new.file)' "$OUT")" "$(jq -c 'del(.new.file)' "$B")"
M=$(cat "$TMP/r/report.md")
like "md: section" "$M" '## Changes since baseline'
like "md: baseline named" "$M" "Baseline: \`$TMP/old/report\.json\` \(generated 2026-05-28T20:26:40Z; ip-172-31-7-41: "
like "md: fact row" "$M" '\| `clocksource\.current` \| xen -> tsc \|'
like "md: unit row" "$M" '\| `block\.xvda\.queue\.read_ahead_kb` \| 128 KiB -> 4096 KiB \(\+3100\.0%\) \|'
like "md: finding row" "$M" '\| resolved \| warn \| TCP timestamps are disabled \(`net\.tcp-timestamps-off`\) \| net\.ipv4\.tcp_timestamps = 0 \|'
like "md: figure row" "$M" '\| clock \| gettimeofday \| 100\.2 ns \| 80\.25 ns \| -20\.0% \(better\) \| better by 19\.95% '
like "md: n=2 row" "$M" '\| clock \| rdtsc \| 20\.5 ns \| 30\.5 ns \| \+48\.8% \| too few runs \(n=2\): no verdict \|'
like "md: only in this report" "$M" '- Only in this report: clock rdtscp'
H=$(cat "$TMP/r/report.html")
like "html: section" "$H" '<h2 id="baseline">Changes since baseline</h2>'
like "html: fact row" "$H" '<tr><td><code>clocksource\.current</code></td><td>xen -&gt; tsc</td></tr>'
like "html: finding row" "$H" '<tr><td>appeared</td><td>warn</td><td>THP defrag is &#39;always&#39;'
like "html: figure row" "$H" '<td>gettimeofday</td><td class="num">100\.2 ns</td><td class="num">80\.25 ns</td><td class="num">-20\.0% \(better\)</td><td class="verdict verdict-changed">better by 19\.95%'
like "html: no verdict row" "$H" '<td class="verdict verdict-no-verdict">too few runs \(n=2\): no verdict</td>'
ok "report without --baseline" "$P" report --sysroot "$N" --no-bench -o "$TMP/r0"
is "no baseline member without --baseline" "$(jqv "$TMP/r0/report.json" 'has("baseline")')" false
if grep -q 'Changes since baseline' "$TMP/r0/report.md" "$TMP/r0/report.html"; then
	_report fail "no baseline section without --baseline"
else
	_report ok "no baseline section without --baseline"
fi

# --baseline that is not a report: exit 2 before anything is written
expect_exit 2 "--baseline of a bench document" "$P" report --sysroot "$N" --no-bench \
	--baseline "$D/bench-old.json" -o "$TMP/r2"
is "--baseline: the error names the file" "$(cat "$ERR")" \
	"perflab report: error: --baseline: '$D/bench-old.json' is a bench document, not a report.json (give the report.json of an earlier perflab report)"
ok "--baseline: nothing written" test ! -e "$TMP/r2"
expect_exit 2 "--baseline of a missing file" "$P" report --sysroot "$N" --no-bench \
	--baseline "$TMP/none.json" -o "$TMP/r2"
like "--baseline missing: names it" "$(cat "$ERR")" "--baseline: .*$TMP/none\.json"
edit "$TMP/old/report.json" "$TMP/badrep.json" 'd["check"]["findings"][0]["severity"] = "bad"'
expect_exit 2 "--baseline with a damaged finding" "$P" report --sysroot "$N" --no-bench \
	--baseline "$TMP/badrep.json" -o "$TMP/r2"
like "--baseline damaged: the JSON path" "$(cat "$ERR")" "$TMP/badrep.json: \\\$\\.check\\.findings\\[0\\]\\.severity"
# a benchmark the baseline skipped is listed as only in this report, with the reason
ok "baseline with a skipped benchmark" "$P" report --sysroot "$PERFLAB_SRCDIR/tests/fixtures/sysroots/xen-hvm" \
	--no-bench --from "$TMP/skipped.json" -o "$TMP/old2"
ok "diff against it" "$P" diff --json "$TMP/old2/report.json" "$R"
is "skipped in the baseline: only in the new report, with why" \
	"$(jq -r '[.benchmarks.only_new[]|"\(.benchmark)/\(.metric)/\(.figures)/\(.reason)"]|join(",")' "$OUT")" \
	"clock/null/4/skipped in the old document: not supported here"
is "and no figures" "$(jq -r '.summary.figures' "$OUT")" 0
expect_exit 2 "report: a bad option after --from (nothing leaks)" "$P" report --from "$R" --bogus
is "report: a bad option: one line" "$(cat "$ERR")" "perflab report: error: unknown option '--bogus' (see 'perflab report --help')"
done_testing
