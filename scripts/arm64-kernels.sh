#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian's arm64 kernels for `make check` and `make bench`, on an amd64
# machine with no arm64 system: the newest 6.1 and 6.12 kernel images and
# headers of the archive, and arm64 busybox-static for the guest, fetched
# with `apt-get download` and unpacked with `dpkg -x` into the cache.
# Prints one line per kernel on stdout, as lib.sh's debian_kernels does:
#
#   NAME IMAGE KDIR MODULES-DIR
#
# then the busybox binary, as "busybox PATH", and last the static
# libraries the kstats command links (libbpf, libelf, zlib) with their
# headers, as "sysroot DIR" (DIR/usr/include, DIR/usr/lib/aarch64-linux-gnu).
# Progress on stderr.
#
#   scripts/arm64-kernels.sh [--peers]
#
# --peers also fetches the eBPF peers of `make bench`, arm64's libbpf-tools
# and bpftrace, with every library they need (apt-cache depends
# --recurse), unpacked into one root, and prints "peers DIR" last.
#
# Never `apt-get install` an :arm64 linux-headers package here: it pulls
# gcc-12:arm64, which removes the host's own gcc, clang and dkms.  The
# unpacked headers build with the host's linux-kbuild-* (Multi-Arch:
# foreign), linked into the unpacked tree.
#
# Cache: ${KSTATS_CACHE:-~/.cache/kstats}/arm64/<package version>/
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ARCH_DIR=$KSTATS_CACHE/arm64
mkdir -p "$ARCH_DIR"
exec 9>"$ARCH_DIR/.lock"
flock 9

if ! dpkg --print-foreign-architectures | grep -x arm64 >/dev/null; then
	[ "$(id -u)" = 0 ] || die "run as root once: dpkg --add-architecture arm64 && apt-get update"
	say "adding the arm64 architecture to dpkg"
	dpkg --add-architecture arm64
	apt-get update -q >&2
fi
# An archive index without arm64 (the architecture was added without an
# update): update once.
if ! apt-cache show busybox-static:arm64 > /dev/null 2>&1; then
	[ "$(id -u)" = 0 ] || die "run as root: apt-get update"
	apt-get update -q >&2
fi

# newest_pkg REGEX: the newest arm64 package name matching REGEX
newest_pkg() {
	apt-cache pkgnames 2>/dev/null | grep -E "^$1\$" | sort -V | tail -n1
}

# fetch PKG...: download PKG:arm64 (or an architecture-independent one)
# into DIR/debs and unpack each into DIR/root, once.
fetch() {
	local dir=$1 p deb
	shift
	mkdir -p "$dir/debs" "$dir/root"
	for p in "$@"; do
		[ -f "$dir/debs/.$p" ] && continue
		deb=
		(cd "$dir/debs" && apt-get download -q "$p:arm64" > /dev/null 2>&1) ||
			(cd "$dir/debs" && apt-get download -q "$p" > /dev/null 2>&1) ||
			die "apt-get download $p failed"
		for deb in "$dir"/debs/"${p}"_*.deb; do
			dpkg -x "$deb" "$dir/root"
		done
		touch "$dir/debs/.$p"
	done
}

# One kernel: image PKG-VERSION (6.1.0-NN or 6.12.NN+deb12).
kernel() {
	local name=$1 v=$2 dir img kdir kb
	dir=$ARCH_DIR/$v
	if [ ! -f "$dir/.done" ]; then
		say "fetching linux-image-$v-arm64 and its headers"
		rm -rf "$dir"
		fetch "$dir" "linux-image-$v-arm64" "linux-headers-$v-arm64" \
			"linux-headers-$v-common"
		touch "$dir/.done"
	fi
	img=$(ls "$dir"/root/boot/vmlinuz-* | head -n1)
	kdir=$(ls -d "$dir"/root/usr/src/linux-headers-*-arm64 | head -n1)
	# the tree's scripts and tools link to ../../lib/linux-kbuild-X: the
	# host's own package (Multi-Arch: foreign), linked into the tree
	kb=$(readlink "$kdir/scripts")
	kb=/usr/lib/$(basename "$(dirname "$kb")")
	[ -d "$kb" ] || die "$kb missing: install ${kb##*/} (scripts/deps.sh)"
	if [ ! -e "$dir/root/usr/lib/${kb##*/}/scripts" ]; then
		mkdir -p "$dir/root/usr/lib"
		rm -rf "$dir/root/usr/lib/${kb##*/}"
		ln -s "$kb" "$dir/root/usr/lib/${kb##*/}"
	fi
	printf '%s %s %s %s\n' "$name" "$img" "$kdir" \
		"$(ls -d "$dir"/root/lib/modules/* | head -n1)"
}

v61=$(newest_pkg 'linux-image-6\.1\.0-[0-9]+-arm64' | sed 's/^linux-image-//; s/-arm64$//')
v612=$(newest_pkg 'linux-image-6\.12\.[0-9]+\+deb12-arm64' | sed 's/^linux-image-//; s/-arm64$//')
[ -n "$v61" ] || die "no linux-image-6.1.0-*-arm64 in the archive"
[ -n "$v612" ] || die "no linux-image-6.12.*+deb12-arm64 in the archive"
kernel 6.1 "$v61"
kernel 6.12 "$v612"

bb=$ARCH_DIR/busybox
if [ ! -x "$bb/root/bin/busybox" ]; then
	say "fetching busybox-static:arm64"
	rm -rf "$bb"
	fetch "$bb" busybox-static
fi
echo "busybox $bb/root/bin/busybox"

sr=$ARCH_DIR/sysroot
if [ ! -f "$sr/.done" ]; then
	say "fetching libbpf-dev, libelf-dev and zlib1g-dev (arm64) for the kstats command"
	rm -rf "$sr"
	fetch "$sr" libbpf-dev libelf-dev zlib1g-dev
	touch "$sr/.done"
fi
echo "sysroot $sr/root"

if [ "${1:-}" = --peers ]; then
	pr=$ARCH_DIR/peers
	if [ ! -f "$pr/.done" ]; then
		say "fetching libbpf-tools and bpftrace (arm64) with their libraries"
		rm -rf "$pr"
		mapfile -t pkgs < <(apt-cache depends --recurse --no-recommends \
			--no-suggests --no-conflicts --no-breaks --no-replaces \
			--no-enhances libbpf-tools:arm64 bpftrace:arm64 |
			sed -n 's/^\([a-z0-9][^ <]*\):arm64$/\1/p' | sort -u)
		[ ${#pkgs[@]} -gt 2 ] || die "apt-cache depends found no arm64 packages for the peers"
		fetch "$pr" "${pkgs[@]}"
		touch "$pr/.done"
	fi
	echo "peers $pr/root"
fi
