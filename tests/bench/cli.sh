#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab bench: the command line, bad input (exit 2 with one clear line), SIGINT, and the
# clock benchmark's vDSO detection.
. "$PERFLAB_SRCDIR/tests/lib.sh"

expect_exit 2 "bench without a name" "$PERFLAB" bench
like "without a name points to --list" "$(cat "$ERR")" "bench --list"
expect_exit 2 "unknown benchmark" "$PERFLAB" bench frobnicate
like "unknown benchmark is named" "$(cat "$ERR")" "unknown benchmark 'frobnicate'"
ok "bench --help" "$PERFLAB" bench --help
like "bench --help lists the benchmarks" "$(cat "$OUT")" 'clock +ns per call'
ok "bench clock --help" "$PERFLAB" bench clock --help
like "help comes from the option table" "$(cat "$OUT")" '--all-clocksources'
like "help shows the runner options" "$(cat "$OUT")" '--min-time S'
like "help shows defaults" "$(cat "$OUT")" 'default: 40ms'
ok "help bench" "$PERFLAB" help bench
expect_exit 2 "bad --cpus list" "$PERFLAB" bench clock --cpus 1-x
like "bad --cpus names the option" "$(cat "$ERR")" "--cpus: '1-x' is not a CPU list"
expect_exit 2 "offline CPU" "$PERFLAB" bench clock --cpus 4095
like "offline CPU is named with the online list" "$(cat "$ERR")" "CPU 4095 is offline or does not exist \(online CPUs: [0-9]"
expect_exit 2 "--runs 0" "$PERFLAB" bench clock --runs 0
like "--runs range" "$(cat "$ERR")" "--runs must be between 1 and"
expect_exit 2 "bad --batch" "$PERFLAB" bench clock --batch fast
expect_exit 2 "unknown benchmark option" "$PERFLAB" bench clock --size 1G
like "unknown option points to the benchmark help" "$(cat "$ERR")" "see 'perflab bench clock --help'"
expect_exit 2 "stray argument" "$PERFLAB" bench clock extra
expect_exit 2 "--sysroot is refused" "$PERFLAB" bench clock --sysroot "$TMP"
like "--sysroot refusal says why" "$(cat "$ERR")" "live system"
expect_exit 2 "--membind to a missing node" "$PERFLAB" bench clock --membind 63 --runs 1
like "--membind names the node" "$(cat "$ERR")" "node 63 does not exist"
expect_exit 2 "-o into a missing directory" "$PERFLAB" bench clock --quick -o /nonexistent/dir/x.json
like "-o error names the file" "$(cat "$ERR")" "/nonexistent/dir/x.json"

# --all-clocksources needs root: run it as nobody
if [ "$(id -u)" -ne 0 ]; then
	expect_exit 2 "non-root --all-clocksources" "$PERFLAB" bench clock --all-clocksources --quick
	like "non-root --all-clocksources says why" "$(cat "$ERR")" "needs root"
elif command -v setpriv >/dev/null && setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null &&
	setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$PERFLAB"; then
	expect_exit 2 "non-root --all-clocksources (as nobody)" \
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$PERFLAB" bench clock --all-clocksources --quick
	like "non-root --all-clocksources says why" "$(cat "$ERR")" "needs root"
else
	skip "non-root --all-clocksources" "cannot drop to nobody with setpriv (or nobody cannot run $PERFLAB)"
fi
# as root with a single clocksource: measured under it, and the note says why
ncs=$(wc -w </sys/devices/system/clocksource/clocksource0/available_clocksource 2>/dev/null || echo 0)
if [ "$(id -u)" -eq 0 ] && [ "$ncs" -eq 1 ]; then
	ok "--all-clocksources with one clocksource" "$PERFLAB" bench clock --all-clocksources --quick --json -o "$TMP/acs.json"
	like "the note says why it is skipped" "$(jqv "$TMP/acs.json" '.notes[]')" 'only one clocksource is available'
else
	skip "--all-clocksources with one clocksource" "this machine has $ncs clocksources or is not root"
fi

# clock: real values. The vDSO path is far cheaper than the forced system call and the
# seccomp probe sees it (on this kvm-clock VM every clock_gettime goes through the vDSO).
ok "bench clock --json" "$PERFLAB" bench clock --quick --json -o "$TMP/clock.json"
vdso=$(jq -r '.metrics[] | select(.name == "clock_gettime(MONOTONIC)") | .median' "$TMP/clock.json")
sys=$(jq -r '.metrics[] | select(.name == "clock_gettime(MONOTONIC) [syscall]") | .median' "$TMP/clock.json")
via=$(jq -r '.metrics[] | select(.name == "clock_gettime(MONOTONIC)") | .notes.via' "$TMP/clock.json")
forced=$(jq -r '.metrics[] | select(.name == "gettimeofday [syscall]") | .notes.via' "$TMP/clock.json")
is "forced syscall is labelled" "$forced" "syscall (forced)"
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)
case "$cs" in
tsc | kvm-clock | arch_sys_counter | hyperv_clocksource_tsc_page)
	is "clock_gettime(MONOTONIC) via the vDSO on $cs" "$via" vdso
	like "vDSO call ($vdso ns) at least 3x cheaper than the syscall ($sys ns)" \
		"$(awk -v a="$vdso" -v b="$sys" 'BEGIN { print (a * 3 < b) ? "yes" : "no" }')" yes
	;;
