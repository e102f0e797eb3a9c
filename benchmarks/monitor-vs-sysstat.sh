#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab monitor against sysstat (issue 18 targets), side by side:
#  1. agreement: perflab monitor -I 1 and mpstat -P ALL / iostat -x -d / sar -n DEV, all
#     started together for SECS 1-s intervals under a steady known load (a busy loop on
#     CPU 0, buffered writes with fsync to a file in this tree, iperf3 over loopback at
#     200 Mbit/s); per interval, paired by index: |perflab - mpstat| in points for usr, sys
#     and idle of each CPU (target <= 1 point), and the relative difference of the disk's
#     write kB/s (iostat) and lo's rx kB/s (sar) (target <= 2%). The tools start a few ms
#     apart, so their intervals are offset by that much: the differences include it.
#  2. sampling cost: CPU time (user+system of the process and the children it waited for,
#     benchmarks/runstat.c) of perflab monitor -I 1 vs sar -A -o FILE 1 and sadc -S XALL
#     (sysstat's collector, everything) over COST_SECS, and
#     of perflab monitor -I 100ms as % of one CPU (target < 1%).
#  3. memory: RSS of perflab monitor -I 100ms --json -o FILE every 10 s over LONG_SECS
#     (the issue asks for 600; pass less when time is short and say so): first, max, last.
# The machine is shared: the load average is printed with every number.
# Usage: benchmarks/monitor-vs-sysstat.sh [SECS=20] [COST_SECS=30] [LONG_SECS=600]
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/common.sh
SECS=${1:-$(bench_quick 20 5)}
COST=${2:-$(bench_quick 30 10)}
LONG=${3:-$(bench_quick 600 30)}
bench_init monitor-vs-sysstat 1
for t in mpstat iostat sar /usr/lib/sysstat/sadc iperf3 jq taskset cc; do
	command -v "$t" >/dev/null || { echo "monitor-vs-sysstat: $t not installed (scripts/install-deps.sh peers)" >&2; exit 2; }
done
load() { cut -d' ' -f1-3 /proc/loadavg; }
export LC_ALL=C S_TIME_FORMAT=ISO
disk=$(lsblk -no pkname "$(df --output=source . | tail -1)" 2>/dev/null | head -1)
[ -n "$disk" ] || disk=$(basename "$(df --output=source . | tail -1)")

# --- 1. agreement under a steady load ---------------------------------------------------
echo "== agreement, $SECS x 1 s intervals (load average before: $(load)); disk $disk"
port=$((20000 + RANDOM % 20000))
iperf3 -s -1 -p "$port" >/dev/null 2>&1 &
ips=$!
sleep 0.5
iperf3 -c 127.0.0.1 -p "$port" -b 200M -t $((SECS + 4)) >/dev/null 2>&1 &
ipc=$!
taskset -c 0 sh -c 'while :; do :; done' &
spin=$!
(while :; do dd if=/dev/zero of="$tmp/w" bs=1M count=8 conv=fsync status=none; sleep 0.2; done) &
wr=$!
sleep 1
"$PERFLAB" monitor -I 1 -d "$SECS" --json -o "$tmp/p.json" >/dev/null &
a=$!
mpstat -P ALL -o JSON 1 "$SECS" >"$tmp/mp.json" &
b=$!
iostat -x -d -y -o JSON 1 "$SECS" >"$tmp/io.json" &
c=$!
sar -n DEV 1 "$SECS" >"$tmp/sar.txt" &
d=$!
wait "$a" "$b" "$c" "$d"
kill "$spin" "$wr" "$ipc" 2>/dev/null || true
wait "$spin" "$wr" "$ipc" "$ips" 2>/dev/null || true
echo "load average after: $(load)"
# per interval and CPU: perflab usr/sys/idle vs mpstat's
jq -r '.samples[] | .cpu.per_cpu[] | "\(.cpu) \(.user) \(.system) \(.idle)"' "$tmp/p.json" >"$tmp/p.cpu"
jq -r '.sysstat.hosts[0].statistics[]."cpu-load"[] | select(.cpu != "all") | "\(.cpu) \(.usr) \(.sys) \(.idle)"' "$tmp/mp.json" >"$tmp/m.cpu"
paste -d' ' "$tmp/p.cpu" "$tmp/m.cpu" | awk '
	$1 == $5 { for (k = 0; k < 3; k++) { d = $(2 + k) - $(6 + k); if (d < 0) d = -d; v[k, n] = d } n++ }
	function med(k,   i, j, t, a) { for (i = 0; i < n; i++) a[i] = v[k, i]
		for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return sprintf("median %.2f, p90 %.2f, max %.2f", a[int(n / 2)], a[int(n * 0.9)], a[n - 1]) }
	END { printf "per-CPU |perflab - mpstat| in points over %d CPU-intervals:\n  usr  %s\n  sys  %s\n  idle %s\n", n, med(0), med(1), med(2) }'
