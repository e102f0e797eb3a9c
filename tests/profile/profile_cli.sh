#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab profile: usage errors and the flame-graph writer (golden SVG), no kernel needed.
. "$PERFLAB_SRCDIR/tests/lib.sh"
G=$PERFLAB_SRCDIR/tests/profile/golden

ok "profile --help" "$PERFLAB" profile --help
like "help shows the targets" "$(cat "$OUT")" 'CMD ARGS.*-p PID.*-a'
expect_exit 2 "no target" "$PERFLAB" profile
like "no target says what to give" "$(cat "$ERR")" "exactly one target"
expect_exit 2 "two targets" "$PERFLAB" profile -a -p 1
expect_exit 2 "bad pid" "$PERFLAB" profile -p abc
like "bad pid names it" "$(cat "$ERR")" "-p 'abc'"
# the pid list: non-empty, digits only, processes that exist (exit 2, one line, before
# anything is opened)
pidbad() { # NAME REGEX ARGS...
	local name=$1 re=$2
	shift 2
	expect_exit 2 "$name: exit 2" "$PERFLAB" profile "$@"
	is "$name: one line" "$(wc -l <"$ERR")" 1
	like "$name: names the input and the fix" "$(cat "$ERR")" "$re"
}
pidbad "-p ''" "-p '': an empty process id \\(give running process ids" -p ''
pidbad "-p -d 4 (an option taken as the list)" "-p '-d': '-d' is not a process id \\(give" -p -d 4
pidbad "-p 1,,2" "-p '1,,2': an empty process id" -p 1,,2
pidbad "-p 1,x" "-p '1,x': 'x' is not a process id" -p 1,x
sh -c 'exit 0' &
gone=$!
wait "$gone"
pidbad "-p of an exited process" "-p '1,$gone': no process $gone is running" -p "1,$gone"
expect_exit 2 "bad call-graph mode" "$PERFLAB" profile --call-graph lbr -- true
expect_exit 2 "ring size not a power of two" "$PERFLAB" profile --ring-kb 100 -- true
# --stack-size: perf's limits for dwarf,SIZE (1..65528, rounded up to a multiple of 8)
for bad in 0 65529 64k 1MiB abc; do
	expect_exit 2 "--stack-size $bad refused" "$PERFLAB" profile --stack-size "$bad" -- true
	is "--stack-size $bad: one line" "$(wc -l <"$ERR")" 1
done
like "--stack-size names the limit" "$(cat "$ERR")" "stack-size"
"$PERFLAB" profile --stack-size 65529 -- true 2>"$ERR"
like "--stack-size over the limit names 65528" "$(cat "$ERR")" "65528"
expect_exit 2 "--stack-size with -g refused" "$PERFLAB" profile -g --stack-size 4k -- true
like "--stack-size with -g: says it is for dwarf" "$(cat "$ERR")" "--stack-size is for --call-graph dwarf"
expect_exit 2 "--stack-size with --call-graph none refused" "$PERFLAB" profile --call-graph none \
	--stack-size 4k -- true
like "help documents --stack-size" "$("$PERFLAB" profile --help)" "--stack-size BYTES"
like "help documents --samples" "$("$PERFLAB" profile --help)" "--samples"
like "help states the output rule" "$("$PERFLAB" profile --help | tr '\n' ' ')" \
	"report goes to stderr"
expect_exit 2 "sysroot cannot be profiled" "$PERFLAB" profile --sysroot / --sysroot "$TMP" -- true

# Golden SVG: same folded input -> byte-identical file (colours from name hashes).
ok "svg from folded" "$PERFLAB" profile --from-folded "$G/small.folded" --svg "$TMP/a.svg"
if cmp -s "$TMP/a.svg" "$G/small.svg"; then _report ok "svg matches golden"; else
	_report fail "svg matches golden" "$(diff "$G/small.svg" "$TMP/a.svg" | head -20)"; fi
