#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The option tables of every command seen through their --help: a single letter means one
# thing (one long option) across all commands and benchmarks; a retired letter of an option
# ("(was -X)" in --help) is refused with a pointer to the new spelling; and each command's man
# page, perflab-CMD(1), lists every option of its --help, with the same letter, and
# nothing --help does not know.
. "$PERFLAB_SRCDIR/tests/lib.sh"
P=$PERFLAB
MAN=$PERFLAB_SRCDIR/docs/man/perflab.1.scd

# every command of 'perflab --help' and every benchmark of 'bench --list'
cmds=$("$P" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} /^$/ {on = 0}' | grep -vx -e help -e completion)
# (a table with a header row, or an indented list)
benches=$("$P" bench --list | awk '$1 == "benchmark" || $1 == "benchmarks:" {next} /^(  )?[a-z]/ {print $1}')
is "commands found in --help" "$(echo "$cmds" | tr '\n' ' ')" "bench check compare diff inspect monitor profile report snapshot stat tune "
like "benchmarks found in bench --list" "$(echo "$benches" | tr '\n' ' ')" '^clock syscall mem .*compress'

# "CMD<TAB>-X<TAB>--long" for every option line of every help ('-' when no letter), and
# "CMD<TAB>-X<TAB>--long" for every "(was -X)" in $TMP/was
: >"$TMP/opts"
: >"$TMP/was"
: >"$TMP/enums"
helps=0
while read -r c; do
	[ -n "$c" ] || continue
	# shellcheck disable=SC2086
	if ! "$P" $c --help >"$TMP/help" 2>&1; then
		_report fail "$c --help exits 0" "$(head -c 500 "$TMP/help")"
		continue
	fi
	helps=$((helps + 1))
	sed -nE 's/^      --([a-z0-9-]+).*/\1/p; s/^  -([A-Za-z]), --([a-z0-9-]+).*/\1 \2/p' "$TMP/help" |
		sort -u | awk -v c="$c" '{ if (NF == 1) print c "\t-\t--" $1; else print c "\t-" $1 "\t--" $2 }' >>"$TMP/opts"
	sed -nE 's/^  (-[A-Za-z], |    )--([a-z0-9-]+).*\(was -([A-Za-z])\)$/\3 \2/p' "$TMP/help" |
		awk -v c="$c" '{print c "\t-" $1 "\t--" $2}' >>"$TMP/was"
	# enum options: "CMD<TAB>X or -<TAB>long<TAB>ARG<TAB>a|b|c" (the choices --help lists)
	perl -ne 'print "'"$c"'\t", $2 // "-", "\t$3\t$4\t$5\n" if /^  (-([A-Za-z]), |    )--([a-z0-9-]+) ([A-Z][A-Z_]*) .*\(([a-z0-9_-]+(?:\|[a-z0-9_-]+)+)\)(?: \[default: [^\]]*\])?(?: \(was -[A-Za-z]\))?$/' \
		"$TMP/help" >>"$TMP/enums"
done < <(echo "$cmds" | grep -vx bench; echo "$benches" | sed 's/^/bench /')

# Every enum option given without a value names its values, as an unknown value does
# (not just "needs a value W"): the same list, in --help's
# order, for the long and the short spelling; exit 2, one line, nothing on stdout.
nenum=0
while IFS=$'\t' read -r c letter long arg choices; do
	want=$(echo "$choices" | sed 's/|/, /g')
	sps=("--$long")
	[ "$letter" = - ] || sps+=("-$letter")
	for sp in "${sps[@]}"; do
		# shellcheck disable=SC2086
		expect_exit 2 "$c $sp (no value): exit 2" "$P" $c "$sp"
		is "$c $sp (no value): lists the values" "$(cat "$ERR")" \
			"perflab $c: error: option '$sp' needs a value $arg (one of: $want)"
		is "$c $sp (no value): nothing on stdout" "$(wc -c <"$OUT")" 0
	done
	# shellcheck disable=SC2086
	"$P" $c "--$long" nosuch >/dev/null 2>"$TMP/e"
	like "$c --$long nosuch: the same list" "$(cat "$TMP/e")" "\\(one of: $want\\)\$"
	nenum=$((nenum + 1))
