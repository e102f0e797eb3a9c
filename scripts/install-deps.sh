#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Install the Debian packages perflab needs to build and test (idempotent).
# Usage: scripts/install-deps.sh [build|test|deb|peers|all]   (default: test)
# Installs only what is missing; runs `apt-get update` first only when it must install.
set -euo pipefail

BUILD_PKGS=(
  gcc make meson ninja-build pkg-config
  libhwloc-dev libnuma-dev libdw-dev libelf-dev zlib1g-dev libdeflate-dev libisal-dev
  liburing-dev libjansson-dev libinih-dev libgsl-dev libpci-dev libseccomp-dev
  libzstd-dev libiberty-dev scdoc liblzma-dev libbz2-dev libarchive-dev nettle-dev
)
# zsh and fish: tests/core/completion.sh loads perflab's completion scripts in them.
# chromium, chromium-driver and a font: tests/report/browser.py lays report.html out in
# headless Chromium through chromedriver and measures its text (skipped without them).
# prometheus-node-exporter: tests/monitor/node_exporter.sh scrapes monitor's textfile with
# it (on loopback); on a machine booted with systemd the package also starts its daemon.
TEST_PKGS=(
  libcmocka-dev python3 python3-jsonschema strace iproute2 binutils g++ tuned
  util-linux procps hwloc jq zstd chromium chromium-driver fonts-dejavu-core prometheus
  clang libclang-rt-14-dev clang-format openmpi-bin libopenmpi-dev prometheus-node-exporter
  zsh fish
)
# make deb (debian/, scripts/build-deb.sh): debhelper, lintian, and the MPI build
# dependency of perflab-mpi. tests/package/deb.sh builds, checks and installs them.
DEB_PKGS=(debhelper dpkg-dev lintian libopenmpi-dev man-db)
PEER_PKGS=(
  fio likwid sockperf qperf iperf3 hyperfine sysbench stress-ng linux-perf ministat
  isal libdeflate-tools gzip time sysstat rt-tests valgrind sosreport
)

want=()
case "${1:-test}" in
  build) want=("${BUILD_PKGS[@]}") ;;
  test)  want=("${BUILD_PKGS[@]}" "${TEST_PKGS[@]}" "${DEB_PKGS[@]}") ;;
  deb)   want=("${BUILD_PKGS[@]}" "${DEB_PKGS[@]}") ;;
  peers) want=("${PEER_PKGS[@]}") ;;
  all)   want=("${BUILD_PKGS[@]}" "${TEST_PKGS[@]}" "${DEB_PKGS[@]}" "${PEER_PKGS[@]}") ;;
  *) echo "install-deps.sh: unknown set '$1' (use build, test, deb, peers or all)" >&2; exit 2 ;;
esac

missing=()
for p in "${want[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps.sh: need root or sudo to install: ${missing[*]}" >&2; exit 3; }
  SUDO=sudo
fi
echo "install-deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# Wait for a concurrent apt or dpkg (another install, unattended-upgrades) instead of failing.
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
# tuned's postinst may try to start a daemon; there is no init here, which is fine.
$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
