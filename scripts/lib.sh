# SPDX-License-Identifier: GPL-2.0
#
# Helpers shared by the scripts (scripts/, tests/, bench/): source it, do not run it.
#   . "$(dirname "$0")/lib.sh"  (from scripts/; ../scripts/lib.sh from tests/, bench/)

KSTATS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KSTATS_CACHE=${KSTATS_CACHE:-$HOME/.cache/kstats}

# Messages go to stderr so that stdout stays machine-readable.
say() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
die() { say "error: $*"; exit "${DIE_STATUS:-1}"; }

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

# The project's files (relative paths): what git tracks or would track, so
# no build products; without git, all but .git/ and build/ and objects.
project_files() {
	if git -C "$KSTATS_ROOT" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$KSTATS_ROOT" ls-files -co --exclude-standard "$@"
	else
		(cd "$KSTATS_ROOT" && find . -path ./.git -prune -o -type f -print |
			sed 's|^\./||' | grep -Ev '\.(o|ko|mod|mod\.c|cmd|symvers)$')
	fi | grep -Ev '(^|/)build/' | while IFS= read -r f; do
		[ -e "$KSTATS_ROOT/$f" ] && printf '%s\n' "$f"
	done
}

# Copy the project's files to DEST: Kbuild builds in the tree it is given,
# so each kernel gets its own copy.
copy_tree() {
	local dest=$1
	rm -rf "$dest"
	mkdir -p "$dest"
	project_files | tar -C "$KSTATS_ROOT" -cf - -T - | tar -C "$dest" -xf -
}

# kbuild_copy NAME KDIR MAKE-ARGS...: copy the tree to build/NAME and run
# `make KDIR=KDIR MAKE-ARGS` there, output in build/logs/build-NAME.log.
kbuild_copy() {
	local name=$1 kdir=$2
	shift 2
	mkdir -p "$KSTATS_ROOT/build/logs"
	copy_tree "$KSTATS_ROOT/build/$name"
	make -C "$KSTATS_ROOT/build/$name" KDIR="$kdir" "$@" \
		> "$KSTATS_ROOT/build/logs/build-$name.log" 2>&1 &&
		module_btf "$kdir" "$KSTATS_ROOT/build/$name/tests/kstats_many.ko" \
			>> "$KSTATS_ROOT/build/logs/build-$name.log" 2>&1
}

# module_btf KDIR KO...: give each module the BTF that the headers could
# not (Debian 6.1's ship no vmlinux to split it from), as Kbuild would:
# pahole splits it from the BTF of the kernel's own image,
# /boot/vmlinuz-KVER, decompressed once into the cache (the same BTF the
# kernel checks it against at load), with the kernel's pahole flags.  The
# direct trampoline needs the test module's prototypes, bpftrace's kfunc
# probes the bench module's.  No resolve_btfids: none has BTF ids.  Does
# nothing for a module that has its BTF, or a kernel that takes none.
module_btf() {
	local kdir=$1 kv base ko
	shift
	grep -q '^CONFIG_DEBUG_INFO_BTF_MODULES=y' "$kdir/.config" 2>/dev/null || return 0
	# the image's name (Debian's kernel.release is the upstream version)
	kv=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
		"$kdir/include/generated/utsrelease.h" 2>/dev/null)
	[ -n "$kv" ] && [ -r "/boot/vmlinuz-$kv" ] || return 0
	base=$KSTATS_CACHE/vmlinux-$kv
	for ko in "$@"; do
		[ -f "$ko" ] || continue
		# not grep -q: under pipefail, a grep that exits at its match
		# leaves readelf's next write a SIGPIPE, and the pipe false
		readelf -S "$ko" | grep ' \.BTF ' >/dev/null && continue
		mkdir -p "$KSTATS_CACHE"
		[ -s "$base" ] || python3 "$KSTATS_ROOT/scripts/extract-vmlinux.py" \
			"/boot/vmlinuz-$kv" "$base" || return 1
		echo "  BTF [M] $ko (base /boot/vmlinuz-$kv)"
		LLVM_OBJCOPY=objcopy pahole -J \
			$(cd "$kdir" && PAHOLE=pahole sh scripts/pahole-flags.sh) \
			--btf_base "$base" "$ko" || return 1
	done
}

# Release string of a kernel build tree.
kernel_release() {
	cat "$1/include/config/kernel.release" 2>/dev/null ||
		make -s -C "$1" kernelrelease
}

