#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The synthetic fixture trees under tests/fixtures/sysroots/ are what
# tests/fixtures/make-sysroots.py writes: the generator runs into a temporary directory and
# every tree it writes must equal the committed one file for file (diff -r; symlinks
# compared by target). A difference means the generator changed without the trees being
# regenerated, or a tree was edited by hand: rerun
#     tests/fixtures/make-sysroots.py tests/fixtures/sysroots
# and commit the result. `this-vm` is captured, not generated, and is not compared.
. "$PERFLAB_SRCDIR/tests/lib.sh"
FIX=$PERFLAB_SRCDIR/tests/fixtures
if ! command -v python3 >/dev/null; then
	skip "make-sysroots.py writes the committed trees" "python3 not installed"
	done_testing
fi
ok "make-sysroots.py runs" python3 "$FIX/make-sysroots.py" "$TMP/gen"
trees=$(sed -n 's|^wrote .*/gen/\([^/]*\)$|\1|p' "$OUT")
like "make-sysroots.py wrote trees" "$trees" '^[a-z0-9-]+'
for t in $trees; do
	if d=$(LC_ALL=C diff -r --no-dereference "$TMP/gen/$t" "$FIX/sysroots/$t" 2>&1); then
		_report ok "$t: the committed tree is what make-sysroots.py writes"
	else
		_report fail "$t: the committed tree is what make-sysroots.py writes" \
			"$(printf '%s\n' "$d" | sed "s|$TMP/gen/|generated: |; s|$FIX/sysroots/|committed: |" |
				head -c 2000)
rerun tests/fixtures/make-sysroots.py tests/fixtures/sysroots and commit the trees"
	fi
done
done_testing
