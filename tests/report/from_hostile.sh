#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# report --from with hostile documents (tests/report/fixtures/hostile, written by make.py
# there): truncated JSON, wrong types at each level, nulls, absurd sizes (a timeline of
# 2^62 buckets times 4 threads), counts that add up past 2^64, empty and 70000-deep
# stacks. Each must exit 2 with one line naming the file and the JSON path, write no
# report, and leave an earlier report untouched; under the ASan build a crash or a
# sanitizer report fails the case. The valid fixtures still load and render.
. "$PERFLAB_SRCDIR/tests/lib.sh"
H=$PERFLAB_SRCDIR/tests/report/fixtures/hostile
FX=$PERFLAB_SRCDIR/tests/report/fixtures
SYS=$PERFLAB_SRCDIR/tests/fixtures/sysroots/xen-hvm
export PERFLAB_TIMESTAMP=1780000000

# an earlier report in the directory every case writes to
R=$TMP/r
(cd "$FX" && "$PERFLAB" report --no-bench -o "$R" --sysroot "$SYS" --from bench-clock.json \
	--from profile-burn.json) >/dev/null 2>&1
before=$(cd "$R" && sha256sum report.json report.md report.html)

n=0
while IFS=$'\t' read -r file want; do
	case "$file" in '#'* | '') continue ;; esac
	n=$((n + 1))
	# the valid fixtures first, so a case fails on its own document
	(cd "$H" && "$PERFLAB" report --no-bench -o "$R" --sysroot "$SYS" \
		--from ../bench-clock.json --from "$file") >"$OUT" 2>"$ERR"
	rc=$?
	msg=$(cat "$ERR")
	if [ "$rc" -eq 2 ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
		printf '%s' "$msg" | grep -Eq -- "^perflab report: error: --from: ($file: )?$want"; then
		_report ok "$file: exit 2, ${msg#perflab report: error: --from: }"
	else
		_report fail "$file: exit 2 with the file and the JSON path" \
			"exit $rc; stderr: $(head -c 1500 "$ERR")
want: $file: $want"
	fi
done <"$H/cases.txt"
is "every case in cases.txt was run" "$([ "$n" -ge 40 ] && echo yes)" yes
is "earlier report untouched by every bad input" \
	"$(cd "$R" && sha256sum report.json report.md report.html)" "$before"
is "no temporary files left" "$(ls -A "$R" | grep -vc '^report\.\(json\|md\|html\)$')" 0

mkdir "$TMP/adir"
expect_exit 2 "a directory as --from" "$PERFLAB" report --no-bench -o "$R" --sysroot "$SYS" --from "$TMP/adir"
like "a directory without reports: named, says why" "$(cat "$ERR")" "directory '$TMP/adir' holds 0 report document\(s\); a cluster report needs 2"

# The valid fixtures load, and an earlier report given back renders the same sections.
ok "valid fixtures load" sh -c "cd '$FX' && '$PERFLAB' report --no-bench -o '$TMP/v' --sysroot '$SYS' \
	--from bench-clock.json --from compare-sleep.json --from profile-burn.json \
	--from tune-diff-cloud.json --from check-2.json"
ok "an earlier report loads" "$PERFLAB" report --no-bench -o "$TMP/w" --sysroot "$SYS" \
	--from "$TMP/v/report.json"
is "its sections come back" "$(jq -c '[.benchmarks,.comparisons,.profiles,.tune]|map(length)' "$TMP/w/report.json")" "[1,1,1,1]"
# the same but for where each result came from: the file this report read it from
is "same Markdown sections" "$(sed -n '/^## Benchmarks/,/^## Facts/p' "$TMP/w/report.md" | sed 's/ Source: saved result [^ ]*/ Source: X/')" \
	"$(sed -n '/^## Benchmarks/,/^## Facts/p' "$TMP/v/report.md" | sed 's/ Source: saved result [^ ]*/ Source: X/')"
like "the earlier report is the source" "$(cat "$TMP/w/report.md")" "Source: saved result $TMP/v/report\\.json \\(generated "
"$PERFLAB" inspect --sysroot "$SYS" --json -o "$TMP/facts.json"
ok "an inspect document loads" "$PERFLAB" report --no-bench -o "$TMP/x" --sysroot "$SYS" \
	--from "$TMP/facts.json"
"$PERFLAB" check --sysroot "$SYS" --json -o "$TMP/check.json"
ok "a check document loads" "$PERFLAB" report --no-bench -o "$TMP/y" --sysroot "$SYS" \
	--from "$TMP/check.json"
done_testing
