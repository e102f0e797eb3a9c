#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab check: JSON schema, --fail-on exit codes, --workload, --list-rules, -q/-v output,
# -o, over this machine and a small synthetic sysroot (a Xen guest with tsc available).
. "$PERFLAB_SRCDIR/tests/lib.sh"

# A Xen guest: clocksource xen, tsc available. Only the files read.
X=$TMP/xen
mkdir -p "$X/sys/devices/system/clocksource/clocksource0" "$X/proc/sys/kernel"
echo xen >"$X/sys/devices/system/clocksource/clocksource0/current_clocksource"
echo "xen tsc hpet acpi_pm" >"$X/sys/devices/system/clocksource/clocksource0/available_clocksource"
echo "BOOT_IMAGE=/vmlinuz ro quiet" >"$X/proc/cmdline"

ok "check on this machine" "$PERFLAB" check --json
cp "$OUT" "$TMP/live.json"
validate check.schema.json "$TMP/live.json"
is "workload defaults to general" "$(jqv "$TMP/live.json" .workload)" general
is "summary total counts the findings" "$(jqv "$TMP/live.json" '.summary.total == (.findings|length)')" true
is "summary crit counts the critical findings" "$(jqv "$TMP/live.json" '.summary.crit == ([.findings[] | select(.severity == "crit")] | length)')" true
# the exit status follows the findings (default --fail-on crit): 1 with a critical one
want=$([ "$(jqv "$TMP/live.json" .summary.crit)" -gt 0 ] && echo 1 || echo 0)
expect_exit "$want" "check on this machine exits $want (its crit findings: $(jqv "$TMP/live.json" .summary.crit))" "$PERFLAB" check

for w in general latency throughput hpc network storage benchmark; do
	ok "check --workload $w" "$PERFLAB" check --json --workload "$w"
	cp "$OUT" "$TMP/w-$w.json"
	is "workload $w recorded" "$(jqv "$TMP/w-$w.json" .workload)" "$w"
done
validate check.schema.json "$TMP/w-latency.json"
validate check.schema.json "$TMP/w-network.json"
like "hpc checks numad" "$("$PERFLAB" check --list-rules --json | jq -r '[.rules[]|select(.workloads|index("hpc"))|.id]|join(" ")')" 'numa.numad-hpc'

expect_exit 1 "xen guest: --fail-on warn exits 1" "$PERFLAB" check --sysroot "$X" --json --fail-on warn
cp "$OUT" "$TMP/xen.json"
validate check.schema.json "$TMP/xen.json"
is "xen guest: exactly clock.xen-tsc" "$(jqv "$TMP/xen.json" '[.findings[].id]|join(",")')" clock.xen-tsc
is "xen guest: observed" "$(jqv "$TMP/xen.json" '.findings[0].observed')" "clocksource xen (tsc available)"
is "xen guest: fix command" "$(jqv "$TMP/xen.json" '.findings[0].fix.command')" \
	"echo tsc > /sys/devices/system/clocksource/clocksource0/current_clocksource"
is "xen guest: fix profile line" "$(jqv "$TMP/xen.json" '.findings[0].fix.tune')" \
	"[bootloader] cmdline=clocksource=tsc tsc=reliable"
is "xen guest: facts used" "$(jqv "$TMP/xen.json" '.findings[0].facts|join(",")')" \
	"clocksource.current,clocksource.available,cpu.tsc.invariant"
expect_exit 0 "xen guest: default --fail-on crit exits 0" "$PERFLAB" check --sysroot "$X"
expect_exit 1 "xen guest: --fail-on info exits 1" "$PERFLAB" check --sysroot "$X" --fail-on info
expect_exit 2 "--fail-on with an unknown severity" "$PERFLAB" check --fail-on fatal
like "unknown severity lists the choices" "$(cat "$ERR")" 'info, warn, crit'
expect_exit 2 "unexpected argument" "$PERFLAB" check extra
like "unexpected argument named" "$(cat "$ERR")" "unexpected argument 'extra'"

