#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Where perflab profile's report goes (perflab(1), OUTPUT): with '-- CMD' the command keeps
# stdout and stderr and the report (text or --json) goes to stderr, like strace -c and
# time, or to -o FILE; with -p/-a it stays on stdout. A program that writes to stdout
# must not break --json, and redirecting its output must not lose the report.
# Needs perf_event_open (skips with the reason otherwise); ~3 s.
. "$PERFLAB_SRCDIR/tests/lib.sh"
: "${PROFILE_SHAPE:?}"

if ! "$PERFLAB" profile -q -o "$TMP/probe" -- true 2>"$ERR"; then
	skip "profile output tests" "perf_event_open unavailable: $(head -c 300 "$ERR")"
	done_testing
fi
# A program that writes to stdout (and a line to stderr) around some CPU time.
PROG=(sh -c 'echo "program line 1"; "$0" 0.2; echo "program line 2"; echo "program err" >&2' "$PROFILE_SHAPE")
want_out=$'program line 1\nprogram line 2'
# the JSON document of a stream that may also hold perflab's one-line messages
json_of() { sed -n '/^{$/,/^}$/p' "$1"; }

# text, no -o: stdout is the program's alone, the report is on stderr
"$PERFLAB" profile -- "${PROG[@]}" >"$OUT" 2>"$ERR"
is "text: exit 0" "$?" 0
is "text: stdout is exactly the program's output" "$(cat "$OUT")" "$want_out"
like "text: the report is on stderr" "$(cat "$ERR")" "^profile of 'sh'"
like "text: the whole report (top functions)" "$(cat "$ERR")" "top functions by total"
like "text: the program's stderr is kept too" "$(cat "$ERR")" "program err"
cp "$ERR" "$TMP/text.err"
# the program's output redirected away: the report stays
"$PERFLAB" profile -- "${PROG[@]}" >/dev/null 2>"$ERR"
like "stdout to /dev/null: the report is not lost" "$(cat "$ERR")" "top functions by self"

# --json without -o: stdout stays the program's, the document is on stderr and parses
"$PERFLAB" profile --json -- "${PROG[@]}" >"$OUT" 2>"$ERR"
is "json: stdout is exactly the program's output" "$(cat "$OUT")" "$want_out"
json_of "$ERR" >"$TMP/stderr.json"
is "json on stderr: parses" "$(jq -r .schema_version "$TMP/stderr.json" 2>&1)" 1
validate profile.schema.json "$TMP/stderr.json"
is "json on stderr: one note line says where the JSON went" \
	"$(grep -c '^perflab profile: note: the JSON goes to stderr: stdout is left to the command (give -o FILE' "$ERR")" 1
# a cycles event that fell back: said in words with what perflab does instead, no errno text
if [ "$(jq -r '.event.fallback // empty' "$TMP/stderr.json")" ]; then
	like "fallback: what it means and what perflab does instead" "$(cat "$TMP/text.err")" \
		"no hardware cycles event: this machine exposes no hardware PMU \\(as most VMs\\); sampling cpu-clock instead"
	is "fallback: no raw errno text" "$(grep -c 'No such file or directory' "$TMP/text.err")" 0
	is "fallback in the JSON: the same sentence, not errno text" \
		"$(jq -r .event.fallback "$TMP/stderr.json")" \
		"no hardware cycles event: this machine exposes no hardware PMU (as most VMs); sampling cpu-clock instead"
else
	skip "fallback wording" "this machine has a hardware cycles event"
fi

# --json -o FILE: FILE is exactly one valid document whatever the program prints
J=$TMP/p.json
"$PERFLAB" profile --json -o "$J" -- "${PROG[@]}" >"$OUT" 2>"$ERR"
is "json -o: exit 0" "$?" 0
is "json -o: stdout is exactly the program's output" "$(cat "$OUT")" "$want_out"
is "json -o: the file parses as one document" "$(jq -s 'length' "$J" 2>&1)" 1
validate profile.schema.json "$J"
is "json -o: the program's output is not in it" "$(grep -c 'program line' "$J")" 0
like "json -o: samples were taken" "$(jqv "$J" .samples_total)" '^[1-9][0-9]*$'
is "json -o: the report is not on stderr" "$(grep -c '"schema_version"' "$ERR")" 0

# text -o FILE
"$PERFLAB" profile -o "$TMP/p.txt" -- "${PROG[@]}" >"$OUT" 2>"$ERR"
is "text -o: stdout is exactly the program's output" "$(cat "$OUT")" "$want_out"
like "text -o: the report is in the file" "$(cat "$TMP/p.txt")" "^profile of 'sh'.*"
is "text -o: not on stderr" "$(grep -c '^top functions' "$ERR")" 0
# -o - asks for stdout explicitly: the report follows the program's output there
"$PERFLAB" profile -o - -- "${PROG[@]}" >"$OUT" 2>"$ERR"
like "-o -: the report on stdout" "$(cat "$OUT")" "top functions by self"
is "-o -: not on stderr" "$(grep -c '^top functions' "$ERR")" 0

# -o FIFO: checked before the run without opening it (the reader would see an early end)
mkfifo "$TMP/fifo"
jq -r .schema_version <"$TMP/fifo" >"$TMP/from-fifo" 2>&1 &
"$PERFLAB" profile --json -o "$TMP/fifo" -- "${PROG[@]}" >"$OUT" 2>"$ERR"
is "json -o FIFO: exit 0" "$?" 0
wait
is "json -o FIFO: the reader parsed one document" "$(cat "$TMP/from-fifo")" 1

