#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab tune over the fixture sysroot tests/fixtures/tune/server (copied per test):
# every plugin item, show/diff/apply/verify/rollback/status, stacking, JSON schemas,
# refusals (traversal, symlink escapes), bad profiles and missing root.
. "$PERFLAB_SRCDIR/tests/lib.sh"
FIX=$PERFLAB_SRCDIR/tests/fixtures/tune/server
PROFILES=$PERFLAB_SRCDIR/tests/tune/profiles

fresh() { # fresh copy of the fixture in $TMP/root, the pristine one in $TMP/orig, empty state
	rm -rf "$TMP/root" "$TMP/orig" "$TMP/state"
	cp -a "$FIX" "$TMP/root"
	cp -a "$FIX" "$TMP/orig"
}
T() { "$PERFLAB" tune --sysroot "$TMP/root" --profile-dir "$PROFILES" --state-dir "$TMP/state" "$@"; }
val() { cat "$TMP/root$1"; }
same_tree() { diff -r "$TMP/orig" "$TMP/root" >"$TMP/treediff" 2>&1; }

fresh
# ---- show: merged view with origins ----
expect_exit 0 "show all-plugins" T show all-plugins
like "show: overridden key comes from the child" "$(grep 'vm.swappiness' "$OUT")" "10 .*all-plugins/tuned.conf:12"
like "show: inherited key names the base file" "$(grep 'vm.vfs_cache_pressure' "$OUT")" "90 .*base/tuned.conf:10"
is "show: drop= removed the base key" "$(grep -c numa_balancing "$OUT")" "0"
like "show: variable expanded" "$(grep -E '^  min_perf_pct' "$OUT")" "90 "
like "show: unsupported plugin named" "$(cat "$OUT")" "\[scheduler\] unsupported plugin 'scheduler'"
like "show: optional include noted" "$(cat "$OUT")" "optional include '-not-installed-anywhere'"
T show all-plugins --json >"$TMP/show.json"
validate tune-show.schema.json "$TMP/show.json"
is "show --json: disk unit replaced (no kyber from base)" "$(jq -r '.units[] | select(.name=="disk") | .options[] | select(.key=="elevator") | .value' "$TMP/show.json")" "bfq|none"
is "show --json: chain base then child" "$(jq -r '.chain | map(split("/")[-2]) | join(",")' "$TMP/show.json")" "base,all-plugins"

# ---- diff: current vs wanted ----
T diff all-plugins --json >"$TMP/diff.json"
validate tune-items.schema.json "$TMP/diff.json"
st() { jq -r --arg k "$1" --arg d "${2:-}" '[.items[] | select(.key==$k and ((.device // "")==$d))][0] | "\(.state) \(.current) \(.write)"' "$TMP/diff.json"; }
is "diff sysctl plain" "$(st vm.swappiness)" "differs 60 10"
is "diff sysctl >N below" "$(st net.core.somaxconn)" "differs 4096 8192"
is "diff sysctl <N above" "$(st net.core.rmem_max)" "differs 212992 100000"
is "diff sysctl slash name" "$(st net/ipv4/conf/eth0.100/rp_filter)" "differs 0 1"
is "diff sysctl tabs vs spaces" "$(st net.ipv4.tcp_rmem | cut -d' ' -f1)" "differs"
is "diff cpu governor a|b picks the offered one" "$(st governor cpu0)" "differs powersave performance"
is "diff cpu energy_perf_bias name -> number" "$(st energy_perf_bias cpu1)" "differs 6 15"
is "diff cpu energy_performance_preference" "$(st energy_performance_preference cpu0)" "differs balance_power balance_performance"
is "diff cpu min_perf_pct from variable" "$(st min_perf_pct)" "differs 20 90"
is "diff cpu max_perf_pct already right" "$(st max_perf_pct)" "match 100 null"
is "diff cpu no_turbo" "$(st no_turbo)" "differs 0 1"
is "diff cpu boost" "$(st boost)" "differs 1 0"
is "diff cpu force_latency is manual (C1 = 2 us)" "$(st force_latency)" "manual null 2"
like "diff force_latency offers hold-latency" "$(jq -r '.items[] | select(.key=="force_latency") | .reason' "$TMP/diff.json")" "perflab tune hold-latency 2"
is "diff disk elevator selection file" "$(st elevator sda)" "differs mq-deadline bfq"
is "diff disk readahead 'N s' = sectors/2 KiB" "$(st readahead sdb)" "differs 128 4096"
is "diff disk nr_requests >N" "$(st nr_requests sda)" "differs 64 128"
is "diff disk devices=sd* skips loop0" "$(jq '[.items[] | select(.device=="loop0")] | length' "$TMP/diff.json")" "0"
is "diff vm THP" "$(st transparent_hugepages)" "differs madvise never"
is "diff vm THP defrag" "$(st transparent_hugepage.defrag)" "differs madvise defer"
is "diff vm dirty_bytes N% -> dirty_ratio" "$(jq -r '.items[] | select(.key=="dirty_bytes") | "\(.target) \(.write)"' "$TMP/diff.json")" "/proc/sys/vm/dirty_ratio 15"
is "diff vm dirty_background_bytes" "$(st dirty_background_bytes)" "differs 0 67108864"
is "diff sysfs glob expands per CPU" "$(jq '[.items[] | select(.plugin=="sysfs")] | length' "$TMP/diff.json")" "3"
is "diff bootloader token already running" "$(jq -r '.items[] | select(.plugin=="bootloader" and .wanted=="intel_idle.max_cstate=1") | .state' "$TMP/diff.json")" "match"
is "diff bootloader new tokens" "$(jq -r '[.items[] | select(.plugin=="bootloader" and .state=="differs") | .wanted] | join(" ")' "$TMP/diff.json")" "processor.max_cstate=1 idle=poll nohz=on"
is "diff unsupported plugins listed by name" "$(jq -r '[.items[] | select(.state=="unsupported") | .plugin] | join(",")' "$TMP/diff.json")" "scheduler,net"
expect_exit 1 "verify before apply fails" T verify all-plugins

