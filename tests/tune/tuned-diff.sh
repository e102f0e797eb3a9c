#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The tuned differential test: every profile of tests/tune/corpus and every stock profile
# of Debian's tuned package, loaded and merged by tuned's own modules and by perflab on the
# fixture tree tests/fixtures/tune/compat, compared unit by unit and option by option
# (tests/tune/tuned_diff.py); the deliberate differences are in tests/tune/tuned-known.txt.
# Needs Debian's /usr/bin/python3 with the tuned package (TEST_PKGS), else skipped.
set -u
: "${PERFLAB:?run through meson test}"
: "${PERFLAB_SRCDIR:?}"
if ! /usr/bin/python3 -c 'import tuned.profiles.loader' 2>/dev/null; then
	echo "ok 1 - tuned differential test # SKIP Debian's tuned package (python3 module tuned) is not installed"
	echo "1..1"
	exit 0
fi
exec /usr/bin/python3 "$PERFLAB_SRCDIR/tests/tune/tuned_diff.py" "$PERFLAB" \
	"$PERFLAB_SRCDIR/tests/tune/corpus" "$PERFLAB_SRCDIR/tests/fixtures/tune/compat" \
	"$PERFLAB_SRCDIR/tests/tune/tuned-known.txt"
