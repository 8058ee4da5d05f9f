#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages kstats' build and test bench needs, only the
# missing ones (idempotent).  Extra package names may be given:
#
#   scripts/deps.sh [PACKAGE...]
#
# Not root: prints the `sudo apt-get install ...` line to run and exits 1.
set -euo pipefail

pkgs=(qemu-system-x86 busybox-static cpio kmod sparse bc bison flex
	libelf-dev libssl-dev dwarves xz-utils gcc make libc6-dev
	libbpf-dev zlib1g-dev pkg-config
	linux-source-6.12 linux-headers-amd64 linux-image-amd64
	linux-image-6.12-amd64 linux-headers-6.12-amd64
	linux-image-rt-amd64 linux-headers-rt-amd64 clang llvm libclang-rt-14-dev python3 prometheus libxml2-utils
	dkms prometheus-node-exporter curl patch openssl
	# the peers of make bench (both) and make check (libbpf-tools)
	libbpf-tools bpftrace
	# the tool's tests: kstats top's screen driven in a terminal, a
	# census refused part-way (strace's write fault injection), kstats
	# timeline's page loaded and drawn by a browser (headless)
	tmux strace chromium
	# arm64: the cross compiler and its libc, qemu-system-aarch64 (the
	# kernels themselves: scripts/arm64-kernels.sh)
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm "$@")

missing=()
for p in "${pkgs[@]}"; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null) || st=
	[ "$st" = installed ] || missing+=("$p")
done
[ ${#missing[@]} -gt 0 ] || exit 0

echo "deps.sh: missing: ${missing[*]}" >&2
if [ "$(id -u)" != 0 ]; then
	echo "sudo apt-get install --no-install-recommends ${missing[*]}"
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
