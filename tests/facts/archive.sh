#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# --sysroot FILE.tar.zst (perflab(1), util/archive.h): a snapshot archive of each fixture
# tree gives the facts of the tree itself; inspect, check, report --no-bench, diff, tune
# diff and tune apply --dry-run read it; commands that write refuse it; every hostile
# archive (bad-archives.py) is exit 2 naming the archive and the member; and the private
# directory it is read into is gone after every run, also one ended by a signal.
. "$PERFLAB_SRCDIR/tests/lib.sh"
SYS=$PERFLAB_SRCDIR/tests/fixtures/sysroots
# every run's private directory goes here, so "nothing left" is an empty directory (in
# memory where possible: the limit cases write 256 MiB)
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	TMPDIR=$(mktemp -d /dev/shm/perflab-archive-test.XXXXXX)
	trap 'rm -rf "$TMP" "$TMPDIR"' EXIT
else
	TMPDIR=$TMP/tmpdir
	mkdir -p "$TMPDIR"
fi
export TMPDIR
A=$TMP/archives
mkdir -p "$A"

leftover() { # NAME: passes when TMPDIR is empty
	is "$1: nothing left in TMPDIR" "$(ls -A "$TMPDIR")" ""
	rm -rf "${TMPDIR:?}"/* "${TMPDIR:?}"/.[!.]* 2>/dev/null
}

# make_archive TREE OUT: TREE as a snapshot archive, the manifest first
make_archive() {
	local d
	d=$(mktemp -d "$TMP/man.XXXXXX")
	printf '{"format": "perflab-snapshot", "format_version": 1, "members": []}\n' \
		>"$d/perflab-snapshot.json"
	tar --zstd -cf "$2" -C "$d" perflab-snapshot.json -C "$1" .
}

for tree in "$SYS"/*/; do
	m=$(basename "$tree")
	make_archive "$tree" "$A/$m.tar.zst"
	"$PERFLAB" inspect --json --sysroot "$SYS/$m" >"$TMP/dir.json" 2>/dev/null
	expect_exit 0 "$m: inspect --sysroot ARCHIVE" "$PERFLAB" inspect --json --sysroot "$A/$m.tar.zst"
	is "$m: same inspect --json as the tree" "$(cmp "$TMP/dir.json" "$OUT" && echo same)" same
	leftover "$m inspect"
done

# check, report --no-bench, tune diff, tune apply --dry-run: as from the tree
X=$A/intel-2s.tar.zst
D=$SYS/intel-2s
"$PERFLAB" check --json --sysroot "$D" >"$TMP/check-dir.json" 2>/dev/null
want=$?
"$PERFLAB" check --json --sysroot "$X" >"$TMP/check-ar.json" 2>"$ERR"
is "check --sysroot ARCHIVE: the tree's exit status" "$?" "$want"
is "check --sysroot ARCHIVE: the tree's findings" \
	"$(jq -S .findings "$TMP/check-ar.json")" "$(jq -S .findings "$TMP/check-dir.json")"
like "check: findings there" "$(jq '.findings | length' "$TMP/check-ar.json")" '^[1-9]'
leftover check
expect_exit 0 "report --no-bench --sysroot ARCHIVE" \
	"$PERFLAB" report --no-bench --sysroot "$X" -o "$TMP/rep-ar"
"$PERFLAB" report --no-bench --sysroot "$D" -o "$TMP/rep-dir" >/dev/null 2>&1
is "report: the tree's facts and findings" \
	"$(jq -S '[.facts, .findings]' "$TMP/rep-ar/report.json")" \
	"$(jq -S '[.facts, .findings]' "$TMP/rep-dir/report.json")"
leftover report
for sub in "diff throughput-performance" "apply throughput-performance --dry-run"; do
	# shellcheck disable=SC2086
	"$PERFLAB" tune $sub --sysroot "$D" >"$TMP/tune-dir" 2>&1
	want=$?
	# shellcheck disable=SC2086
	"$PERFLAB" tune $sub --sysroot "$X" >"$TMP/tune-ar" 2>&1
	is "tune $sub --sysroot ARCHIVE: the tree's exit status" "$?" "$want"
	is "tune $sub: the tree's output" "$(cat "$TMP/tune-ar")" "$(cat "$TMP/tune-dir")"
	leftover "tune $sub"
done
"$PERFLAB" inspect --json --sysroot "$D" -o "$TMP/i-dir.json"
"$PERFLAB" inspect --json --sysroot "$X" -o "$TMP/i-ar.json"
expect_exit 0 "diff of the tree's and the archive's inspect (--sysroot ARCHIVE given)" \
	"$PERFLAB" diff --json --sysroot "$X" "$TMP/i-dir.json" "$TMP/i-ar.json"
is "diff: no fact changed, added or removed" "$(jq '.summary | add' "$OUT")" 0
leftover diff

# writing commands refuse an archive
for sub in "apply throughput-performance" rollback; do
	# shellcheck disable=SC2086
	expect_exit 2 "tune $sub --sysroot ARCHIVE refused" "$PERFLAB" tune $sub --sysroot "$X"
	like "tune $sub: says to extract it" "$(cat "$ERR")" "^perflab tune: error: --sysroot '$X': .*read-only.*extract it"
	leftover "tune $sub"
done

# an absolute symlink target means the tree's root, never this machine's
T=$TMP/abs-tree
cp -a "$D" "$T"
mkdir -p "$T/elsewhere"
mv "$T/proc/sys/kernel/osrelease" "$T/elsewhere/osrelease"
ln -s /elsewhere/osrelease "$T/proc/sys/kernel/osrelease"
make_archive "$T" "$A/abs.tar.zst"
"$PERFLAB" inspect --json --sysroot "$A/abs.tar.zst" >"$OUT" 2>"$ERR"
is "absolute symlink: resolved inside the tree" "$(jq -r '.facts["kernel.release"].value' "$OUT")" \
	"$(cat "$T/elsewhere/osrelease")"
leftover "absolute symlink"

# an archive with no facts in it (etc/x and a link): the error names the archive given,
# never the private directory it was read into, and says how to make a real one
T=$TMP/nofacts-tree
mkdir -p "$T/etc"
echo x >"$T/etc/x"
ln -s x "$T/etc/link"
make_archive "$T" "$A/sym.tar.zst"
expect_exit 2 "an archive without facts: exit 2" "$PERFLAB" check --sysroot "$A/sym.tar.zst"
is "an archive without facts: one line" "$(wc -l <"$ERR")" 1
like "an archive without facts: names the archive and the fix" "$(cat "$ERR")" \
	"^perflab check: error: --sysroot '$A/sym.tar.zst': no facts found \(.*make one with perflab snapshot\)$"
is "an archive without facts: no private path, no test script" \
	"$(grep -c "perflab-sysroot\|$TMPDIR\|tests/fixtures" "$ERR")" 0
leftover "an archive without facts"

# hostile archives: exit 2, one line naming the archive and the member
python3 "$PERFLAB_SRCDIR/tests/facts/bad-archives.py" "$D" "$A" >"$TMP/bad.list" ||
	_report fail "bad-archives.py"
head -c 9000 "$X" >"$A/truncated.tar.zst"
printf 'truncated\t-\n' >>"$TMP/bad.list"
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); n = len(b)
for k in range(n // 3, n // 3 + 64): b[k] ^= 0x5a
open(sys.argv[2], "wb").write(b)' "$X" "$A/corrupt.tar.zst"
printf 'corrupt\t-\n' >>"$TMP/bad.list"
printf 'Not an archive.\n%.0s' $(seq 200) >"$A/text.tar.zst"
printf 'text\t-\n' >>"$TMP/bad.list"
: >"$A/empty.tar.zst"
printf 'empty\t-\n' >>"$TMP/bad.list"
while IFS=$'\t' read -r name member; do
	f=$A/$name.tar.zst
	start=$(date +%s)
	expect_exit 2 "$name: exit 2" "$PERFLAB" inspect --sysroot "$f"
	took=$(($(date +%s) - start))
	err=$(cat "$ERR")
	is "$name: one line" "$(wc -l <"$ERR")" 1
	if [ "$member" = - ]; then
		like "$name: names the archive and says why and what to do" "$err" \
			"^perflab inspect: error: --sysroot '$f': .+ \(.+\)$"
	else
		like "$name: names the archive, the member and the fix" "$err" \
			"^perflab inspect: error: --sysroot '$f': member '$member/?' .+ \(.+\)$"
	fi
	leftover "$name"
	case $name in bomb)
		like "$name: stops early (${took}s)" "$took" '^[0-9]$' ;;
	esac
