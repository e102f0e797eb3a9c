#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The tuned profile loader against hostile profiles, through the CLI over a copy of the
# fixture sysroot tests/fixtures/tune/server: [bootloader] cmdline tokens that would run
# commands when update-grub sources /etc/default/grub are refused at load (exit 2, file
# and line, nothing written, no journal); a top-level '-name' (optional include syntax)
# that does not exist is an error in tune show/diff/apply and compare's profile=, not a
# crash; include depth, ${} expansion and condition regexes are bounded; a
# GRUB_CMDLINE_LINUX line perflab cannot rewrite faithfully is left to the user.
. "$PERFLAB_SRCDIR/tests/lib.sh"
FIX=$PERFLAB_SRCDIR/tests/fixtures/tune/server
P=$TMP/profiles
mkdir -p "$P"

fresh() {
	rm -rf "$TMP/root" "$TMP/orig" "$TMP/state"
	cp -a "$FIX" "$TMP/root"
	cp -a "$FIX" "$TMP/orig"
}
T() { "$PERFLAB" tune --sysroot "$TMP/root" --profile-dir "$P" --state-dir "$TMP/state" "$@"; }
same_tree() { diff -r "$TMP/orig" "$TMP/root" >"$TMP/treediff" 2>&1; }
mkprof() { # NAME CONTENT
	mkdir -p "$P/$1"
	printf '%s' "$2" >"$P/$1/tuned.conf"
}
clean() { # no sanitizer report, no crash
	! grep -Eq 'AddressSanitizer|runtime error|LeakSanitizer' "$ERR"
}

# ---- [bootloader] cmdline: hostile tokens ----
PWNED=$TMP/pwned
i=0
for tok in "quiet\"; touch $PWNED; \"" "\$(touch $PWNED)" "\`touch $PWNED\`" 'a=\' \
	"a=x;touch" 'a="x y"' "a='x'" 'a=$HOME' 'init=/bin/sh|x' 'a=<x' 'a=>x' 'a=(x)' 'a=*' \
	'a=[0]' 'a={x}' 'a=!x' 'a=~' $'a=\x03' $'a=\x7f' $'a=\xc3\xa9'; do
	i=$((i + 1))
	fresh
	mkprof "evil$i" "[main]
summary=hostile cmdline token
[bootloader]
cmdline=intel_idle.max_cstate=1
cmdline_evil=+processor.max_cstate=1 $tok
"
	expect_exit 2 "hostile token $i refused by apply" T apply "evil$i"
	like "hostile token $i: file, line, key and token named" "$(cat "$ERR")" \
		"evil$i/tuned.conf:5: profile 'evil$i', section \[bootloader\], key 'cmdline_evil': kernel command line token '.*' has "
	ok "hostile token $i: tree unchanged (grub file untouched)" same_tree
	is "hostile token $i: no journal" "$(test -e "$TMP/state" && echo yes || echo no)" "no"
done
is "no hostile command ran" "$(test -e "$PWNED" && echo yes || echo no)" "no"

fresh
# Through a variable, in a cmdline_NAME option of a unit typed bootloader.
mkprof evil-var '[variables]
v=nohz=on$(reboot)
[boot]
type=bootloader
cmdline_var=+${v}
'
expect_exit 2 "token from a variable refused" T apply evil-var
like "variable token: named with its line" "$(cat "$ERR")" "evil-var/tuned.conf:5: .*key 'cmdline_var': kernel command line token 'nohz=on\\\$\(reboot\)' has '\\\$'"
expect_exit 2 "show refuses it too" T show evil-var
expect_exit 2 "apply --dry-run refuses it too" T apply evil-var --dry-run
ok "variable token: tree unchanged" same_tree

# Clean tokens of every accepted character class still work.
mkprof boot-ok '[bootloader]
cmdline_ok=+isolcpus=managed_irq,domain,1-3 crashkernel=512M-2G:64M video=HDMI-A-1:1920x1080@60 root=/dev/disk/by-path/pci-0000:00:1f.2 pct=5%
'
expect_exit 0 "clean tokens apply" T apply boot-ok
is "clean tokens written" "$(grep '^GRUB_CMDLINE_LINUX=' "$TMP/root/etc/default/grub")" \
	'GRUB_CMDLINE_LINUX="intel_idle.max_cstate=1 console=ttyS0,115200 isolcpus=managed_irq,domain,1-3 crashkernel=512M-2G:64M video=HDMI-A-1:1920x1080@60 root=/dev/disk/by-path/pci-0000:00:1f.2 pct=5%"'
expect_exit 0 "rollback" T rollback
ok "rolled back" same_tree

