# SPDX-License-Identifier: GPL-2.0
#
# Load faults: allocations of `insmod kstats.ko` fail one at a time
# (fail-nth, see faults.sh), each load failing with ENOMEM or absorbing
# the fault (then unloaded), and leaving nothing behind: the next load
# works.  A load makes about 1000 allocations on the debug kernel: the
# loader's first (about 170), then one a function of kstats' noinstr and
# kprobes sections (the kprobes blacklist, about 800, each absorbed by
# kprobes), then the module's sysfs files, then kstats' init: so the first
# 200 and the last 200 (kfuzz's last-N, counted by a load without
# faults).  Its own file, so that tests/check.sh boots it apart (T_ONLY=25):
# a load is long on the debug kernel.  LOAD_FAULTS (default "1-200
# last-200"; from the kernel command line, one of them a boot) is the
# ranges: FIRST-LAST or last-N.

. ./faults.sh
faults_or_skip || return 0
LOAD_FAULTS=${LOAD_FAULTS:-1-200 last-200}
for r in $LOAD_FAULTS; do
	# From the end, the slab's allocations only: how many pages a load
	# takes depends on what the slabs already hold, so with them the
	# count from the end would drift (by tens) from one load to the next.
	case $r in
	last-*)	echo 32 > $DBG/fail_page_alloc/min-order ;;
	*)	echo 0 > $DBG/fail_page_alloc/min-order ;;
	esac
	failnth_check "faults in module load ($r)" failload "$r" $KB/kstats.ko kstats
done
echo 0 > $DBG/fail_page_alloc/min-order
check "insmod kstats.ko after the load faults" insmod $KB/kstats.ko
expect "new works after the load faults" "$(ctl $KS/_control 'new after_faults')" ok
expect "remove all after the load faults" "$(ctl $KS/_control 'remove all')" ok
check "rmmod kstats (load faults)" rmmod kstats
diag "reliability: load faults injected: $R_FAULTS ($LOAD_FAULTS)"
