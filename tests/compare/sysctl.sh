#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# sysctl variants are applied before each of the variant's runs and restored after:
# after a normal end, after a failing command and after SIGINT. Runs inside a fresh
# network namespace (unshare -n), where net.* sysctls are private, so the host is never
# touched.
. "$PERFLAB_SRCDIR/tests/lib-netns.sh" "sysctl variant in a network namespace"
. "$PERFLAB_SRCDIR/tests/lib.sh"
P=$PERFLAB
K=/proc/sys/net/ipv4/ip_default_ttl
orig=$(cat $K)
new=$((orig == 99 ? 98 : 99))
STATE=(--state-dir "$TMP/state")
# until b's run (the sleep child of compare $1) has the value applied (up to 60 s: ASan
# builds on a loaded machine are slow); the value alone is also set for a moment by the
# check of every setting before the first run
wait_applied() {
	for _ in $(seq 1200); do
		[ "$(cat $K)" = "$new" ] && pgrep -P "$1" -x sleep >/dev/null && return
		sleep 0.05
	done
}

# during b's runs the value is $new; a's runs (interleaved) see the original again
ok "applied for b, restored for a" "$P" compare --runs 5 --warmup 1 "${STATE[@]}" \
	-n a -- /bin/sh -c "test \$(cat $K) = $orig" \
	-n b --set sysctl.net.ipv4.ip_default_ttl=$new -- /bin/sh -c "test \$(cat $K) = $new"
is "restored after a normal end" "$(cat $K)" "$orig"

expect_exit 3 "failing command" "$P" compare --runs 5 "${STATE[@]}" -n a -- /bin/true \
	-n b --set sysctl.net.ipv4.ip_default_ttl=$new -- /bin/sh -c 'exit 4'
like "failure reported" "$(cat "$ERR")" "variant 'b' .*exited with status 4"
is "restored after a failing command" "$(cat $K)" "$orig"

# SIGINT while b's command runs with the value applied
"$P" compare --runs 5 --warmup 0 "${STATE[@]}" -n a -- /bin/true \
	-n b --set sysctl.net.ipv4.ip_default_ttl=$new -- /bin/sleep 30 >"$TMP/int.out" 2>"$TMP/int.err" &
pid=$!
wait_applied $pid
is "applied while running" "$(cat $K)" "$new"
# what compare said and whether it still ran, when the value never showed up (seen twice
# under load: got the original)
[ "$(cat $K)" = "$new" ] || { ps -o pid,stat,etime,args --ppid $pid -p $pid | sed 's/^/# /'
	sed 's/^/# stderr: /' "$TMP/int.err"; }
t0=$(date +%s)
kill -INT $pid
wait $pid
rc=$?
is "SIGINT: exit 130" "$rc" 130
like "SIGINT: says interrupted and restored" "$(cat "$TMP/int.err")" 'interrupted by signal 2 .*restored'
is "restored after SIGINT" "$(cat $K)" "$orig"
like "SIGINT stops the running command at once (sleep 30)" "$(( $(date +%s) - t0 ))" '^[0-9]$'
like "on interruption the completed rounds are reported (none: the first was cut short)" \
	"$(cat "$TMP/int.out")" '^interrupted after 0 of 5 rounds'
like "the original value after the last run is in the report" "$(cat "$TMP/int.out")" \
	"sysctl.net.ipv4.ip_default_ttl: '$orig' before the first run, '$orig' after the last \(restored\)"

# kill -9 while the value is applied: the journal has the old value on disk, and the
# next compare puts it back before its first run
"$P" compare --runs 5 --warmup 0 "${STATE[@]}" -n a -- /bin/true \
	-n b --set sysctl.net.ipv4.ip_default_ttl=$new -- /bin/sleep 30 >/dev/null 2>&1 &
pid=$!
wait_applied $pid
child=$(pgrep -P $pid || true)
kill -9 $pid
wait $pid 2>/dev/null
[ -n "$child" ] && kill $child 2>/dev/null
is "kill -9 leaves the value applied" "$(cat $K)" "$new"
like "the journal recorded it" "$(cat "$TMP/state/tune-journal.jsonl")" '"profile": *"compare:b"'
ok "next compare recovers first" "$P" compare --json --runs 2 --warmup 0 "${STATE[@]}" \
	-n a -- /bin/sh -c "test \$(cat $K) = $orig" \
	-n b --set sysctl.net.ipv4.ip_default_ttl=$new -- /bin/true
