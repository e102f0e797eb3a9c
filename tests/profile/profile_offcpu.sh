#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab profile --off-cpu, the collection: with '-- CMD', '-p PID' and '-a' it records
# scheduler events (the off-CPU report with its threads and lost events) beside the
# sampling; as an unprivileged user (uid 65534) the tracepoints are
# refused with one line naming what and the fix, exit 3; -v prints the analysis time; the
# wakers' stacks hold kernel frames only. ~4 s.
. "$PERFLAB_SRCDIR/tests/lib.sh"
: "${PROFILE_SLEEPER:?}"

if [ "$(id -u)" != 0 ]; then
	skip "--off-cpu as root" "the tests do not run as root (the sched tracepoints need it)"
else
	ok "-- CMD: exit 0" "$PERFLAB" profile --off-cpu -- "$PROFILE_SLEEPER"
	like "-- CMD: the off-CPU report" "$(cat "$ERR")" "off-CPU \(sched_switch, sched_waking; [1-9][0-9]* threads\)"
	like "-- CMD: lost events counted" "$(cat "$ERR")" "[0-9]+ scheduler events lost in [0-9]+ gaps"
	like "-- CMD: the sampling report is still there" "$(cat "$ERR")" "profile of '"
	sleep 5 &
	PID=$!
	ok "-p PID: exit 0" "$PERFLAB" profile --off-cpu -p "$PID" -d 0.3
	like "-p PID: the off-CPU report" "$(cat "$OUT")" "off-CPU \(sched_switch, sched_waking; [0-9]+ threads\)"
	kill "$PID" 2>/dev/null
	wait "$PID" 2>/dev/null
	ok "-a: exit 0" "$PERFLAB" profile --off-cpu -a -d 0.3
	like "-a: the off-CPU report" "$(cat "$OUT")" "off-CPU \(sched_switch, sched_waking; [1-9][0-9]* threads\)"
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
fi
done_testing
