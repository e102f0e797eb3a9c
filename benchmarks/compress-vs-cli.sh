#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab bench compress vs each library's own command-line tool, and vs an independent
# in-memory loop over the same library, on the same bytes.
#
#   benchmarks/compress-vs-cli.sh [PAIRS]      (env: PERFLAB, SIZE=64MiB, CORPUS=text,
#                                              ONLY="libdeflate-1 zlib-6": those only)
#
# The corpus is generated once by perflab (--save-input) into /dev/shm, so every reader
# reads it from memory. Each round runs, alternately:
#   tool     the CLI (`igzip -1 -c`, `libdeflate-gzip -1 -c`, `gzip -1 -c`, output to
#            /dev/null; the whole process: start-up, reading and first touch included);
#   ref      benchmarks/compress-ref.c, an independent in-memory loop over the library's
#            one-shot gzip call on reused buffers, linked like the tool (libdeflate.a as
#            Debian's libdeflate-gzip, libisal.so as igzip, libz.so); for libdeflate
#            also linked with the shared libdeflate.so, to show what that build costs;
#   perflab  `bench compress --input` the same file, one request of the whole input.
# Throughput = uncompressed MB (10^6 B) per CPU second (user+sys: getrusage of the child
# for the tool, perflab's "cpu" metric, the reference's own getrusage); CPU time is the
# fair clock on a shared, loaded machine (all three are single-threaded).
# Ratios printed (median and spread of the rounds):
#   perflab / ref        the target: perflab measures the library within 5% (PASS/MISS
#                        on the median);
#   perflab / tool       the raw side-by-side: > 1 at fast levels because a one-shot
#                        tool also pays start-up, reading and first-touch page faults
#                        (expensive in a VM; the tool's sys share is printed) that a loop
#                        on reused buffers does not.
# `gzip` is GNU gzip's own deflate (zlib has no packaged CLI; same algorithm family), so
# zlib's tool ratios are context, not a like-for-like check; the reference loop is.
# Also prints ISA-L level 1 vs zlib level 1 per CPU second (target >= 3x).
set -euo pipefail
. "$(dirname "$0")/common.sh"
PAIRS=${1:-$(bench_quick 5 2)}
PERFLAB=${PERFLAB:-./build/perflab}
SIZE=${SIZE:-$(bench_quick 64MiB 16MiB)}
# QUICK=1: level 1 of each backend only
[ "${QUICK:-0}" != 1 ] || ONLY=${ONLY:-isal-1 libdeflate-1 zlib-1}
CORPUS=${CORPUS:-text}
command -v jq >/dev/null || { echo "needs jq" >&2; exit 2; }
[ -x "$PERFLAB" ] || { echo "no perflab at $PERFLAB (make build, or set PERFLAB)" >&2; exit 2; }
SHM=$(mktemp -d /dev/shm/perflab-cz.XXXXXX)
trap 'rm -rf "$SHM"' EXIT
IN=$SHM/corpus.$CORPUS
"$PERFLAB" bench compress --corpus "$CORPUS" --size "$SIZE" --backend zlib --level 1 --time 0.001 \
	--runs 1 --save-input "$IN" >/dev/null 2>&1
BYTES=$(stat -c %s "$IN")
LIBDIR=$(dirname "$(cc -print-file-name=libdeflate.a)")
[ -f "$LIBDIR/libdeflate.a" ] || { echo "needs libdeflate.a (libdeflate-dev)" >&2; exit 2; }
cc -O2 -o "$SHM/ref" "$(dirname "$0")/compress-ref.c" "$LIBDIR/libdeflate.a" -lisal -lz
cc -O2 -o "$SHM/ref-so" "$(dirname "$0")/compress-ref.c" -ldeflate -lisal -lz

# tool_run CMD... : "CPU_MBPS SYS_PERCENT" of one run of a CLI tool on $IN (bash's
# `time` gives the child's user and sys from getrusage)
tool_run() {
	local t
	t=$( { TIMEFORMAT='%3U %3S'; time "$@" <"$IN" >/dev/null; } 2>&1)
	awk -v b="$BYTES" -v t="$t" 'BEGIN { split(t, x, " ")
		printf "%.2f %.1f", b / (x[1] + x[2]) / 1e6, 100 * x[2] / (x[1] + x[2]) }'
}
# perflab_run BACKEND LEVEL : CPU MB/s of one perflab run (from its CPU s/GB: 1000 / (s/GB))
perflab_run() {
	"$PERFLAB" bench compress --input "$IN" --backend "$1" --level "$2" --request-size 0 \
		--time 1 --runs 1 --json 2>/dev/null |
		jq -r --arg u "$1-$2 cpu" '.metrics[] | select(.name == $u) | 1000 / .median'
}
stats() { # name lo hi values... -> median and spread of ratios; PASS/MISS when lo < hi
	printf '%s\n' "${@:4}" | sort -g | awk -v n="$1" -v lo="$2" -v hi="$3" '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		verdict = lo < hi ? (m >= lo && m <= hi ? "  PASS" : "  MISS") : ""
		printf "  %-34s median %.3f  spread %.3f..%.3f  (%d rounds)%s\n", n, m, v[1], v[NR], NR, verdict }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

