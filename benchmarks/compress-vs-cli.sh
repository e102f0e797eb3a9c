#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab bench compress vs each library's own command-line tool, on the same bytes.
#
#   benchmarks/compress-vs-cli.sh [PAIRS]      (env: PERFLAB, SIZE=64MiB, CORPUS=text)
#
# The corpus is generated once by perflab (--save-input) into /dev/shm, so the tools read
# it from memory. Each pair runs the tool (`igzip -1 -c`, `libdeflate-gzip -1 -c`,
# `gzip -1 -c`, output to /dev/null; the whole process, startup and reading included) and
# perflab (`--input` the same file, one request of the whole input, one core), alternately
# A B A B. Throughput = uncompressed MB (10^6 B) per second, twice: per wall second and
# per CPU second (user+sys: the tool's from getrusage of the child, perflab's from its
# "cpu" metric). On a shared, loaded machine the CPU-time ratio is the fair one (both are
# single-threaded). Prints each pair, the median ratio perflab/tool and its spread
# (min..max), and the ISA-L level 1 vs zlib level 1 speed-up on the text corpus (target
# >= 3x). Expect noise; trust the medians of several pairs, not one.
set -euo pipefail
PAIRS=${1:-5}
PERFLAB=${PERFLAB:-./build/perflab}
SIZE=${SIZE:-64MiB}
CORPUS=${CORPUS:-text}
command -v jq >/dev/null || { echo "needs jq" >&2; exit 2; }
[ -x "$PERFLAB" ] || { echo "no perflab at $PERFLAB (make build, or set PERFLAB)" >&2; exit 2; }
SHM=$(mktemp -d /dev/shm/perflab-cz.XXXXXX)
trap 'rm -rf "$SHM"' EXIT
IN=$SHM/corpus.$CORPUS
"$PERFLAB" bench compress --corpus "$CORPUS" --size "$SIZE" --backend zlib --level 1 --time 0.001 \
	--runs 1 --save-input "$IN" >/dev/null 2>&1
BYTES=$(stat -c %s "$IN")

# tool_run CMD... : "WALL_MBPS CPU_MBPS" of one run of a CLI tool on $IN (bash's `time`
# gives wall and the child's user+sys from getrusage, in ms)
tool_run() {
	local t
	t=$( { TIMEFORMAT='%3R %3U %3S'; time "$@" <"$IN" >/dev/null; } 2>&1)
	awk -v b="$BYTES" -v t="$t" 'BEGIN { split(t, x, " ")
		printf "%.2f %.2f", b / x[1] / 1e6, b / (x[2] + x[3]) / 1e6 }'
}
# perflab_run BACKEND LEVEL : "WALL_MBPS CPU_MBPS" of one perflab run (one core; CPU MB/s
# from its CPU s/GB metric: 1000 / (s/GB))
perflab_run() {
	"$PERFLAB" bench compress --input "$IN" --backend "$1" --level "$2" --request-size 0 \
		--time 1 --runs 1 --json 2>/dev/null |
		jq -r --arg c "$1-$2 compress" --arg u "$1-$2 cpu" \
			'[(.metrics[] | select(.name == $c) | .median), (.metrics[] | select(.name == $u) | 1000 / .median)] | map(tostring) | join(" ")'
}
stats() { # name values... -> median and spread of ratios
	printf '%s\n' "${@:2}" | sort -g | awk -v n="$1" '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%-28s ratio perflab/tool: median %.3f  spread %.3f..%.3f  (%d pairs)\n", n, m, v[1], v[NR], NR }'
}

echo "input: $CORPUS corpus, $BYTES bytes in $IN; $PAIRS pairs, alternating"
declare -A RATIOS PF
for spec in "isal 1 igzip -1 -c" "libdeflate 1 libdeflate-gzip -1 -c" "zlib 1 gzip -1 -c" \
	"libdeflate 6 libdeflate-gzip -6 -c" "zlib 6 gzip -6 -c"; do
	set -- $spec
	be=$1 lv=$2
	shift 2
	if ! command -v "$1" >/dev/null; then
		echo "$be-$lv: $1 not installed, skipped"
		continue
	fi
	rs=()
	cs=()
	for i in $(seq "$PAIRS"); do
		read -r aw ac <<<"$(tool_run "$@")"
		read -r bw bc <<<"$(perflab_run "$be" "$lv")"
		r=$(awk -v a="$aw" -v b="$bw" 'BEGIN { printf "%.3f", b / a }')
		c=$(awk -v a="$ac" -v b="$bc" 'BEGIN { printf "%.3f", b / a }')
		printf '  %-13s pair %d: %-22s wall %8.2f cpu %8.2f MB/s | perflab wall %8.2f cpu %8.2f MB/s | ratio wall %s cpu %s\n' \
			"$be-$lv" "$i" "$*" "$aw" "$ac" "$bw" "$bc" "$r" "$c"
		rs+=("$r")
		cs+=("$c")
		PF[$be-$lv]="${PF[$be-$lv]:-} $bc"
	done
	stats "$be-$lv vs $1 (wall)" "${rs[@]}"
	stats "$be-$lv vs $1 (CPU time)" "${cs[@]}"
done

# ISA-L level 1 vs zlib level 1, both measured by perflab on the same corpus
if [ -n "${PF[isal-1]:-}" ] && [ -n "${PF[zlib-1]:-}" ]; then
	med() { printf '%s\n' $1 | sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
	mi=$(med "${PF[isal-1]}")
	mz=$(med "${PF[zlib-1]}")
	awk -v a="$mi" -v b="$mz" 'BEGIN { printf "ISA-L level 1 %.1f vs zlib level 1 %.1f MB/s per CPU second (perflab): %.2fx (target >= 3x)\n", a, b, a / b }'
fi
