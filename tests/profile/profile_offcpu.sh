#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab profile --off-cpu, the collection: with '-- CMD', '-p PID' and '-a' it records
# scheduler events beside the sampling (the off-CPU report with its lost-event line); as
# an unprivileged user (uid 65534) the tracepoints are refused with one line naming what
# and the fix, exit 3 (with --wall too); bad input (--region with --off-cpu or --wall, -p
# of a process that is gone, --timeline 0) is one line naming the input, exit 2, as any
# user; -v prints the analysis time; the wakers' stacks hold kernel frames only. ~5 s.
. "$PERFLAB_SRCDIR/tests/lib.sh"
: "${PROFILE_SLEEPER:?}"

if [ "$(id -u)" != 0 ]; then
	skip "--off-cpu as root" "the tests do not run as root (the sched tracepoints need it)"
else
	ok "-- CMD: exit 0" "$PERFLAB" profile --off-cpu -- "$PROFILE_SLEEPER"
	like "-- CMD: the off-CPU report" "$(cat "$ERR")" "off-CPU \\(sched_switch, sched_waking; 1 threads?\\)"
	# the losses are said only when not 0, in the singular for 1
	is "-- CMD: no losses line for a count of 0" "$(grep -cE ' 0 (scheduler events|intervals) ' "$ERR")" 0
	is "-- CMD: no plural for 1" "$(grep -cE ' 1 (scheduler events|intervals|gaps)( |$)' "$ERR")" 0
	like "-- CMD: the sampling report is still there" "$(cat "$ERR")" "profile of '"
	sleep 10 &
	PID=$!
	ok "-p PID: exit 0" "$PERFLAB" profile --off-cpu -p "$PID" -d 0.3
	like "-p PID: the off-CPU report" "$(cat "$OUT")" "off-CPU \\(sched_switch, sched_waking; 1 threads?\\)"
	like "-p PID: a process asleep throughout is off CPU throughout" "$(cat "$OUT")" "off CPU 100\\.0% of the threads' time"
	# --json with -p: stdout is the document alone, the notes go to stderr
	ok "-p PID --json: exit 0" "$PERFLAB" profile --off-cpu --json -p "$PID" -d 0.3
	is "-p PID --json: stdout is one JSON document" "$(jq -s 'length' "$OUT" 2>&1)" 1
	is "-p PID --json: with the off_cpu member" "$(jq -r '.off_cpu | type' "$OUT")" object
	is "-p PID --json: nothing of it on stderr" "$(grep -c '^[{}]' "$ERR")" 0
	# -p without -d runs until Ctrl-C (as perf record -p): SIGINT ends it with the report
	"$PERFLAB" profile --off-cpu -p "$PID" >"$TMP/int.out" 2>"$TMP/int.err" &
	ppid=$!
	sleep 1.5
	kill -INT "$ppid"
	wait "$ppid"
	is "-p PID until Ctrl-C: exit 0" "$?" 0
	like "-p PID until Ctrl-C: the off-CPU report written" "$(cat "$TMP/int.out")" \
		"off CPU 100\\.0% of the threads' time"
	kill "$PID" 2>/dev/null
	wait "$PID" 2>/dev/null
	ok "-a: exit 0" "$PERFLAB" profile --off-cpu -a -d 0.3
	like "-a: the off-CPU report" "$(cat "$OUT")" "off-CPU \\(sched_switch, sched_waking; [1-9][0-9]* threads?\\)"
	# -v: the analysis time (benchmarks/offcpu-vs-perf.sh reads it); the wakers' stacks
	# are the kernel path only (no user frames are recorded at sched_waking): cat blocks
	# in read until the subshell's echo, a user task, writes the pipe and wakes it
	ok "-v: exit 0" "$PERFLAB" -v profile --off-cpu --json -o "$TMP/off.json" -- \
		sh -c '(sleep 0.1; echo a) | cat >/dev/null'
	like "-v: the off-CPU analysis time and event count" "$(cat "$ERR")" \
		"off-CPU analysis: [0-9.]+ ms for [1-9][0-9]* events \([0-9]+ ns per event; sort [0-9.]+ ms\)"
	is "wakers' frames: kernel only" "$(jqv "$TMP/off.json" \
		'[.off_cpu.stacks[].wakers[].frames[] | select(.kernel | not)] | length')" "0"
	like "wakers' frames: some recorded" "$(jqv "$TMP/off.json" \
		'[.off_cpu.stacks[].wakers[].frames[]] | length')" "^[1-9]"
fi

# bad input: one line naming it and the fix, exit 2, before anything is opened
bad() { # name regex args...
	local name=$1 re=$2
	shift 2
	expect_exit 2 "$name: exit 2" "$PERFLAB" profile "$@"
	is "$name: one line" "$(wc -l <"$ERR")" 1
	like "$name: names the input" "$(cat "$ERR")" "$re"
}
bad "--off-cpu --region" "^perflab profile: (error: )?--region with --off-cpu: .*drop one" \
	--off-cpu --region r -- "$PROFILE_SLEEPER"
bad "--wall --region" "^perflab profile: (error: )?--region with --wall: .*drop one" \
	--wall --region r --json -- "$PROFILE_SLEEPER"
sleep 0 &
gone=$!
wait "$gone"
bad "--off-cpu -p of a process that is gone" "-p '$gone': no process $gone is running" \
	--off-cpu -p "$gone" -d 0.2
bad "--wall --timeline 0" "--timeline must be between 1 and [0-9]+, got 0" \
	--wall --timeline 0 -- "$PROFILE_SLEEPER"

# uid 65534 without capabilities: tracefs (root-only here) or the open is refused
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	skip "--off-cpu refused to an unprivileged user" "the tests do not run as root (cannot switch to uid 65534)"
elif ! setpriv --reuid=65534 --regid=65534 --clear-groups "$PERFLAB" --version >/dev/null 2>&1; then
	skip "--off-cpu refused to an unprivileged user" "uid 65534 cannot run $PERFLAB (build dir not readable)"
else
	NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all)
	expect_exit 3 "unprivileged: exit 3" "${NOBODY[@]}" "$PERFLAB" profile --off-cpu -- "$PROFILE_SLEEPER"
	m=$(cat "$ERR")
	is "unprivileged: one line" "$(wc -l <"$ERR")" 1
	like "unprivileged: names --off-cpu and what was refused" "$m" "^perflab profile: (error: )?--off-cpu: .*(refused|not available)"
	like "unprivileged: names the fix" "$m" "(run as root|CAP_PERFMON|perf_event_paranoid)"
	expect_exit 3 "unprivileged --wall --json: exit 3" "${NOBODY[@]}" "$PERFLAB" profile --wall --json -- "$PROFILE_SLEEPER"
	is "unprivileged --wall --json: one line, nothing on stdout" "$(wc -l <"$ERR") $(wc -c <"$OUT")" "1 0"
	like "unprivileged --wall --json: names --off-cpu" "$(cat "$ERR")" "^perflab profile: (error: )?--off-cpu: .*(refused|not available)"
fi
done_testing
