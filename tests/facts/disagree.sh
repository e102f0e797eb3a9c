#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The live facts test (tests/facts/live.sh) on a machine whose cache sysfs and cpuid
# disagree, as on an AMD EPYC KVM guest (sysfs and lscpu: 32 MiB L3; cpuid and getconf:
# the host's 384 MiB). In a private mount namespace the sysfs cache sizes of every CPU are
# replaced (bind mounts) while cpuid, and so getconf, still report the real ones:
#   1. sysfs smaller than cpuid: L2 halved, L3 an eighth;
#   2. no cache sysfs at all (an empty directory over each cpuN/cache): cpuid only.
# Needs root and unshare -m (skips with the reason otherwise); nothing outside the
# namespace changes. Also a wrapper for running anything in case 1:
#   tests/facts/disagree.sh --run CMD...   (e.g. meson test -C build-test)
set -u
if [ -z "${PL_IN_MNTNS:-}" ]; then
	why=
	if [ "$(id -u)" != 0 ]; then why="needs root to bind-mount over sysfs"
	elif ! unshare -m true 2>/dev/null; then why="mount namespaces not allowed here (unshare -m failed)"
	elif [ ! -e /sys/devices/system/cpu/cpu0/cache/index0 ]; then why="this machine has no cache sysfs to change"
	fi
	if [ -n "$why" ]; then
		[ "${1:-}" = --run ] && { echo "$0: $why" >&2; exit 2; }
		. "$PERFLAB_SRCDIR/tests/lib.sh"
		skip "live facts with sysfs and cpuid disagreeing" "$why"
		done_testing
	fi
	PL_IN_MNTNS=1 exec unshare -m --propagation private "$BASH" "$0" "$@"
fi

SIZES=$(mktemp -d "${TMPDIR:-/tmp}/perflab-disagree.XXXXXX")
mount -t tmpfs -o size=4m tmpfs "$SIZES"
# on every way out (a failure, a timeout's SIGTERM): the binds, the tmpfs, the directory
cleanup_sizes() {
	undo
	umount -l "$SIZES" 2>/dev/null
	rmdir "$SIZES" 2>/dev/null
}
trap cleanup_sizes EXIT
trap 'exit 143' TERM
# shrink: every CPU's level-2 size halved, level-3 an eighth (in K, as sysfs prints them)
shrink() {
	local d l kb n=0
	for d in /sys/devices/system/cpu/cpu[0-9]*/cache/index[0-9]*; do
		l=$(cat "$d/level") kb=$(cat "$d/size")
		kb=${kb%K}
		case "$l" in 2) kb=$((kb / 2)) ;; 3) kb=$((kb / 8)) ;; *) continue ;; esac
		n=$((n + 1))
		echo "${kb}K" >"$SIZES/size$n"
		mount --bind "$SIZES/size$n" "$d/size" || return 1
	done
}
no_cache_sysfs() {
	local c
	mkdir -p "$SIZES/empty"
	for c in /sys/devices/system/cpu/cpu[0-9]*/cache; do
		umount -R "$c" 2>/dev/null
		mount --bind "$SIZES/empty" "$c" || return 1
	done
}
undo() {
	local c
	for c in /sys/devices/system/cpu/cpu[0-9]*/cache; do
		umount -R "$c" 2>/dev/null
		for f in "$c"/index[0-9]*/size; do umount "$f" 2>/dev/null; done
	done
}

if [ "${1:-}" = --run ]; then
	shift
	shrink || { echo "$0: cannot bind-mount over the cache sysfs" >&2; exit 3; }
	echo "$0: sysfs L3 now $(cat /sys/devices/system/cpu/cpu0/cache/index3/size 2>/dev/null), getconf LEVEL3_CACHE_SIZE $(getconf LEVEL3_CACHE_SIZE)" >&2
	"$@"
	exit $?
fi

. "$PERFLAB_SRCDIR/tests/lib.sh"
trap 'cleanup_sizes; rm -rf "$TMP"' EXIT
# relay the TAP of live.sh under a prefix (its skips stay skips, its failures failures)
relay() { # PREFIX
	local line
	while IFS= read -r line; do
		case "$line" in
		"ok "*"# SKIP "*) n=${line#ok * - }; skip "$1: ${n%% # SKIP *}" "${n#* # SKIP }" ;;
		"ok "*) _report ok "$1: ${line#ok * - }" ;;
		"not ok "*) _report fail "$1: ${line#not ok * - }" "$(sed -n '/^# /p' "$TMP/live.tap")" ;;
		esac
	done <"$TMP/live.tap"
}

if shrink; then
	_report ok "sysfs cache sizes replaced in a private mount namespace"
	s=$(cat /sys/devices/system/cpu/cpu0/cache/index3/size 2>/dev/null)
	g=$(getconf LEVEL3_CACHE_SIZE 2>/dev/null)
	if [ -n "$s" ] && [ -n "$g" ] && [ "$g" != 0 ]; then
		like "they disagree now: sysfs L3 $s, getconf $g" "$(( ${s%K} * 1024 < g ))" 1
	else
		skip "sysfs and getconf disagree" "no L3 in sysfs or getconf reports none"
	fi
	"$BASH" "$PERFLAB_SRCDIR/tests/facts/live.sh" >"$TMP/live.tap" 2>&1
	relay "sysfs smaller than cpuid"
else
	_report fail "sysfs cache sizes replaced in a private mount namespace" "mount --bind failed"
fi
undo
if no_cache_sysfs; then
	is "no cache sysfs: index0 hidden" "$(ls /sys/devices/system/cpu/cpu0/cache | wc -l)" 0
	"$BASH" "$PERFLAB_SRCDIR/tests/facts/live.sh" >"$TMP/live.tap" 2>&1
	relay "no cache sysfs"
else
	_report fail "empty directory over the cache sysfs" "mount --bind failed"
fi
undo
umount "$SIZES" && rmdir "$SIZES"
done_testing
