#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Capture the tool's test fixtures from a real kernel, by hand (not run by
# make check): build kstats.ko and the example module for Debian's 6.12,
# boot it in QEMU with 4 vCPUs, run tools/tests/capture-guest.sh there
# (real workloads: the example module's write(), getppid() and nanosleep
# traced through _control), and copy what it prints out of the console:
#
#   tools/tests/fixtures/*.txt, series/*.txt   the captured `cat`s
#   build/capture/transcript.txt              every subcommand, live, for
#                                             tools/kstats_example.txt
#   build/capture/heatmap.svg                 the live heatmap of the transcript
#
#   tools/tests/capture.sh [--no-fixtures] [vm-run.sh options]
# Then run tools/tests/make_malformed.sh and make -C tools check: the tests
# assert the captured numbers, so new captures mean new expected values.
# --no-fixtures leaves tools/tests/fixtures alone (a new transcript only).
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
cd "$KSTATS_ROOT"
copy=1
[ "${1:-}" != --no-fixtures ] || { copy=0; shift; }

read -r _ image kdir < <(debian_kernels | grep '^6\.12 ')
[ "$image" != - ] || die "no Debian 6.12 kernel in /boot (scripts/deps.sh)"
[ "$kdir" != - ] || die "no headers for ${image#/boot/vmlinuz-} (scripts/deps.sh)"
kver=${image#/boot/vmlinuz-}
kbuild_copy "$kver" "$kdir" modules examples || die "build failed: build/logs/build-$kver.log"
bad=$(guest_helpers)
[ -z "$bad" ] || die "guest helpers failed to build: $bad (build/logs/helper-*.log)"
guest_adds "build/$kver"
out=build/capture
rm -rf "$out"
mkdir -p "$out/files/series"
tests/vm-run.sh --kernel "$image" --script tools/tests/capture-guest.sh \
	--smp 4 --timeout 1200 --log build/logs/vm-capture.log "${GUEST_ADDS[@]}" "$@" > "$out/console.txt"
awk -v dir="$out/files" '
	/^KSTATS-FILE-BEGIN / { f = dir "/" $2; printf "" > f; next }
	/^KSTATS-FILE-END$/ { close(f); f = ""; next }
	/^KSTATS-SVG-BEGIN$/ { svg = 1; next }
	/^KSTATS-SVG-END$/ { svg = 0; next }
	svg { print > (dir "/../heatmap.svg"); next }
	/^KSTATS-TRANSCRIPT-BEGIN$/ { t = 1; next }
	/^KSTATS-TRANSCRIPT-END$/ { t = 0; next }
	f { print > f; next }
	t { print > (dir "/../transcript.txt") }
' "$out/console.txt"
n=$(find "$out/files" -name '*.txt' | wc -l)
[ "$n" -gt 0 ] || die "nothing captured: see $out/console.txt"
head -n 1 "$out/console.txt" >&2
if [ $copy = 1 ]; then
	cp -r "$out/files/." tools/tests/fixtures/
	say "$n files from $kver into tools/tests/fixtures; transcript in $out/transcript.txt"
else
	say "$n files from $kver in $out/files; transcript in $out/transcript.txt"
fi
