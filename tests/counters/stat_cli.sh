#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab stat end to end: bad input (exit 2, one line naming the input, nothing written),
# --help and --list, the JSON against docs/schemas/stat.schema.json, groups, -I lines and
# JSON lines, --per-cpu and --per-socket against the whole (every CPU's task-clock adds
# up to the CPUs times the time elapsed, as the summed count does), -p on a sleeping
# process, a command's exit status reported (perflab's own exit 0), Ctrl-C (exit 130,
# counts kept). Counting needs perf_event_open: those checks skip with the reason.
. "$PERFLAB_SRCDIR/tests/lib.sh"
P=$PERFLAB
SLEEPS=$COUNTERS_NANOSLEEPS

# --- bad input: exit 2, one line naming the input, nothing on stdout --------------------
bad() { # NAME REGEX ARGS...
	local name=$1 re=$2
	shift 2
	expect_exit 2 "$name: exit 2" "$P" stat "$@"
	is "$name: one line on stderr" "$(wc -l <"$ERR")" 1
	like "$name: names the input" "$(cat "$ERR")" "$re"
	is "$name: nothing on stdout" "$(wc -c <"$OUT")" 0
}
bad "interval below 10 ms" "--interval" -I 5 -a
bad "interval not a number" "--interval" -I x -a
bad "CPU not a CPU here" "'9999'" -C 9999
bad "CPU list syntax" "(-C|--cpus)" -C x-
bad "pid not a number" "-p 'abc': 'abc' is not a process id" -p abc
bad "pid not running" "-p '2147483646': no process 2147483646 is running" -p 2147483646
bad "pid list with a hole" "-p '1,,2': an empty process id" -p 1,,2
bad "no target" "give what to count" -e task-clock
bad "-p and a command" "-p counts running processes" -p 1 -- true
bad "unknown event" "unknown event 'cyclez'" -e cyclez -- true
bad "unknown event in a list" "unknown event 'nosuch'" -e task-clock,nosuch -- true
bad "unterminated group" "-e '\{task-clock,cs': unterminated group" -e '{task-clock,cs' -- true
bad "unterminated PMU event" "-e 'cpu/event=0x3c': unterminated PMU event .*add the closing '/'" -e 'cpu/event=0x3c' -- true
bad "group closed twice" "without its" -e 'task-clock}' -- true
bad "empty event" "an empty event name" -e 'task-clock,,cs' -- true
bad "unknown metric" "unknown metric or group 'nosuch'" -M nosuch -- true
bad "per-cpu without CPUs" "--per-cpu needs counting on CPUs" --per-cpu -- true
bad "per-thread without -p" "--per-thread needs -p" --per-thread -a
bad "two per options" "give one of --per-cpu" --per-cpu --per-socket -a
bad "cgroup that does not exist" "--cgroup '/no-such-cgroup-here'" --cgroup /no-such-cgroup-here
bad "command that does not exist" "cannot run 'perflab-no-such-command'" -- perflab-no-such-command
bad "unwritable -o" "cannot write '/nonexistent/s.json'" -o /nonexistent/s.json -- true
bad "sysroot" "--sysroot: counting needs the live system" --sysroot "$FIXTURES/sysroots/xen-hvm" -- true
test ! -e "$TMP/partial.json"
expect_exit 2 "unknown event with -o: exit 2" "$P" stat -e cyclez -o "$TMP/partial.json" -- true
is "unknown event with -o: nothing written" "$(test -e "$TMP/partial.json" && echo yes)" ""

# --- help and list ------------------------------------------------------------------
ok "--help" "$P" stat --help
like "--help: usage" "$(cat "$OUT")" "perflab stat \[-e EVENT,...\]"
for o in --event --metrics --interval --all-cpus --cpus --pid --cgroup --per-cpu --per-socket \
	--per-thread --from --list; do
	like "--help lists $o" "$(cat "$OUT")" -- "$o"
