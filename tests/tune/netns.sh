#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Live apply/verify/rollback on the real kernel, inside a fresh network namespace
# (`unshare -n`): only per-namespace net.* sysctls are touched, the host's are not.
. "$PERFLAB_SRCDIR/tests/lib.sh"
PROFILES=$PERFLAB_SRCDIR/tests/tune/profiles
if [ "$(id -u)" -ne 0 ]; then
	skip "live netns apply/verify/rollback" "needs root to create a network namespace and write /proc/sys/net"
	done_testing
fi
if ! unshare -n true 2>/dev/null; then
	skip "live netns apply/verify/rollback" "unshare -n is not allowed here ($(unshare -n true 2>&1 | head -1))"
	done_testing
fi
host_before=$(cat /proc/sys/net/ipv4/tcp_keepalive_time /proc/sys/net/ipv4/tcp_fin_timeout /proc/sys/net/core/somaxconn)
keys="net/ipv4/ping_group_range net/ipv4/tcp_rmem net/ipv4/tcp_keepalive_time net/ipv4/tcp_fin_timeout net/core/somaxconn net/ipv4/ip_local_port_range net/ipv4/tcp_syn_retries net/ipv4/tcp_keepalive_probes net/ipv4/tcp_keepalive_intvl net/ipv4/tcp_ecn net/ipv4/tcp_congestion_control"
export PERFLAB PROFILES TMP keys
unshare -n bash -c '
	snap() { for k in $keys; do printf "%s=%s\n" "$k" "$(cat /proc/sys/$k)"; done; }
	T() { "$PERFLAB" tune --profile-dir "$PROFILES" --state-dir "$TMP/state" "$@"; }
	snap >"$TMP/before"
	T verify net-only >/dev/null 2>&1; echo $? >"$TMP/verify0"
	# the journal'"'"'s simulated-kernel hooks work in a sysroot only: ignored here
	PERFLAB_TUNE_TEST_REFUSE=/proc/sys/net/ipv4/tcp_fin_timeout \
	PERFLAB_TUNE_TEST_KEEP=/proc/sys/net/ipv4/tcp_keepalive_time=1 \
		T apply net-only >"$TMP/apply.out" 2>&1; echo $? >"$TMP/apply"
	snap >"$TMP/applied"
	T verify net-only --json >"$TMP/verify.json" 2>/dev/null; echo $? >"$TMP/verify1"
	wc -l <"$TMP/state/tune-journal.jsonl" >"$TMP/invalid.lines0"
	T apply net-invalid >"$TMP/invalid.out" 2>&1; echo $? >"$TMP/invalid"
	wc -l <"$TMP/state/tune-journal.jsonl" >"$TMP/invalid.lines"
	snap >"$TMP/invalid.snap"
	T apply net-refused >"$TMP/refused.out" 2>&1; echo $? >"$TMP/refused"
	snap >"$TMP/refused.snap"
	T apply net-rounded --json >"$TMP/rounded.json" 2>"$TMP/rounded.out"; echo $? >"$TMP/rounded"
	snap >"$TMP/rounded.snap"
	T status --all --json >"$TMP/status.json" 2>/dev/null
	T rollback >"$TMP/rollback.out" 2>&1; echo $? >"$TMP/rollback"
	snap >"$TMP/after"
	T verify net-only >/dev/null 2>&1; echo $? >"$TMP/verify2"
