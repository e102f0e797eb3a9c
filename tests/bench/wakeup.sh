#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab bench wakeup: bad input, and invariants of a real run that hold on any Linux
# machine (counts by construction, percentile order, round trip >= two one-way wakeups,
# the scheduling policy stated as permitted).
. "$PERFLAB_SRCDIR/tests/lib.sh"
ALLOWED=$(/usr/bin/python3 -c 'import os; print(" ".join(map(str, sorted(os.sched_getaffinity(0)))))')
CPU=${ALLOWED%% *}
NCPU=$(echo $ALLOWED | wc -w)

# three CPUs in --pair: with three allowed, the count is refused; with fewer, the third
# CPU is not online and that is said first
if [ "$NCPU" -ge 3 ]; then
	THREE=$(echo $ALLOWED | cut -d' ' -f1-3 | tr ' ' ,)
	expect_exit 2 "wakeup: three CPUs in --pair" "$PERFLAB" bench wakeup --quick --pair "$THREE"
	like "wakeup: --pair says how many" "$(cat "$ERR")" "--pair '$THREE': give two CPUs"
else
	expect_exit 2 "wakeup: three CPUs in --pair" "$PERFLAB" bench wakeup --quick --pair 0-2
	like "wakeup: --pair names the CPU that is not online" "$(cat "$ERR")" "--pair '0-2': CPUs? .*not online"
fi
expect_exit 2 "wakeup: unknown part" "$PERFLAB" bench wakeup --quick --only timer,nap
like "wakeup: --only names the parts" "$(cat "$ERR")" "no part named 'nap' \(one of: timer, futex, pipe\)"
expect_exit 2 "wakeup: --pair outside --cpus" "$PERFLAB" bench wakeup --quick --cpus "$CPU" --pair "$((CPU + 1))"
like "wakeup: --pair names the CPUs of the run" "$(cat "$ERR")" "is not one of the CPUs of the run \($CPU\)"
expect_exit 2 "wakeup: interval below 10 us" "$PERFLAB" bench wakeup --interval 1us
expect_exit 2 "wakeup: priority above 99" "$PERFLAB" bench wakeup --priority 100

ok "wakeup --quick --json" "$PERFLAB" bench wakeup --quick --json -o "$TMP/w.json"
validate bench.schema.json "$TMP/w.json"
f=$TMP/w.json
# the metrics are ns in JSON and scaled (us) in the table: the header line names no unit
is "summary names no unit" "$(jqv "$f" .summary | grep -c '(ns)')" 0
want="timer,timer p99"
for c in $ALLOWED; do want="$want,timer cpu$c"; done
want="$want,futex wakeup,futex round trip,pipe wakeup,pipe round trip"
is "wakeup: metrics: pooled timer, one per CPU of the run, futex and pipe" \
	"$(jq -r '[.metrics[].name] | join(",")' "$f")" "$want"
