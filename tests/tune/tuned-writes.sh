#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The tuned write comparison: for every profile of tests/tune/corpus and every stock
# profile of Debian's tuned package with a sysctl, sysfs, vm, cpu or disk unit, what
# `perflab tune apply` writes on one copy of the fixture tree (tests/fixtures/tune/compat
# with tests/fixtures/tune/writes over it) against what tuned 2.20's own plugins write on
# another, file by file (tests/tune/tuned_writes.py); the deliberate differences are the
# "writes:" lines of tests/tune/tuned-known.txt.
# Needs Debian's /usr/bin/python3 with the tuned package (TEST_PKGS), else skipped.
set -u
: "${PERFLAB:?run through meson test}"
: "${PERFLAB_SRCDIR:?}"
if ! why=$(/usr/bin/python3 -c 'import tuned.units.manager, tuned.plugins.plugin_disk' 2>&1); then
	echo "# skipped: Debian's tuned package (python3 module tuned) cannot be imported: ${why##*$'\n'}"
	echo "ok 1 - tuned write comparison # SKIP tuned's Python modules are missing"
	echo "1..1"
	exit 0
fi
exec /usr/bin/python3 "$PERFLAB_SRCDIR/tests/tune/tuned_writes.py" "$PERFLAB" \
	"$PERFLAB_SRCDIR/tests/tune/corpus" "$PERFLAB_SRCDIR/tests/fixtures/tune/compat" \
	"$PERFLAB_SRCDIR/tests/fixtures/tune/writes" "$PERFLAB_SRCDIR/tests/tune/tuned-known.txt"
