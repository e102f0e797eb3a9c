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
Q=$TMP/q/report.json
# the counter section: a table of the basic metrics per benchmark where a core PMU
# exists, else one line with the reason and no table
if [ "$(jqv "$Q" .counters.core_pmu)" = false ]; then
	like "counters: no core PMU, the reason" "$(jqv "$Q" .counters.reason)" '^no core PMU in /sys/bus/event_source/devices'
	is "counters: nothing counted without a core PMU" "$(jqv "$Q" '[.counters.metrics, .counters.benchmarks] | map(length) | add')" 0
	like "counters: report.md says why in one line" "$(sed -n '/^## Counters$/,/^## /p' "$TMP/q/report.md" | grep -c .)" '^[23]$'
	like "counters: report.md's line" "$(cat "$TMP/q/report.md")" 'No hardware counters: no core PMU in '
	like "counters: report.html's line" "$(cat "$TMP/q/report.html")" '<h2 id="counters">Counters</h2>'
	like "counters: the summary's line" "$(cat "$OUT")" 'counters: No hardware counters: no core PMU'
else
	is "counters: a row per benchmark" "$(jqv "$Q" '.counters.benchmarks | length')" "$n"
	is "counters: the basic metrics" "$(jqv "$Q" '[.counters.metrics[].name][0:4] | join(",")')" "ipc,frequency,llc_mpki,branch_miss_rate"
	is "counters: a value or a reason for each metric" "$(jqv "$Q" '[.counters.benchmarks[] | . as $r | .values | to_entries[] | select(.value == null and ($r.unavailable[.key] | not))] | length')" 0
	like "counters: report.md's table" "$(cat "$TMP/q/report.md")" '\| benchmark \| ipc \| frequency \|'
fi
is "summary starts with the machine line" "$(head -1 "$OUT")" "$(jqv "$Q" '.key_numbers[0].text')"
like "summary: findings by severity second (after the machine-not-idle line, if any)" "$(sed -n 2,3p "$OUT" | grep -v "^unreliable: " | head -1)" '^  findings +[0-9]+ crit, [0-9]+ warn, [0-9]+ info'
is "key numbers: the rows in order" "$(jqv "$Q" '[.key_numbers[].name]|join(",")')" \
	"machine,findings,time read,syscall,memory,io bandwidth,io IOPS,loopback RTT,compression"
# each figure is the median of its benchmark's metric in the same report (or says why not)
for kv in "time read|clock|gettimeofday" "syscall|syscall|getppid" "memory|mem|triad" \
	"io bandwidth|io|bandwidth" "io IOPS|io|iops" "loopback RTT|net|tcp_pp 64B round-trip"; do
	IFS='|' read -r name b metric <<<"$kv"
	want=$(jqv "$Q" "[.benchmarks[]|select(.benchmark==\"$b\" and .status==\"ok\")|.metrics[]|select(.name==\"$metric\")|.median][0]")
	got=$(jqv "$Q" ".key_numbers[]|select(.name==\"$name\")|.value")
	text=$(jqv "$Q" ".key_numbers[]|select(.name==\"$name\")|.text")
	if [ "$want" = null ]; then
		like "key numbers: $name not measured says why" "$text" '^(not measured|skipped|failed|interrupted)'
	elif [ "$text" = "not a key number" ]; then
		# measured, but not what the name says: IOPS of large or sequential blocks,
		# a triad whose arrays fit in the last-level cache
		b1='[.benchmarks[]|select(.benchmark=="'$b'" and .status=="ok")][0]'
		case $name in
		"io IOPS") why=$(jqv "$Q" "$b1.options|select(.pattern!=\"randread\" or .bs>16384)|\"not small random reads\"") ;;
		memory) why=$(jqv "$Q" "$b1.info|select(3*.array_bytes <= (.llc_used_bytes // .llc_total_bytes))|\"arrays in the LLC\"") ;;
		*) why= ;;
		esac
		like "key numbers: $name is no key number only for a reason ($(jqv "$Q" ".key_numbers[]|select(.name==\"$name\")|.detail"))" "$why" '.'
		is "key numbers: $name has no value then" "$got" null
	else
		is "key numbers: $name is bench $b's $metric median" "$got" "$want"
	fi
	like "summary: $name row" "$(cat "$OUT")" "^  $name +"
