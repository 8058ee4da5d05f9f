#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a kernel in QEMU (TCG) with a generated busybox initramfs and run a
# guest script in it; then scan the console log for kernel reports.
#
#   tests/vm-run.sh --kernel BZIMAGE [--script GUEST.sh] [--add SRC[:DEST]]...
#       [--smp N] [--icount] [--mem MB] [--timeout S] [--append "ARGS"]
#       [--log FILE] [--allow-warn REGEX]... [--modules-dir DIR --module NAME]...
#       [--kvm] [--mttcg] [--tcg-single] [--arch x86_64|arm64 [--busybox PATH]]
#       [--exec-log FILE] [--loglevel N] [-v|--verbose]
#
# The guest script runs under /init with `sh`, cwd /kstats; its stdout is the
# TAP that this script prints on its own stdout (copied from between the
# KSTATS-TAP-BEGIN/END markers of the log); its stderr only goes to the log.
# --add puts a host file at DEST in the guest (default /kstats/<basename>).
# --modules-dir/--module copy a module of the kernel's /lib/modules/<ver>
# tree and its dependencies, for `modprobe NAME` in the guest.
# TCG runs every vCPU on one host thread (-accel tcg,thread=single), and
# every suite of `make check` runs so: QEMU's MTTCG (--mttcg, a host thread
# per vCPU) freezes or crashes a guest under text patching with no kstats
# loaded at all (a stale translation of text that text_poke_bp() had just
# patched: an int3 nobody claims, a vCPU that never answers the patcher's
# IPI); scripts/qemu-mttcg-freeze.sh reproduces it, and
# Documentation/testing.rst says what it shows.  One thread still runs
# several vCPUs, interleaved, which is what the stress of the suites needs.
# --mttcg stays for experiments and benchmarks; --tcg-single, after it,
# takes it back.
# --arch arm64 boots an arm64 kernel in qemu-system-aarch64 (-M virt -cpu
# max, console on ttyAMA0) with an arm64 static busybox (--busybox, default
# the one scripts/arm64-kernels.sh caches).
# The console is quiet: the kernel prints on it only what is below
# --loglevel (default 4: KERN_ERR and worse, and everything once an oops or
# a lockdep report made it verbose), since every character of it costs a
# trap into QEMU's emulated UART while the guest waits; the rest stays in
# a ring buffer of 8 MiB (log_buf_len), which the guest prints whole at its
# end and on its watchdog (30 s, or a tenth of --timeout, before the
# host kills it), from /dev/kmsg, in the console's format.  The scan below
# reads both.  --loglevel 8 streams everything, as a console would.
# --exec-log FILE (x86-64): QEMU logs into FILE each translation block it
# runs in the modules' area, and its instructions when it translates it
# (-d exec,nochain,in_asm): what bench/hot-profile.sh counts.
#
# Exit status: 0 all clean; 1 kernel report (BUG, WARNING, KASAN, lockdep,
# kmemleak, panic...), timeout, no exit marker or a kernel log not printed
# whole (offending lines on stderr); 3 log clean but the guest script
# exited non-zero; 2 usage or setup error.  --append may be given more
# than once: the kernel gets them all.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
DIE_STATUS=2	# setup errors are usage errors, not kernel reports

usage() { awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print } /^set / { exit }' "$0" >&2; exit 2; }

