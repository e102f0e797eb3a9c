#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab monitor --prom-textfile against a hostile machine and a hostile directory:
# device names with a double quote, a backslash, a newline, a byte that is not UTF-8 and
# 300 bytes come out whole and escaped, and the file passes `promtool check metrics`
# (when installed) and the grammar check; in a collector directory another user
# (nobody) can write, symlinks planted at the old temporary name FILE.tmp.<pid> and at
# FILE itself are never followed (their targets stay as they were), the file is replaced
# whole each interval, and no temporary is left behind.
. "$PERFLAB_SRCDIR/tests/lib.sh"
P=$PERFLAB
MF=$PERFLAB_SRCDIR/tests/monitor/fixtures
export PERFLAB_NVML_LIB=/nonexistent/libnvidia-ml.so.1 # no GPU lines: the last family is fixed

prom_valid() { # NAME FILE
	if /usr/bin/python3 "$PERFLAB_SRCDIR/tests/report/promcheck.py" "$2" >"$TMP/pc" 2>&1; then
		_report ok "$1: exposition grammar"
	else
		_report fail "$1: exposition grammar" "$(head -5 "$TMP/pc")"
	fi
	if command -v promtool >/dev/null; then
		if promtool check metrics <"$2" >"$TMP/pt" 2>&1; then
			_report ok "$1: promtool check metrics"
		else
			_report fail "$1: promtool check metrics" "$(head -5 "$TMP/pt")"
		fi
	else
		skip "$1: promtool check metrics" "promtool not installed (Debian package prometheus)"
	fi
}

# --- hostile names: a fixture sysroot with the monitor's /proc files added -------------
R=$TMP/root
cp -r "$FIXTURES/sysroots/intel-2s" "$R"
mkdir -p "$R/proc/net" "$R/proc/pressure"
for f in stat loadavg interrupts softirqs vmstat diskstats net-dev net-snmp net-netstat pressure-cpu pressure-io; do
	cp "$MF/kvm2-$f.a" "$R/proc/$(echo "$f" | tr - /)"
done
rm -rf "$R/sys/block" # without /sys/block every disk that did I/O is kept
long=$(printf 'n%.0s' $(seq 300))
q_if='e"th\0'                # an interface name with a quote and a backslash
q_disk='d"isk\\x'$'\xff'     # a disk with a quote, two backslashes and a non-UTF-8 byte
printf '%8s: 1000 10 0 0 0 0 0 0 2000 20 0 0 0 0 0 0\n' "$q_if" "$long" >>"$R/proc/net/dev"
printf ' 8 0 %s 10 0 80 5 20 0 160 9 0 12 14 0 0 0 0 0 0\n' "$q_disk" "$long" >>"$R/proc/diskstats"
q_qat=$'qat_4"x\\x\nx_0000:6b:00.0' # a QAT debugfs directory with a quote and a newline
mkdir -p "$R/sys/kernel/debug/$q_qat"
cp "$R/sys/kernel/debug/qat_c6xx_0000:3d:00.0/fw_counters" "$R/sys/kernel/debug/$q_qat/"
expect_exit 0 "hostile names: monitor" "$P" monitor --sysroot "$R" -I 0.1 -d 0.25 --prom-textfile "$TMP/h.prom"
prom_valid "hostile names" "$TMP/h.prom"
H=$(cat "$TMP/h.prom")
like "interface with quote and backslash, escaped" "$H" 'perflab_monitor_net_bytes_per_second\{device="e\\"th\\\\0",direction="rx"\} '
like "300-byte interface name whole" "$H" "perflab_monitor_net_bytes_per_second\\{device=\"$long\",direction=\"tx\"\\} "
like "disk: quote, backslashes, non-UTF-8 byte as \\\\xff" "$H" 'perflab_monitor_disk_util_percent\{device="d\\"isk\\\\\\\\x\\\\xff"\} '
like "300-byte disk name whole" "$H" "perflab_monitor_disk_bytes_per_second\\{device=\"$long\",op=\"read\"\\} "
like "QAT device with quote, backslash and newline" "$H" 'perflab_monitor_qat_requests_per_second\{device="qat_4\\"x\\\\x\\nx_0000:6b:00.0"\} '
is "every line a comment or a sample (no line broken by a name)" \
	"$(grep -cvE '^(# (HELP|TYPE) perflab_monitor_[a-z_]+ .+|perflab_monitor_[a-z_]+(\{.*\})? [-+0-9.e]+)$' "$TMP/h.prom")" 0
is "one HELP per family" "$(grep '^# HELP' "$TMP/h.prom" | awk '{ print $3 }' | sort | uniq -d | wc -l)" 0
is "a HELP for every TYPE" "$(grep -c '^# HELP' "$TMP/h.prom")" "$(grep -c '^# TYPE' "$TMP/h.prom")"

# --- a collector directory another user can write ---------------------------------------
if [ "$(id -u)" -ne 0 ] || ! id nobody >/dev/null 2>&1 || ! command -v setpriv >/dev/null; then
	skip "planted symlinks" "needs root, the user nobody and setpriv (running as uid $(id -u))"
	done_testing
fi
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
chmod 755 "$TMP"
D=$TMP/collector
mkdir "$D"
chown 65534:65534 "$D"
printf 'victim\n' >"$TMP/victim"
printf 'final\n' >"$TMP/final-victim"
# nobody plants FILE.tmp.<pid> (the pid of the monitor: exec keeps the shell's) and FILE
# as symlinks to root's files before the first interval is written, then reads FILE
# while the monitor rewrites it three times
cat >"$TMP/run.sh" <<EOF
setpriv --reuid=65534 --regid=65534 --clear-groups ln -s "$TMP/victim" "$D/node.prom.tmp.\$\$"
setpriv --reuid=65534 --regid=65534 --clear-groups ln -s "$TMP/final-victim" "$D/node.prom"
exec "$P" monitor -I 0.2 -d 0.65 --prom-textfile "$D/node.prom"
EOF
(
	end=$((SECONDS + 3))
	n=0
	while [ $SECONDS -lt $end ]; do
		if as_nobody test -f "$D/node.prom" && ! as_nobody test -L "$D/node.prom"; then
			# every complete read of the file ends with the last family's TYPE line
			if ! as_nobody tail -c 200 "$D/node.prom" 2>/dev/null | grep -q 'gpu_memory_total_bytes gauge'; then
				echo partial >>"$TMP/reads"
			fi
			n=$((n + 1))
		fi
	done
	echo "reads $n" >>"$TMP/reads"
) &
reader=$!
expect_exit 0 "planted symlinks: monitor runs 3 intervals" bash "$TMP/run.sh"
wait "$reader"
is "victim of the temporary name unchanged" "$(cat "$TMP/victim")" victim
is "victim of the file name unchanged" "$(cat "$TMP/final-victim")" final
is "the planted temporary link is left alone" "$(readlink "$D/node.prom.tmp."* 2>/dev/null)" "$TMP/victim"
ok "the textfile is a regular file now" test -f "$D/node.prom" -a ! -L "$D/node.prom"
is "the textfile is root's" "$(stat -c %u "$D/node.prom")" 0
like "the textfile holds an interval" "$(cat "$D/node.prom")" 'perflab_monitor_cpu_percent\{cpu="all",mode="user"\}'
is "no temporary left" "$(ls -A "$D" | grep -vcE '^node\.prom(\.tmp\.[0-9]+)?$')" 0
like "readers saw the file" "$(tail -1 "$TMP/reads")" '^reads [1-9]'
is "no reader saw a partial file" "$(grep -c partial "$TMP/reads")" 0
done_testing
