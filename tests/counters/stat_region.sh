#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab stat --region through the command: the usage it refuses (exit 2, one line), the
# counts inside region-prog's regions (region_prog.c: "pages" touches PAGES fresh pages in
# each of two threads, "outer" holds the main thread's PAGES, "open" is a begin without an
# end), the JSON against docs/schemas/stat.schema.json, and the run-wide statuses (no
# markers, a library too old to count, events a thread could not open) as one line each.
. "$PERFLAB_SRCDIR/tests/lib.sh"
P=$PERFLAB
RP=$REGION_PROG
PAGES=512

bad() { # NAME REGEX ARGS...
	local name=$1 re=$2
	shift 2
	expect_exit 2 "$name: exit 2" "$P" stat "$@"
	is "$name: one line on stderr" "$(wc -l <"$ERR")" 1
	like "$name: names the input" "$(cat "$ERR")" "$re"
}
bad "--region without a command" "--region counts the regions of a command" --region pages -e cs -a
bad "--region with -a" "give '-- CMD' and drop -a" --region pages -a -- true
bad "--region with -C" "drop -a, -C" --region pages -C 0 -- true
bad "--region with -p" "--region counts" --region pages -p 1
bad "--region with --cgroup" "--region counts" --region pages --cgroup / -- true
bad "--region with -I" "--region counts" --region pages -I 100 -- true
bad "--region with an empty name" "--region 'a,,b': an empty region name" --region a,,b -- true
# 17 events (perf's aliases are separate events when given with -e)
many=task-clock,cpu-clock,page-faults,faults,cs,context-switches,migrations,cpu-migrations
many=$many,minor-faults,major-faults,alignment-faults,emulation-faults,dummy,cgroup-switches
many=$many,bpf-output,msr/tsc/,syscalls:sys_enter_read
if "$P" stat -e "$many" -o /dev/null -- true 2>/dev/null; then
	bad "--region with 17 events" "--region: 17 events .*at most 16" --region pages -e "$many" -- true
else
	bad "--region with 17 events" "--region: [0-9]+ events .*at most 16" --region pages \
		-e "${many%,msr/tsc/,syscalls:sys_enter_read},major-faults:u,minor-faults:u" -- true
fi

if ! "$P" stat -e page-faults -o "$TMP/probe.txt" -- true 2>"$TMP/probe.err"; then
	skip "--region counting" "perf_event_open is not usable here: $(head -c 300 "$TMP/probe.err")"
	done_testing
fi

# the counts of the regions, JSON
ok "--region pages,outer,open,nosuch" "$P" stat --json -o "$TMP/r.json" -e page-faults,task-clock \
	--region pages,outer,open,nosuch -- "$RP" "$PAGES" 3
validate stat.schema.json "$TMP/r.json"
reg() { jq -r ".regions.list[] | select(.region == \"$1\") | $2" "$TMP/r.json"; }
is "status ok" "$(jq -r .regions.status "$TMP/r.json")" ok
is "pages: 2 instances" "$(reg pages .instances)" 2
is "pages: 2 threads" "$(reg pages .threads)" 2
pf=$(reg pages '.events[] | select(.event == "page-faults") | .["counter-value"]')
# each thread's region touches PAGES fresh pages: one fault each; the marker reads and the
# library's first-use pages may add a few (tolerance: 2 % + 8)
ok "pages: page-faults $pf = 2 x $PAGES pages (2 % + 8)" \
	awk -v a="$pf" -v b=$((2 * PAGES)) 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b * 0.02 + 8) }'
pf=$(reg outer '.events[] | select(.event == "page-faults") | .["counter-value"]')
ok "outer: page-faults $pf = $PAGES pages (2 % + 8)" \
	awk -v a="$pf" -v b=$PAGES 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b * 0.02 + 8) }'
