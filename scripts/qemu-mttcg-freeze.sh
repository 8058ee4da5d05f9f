#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# QEMU's MTTCG freezes a guest under ftrace's text patching, with no kstats
# at all: the reproducer behind "every suite runs on one TCG thread"
# (Documentation/testing.rst).  Not part of `make check`: it is expected
# to freeze under --mttcg.
#
#   scripts/qemu-mttcg-freeze.sh [--kernel BZIMAGE] [--mttcg|--tcg-single]
#       [--minutes N] [--stall S] [--smp N] [--log FILE]
#
# Boots BZIMAGE (default: Debian's 6.12 image in /boot) on 2 vCPUs, MTTCG
# by default, with no kstats module, and loops in the guest, enabling then
# disabling: a kprobe event (p:kp vfs_read), a kretprobe event with
# $retval (r:kr vfs_read $retval), both made and deleted each round, the
# sched_switch, sched_wakeup and raw_syscalls tracepoints, and the function
# tracer with set_ftrace_filter=schedule; while four busybox loops run
# (system calls, forks, pipes, sleeps).  The guest prints a heartbeat
# every second, "HB N UPTIME", straight to its console: it stops when the
# guest's own timers stop.  The host calls the guest frozen when no
# heartbeat came for S seconds (--stall, default 60) while QEMU still
# runs, then kills QEMU.  The console log is kept (--log, default
# build/logs/qemu-mttcg-freeze-<release>-<mode>.log).
#
# Prints one verdict line on stdout; exit status 0: ran clean for N
# minutes (default 5); 1: froze; 2: setup error (no kernel, no heartbeat
# ever: the boot failed); 3: no freeze, but the guest ended early or the
# kernel reported something (vm-run.sh's scan: the lines on stderr).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
export DIE_STATUS=2	# lib.sh's die(): setup errors

usage() { awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print } /^set / { exit }' "$0" >&2; exit 2; }

kernel='' mode=mttcg minutes=5 stall=60 smp=2 log=''
while [ $# -gt 0 ]; do
	case $1 in
	--kernel)	kernel=$2; shift ;;
	--mttcg)	mode=mttcg ;;
	--tcg-single)	mode=tcg-single ;;
	--minutes)	minutes=$2; shift ;;
	--stall)	stall=$2; shift ;;
	--smp)		smp=$2; shift ;;
	--log)		log=$2; shift ;;
	-h|--help)	usage ;;
	*)		say "unknown option $1"; usage ;;
	esac
	shift
done
if [ -z "$kernel" ]; then
	kernel=$(debian_kernels | awk '$1 == "6.12" { print $2 }')
	[ "$kernel" != - ] || kernel=
