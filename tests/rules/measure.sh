#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Findings backed by measurements: every rule's evidence (check --list-rules
# --json) names a benchmark that runs here and metrics that benchmark declares (run
# briefly, as check --measure runs it); check --measure on this machine prints a
# "measured:" line for each finding whose rule has evidence, or says none has; bad input.
. "$PERFLAB_SRCDIR/tests/lib.sh"
FX=$PERFLAB_SRCDIR/tests/fixtures/sysroots
cd "$TMP" || exit 1 # bench io writes its file into the working directory

ok "list-rules --json" "$PERFLAB" check --list-rules --json
cp "$OUT" "$TMP/rules.json"
validate rules.schema.json "$TMP/rules.json"
is "the rules with evidence" "$(jqv "$TMP/rules.json" '[.rules[]|select(.evidence)|"\(.id)=\(.evidence.benchmark)"]|join(" ")')" \
	"clock.xen-tsc=clock clock.slow-source=clock power.governor=freq power.boost-off=freq power.boost-benchmark=freq power.cstates-deep=wakeup power.cstate-cmdline=wakeup sched.nohz-full-unisolated=ticks mem.thp-hpc=mem numa.remote-ratio=mem block.scheduler-hdd=io block.scheduler-nvme=io block.scheduler-virtio=io block.read-ahead=io dimm.below-rated=mem dimm.channels-empty=mem pcie.gpu-remote-numa=mem pcie.nic-remote-numa=mem"
bench_list=$("$PERFLAB" bench --list 2>&1)

# each distinct evidence run: the benchmark exists, and its result has the metrics
jq -c '[.rules[]|select(.evidence)|.evidence|{benchmark,argv,metrics}]|unique[]' "$TMP/rules.json" >"$TMP/ev"
while read -r ev; do
	b=$(jq -r .benchmark <<<"$ev")
	mapfile -t argv < <(jq -r '.argv[]' <<<"$ev")
	what="bench $b${argv[*]:+ ${argv[*]}}"
	like "$what: in bench --list" "$bench_list" "^$b "
	"$PERFLAB" bench "$b" --quick "${argv[@]}" --json >"$TMP/res.json" 2>"$TMP/res.err"
	st=$(jqv "$TMP/res.json" .status 2>/dev/null)
	if [ "$st" != ok ]; then
		skip "$what: its metrics" "it did not run here: $st $(jqv "$TMP/res.json" .reason 2>/dev/null) $(head -c 200 "$TMP/res.err")"
		continue
	fi
	while read -r m; do
		has=$(jq --arg m "$m" '[.metrics[]|select(.name==$m)]|length' "$TMP/res.json")
		nodes=$(jqv "$TMP/res.json" '.info.numa_nodes // empty')
		if [ "$has" = 0 ] && [ "$b" = mem ] && [ "${nodes:-1}" -lt 2 ] && [[ $m == *mem1 ]]; then
			skip "$what: metric '$m'" "one NUMA node here: the matrix has no remote cell"
		else
			is "$what: declares metric '$m'" "$has" 1
		fi
	done < <(jq -r '.metrics[]' <<<"$ev")
done <"$TMP/ev"

# check --measure on this machine, per workload: one measured line per finding with
# evidence, in the text and in --json, or the line that says there is none
for wl in general storage latency; do
	ok "check -W $wl --measure --json" "$PERFLAB" check -W $wl --measure --json --fail-on crit
	cp "$OUT" "$TMP/m.json"
	validate check.schema.json "$TMP/m.json"
	ids=$(jqv "$TMP/rules.json" '[.rules[]|select(.evidence)|.id]')
	want=$(jq --argjson ids "$ids" '[.findings[]|select(.id as $i|$ids|index($i))]|length' "$TMP/m.json")
	is "$wl --json: every finding with evidence has it" \
		"$(jq '[.findings[]|select(.evidence and (.evidence.text or .evidence.unavailable))]|length' "$TMP/m.json")" "$want"
	is "$wl --json: no other finding has evidence" "$(jq '[.findings[]|select(.evidence)]|length' "$TMP/m.json")" "$want"
	is "$wl --json: one measured run per distinct benchmark" \
		"$(jq '.measured.benchmarks|length' "$TMP/m.json")" \
		"$(jq --slurpfile r "$TMP/rules.json" '[.findings[].id as $i|$r[0].rules[]|select(.id==$i and .evidence)|.evidence|[.benchmark]+.argv]|unique|length' "$TMP/m.json")"
	"$PERFLAB" check -W $wl --measure --fail-on crit >"$TMP/m.txt" 2>"$TMP/m.err"
	n=$(grep -c '^         measured: ' "$TMP/m.txt")
	if [ "$want" = 0 ]; then
		is "$wl text: says no finding has evidence" "$(grep -c '^measured: no finding has a benchmark that measures it$' "$TMP/m.txt")" 1
		is "$wl text: and prints no measured line" "$n" 0
	else
		is "$wl text: a measured line per finding with evidence" "$n" "$want"
		is "$wl text: no 'none' line" "$(grep -c '^measured: no finding' "$TMP/m.txt")" 0
	fi
done
"$PERFLAB" check >"$TMP/plain.txt" 2>&1
is "without --measure: no measured lines" "$(grep -c 'measured:' "$TMP/plain.txt")" 0
"$PERFLAB" check --json >"$TMP/plain.json" 2>/dev/null
is "without --measure: no measured member" "$(jq 'has("measured")' "$TMP/plain.json")" false

# bad input: --measure on another machine's tree, a value for a flag
expect_exit 2 "--measure with --sysroot" "$PERFLAB" check --measure --sysroot "$FX/xen-hvm"
is "one line on stderr" "$(wc -l <"$ERR")" 1
like "it names both options and the fix" "$(cat "$ERR")" '--measure .* --sysroot .*drop one of them'
is "nothing on stdout" "$(wc -c <"$OUT")" 0
expect_exit 2 "--measure=yes" "$PERFLAB" check --measure=yes
is "one line on stderr for it" "$(wc -l <"$ERR")" 1
like "it names the option" "$(cat "$ERR")" 'measure'
done_testing
