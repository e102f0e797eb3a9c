#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab snapshot (docs/snapshot.md): an archive of this machine, extracted, gives the
# facts `perflab inspect --json` gives live right after, except the facts of VOLATILE;
# a snapshot of each fixture tree gives that tree's facts exactly; the manifest matches
# the members (size, sha256, type, target) and the schema; no member is absolute, has a
# '..' component, or is a device, FIFO or hard link; a FIFO in a tree is not waited on
# and a symlink out of its top-level directory is kept as the link; other processes'
# /proc files are left out; a bad -o is exit 2 before anything is collected.
. "$PERFLAB_SRCDIR/tests/lib.sh"
command -v jq >/dev/null || { skip "snapshot" "jq missing"; done_testing; exit 0; }
tar --help | grep -q -- --zstd || { skip "snapshot" "tar without --zstd"; done_testing; exit 0; }

# The facts that change by themselves between two readings, each with its reason (the
# same list, with the reasons, is in docs/snapshot.md "Facts that differ"):
#   mem.available_bytes   MemAvailable moves with every allocation and page-cache change
#   mem.hugepages.free    HugePages_Free moves when any process maps or frees a huge page
#   numa.local_pages, numa.other_pages, numa.remote_ratio
#                         numastat counters: every page allocated since boot
#   kmsg.*                the kernel may log between the two readings
VOLATILE='["mem.available_bytes","mem.hugepages.free","numa.local_pages","numa.other_pages","numa.remote_ratio"]'
# the facts without the volatile ones, sorted, as one line per key
stable() {
	jq -S --argjson v "$VOLATILE" '.facts | with_entries(select((.key as $k | $v | index($k)) == null and (.key | startswith("kmsg.") | not)))' "$1"
}
# for the volatile ones, only whether each is available
shape() {
	jq -S --argjson v "$VOLATILE" '.facts | with_entries(select((.key as $k | $v | index($k)) != null or (.key | startswith("kmsg."))) | .value |= has("value"))' "$1"
}

# check_archive NAME FILE DIR: extract FILE into DIR and check its members and manifest
check_archive() {
	local name=$1 a=$2 d=$3
	mkdir -p "$d"
	ok "$name: extracts with tar --zstd" tar --zstd -xf "$a" -C "$d"
	tar --zstd -tvf "$a" >"$TMP/list"
	is "$name: the manifest is the first member" "$(head -1 "$TMP/list" | awk '{print $NF}')" perflab-snapshot.json
	is "$name: only files, directories and symlinks" \
		"$(awk '{print substr($1,1,1)}' "$TMP/list" | sort -u | grep -v '^[-dl]$' | tr -d '\n')" ""
	tar --zstd -tf "$a" >"$TMP/names"
	is "$name: no absolute member or '..' component" \
		"$(grep -E '^/|(^|/)\.\.(/|$)' "$TMP/names" | head -3)" ""
	validate snapshot.schema.json "$d/perflab-snapshot.json"
	# every file member: manifest size and sha256 = the bytes; symlinks: the target; and
	# every file or symlink of the tree is in the manifest (one python, not a fork each)
	is "$name: manifest sizes, sha256 and targets match the members, and list them all" \
		"$(/usr/bin/python3 "$PERFLAB_SRCDIR/tests/snapshot/manifest-check.py" "$d")" ""
}

# --- this machine ---------------------------------------------------------------------
cd "$TMP" || exit 1
t0=$(date +%s%N)
expect_exit 0 "live: perflab snapshot -o FILE" "$PERFLAB" snapshot -q -o "$TMP/live.tar.zst"
t1=$(date +%s%N)
"$PERFLAB" inspect --json >"$TMP/live.json"
echo "# snapshot of this machine: $(((t1 - t0) / 1000000)) ms, $(stat -c %s "$TMP/live.tar.zst") bytes (debug build)"
check_archive live "$TMP/live.tar.zst" "$TMP/live"
"$PERFLAB" inspect --json --sysroot "$TMP/live" >"$TMP/snap.json"
is "live: inspect of the snapshot = inspect live, but for the volatile facts" \
	"$(diff <(stable "$TMP/live.json") <(stable "$TMP/snap.json") | head -20)" ""
is "live: the volatile facts are available on both sides alike" \
	"$(diff <(shape "$TMP/live.json") <(shape "$TMP/snap.json"))" ""
is "live: /proc/PID files only PID 1's comm, watched daemons' comm and perflab's mounts" \
	"$(cd "$TMP/live" && find proc -regextype egrep -regex 'proc/[0-9]+/.*' ! -type d |
		grep -vE '^proc/[0-9]+/(comm|mounts)$')" ""
like "live: PID 1's comm is kept" "$(ls "$TMP/live/proc/1")" comm
is "live: the manifest's argv" "$(jq -c .argv "$TMP/live/perflab-snapshot.json")" \
	"[\"perflab\",\"snapshot\",\"-q\",\"-o\",\"$TMP/live.tar.zst\"]"