like "recovery reported" "$(cat "$ERR")" 'restored 1 setting left by an interrupted perflab compare'
is "restored after a crash" "$(cat $K)" "$orig"
is "the original is read after the recovery, before the first run" \
	"$(jq -r '.original_settings[] | "\(.before) \(.after) \(.restored)"' "$OUT")" "$orig $orig true"

# --json records the original value of every key a variant changes, read before the first
# run and after the last, and the environment; the table says so too
orig2=$(cat /proc/sys/net/ipv4/tcp_keepalive_time)
ok "--json with two settings" "$P" compare --json -o "$TMP/orig.json" --runs 2 --warmup 0 "${STATE[@]}" \
	-n a -- /bin/true -n b --set sysctl.net.ipv4.ip_default_ttl=$new -- /bin/true \
	-n c --set sysctl.net.ipv4.ip_default_ttl=$((new - 1)) --set sysctl.net.ipv4.tcp_keepalive_time=$((orig2 + 1)) -- /bin/true
validate compare.schema.json "$TMP/orig.json"
is "one entry per target, in order of first use" \
	"$(jq -r '[.original_settings[] | "\(.key)=\(.path):\(.before)->\(.after):\(.restored)"] | join(" ")' "$TMP/orig.json")" \
	"sysctl.net.ipv4.ip_default_ttl=$K:$orig->$orig:true sysctl.net.ipv4.tcp_keepalive_time=/proc/sys/net/ipv4/tcp_keepalive_time:$orig2->$orig2:true"
is "the environment of the experiment" \
	"$(jq -r '.environment | [(.kernel | type), .pinning, (.load_avg | keys | join(",")), (has("thp") and has("steal_pct") and has("clocksource") and has("governor") and has("mitigations"))] | @csv' "$TMP/orig.json")" \
	'"string","unpinned","end,start",true'
is "kernel as uname -r" "$(jq -r .environment.kernel "$TMP/orig.json")" "$(uname -r)"
ok "table" "$P" compare --runs 2 --warmup 0 "${STATE[@]}" --export-markdown "$TMP/orig.md" \
	-n a -- /bin/true -n b --set sysctl.net.ipv4.ip_default_ttl=$new -- /bin/true
like "table: before and after" "$(cat "$OUT")" "sysctl.net.ipv4.ip_default_ttl: '$orig' before the first run, '$orig' after the last \(restored\)"
like "table: the environment line" "$(cat "$OUT")" "environment: kernel $(uname -r | sed 's/[.+]/\\&/g'), .*during the run: load"
like "markdown: before and after" "$(cat "$TMP/orig.md")" "- sysctl.net.ipv4.ip_default_ttl: '$orig' before the first run, '$orig' after the last \(restored\)"

# the journal's own fault injection: die right after the first target write
PERFLAB_TUNE_FAULT_AFTER=1 "$P" compare --runs 2 "${STATE[@]}" -n a -- /bin/true \
	-n b --set sysctl.net.ipv4.ip_default_ttl=$new -- /bin/true >/dev/null 2>&1
is "fault injection: exit 137 with the value applied" "$? $(cat $K)" "137 $new"
ok "recovered by the next compare" "$P" compare --runs 2 "${STATE[@]}" -n a -- /bin/true \
	-n b --set sysctl.net.ipv4.ip_default_ttl=$new -- /bin/true
is "restored after the injected crash" "$(cat $K)" "$orig"

# profile=NAME: a tuned-format profile's [sysctl] items become settings of the variant;
# what cannot be applied per run is named
mkdir -p "$TMP/profiles/pltest"
printf '[main]\nsummary=compare test\n[variables]\nttl=77\n[sysctl]\nnet.ipv4.ip_default_ttl=${ttl}\n[cpu]\ngovernor=performance\n' \
	>"$TMP/profiles/pltest/tuned.conf"
