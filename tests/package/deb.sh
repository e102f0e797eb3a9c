#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The Debian packages end to end, as a user meets them: scripts/build-deb.sh builds
# perflab, perflab-mpi, libperflab-mark1 and libperflab-mark-dev (release build, no
# tests: DEB_BUILD_OPTIONS="nocheck noddebs parallel=2"), lintian finds no error, dpkg -i
# installs them, the installed perflab runs, its man pages are found, a C program built
# with `pkg-config --cflags --libs perflab-mark` has its regions in `perflab profile
# --region`, and dpkg --purge leaves no file of them behind and the rest of the system
# as it was (a perflab of `make install` included). Root only: it installs packages.
# Skipped with the reason without root, dpkg or the build dependencies, or where a perflab
# package is installed already (it would be replaced). A failure half-way purges what
# was installed (trap).
. "$PERFLAB_SRCDIR/tests/lib.sh"
PKGS=(perflab perflab-mpi libperflab-mark1 libperflab-mark-dev)
reason=
if [ "$(id -u)" -ne 0 ]; then
	reason="needs root (it installs and purges packages)"
elif ! command -v dpkg >/dev/null || ! command -v dpkg-buildpackage >/dev/null; then
	reason="dpkg or dpkg-dev is not installed (Debian or a derivative with dpkg-dev)"
elif ! command -v dh >/dev/null; then
	reason="debhelper is not installed (scripts/install-deps.sh test)"
elif ! miss=$(cd "$PERFLAB_SRCDIR" && dpkg-checkbuilddeps 2>&1); then
	reason="build dependencies missing: ${miss#*: }"
else
	for p in "${PKGS[@]}"; do
		if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q ' installed$'; then
			reason="package $p is installed here: the test would replace and purge it"
		fi
	done
fi
if [ -n "$reason" ]; then
	skip "Debian packages: build, install, use, purge" "$reason"
	done_testing
fi

