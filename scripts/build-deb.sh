#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Build the Debian packages (debian/) from a clean copy of this tree into OUTDIR
# (default build-deb/) and print their paths, one a line. The copy holds the files git
# tracks plus the untracked ones it does not ignore (every file outside build
# directories when this is no git checkout); dpkg-buildpackage -b -us -uc runs in
# OUTDIR/src, so the tree itself never gets obj-*/ or debian/tmp/.
# DEB_BUILD_OPTIONS passes through (the tests use "nocheck noddebs parallel=2").
# Exit 2 when a build dependency is missing (it names them), 3 when the build fails.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$here/build-deb}
case $out in /*) ;; *) out=$PWD/$out ;; esac

for t in dpkg-buildpackage dpkg-checkbuilddeps dh; do
	command -v "$t" >/dev/null || {
		echo "build-deb.sh: '$t' is not installed (run scripts/install-deps.sh deb)" >&2
		exit 2
	}
done
if ! miss=$(cd "$here" && dpkg-checkbuilddeps 2>&1); then
	echo "build-deb.sh: ${miss#dpkg-checkbuilddeps: error: } (run scripts/install-deps.sh deb)" >&2
	exit 2
fi

rm -rf "$out"
mkdir -p "$out/src"
if git -C "$here" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	(cd "$here" && git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
		tar --null -T - -cf -) | tar -C "$out/src" -xf -
else
	(cd "$here" && tar --exclude='./build*' --exclude='./obj-*' --exclude='./debian/tmp' \
		--exclude='./perflab-report' -cf - .) | tar -C "$out/src" -xf -
fi

if ! (cd "$out/src" && dpkg-buildpackage -b -us -uc) >"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" | cut -c1-400 >&2
	echo "build-deb.sh: dpkg-buildpackage failed (whole log: $out/build.log)" >&2
	exit 3
fi
ls "$out"/*.deb
