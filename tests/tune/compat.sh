#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# What perflab plans for the tuned compatibility cases of tests/tune/corpus on the fixture
# tree tests/fixtures/tune/compat, where the loader comparison (tuned-diff.sh) cannot see
# it: the writes. Runs without tuned installed.
. "$PERFLAB_SRCDIR/tests/lib.sh"
FIX=$PERFLAB_SRCDIR/tests/fixtures/tune/compat
CORPUS=$PERFLAB_SRCDIR/tests/tune/corpus
pl() { "$PERFLAB" --sysroot "$FIX" tune "$@" --profile-dir "$CORPUS"; }
items() { # PROFILE JQ-FILTER
	pl diff "$1" --json | jq -r -c "$2"
}

# cmdline_NAME options add up across includes, in order; '-' removes every occurrence.
is "cmdline_NAME appended across includes" \
	"$(items t-boot-append '[.items[] | select(.key == "cmdline") | .wanted] | join(" ")')" \
	"skew_tick=1 isolcpus=2"
is "plain, + and - cmdline options" \
	"$(items t-boot-plus-minus '[.items[] | select(.key == "cmdline") | .wanted] | join(" ")')" \
	"quiet mitigations=off"
is "an overridden cmdline_NAME still follows the included ones" \
	"$(items t-boot-override '[.items[] | select(.key == "cmdline") | .wanted] | join(" ")')" \
	"quiet nosmt"
# uname_regex is matched against "ostype hostname osrelease version arch".
is "uname_regex=^Linux applies" "$(items t-uname-linux '[.items[].key] | join(" ")')" "vm.swappiness"
is "uname_regex on the kernel release applies" \
	"$(items t-uname-release '[.items[].key] | join(" ")')" "vm.swappiness"
is "uname_regex on the machine applies" "$(items t-uname-machine '[.items[].key] | join(" ")')" \
	"vm.swappiness"
is "uname_regex=^FreeBSD does not apply" "$(items t-uname-nomatch '.items | length')" "0"
like "show: why a unit does not apply" \
	"$(pl show t-uname-nomatch --json | jq -r '.units[0].not_applied_reason')" "uname_regex"
# devices_udev_regex: the unit writes nothing, and says why.
is "devices_udev_regex: nothing written" \
	"$(items t-udev-regex '[.items[] | select(.write != null)] | length')" "0"
like "devices_udev_regex: the readahead item says why" \
	"$(items t-udev-regex '.items[] | select(.key == "readahead") | .reason')" \
	"devices_udev_regex, which perflab cannot match"
is "devices_udev_regex listed in show" \
	"$(pl show t-udev-regex --json | jq -r -c '.units[0].unsupported_keys')" '["devices_udev_regex"]'
# readahead: "N s" is sectors; ">8192 s" refuses the profile (tuned writes nothing).
is "readahead=8192 s writes 4096 KiB to each disk" \
	"$(items t-readahead-sectors '[.items[] | "\(.device)=\(.write)"] | join(" ")')" \
	"sda=4096 sdb=4096"
expect_exit 2 "readahead=>8192 s refuses the profile" pl diff t-readahead-bad
like "readahead=>8192 s: the message" "$(cat "$ERR")" "not a readahead tuned accepts"
is "readahead=>4096 over 128 writes 4096" \
	"$(items t-readahead-gt '[.items[] | .write] | join(" ")')" "4096 4096"
# [sysfs] values are literal: '>4096' is not "at least 4096" (4096 would match it).
is "[sysfs] >N is not a modifier" \
	"$(items t-sysfs-modifier '.items[0] | "\(.wanted) \(.state)"')" ">4096 refused"
