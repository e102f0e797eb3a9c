#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab monitor end to end: bad input (exit 2, one line, nothing written), the JSON
# against its schema, CSV and text shapes, the Prometheus textfile, a command's exit
# status and CPU, Ctrl-C (exit 130, samples kept), a fixture sysroot, and a live test
# with a known load (one CPU busy ~2 s, a known number of bytes written and fsynced,
# loopback traffic of a known size): the monitor must see at least that much. The
# assertions are invariants (the machine did at least the known work), never this
# machine's values: other work on the machine only adds.
. "$PERFLAB_SRCDIR/tests/lib.sh"
P=$PERFLAB

# --- bad input: exit 2, one line naming the input, nothing left behind -----------------
bad() { # NAME REGEX ARGS...
	local name=$1 re=$2
	shift 2
	expect_exit 2 "$name: exit 2" "$P" monitor "$@"
	is "$name: one line on stderr" "$(wc -l <"$ERR")" 1
	like "$name: names the input" "$(cat "$ERR")" "$re"
	is "$name: nothing on stdout" "$(wc -c <"$OUT")" 0
}
bad "interval 0" "--interval.*100ms" -I 0 -d 1
bad "interval 50ms" "--interval.*100ms" -I 50ms -d 1
bad "unknown CPU" "--cpus '999': CPU 999 is not online" -C 999 -d 1
bad "bad CPU list" "--cpus: 'x'" -C x -d 1
bad "unwritable output" "cannot write '/nonexistent/m.json': No such file or directory \(choose another -o FILE\)$" -d 1 -o /nonexistent/m.json
PROMFIX="\(give a file path in node_exporter's textfile directory\)$"
bad "unwritable textfile" "--prom-textfile '/nonexistent/m.prom': No such file or directory $PROMFIX" -d 1 --prom-textfile /nonexistent/m.prom
# a directory as the textfile is refused before sampling (-I 10: the first interval
# would take 10 s)
start=$SECONDS
bad "textfile is a directory" "^perflab monitor: error: --prom-textfile '$TMP': Is a directory $PROMFIX" -I 10 -d 30 --prom-textfile "$TMP"
like "textfile is a directory: refused before sampling" "$((SECONDS - start))" '^[0-4]$'
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
	mkdir "$TMP/rodir"
	chmod 755 "$TMP" "$TMP/rodir"
	start=$SECONDS
	expect_exit 2 "textfile in a directory the user cannot write: exit 2" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$P" monitor -I 10 -d 30 --prom-textfile "$TMP/rodir/m.prom"
	like "textfile in a directory the user cannot write: names it and the fix" "$(cat "$ERR")" \
		"^perflab monitor: error: --prom-textfile '$TMP/rodir/m.prom': Permission denied $PROMFIX"
	is "textfile in a directory the user cannot write: nothing written" "$(ls "$TMP/rodir")" ""
	like "unwritable textfile directory: refused before sampling" "$((SECONDS - start))" '^[0-4]$'
else
	skip "textfile in a directory the user cannot write" "needs root, the user nobody and setpriv"
fi
bad "json and csv" "choose one" -d 1 --json --csv
bad "argument without --" "unexpected argument 'sleep'" -d 1 sleep 1
bad "unknown command" "cannot run 'no-such-cmd-xyz'" -o "$TMP/never.json" -- no-such-cmd-xyz
is "unknown command: no output file" "$(ls "$TMP" | grep -c never)" 0
mkdir "$TMP/empty"
bad "sysroot without proc/stat" "cannot read '.*/proc/stat'" --sysroot "$TMP/empty" -d 1

