#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab profile --syscalls through ptrace (the fallback when the tracepoints are not
# usable): counts equal strace -c -f's, the automatic fallback for a non-root user, the
# errors column, threads, a forked child and an exec from a thread, group-stop and signal
# re-injection, Ctrl-C and a killed perflab leave nothing stopped or traced, -a refused.
# Needs perf_event_open and ptrace (skips with the reason otherwise); ~1-2 min here,
# most of it the 100,000 open+close run under ptrace and under strace.
. "$PERFLAB_SRCDIR/tests/lib.sh"
: "${PROFILE_OPENCLOSE:?}" "${PROFILE_SCTHREADS:?}"

# `-a` is impossible with ptrace: one line, exit 2, before anything is opened.
expect_exit 2 "--syscalls-via ptrace -a is a usage error" "$PERFLAB" profile --syscalls-via ptrace -a
is "-a refusal is one line" "$(wc -l <"$ERR")" 1
like "-a refusal names the fix" "$(cat "$ERR")" "cannot trace -a.*'-- CMD' or '-p PID'"
expect_exit 2 "unknown --syscalls-via" "$PERFLAB" profile --syscalls-via dtrace -- true

# The prerequisites are probed on their own (perf_event_open through a plain profile,
# ptrace through strace); past them a failure of perflab is a test failure, not a skip.
if ! command -v strace >/dev/null; then
	skip "ptrace syscall tests" "strace not installed (scripts/install-deps.sh test)"
	done_testing
fi
if ! "$PERFLAB" profile -q -- true >"$OUT" 2>"$ERR"; then
	skip "ptrace syscall tests" "perf_event_open unavailable: $(head -c 300 "$ERR")"
	done_testing
fi
if ! strace -o /dev/null true 2>"$ERR"; then
	skip "ptrace syscall tests" "ptrace unavailable (strace fails): $(head -c 300 "$ERR")"
	done_testing
fi
ok "ptrace: the simplest command" "$PERFLAB" profile -q --syscalls-via ptrace -- true

# --syscalls-via auto implies --syscalls (the table is printed).
# (with a command the report is on stderr: the command keeps stdout)
"$PERFLAB" profile --syscalls-via auto -- true >"$OUT" 2>"$ERR"
like "--syscalls-via auto alone prints the syscall table" "$(grep -c '^syscalls (' "$ERR")" '^1$'

# strace -c -f table -> "name calls errors" lines, sorted; drop rows matching $2 (regex).
strace_rows() { # file [exclude]
	awk -v ex="${2:-^$}" 'NF >= 5 && $1 ~ /^[0-9.]+$/ && $NF != "total" && $NF !~ ex {
		print $NF, $4, (NF == 6 ? $5 : 0) }' "$1" | sort
}
our_rows() { # json [exclude]
	jq -r --arg ex "${2:-^$}" '.syscalls.rows[] | select(.name | test($ex) | not) |
		"\(.name) \(.calls) \(.errors)"' "$1" | sort
}
# first_child PID: poll (10 s at most) for a child of PID; prints its pid (or nothing).
first_child() {
	local c
	for _ in $(seq 200); do
		c=$(pgrep -P "$1" 2>/dev/null | head -1)
		[ -n "$c" ] && { echo "$c"; return 0; }
		sleep 0.05
	done
	return 1
}
row() { jq -r --arg n "$2" "[.syscalls.rows[] | select(.name == \$n) | .$3] | add // 0" "$1"; }

# (1) 100,000 open+close counted via ptrace equal strace -c -f exactly, every row.
S=$TMP/oc.json
ok "ptrace: 100,000 open+close" "$PERFLAB" profile --json -o "$S" --syscalls-via ptrace \
	-- "$PROFILE_OPENCLOSE" 100000
validate profile.schema.json "$S"
is "ptrace: method recorded" "$(jqv "$S" .syscalls.method)" ptrace
is "ptrace: no fallback when asked for" "$(jqv "$S" .syscalls.fallback)" null
is "ptrace: no call uncounted" "$(jqv "$S" .syscalls.uncounted)" 0
is "ptrace: no task detached alive" "$(jqv "$S" .syscalls.detached)" 0
is "ptrace: counts flagged exact" "$(jqv "$S" .syscalls.exact)" true
strace -c -f -o "$TMP/oc.strace" "$PROFILE_OPENCLOSE" 100000 >/dev/null 2>&1
strace_rows "$TMP/oc.strace" >"$TMP/want"
our_rows "$S" >"$TMP/got"
is "ptrace: openat equals strace -c" "$(row "$S" openat calls)" \
	"$(awk '$1 == "openat" { print $2 }' "$TMP/want")"
