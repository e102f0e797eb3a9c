#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CLI dispatch, global options and exit codes.
. "$PERFLAB_SRCDIR/tests/lib.sh"

ok "--version" "$PERFLAB" --version
like "--version's first line is the version" "$(head -1 "$OUT")" '^perflab [0-9]+\.[0-9]+\.[0-9]+$'
ok "--help" "$PERFLAB" --help
like "--help lists commands" "$(cat "$OUT")" 'inspect.*collect'
expect_exit 2 "no command is a usage error" "$PERFLAB"
expect_exit 2 "unknown command" "$PERFLAB" frobnicate
like "unknown command names it" "$(cat "$ERR")" "unknown command 'frobnicate'"
expect_exit 2 "unknown option before the command" "$PERFLAB" --frobnicate
like "unknown option before the command names it" "$(cat "$ERR")" "unknown option '--frobnicate' before the command"
expect_exit 2 "unknown short option before a command" "$PERFLAB" -x inspect
like "unknown short option names it" "$(cat "$ERR")" "unknown option '-x'"
ok "global options before the command still work" "$PERFLAB" --json -q --sysroot=/ inspect --domain clocksource
expect_exit 2 "profile: a command not in PATH" "$PERFLAB" profile -- perflab-no-such-command
like "profile: not found in PATH, with the fix" "$(cat "$ERR")" "cannot run 'perflab-no-such-command': not found in PATH \\(give its path"
expect_exit 2 "profile: a path that does not exist" "$PERFLAB" profile -- /nonexistent/prog
is "profile: a missing path, with the fix" "$(cat "$ERR")" \
	"perflab profile: error: cannot run '/nonexistent/prog': no such file (check the path, or give a command name found in PATH)"
expect_exit 2 "profile --from-folded a missing file" "$PERFLAB" profile --from-folded /nonexistent --svg "$TMP/never.svg"
like "--from-folded a missing file: names it and the fix" "$(cat "$ERR")" \
	"^perflab profile: error: cannot read '/nonexistent': No such file or directory \(give a folded-stacks file, .+\)$"
is "--from-folded a missing file: no SVG written" "$(ls "$TMP/never.svg" 2>/dev/null)" ""
mkdir -p "$TMP/emptyroot"
for c in check report; do
	expect_exit 2 "$c --sysroot EMPTYDIR" "$PERFLAB" $c --sysroot "$TMP/emptyroot" -o "$TMP/out-$c"
	like "$c --sysroot EMPTYDIR says no facts were found" "$(cat "$ERR")" "--sysroot '.*emptyroot': no facts found"
	is "$c --sysroot EMPTYDIR writes nothing" "$(ls "$TMP/out-$c" 2>/dev/null)" ""
done
# an empty path is never the live machine or the current directory: every path-typed
# option (its metavariable DIR or FILE, in the shared option parser) refuses it
expect_exit 2 "check --sysroot ''" "$PERFLAB" check --sysroot ''
is "check --sysroot '': one line naming the option and what it needs" "$(cat "$ERR")" \
	"perflab check: error: --sysroot needs a directory or a snapshot archive, got ''"
is "check --sysroot '': nothing on stdout" "$(cat "$OUT")" ""
expect_exit 2 "--sysroot= before the command" "$PERFLAB" --sysroot= inspect
like "--sysroot= before the command: the same error" "$(cat "$ERR")" "--sysroot needs a directory or a snapshot archive, got ''$"
expect_exit 2 "inspect -o ''" "$PERFLAB" inspect --domain clocksource -o ''
is "-o '': needs a file name" "$(cat "$ERR")" "perflab inspect: error: --output needs a file name, got ''"
expect_exit 2 "tune --state-dir ''" "$PERFLAB" tune list --state-dir ''
like "--state-dir '': needs a directory" "$(cat "$ERR")" "--state-dir needs a directory, got ''$"
expect_exit 2 "report --from ''" "$PERFLAB" report --from '' -o "$TMP/r-empty"
like "--from '' (a list of files): needs a file name" "$(cat "$ERR")" "--from needs a file name, got ''$"
"$PERFLAB" check --sysroot "$PERFLAB_SRCDIR/tests/fixtures/sysroots/xen-hvm" >/dev/null 2>&1
like "check on a fixture tree still runs (exit 0 or 1)" "$?" '^[01]$'
expect_exit 2 "report --from a missing file" "$PERFLAB" report --from "$TMP/missing.json" -o "$TMP/r"
like "report --from a missing file: names it and the fix, no jansson position" "$(cat "$ERR")" "cannot open '.*missing.json': No such file or directory \(give a JSON document"
expect_exit 2 "unknown option" "$PERFLAB" inspect --frobnicate
like "unknown option names it" "$(cat "$ERR")" "unknown option '--frobnicate'"
expect_exit 2 "out-of-range number" "$PERFLAB" bench spin --runs 0
is "range error: the program named once, whole numbers in full" "$(cat "$ERR")" \
	"perflab bench spin: error: --runs must be between 1 and 1000000, got 0"
expect_exit 2 "a word where a number goes" "$PERFLAB" bench spin --runs abc
is "... names the input and the fix, with the range" "$(cat "$ERR")" \
	"perflab bench spin: error: --runs: 'abc' is not a valid number (use a whole number from 1 to 1000000)"
expect_exit 2 "a number past 2^63" "$PERFLAB" bench spin --runs 99999999999999999999
like "... out of range, with the fix" "$(cat "$ERR")" "is out of range \(use a whole number from 1 to 1000000\)$"
# range errors in the option's unit: sizes as sizes, durations as durations
expect_exit 2 "size out of range" "$PERFLAB" bench io --size 2PiB
is "size range printed as sizes" "$(cat "$ERR")" \
	"perflab bench io: error: --size must be between 4 KiB and 1 PiB, got 2 PiB"