# --- JSON: schema, intervals, a command's exit status and CPU ---------------------------
expect_exit 7 "a command's exit status is perflab's" "$P" monitor -I 0.1 --json -o "$TMP/c.json" -- sh -c 'sleep 0.35; exit 7'
validate monitor.schema.json "$TMP/c.json"
is "command recorded" "$(jqv "$TMP/c.json" '.command | join(" ")')" "sh -c sleep 0.35; exit 7"
is "exit status recorded" "$(jqv "$TMP/c.json" .command_result.exit_status)" 7
is "start and end events" "$(jqv "$TMP/c.json" '[.events[].event] | join(",")')" "command_start,command_end"
like "3 or more 100 ms intervals" "$(jqv "$TMP/c.json" .nsamples)" '^([3-9]|[1-9][0-9])$'
is "intervals about 100 ms (the last one ends with the command)" \
	"$(jqv "$TMP/c.json" '[.samples[:-1][] | select(.dt_s < 0.09 or .dt_s > 0.5)] | length')" 0
is "times increase" "$(jqv "$TMP/c.json" '[.samples[].t_s] | . == sort')" true
is "shares sum to 100% per interval" \
	"$(jqv "$TMP/c.json" '[.samples[].cpu.all | select(.idle != null) | .user + .nice + .system + .iowait + .irq + .softirq + .steal + .guest + .idle | select(. < 99.9 or . > 100.1)] | length')" 0
is "every online CPU shown" "$(jqv "$TMP/c.json" '.samples[0].cpu.per_cpu | length')" "$(grep -c '^cpu[0-9]' /proc/stat)"
is "no negative number" "$(jq '[.. | numbers | select(. < 0)] | length' "$TMP/c.json")" 0
expect_exit 0 "-C 0" "$P" monitor -I 0.1 -d 0.25 -C 0 --json
is "-C 0: one CPU per sample" "$(jq '[.samples[].cpu.per_cpu | length] | unique | join(",")' "$OUT")" '"1"'
expect_exit 137 "a command killed by a signal: 128 + signal" "$P" monitor -I 0.1 --json -o "$TMP/k.json" -- sh -c 'kill -9 $$'
is "signal recorded" "$(jqv "$TMP/k.json" .command_result.signal)" 9

# --- Ctrl-C: exit 130, what was sampled is kept ----------------------------------------
"$P" monitor -I 0.1 --json -o "$TMP/i.json" >/dev/null 2>&1 &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
is "SIGINT: exit 130" "$?" 130
validate monitor.schema.json "$TMP/i.json"
is "SIGINT: interrupted" "$(jqv "$TMP/i.json" .interrupted)" true
like "SIGINT: samples kept" "$(jqv "$TMP/i.json" .nsamples)" '^[1-9][0-9]*$'
# -d 0 is the default, until Ctrl-C (as sar and vmstat without a count), and says so
like "--help: -d 0 runs until Ctrl-C" "$("$P" monitor --help | tr -s ' \n' ' ')" \
	"0, the default: when CMD ends, else at Ctrl-C"
"$P" monitor -I 0.1 -d 0 --json -o "$TMP/d0.json" >/dev/null 2>&1 &
pid=$!
sleep 0.6
kill -INT "$pid"
wait "$pid"
is "-d 0: runs until SIGINT (exit 130)" "$?" 130
like "-d 0: sampled until then" "$(jqv "$TMP/d0.json" .nsamples)" '^[1-9][0-9]*$'

# --- text, CSV, Prometheus textfile -----------------------------------------------------
expect_exit 0 "text" "$P" monitor -I 0.1 -d 0.4
is "text: header + 4 lines + summary (and the note on '-' columns)" "$(grep -vc "^# '-' in " "$OUT")" 6
is "text: fixed width (header and every line)" "$(grep -v '^#' "$OUT" | awk '{ print length($0) }' | sort -u | wc -l)" 1
like "text: header" "$(head -1 "$OUT")" '^ +t_s +usr% +nice% +sys%'
like "text: summary" "$(tail -1 "$OUT")" '^# 4 intervals: busy mean'
expect_exit 0 "csv" "$P" monitor -I 0.1 -d 0.3 --csv --prom-textfile "$TMP/m.prom"
like "csv header" "$(head -1 "$OUT")" '^t_s,dt_s,flags,user_pct,'
is "csv: header + 3 rows" "$(wc -l <"$OUT")" 4
is "csv: one column count" "$(awk -F, '{ print NF }' "$OUT" | sort -u | wc -l)" 1
like "csv: a column per CPU" "$(head -1 "$OUT")" 'cpu0_busy_pct'
if /usr/bin/python3 "$PERFLAB_SRCDIR/tests/report/promcheck.py" "$TMP/m.prom" >"$TMP/pc" 2>&1; then
	_report ok "textfile is valid Prometheus text"