done <"$TMP/enums"
like "enum options found (check -W, bench io --cache, profile -e ...)" \
	"$(cut -f1,3 "$TMP/enums" | tr '\t\n' ': ')" 'check:workload .*profile:event .*report:workload .*bench io:cache'

# report's -o is a directory: its --help and errors say so under Global options, where
# the other commands keep "-o FILE ... instead of stdout" (a user reads both)
"$P" report --help >"$TMP/rh" 2>&1
is "report --help: -o DIR with report's meaning" "$(grep -E '^  -o, --output' "$TMP/rh")" \
	"  -o, --output DIR           the report directory: DIR/report.{json,md,html} (default ./perflab-report; created when missing)"
is "report --help: no 'instead of stdout'" "$(grep -c 'instead of stdout\|or -o FILE' "$TMP/rh")" 0
like "report --help: --json with report's meaning" "$(grep -E '^      --json' "$TMP/rh")" 'also print report.json on stdout'
like "check --help: -o FILE kept" "$("$P" check --help | grep -E '^  -o, --output')" 'FILE +write output to FILE instead of stdout'
expect_exit 2 "report -o (no value)" "$P" report -o
is "report -o (no value): names DIR" "$(cat "$ERR")" "perflab report: error: option '-o' needs a value DIR"
# a value option followed by "--" has no value: "--" ends the options (profile --folded --
# CMD wrote a file named "--"); "--opt=--" is a value
expect_exit 2 "profile --folded -- CMD" "$P" profile --folded -- true
is "profile --folded --: names the option and the FILE" "$(cat "$ERR")" \
	"perflab profile: error: --folded needs a FILE before -- (give the value, then --)"
expect_exit 2 "profile -p -- (short option)" "$P" profile -p -- true
is "profile -p --: names -p" "$(cat "$ERR")" \
	"perflab profile: error: -p needs a PID[,PID] before -- (give the value, then --)"
for o in --svg --region --from-folded --debug-root --cpus -o; do
	expect_exit 2 "profile $o -- CMD" "$P" profile "$o" -- true
	like "profile $o --: refused as a missing value" "$(cat "$ERR")" "^perflab profile: error: $o needs an? [A-Z].* before --"
done
is "every command and benchmark has --help" "$helps" "$(($(echo "$cmds" | grep -cvx bench) + $(echo "$benches" | wc -l)))"
like "option lines parsed (compare --runs)" "$(grep -P '^compare\t' "$TMP/opts")" $'-r\t--runs'