runs=$(jqv "$f" .runner.runs)
is "wakeup: every CPU's timer thread woke --loops times per run (200 x $runs)" \
	"$(jq -r "[.metrics[] | select(.name | startswith(\"timer cpu\")) | .latency_ns.n] | unique | join(\",\")" "$f")" \
	"$((200 * runs))"
is "wakeup: the pooled histogram holds every CPU's wakeups" \
	"$(jq -r '.metrics[] | select(.name == "timer") | .latency_ns.n' "$f")" "$((200 * runs * NCPU))"
is "wakeup: futex and pipe: two wakeups per round trip (2 x 2000 x $runs)" \
	"$(jq -r '[.metrics[] | select(.name | endswith(" wakeup")) | .latency_ns.n] | unique | join(",")' "$f")" \
	"$((2 * 2000 * runs))"
is "wakeup: p50 <= p99 <= p99.9 <= max for every histogram" \
	"$(jq -r '[.metrics[] | .latency_ns // empty | select(.p50 > .p99 or .p99 > ."p99.9" or ."p99.9" > .max)] | length' "$f")" 0
is "wakeup: a round trip takes at least two of the fastest one-way wakeups" \
	"$(jq -r '[.metrics[] | select(.name | endswith(" wakeup")) | .latency_ns.min] as $w
		| [.metrics[] | select(.name | endswith(" round trip")) | .min] as $r
		| [range(0; 2) | select($r[.] < 2 * $w[.])] | length' "$f")" 0
like "wakeup: the pair is two CPUs of the run" "$(jqv "$f" .info.pair)" "^[0-9]+,[0-9]+$"
pol=$(jqv "$f" .info.policy)
if [ "$(id -u)" -eq 0 ]; then
	is "wakeup: root gets SCHED_FIFO 80" "$pol $(jqv "$f" .info.priority)" "SCHED_FIFO 80"
else
	skip "wakeup: root gets SCHED_FIFO" "not root"
fi
if command -v setpriv >/dev/null && setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all --bounding-set=-all \
	test -x "$PERFLAB" 2>/dev/null; then
	chmod o+x "$TMP" && mkdir -m 777 "$TMP/nb"
	setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all --bounding-set=-all \
		"$PERFLAB" bench wakeup --quick --only timer --json -o "$TMP/nb/w.json" 2>"$TMP/nobody.err"
	cp "$TMP/nb/w.json" "$TMP/nobody.json" 2>/dev/null
	is "wakeup as nobody: runs, and says it ran SCHED_OTHER" "$(jqv "$TMP/nobody.json" '"\(.status) \(.info.policy) \(.info.priority)"')" "ok SCHED_OTHER 0"
	like "wakeup as nobody: the warning says why" "$(jqv "$TMP/nobody.json" '.warnings[]')" "SCHED_FIFO 80 is not permitted"
else
	skip "wakeup as nobody: SCHED_OTHER stated" "cannot drop to nobody with setpriv"
	skip "wakeup as nobody: the warning says why" "cannot drop to nobody with setpriv"
fi
ok "wakeup --only futex --pair $CPU (one CPU)" "$PERFLAB" bench wakeup --runs 1 --round-trips 500 --only futex --pair "$CPU" --json -o "$TMP/one.json"
is "wakeup: one CPU: only the futex metrics" "$(jq -r '[.metrics[].name] | join(",")' "$TMP/one.json")" "futex wakeup,futex round trip"
like "wakeup: one CPU: the note says it is a same-CPU switch" "$(jqv "$TMP/one.json" '.notes[]')" "both threads on CPU $CPU"
ok "wakeup --duration sets the wakeup count" "$PERFLAB" bench wakeup --runs 1 --only timer --cpus "$CPU" --interval 2ms --duration 100ms --json -o "$TMP/d.json"
is "wakeup: 100 ms / 2 ms = 50 wakeups" "$(jqv "$TMP/d.json" .info.loops)" 50

# --histogram: the buckets hold every wakeup, in order, min and max inside the end buckets,
# and the percentiles recomputed from them (nearest rank, bucket midpoint) are the document's
ok "wakeup --histogram" "$PERFLAB" bench wakeup --runs 2 --warmup 0 --only timer --cpus "$CPU" --loops 300 --histogram --json -o "$TMP/h.json"
validate bench.schema.json "$TMP/h.json"
h='.metrics[] | select(.name == "timer") | .latency_ns'
is "histogram: the counts add up to n (2 x 300)" "$(jq -r "$h | [.buckets[][2]] | add" "$TMP/h.json")" 600
is "histogram: buckets ascending, lowest <= highest < the next lowest" \
	"$(jq -r "$h | .buckets as \$b | [range(0; \$b | length) | select(\$b[.][0] > \$b[.][1] or (. > 0 and \$b[. - 1][1] >= \$b[.][0]))] | length" "$TMP/h.json")" 0
is "histogram: min in the first bucket, max in the last" \
	"$(jq -r "$h | (.buckets[0][0] <= .min and .min <= .buckets[0][1] and .buckets[-1][0] <= .max and .max <= .buckets[-1][1])" "$TMP/h.json")" true
is "histogram: p50 and p99 recomputed from the buckets" \
	"$(jq -r "$h | . as \$l | [0.5, 0.99] | map(. as \$q | (\$q * \$l.n | ceil) as \$r
		| [foreach \$l.buckets[] as \$x (0; . + \$x[2]; [., \$x])] | map(select(.[0] >= \$r))[0][1]
		| ((.[0] + (.[1] - .[0]) / 2) | if . < \$l.min then \$l.min elif . > \$l.max then \$l.max else . end)
		| . == (if \$q == 0.5 then \$l.p50 else \$l.p99 end)) | all" "$TMP/h.json")" true
is "histogram: absent without --histogram" "$(jq -r '[.metrics[].latency_ns // empty | has("buckets")] | any' "$f")" false

# --align OFFSET (cyclictest --secaligned): the first wakeup is one interval after the next
# full second of CLOCK_MONOTONIC plus OFFSET, after the moment the command started
expect_exit 2 "wakeup: --align of a second or more" "$PERFLAB" bench wakeup --only timer --align 1s
like "wakeup: --align says the range" "$(cat "$ERR")" "--align '1s': give an offset from 0 to below 1s"
expect_exit 2 "wakeup: --align that is no duration" "$PERFLAB" bench wakeup --only timer --align soon
t0=$(/usr/bin/python3 -c 'import time; print(time.clock_gettime_ns(time.CLOCK_MONOTONIC))')
ok "wakeup --align 250us" "$PERFLAB" bench wakeup --runs 1 --warmup 0 --only timer --cpus "$CPU" --loops 20 --interval 2ms --align 250us --json -o "$TMP/al.json"
t1=$(/usr/bin/python3 -c 'import time; print(time.clock_gettime_ns(time.CLOCK_MONOTONIC))')
validate bench.schema.json "$TMP/al.json"
is "wakeup --align: the offset in info, in ns" "$(jqv "$TMP/al.json" .info.align_ns)" 250000
first=$(jqv "$TMP/al.json" .info.first_wakeup_ns)
is "wakeup --align: first wakeup = full second + offset + interval" "$(( (first - 250000 - 2000000) % 1000000000 ))" 0
is "wakeup --align: the first wakeup came after the start, within 2 s + an interval" \
	"$(( first > t0 && first - t0 <= 2002250000 ))" 1
is "wakeup --align: the run ended after its last wakeup (20 intervals after the first)" \
	"$(( t1 >= first + 19 * 2000000 ))" 1
done_testing
