#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Hand-written damaged journals: the loader checks every record and refuses a damaged
# journal with its file and line (exit 2) before rollback writes anything, so a record
# whose old value is null or not a string can neither remove a /proc or /sys file nor
# write garbage into it. A torn last line (no newline: a crash while appending) is
# ignored. Step numbers near INT64_MAX do not wrap.
. "$PERFLAB_SRCDIR/tests/lib.sh"
FIX=$PERFLAB_SRCDIR/tests/fixtures/tune/server
J=$TMP/state/tune-journal.jsonl

fresh() {
	rm -rf "$TMP/root" "$TMP/orig" "$TMP/state"
	cp -a "$FIX" "$TMP/root"
	printf '10\n' >"$TMP/root/proc/sys/vm/swappiness" # as if step 1 below had been applied
	cp -a "$TMP/root" "$TMP/orig"
	mkdir -m 700 "$TMP/state"
}
T() { "$PERFLAB" tune --sysroot "$TMP/root" --state-dir "$TMP/state" "$@"; }
same_tree() { diff -r "$TMP/orig" "$TMP/root" >"$TMP/treediff" 2>&1; }
R=$TMP/root
set1() { # a valid "set" record: STEP TARGET OLD-JSON [NEW]
	printf '{"new":"%s","old":%s,"old_raw":%s,"op":"set","profile":"p","step":%s,"sysroot":"%s","target":"%s","time":1}\n' \
		"${4:-10}" "$3" "$3" "$1" "$R" "$2"
}
good=$(set1 1 /proc/sys/vm/swappiness '"60"')

# each damaged journal: rollback and status exit 2 naming FILE:LINE, nothing written
check_damaged() { # NAME REGEX (journal already in $J)
	cp "$J" "$TMP/j.before"
	expect_exit 2 "$1: rollback refuses the journal" T rollback
	like "$1: names the journal file and line" "$(cat "$ERR")" "journal $J:$2"
	ok "$1: nothing written" same_tree
	is "$1: journal left as it was" "$(cmp "$TMP/j.before" "$J" && echo same)" "same"
	expect_exit 2 "$1: status refuses it too" T status
}

fresh
{ echo "$good"; set1 2 /proc/sys/vm/dirty_ratio null; } >"$J"
check_damaged "old null on a /proc file" '2: step 2: "old" is not a string \(a rollback would write garbage or remove /proc/sys/vm/dirty_ratio\)'
is "old null: the /proc file is still there" "$(cat "$TMP/root/proc/sys/vm/dirty_ratio")" "20"

fresh
{ echo "$good"; set1 2 /sys/kernel/mm/transparent_hugepage/enabled 17; } >"$J"
check_damaged "old a number on a /sys file" '2: step 2: "old" is not a string'

fresh
{ echo "$good"; printf '{"op":"set","step":2,"target":"/proc/sys/vm/dirty_ratio","sysroot":"%s","old":"20","old_raw":"20\\n","profile":"p","time":1}\n' "$R"; } >"$J"
check_damaged "missing new" '2: step 2: "new" is missing or not a string'

fresh
{ echo "$good"; printf '{"op":"set","step":2,"target":"/proc/sys/vm/dirty_ratio","sysroot":"%s","old":"20","old_raw":"20\\n","new":"5","profile":"p"}\n' "$R"; } >"$J"
check_damaged "missing time" '2: step 2: "time" is missing or not an integer'

fresh
{ echo "$good"; printf '{"op":"set","step":2,"target":"/proc/sys/vm/dirty_ratio","sysroot":"%s","old":"20","old_raw":null,"new":"5","profile":"p","time":1}\n' "$R"; } >"$J"
check_damaged "old_raw null" '2: step 2: "old_raw" is not a string'

fresh
{ echo "$good"; printf '{"op":"set","step":2,"target":"/proc/sys/vm/dirty_r\n'; } >"$J"
check_damaged "truncated last line (with its newline)" '2: not valid JSON'

fresh
{ echo "$good"; set1 2 /proc/sys/../../etc/shadow '"x"'; } >"$J"
check_damaged "target with .." '2: step 2: target .* is not a writable name'
is "etc/shadow intact" "$(cat "$TMP/root/etc/shadow")" "$(cat "$FIX/etc/shadow")"

