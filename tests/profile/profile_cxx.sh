#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Demangling in perflab profile: a C++ program (tests/profile/cxx_shape.cpp, built here with
# g++ and frame pointers, so each stack is main -> function) whose five hot functions are
# a namespaced function, a template instance, two overloads and a lambda. The expected
# names are what binutils' c++filt prints for the mangled names nm lists (the end-to-end
# check; test_names.c checks pl_demangle on fixed strings, test_names.c's test_tree the
# tree's pruning and shortening); --no-demangle must show the mangled names. About 2 s.
. "$PERFLAB_SRCDIR/tests/lib.sh"

if ! command -v g++ >/dev/null; then
	skip "C++ demangling tests" "g++ not installed (scripts/install-deps.sh test)"
	done_testing
fi
if ! command -v c++filt >/dev/null || ! command -v nm >/dev/null; then
	skip "C++ demangling tests" "binutils (nm, c++filt) not installed"
	done_testing
fi
if ! "$PERFLAB" profile -q -- true >"$OUT" 2>"$ERR"; then
	skip "C++ demangling tests" "perf_event_open unavailable: $(head -c 300 "$ERR")"
	done_testing
fi

X=$TMP/cxx-shape
ok "build the C++ fixture" g++ -O1 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
	-o "$X" "$PERFLAB_SRCDIR/tests/profile/cxx_shape.cpp"
# The hot C++ functions of the program (text symbols, mangled; not publish(double), which
# they call once) and c++filt's names for them.
nm --defined-only "$X" | awk '$2 ~ /^[TtWw]$/ && $3 ~ /^_Z/ && $3 != "_Z7publishd" { print $3 }' |
	sort >"$TMP/mangled"
c++filt <"$TMP/mangled" >"$TMP/demangled"
is "nm lists the five hot C++ functions" "$(wc -l <"$TMP/mangled")" 5
like "c++filt demangles the template" "$(cat "$TMP/demangled")" 'geo::accumulate<double>\(long\)'
like "c++filt demangles the lambda" "$(cat "$TMP/demangled")" 'main::\{lambda\(long\)#1\}'

# The text table and the call tree (to a file: names whole), checked in the loop below.
ok "profile the C++ program: --tree" "$PERFLAB" profile --top 50 --tree -o "$TMP/cxx.txt" -- "$X" 3
sed -n '/^call tree/,$p' "$TMP/cxx.txt" >"$TMP/tree"
like "--tree: main under __libc_start_call_main" "$(cat "$TMP/tree")" \
	'^ *[0-9.]+%    main \[cxx-shape\]$'

J=$TMP/cxx.json
ok "profile the C++ program" "$PERFLAB" profile --json -o "$J" --top 50 --folded "$TMP/cxx.folded" \
	--svg "$TMP/cxx.svg" -- "$X" 10
validate profile.schema.json "$J"
like "enough samples" "$(jqv "$J" .samples)" '^[0-9]{3,}$'
# Five loops of equal length: each ~20% of the samples (cpu-clock counts the program's CPU
# time, so a loaded machine changes the count of samples, not the shares); at >= 100
# samples the binomial sd of a 20% share is <= 4 points, so [8, 32] is 3 sd wide.
while IFS= read -r m <&3 && IFS= read -r d <&4; do
	got=$(jq -r --arg m "$m" '.top_self[] | select(.mangled == $m) | .function' "$J")
	is "demangled like c++filt: $m" "$got" "$d"
	share=$(jq -r --arg m "$m" '[.top_self[] | select(.mangled == $m) | .self_pct] | add // 0' "$J")
	if awk -v v="$share" 'BEGIN { exit !(v >= 8 && v <= 32) }'; then
		_report ok "share of $d ($share in [8, 32])"
	else
		_report fail "share of $d" "got $share, want [8, 32]"
	fi
	re=$(printf '%s' "$d" | sed 's/[][\\.*^$(){}+?|]/\\&/g')
	like "folded has the edge main -> $d" "$(cat "$TMP/cxx.folded")" ";main;$re [0-9]+"
	like "--tree has $d under main" "$(cat "$TMP/tree")" "^ *[0-9.]+%      $re \[cxx-shape\]\$"
done 3<"$TMP/mangled" 4<"$TMP/demangled"
is "C functions (libc on the stacks) have no \"mangled\" member" \
	"$(jqv "$J" '[.top_total[] | select(.module | test("^libc")) | has("mangled")] | unique | join(",")')" false
is "folded lines are 'comm;frame;...;leaf count' (names keep their spaces)" \
	"$(grep -cvE '^[^ ;]+(;[^;]+)* [0-9]+$' "$TMP/cxx.folded")" 0
is "no mangled C++ name left in the folded stacks" "$(grep -c '_Z' "$TMP/cxx.folded")" 0
like "svg has the template name, XML-escaped" "$(cat "$TMP/cxx.svg")" \
	'double geo::accumulate&lt;double&gt;\(long\)'
like "text table (not a terminal) has the whole name" "$(cat "$TMP/cxx.txt")" \
	'main::\{lambda\(long\)#1\}::operator\(\)\(long\) const \[cxx-shape\]'

# On a terminal (a pty from script(1), 70 columns) the tables shorten long names to the
# room (here the minimum, 40 bytes): the 46-byte lambda is cut at a "::".
if command -v script >/dev/null; then
	script -qec "stty cols 70; '$PERFLAB' profile --top 50 -- '$X' 3" /dev/null |
		tr -d '\r' | sed 's/\x1b\[[0-9;]*m//g' >"$TMP/tty.txt"
	like "terminal: the lambda row is shortened" "$(cat "$TMP/tty.txt")" \
		'^ +[0-9.]+% +[0-9.]+% +[0-9]+  \.\.\.operator\(\)\(\.\.\.\) const \[cxx-shape\]$'
	like "terminal: the overloads keep their parameters" "$(cat "$TMP/tty.txt")" \
		'  work\(double\) \[cxx-shape\]$'
	is "terminal: no name in the tables longer than its 40 bytes" \
		"$(awk '/^ +[0-9.]+% +[0-9.]+% / { sub(/^ +[0-9.]+% +[0-9.]+% +[0-9]+  /, "");
			sub(/ [^ ]+$/, ""); if (length > 40) n++ } END { print n + 0 }' "$TMP/tty.txt")" 0
else
	skip "terminal tables" "script(1) (util-linux) not installed"
fi

N=$TMP/nodm.json
ok "--no-demangle" "$PERFLAB" profile --no-demangle --json -o "$N" --top 50 \
	--folded "$TMP/nodm.folded" -- "$X" 3
validate profile.schema.json "$N"
is "--no-demangle: the mangled names are the functions" \
	"$(jqv "$N" '[.top_self[].function | select(startswith("_Z") and . != "_Z7publishd")] | sort | join(" ")')" \
	"$(tr '\n' ' ' <"$TMP/mangled" | sed 's/ $//')"
is "--no-demangle: no \"mangled\" member" "$(jqv "$N" '[.top_self[] | select(has("mangled"))] | length')" 0
like "--no-demangle: folded keeps the mangled names" "$(cat "$TMP/nodm.folded")" '_ZN3geo5inner4spinEl'
done_testing
