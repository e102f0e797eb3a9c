#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Per-run harness overhead of `perflab compare` against `hyperfine -N` on /bin/true
# (target: perflab's overhead at most hyperfine's), run side by side, alternately
# (A B A B ...), PAIRS times. Two numbers per tool:
#   total/run  = the tool's whole elapsed time (CLOCK_MONOTONIC around the process) divided
#                by the number of /bin/true runs it made: everything the harness costs;
#   timed/run  = the median wall time the tool itself reports for /bin/true: the harness
#                work that falls inside each measurement (fork/exec/wait).
# Both tools run 2 commands x RUNS runs, no warm-up, no shell, output to /dev/null.
# Prints the medians over the pairs, the ratio perflab/hyperfine and the spread (min-max).
# The machine is shared (other builds run): numbers are noisy; compare ratios, not values.
# Usage: benchmarks/compare-overhead.sh [RUNS] [PAIRS]   (PERFLAB=path/to/perflab)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/benchmarks/common.sh"
RUNS=${1:-$(bench_quick 500 200)}
PAIRS=${2:-$(bench_quick 5 3)}
PERFLAB=${PERFLAB:-$here/build/perflab}
if [ ! -x "$PERFLAB" ]; then
	echo "compare-overhead: build perflab first (make build), or set PERFLAB" >&2
	exit 2
fi
command -v hyperfine >/dev/null || { echo "compare-overhead: hyperfine not installed (make bench-deps)" >&2; exit 2; }
command -v jq >/dev/null || { echo "compare-overhead: jq not installed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }   # GNU date reads CLOCK_REALTIME; both tools see the same clock

perflab_once() {
	local t0 t1
	t0=$(now)
	"$PERFLAB" compare --json -o "$tmp/p.json" --runs "$RUNS" --warmup 0 \
		-n a -- /bin/true -n b -- /bin/true
	t1=$(now)
	awk -v a="$t0" -v b="$t1" -v n="$RUNS" -v m="$(jq '.statistics[] | select(.metric=="wall") | .variants[0].median' "$tmp/p.json")" \
		'BEGIN {printf "%.3f %.3f\n", (b - a) / (2 * n) * 1e6, m * 1e6}'
}

hyperfine_once() {
	local t0 t1
	t0=$(now)
	hyperfine -N --runs "$RUNS" --warmup 0 --style none --export-json "$tmp/h.json" \
		/bin/true /bin/true >/dev/null 2>&1
	t1=$(now)
	awk -v a="$t0" -v b="$t1" -v n="$RUNS" -v m="$(jq '.results[0].median' "$tmp/h.json")" \
		'BEGIN {printf "%.3f %.3f\n", (b - a) / (2 * n) * 1e6, m * 1e6}'
}

: >"$tmp/p"
: >"$tmp/h"
for i in $(seq "$PAIRS"); do
	perflab_once >>"$tmp/p"
	hyperfine_once >>"$tmp/h"
	printf 'pair %d/%d: perflab %s | hyperfine %s (total/run us, timed/run us)\n' "$i" "$PAIRS" \
		"$(tail -1 "$tmp/p" | awk '{printf "%.1f %.1f", $1, $2}')" \
		"$(tail -1 "$tmp/h" | awk '{printf "%.1f %.1f", $1, $2}')"
done

stats() { # column -> "median min max"
	sort -g | awk '{v[NR]=$1} END {m = NR % 2 ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2; printf "%.1f %.1f %.1f", m, v[1], v[NR]}'
}
for col in 1 2; do
	name=$([ $col = 1 ] && echo "total/run" || echo "timed/run")
	read -r pm pmin pmax <<<"$(awk -v c=$col '{print $c}' "$tmp/p" | stats)"
	read -r hm hmin hmax <<<"$(awk -v c=$col '{print $c}' "$tmp/h" | stats)"
	printf '%-9s perflab %7.1f us [%.1f-%.1f]  hyperfine -N %7.1f us [%.1f-%.1f]  ratio %.2f\n' \
		"$name" "$pm" "$pmin" "$pmax" "$hm" "$hmin" "$hmax" "$(awk -v a="$pm" -v b="$hm" 'BEGIN {print a / b}')"
	if [ $col = 1 ]; then
		what="total cost per /bin/true run: the tool's whole wall time / runs (2 commands x $RUNS runs, no warm-up, no shell)"
		area="compare total/run"
	else
		what="median wall time the tool reports for /bin/true: the harness work inside each measurement"
		area="compare timed/run"
	fi
	bench_result area="$area" what="$what" perflab="$pm" peer="$hm" unit=us target="<= 1" \
		perflab_cmd="perflab compare --runs $RUNS --warmup 0 -n a -- /bin/true -n b -- /bin/true" \
		peer_cmd="hyperfine -N --runs $RUNS --warmup 0 --style none /bin/true /bin/true" \
		samples="$(paste -d' ' "$tmp/p" "$tmp/h" | awk -v c=$col '{ printf "%s ", $c / $(c + 2) }')"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs (noisy when high)"