'
is "verify before apply exits 1" "$(cat "$TMP/verify0")" "1"
is "apply in the namespace exits 0 (test hooks ignored on the live system)" "$(cat "$TMP/apply")" "0"
like "applied fin_timeout despite PERFLAB_TUNE_TEST_REFUSE" "$(cat "$TMP/applied")" "tcp_fin_timeout=10"
like "applied keepalive_time" "$(cat "$TMP/applied")" "tcp_keepalive_time=60"
like "applied port range (tab-separated by the kernel)" "$(grep ip_local_port_range "$TMP/applied")" "=10000.60999$"
like "somaxconn at least 8192" "$(grep somaxconn "$TMP/applied" | cut -d= -f2)" "^(8192|[89][0-9]{3}|[1-9][0-9]{4,})$"
is "verify after apply exits 0" "$(cat "$TMP/verify1")" "0"
validate tune-items.schema.json "$TMP/verify.json"
# checked before the first write: every bad item named with its line, nothing written
is "invalid values exit 2" "$(cat "$TMP/invalid")" "2"
like "somaxconn=abc named with file and line" "$(cat "$TMP/invalid.out")" "net-invalid/tuned.conf:6: .*net.core.somaxconn: 'abc' is not a decimal integer"
like "unknown congestion control: the available ones" "$(cat "$TMP/invalid.out")" "net-invalid/tuned.conf:7: .*'no-such-algorithm' is not one of the available choices \\(.*cubic.*tcp_available_congestion_control"
like "one number for a triple" "$(cat "$TMP/invalid.out")" "tuned.conf:9: .*tcp_rmem: '100' is not 3 integers"
like "port out of range" "$(cat "$TMP/invalid.out")" "tuned.conf:10: .*field 2 \\(70000\\) is out of range \\(1..65535\\)"
like "invalid: says nothing was applied" "$(cat "$TMP/invalid.out")" "nothing was applied: 4 items"
is "invalid: nothing journaled" "$(cat "$TMP/invalid.lines")" "$(cat "$TMP/invalid.lines0")"
is "invalid: nothing changed" "$(cat "$TMP/invalid.snap")" "$(cat "$TMP/applied")"
# a value the kernel refuses: the items before it are rolled back too
is "kernel refusal exits 3" "$(cat "$TMP/refused")" "3"
like "refusal is reported with the line" "$(cat "$TMP/refused.out")" "net-refused/tuned.conf:7: sysctl net.ipv4.tcp_ecn: the kernel refused '5'"
like "refusal: rolled back" "$(cat "$TMP/refused.out")" "nothing was applied: the 2 changes of this apply were rolled back"
is "refusal: every value as before the apply" "$(cat "$TMP/refused.snap")" "$(cat "$TMP/applied")"
is "journal records the refusal" "$(jq -r '.entries[] | select(.target | endswith("tcp_ecn")) | "\(.status) \(.undone)"' "$TMP/status.json")" "refused true"
is "journal records accepted values" "$(jq -r '.entries[] | select(.target | endswith("tcp_keepalive_time")) | "\(.status) \(.accepted)"' "$TMP/status.json")" "ok 60"
# a value the kernel keeps differently (read back, every field): rolled back too
is "kernel rewrite exits 3" "$(cat "$TMP/rounded")" "3"
like "kernel rewrite is reported" "$(cat "$TMP/rounded.out")" "net-rounded/tuned.conf:7: sysctl net.ipv4.ping_group_range: the kernel kept '1 0' when '5 1' was written"
is "kernel rewrite: every value as before the apply" "$(cat "$TMP/rounded.snap")" "$(cat "$TMP/applied")"
validate tune-items.schema.json "$TMP/rounded.json"
is "kernel rewrite: JSON says rolled back" "$(jq -r '.rolled_back' "$TMP/rounded.json")" "true"
is "journal records what the kernel kept" "$(jq -r '.entries[] | select(.target | endswith("ping_group_range")) | "\(.status) \(.accepted | gsub("\t"; " ")) \(.undone)"' "$TMP/status.json")" "changed 1 0 true"
is "rollback exits 0" "$(cat "$TMP/rollback")" "0"
is "rollback restored every namespace value" "$(cat "$TMP/after")" "$(cat "$TMP/before")"
is "verify after rollback exits 1" "$(cat "$TMP/verify2")" "1"
is "host namespace untouched" "$(cat /proc/sys/net/ipv4/tcp_keepalive_time /proc/sys/net/ipv4/tcp_fin_timeout /proc/sys/net/core/somaxconn)" "$host_before"

# force_latency: hold-latency keeps a PM QoS request while it runs (live, root).
qos() { od -An -td4 /dev/cpu_dma_latency | tr -d ' '; }
if [ -r /dev/cpu_dma_latency ]; then
	before=$(qos)
	"$PERFLAB" tune hold-latency 7 2>"$TMP/hold.err" &
	hp=$!
	for _ in $(seq 1 100); do grep -q holding "$TMP/hold.err" 2>/dev/null && break; sleep 0.1; done
	# PM QoS applies the lowest request of all holders: 7, or less if another holds less
	is "hold-latency: the limit is in force while it runs" "$(qos)" "$((before < 7 ? before : 7))"
	kill -INT "$hp"
	wait "$hp"
	is "hold-latency exits 0 on Ctrl-C" "$?" "0"
	is "hold-latency: released after exit" "$(qos)" "$before"
else
	skip "hold-latency" "no /dev/cpu_dma_latency on this kernel"
fi
expect_exit 2 "hold-latency refuses a sysroot" "$PERFLAB" tune --sysroot "$PERFLAB_SRCDIR/tests/fixtures/tune/server" hold-latency 5
done_testing
