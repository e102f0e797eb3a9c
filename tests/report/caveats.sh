#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Honest numbers: every figure of a benchmark carries its caveats beside it, in the
# terminal summary, report.md and report.html alike (report/figures.c makes them once):
# 1 run shows no spread, 2 runs are too few, a wide spread is named per figure, the
# benchmark's notes and info items stand under its table, "unreliable: machine not idle"
# opens every output, "lower/higher is better" follows each metric's own "better" field,
# units are the terminal's. Inputs: saved bench documents (tests/report/fixtures/README.md).
. "$PERFLAB_SRCDIR/tests/lib.sh"
. "$PERFLAB_SRCDIR/tests/report/browser.sh"
FX=$PERFLAB_SRCDIR/tests/report/fixtures
export PERFLAB_TIMESTAMP=1780000000
R=$TMP/r
unlike() {
	if printf '%s' "$2" | grep -Eq -- "$3"; then
		_report fail "$1" "matches $3: '$(printf '%s' "$2" | grep -E -- "$3" | head -c 800)'"
	else _report ok "$1"; fi
}

ok "report from saved clock, io, mem, net and ticks results" "$PERFLAB" report --no-bench -o "$R" \
	--from "$FX/bench-clock.json" --from "$FX/bench-io.json" --from "$FX/bench-mem.json" \
	--from "$FX/bench-net.json" --from "$FX/bench-ticks.json"
T=$(cat "$OUT")
M=$(cat "$R/report.md")
# report.html as text: without the markup that only steers line breaks (a number kept
# with its unit, a metric name's break points; browser.py checks those)
html_text() { sed -E 's#<span class="nw">([^<]*)</span>#\1#g; s#<wbr>##g' "$@"; }
H=$(html_text "$R/report.html")

# the part of each output about one benchmark
md_bench() { awk -v b="### bench $1" '$0 == b { on = 1; print; next } on && /^#/ { exit } on' "$R/report.md"; }
html_bench() { sed -n "/<section class=\"bench\" id=\"bench-$1\" data-benchmark=\"$1\">/,/<\/section>/p" "$R/report.html" | html_text; }
term_bench() { # benchmark $1's line in the "benchmarks (first figure ...)" list and the lines under it
	printf '%s\n' "$T" | awk -v b="$1" '/^benchmarks \(first figure/ { list = 1; next }
		on && /^  [^ ]/ { exit } on && !/^ / { exit }
		list && $1 == b && /^  [a-z]/ { on = 1 } on'
}

# the report-wide caveat opens every output
like "terminal: 'unreliable: machine not idle' right under the machine line" \
	"$(printf '%s\n' "$T" | sed -n 2p)" '^unreliable: machine not idle: other tasks used up to [0-9]+% of the CPUs during bench clock, io, mem, net, ticks'
like "md: the same caveat before the findings" "$(sed -n '1,/^## Findings/p' "$R/report.md")" \
	'^> \*\*unreliable: machine not idle: other tasks used up to [0-9]+% of the CPUs during bench clock, io, mem, net, ticks'
like "html: the same caveat before the findings" "$(sed -n '1,/id="findings"/p' "$R/report.html")" \
	'<p class="unreliable" id="unreliable"><b>unreliable: machine not idle'
# ... and before the Key numbers table whose figures it qualifies (a caveat under the
# table is read after the figures)
like "md: the caveat before the Key numbers" "$(sed -n '1,/^## Key numbers/p' "$R/report.md")" \
	'^> \*\*unreliable: machine not idle'
like "md: the Key numbers follow" "$(sed -n '/^> \*\*unreliable/,$p' "$R/report.md")" '^## Key numbers'
like "html: the caveat before the Key numbers" "$(sed -n '1,/id="key-numbers"/p' "$R/report.html")" \
	'<p class="unreliable" id="unreliable"><b>unreliable: machine not idle'
like "html: the Key numbers follow" "$(sed -n '/id="unreliable"/,$p' "$R/report.html")" \
	'<section id="key-numbers">'

