#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every JSON string is made by pl_json_string() (src/util/json.c), which keeps bytes that
# are not UTF-8 as \xNN: jansson's json_string() returns NULL for them and the member
# silently vanishes. Also end to end: a compare variant name and a device directory name.
. "$PERFLAB_SRCDIR/tests/lib.sh"
cd "$PERFLAB_SRCDIR" || exit 1
hits=$(grep -rnE '(^|[^_[:alnum:]])json_string(n|n_nocheck|_nocheck)?\(' src --include='*.c' --include='*.h' |
	grep -v '^src/util/json\.[ch]:')
is "json_string() is called only in src/util/json.c (use pl_json_string; sed -i -E 's/(^|[^_a-z])json_string\\(/\\1pl_json_string(/g' FILE)" "$hits" ""
# end to end: names from the command line and from a machine tree keep their bytes
"$PERFLAB" compare --json --runs 1 --warmup 0 -n $'a\xff' -- /bin/true -n $'b\x1b' -- /bin/true \
	>"$TMP/c.json" 2>"$ERR"
is "compare: variant names not UTF-8 or with control characters kept, escaped" \
	"$(jq -c '[.variants[].name]' "$TMP/c.json" 2>&1)" '["a\\xff","b\u001b"]'
R=$TMP/root
mkdir -p "$R/sys/block/$(printf 'sd\xfe')/queue"
printf 'mq-deadline [none]\n' >"$R/sys/block/$(printf 'sd\xfe')/queue/scheduler"
mkdir -p "$R/proc" && printf 'Linux version 6.1.0\n' >"$R/proc/version"
"$PERFLAB" inspect --json --sysroot "$R" >"$TMP/i.json" 2>"$ERR"
is "inspect: a device name not UTF-8 keeps its facts, the name escaped" \
	"$(jq -r '.facts["block.sd\\xfe.queue.scheduler"].value' "$TMP/i.json" 2>&1)" none
done_testing
