# SPDX-License-Identifier: GPL-2.0
#
# Concurrency: kthreads, a hrtimer and a timer record (tests/kstats_stress.c)
# while shell loops read every file, write start/stop/reset, create and
# remove nodes (trace included, on a function the kthreads call) and try to
# rmmod kstats.  First a run with recording only, whose totals must equal
# the kstats_record() calls exactly.  STRESS_SECONDS bounds each run.

diag "reliability: $(grep -c ^processor /proc/cpuinfo) CPUs, kernel $(uname -r)"
SS=/sys/kernel/debug/kstats_stress/state
S=${STRESS_SECONDS:-30}
now_s() { date +%s; }

# loop_until END CMD...: run CMD until the date passes END; prints the count.
loop_until() {
	local end=$1 n=0
	shift
	while [ "$(now_s)" -lt "$end" ]; do
		"$@"
		n=$((n + 1))
	done
	echo "$n"
}

read_all() {
	local f
	for f in $KS/* $SS; do
		cat "$f" > /dev/null 2>&1
	done
}

check "insmod kstats.ko (stress)" insmod $KB/kstats.ko
check "insmod kstats_stress.ko threads=4" insmod $KB/kstats_stress.ko threads=4

# --- exact counts: recording only, with readers --------------------------
end=$(($(now_s) + S / 3))
loop_until $end read_all > /tmp/reads.0 &
loop_until $end read_all > /tmp/reads.1 &
wait
check "stop the recorders" kload ctl $SS stop
cat $SS > /tmp/state
diag "reliability: exact run $((S / 3)) s, $(($(cat /tmp/reads.0) + $(cat /tmp/reads.1))) reads of every file; $(tail -n1 /tmp/state)"
total=0
for n in stress0 stress1 stress2 stress_irq; do
	calls=$(awk -v n=$n '$1 == n { print $3 }' /tmp/state)
	cat $KS/$n > /tmp/node
	expect "$n: samples equal kstats_record() calls ($calls)" \
		"$(field /tmp/node name samples) $(field /tmp/node name missed)" "$calls 0"
	expect "$n: per-CPU rows add up to the calls" \
		"$(awk '$1 == "slot" && $3 == "CPU" { n += $6 } END { print n + 0 }' /tmp/node)" "$calls"
	total=$((total + calls))
done
expect_match "the hrtimer recorded in hardirq context" "$(tail -n1 /tmp/state)" "^hardirq [1-9]"
expect_match "the timer recorded in softirq context" "$(tail -n1 /tmp/state)" " softirq [1-9]"
expect "rmmod kstats while kstats_stress uses it: refused" \
	"$(rmmod kstats 2>/dev/null && echo removed || echo refused)" refused
check "rmmod kstats_stress" rmmod kstats_stress
R_EXACT=$total

# --- everything at once ------------------------------------------------------
TSYM=kstats_stress_work
writer() {
	local f
	for f in stress0 stress1 stress2 stress_irq shared; do
		for c in stop start reset; do
			kload ctl $KS/$f $c > /tmp/w.out
			case $(cat /tmp/w.out) in ok|ENOENT) ;; *) echo "write $c $f: $(cat /tmp/w.out)" >> /tmp/chaos.bad ;; esac
		done
	done
}
# ctl_ok CMD ALLOWED-REGEX: one write to _control, odd results noted.
ctl_ok() {
	local r
	r=$(kload ctl $KS/_control "$1")
	echo "$r" | grep -Eqx "$2" || echo "'$1': $r" >> /tmp/chaos.bad
}
creator() {
	ctl_ok "new shared" "ok|EEXIST"
	ctl_ok "trace $TSYM" "ok|EEXIST"
	ctl_ok "trace $TSYM name swk mech kretprobe" "ok|EEXIST"
	ctl_ok "trace ssec start $TSYM end $TSYM" "ok|EEXIST"
	ctl_ok "trace tp:timer:hrtimer_expire_entry" "ok|EEXIST|ENOENT"
	ctl_ok "trace $TSYM name sgap gap" "ok|EEXIST"
	ctl_ok "new c1 bits 0 max 100" "ok|EEXIST"
	ctl_ok "remove shared" "ok|ENOENT"
	ctl_ok "remove $TSYM" "ok|ENOENT"
	ctl_ok "remove swk" "ok|ENOENT"
	ctl_ok "remove ssec" "ok|ENOENT"
	ctl_ok "remove sgap" "ok|ENOENT"
	ctl_ok "remove hrtimer_expire_entry" "ok|ENOENT"
	ctl_ok "remove c1" "ok|ENOENT"
}
rmmoder() {
	kload hold $KS/stress0 1 2>/dev/null &
	rmmod kstats 2>/dev/null && echo "rmmod kstats succeeded under stress" >> /tmp/chaos.bad
	wait
}

rm -f /tmp/chaos.bad
check "insmod kstats_stress.ko again" insmod $KB/kstats_stress.ko threads=4
end=$(($(now_s) + S))
loop_until $end read_all > /tmp/n.read0 &
loop_until $end read_all > /tmp/n.read1 &
loop_until $end writer > /tmp/n.write &
loop_until $end creator > /tmp/n.create &
loop_until $end rmmoder > /tmp/n.rmmod &
wait
check "stop the recorders after the storm" kload ctl $SS stop
state=$(tail -n1 $SS)
reads=$(($(cat /tmp/n.read0) + $(cat /tmp/n.read1)))
writes=$(($(cat /tmp/n.write) * 15))
creates=$(($(cat /tmp/n.create) * 14))
rmmods=$(cat /tmp/n.rmmod)
calls=$(awk '$2 == "calls" { n += $3 } END { print n + 0 }' $SS)
diag "reliability: stress $S s on $(grep -c ^processor /proc/cpuinfo) CPUs: $calls kstats_record() calls, $reads reads of every file, $writes start/stop/reset, $creates _control commands, $rmmods rmmod attempts; $state"
R_STRESS="$S s: $calls records, $reads full reads, $writes node writes, $creates _control commands, $rmmods rmmods"
expect "no unexpected result under stress" "$(head -n 5 /tmp/chaos.bad 2>/dev/null)" ""
expect_match "the churn thread made and deleted distributions" "$state" " churn [1-9]"
expect_match "the getter recorded into 'shared' while it came and went" "$state" " gets [1-9]"
expect "remove all after the storm" "$(ctl $KS/_control 'remove all')" ok
check "rmmod kstats_stress after the storm" rmmod kstats_stress

# --- rmmod while readers open and close files ------------------------------
ctl $KS/_control "new r1" > /dev/null
end=$(($(now_s) + 8))
loop_until $end read_all > /tmp/n.rr0 &
loop_until $end read_all > /tmp/n.rr1 &
removed=0 refused=0
while [ "$(now_s)" -lt "$end" ]; do
	if rmmod kstats 2>/dev/null; then
		removed=$((removed + 1))
		insmod $KB/kstats.ko
		kload ctl $KS/_control "new r1" > /dev/null
	else
		refused=$((refused + 1))
	fi
done
wait
diag "reliability: rmmod kstats under readers: $removed removed, $refused refused"
expect_match "rmmod under readers: each attempt refused or done" "$removed $refused" "^[0-9]+ [0-9]+$"
grep -q '^kstats ' /proc/modules || insmod $KB/kstats.ko
kload hold $KS/_control 2 &
sleep 1
expect "rmmod while a file is held open: refused" \
	"$(rmmod kstats 2>/dev/null && echo removed || echo refused)" refused
wait
check "rmmod kstats once the file is closed" rmmod kstats
