#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench clock --all-clocksources switches clocksources through the tune journal (live,
# root, two or more clocksources): the original is on disk before the first switch, so
# after kill -9 at any write (PERFLAB_TUNE_FAULT_AFTER=k, as fault.sh does for tune) and
# after a real kill -9, `tune status` shows the switch and `tune rollback` -- or the next
# run of the benchmark -- restores it; SIGINT restores it at once. Whatever happens, the
# original clocksource is written back when the test ends.
. "$PERFLAB_SRCDIR/tests/lib.sh"
CS=/sys/devices/system/clocksource/clocksource0
if [ "$(id -u)" -ne 0 ]; then
	skip "clocksource switches journaled" "needs root to write $CS/current_clocksource"
	done_testing
fi
if [ ! -r "$CS/available_clocksource" ] || [ "$(wc -w <"$CS/available_clocksource")" -lt 2 ]; then
	skip "clocksource switches journaled" "fewer than two clocksources here ($(cat "$CS/available_clocksource" 2>/dev/null))"
	done_testing
fi
orig=$(cat "$CS/current_clocksource")
bg=
cleanup() {
	[ -n "$bg" ] && kill -9 "$bg" 2>/dev/null
	printf '%s' "$orig" >"$CS/current_clocksource"
	rm -rf "$TMP"
}
trap cleanup EXIT
J=$TMP/state/tune-journal.jsonl
BA=(bench clock --all-clocksources --runs 1 --warmup 0 --batch 1ms --only gettimeofday --state-dir "$TMP/state")
B() { "$PERFLAB" "${BA[@]}" "$@"; }
T() { "$PERFLAB" tune --state-dir "$TMP/state" "$@"; }
cur() { cat "$CS/current_clocksource"; }
live() { T status --json 2>/dev/null | jq -r '.live'; }
wait_switched() { # until the clocksource is not the original (up to 60 s)
	for _ in $(seq 600); do [ "$(cur)" != "$orig" ] && return 0; sleep 0.1; done
	return 1
}

# a whole run
expect_exit 0 "all clocksources: a run" B
is "restored after a normal end" "$(cur)" "$orig"
n=$(grep -c '"op":"set"' "$J")
like "every switch is journaled" "$n" '^[1-9][0-9]*$'
is "journal: the switches are tagged bench:clock" "$(grep '"op":"set"' "$J" | grep -vc '"profile":"bench:clock"')" "0"
is "journal: the original recorded before the first switch" "$(grep -m1 '"op":"set"' "$J" | grep -c "\"old\":\"$orig\"")" "1"
is "journal: nothing live after the run" "$(live)" "0"

# killed right after each write: tune status shows it; tune rollback (odd k) or the next
# run of the benchmark (even k) restores the original
for k in $(seq 1 "$n"); do
	rm -rf "$TMP/state"
	PERFLAB_TUNE_FAULT_AFTER=$k B >/dev/null 2>&1
	rc=$?
	now=$(cur)
	T status >"$TMP/st" 2>&1
	if [ $((k % 2)) -eq 1 ]; then
		how="tune rollback"
		T rollback >"$TMP/fix" 2>&1
	else
		how="the next run"
		B >"$TMP/fix" 2>&1
	fi
	frc=$?
	if [ "$rc" -eq 137 ] && [ "$now" != "$orig" ] && grep -q "current_clocksource" "$TMP/st" &&
		grep -q "bench:clock" "$TMP/st" && [ "$frc" -eq 0 ] && [ "$(cur)" = "$orig" ] && [ "$(live)" = 0 ]; then
		_report ok "killed after write $k/$n (on $now): tune status shows it, $how restores $orig"
	else
		_report fail "killed after write $k/$n: tune status shows it, $how restores $orig" \
			"rc=$rc now=$now fix rc=$frc cur=$(cur) live=$(live) status: $(head -c 400 "$TMP/st") fix: $(head -c 400 "$TMP/fix")"
		printf '%s' "$orig" >"$CS/current_clocksource"
	fi
done
like "the next run says what it restored" "$(cat "$TMP/fix")" "restored the clocksource that an interrupted bench clock --all-clocksources left"

# a torn record (killed while appending it): nothing switched, the journal repaired
rm -rf "$TMP/state"
PERFLAB_TUNE_FAULT_AFTER=1j B >/dev/null 2>&1
is "torn record: exit 137, clocksource untouched" "$? $(cur)" "137 $orig"
expect_exit 0 "torn record: the next run" B
is "torn record: journal ends with a complete line" "$(tail -c 1 "$J" | od -An -c | tr -d ' ')" '\n'

# a real kill -9 while switched, then a plain `bench clock` (no --all-clocksources)
rm -rf "$TMP/state"
"$PERFLAB" "${BA[@]}" --runs 100000 --batch 20ms >/dev/null 2>&1 & # $! is perflab itself
bg=$!
ok "kill -9: the benchmark switched away from $orig" wait_switched
kill -9 "$bg"
wait "$bg" 2>/dev/null
bg=
T status --json >"$TMP/st.json"
is "kill -9: tune status knows the switch" "$(jq -r '[.entries[] | select(.profile=="bench:clock") | .old] | unique | join(",")' "$TMP/st.json")" "$orig"
"$PERFLAB" bench clock --runs 1 --warmup 0 --batch 1ms --only gettimeofday --state-dir "$TMP/state" --json >"$TMP/plain.json" 2>"$ERR"
is "kill -9: a plain bench clock restores it" "$? $(cur)" "0 $orig"
is "kill -9: and measures under the original" "$(jq -r '.info.clocksource' "$TMP/plain.json")" "$orig"
like "kill -9: the note says so" "$(jq -r '.notes[]' "$TMP/plain.json")" "restored the clocksource"
is "kill -9: nothing live" "$(live)" "0"

# SIGINT while switched: restored at once, the journal says undone
rm -rf "$TMP/state"
"$PERFLAB" "${BA[@]}" --runs 100000 --batch 20ms >/dev/null 2>&1 & # $! is perflab itself
bg=$!
ok "SIGINT: the benchmark switched away from $orig" wait_switched
kill -INT "$bg"
wait "$bg"
rc=$?
bg=
is "SIGINT: exit 130 with the original back" "$rc $(cur)" "130 $orig"
is "SIGINT: nothing live in the journal" "$(live)" "0"

# a plain bench clock only peeks at the journal: it does not wait for a writer holding it
# (a compare with settings holds it for its whole run)
rm -rf "$TMP/state" && mkdir -m 700 "$TMP/state" && : >"$J"
exec 9>>"$J"
flock -x 9
timeout 60 "$PERFLAB" bench clock --runs 1 --warmup 0 --batch 1ms --only gettimeofday --state-dir "$TMP/state" >/dev/null 2>&1
is "plain bench clock with the journal locked by a writer: runs, no wait" "$?" "0"
exec 9>&-

# a damaged journal: refused before any switch
rm -rf "$TMP/state" && mkdir -m 700 "$TMP/state"
echo '{"op":"set","step":1}' >"$J"
expect_exit 2 "damaged journal: refused" B
like "damaged journal: named with its line" "$(cat "$ERR")" "journal $J:1: step 1: .* is missing"
is "damaged journal: nothing switched" "$(cur)" "$orig"
done_testing
