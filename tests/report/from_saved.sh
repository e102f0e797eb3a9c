#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab report --from a saved bench result (`perflab bench NAME --json`): that benchmark
# is left out of the plan, not measured again; every result has one section that says
# where its figures come from (the file, or "measured now"); two results of one benchmark
# get unique section ids and headings.
. "$PERFLAB_SRCDIR/tests/lib.sh"
FX=$PERFLAB_SRCDIR/tests/report/fixtures
export PERFLAB_TIMESTAMP=1780000000
cd "$TMP" || exit 1

# a saved result of every benchmark of the plan: the fixtures, and for the others the
# clock fixture renamed (a figure per name is all the report needs)
plan=$("$PERFLAB" report --dry-run --quick --json | jq -r '.benchmarks[].benchmark')
like "the plan has benchmarks" "$plan" '^clock'
for b in $plan; do
	if [ -f "$FX/bench-$b.json" ]; then
		cp "$FX/bench-$b.json" "bench-$b.json"
	else
		jq --arg b "$b" '.benchmark = $b | if $b == "syscall" then .metrics[0].name = "getppid" else . end' \
			"$FX/bench-clock.json" >"bench-$b.json"
	fi
done
last=$(printf '%s\n' $plan | tail -1)
from=()
for b in $plan; do [ "$b" = "$last" ] || from+=(--from "bench-$b.json"); done

# all but the last benchmark given: only that one runs
ok "report --quick with saved results of all but bench $last" "$PERFLAB" report --quick -o r "${from[@]}"
J=r/report.json
is "one result per benchmark" "$(jq -r '[.benchmarks[].benchmark]|sort|join(" ")' "$J")" \
	"$(printf '%s\n' $plan | sort | tr '\n' ' ' | sed 's/ $//')"
is "only bench $last measured now" "$(jq -r '[.benchmarks[]|select(.from==null)|.benchmark]|join(" ")' "$J")" "$last"
is "each saved result names its file" \
	"$(jq -r '[.benchmarks[]|select(.from!=null)|(.from == "bench-" + .benchmark + ".json")]|all' "$J")" true
is "syscall's figure is the saved one" \
	"$(jq -r '.key_numbers[]|select(.name=="syscall")|.value' "$J")" \
	"$(jq -r '.metrics[]|select(.name=="getppid")|.median' bench-syscall.json)"
md=$(cat r/report.md)
is "md: one section of bench syscall" "$(grep -c '^### bench syscall$' r/report.md)" 1
like "md: it says where it came from" "$(sed -n '/^### bench syscall$/,/^### /p' r/report.md)" \
	'Source: saved result bench-syscall\.json \(generated [0-9T:-]+Z\)\.'
like "md: the measured one says so" "$(sed -n "/^### bench $last\$/,/^### /p" r/report.md)" 'Source: measured now\.'
like "terminal: the saved source under its figure" "$(cat "$OUT")" \
	'source: saved result bench-syscall\.json'
like "terminal: measured now" "$(cat "$OUT")" 'source: measured now'
is "html: section ids unique" "$(grep -o 'id="[^"]*"' r/report.html | sort | uniq -d | wc -l)" 0

# two saved results of one benchmark, and one whose name is another's second id
jq '.benchmark = "syscall-2"' bench-syscall.json >bench-s2.json
ok "report --no-bench with two syscall results" "$PERFLAB" report --no-bench -o d \
	--from bench-syscall.json --from bench-s2.json --from bench-syscall.json
ids=$(grep -o '<section class="bench" id="[^"]*"' d/report.html | sed 's/.*id="//;s/"$//' | tr '\n' ' ')
is "html: unique section ids" "$ids" "bench-syscall bench-syscall-2 bench-syscall-3 "
is "md: unique headings" "$(grep '^### bench' d/report.md | tr '\n' '|')" \
	"### bench syscall|### bench syscall-2|### bench syscall (3)|"
like "html: the second syscall's heading" "$(cat d/report.html)" '<h3>bench syscall \(3\)</h3>'
is "key number links the first" "$(jq -r '.key_numbers[]|select(.name=="syscall")|.section' d/report.json)" bench-syscall
done_testing
