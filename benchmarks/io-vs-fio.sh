#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab bench io vs fio with the same parameters on the same file system.
#
#   benchmarks/io-vs-fio.sh [PAIRS]     (env: PERFLAB, DIR=. , SIZE=1g, TIME=10)
#
# Two cases, three rows, the targets (each perflab >= 0.95x fio):
#   seqread: --rw=read --bs=1m --direct=1 --ioengine=psync           -> bandwidth (B/s)
#   randread: --rw=randread --bs=4k --direct=1 --ioengine=io_uring --iodepth=32 -> IOPS,
#     run twice in each pair: with both tools' defaults, and both batched
# fio runs time based with a 2 s ramp (PEERS.md); perflab runs one warm-up window and
# one measured window of the same length. Each tool uses its own test file of SIZE in DIR,
# written afresh for every run (perflab creates and removes its file each time; fio's is
# removed before each fio run so it lays it out again: a file written seconds ago and one
# laid out minutes ago read at different speeds from this VM's virtual disk).
# CASES="seqread randread" (default both) picks the cases.
# Runs alternate A B A B; prints every pair, the median ratio perflab/fio and its spread.
# Both defaults do the same work in the io_uring case: fio's io_uring engine submits each
# I/O with its own io_uring_enter (iodepth_batch_submit=1) and takes completions one at a
# time (iodepth_batch_complete_max=1), and so does perflab's --iodepth-batch 1 (its
# default), with the ring set up with fio's flags (COOP_TASKRUN, SINGLE_ISSUER,
# DEFER_TASKRUN). The batched row ("... batched") runs fio --iodepth_batch_submit=32
# --iodepth_batch_complete_max=32 against perflab --iodepth-batch 32: both commit every
# free slot with one io_uring_enter(n, 0, GETEVENTS), reap up to 32 completions from the
# completion ring and enter the kernel to wait, io_uring_enter(0, 1, GETEVENTS), only
# when it was empty (fewer system calls, less CPU per I/O, the queue refilled in bursts).
# The machine is shared with other work: expect noise, trust the median of several pairs.
set -euo pipefail
. "$(dirname "$0")/common.sh"
PAIRS=${1:-$(bench_quick 3 1)}
PERFLAB=${PERFLAB:-./build/perflab}
DIR=${DIR:-.}
SIZE=${SIZE:-$(bench_quick 1g 256m)}
TIME=${TIME:-$(bench_quick 10 3)}
command -v fio >/dev/null || { echo "needs fio" >&2; exit 2; }
command -v jq >/dev/null || { echo "needs jq" >&2; exit 2; }
[ -x "$PERFLAB" ] || { echo "no perflab at $PERFLAB (make build, or set PERFLAB)" >&2; exit 2; }
W=$(mktemp -d "$DIR/perflab-vs-fio.XXXXXX")
trap 'rm -rf "$W"' EXIT

