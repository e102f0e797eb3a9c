#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Run the libFuzzer harnesses (docs/HACKING.md, "Fuzzing").
#
#   run.sh NAME            TAP, for `meson test` (fuzz/NAME): every file of regress/NAME/
#                          once (one line each), the seed corpus once (one line), both
#                          through replay-NAME of the ASan test build; then fuzz-NAME of
#                          the fuzz build for $FUZZ_TIME seconds (default 20; one line).
#   run.sh --long NAME...  `make fuzz`: each harness for $FUZZ_TIME seconds (default 300),
#                          one after the other, keeping what it learns in
#                          $FUZZ_BINDIR/corpus/NAME/; one summary line per harness.
#
# A crash, leak, sanitizer report, broken invariant, input over -timeout seconds (a hang)
# or over -rss_limit_mb (an OOM) fails, and the input is kept in
# $FUZZ_ARTIFACTS/NAME/ (printed). Make it a regression input: copy it to
# tests/fuzz/regress/NAME/ with a name saying what it was, fix the code, commit both.
#
# Environment: FUZZ_BINDIR (the fuzz build's tests/fuzz; default build-fuzz/tests/fuzz),
# FUZZ_REQUIRED=1 (a missing fuzz build fails instead of skipping; `make test` sets it),
# FUZZ_TIME, FUZZ_RSS_MB (2048), FUZZ_TIMEOUT (per input, seconds; 10), FUZZ_ARTIFACTS.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
mode=tap
if [ "${1:-}" = --long ]; then
	mode=long
	shift
fi
bindir=${FUZZ_BINDIR:-$top/build-fuzz/tests/fuzz}
rss=${FUZZ_RSS_MB:-2048}
per_input=${FUZZ_TIMEOUT:-10}

