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

# io IOPS are a key number only from small-block random reads: the IOPS of 1 MiB reads are
# the bandwidth over the block size, which "io IOPS 675/s" passes off as the device's
iops_row() { jq -r ".key_numbers[] | select(.name == \"io IOPS\") | $2" "$1/report.json"; }
is "1 MiB reads: io IOPS is no key number (no value)" "$(iops_row "$R" .value)" null
is "1 MiB reads: it says it is none" "$(iops_row "$R" .text)" "not a key number"
like "1 MiB reads: it says why and what to run" "$(iops_row "$R" .detail)" \
	"^bench io ran read with 1 MiB blocks; IOPS count as a device's only from small-block random reads \\(run 'perflab bench io --pattern randread --bs 4KiB'"
like "terminal: io IOPS says it is no key number" "$(printf '%s\n' "$T" | grep '^  io IOPS ')" '^  io IOPS +not a key number  bench io ran read with 1 MiB blocks'
like "md: io IOPS says it is no key number" "$(grep '^| \[io IOPS\]' "$R/report.md")" '\| not a key number \| bench io ran read with 1 MiB blocks'
is "io bandwidth stays the key figure of 1 MiB reads" \
	"$(jq -r '.key_numbers[] | select(.name == "io bandwidth") | .value' "$R/report.json")" \
	"$(jq -r '.metrics[] | select(.name == "bandwidth") | .median' "$FX/bench-io.json")"
jq '.options.bs = 4096 | .options.pattern = "randread"' "$FX/bench-io.json" >"$TMP/io4k.json"
ok "report from a 4 KiB random-read io result" "$PERFLAB" report --no-bench -o "$TMP/r4k" --from "$TMP/io4k.json"
is "4 KiB random reads: io IOPS is the iops median" "$(iops_row "$TMP/r4k" .value)" \
	"$(jq -r '.metrics[] | select(.name == "iops") | .median' "$FX/bench-io.json")"
like "4 KiB random reads: pattern and bs in its context" "$(iops_row "$TMP/r4k" .detail)" '^randread, bs 4 KiB'
jq '.options.bs = 4096' "$FX/bench-io.json" >"$TMP/io4kseq.json"
ok "report from a 4 KiB sequential io result" "$PERFLAB" report --no-bench -o "$TMP/r4s" --from "$TMP/io4kseq.json"
is "4 KiB sequential reads: no key IOPS" "$(iops_row "$TMP/r4s" .value)" null
jq '.options.bs = 65536 | .options.pattern = "randread"' "$FX/bench-io.json" >"$TMP/io64k.json"
ok "report from a 64 KiB random-read io result" "$PERFLAB" report --no-bench -o "$TMP/r64" --from "$TMP/io64k.json"
like "64 KiB random reads: no key IOPS (blocks over 16 KiB)" "$(iops_row "$TMP/r64" '.text + ": " + .detail')" '^not a key number: bench io ran randread with 64 KiB blocks'

# memory is a key number only when the three arrays do not fit in the last-level cache
# (the quick fixture: 3 x 64 MiB in a 300 MiB LLC measured the cache)
mem_row() { jq -r ".key_numbers[] | select(.name == \"memory\") | $2" "$1/report.json"; }
is "mem arrays inside the LLC: memory is no key number" "$(mem_row "$R" .value)" null
like "... and says so" "$(mem_row "$R" '.text + ": " + .detail')" '^not a key number: the three arrays \(192 MiB\) fit in the last-level cache \(300 MiB\)'
jq '.info.array_bytes = 268435456' "$FX/bench-mem.json" >"$TMP/mem256.json"
ok "report from a mem result with arrays past the LLC" "$PERFLAB" report --no-bench -o "$TMP/rm" --from "$TMP/mem256.json"
is "arrays past the LLC: memory is the triad median" "$(mem_row "$TMP/rm" .value)" \
	"$(jq -r '.metrics[] | select(.name == "triad") | .median' "$FX/bench-mem.json")"
like "... below 4x the LLC: a caveat says so" "$(mem_row "$TMP/rm" '.caveats[0]')" \
	'^arrays below 4x the last-level cache \(256 MiB each, LLC 300 MiB\): may include cache bandwidth'
is "memory: the context names kernel, store kind and threads" "$(mem_row "$TMP/rm" .detail)" \
	"STREAM triad, temporal stores, 2 threads"
# bench mem --nt: the faster of the two triads is the key number, its store kind named
tri=$(jq -r '.metrics[] | select(.name == "triad") | .median' "$FX/bench-mem.json")
jq '.metrics += [(.metrics[] | select(.name == "triad") | .name = "triad_nt"
	| .median = 0.75)] | .options.nt = true | .info.threads = 1' "$TMP/mem256.json" >"$TMP/memnt.json"
