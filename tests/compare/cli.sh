#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab compare end to end with small real commands: verdicts, JSON (schema and
# byte-identity for a seed), exports, variant keys (env, cwd=tmpfs, cpus, helpers,
# params), adaptive stopping, and bad input (exit 2 before any run).
. "$PERFLAB_SRCDIR/tests/lib.sh"
P=$PERFLAB
SCORE=(--metric 'score=score: ([0-9.]+)')

# constant scores: 10 vs 10.5, higher is better -> "faster by 5.00%"; all values tie within
# a variant, so U = 36 uses the normal approximation with the tie correction:
# var = 36/12 (13 - 2 (6^3-6) / (12 11)) = 29.4545, z = (36 - 18 - 0.5) / sqrt(var), p = 0.001262
ok "two variants, a parsed metric" "$P" compare --json --runs 6 --warmup 1 --seed 7 \
	"${SCORE[@]}" --higher-is-better -n base -- /bin/echo score: 10 -n new -- /bin/echo score: 10.5
cp "$OUT" "$TMP/a.json"
validate compare.schema.json "$TMP/a.json"
is "seed recorded" "$(jqv "$TMP/a.json" .seed)" 7
is "6 measured + 1 warm-up rounds" "$(jqv "$TMP/a.json" '[.rounds_measured, .rounds_warmup, (.runs|length)] | @csv')" "6,1,14"
is "warm-up runs marked" "$(jqv "$TMP/a.json" '[.runs[] | select(.warmup)] | length')" 2
is "each round runs every variant once" \
	"$(jqv "$TMP/a.json" '[.round_order[] | sort | join(",")] | unique | join(";")')" "base,new"
