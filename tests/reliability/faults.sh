# SPDX-License-Identifier: GPL-2.0
#
# Fault injection for r-20-faults.sh and r-25-load-faults.sh, each of
# which may run alone (T_ONLY): not an r-*.sh, so the stage does not run
# it as one.  fail-nth (/proc/thread-self/fail-nth, see tests/guest/kfuzz.c)
# fails the Nth allocation of one system call, on top of failslab and
# fail_page_alloc; their `verbose` 0 keeps the injection from printing a
# stack for each fault it makes.

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

# failnth_check DESC KFUZZ-ARGS...: one kfuzz failnth/failload run; its
# faults are added to R_FAULTS.
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

# faults_or_skip: set up the injection; false, with a SKIP, where the
# kernel has none of it.
faults_or_skip() {
	R_FAULTS=0
	faults_setup && [ -e /proc/self/fail-nth ] && return 0
	skip "fault injection" "no failslab/fail_page_alloc/fail-nth in this kernel"
	return 1
}
