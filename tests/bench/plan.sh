#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The benchmark plan of `perflab report` (src/report/bench_plan.c), without running anything:
# `report --dry-run --json` in each mode. The default plan gives every benchmark at least
# 3 measured runs and mem arrays of at least 4x the last-level cache as the facts of
# `perflab inspect` give it (cpu.cache.l3_bytes x cpu.cache.l3_count), or, when available
# memory caps them, a size reason that says so and three arrays within 60% of
# MemAvailable. Consistency between two independent readings (hwloc in mem, the
# collectors in inspect), so it holds on any machine.
. "$(dirname "$0")/../lib.sh"

ok "report --dry-run --json (default)" "$PERFLAB" report --dry-run --json -o "$TMP/never"
cp "$OUT" "$TMP/plan.json"
validate report-plan.schema.json "$TMP/plan.json"
is "dry run writes nothing" "$(test -e "$TMP/never" && echo exists || echo absent)" absent
is "default mode, budget 60 s" "$(jq -r '"\(.mode) \(.budget_s)"' "$TMP/plan.json")" "default 60"
inrep=$("$PERFLAB" bench --list | awk 'NR > 1 && $2 ~ /^(yes|no)$/ { print $1 }' | paste -sd, -)
got=$(jq -r '[.benchmarks[].benchmark] | join(",")' "$TMP/plan.json")
like "plan lists in_report benchmarks in registry order" "$got" '^clock,syscall,mem,'
is "every benchmark of the plan exists" \
	"$(for b in $(echo "$got" | tr , ' '); do case ",$inrep," in *",$b,"*) ;; *) echo "$b" ;; esac; done)" ""
is "default plan: every benchmark has >= 3 runs" \
	"$(jq -r '[.benchmarks[] | select(.runs < 3) | .benchmark] | join(",")' "$TMP/plan.json")" ""
is "default plan: every benchmark runs to 1% precision" \
	"$(jq -r '[.benchmarks[] | select((.args | join(" ") | test("--precision 1%")) | not) | .benchmark] | join(",")' "$TMP/plan.json")" ""

# mem against the facts
"$PERFLAB" inspect --json >"$TMP/facts.json" 2>"$ERR"
l3=$(jq -r '.facts["cpu.cache.l3_bytes"].value // empty' "$TMP/facts.json")
l3n=$(jq -r '.facts["cpu.cache.l3_count"].value // empty' "$TMP/facts.json")
avail=$(jq -r '.facts["mem.available_bytes"].value // empty' "$TMP/facts.json")
arr=$(jq -r '.benchmarks[] | select(.benchmark == "mem") | .array_bytes' "$TMP/plan.json")
why=$(jq -r '.benchmarks[] | select(.benchmark == "mem") | .size_reason' "$TMP/plan.json")
like "mem: array size planned" "$arr" '^[0-9]+$'
used=$(jq -r '.benchmarks[] | select(.benchmark == "mem") | .llc_used_bytes' "$TMP/plan.json")
if [ -n "$l3" ] && [ -n "$l3n" ]; then
	llc=$((l3 * l3n))
	if [ "$used" -lt "$llc" ]; then
		# the VM bound (64 MiB per CPU) took the place of the reported LLC
		like "mem: a smaller LLC than the facts' is the VM bound, said so" "$why" \
			"likely the host's in a virtual machine; taken as"
		llc=$used
	fi
	if [ "$arr" -ge $((4 * llc)) ]; then
		_report ok "mem: arrays $arr B >= 4x the LLC ($llc B; facts: $l3n x $l3 B)"
	elif [ -n "$avail" ] && printf '%s' "$why" | grep -q 'capped' &&
		[ $((3 * arr)) -le $((avail * 6 / 10 + 4096)) ]; then
		_report ok "mem: arrays $arr B capped by available memory ($avail B), reason given: $why"
	else
		_report fail "mem: arrays >= 4x the LLC of the facts, or capped with the reason" \
			"array $arr B, LLC $l3n x $l3 B, MemAvailable $avail B, reason: $why"
	fi
	like "mem: the reason names the 4x rule or the cap" "$why" '4x the total last-level cache|capped'
else
	skip "mem: arrays >= 4x the LLC of the facts" "no L3 facts on this machine (cpu.cache.l3_*)"
	skip "mem: the reason names the 4x rule or the cap" "no L3 facts on this machine"
fi

# io reads a file that is not a cache test: O_DIRECT where supported, else cold
is "io: cache auto (O_DIRECT where supported, else cold)" \
	"$(jq -r '.benchmarks[] | select(.benchmark == "io") | .cache' "$TMP/plan.json")" auto
io_bytes=$(jq -r '.benchmarks[] | select(.benchmark == "io") | .file_bytes' "$TMP/plan.json")
is "io: file of the standalone default (256 MiB)" "$io_bytes" 268435456