if [ "$(jq -r '.facts["virt.cpuid.signature"] | has("value")' "$TMP/live.json")" = true ]; then
	like "live: cpuid leaves recorded" "$(head -1 "$TMP/live/perflab-live/cpuid")" \
		'^0x[0-9a-f]{8}( 0x[0-9a-f]{8}){5}$'
fi

# a snapshot of the extracted snapshot is the same set of members with the same bytes
expect_exit 0 "snapshot of a snapshot" "$PERFLAB" snapshot -q --sysroot "$TMP/live" -o "$TMP/again.tar.zst"
mkdir -p "$TMP/again" && tar --zstd -xf "$TMP/again.tar.zst" -C "$TMP/again"
is "snapshot of a snapshot: same members, same sha256, same live readings" \
	"$(diff <(jq -c '.members, .live' "$TMP/live/perflab-snapshot.json") <(jq -c '.members, .live' "$TMP/again/perflab-snapshot.json") | head -5)" ""
# --sysroot takes the archive itself too (FILE): the usage line, the option list and the
# man page's synopsis all say DIR|FILE, and a snapshot of the archive has its members
like "--help usage: --sysroot DIR|FILE" "$("$PERFLAB" snapshot --help | head -1)" '\[--sysroot DIR\|FILE\]$'
like "--help options: --sysroot DIR|FILE" "$("$PERFLAB" snapshot --help)" '--sysroot DIR\|FILE +read'
like "man synopsis: --sysroot DIR|FILE" "$(grep -A2 '^\*perflab snapshot\*' "$PERFLAB_SRCDIR/docs/man/perflab-snapshot.1.scd")" \
	'\[\*--sysroot\* _DIR_\|_FILE_\]'
expect_exit 0 "snapshot of the archive" "$PERFLAB" snapshot -q --sysroot "$TMP/again.tar.zst" -o "$TMP/again2.tar.zst"
mkdir -p "$TMP/again2" && tar --zstd -xf "$TMP/again2.tar.zst" -C "$TMP/again2"
is "snapshot of the archive: same members" \
	"$(diff <(jq -c '[.members[].path]' "$TMP/again/perflab-snapshot.json") <(jq -c '[.members[].path]' "$TMP/again2/perflab-snapshot.json") | head -5)" ""