else
	_report fail "textfile is valid Prometheus text" "$(head -5 "$TMP/pc")"
fi
like "textfile: all-CPU user share" "$(cat "$TMP/m.prom")" 'perflab_monitor_cpu_percent\{cpu="all",mode="user"\} [0-9]'
is "textfile: no temporary left" "$(ls "$TMP" | grep -c 'm.prom.tmp')" 0
expect_exit 0 "-o FILE.csv picks CSV" "$P" monitor -I 0.1 -d 0.25 -o "$TMP/o.csv"
like "-o FILE.csv: CSV" "$(head -1 "$TMP/o.csv")" '^t_s,dt_s'
like "-o FILE: live lines on stdout" "$(head -1 "$OUT")" '^ +t_s +usr%'

# --- a fixture sysroot: identical snapshots give zero rates, not errors -----------------
F=$PERFLAB_SRCDIR/tests/monitor/fixtures
mkdir -p "$TMP/root/proc/net" "$TMP/root/proc/pressure"
for f in stat loadavg interrupts softirqs vmstat diskstats net-dev net-snmp net-netstat pressure-cpu pressure-io; do
	cp "$F/kvm2-$f.a" "$TMP/root/proc/$(echo "$f" | tr - /)"
done
expect_exit 0 "fixture sysroot" "$P" monitor --sysroot "$TMP/root" -I 0.1 -d 0.25 --json -o "$TMP/s.json"
validate monitor.schema.json "$TMP/s.json"
is "fixture: two CPUs" "$(jqv "$TMP/s.json" '.samples[0].cpu.per_cpu | length')" 2
is "fixture: no ticks, no shares" "$(jqv "$TMP/s.json" '.samples[0].cpu.all.busy')" null
is "fixture: zero context switches" "$(jqv "$TMP/s.json" '.samples[0].ctxt_per_s')" 0
is "fixture: zero interrupts" "$(jqv "$TMP/s.json" '.samples[0].interrupts.per_s')" 0
is "fixture: loopback listed" "$(jqv "$TMP/s.json" '[.samples[0].net.interfaces[].name] | index("lo") != null')" true
# --- accelerators: a fake QAT device (tests/fixtures/sysroots/intel-2s) and a stand-in NVML
mkdir -p "$TMP/root/sys/kernel"
cp -r "$FIXTURES/sysroots/intel-2s/sys/kernel/debug" "$TMP/root/sys/kernel/"
expect_exit 0 "QAT fixture" "$P" monitor --sysroot "$TMP/root" -I 0.1 -d 0.25 --json -o "$TMP/q.json"
validate monitor.schema.json "$TMP/q.json"
is "QAT: the device listed" "$(jqv "$TMP/q.json" '.samples[0].accel.qat[0].device')" "qat_c6xx_0000:3d:00.0"
is "QAT: unchanged counters, zero requests/s" "$(jqv "$TMP/q.json" '.samples[0].accel.qat[0].requests_per_s')" 0
is "QAT: no RAS rows upstream, null" "$(jqv "$TMP/q.json" '.samples[0].accel.qat[0].ras_events_per_s')" null
is "QAT: c6xx has no telemetry" "$(jqv "$TMP/q.json" '.samples[0].accel.qat[0].telemetry.device')" null
# a 4xxx device with telemetry on (control 2: min, max and average columns follow the
# current value) and ring pairs in slots A and B (tests/monitor/fixtures/qat-4xxx)
cp -r "$PERFLAB_SRCDIR/tests/monitor/fixtures/qat-4xxx/sys" "$TMP/root/"
expect_exit 0 "QAT telemetry fixture" "$P" monitor --sysroot "$TMP/root" -I 0.1 -d 0.25 --json -o "$TMP/t.json" --prom-textfile "$TMP/t.prom"
validate monitor.schema.json "$TMP/t.json"
is "QAT telemetry: both devices" "$(jqv "$TMP/t.json" '[.samples[0].accel.qat[].device] | join(",")')" "qat_4xxx_0000:6b:00.0,qat_c6xx_0000:3d:00.0"
is "QAT telemetry: device bandwidth in, current value" "$(jqv "$TMP/t.json" '.samples[0].accel.qat[0].telemetry.device.bw_in')" 8612
is "QAT telemetry: slice utilization" "$(jqv "$TMP/t.json" '.samples[0].accel.qat[0].telemetry.device.util_cph0')" 38
is "QAT telemetry: every counter of device_data" "$(jqv "$TMP/t.json" '.samples[0].accel.qat[0].telemetry.device | length')" 35
is "QAT telemetry: ring pairs" "$(jqv "$TMP/t.json" '[.samples[0].accel.qat[0].telemetry.ring_pairs[] | "\(.slot)=\(.rp_num):\(.service_type):\(.counters.bw_in)"] | join(",")')" "A=0:sym:4306,B=1:asym:4306"
like "QAT telemetry: prom" "$(cat "$TMP/t.prom")" 'perflab_monitor_qat_telemetry\{device="qat_4xxx_0000:6b:00.0",counter="bw_out"\} 8544'
PERFLAB_NVML_LIB=/nonexistent/libnvidia-ml.so.1 expect_exit 0 "no NVML" "$P" monitor -I 0.1 -d 0.15 --json
is "no NVML: unavailable" "$(jq -r .accel.nvml.available "$OUT")" false
like "no NVML: dlerror's reason" "$(jq -r .accel.nvml.reason "$OUT")" "/nonexistent/libnvidia-ml.so.1: cannot open shared object file"
is "no NVML: no GPU samples" "$(jq '[.samples[].accel.gpu | length] | add' "$OUT")" 0
PERFLAB_NVML_LIB=/nonexistent/libnvidia-ml.so.1 expect_exit 0 "no NVML: text" "$P" monitor -I 0.1 -d 0.15
like "no NVML: text says so, once, under the header" "$(sed -n 2p "$OUT")" "^# '-' in .*gpu%: NVML unavailable \\(/nonexistent"
is "no NVML: said once" "$(grep -c 'NVML unavailable' "$OUT")" 1
if ! ls /sys/kernel/debug/qat_*/fw_counters >/dev/null 2>&1; then
	like "no QAT device: the same line says why qat/s is '-'" "$(sed -n 2p "$OUT")" "^# '-' in qat/s: no QAT device"
