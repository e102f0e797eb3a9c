#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CLI dispatch, global options and exit codes.
. "$PERFLAB_SRCDIR/tests/lib.sh"

ok "--version" "$PERFLAB" --version
like "--version prints the version" "$(cat "$OUT")" '^perflab [0-9]+\.[0-9]+\.[0-9]+$'
ok "--help" "$PERFLAB" --help
like "--help lists commands" "$(cat "$OUT")" 'inspect.*collect'
expect_exit 2 "no command is a usage error" "$PERFLAB"
expect_exit 2 "unknown command" "$PERFLAB" frobnicate
like "unknown command names it" "$(cat "$ERR")" "unknown command 'frobnicate'"
expect_exit 2 "unknown option" "$PERFLAB" inspect --frobnicate
like "unknown option names it" "$(cat "$ERR")" "unknown option '--frobnicate'"
expect_exit 2 "out-of-range number" "$PERFLAB" bench spin --runs 0
is "range error: the program named once, whole numbers in full" "$(cat "$ERR")" \
	"perflab bench spin: error: --runs must be between 1 and 1000000, got 0"
ok "help inspect" "$PERFLAB" help inspect
like "help inspect shows usage" "$(cat "$OUT")" '^usage: perflab inspect'
ok "inspect --help" "$PERFLAB" inspect --help
like "per-command help lists global options" "$(cat "$OUT")" 'Global options'
expect_exit 2 "missing sysroot" "$PERFLAB" inspect --sysroot /nonexistent/dir
like "missing sysroot names it" "$(cat "$ERR")" "/nonexistent/dir"
expect_exit 2 "check: unknown workload" "$PERFLAB" check --workload gaming
like "unknown workload lists the choices" "$(cat "$ERR")" 'one of: general, latency'
expect_exit 2 "option value missing" "$PERFLAB" check --workload
expect_exit 2 "global option before the command is parsed" "$PERFLAB" --sysroot /nonexistent inspect
done_testing