# io IOPS of large blocks are the bandwidth over the block size: the key numbers row says
# so ("io IOPS 677/s" alone reads as the device's); 4 KiB blocks carry no such caveat
iops_cav="bandwidth over 1 MiB blocks, not the device's small-block (4 KiB) IOPS"
iops_re="bandwidth over 1 MiB blocks, not the device's small-block \\(4 KiB\\) IOPS"
like "terminal: io IOPS of 1 MiB blocks say what they are" "$(printf '%s\n' "$T" | grep '^  io IOPS ')" "\\[$iops_re;"
like "md: io IOPS of 1 MiB blocks say what they are" "$(grep '^| \[io IOPS\]' "$R/report.md")" "\\| $iops_re; "
is "json: the caveat first in key_numbers" \
	"$(jq -r '.key_numbers[] | select(.name == "io IOPS") | .caveats[0]' "$R/report.json")" "$iops_cav"
is "io bandwidth row has no IOPS caveat" \
	"$(jq -r '[.key_numbers[] | select(.name == "io bandwidth") | .caveats[] | select(test("IOPS"))] | length' "$R/report.json")" 0
jq '.options.bs = 4096' "$FX/bench-io.json" >"$TMP/io4k.json"
ok "report from a 4 KiB io result" "$PERFLAB" report --no-bench -o "$TMP/r4k" --from "$TMP/io4k.json"
is "4 KiB io IOPS: no large-block caveat" \
	"$(jq -r '[.key_numbers[] | select(.name == "io IOPS") | .caveats[] | select(test("blocks"))] | length' "$TMP/r4k/report.json")" 0
like "4 KiB io IOPS: bs in its context" "$(jq -r '.key_numbers[] | select(.name == "io IOPS") | .detail' "$TMP/r4k/report.json")" 'bs 4 KiB'

# io: one run, so no spread, and its notes and info under its table
for out in md html term; do
	s=$("${out}_bench" io)
	like "$out: io says 1 run: no spread" "$s" '1 run: no spread'
	like "$out: io's cache-cold note beside it" "$s" "cache cold: the file(')?(&#39;)?s pages are dropped"
	like "$out: io's workload line beside it" "$s" 'workload: read, bs 1 MiB, psync'
	like "$out: io is not idle" "$s" 'machine not idle'
	unlike "$out: never '1 runs'" "$s" '1 runs'
done
like "md: io runner line says '1 run'" "$(md_bench io)" '\. 1 run in [0-9.]+ ms on CPUs'
like "md: n=1 row has no stddev and no tail" "$(md_bench io)" '^\| bandwidth \| higher \| [^|]+ \| [^|]+ \| [^|]+ \| - \| - \| 1 \|'
like "html: n=1 row has no stddev and no tail" "$(html_bench io)" \
	'<tr><td>bandwidth</td><td>higher</td>(<td class="num">[^<-][^<]*</td>){3}<td class="num">-</td><td class="num">-</td><td class="num">1</td>'
like "md: io latency in us or ms, not raw ns" "$(md_bench io)" '^\| latency \| lower \| [0-9.]+ (us|ms) \|'
# io's residency is 0 from min to max under a cold cache (and O_DIRECT): no chart of one
# empty bar, the table row stays
unlike "html: an all-zero chart (residency, cold cache) is left out" "$(html_bench io)" '<title>bench io: median per metric, whiskers min to max \(%\)</title>'
like "html: ... its table row stays" "$(html_bench io)" '<tr><td>residency before</td><td></td>'
like "html: the 'neither' chart (ticks) has no direction" "$(html_bench ticks)" '<title>bench ticks: median per metric, whiskers min to max \(1/s\)</title>'
like "html: the lower-is-better % chart (cpu) says so" "$(html_bench io)" '<title>bench io: median per metric, whiskers min to max \(%, lower is better\)</title>'
like "md: the 'neither' metric has no direction" "$(md_bench io)" '^\| residency before \|  \|'

# clock: three runs with a wide spread: each figure says so
for out in md html term; do
	like "$out: gettimeofday's spread too wide, with its cv" "$("${out}_bench" clock)" 'spread too wide \(cv 21\.6% (>|&gt;) 5%\)'
done
like "md: a lower-is-better figure's tail is p99" "$(md_bench clock)" '^\| gettimeofday \| lower \| 55\.82 ns \| 73\.36 ns \| 72 ns \| 15\.55 ns \| p99 86\.56 ns \| 3 \|'
like "html: the same row" "$(html_bench clock)" '<td class="num">15\.55 ns</td><td class="num">p99 86\.56 ns</td>'
like "md: a syscall's cost in us" "$(md_bench clock)" '^\| gettimeofday \\\[syscall\] \| lower \| 2\.978 us \|'
like "terminal: the key number in its unit with its direction" "$(term_bench clock)" 'gettimeofday 73\.36 ns \(lower is better\)'

