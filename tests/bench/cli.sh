#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab bench: the command line, bad input (exit 2 with one clear line), SIGINT, and the
# clock benchmark's vDSO detection.
. "$PERFLAB_SRCDIR/tests/lib.sh"
# This machine's CPUs and nodes, read here (never assumed): the CPUs this process may use,
# the NUMA nodes with memory, and numbers beyond what exists.
expand() { /usr/bin/python3 -c 'import sys
out = []
for part in sys.argv[1].split(","):
    if part:
        a, _, b = part.partition("-")
        out += range(int(a), int(b or a) + 1)
print(" ".join(map(str, out)))' "$1"; }
ALLOWED=$(expand "$(awk '/^Cpus_allowed_list:/ { print $2 }' /proc/self/status)")
CPU=${ALLOWED%% *}
MEMNODES=
for d in /sys/devices/system/node/node[0-9]*; do
	[ -r "$d/meminfo" ] && awk '/MemTotal/ { exit !($4 > 0) }' "$d/meminfo" && MEMNODES="$MEMNODES ${d##*node}"
done
MEMNODES=$(echo $MEMNODES | tr ' ' '\n' | sort -n | tr '\n' ' ' | sed 's/ $//')
NODE=${MEMNODES%% *}
NOCPU=$(($(expand "$(cat /sys/devices/system/cpu/possible)" | tr ' ' '\n' | sort -n | tail -1) + 1))
NONODE=$(($(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | sed 's/.*node//' | sort -n | tail -1) + 1))

expect_exit 2 "bench without a name" "$PERFLAB" bench
like "without a name points to --list" "$(cat "$ERR")" "bench --list"
expect_exit 2 "unknown benchmark" "$PERFLAB" bench frobnicate
like "unknown benchmark is named" "$(cat "$ERR")" "unknown benchmark 'frobnicate'"
ok "bench --help" "$PERFLAB" bench --help
like "bench --help lists the benchmarks" "$(cat "$OUT")" 'clock +yes +ns per call'
ok "bench clock --help" "$PERFLAB" bench clock --help
like "help comes from the option table" "$(cat "$OUT")" '--all-clocksources'
like "help shows the runner options" "$(cat "$OUT")" '--min-time S'
like "help shows defaults" "$(cat "$OUT")" 'default: 40ms'
ok "help bench" "$PERFLAB" help bench
ok "bench --list" "$PERFLAB" bench --list
is "--list header: name, whether it runs here, what it measures" "$(head -1 "$OUT")" "benchmark  here  measures"
is "--list: every benchmark says yes or no" \
	"$(awk 'NR > 1 && $1 !~ /^(note|not):?$/ && $2 !~ /^(yes|no)$/' "$OUT")" ""
is "--list: a 'no' is followed by the reason" \
	"$(awk 'prev == "no" && $1 != "not" { print "missing reason" } NR > 1 { prev = $2 }' "$OUT")" ""
expect_exit 2 "bad --cpus list" "$PERFLAB" bench clock --cpus 1-x
like "bad --cpus names the option" "$(cat "$ERR")" "--cpus: '1-x' is not a CPU list"
expect_exit 2 "CPU beyond the possible ones ($NOCPU)" "$PERFLAB" bench clock --cpus "$NOCPU"
like "offline CPU is named with the online list" "$(cat "$ERR")" "CPU $NOCPU is not online \(online CPUs: [0-9]"
ok "--runs 1 (text)" "$PERFLAB" bench clock --runs 1 --warmup 0
like "text: one run is singular" "$(sed -n 2p "$OUT")" '^1 run \(\+0 warm-up\) in '
# the tail legend names the latency table only where one is printed
ok "clock --runs 2 (text)" "$PERFLAB" bench clock --runs 2 -w 0
like "clock: the tail legend is printed" "$(cat "$OUT")" '\(worst run: of the runs'
is "clock: no latency table, and the legend names none" \
	"$(grep -c -e 'latency table' -e '^  latency  *p50' "$OUT")" 0
# -w/--warmup (perflab(1), OPTION LETTERS) for every benchmark
ok "-w 2" "$PERFLAB" bench spin --work 1ms --runs 1 -w 2 --json -o "$TMP/w.json"
is "-w 2: two warm-up runs" "$(jqv "$TMP/w.json" .runner.warmup)" 2
for b in $("$PERFLAB" bench --list | awk 'NR > 1 && $2 ~ /^(yes|no)$/ { print $1 }'); do
	like "bench $b --help offers -w, --warmup" "$("$PERFLAB" bench "$b" --help)" "-w, --warmup N"
done
expect_exit 2 "--runs 0" "$PERFLAB" bench clock --runs 0
like "--runs range" "$(cat "$ERR")" "--runs must be between 1 and"
expect_exit 2 "bad --batch" "$PERFLAB" bench clock --batch fast
expect_exit 2 "unknown benchmark option" "$PERFLAB" bench clock --size 1G
like "unknown option points to the benchmark help" "$(cat "$ERR")" "see 'perflab bench clock --help'"
expect_exit 2 "stray argument" "$PERFLAB" bench clock extra
expect_exit 2 "--sysroot is refused" "$PERFLAB" bench clock --sysroot "$TMP"
like "--sysroot refusal says why" "$(cat "$ERR")" "live system"
expect_exit 2 "--membind to a missing node ($NONODE)" "$PERFLAB" bench clock --membind "$NONODE" --runs 1
like "--membind names the node" "$(cat "$ERR")" "node $NONODE does not exist"
# the nodes there are as the kernel's list writes them ("0" on one node, never "0-0")
is "--membind lists the nodes as the kernel does" "$(sed -n 's/.*(nodes: \([^;]*\);.*/\1/p' "$ERR")" \
	"$(cat /sys/devices/system/node/online)"
# -o checked before the run: a long run (--min-time 30s) ends at once, nothing measured
for o in /nonexistent/dir/x.json "$TMP"; do
	start=$SECONDS
	expect_exit 2 "-o $o: refused" "$PERFLAB" bench spin --min-time 30s -o "$o"
	is "-o $o: one line naming the file and the fix" "$(cat "$ERR")" \
		"perflab bench spin: error: cannot write '$o': $([ "$o" = "$TMP" ] && echo 'Is a directory' || echo 'No such file or directory') (choose another -o FILE)"
	like "-o $o: refused before the run" "$((SECONDS - start))" '^[0-9]$'
	is "-o $o: nothing on stdout" "$(wc -c <"$OUT")" 0
done
# a CPU given twice is a slip in every -C/--cpus
for c in "clock --cpus 0,0,0" "net --cpus 0,0,0" "mem -C 0-1,1" "spin -C 0,0"; do
	expect_exit 2 "bench $c: refused" "$PERFLAB" bench $c --runs 1
	like "bench $c: names the CPU given twice" "$(cat "$ERR")" \
		"^perflab bench ${c%% *}: error: --cpus '[0-9,-]+': CPU [01] given more than once \\(give each CPU once\\)$"
done

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

# clock: real values. perflab's seccomp probe says whether clock_gettime(MONOTONIC) uses
# the vDSO; strace, counting the system calls of 1000 such calls from Python, reads the same
# independently (a kvm-clock without a stable TSC, or a clocksource without a vDSO mode,
# makes every call a system call). Where it is the vDSO, it is cheaper than the forced
# system call.
ok "bench clock --json" "$PERFLAB" bench clock --quick --json -o "$TMP/clock.json"
vdso=$(jq -r '.metrics[] | select(.name == "clock_gettime(MONOTONIC)") | .median' "$TMP/clock.json")
sys=$(jq -r '.metrics[] | select(.name == "clock_gettime(MONOTONIC) [syscall]") | .median' "$TMP/clock.json")
via=$(jq -r '.metrics[] | select(.name == "clock_gettime(MONOTONIC)") | .notes.via' "$TMP/clock.json")
forced=$(jq -r '.metrics[] | select(.name == "gettimeofday [syscall]") | .notes.via' "$TMP/clock.json")
is "forced syscall is labelled" "$forced" "syscall (forced)"
if command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null; then
	strace -f -qq -e trace=clock_gettime -o "$TMP/cg.strace" /usr/bin/python3 -c '
import time
for _ in range(1000): time.clock_gettime(time.CLOCK_MONOTONIC)'
	ncalls=$(grep -c 'CLOCK_MONOTONIC' "$TMP/cg.strace")
	want=$([ "$ncalls" -lt 1000 ] && echo vdso || echo syscall)
	is "clock_gettime(MONOTONIC) via $want, as strace counts ($ncalls system calls for 1000 calls)" "$via" "$want"
else
	skip "clock_gettime(MONOTONIC) via the vDSO or not, as strace sees it" "strace missing or ptrace not permitted"
fi
if [ "$via" = vdso ]; then
	like "vDSO call ($vdso ns) cheaper than the forced syscall ($sys ns)" \
		"$(awk -v a="$vdso" -v b="$sys" 'BEGIN { print (a * 1.5 < b) ? "yes" : "no" }')" yes
else
	skip "vDSO cheaper than the syscall" "clock_gettime(MONOTONIC) does not use the vDSO here"
fi

# runner options: --min-time keeps repeating, --membind is recorded, --cpus pins
ok "--min-time" "$PERFLAB" bench spin --work 10ms --min-time 300ms --warmup 0 --json -o "$TMP/mt.json"
like "--min-time: at least 300 ms measured" "$(jq -r '.runner.elapsed_s >= 0.3' "$TMP/mt.json")" true
like "--min-time: more than one run" "$(jq -r '.runner.runs >= 2' "$TMP/mt.json")" true
ok "--membind $NODE --cpus $CPU" "$PERFLAB" bench spin --quick --membind "$NODE" --cpus "$CPU" --json -o "$TMP/mb.json"
is "--membind recorded" "$(jqv "$TMP/mb.json" .runner.membind)" "$NODE"
is "--cpus recorded as pinned" "$(jqv "$TMP/mb.json" '"\(.runner.cpus) \(.runner.pinned) \(.environment.pinning)"')" "$CPU true pinned"
is "no --cpus: a single-threaded benchmark is unpinned" "$(jqv "$TMP/mt.json" '"\(.runner.pinned) \(.environment.pinning)"')" "false unpinned"
is "the spread threshold recorded (the runner's default)" "$(jqv "$TMP/mt.json" .runner.max_cv)" 0.05

# mem: bad input, and the STREAM result is validated
# an array as large as all memory (MemTotal, so three never fit): refused with the limit
big=$(awk '/^MemTotal:/ { print $2 * 1024 }' /proc/meminfo)
expect_exit 2 "mem: arrays larger than memory" "$PERFLAB" bench mem --size "$big"
like "mem: too large names the size and the limit" "$(cat "$ERR")" \
	"--size [0-9.]+ [KMGT]iB: the three arrays .* do not fit in available memory \(MemAvailable .*\); use --size [0-9]+MiB or less \(a third of MemAvailable"
lim=$(sed -n 's/.*use --size \([0-9]*\)MiB or less.*/\1/p' "$ERR")
avail=$(awk '/^MemAvailable:/ { print $2 * 1024 }' /proc/meminfo)
like "mem: the limit named is a third of MemAvailable, rounded down to a MiB ($lim MiB, MemAvailable $avail)" \
	"$(awk -v l="$lim" -v a="$avail" 'BEGIN { x = 3 * l * 1048576; print (x <= a * 1.05 && x >= a * 0.9) ? "yes" : "no" }')" yes
expect_exit 2 "mem: more threads than CPUs of the run" "$PERFLAB" bench mem --quick --cpus "$CPU" --threads 2
like "mem: --threads names the CPUs" "$(cat "$ERR")" "more threads than CPUs of the run"
expect_exit 2 "mem: bad size" "$PERFLAB" bench mem --size lots
expect_exit 2 "mem: a size below one page is bad input, not a failed allocation" \
	"$PERFLAB" bench mem --size 1
like "naming the smallest size" "$(cat "$ERR")" '--size must be between 4 KiB and .*got 1 B'
expect_exit 2 "mem: --size 0 is refused, not taken as the default" "$PERFLAB" bench mem --size 0
ok "mem --quick --nt --json" "$PERFLAB" bench mem --quick --nt --json -o "$TMP/mem.json"
validate bench.schema.json "$TMP/mem.json"
# the array size of --quick is --quick's, not a --size the user gave
is "mem --quick: the size reason is --quick" "$(jqv "$TMP/mem.json" .info.size_reason)" "--quick"
ok "mem --quick, text" "$PERFLAB" bench mem --quick --only sum --runs 1
like "mem --quick, text: size_reason: --quick" "$(cat "$OUT")" 'size_reason: --quick'
ok "mem --quick --size 32MiB" "$PERFLAB" bench mem --quick --size 32MiB --only sum --runs 1 --json
is "mem --quick --size: the size reason is --size" "$(jq -r .info.size_reason "$OUT")" "--size"
like "mem: validated as STREAM validates" "$(jqv "$TMP/mem.json" .info.validation)" checkSTREAMresults
is "mem: pins one thread per CPU itself, so the result says pinned without --cpus" \
	"$(jqv "$TMP/mem.json" '"\(.runner.pinned) \(.environment.pinning)"')" "true pinned"
is "mem: STREAM kernels and the nt variants" "$(jq -r '[.metrics[].name] | join(" ")' "$TMP/mem.json")" \
	"copy copy_nt scale scale_nt add add_nt triad triad_nt memcpy sum"
is "mem: every rate is positive" "$(jq -r '[.metrics[] | select(.best > 0)] | length' "$TMP/mem.json")" 10
is "mem: the triad is shown against the DIMM peak" \
	"$(jqv "$TMP/mem.json" '.info.reference | "\(.metric) \(.name) \(.unit)"')" "triad DIMM peak GB/s"
# Known (SMBIOS readable): the share is the triad's median over the peak; unknown (no
# SMBIOS table, not root): the text gives the reason and there is no share.
is "mem: DIMM peak share is the triad median over the peak, or unknown with a reason" \
	"$(jqv "$TMP/mem.json" '.info.reference as $r | ([.metrics[] | select(.name == "triad")][0].median) as $m
	  | if $r.value == null then ($r.text | startswith("unknown: ")) and ($r | has("share_pct") | not)
	    else ($r.share_pct - $m / $r.value * 100 | fabs) < 0.01 end')" true
is "mem: one thread per CPU this process may use" "$(jqv "$TMP/mem.json" .info.threads)" "$(echo $ALLOWED | wc -w)"
ok "mem --numa-matrix" "$PERFLAB" bench mem --quick --numa-matrix --runs 1 --json -o "$TMP/numa.json"
# the cells: every node with a CPU of the run x every node with memory, read from sysfs
want=
for d in /sys/devices/system/node/node[0-9]*; do
	n=${d##*node}
	for c in $(expand "$(cat "$d/cpulist")"); do
		case " $ALLOWED " in *" $c "*) for m in $MEMNODES; do want="$want copy cpu$n mem$m,triad cpu$n mem$m,latency cpu$n mem$m"; done; break ;; esac
	done
done
[ -z "$want" ] && want=" copy cpu0 mem0,triad cpu0 mem0,latency cpu0 mem0" # no NUMA sysfs: one node
is "numa matrix: (CPU node, memory node) bandwidth and latency cells as sysfs lists the nodes" \
	"$(jq -r '[.metrics[].name] | sort | join(",")' "$TMP/numa.json")" \
	"$(echo "${want# }" | tr ',' '\n' | sed 's/^ //' | sort | paste -sd, -)"
if [ "$(echo $MEMNODES | wc -w)" -le 1 ]; then
	like "numa matrix: says when it is the single cell" "$(jqv "$TMP/numa.json" '.notes[]')" "one NUMA node"
fi

# ticks: bad input, and a real tick count on an ordinary CPU
expect_exit 2 "ticks: --cpu outside the run" "$PERFLAB" bench ticks --cpus 0 --cpu 1
like "ticks: --cpu names the CPUs of the run" "$(cat "$ERR")" "--cpu 1 is not one of the CPUs of the run \(0\)"
ok "ticks --json" "$PERFLAB" bench ticks --quick --json -o "$TMP/ticks.json"
validate bench.schema.json "$TMP/ticks.json"
is "ticks: its own spread threshold and its busy loop pinned" "$(jqv "$TMP/ticks.json" '"\(.runner.max_cv) \(.runner.pinned)"')" "0.2 true"
cpu=$(jqv "$TMP/ticks.json" .info.cpu)
if [ -r /sys/devices/system/cpu/nohz_full ]; then
	nohz=$(cat /sys/devices/system/cpu/nohz_full)
	[ "$nohz" = "(null)" ] && nohz=
	is "ticks: nohz_full state of CPU $cpu as /sys/devices/system/cpu/nohz_full says" \
		"$(jqv "$TMP/ticks.json" .info.nohz_full)" \
		"$(case " $(expand "$nohz" 2>/dev/null) " in *" $cpu "*) echo true ;; *) echo false ;; esac)"
else
	skip "ticks: nohz_full state as sysfs says" "no /sys/devices/system/cpu/nohz_full (kernel without NO_HZ_FULL)"
fi
is "ticks: timer interrupts are a subset of all interrupts" \
	"$(jq -r '(.metrics[0].median <= .metrics[1].median)' "$TMP/ticks.json")" true
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