# one meaning per letter
clash=$(awk -F'\t' '$2 != "-" {print $2 "\t" $3 "\t" $1}' "$TMP/opts" | sort -u |
	awk -F'\t' '{ if ($1 in l && l[$1] != $2) bad[$1] = 1; l[$1] = $2; u[$1] = u[$1] " " $2 " (" $3 ")" }
		END { for (k in bad) print k ":" u[k] }')
is "each single letter means one long option across all commands" "$clash" ""
# and the letters follow the peers (hyperfine -n NAME -r RUNS -w WARMUP; perf -C -c -p -a -e -F)
for want in "-n --name" "-r --runs" "-w --warmup" "-C --cpus" "-c --period" "-p --pid" \
	"-a --all-cpus" "-e --event" "-F --freq" "-d --duration" "-t --time" "-W --workload"; do
	set -- $want
	got=$(awk -F'\t' -v l="$1" '$2 == l {print $3}' "$TMP/opts" | sort -u | tr '\n' ' ')
	is "$1 is $2" "$got" "$2 "
done

# old letters: never live in the same command, refused (exit 2) with the new spelling
is "old letters recorded in --help" "$(grep -cP '^bench clock\t-n\t--runs$' "$TMP/was")" 1
while IFS=$'\t' read -r c l long; do
	if grep -qP "^\Q$c\E\t\Q$l\E\t" "$TMP/opts"; then
		_report fail "$c: old letter $l is not live again" "$(grep -P "^\Q$c\E\t\Q$l\E\t" "$TMP/opts")"
		continue
	fi
	# shellcheck disable=SC2086
	"$P" $c "$l" 1 >"$OUT" 2>"$ERR"
	rc=$?
	is "$c $l: exit 2" "$rc" 2
	like "$c $l: points to $long" "$(cat "$ERR")" "$l no longer means $long: use (-[A-Za-z] or )?$long"
	is "$c $l: nothing on stdout" "$(wc -c <"$OUT")" 0
done < <(sort -u "$TMP/was")
# the man pages: perflab(1) has the global options, the option letters and the exit status;
# perflab-CMD(1) has an OPTIONS section per command, perflab-bench(1) the runner options
# under OPTIONS and a section "## NAME" per benchmark under BENCHMARKS
MANDIR=$PERFLAB_SRCDIR/docs/man
man_section() { # FILE HEADING -> the lines under HEADING, up to the next heading
	awk -v h="$2" '$0 == h {on = 1; next} /^#/ {on = 0} on' "$1"
}
# perflab(1)'s OPTION LETTERS names every old letter with its option: "-X (--long"
letters=$(man_section "$MAN" "# OPTION LETTERS" | tr '\n\t' '  ')
nores=
while IFS=$'\t' read -r l long; do
	printf '%s' "$letters" | grep -qF -- "$l ($long" || nores="$nores $l=$long"
done < <(cut -f2,3 "$TMP/was" | sort -u)
is "perflab(1)'s OPTION LETTERS names every old letter" "$nores" ""

globals=$(grep -P '^inspect\t' "$TMP/opts" | grep -E $'\t--(json|output|sysroot|no-color|quiet|verbose|help)$' | cut -f3 | sort -u)
is "global options found" "$(echo "$globals" | tr '\n' ' ')" "--help --json --no-color --output --quiet --sysroot --verbose "
man_glob=$(man_section "$MAN" "# GLOBAL OPTIONS")
for g in $globals; do
	like "man page: global option $g" "$man_glob" "\*$g\*"
done
# perflab-bench(1) OPTIONS: the runner options of 'bench --help'
"$P" bench --help >"$TMP/help" 2>&1
sed -nE 's/^      --([a-z0-9-]+).*/\1/p; s/^  -([A-Za-z]), --([a-z0-9-]+).*/\1 \2/p' "$TMP/help" |
	sort -u | awk '{ if (NF == 1) print "-\t--" $1; else print "-" $1 "\t--" $2 }' >"$TMP/runner"
like "runner options found in bench --help (--runs)" "$(cat "$TMP/runner")" $'-r\t--runs'
longs() { grep -oE '\*--[a-z0-9-]+\*' | tr -d '*' | sort -u; }
BPAGE=$MANDIR/perflab-bench.1.scd
sec=$(man_section "$BPAGE" "# OPTIONS")
miss= wrong=
while IFS=$'\t' read -r l long; do
	echo "$globals" | grep -qx -- "$long" && continue
	if ! printf '%s' "$sec" | grep -qF -- "*$long*"; then miss="$miss $long"
	elif [ "$l" != - ] && ! printf '%s' "$sec" | grep -qF -- "*$l*, *$long*"; then wrong="$wrong $l,$long"
	fi
done <"$TMP/runner"
is "perflab-bench.1, bench: every option of --help" "$miss" ""
is "perflab-bench.1, bench: letters as in --help" "$wrong" ""
extra=
for long in $(sed '/^# BENCHMARKS/,$d' "$BPAGE" | longs); do
	grep -qP "\t\Q$long\E$" "$TMP/runner" || extra="$extra $long"
done
is "perflab-bench.1, bench (above BENCHMARKS): no option --help does not have" "$extra" ""
while read -r c; do
	case $c in
	bench\ *)
		page=$BPAGE
		sec=$(man_section "$page" "## ${c#bench }")
		heading="## ${c#bench }"
		where="$sec
