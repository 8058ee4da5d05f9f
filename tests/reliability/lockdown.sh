# SPDX-License-Identifier: GPL-2.0
#
# Booted with lockdown=confidentiality (tests/check.sh, stages "lockdown"):
# not an r-*.sh, so the reliability stage does not run it.
#
# On the test kernel, kstats.ko and kstats_stress.ko are signed with the
# kernel's own key (scripts/sign-file), so they load.  debugfs refuses to
# open writable files under lockdown (EPERM), so _control is closed and
# kstats makes its distribution files read-only (0400), which debugfs still
# opens; kstats says so once in dmesg; the kstats tool still shows a
# distribution and names the lockdown when a command is refused; kernel
# code still records (the stress module's final counts equal its calls);
# an unsigned module is refused; unloading works.
#
# On Debian's kernels the modules are unsigned (their key is not ours):
# the kernel refuses kstats.ko with EPERM and says why; nothing is left.
. /kstats/guest/lib.sh
echo "TAP version 13"
mount -t securityfs none /sys/kernel/security 2>/dev/null
expect "lockdown mode" "$(cat /sys/kernel/security/lockdown 2>&1)" \
	"none integrity [confidentiality]"

# The kernel rate-limits its "Lockdown:" lines (10 per 5 s) and the boot's
# tracefs refusals used them up: start after that window.
up=$(cut -d. -f1 /proc/uptime)
[ "$up" -ge 7 ] || sleep $((7 - up))

signed() { [ "$(tail -c 28 "$1")" = "~Module signature appended~" ]; }

if ! signed $KB/kstats.ko; then
	dmesg_mark
	expect_match "unsigned kstats.ko is refused with EPERM" \
		"$(insmod $KB/kstats.ko 2>&1; echo "exit $?")" \
		"Operation not permitted|not permitted"
	check "the kernel names the refusal" \
		dmesg_has "Lockdown: insmod: unsigned module loading is restricted"
	expect "no kstats directory is left" "$(ls -d $KS 2>/dev/null)" ""
	expect "no kstats module is left" "$(grep -c '^kstats ' /proc/modules)" 0
	diag "lockdown: unsigned kstats.ko refused (EPERM), nothing left"
	echo "1..$T_N"
	[ "$T_FAIL" = 0 ]
	exit
fi

dmesg_mark
check "insmod the signed kstats.ko" insmod $KB/kstats.ko
check "kstats says once what lockdown closes" \
	dmesg_has "kstats: kernel lockdown: distribution files are read-only"
expect "debugfs still lists _control and _errors" "$(ls $KS 2>&1 | tr '\n' ' ')" "_control _errors _history "
expect "root cannot open _control" "$(kfuzz asuser 0 $KS/_control)" \
	"read EPERM write EPERM"
check "the kernel names the refusal" \
	dmesg_has "Lockdown: [^ ]*: debugfs access is restricted"

check "insmod the signed kstats_stress.ko: kstats_new() works" \
	insmod $KB/kstats_stress.ko threads=3
sleep 2
expect "a distribution file is 0400" "$(stat -c %a $KS/stress0)" 400
expect "root reads a distribution, cannot open it for writing" \
	"$(kfuzz asuser 0 $KS/stress0)" "read ok write EPERM"
n=$(field $KS/stress0 name samples)
if [ -n "$n" ] && [ "$n" -gt 0 ] 2>/dev/null; then
	ok "cat stress0 under lockdown: $n samples"
else
	not_ok "cat stress0 under lockdown"
	head -n 3 $KS/stress0 2>&1 | sed 's/^/#   /'
fi
if [ -x /kstats/bin/kstats ]; then
	out=$(/kstats/bin/kstats show stress0 2>&1)
	expect "kstats show: exit 0" "$?" 0
	expect_match "kstats show prints the summary" "$out" "samples"
	out=$(/kstats/bin/kstats trace kstats_stress_work -d 1 2>&1)
	expect "kstats trace: exit 2" "$?" 2
	expect_match "kstats trace names the lockdown" "$out" \
		"_control: the kernel is locked down \(confidentiality\)"
else
	skip "kstats tool under lockdown" "not built into this image"
fi

dmesg_mark
check "rmmod kstats_stress" rmmod kstats_stress
for n in stress0 stress1 stress2 stress_irq; do
	line=$(dmesg | grep -m1 "kstats_stress: $n calls")
	calls=$(echo "$line" | awk '{ for (i = 1; i < NF; i++) if ($i == "calls") print $(i + 1) }')
	samples=$(echo "$line" | awk '{ for (i = 1; i < NF; i++) if ($i == "samples") print $(i + 1) }')
	if [ -n "$calls" ] && [ "$calls" -gt 0 ] 2>/dev/null; then
		expect "$n: recorded under lockdown: samples = calls ($calls)" \
			"$samples" "$calls"
	else
		not_ok "$n: recorded under lockdown"
		diag "  dmesg line: '$line'"
	fi
done

expect_match "an unsigned module is refused" \
	"$(insmod $KB/kstats_example.ko 2>&1; echo "exit $?")" \
	"not permitted"
check "rmmod kstats" rmmod kstats
check "insmod kstats again" insmod $KB/kstats.ko
check "rmmod kstats again" rmmod kstats
diag "lockdown: signed kstats.ko loads, _control refused (EPERM), distributions read-only, kernel API records"
echo "1..$T_N"
[ "$T_FAIL" = 0 ]