done <"$TMP/bad.list"
like "truncated: says so" "$("$PERFLAB" inspect --sysroot "$A/truncated.tar.zst" 2>&1)" "cut short"
# cut inside a member: named once its header was decoded; cut in the first zstd block
# (nothing decodes), the error says no member's name came out rather than naming none
T=$TMP/big-tree
mkdir -p "$T/etc"
head -c 400000 /dev/urandom | base64 -w 0 >"$T/etc/big"
make_archive "$T" "$A/big.tar.zst"
head -c 200000 "$A/big.tar.zst" >"$A/big-cut.tar.zst"
expect_exit 2 "cut inside a member: exit 2" "$PERFLAB" inspect --sysroot "$A/big-cut.tar.zst"
like "cut inside a member: names it" "$(cat "$ERR")" \
	"^perflab inspect: error: --sysroot '$A/big-cut.tar.zst': member '(\./)?etc/big' is cut short \(truncated\) \(.+\)$"
head -c 3000 "$A/big.tar.zst" >"$A/big-cut0.tar.zst"
expect_exit 2 "cut in the first block: exit 2" "$PERFLAB" inspect --sysroot "$A/big-cut0.tar.zst"
like "cut in the first block: says no member's name came out" "$(cat "$ERR")" \
	"'$A/big-cut0.tar.zst': the archive is cut short \(truncated\) within its first 128 KiB, before any member's name \(.+\)$"
