#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tune apply is all or nothing, over a copy of tests/fixtures/tune/server:
#  - every value is checked before the first write (type and range of known sysctls,
#    available choices, the shape of the current value for others): a bad one is exit 2
#    with its file:line, and nothing is written or journaled;
#  - a write the kernel refuses or changes (simulated in the sysroot with the journal's
#    test hooks PERFLAB_TUNE_TEST_REFUSE / PERFLAB_TUNE_TEST_KEEP) rolls the whole apply
#    back, exit 3, the item named;
#  - targets that resolve outside the sysroot or are hard links are "refused", listed
#    together with bad values, never blamed on root.
. "$PERFLAB_SRCDIR/tests/lib.sh"
FIX=$PERFLAB_SRCDIR/tests/fixtures/tune/server
PROFILES=$PERFLAB_SRCDIR/tests/tune/profiles
P=$TMP/profiles

fresh() {
	rm -rf "$TMP/root" "$TMP/orig" "$TMP/state" "$TMP/outside"
	cp -a "$FIX" "$TMP/root"
	printf 'reno cubic\n' >"$TMP/root/proc/sys/net/ipv4/tcp_available_congestion_control"
	mkdir -p "$TMP/root/sys/devices/system/clocksource/clocksource0"
	printf 'tsc hpet acpi_pm\n' >"$TMP/root/sys/devices/system/clocksource/clocksource0/available_clocksource"
	printf 'tsc\n' >"$TMP/root/sys/devices/system/clocksource/clocksource0/current_clocksource"
	printf '1 2 3\n' >"$TMP/root/proc/sys/kernel/unknown_triple"
	printf 'some text\n' >"$TMP/root/proc/sys/kernel/unknown_text"
	cp -a "$TMP/root" "$TMP/orig"
}
T() { "$PERFLAB" tune --sysroot "$TMP/root" --profile-dir "$P" --state-dir "$TMP/state" "$@"; }
TS() { "$PERFLAB" tune --sysroot "$TMP/root" --profile-dir "$PROFILES" --state-dir "$TMP/state" "$@"; }
same_tree() { diff -r "$TMP/orig" "$TMP/root" >"$TMP/treediff" 2>&1; }
no_journal() { [ ! -e "$TMP/state/tune-journal.jsonl" ] || ! grep -q . "$TMP/state/tune-journal.jsonl"; }
profile() { # NAME LINES...: a profile in $P
	local n=$1
	shift
	mkdir -p "$P/$n"
	printf '%s\n' "$@" >"$P/$n/tuned.conf"
}

# ---- values checked before the first write ----
profile bad-int '[sysctl]' 'vm.swappiness=10' 'net.core.somaxconn=abc'
fresh
expect_exit 2 "somaxconn=abc: exit 2" T apply bad-int
like "somaxconn=abc: profile file and line" "$(cat "$ERR")" "bad-int/tuned.conf:3: profile 'bad-int', sysctl net.core.somaxconn: 'abc' is not a decimal integer \(0..2147483647\)"
like "somaxconn=abc: nothing applied, all or nothing" "$(cat "$ERR")" "nothing was applied: 1 item of profile 'bad-int' cannot be written, and a profile is applied all or nothing"
ok "somaxconn=abc: swappiness (valid, earlier) not written" same_tree
ok "somaxconn=abc: nothing journaled" no_journal
expect_exit 2 "dry run checks the values too" T apply bad-int --dry-run

profile bad-many '[sysctl]' 'vm.swappiness=201' 'net.ipv4.tcp_rmem=4096 87380' \
	'net.ipv4.tcp_congestion_control=bbr' 'kernel.unknown_triple=1 2' 'vm.stat_interval=x' '[vm]' 'dirty_ratio=50' '[sysfs]' \
	'/sys/devices/system/clocksource/clocksource0/current_clocksource=kvm-clock' \
	'/sys/kernel/mm/transparent_hugepage/enabled=sometimes' \
	'/sys/bus/workqueue/devices/writeback/cpumask=xyz'
