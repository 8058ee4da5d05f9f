#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where a node's instructions go, function by function of kstats.ko, per
# call of the path it traces:
#
#   bench/hot-profile.sh [--kernel 6.12|6.1] [--loops N] [--pipe]
#       [--func FUNC]... 'CONTROL COMMAND'
#
# Builds kstats.ko for the Debian kernel (build/profile-KVER), boots it in
# QEMU with the instruction clock, one vCPU and QEMU's log of the blocks
# run in the modules' area (tests/vm-run.sh --exec-log), creates the
# node with CONTROL COMMAND (a `_control` line; its name is its second
# word), runs getppid_bench N 1 (or pipe_bench N 1, a pipe round trip a
# loop, with --pipe), and counts what kstats.ko ran in that loop
# (bench/hot-profile.py).  Prints the loop's cost untraced (before the
# node, after a warm-up of ten times as many loops, and after it) and
# traced (the bench's own figure: instructions, under icount; the
# kernel's own path costs more for some seconds after boot, so these are
# a guide: `make bench` has the figures), the module's
# instructions a loop by function, and each --func's blocks.  The rest of
# the traced cost is the kernel's: the tracepoint's or the trampoline's
# way to the probe.  A diagnostic, not a figure of `make bench`.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
DIE_STATUS=2

kname=6.12 loops=2000 bench=getppid_bench funcs=()
while [ $# -gt 1 ]; do
	case $1 in
	--kernel)	kname=$2; shift ;;
	--loops)	loops=$2; shift ;;
	--pipe)		bench=pipe_bench ;;
	--func)		funcs+=("$2"); shift ;;
	*)		die "unknown option $1" ;;
	esac
	shift
done
[ $# = 1 ] || die "usage: hot-profile.sh [--kernel 6.12|6.1] [--loops N] [--pipe] [--func FUNC]... 'CONTROL COMMAND'"
cmd=$1
node=$(echo "$cmd" | awk '{ print $2 }')
read -r _ img kdir < <(debian_kernels | awk -v k="$kname" '$1 == k')
[ -n "${img:-}" ] && [ "$img" != - ] && [ "$kdir" != - ] ||
	die "no Debian $kname kernel and headers"

out=$KSTATS_ROOT/build/profile-$kname
kbuild_copy "profile-$kname" "$kdir" modules ||
	die "build failed: build/logs/build-profile-$kname.log"
gcc -static -O2 -Wall -o "$out/$bench" "$KSTATS_ROOT/bench/$bench.c" ||
	die "$bench did not build"

cat > "$out/guest.sh" <<EOF
KS=/sys/kernel/debug/kstats
insmod /kstats/kstats.ko || exit 1
echo "PROFILE text \$(cat /sys/module/kstats/sections/.text)"
# the first seconds after boot, the kernel's own path costs more
sleep 3
/kstats/$bench $((loops * 10)) 1 > /dev/null
echo "PROFILE untraced \$(/kstats/$bench $loops 1)"
echo "$cmd" > \$KS/_control || exit 1
cat \$KS/$node > /dev/null
echo "PROFILE traced \$(/kstats/$bench $loops 1)"
cat \$KS/$node > /dev/null
echo "remove $node" > \$KS/_control
echo "PROFILE after \$(/kstats/$bench $loops 1)"
EOF
rm -f "$out/exec.log"
"$KSTATS_ROOT/tests/vm-run.sh" --kernel "$img" --icount --smp 1 --mem 1024 \
	--script "$out/guest.sh" --add "$out/kstats.ko" \
	--add "$out/$bench" --exec-log "$out/exec.log" --timeout 900 \
	--log "$out/console.log" > /dev/null ||
	die "the guest failed: $out/console.log"
field() { grep -a "^PROFILE $1 " "$out/console.log" | head -n1 | awk '{ print $3 }' | tr -d '\r'; }
text=$(field text)
[ -n "$text" ] || die "no .text address in $out/console.log"
echo "# $bench, a loop: untraced $(field untraced) (after: $(field after)), traced $(field traced) (instructions)"
python3 "$(dirname "$0")/hot-profile.py" "$out/exec.log" "$out/kstats.ko" \
	"$text" kstats_node_release,kstats_node_open "$loops" "${funcs[@]}"