# Static guest helpers: tests/guest/*.c -> build/guest-bin/<name>; with
# arm64, cross-built into build/guest-bin-arm64/ (the kstats command
# against the arm64 libraries scripts/arm64-kernels.sh caches).
# Prints the names that failed to build on stdout, logs in build/logs/.
guest_helpers() {
	local c n arch=${1:-} out=$KSTATS_ROOT/build/guest-bin cc=gcc sr libs=()
	if [ "$arch" = arm64 ]; then
		out+=-arm64 cc=aarch64-linux-gnu-gcc
		sr=$KSTATS_CACHE/arm64/sysroot/root
		libs=(-I"$sr/usr/include" -L"$sr/usr/lib/aarch64-linux-gnu")
	fi
	mkdir -p "$out" "$KSTATS_ROOT/build/logs"
	for c in "$KSTATS_ROOT"/tests/guest/*.c; do
		[ -e "$c" ] || continue
		n=$(basename "$c" .c)
		# built aside, then renamed: a guest of `make check` that
		# starts meanwhile copies the old one or the new one whole
		$cc -static -O2 -Wall -pthread -I"$KSTATS_ROOT" -o "$out/.$n.$$" "$c" -lm \
			> "$KSTATS_ROOT/build/logs/helper$arch-$n.log" 2>&1 &&
			mv -f "$out/.$n.$$" "$out/$n" || { rm -f "$out/.$n.$$"; echo "$n"; }
	done
	# A shared library's function for the uprobe tests (t-24): libkup.so,
	# stripped (its .dynsym alone), and kuprobe-dyn, dynamically linked
	# against it, with the loader and libc it runs with beside it in
	# /kstats/bin (the busybox guest has none)
	local ld=ld-linux-x86-64.so.2 u=$KSTATS_ROOT/tests/guest/uprobe
	[ "$arch" = arm64 ] && ld=ld-linux-aarch64.so.1
	{ $cc -shared -fPIC -O2 -Wall -s -o "$out/libkup.so" "$u/libkup.c" &&
	  $cc -O2 -Wall -o "$out/kuprobe-dyn" "$u/kuprobe-dyn.c" -L"$out" -lkup \
		-Wl,-rpath,/kstats/bin -Wl,--dynamic-linker=/kstats/bin/ld.so &&
	  cp -L "$($cc -print-file-name=libc.so.6)" "$out/libc.so.6" &&
	  cp -L "$($cc -print-file-name=$ld)" "$out/ld.so"; } \
		> "$KSTATS_ROOT/build/logs/helper$arch-kuprobe-dyn.log" 2>&1 || echo kuprobe-dyn
	# The kstats command itself, for the guest suite and the demo; libbpf
	# (BTF, for trace --value) and what its static archive needs.
	if [ -f "$KSTATS_ROOT/tools/kstats.c" ]; then
		$cc -static -O2 -Wall -pthread -I"$KSTATS_ROOT/tools/lib" -o "$out/.kstats.$$" \
			"$KSTATS_ROOT"/tools/{kstats.c,cmd/*.c,lib/*.c} \
			"${libs[@]}" -lbpf -lelf -lz -lm \
			> "$KSTATS_ROOT/build/logs/helper$arch-kstats.log" 2>&1 &&
			mv -f "$out/.kstats.$$" "$out/kstats" || { rm -f "$out/.kstats.$$"; echo kstats; }
	fi
}

# suite_args SUITE BUILD-DIR [MODULES-DIR]: set SUITE_ARGS to the vm-run.sh options that
# a guest suite needs beyond guest_adds: integration (tests/guest/) or
# reliability (tests/reliability/, 4 vCPUs, kstats_stress.ko).  Returns 1
# for another name.
suite_args() {
	local d=$2
	case $1 in
	integration)
		SUITE_ARGS=(--script "$d/tests/guest/run.sh")
		# null_blk (and configfs), for the biolatency recipe: from the
		# kernel's own tree when the host has it (not for a test kernel);
		# BUILD-DIR is named by the build tree's release (6.1.192), the
		# tree by the package's (6.1.0-56-amd64), as check.sh names it
		local m
		for m in ${3:-/lib/modules/*}; do
			{ [ "$(basename "$m")" = "$(basename "$d")" ] ||
			  [ "$(cat "$m/build/include/config/kernel.release" 2>/dev/null)" = "$(basename "$d")" ]; } &&
				grep -qE '(^|/)null_blk\.ko(\.[gx]z|\.zst)?:' "$m/modules.dep" 2>/dev/null &&
				SUITE_ARGS+=(--modules-dir "$m" --module null_blk) && break
		done
		: ;;
	reliability)
		# 4 vCPUs on one TCG thread, interleaved: MTTCG freezes
		# guests under text patching without kstats (vm-run.sh,
		# scripts/qemu-mttcg-freeze.sh)
		SUITE_ARGS=(--smp 4 --mem 2048 --script "$d/tests/reliability/run.sh"
			    --add "$d/tests/kstats_stress.ko"
			    --add "$d/tests/reliability:/kstats/reliability") ;;
	*)
		return 1 ;;
	esac
}

# guest_adds BUILD-DIR [MODULE...]: set GUEST_ADDS to the vm-run.sh --add
# options of an integration run: the modules in /kstats/ (BUILD-DIR's
# kstats.ko, examples, bench and tests/kstats_lifetime.ko, or the MODULEs
# given), tests/guest/ in /kstats/guest/, the static helpers in
# /kstats/bin/ (those of guest_helpers GUEST_ARCH when it is set).
guest_adds() {
	local d=$1 f
	shift
	[ $# -gt 0 ] || set -- "$d"/kstats.ko "$d"/examples/*.ko "$d"/bench/*.ko \
		"$d"/tests/kstats_lifetime.ko "$d"/tests/kstats_many.ko
	GUEST_ADDS=()
	for f in "$@"; do
		[ -e "$f" ] && GUEST_ADDS+=(--add "$f")
	done
	[ -d "$d/tests/guest" ] && GUEST_ADDS+=(--add "$d/tests/guest:/kstats/guest")
	# the README, whose quick start (t-31-readme.sh) and examples
	# (t-32-readme-examples.sh) run as written
	[ -f "$d/README.md" ] && GUEST_ADDS+=(--add "$d/README.md")
	for f in "$KSTATS_ROOT"/build/guest-bin${GUEST_ARCH:+-$GUEST_ARCH}/*; do
		[ -x "$f" ] && GUEST_ADDS+=(--add "$f:/kstats/bin/$(basename "$f")")
	done
	return 0
}

# peer_adds TOOL...: set PEER_ADDS to the vm-run.sh --add options that put
# the host's copies of TOOLs (Debian's libbpf-tools binaries in /usr/sbin,
# bpftrace in /usr/bin) into a guest at the same paths, with the shared
# libraries ldd names and the dynamic loader: the busybox guest has no
# libc of its own.  Returns 1 (PEER_ADDS empty) naming on stderr the first
# tool the host lacks (scripts/deps.sh installs them).
peer_adds() {
	local t p lib seen=" "
	PEER_ADDS=()
	for t in "$@"; do
		p=$(command -v "$t" 2>/dev/null || true)
		[ -n "$p" ] || { [ -x "/usr/sbin/$t" ] && p=/usr/sbin/$t; }
		if [ -z "$p" ]; then
			say "peer_adds: $t is not installed (scripts/deps.sh)"
			PEER_ADDS=()
			return 1
		fi
		PEER_ADDS+=(--add "$p:$p")
		# "name => /path (addr)" and the loader's "/path (addr)"; the
		# guest's loader finds them at the path ldd printed, so copy
		# each symlink's target there
		for lib in $(ldd "$p" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
			case $seen in *" $lib "*) continue ;; esac
			seen+="$lib "
			PEER_ADDS+=(--add "$(readlink -f "$lib"):$lib")
		done
	done
}

# integration_peers KERNEL-NAME: set PEER_ADDS to what the integration
# boot of that Debian kernel (debian_kernels' name) gets of the peers:
# 6.12's gets libbpf-tools' funclatency, runqlat, biolatency and offcputime for the
# cross-checks (tests/guest/trace-peers.sh, recipes-peers.sh), and
# /kstats/peers.want, which makes those fail rather than skip when a peer
# is missing (also when the host lacks them) or does not start; the
# others get nothing (the checks skip there, saying why).
integration_peers() {
	local want=$KSTATS_ROOT/build/peers.want
	PEER_ADDS=()
	[ "$1" = 6.12 ] || return 0
	mkdir -p "${want%/*}"
	echo "funclatency runqlat biolatency offcputime" > "$want"
	peer_adds funclatency runqlat biolatency offcputime || true
	PEER_ADDS+=(--add "$want:/kstats/peers.want")
}