done
ok "--list" "$P" stat --list
like "--list: software events" "$(cat "$OUT")" "task-clock +software"
like "--list: metrics with their formulas" "$(cat "$OUT")" "cpu_utilization .*task-clock"
ok "--list --json" "$P" stat --list --json -o "$TMP/list.json"
validate stat.schema.json "$TMP/list.json"
is "--list --json: page-faults is a software event" \
	"$(jq -r '.list_events[] | select(.name == "page-faults") | .kind' "$TMP/list.json")" software

# --- counting ----------------------------------------------------------------------
if ! "$P" stat -e task-clock -o "$TMP/probe.txt" -- true 2>"$TMP/probe.err"; then
	skip "counting" "perf_event_open is not usable here: $(head -c 300 "$TMP/probe.err")"
	done_testing
fi

core=$(jq -r .core_pmu "$TMP/list.json")
if [ "$core" = false ]; then
	expect_exit 3 "-e cycles without a core PMU: exit 3" "$P" stat -e cycles -- true
	like "-e cycles: names the event and the reason" "$(cat "$ERR")" \
		"^perflab stat: error: cannot count 'cycles': no core PMU"
	is "-e cycles: one line" "$(wc -l <"$ERR")" 1
	ok "default set without a core PMU" "$P" stat -o "$TMP/def.txt" -- true
	is "the missing core PMU said once" "$(grep -c 'no core PMU' "$TMP/def.txt")" 1
	is "no hardware rows in the default set" "$(grep -cE ' (cycles|instructions)$' "$TMP/def.txt")" 0
	# the metrics' formulas are this CPU's, core PMU or not: its events named unavailable
	kind=$(awk -F': *' '/^vendor_id/ { v = $2 } /^cpu family/ { f = $2 } /^model[ \t]*:/ { m = $2 }
		END { if (v == "GenuineIntel") print "intel";
		      else if (v == "AuthenticAMD") print ((f == 25 && m >= 16) || f >= 26) ? "amd-zen4" : "amd" }' /proc/cpuinfo)
	ok "-M topdown without a core PMU" "$P" stat --json -o "$TMP/td.json" -M topdown -- true
	validate stat.schema.json "$TMP/td.json"
	is "-M topdown: four metrics shown, no value" \
		"$(jq -r '[.metrics[] | select(.unavailable and (.value == null))] | length' "$TMP/td.json")" 4
	case $kind in
	amd-zen4) like "-M topdown: AMD's events unavailable ($kind)" \
		"$(jq -r '.metrics[].unavailable' "$TMP/td.json")" '^cpu/event=0x(c1|aa|1a0)[^ ]* not on this PMU' ;;
	intel) like "-M topdown: Intel's events unavailable ($kind)" \
		"$(jq -r '.metrics[].unavailable' "$TMP/td.json")" '(slots|topdown-)' ;;
	*) skip "-M topdown: the CPU's own events" "CPU kind '$kind' has no top-down formulas" ;;
	esac
else
	skip "-e cycles without a core PMU" "this machine has a core PMU"
fi

# the default set: text to stderr while the command runs, nothing on stdout
ok "default set, text" "$P" stat -- "$SLEEPS" 3
is "the command keeps stdout" "$(wc -c <"$OUT")" 0
for e in task-clock context-switches cpu-migrations page-faults; do
	like "default set: $e" "$(cat "$ERR")" " $e( |$)"
done
like "default set: CPUs utilized" "$(cat "$ERR")" "# +[0-9.]+ CPUs utilized"
like "default set: time elapsed" "$(cat "$ERR")" "[0-9.]+ seconds time elapsed"

# JSON, a group and a single event
ok "a group and an event, JSON" "$P" stat --json -o "$TMP/g.json" -e '{task-clock,page-faults},cs' -- "$SLEEPS" 5
validate stat.schema.json "$TMP/g.json"
is "three events in order" "$(jq -r '[.events[].event] | join(",")' "$TMP/g.json")" \
	"task-clock,page-faults,cs"
