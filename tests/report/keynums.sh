#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Key numbers and the facts table as a reader sees them: each figure of a row (the headline
# and its reference) carries its own metric's caveats, the reference's marked "reference: ";
# a row that is no key number says so in the figure column and why in its context; the
# facts table shows byte facts as sizes and leaves out null members, report.json keeping
# the exact values. Inputs: saved documents (tests/report/fixtures/README.md) edited by jq.
. "$PERFLAB_SRCDIR/tests/lib.sh"
FX=$PERFLAB_SRCDIR/tests/report/fixtures
export PERFLAB_TIMESTAMP=1780000000
unlike() {
	if printf '%s' "$2" | grep -Eq -- "$3"; then
		_report fail "$1" "matches $3: '$(printf '%s' "$2" | grep -E -- "$3" | head -c 800)'"
	else _report ok "$1"; fi
}
row() { jq -r ".key_numbers[] | select(.name == \"$2\") | $3" "$1/report.json"; }

# time read: a steady vDSO read against a wide-spread system call
jq '(.metrics[] | select(.name == "gettimeofday") | .cv) = 0.01
	| (.metrics[] | select(.name == "gettimeofday [syscall]")) |= (.cv = 0.206 | .median = 1245)' \
	"$FX/bench-clock.json" >"$TMP/clock.json"
# compression: a steady isal-1 against a wide-spread zlib-1, from the same run
jq '.benchmark = "compress" | .options = {} | .info = {} | .notes = []
	| .metrics = [(.metrics[0] | .name = "isal-1 compress" | .unit = "MB/s" | .better = "higher"
			| .median = 1500 | .cv = 0.01 | del(.notes)),
		(.metrics[0] | .name = "zlib-1 compress" | .unit = "MB/s" | .better = "higher"
			| .median = 77.42 | .cv = 0.238 | del(.notes))]' \
	"$FX/bench-clock.json" >"$TMP/compress.json"
R=$TMP/r
ok "report from saved clock, compress and io results" "$PERFLAB" report --no-bench -o "$R" \
	--from "$TMP/clock.json" --from "$TMP/compress.json" --from "$FX/bench-io.json"
T=$(cat "$OUT")

is "time read: the figure's caveats, then the reference's, marked" \
	"$(row "$R" "time read" '.caveats | join("; ")')" \
	"machine not idle; reference: spread too wide (cv 20.6% > 5%)"
like "time read: the reference is the system call's figure" "$(row "$R" "time read" .reference)" \
	'^as a system call: 1\.245 us'
is "compression: the same for zlib-1" "$(row "$R" compression '.caveats | join("; ")')" \
	"machine not idle; reference: spread too wide (cv 23.8% > 5%)"
like "compression: zlib-1 is its reference" "$(row "$R" compression .reference)" '^zlib-1 \(gzip -1\): 77\.42 MB/s'
# a headline with a wide spread keeps its own, unmarked, before the reference's
jq '(.metrics[] | select(.name == "isal-1 compress") | .cv) = 0.4' "$TMP/compress.json" >"$TMP/compress2.json"
ok "report from a compress result with both spreads wide" "$PERFLAB" report --no-bench -o "$TMP/r2" \
	--from "$TMP/compress2.json"
is "compression: each figure its own spread" "$(row "$TMP/r2" compression '.caveats | join("; ")')" \
	"spread too wide (cv 40.0% > 5%); machine not idle; reference: spread too wide (cv 23.8% > 5%)"
like "terminal: the reference's caveat beside the row" "$(printf '%s\n' "$T" | grep '^  compression ')" \
	'\[machine not idle; reference: spread too wide \(cv 23\.8% > 5%\)\]$'
like "md: the reference's caveat in the caveats cell" "$(grep '^| \[time read\]' "$R/report.md")" \
	'\| machine not idle; reference: spread too wide \(cv 20\.6% > 5%\) \|$'
like "html: the reference's caveat in the list" "$(grep -A0 'href="#bench-compress"' "$R/report.html")" \
	'<li>reference: spread too wide \(cv 23\.8% &gt; 5%\)</li>'

# io IOPS of 1 MiB reads: "not a key number" as the figure, the reason as context
is "io IOPS: a short figure text" "$(row "$R" "io IOPS" .text)" "not a key number"
like "io IOPS: why and what to run in its context" "$(row "$R" "io IOPS" .detail)" \
	"^bench io ran read with 1 MiB blocks; IOPS count as a device's only from small-block random reads \\(run 'perflab bench io --pattern randread --bs 4KiB'"