done
# the io rows say what the run did (info.cache), never the "auto" that was asked for
ioc=$(jqv "$Q" '[.benchmarks[]|select(.benchmark=="io" and .status=="ok")|.info.cache][0]')
if [ "$ioc" = null ]; then
	skip "key numbers: io says how it read" "bench io did not run or did not say"
else
	is "key numbers: io says its block size, queue depth and how it read (info.cache $ioc)" \
		"$(jqv "$Q" '.key_numbers[]|select(.name=="io bandwidth")|.detail')" \
		"read, bs $(jqv "$Q" '[.benchmarks[]|select(.benchmark=="io")][0].options.bs/1048576|tostring') MiB, qd $(jqv "$Q" '[.benchmarks[]|select(.benchmark=="io")][0].options.iodepth'), $(case "$ioc" in direct) echo 'O_DIRECT (no page cache)' ;; cold) echo 'cold cache' ;; hot) echo 'hot cache (page cache, not the device)' ;; *) echo "$ioc" ;; esac)"
fi
# the fastest library at level 1 (isal-0 is less work, not a faster library than zlib-1)
cz=$(jqv "$Q" '[.benchmarks[]|select(.benchmark=="compress" and .status=="ok")|.metrics[]|select(.name|endswith("-1 compress"))|.median]|max')
if [ "$cz" = null ]; then
	skip "key numbers: compression is the fastest level-1 compress MB/s" "bench compress did not run at level 1"
else
	is "key numbers: compression is the fastest level-1 compress MB/s" \
		"$(jqv "$Q" '.key_numbers[]|select(.name=="compression")|.value')" "$cz"
	like "key numbers: compression names a level-1 library" \
		"$(jqv "$Q" '.key_numbers[]|select(.name=="compression")|.detail')" '^[a-z]+-1, one core$'
fi
via=$(jqv "$Q" '[.benchmarks[]|select(.benchmark=="clock")|.metrics[]|select(.name=="gettimeofday")|.notes.via][0]')
if [ "$via" = vdso ] || [ "$via" = syscall ]; then
	like "key numbers: says whether the time read is a vDSO call" \
		"$(jqv "$Q" '.key_numbers[]|select(.name=="time read")|.detail')" "a $( [ "$via" = vdso ] && echo vDSO || echo system) call"
	like "key numbers: the syscall cost is the clock's reference" \
		"$(jqv "$Q" '.key_numbers[]|select(.name=="time read")|.reference')" '^as a system call: [0-9.]+ [nu]s'
else
	skip "key numbers: vDSO or not" "bench clock did not tell the call path ($via)"
	skip "key numbers: the clock's reference" "bench clock did not tell the call path"
fi
# the memory reference is the DIMMs' theoretical peak where this machine's SMBIOS table
# gives one (root on bare metal), else says there is none
if [ "$(jqv "$Q" '.facts["dimm.peak_bandwidth_gbps"].value // empty')" != "" ]; then
	like "key numbers: memory against the theoretical peak" "$(jqv "$Q" '.key_numbers[]|select(.name=="memory")|.reference')" \
		'^theoretical peak [0-9.]+ GB/s'
else
	is "key numbers: memory has no reference without DIMM facts" "$(jqv "$Q" '.key_numbers[]|select(.name=="memory")|.reference')" \
		"no reference (no DIMM facts for a theoretical peak)"