is "ptrace: close is 100,000 like strace -c" "$(row "$S" close calls)" \
	"$(awk '$1 == "close" { print $2 }' "$TMP/want")"
is "ptrace: every row (name, calls, errors) equals strace -c -f" "$(cat "$TMP/got")" "$(cat "$TMP/want")"
is "ptrace: the command's exit status" "$(jqv "$S" .exit_status)" 0
like "ptrace: samples were taken in parallel" "$(jqv "$S" .samples)" '^[1-9][0-9]*$'
"$PERFLAB" profile -o "$TMP/sc.txt" --syscalls-via ptrace -- "$PROFILE_OPENCLOSE" 10
like "text: says ptrace syscall stops" "$(cat "$TMP/sc.txt")" '^syscalls \(ptrace syscall stops'
like "text: says the program ran slower, times inflated, counts exact" "$(cat "$TMP/sc.txt")" \
	'ran slower under ptrace.*times are inflated, counts are exact'
# --syscalls asks for the syscall summary: it is the report, the sampling tables (mostly
# the tracing's own cost) only with --samples, after the summary
line_of() { grep -n -m1 -E "$2" "$1" | cut -d: -f1; }
is "text: no sampling tables without --samples" \
	"$(grep -cE '^(threads|cpus|top functions|event  )' "$TMP/sc.txt")" 0
like "text: says none were taken and how to get them" "$(cat "$TMP/sc.txt")" \
	'no samples taken: --samples adds the sampling tables'
# nothing shows samples, so no sampling event is opened: the target pays only for the
# counting (strace follows perflab's own process only: the command is perflab's tracee)
# (LeakSanitizer cannot run under ptrace: no leak check in these two runs)
NOLEAK="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
ok "text under strace: the summary" env "$NOLEAK" strace -o "$TMP/pe.strace" -e trace=perf_event_open \
	"$PERFLAB" profile -o "$TMP/sc2.txt" --syscalls-via ptrace -- "$PROFILE_OPENCLOSE" 10
like "text under strace: the summary was written" "$(cat "$TMP/sc2.txt")" '^syscalls \(ptrace'
is "text: no perf_event_open at all" "$(grep -c 'perf_event_open(' "$TMP/pe.strace")" 0
ok "--folded under strace" env "$NOLEAK" strace -o "$TMP/pe2.strace" -e trace=perf_event_open \
	"$PERFLAB" profile -o "$TMP/sc3.txt" --folded "$TMP/sc3.folded" --syscalls-via ptrace \
	-- "$PROFILE_OPENCLOSE" 10
like "--folded writes samples: the sampling events are opened" \
	"$(grep -c 'perf_event_open(' "$TMP/pe2.strace")" '^[1-9]'
like "--folded: the stacks were written" "$(wc -l <"$TMP/sc3.folded")" '^[1-9]'
like "--folded: the samples taken are counted in the text" "$(cat "$TMP/sc3.txt")" \
	'[0-9]+ samples taken in parallel are not shown: --samples prints the sampling tables'
# -p in text: no samples either; the summary ends when the process exits
sleep 0.4 &
sp=$!
ok "-p, text: the syscall summary" "$PERFLAB" profile -o "$TMP/sp.txt" --syscalls-via ptrace -p "$sp"
like "-p, text: no samples taken" "$(cat "$TMP/sp.txt")" 'no samples taken: --samples adds'
wait "$sp" 2>/dev/null
# without sampling events nothing but the process's pidfd reports its exit at once (a
# sampling event did, POLLHUP): the run of 'true' must not wait for the 50 ms tick (best
# of 3; with the tick every run lasts >= 50 ms)
best=9
for i in 1 2 3; do
	"$PERFLAB" profile -o "$TMP/tr.txt" --syscalls -- true >/dev/null 2>&1
	d=$(awk '/^duration/ { print $2 }' "$TMP/tr.txt")
	best=$(awk -v a="$best" -v b="${d:-9}" 'BEGIN { print (b < a ? b : a) }')