fresh
{ echo "$good"; set1 1 /proc/sys/vm/dirty_ratio '"20"'; } >"$J"
check_damaged "repeated step" '2: step 1 does not follow step 1'

fresh
{ echo "$good"; echo '{"op":"accepted","step":7,"status":"ok","value":"5"}'; } >"$J"
check_damaged "record for a step without set" '2: "accepted" record for step 7, which has no "set" record'

fresh
{ echo "$good"; echo '{"op":"accepted","step":1,"status":"maybe","value":"5"}'; } >"$J"
check_damaged "bad status" '2: step 1: "status" is not ok, changed or refused'

fresh
{ echo "$good"; echo '{"op":"erase","step":1}'; } >"$J"
check_damaged "unknown op" "2: unknown \"op\" 'erase'"

fresh
{ echo "$good"; echo '{"op":"undo","step":"1"}'; } >"$J"
check_damaged "step a string" '2: "step" is not an integer >= 1'

fresh
{ echo "$good"; set1 9223372036854775808 /proc/sys/vm/dirty_ratio '"20"'; } >"$J"
check_damaged "step past INT64_MAX" '2: not valid JSON'

fresh
{ echo '["not", "an", "object"]'; echo "$good"; } >"$J"
check_damaged "first line not an object" '1: not a JSON object'

# A torn append (no newline at the end) is what a crash leaves: ignored, rollback works.
fresh
{ echo "$good"; printf '{"op":"set","step":2,"target":"/proc/sys/vm/dirty_r'; } >"$J"
expect_exit 0 "torn last line: rollback" T rollback
is "torn last line: step 1 restored" "$(cat "$TMP/root/proc/sys/vm/swappiness")" "60"
is "torn last line: cut off by the writer" "$(tail -c 1 "$J" | od -An -c | tr -d ' ')" '\n'

# The grub file may be recorded as absent (old null): rollback removes only that file.
fresh
rm "$TMP/root/etc/default/grub"
printf 'GRUB_CMDLINE_LINUX="x"\n' >"$TMP/root/etc/default/grub"
set1 1 /etc/default/grub null 'GRUB_CMDLINE_LINUX=\"x\"\n' >"$J"
expect_exit 0 "grub recorded absent: rollback" T rollback
is "grub recorded absent: removed again" "$(test -e "$TMP/root/etc/default/grub" && echo present || echo absent)" "absent"

# Step numbers near INT64_MAX: the last one is used, then apply refuses instead of wrapping.
fresh
set1 9223372036854775806 /proc/sys/vm/swappiness '"60"' >"$J"
mkdir -p "$TMP/profiles/two" && printf '[sysctl]\nvm.dirty_ratio=7\nkernel.nmi_watchdog=0\n' >"$TMP/profiles/two/tuned.conf"
T --profile-dir "$TMP/profiles" apply two >"$OUT" 2>"$ERR"
is "near INT64_MAX: apply stops with exit 3" "$?" "3"
like "near INT64_MAX: the last step is 9223372036854775807" "$(cat "$OUT")" "step 9223372036854775807: sysctl vm.dirty_ratio"
like "near INT64_MAX: says the steps are used up" "$(cat "$ERR")" "step numbers are used up \(INT64_MAX\)"
like "near INT64_MAX: the apply is rolled back" "$(cat "$ERR")" "nothing was applied: the 1 change of this apply was rolled back"
is "near INT64_MAX: dirty_ratio back" "$(cat "$TMP/root/proc/sys/vm/dirty_ratio")" "20"
expect_exit 0 "near INT64_MAX: status still reads it" T status --json
like "near INT64_MAX: step kept exactly (not through jq's doubles)" "$(tr -d ' \n' <"$OUT")" '"step":9223372036854775806,'  
expect_exit 0 "near INT64_MAX: rollback" T rollback
is "near INT64_MAX: rolled back" "$(cat "$TMP/root/proc/sys/vm/swappiness")" "60"
expect_exit 0 "near INT64_MAX: rollback --to a step above 2^63" T rollback --to 18446744073709551615
done_testing