*) skip "vDSO expectation" "clocksource '$cs' may not have a vDSO clock" ;;
esac



# runner options: --min-time keeps repeating, --membind is recorded, --cpus pins
ok "--min-time" "$PERFLAB" bench spin --work 10ms --min-time 300ms --warmup 0 --json -o "$TMP/mt.json"
like "--min-time: at least 300 ms measured" "$(jq -r '.runner.elapsed_s >= 0.3' "$TMP/mt.json")" true
like "--min-time: more than one run" "$(jq -r '.runner.runs >= 2' "$TMP/mt.json")" true
ok "--membind 0 --cpus 0" "$PERFLAB" bench spin --quick --membind 0 --cpus 0 --json -o "$TMP/mb.json"
is "--membind recorded" "$(jqv "$TMP/mb.json" .runner.membind)" 0
is "--cpus recorded as pinned" "$(jqv "$TMP/mb.json" '"\(.runner.cpus) \(.runner.pinned) \(.environment.pinning)"')" "0 true pinned"

# mem: bad input, and the STREAM result is validated
expect_exit 2 "mem: array larger than memory" "$PERFLAB" bench mem --size 64TiB
like "mem: too large names the size and the limit" "$(cat "$ERR")" "--size 64.00 TiB: the three arrays .* do not fit in available memory .*use --size"
expect_exit 2 "mem: more threads than CPUs" "$PERFLAB" bench mem --quick --threads 8192
like "mem: --threads names the CPUs" "$(cat "$ERR")" "more threads than CPUs of the run"
expect_exit 2 "mem: bad size" "$PERFLAB" bench mem --size lots
ok "mem --quick --nt --json" "$PERFLAB" bench mem --quick --nt --json -o "$TMP/mem.json"
validate bench.schema.json "$TMP/mem.json"
like "mem: validated as STREAM validates" "$(jqv "$TMP/mem.json" .info.validation)" checkSTREAMresults
is "mem: STREAM kernels and the nt variants" "$(jq -r '[.metrics[].name] | join(" ")' "$TMP/mem.json")" \
	"copy copy_nt scale scale_nt add add_nt triad triad_nt memcpy sum"
is "mem: every rate is positive" "$(jq -r '[.metrics[] | select(.best > 0)] | length' "$TMP/mem.json")" 10
is "mem: one thread per CPU" "$(jqv "$TMP/mem.json" .info.threads)" "$(nproc)"
ok "mem --numa-matrix" "$PERFLAB" bench mem --quick --numa-matrix --runs 1 --json -o "$TMP/numa.json"
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
if [ "$nodes" -eq 1 ]; then
	is "numa matrix: one node, one cell (copy and triad)" "$(jq -r '[.metrics[].name] | join(",")' "$TMP/numa.json")" "copy cpu0 mem0,triad cpu0 mem0"
	like "numa matrix: says it is the single cell" "$(jqv "$TMP/numa.json" '.notes[]')" "one NUMA node"
else
	is "numa matrix: nodes x nodes x 2 cells" "$(jq -r '.metrics | length' "$TMP/numa.json")" "$((nodes * nodes * 2))"
fi

# ticks: bad input, and a real tick count on an ordinary CPU
expect_exit 2 "ticks: --cpu outside the run" "$PERFLAB" bench ticks --cpus 0 --cpu 1
like "ticks: --cpu names the CPUs of the run" "$(cat "$ERR")" "--cpu 1 is not one of the CPUs of the run \(0\)"
ok "ticks --json" "$PERFLAB" bench ticks --quick --json -o "$TMP/ticks.json"
validate bench.schema.json "$TMP/ticks.json"
cpu=$(jqv "$TMP/ticks.json" .info.cpu)
if [ "$(jqv "$TMP/ticks.json" .info.nohz_full)" = false ]; then
	like "ticks: an ordinary busy CPU $cpu takes >= 20 ticks/s" \
		"$(jq -r '.metrics[0].median >= 20' "$TMP/ticks.json")" true
else
	skip "ticks on an ordinary CPU" "CPU $cpu is nohz_full"
fi

# SIGINT: stops cleanly, prints what was measured, exit 130
"$PERFLAB" bench clock --runs 100000 --batch 5ms --json -o "$TMP/int.json" 2>"$TMP/int.err" &
pid=$!
sleep 3
kill -INT "$pid"
wait "$pid"
is "SIGINT exits 130" "$?" 130
validate bench.schema.json "$TMP/int.json"
is "SIGINT: status interrupted" "$(jqv "$TMP/int.json" .status)" interrupted
like "SIGINT: runs measured before it are kept" "$(jqv "$TMP/int.json" .runner.runs)" '^[1-9]'
like "SIGINT: the warning says so" "$(cat "$TMP/int.err")" 'interrupted: [0-9]+ of 100000 runs'
done_testing