done
like "--syscalls alone: the command's exit ends the run at once (best of 3 < 45 ms)" \
	"$(awk -v b="$best" 'BEGIN { print (b < 0.045 ? "yes" : "no " b) }')" '^yes$'
"$PERFLAB" profile -o "$TMP/scs.txt" --samples --syscalls-via ptrace -- "$PROFILE_OPENCLOSE" 10
sl=$(line_of "$TMP/scs.txt" '^syscalls \(')
tl=$(line_of "$TMP/scs.txt" '^top functions by self')
like "--samples: the syscall summary and the sampling tables" "$sl $tl" '^[0-9]+ [0-9]+$'
is "--samples: the syscall summary first" "$(( ${sl:-0} < ${tl:-0} ))" 1
is "--samples: the threads table too" "$(grep -c '^threads$' "$TMP/scs.txt")" 1
"$PERFLAB" profile -o "$TMP/sct.txt" --tree --syscalls-via ptrace -- "$PROFILE_OPENCLOSE" 10
is "--tree implies --samples" "$(grep -c '^call tree' "$TMP/sct.txt")" 1
is "--samples without --syscalls changes nothing" \
	"$("$PERFLAB" profile -o - --samples -- true | grep -c '^top functions')" 2
# close calls beyond the program's own (the dynamic loader's), for the runs below
extra_close=$(( $(awk '$1 == "close" { print $2 }' "$TMP/want") - 100000 ))

# (2) a non-root user: the tracepoints are not usable, the automatic fallback says so and
# counts exactly. The build must be readable by uid 65534 (it is when checked out under
# a world-readable directory).
NR=$TMP/nonroot.json
if [ "$(id -u)" -ne 0 ]; then
	skip "non-root fallback" "the tests do not run as root (cannot switch to uid 65534)"
elif ! command -v setpriv >/dev/null; then
	skip "non-root fallback" "setpriv (util-linux) not installed"
elif ! setpriv --reuid=65534 --regid=65534 --clear-groups "$PERFLAB" --version >/dev/null 2>&1 ||
	! setpriv --reuid=65534 --regid=65534 --clear-groups "$PROFILE_OPENCLOSE" 0 0 2>/dev/null; then
	skip "non-root fallback" "uid 65534 cannot run $PERFLAB or $PROFILE_OPENCLOSE (build dir not readable)"
else
	# (uid 65534 cannot write in $TMP: the report comes on stderr, after the warnings)
	setpriv --reuid=65534 --regid=65534 --clear-groups "$PERFLAB" profile --json --syscalls \
		-- "$PROFILE_OPENCLOSE" 10000 >"$OUT" 2>"$TMP/nr.err"
	rc=$?
	sed -n '/^{$/,/^}$/p' "$TMP/nr.err" >"$NR"
	sed '/^{$/,/^}$/d' "$TMP/nr.err" >"$ERR"
	is "non-root: --syscalls exits 0" "$rc" 0
	if [ "$(jq -r .syscalls.method "$NR" 2>/dev/null)" = tracepoint ]; then
		skip "non-root fallback" "tracepoints are usable by uid 65534 on this machine"
	else
		validate profile.schema.json "$NR"
		is "non-root: fell back to ptrace" "$(jqv "$NR" .syscalls.method)" ptrace
		like "non-root: the JSON says why" "$(jqv "$NR" .syscalls.fallback)" 'tracepoints not usable: .*(permission|tracefs)'
		like "non-root: stderr says so" "$(cat "$ERR")" 'counting with ptrace instead'
		strace -c -f -o "$TMP/nr.strace" "$PROFILE_OPENCLOSE" 10000 >/dev/null 2>&1
		is "non-root: every row equals strace -c -f" "$(our_rows "$NR")" "$(strace_rows "$TMP/nr.strace")"
		is "non-root: close is 10,000 + the loader's" "$(row "$NR" close calls)" $((10000 + extra_close))
	fi
fi

# (3) errors column: 1000 open() of a missing file fail with ENOENT, exactly.
E=$TMP/err.json
ok "ptrace: 1000 failing opens" "$PERFLAB" profile --json -o "$E" --syscalls-via ptrace \
	-- "$PROFILE_OPENCLOSE" 0 1000
strace -c -f -o "$TMP/err.strace" "$PROFILE_OPENCLOSE" 0 1000 >/dev/null 2>&1
is "errors: openat errors are 1000" "$(row "$E" openat errors)" 1000
is "errors: equal strace -c's" "$(row "$E" openat errors)" \
	"$(strace_rows "$TMP/err.strace" | awk '$1 == "openat" { print $3 }')"
