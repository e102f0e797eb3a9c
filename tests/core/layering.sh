#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Layering: every `#include "..."` under src/ points down the order
#   3  src/main.c, src/cmd/, src/mpi/  (wiring: options to modules; src/mpi/ is perflab-mpi)
#   2  bench, profile, tune, compare, monitor, out   (engines)
#   1  facts, rules, stats             (what the engines work on)
#   0  util                           (helpers every layer uses, the JSON writer among them)
# An edge to a lower layer is fine; an edge up is not. Within a layer an edge between two
# modules is allowed only when it is listed in ALLOWED below with its reason (one module's
# own files include each other freely). Besides: facts never include rules (the
# collector is told which sysctls to read: pl_facts_set_sysctl_names), and nothing but
# src/main.c, src/cmd/ and src/mpi/ includes cmd/ (perflab-mpi parses its options and
# builds a node's document with the commands' code, as perflab does). config.h (generated
# by meson) and perflab/*.h (the public header in include/) belong to no layer and may be
# included anywhere.
# No exceptions: an edge that breaks the order is fixed by moving code, not by a list.
. "$PERFLAB_SRCDIR/tests/lib.sh"
cd "$PERFLAB_SRCDIR" || exit 1

# FROM->TO module pairs inside one layer, each with why it cannot point down instead.
declare -A ALLOWED=(
	[main->cmd]="main.c parses the global options and dispatches to the command entry points"
	[rules->facts]="rules are predicates over facts (struct pl_facts, fact keys)"
	[bench->tune]="bench clock --all-clocksources switches the clocksource through tune's journal and value parser, so a crash is undone as after tune apply"
	[compare->tune]="compare's sysctl/sysfs and tune-profile variants are tune plans, applied and restored through tune's journal"
	[out->bench]="the report prints each bench result's environment line with bench's pl_env_text (bench/env.h), the one renderer bench, compare and report share"
	[compare->monitor]="compare --monitor samples the machine around every run with monitor's snapshots and interval rates (monitor/rates.h)"
	[compare->bench]="compare prints its environment line with bench's pl_env_text (bench/env.h), as bench and report do"
	[out->compare]="the report's baseline diff and perflab diff (out/diff.c) give each figure a verdict with compare's statistics (compare/analyze.h), so a change reads the same as in perflab compare"
	[out->profile]="the report and its HTML draw the profile document's flame graph (profile/flame.h)"
)

# module FILE-OR-INCLUDE [INCLUDER]: the module a path names.
module() {
	case $1 in
	src/main.c) echo main ;;
	config.h | perflab/*) echo ext ;;
	src/*/*) local p=${1#src/}; echo "${p%%/*}" ;;
	*/*) echo "${1%%/*}" ;;
	*) module "$2" ;; # "name.h" next to the includer
	esac
}
layer() {
	case $1 in
	main | cmd | mpi) echo 3 ;;
	bench | profile | tune | compare | monitor | out) echo 2 ;;
	facts | rules | stats) echo 1 ;;
	util) echo 0 ;;
	*) echo unknown ;;
	esac
}
# violation FILE INCLUDE: why the edge breaks the order, or nothing.
violation() {
	local from to lf lt
	from=$(module "$1")
	to=$(module "$2" "$1")
	[ "$to" = ext ] && return
	[ "$from" = "$to" ] && return
	lf=$(layer "$from")
	lt=$(layer "$to")
	if [ "$lf" = unknown ] || [ "$lt" = unknown ]; then
		echo "$1 -> $2: module '$from' or '$to' has no layer (add it to tests/core/layering.sh)"
	elif [ "$to" = cmd ] && [ "$from" != main ] && [ "$from" != mpi ]; then
		echo "$1 -> $2: only src/main.c, src/cmd/ and src/mpi/ include cmd/"
	elif [ "$to" = cmd ] && [ "$from" = mpi ]; then
		return
	elif [ "$from" = facts ] && [ "$to" = rules ]; then
		echo "$1 -> $2: facts never include rules"
	elif [ "$lt" -gt "$lf" ]; then
		echo "$1 -> $2: points up ($from is layer $lf, $to layer $lt)"
	elif [ "$lt" -eq "$lf" ] && [ -z "${ALLOWED[$from->$to]-}" ]; then
		echo "$1 -> $2: $from -> $to within layer $lf is not in ALLOWED"
	fi
}

edges=$(grep -rHoE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]+"' src --include='*.c' --include='*.h' |
	sed -E 's/^([^:]+):.*"([^"]+)"$/\1 \2/')
n=$(printf '%s\n' "$edges" | grep -c .)
ok "read the includes of src/ ($n edges)" test "$n" -ge 300

bad=""
declare -A used=()
while read -r file inc; do
	v=$(violation "$file" "$inc")
	[ -n "$v" ] && bad+="$v"$'\n'
	f=$(module "$file")
	t=$(module "$inc" "$file")
	used[$f->$t]=1
done <<<"$edges"
is "every include points down the layers (or is in ALLOWED)" "$bad" ""
stale=""
for e in "${!ALLOWED[@]}"; do
	[ -n "${used[$e]-}" ] || stale+="$e "
done
is "every ALLOWED edge is still used (drop the ones that are not)" "$stale" ""

# The checker itself catches each kind of break (so the test above can fail).
like "facts -> rules is caught" "$(violation src/facts/sysctl.c rules/rules.h)" 'facts never include rules'
like "an engine -> cmd/ is caught" "$(violation src/bench/runner.c cmd/common.h)" 'only src/main.c, src/cmd/ and src/mpi/'
like "out -> cmd/ is caught" "$(violation src/out/report.c cmd/common.h)" 'only src/main.c, src/cmd/ and src/mpi/'
like "util -> facts (up) is caught" "$(violation src/util/str.c facts/facts.h)" 'points up'
like "an unlisted engine -> engine edge is caught" "$(violation src/tune/plan.c compare/exec.h)" 'not in ALLOWED'
is "mpi -> cmd/ is fine" "$(violation src/mpi/commands.c cmd/node.h)" ""
is "cmd -> engine is fine" "$(violation src/cmd/bench.c bench/bench.h)" ""
is "a module's own header is fine" "$(violation src/bench/io.c io.h)" ""
done_testing