kernel= script= smp=2 icount=0 mem=1024 timeout=300 append= log= verbose=0 loglevel=4
accel=tcg,thread=single moddir= arch=x86_64 busybox= exec_log=
adds=() allow=() modules=()
while [ $# -gt 0 ]; do
	case $1 in
	--kernel)	kernel=$2; shift ;;
	--script)	script=$2; shift ;;
	--add)		adds+=("$2"); shift ;;
	--smp)		smp=$2; shift ;;
	--icount)	icount=1 ;;
	--mem)		mem=$2; shift ;;
	--timeout)	timeout=$2; shift ;;
	--append)	append+=" $2"; shift ;;
	--log)		log=$2; shift ;;
	--allow-warn)	allow+=("$2"); shift ;;
	--modules-dir)	moddir=$2; shift ;;
	--module)	modules+=("$2"); shift ;;
	--kvm)		accel=kvm ;;
	--mttcg)	accel=tcg,thread=multi ;;
	--tcg-single)	accel=tcg,thread=single ;;
	--arch)		arch=$2; shift ;;
	--busybox)	busybox=$2; shift ;;
	--exec-log)	exec_log=$2; shift ;;
	--loglevel)	loglevel=$2; shift ;;
	-v|--verbose)	verbose=1 ;;
	-h|--help)	usage ;;
	*)		say "unknown option $1"; usage ;;
	esac
	shift
done
[ -n "$kernel" ] || usage
[ -r "$kernel" ] || die "cannot read kernel $kernel"
[ -z "$script" ] || [ -r "$script" ] || die "cannot read guest script $script"
[ "$icount" = 0 ] || smp=1	# icount needs one vCPU (6.1 hangs with more)
case $arch in
x86_64)	busybox=${busybox:-/bin/busybox} ;;
arm64)	busybox=${busybox:-$KSTATS_CACHE/arm64/busybox/root/bin/busybox}
	[ "$accel" != kvm ] || die "--kvm boots only the host's own architecture" ;;
*)	die "--arch: x86_64 or arm64, not $arch" ;;
esac
[ -x "$busybox" ] || die "no busybox at $busybox (scripts/deps.sh, scripts/arm64-kernels.sh)"

work=$(mktemp -d "${TMPDIR:-/tmp}/kstats-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT
[ -n "$log" ] || log=$work/console.log
mkdir -p "$(dirname "$log")"
root=$work/root

# --- initramfs ---------------------------------------------------------------
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,kstats/bin,etc,root}
cp "$busybox" "$root/bin/busybox"
[ "$arch" != x86_64 ] || ! ldd "$busybox" >/dev/null 2>&1 ||
	die "$busybox is not static: install busybox-static (scripts/deps.sh)"
mknod -m 600 "$root/dev/console" c 5 1 2>/dev/null || true

for a in "${adds[@]}"; do
	src=${a%%:*}
	dest=/kstats/$(basename "$src")
	[ "$src" = "$a" ] || dest=${a#*:}
	[ -e "$src" ] || die "--add: no such file $src"
	mkdir -p "$root$(dirname "$dest")"
	cp -r "$src" "$root$dest"
done
[ -z "$script" ] || cp "$script" "$root/kstats-guest.sh"

# Modules of the kernel's own tree, decompressed, with their dependencies.
if [ ${#modules[@]} -gt 0 ]; then
	[ -f "$moddir/modules.dep" ] || die "--module needs --modules-dir with modules.dep"
	kver=$(basename "$moddir")
	mdst=$root/lib/modules/$kver
	mkdir -p "$mdst"
	want=()
	for m in "${modules[@]}"; do
		line=$(grep -E "(^|/)${m//-/[-_]}\.ko(\.[gx]z|\.zst)?:" "$moddir/modules.dep") ||
			die "module $m not in $moddir/modules.dep"
		want+=(${line/:/})
	done
	for rel in $(printf '%s\n' "${want[@]}" | sort -u); do
		mkdir -p "$mdst/$(dirname "$rel")"
		case $rel in
		*.xz)	xz -dc "$moddir/$rel" > "$mdst/${rel%.xz}" ;;
		*.gz)	gzip -dc "$moddir/$rel" > "$mdst/${rel%.gz}" ;;
		*.zst)	zstd -qdc "$moddir/$rel" > "$mdst/${rel%.zst}" ;;
		*)	cp "$moddir/$rel" "$mdst/$rel" ;;
		esac
	done
	sed -E 's/\.ko\.(xz|gz|zst)/.ko/g' "$moddir/modules.dep" > "$mdst/modules.dep"
