#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every JSON string is made by pl_json_string() (src/out/json.c), which keeps bytes that
# are not UTF-8 as \xNN: jansson's json_string() returns NULL for them and the member
# silently vanishes.
. "$PERFLAB_SRCDIR/tests/lib.sh"
cd "$PERFLAB_SRCDIR" || exit 1
hits=$(grep -rnE '(^|[^_[:alnum:]])json_string(n|n_nocheck|_nocheck)?\(' src --include='*.c' --include='*.h' |
	grep -v '^src/out/json\.[ch]:')
is "json_string() is called only in src/out/json.c (use pl_json_string; sed -i -E 's/(^|[^_a-z])json_string\\(/\\1pl_json_string(/g' FILE)" "$hits" ""
done_testing
