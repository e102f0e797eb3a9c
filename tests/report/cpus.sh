#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab report -C/--cpus LIST: the workload's CPUs for the check (workload.cpus, as
# check -C: the GPU/NIC NUMA rules on the gpu-node fixture) and --cpus LIST for every
# benchmark (the plan, and a live --quick report: each result ran on those CPUs).
. "$PERFLAB_SRCDIR/tests/lib.sh"
S=$PERFLAB_SRCDIR/tests/fixtures/sysroots

# the check: on gpu-node the GPU is on node 1 (CPUs 4-7,12-15)
ok "report -C 0,2 on gpu-node" "$PERFLAB" report --sysroot "$S/gpu-node" --no-bench -C 0,2 -o "$TMP/gn"
R=$TMP/gn/report.json
validate report.schema.json "$R"
is "-C on the other node: the remote-GPU finding names the CPUs and where they came from" \
	"$(jq -r '[.check.findings[] | select(.id == "pcie.gpu-remote-numa")][0].observed' "$R")" \
	"0000:af:00.0 on NUMA node 1 (CPUs 4-7,12-15); the workload's CPUs (workload.cpus) are 0,2"
is "run.cpus recorded" "$(jq -r .run.cpus "$R")" "0,2"
is "workload.cpus fact from --cpus" "$(jq -r '.facts["workload.cpus"] | "\(.value) \(.source)"' "$R")" "0,2 --cpus"
ok "report --cpus 4-5 on gpu-node" "$PERFLAB" report --sysroot "$S/gpu-node" --no-bench --cpus 4-5 \
	-o "$TMP/gl"
is "--cpus on the GPU's node: no remote-GPU finding" \
	"$(jq '[.check.findings[] | select(.id == "pcie.gpu-remote-numa")] | length' "$TMP/gl/report.json")" 0
ok "report without -C on gpu-node" "$PERFLAB" report --sysroot "$S/gpu-node" --no-bench -o "$TMP/gd"
is "without -C: the CPUs come from isolcpus=" \
	"$(jq -r '[.check.findings[] | select(.id == "pcie.gpu-remote-numa")][0].observed' "$TMP/gd/report.json")" \
	"0000:af:00.0 on NUMA node 1 (CPUs 4-7,12-15); the workload's CPUs (isolcpus) are 1-3"
is "without -C: no run.cpus" "$(jq -r '.run.cpus // "none"' "$TMP/gd/report.json")" none

# bad lists: exit 2, one line, nothing written
expect_exit 2 "report -C with a bad list" "$PERFLAB" report --no-bench -C 3-1 -o "$TMP/bad"
is "bad list: one line" "$(wc -l <"$ERR")" 1
like "bad list: names the option" "$(cat "$ERR")" "cpus"
is "bad list: no report written" "$(test -e "$TMP/bad" && echo exists || echo absent)" absent
online=$(cat /sys/devices/system/cpu/online)
last=$(echo "$online" | tr ',' '\n' | tail -1 | sed 's/.*-//')
off=$((last + 1))
expect_exit 2 "report -C with an offline CPU ($off; online $online)" "$PERFLAB" report --quick -C "$off" \
	-o "$TMP/off"
like "offline CPU: the shared --cpus check, before anything ran" "$(cat "$ERR")" \
	"--cpus '$off': CPU $off is not online \\(online CPUs: "
is "offline CPU: one line" "$(wc -l <"$ERR")" 1
is "offline CPU: no report written" "$(test -e "$TMP/off" && echo exists || echo absent)" absent

# the plan: every benchmark's arguments end with --cpus LIST, in every mode
for m in "" --quick --full; do
	# shellcheck disable=SC2086
	ok "report --dry-run $m -C 0 --json" "$PERFLAB" report --dry-run $m -C 0 --json
	is "plan ${m:-default}: every benchmark gets --cpus 0" \
		"$(jq -r '[.benchmarks[] | select(.args[-2:] != ["--cpus", "0"]) | .benchmark] | join(",")' "$OUT")" ""
done
ok "report --dry-run --quick (no -C)" "$PERFLAB" report --dry-run --quick --json
is "plan without -C: no --cpus" "$(jq '[.benchmarks[].args[] | select(. == "--cpus")] | length' "$OUT")" 0

# live: a quick report on CPU 0; every benchmark that ran, ran there
ok "report --quick -C 0" "$PERFLAB" report --quick -C 0 -o "$TMP/q"
Q=$TMP/q/report.json
validate report.schema.json "$Q"
n=$(jq '[.benchmarks[] | select(.status == "ok")] | length' "$Q")
like "quick -C 0: benchmarks ran" "$n" '^[1-9][0-9]*$'
is "quick -C 0: each ran on CPU 0, pinned" \
	"$(jq -r '[.benchmarks[] | select(.status == "ok") | select(.runner.cpus != "0" or .runner.pinned != true) | .benchmark] | join(",")' "$Q")" ""
is "quick -C 0: each records --cpus 0 in its arguments" \
	"$(jq -r '[.benchmarks[] | select(.status == "ok") | select((.runner.args | index("--cpus")) == null) | .benchmark] | join(",")' "$Q")" ""
mem=$(jq -r '[.benchmarks[] | select(.benchmark == "mem" and .status == "ok")][0].info.threads // empty' "$Q")
if [ -n "$mem" ]; then
	is "quick -C 0: mem ran one thread" "$mem" 1
else
	skip "quick -C 0: mem ran one thread" "bench mem did not run"
fi
done_testing