jq -r --arg d "$disk" '.samples[] | .disks[] | select(.name == $d) | (.write_bytes_per_s // 0) / 1024' "$tmp/p.json" >"$tmp/p.disk"
jq -r --arg d "$disk" '.sysstat.hosts[0].statistics[].disk[] | select(.disk_device == $d) | ."wkB/s"' "$tmp/io.json" >"$tmp/i.disk"
awk '$2 == "lo" && $1 != "Average:" { print $5 }' "$tmp/sar.txt" >"$tmp/s.lo"
jq -r '.samples[] | .net.interfaces[] | select(.name == "lo") | .rx_bytes_per_s / 1024' "$tmp/p.json" >"$tmp/p.lo"
rel() { # LABEL FILE_PERFLAB FILE_PEER
	paste -d' ' "$2" "$3" | awk -v l="$1" '
		NF == 2 && $2 > 0 { d = ($1 - $2) / $2 * 100; if (d < 0) d = -d; a[n++] = d; sp += $1; ss += $2 }
		END { if (!n) { print l ": no interval with traffic"; exit }
			for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			printf "%s: per interval |diff| median %.2f%%, max %.2f%%; totals perflab %.0f kB vs %.0f kB (%.2f%%)\n",
				l, a[int(n / 2)], a[n - 1], sp, ss, (sp - ss) / ss * 100 }'
}
rel "disk $disk write kB/s vs iostat -x" "$tmp/p.disk" "$tmp/i.disk"
rel "lo rx kB/s vs sar -n DEV" "$tmp/p.lo" "$tmp/s.lo"

# --- 2. sampling cost ------------------------------------------------------------------
cc -O2 -o "$tmp/runstat" benchmarks/runstat.c
cpu_of() { # CMD...: user+system seconds of CMD and the children it waited for (wait4)
	"$tmp/runstat" "$@" | awk '{ printf "%.4f\n", $4 / 1e9 }'
}
echo "== sampling cost over $COST s (load average before: $(load))"
pc=$(cpu_of "$PERFLAB" monitor -I 1 -d "$COST" --json -o "$tmp/c.json")
sc=$(cpu_of sar -A -o "$tmp/sa" 1 "$COST")
dc=$(cpu_of /usr/lib/sysstat/sadc -S XALL 1 "$COST" "$tmp/sa2")
awk -v p="$pc" -v s="$sc" -v d="$dc" 'BEGIN { printf "1 s interval: perflab monitor %.4f s CPU, sar -A -o (sar + sadc) %.4f s, sadc -S XALL alone %.4f s; perflab / sar %.2f, perflab / sadc %.2f\n", p, s, d, (s > 0 ? p / s : 0), (d > 0 ? p / d : 0) }'
pf=$(cpu_of "$PERFLAB" monitor -I 100ms -d "$COST" --json -o "$tmp/f.json")
bench_result area="monitor cost 1 s" what="CPU seconds of perflab monitor -I 1 vs sadc -S XALL (sysstat's collector) over $COST s" \
	perflab="$pc" peer="$dc" unit=s perflab_cmd="perflab monitor -I 1 -d $COST --json -o FILE" \
	peer_cmd="/usr/lib/sysstat/sadc -S XALL 1 $COST FILE" target='<= 1'
bench_result area="monitor cost 100 ms" what="% of one CPU used by perflab monitor -I 100ms over $COST s" \
	perflab="$(awk -v p="$pf" -v t="$COST" 'BEGIN { printf "%.3f", p / t * 100 }')" peer= unit=% \
	perflab_cmd="perflab monitor -I 100ms -d $COST --json -o FILE" peer_cmd="" target='< 1' target_of=perflab
awk -v p="$pf" -v t="$COST" 'BEGIN { printf "100 ms interval: perflab monitor %.3f s CPU in %d s = %.2f%% of one CPU (target < 1%%)\n", p, t, p / t * 100 }'
echo "load average after: $(load)"

# --- 3. memory over a long run ---------------------------------------------------------
echo "== memory, -I 100ms for $LONG s (load average before: $(load))"
"$PERFLAB" monitor -I 100ms -d "$LONG" --json -o "$tmp/long.json" >/dev/null &
m=$!
: >"$tmp/rss"
while kill -0 "$m" 2>/dev/null; do
	awk '/^VmRSS:/ { print $2 }' "/proc/$m/status" 2>/dev/null >>"$tmp/rss" || true
	sleep 10
done
wait "$m" || true
awk -v n="$(jq .nsamples "$tmp/long.json")" '
	NF { if (!c) f = $1; if ($1 > mx) mx = $1; l = $1; c++ }
	END { printf "RSS over %d readings (10 s apart), %d samples written: first %d KiB, max %d KiB, last %d KiB\n", c, n, f, mx, l }' "$tmp/rss"
echo "document: $(du -k "$tmp/long.json" | cut -f1) KiB; load average after: $(load)"
