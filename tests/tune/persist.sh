#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tune apply --persist over copies of tests/fixtures/tune/server with and without
# systemd (SYSROOT/run/systemd/system, as sd_booted() checks): the unit, its enable
# symlink, the stored profile copy and the journal's "persist" record; status (text and
# --json) says what is persistent; rollback leaves the tree byte-identical; no systemd
# is refused with nothing written; a boot-time apply that fails is recorded and shown.
. "$PERFLAB_SRCDIR/tests/lib.sh"
FIX=$PERFLAB_SRCDIR/tests/fixtures/tune/server
P=$TMP/profiles
U=$TMP/root/etc/systemd/system/perflab-tune.service
L=$TMP/root/etc/systemd/system/sysinit.target.wants/perflab-tune.service

fresh() { # [nosystemd]
	rm -rf "$TMP/root" "$TMP/orig" "$TMP/state"
	cp -a "$FIX" "$TMP/root"
	if [ "${1:-}" != nosystemd ]; then
		mkdir -p "$TMP/root/run/systemd/system" "$TMP/root/etc/systemd/system"
	fi
	cp -a "$TMP/root" "$TMP/orig"
}
T() { "$PERFLAB" tune --sysroot "$TMP/root" --profile-dir "$P" --state-dir "$TMP/state" "$@"; }
same_tree() { diff -r --no-dereference "$TMP/orig" "$TMP/root" >"$TMP/treediff" 2>&1; }
mkdir -p "$P/pers"
printf '[main]\nsummary=persist test\n[sysctl]\nvm.swappiness=10\n' >"$P/pers/tuned.conf"

fresh
ok "apply --persist" T apply --persist pers
like "says it is persistent" "$(cat "$OUT")" "persistent: /etc/systemd/system/perflab-tune.service enabled in sysinit.target"
is "the value is applied" "$(cat "$TMP/root/proc/sys/vm/swappiness")" "10"
ok "unit written" test -f "$U"
like "unit: oneshot" "$(cat "$U")" "Type=oneshot"
like "unit: stays active" "$(cat "$U")" "RemainAfterExit=yes"
like "unit: early in boot" "$(cat "$U")" "DefaultDependencies=no"
like "unit: after sysctl" "$(cat "$U")" "After=systemd-sysctl.service local-fs.target"
like "unit: wanted by sysinit.target" "$(cat "$U")" "WantedBy=sysinit.target"
like "unit: runs the stored copy" "$(cat "$U")" "ExecStart=/.* tune apply --boot --state-dir $TMP/state --profile-dir $TMP/state/persist pers"
ok "unit has no --sysroot" bash -c "! grep -q -- --sysroot '$U'"
is "enable symlink" "$(readlink "$L")" "../perflab-tune.service"
is "stored copy is the profile" "$(cmp "$P/pers/tuned.conf" "$TMP/state/persist/pers/tuned.conf" && echo same)" "same"
rec=$(grep '"op":"persist"' "$TMP/state/tune-journal.jsonl")
like "journal persist record" "$rec" '"link":"/etc/systemd/system/sysinit.target.wants/perflab-tune.service"'
like "journal persist record: unit" "$rec" '"unit":"/etc/systemd/system/perflab-tune.service"'
ok "status" T status
like "status shows it persistent" "$(cat "$OUT")" "persistent: 'pers' at every boot"
ok "status --json" "$PERFLAB" --json -o "$TMP/status.json" tune --sysroot "$TMP/root" --state-dir "$TMP/state" status
is "status --json: persistent" "$(jqv "$TMP/status.json" .persistent)" "true"
is "status --json: persist entry" "$(jqv "$TMP/status.json" '[.entries[] | select(.persist)] | length')" "1"
validate tune-journal.schema.json "$TMP/status.json"
expect_exit 2 "second --persist refused while one is persistent" T apply --persist pers
like "names the unit in the way" "$(cat "$ERR")" "perflab-tune.service exists \(roll back first"

# Only the profile's own tuned.conf is copied: a profile that includes another from
# --profile-dir would not find it at boot, so it is refused before anything is written.
mkdir -p "$P/persbase" "$P/persinc"
printf '[main]\nsummary=base\n[sysctl]\nvm.swappiness=20\n' >"$P/persbase/tuned.conf"
printf '[main]\ninclude=persbase\n[sysctl]\nvm.dirty_ratio=15\n' >"$P/persinc/tuned.conf"
rm -rf "$TMP/root2" && cp -a "$TMP/root" "$TMP/root2"
expect_exit 2 "--persist of a profile including one from --profile-dir" \
	"$PERFLAB" tune --sysroot "$TMP/root2" --profile-dir "$P" --state-dir "$TMP/state2" apply --persist persinc
like "names the included file and the fix" "$(cat "$ERR")" "reads $P/persbase/tuned.conf, which the boot-time apply would not find.*copy that profile into /etc/tuned"
is "refused include: one line" "$(wc -l <"$ERR")" 1
ok "refused include: nothing written" diff -r --no-dereference "$TMP/root" "$TMP/root2"
ok "refused include: no journal" test ! -e "$TMP/state2/tune-journal.jsonl"

