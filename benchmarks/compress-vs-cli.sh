#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab bench compress vs each library's own command-line tool, on the same bytes.
#
#   benchmarks/compress-vs-cli.sh [PAIRS]      (env: PERFLAB, SIZE=64MiB, CORPUS=text)
#
# The corpus is generated once by perflab (--save-input) into /dev/shm, so the tools read
# it from memory. Each pair runs the tool (`igzip -1 -c`, `libdeflate-gzip -1 -c`,
# `gzip -1 -c`, output to /dev/null; wall time of the whole process, startup and reading
# included) and perflab (`--input` the same file, one request of the whole input, one
# core), alternately A B A B. Throughput = uncompressed MB (10^6 B) / s for both. Prints
# each pair, the median ratio perflab/tool, its spread (min..max), and the ISA-L level 1
# vs zlib level 1 speed-up on the text corpus (target >= 3x). The machine is shared:
# expect noise; trust the medians of several pairs, not one.
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

now() { date +%s.%N; }
# tool_mbps CMD... : MB/s of one run of a CLI tool on $IN
tool_mbps() {
	local t0 t1
	t0=$(now)
	"$@" <"$IN" >/dev/null
	t1=$(now)
	awk -v b="$BYTES" -v a="$t0" -v c="$t1" 'BEGIN { printf "%.2f", b / (c - a) / 1e6 }'
}
# perflab_mbps BACKEND LEVEL : compress MB/s of one perflab run (median of its runs)
perflab_mbps() {
	"$PERFLAB" bench compress --input "$IN" --backend "$1" --level "$2" --request-size 0 \
		--time 1 --runs 1 --json 2>/dev/null |
		jq -r --arg n "$1-$2 compress" '.metrics[] | select(.name == $n) | .median'
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
	for i in $(seq "$PAIRS"); do
		a=$(tool_mbps "$@")
		b=$(perflab_mbps "$be" "$lv")
		r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b / a }')
		printf '  %-14s pair %d: %-22s %9.2f MB/s   perflab %9.2f MB/s   ratio %s\n' "$be-$lv" "$i" "$*" "$a" "$b" "$r"
		rs+=("$r")
		PF[$be-$lv]="${PF[$be-$lv]:-} $b"
	done
	RATIOS[$be-$lv]="${rs[*]}"
	stats "$be-$lv vs $1" "${rs[@]}"
done

# ISA-L level 1 vs zlib level 1, both measured by perflab on the same corpus
if [ -n "${PF[isal-1]:-}" ] && [ -n "${PF[zlib-1]:-}" ]; then
	med() { printf '%s\n' $1 | sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
	mi=$(med "${PF[isal-1]}")
	mz=$(med "${PF[zlib-1]}")
	awk -v a="$mi" -v b="$mz" 'BEGIN { printf "ISA-L level 1 %.1f MB/s vs zlib level 1 %.1f MB/s: %.2fx (target >= 3x)\n", a, b, a / b }'
fi