# Human output: grouped by severity, observed/expected/fix/why/source, -q titles only.
ok "human output" "$PERFLAB" check --sysroot "$X"
txt=$(cat "$OUT")
like "header counts findings" "$txt" '^perflab check \(workload: general\): 1 finding: 0 crit, 1 warn, 0 info'
like "grouped under Warnings" "$txt" $'\nWarnings\n  \\[WARN\\] clocksource is xen'
like "observed shown" "$txt" 'observed: +clocksource xen \(tsc available\)'
like "fix shown" "$txt" 'fix: +echo tsc >'
like "profile line shown" "$txt" 'profile: +\[bootloader\] cmdline=clocksource=tsc tsc=reliable'
like "rationale shown" "$txt" 'why: +The xen pvclock clocksource'
like "source shown" "$txt" 'source: +https://docs.aws.amazon.com/'
like "footer counts rules" "$txt" '[0-9]+ rules checked'
ok "quiet output" "$PERFLAB" check --sysroot "$X" -q
is "-q prints titles only" "$(grep -c 'observed:' "$OUT")" 0
like "-q keeps the title" "$(cat "$OUT")" 'clocksource is xen'
ok "verbose output" "$PERFLAB" check --sysroot "$X" -v
like "-v lists rules that could not run" "$(cat "$OUT")" 'could not run because facts are unavailable:'

# -o writes the same document atomically.
ok "check -o FILE" "$PERFLAB" check --sysroot "$X" --json -o "$TMP/out.json"
is "-o file equals stdout document" "$(jq -S . "$TMP/out.json")" "$(jq -S . "$TMP/xen.json")"
expect_exit 2 "-o into a missing directory" "$PERFLAB" check --json -o "$TMP/nodir/x.json"
is "nothing left behind" "$(ls "$TMP" | grep -c nodir)" 0

# --list-rules: text and JSON agree with each other and with the schema.
ok "--list-rules" "$PERFLAB" check --list-rules
n_text=$(wc -l <"$OUT")
like "--list-rules shows id, severity, title, workloads" "$(cat "$OUT")" 'clock\.xen-tsc +warn clocksource is xen.*\[all\]'
ok "--list-rules --json" "$PERFLAB" check --list-rules --json
cp "$OUT" "$TMP/rules.json"
validate rules.schema.json "$TMP/rules.json"
is "text and JSON list the same rules" "$(jqv "$TMP/rules.json" '.rules|length')" "$n_text"
is "rule ids are unique" "$(jqv "$TMP/rules.json" '[.rules[].id]|unique|length')" "$n_text"
is "risky rules are the three of the seeds plus vfs_cache_pressure=0" \
	"$(jqv "$TMP/rules.json" '[.rules[]|select(.risky).id]|sort|join(",")')" \
	"mem.vfs-cache-pressure-zero,net.icmp-echo-ignored,net.tcp-timestamps-off,net.tcp-tw-recycle"
# A block device whose name is shell syntax ("sd$(id);a b"): every fix command that names
# it holds it as one single-quoted word, so pasting the command runs no other command.
H=$TMP/hostile-sh
cp -a "$FIXTURES/sysroots/intel-2s" "$H"
BD=sys/devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block
EVIL='sd$(id);a b'
mv "$H/$BD/sda" "$H/$BD/$EVIL"
rm "$H/sys/block/sda"
ln -s "../devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/$EVIL" "$H/sys/block/$EVIL"
"$PERFLAB" check --sysroot "$H" -W throughput --fail-on info --json >"$TMP/hostile-sh.json" 2>"$ERR"
cmds=$(jq -r '.findings[] | select(.fix.command != null) | .fix.command | select(contains("sd$"))' "$TMP/hostile-sh.json")
ok "hostile device name: fix commands name it" test -n "$cmds"
is "hostile device name: every such command quotes it as one word" \
	"$(printf '%s\n' "$cmds" | grep -vc "/sys/block/'sd\$(id);a b'/queue/")" "0"
# check prints no facts: it leaves out the costly ones no rule reads (kernel.config_hz, the
# kernel config decompressed); inspect reads it from the same tree
VM=$FIXTURES/sysroots/this-vm
if command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null; then
	strace -f -qq -e trace=openat -o "$TMP/check.strace" "$PERFLAB" check --json -o /dev/null --sysroot "$VM"
	is "check does not read /proc/config.gz" "$(grep -c 'proc/config\.gz' "$TMP/check.strace")" 0
	strace -f -qq -e trace=openat -o "$TMP/inspect.strace" "$PERFLAB" inspect --json -o /dev/null --sysroot "$VM"
	like "inspect reads /proc/config.gz" "$(grep -c 'proc/config\.gz' "$TMP/inspect.strace")" '^[1-9]'
else
	skip "check does not read /proc/config.gz" "strace is missing or cannot trace"
fi
is "inspect of the same tree has kernel.config_hz" \
	"$("$PERFLAB" inspect --json --sysroot "$VM" | jq -r '.facts["kernel.config_hz"].value')" 250
done_testing