if command -v systemd-analyze >/dev/null; then
	if systemd-analyze verify "$U" >"$TMP/verify" 2>&1; then
		_report ok "systemd-analyze verify accepts the unit"
	elif grep -qiE "failed to (connect|initialize)|not been booted|No such file or directory.*(bus|run)" "$TMP/verify"; then
		skip "systemd-analyze verify" "cannot run in this container: $(head -1 "$TMP/verify")"
	else
		_report fail "systemd-analyze verify accepts the unit" "$(head -c 2000 "$TMP/verify")"
	fi
else
	skip "systemd-analyze verify" "systemd-analyze not installed"
fi

# a simulated boot: the unit's command fails (the kernel refuses the value)
printf '60\n' >"$TMP/root/proc/sys/vm/swappiness"
PERFLAB_TUNE_TEST_REFUSE=/proc/sys/vm/swappiness expect_exit 3 "boot-time apply fails" \
	"$PERFLAB" tune --sysroot "$TMP/root" --state-dir "$TMP/state" --profile-dir "$TMP/state/persist" apply --boot pers
like "boot failure said on stderr (system journal)" "$(cat "$ERR")" "boot-time apply of persisted profile 'pers' failed .*left as it was"
is "boot failure: value left as it was" "$(cat "$TMP/root/proc/sys/vm/swappiness")" "60"
ok "status after failed boot" T status
like "status shows the boot failure" "$(cat "$OUT")" "last boot-time apply of 'pers' FAILED"
ok "status --json after failed boot" "$PERFLAB" --json -o "$TMP/status2.json" tune --sysroot "$TMP/root" --state-dir "$TMP/state" status
is "status --json: last_boot.ok" "$(jqv "$TMP/status2.json" .last_boot.ok)" "false"
printf '10\n' >"$TMP/root/proc/sys/vm/swappiness"

ok "rollback" T rollback
cp "$OUT" "$TMP/rollback.out"
ok "rollback: every step named, no (null)" bash -c "grep -q 'restored /etc/systemd/system/perflab-tune.service = (not persistent)' '$TMP/rollback.out' && ! grep -q '(null)' '$TMP/rollback.out'"
ok "rollback: unit, symlink, .wants dir gone; tree byte-identical" same_tree
ok "rollback: stored copy gone" test ! -e "$TMP/state/persist"
ok "status after rollback" T status
ok "status after rollback: nothing persistent" bash -c "! grep -q '^persistent' '$OUT'"

fresh nosystemd
expect_exit 2 "no systemd: refused" T apply --persist pers
is "no systemd: one line" "$(wc -l <"$ERR")" "1"
like "no systemd: says why" "$(cat "$ERR")" "--persist needs systemd, and '.*/run/systemd/system' is not a directory"
ok "no systemd: nothing written" same_tree
ok "no systemd: no journal" test ! -e "$TMP/state/tune-journal.jsonl"
fresh
rm -r "$TMP/root/etc/systemd" "$TMP/orig/etc/systemd"
expect_exit 2 "no /etc/systemd: refused" T apply --persist pers
ok "no /etc/systemd: nothing written" same_tree

fresh
expect_exit 2 "bad profile name" T apply --persist ../x
expect_exit 2 "unknown profile" T apply --persist nosuch
ok "bad input: nothing written" same_tree

# a hand-written persist record that points elsewhere is refused by the loader
fresh
mkdir -m 700 "$TMP/state"
printf '{"copy":"/etc/passwd","link":"/etc/systemd/system/sysinit.target.wants/perflab-tune.service","made_dir":false,"op":"persist","profile":"p","step":1,"sysroot":"%s","time":1,"unit":"/etc/systemd/system/perflab-tune.service"}\n' "$TMP/root" >"$TMP/state/tune-journal.jsonl"
expect_exit 2 "persist record with a foreign copy path refused" T rollback
like "names the record" "$(cat "$ERR")" 'step 1: "link" or "copy" is not a path perflab writes'
# A planted link: <root>/etc/systemd/system pointing out of the tree. Nothing is
# written through it (util/beneath.h refuses the symlink), so the host keeps its files.
fresh
mkdir -p "$TMP/host/etc/systemd/system"
rm -r "$TMP/root/etc/systemd/system"
ln -s "$TMP/host/etc/systemd/system" "$TMP/root/etc/systemd/system"
expect_exit 2 "unit directory is a link out of the tree: refused" T apply --persist pers
is "planted link: nothing written outside" "$(find "$TMP/host" -mindepth 4 | wc -l)" "0"
is "planted link: refused before the first write (value not applied)" \
	"$(cat "$TMP/root/proc/sys/vm/swappiness")" "$(cat "$TMP/orig/proc/sys/vm/swappiness")"
like "planted link: one line naming the unit" "$(wc -l <"$ERR") $(cat "$ERR")" \
	"^1 .*--persist: cannot reach /etc/systemd/system/perflab-tune.service below the sysroot without following a symlink"