leftover "cut archives"
like "corrupt: says so" "$("$PERFLAB" inspect --sysroot "$A/corrupt.tar.zst" 2>&1)" "damaged|has no name this system can read"
like "text: not a tar archive" "$("$PERFLAB" inspect --sysroot "$A/text.tar.zst" 2>&1)" \
	"the file is not a tar archive"
like "manifest-format: the format" "$("$PERFLAB" inspect --sysroot "$A/manifest-format.tar.zst" 2>&1)" \
	'has "format": "sos-report"'
like "bomb: the member's size" "$("$PERFLAB" inspect --sysroot "$A/bomb.tar.zst" 2>&1)" \
	"is 1073741824 bytes, over 16 MiB"
like "symlink-out: the target" "$("$PERFLAB" inspect --sysroot "$A/symlink-out.tar.zst" 2>&1)" \
	"target '../../x' resolves outside"
rm -rf "${TMPDIR:?}"/*

# a signal while the archive is read (stalled after 100 members by the test hook): the handler removes the directory and the run
# ends by that signal (exit status 128 + N)
for sig in INT TERM HUP PIPE; do
	# the child starts with the default action for every signal (a background job of
	# a script would start with SIGINT ignored)
	PERFLAB_TEST_ARCHIVE_STALL=100 python3 -c 'import os, signal, sys
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE): signal.signal(s, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$PERFLAB" inspect --sysroot "$X" >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 200); do
		[ -n "$(find "$TMPDIR" -mindepth 2 -type f 2>/dev/null | head -1)" ] && break
		sleep 0.1
	done
	kill -s "$sig" "$pid"
	wait "$pid"
	rc=$?
	is "SIG$sig during extraction: ended by the signal" "$rc" "$((128 + $(kill -l "$sig")))"
	leftover "SIG$sig"
done
# a reader that left (`| head -c 1`): the write gets SIGPIPE, and the directory still
# goes (standard output is a pipe whose read end is closed before perflab starts)
python3 -c 'import os, signal, sys
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
r, w = os.pipe(); os.close(r); os.dup2(w, 1)
os.execv(sys.argv[1], sys.argv[1:])' "$PERFLAB" inspect --json --sysroot "$X" 2>/dev/null
is "stdout a pipe without a reader: ended by SIGPIPE" "$?" 141
leftover "SIGPIPE from a closed pipe"
done_testing