fi

cat > "$root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s
export PATH=/kstats/bin:/kstats:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
mount -t devtmpfs devtmpfs /dev 2>/dev/null
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t debugfs debugfs /sys/kernel/debug
[ -d /sys/kernel/tracing ] && mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t tmpfs tmpfs /tmp 2>/dev/null
ln -s /proc/self/fd /dev/fd 2>/dev/null
echo "KSTATS-GUEST-START $(uname -r) cpus=$(grep -c ^processor /proc/cpuinfo)"
# kmsg_dump WHY: the kernel's log, which the quiet console did not show
# (loglevel, see the host's script), printed whole as the console prints
# it ("[ seconds] text"), between KSTATS-KMSG-BEGIN WHY and KSTATS-KMSG-END.
# Read from /dev/kmsg, which a test's `dmesg -c` does not clear, up to a
# mark written after everything else: a reader that never gets its mark
# says so (KSTATS-KMSG-CUT), one that finds the buffer's first records
# overwritten says how many (KSTATS-KMSG-LOST).
kmsg_dump() {
	local raw=/tmp/kmsg.$1 mark="KSTATS-KMSG-MARK $1" i=0
	cat /dev/kmsg > $raw 2>/dev/null &
	kp=$!
	echo "$mark" > /dev/kmsg
	until grep -q "$mark" $raw 2>/dev/null || [ $i -ge 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill $kp 2>/dev/null
	wait $kp 2>/dev/null
	echo "KSTATS-KMSG-BEGIN $1"
	# "LEVEL,SEQ,MICROSECONDS,FLAGS;TEXT", then " KEY=VALUE" lines
	awk -v mark="$mark" '
		/^ / { next }
		{
			i = index($0, ";")
			if (!i) next
			split(substr($0, 1, i - 1), f, ",")
			if (NR == 1 && f[2] > 0) print "KSTATS-KMSG-LOST " f[2]
			t = substr($0, i + 1)
			s = int(f[3] / 1000000)
			printf "[%5d.%06d] %s\n", s, f[3] - s * 1000000, t
			if (t == mark) { found = 1; exit }
		}
		END { if (!found) print "KSTATS-KMSG-CUT: the reader got no mark in 30 s" }' $raw
	echo "KSTATS-KMSG-END"
	rm -f $raw
}
# Shortly before the host kills a guest that runs too long, show where its
# tasks are (the kernel stack of each blocked or running one, from /proc,
# which needs no sysrq; with sysrq, the kernel's own list of blocked tasks
# and every CPU's backtrace), and the kernel's log.
if [ -f /kstats-watchdog ]; then
	(
		sleep "$(cat /kstats-watchdog)"
		echo "KSTATS-GUEST-WATCHDOG: still running: the tasks in D or R, and with sysrq the CPUs, follow"
		for f in $(grep -l '^State:[[:space:]]*[DR]' /proc/[0-9]*/status 2>/dev/null); do
			d=${f%/status}
			echo "KSTATS-GUEST-WATCHDOG: ${d#/proc/} $(cat $d/comm 2>/dev/null):"
			sed 's/^/    /' $d/stack 2>/dev/null
		done
		if [ -w /proc/sysrq-trigger ]; then
			echo 1 > /proc/sys/kernel/sysrq
			echo w > /proc/sysrq-trigger
			echo l > /proc/sysrq-trigger
		fi
		kmsg_dump watchdog
	) &
fi
rc=0
if [ -f /kstats-guest.sh ]; then
	cd /kstats
	mkfifo /tap.fifo
	tee /tap.out < /tap.fifo &
	tpid=$!
	sh /kstats-guest.sh > /tap.fifo
	rc=$?
	wait $tpid
	cd /
fi
echo "KSTATS-GUEST-EXIT $rc"
# kmemleak reports an object once two scans found it unreferenced and
# unchanged, the second at least 5 s (its minimum age) after the first
# began: a scan takes longer than that under TCG on the debug kernel, so
# the wait is only what the first scan left of it.
if [ -w /sys/kernel/debug/kmemleak ]; then
	read -r s0 _ < /proc/uptime
	echo scan > /sys/kernel/debug/kmemleak
	read -r s1 _ < /proc/uptime
	s0=${s0%.*} s1=${s1%.*}
	[ $((s1 - s0)) -ge 6 ] || sleep $((6 - (s1 - s0)))
	echo scan > /sys/kernel/debug/kmemleak
	echo KSTATS-KMEMLEAK-BEGIN
	cat /sys/kernel/debug/kmemleak
	echo KSTATS-KMEMLEAK-END
fi
kmsg_dump end
echo 1 > /proc/sys/kernel/printk
echo KSTATS-TAP-BEGIN
[ -f /tap.out ] && cat /tap.out
echo KSTATS-TAP-END
# poweroff needs ACPI (Debian kernels); the test kernel has none, and
# `reboot -f` makes QEMU (-no-reboot) exit as well.
[ -d /sys/firmware/acpi ] && poweroff -f
reboot -f
INIT
chmod +x "$root/init"
# The guest's watchdog fires 30 s, or a tenth of the timeout, before the
# host's timeout (none under 60 s): the time to print the kernel's log.
lead=$((timeout / 10 > 30 ? timeout / 10 : 30))
[ "$timeout" -ge 60 ] && echo $((timeout - lead)) > "$root/kstats-watchdog"
(cd "$root" && find . | cpio -o -H newc -R 0:0 --quiet | gzip -1) > "$work/initrd.gz"

# --- boot --------------------------------------------------------------------
case $arch in
x86_64)	qemu=(qemu-system-x86_64) console=ttyS0 ;;
arm64)	qemu=(qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on) console=ttyAMA0 ;;
esac
qemu+=(-accel "$accel" -m "$mem" -smp "$smp"
	-kernel "$kernel" -initrd "$work/initrd.gz"
	-append "console=$console panic=-1 printk.time=1 loglevel=$loglevel log_buf_len=8M $append"
	-display none -monitor none -serial stdio -no-reboot)
