# SPDX-License-Identifier: GPL-2.0
#
# Booted with lockdown=confidentiality (scripts/check.sh, stage
# "lockdown"): kstats.ko and kstats_stress.ko are signed with the test
# kernel's key, so they load; debugfs refuses every open of their files
# with EPERM; an unsigned module is refused; nothing crashes.
. /kstats/guest/lib.sh
echo "TAP version 13"
check "the kernel is locked down" dmesg_has "[Ll]ocked down|[Ll]ockdown"
check "insmod the signed kstats.ko" insmod $KB/kstats.ko
expect "debugfs still lists _control" "$(ls $KS 2>&1)" "_control"
expect "root cannot open _control" "$(kfuzz asuser 0 $KS/_control)" "read EPERM write EPERM"
check "insmod the signed kstats_stress.ko: the API works" insmod $KB/kstats_stress.ko threads=2
sleep 2
expect "root cannot open a distribution" "$(kfuzz asuser 0 $KS/stress0)" "read EPERM write EPERM"
check "rmmod kstats_stress" rmmod kstats_stress
expect "an unsigned module is refused" \
	"$(insmod $KB/kstats_example.ko 2>/dev/null && echo loaded || echo refused)" refused
check "rmmod kstats" rmmod kstats
diag "reliability: lockdown=confidentiality: module loads, debugfs opens refused with EPERM"
echo "1..$T_N"
[ "$T_FAIL" = 0 ]