is "score verdict" "$(jqv "$TMP/a.json" '.statistics[] | select(.metric=="score") | .variants[1].verdict')" changed
is "score verdict text" "$(jqv "$TMP/a.json" '.statistics[] | select(.metric=="score") | .variants[1].verdict_text | split(" (")[0]')" "faster by 5.00%"
is "Mann-Whitney with ties: normal, p = 0.001262" \
	"$(jqv "$TMP/a.json" '.statistics[] | select(.metric=="score") | .variants[1].vs_baseline.mann_whitney | "\(.exact) \(.statistic) \(.p * 1e6 | round)"')" "false 36 1262"
is "ratio 1.05" "$(jqv "$TMP/a.json" '.statistics[] | select(.metric=="score") | .variants[1].vs_baseline.ratio')" 1.05
is "wait4 resources recorded" "$(jqv "$TMP/a.json" '[.runs[] | select(.resources.wall_s > 0 and .resources.max_rss_bytes > 0)] | length')" 14

# byte-identical apart from timings for the same seed; another seed changes the order
ok "same seed again" "$P" compare --json --runs 6 --warmup 1 --seed 7 "${SCORE[@]}" --higher-is-better \
	-n base -- /bin/echo score: 10 -n new -- /bin/echo score: 10.5
cp "$OUT" "$TMP/b.json"
STRIP='del(.elapsed_s, .runs[].resources, .environment.load_avg, .environment.steal_pct, .environment.others_busy_pct) | .statistics |= map(select(.source != "wait4"))'
is "same seed: identical JSON apart from timings" "$(jq -S "$STRIP" "$TMP/a.json" | md5sum)" "$(jq -S "$STRIP" "$TMP/b.json" | md5sum)"
ok "another seed" "$P" compare --json --runs 6 --seed 8 "${SCORE[@]}" -n base -- /bin/echo score: 10 -n new -- /bin/echo score: 10.5
like "another seed: another order" "$(jq -c .round_order "$OUT") vs $(jq -c .round_order "$TMP/a.json")" '^(.+) vs (.+)$'
if [ "$(jq -c .round_order "$OUT")" != "$(jq -c .round_order "$TMP/a.json")" ]; then _report ok "orders differ"; else _report fail "orders differ"; fi

# fewer than 5 runs: no verdict, says why
ok "3 runs" "$P" compare --runs 3 "${SCORE[@]}" -n a -- /bin/echo score: 1 -n b -- /bin/echo score: 2
like "no verdict below 5 runs" "$(cat "$OUT")" 'score, b: no verdict: fewer than 5 runs per variant \(baseline 3, this variant 3\)'
like "table has variants as columns" "$(head -4 "$OUT" | tail -1)" '^ +a \(base\) +b'

# equal commands: not 'slower'; text table and exports
ok "A/A with exports" "$P" compare --runs 5 --seed 1 "${SCORE[@]}" --export-markdown "$TMP/r.md" \
	--export-csv "$TMP/r.csv" -n a -- /bin/echo score: 3 -n b -- /bin/echo score: 3
like "A/A score: equivalent" "$(cat "$OUT")" 'score, b: equivalent within \+-1%'
like "markdown table" "$(cat "$TMP/r.md")" '^\| metric \| a \(baseline\) \| b \|'
is "csv rows: header + 5 metrics x 2 variants" "$(wc -l <"$TMP/r.csv")" 11
like "csv header" "$(head -1 "$TMP/r.csv")" '^metric,unit,variant,n,median,median_ci_lo'

# geomean of sub-benchmark scores (SPEC style)
ok "geomean aggregate" "$P" compare --json --runs 5 --metric 'x=x=([0-9]+)' --metric 'y=y=([0-9]+)' \
	--aggregate geomean --higher-is-better -n a -- /bin/echo x=2 y=8 -n b -- /bin/echo x=4 y=16
is "geomean per run" "$(jqv "$OUT" '.runs[] | select(.variant=="b") | .metrics.geomean' | sort -u)" 8
is "geomean ratio" "$(jqv "$OUT" '.statistics[] | select(.metric=="geomean") | .variants[1].vs_baseline.ratio')" 2

# variant keys applied in the child: env, cpus, cwd=tmpfs (removed afterwards)
ok "env.X applied" "$P" compare --runs 2 --warmup 0 -n a -- /bin/sh -c 'test -z "$PLX"' \
	-n b --set env.PLX=hello -- /bin/sh -c 'test "$PLX" = hello'
# the first CPU this process may use (CPU 0 may be outside a container's cpuset)
CPU=$(awk '/^Cpus_allowed_list:/ { split($2, a, "[,-]"); print a[1] }' /proc/self/status)
ok "cpus=$CPU applied before exec" "$P" compare --runs 2 --warmup 0 -n a -- /bin/true \
	-n b --set cpus=$CPU -- /bin/sh -c "grep -q '^Cpus_allowed_list:[[:space:]]*$CPU\$' /proc/self/status"
ok "cwd=tmpfs" "$P" compare --runs 2 --warmup 0 -n a -- /bin/true \
	-n b --set cwd=tmpfs -- /bin/sh -c "pwd >>'$TMP/pwds'; touch junk"
like "ran in a private /dev/shm directory" "$(sort -u "$TMP/pwds")" '^/dev/shm/perflab-compare\.[A-Za-z0-9]{6}$'
if [ ! -e "$(head -1 "$TMP/pwds")" ]; then _report ok "tmpfs directory removed"; else _report fail "tmpfs directory removed"; fi

# helpers from an INI file: setup/teardown once per variant, prepare/cleanup per run
cat >"$TMP/exp.ini" <<INI
command = /bin/true
[base]
[other]
setup = /bin/sh -c "echo setup >>'$TMP/log'"
prepare = /bin/sh -c "echo prepare >>'$TMP/log'"
cleanup = /bin/sh -c "echo cleanup >>'$TMP/log'"
teardown = /bin/sh -c "echo teardown >>'$TMP/log'"
INI
ok "--experiment with helpers" "$P" compare --runs 5 --warmup 1 --experiment "$TMP/exp.ini"
is "helper counts" "$(sort "$TMP/log" | uniq -c | awk '{print $2 "=" $1}' | tr '\n' ' ')" "cleanup=6 prepare=6 setup=1 teardown=1 "

# Ctrl-C: the running command stops, teardown still runs, the tmpfs directory goes; the
# report of the completed rounds (none here: the warm-up round was cut short) is written
cat >"$TMP/int.ini" <<INI
[base]
command = /bin/true
[slow]
command = /bin/sh -c "pwd >'$TMP/int.pwd'; exec sleep 30"
cwd = tmpfs
setup = /bin/sh -c "echo setup >>'$TMP/int.log'"
teardown = /bin/sh -c "echo teardown >>'$TMP/int.log'"
INI
"$P" compare --runs 5 --experiment "$TMP/int.ini" >"$TMP/int.out" 2>"$TMP/int.err" &
pid=$!
for _ in $(seq 1200); do [ -s "$TMP/int.pwd" ] && break; sleep 0.05; done
kill -INT $pid
wait $pid
is "SIGINT: exit 130" "$?" 130
is "SIGINT: teardown ran" "$(cat "$TMP/int.log" | tr '\n' ' ')" "setup teardown "
if [ -s "$TMP/int.pwd" ] && [ ! -e "$(cat "$TMP/int.pwd")" ]; then _report ok "SIGINT: tmpfs directory removed"; else _report fail "SIGINT: tmpfs directory removed"; fi

# Ctrl-C after some rounds: the completed rounds are kept, their statistics written and
# marked interrupted; the round cut short is dropped; exit 130
cat >"$TMP/int2.ini" <<INI
[counted]
command = /bin/sh -c "echo x >>'$TMP/int2.cnt'; exec sleep 0.05"
[plain]
command = /bin/sleep 0.05
INI
"$P" compare --json -o "$TMP/int2.json" --runs 500 --warmup 0 --experiment "$TMP/int2.ini" \
	>"$TMP/int2.out" 2>"$TMP/int2.err" &
pid=$!
for _ in $(seq 1200); do [ "$(cat "$TMP/int2.cnt" 2>/dev/null | wc -l)" -ge 6 ] && break; sleep 0.05; done
kill -INT $pid
wait $pid
is "SIGINT mid-run: exit 130" "$?" 130
validate compare.schema.json "$TMP/int2.json"
is "SIGINT mid-run: marked interrupted" "$(jqv "$TMP/int2.json" '"\(.interrupted) \(.stop_reason)"')" "true interrupted"
M2=$(jqv "$TMP/int2.json" .rounds_measured)
ok "SIGINT mid-run: the completed rounds kept (5 <= $M2 < 500)" test "$M2" -ge 5 -a "$M2" -lt 500
is "SIGINT mid-run: every kept run belongs to a completed round" \
	"$(jqv "$TMP/int2.json" '"\(.runs | length) \(.round_order | length)"')" "$((2 * M2)) $M2"
is "SIGINT mid-run: statistics over the completed rounds" \
	"$(jqv "$TMP/int2.json" '[.statistics[0].variants[].n] | map(tostring) | join(",")')" "$M2,$M2"
like "SIGINT mid-run: the warning says how many rounds" "$(cat "$TMP/int2.err")" "interrupted by signal 2 after $M2 of 500 rounds"
: >"$TMP/int2.cnt"
"$P" compare --runs 500 --warmup 0 --experiment "$TMP/int2.ini" >"$TMP/int3.out" 2>"$TMP/int3.err" &
pid=$!
for _ in $(seq 1200); do [ "$(wc -l <"$TMP/int2.cnt")" -ge 6 ] && break; sleep 0.05; done
kill -INT $pid
wait $pid
is "SIGINT mid-run, text: exit 130" "$?" 130
like "SIGINT mid-run, text: interrupted after N of M rounds" "$(cat "$TMP/int3.out")" '^interrupted after [0-9]+ of 500 rounds'
like "SIGINT mid-run, text: the statistics are there" "$(cat "$TMP/int3.out")" '^wall +median'

# parameter scan: cartesian product
ok "--param expansion" "$P" compare --json --runs 1 --warmup 0 --param n=1,2 --param m=a,b \
	-n base -- /bin/true -n 'v{n}{m}' -- /bin/echo {n} {m}
is "4 expanded variants + base" "$(jqv "$OUT" '[.variants[].name] | join(",")')" "base,v1a,v1b,v2a,v2b"
is "expanded argv" "$(jqv "$OUT" '.variants[4].argv | join(" ")')" "/bin/echo 2 b"

# adaptive: stops on precision or at --max-runs, never before 5 rounds
ok "--precision" "$P" compare --json --precision 50% --max-runs 12 "${SCORE[@]}" \
	-n a -- /bin/echo score: 1 -n b -- /bin/echo score: 1
is "precision reached at the minimum of 5 rounds" "$(jqv "$OUT" '"\(.stop_reason) \(.rounds_measured)"')" "precision 5"

# failures: exit 3 with the status; --ignore-failure keeps going
expect_exit 3 "failing command stops the experiment" "$P" compare --runs 3 -n a -- /bin/true -n b -- /bin/false
like "failure names variant and status" "$(cat "$ERR")" "variant 'b' \(round [0-9]+\): command exited with status 1"
expect_exit 0 "--ignore-failure" "$P" compare --runs 3 --ignore-failure -n a -- /bin/true -n b -- /bin/false
like "failed runs noted" "$(cat "$OUT")" 'runs exited non-zero'

# bad input: exit 2, one clear line, nothing run
expect_exit 2 "fewer than 2 variants" "$P" compare --runs 3 -n a -- /bin/true
like "fewer than 2 variants says so" "$(cat "$ERR")" 'need at least 2 variants'
expect_exit 2 "command not found" "$P" compare --runs 3 -n a -- /usr/bin/touch "$TMP/ran" -n b -- perflab-no-such-cmd
like "command not found names it" "$(cat "$ERR")" "command 'perflab-no-such-cmd' not found"
if [ ! -e "$TMP/ran" ]; then _report ok "error before any run"; else _report fail "error before any run"; fi
head -c 4096 /dev/urandom | tr -d '\n' | sed 's/^/\x01/' >"$TMP/garbage.bin"
expect_exit 2 "--experiment with binary data" "$P" compare --experiment "$TMP/garbage.bin"
like "binary data: names the file and the expected format" "$(cat "$ERR")" \
	"'$TMP/garbage.bin' is not an experiment file \(binary data\): expected an INI file with one \[NAME\] section per variant"
is "binary data: one line" "$(wc -l <"$ERR")" 1
printf '{"variants": []}\n' >"$TMP/exp.json"
expect_exit 2 "--experiment with a JSON document" "$P" compare --experiment "$TMP/exp.json"
like "JSON: names the file and the problem" "$(cat "$ERR")" "'$TMP/exp.json' is not an experiment file \(a JSON document\)"
printf '[a]\ncommand = /bin/true\n[b]\ncommand = /bin/true\nenv_FOO = 1\n' >"$TMP/bad.ini"
expect_exit 2 "unknown variant key" "$P" compare --experiment "$TMP/bad.ini"
like "unknown key: file, line, key, known keys" "$(cat "$ERR")" "bad.ini:5: unknown variant key 'env_FOO' \(known: command, env.NAME"
expect_exit 2 "unknown --set key" "$P" compare -n a -- /bin/true -n b --set nice=5 -- /bin/true
expect_exit 2 "metric regex never matches" "$P" compare --runs 3 --metric 'ops=ops/s: ([0-9]+)' \
	-n a -- /bin/echo hello world -n b -- /bin/echo hello world
like "metric error quotes a line of output" "$(cat "$ERR")" "matches no line of the output of variant '[ab]' .*starts with 'hello world'"
expect_exit 2 "--runs with --precision" "$P" compare --runs 3 --precision 1% -n a -- /bin/true -n b -- /bin/true
expect_exit 2 "bad threshold" "$P" compare --threshold abc -n a -- /bin/true -n b -- /bin/true
expect_exit 2 "regex without a group" "$P" compare --metric 'x=[0-9]+' -n a -- /bin/true -n b -- /bin/true
# positional command strings (hyperfine's habit): named by their text, split into words
# without a shell; mixed with -n NAME -- CMD and -n NAME 'CMD' in command-line order
ok "positional command strings" "$P" compare --json --runs 5 --warmup 0 --seed 3 "${SCORE[@]}" \
	'/bin/echo score: 10' "/bin/echo 'score: 11'"
is "named by their text" "$(jqv "$OUT" '[.variants[].name] | join(";")')" "/bin/echo score: 10;/bin/echo 'score: 11'"
is "split into words, quotes removed, no shell" "$(jqv "$OUT" '.variants[1].argv | @json')" '["/bin/echo","score: 11"]'
is "the parsed metric differs" "$(jqv "$OUT" '.statistics[] | select(.metric=="score") | [.variants[].median] | @csv')" "10,11"
ok "positional, -n NAME 'CMD' and -n NAME -- CMD in order" "$P" compare --json --runs 1 --warmup 0 \
	/bin/true -n named '/bin/echo x' -n last -- /bin/echo y
is "order of the command line" "$(jqv "$OUT" '[.variants[] | "\(.name)=\(.argv | join(" "))"] | join(";")')" \
	"/bin/true=/bin/true;named=/bin/echo x;last=/bin/echo y"
ok "the same string twice (A/A)" "$P" compare --json --runs 1 --warmup 0 /bin/true /bin/true
is "a repeat gets #2" "$(jqv "$OUT" '[.variants[].name] | join(";")')" "/bin/true;/bin/true #2"
expect_exit 2 "shell syntax without --shell" "$P" compare --runs 1 "/usr/bin/touch $TMP/ran-sh" '/bin/echo a | /bin/cat'
like "shell syntax: names the character and --shell" "$(cat "$ERR")" "command '/bin/echo a \| /bin/cat' uses shell syntax \('\|'\).*add --shell"
if [ ! -e "$TMP/ran-sh" ]; then _report ok "shell syntax: refused before any run"; else _report fail "shell syntax: refused before any run"; fi
printf '[a]\ncommand = /bin/echo a > x\n[b]\ncommand = /bin/true\n' >"$TMP/redir.ini"
expect_exit 2 "an INI command with a redirection" "$P" compare --experiment "$TMP/redir.ini"
like "INI redirection refused" "$(cat "$ERR")" "uses shell syntax \('>'\)"
ok "quoted metacharacters are plain words" "$P" compare --json --runs 1 --warmup 0 "/bin/echo 'a|b' \\*" /bin/true
is "quoted words" "$(jqv "$OUT" '.variants[0].argv | @json')" '["/bin/echo","a|b","*"]'
ok "--shell runs strings with /bin/sh -c" "$P" compare --json --shell --runs 1 --warmup 0 \
	"/bin/echo a | /bin/grep -q a && /usr/bin/touch $TMP/ran-shell" /bin/true
is "--shell argv" "$(jqv "$OUT" '.variants[0].argv[0:2] | @json')" '["/bin/sh","-c"]'
if [ -e "$TMP/ran-shell" ]; then _report ok "--shell: the pipe ran"; else _report fail "--shell: the pipe ran"; fi

# a metric whose baseline is ~0 (0 in 9 of 10 runs, 4 once): no relative CI and no run
# estimate, a difference instead; report's Markdown and HTML show the terminal's units
cnt=$TMP/count
ok "near-zero baseline" "$P" compare --json -o "$TMP/nz.json" --shell --runs 10 --warmup 0 --seed 5 \
	--metric 'x=x=([0-9.]+)' -n base -- "n=\$(cat $cnt 2>/dev/null || echo 0); echo \$((n + 1)) >$cnt; \
	if [ \$((n % 10)) = 9 ]; then echo x=4; else echo x=0; fi" -n zero -- 'echo x=0'
validate compare.schema.json "$TMP/nz.json"
NZ='.statistics[] | select(.metric=="x") | .variants[1]'
is "near zero: flagged" "$(jqv "$TMP/nz.json" "$NZ.vs_baseline.baseline_near_zero")" true
is "near zero: no ratio, CI or run estimate" \
	"$(jqv "$TMP/nz.json" "$NZ.vs_baseline | [.ratio, .ci[0], .ci[1], .runs_needed] | @json")" "[null,null,null,null]"
is "near zero: the difference of the means" "$(jqv "$TMP/nz.json" "$NZ.vs_baseline.difference.estimate")" -0.4
like "near zero: the verdict says why" "$(jqv "$TMP/nz.json" "$NZ.verdict_text")" \
	'^no difference detected; the baseline is ~0 \(mean 0.4, within its own CI of zero\), so no relative CI or run estimate: difference -0.4 \(95% CI -1.305 to \+0.5049'
is "near zero: not 'runs needed'" "$(jqv "$TMP/nz.json" "$NZ.verdict_text" | grep -c 'runs per variant')" 0
ok "wall time keeps its ratio" test "$(jqv "$TMP/nz.json" '.statistics[0].variants[1].vs_baseline | "\(.baseline_near_zero) \(.ratio > 0)"')" = "false true"
thp_file=/sys/kernel/mm/transparent_hugepage/enabled
if [ -r "$thp_file" ]; then
	is "environment: THP as sysfs shows it" "$(jqv "$TMP/nz.json" .environment.thp)" "$(sed -n 's/.*\[\([a-z]*\)\].*/\1/p' "$thp_file")"
else
	is "environment: THP null without sysfs" "$(jqv "$TMP/nz.json" .environment.thp)" null
fi
is "environment: no settings, no originals" "$(jqv "$TMP/nz.json" '.original_settings | length')" 0
ok "report --from a compare document" "$P" report --no-bench --from "$TMP/nz.json" -o "$TMP/rep"
md_x=$(grep -E '^\| x \|' "$TMP/rep/report.md")
like "report.md: the ~0 baseline as a difference" "$md_x" '; diff -0.4 \\\[-1.305, \+0.5049\]'
like "report.md: wall time in the terminal's units" "$(grep -E '^\| wall \|' "$TMP/rep/report.md")" '^\| wall \| [0-9.]+ (ns|us|ms) \\\[[0-9.]+ (ns|us|ms), [0-9.]+ (ns|us|ms)\] n=10 \|.* [-+][0-9]+\.[0-9]{2}% \\\['
like "report.md: max_rss in bytes" "$(grep -E '^\| max_rss \|' "$TMP/rep/report.md")" '^\| max_rss \| [0-9.]+ (KiB|MiB) '
like "report.html: the terminal's units" "$(grep -o '<td class="cmp"><span class="num">[^<]*' "$TMP/rep/report.html" | head -1)" '[0-9.]+ (ns|us|ms) \['
like "report.md: the compare's environment" "$(sed -n '/^## Comparisons/,/^## /p' "$TMP/rep/report.md")" '^- environment: kernel .*; during the run: load'
like "report.html: the compare's environment" "$(cat "$TMP/rep/report.html")" '<p class="env">environment: kernel [^<]*during the run'
like "report.html: the ~0 baseline as a difference" "$(cat "$TMP/rep/report.html")" 'diff -0.4 \[-1.305, \+0.5049\]'
"$P" compare --shell --runs 10 --warmup 0 --seed 5 --metric 'x=x=([0-9.]+)' -n base -- "n=\$(cat $cnt); echo \$((n + 1)) >$cnt; \
	if [ \$((n % 10)) = 9 ]; then echo x=4; else echo x=0; fi" -n zero -- 'echo x=0' >"$OUT" 2>"$ERR"
like "table: the ~0 baseline as a difference" "$(grep -A2 '^x ' "$OUT")" 'vs base  -  +diff -0.4 \[-1.305, \+0.5049\]'

# long labels: every column as wide as its content, at least two spaces between columns;
# a label over 40 characters is cut with "..." and given in full under the table
L1="/bin/echo score: 10 aaaaaaaaaaa"
L2="/bin/echo score: 11 bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
ok "long labels" "$P" compare --runs 3 --warmup 0 "${SCORE[@]}" "$L1" "$L2"
HDR=$(sed -n 4p "$OUT")
like "header: two spaces between the labels" "$HDR" "^ +$L1 \(base\)  +/bin/echo score: 11 b+\.\.\.\$"
like "legend: the cut label in full" "$(cat "$OUT")" "  /bin/echo score: 11 b+\.\.\.: $L2"
# each row's cells start where the header's labels start
COL2=$(printf '%s\n' "$HDR" | awk -v l="/bin/echo score: 11" '{ print index($0, l) }')
is "rows: the second column starts under its label" \
	"$(sed -n '5,20p' "$OUT" | grep -E '^(wall|score) +median' | awk -v c="$COL2" '{ print (substr($0, c - 2, 2) == "  " && substr($0, c, 1) != " ") }' | sort -u)" 1

# a time cannot fall by more than 100%: a document whose sys ratio CI went below 0 (the
# additive Welch CI of older versions) is rendered as the difference in seconds
jq '(.statistics[] | select(.metric == "sys") | .variants[1].vs_baseline) |= (.method = "welch-relative-to-baseline-mean" | .baseline_near_zero = false | .ratio = 3.9731 | .ci = [-4.3816, 12.3278] | .difference = {"estimate": 0.0123, "ci": [-0.0171, 0.0417]})' \
	"$TMP/nz.json" >"$TMP/neg.json"
ok "report --from a document with an impossible ratio CI" "$P" report --no-bench --from "$TMP/neg.json" -o "$TMP/rep2"
md_sys=$(grep -E '^\| sys \|' "$TMP/rep2/report.md")
like "report.md: the difference instead" "$md_sys" 'diff \+12\.3 ms \\\[-17\.1 ms, \+41\.7 ms\]'
is "report.md: no bound below -100%" "$(printf '%s' "$md_sys" | grep -c -- '-438')" 0

# --show-output: the commands keep stdout; perflab's report goes to stderr (or -o FILE),
# so stdout can be redirected without losing the report and --json -o FILE stays valid
"$P" compare --show-output --json --runs 5 --warmup 0 "${SCORE[@]}" '/bin/echo score: 1' '/bin/echo score: 2' \
	>"$TMP/so.out" 2>"$TMP/so.err"
is "--show-output: exit 0" "$?" 0
is "--show-output: stdout is the commands' output" "$(sort "$TMP/so.out" | uniq -c | awk '{print $1 "x" $3}' | tr '\n' ' ')" "5x1 5x2 "
is "--show-output: the JSON report is on stderr" "$(grep -v '^perflab compare: note:' "$TMP/so.err" | jq -r .tool)" "perflab compare"
is "--show-output --json: one note says where the JSON went" "$(grep -c '^perflab compare: note: the JSON goes to stderr: stdout is left to the commands (--show-output)' "$TMP/so.err")" 1
"$P" compare --show-output --runs 5 --warmup 0 /bin/pwd /bin/pwd >/dev/null 2>"$TMP/so2.err"
like "--show-output, stdout to /dev/null: the table is still there" "$(cat "$TMP/so2.err")" '^perflab compare: 2 variants'
"$P" compare --show-output --json -o "$TMP/so.json" --runs 5 --warmup 0 /bin/pwd '/bin/echo {not-json' \
	>"$TMP/so3.out" 2>"$TMP/so3.err"
is "--show-output --json -o FILE: exit 0" "$?" 0
validate compare.schema.json "$TMP/so.json"
is "--show-output -o FILE: nothing but the commands' output on stdout" "$(grep -vc -e '^/' -e '^{not-json$' "$TMP/so3.out")" 0
is "--show-output -o FILE: no report on stderr" "$(wc -c <"$TMP/so3.err")" 0
ok "--help" "$P" compare --help
like "--help documents variants" "$(cat "$OUT")" '-n, --name NAME'
# an output that cannot be written is refused before the first run (the commands would
# take 100 x 0.2 s), with the option to change
for a in "-o $TMP" "-o /nonexistent/dir/c.json" "--export-csv /nonexistent/dir/c.csv" \
	"--export-markdown $TMP"; do
	start=$SECONDS
	expect_exit 2 "$a: refused" "$P" compare $a --runs 100 --warmup 0 'sleep 0.2' 'sleep 0.2'
	is "$a: one line" "$(wc -l <"$ERR")" 1
	like "$a: names the file, the reason and the fix" "$(cat "$ERR")" \
		"^perflab compare: error: cannot write '${a#* }': (Is a directory|No such file or directory) \\(choose another ${a% *} FILE\\)$"
	like "$a: before any run" "$((SECONDS - start))" '^[0-4]$'
done
# "--" where a variant's name or a --set value belongs is not taken as one
expect_exit 2 "-n --: refused" "$P" compare --runs 3 -n -- /bin/true -n b -- /bin/true
is "-n --: one line naming the option and the fix" "$(cat "$ERR")" \
	"perflab: error: -n needs a variant name before -- (give -n NAME -- CMD...)"
expect_exit 2 "--set --: refused" "$P" compare --runs 3 -n a --set -- /bin/true -n b -- /bin/true
like "--set --: names the option" "$(cat "$ERR")" "--set needs KEY=VALUE before --"
done_testing