# A GRUB_CMDLINE_LINUX line perflab would change the meaning of is left to the user.
fresh
sed -i 's/^GRUB_CMDLINE_LINUX=.*/GRUB_CMDLINE_LINUX="console=ttyS0" # serial/' "$TMP/root/etc/default/grub"
cp "$TMP/root/etc/default/grub" "$TMP/orig/etc/default/grub"
expect_exit 0 "apply with a grub line it cannot rewrite" T apply boot-ok
like "the token is manual, to add by hand" "$(cat "$OUT")" "manual: bootloader cmdline: GRUB_CMDLINE_LINUX in /etc/default/grub is quoted or built in a way perflab does not rewrite: add 'isolcpus=managed_irq,domain,1-3' to it by hand"
ok "that grub file untouched" same_tree

# ---- a top-level '-name' ----
fresh
for sub in show diff apply; do
	expect_exit 2 "tune $sub -- -missing: exit 2" T "$sub" -- -no-such-profile
	like "tune $sub -- -missing: says not found" "$(cat "$ERR")" \
		"profile 'no-such-profile' not found .*a leading '-' makes only an include optional"
	ok "tune $sub -- -missing: no crash or sanitizer report" clean
done
mkprof present '[main]
summary=present
[sysctl]
vm.swappiness=7
'
expect_exit 0 "tune show -- -present loads it" T show -- -present
like "-present: its summary" "$(cat "$OUT")" "present"
ok "tree unchanged by show/diff" same_tree
expect_exit 2 "compare profile=-missing: exit 2" env PERFLAB_PROFILEDIR="$P" "$PERFLAB" compare \
	--runs 2 --state-dir "$TMP/state" -n a -- /bin/true -n b --set profile=-no-such-profile -- /bin/true
like "compare profile=-missing: named" "$(cat "$ERR")" "variant 'b': profile '-no-such-profile': profile 'no-such-profile' not found"
ok "compare profile=-missing: no crash or sanitizer report" clean

# ---- bounds ----
# A generated include chain deeper than the limit.
for i in $(seq 0 40); do
	mkprof "chain$i" "[main]
include=chain$((i + 1))
[sysctl]
vm.k$i=1
"
done
mkprof chain41 '[sysctl]
vm.last=1
'
expect_exit 2 "include chain 42 deep refused" T show chain0
like "chain: file, line and limit" "$(cat "$ERR")" "chain31/tuned.conf:2: include of 'chain32' nests profiles more than 32 deep \(chain0 -> ... -> chain31\)"
ok "chain: no crash" clean
expect_exit 0 "a chain of 32 loads" T show chain10

# Variables that double each other.
{
	printf '[variables]\nv0=xxxxxxxxxxxxxxxx\n'
	for i in $(seq 1 64); do printf 'v%d=${v%d}${v%d}\n' "$i" $((i - 1)) $((i - 1)); done
	printf '[sysctl]\nvm.swappiness=${v64}\n'
} >"$TMP/double.conf"
mkdir -p "$P/double" && cp "$TMP/double.conf" "$P/double/tuned.conf"
expect_exit 2 "doubling variables refused" timeout 20 "$PERFLAB" tune --profile-dir "$P" show double
like "doubling: variable, line and limit" "$(cat "$ERR")" "double/tuned.conf:15: variable 'v13' is longer than 65536 bytes after \\\$\{\} expansion"

# A condition regex whose repetitions multiply.
mkprof regex "[cpu]
cpuinfo_regex=a$(printf '+%.0s' $(seq 1 60))
governor=performance
"
expect_exit 2 "a+++... regex refused" timeout 20 "$PERFLAB" tune --profile-dir "$P" diff regex
like "regex: line and limit" "$(cat "$ERR")" "regex/tuned.conf:2: section \[cpu\], cpuinfo_regex 'a\+\+\+.*' repeats too much: .*more than 4096 elements"
mkprof regex2 "[cpu]
uname_regex=$(head -c 2000 /dev/zero | tr '\0' a)
"
expect_exit 2 "a 2000-byte regex refused" "$PERFLAB" tune --profile-dir "$P" show regex2
like "long regex: length and limit" "$(cat "$ERR")" "regex2/tuned.conf:2: section \[cpu\], uname_regex is 2000 bytes long \(at most 1024\)"

# A FIFO in place of the variables file: noted, not waited on.
mkfifo "$TMP/fifo"
mkprof fifo "[variables]
include=$TMP/fifo
[sysctl]
vm.swappiness=1
"
expect_exit 0 "FIFO as variables file: no hang" timeout 20 "$PERFLAB" tune --profile-dir "$P" show fifo
like "FIFO noted" "$(cat "$OUT")" "not a regular file"
done_testing
