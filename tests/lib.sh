# SPDX-License-Identifier: GPL-3.0-or-later
# TAP helpers for shell tests. Source it; call the helpers; end with `done_testing`.
#   ok NAME CMD...              passes when CMD exits 0
#   expect_exit CODE NAME CMD... passes when CMD exits CODE (stdout/stderr kept in $OUT/$ERR)
#   is NAME GOT WANT            string equality
#   like NAME GOT REGEX         extended regex match
#   skip NAME REASON            a skipped check, counted as skipped (never as passed)
#   jqv FILE FILTER             print a jq value (raw)
#   validate SCHEMA FILE        JSON Schema validation (docs/schemas/SCHEMA)
set -u
: "${PERFLAB:?run through meson test}"
: "${PERFLAB_SRCDIR:?}"
_n=0
_failed=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/perflab-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
OUT=$TMP/out
ERR=$TMP/err

_report() { # status name [diag]
	_n=$((_n + 1))
	if [ "$1" = ok ]; then
		echo "ok $_n - $2"
	else
		_failed=$((_failed + 1))
		echo "not ok $_n - $2"
		[ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/# /'
	fi
	return 0
}

ok() {
	local name=$1
	shift
	if "$@" >"$OUT" 2>"$ERR"; then _report ok "$name"; else
		_report fail "$name" "exit $?: $(head -c 2000 "$ERR")"
	fi
}

expect_exit() {
	local code=$1 name=$2
	shift 2
	"$@" >"$OUT" 2>"$ERR"
	local rc=$?
	if [ "$rc" -eq "$code" ]; then _report ok "$name"; else
		_report fail "$name" "expected exit $code, got $rc: $(head -c 2000 "$ERR")"
	fi
}

is() {
	if [ "$2" = "$3" ]; then _report ok "$1"; else
		_report fail "$1" "got:  '$2'
want: '$3'"
	fi
}

like() {
	if printf '%s' "$2" | grep -Eq -- "$3"; then _report ok "$1"; else
		_report fail "$1" "got: '$(printf '%s' "$2" | head -c 1500)'
does not match: $3"
	fi
}

skip() {
	_n=$((_n + 1))
	echo "ok $_n - $1 # SKIP $2"
}

jqv() { jq -r "$2" "$1"; }

validate() {
	local schema=$PERFLAB_SRCDIR/docs/schemas/$1
	if /usr/bin/python3 "$PERFLAB_SRCDIR/tests/validate-json.py" "$schema" "$2" >"$TMP/v" 2>&1; then
		_report ok "$2 matches $1"
	else
		_report fail "$(basename "$2") matches $1" "$(head -c 2000 "$TMP/v")"
	fi
}

done_testing() {
	echo "1..$_n"
	[ "$_failed" -eq 0 ]
	exit $?
}
