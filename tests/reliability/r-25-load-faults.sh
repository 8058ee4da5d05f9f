# SPDX-License-Identifier: GPL-2.0
#
# Load faults: every allocation of `insmod kstats.ko` fails in turn
# (fail-nth, see faults.sh), the module loader's own and kstats' init's:
# each load must fail with ENOMEM or absorb the fault (then unload), and
# leave nothing behind: the next load works.  Its own file, so that
# tests/check.sh boots it apart (T_ONLY=25): a load is long on the
# debug kernel, and there are hundreds.  LOAD_FAULTS (default 1-600; from
# the kernel command line) is the allocations it fails, FIRST-LAST, so
# that the range may be split across boots.

. ./faults.sh
faults_or_skip || return 0
LOAD_FAULTS=${LOAD_FAULTS:-1-600}
failnth_check "faults in module load ($LOAD_FAULTS)" failload "$LOAD_FAULTS" $KB/kstats.ko kstats
check "insmod kstats.ko after the load faults" insmod $KB/kstats.ko
expect "new works after the load faults" "$(ctl $KS/_control 'new after_faults')" ok
expect "remove all after the load faults" "$(ctl $KS/_control 'remove all')" ok
check "rmmod kstats (load faults)" rmmod kstats
diag "reliability: load faults injected: $R_FAULTS ($LOAD_FAULTS)"