T rollback >/dev/null 2>&1
# The tree's owner swaps the unit directory for a link after the apply: rollback stops
# and leaves the host's unit, enable link and .wants directory alone.
fresh
ok "apply --persist before the swap" T apply --persist pers
rm -rf "$TMP/host"
mkdir -p "$TMP/host/etc/systemd/system/sysinit.target.wants"
echo host >"$TMP/host/etc/systemd/system/perflab-tune.service"
ln -s ../perflab-tune.service "$TMP/host/etc/systemd/system/sysinit.target.wants/perflab-tune.service"
mv "$TMP/root/etc/systemd/system" "$TMP/swapped"
ln -s "$TMP/host/etc/systemd/system" "$TMP/root/etc/systemd/system"
"$PERFLAB" tune --sysroot "$TMP/root" --profile-dir "$P" --state-dir "$TMP/state" rollback >"$OUT" 2>"$ERR"
ok "swapped unit directory: rollback fails" test $? -ne 0
is "swapped: the host's unit is kept" "$(cat "$TMP/host/etc/systemd/system/perflab-tune.service")" "host"
ok "swapped: the host's enable link is kept" test -L "$TMP/host/etc/systemd/system/sysinit.target.wants/perflab-tune.service"

# Paths a unit file must quote (systemd.syntax(7)): a state directory with a space, '%',
# '$' and a ';' word is one ExecStart word with '%' and '$' doubled.
fresh
SD="$TMP/st ate%d\$HOME ; x"
ok "apply --persist with an odd state directory" "$PERFLAB" tune --sysroot "$TMP/root" --profile-dir "$P" --state-dir "$SD" apply --persist pers
ok "unit: state directory quoted" grep -qF -- "--state-dir \"$TMP/st ate%%d\$\$HOME ; x\" --profile-dir \"$TMP/st ate%%d\$\$HOME ; x/persist\" pers" "$U"
if command -v systemd-analyze >/dev/null && systemd-analyze verify "$U" >"$TMP/verify" 2>&1; then
	_report ok "systemd-analyze verify accepts the quoted unit"
else
	skip "systemd-analyze verify of the quoted unit" "$(head -1 "$TMP/verify" 2>/dev/null || echo 'systemd-analyze not installed')"
fi
"$PERFLAB" tune --sysroot "$TMP/root" --profile-dir "$P" --state-dir "$SD" rollback >/dev/null 2>&1
# A relative --state-dir is made absolute before the first write, so --persist works
# and its unit names the directory by its absolute path.
fresh
ok "relative --state-dir: apply --persist" bash -c "cd '$TMP' && '$PERFLAB' tune --sysroot '$TMP/root' --profile-dir '$P' --state-dir relstate apply --persist pers"
ok "relative --state-dir: unit names it absolute" grep -qF -- "--state-dir $TMP/relstate --profile-dir $TMP/relstate/persist pers" "$U"
ok "relative --state-dir: rollback" bash -c "cd '$TMP' && '$PERFLAB' tune --sysroot '$TMP/root' --profile-dir '$P' --state-dir relstate rollback"
ok "relative --state-dir: tree byte-identical" same_tree

# Everything --persist needs is checked before the first write: a refusal leaves the
# profile's values as they were (a profile is applied all or nothing).
refused() { # NAME EXPECTED-ERROR: the last command exited 2 with nothing written
	like "$1: one line saying why" "$(wc -l <"$ERR") $(cat "$ERR")" "^1 .*$2.*nothing was written"
	is "$1: value not applied" "$(cat "$TMP/root/proc/sys/vm/swappiness")" "$(cat "$TMP/orig/proc/sys/vm/swappiness")"
	ok "$1: tree byte-identical" same_tree
	ok "$1: no journal" test ! -e "$TMP/state/tune-journal.jsonl"
}
fresh
expect_exit 2 "a state directory with a newline: refused" "$PERFLAB" tune --sysroot "$TMP/root" \
	--profile-dir "$P" --state-dir "$TMP/state"$'\nExecStartPre=x' apply --persist pers
refused "newline state directory" "holds a control character"
ok "newline state directory: not created" test ! -e "$TMP/state"$'\nExecStartPre=x'
fresh
echo other >"$TMP/root/etc/systemd/system/perflab-tune.service"
cp -a "$TMP/root" "$TMP/orig2" && rm -rf "$TMP/orig" && mv "$TMP/orig2" "$TMP/orig"
expect_exit 2 "another unit in the way: refused" T apply --persist pers
refused "unit in the way" "perflab-tune.service exists \\(roll back first"
# The binary replaced or removed while it runs: /proc/self/exe reads '... (deleted)',
# which no unit can run. Run a removed copy through its open descriptor.
fresh
cp "$PERFLAB" "$TMP/perflab-copy"
bash -c 'exec 3<"$1"; rm "$1"; shift; exec /proc/self/fd/3 "$@"' _ "$TMP/perflab-copy" \
	tune --sysroot "$TMP/root" --profile-dir "$P" --state-dir "$TMP/state" apply --persist pers \
	>"$OUT" 2>"$ERR"
is "a removed binary: exit 2" "$?" 2
refused "removed binary" "perflab-copy \\(deleted\\)' was replaced or removed since it started"
done_testing
