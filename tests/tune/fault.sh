#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Crash safety: PERFLAB_TUNE_FAULT_AFTER=k makes `tune apply` _exit(137) right after its
# k-th write (and "kj" tears the k-th journal record in half before exiting). For every k,
# apply is killed, `tune rollback` runs, and the whole fixture tree must equal the
# original byte for byte.
. "$PERFLAB_SRCDIR/tests/lib.sh"
FIX=$PERFLAB_SRCDIR/tests/fixtures/tune/server
PROFILES=$PERFLAB_SRCDIR/tests/tune/profiles

fresh() {
	rm -rf "$TMP/root" "$TMP/state"
	cp -a "$FIX" "$TMP/root"
}
T() { "$PERFLAB" tune --sysroot "$TMP/root" --profile-dir "$PROFILES" --state-dir "$TMP/state" "$@"; }

# How many writes does a full apply make?
fresh
T apply all-plugins >/dev/null 2>&1
n=$(grep -c '"op":"set"' "$TMP/state/tune-journal.jsonl")
like "all-plugins makes many writes" "$n" "^[0-9]{2,}$"

for k in $(seq 1 "$n"); do
	fresh
	PERFLAB_TUNE_FAULT_AFTER=$k T apply all-plugins >/dev/null 2>&1
	rc=$?
	sets=$(grep -c '"op":"set"' "$TMP/state/tune-journal.jsonl")
	acc=$(grep -c '"op":"accepted"' "$TMP/state/tune-journal.jsonl")
	T rollback >/dev/null 2>"$TMP/rberr"
	rrc=$?
	if [ "$rc" -eq 137 ] && [ "$sets" -eq "$k" ] && [ "$acc" -eq $((k - 1)) ] && [ "$rrc" -eq 0 ] &&
		diff -r "$FIX" "$TMP/root" >"$TMP/d" 2>&1; then
		_report ok "killed after write $k/$n: rollback restores the tree"
	else
		_report fail "killed after write $k/$n: rollback restores the tree" \
			"apply rc=$rc sets=$sets accepted=$acc rollback rc=$rrc $(head -c 600 "$TMP/rberr") $(head -c 600 "$TMP/d")"
	fi
done

# Torn journal records: the k-th "set" record is half written, its target untouched;
# rollback restores the rest and the next apply repairs the journal.
for k in 1 $((n / 2)) "$n"; do
	fresh
	PERFLAB_TUNE_FAULT_AFTER=${k}j T apply all-plugins >/dev/null 2>&1
	rc=$?
	T rollback >/dev/null 2>"$TMP/rberr"
	rrc=$?
	# The next writer cuts the torn line off before appending.
	T apply stack-a >/dev/null 2>&1 && T rollback >/dev/null 2>&1 || rrc=99
	last=$(tail -c 1 "$TMP/state/tune-journal.jsonl" | od -An -c | tr -d ' ')
	if [ "$rc" -eq 137 ] && [ "$rrc" -eq 0 ] && [ "$last" = '\n' ] && diff -r "$FIX" "$TMP/root" >"$TMP/d" 2>&1; then
		_report ok "torn record $k: rollback repairs the journal and restores the tree"
	else
		_report fail "torn record $k: rollback repairs the journal and restores the tree" \
			"apply rc=$rc rollback rc=$rrc last='$last' $(head -c 600 "$TMP/rberr") $(head -c 600 "$TMP/d")"
	fi
done

# A crash on top of an earlier profile: rollback still goes back to the original.
fresh
T apply stack-a >/dev/null 2>&1
PERFLAB_TUNE_FAULT_AFTER=3 T apply all-plugins >/dev/null 2>&1
is "stacked crash: apply killed" "$?" "137"
expect_exit 0 "stacked crash: rollback" T rollback
ok "stacked crash: tree restored byte for byte" diff -r "$FIX" "$TMP/root"
done_testing
