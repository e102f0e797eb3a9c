# SPDX-License-Identifier: GPL-3.0-or-later
# Shared start of the bench area's side-by-side scripts. Source it after `cd` to the
# source tree: `bench_init NAME DEFAULT_PAIRS "$@"` sets N (pairs, from $1 or the
# default), PERFLAB (the release build unless PERFLAB is set) and tmp (removed at exit).
bench_init() {
	local name=$1 def=$2
	shift 2
	N=${1:-$def}
	case $N in '' | *[!0-9]* | 0) echo "$name: N must be a positive integer, got '$N'" >&2; exit 2 ;; esac
	if [ -z "${PERFLAB:-}" ]; then
		make build >/dev/null
		PERFLAB=$PWD/build/perflab
	fi
	[ -x "$PERFLAB" ] || { echo "$name: '$PERFLAB' is not an executable (run make build)" >&2; exit 2; }
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
}

# QUICK=1 (the scoreboard's short run, `make bench-peers QUICK=1`): `bench_quick FULL
# SHORT` prints SHORT when QUICK=1, else FULL; scripts use it for their defaults (pairs,
# sizes, durations), so arguments given on the command line still win.
bench_quick() {
	if [ "${QUICK:-0}" = 1 ]; then echo "$2"; else echo "$1"; fi
}

# bench_result KEY=VALUE...: print this script's result line for the scoreboard
# (benchmarks/scoreboard.py), one per comparison: "PERFLAB-RESULT " and a JSON object
# (built by benchmarks/pairs.py result(), which documents the keys). Required: area=,
# what=, perflab=, peer= (empty for an absolute target), unit=, perflab_cmd=, peer_cmd=;
# optional target= ('>= X', '<= X', '< X', '> X', 'LO..HI'; on the ratio perflab/peer, or
# on the perflab figure with target_of=perflab), samples="r1 r2 ..." (per-pair ratios),
# status=skipped reason=... . Call it from the directory of the source tree.
bench_result() {
	/usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/pairs.py" result "$@"
}

# bench_skip AREA REASON: the result line of a comparison that cannot run here (a peer
# is missing, too long for QUICK); the scoreboard shows it as skipped with the reason.
bench_skip() {
	bench_result area="$1" what="" perflab= peer= unit="" perflab_cmd="" peer_cmd="" \
		status=skipped reason="$2"
}

# bench_median V...: the median of the numbers (empty with none).
bench_median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR) print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
