#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perflab report: report.json keys and schema, report.md
# sections, PERFLAB_TIMESTAMP, and "nothing lost": an unwritable -o directory exits 2 and
# leaves an earlier report untouched.
. "$PERFLAB_SRCDIR/tests/lib.sh"

# A Xen guest sysroot with one finding (clock.xen-tsc).
X=$TMP/xen
mkdir -p "$X/sys/devices/system/clocksource/clocksource0" "$X/proc/sys/kernel"
echo xen >"$X/sys/devices/system/clocksource/clocksource0/current_clocksource"
echo "xen tsc hpet" >"$X/sys/devices/system/clocksource/clocksource0/available_clocksource"
echo "6.1.0-xen" >"$X/proc/sys/kernel/osrelease"
echo "BOOT_IMAGE=/vmlinuz ro" >"$X/proc/cmdline"

R=$TMP/r
export PERFLAB_TIMESTAMP=1700000000
ok "report over a sysroot" "$PERFLAB" report --sysroot "$X" -o "$R"
like "summary names the findings" "$(cat "$OUT")" '\[warn\] clocksource is xen'
like "summary says where the files are" "$(cat "$OUT")" "report written to $R/report\."
ok "report.json written" test -s "$R/report.json"
ok "report.md written" test -s "$R/report.md"
J=$R/report.json
is "report.json top-level keys" \
	"$(jqv "$J" '[keys[]|select(.=="schema_version" or .=="generated" or .=="perflab_version" or .=="machine" or .=="facts" or .=="check")]|sort|join(",")')" \
	"check,facts,generated,machine,perflab_version,schema_version"
validate report.schema.json "$J"
jq '.check' "$J" >"$TMP/check.json"
validate check.schema.json "$TMP/check.json"
jq '{schema_version: 1, facts: .facts}' "$J" >"$TMP/facts.json"
validate inspect.schema.json "$TMP/facts.json"
is "PERFLAB_TIMESTAMP honoured" "$(jqv "$J" .generated)" "2023-11-14T22:13:20Z"
is "version recorded" "$(jqv "$J" .perflab_version)" "$("$PERFLAB" --version | head -1 | cut -d' ' -f2)"
is "machine: kernel from the sysroot" "$(jqv "$J" .machine.kernel)" "6.1.0-xen"
is "machine: clocksource from the sysroot" "$(jqv "$J" .machine.clocksource)" xen
is "check: workload" "$(jqv "$J" .check.workload)" general
is "check: the finding" "$(jqv "$J" '[.check.findings[].id]|join(",")')" clock.xen-tsc
is "facts: clocksource with its source path" "$(jqv "$J" '.facts["clocksource.current"].source')" \
	/sys/devices/system/clocksource/clocksource0/current_clocksource

M=$(cat "$R/report.md")
like "md: title" "$M" '^# perflab report'
like "md: generated line" "$M" 'Generated 2023-11-14T22:13:20Z by perflab'
like "md: key numbers first" "$(sed -n 5p "$R/report.md")" '^## Key numbers$'
like "md: machine line in the key numbers" "$M" '\| \[machine\]\(#facts\) \| .*Linux 6\.1\.0-xen, clocksource xen \|'
like "md: findings by severity in the key numbers" "$M" '\| \[findings\]\(#findings-workload-general\) \| 0 crit, 1 warn, 0 info \| workload general \|'
like "md: a figure not measured says so" "$M" '\| time read \| not measured \(perflab bench clock\) \|'
is "json: key numbers in order" "$(jqv "$J" '[.key_numbers[].name]|join(",")')" \
	"machine,findings,time read,syscall,memory,io bandwidth,io IOPS,loopback RTT,compression"
is "json: no figure without benchmarks" "$(jqv "$J" '[.key_numbers[]|select(.value!=null)]|length')" 0
like "md: findings section" "$M" '## Findings \(workload: general\)'
like "md: counts" "$M" '0 critical, 1 warnings, 0 info\.'
like "md: finding row" "$M" '\| warn \| clocksource is xen although an invariant TSC is available \(`clock\.xen-tsc`\) \|'
like "md: why section with the source" "$M" '### Why'
like "md: rationale and source" "$M" '\*\*clock\.xen-tsc\*\*: The xen pvclock .*Source: https://docs\.aws\.amazon\.com/'
like "md: facts section" "$M" '## Facts'
like "md: a fact row" "$M" '\| `clocksource\.current` \| xen \| /sys/devices/system/clocksource/clocksource0/current_clocksource \|'

PERFLAB_TIMESTAMP=1700000000 "$PERFLAB" report --sysroot "$X" -o "$TMP/r2" >/dev/null 2>&1
is "same input and timestamp: identical report.json" "$(cmp -s "$J" "$TMP/r2/report.json" && echo same)" same
ok "--workload recorded" "$PERFLAB" report --sysroot "$X" -o "$TMP/r3" --workload latency --json
is "--json prints report.json" "$(jq -r .check.workload "$OUT")" latency

# Unwritable destinations exit 2 with one line naming the directory.
touch "$TMP/afile"
expect_exit 2 "-o naming a file" "$PERFLAB" report --sysroot "$X" -o "$TMP/afile"
like "error names the path" "$(cat "$ERR")" "$TMP/afile"
is "one line on stderr" "$(wc -l <"$ERR")" 1
expect_exit 2 "-o under a file" "$PERFLAB" report --sysroot "$X" -o "$TMP/afile/sub"
like "error names the directory" "$(cat "$ERR")" "cannot create report directory '$TMP/afile/sub'"

# A --from file that is not there: one line naming it and the fix, exit 2, nothing written
expect_exit 2 "--from a missing file" "$PERFLAB" report -o "$TMP/r4" --from "$TMP/none.json"
is "--from missing: one line with the fix" "$(cat "$ERR")" \
	"perflab report: error: --from: cannot open '$TMP/none.json': No such file or directory (give a JSON document written by perflab --json or -o, a report.json, or a directory of them)"
ok "--from missing: nothing written" test ! -e "$TMP/r4"

# An earlier report in a directory that became unwritable stays as it was.
sum_before=$(cd "$R" && sha256sum report.json report.md)
if [ "$(id -u)" -ne 0 ]; then
	chmod 555 "$R"
	expect_exit 2 "unwritable report directory" "$PERFLAB" report --sysroot "$X" -o "$R"
	chmod 755 "$R"
	is "earlier report untouched" "$(cd "$R" && sha256sum report.json report.md)" "$sum_before"
elif unshare -m true 2>/dev/null; then
	# root ignores permissions: make the directory a read-only mount in a private namespace
	unshare -m sh -c "mount --bind '$R' '$R' && mount -o remount,bind,ro '$R' &&
		PERFLAB_TIMESTAMP=1800000000 '$PERFLAB' report --sysroot '$X' -o '$R' >'$OUT' 2>'$ERR'
		echo \$? >'$TMP/rc'"
	is "read-only report directory exits 2" "$(cat "$TMP/rc")" 2
	like "error names the directory" "$(cat "$ERR")" "cannot write the report into '$R'"
	is "earlier report untouched" "$(cd "$R" && sha256sum report.json report.md)" "$sum_before"
	is "no temporary files left" "$(ls -A "$R" | grep -cv '^report\.\(json\|md\|html\)$')" 0
else
	skip "unwritable report directory" "running as root without mount namespaces (unshare -m)"
fi
done_testing
