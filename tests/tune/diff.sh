#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tune diff and verify show a value that apply refuses (pl_tune_value_check: type, range,
# choices) as "refused", not "differs", and apply still writes nothing; profiles in the
# sysroot's /etc/tuned are found with --sysroot (and the host's /etc/tuned is not used).
. "$PERFLAB_SRCDIR/tests/lib.sh"
FIX=$PERFLAB_SRCDIR/tests/fixtures/tune/server
P=$TMP/profiles
cp -a "$FIX" "$TMP/root"
cp -a "$FIX" "$TMP/orig"
T() { "$PERFLAB" tune --sysroot "$TMP/root" --profile-dir "$P" --state-dir "$TMP/state" "$@"; }
profile() { # NAME LINES...: a profile in $P
	local n=$1
	shift
	mkdir -p "$P/$n"
	printf '%s\n' "$@" >"$P/$n/tuned.conf"
}

# ---- a value apply refuses is "refused" in diff and verify ----
profile badval '[sysctl]' 'vm.swappiness=500' 'net.core.somaxconn=abc' 'vm.vfs_cache_pressure=90'
expect_exit 0 "diff with bad values: exit 0" T diff badval --json
cp "$OUT" "$TMP/d.json"
validate tune-items.schema.json "$TMP/d.json"
st() { jq -r --arg k "$1" '.items[] | select(.key==$k) | "\(.state) \(.reason)"' "$TMP/d.json"; }
is "out of range: refused with the reason" "$(st vm.swappiness)" "refused refused: '500' is out of range (0..200)"
is "not a number: refused with the reason" "$(st net.core.somaxconn)" "refused refused: 'abc' is not a decimal integer (0..2147483647)"
is "a good value still differs" "$(st vm.vfs_cache_pressure)" "differs null"
is "summary counts them as refused" "$(jq -r '.summary | "\(.refused) \(.differs)"' "$TMP/d.json")" "2 1"
expect_exit 0 "diff text" T diff badval
like "text: the state column says refused" "$(grep 'vm.swappiness' "$OUT")" "500 +refused \(refused: '500' is out of range"
like "text: the values line" "$(cat "$OUT")" "2 values refused \(type, range or choices of the target\): 'apply' writes nothing while a value is refused"
is "text: no target refusal line" "$(grep -c 'outside the sysroot or a hard link' "$OUT")" "0"
expect_exit 1 "verify with bad values: exit 1" T verify badval
expect_exit 2 "apply refuses them: exit 2" T apply badval
like "apply names the value and its line" "$(cat "$ERR")" "badval/tuned.conf:2: profile 'badval', sysctl vm.swappiness: '500' is out of range \(0..200\)"
ok "apply wrote nothing" diff -r "$TMP/orig" "$TMP/root"
is "apply journaled nothing" "$(cat "$TMP/state/tune-journal.jsonl" 2>/dev/null | wc -l)" "0"
# a canonical form is not a refusal: diff shows the value as written in the profile
profile leading-zero '[sysctl]' 'vm.swappiness=010'
T diff leading-zero --json >"$TMP/z.json"
is "060-style value: differs, shown as written" "$(jq -r '.items[0] | "\(.state) \(.write)"' "$TMP/z.json")" "differs 010"

# ---- /etc/tuned is the sysroot's ----
mkdir -p "$TMP/root/etc/tuned/machine-only"
printf '%s\n' '[main]' 'summary=only in this tree' '[sysctl]' 'vm.swappiness=30' \
	>"$TMP/root/etc/tuned/machine-only/tuned.conf"
T list --json >"$TMP/l.json"
is "search path has <sysroot>/etc/tuned" "$(jq -r --arg d "$TMP/root/etc/tuned" '[.search_path[] | select(. == $d)] | length' "$TMP/l.json")" "1"
is "the tree's profile is listed" "$(jq -r '.profiles[] | select(.name=="machine-only") | .summary' "$TMP/l.json")" "only in this tree"
expect_exit 0 "show the tree's profile" T show machine-only
like "show names the file in the tree" "$(head -2 "$OUT")" "$TMP/root/etc/tuned/machine-only/tuned.conf"
if [ ! -e /etc/tuned/machine-only ]; then
	expect_exit 2 "without --sysroot the tree's /etc/tuned is not searched" \
		"$PERFLAB" tune --profile-dir "$P" show machine-only
else
	skip "without --sysroot the tree's /etc/tuned is not searched" "/etc/tuned/machine-only exists here"
fi
done_testing