# --- every fixture tree ---------------------------------------------------------------
for fx in "$FIXTURES"/sysroots/*/; do
	n=$(basename "$fx")
	expect_exit 0 "$n: snapshot --sysroot" "$PERFLAB" snapshot -q --sysroot "$fx" -o "$TMP/$n.tar.zst"
	mkdir -p "$TMP/fx-$n" && tar --zstd -xf "$TMP/$n.tar.zst" -C "$TMP/fx-$n"
	"$PERFLAB" inspect --json --sysroot "$fx" >"$TMP/a.json"
	"$PERFLAB" inspect --json --sysroot "$TMP/fx-$n" >"$TMP/b.json"
	is "$n: inspect of the snapshot = inspect of the tree" \
		"$(diff <(jq -S . "$TMP/a.json") <(jq -S . "$TMP/b.json") | head -20)" ""
done
check_archive xen-hvm "$TMP/xen-hvm.tar.zst" "$TMP/xen-check"

# --- hostile tree: a FIFO, a link out of /proc, a failing read ------------------------
cp -a "$FIXTURES/sysroots/xen-hvm" "$TMP/hostile"
rm -f "$TMP/hostile/proc/sys/kernel/osrelease" && mkfifo "$TMP/hostile/proc/sys/kernel/osrelease"
mkdir -p "$TMP/hostile/usr" && mv "$TMP/hostile/proc/cmdline" "$TMP/hostile/usr/cmdline"
ln -s ../usr/cmdline "$TMP/hostile/proc/cmdline"
expect_exit 0 "hostile: snapshot does not wait on a FIFO" \
	timeout 60 "$PERFLAB" snapshot -q --sysroot "$TMP/hostile" -o "$TMP/hostile.tar.zst"
check_archive hostile "$TMP/hostile.tar.zst" "$TMP/hostile-x"
is "hostile: the link out of /proc is kept as the link" "$(readlink "$TMP/hostile-x/proc/cmdline")" ../usr/cmdline
ok "hostile: its target is not captured" test ! -e "$TMP/hostile-x/usr/cmdline"
like "hostile: the manifest says why" \
	"$(jq -r '.unreadable[] | "\(.path): \(.error)"' "$TMP/hostile-x/perflab-snapshot.json")" \
	'/proc/cmdline: a symlink on the way leads out of /proc'
like "hostile: the FIFO is unreadable, with the reason" \
	"$(jq -r '.unreadable[] | "\(.path): \(.error)"' "$TMP/hostile-x/perflab-snapshot.json")" \
	'/proc/sys/kernel/osrelease: not a regular file'
is "hostile: the FIFO's read fails the same way from the snapshot" \
	"$("$PERFLAB" inspect --json --sysroot "$TMP/hostile-x" | jq -r '.facts["kernel.release"].unavailable // "available"')" \
	"$("$PERFLAB" inspect --json --sysroot "$TMP/hostile" | jq -r '.facts["kernel.release"].unavailable // "available"')"

# a live probe's failure and a failed read, as a snapshot records them, read the same
cp -a "$FIXTURES/sysroots/container" "$TMP/errs"
mkdir -p "$TMP/errs/perflab-live"
printf '1 /perflab-live/kmsg\n13 /proc/meminfo\n' >"$TMP/errs/perflab-live/read-errors"
rm -f "$TMP/errs/proc/meminfo"
"$PERFLAB" inspect --json --sysroot "$TMP/errs" >"$TMP/errs.json"
like "read-errors: syslog(2)'s refusal gives the live reason" \
	"$(jq -r '.facts["kmsg.records"].unavailable' "$TMP/errs.json")" '^syslog\(2\): permission denied \(kernel.dmesg_restrict'
like "read-errors: a refused read gives its error" \
	"$(jq -r '.facts["mem.total_bytes"].unavailable' "$TMP/errs.json")" '^/proc/meminfo: permission denied'

# --- the command line -----------------------------------------------------------------
expect_exit 2 "-o in a missing directory: exit 2" "$PERFLAB" snapshot -o "$TMP/nodir/x.tar.zst"
like "-o in a missing directory: one line naming it" "$(cat "$ERR")" "cannot write '$TMP/nodir/x.tar.zst'"
is "-o in a missing directory: one line" "$(wc -l <"$ERR")" 1
expect_exit 2 "an argument: exit 2" "$PERFLAB" snapshot extra
expect_exit 2 "--json with -o -: exit 2" "$PERFLAB" snapshot --json -o -
"$PERFLAB" snapshot -q -o - --sysroot "$FIXTURES/sysroots/container" >"$TMP/stdout.tar.zst"
is "-o -: the archive on standard output" "$(tar --zstd -tf "$TMP/stdout.tar.zst" | head -1)" perflab-snapshot.json
"$PERFLAB" snapshot -q --json -o "$TMP/j.tar.zst" --sysroot "$FIXTURES/sysroots/container" >"$TMP/j.json"
validate snapshot.schema.json "$TMP/j.json"
host=$("$PERFLAB" inspect --json --sysroot "$FIXTURES/sysroots/xen-hvm" | jq -r '.facts["kernel.hostname"].value')
(cd "$TMP" && "$PERFLAB" snapshot -q --sysroot "$FIXTURES/sysroots/xen-hvm")
like "default name: perflab-snapshot-HOSTNAME-DATE.tar.zst" "$(cd "$TMP" && ls perflab-snapshot-*.tar.zst)" \
	"^perflab-snapshot-$host-[0-9]{8}T[0-9]{6}Z\.tar\.zst$"
is "no temporary file left beside the archives" "$(cd "$TMP" && ls -a | grep -vE '\.(tar\.zst|json)$' | grep -E '^\.[^.]')" ""

# --- libarchive, loaded only where an archive is read or written -----------------------
# Linked, it and the 12 libraries it brings would load at every command's start; so
# would libpci and libisal (src/util/dl.h).
if command -v readelf >/dev/null; then
	is "perflab does not link libarchive, libpci or libisal (loaded with dlopen)" \
		"$(readelf -d "$PERFLAB" | grep 'NEEDED' | grep -o 'libarchive\|libpci\|libisal')" ""
else
	skip "perflab does not link libarchive, libpci or libisal" "readelf is not installed"
fi
NOLIB=$TMP/none/libarchive.so.13
PERFLAB_TEST_LIBARCHIVE=$NOLIB expect_exit 3 "no libarchive: snapshot exits 3" \
	"$PERFLAB" snapshot -q -o "$TMP/nolib.tar.zst" --sysroot "$FIXTURES/sysroots/container"
like "no libarchive: snapshot names the library and the fix" "$(cat "$ERR")" \
	"^perflab snapshot: error: cannot write the snapshot to '$TMP/nolib.tar.zst': $NOLIB: .*install libarchive13\)$"
is "no libarchive: one line, no archive left" "$(wc -l <"$ERR"):$(ls "$TMP/nolib.tar.zst" 2>/dev/null)" 1:
PERFLAB_TEST_LIBARCHIVE=$NOLIB expect_exit 3 "no libarchive: --sysroot FILE exits 3" \
	"$PERFLAB" inspect --sysroot "$TMP/j.tar.zst"
like "no libarchive: --sysroot FILE names the library and the fix" "$(cat "$ERR")" \
	"^perflab inspect: error: --sysroot '$TMP/j.tar.zst': $NOLIB: .*install libarchive13\)$"
PERFLAB_TEST_LIBARCHIVE=$NOLIB expect_exit 0 "no libarchive: check of a tree runs" \
	"$PERFLAB" check --json -o /dev/null --sysroot "$FIXTURES/sysroots/container"

done_testing
