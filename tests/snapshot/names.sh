#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Member names that are not ASCII (docs/snapshot.md "Names"): a snapshot taken in the "C"
# locale of a tree whose network interface is named in UTF-8 holds the name as written,
# GNU tar lists it without a warning, and reading it back (in the "C" locale too) gives
# the tree's facts exactly; a name that is not UTF-8 is left out and listed as unreadable
# with the reason, and the snapshot is still written.
. "$PERFLAB_SRCDIR/tests/lib.sh"
command -v jq >/dev/null || { skip "snapshot names" "jq missing"; done_testing; exit 0; }
tar --help | grep -q -- --zstd || { skip "snapshot names" "tar without --zstd"; done_testing; exit 0; }

src=$FIXTURES/sysroots/arm64-2node
old=$(ls "$src/sys/class/net")
[ "$(printf '%s\n' "$old" | wc -l)" = 1 ] || { echo "names.sh: expected one interface in $src" >&2; exit 1; }
cp -a "$src" "$TMP/u8"
new=$'eth\xc3\xa90' # "ethé0" in UTF-8
mv "$TMP/u8/sys/class/net/$old" "$TMP/u8/sys/class/net/$new"

export LC_ALL=C
expect_exit 0 "UTF-8 interface name: snapshot in the C locale" \
	"$PERFLAB" snapshot -q --sysroot "$TMP/u8" -o "$TMP/u8.tar.zst"
LC_ALL=C.UTF-8 tar --zstd -tf "$TMP/u8.tar.zst" >"$TMP/list" 2>"$TMP/tar.err"
like "the member holds the name as written" "$(cat "$TMP/list")" "sys/class/net/$new"
is "GNU tar lists it without a warning" "$(cat "$TMP/tar.err")" ""
"$PERFLAB" inspect --json --sysroot "$TMP/u8" | jq -S .facts >"$TMP/a.json"
"$PERFLAB" inspect --json --sysroot "$TMP/u8.tar.zst" | jq -S .facts >"$TMP/b.json"
like "the tree's facts name the interface" "$(cat "$TMP/a.json")" "$new"
is "read back in the C locale: the tree's facts exactly" \
	"$(diff "$TMP/a.json" "$TMP/b.json" | head -20)" ""

cp -a "$TMP/u8" "$TMP/bad"
ln -s "../../devices/virtual/net/lo" "$TMP/bad/sys/class/net/"$'bad\xff0'
expect_exit 0 "a name that is not UTF-8: the snapshot is still written" \
	"$PERFLAB" snapshot -q --sysroot "$TMP/bad" -o "$TMP/bad.tar.zst"
tar --zstd -xOf "$TMP/bad.tar.zst" perflab-snapshot.json >"$TMP/bad.json"
is "that name is listed as unreadable, with the reason" \
	"$(jq -r '.unreadable[] | select(.path | contains("bad")) | "\(.path): \(.error)"' "$TMP/bad.json")" \
	'/sys/class/net/bad\xff0: a name or link target that is not UTF-8 (a snapshot holds UTF-8 names)'
is "and is not a member" "$(jq '[.members[] | select(.path | contains("bad"))] | length' "$TMP/bad.json")" 0
like "the UTF-8 name still is" "$(jq -r '.members[].path' "$TMP/bad.json")" "sys/class/net/$new"
done_testing