# Quoted sysctl values are unquoted, like tuned's sysctl plugin.
is "quoted sysctl values" \
	"$(items t-sysctl-quoted '[.items[] | "\(.key)=\(.write // "match")"] | join(" ")')" \
	"vm.swappiness=match net.ipv4.tcp_rmem=4096 87380 16777216"
# drop= splits on , and ; only.
is "drop=a b drops nothing" "$(pl show t-drop-space --json | jq -r '[.units[0].options[].key] | join(" ")')" \
	"vm.swappiness vm.dirty_ratio kernel.numa_balancing"
is "drop=a ; b drops both" \
	"$(pl show t-drop-semicolon --json | jq -r '[.units[0].options[].key] | join(" ")')" "vm.dirty_ratio"
# Indented continuation lines (ConfigParser): integers continue, written with spaces.
is "continued tcp_rmem: three integers, accepted by the value check" \
	"$(items t-continuation '.items[] | select(.key == "net.ipv4.tcp_rmem") | "\(.wanted | split("\n") | join(",")) \(.state)"')" \
	"4096,87380,16777216 differs"
mkdir -p "$TMP/root"
cp -a "$FIX/." "$TMP/root/"
ok "continued tcp_rmem applied" "$PERFLAB" --sysroot "$TMP/root" tune apply t-continuation \
	--profile-dir "$CORPUS" --state-dir "$TMP/state"
is "continued tcp_rmem written with spaces" "$(cat "$TMP/root/proc/sys/net/ipv4/tcp_rmem")" \
	"4096 87380 16777216"
is "continued cmdline" "$(items t-continuation-boot '[.items[] | .wanted] | join(" ")')" \
	"quiet splash"
# script= is resolved against the profile directory.
is "script=rel.sh resolved" "$(pl show t-script-rel --json | jq -r '.units[0].options[0].expanded')" \
	"$CORPUS/t-script-rel/rel.sh"
# [bootloader] cmdline="a b": tuned unquotes the merged cmdline as one string.
is "cmdline=\"quiet splash\" unquoted" \
	"$(items t-boot-quoted '[.items[] | select(.key == "cmdline") | .wanted] | join(" ")')" "quiet splash"
is "cmdline=+\"nosmt mitigations=off\" unquoted" \
	"$(items t-boot-quoted-plus '[.items[] | select(.key == "cmdline") | .wanted] | join(" ")')" \
	"nosmt mitigations=off"
expect_exit 2 "quotes tuned would keep in the merged cmdline: refused" pl diff t-boot-quoted-mixed
like "quotes tuned keeps: the message" "$(cat "$ERR")" "cmdline_mine.*has quotes that tuned keeps"
# Section names are kept as written; a merged [script] without script= repeats the scripts.
is "section names with blanks" "$(pl show t-section-space --json | jq -r -c '[.units[] | "\(.name)=\(.type)"]')" \
	'["my sysctl=sysctl"," padded =vm"]'
is "[script] without script= over one with it: the scripts twice, as tuned's Merger" \
	"$(pl show t-script-merge-child --json | jq -r '.units[0].options[0].expanded')" \
	"$CORPUS/t-script-merge-parent/parent.sh $CORPUS/t-script-merge-parent/parent.sh"
# The write cases of tuned-writes.sh, on the same tree (compat + writes + the case's own).
wtree() { # CASE: a fresh tree in $TMP/w
	rm -rf "$TMP/w"
	cp -a "$FIX" "$TMP/w"
	cp -a "$PERFLAB_SRCDIR/tests/fixtures/tune/writes/." "$TMP/w/"
	[ ! -d "$CORPUS/$1/sysroot" ] || cp -a "$CORPUS/$1/sysroot/." "$TMP/w/"
}
witems() { # CASE JQ-FILTER
	wtree "$1"
	"$PERFLAB" --sysroot "$TMP/w" tune diff "$1" --profile-dir "$CORPUS" --json | jq -r -c "$2"
}
is "an offline CPU is skipped, like tuned" \
	"$(witems t-w-cpu-offline '[.items[] | select(.device == "cpu3") | .state] | unique | join(" ")')" \
	"not-applicable"
is "each CPU belongs to the first [cpu] unit" \
	"$(witems t-w-cpu-taken '[.items[] | select(.unit == "cpu2") | .state] | join(" ")')" "not-applicable"
is "each disk belongs to the first [disk] unit" \
	"$(witems t-w-disk-taken '[.items[] | select(.unit == "disk-sd") | .state] | join(" ")')" \
	"not-applicable not-applicable"
is "a removable disk and an SD card are never tuned, even by name" \
	"$(witems t-w-disk-removable '[.items[] | .device] | join(" ")')" "sda"
is "THP left alone when the kernel command line sets it" \
	"$(witems t-w-thp-cmdline '.items[0] | "\(.state) \(.reason)"')" \
	"not-applicable the kernel command line sets transparent_hugepage=, which tuned keeps too"
is "deprecated sysctl refused like tuned" \
	"$(witems t-w-sysctl-deprecated '[.items[] | .state] | join(" ")')" "unsupported differs"
is "readahead_multiply after readahead multiplies the new value" \
	"$(witems t-w-readahead-both '[.items[] | select(.key == "readahead_multiply") | .write] | join(" ")')" \
	"2048 2048 2048"
wtree t-w-min-perf-modifier
expect_exit 2 "min_perf_pct=>50 is not a percentage (tuned writes it literally)" \
	"$PERFLAB" --sysroot "$TMP/w" tune diff t-w-min-perf-modifier --profile-dir "$CORPUS"
# Deliberate: an include loop is an error; ${f:exec} is never run.
expect_exit 2 "include loop refused" pl show t-include-loop-a
like "include loop: the cycle" "$(cat "$ERR")" "include loop: t-include-loop-a -> t-include-loop-b -> t-include-loop-a"
like "\${f:exec} is not run" "$(items t-exec '.items[0] | "\(.state) \(.reason)"')" "^unsupported .*runs a program.*perflab never runs one"
# verify compares like tuned where that is right, and says how it compared.
expect_exit 0 "verify: a hex mask, a hex number in another case and an alternative match" \
	pl verify t-verify-tuned
is "verify says how each matched" \
	"$(items t-verify-tuned '[.items[] | "\(.state):\(.reason)"] | join(" ")')" \
	"match:matches as CPU masks match:matches as hexadecimal numbers match:matches as one of the alternatives"
mkdir -p "$TMP/p/t-verify-no"
printf '[sysctl]\nvm.swappiness=10|20\n[sysfs]\n/sys/devices/virtual/workqueue/cpumask=1ff\n' \
	>"$TMP/p/t-verify-no/tuned.conf"
expect_exit 1 "verify: 60 is not 10|20, 000000ff is not 1ff" \
	"$PERFLAB" --sysroot "$FIX" tune verify t-verify-no --profile-dir "$TMP/p"

# ---- [variables] merged as tuned 2.20 merges the unit (tuned-diff.sh compares the
# values with tuned's own loader; these pin them and the warning) ----
opts() { pl show "$1" --json | jq -r -c '[.units[] | select(.name == "probe") | .options[] | "\(.key)=\(.expanded)"] | join(" ")'; }
is "replace=1 in [variables] drops the included variables" "$(opts t-var-replace)" 'base_a=${a} a=${a} b=${b} c=3'
is "drop= in [variables] drops the named variable" "$(opts t-var-drop)" 'base_a=${a} a=${a} b=2 d=4'
is "a unit's keys in [variables] are not variables" "$(opts t-var-reserved)" 't=${type} d=${devices} e=${enabled} u=${uname_regex} x=5'
is "a name outside \\w is not a variable" "$(opts t-var-badname)" 'v=${a-b} w=${a.c} x=3'
is "used before its definition: unexpanded, as tuned" "$(opts t-var-order)" 'early=${late} second=2 own=${later} later=3'
is "used before its definition: a note per variable" "$(pl show t-var-order --json | jq -r '.notes[]' | sed "s|$CORPUS/||g")" \
	"t-var-order-parent/tuned.conf:5: variable 'early' uses \${late} before its definition (t-var-order/tuned.conf:7) in the merge order: left unexpanded, as tuned does; define 'late' first
t-var-order/tuned.conf:9: variable 'own' uses \${later} before its definition (t-var-order/tuned.conf:10) in the merge order: left unexpanded, as tuned does; define 'later' first"
pl diff t-var-order >"$OUT" 2>"$ERR"
like "used before its definition: diff warns, naming the variable and the file" "$(cat "$ERR")" \
	"warning: $CORPUS/t-var-order-parent/tuned.conf:5: variable 'early' uses \\\$\\{late\\} before its definition"
done_testing
