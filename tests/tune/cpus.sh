#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Items on many CPUs, over a copy of tests/fixtures/tune/server grown to 12 CPUs (cpu5
# already at the wanted governor): CPUs in numeric order (cpu2 before cpu10) in the
# items, the writes and the journal; the text of diff, apply --dry-run, apply and status
# shows the same change on a run of CPUs as one line ("cpu governor [cpu0-4,6-11]");
# status's columns start where their headers do.
. "$PERFLAB_SRCDIR/tests/lib.sh"
FIX=$PERFLAB_SRCDIR/tests/fixtures/tune/server
P=$TMP/profiles
cp -a "$FIX" "$TMP/root"
C=$TMP/root/sys/devices/system/cpu
for n in 2 3 4 5 6 7 8 9 10 11; do cp -a "$C/cpu1" "$C/cpu$n"; done
echo 0-11 >"$C/online"
echo performance >"$C/cpu5/cpufreq/scaling_governor"
mkdir -p "$P/gov"
printf '[cpu]\ngovernor=performance\n[sysctl]\nvm.swappiness=11\n' >"$P/gov/tuned.conf"
T() { "$PERFLAB" tune --sysroot "$TMP/root" --profile-dir "$P" --state-dir "$TMP/state" "$@"; }

ok "diff --json" T diff gov --json
is "items: CPUs in numeric order" "$(jq -r '[.items[] | select(.key == "governor") | .device] | join(" ")' "$OUT")" \
	"cpu0 cpu1 cpu2 cpu3 cpu4 cpu5 cpu6 cpu7 cpu8 cpu9 cpu10 cpu11"
ok "diff" T diff gov
is "diff: one line per run of CPUs with the same change" "$(grep -E '^cpu governor' "$OUT" | awk '{print $3, $4, $5, $6}')" \
	"[cpu0-4] powersave performance differs
[cpu5] performance performance match
[cpu6-11] powersave performance differs"
like "diff: other items as before" "$(cat "$OUT")" "sysctl vm.swappiness +60 +11 +differs"
like "diff: the summary still counts items" "$(cat "$OUT")" "1 match, 12 differ"

ok "apply --dry-run" T apply gov --dry-run
is "dry run: one line for the CPUs written (cpu5 is already set)" "$(sed 's/  */ /g' "$OUT")" \
	"would write cpu governor [cpu0-4,6-11] powersave -> performance
would write sysctl vm.swappiness 60 -> 11"
ok "apply" T apply gov
is "apply: consecutive steps of a run of CPUs on one line" "$(grep step "$OUT" | sed 's/  */ /g')" \
	"steps 1-11: cpu governor [cpu0-4,6-11] powersave -> performance
step 12: sysctl vm.swappiness 60 -> 11"
is "journal: CPUs in numeric order" "$(jq -r 'select(.op == "set") | .target' "$TMP/state/tune-journal.jsonl" | sed -n '5p;6p;11p')" \
	"/sys/devices/system/cpu/cpu4/cpufreq/scaling_governor
/sys/devices/system/cpu/cpu6/cpufreq/scaling_governor
/sys/devices/system/cpu/cpu11/cpufreq/scaling_governor"

ok "status" T status
is "status: a row per run of CPUs" "$(sed -n '2,$p' "$OUT" | awk '{print $1, $3, $4, $5, $6}')" \
	"STEP TARGET OLD -> NEW
1-11 /sys/devices/system/cpu/cpu0-4,6-11/cpufreq/scaling_governor powersave -> performance
12 /proc/sys/vm/swappiness 60 -> 11"
# every cell starts at its header's column, after a space
aligned() {
	awk 'NR == 2 { h = $0; n = split("PROFILE TARGET OLD TIME", w, " ")
		for (k = 1; k <= n; k++) col[k] = index(h, w[k]); next }
	NR > 2 && NF { for (k = 1; k <= n; k++) {
		c = col[k]; if (substr($0, c - 1, 1) != " " || substr($0, c, 1) == " ") bad++ } }
	END { exit (bad > 0 || n != 4) }' "$1"
}
cp "$OUT" "$TMP/status.txt"
ok "status: columns aligned with their headers" aligned "$TMP/status.txt"
ok "rollback" T rollback
ok "status --all" T status --all
cp "$OUT" "$TMP/status-all.txt"
ok "status --all: columns aligned" aligned "$TMP/status-all.txt"
like "status --all: undone marked" "$(cat "$TMP/status-all.txt")" "powersave -> performance \(undone\)"
is "rolled back" "$(cat "$C/cpu10/cpufreq/scaling_governor") $(cat "$C/cpu5/cpufreq/scaling_governor")" "powersave performance"
done_testing