is "all counted, never multiplexed (software)" \
	"$(jq -r '[.events[] | .counted and .["pcnt-running"] == 100] | all' "$TMP/g.json")" true
like "context switches >= 5 nanosleeps" "$(jq -r '.events[2]["counter-value"] >= 5' "$TMP/g.json")" true
is "task-clock in msec" "$(jq -r '.events[0].unit' "$TMP/g.json")" msec
is "the software metrics of the counted events" \
	"$(jq -r '[.metrics[].metric] | sort | join(",")' "$TMP/g.json")" \
	"context_switch_rate,cpu_utilization,page_fault_rate"

# a command's exit status is reported, perflab exits 0
ok "command exiting 7: perflab exits 0" "$P" stat --json -o "$TMP/x.json" -e task-clock -- "$SLEEPS" 1 7
is "exit_status 7 in the JSON" "$(jq -r .exit_status "$TMP/x.json")" 7
validate stat.schema.json "$TMP/x.json"
ok "command exiting 7, text" "$P" stat -e task-clock -- "$SLEEPS" 1 7
like "the text says the status" "$(cat "$ERR")" "exited with status 7"

# -I: a line per event per interval, JSON lines
within() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; }
ok "-I 100, text" "$P" stat -a -I 100 -e task-clock,cs -o "$TMP/i.txt" -- "$SLEEPS" 350
n=$(grep -c ' task-clock' "$TMP/i.txt")
# one line per 100 ms up to the last line's time (the run's end, a partial interval); the
# run lasts 0.35 s and more on a busy machine
tl=$(grep ' task-clock' "$TMP/i.txt" | tail -1 | awk '{ print $1 }')
want=$(awk -v t="$tl" 'BEGIN { n = t / 0.1; printf "%d", (n == int(n)) ? n : int(n) + 1 }')
ok "-I 100: a task-clock line per 100 ms up to ${tl} s ($n lines, $want expected)" \
	within "$n" "$want" 1
ok "-I 100: at least 3 intervals in 0.35 s ($n)" test "$n" -ge 3
like "-I lines lead with the time" "$(grep ' task-clock' "$TMP/i.txt" | head -1)" '^ +0\.[0-9]{9} +[0-9.,]+ msec task-clock'
ok "-I 100, JSON lines" "$P" stat -a -I 100 --json -e task-clock -o "$TMP/i.jsonl" -- "$SLEEPS" 350
n=$(wc -l <"$TMP/i.jsonl")
tl=$(jq -s '.[-1].interval' "$TMP/i.jsonl")
want=$(awk -v t="$tl" 'BEGIN { n = t / 0.1; printf "%d", (n == int(n)) ? n : int(n) + 1 }')
ok "-I --json: one object per interval up to ${tl} s ($n, $want expected)" within "$n" "$want" 1
ok "-I --json: at least 3 intervals in 0.35 s ($n)" test "$n" -ge 3
head -1 "$TMP/i.jsonl" >"$TMP/i1.json"
validate stat.schema.json "$TMP/i1.json"
is "-I --json: intervals increase" "$(jq -s '[.[].interval] | . == (sort | unique)' "$TMP/i.jsonl")" true
ncpu=$(jq -s '.[0].events[0]["counter-value"] / (.[0].elapsed_s * 1000) | . + 0.5 | floor' "$TMP/i.jsonl")
is "-a -I: task-clock per interval = CPUs x interval" "$ncpu" "$(nproc)"

