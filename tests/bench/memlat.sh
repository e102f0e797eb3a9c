#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab bench mem --latency and the latency cells of --numa-matrix: bad input, and
# invariants of a real run (a metric per power of two from 4 KiB, levels named from the
# facts' cache sizes, L1 faster than beyond the L2, the matrix's cells as sysfs lists the
# nodes).
. "$PERFLAB_SRCDIR/tests/lib.sh"
expect_exit 2 "mem --latency with --nt" "$PERFLAB" bench mem --latency --nt
like "mem --latency: says what to drop" "$(cat "$ERR")" "drop --only, --nt, --size and --threads"
# --quick's own --size (for STREAM) is not the user's: --latency --quick runs the curve
ok "mem --latency --quick" "$PERFLAB" bench mem --latency --quick --max-size 64KiB --runs 1 --json -o "$TMP/q.json"
is "mem --latency --quick: the curve, 4 KiB to 64 KiB" "$(jq -r '[.metrics[].name] | join(",")' "$TMP/q.json")" \
	"latency 4.00 KiB,latency 8.00 KiB,latency 16.00 KiB,latency 32.00 KiB,latency 64.00 KiB"
expect_exit 2 "mem --latency --quick with the user's --size" "$PERFLAB" bench mem --latency --quick --size 32MiB
like "... still says what to drop" "$(cat "$ERR")" "drop --only, --nt, --size and --threads"
expect_exit 2 "mem --huge without --latency" "$PERFLAB" bench mem --huge --quick
like "mem --huge: says to add --latency" "$(cat "$ERR")" "apply to --latency; add it"
expect_exit 2 "mem --latency --max-size 1KiB" "$PERFLAB" bench mem --latency --max-size 1KiB
like "mem --latency: --max-size lower bound" "$(cat "$ERR")" "at least 4 KiB"

ok "mem --latency --max-size 4MiB --huge --json" "$PERFLAB" bench mem --latency --huge --max-size 4MiB --runs 1 --warmup 0 --json -o "$TMP/l.json"
f=$TMP/l.json
validate bench.schema.json "$f"
is "latency: one metric per power of two, 4 KiB to 4 MiB" "$(jq -r '[.metrics[].name] | join(",")' "$f")" \
	"latency 4.00 KiB,latency 8.00 KiB,latency 16.00 KiB,latency 32.00 KiB,latency 64.00 KiB,latency 128.00 KiB,latency 256.00 KiB,latency 512.00 KiB,latency 1.00 MiB,latency 2.00 MiB,latency 4.00 MiB"
like "latency: titled as latency, not bandwidth" "$(jqv "$f" .summary)" '^memory load-to-use latency'
is "latency: huge pages said" "$(jqv "$f" .info.huge_pages)" "madvise(MADV_HUGEPAGE)"
"$PERFLAB" inspect --json >"$TMP/facts.json" 2>/dev/null
l1=$(jq -r '.facts["cpu.cache.l1d_bytes"].value // 0' "$TMP/facts.json")
l2=$(jq -r '.facts["cpu.cache.l2_bytes"].value // 0' "$TMP/facts.json")
l3=$(jq -r '(.facts["cpu.cache.l3_bytes"].value // 0) * (.facts["cpu.cache.l3_count"].value // 1)' "$TMP/facts.json")
l3u=$(jq -r '.info.l3_used_bytes' "$f")
want=$(for b in 4096 8192 16384 32768 65536 131072 262144 524288 1048576 2097152 4194304; do
	awk -v b="$b" -v l1="$l1" -v l2="$l2" -v l3="$l3" -v l3u="$l3u" 'BEGIN {
		if (l1 && b <= l1) print "L1"; else if (l2 && b <= l2) print "L2";
		else if (l3 && b <= l3) print (l3u < l3 && b > l3u) ? "L3 or DRAM" : "L3";
		else if (l1 || l2 || l3) print "DRAM"; else print "unknown" }'
done | paste -sd, -)
is "latency: each size named by the smallest level of the facts that holds it (L1d $l1, L2 $l2, L3 $l3)" \
	"$(jq -r '[.metrics[].notes.level] | join(",")' "$f")" "$want"
is "latency: every load costs more than 0.1 ns and less than 100 us" \
	"$(jq -r '[.metrics[] | select(.median < 0.1 or .median > 100000)] | length' "$f")" 0
like "latency: 4 KiB (in any L1) is faster than 4 MiB" "$(jq -r '.metrics[0].median < .metrics[-1].median' "$f")" true

ok "mem --numa-matrix --quick" "$PERFLAB" bench mem --quick --numa-matrix --runs 1 --json -o "$TMP/m.json"
is "numa matrix: a latency cell beside each copy cell" \
	"$(jq -r '[.metrics[].name | select(startswith("latency"))] | map(sub("latency "; "")) | sort | join(",")' "$TMP/m.json")" \
	"$(jq -r '[.metrics[].name | select(startswith("copy"))] | map(sub("copy "; "")) | sort | join(",")' "$TMP/m.json")"
is "numa matrix: latencies in ns, lower is better" \
	"$(jq -r '[.metrics[] | select(.name | startswith("latency")) | "\(.unit) \(.better)"] | unique | join(",")' "$TMP/m.json")" "ns lower"
is "numa matrix: the latency buffer is the array size" "$(jqv "$TMP/m.json" .info.latency_bytes)" "$(jqv "$TMP/m.json" .info.array_bytes)"
done_testing