$(man_section "$page" "# OPTIONS")"
		text=$sec
		;;
	*)
		page=$MANDIR/perflab-$c.1.scd
		sec=$(man_section "$page" "# OPTIONS")
		heading="# OPTIONS"
		where=$sec
		text=$(cat "$page")
		;;
	esac
	if [ ! -f "$page" ]; then
		_report fail "a man page for $c" "write $page and add it to docs/meson.build"
		continue
	fi
	if [ -z "$sec" ]; then
		_report fail "$(basename "$page") has a section '$heading' for $c"
		continue
	fi
	miss= extra= wrong=
	while IFS=$'\t' read -r _ l long; do
		echo "$globals" | grep -qx -- "$long" && continue
		if ! printf '%s' "$where" | grep -qF -- "*$long*"; then miss="$miss $long"
		elif [ "$l" != - ] && ! printf '%s' "$where" | grep -qF -- "*$l*, *$long*"; then wrong="$wrong $l,$long"
		fi
	done < <(grep -P "^\Q$c\E\t" "$TMP/opts")
	for long in $(printf '%s' "$text" | longs); do
		grep -qP "^\Q$c\E\t.*\t\Q$long\E$" "$TMP/opts" || extra="$extra $long"
	done
	is "$(basename "$page" .scd), $c: every option of --help" "$miss" ""
	is "$(basename "$page" .scd), $c: letters as in --help" "$wrong" ""
	is "$(basename "$page" .scd), $c: no option --help does not have" "$extra" ""
done < <(cut -f1 "$TMP/opts" | sort -u)
like "man page: exit status 130" "$(man_section "$MAN" "# EXIT STATUS")" '\*130\*'

# perflab-mpi (built where meson finds MPI): its commands' --help come from the same pl_opt
# tables, so a letter means there what it means in perflab, and docs/man/perflab-mpi.1.scd
# lists every option of every command (and nothing else)
if [ -z "${PERFLAB_MPI:-}" ] || [ ! -x "$PERFLAB_MPI" ]; then
	skip "perflab-mpi options" "perflab-mpi not built (no MPI found by meson)"
	done_testing
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MMAN=$PERFLAB_SRCDIR/docs/man/perflab-mpi.1.scd
: >"$TMP/mopts"
for c in report inspect check "bench clock"; do
	# shellcheck disable=SC2086
	if ! ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 timeout 120 "$PERFLAB_MPI" $c --help >"$TMP/help" 2>&1; then
		_report fail "perflab-mpi $c --help exits 0" "$(head -c 500 "$TMP/help")"
		continue
	fi
	sed -nE 's/^      --([a-z0-9-]+).*/\1/p; s/^  -([A-Za-z]), --([a-z0-9-]+).*/\1 \2/p' "$TMP/help" |
		sort -u | awk -v c="$c" '{ if (NF == 1) print c "\t-\t--" $1; else print c "\t-" $1 "\t--" $2 }' >>"$TMP/mopts"
done
like "perflab-mpi option lines parsed (check -W)" "$(grep -P '^check\t' "$TMP/mopts")" $'-W\t--workload'
clash=$(cat "$TMP/opts" "$TMP/mopts" | awk -F'\t' '$2 != "-" {print $2 "\t" $3}' | sort -u |
	awk -F'\t' '{ if ($1 in l && l[$1] != $2) print $1 ": " l[$1] " and " $2; l[$1] = $2 }')
is "perflab-mpi: each letter means the long option it means in perflab" "$clash" ""
mman=$(cat "$MMAN")
miss= wrong=
while IFS=$'\t' read -r c l long; do
	echo "$globals" | grep -qx -- "$long" && [ "$long" != --output ] && [ "$long" != --json ] && continue
	# bench NAME: the benchmark's and the runner's options are perflab bench's (perflab(1))
	case $c in bench\ *) grep -qP "^\Q$c\E\t.*\t\Q$long\E$" "$TMP/opts" && continue ;; esac
	if ! printf '%s' "$mman" | grep -qF -- "*$long*"; then miss="$miss $c:$long"
	elif [ "$l" != - ] && ! printf '%s' "$mman" | grep -qF -- "*$l*, *$long*"; then wrong="$wrong $l,$long"
	fi
done <"$TMP/mopts"
extra=
for long in $(sed -n '/^# OPTIONS/,/^# EXIT STATUS/p' "$MMAN" | grep -oE '^\*(-[A-Za-z]\*, \*)?--[a-z0-9-]+\*' |
	grep -oE -- '--[a-z0-9-]+' | sort -u); do
	grep -qP "\t\Q$long\E$" "$TMP/mopts" || extra="$extra $long"
done
is "perflab-mpi(1): every option of every command's --help" "$miss" ""
is "perflab-mpi(1): letters as in --help" "$wrong" ""
is "perflab-mpi(1): no option that no command has" "$extra" ""
done_testing