[ "$icount" = 0 ] || qemu+=(-icount shift=0,sleep=off)
if [ -n "$exec_log" ]; then
	[ "$arch" = x86_64 ] || die "--exec-log: x86-64 only"
	# MODULES_VADDR..MODULES_END: the modules, not the kernel's own text
	qemu+=(-d exec,nochain,in_asm
	       -dfilter 0xffffffffc0000000..0xfffffffffeffffff -D "$exec_log")
fi

say "booting $(basename "$kernel") (smp=$smp mem=${mem}M icount=$icount, timeout ${timeout}s, log $log)"
t0=$(date +%s.%N)
times > "$work/times.0"
rc=0
if [ "$verbose" = 1 ]; then
	timeout -k 5 "$timeout" "${qemu[@]}" < /dev/null | tee "$log" >&2 || rc=${PIPESTATUS[0]}
else
	timeout -k 5 "$timeout" "${qemu[@]}" < /dev/null > "$log" 2>&1 || rc=$?
fi
t1=$(date +%s.%N)
times > "$work/times.1"
tr -d '\r' < "$log" > "$work/log" || true
# the CPU time of QEMU (this script's children, the initramfs's few
# before it aside): how long the guest takes on a core of its own
cpu=$(cat "$work/times.0" "$work/times.1" | awk '
	NR % 2 == 0 { split($1, u, /[ms]/); split($2, k, /[ms]/)
		      c[NR / 2] = u[1] * 60 + u[2] + k[1] * 60 + k[2] }
	END { printf "%.1f", c[2] - c[1] }')

# --- scan ----------------------------------------------------------------------
# Kernel reports: only lines with a printk timestamp count (so that a test
# printing "WARNING:" is no report), plus kmemleak's block; whether the
# console printed them as they came (KERN_ERR and worse) or the guest's
# dump of the kernel's log at its end did, each is named once.
pat='BUG:|Oops|WARNING:|KASAN:|UBSAN:|possible circular locking|inconsistent lock state'
pat+='|possible recursive locking|suspicious RCU usage|Kernel panic|general protection fault'
pat+='|kernel BUG|sleeping function called from invalid context|unreferenced object'
pat+='|list_(add|del) corruption|INFO: task .* blocked for more than'
# stalls: RCU's (rcu_sched, rcu_preempt: "detected stalls on CPUs/tasks",
# "self-detected stall"), RCU Tasks' ("INFO: rcu_tasks detected stalls on
# tasks"), and the lockup detectors' (soft lockups also say BUG:)
pat+='|detected stalls on|self-detected stall|soft lockup|hard LOCKUP'
bad=$(awk -v pat="$pat" '
	/^KSTATS-KMEMLEAK-BEGIN$/ { k = 1; next }
	/^KSTATS-KMEMLEAK-END$/ { k = 0; next }
	k && /unreferenced object/ { print "kmemleak: " $0; next }
	/\[ *[0-9]+\.[0-9]+\]/ && $0 ~ pat && !seen[$0]++ { print }
	/^KSTATS-KMSG-LOST [0-9]/ { print "kernel log: its first " $2 " records were overwritten before the guest read them (log_buf_len)" }
	/^KSTATS-KMSG-CUT/ { print "kernel log: " $0 }
' "$work/log")
for re in "${allow[@]}"; do
	bad=$(printf '%s\n' "$bad" | grep -Ev -- "$re" || true)
done

status=0
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	bad+=$'\n'"timeout: killed after ${timeout}s"
fi
# the marker and the status the guest printed: the digits right after it
# (a kernel message on the console may land on the same line, after them)
exit_line=$(grep -m1 '^KSTATS-GUEST-EXIT [0-9]' "$work/log" |
	sed 's/^\(KSTATS-GUEST-EXIT [0-9]*\).*/\1/' || true)
if [ -z "$exit_line" ]; then
	bad+=$'\n'"no KSTATS-GUEST-EXIT marker (qemu exit $rc); last lines:"$'\n'"$(tail -n 15 "$work/log")"
elif ! awk '/^KSTATS-KMSG-BEGIN end$/ { b = 1 } b && /^KSTATS-KMSG-END$/ { e = 1 } END { exit !e }' "$work/log"; then
	bad+=$'\n'"kernel log: the guest exited but did not print its kernel log whole (KSTATS-KMSG-BEGIN end ... KSTATS-KMSG-END)"
fi
bad=$(printf '%s\n' "$bad" | sed '/^$/d')

if grep -q '^KSTATS-TAP-END$' "$work/log"; then
	awk '/^KSTATS-TAP-BEGIN$/ { t = 1; next } /^KSTATS-TAP-END$/ { t = 0 } t' "$work/log"
else	# cut short: the TAP-looking lines the guest printed live
	awk '/^KSTATS-GUEST-START/ { g = 1; next }
	     g && /^([ \t]*(not )?ok [0-9]|[ \t]*1\.\.[0-9]|[ \t]*#|TAP version|KTAP version)/' "$work/log"
fi

say "$(basename "$kernel"): $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s, ${exit_line:-no exit marker}, CPU $cpu s"
if [ "$log" = "$work/console.log" ] && { [ -n "$bad" ] || [ "${exit_line#KSTATS-GUEST-EXIT }" != 0 ]; }; then
	log=${TMPDIR:-/tmp}/kstats-vm-last.log
	cp "$work/console.log" "$log"
fi
if [ -n "$bad" ]; then
	say "kernel reports in $log:"
	printf '  %s\n' "$bad" | head -n 60 >&2
	status=1
elif [ "${exit_line#KSTATS-GUEST-EXIT }" != 0 ]; then
	say "guest script ${exit_line}, console log in $log"
	status=3
fi
exit $status
