# SPDX-License-Identifier: GPL-2.0
#
# Helpers shared by the scripts in scripts/: source it, don't run it.
#   . "$(dirname "$0")/lib.sh"

KSTATS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KSTATS_CACHE=${KSTATS_CACHE:-$HOME/.cache/kstats}

# Messages go to stderr so that stdout stays machine-readable.
say() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
die() { say "error: $*"; exit 1; }

# Seconds since the epoch, for phase timings.
now() { date +%s; }

# Newest file matching a glob (sorted by version), or nothing.
newest() {
	local f
	f=$(ls -1d $1 2>/dev/null | sort -V | tail -n1) || true
	printf '%s' "$f"
}

# Debian kernels of the test matrix: "name image build-dir" per line.
# A missing image or header tree yields an empty field.
debian_kernels() {
	local name pat img ver build
	for name in 6.1 6.12 6.1-rt; do
		case $name in
		6.1)	pat='/boot/vmlinuz-6.1.0-*-amd64' ;;
		6.12)	pat='/boot/vmlinuz-6.12.*+deb12-amd64' ;;
		6.1-rt)	pat='/boot/vmlinuz-6.1.0-*-rt-amd64' ;;
		esac
		img=$(newest "$pat")
		# the 6.1 pattern also matches the rt image: skip it there
		if [ "$name" = 6.1 ]; then
			img=$(ls -1d $pat 2>/dev/null | grep -v -- '-rt-' | sort -V | tail -n1) || true
		fi
		build=
		if [ -n "$img" ]; then
			ver=${img#/boot/vmlinuz-}
			[ -f "/lib/modules/$ver/build/Makefile" ] && build=/lib/modules/$ver/build
		fi
		printf '%s %s %s\n' "$name" "${img:--}" "${build:--}"
	done
}