# --per-cpu and --per-socket against the summed count: every online CPU counted, and the
# per-CPU task-clock adds up to CPUs x elapsed, as the summed count does
ok "-a, summed" "$P" stat -a --json -o "$TMP/sum.json" -e task-clock -- "$SLEEPS" 100
ok "-a --per-cpu" "$P" stat -a --per-cpu --json -o "$TMP/cpu.json" -e task-clock -- "$SLEEPS" 100
validate stat.schema.json "$TMP/cpu.json"
is "--per-cpu: one value per online CPU" "$(jq '.events | length' "$TMP/cpu.json")" "$(nproc)"
share() { jq '([.events[]["counter-value"]] | add) / (.elapsed_s * 1000)' "$1"; }
sc=$(share "$TMP/cpu.json")
ss=$(share "$TMP/sum.json")
ok "--per-cpu sum / elapsed = CPUs ($sc vs $(nproc))" within "$sc" "$(nproc)" 0.05
ok "summed / elapsed = CPUs ($ss vs $(nproc))" within "$ss" "$(nproc)" 0.05
ok "-a --per-socket" "$P" stat -a --per-socket --json -o "$TMP/sock.json" -e task-clock -- "$SLEEPS" 100
validate stat.schema.json "$TMP/sock.json"
sk=$(share "$TMP/sock.json")
ok "--per-socket sum / elapsed = CPUs ($sk)" within "$sk" "$(nproc)" 0.05
nsock=$(cat /sys/devices/system/cpu/cpu*/topology/physical_package_id 2>/dev/null | sort -u | wc -l)
is "--per-socket: one value per socket" "$(jq '.events | length' "$TMP/sock.json")" "$nsock"

# -p on a sleeping process: ends when it exits, counts its threads
sleep 0.6 &
pid=$!
ok "-p on a sleeping process" "$P" stat -p "$pid" --per-thread --json -o "$TMP/p.json" -e task-clock,cs
wait "$pid" 2>/dev/null
validate stat.schema.json "$TMP/p.json"
is "-p: the process's one thread" "$(jq -r '[.events[].thread] | unique | join(",")' "$TMP/p.json")" "$pid"
is "-p: its name" "$(jq -r '.events[0].comm' "$TMP/p.json")" sleep
like "-p: ran until it exited" "$(jq -r '.elapsed_s > 0.2 and .elapsed_s < 5' "$TMP/p.json")" true

# --cgroup: K nanosleeps of a process moved into a new cgroup (root, a cgroup2 mount)
cg2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
cg=perflab-stat-test-$$
if [ -z "$cg2" ]; then
	skip "--cgroup" "no cgroup2 file system is mounted"
elif ! mkdir "$cg2/$cg" 2>/dev/null; then
	skip "--cgroup" "cannot create a cgroup under $cg2 (root needed)"
else
	(echo "$BASHPID" >"$cg2/$cg/cgroup.procs" &&
		exec "$P" stat --cgroup "/$cg" --json -o "$TMP/cg.json" -e cs -- "$SLEEPS" 50) >"$OUT" 2>"$ERR"
	is "--cgroup: exit 0" "$?" 0
	validate stat.schema.json "$TMP/cg.json"
	is "--cgroup: target cgroup" "$(jq -r .target "$TMP/cg.json")" cgroup
	like "--cgroup: >= 50 context switches of 50 nanosleeps" \
		"$(jq -r '.events[0]["counter-value"] >= 50' "$TMP/cg.json")" true
	for _ in 1 2 3 4 5 6 7 8 9 10; do rmdir "$cg2/$cg" 2>/dev/null && break; sleep 0.2; done
fi

# Ctrl-C ends -a with the final reading and exit 130
"$P" stat -a -e task-clock --json -o "$TMP/int.json" >"$OUT" 2>"$ERR" &
spid=$!
sleep 0.5
kill -INT "$spid"
wait "$spid"
is "SIGINT: exit 130" "$?" 130
validate stat.schema.json "$TMP/int.json"
is "SIGINT: marked interrupted" "$(jq -r .interrupted "$TMP/int.json")" true
like "SIGINT: counted until then" "$(jq -r '.events[0]["counter-value"] > 0' "$TMP/int.json")" true

done_testing
