#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab profile --off-cpu, the collection: with '-- CMD', '-p PID' and '-a' it records
# scheduler events beside the sampling (the off-CPU report with its lost-event line); as an unprivileged user (uid 65534) the tracepoints are
# refused with one line naming what and the fix, exit 3. ~3 s.
. "$PERFLAB_SRCDIR/tests/lib.sh"
: "${PROFILE_SLEEPER:?}"

if [ "$(id -u)" != 0 ]; then
	skip "--off-cpu as root" "the tests do not run as root (the sched tracepoints need it)"
else
	ok "-- CMD: exit 0" "$PERFLAB" profile --off-cpu -- "$PROFILE_SLEEPER"
	like "-- CMD: the off-CPU report" "$(cat "$ERR")" "off-CPU \\(sched_switch, sched_waking; 1 threads?\\)"
	like "-- CMD: lost events counted" "$(cat "$ERR")" "[0-9]+ scheduler events lost in [0-9]+ gaps"
	like "-- CMD: the sampling report is still there" "$(cat "$ERR")" "profile of '"
	sleep 5 &
	PID=$!
	ok "-p PID: exit 0" "$PERFLAB" profile --off-cpu -p "$PID" -d 0.3
	like "-p PID: the off-CPU report" "$(cat "$OUT")" "[0-9]+ scheduler events lost in [0-9]+ gaps"
	like "-p PID: a process asleep throughout is off CPU throughout" "$(cat "$OUT")" "off CPU 100\\.0% of the threads' time"
	kill "$PID" 2>/dev/null
	wait "$PID" 2>/dev/null
	ok "-a: exit 0" "$PERFLAB" profile --off-cpu -a -d 0.3
	like "-a: the off-CPU report" "$(cat "$OUT")" "off-CPU \\(sched_switch, sched_waking; [1-9][0-9]* threads?\\)"
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