like "terminal: the figure column holds the short text" "$(printf '%s\n' "$T" | grep '^  io IOPS ')" \
	'^  io IOPS +not a key number  bench io ran read with 1 MiB blocks'
like "md: figure cell short, reason in the context cell" "$(grep '^| \[io IOPS\]' "$R/report.md")" \
	'^\| \[io IOPS\]\(#bench-io\) \| not a key number \| bench io ran read with 1 MiB blocks; '
like "html: figure cell short" "$(grep 'href="#bench-io">io IOPS' "$R/report.html" | sed -E 's#<span class="nw">([^<]*)</span>#\1#g')" \
	'<td>not a key number</td><td>bench io ran read with 1 MiB blocks; '

# the facts table: sizes for byte facts, null members left out
jq -n '{schema_version: 1, perflab_version: "0.0.0", generated: "2026-05-28T00:00:00Z", facts: {
	"mem.total_bytes": {value: 25276157952, source: "/proc/meminfo"},
	"cpu.cache.l3_bytes": {value: 532676608, source: "hwloc"},
	"block.vda.size_bytes": {value: 274877906944, source: "/sys/block/vda/size"},
	"kmsg.thermal_throttle": {value: {count: 0, last_s: null, last: null}, source: "/dev/kmsg"},
	"kmsg.never": {value: {last_s: null, last: null}, source: "/dev/kmsg"},
	"pcie.devices": {value: [{slot: "0000:00:04.0", kind: "nvme", speed_gts: null, width: 4,
		numa_node: -1}], source: "/sys/bus/pci/devices"}}}' >"$TMP/inspect.json"
ok "report from a saved inspect document" "$PERFLAB" report --no-bench -o "$TMP/rf" --from "$TMP/inspect.json"
fact_md() { grep "^| \`$1\` |" "$TMP/rf/report.md"; }
is "md: mem.total_bytes as a size" "$(fact_md mem.total_bytes)" '| `mem.total_bytes` | 23.54 GiB (25276157952 B) | /proc/meminfo |'
like "md: l3 as a size" "$(fact_md cpu.cache.l3_bytes)" '^\| `cpu.cache.l3_bytes` \| 508 MiB \|'
like "md: block size as a size" "$(fact_md block.vda.size_bytes)" '^\| `block.vda.size_bytes` \| 256 GiB \|'
like "md: kmsg without its null members" "$(fact_md kmsg.thermal_throttle)" '^\| `kmsg.thermal_throttle` \| count=0 \|'
like "md: an object of nulls is unknown" "$(fact_md kmsg.never)" '^\| `kmsg.never` \| unknown \|'
like "md: pcie without null members or numa_node -1" "$(fact_md pcie.devices)" \
	'^\| `pcie.devices` \| slot=0000:00:04.0, kind=nvme, width=4 \|'
H=$(sed -E 's#<wbr>##g; s#<span class="nw">([^<]*)</span>#\1#g' "$TMP/rf/report.html")
like "html: mem.total_bytes as a size" "$H" '<code>mem.total_bytes</code></td><td>23.54 GiB \(25276157952 B\)</td>'
like "html: a size keeps its number with its unit" "$(grep -F '25276157952 B</span>' "$TMP/rf/report.html")" \
	'<span class="nw">23.54 GiB</span>'
like "html: kmsg without its null members" "$H" '<code>kmsg.thermal_throttle</code></td><td>count=0</td>'
unlike "md: no null in the facts table" "$(sed -n '/^## Facts/,$p' "$TMP/rf/report.md")" 'null'
unlike "html: no null in the facts table" "$(sed -n '/id="facts-table"/,/<\/table>/p' "$TMP/rf/report.html")" 'null'
is "json: the exact byte count" "$(jq '.facts["mem.total_bytes"].value' "$TMP/rf/report.json")" 25276157952
is "json: the null members kept" "$(jq -c '.facts["kmsg.thermal_throttle"].value' "$TMP/rf/report.json")" \
	'{"count":0,"last_s":null,"last":null}'
validate report.schema.json "$TMP/rf/report.json"
validate report.schema.json "$R/report.json"