fresh
expect_exit 2 "several bad values: exit 2" T apply bad-many
like "range of a known sysctl" "$(cat "$ERR")" "bad-many/tuned.conf:2: .*vm.swappiness: '201' is out of range \(0..200\)"
like "a triple needs three fields" "$(cat "$ERR")" "tuned.conf:3: .*tcp_rmem: '4096 87380' is not 3 integers"
like "choices from tcp_available_congestion_control" "$(cat "$ERR")" "tuned.conf:4: .*'bbr' is not one of the available choices \(reno cubic, from /proc/sys/net/ipv4/tcp_available_congestion_control\)"
like "unknown key: shape of the current value" "$(cat "$ERR")" "tuned.conf:5: .*kernel.unknown_triple: '1 2' is not 3 integers separated by spaces like the current value '1 2 3'"
like "known integer sysctl with a word" "$(cat "$ERR")" "tuned.conf:6: .*vm.stat_interval: 'x' is not a decimal integer"
like "clocksource from available_clocksource" "$(cat "$ERR")" "'kvm-clock' is not one of the available choices \(tsc hpet acpi_pm, from /sys/devices/system/clocksource/clocksource0/available_clocksource\)"
like "THP: one of the bracketed list" "$(cat "$ERR")" "'sometimes' is not one of the available choices \(always madvise never"
like "cpumask: hex" "$(cat "$ERR")" "cpumask: 'xyz' is not a hexadecimal CPU mask"
like "every bad item is listed" "$(cat "$ERR")" "nothing was applied: 8 items"
is "a valid item among them is not reported" "$(grep -c dirty_ratio "$ERR")" "0"
ok "several bad values: tree unchanged" same_tree
ok "several bad values: nothing journaled" no_journal

# what is written is what is compared: leading zeros are decimal (the kernel would read
# "060" as octal 48), fields single-spaced
profile canon '[sysctl]' 'vm.swappiness=060' 'net.ipv4.tcp_rmem=4096	 087380   6291456' \
	'kernel.unknown_triple=04 5 6' 'kernel.unknown_text=other text' \
	'net.ipv4.tcp_congestion_control=reno' '[sysfs]' \
	'/sys/devices/system/clocksource/clocksource0/current_clocksource=hpet'
fresh
expect_exit 0 "valid values of every type apply" T apply canon
is "060 written as 60" "$(cat "$TMP/root/proc/sys/vm/swappiness")" "60"
is "triple written normalised" "$(cat "$TMP/root/proc/sys/net/ipv4/tcp_rmem")" "4096 87380 6291456"
is "unknown triple: same shape accepted" "$(cat "$TMP/root/proc/sys/kernel/unknown_triple")" "4 5 6"
is "unknown text: any single line" "$(cat "$TMP/root/proc/sys/kernel/unknown_text")" "other text"
is "available congestion control" "$(cat "$TMP/root/proc/sys/net/ipv4/tcp_congestion_control")" "reno"
is "available clocksource" "$(cat "$TMP/root/sys/devices/system/clocksource/clocksource0/current_clocksource")" "hpet"
expect_exit 0 "verify after the canonical apply" T verify canon
expect_exit 0 "rollback" T rollback
ok "rollback restores the tree" same_tree

# tuned's sysctl plugin drops surrounding double quotes (stock network-throughput)
profile quoted '[sysctl]' 'net.ipv4.tcp_rmem="4096 87380 16777216"'
fresh
expect_exit 0 "quoted sysctl value (as stock profiles write it)" T apply quoted
is "quoted sysctl value: written without the quotes" "$(cat "$TMP/root/proc/sys/net/ipv4/tcp_rmem")" "4096 87380 16777216"

# ---- the kernel refuses or changes a write: the whole apply is rolled back ----
fresh
PERFLAB_TUNE_TEST_KEEP="/proc/sys/net/ipv4/tcp_rmem=4096 87380 6291456" TS apply all-plugins >"$OUT" 2>"$ERR"
is "triple taken in part: exit 3" "$?" "3"
like "triple taken in part: item named with its line and what the kernel kept" "$(cat "$ERR")" "all-plugins/tuned.conf:[0-9]+: sysctl net.ipv4.tcp_rmem: the kernel kept '4096 87380 6291456' when '4096 87380 16777216' was written"
like "triple taken in part: says the apply was rolled back" "$(cat "$ERR")" "nothing was applied: the [0-9]+ changes of this apply were rolled back"
like "triple taken in part: earlier steps restored" "$(cat "$OUT")" "step 1: restored /proc/sys/vm/swappiness = 60"
ok "triple taken in part: tree restored byte for byte" same_tree
TS status --json >"$TMP/st.json"
is "triple taken in part: nothing live in the journal" "$(jq -r '.live' "$TMP/st.json")" "0"
is "triple taken in part: later items never written" "$(grep -c 'scaling_governor' "$TMP/state/tune-journal.jsonl")" "0"