# ---- apply --dry-run writes nothing ----
expect_exit 0 "apply --dry-run" T apply all-plugins --dry-run
ok "dry run left the tree unchanged" same_tree
is "dry run created no journal" "$(ls "$TMP/state" 2>/dev/null | wc -l)" "0"

# ---- apply, verify, status, rollback ----
expect_exit 0 "apply all-plugins" T apply all-plugins
like "apply prints the grub update command" "$(cat "$OUT")" "run 'update-grub' yourself"
is "applied sysctl" "$(val /proc/sys/vm/swappiness)" "10"
is "applied tcp_rmem" "$(val /proc/sys/net/ipv4/tcp_rmem)" "4096 87380 16777216"
is "applied governor through /sys" "$(val /sys/devices/system/cpu/cpu1/cpufreq/scaling_governor)" "performance"
is "applied epb" "$(val /sys/devices/system/cpu/cpu0/power/energy_perf_bias)" "15"
is "applied elevator through the /sys/block symlink" "$(val /sys/devices/pci0000:00/0000:00:1f.2/block/sda/queue/scheduler)" "bfq"
is "applied readahead" "$(val /sys/block/sdb/queue/read_ahead_kb)" "4096"
is "loop0 untouched" "$(val /sys/block/loop0/queue/read_ahead_kb)" "128"
is "applied THP" "$(val /sys/kernel/mm/transparent_hugepage/enabled)" "never"
is "applied dirty_ratio" "$(val /proc/sys/vm/dirty_ratio)" "15"
is "applied writeback cpumask" "$(val /sys/bus/workqueue/devices/writeback/cpumask)" "1"
is "grub: tokens appended, existing kept, other lines untouched" "$(grep -v '^GRUB_CMDLINE_LINUX=' "$TMP/root/etc/default/grub")" "$(grep -v '^GRUB_CMDLINE_LINUX=' "$TMP/orig/etc/default/grub")"
is "grub: new GRUB_CMDLINE_LINUX" "$(grep '^GRUB_CMDLINE_LINUX=' "$TMP/root/etc/default/grub")" 'GRUB_CMDLINE_LINUX="intel_idle.max_cstate=1 console=ttyS0,115200 processor.max_cstate=1 idle=poll nohz=on"'
is "journal dir is 0700" "$(stat -c %a "$TMP/state")" "700"
is "journal file is 0600" "$(stat -c %a "$TMP/state/tune-journal.jsonl")" "600"
is "scaling_governor written once (sysfs glob after [cpu] skipped)" "$(grep -c '"op":"set".*cpu0/cpufreq/scaling_governor' "$TMP/state/tune-journal.jsonl")" "1"
T verify all-plugins --json >"$TMP/verify.json"
is "verify exits 1 while the cmdline is pending reboot" "$?" "1"
validate tune-items.schema.json "$TMP/verify.json"
is "verify: pending reboot items" "$(jq -r '[.items[] | select(.state=="pending-reboot") | .wanted] | join(" ")' "$TMP/verify.json")" "processor.max_cstate=1 idle=poll nohz=on"
is "verify: everything else applicable matches" "$(jq -r '[.items[] | select(.state=="differs")] | length' "$TMP/verify.json")" "0"
# Boot with the new command line: verify passes.
printf 'BOOT_IMAGE=/vmlinuz root=/dev/sda1 intel_idle.max_cstate=1 console=ttyS0,115200 processor.max_cstate=1 idle=poll nohz=on\n' >"$TMP/root/proc/cmdline"
expect_exit 0 "verify after 'reboot' passes" T verify all-plugins
cp "$TMP/orig/proc/cmdline" "$TMP/root/proc/cmdline"
expect_exit 0 "apply again is a no-op" T apply all-plugins
like "second apply journals nothing" "$(cat "$OUT")" "^0 changes journaled|
0 changes journaled"
T status --json >"$TMP/status.json"
validate tune-journal.schema.json "$TMP/status.json"
is "status lists every change" "$(jq '.live' "$TMP/status.json")" "$(jq '.entries | length' "$TMP/status.json")"
is "status entry has old and new" "$(jq -r '.entries[0] | "\(.step) \(.target) \(.old) \(.new) \(.status) \(.profile)"' "$TMP/status.json")" "1 /proc/sys/vm/swappiness 60 10 ok all-plugins"
T rollback --json >"$TMP/rb.json"
is "rollback exit" "$?" "0"
validate tune-journal.schema.json "$TMP/rb.json"
is "rollback restores newest first" "$(jq -r '[.entries[].step] | (.[0] > .[-1])' "$TMP/rb.json")" "true"
ok "rollback restored the tree byte for byte" same_tree
expect_exit 0 "rollback of nothing" T rollback
like "rollback of nothing says so" "$(cat "$OUT")" "nothing to roll back"
expect_exit 0 "rollback without any journal is a no-op" "$PERFLAB" tune --state-dir "$TMP/none" rollback
is "no state dir created by a no-op rollback" "$(test -e "$TMP/none" && echo yes || echo no)" "no"