# -p: no command shares stdout, so the report stays there
sleep 30 &
bg=$!
"$PERFLAB" profile -p "$bg" -d 0.2 >"$OUT" 2>"$ERR"
kill "$bg" 2>/dev/null
wait "$bg" 2>/dev/null
like "-p: the report on stdout" "$(cat "$OUT")" "^profile of pid $bg"
"$PERFLAB" profile --json -p "$$" -d 0.1 >"$OUT" 2>"$ERR"
is "-p --json: stdout parses" "$(jq -r .schema_version "$OUT" 2>&1)" 1

# A report that cannot be written is a runtime failure, exit 3, for text and --json alike
# (perflab(1), EXIT STATUS); an -o path that cannot be opened stays a usage error, 2.
# Closed descriptors (2>&-, >&-) are kept taken at start, so the report cannot land in
# the first file perflab opens (the markers' memfd took fd 2 and the run exited 0).
for fmt in text json; do
	J=()
	[ "$fmt" = json ] && J=(--json)
	"$PERFLAB" profile "${J[@]}" -- true 2>&-
	is "$fmt, stderr closed: exit 3" "$?" 3
	"$PERFLAB" profile "${J[@]}" -p "$$" -d 0.1 >&- 2>"$ERR"
	is "$fmt -p, stdout closed: exit 3" "$?" 3
	like "$fmt -p, stdout closed: says so" "$(cat "$ERR")" "cannot write 'stdout'"
	if [ -c /dev/full ] && ! echo x 2>/dev/null >/dev/full; then
		"$PERFLAB" profile "${J[@]}" -- true 2>/dev/full
		is "$fmt, stderr on /dev/full: exit 3" "$?" 3
		"$PERFLAB" profile "${J[@]}" -o /dev/full -- true 2>"$ERR"
		is "$fmt -o /dev/full: exit 3" "$?" 3
		like "$fmt -o /dev/full: says so" "$(cat "$ERR")" "cannot write '/dev/full': No space left"
		"$PERFLAB" profile "${J[@]}" -p "$$" -d 0.1 >/dev/full 2>"$ERR"
		is "$fmt -p, stdout on /dev/full: exit 3" "$?" 3
	else
		skip "$fmt: output on /dev/full" "no /dev/full that refuses writes"
	fi
	expect_exit 2 "$fmt -o in a missing directory: exit 2" "$PERFLAB" profile "${J[@]}" \
		-o "$TMP/no/such/dir" -- true
done
# few samples: the text says how uncertain a share is (binomial sd, at most 50/sqrt(n)
# points); with many it says nothing (shape ends on CPU time: ~0.15 s at SCALE 0.2, so
# -F 50 gives a handful of samples; SCALE 0.5 at -F 999 about 300)
"$PERFLAB" profile -F 50 -o "$TMP/few.txt" -- "$PROFILE_SHAPE" 0.2 >/dev/null 2>&1
n=$(awk '/^samples/ { print $2 }' "$TMP/few.txt")
if [ -n "$n" ] && [ "$n" -ge 1 ] && [ "$n" -lt 100 ]; then
	like "few samples ($n): the uncertainty of a share is named" "$(grep '^samples' "$TMP/few.txt")" \
		"few: a share here is uncertain by up to $(awk -v n="$n" 'BEGIN { printf "%.0f", 50 / sqrt(n) }') points, 1 sd"
else
	_report fail "few samples: -F 50 of shape 0.2 gave $n samples (expected 1..99)"
fi
"$PERFLAB" profile -o "$TMP/many.txt" -- "$PROFILE_SHAPE" 0.5 >/dev/null 2>&1
like "many samples: a plain count" "$(grep '^samples' "$TMP/many.txt")" '^samples +[0-9]+$'
# Ctrl-C (SIGINT to perflab) during '-- CMD': the command gets it, what was recorded is
# written, marked interrupted, and perflab exits 130 (as bench, report and monitor)
"$PERFLAB" profile --json -o "$TMP/int.json" -- timeout 20 sh -c 'while :; do :; done' >/dev/null 2>"$TMP/int.err" &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
is "SIGINT: exit 130" "$?" 130
validate profile.schema.json "$TMP/int.json"
is "SIGINT: the profile is marked interrupted" "$(jqv "$TMP/int.json" .interrupted)" true
like "SIGINT: what was recorded is kept" "$(jqv "$TMP/int.json" .samples_total)" '^[1-9][0-9]*$'
is "SIGINT: stopped at once, not when the command ends (20 s)" "$(jq '.duration_s < 10' "$TMP/int.json")" true
"$PERFLAB" profile -- timeout 20 sh -c 'while :; do :; done' >/dev/null 2>"$TMP/int2.err" &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
is "SIGINT, text: exit 130" "$?" 130
like "SIGINT, text: says so" "$(cat "$TMP/int2.err")" "command    interrupted \\(Ctrl-C\\)"
"$PERFLAB" profile --json -o "$TMP/ok.json" -- true >/dev/null 2>&1
is "a command that ends by itself: not interrupted" "$(jqv "$TMP/ok.json" .interrupted)" false

done_testing
