#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# profile --from-folded with hostile folded stacks: counts past 2^64, negative, not
# numbers, missing; counts that add up past 2^64; empty frames; huge lines and NUL bytes;
# deeper stacks than the limit. Each is exit 2 with "FILE:LINE: reason" and no SVG; the
# limits themselves (2^64-1, 65536 frames) still draw (128 frames deep at most), and a
# wide graph (50000 siblings) is drawn in reasonable time. Runs under the ASan build: a
# crash fails the case.
. "$PERFLAB_SRCDIR/tests/lib.sh"

bad() { # NAME LINE REASON-REGEX: $TMP/in.folded must be refused at LINE
	rm -f "$TMP/o.svg"
	expect_exit 2 "$1: exit 2" "$PERFLAB" profile --from-folded "$TMP/in.folded" --svg "$TMP/o.svg"
	like "$1: names the file and line" "$(cat "$ERR")" \
		"^perflab profile: error: $TMP/in.folded:$2: $3"
	is "$1: one line, no SVG" "$(wc -l <"$ERR") $(test -e "$TMP/o.svg" && echo svg)" "1 "
}

good() { # NAME: $TMP/in.folded draws
	rm -f "$TMP/o.svg"
	ok "$1" "$PERFLAB" profile --from-folded "$TMP/in.folded" --svg "$TMP/o.svg"
}

printf 'a;b 3\nmain;f 18446744073709551616\n' >"$TMP/in.folded"
bad "count 2^64" 2 'the count is past 2\^64-1 \(18446744073709551615\)'
printf 'main;f 99999999999999999999999999999\n' >"$TMP/in.folded"
bad "count 10^29" 1 'the count is past 2\^64-1'
printf 'main;f 9223372036854775808\nmain;g 9223372036854775807\nmain;h 1\n' >"$TMP/in.folded"
bad "counts adding up past 2^64" 3 'the counts add up past 2\^64-1'
for c in -5 +5 abc 1.5 0x10 1e3 ''; do
	printf 'main;f %s\n' "$c" >"$TMP/in.folded"
	if [ -z "$c" ]; then
		bad "count missing after a space" 1 "no count after the stack|no frames before"
	else
		bad "count '$c'" 1 'the count is not a whole number of samples \(digits only, no sign\)'
	fi
done
printf 'x 1\nmain;f\n' >"$TMP/in.folded"
bad "no count at all" 2 "no count after the stack \(expected 'frame;frame;leaf COUNT'\)"
printf '   7\n' >"$TMP/in.folded"
bad "no frames" 1 'no frames before the count'
for s in 'a;;b' ';a' 'a;' ';'; do
	printf 'ok;f 1\n%s 3\n' "$s" >"$TMP/in.folded"
	bad "empty frame in '$s'" 2 "an empty frame name"
done
printf 'a;b 1\nma\0in;f 3\n' >"$TMP/in.folded"
bad "NUL byte" 2 'a NUL byte in the line'
{ echo 'a 1'; head -c $((17 << 20)) /dev/zero | tr '\0' 'x'; echo ' 1'; } >"$TMP/in.folded"
bad "17 MiB line" 2 'a line longer than 16 MiB'
python3 -c "print(';'.join(['f'] * 65537) + ' 1')" >"$TMP/in.folded"
bad "65537 frames" 1 'more than 65536 frames in one stack'

# the limits themselves are fine
printf 'main;f 18446744073709551615\n' >"$TMP/in.folded"
good "count 2^64-1 draws"
like "the total is 2^64-1" "$(cat "$TMP/o.svg")" 'all \(18446744073709551615 samples, 100\.00%\)'
printf 'main;f 9223372036854775808\nmain;g 9223372036854775807\n' >"$TMP/in.folded"
good "counts adding up to 2^64-1 draw"
python3 -c "print(';'.join(['f%d' % i for i in range(65536)]) + ' 5')" >"$TMP/in.folded"
good "65536 frames draw (no recursion limit)"
# drawn to the drawing depth (128 frames and the root), so the picture keeps its shape,
# and the SVG says how deep the stack was
is "frames drawn to the drawing depth" "$(grep -c '<g class="f"' "$TMP/o.svg")" 129
like "the cut is said" "$(cat "$TMP/o.svg")" 'Stacks up to 65536 frames deep: frames below 128 are not drawn'
printf 'a;b 1\r\n\n  \nmain;f with space\t2  \n' >"$TMP/in.folded"
good "CRLF, blank lines, tab before the count, trailing spaces"
like "a frame with a space" "$(cat "$TMP/o.svg")" '<title>f with space \(2 samples'
python3 -c "
for i in range(50000): print('main;f%d 1' % i)" >"$TMP/in.folded"
t0=$(date +%s)
good "50000 siblings draw"
is "50000 siblings in under 60 s" "$([ $(($(date +%s) - t0)) -lt 60 ] && echo yes)" yes

# stdin and unreadable inputs
printf 'a;b x\n' | "$PERFLAB" profile --from-folded - --svg "$TMP/o.svg" >"$OUT" 2>"$ERR"
is "stdin: exit 2" "$?" 2
like "stdin is named" "$(cat "$ERR")" '<stdin>:1: the count is not a whole number'
expect_exit 2 "a directory as input" "$PERFLAB" profile --from-folded "$TMP" --svg "$TMP/o.svg"
like "a directory: cannot read" "$(cat "$ERR")" "cannot read '$TMP': Is a directory"
done_testing