fresh
PERFLAB_TUNE_TEST_KEEP="/proc/sys/vm/dirty_ratio=10" TS apply all-plugins --json >"$TMP/apply.json" 2>"$ERR"
is "clamped value: exit 3" "$?" "3"
like "clamped value named" "$(cat "$ERR")" "vm dirty_bytes: the kernel kept '10' when '15' was written"
validate tune-items.schema.json "$TMP/apply.json"
is "clamped value: JSON says rolled back" "$(jq -r '.rolled_back' "$TMP/apply.json")" "true"
is "clamped value: JSON names the changed write" "$(jq -r '.writes[] | select(.status=="changed") | "\(.target) \(.accepted)"' "$TMP/apply.json")" "/proc/sys/vm/dirty_ratio 10"
ok "clamped value: tree restored byte for byte" same_tree

fresh
PERFLAB_TUNE_TEST_REFUSE=/sys/block/sdb/queue/nr_requests TS apply all-plugins >"$OUT" 2>"$ERR"
is "refused write: exit 3" "$?" "3"
like "refused write named" "$(cat "$ERR")" "disk nr_requests \[sdb\]: the kernel refused '128': Invalid argument"
ok "refused write: tree restored byte for byte" same_tree

fresh
TS apply stack-a >/dev/null 2>&1
PERFLAB_TUNE_TEST_REFUSE=/proc/sys/kernel/nmi_watchdog TS apply stack-b >/dev/null 2>&1
is "failed apply on top of another: exit 3" "$?" "3"
is "failed apply on top of another: the earlier profile stays" "$(cat "$TMP/root/proc/sys/vm/swappiness") $(cat "$TMP/root/proc/sys/vm/dirty_ratio")" "20 30"
TS status --json >"$TMP/st.json"
is "failed apply on top of another: only the earlier profile is live" "$(jq -r '[.entries[].profile] | unique | join(",")' "$TMP/st.json")" "stack-a"
expect_exit 0 "failed apply on top of another: rollback" TS rollback
ok "failed apply on top of another: tree restored" same_tree

# ---- targets outside the sysroot, hard links ----
fresh
printf 'outside\n' >"$TMP/outside"
rm "$TMP/root/proc/sys/vm/swappiness"
ln "$TMP/outside" "$TMP/root/proc/sys/vm/swappiness"
rm "$TMP/root/sys/devices/pci0000:00/0000:00:1f.2/block/sda/queue/read_ahead_kb"
ln "$TMP/outside" "$TMP/root/sys/devices/pci0000:00/0000:00:1f.2/block/sda/queue/read_ahead_kb"
ln -s /etc/passwd "$TMP/root/sys/devices/pci0000:00/0000:00:1f.2/block/sdb/queue/nr_requests.tmp"
mv "$TMP/root/sys/devices/pci0000:00/0000:00:1f.2/block/sdb/queue/nr_requests.tmp" "$TMP/root/sys/devices/pci0000:00/0000:00:1f.2/block/sdb/queue/nr_requests"
rm -rf "$TMP/orig" && cp -a "$TMP/root" "$TMP/orig"
TS diff all-plugins --json >"$TMP/d.json"
is "hard link: refused in diff" "$(jq -r '.items[] | select(.key=="vm.swappiness") | "\(.state) \(.reason)"' "$TMP/d.json")" "refused refused: a hard link (more than one link) in the sysroot: a write would also change the file it shares with another directory"
is "hard link of a [disk] target: refused" "$(jq -r '.items[] | select(.key=="readahead" and .device=="sda") | .state' "$TMP/d.json")" "refused"
is "symlink out of the sysroot from a [disk] target: refused" "$(jq -r '.items[] | select(.key=="nr_requests" and .device=="sdb") | .reason' "$TMP/d.json")" "refused: outside the sysroot: a symlink leads out of the writable area of the sysroot"
expect_exit 2 "refused targets: apply exits 2" TS apply all-plugins
like "hard link named with its line" "$(cat "$ERR")" "all-plugins/tuned.conf:12: profile 'all-plugins', sysctl vm.swappiness \(/proc/sys/vm/swappiness\): refused: a hard link"
like "symlink named as outside the sysroot" "$(cat "$ERR")" "disk nr_requests \[sdb\] \(/sys/block/sdb/queue/nr_requests\): refused: outside the sysroot"
like "all refusals listed, then nothing applied" "$(cat "$ERR")" "nothing was applied: 3 items"
is "refusals are not blamed on root" "$(grep -c 'need root' "$ERR")" "0"
is "the file outside is untouched" "$(cat "$TMP/outside")" "outside"
ok "refused targets: tree unchanged" same_tree
ok "refused targets: nothing journaled" no_journal
# refusals and bad values are reported together
profile mixed '[sysctl]' 'vm.swappiness=10' 'net.core.somaxconn=abc'
expect_exit 2 "a refused target does not hide a bad value" T apply mixed
like "both reported" "$(cat "$ERR")" "mixed/tuned.conf:2: .*refused: a hard link.*
.*mixed/tuned.conf:3: .*'abc' is not a decimal integer"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	chmod 755 "$TMP" && chmod -R a+rX "$TMP/root" "$P"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$PERFLAB" tune --sysroot "$TMP/root" \
		--profile-dir "$P" --state-dir "$TMP/state" apply mixed >"$OUT" 2>"$ERR"
	is "non-root: a refused target is exit 2, not 'needs root'" "$? $(grep -c 'need root' "$ERR")" "2 0"
