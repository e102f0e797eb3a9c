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