"$PERFLAB" profile --from-folded "$G/small.folded" --svg "$TMP/b.svg" >/dev/null 2>&1
is "svg is reproducible" "$(cmp -s "$TMP/a.svg" "$TMP/b.svg" && echo same)" same
like "svg escapes names" "$(cat "$TMP/a.svg")" 'a&amp;b'
like "svg has the sample counts" "$(cat "$TMP/a.svg")" '<title>compute \(100 samples, 83.33%\)</title>'
like "svg is interactive" "$(cat "$TMP/a.svg")" 'function zoom\(z\).*'
# Outputs that are not regular files are written in place, never replaced by a renamed
# temporary file (which turned /dev/null into a regular file when run as root).
mkfifo "$TMP/fifo"
cat "$TMP/fifo" >"$TMP/from-fifo" &
ok "svg into a FIFO" "$PERFLAB" profile --from-folded "$G/small.folded" --svg "$TMP/fifo"
wait
is "FIFO: the reader got the whole svg" "$(cmp -s "$TMP/from-fifo" "$TMP/a.svg" && echo same)" same
is "FIFO: still a FIFO" "$([ -p "$TMP/fifo" ] && echo fifo)" fifo
ln -s "$TMP/target.svg" "$TMP/link.svg"
ok "svg through a symlink" "$PERFLAB" profile --from-folded "$G/small.folded" --svg "$TMP/link.svg"
is "symlink: still a symlink" "$([ -L "$TMP/link.svg" ] && echo link)" link
is "symlink: the target has the svg" "$(cmp -s "$TMP/target.svg" "$TMP/a.svg" && echo same)" same
# On a nodev mount mknod works but opening the device fails (EACCES): try a write first.
if ! mknod "$TMP/null" c 1 3 2>"$ERR"; then
	skip "svg to a character device" "mknod needs root or CAP_MKNOD: $(head -c 200 "$ERR")"
elif ! (: >"$TMP/null") 2>"$ERR"; then
	skip "svg to a character device" "the device made in $TMP cannot be opened (a nodev mount): $(head -c 200 "$ERR")"
else
	ok "svg to a character device (a /dev/null of our own)" "$PERFLAB" profile \
		--from-folded "$G/small.folded" --svg "$TMP/null"
	is "character device: still one" "$([ -c "$TMP/null" ] && echo chr)" chr
	is "character device: no temporary file left" "$(ls "$TMP" | grep -c '^null\.tmp')" 0
fi
printf 'a;b 3\nno count here\n' >"$TMP/bad.folded"
expect_exit 2 "bad folded input" "$PERFLAB" profile --from-folded "$TMP/bad.folded" --svg "$TMP/c.svg"
like "bad folded names the file and line" "$(cat "$ERR")" "bad.folded:2: "
is "no partial svg written" "$(ls "$TMP" | grep -c '^c.svg')" 0
expect_exit 2 "from-folded needs --svg" "$PERFLAB" profile --from-folded "$G/small.folded"
# -d 0 never stops on its own: refused (leaving -d out is "until Ctrl-C" with -p/-a)
for d in 0 0s 0ms; do
	expect_exit 2 "-d $d refused" "$PERFLAB" profile -d "$d" -p $$
	like "-d $d: one line with the fix" "$(cat "$ERR")" '^perflab profile: error: -d 0: -d needs a duration > 0 .*leave -d out to run until Ctrl-C'
done
expect_exit 2 "--duration 0 refused (-- CMD)" "$PERFLAB" profile --duration 0 -- true
# --wall shapes only the graph files and the JSON: alone with text it is refused
expect_exit 2 "--wall without --folded/--svg/--json refused" "$PERFLAB" profile --wall -p $$
like "--wall alone: names what it needs" "$(cat "$ERR")" '^perflab profile: error: --wall is for --folded FILE, --svg FILE or --json'
is "--wall alone: one line" "$(wc -l <"$ERR")" 1
done_testing