fi
export PERFLAB_NVML_LIB=$PERFLAB_NVML_STUB
expect_exit 0 "stub NVML: JSON" "$P" monitor -I 0.1 -d 0.25 --json -o "$TMP/g.json" --prom-textfile "$TMP/g.prom"
validate monitor.schema.json "$TMP/g.json"
is "stub NVML: available" "$(jqv "$TMP/g.json" .accel.nvml.available)" true
is "stub NVML: two GPUs" "$(jqv "$TMP/g.json" '.samples[0].accel.gpu | length')" 2
is "stub NVML: names" "$(jqv "$TMP/g.json" '[.samples[0].accel.gpu[].name] | join(",")')" "Stub GPU 0,Stub GPU 1"
is "stub NVML: utilization" "$(jqv "$TMP/g.json" '[.samples[0].accel.gpu[].util_pct] | join(",")')" "37,47"
is "stub NVML: memory used (GiB)" "$(jqv "$TMP/g.json" '[.samples[0].accel.gpu[].mem_used_bytes / 1073741824 | round] | join(",")')" "4,5"
is "stub NVML: memory total (GiB)" "$(jqv "$TMP/g.json" '.samples[0].accel.gpu[0].mem_total_bytes / 1073741824 | round')" 16
like "stub NVML: prom utilization" "$(cat "$TMP/g.prom")" 'perflab_monitor_gpu_util_percent\{gpu="1",name="Stub GPU 1"\} 47'
like "stub NVML: prom memory" "$(cat "$TMP/g.prom")" 'perflab_monitor_gpu_memory_used_bytes\{gpu="0",name="Stub GPU 0"\} 4.29'
ok "stub NVML: report" "$P" report --from "$TMP/g.json" -o "$TMP/grep"
like "stub NVML: report summary" "$(cat "$OUT")" 'GPU util \(busiest\) +% +47\.00'
like "stub NVML: report chart" "$(cat "$TMP/grep/monitor.html")" 'GPU utilization \(NVML\)'
expect_exit 0 "stub NVML: CSV" "$P" monitor -I 0.1 -d 0.25 --csv
col=$(head -1 "$OUT" | tr , '\n' | grep -nx gpu_util_pct | cut -d: -f1)
is "stub NVML: CSV mean utilization" "$(sed -n 2p "$OUT" | cut -d, -f"$col")" 42
col=$(head -1 "$OUT" | tr , '\n' | grep -nx gpu_mem_used_bytes | cut -d: -f1)
is "stub NVML: CSV memory used" "$(sed -n 2p "$OUT" | cut -d, -f"$col")" 9.66368e+09
expect_exit 0 "stub NVML: text" "$P" monitor -I 0.1 -d 0.25
like "stub NVML: text header" "$(head -1 "$OUT")" ' qat/s +gpu%$'
like "stub NVML: text line" "$(grep -v "^# '-' in " "$OUT" | sed -n 2p)" ' +- +42\.0$'
like "stub NVML: the note names only the QAT column" "$(grep "^# '-' in " "$OUT")" "^# '-' in qat/s: no QAT device [^;]*$"
is "text: stable widths" "$(grep -v "^# '-' in " "$OUT" | sed -n '1,3p' | awk '{print length}' | sort -u | wc -l)" 1
NVML_STUB_INIT_FAIL=9 expect_exit 0 "stub NVML: init fails" "$P" monitor -I 0.1 -d 0.15 --json
is "init fails: reason" "$(jq -r .accel.nvml.reason "$OUT")" "nvmlInit_v2 returned 9"
unset PERFLAB_NVML_LIB
expect_exit 2 "fixture: CPU 2 is not there" "$P" monitor --sysroot "$TMP/root" -C 2 -d 0.2