echo "input: $CORPUS corpus, $BYTES bytes in $IN; $PAIRS rounds, alternating; MB/s per CPU second"
declare -A PF
for spec in "isal 1 igzip -1 -c" "libdeflate 1 libdeflate-gzip -1 -c" "zlib 1 gzip -1 -c" \
	"libdeflate 6 libdeflate-gzip -6 -c" "zlib 6 gzip -6 -c"; do
	set -- $spec
	be=$1 lv=$2
	shift 2
	case " ${ONLY:-$be-$lv} " in *" $be-$lv "*) ;; *) continue ;; esac
	if ! command -v "$1" >/dev/null; then
		echo "$be-$lv: $1 not installed, skipped"
		continue
	fi
	pw=() pt=() ss=() rf=() pl=()
	for i in $(seq "$PAIRS"); do
		read -r tool sys <<<"$(tool_run "$@")"
		ref=$("$SHM/ref" "$be" "$lv" "$IN" 1)
		pf=$(perflab_run "$be" "$lv")
		so=""
		if [ "$be" = libdeflate ]; then
			so=$("$SHM/ref-so" "$be" "$lv" "$IN" 1)
			ss+=("$(ratio "$so" "$ref")")
			so=" | ref .so $so"
		fi
		printf '  %-13s round %d: tool %8.2f (sys %4.1f%%) | ref %8.2f%s | perflab %8.2f\n' \
			"$be-$lv" "$i" "$tool" "$sys" "$ref" "$so" "$pf"
		pw+=("$(ratio "$pf" "$ref")") rf+=("$ref") pl+=("$pf")
		pt+=("$(ratio "$pf" "$tool")")
		PF[$be-$lv]="${PF[$be-$lv]:-} $pf"
	done
	echo "$be-$lv vs $*:"
	stats "perflab / ref (target 0.95-1.05)" 0.95 1.05 "${pw[@]}"
	stats "perflab / tool" 0 0 "${pt[@]}"
	[ ${#ss[@]} -eq 0 ] || stats "ref libdeflate.so / libdeflate.a" 0 0 "${ss[@]}"
	bench_result area="compress $be-$lv" \
		what="$be level $lv: uncompressed MB per CPU second on the same $CORPUS bytes ($BYTES B, /dev/shm); the tool's own ratio is printed above" \
		perflab="$(bench_median "${pl[@]}")" peer="$(bench_median "${rf[@]}")" unit="MB/s CPU" target="0.95..1.05" \
		perflab_cmd="perflab bench compress --input FILE --backend $be --level $lv --request-size 0 --time 1 --runs 1" \
		peer_cmd="benchmarks/compress-ref.c $be $lv FILE 1 (in-memory loop over the library's one-shot gzip call)" \
		samples="${pw[*]}"
done

# ISA-L level 1 vs zlib level 1, both measured by perflab on the same corpus
if [ -n "${PF[isal-1]:-}" ] && [ -n "${PF[zlib-1]:-}" ]; then
	med() { printf '%s\n' $1 | sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
	mi=$(med "${PF[isal-1]}")
	mz=$(med "${PF[zlib-1]}")
	awk -v a="$mi" -v b="$mz" 'BEGIN { printf "ISA-L level 1 %.1f vs zlib level 1 %.1f MB/s per CPU second (perflab): %.2fx (target >= 3x)\n", a, b, a / b }'
	bench_result area="compress isal-1 vs zlib-1" what="ISA-L level 1 vs zlib level 1 MB per CPU second, both measured by perflab (the 'peer' is zlib)" \
		perflab="$mi" peer="$mz" unit="MB/s CPU" target=">= 3" \
		perflab_cmd="perflab bench compress --input FILE --backend isal --level 1" \
		peer_cmd="perflab bench compress --input FILE --backend zlib --level 1"
fi