# mem: two runs, bandwidths (the low tail), a quick-run note, pinned by the benchmark itself
for out in md html term; do
	s=$("${out}_bench" mem)
	like "$out: mem says 2 runs: too few runs for a spread" "$s" '2 runs: too few runs for a spread'
	like "$out: mem's working set vs LLC note beside it" "$s" 'quick run: arrays smaller than 4x the last-level cache'
	like "$out: mem's array size in words" "$s" 'array size \(each\): 64 MiB'
done
like "md: a higher-is-better figure's tail is p1" "$(md_bench mem)" '^\| copy \| higher \|( [^|]+ \|){4} p1 [0-9.]+ GB/s \| 2 \|'
unlike "md: no p99 of a bandwidth" "$(md_bench mem)" 'p99'
like "md: mem pinned (it pins its threads)" "$(md_bench mem)" 'on CPUs [0-9,-]+, pinned\.'
like "html: mem pinned" "$(html_bench mem)" 'on CPUs [0-9,-]+, pinned\.</p>'

# net: client and server seen on one CPU is a caveat of the figures, not a hidden note
for out in md html term; do
	like "$out: net's client and server on the same CPU" "$("${out}_bench" net)" 'client and server on the same CPU 1'
done
like "html: that caveat in the round-trip row" "$(html_bench net)" \
	'<tr><td>tcp_pp 64B round-trip</td>.*<span class="caveat">client and server on the same CPU 1</span>'

# ticks: a "neither" metric gets no direction anywhere; its note beside it
for out in md html term; do
	s=$("${out}_bench" ticks)
	unlike "$out: ticks has no 'is better' label" "$s" 'is better'
	like "$out: ticks' note beside it" "$s" 'expect about CONFIG_HZ ticks/s'
done
like "md: ticks' better column is empty" "$(md_bench ticks)" '^\| local timer interrupts \|  \|'

# the environment line in words, units as the terminal's, scales on the charts
for f in report.md report.html; do
	unlike "$f: no raw environment keys" "$(cat "$R/$f")" 'others_busy_pct|load_avg|cpu_model|steal_pct'
done
unlike "md: no exponent numbers in the tables" "$M" '\| [-0-9.]+e[+-][0-9]'
unlike "html: no exponent numbers in the tables or charts" "$H" '>[-0-9.]+e[+-][0-9][^<]*<'
like "html: the environment line in words" "$(html_bench io)" '<p class="env">Environment: kernel [^<]*, CPU [^<]*during the run: load'
is "html: every chart has a scale" "$(grep -c '<g class="scale">' "$R/report.html")" "$(grep -c '<svg class="chart"' "$R/report.html")"
like "html: the clock chart's scale in ns" "$(html_bench clock)" '<g class="scale">.*class="axis" text-anchor="middle">[0-9.]+ (ns|us)</text>'

# info values to the precision they carry, a reference figure in words (not the raw
# double or the object's keys): a mem document with an on-CPU share and a DIMM peak
jq '.info.on_cpu_pct = 66.066590704459045 | .info.reference = {metric: "triad", name: "DIMM peak",
	unit: "GB/s", value: 51.2, text: "51.2 GB/s (2 channels x 3200 MT/s x 8 B, SMBIOS)", share_pct: 45.3}' \
	"$FX/bench-mem.json" >"$TMP/mem-ref.json"
ok "report from a mem result with a reference figure" "$PERFLAB" report --no-bench -o "$TMP/r2" --from "$TMP/mem-ref.json"
for f in report.md report.html; do
	like "$f: the on-CPU share rounded" "$(cat "$TMP/r2/$f")" 'on cpu pct: 66\.1%'
	unlike "$f: no raw double" "$(cat "$TMP/r2/$f")" '66\.0665'
	like "$f: the reference in words with the share" "$(html_text "$TMP/r2/$f")" \
		'reference: DIMM peak 51\.2 GB/s \(2 channels x 3200 MT/s x 8 B, SMBIOS\); triad at 45% of it'
	unlike "$f: not the reference's keys" "$(cat "$TMP/r2/$f")" 'metric triad, name DIMM peak'
done

# Headless Chromium at 480 px: chart text stays readable (>= 12 px as rendered).
browser_check "charts readable at 480 px" "$R/report.html" "$PERFLAB_BUILDDIR/report-caveats-480.png" "-" --charts
done_testing
