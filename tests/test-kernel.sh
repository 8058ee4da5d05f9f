#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (or reuse) the kstats test kernel: Debian's linux-source-6.12,
# tinyconfig + tests/vm/test-kernel.config, bzImage and `make modules`
# (for Module.symvers).  Progress goes to stderr; the last line on stdout is
# the build directory:
#
#   KDIR=$(tests/test-kernel.sh)
#   tests/test-kernel.sh --check-config FRAGMENT DOTCONFIG   # only verify
#
# Cache: ${KSTATS_CACHE:-~/.cache/kstats}/linux-<srcversion>-<sha of the fragment's options>/
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

SRC_TAR=/usr/src/linux-source-6.12.tar.xz
FRAGMENT=$KSTATS_ROOT/tests/vm/test-kernel.config

# Every CONFIG_X=v of the fragment must be in .config as is; every
# "# CONFIG_X is not set" must not be set.  Names the dropped ones.
check_config() {
	local frag=$1 conf=$2 line sym bad=0
	[ -f "$conf" ] || die "no $conf"
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			grep -qxF -- "$line" "$conf" || {
				sym=${line%%=*}
				say "dropped: $line (have: $(grep -E "^(# )?$sym[= ]" "$conf" || echo unset))"
				bad=1
			} ;;
		"# CONFIG_"*" is not set")
			sym=${line#\# }; sym=${sym%% *}
			! grep -q "^$sym=" "$conf" || {
				say "dropped: $line (have: $(grep "^$sym=" "$conf"))"
				bad=1
			} ;;
		esac
	done < "$frag"
	return $bad
}

if [ "${1:-}" = --check-config ]; then
	check_config "$2" "$3" && say "all options of $2 are in $3"
	exit
fi

[ -f "$SRC_TAR" ] || die "$SRC_TAR missing: run scripts/deps.sh"
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null) ||
	srcver=$(stat -c %Y "$SRC_TAR")
# keyed by the options alone: a comment edited does not cost a build
fragsha=$(grep -Ev '^[[:space:]]*(#|$)' "$FRAGMENT" | sha256sum | cut -c1-12)
dir=$KSTATS_CACHE/linux-$srcver-$fragsha
stamp=$dir/.kstats-built

mkdir -p "$KSTATS_CACHE"
exec 9>"$KSTATS_CACHE/.lock-$srcver-$fragsha"
flock 9		# one build of a tree at a time

if [ -f "$stamp" ] && [ -f "$dir/arch/x86/boot/bzImage" ] &&
   [ -f "$dir/Module.symvers" ]; then
	say "reusing $dir (built $(cat "$stamp"))"
	echo "$dir"
	exit 0
fi

t0=$(now)
if [ ! -f "$dir/.kstats-extracted" ]; then
	say "extracting $SRC_TAR into $dir"
	rm -rf "$dir" "$dir.tmp"
	mkdir -p "$dir.tmp"
	tar -I 'xz -T0' -xf "$SRC_TAR" --strip-components=1 -C "$dir.tmp"
	mv "$dir.tmp" "$dir"
	touch "$dir/.kstats-extracted"
fi

cd "$dir"
jobs=$(nproc)
say "configuring (tinyconfig + ${FRAGMENT#$KSTATS_ROOT/})"
{
	make ARCH=x86_64 tinyconfig
	scripts/kconfig/merge_config.sh -m .config "$FRAGMENT"
	make ARCH=x86_64 olddefconfig
} >&2
check_config "$FRAGMENT" .config ||
	die "options dropped by olddefconfig: fix $FRAGMENT"
cp "$FRAGMENT" .kstats-fragment

say "building bzImage and modules with -j$jobs (about 4 min on 2 idle cores)"
make ARCH=x86_64 -j"$jobs" bzImage modules >&2
[ -f Module.symvers ] || die "no Module.symvers after make modules"
t1=$(now)
say "built in $((t1 - t0)) s: $dir"
echo "$(date -u +%FT%TZ) in $((t1 - t0)) s" > "$stamp"
echo "$dir"
