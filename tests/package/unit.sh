#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# contrib/systemd/perflab-monitor.service: systemd-analyze verify accepts it (its
# ExecStart pointed at the perflab under test, its man page looked up in the build's
# pages), systemd-analyze security --offline=yes passes the hardening the unit promises,
# and its exposure score is the one README.md and perflab-monitor(1) state.
. "$PERFLAB_SRCDIR/tests/lib.sh"
UNIT=$PERFLAB_SRCDIR/contrib/systemd/perflab-monitor.service
if ! command -v systemd-analyze >/dev/null; then
	skip "perflab-monitor.service" "systemd-analyze is not installed (Debian package systemd)"
	done_testing
fi
U=$TMP/perflab-monitor.service
sed "s#^ExecStart=/usr/bin/perflab #ExecStart=$PERFLAB #" "$UNIT" >"$U"
like "ExecStart runs /usr/bin/perflab monitor --prom-textfile" "$(grep '^ExecStart=' "$UNIT")" \
	'^ExecStart=/usr/bin/perflab monitor .*--prom-textfile /var/lib/prometheus/node-exporter/[a-z_]+\.prom$'
like "ExecStart pointed at the perflab under test" "$(grep '^ExecStart=' "$U")" "^ExecStart=$PERFLAB monitor"

man=(--man=no)
if [ -f "$PERFLAB_BUILDDIR/docs/perflab-monitor.1" ]; then
	mkdir -p "$TMP/man/man1"
	cp "$PERFLAB_BUILDDIR/docs/perflab-monitor.1" "$TMP/man/man1/"
	man=(--man=yes)
fi
ok "systemd-analyze verify (${man[*]})" env MANPATH="$TMP/man" systemd-analyze verify "${man[@]}" "$U"
is "verify says nothing" "$(cat "$ERR" "$OUT")" ""

ok "systemd-analyze security --offline=yes" systemd-analyze security --no-pager --offline=yes "$U"
S=$TMP/security.txt
cp "$OUT" "$S"
# each promise of the unit (and of perflab-monitor(1)), by systemd-analyze's own names
ok "systemd-analyze security --json=short" systemd-analyze security --no-pager --offline=yes --json=short "$U"
cp "$OUT" "$TMP/security.json"
for want in ProtectSystem ProtectHome PrivateTmp NoNewPrivileges CapabilityBoundingSet_CAP_SYS_ADMIN \
	CapabilityBoundingSet_CAP_DAC_FOWNER_IPC_OWNER CapabilityBoundingSet_CAP_SYS_PTRACE \
	ProtectKernelTunables ProtectKernelModules RestrictAddressFamilies_AF_INET_INET6 \
	SystemCallFilter_privileged MemoryDenyWriteExecute PrivateUsers IPAddressDeny; do
	is "security: $want passes" "$(jq -r --arg f "$want" '.[] | select(.json_field == $f) | .set' "$TMP/security.json")" true
done
score=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\) .*/\1/p' "$S")
like "an overall exposure score" "$score" '^[0-9]+\.[0-9]$'
if awk -v s="$score" 'BEGIN { exit !(s <= 2.0) }'; then _report ok "exposure $score <= 2.0"; else
	_report fail "exposure $score <= 2.0" "$(grep '^✗' "$S")"
fi
# the documented score, checked like the counts of tests/core/docs-sync.sh
readme=$(grep -o 'rates its sandbox [0-9.]* ' "$PERFLAB_SRCDIR/README.md" | grep -o '[0-9.]*[0-9]')
is "README.md states the exposure score (update it there)" "$readme" "$score"
manscore=$(grep -o 'exposure score of [0-9.]*[0-9]' "$PERFLAB_SRCDIR/docs/man/perflab-monitor.1.scd" | grep -o '[0-9.]*$')
is "perflab-monitor(1) states the exposure score (update it there)" "$manscore" "$score"
# every option of the ExecStart line is one monitor takes (a unit that cannot start
# would still verify): run it for one short interval into a directory of ours
args=$(sed -n 's#^ExecStart=/usr/bin/perflab monitor ##p' "$UNIT" |
	sed "s#-I [^ ]*#-I 100ms -d 250ms#; s#/var/lib/prometheus/node-exporter/#$TMP/#")
# shellcheck disable=SC2086 # the unit's words, split as systemd splits them
ok "the unit's monitor options run" "$PERFLAB" monitor $args
like "and write the textfile" "$(cat "$TMP"/*.prom 2>/dev/null | grep -c '^perflab_')" '^[1-9][0-9]*$'
done_testing