fi
# mem's LLC: what the size rule used is at most what was reported; a smaller one is the VM
# bound (64 MiB per CPU), which the quick run's note states with the reported size
mem='[.benchmarks[]|select(.benchmark=="mem" and .status=="ok")][0]'
if [ "$(jqv "$Q" "$mem.info.llc_total_bytes // empty")" != "" ]; then
	lt=$(jqv "$Q" "$mem.info.llc_total_bytes") lu=$(jqv "$Q" "$mem.info.llc_used_bytes")
	is "mem: the LLC the size rule used ($lu B) is at most the reported ($lt B)" \
		"$([ "$lu" -le "$lt" ] && echo yes)" yes
	if [ "$lu" -lt "$lt" ]; then
		like "mem: the note states the reported LLC, likely the host's" \
			"$(jqv "$Q" "$mem.notes|join(\"\\n\")")" "LLC reported .*, likely the host's in a virtual machine; taken as"
	else
		is "mem: no VM bound, no such note" "$(jqv "$Q" "$mem.notes|join(\" \")" | grep -c "likely the host's")" 0
	fi
else
	skip "mem: the LLC the size rule used" "bench mem did not run in the quick report"
	skip "mem: the note on the reported LLC" "bench mem did not run in the quick report"
fi
# a benchmark the budget cut short names what took the time, and guesses no busy machine
over=$(jqv "$Q" '[.benchmarks[]|((.notes // []) + [.reason // empty])[]|select(test("budget"))]|.[]')
is "budget notes never blame a busy machine" "$(printf '%s' "$over" | grep -c 'busy machine')" 0
if [ -n "$over" ]; then
	like "a budget note names the benchmarks that took the time" "$over" \
		'used up after [0-9]+ s \(bench [a-z]+ took [0-9]+ s'
else
	skip "a budget note names the benchmarks that took the time" "the quick report stayed within 15 s"
fi
# the figures of a quick run carry that caveat
is "key numbers: measured figures say quick run" \
	"$(jqv "$Q" '[.key_numbers[]|select(.value!=null)|select(.caveats|index("quick run")|not)]|length')" 0
H=$TMP/q/report.html
like "html: key numbers before the findings" "$(grep -o 'id="key-numbers"\|id="findings"' "$H" | tr '\n' ' ')" '^id="key-numbers" id="findings"'
for a in $(sed -n '/<section id="key-numbers">/,/<\/section>/p' "$H" | grep -o 'href="#[^"]*"' | sort -u | sed 's/href="#//;s/"$//'); do
	like "html: key numbers link #$a has its target" "$(cat "$H")" "id=\"$a\""
done
# the key numbers open the report, after the "unreliable: ..." line that qualifies them
# when there is one
like "md: key numbers table first" "$(sed -n 5p "$TMP/q/report.md" | sed 's/^> \*\*unreliable: .*/unreliable/')" '^(## Key numbers|unreliable)$'
if [ "$(sed -n 5p "$TMP/q/report.md" | cut -c1-15)" = '> **unreliable:' ]; then
	like "md: key numbers right after the unreliable line" "$(sed -n 7p "$TMP/q/report.md")" '^## Key numbers$'
fi

like "html has the benchmark section" "$(cat "$TMP/q/report.html")" '<h2 id="benchmarks">'

ok "report --no-bench" "$PERFLAB" report --no-bench -o "$TMP/nb"
is "--no-bench: no benchmarks" "$(jqv "$TMP/nb/report.json" '.benchmarks|length')" "0"
ok "report --sysroot fixture" "$PERFLAB" report --sysroot "$FX/xen-hvm" -o "$TMP/sx"
ok "report --sysroot dimm-2s" "$PERFLAB" report --sysroot "$FX/dimm-2s" -o "$TMP/sd"
is "key numbers: the memory reference is the DIMM channels' theoretical peak (11 of 12 channels x MT/s x 8 B)" \
	"$(jqv "$TMP/sd/report.json" '.key_numbers[]|select(.name=="memory")|.reference')" \
	"theoretical peak $(printf %.1f "$(jqv "$TMP/sd/report.json" '.facts["dimm.peak_bandwidth_gbps"].value')") GB/s (11 of 12 channels populated x MT/s x 8 B, SMBIOS)"
like "report.md shows it too" "$(cat "$TMP/sd/report.md")" '\| memory \| not measured .*theoretical peak 256\.0 GB/s'
# arrays of 256 MiB each, past the fixture's 300 MiB LLC: the triad is memory bandwidth
jq '.info.array_bytes = 268435456' "$PERFLAB_SRCDIR/tests/report/fixtures/bench-mem.json" >"$TMP/mem256.json"
ok "report --sysroot dimm-2s --from a saved bench mem" "$PERFLAB" report --sysroot "$FX/dimm-2s" \
	--from "$TMP/mem256.json" -o "$TMP/sdm"
is "key numbers: the triad's share of the peak (0.525 of 255.968 GB/s)" \
	"$(jqv "$TMP/sdm/report.json" '.key_numbers[]|select(.name=="memory")|.reference')" \
	"theoretical peak 256.0 GB/s (11 of 12 channels populated x MT/s x 8 B, SMBIOS): triad at 0.2% of it"
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