# ---- stacking and rollback --to ----
fresh
expect_exit 0 "apply stack-a" T apply stack-a
expect_exit 0 "apply stack-b on top" T apply stack-b
is "stacked: last writer wins" "$(val /proc/sys/vm/swappiness)" "5"
T status --json >"$TMP/status.json"
is "stacked: journal has both profiles" "$(jq -r '[.entries[].profile] | unique | join(",")' "$TMP/status.json")" "stack-a,stack-b"
expect_exit 0 "rollback --to 2 (undo stack-b)" T rollback --to 2
is "after --to 2: stack-a's value back" "$(val /proc/sys/vm/swappiness)" "20"
is "after --to 2: THP restored" "$(val /sys/kernel/mm/transparent_hugepage/enabled)" "always [madvise] never"
expect_exit 0 "rollback the rest" T rollback
ok "stacked rollback restored the tree byte for byte" same_tree

# ---- verify normalisation ----
fresh
expect_exit 0 "verify: leading zeros, tabs vs spaces, >N satisfied" T verify verify-ok

# ---- refusals ----
fresh
T diff escape --json >"$TMP/esc.json"
is "symlinks out of /sys and /proc/sys refused" "$(jq -r '[.items[] | select(.state=="refused") | .reason | test("^refused: outside the sysroot: a symlink leads out")] | map(select(.)) | length' "$TMP/esc.json")" "3"
is "diff counts the refused items" "$(jq -r '.summary.refused' "$TMP/esc.json")" "3"
expect_exit 2 "apply escape writes nothing (exit 2)" T apply escape
like "escape: every refused item named with its line" "$(cat "$ERR")" "escape/tuned.conf:2: .*/sys/class-escape/shadow: refused: outside the sysroot.*
.*escape/tuned.conf:3: .*/sys/abs-escape/shadow: refused: outside the sysroot.*
.*escape/tuned.conf:6: .*kernel.shadow-link \(/proc/sys/kernel/shadow-link\): refused: outside the sysroot"
like "escape: says nothing was applied" "$(cat "$ERR")" "nothing was applied: 3 items"
is "escape: not blamed on root" "$(grep -c 'need root' "$ERR")" "0"
ok "escape: tree unchanged" same_tree
is "etc/shadow intact" "$(cat "$TMP/root/etc/shadow")" "$(cat "$FIX/etc/shadow")"
expect_exit 2 "traversal sysctl name" T apply bad-traversal
like "traversal names the line" "$(cat "$ERR")" "bad-traversal/tuned.conf:2: .*'../../etc/shadow' is not a sysctl name"
expect_exit 2 "traversal sysfs path" T diff bad-sysfs
like "sysfs traversal names the path" "$(cat "$ERR")" "'/sys/../etc/shadow' is not a path under /sys"
expect_exit 2 "traversal profile name" T show ../../etc
like "bad profile name explained" "$(cat "$ERR")" "'../../etc' is not a profile name"
expect_exit 2 "traversal include name" T show bad-include-name
like "bad include name explained" "$(cat "$ERR")" "include '../../../etc' is not a profile name"
ok "refusals: tree unchanged" same_tree