expect_exit 2 "duration out of range" "$PERFLAB" bench net --time 1ns
is "duration range printed as durations" "$(cat "$ERR")" \
	"perflab bench net: error: --time must be between 10ms and 1h, got 1ns"
expect_exit 2 "an inexact bound is printed exactly too" "$PERFLAB" bench compress --size 5GiB
like "inexact bound with its byte count" "$(cat "$ERR")" "between 4 KiB and 4.00 GiB \(4294967295 B\), got 5 GiB$"
# values that overflow (undefined behaviour before): refused with the limit
expect_exit 2 "-d 1e308h" "$PERFLAB" profile -d 1e308h -- true
is "-d 1e308h: too large, with the limit" "$(cat "$ERR")" \
	"perflab profile: error: --duration: '1e308h' is too large (at most 30d)"
expect_exit 2 "a duration without its own range is bounded" "$PERFLAB" compare --max-time 1e7h -n a -- true -n b -- true
like "... at 30 days" "$(cat "$ERR")" "--max-time must be between 0s and 30d, got 4.167e\+05d"
expect_exit 2 "a size past 2^64" "$PERFLAB" bench mem --size 1e30
like "... too large" "$(cat "$ERR")" "--size: '1e30' is too large"
expect_exit 2 "a size past 4 EiB without its own range" "$PERFLAB" bench mem --max-size 5EiB
is "... names the bound" "$(cat "$ERR")" "perflab bench mem: error: --max-size must be between 0 B and 4 EiB, got 5 EiB"
# the d unit, and the bound of a duration that is too long named in that unit
expect_exit 2 "--min-time 40d: over the bound" "$PERFLAB" bench spin --min-time 40d
is "--min-time 40d: a duration, too long, with the bound" "$(cat "$ERR")" \
	"perflab bench spin: error: --min-time must be between 0s and 1d, got 40d"
expect_exit 2 "profile -d 40d: over 30 days" "$PERFLAB" profile -d 40d -- true
is "profile -d 40d: names the 30-day bound" "$(cat "$ERR")" \
	"perflab profile: error: --duration must be between 0s and 30d, got 40d"
ok "help inspect" "$PERFLAB" help inspect
like "help inspect shows usage" "$(cat "$OUT")" '^usage: perflab inspect'
ok "inspect --help" "$PERFLAB" inspect --help
like "per-command help lists global options" "$(cat "$OUT")" 'Global options'
expect_exit 2 "missing sysroot" "$PERFLAB" inspect --sysroot /nonexistent/dir
like "missing sysroot names it" "$(cat "$ERR")" "/nonexistent/dir"
expect_exit 2 "check: unknown workload" "$PERFLAB" check --workload gaming
like "unknown workload lists the choices" "$(cat "$ERR")" 'one of: general, latency'
expect_exit 2 "option value missing" "$PERFLAB" check --workload
expect_exit 2 "global option before the command is parsed" "$PERFLAB" --sysroot /nonexistent inspect
# -C/--cpus: every command that takes it refuses CPUs that are not online (one shared
# check), against the live online list or the --sysroot tree's (xen-hvm: 0-3)
XEN=$PERFLAB_SRCDIR/tests/fixtures/sysroots/xen-hvm
live_online=$(cat /sys/devices/system/cpu/online)
for c in "check" "report --no-bench -o $TMP/rc" "report --dry-run" "profile -d 0.1 -a" \
	"monitor -d 0.1" "bench spin --runs 1" "bench mem --quick"; do
	expect_exit 2 "$c -C 0,8191: CPU 8191 is not online" "$PERFLAB" $c -C 0,8191
	is "$c -C 0,8191: one line naming the CPU and the online list" "$(cat "$ERR")" \
		"perflab ${c%% -*}: error: --cpus '0,8191': CPU 8191 is not online (online CPUs: $live_online; give CPUs from that list)"
done
# an -o FILE that cannot be written: the same line and fix from every command, exit 2,
# and nothing written or printed (bench, monitor and compare check it before running)
FXB=$PERFLAB_SRCDIR/tests/report/fixtures/bench-mem.json
for c in inspect check "diff $FXB $FXB" "bench spin --runs 1" "monitor -d 0.2" \
	"compare --runs 2 true false" "tune list"; do
	for o in /nonexistent/dir/x.json "$TMP"; do
		expect_exit 2 "$c -o $o: exit 2" "$PERFLAB" $c -o "$o"
		is "$c -o $o: one line" "$(wc -l <"$ERR")" 1
		like "$c -o $o: names the file and the fix" "$(cat "$ERR")" \
			"^perflab ${c%% *}( spin)?: error: cannot write '$o': $([ "$o" = "$TMP" ] && echo 'Is a directory' || echo 'No such file or directory') \\(choose another -o FILE\\)$"
		is "$c -o $o: nothing on stdout" "$(wc -c <"$OUT")" 0
	done
done
is "report -C 8191 wrote nothing" "$(ls "$TMP/rc" 2>/dev/null)" ""
for c in check report; do
	expect_exit 2 "$c --sysroot xen-hvm -C 2-9: against the tree's online CPUs" \
		"$PERFLAB" $c --sysroot "$XEN" -C 2-9 -o "$TMP/x-$c"
	is "$c --sysroot xen-hvm -C 2-9: names CPUs 4-9 and the tree's list" "$(cat "$ERR")" \
		"perflab $c: error: --cpus '2-9': CPUs 4-9 are not online (online CPUs: 0-3; give CPUs from that list)"
done
"$PERFLAB" check --sysroot "$XEN" -C 0-3 >/dev/null 2>&1
like "check --sysroot xen-hvm -C 0-3 (the tree's CPUs) runs" "$?" '^[01]$'
done_testing