whole=$(jq -r '.events[] | select(.event == "page-faults") | .["counter-value"]' "$TMP/r.json")
like "the whole run counts more than its regions ($whole)" \
	"$(awk -v w="$whole" -v p=$((3 * PAGES)) 'BEGIN { print (w >= p) ? "yes" : "no" }')" yes
like "pages: time inside > 0 and < elapsed" \
	"$(jq -r '(.regions.list[] | select(.region == "pages") | .time_s) as $t | $t > 0 and $t < .elapsed_s' "$TMP/r.json")" true
like "pages: task-clock inside <= time inside x 2 threads" \
	"$(reg pages '(.events[] | select(.event == "task-clock") | .["counter-value"]) <= .time_s * 1000 * 2 + 1')" true
is "open: a begin without an end, never counted" "$(reg open '[.instances, .unpaired, (.events | length)] | join(",")')" "0,1,0"
is "nosuch: no instance" "$(reg nosuch .instances)" 0
is "pages: the metrics over the region" "$(reg pages '[.metrics[].metric] | sort | join(",")')" \
	"cpu_utilization,page_fault_rate"

# the same run, text: a block per region
ok "--region, text" "$P" stat -o "$TMP/r.txt" -e page-faults --region pages,nosuch -- "$RP" "$PAGES" 3
like "text: the region's line" "$(cat "$TMP/r.txt")" "Region 'pages': 2 instances in 2 threads, [0-9.]+ s inside:"
like "text: its page-faults" "$(grep -A2 "Region 'pages'" "$TMP/r.txt" | tail -1)" '^ +[0-9,]+ +page-faults'
like "text: a region never marked" "$(cat "$TMP/r.txt")" "Region 'nosuch': no complete instance in this run"

# the run-wide statuses, one line each
ok "no markers" "$P" stat -o "$TMP/n.txt" -e page-faults --region pages -- true
is "no markers: one line" "$(grep -c 'Regions: the program marked no region' "$TMP/n.txt")" 1
ok "no markers, JSON" "$P" stat --json -o "$TMP/n.json" -e page-faults --region pages -- true
is "no markers: status" "$(jq -r .regions.status "$TMP/n.json")" no_markers
ok "a library too old" "$P" stat -o "$TMP/o.txt" -e page-faults --region pages -- "$REGION_PROG_V1" "$PAGES" 3
is "too old: one line" "$(grep -c 'Regions: .*too old to count regions' "$TMP/o.txt")" 1
like "too old: instances seen, no counts" "$(cat "$TMP/o.txt")" "Region 'pages': 2 instances .*; no counts"
ok "a library too old, JSON" "$P" stat --json -o "$TMP/o.json" -e page-faults --region pages -- "$REGION_PROG_V1" "$PAGES" 3
validate stat.schema.json "$TMP/o.json"
is "too old: status, no count given" \
	"$(jq -r '[.regions.status, (.regions.list[0].events[0]["counter-value"] | tostring)] | join(",")' "$TMP/o.json")" "too_old,null"
core=$("$P" stat --list --json | jq -r .core_pmu)
if [ "$core" = false ]; then
	# the metric's hardware events resolve but cannot be opened: the session marks them
	# unsupported, the program's threads fail to open the region group
	ok "open failed" "$P" stat --json -o "$TMP/f.json" -e page-faults -M ipc --region pages -- "$RP" "$PAGES" 3
	validate stat.schema.json "$TMP/f.json"
	is "open failed: status" "$(jq -r .regions.status "$TMP/f.json")" open_failed
	like "open failed: the event and the reason" "$(jq -r .regions.reason "$TMP/f.json")" \
		"could not open (instructions|cycles) for its regions: "
	ok "open failed, text" "$P" stat -o "$TMP/f.txt" -e page-faults -M ipc --region pages -- "$RP" "$PAGES" 3
	is "open failed: one line" "$(grep -c '^ Regions: ' "$TMP/f.txt")" 1
else
	skip "open failed" "this machine has a core PMU (its hardware events open)"
fi
done_testing