ok "report from a mem --nt result, streaming stores faster" "$PERFLAB" report --no-bench -o "$TMP/rnt" --from "$TMP/memnt.json"
is "streaming stores faster: memory is the triad_nt median" "$(mem_row "$TMP/rnt" .value)" 0.75
is "... and its context says so, with 1 thread" "$(mem_row "$TMP/rnt" .detail)" \
	"STREAM triad, streaming (non-temporal) stores, 1 thread"
jq '(.metrics[] | select(.name == "triad_nt") | .median) = 0.25' "$TMP/memnt.json" >"$TMP/memnt2.json"
ok "report from a mem --nt result, temporal stores faster" "$PERFLAB" report --no-bench -o "$TMP/rnt2" --from "$TMP/memnt2.json"
is "temporal stores faster: memory is the triad median" "$(mem_row "$TMP/rnt2" .value)" "$tri"
is "... named temporal" "$(mem_row "$TMP/rnt2" .detail)" "STREAM triad, temporal stores, 1 thread"
validate report.schema.json "$TMP/rnt/report.json"

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
# the worst of 3-5 runs is named as what it is (their largest or smallest figure), not a
# p99, which would read as a percentile of single operations
like "md: a lower-is-better figure's worst run is the max of its runs" "$(md_bench clock)" \
	'^\| gettimeofday \| lower \| 55\.82 ns \| 73\.36 ns \| 72 ns \| 15\.55 ns \| 86\.83 ns \(max of 3 runs\) \| 3 \|'
like "html: the same row" "$(html_bench clock)" '<td class="num">15\.55 ns</td><td class="num">86\.83 ns \(max of 3 runs\)</td>'
like "md: the column says worst run" "$(md_bench clock)" '^\| metric \| better \| best \| median \| mean \| stddev \| worst run \| n \|'
unlike "md: no percentile over the runs" "$(md_bench clock)" 'p99|p1 '
unlike "html: no percentile over the runs" "$(html_bench clock)" '>p99 |>p1 '
like "md: a syscall's cost in us" "$(md_bench clock)" '^\| gettimeofday \\\[syscall\] \| lower \| 2\.978 us \|'
like "terminal: the key number in its unit with its direction" "$(term_bench clock)" 'gettimeofday 73\.36 ns \(lower is better\)'

# mem: two runs, bandwidths (the low tail), a quick-run note, pinned by the benchmark itself
for out in md html term; do
	s=$("${out}_bench" mem)
	like "$out: mem says 2 runs: too few runs for a spread" "$s" '2 runs: too few runs for a spread'
	like "$out: mem's working set vs LLC note beside it" "$s" 'quick run: arrays smaller than 4x the last-level cache'
	like "$out: mem's array size in words" "$s" 'array size \(each\): 64 MiB'
done
like "md: a higher-is-better figure's worst run is the min of its runs" "$(md_bench mem)" '^\| copy \| higher \|( [^|]+ \|){4} 0\.6377 GB/s \(min of 2 runs\) \| 2 \|'
unlike "md: no p99 of a bandwidth" "$(md_bench mem)" 'p99'
like "md: mem pinned (it pins its threads)" "$(md_bench mem)" 'on CPUs [0-9,-]+, pinned\.'
like "html: mem pinned" "$(html_bench mem)" 'on CPUs [0-9,-]+, pinned\. Source: saved result '

# net: client and server seen on one CPU is a caveat of the figures, not a hidden note
for out in md html term; do
	like "$out: net's client and server on the same CPU" "$("${out}_bench" net)" 'client and server on the same CPU 1'
done
like "html: that caveat in the round-trip row" "$(html_bench net)" \
	'<tr><td>tcp_pp 64B round-trip</td>.*<span class="caveat">client and server on the same CPU 1</span>'

# single operations: where a benchmark timed each operation (net's round trips, io's
# latency), every output shows their distribution beside the runs' figures
lat() { jq -r ".metrics[] | select(.name == \"$2\") | .latency_ns.\"$3\"" "$FX/bench-$1.json"; }
is "fixture: tcp_pp's single round trips" "$(lat net 'tcp_pp 64B round-trip' n) $(lat net 'tcp_pp 64B round-trip' p99) $(lat net 'tcp_pp 64B round-trip' max)" "18691 22719.5 2821829"
like "md: net's per-operation table" "$(md_bench net)" \
	'^\| tcp_pp 64B round-trip \| 18691 \| 10\.02 us \| 10\.53 us \| 22\.72 us \| 34\.69 us \| 2\.822 ms \|$'
like "md: its header" "$(md_bench net)" '^\| per operation \| count \| p50 \| mean \| p99 \| p99\.9 \| max \|$'
like "md: io's latency per operation" "$(md_bench io)" '^\| latency \| 207 \| 192 us \| 1\.43 ms \| 14\.06 ms \| 15\.68 ms \| 15\.68 ms \|$'
unlike "md: clock timed loops, no per-operation table" "$(md_bench clock)" 'per operation'
like "html: net's per-operation table" "$(html_bench net)" \
	'<tr><td>tcp_pp 64B round-trip</td><td class="num">18691</td><td class="num">10\.02 us</td><td class="num">10\.53 us</td><td class="num">22\.72 us</td><td class="num">34\.69 us</td><td class="num">2\.822 ms</td></tr>'
