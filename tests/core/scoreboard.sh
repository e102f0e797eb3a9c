#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# benchmarks/scoreboard.py (make bench-peers) over fixture scripts: result lines collected,
# targets judged, skipped and failed scripts shown with their reason, QUICK=1 passed on,
# the JSON matches its schema and `perflab diff` reads two scoreboards, the block of
# docs/scoreboard.md is rewritten between its markers only. Also: every real benchmarks/*.sh prints a result
# line (the scoreboard's contract).
. "$PERFLAB_SRCDIR/tests/lib.sh"
B=$TMP/tree/benchmarks
mkdir -p "$B" "$TMP/tree/docs"
cp "$PERFLAB_SRCDIR"/benchmarks/{common.sh,pairs.py,scoreboard.py} "$B/"
cat >"$B/a-fast.sh" <<'SH'
cd "$(dirname "$0")/.."
. benchmarks/common.sh
N=$(bench_quick 5 2)
bench_result area="fast" what="x vs y, $N pairs" perflab=2 peer=4 unit=ms target="<= 1" \
	perflab_cmd="perflab x" peer_cmd="y --z" samples="0.4 0.6"
bench_result area="abs" what="absolute" perflab=3 peer= unit=ns target="< 5" target_of=perflab \
	perflab_cmd="perflab m" peer_cmd="" samples="3 4"
SH
printf '%s\n' 'echo "b-nopeer: needs frobnicator (make bench-deps)" >&2; exit 2' >"$B/b-nopeer.sh"
printf '%s\n' 'echo "c-broken: it broke" >&2; exit 1' >"$B/c-broken.sh"
cat >"$B/d-slow.sh" <<'SH'
. "$(dirname "$0")/common.sh"
bench_result area="slow" what="rate" perflab=90 peer=100 unit=GB/s target=">= 0.95" \
	perflab_cmd="p" peer_cmd="q" samples="0.9 0.91"
bench_result area="range" what="clock" perflab=30 peer=29 unit=ns target="0.95..1.05" \
	perflab_cmd="p" peer_cmd="q" samples="1.0 1.1"
bench_result area="tied" what="overhead" perflab=1.02 peer=1.01 unit=x target="<= 1" \
	perflab_cmd="p" peer_cmd="q" samples="0.99 1.02 1.01"
bench_result area="two" what="rate" perflab=93 peer=100 unit=GB/s target=">= 0.95" \
	perflab_cmd="p" peer_cmd="q" samples="0.90 0.96"
bench_result area="to 1%: x" what="wall s to a 1% figure" perflab=0.5 peer=2 unit=s target="< 1" \
	perflab_cmd="perflab bench x --precision 1%" peer_cmd="xpeer" samples="0.2 0.3" \
	section="time to a trustworthy figure"
bench_result area="to 1%: y" what="wall s, stopped short" perflab=0.9 peer=1 unit=s target="< 1" \
	perflab_cmd="perflab bench y --precision 1%" peer_cmd="ypeer" samples="0.9 0.9 0.9" \
	section="time to a trustworthy figure" miss="perflab reached 1% in 0 of 3 runs"
SH
printf 'top\n<!-- scoreboard:begin -->\nold table\n<!-- scoreboard:end -->\nbottom\n' >"$TMP/tree/docs/scoreboard.md"

cd "$TMP/tree"
ok "scoreboard runs the fixture scripts" /usr/bin/python3 benchmarks/scoreboard.py --quick \
	--json "$TMP/sb.json" --markdown docs/scoreboard.md --log "$TMP/sb.log"
table=$(cat "$OUT")
like "a row with a peer: figures, ratio, target, met, spread" "$table" 'fast +2 +4 +ms +0\.5 +<= 1 +met +0\.4\.\.0\.6'
like "an absolute target is on the perflab figure" "$table" 'abs +3 +- +ns +- +< 5 \(perflab\) +met'
like "a rate below its target is NOT met" "$table" 'slow +90 +100 +GB/s +0\.9 +>= 0\.95 +NOT met'
like "a range target" "$table" 'range .*0\.95\.\.1\.05 +met'
like "exit 2 without a result line: skipped, with the script's reason" "$table" 'b-nopeer: skipped: b-nopeer: needs frobnicator'
like "another exit: failed" "$table" 'c-broken: failed: c-broken: it broke'
like "QUICK=1 reaches the scripts (bench_quick)" "$table" 'fast: x vs y, 2 pairs'
like "the peer's exact command is printed" "$table" 'peer: +y --z'
like "missed by the medians, met by some pairs: a tie" "$table" 'tied +1\.02 +1\.01 +x +1\.01 +<= 1 +tie '
like "every pair missing the target is no tie" "$table" 'slow .* NOT met'
like "two pairs cannot tie, even on both sides" "$table" 'two +93 +100 .* NOT met'
like "the summary counts" "$table" '4 targets met, 1 tied \(tied: pairs on both sides of the target\), 3 not met \(slow, two, to 1%: y\), 2 skipped'
like "a row whose condition besides the figures failed (miss=) is not met" "$table" 'to 1%: y +0\.9 +1 +s +0\.9 +< 1 +NOT met'
# a row with a section: in that section's own table after the main one, not in the main one
like "text: the section's row after its title" "$(printf '%s\n' "$table" | sed -n '/^== time to a trustworthy figure ==$/,/^$/p')" \
	'to 1%: x +0\.5 +2 +s +0\.25 +< 1 +met'