is "errors: total errors add up" "$(jqv "$E" .syscalls.errors)" "$(jqv "$E" '[.syscalls.rows[].errors] | add')"

# (4) threads, a forked child and an exec from a non-leader thread (the pid change):
# every row equals strace -c -f's except futex and rt_sigprocmask (below).
# 40 threads: more than the tracee table's first size (32), so it grows while threads
# come and go.
# futex depends on thread timing; rt_sigprocmask by one: the exec from a thread can kill
# the main thread inside pthread_create's mask restore or before it, so runs differ
VARIES='^(futex|rt_sigprocmask)$'
T=$TMP/thr.json
ok "ptrace: threads + fork + exec in a thread" "$PERFLAB" profile --json -o "$T" \
	--syscalls-via ptrace -- "$PROFILE_SCTHREADS" 40 500 exec
strace -c -f -o "$TMP/thr.strace" "$PROFILE_SCTHREADS" 40 500 exec >/dev/null 2>&1
is "threads: getppid of 40 threads and the child" "$(row "$T" getppid calls)" 20500
is "threads: failing opens of 40 threads and the child" "$(row "$T" openat errors)" 2050
is "threads: two execve (the start and the one from a thread)" "$(row "$T" execve calls)" 2
is "threads: every row but futex, rt_sigprocmask equals strace -c -f" \
	"$(our_rows "$T" "$VARIES")" "$(strace_rows "$TMP/thr.strace" "$VARIES")"
# the same through the tracepoints: a new task's first event is the 0 return of the
# clone/fork that made it, which is not a second call
TT=$TMP/thr-tp.json
if "$PERFLAB" profile --json -o "$TT" --syscalls-via tracepoint \
	-- "$PROFILE_SCTHREADS" 40 500 exec >"$OUT" 2>"$ERR"; then
	is "tracepoints, threads: every row but futex, rt_sigprocmask equals strace -c -f" \
		"$(our_rows "$TT" "$VARIES")" "$(strace_rows "$TMP/thr.strace" "$VARIES")"
else
	skip "tracepoints, threads" "tracepoints unavailable: $(head -c 200 "$ERR")"
fi

# A command that leaves a child running: followed until no traced task is left, like
# strace -f (the child's 2000 open+close after the shell has exited are counted).
B=$TMP/bg.json
ok "ptrace: sh -c 'CHILD & echo x'" "$PERFLAB" profile --json -o "$B" --syscalls-via ptrace \
	-- sh -c 'sleep 0.3 && "$0" 2000 & echo x' "$PROFILE_OPENCLOSE"
strace -c -f -o "$TMP/bg.strace" sh -c 'sleep 0.3 && "$0" 2000 & echo x' "$PROFILE_OPENCLOSE" >/dev/null 2>&1
is "background child: its 2000 closes were counted" "$(( $(row "$B" close calls) >= 2000 ))" 1
is "background child: every row (name, calls, errors) equals strace -c -f" "$(our_rows "$B")" \
	"$(strace_rows "$TMP/bg.strace")"
is "background child: exact" "$(jqv "$B" .syscalls.exact)" true
# ... and the same through the tracepoints (perflab is a child subreaper for that)
BT=$TMP/bg-tp.json
if "$PERFLAB" profile --json -o "$BT" --syscalls-via tracepoint \
	-- sh -c 'sleep 0.3 && "$0" 2000 & echo x' "$PROFILE_OPENCLOSE" >"$OUT" 2>"$ERR"; then
	is "tracepoints, background child: every row equals strace -c -f" "$(our_rows "$BT")" \
		"$(strace_rows "$TMP/bg.strace")"
	like "tracepoints, background child: says it waits for what was left running" \
		"$(cat "$ERR")" "left running"
else
	skip "tracepoints, background child" "tracepoints unavailable: $(head -c 200 "$ERR")"
fi