like "terminal: net's round trips per operation" "$(term_bench net)" \
	'per operation, tcp_pp 64B round-trip: p50 10\.02 us, p99 22\.72 us, p99\.9 34\.69 us, max 2\.822 ms \(18691 operations\)'
like "terminal: io's latency per operation" "$(term_bench io)" 'per operation, latency: p50 192 us, p99 14\.06 ms'
rtt() { jq -r ".key_numbers[] | select(.name == \"loopback RTT\") | $1" "$R/report.json"; }
is "json: the RTT key number carries its round trips' distribution" "$(rtt '.per_op | "\(.n) \(.p50) \(.p99) \(."p99.9") \(.max)"')" \
	"18691 10015.5 22719.5 34687.5 2821829"
like "terminal: the RTT key number with its tail" "$(printf '%s\n' "$T" | grep '^  loopback RTT ')" \
	'10\.02 us  TCP ping-pong, 64 B; single operations: p50 10\.02 us, p99 22\.72 us, p99\.9 34\.69 us, max 2\.822 ms \(18691 operations\)'
like "md: the RTT key number with its tail" "$(grep '^| \[loopback RTT\]' "$R/report.md")" \
	'\| TCP ping-pong, 64 B; single operations: p50 10\.02 us, p99 22\.72 us, p99\.9 34\.69 us, max 2\.822 ms \(18691 operations\) \|'
like "html: the RTT key number with its tail" "$(sed -n '/id="key-numbers"/,/<\/section>/p' "$R/report.html" | html_text)" \
	'TCP ping-pong, 64 B; single operations: p50 10\.02 us, p99 22\.72 us'

# a rate that disagrees with its median time per operation says why (the rate counts the
# whole loop, outliers included): udp_pp's 23905/s is 41.8 us a round trip, 2.65x its median
for out in md html term; do
	like "$out: udp_pp's rate and round trip explained" "$("${out}_bench" net)" \
		'[Cc]aveat:(\*\*|</b>)? udp_pp 64B rate 23905/s is 41\.83 us per operation, 2\.65x the median udp_pp 64B round-trip \(15\.78 us\): the rate counts the whole timed loop'
	unlike "$out: tcp_pp's agree (7%): no such caveat" "$("${out}_bench" net)" 'tcp_pp 64B rate [0-9]+/s is'
done
is "json: the RTT row has no caveat of udp_pp's rate" "$(rtt '[.caveats[] | select(test("rate"))] | length')" 0
jq '(.metrics[] | select(.name == "tcp_pp 64B rate") | .median) = 3646 |
	(.metrics[] | select(.name == "tcp_pp 64B round-trip") | .median) = 75520' "$FX/bench-net.json" >"$TMP/net-rate.json"
ok "report from a net result whose rate is 3.6x its RTT" "$PERFLAB" report --no-bench -o "$TMP/rn" --from "$TMP/net-rate.json"
like "json: the RTT key number says its rate differs" \
	"$(jq -r '.key_numbers[] | select(.name == "loopback RTT") | .caveats | join("; ")' "$TMP/rn/report.json")" \
	'rate 3646/s = 274\.3 us per operation, 3\.63x the median'

# io's temporary directory and file are gone after the run: no human output names them
for out in md html term; do
	unlike "$out: no io temporary names" "$("${out}_bench" io)" 'perflab-io\.'
done
is "json keeps the path" "$(jq -r '.benchmarks[] | select(.benchmark == "io") | .info.file' "$R/report.json")" \
	"$(jq -r .info.file "$FX/bench-io.json")"

# mem's note on the array size and the info items it repeats are shown once
jq '.info.size_reason = "4x the last-level cache, capped (LLC reported 2 x L3 = 1016.00 MiB by hwloc, likely the host'"'"'s in a virtual machine; taken as 128.00 MiB = 2 CPUs x 64.00 MiB)" |
	.info.array_bytes = 536870912 | .options.size = 0 |
	.notes = ["array size 512.00 MiB each: " + .info.size_reason]' "$FX/bench-mem.json" >"$TMP/mem-note.json"
ok "report from a mem result with its size note" "$PERFLAB" report --no-bench -o "$TMP/rmn" --from "$TMP/mem-note.json"
for f in report.md report.html; do
	is "$f: the capped sentence once" "$(html_text "$TMP/rmn/$f" | grep -o 'taken as 128\.00 MiB' | wc -l)" 1
	is "$f: the array size once" "$(html_text "$TMP/rmn/$f" | grep -oE 'array size (\(each\): )?512' | wc -l)" 1
done
like "terminal: the capped sentence once" "$(grep -c 'taken as 128\.00 MiB' "$OUT")" '^1$'

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
