#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The topology facts need only hwloc's built-in Linux backend: perflab keeps hwloc's
# plugins (gl, opencl, pci, xml_libxml: libX11, ICU, libstdc++...) out of the process
# (src/facts/cpu.c collect_topology), since loading them was ~70% of the instructions of
# `perflab check`. Checked with strace on the live system; the facts stay the same.
. "$PERFLAB_SRCDIR/tests/lib.sh"
if ! command -v strace >/dev/null; then
	skip "no hwloc plugin is opened" "strace not installed"
	done_testing
fi
# LeakSanitizer cannot run under ptrace (the ASan test build)
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
if ! strace -f -qq -e trace=openat -o "$TMP/st" "$PERFLAB" inspect --json -o "$TMP/i.json" 2>"$ERR"; then
	skip "no hwloc plugin is opened" "strace cannot trace here: $(head -c 200 "$ERR")"
	done_testing
fi
is "no hwloc plugin is opened" "$(grep -c 'hwloc_[a-z_]*\.so' "$TMP/st")" "0"
if [ -e /sys/devices/system/cpu/cpu0/topology ]; then
	like "the topology facts are still there" "$(jqv "$TMP/i.json" '.facts["cpu.cores"].value')" '^[1-9][0-9]*$'
else
	skip "the topology facts are still there" "no sysfs cpu topology here"
fi
HWLOC_PLUGINS_BLACKLIST=hwloc_gl.so strace -f -qq -e trace=openat -o "$TMP/st2" "$PERFLAB" inspect --json -o "$TMP/i2.json" 2>/dev/null
if ls /usr/lib/*/hwloc/hwloc_pci.so >/dev/null 2>&1; then
	like "a blacklist the user set is kept (so hwloc_pci.so loads)" "$(grep -c 'hwloc_pci\.so' "$TMP/st2")" '^[1-9]'
else
	skip "a blacklist the user set is kept" "libhwloc-plugins not installed"
fi
done_testing