installed=0
cleanup() {
	[ "$installed" = 1 ] && dpkg_locked --purge "${PKGS[@]}" >/dev/null 2>&1
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
# dpkg with its lock waited for (another apt or dpkg may hold it for a while)
dpkg_locked() {
	local tries=120 rc
	while [ $((tries -= 1)) -ge 0 ]; do
		dpkg "$@" 2>"$TMP/dpkg.err" && return 0
		rc=$?
		grep -q 'lock' "$TMP/dpkg.err" || { cat "$TMP/dpkg.err" >&2; return $rc; }
		sleep 5
	done
	cat "$TMP/dpkg.err" >&2
	return 1
}

# --- the state of the system that must come back: perflab files outside dpkg's lists
# (make install's, in /usr/local or /opt) and the systemd units' state
outside() {
	find /usr/local /opt -xdev -maxdepth 5 \( -name 'perflab*' -o -name 'libperflab*' \) \
		\( -type f -o -type l \) -print0 2>/dev/null | sort -z | xargs -0 -r sha256sum
	find /etc/systemd /var/lib/systemd -xdev -name '*perflab*' 2>/dev/null | sort
}
outside >"$TMP/outside.before"

t0=$(date +%s)
export DEB_BUILD_OPTIONS="nocheck noddebs parallel=2"
if "$PERFLAB_SRCDIR/scripts/build-deb.sh" "$TMP/deb" >"$TMP/debs" 2>"$TMP/build.err"; then
	_report ok "scripts/build-deb.sh builds the packages ($(($(date +%s) - t0)) s)"
else
	_report fail "scripts/build-deb.sh builds the packages" "$(tail -c 3000 "$TMP/build.err")"
	done_testing
fi
debs=()
for p in "${PKGS[@]}"; do
	f=$(grep "/${p}_[^/]*\.deb$" "$TMP/debs")
	if [ -f "$f" ]; then _report ok "$p: $(basename "$f")"; else _report fail "$p built" "$(cat "$TMP/debs")"; fi
	debs+=("$f")
done
is "nothing else built (noddebs)" "$(wc -l <"$TMP/debs")" "${#PKGS[@]}"
is "perflab: Built-Using names the static archives it links" \
	"$(dpkg-deb -f "${debs[0]}" Built-Using | grep -o 'libdeflate (= [^)]*)\|libiberty (= [^)]*)' | cut -d' ' -f1 | tr '\n' ,)" \
	"libdeflate,libiberty,"
is "perflab depends on the libraries it loads with dlopen" \
	"$(dpkg-deb -f "${debs[0]}" Depends | grep -o 'libarchive13\|libpci3\|libisal2' | sort -u | tr '\n' ,)" \
	"libarchive13,libisal2,libpci3,"
is "perflab-mpi depends on OpenMPI" "$(dpkg-deb -f "${debs[1]}" Depends | grep -o 'libopenmpi3\|openmpi-bin' | sort | tr '\n' ,)" \
	"libopenmpi3,openmpi-bin,"
is "libperflab-mark1 is named after its soname" \
	"$(dpkg-deb --fsys-tarfile "${debs[2]}" | tar -tv | grep -o 'libperflab-mark\.so\.1 -> .*')" \
	"libperflab-mark.so.1 -> libperflab-mark.so.1.0.0"
if command -v lintian >/dev/null; then
	t1=$(date +%s)
	lintian --fail-on error "$TMP"/deb/*.changes >"$TMP/lintian" 2>&1
	rc=$?
	is "lintian: no error ($(($(date +%s) - t1)) s; $(grep -c '^W:' "$TMP/lintian") warnings)" \
		"$rc:$(grep '^E:' "$TMP/lintian")" "0:"
else
	skip "lintian: no error" "lintian is not installed (scripts/install-deps.sh test)"
fi

# --- install
for f in "${debs[@]}"; do dpkg-deb --fsys-tarfile "$f" | tar -t; done | sed 's#^\./#/#; s#/$##' |
	grep . | sort -u >"$TMP/contents"
# the paths of the packages that exist before: the shared directories (/usr, /usr/bin...)
while read -r p; do [ -e "$p" ] || [ -L "$p" ] && echo "$p"; done <"$TMP/contents" >"$TMP/existed"
installed=1
if dpkg_locked -i "${debs[@]}" >"$TMP/install.log" 2>&1; then _report ok "dpkg -i the four packages"; else
	_report fail "dpkg -i the four packages" "$(tail -c 2000 "$TMP/install.log")"
	done_testing
fi
for p in "${PKGS[@]}"; do
	is "$p is installed" "$(dpkg-query -W -f='${Status} ${Version}' "$p")" "install ok installed 0.1.0-1"
done
dpkg -L "${PKGS[@]}" | grep -vx '/\.' | sort -u >"$TMP/listed"
is "dpkg -L lists every path of the .deb files" "$(comm -23 "$TMP/contents" "$TMP/listed")" ""

ok "perflab --version" /usr/bin/perflab --version
like "it is this version" "$(head -1 "$OUT")" '^perflab 0\.1\.0'
ok "perflab check --list-rules finds its data" /usr/bin/perflab check --list-rules
ok "perflab tune list finds the bundled profiles" /usr/bin/perflab tune list
like "the bundled profiles are the package's" "$(cat "$OUT")" 'throughput'
is "perflab-mpi: its libraries resolve" "$(ldd /usr/bin/perflab-mpi | grep -c 'not found')" 0
for m in perflab perflab-bench perflab-monitor perflab-mpi; do
	if command -v man >/dev/null; then
		ok "man -w $m" man -w "$m"
		like "man $m is the package's page" "$(cat "$OUT")" "^/usr/share/man/man1/$m\.1\.gz$"
	else
		like "$m.1 installed" "$(ls /usr/share/man/man1/$m.1.gz)" "$m"
	fi
done
is "perflab-mpi.1 belongs to perflab-mpi alone" "$(dpkg -S /usr/share/man/man1/perflab-mpi.1.gz)" \
	"perflab-mpi: /usr/share/man/man1/perflab-mpi.1.gz"
for c in /usr/share/bash-completion/completions/perflab /usr/share/zsh/vendor-completions/_perflab \
	/usr/share/fish/vendor_completions.d/perflab.fish; do
	is "$c is perflab's" "$(dpkg -S "$c" 2>&1)" "perflab: $c"
done
is "the bash completion is what perflab completion bash prints" \
	"$(/usr/bin/perflab completion bash | cmp - /usr/share/bash-completion/completions/perflab 2>&1)" ""
unit=/lib/systemd/system/perflab-monitor.service
like "the monitor unit is installed" "$(grep -c '^ExecStart=/usr/bin/perflab monitor' "$unit")" '^1$'
is "and not enabled (no wants link)" \
	"$(find /etc/systemd/system -name perflab-monitor.service 2>/dev/null)" ""

# --- the marker library through pkg-config, only the system's own .pc files
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
export PKG_CONFIG_LIBDIR=/usr/lib/$multiarch/pkgconfig:/usr/lib/pkgconfig:/usr/share/pkgconfig
flags=$(pkg-config --cflags --libs perflab-mark 2>"$ERR" | sed 's/ *$//')
is "pkg-config --cflags --libs perflab-mark" "$flags" "-lperflab-mark"
cat >"$TMP/marked.c" <<'C'
#include <perflab/mark.h>
#include <stdio.h>
#include <time.h>
static volatile unsigned long sink;
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
int main(void)
{
	double t = now();
	pl_region_begin("pkgtest");
	while (now() - t < 0.4)
		for (int i = 0; i < 100000; i++)
			sink += (unsigned long)i * i;
	pl_region_end("pkgtest");
	pl_mark("pkgtest-done");
	printf("%d\n", pl_mark_active());
	return 0;
}
C
# shellcheck disable=SC2086 # pkg-config's words
ok "cc marked.c \$(pkg-config --cflags --libs perflab-mark)" cc -O1 -o "$TMP/marked" "$TMP/marked.c" $flags
like "it links the package's libperflab-mark.so.1" "$(ldd "$TMP/marked")" 'libperflab-mark\.so\.1 => /(usr/)?lib/[^ ]*/libperflab-mark\.so\.1 '
if /usr/bin/perflab profile -q -- true >"$OUT" 2>"$ERR"; then
	P=$TMP/profile.json
	ok "perflab profile --region pkgtest" /usr/bin/perflab profile --json -o "$P" --region pkgtest -- "$TMP/marked"
	is "the program saw the profiler (pl_mark_active)" "$(cat "$OUT")" 1
	is "its region is in the profile" "$(jq -r '[.regions[].name] | join(",")' "$P")" pkgtest
	like "with samples" "$(jq -r .samples "$P")" '^[1-9][0-9]*$'
else
	skip "perflab profile --region" "perf_event_open unavailable: $(head -c 200 "$ERR")"
fi

# --- purge: nothing of the packages is left, the rest is as it was
if dpkg_locked --purge "${PKGS[@]}" >"$TMP/purge.log" 2>&1; then
	installed=0
	_report ok "dpkg --purge the four packages"
else
	_report fail "dpkg --purge the four packages" "$(tail -c 2000 "$TMP/purge.log")"
fi
for p in "${PKGS[@]}"; do
	is "$p is gone from dpkg's database" "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -c ' installed$')" 0
done
left=$(while read -r p; do [ -e "$p" ] || [ -L "$p" ] && echo "$p"; done <"$TMP/listed" | comm -23 - "$TMP/existed")
is "no path of dpkg -L is left behind" "$left" ""
outside >"$TMP/outside.after"
is "the system's perflab files and units are untouched" "$(diff "$TMP/outside.before" "$TMP/outside.after")" ""
echo "# the whole test took $(($(date +%s) - t0)) s"
done_testing