else
	skip "non-root refusal" "needs root to switch to an unprivileged user"
fi
# the journal refuses a hard link too (a compare variant or another caller)
fresh
rm "$TMP/root/proc/sys/vm/dirty_ratio"
ln "$TMP/root/proc/sys/vm/swappiness" "$TMP/root/proc/sys/vm/dirty_ratio"
rm -rf "$TMP/orig" && cp -a "$TMP/root" "$TMP/orig"
expect_exit 2 "hard link inside the sysroot is refused as well" TS apply stack-a
ok "hard link inside: tree unchanged" same_tree

# ---- --sysroot without --state-dir: the journal lives in the sysroot, never the host's ----
TN() { "$PERFLAB" tune --sysroot "$TMP/root" --profile-dir "$P" "$@"; }
hostj=/var/lib/perflab/tune-journal.jsonl
host_state() { stat -c '%s %Y' "$hostj" 2>/dev/null || echo absent; }
profile sw '[sysctl]' 'vm.swappiness=11'
fresh
before=$(host_state)
ok "sysroot default state: apply" TN apply sw
like "sysroot default state: journaled in ROOT/var/lib/perflab" "$(cat "$OUT")" "journaled in $TMP/root/var/lib/perflab/tune-journal.jsonl"
ok "sysroot default state: the journal is in the sysroot" grep -q 'vm/swappiness' "$TMP/root/var/lib/perflab/tune-journal.jsonl"
is "sysroot default state: the host's journal is untouched" "$(host_state)" "$before"
TN status >"$OUT"
like "sysroot default state: status reads the sysroot's journal" "$(cat "$OUT")" "1 change applied \(journal $TMP/root/var/lib/perflab/"
ok "sysroot default state: rollback" TN rollback
is "sysroot default state: rolled back" "$(cat "$TMP/root/proc/sys/vm/swappiness")" "$(cat "$TMP/orig/proc/sys/vm/swappiness")"
# a symlink on the way out of the sysroot is refused, not followed
fresh
mkdir -p "$TMP/outside"
ln -s "$TMP/outside" "$TMP/root/var"
expect_exit 3 "sysroot default state: ROOT/var a symlink out: refused" TN apply sw
is "sysroot default state: nothing written outside" "$(ls -A "$TMP/outside")" ""
is "sysroot default state: swappiness unchanged" "$(cat "$TMP/root/proc/sys/vm/swappiness")" "$(cat "$TMP/orig/proc/sys/vm/swappiness")"
# ---- --state-dir: a writable directory we may use, else bad input (exit 2) ----
profile good-one '[sysctl]' 'vm.swappiness=10'
sd() { # NAME DIR REGEX: apply with --state-dir DIR is exit 2, one line, nothing written
	fresh
	expect_exit 2 "$1: exit 2" "$PERFLAB" tune --sysroot "$TMP/root" --profile-dir "$P" \
		--state-dir "$2" apply good-one
	is "$1: one line" "$(wc -l <"$ERR")" 1
	like "$1: names the directory and the fix" "$(cat "$ERR")" "$3"
	ok "$1: nothing applied" same_tree
}
sd "--state-dir /proc/self" /proc/self "--state-dir '/proc/self': cannot create files in '/proc/self': .*\(give a writable directory"
: >"$TMP/afile"
sd "--state-dir a file" "$TMP/afile" "--state-dir '.*/afile': not a directory \(give a writable directory"
sd "--state-dir under a file" "$TMP/afile/state" "--state-dir '.*/afile/state': its parent '.*/afile' is not a directory"
expect_exit 2 "rollback --state-dir /proc/self: exit 2" "$PERFLAB" tune --sysroot "$TMP/root" \
	--state-dir /proc/self rollback
fresh
ok "--state-dir that does not exist yet (its parent is writable)" "$PERFLAB" tune --sysroot "$TMP/root" \
	--profile-dir "$P" --state-dir "$TMP/newstate" apply good-one
is "... the journal made it" "$(test -s "$TMP/newstate/tune-journal.jsonl" && echo yes)" yes
is "... no probe file left" "$(ls -A "$TMP/newstate" | grep -c probe)" 0

done_testing