unlike_main=$(printf '%s\n' "$table" | sed -n '1,/^== time to a trustworthy figure ==$/p' | grep -c '^to 1%: x' || true)
is "text: the section's row is not in the main table" "$unlike_main" 0
validate scoreboard.schema.json "$TMP/sb.json"
is "met is recorded in the JSON" "$(jqv "$TMP/sb.json" '[.info.rows[] | .met] | map(tostring) | join(",")')" \
	"true,true,null,null,false,true,false,false,true,false"
is "tie is recorded in the JSON" "$(jqv "$TMP/sb.json" '[.info.rows[] | .tie] | map(tostring) | join(",")')" \
	"false,false,null,null,false,false,true,false,false,false"
is "ratio rows become metrics 'AREA ratio', absolute ones 'AREA'" \
	"$(jqv "$TMP/sb.json" '[.metrics[].name] | join(",")')" "fast ratio,abs,slow ratio,range ratio,tied ratio,two ratio,to 1%: x ratio,to 1%: y ratio"
is "better follows the target" "$(jqv "$TMP/sb.json" '[.metrics[].better] | join(",")')" \
	"lower,lower,higher,neither,lower,higher,lower,lower"
ok "perflab diff reads two scoreboards" "$PERFLAB" diff "$TMP/sb.json" "$TMP/sb.json"
like "and compares the ratios" "$(cat "$OUT")" 'scoreboard fast ratio'
md=$(cat docs/scoreboard.md)
like "scoreboard.md block rewritten with machine and date" "$md" 'Generated by `make bench-peers QUICK=1`.* on [0-9]{4}-[0-9]{2}-[0-9]{2} at'
like "scoreboard.md row with both commands" "$md" '\| fast \| x vs y, 2 pairs: `perflab x` vs `y --z` \| 2 ms \| 4 ms \| 0\.5 \| <= 1 \| met \|'
is "scoreboard.md: the section's heading after the main table" \
	"$(grep -n -e '^| fast |' -e '^### Time to a trustworthy figure$' -e '^| to 1%: x |' docs/scoreboard.md | cut -d: -f2- | cut -c1-8 | tr '\n' ,)" \
	"| fast |,### Time,| to 1%:,"
like "scoreboard.md: the section's row in its own table" "$(sed -n '/^### Time to a trustworthy figure$/,$p' docs/scoreboard.md)" \
	'^\| to 1%: x \| wall s to a 1% figure: `perflab bench x --precision 1%` vs `xpeer` \| 0\.5 s \| 2 s \| 0\.25 \| < 1 \| met \|'
is "json: the row keeps its section" "$(jqv "$TMP/sb.json" '[.info.rows[] | .section // empty] | join(",")')" \
	"time to a trustworthy figure,time to a trustworthy figure"
is "json: the miss is kept" "$(jqv "$TMP/sb.json" '[.info.rows[] | .miss // empty] | join(",")')" \
	"perflab reached 1% in 0 of 3 runs"
is "scoreboard.md outside the markers kept" "$(head -1 docs/scoreboard.md) $(tail -1 docs/scoreboard.md)" "top bottom"
like "the old table is gone" "$(grep -c 'old table' docs/scoreboard.md)" '^0$'
ok "--from prints a saved scoreboard without running" /usr/bin/python3 benchmarks/scoreboard.py --from "$TMP/sb.json"
like "the same rows" "$(cat "$OUT")" 'fast +2 +4 +ms +0\.5'
printf 'no markers\n' >"$TMP/plain.md"
expect_exit 1 "--markdown of a file without the markers is refused" /usr/bin/python3 benchmarks/scoreboard.py \
	--from "$TMP/sb.json" --markdown "$TMP/plain.md"
like "naming the markers" "$(cat "$ERR")" 'scoreboard:begin'
expect_exit 2 "--from of a file that is not a scoreboard" /usr/bin/python3 benchmarks/scoreboard.py --from docs/scoreboard.md
expect_exit 2 "--only of an unknown script" /usr/bin/python3 benchmarks/scoreboard.py --only nosuch
expect_exit 1 "bench_result with a bad target shape fails" bash -c \
	". benchmarks/common.sh; bench_result area=x what=y perflab=1 peer=2 unit=u perflab_cmd=a peer_cmd=b target='about 1'"

# the contract: every comparison script in the tree prints its result line
for f in "$PERFLAB_SRCDIR"/benchmarks/*.sh; do
	[ "$(basename "$f")" = common.sh ] && continue
	like "$(basename "$f") prints a scoreboard result line" "$(grep -c -E 'bench_result|bench_skip|result\(' "$f")" '^[1-9]'
done
done_testing
