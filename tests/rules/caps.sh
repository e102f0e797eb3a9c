#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Settings that cap each other, checked together over copies of the intel-2s fixture
# tree with the pair of values changed: a tree that violates each pair (one finding naming
# both settings and their values) and one that satisfies it (no finding); the fix reaches
# `check --emit-profile` and the emitted profile applies it to the tree (tune apply), after
# which the finding is gone.
. "$PERFLAB_SRCDIR/tests/lib.sh"
FIX=$PERFLAB_SRCDIR/tests/fixtures/sysroots/intel-2s
if [ ! -d "$FIX" ]; then
	skip "settings that cap each other" "fixture sysroot intel-2s not present"
	done_testing
	exit 0
fi

# tree NAME KEY=VALUE...: a copy of intel-2s with /proc/sys/KEY (dots as slashes) set
tree() {
	local n=$1 kv k
	shift
	rm -rf "${TMP:?}/$n"
	cp -a "$FIX" "$TMP/$n"
	for kv in "$@"; do
		k=${kv%%=*}
		printf '%s\n' "${kv#*=}" >"$TMP/$n/proc/sys/${k//.//}"
	done
}
# finding TREE ID: "observed | expected | fix.tune" of finding ID (workload network), or
# "none"
finding() {
	"$PERFLAB" check --json --sysroot "$TMP/$1" -W network --fail-on crit >"$TMP/$1.json" 2>"$ERR"
	jq -r --arg id "$2" '[.findings[] | select(.id == $id)] | if length == 0 then "none"
		else .[0] | "\(.observed) | \(.expected) | \(.fix.tune)" end' "$TMP/$1.json"
}

# ---- net.core.rmem_max / wmem_max against the third field of tcp_rmem / tcp_wmem ----
tree rbad net.core.rmem_max=16777216 "net.ipv4.tcp_rmem=4096	1048576	2097152"
is "rmem_max above tcp_rmem max: both named with their values" "$(finding rbad conflict.rmem-max-tcp)" \
	"net.core.rmem_max = 16777216 above net.ipv4.tcp_rmem max = 2097152 (net.ipv4.tcp_rmem = 4096 1048576 2097152): TCP autotuning stops at 2097152 bytes | net.ipv4.tcp_rmem max >= net.core.rmem_max (16777216) | [sysctl] net.ipv4.tcp_rmem=4096 1048576 16777216"
tree rok net.core.rmem_max=16777216 "net.ipv4.tcp_rmem=4096	1048576	16777216"
is "rmem_max up to tcp_rmem max: no finding" "$(finding rok conflict.rmem-max-tcp)" none
tree wbad net.core.wmem_max=16777216 "net.ipv4.tcp_wmem=4096	16384	4194304"
is "wmem_max above tcp_wmem max: both named with their values" "$(finding wbad conflict.wmem-max-tcp)" \
	"net.core.wmem_max = 16777216 above net.ipv4.tcp_wmem max = 4194304 (net.ipv4.tcp_wmem = 4096 16384 4194304): TCP autotuning stops at 4194304 bytes | net.ipv4.tcp_wmem max >= net.core.wmem_max (16777216) | [sysctl] net.ipv4.tcp_wmem=4096 16384 16777216"
tree wok net.core.wmem_max=212992 "net.ipv4.tcp_wmem=4096	16384	4194304"
is "wmem_max below tcp_wmem max (the kernel defaults): no finding" "$(finding wok conflict.wmem-max-tcp)" none

# ---- tcp_max_syn_backlog against somaxconn ----
tree sbad net.ipv4.tcp_max_syn_backlog=30000 net.core.somaxconn=4096
is "tcp_max_syn_backlog above somaxconn: both named with their values" "$(finding sbad conflict.syn-backlog-somaxconn)" \
	"net.ipv4.tcp_max_syn_backlog = 30000 above net.core.somaxconn = 4096: a listener's SYN queue holds at most 4096 | net.core.somaxconn >= net.ipv4.tcp_max_syn_backlog (30000) | [sysctl] net.core.somaxconn=>30000"
tree sok net.ipv4.tcp_max_syn_backlog=4096 net.core.somaxconn=4096
is "tcp_max_syn_backlog up to somaxconn: no finding" "$(finding sok conflict.syn-backlog-somaxconn)" none

# ---- vm.dirty_background_ratio against vm.dirty_ratio ----
tree dbad vm.dirty_background_ratio=30 vm.dirty_ratio=20
is "dirty_background_ratio above dirty_ratio: both named with their values" "$(finding dbad conflict.dirty-background)" \
	"vm.dirty_background_ratio = 30 >= vm.dirty_ratio = 20 (the kernel uses 10) | dirty_background_ratio < 20 | [sysctl] vm.dirty_background_ratio=10"
tree dok vm.dirty_background_ratio=5 vm.dirty_ratio=20
is "dirty_background_ratio below dirty_ratio: no finding" "$(finding dok conflict.dirty-background)" none

# ---- the fixes resolve the findings: emit a profile from the violations, apply it ----
tree all net.core.rmem_max=16777216 "net.ipv4.tcp_rmem=4096	1048576	2097152" \
	net.ipv4.tcp_max_syn_backlog=30000 net.core.somaxconn=4096 \
	vm.dirty_background_ratio=30 vm.dirty_ratio=20
printf 'reno cubic bbr\n' >"$TMP/all/proc/sys/net/ipv4/tcp_available_congestion_control"
mkdir -p "$TMP/p/caps"
"$PERFLAB" check --sysroot "$TMP/all" -W network --fail-on info --emit-profile "$TMP/p/caps/tuned.conf" >"$OUT" 2>"$ERR"
for l in "net.ipv4.tcp_rmem=4096 1048576 16777216" "net.core.somaxconn=>30000" "vm.dirty_background_ratio=10"; do
	ok "emitted profile holds $l" grep -qxF "$l" "$TMP/p/caps/tuned.conf"
done
ok "the emitted profile applies to the tree" "$PERFLAB" tune --sysroot "$TMP/all" --profile-dir "$TMP/p" \
	--state-dir "$TMP/state" apply caps
for id in conflict.rmem-max-tcp conflict.syn-backlog-somaxconn conflict.dirty-background; do
	is "after apply: $id gone" "$(finding all "$id")" none
done
done_testing