# quick and full
ok "report --dry-run --quick --json" "$PERFLAB" report --dry-run --quick --json
is "quick mode, budget 15 s" "$(jq -r '"\(.mode) \(.budget_s)"' "$OUT")" "quick 15"
is "quick plan: fixed counts, no --precision" "$(jq -r '[.benchmarks[].args[]] | index("--precision")' "$OUT")" null
qarr=$(jq -r '.benchmarks[] | select(.benchmark == "mem") | .array_bytes' "$OUT")
# quick's fixed 64 MiB is below the default plan's 4x LLC on most machines, equal where the
# LLC is 16 MiB (the EPYC guest's sysfs): never larger
like "quick: mem arrays no larger than the default plan's ($qarr <= $arr B)" "$([ "$qarr" -le "$arr" ] && echo no-larger)" no-larger
ok "report --dry-run --full --json" "$PERFLAB" report --dry-run --full --json
is "full mode: no budget, no arguments" \
	"$(jq -r '"\(.mode) \(.budget_s) \([.benchmarks[].args | length] | add)"' "$OUT")" "full 0 0"
ok "report --dry-run (text)" "$PERFLAB" report --dry-run
like "text plan names mem's size in words and units" "$(cat "$OUT")" 'array size \(each\): [0-9.]+ (KiB|MiB|GiB)'
# human output: no raw byte counts (the JSON plan keeps them) and no long floats
if grep -Eq '(^|[ :])[0-9]{6,}' "$OUT" || grep -Eq '[0-9]\.[0-9]{5,}' "$OUT"; then
	_report fail "text plan: no raw byte counts or long floats" "$(grep -E '[0-9]{6,}|[0-9]\.[0-9]{5,}' "$OUT")"
else _report ok "text plan: no raw byte counts or long floats"; fi
expect_exit 2 "--dry-run with --no-bench" "$PERFLAB" report --dry-run --no-bench
like "the error says what to drop" "$(cat "$ERR")" 'drop --no-bench'

# mem's size on fixture facts (--dry-run --sysroot plans from the tree's caches, CPUs and
# memory): the xen-hvm guest (4 vCPUs) with a host-sized 1016 MiB L3, then also with
# 1 GiB available
mem_plan() { jq -r ".benchmarks[] | select(.benchmark == \"mem\") | .$1" "$OUT"; }
ok "report --dry-run --sysroot xen-hvm" "$PERFLAB" report --dry-run --json \
	--sysroot "$PERFLAB_SRCDIR/tests/fixtures/sysroots/xen-hvm"
validate report-plan.schema.json "$OUT"
is "xen-hvm: 4x its 45 MiB L3, as reported" "$(mem_plan array_bytes) $(mem_plan llc_used_bytes)" \
	"$((4 * 45 * 1048576)) $((45 * 1048576))"
HUGE="$TMP/huge-l3"
cp -r "$PERFLAB_SRCDIR/tests/fixtures/sysroots/xen-hvm" "$HUGE"
for f in "$HUGE"/sys/devices/system/cpu/cpu*/cache/index3/size; do echo 1040384K >"$f"; done
ok "report --dry-run --sysroot (a VM reporting a 1016 MiB L3)" "$PERFLAB" report --dry-run --json \
	--sysroot "$HUGE"
is "huge L3 in a VM: taken as 4 CPUs x 64 MiB, arrays 1 GiB (not 3.97 GiB)" \
	"$(mem_plan llc_total_bytes) $(mem_plan llc_used_bytes) $(mem_plan array_bytes)" \
	"$((1016 * 1048576)) $((256 * 1048576)) $((1024 * 1048576))"
like "huge L3: the reason states the cap and the reported LLC" "$(mem_plan size_reason)" \
	"capped \\(LLC reported 1 x L3 = 1016.00 MiB by the cpu facts, likely the host's in a virtual machine; taken as 256.00 MiB = 4 CPUs x 64.00 MiB\\)"
sed -i 's/^MemAvailable:.*/MemAvailable:    1048576 kB/' "$HUGE/proc/meminfo"
ok "report --dry-run --sysroot (huge L3, 1 GiB available)" "$PERFLAB" report --dry-run --json \
	--sysroot "$HUGE"
arr=$(mem_plan array_bytes)
is "little memory: three arrays within 60% of MemAvailable, page-aligned" \
	"$([ $((3 * arr)) -le $((1073741824 * 6 / 10)) ] && [ $((arr % 4096)) -eq 0 ] &&
		[ "$arr" -gt $((200 * 1048576)) ] && echo yes)" yes
like "little memory: the reason names both caps" "$(mem_plan size_reason)" \
	"likely the host's.*capped so the three arrays take 60% of available memory \\(1.00 GiB\\)"
ok "report --dry-run --sysroot (text)" "$PERFLAB" report --dry-run --sysroot "$HUGE"
like "text plan: the LLC the size rule used, in MiB" "$(cat "$OUT")" 'last-level cache the size rule used: 256 MiB$'
like "text plan: the reported LLC to 4 digits" "$(cat "$OUT")" 'last-level cache \(all caches\): 1016 MiB$'
like "text plan: memory available to 4 digits" "$(cat "$OUT")" 'memory available: 1 GiB$'
unlike_raw=$(grep -Ec '(^|[ :])[0-9]{6,}' "$OUT")
is "text plan: no raw byte counts" "$unlike_raw" 0
done_testing