# group-stop and signal re-injection: SIGSTOP/SIGCONT to the traced command, which then
# finishes with exact counts.
G=$TMP/stop.json
"$PERFLAB" profile --json -o "$G" --syscalls-via ptrace -- "$PROFILE_OPENCLOSE" 30000 >"$OUT" 2>"$ERR" &
pf=$!
child=$(first_child "$pf")
sleep 0.3
# progress PID: utime+stime ticks and context switches; both stand still while stopped
progress() {
	echo "$(awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null)" \
		"$(awk '/ctxt_switches/ { n += $2 } END { print n }' "/proc/$1/status" 2>/dev/null)"
}
if [ -n "$child" ] && kill -STOP "$child" 2>/dev/null; then
	sleep 0.3
	st=$(awk '{ print $3 }' "/proc/$child/stat" 2>/dev/null)
	p1=$(progress "$child")
	sleep 0.3
	p2=$(progress "$child")
	kill -CONT "$child" 2>/dev/null
	wait "$pf"
	rc=$?
	is "group-stop: perflab exits 0" "$rc" 0
	like "group-stop: the command was stopped (state $st)" "$st" '^[tT]$'
	is "group-stop: no progress while stopped (cpu ticks, context switches)" "$p2" "$p1"
	is "group-stop: close count exact after SIGSTOP/SIGCONT" "$(row "$G" close calls)" \
		$((30000 + extra_close))
	is "group-stop: the command exited 0 (SIGCONT re-injected, not a kill)" "$(jqv "$G" .exit_status)" 0
else
	wait "$pf"
	skip "group-stop" "the command finished before it could be stopped"
fi

