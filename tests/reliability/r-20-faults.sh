# SPDX-License-Identifier: GPL-2.0
#
# Faults: every allocation of a creation path fails in turn (fail-nth, on
# top of failslab and fail_page_alloc, see faults.sh): `new`, `trace` of
# sections (kprobes, tracepoints) and a node write (function traces: see
# TRACE_FN_FAULTS below; module load: r-25-load-faults.sh).  Each must
# fail with ENOMEM or absorb the fault, leave nothing behind, and the next
# command must work; kmemleak is read at the end of the boot by
# tests/vm-run.sh.

. ./faults.sh
faults_or_skip || return 0
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
expect "nothing left behind by the faults" "$(ls $KS | tr '\n' ' ')" "_control _errors _history n1 "
expect "remove all after the faults" "$(ctl $KS/_control 'remove all')" ok
check "rmmod kstats (faults)" rmmod kstats
diag "reliability: faults injected: $R_FAULTS"
