#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make demo`: build kstats.ko and the examples against Debian's 6.12
# headers, boot Debian's 6.12 kernel in QEMU and run tests/guest/demo.sh
# there, printing what it prints.
#
#   scripts/demo.sh [vm-run.sh options, e.g. --smp 1 -v]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$KSTATS_ROOT"

scripts/deps.sh
if [ ! -f tests/guest/demo.sh ]; then
	say "tests/guest/demo.sh is not there yet: nothing to show"
	exit 0
fi
read -r _ image kdir < <(debian_kernels | grep '^6\.12 ')
[ "$image" != - ] || die "no Debian 6.12 kernel in /boot (scripts/deps.sh)"
[ "$kdir" != - ] || die "no headers for ${image#/boot/vmlinuz-} (scripts/deps.sh)"
kver=${image#/boot/vmlinuz-}

say "building kstats.ko and examples for $kver in build/$kver"
kbuild_copy "$kver" "$kdir" modules examples ||
	die "build failed: build/logs/build-$kver.log"
bad=$(guest_helpers)
[ -z "$bad" ] || die "guest helpers failed to build: $bad (build/logs/helper-*.log)"
guest_adds "build/$kver"
exec tests/vm-run.sh --kernel "$image" --script "build/$kver/tests/guest/demo.sh" \
	--log build/logs/vm-demo.log "${GUEST_ADDS[@]}" "$@"
