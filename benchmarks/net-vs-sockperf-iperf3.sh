#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab bench net vs sockperf (ping-pong RTT) and iperf3 (stream) on loopback, with the
# same message size and the same pinning: client on CPU $CCPU, server on CPU $SCPU.
#
#   benchmarks/net-vs-sockperf-iperf3.sh [PAIRS]   (PAIRS default 10, QUICK 2; env: PERFLAB,
#                                                   TIME=5, MSG=64, CCPU=0, SCPU=1)
#
# RTT: `sockperf pp --tcp -m MSG --full-rtt` (full round trip; without --full-rtt it
# prints RTT/2) vs `perflab bench net --tests tcp_pp --sizes MSG` (always round trip);
# p50 of each run, in us. Target: perflab within 5% of sockperf.
# Stream: `iperf3 -c 127.0.0.1 -J` end.sum_received.bits_per_second (one stream, 128 KiB
# writes) vs `perflab bench net --tests tcp_stream --streams 1` Gbit/s counted by the
# receiver. Target: >= 0.95x iperf3. Runs alternate A B A B; prints every pair, the
# median ratio and its spread. The machine is shared: expect noise.
set -euo pipefail
. "$(dirname "$0")/common.sh"
PAIRS=${1:-$(bench_quick 10 2)}
# the full run decides on at least 10 pairs; a QUICK row says how few it had
QN=$([ "${QUICK:-0}" = 1 ] && echo "QUICK: $PAIRS pairs" || echo "$PAIRS pairs")
PERFLAB=${PERFLAB:-./build/perflab}
TIME=${TIME:-$(bench_quick 5 2)}
MSG=${MSG:-64}
CCPU=${CCPU:-0}
SCPU=${SCPU:-1}
for t in sockperf iperf3 jq taskset; do
	command -v "$t" >/dev/null || { echo "needs $t" >&2; exit 2; }
done
[ -x "$PERFLAB" ] || { echo "no perflab at $PERFLAB (make build, or set PERFLAB)" >&2; exit 2; }
port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done' EXIT

SP=$(port)
taskset -c "$SCPU" sockperf sr --tcp -i 127.0.0.1 -p "$SP" >/dev/null 2>&1 &
PIDS+=($!)
IP=$(port)
taskset -c "$SCPU" iperf3 -s -p "$IP" >/dev/null 2>&1 &
PIDS+=($!)
sleep 1

sockperf_p50() { # us
	taskset -c "$CCPU" sockperf pp --tcp -i 127.0.0.1 -p "$SP" -t "$TIME" -m "$MSG" --full-rtt 2>&1 |
		awk '/percentile 50.000 =/ { print $NF }'
}
perflab_p50() { # us: median of the run's round trips
	"$PERFLAB" bench net --tests tcp_pp --sizes "$MSG" --cpus "$CCPU,$SCPU" --time "$TIME" --runs 1 --json 2>/dev/null |
		jq -r --arg n "tcp_pp ${MSG}B round-trip" '.metrics[] | select(.name == $n) | .latency_ns.p50 / 1000'
}
iperf3_gbps() {
	taskset -c "$CCPU" iperf3 -c 127.0.0.1 -p "$IP" -t "$TIME" -J 2>/dev/null |
		jq -r '.end.sum_received.bits_per_second / 1e9'
}
perflab_gbps() {
	"$PERFLAB" bench net --tests tcp_stream --streams 1 --cpus "$CCPU,$SCPU" --time "$TIME" --runs 1 --json 2>/dev/null |
		jq -r '.metrics[] | select(.name == "tcp_stream x1") | .median'
}
stats() {
	printf '%s\n' "${@:3}" | sort -g | awk -v n="$1" -v t="$2" '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%-36s ratio perflab/peer: median %.3f  spread %.3f..%.3f  (%d pairs; %s)\n", n, m, v[1], v[NR], NR, t }'
}

echo "loopback, client CPU $CCPU, server CPU $SCPU, $TIME s per run, $PAIRS pairs, message $MSG B"
rs=() aa=() bb=()
for i in $(seq "$PAIRS"); do
	a=$(sockperf_p50)
	b=$(perflab_p50)
	r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b / a }')
	printf '  tcp ping-pong %dB pair %d: sockperf --full-rtt p50 %.3f us  perflab p50 %.3f us  ratio %s\n' "$MSG" "$i" "$a" "$b" "$r"
	rs+=("$r") aa+=("$a") bb+=("$b")
done
stats "TCP RTT p50 (${MSG} B)" "target 0.95..1.05" "${rs[@]}"
bench_result area="net tcp RTT" what="TCP ping-pong p50 round trip, $MSG B, loopback, client CPU $CCPU, server CPU $SCPU, $TIME s, $QN" \
	perflab="$(bench_median "${bb[@]}")" peer="$(bench_median "${aa[@]}")" unit=us target="0.95..1.05" \
	perflab_cmd="perflab bench net --tests tcp_pp --sizes $MSG --cpus $CCPU,$SCPU --time $TIME --runs 1" \
	peer_cmd="sockperf sr --tcp (taskset -c $SCPU); taskset -c $CCPU sockperf pp --tcp -i 127.0.0.1 -t $TIME -m $MSG --full-rtt" \
	samples="${rs[*]}"
rs=() aa=() bb=()
for i in $(seq "$PAIRS"); do
	a=$(iperf3_gbps)
	b=$(perflab_gbps)
	r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b / a }')
	printf '  tcp stream x1 pair %d: iperf3 %.2f Gbit/s  perflab %.2f Gbit/s  ratio %s\n' "$i" "$a" "$b" "$r"
	rs+=("$r") aa+=("$a") bb+=("$b")
done
stats "TCP stream, 1 stream" "target >= 0.95" "${rs[@]}"
bench_result area="net tcp stream" what="one TCP stream Gbit/s counted by the receiver, loopback, client CPU $CCPU, server CPU $SCPU, $TIME s, $QN" \
	perflab="$(bench_median "${bb[@]}")" peer="$(bench_median "${aa[@]}")" unit=Gbit/s target=">= 0.95" \
	perflab_cmd="perflab bench net --tests tcp_stream --streams 1 --cpus $CCPU,$SCPU --time $TIME --runs 1" \
	peer_cmd="iperf3 -s (taskset -c $SCPU); taskset -c $CCPU iperf3 -c 127.0.0.1 -t $TIME -J" \
	samples="${rs[*]}"
