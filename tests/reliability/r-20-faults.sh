# SPDX-License-Identifier: GPL-2.0
#
# Faults: every allocation of a creation path fails in turn (fail-nth, on
# top of failslab and fail_page_alloc, see tests/guest/kfuzz.c): `new`,
# `trace` of sections (kprobes, tracepoints), a node write and module load
# (function traces: see TRACE_FN_FAULTS below).  Each must fail with ENOMEM or absorb the fault, leave nothing
# behind, and the next command must work; kmemleak is read at the end of
# the boot by scripts/vm-run.sh.

DBG=/sys/kernel/debug
faults_setup() {
	local d
	for d in $DBG/failslab $DBG/fail_page_alloc; do
		[ -d $d ] || return 1
		echo N > $d/ignore-gfp-wait
		echo 0 > $d/verbose
		echo 0 > $d/probability
		echo -1 > $d/times
	done
	echo 0 > $DBG/fail_page_alloc/min-order
	echo N > $DBG/fail_page_alloc/ignore-gfp-highmem
}

R_FAULTS=0
# failnth_check DESC KFUZZ-ARGS...: one kfuzz failnth/failload run.
failnth_check() {
	local d=$1 rc=0 n
	shift
	kfuzz "$@" > /tmp/kfuzz.out 2>&1 || rc=$?
	grep '^# kfuzz' /tmp/kfuzz.out
	n=$(sed -n 's/^# kfuzz failnth .*: \([0-9]*\) faults injected.*/\1/p' /tmp/kfuzz.out)
	R_FAULTS=$((R_FAULTS + ${n:-0}))
	if [ $rc = 0 ] && [ "${n:-0}" -gt 0 ]; then ok "$d"; else
		not_ok "$d (exit $rc, ${n:-0} faults)"; grep -v '^# kfuzz' /tmp/kfuzz.out | head -n 30; fi
}

if ! faults_setup || [ ! -e /proc/self/fail-nth ]; then
	skip "fault injection" "no failslab/fail_page_alloc/fail-nth in this kernel"
	return 0
fi
check "insmod kstats.ko (faults)" insmod $KB/kstats.ko
P=__x64_sys_getppid
failnth_check "faults in 'new'" failnth 200 $KS/_control "new f1 bits 3" "remove f1"
failnth_check "faults in 'new ... max'" failnth 200 $KS/_control "new f2 bits 5 clock none max 100000" "remove f2"
# Function traces only with TRACE_FN_FAULTS=1: their calibration registers
# and unregisters a probe on every success, and a fault in the kernel's own
# kprobe-ftrace disarm there makes kprobes WARN "Failed to disarm
# kprobe-ftrace" and keep the freed kprobe listed (a use-after-free in the
# kernel's kprobes that unregister_kretprobe() cannot report).  An ENOMEM
# from register_fprobe() also falls back to a kretprobe, which gets there.
if [ -n "${TRACE_FN_FAULTS:-}" ]; then
	failnth_check "faults in 'trace' (fprobe or kretprobe)" failnth 400 $KS/_control \
		"trace $P name ft1" "remove ft1"
	failnth_check "faults in 'trace ... mech kretprobe gap'" failnth 400 $KS/_control \
		"trace $P name ft2 mech kretprobe maxactive 8 gap" "remove ft2"
fi
failnth_check "faults in 'trace' of a tracepoint section" failnth 400 $KS/_control \
	"trace fs1 start tp:raw_syscalls:sys_enter end tp:raw_syscalls:sys_exit" "remove fs1"
failnth_check "faults in 'trace' of a kprobe section" failnth 400 $KS/_control \
	"trace fs2 start $P end $P" "remove fs2"
expect "new n1 after the faults" "$(ctl $KS/_control 'new n1')" ok
failnth_check "faults in a node write" failnth 50 $KS/n1 reset
expect "nothing left behind by the faults" "$(ls $KS | tr '\n' ' ')" "_control _errors n1 "
expect "remove all after the faults" "$(ctl $KS/_control 'remove all')" ok
check "rmmod kstats before the load faults" rmmod_wait kstats
failnth_check "faults in module load" failload 600 $KB/kstats.ko kstats
check "insmod kstats.ko after the load faults" insmod $KB/kstats.ko
expect "new works after the load faults" "$(ctl $KS/_control 'new after_faults')" ok
expect "remove all after the load faults" "$(ctl $KS/_control 'remove all')" ok
check "rmmod kstats (faults)" rmmod_wait kstats
diag "reliability: faults injected: $R_FAULTS"
