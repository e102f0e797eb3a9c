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
keys="net/ipv4/ping_group_range net/ipv4/tcp_rmem net/ipv4/tcp_keepalive_time net/ipv4/tcp_fin_timeout net/core/somaxconn net/ipv4/ip_local_port_range net/ipv4/tcp_syn_retries net/ipv4/tcp_keepalive_probes net/ipv4/tcp_congestion_control"
export PERFLAB PROFILES TMP keys
unshare -n bash -c '
	snap() { for k in $keys; do printf "%s=%s\n" "$k" "$(cat /proc/sys/$k)"; done; }
	T() { "$PERFLAB" tune --profile-dir "$PROFILES" --state-dir "$TMP/state" "$@"; }
	snap >"$TMP/before"
	T verify net-only >/dev/null 2>&1; echo $? >"$TMP/verify0"
	T apply net-only >"$TMP/apply.out" 2>&1; echo $? >"$TMP/apply"
	snap >"$TMP/applied"
	T verify net-only --json >"$TMP/verify.json" 2>/dev/null; echo $? >"$TMP/verify1"
	T apply net-refused >"$TMP/refused.out" 2>&1; echo $? >"$TMP/refused"
	T apply net-rounded >"$TMP/rounded.out" 2>&1; echo $? >"$TMP/rounded"
	T status --json >"$TMP/status.json" 2>/dev/null
	T rollback >"$TMP/rollback.out" 2>&1; echo $? >"$TMP/rollback"
	snap >"$TMP/after"
	T verify net-only >/dev/null 2>&1; echo $? >"$TMP/verify2"
'
is "verify before apply exits 1" "$(cat "$TMP/verify0")" "1"
is "apply in the namespace exits 0" "$(cat "$TMP/apply")" "0"
like "applied keepalive_time" "$(cat "$TMP/applied")" "tcp_keepalive_time=60"
like "applied port range (tab-separated by the kernel)" "$(grep ip_local_port_range "$TMP/applied")" "=10000.60999$"
like "somaxconn at least 8192" "$(grep somaxconn "$TMP/applied" | cut -d= -f2)" "^(8192|[89][0-9]{3}|[1-9][0-9]{4,})$"
is "verify after apply exits 0" "$(cat "$TMP/verify1")" "0"
validate tune-items.schema.json "$TMP/verify.json"
is "kernel refusal exits 3" "$(cat "$TMP/refused")" "3"
like "refusal is reported" "$(cat "$TMP/refused.out")" "tcp_congestion_control +refused by the kernel"
is "journal records the refusal" "$(jq -r '.entries[] | select(.target | endswith("tcp_congestion_control")) | .status' "$TMP/status.json")" "refused"
is "journal records accepted values" "$(jq -r '.entries[] | select(.target | endswith("tcp_keepalive_time")) | "\(.status) \(.accepted)"' "$TMP/status.json")" "ok 60"
is "kernel rewrite is not an error" "$(cat "$TMP/rounded")" "0"
like "kernel rewrite is reported" "$(cat "$TMP/rounded.out")" "ping_group_range .*the kernel kept '1 0'"
is "journal records what the kernel kept" "$(jq -r '.entries[] | select(.target | endswith("ping_group_range")) | "\(.status) \(.accepted | gsub("\t"; " "))"' "$TMP/status.json")" "changed 1 0"
is "journal: partial write of a triple" "$(jq -r '.entries[] | select(.target | endswith("tcp_rmem")) | .status' "$TMP/status.json")" "changed"
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