# --- report --from monitor.json: charts and a summary table ---------------------------
ok "report --from monitor.json" "$P" report --from "$TMP/c.json" -o "$TMP/rep"
like "report: terminal summary" "$(cat "$OUT")" 'CPU busy \(all CPUs\) +%'
like "report: an SVG chart per series group and CPU" \
	"$(grep -o '<svg' "$TMP/rep/monitor.html" | wc -l)" "^$((6 + $(grep -c '^cpu[0-9]' /proc/stat)))\$"
like "report: command events on the charts" "$(cat "$TMP/rep/monitor.html")" 'command_start.*command_end'
like "report: markdown summary" "$(cat "$TMP/rep/monitor.md")" '\| CPU busy \(all CPUs\) \| % \|'
# mean, p95 (nearest rank) and max of a known series: busy 10, 20, 90
jq '.samples = [.samples[0], .samples[0], .samples[0]] | .samples[0].cpu.all.busy = 10 |
	.samples[1].cpu.all.busy = 20 | .samples[2].cpu.all.busy = 90' "$TMP/c.json" >"$TMP/k3.json"
ok "report of a known series" "$P" report --from "$TMP/k3.json" -o "$TMP/rep3"
like "mean 40, p95 90, max 90" "$(cat "$TMP/rep3/monitor.md")" '\| CPU busy \(all CPUs\) \| % \| 40.00 \| 90.00 \| 90.00 \|'
echo '{"kind": "check"}' >"$TMP/other.json"
expect_exit 2 "report: a monitor and another document: exit 2" "$P" report --from "$TMP/c.json" --from "$TMP/other.json" -o "$TMP/rep4"
like "report: mixed: one line" "$(cat "$ERR")" "is a monitor document and '.*other.json' is not"
is "report: mixed: nothing written" "$(ls -d "$TMP/rep4" 2>/dev/null | wc -l)" 0