ok "profile variant" env PERFLAB_PROFILEDIR="$TMP/profiles" "$P" compare --runs 3 "${STATE[@]}" \
	-n a -- /bin/sh -c "test \$(cat $K) = $orig" \
	-n b --set profile=pltest -- /bin/sh -c "test \$(cat $K) = 77"
like "profile: what is not applied is named" "$(cat "$ERR")" "profile 'pltest': not applied: \[cpu\] governor"
is "profile: a per-CPU item is named once, with its count" \
	"$(grep "profile 'pltest': not applied" "$ERR" | grep -o '\[cpu\] governor' | wc -l)" 1
is "restored after a profile variant" "$(cat $K)" "$orig"
expect_exit 2 "unknown profile" env PERFLAB_PROFILEDIR="$TMP/profiles" "$P" compare --runs 3 "${STATE[@]}" \
	-n a -- /bin/true -n b --set profile=no-such-profile -- /bin/true
like "unknown profile named" "$(cat "$ERR")" "profile 'no-such-profile'"

expect_exit 2 "a refused value is an input error before any run" "$P" compare --runs 2 "${STATE[@]}" \
	-n a -- /bin/true -n b --set sysctl.net.ipv4.ip_default_ttl=100000 -- /bin/true
like "refusal names the key" "$(cat "$ERR")" 'net.ipv4.ip_default_ttl'
is "still the original value" "$(cat $K)" "$orig"
# every value is checked (tune's checker: type, range, choices, shape) before anything is
# written or run: the valid setting of variant a is not even journaled
S2=(--state-dir "$TMP/state2")
expect_exit 2 "somaxconn=abc: input error before anything is written" "$P" compare --runs 2 "${S2[@]}" \
	-n a --set sysctl.net.ipv4.ip_default_ttl=$new -- /bin/sh -c "touch $TMP/ran" \
	-n b --set sysctl.net.core.somaxconn=abc -- /bin/true
like "somaxconn=abc: variant, key and why" "$(cat "$ERR")" "variant 'b': sysctl.net.core.somaxconn=abc: value is not a decimal integer \(0..2147483647\)"
is "somaxconn=abc: nothing ran, nothing journaled" "$(ls "$TMP/ran" "$TMP/state2" 2>/dev/null | wc -l)" "0"
is "somaxconn=abc: a's value not written" "$(cat $K)" "$orig"
expect_exit 2 "congestion control outside the available ones" "$P" compare --runs 2 "${S2[@]}" \
	-n a -- /bin/true -n b --set sysctl.net.ipv4.tcp_congestion_control=no-such-cc -- /bin/true
like "congestion control: the available ones are named" "$(cat "$ERR")" "is not one of the available choices \(.*tcp_available_congestion_control\)"
expect_exit 2 "sysfs values are checked the same way" "$P" compare --runs 2 "${S2[@]}" \
	-n a -- /bin/true -n b --set sysfs./sys/kernel/mm/transparent_hugepage/enabled=sometimes -- /bin/true
like "sysfs: the bracketed choices" "$(cat "$ERR")" "'sometimes'|sometimes: value is not one of the available choices"
# a value the kernel keeps differently (min > max: it keeps "1 0") is found on read back
PG=/proc/sys/net/ipv4/ping_group_range
pg=$(cat $PG)
expect_exit 3 "kernel keeps another value: runtime error" "$P" compare --runs 2 "${STATE[@]}" \
	-n a -- /bin/true -n b --set "sysctl.net.ipv4.ping_group_range=5 1" -- /bin/sh -c "touch $TMP/ran"
like "kernel keeps another value: named" "$(cat "$ERR")" "variant 'b': the kernel kept '1 0' for sysctl.net.ipv4.ping_group_range when '5 1' was written"
is "kernel keeps another value: restored" "$(cat $PG)" "$pg"
is "kernel keeps another value: no run" "$(ls "$TMP/ran" 2>/dev/null | wc -l)" "0"
expect_exit 2 "missing sysctl" "$P" compare --runs 2 "${STATE[@]}" \
	-n a -- /bin/true -n b --set sysctl.net.ipv4.no_such_knob=1 -- /bin/true
like "missing sysctl explained" "$(cat "$ERR")" 'no_such_knob'
done_testing
