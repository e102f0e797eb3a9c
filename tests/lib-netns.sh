# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced first, before tests/lib.sh, by a test that writes net.* sysctls:
#   . "$PERFLAB_SRCDIR/tests/lib-netns.sh" "NAME OF THE SKIP"
# re-executes the test (without arguments) in a fresh network namespace (unshare -n),
# where net.* sysctls are private, so the host is never touched; without root or without
# namespaces the test reports one `skipped` line named $1 with the reason and ends. Before
# lib.sh because lib.sh makes $TMP and an exec would leave it behind.
if [ -z "${PL_IN_NETNS:-}" ]; then
	why=
	if [ "$(id -u)" != 0 ]; then why="needs root to write sysctls"
	elif ! unshare -n true 2>/dev/null; then why="network namespaces not allowed here (unshare -n failed)"
	fi
	if [ -n "$why" ]; then
		. "$PERFLAB_SRCDIR/tests/lib.sh"
		skip "$1" "$why"
		done_testing
	fi
	PL_IN_NETNS=1 exec unshare -n "$BASH" "$0"
fi