# --- live: a known load ----------------------------------------------------------------
# one CPU busy for 2 s of its own CPU time (longer on a loaded machine); 32 MiB written and fsynced to a file on a disk; 20 MB over loopback
DIR=$PERFLAB_BUILDDIR
SIZE=$((32 << 20))
NET=20000000
cat >"$TMP/load.sh" <<EOF
/usr/bin/python3 -c 'import time
while time.process_time() < 2: pass'
dd if=/dev/zero of="$DIR/mon-test.$$" bs=1M count=32 conv=fsync status=none
rm -f "$DIR/mon-test.$$"
/usr/bin/python3 - <<'PY'
import socket, threading
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
def sink():
    c, _ = s.accept(); n = 0
    while True:
        b = c.recv(1 << 16)
        if not b: break
        n += len(b)
    c.close()
t = threading.Thread(target=sink); t.start()
c = socket.create_connection(s.getsockname()); c.sendall(b"x" * $NET); c.close(); t.join()
PY
EOF
expect_exit 0 "live: monitor a known load" "$P" monitor -I 0.25 --json -o "$TMP/live.json" -- sh "$TMP/load.sh"
validate monitor.schema.json "$TMP/live.json"
own=$(jqv "$TMP/live.json" '.command_result | .user_s + .system_s')
like "live: the command's own CPU is at least 2 s" "$own" '^([2-9]|[1-9][0-9])\.'
# machine-wide busy CPU-seconds (sum over CPUs of busy% x dt) >= 90% of the command's own
ncpu=$(jqv "$TMP/live.json" '.samples[0].cpu.per_cpu | length')
seen=$(jqv "$TMP/live.json" '[.samples[] | (.cpu.per_cpu | map(.busy // 0) | add) / 100 * .dt_s] | add')
like "live: busy CPU-seconds $seen >= 0.9 x own $own" "$(awk -v s="$seen" -v o="$own" 'BEGIN { print (s >= 0.9 * o) ? "yes" : "no" }')" yes
maxcpu=$(jqv "$TMP/live.json" '[.samples[].cpu.per_cpu[].busy // 0] | max')
like "live: some CPU was busy >= 75% in an interval ($maxcpu)" "$(awk -v m="$maxcpu" 'BEGIN { print (m >= 75) ? "yes" : "no" }')" yes
dev=$(df --output=source "$DIR" | tail -1)
disk=$(lsblk -no pkname "$dev" 2>/dev/null | head -1)
[ -n "$disk" ] || disk=$(basename "$dev")
if [ -e "/sys/block/$disk" ]; then
	wrote=$(jq --arg d "$disk" '[.samples[] | . as $s | .disks[] | select(.name == $d) | (.write_bytes_per_s // 0) * $s.dt_s] | add // 0' "$TMP/live.json")
	like "live: $disk wrote $wrote >= $SIZE bytes" "$(awk -v w="$wrote" -v s="$SIZE" 'BEGIN { print (w >= s * 0.99) ? "yes" : "no" }')" yes
else
	skip "live: disk bytes written" "$DIR is on $dev, not a block device in /sys/block"
fi
lo=$(jq '[.samples[] | . as $s | .net.interfaces[] | select(.name == "lo") | (.rx_bytes_per_s // 0) * $s.dt_s] | add // 0' "$TMP/live.json")
like "live: loopback carried $lo >= $NET bytes" "$(awk -v l="$lo" -v n="$NET" 'BEGIN { print (l >= n) ? "yes" : "no" }')" yes
done_testing