# Every harness's temporary files live here and go with it (also after a crash).
base=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
work=$(mktemp -d "$base/perflab-fuzz-run.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work
# a UBSan report stops the input and shows where it came from
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

# fuzz NAME SECONDS CORPUSDIR ARTIFACTDIR LOG: run fuzz-NAME; status 0 when it ran to the
# end without a finding.
fuzz() {
	local name=$1 secs=$2 corpus=$3 art=$4 log=$5
	local seeds=("$here/corpus/$name")
	[ -d "$here/regress/$name" ] && seeds+=("$here/regress/$name")
	mkdir -p "$corpus" "$art"
	# the outer limit only catches a fuzzer that stops answering
	timeout -k 10 $((secs * 2 + 120)) "$bindir/fuzz-$name" -max_total_time="$secs" \
		-rss_limit_mb="$rss" -malloc_limit_mb="$rss" -timeout="$per_input" \
		-print_final_stats=1 -artifact_prefix="$art/" "$corpus" "${seeds[@]}" >"$log" 2>&1
}

# summary LOG: "N runs, X exec/s, cov C, ft F, corpus K" from libFuzzer's last status line
summary() {
	local done
	done=$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$1" | tail -n 1)
	local runs=${done%%[[:space:]]*}
	local cov ft corp eps
	cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$done")
	ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$done")
	corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$done")
	eps=$(sed -n 's/^stat::average_exec_per_sec:[[:space:]]*//p' "$1" | tail -n 1)
	echo "${runs#\#} runs, ${eps:-?} exec/s, cov ${cov:-?}, ft ${ft:-?}, corpus ${corp:-?}"
}

# finding LOG: the saved input and the first lines of the report
finding() {
	local unit
	unit=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$1" | tail -n 1)
	echo "input saved as ${unit:-(none: see the log)}"
	grep -m 6 -E 'ERROR:|SUMMARY:|runtime error|invariant broken|out-of-memory|timeout after' "$1"
	# the frames in perflab's code and the harness, not libFuzzer's or libc's
	grep -E '^ +#[0-9]+ .* in [A-Za-z_].*\.\./(src|tests/fuzz)/' "$1" | grep -v ' in fuzz_fail ' |
		head -n 8
}

if [ "$mode" = long ]; then
	[ $# -gt 0 ] || { echo "usage: run.sh --long NAME..." >&2; exit 2; }
	secs=${FUZZ_TIME:-300}
	arts=${FUZZ_ARTIFACTS:-$bindir/crashes}
	bad=0
	for name in "$@"; do
		[ -x "$bindir/fuzz-$name" ] || { echo "$name: no $bindir/fuzz-$name (build the fuzz build)" >&2; bad=1; continue; }
		log=$bindir/fuzz-$name.log
		echo "$name: fuzzing for $secs s (log: $log)"
		if fuzz "$name" "$secs" "$bindir/corpus/$name" "$arts/$name" "$log"; then
			echo "$name: ok: $(summary "$log")"
		else
			echo "$name: FOUND SOMETHING: $(summary "$log")"
			finding "$log" | sed 's/^/    /'
			bad=1
		fi
	done
	exit $bad
fi

# ---- TAP mode (meson test fuzz/NAME) ----
name=${1:?usage: run.sh NAME}
builddir=${FUZZ_BUILDDIR:?run through meson test}
replay=$builddir/replay-$name
n=0
failed=0
tap() { # ok|not-ok DESCRIPTION [DIAG-FILE]
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
		[ -n "${3:-}" ] && sed 's/^/# /' "$3" | tail -n 40
	fi
}

# Regression inputs: each once, in the ASan test build (gcc).
if [ -d "$here/regress/$name" ]; then
	for f in "$here/regress/$name"/*; do
		[ -f "$f" ] || continue
		if timeout 120 "$replay" "$f" >"$work/replay.log" 2>&1; then
			tap ok "$name: regression input $(basename "$f")"
		else
			tap not-ok "$name: regression input $(basename "$f") (tests/fuzz/regress/$name)" "$work/replay.log"
		fi
	done
fi
# The seed corpus: together, once.
seeds=("$here/corpus/$name"/*)
if timeout 300 "$replay" "${seeds[@]}" >"$work/replay.log" 2>&1; then
	tap ok "$name: the ${#seeds[@]} seed inputs of tests/fuzz/corpus/$name run cleanly"
else
	tap not-ok "$name: a seed input of tests/fuzz/corpus/$name fails" "$work/replay.log"
fi
# The fuzzer, briefly.
secs=${FUZZ_TIME:-20}
# tests/fuzz/pending: "NAME: reason" for a harness that finds a known crash within
# seconds whose fix is not in yet; its timed run is a skip naming the reason until the
# line is removed (its seeds and regression inputs above still run).
pending=$(sed -n "s/^$name: //p" "$here/pending" 2>/dev/null | head -n 1)
if [ -n "$pending" ]; then
	n=$((n + 1))
	echo "ok $n - $name: fuzz for $secs s # skip known crash not fixed yet: $pending"
elif [ ! -x "$bindir/fuzz-$name" ]; then
	if [ "${FUZZ_REQUIRED:-0}" = 1 ]; then
		echo "no $bindir/fuzz-$name" >"$work/why"
		tap not-ok "$name: fuzz for $secs s: the fuzz build is missing" "$work/why"
	else
		n=$((n + 1))
		echo "ok $n - $name: fuzz for $secs s # skip no fuzz build in $bindir (make test builds it)"
	fi
else
	arts=${FUZZ_ARTIFACTS:-$builddir/crashes}
	if fuzz "$name" "$secs" "$work/corpus" "$arts/$name" "$work/fuzz.log"; then
		tap ok "$name: fuzz for $secs s: $(summary "$work/fuzz.log")"
	else
		finding "$work/fuzz.log" >"$work/why"
		tap not-ok "$name: fuzz for $secs s found a crash, leak, hang or OOM" "$work/why"
	fi
fi
echo "1..$n"
exit $((failed > 0))