# ---- bad profiles ----
expect_exit 2 "include loop" T show bad-loop-a
like "loop names the cycle" "$(cat "$ERR")" "include loop: bad-loop-a -> bad-loop-b -> bad-loop-c -> bad-loop-a"
expect_exit 2 "missing include" T show bad-missing
like "missing include names file, line and profile" "$(cat "$ERR")" "bad-missing/tuned.conf:3: included profile 'no-such-profile' not found"
expect_exit 2 "bad value" T diff bad-value
like "bad value names profile, section, key and line" "$(cat "$ERR")" "bad-value/tuned.conf:5: profile 'bad-value', section \[disk\], key 'readahead': value '>lots'"
expect_exit 2 "syntax error" T show bad-syntax
like "syntax error names the line" "$(cat "$ERR")" "bad-syntax/tuned.conf:3:"
expect_exit 2 "unknown profile" T show no-such-profile
like "unknown profile lists where it looked" "$(cat "$ERR")" "profile 'no-such-profile' not found \(looked for"
expect_exit 0 "unknown plugin is reported, not fatal" T diff unknown-plugin
like "unknown plugin named" "$(cat "$OUT")" "plugin 'audio' is not supported"
like "[script] named" "$(cat "$OUT")" "plugin 'script' is not supported"
expect_exit 2 "unknown subcommand" T frobnicate

# ---- without root ----
fresh
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	chmod 755 "$TMP" && chmod -R a+rX "$TMP/root"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$PERFLAB" tune --sysroot "$TMP/root" \
		--profile-dir "$PROFILES" --state-dir "$TMP/state" apply stack-b >"$OUT" 2>"$ERR"
	is "non-root apply exits 3" "$?" "3"
	like "non-root names the items that need root" "$(cat "$ERR")" "need root.*
  sysctl vm.swappiness -> 5"
	ok "non-root: nothing changed" same_tree
	is "non-root: no journal" "$(test -e "$TMP/state" && echo yes || echo no)" "no"
else
	skip "non-root apply" "needs root to switch to an unprivileged user"
fi

# ---- list ----
"$PERFLAB" tune list --profile-dir "$PROFILES" --json >"$TMP/list.json"
validate tune-list.schema.json "$TMP/list.json"
is "list: bundled profiles found" "$(jq -r '[.profiles[].name | select(. == "cloud-gpu-mpi" or . == "spec-cpu" or . == "storage-client" or . == "latency" or . == "throughput")] | length' "$TMP/list.json")" "5"
is "list: loop profile reported with its error" "$(jq -r '.profiles[] | select(.name=="bad-loop-a") | .error | test("include loop")' "$TMP/list.json")" "true"
# tune try builds compare's argument vector: 30 profiles (5 + ncmd words each) fit it
# (under ASan a short array is a crash, not exit 2).
expect_exit 2 "try with 30 unknown profiles: usage error, no overflow" "$PERFLAB" tune try $(seq -f 'p%g' 1 30) --state-dir "$TMP/trystate" -- true
like "try with 30 profiles: names the first unknown one" "$(cat "$ERR")" "variant 'p1': profile 'p1'"
done_testing