# (5) Ctrl-C leaves no stopped or traced process behind.
# alive_in_group PGID: processes of the group that are not zombies (PID 1 of a container
# may not reap the orphans quickly).
alive_in_group() {
	ps -o pid=,stat= -g "$1" 2>/dev/null | awk '$2 !~ /^Z/ { printf "%s(%s) ", $1, $2 }'
}
# nothing_traced PID...: every task of the listed live processes has TracerPid 0 and is
# not in a tracing stop.
nothing_traced() {
	local bad=
	for p in "$@"; do
		for s in /proc/"$p"/task/*/status; do
			[ -r "$s" ] || continue
			awk '/^TracerPid:/ && $2 != 0 { exit 1 } /^State:/ && $2 == "t" { exit 1 }' "$s" ||
				bad="$bad $s"
		done
	done
	echo "${bad:-none}"
}
# wait_traced PID TRACER: poll (10 s at most) until PID's TracerPid is TRACER.
wait_traced() {
	for _ in $(seq 200); do
		[ "$(awk '/^TracerPid:/ { print $2 }' "/proc/$1/status" 2>/dev/null)" = "$2" ] && return 0
		sleep 0.05
	done
	return 1
}
# wait_execed PERFLAB_PID: poll (10 s at most) until perflab's child runs the program
# (has exec'd $PROFILE_SCTHREADS) and is traced; prints the child's pid.
wait_execed() {
	local c
	for _ in $(seq 200); do
		c=$(pgrep -P "$1" 2>/dev/null | head -1)
		if [ -n "$c" ] && [ "$(readlink "/proc/$c/exe" 2>/dev/null)" = "$(readlink -f "$PROFILE_SCTHREADS")" ] &&
			wait_traced "$c" "$1"; then
			echo "$c"
			return 0
		fi
		sleep 0.05
	done
	return 1
}
# -p: SIGINT to perflab detaches; the process goes on, untraced.
setsid "$PROFILE_SCTHREADS" 2 1000000000 >/dev/null 2>&1 &
tgt=$!
sleep 0.3
"$PERFLAB" profile --json -o "$TMP/p.json" --syscalls-via ptrace -p "$tgt" >"$OUT" 2>"$ERR" &
pf=$!
wait_traced "$tgt" "$pf"
sleep 0.2
kill -INT "$pf"
wait "$pf"
rc=$?
is "-p, SIGINT: perflab exits 0" "$rc" 0
like "-p, SIGINT: getppid was counted" "$(row "$TMP/p.json" getppid calls)" '^[1-9][0-9]*$'
is "-p, SIGINT: no task left traced or stopped" "$(nothing_traced "$tgt" $(pgrep -g "$tgt"))" none
is "-p, SIGINT: the process still runs" "$(kill -0 "$tgt" 2>/dev/null && echo alive)" alive
kill -KILL -- -"$tgt" 2>/dev/null
wait "$tgt" 2>/dev/null

# -p of a process whose main thread has exited (a zombie leader, which cannot be seized):
# the zombie is skipped, the live thread traced.
"$PROFILE_SCTHREADS" 0 0 zleader &
z=$!
for _ in $(seq 200); do
	[ "$(awk '/^State:/ { print $2 }' "/proc/$z/status" 2>/dev/null)" = Z ] && break
	sleep 0.05
done
ok "-p, zombie leader: traced" "$PERFLAB" profile --json -o "$TMP/z.json" --syscalls-via ptrace \
	-d 0.5 -p "$z"
like "-p, zombie leader: the live thread's getppid was counted" "$(row "$TMP/z.json" getppid calls)" \
	'^[1-9][0-9]*$'
kill -KILL "$z" 2>/dev/null
wait "$z" 2>/dev/null

# -p of a vfork parent (in a killable wait for 5 s, which PTRACE_INTERRUPT cannot end):
# it cannot be detached in 2 s; perflab says so (warning, JSON) and it is not killed.
"$PROFILE_SCTHREADS" 0 0 vfork &
v=$!
first_child "$v" >/dev/null
"$PERFLAB" profile --json -o "$TMP/v.json" --syscalls-via ptrace -d 0.2 -p "$v" >"$OUT" 2>"$ERR"
rc=$?
is "-p, vfork parent: perflab exits 0" "$rc" 0
like "-p, vfork parent: warns it could not be detached" "$(cat "$ERR")" \
	"1 tasks \\($v\\) could not be detached within 2 s"
is "-p, vfork parent: the JSON counts it" "$(jqv "$TMP/v.json" .syscalls.undetached)" 1
is "-p, vfork parent: not flagged exact" "$(jqv "$TMP/v.json" .syscalls.exact)" false
sleep 0.1
is "-p, vfork parent: untraced after perflab" "$(nothing_traced "$v")" none
is "-p, vfork parent: still alive" "$(kill -0 "$v" 2>/dev/null && echo alive)" alive
kill -KILL "$v" 2>/dev/null
wait "$v" 2>/dev/null

# -- CMD: Ctrl-C goes to the whole foreground group; the command dies of SIGINT (the
# signal is re-injected) and perflab reports it, marked interrupted, exit 130 (perflab(1),
# EXIT STATUS); no process of the group is left.
setsid "$PERFLAB" profile --json -o "$TMP/c.json" --syscalls-via ptrace \
	-- "$PROFILE_SCTHREADS" 2 1000000000 >"$OUT" 2>"$ERR" &
pf=$!
wait_execed "$pf" >/dev/null
sleep 0.2
kill -INT -- -"$pf"
wait "$pf"
rc=$?
is "-- CMD, Ctrl-C: perflab exits 130" "$rc" 130
is "-- CMD, Ctrl-C: the command died of SIGINT" "$(jqv "$TMP/c.json" .exit_status)" 130
is "-- CMD, Ctrl-C: the profile is marked interrupted" "$(jqv "$TMP/c.json" .interrupted)" true
sleep 0.2
is "-- CMD, Ctrl-C: no process of the group is left" "$(alive_in_group "$pf")" ""

# --duration ends the command (SIGTERM) and the child it forked, both traced: none runs on.
setsid "$PERFLAB" profile --json -o "$TMP/d.json" --syscalls-via ptrace -d 1 \
	-- "$PROFILE_SCTHREADS" 2 1000000000 >"$OUT" 2>"$ERR" &
pf=$!
wait "$pf"
rc=$?
is "-- CMD, --duration: perflab exits 0" "$rc" 0
is "-- CMD, --duration: the command was stopped with SIGTERM" "$(jqv "$TMP/d.json" .exit_status)" 143
sleep 0.2
left=$(alive_in_group "$pf")
is "-- CMD, --duration: neither the command nor its child runs on" "$left" ""
[ -n "$left" ] && kill -KILL -- -"$pf" 2>/dev/null

# perflab killed outright: PTRACE_O_EXITKILL takes the command and its child with it.
setsid "$PERFLAB" profile --syscalls-via ptrace -- "$PROFILE_SCTHREADS" 2 1000000000 >/dev/null 2>&1 &
pf=$!
wait_execed "$pf" >/dev/null
sleep 0.2
kill -KILL "$pf"
wait "$pf" 2>/dev/null
sleep 0.3
left=$(alive_in_group "$pf")
is "SIGKILL to perflab: no traced process survives it" "$left" ""
[ -n "$left" ] && kill -KILL -- -"$pf" 2>/dev/null

done_testing