fio_run() { # rw bs engine depth [fio options...] -> value (bw_bytes for read, iops for randread)
	rm -f "$W/fio.dat"
	fio "${@:5}" --name=x --filename="$W/fio.dat" --size="$SIZE" --rw="$1" --bs="$2" --direct=1 \
		--ioengine="$3" --iodepth="$4" --time_based --runtime="$TIME" --ramp_time=2 \
		--output-format=json 2>/dev/null |
		jq -r "if \"$1\" == \"read\" then .jobs[0].read.bw_bytes else .jobs[0].read.iops end"
}
perflab_run() { # pattern bs engine depth [perflab options...] -> value (B/s for read, IOPS for randread)
	"$PERFLAB" bench io "${@:5}" --dir "$W" --size "$SIZE" --pattern "$1" --bs "$2" --direct \
		--engine "$3" --iodepth "$4" --time "$TIME" --warmup 1 --runs 1 --json 2>/dev/null |
		jq -r "if \"$1\" == \"read\" then (.metrics[] | select(.name == \"bandwidth\") | .median * 1e6)
		       else (.metrics[] | select(.name == \"iops\") | .median) end"
}
stats() {
	printf '%s\n' "${@:2}" | sort -g | awk -v n="$1" '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%-40s ratio perflab/fio: median %.3f  spread %.3f..%.3f  (%d pairs; target >= 0.95)\n", n, m, v[1], v[NR], NR }'
}

echo "dir $W ($(df -P "$W" | awk 'NR == 2 { print $1 }')), size $SIZE, $TIME s per run, $PAIRS pairs"
for spec in "read 1m psync 1 seqread-1MiB-direct-psync MB/s" "randread 4k io_uring 32 randread-4KiB-direct-io_uring-qd32 IOPS"; do
	set -- $spec
	case " ${CASES:-seqread randread} " in *" ${5%%-*} "*) ;; *) continue ;; esac
	rs=() bs=() fa=() pa=() fb=() pb=()
	for i in $(seq "$PAIRS"); do
		a=$(fio_run "$1" "$2" "$3" "$4")
		b=$(perflab_run "$1" "$2" "$3" "$4")
		r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b / a }')
		if [ "$1" = read ]; then
			printf '  %s pair %d: fio %.1f MB/s  perflab %.1f MB/s  ratio %s\n' "$5" "$i" \
				"$(awk -v x="$a" 'BEGIN { print x / 1e6 }')" "$(awk -v x="$b" 'BEGIN { print x / 1e6 }')" "$r"
		else
			printf '  %s pair %d: fio %.0f IOPS  perflab %.0f IOPS  ratio %s\n' "$5" "$i" "$a" "$b" "$r"
		fi
		if [ "$3" = io_uring ]; then
			c=$(fio_run "$1" "$2" "$3" "$4" --iodepth_batch_submit="$4" --iodepth_batch_complete_max="$4")
			d=$(perflab_run "$1" "$2" "$3" "$4" --iodepth-batch "$4")
			bs+=("$(awk -v a="$c" -v b="$d" 'BEGIN { printf "%.3f", b / a }')") fb+=("$c") pb+=("$d")
			printf '  %s pair %d: batched: fio %.0f IOPS  perflab --iodepth-batch %s %.0f IOPS  ratio %s\n' \
				"$5" "$i" "$c" "$4" "$d" "${bs[-1]}"
		fi
		rs+=("$r") fa+=("$a") pa+=("$b")
	done
	stats "$5" "${rs[@]}"
	unit=$([ "$1" = read ] && echo B/s || echo IOPS)
	bench_result area="io $5" what="$1 bs $2 $3 iodepth $4, O_DIRECT, $SIZE file in the same directory, $TIME s" \
		perflab="$(bench_median "${pa[@]}")" peer="$(bench_median "${fa[@]}")" unit="$unit" target=">= 0.95" \
		perflab_cmd="perflab bench io --size $SIZE --pattern $1 --bs $2 --direct --engine $3 --iodepth $4 --time $TIME --warmup 1 --runs 1" \
		peer_cmd="fio --name=x --size=$SIZE --rw=$1 --bs=$2 --direct=1 --ioengine=$3 --iodepth=$4 --time_based --runtime=$TIME --ramp_time=2" \
		samples="${rs[*]}"
	[ ${#bs[@]} -gt 0 ] || continue
	stats "$5 batched" "${bs[@]}"
	batch="--iodepth_batch_submit=$4 --iodepth_batch_complete_max=$4"
	bench_result area="io $5 batched" \
		what="$1 bs $2 $3 iodepth $4, $4 submitted per call and at most $4 reaped at a time, O_DIRECT, $SIZE file in the same directory, $TIME s" \
		perflab="$(bench_median "${pb[@]}")" peer="$(bench_median "${fb[@]}")" unit="$unit" target=">= 0.95" \
		perflab_cmd="perflab bench io --size $SIZE --pattern $1 --bs $2 --direct --engine $3 --iodepth $4 --iodepth-batch $4 --time $TIME --warmup 1 --runs 1" \
		peer_cmd="fio --name=x --size=$SIZE --rw=$1 --bs=$2 --direct=1 --ioengine=$3 --iodepth=$4 $batch --time_based --runtime=$TIME --ramp_time=2" \
		samples="${bs[*]}"
done