# a --precision run (the default report's): the key number and the runner line say the
# precision reached; a fixed-count result (the clock above) says nothing of it
unlike "fixed count: no precision on the figure" "$(row "$R" "time read" .text)" '\+-'
is "fixed count: no precision member" "$(row "$R" "time read" .precision)" null
jq '.runner.precision = {requested_pct: 1, level: 0.95, method: "order-statistic CI of the median",
	max_time_s: 8.5, max_runs: 1000, min_runs: 6, runs: 23, warmup_dropped: 2, stop: "precision",
	wall_s: 3.2, reached_pct: 0.42,
	metrics: [{name: "gettimeofday", reached_pct: 0.42, ci_low: 73.05, ci_high: 73.67}]}' \
	"$FX/bench-clock.json" >"$TMP/clock-p.json"
validate bench.schema.json "$TMP/clock-p.json"
ok "report from a --precision clock result" "$PERFLAB" report --no-bench -o "$TMP/rp" \
	--from "$TMP/clock-p.json"
like "precision: after the figure" "$(row "$TMP/rp" "time read" .text)" ' \+-0\.42%$'
is "precision: the row's member" "$(row "$TMP/rp" "time read" '.precision | tostring')" \
	'{"reached_pct":0.42,"requested_pct":1,"stop":"precision"}'
like "md: the figure cell" "$(grep '^| \[time read\]' "$TMP/rp/report.md")" '\+-0\.42%'
like "md: the runner line" "$(cat "$TMP/rp/report.md")" \
	'; precision \+-0\.42% for gettimeofday \(95% CI of the median, 23 runs after 2 detected warm-up runs dropped; stopped: the 1% target was reached\)'
like "html: the runner line" "$(cat "$TMP/rp/report.html")" '; precision \+-0\.42% for gettimeofday'
validate report.schema.json "$TMP/rp/report.json"

# an asymmetric interval shows its two sides, a percentage never in exponent notation, and
# a series --max-time stopped before the interval (6 runs) gives its spread instead
jq '.runner.precision = {requested_pct: 1, level: 0.95, method: "order-statistic CI of the median",
	max_time_s: 8.5, max_time_from: "report", max_runs: 1000, min_runs: 6, runs: 23,
	warmup_dropped: 0, stop: "max-time", wall_s: 9.1, reached_pct: 140,
	metrics: [{name: "gettimeofday", reached_pct: 140, ci_low: 72.9, ci_high: 176.1,
		median: 73.36, cv: 0.21}]}' "$FX/bench-clock.json" >"$TMP/clock-a.json"
validate bench.schema.json "$TMP/clock-a.json"
ok "report from an asymmetric interval" "$PERFLAB" report --no-bench -o "$TMP/ra" \
	--from "$TMP/clock-a.json"
like "asymmetric: both sides on the key number" "$(row "$TMP/ra" "time read" .text)" ' -0\.63%/\+140%$'
like "asymmetric: the runner line" "$(cat "$TMP/ra/report.md")" \
	'; precision -0\.63%/\+140% for gettimeofday \(95% CI of the median, 23 runs; stopped: its share of the report.s time budget \(8\.5 s\) was spent; the 1% target was not reached \(-0\.63%/\+140%\)\)'
unlike "no exponent notation" "$(cat "$TMP/ra/report.md")" '[0-9]e[+-][0-9]+%'
jq '.runner.precision = {requested_pct: 1, level: 0.95, method: "order-statistic CI of the median",
	max_time_s: 4.4, max_time_from: "report", max_runs: 1000, min_runs: 6, runs: 3,
	warmup_dropped: 0, stop: "max-time", wall_s: 4.6, reached_pct: null,
	metrics: [{name: "gettimeofday", reached_pct: null, ci_low: null, ci_high: null,
		median: 73.36, cv: 0.2159773726}]}' "$FX/bench-clock.json" >"$TMP/clock-3.json"
validate bench.schema.json "$TMP/clock-3.json"
ok "report from 3 runs" "$PERFLAB" report --no-bench -o "$TMP/r3" --from "$TMP/clock-3.json"
like "3 runs: the key number gives the spread" "$(row "$TMP/r3" "time read" .text)" \
	' \(no interval: 3 runs, cv 22%\)$'
like "3 runs: the runner line says why" "$(cat "$TMP/r3/report.md")" \
	'; precision no interval \(it needs 6 runs, 3 made\); spread cv 22% for gettimeofday \(3 runs; stopped: its share'

# at a phone's width the key numbers stack: every row's caveats on screen, under the
# figure, not in a column reached by scrolling sideways (browser.py checks 1280/800/480 px)
. "$PERFLAB_SRCDIR/tests/report/browser.sh"
browser_check "key numbers' caveats at 480 px" "$TMP/ra/report.html" \
	"$PERFLAB_BUILDDIR/report-keynums.png" "-"
done_testing