fi
{ [ -n "$kernel" ] && [ -r "$kernel" ]; } || die "no kernel image (--kernel, or Debian's 6.12 in /boot: scripts/deps.sh)"
case $minutes$stall in *[!0-9]*) die "--minutes and --stall take whole numbers" ;; esac
rel=${kernel##*/vmlinuz-}
[ -n "$log" ] || log=$KSTATS_ROOT/build/logs/qemu-mttcg-freeze-$rel-$mode.log
mkdir -p "$(dirname "$log")"

work=$(mktemp -d "${TMPDIR:-/tmp}/kstats-freeze.XXXXXX")
vm=''
# shellcheck disable=SC2317  # run by the trap
cleanup() {
	# vm-run.sh runs in its own session (setsid): its group is QEMU and
	# timeout(1), ours to end
	[ -z "$vm" ] || kill -- -"$vm" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

# The guest's side.  Everything here is ftrace's and the kernel's own.
cat > "$work/guest.sh" <<EOF
secs=$((minutes * 60))
EOF
cat >> "$work/guest.sh" <<'EOF'
T=/sys/kernel/tracing
[ -e $T/kprobe_events ] || T=/sys/kernel/debug/tracing
if [ ! -e $T/kprobe_events ] || [ ! -e $T/set_ftrace_filter ]; then
	echo "FREEZE-SETUP: no kprobe_events or set_ftrace_filter in $T"
	exit 2
fi
# the heartbeat: on the console itself, not through the TAP pipe
(
	n=0
	while :; do
		n=$((n + 1))
		echo "HB $n $(cut -d' ' -f1 /proc/uptime)" > /dev/console
		sleep 1
	done
) &
hb=$!
# four workloads: system calls, forks, pipes, sleeps
(while :; do read -r u < /proc/uptime; done) &
w1=$!
(while :; do sh -c : ; done) &
w2=$!
(while :; do dd if=/dev/zero bs=4096 count=64 2>/dev/null | cat > /dev/null; done) &
w3=$!
(while :; do sleep 0.01; done) &
w4=$!
echo 256 > $T/buffer_size_kb
set_all() {
	v=$1
	for f in $T/events/kprobes/kp/enable $T/events/kprobes/kr/enable \
		 $T/events/sched/sched_switch/enable $T/events/sched/sched_wakeup/enable \
		 $T/events/raw_syscalls/enable; do
		[ ! -e "$f" ] || echo "$v" > "$f"
	done
}
end=$(($(date +%s) + secs))
rounds=0 errs=0
while [ "$(date +%s)" -lt "$end" ]; do
	echo 'p:kp vfs_read' >> $T/kprobe_events || errs=$((errs + 1))
	echo 'r:kr vfs_read $retval' >> $T/kprobe_events || errs=$((errs + 1))
	set_all 1
	echo schedule > $T/set_ftrace_filter || errs=$((errs + 1))
	echo function > $T/current_tracer || errs=$((errs + 1))
	sleep 0.2
	echo nop > $T/current_tracer
	echo > $T/set_ftrace_filter
	set_all 0
	echo '-:kp' >> $T/kprobe_events || errs=$((errs + 1))
	echo '-:kr' >> $T/kprobe_events || errs=$((errs + 1))
	rounds=$((rounds + 1))
	[ $((rounds % 50)) != 0 ] || echo "FREEZE-ROUNDS $rounds errors $errs uptime $(cut -d' ' -f1 /proc/uptime)" > /dev/console
done
kill $w1 $w2 $w3 $w4 $hb
wait 2>/dev/null
echo "FREEZE-DONE rounds $rounds errors $errs"
EOF

accel=(--mttcg)
[ "$mode" = mttcg ] || accel=(--tcg-single)
# QEMU's own bound: the run, plus boot (slow under TCG) and a margin; the
# heartbeat watch below decides long before it on a freeze
vmtimeout=$((minutes * 60 + 240))
t0=$(date +%s)
setsid "$KSTATS_ROOT/tests/vm-run.sh" --kernel "$kernel" --smp "$smp" "${accel[@]}" \
	--timeout "$vmtimeout" --log "$log" --script "$work/guest.sh" \
	> "$work/vm.out" 2> "$work/vm.err" &
vm=$!
say "booting $rel, $mode, $smp vCPUs, $minutes min; frozen after ${stall}s without a heartbeat; log $log"

# hb_last: the last heartbeat line of the log, "N UPTIME", or nothing.
hb_last() { tr -d '\r' < "$log" 2>/dev/null | grep -a '^HB [0-9]' | tail -n1 | cut -d' ' -f2- || true; }
# vm_running: vm-run.sh has not exited (a zombie until waited for is out)
vm_running() { [ -e "/proc/$vm" ] && ! grep -q '^[^)]*) Z' "/proc/$vm/stat" 2>/dev/null; }
# qemu_running: QEMU itself, in vm-run.sh's session, still runs
qemu_running() { pgrep -s "$vm" qemu-system > /dev/null; }
# first_report: the kernel's first oops or panic line, without its timestamp
first_report() {
	tr -d '\r' < "$log" | grep -a -m1 -E '\] (Oops|BUG:|Kernel panic|general protection)' |
		sed 's/^\[ *\([0-9.]*\)\] /at guest uptime \1 s: /' || true
}

last='' since=$(date +%s) verdict='' status=''
while vm_running; do
	sleep 2
	hb=$(hb_last)
	nowt=$(date +%s)
	if [ "$hb" != "$last" ]; then
		last=$hb since=$nowt
		continue
	fi
	qemu_running || continue	# QEMU exited: vm-run.sh is scanning
	if [ -z "$last" ]; then
		# no heartbeat yet: still booting, for at most 240 s
		if [ $((nowt - t0)) -ge 240 ]; then
			verdict="no heartbeat $((nowt - t0)) s after boot (boot failed or froze early)"
			status=2
			break
		fi
	elif [ $((nowt - since)) -ge "$stall" ]; then
		verdict="FROZE $((since - t0)) s after boot: heartbeat ${last% *} (guest uptime ${last#* } s) was the last, none for $((nowt - since)) s while QEMU ran"
		status=1
		break
	fi
done
rounds=''
if [ -z "$status" ]; then
	rc=0
	wait "$vm" || rc=$?
	vm=''
	done_line=$(tr -d '\r' < "$log" | grep -a -m1 '^FREEZE-DONE' || true)
	report=$(first_report)
	if [ "$rc" = 0 ] && [ -n "$done_line" ]; then
		verdict="ran clean for $minutes min: ${done_line#FREEZE-DONE }, last heartbeat ${last% *}"
		status=0
	elif [ -n "$report" ] && [ -z "$done_line" ]; then
		# the same fault seen from inside: a vCPU ran a stale
		# translation of patched text (an int3 nobody claims)
		verdict="CRASHED $(($(date +%s) - t0)) s after boot, $report"
		status=1
	else
		verdict="no freeze, but vm-run.sh exited $rc (${done_line:-the guest did not finish}); last heartbeat ${last:-none}"
		status=3
		sed 's/^/  /' "$work/vm.err" >&2
	fi
else
	kill -- -"$vm" 2>/dev/null || true
	wait "$vm" 2>/dev/null || true
	vm=''
fi
[ "$status" != 1 ] || rounds=$(tr -d '\r' < "$log" | grep -a '^FREEZE-ROUNDS' | tail -n1 | cut -d' ' -f2 || true)
[ "$status" != 1 ] || verdict+=" (${rounds:-under 50} rounds done)"
echo "qemu-mttcg-freeze: $rel $mode smp $smp: $verdict; log $log"
exit "$status"
