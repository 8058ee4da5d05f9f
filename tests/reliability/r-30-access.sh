# SPDX-License-Identifier: GPL-2.0
#
# Access: the files are root-only.  As uid 65534, opening for reading and
# for writing fails with EACCES: first behind debugfs' own 0700 root, then
# with the root remounted 0755 so that the files' 0600 mode decides.

check "insmod kstats.ko (access)" insmod $KB/kstats.ko
ctl $KS/_control "new acc1" > /dev/null
expect "nobody: _control" "$(kfuzz asuser 65534 $KS/_control)" "read EACCES write EACCES"
expect "nobody: a distribution" "$(kfuzz asuser 65534 $KS/acc1)" "read EACCES write EACCES"
if mount -o remount,mode=0755 /sys/kernel/debug 2>/dev/null &&
	[ "$(stat -c %a /sys/kernel/debug)" = 755 ]; then
	expect "nobody, debugfs root open: _control" "$(kfuzz asuser 65534 $KS/_control)" "read EACCES write EACCES"
	expect "nobody, debugfs root open: a distribution" "$(kfuzz asuser 65534 $KS/acc1)" "read EACCES write EACCES"
	mount -o remount,mode=0700 /sys/kernel/debug
else
	skip "nobody with the debugfs root open" "cannot remount debugfs mode=0755"
fi
expect "nothing changed by nobody" "$(ls $KS | tr '\n' ' ')" "_control _errors _history acc1 "
check "rmmod kstats (access)" rmmod kstats
