#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `make install PREFIX=... DESTDIR=...` into two staging directories with two prefixes from
# the same build directory: the second install must use the second prefix, not the one a
# build/ was set up with, in the paths and in the binary's data directory.
. "$PERFLAB_SRCDIR/tests/lib.sh"
if ! command -v make >/dev/null; then
	skip "make install with two prefixes" "make is not installed"
	done_testing
fi
B=$TMP/build
inst() { # PREFIX DESTDIR
	make -C "$PERFLAB_SRCDIR" -s BUILD="$B" PREFIX="$1" DESTDIR="$2" install >"$TMP/make.log" 2>&1
}
A=/opt/perflab-test-a
Z=/opt/perflab-test-b
if inst $A "$TMP/d1"; then _report ok "make install PREFIX=$A"; else _report fail "make install PREFIX=$A" "$(tail -20 "$TMP/make.log")"; fi
# the release setup (prefer_static) asks for archives only where they exist: no warnings
is "release setup: no 'Static library not found' warnings" \
	"$(grep 'Static library .* not found' "$TMP/make.log")" ""
if inst $Z "$TMP/d2"; then _report ok "make install PREFIX=$Z (same build dir)"; else _report fail "make install PREFIX=$Z (same build dir)" "$(tail -20 "$TMP/make.log")"; fi

files() { (cd "$1" && find . -type f | sort); }
for d in d1:$A d2:$Z; do
	dir=$TMP/${d%%:*} p=${d#*:}
	for f in bin/perflab share/perflab/schemas/compare.schema.json share/perflab/profiles; do
		if [ -e "$dir$p/$f" ]; then _report ok "${d%%:*}: $p/$f"; else
			_report fail "${d%%:*}: $p/$f" "$(files "$dir" | head -20)"
		fi
	done
	for f in share/bash-completion/completions/perflab share/zsh/vendor-completions/_perflab \
		share/fish/vendor_completions.d/perflab.fish; do
		if [ -s "$dir$p/$f" ]; then _report ok "${d%%:*}: $p/$f"; else
			_report fail "${d%%:*}: $p/$f" "$(files "$dir" | grep -v man)"
		fi
	done
	if command -v scdoc >/dev/null; then
		for m in "$PERFLAB_SRCDIR"/docs/man/*.1.scd; do
			m=$(basename "$m" .scd)
			if [ -e "$dir$p/share/man/man1/$m" ]; then _report ok "${d%%:*}: man page $m"; else _report fail "${d%%:*}: man page $m" "$(files "$dir" | grep man)"; fi
		done
	else
		skip "${d%%:*}: man page" "scdoc is not installed"
	fi
	is "${d%%:*}: everything under the prefix" "$(files "$dir" | grep -vc "^\.$p/")" 0
done
is "the second install has nothing of the first prefix" "$(files "$TMP/d2" | grep -c "perflab-test-a")" 0
# the binary has its data directory compiled in (config.h); an optimised build may keep the
# string only as instruction immediates, so look at the configuration it was built from
is "the build dir now has the second prefix" "$(grep -o "PERFLAB_DATADIR \"[^\"]*\"" "$B/config.h")" \
	"PERFLAB_DATADIR \"$Z/share/perflab\""
if [ "$TMP/d2$Z/bin/perflab" -nt "$B/config.h" ]; then _report ok "the second binary was rebuilt after the change"; else
	_report fail "the second binary was rebuilt after the change" "$(ls -l --time-style=full-iso "$B/config.h" "$TMP/d2$Z/bin/perflab")"
fi
ok "the installed binary runs" "$TMP/d2$Z/bin/perflab" --version
for sh in bash:bash-completion/completions/perflab zsh:zsh/vendor-completions/_perflab \
	fish:fish/vendor_completions.d/perflab.fish; do
	ok "the installed binary: completion ${sh%%:*}" "$TMP/d2$Z/bin/perflab" completion "${sh%%:*}"
	cp "$OUT" "$TMP/printed"
	ok "the installed ${sh%%:*} script is what it prints" cmp "$TMP/printed" "$TMP/d2$Z/share/${sh#*:}"
done
# The release build has no test hooks (src/util/testhook.h): no variable of the
# environment can make it load a stand-in library or stop half-way.
for v in PERFLAB_NVML_LIB PERFLAB_TEST_LIBARCHIVE PERFLAB_TUNE_FAULT_AFTER PERFLAB_TUNE_TEST_KEEP PERFLAB_TEST_SPIN_SERIES; do
	ok "release binary has no $v hook" bash -c "! grep -aq $v '$TMP/d2$Z/bin/perflab'"
done
done_testing
