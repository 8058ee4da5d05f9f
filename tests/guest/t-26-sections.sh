# SPDX-License-Identifier: GPL-2.0
#
# Keyed sections: start and end paired by the task (the default), the CPU
# or a value, through the table of starts in flight (kstats_pair.c), and
# what that table counts: replaced, evicted, exited, unmatched, nested;
# "match" and "nest outer" (a wait that begins again inside itself).

check "insmod kstats.ko (sections)" insmod $KB/kstats.ko

# s_trace CMD: a _control write that must succeed, as a test.
s_trace() { expect "$1" "$(ctl $KS/_control "$1")" ok; }
# s_counts NAME: samples missed, then the inflight line's counts.
s_counts() {
	echo "$(field $KS/$1 name samples) $(field $KS/$1 name missed)" \
		"pending $(field $KS/$1 inflight pending)" \
		"replaced $(field $KS/$1 inflight replaced)" \
		"evicted $(field $KS/$1 inflight evicted)" \
		"exited $(field $KS/$1 inflight exited)" \
		"unmatched $(field $KS/$1 inflight unmatched)" \
		"nested $(field $KS/$1 inflight nested)"
}
# s_min_avg NAME: the smallest average of its all-CPU slot rows.
s_min_avg() {
	awk '$1 == "slot" && $3 == "CPUS" && (m == "" || $8 < m) { m = $8 } END { print m }' $KS/$1
}

# --- a section that sleeps: clock_nanosleep, from the system call's entry
# to its exit on the same task, wherever it wakes (its number, and where
# sys_exit's regs hold it: lib.sh)
SLP_START="start tp:raw_syscalls:sys_enter comm kvalue if arg1 == $NR_clock_nanosleep"
SLP_END="end tp:raw_syscalls:sys_exit comm kvalue if arg0$REGS_NR == $NR_clock_nanosleep"
s_trace "trace slp $SLP_START $SLP_END"
s_trace "trace slp_local $SLP_START $SLP_END clock local"
# bits and max: a section's sample outside the common distribution
# (kstats_trace_record()'s kstats_record()).  max rounds up to the end of
# its slot, 131071 for 99999 at bits 1: a sleep of 1 ms is over it by
# far (max 999999 would end at 1048575, which a 1 ms sleep may not pass)
s_trace "trace slp_range $SLP_START $SLP_END bits 1 max 99999"
for i in 1 2 3 4; do kvalue sleep 1000 50 & done
wait
expect "4 x 50 sleeps of 1 ms: 200 samples, nothing missed or left" \
	"$(s_counts slp)" "200 0 pending 0 replaced 0 evicted 0 exited 0 unmatched 0 nested 0"
m=$(s_min_avg slp)
expect "every sleep lasted 1 ms or more (smallest slot average $m ns)" \
	"$([ "${m:-0}" -ge 1000000 ] && echo yes)" yes
expect "header: the keys of both points" "$(grep '^# key' $KS/slp)" "# key start task end task"
expect "header: per-point filters" "$(grep '^# filter' $KS/slp | tr '\n' ';')" \
	"# filter start comm kvalue if arg1 == $NR_clock_nanosleep;# filter end comm kvalue if arg0$REGS_NR == $NR_clock_nanosleep;"
expect "header: inflight max is the default, 1024" "$(field $KS/slp inflight max)" 1024
n=$(field $KS/slp_local name samples)
x=$(field $KS/slp_local name missed)
expect "clock local: a pair that crossed CPUs is missed, none lost ($n + $x)" \
	"$((n + x))" 200
expect "bits 1 max 99999: the 200 sleeps of 1 ms or more, each over the range" \
	"$(field $KS/slp_range name samples) $(field $KS/slp_range name frac_bits) $(field $KS/slp_range range max_value) $(field $KS/slp_range range overflow)" \
	"200 1 131071 200"

# --- further starts: an end pairs with whichever start its key has; a
# start's filters and key are its own, the header shows each further start
s_trace "trace s_two start tp:raw_syscalls:sys_enter comm kvalue if arg1 == $NR_clock_nanosleep start tp:raw_syscalls:sys_enter comm kvalue if arg1 == $NR_kill end tp:raw_syscalls:sys_exit comm kvalue"
kvalue sleep 20000 10
kvalue kill 10 20
n=$(field $KS/s_two name samples)
expect "two starts: 10 sleeps and 20 kill()s timed, nothing missed ($n)" \
	"$n $(field $KS/s_two name missed) $(field $KS/s_two inflight pending)" "30 0 0"
# (a kill() may wait behind the task it wakes: on the debug kernel beside
# other guests, once in a run, for 20 ms; a kill paired with a sleep's
# start would make 20 more)
m=$(awk '$1 == "slot" && $3 == "CPUS" && $8 >= 20000000 { n += $6 } END { print n + 0 }' $KS/s_two)
expect "two starts: the 10 sleeps of 20 ms are the samples of 20 ms or more (but 2 kill()s at most)" \
	"$([ "$m" -ge 10 ] && [ "$m" -le 12 ] && echo 10)" 10
expect "header: the further start, its filters" "$(grep '^# also' $KS/s_two)" \
	"# also start tp:raw_syscalls:sys_enter key task filter comm kvalue if arg1 == $NR_kill"
ctl $KS/_control "remove s_two" >/dev/null

# --- keyed by the task at every point: a start waits in its CPU's slot,
# moves into the table when its task is switched out
# (kstats_pair_switch()), and its end finds it there on the next CPU;
# sched_setaffinity() moves its caller from inside the call.  A point
# that reads no argument has a probe of its own (kstats_tp_task_start(),
# kstats_tp_task_end()); the others' starts and ends wait, unmatched.
HOP_START="start tp:raw_syscalls:sys_enter comm kvalue if arg1 == $NR_sched_setaffinity"
HOP_END="end tp:raw_syscalls:sys_exit comm kvalue if arg0$REGS_NR == $NR_sched_setaffinity"
s_trace "trace s_hop $HOP_START $HOP_END"
s_trace "trace s_hop_s start tp:raw_syscalls:sys_enter $HOP_END"
s_trace "trace s_hop_e $HOP_START end tp:raw_syscalls:sys_exit"
check "kvalue hop 20" kvalue hop 20
expect "20 calls that move their task to the other CPU: each paired" \
	"$(s_counts s_hop)" "20 0 pending 0 replaced 0 evicted 0 exited 0 unmatched 0 nested 0"
expect "the same with a start of its own probe, then an end of its own probe" \
	"$(field $KS/s_hop_s name samples) $(field $KS/s_hop_s name missed) $(field $KS/s_hop_e name samples) $(field $KS/s_hop_e name missed)" \
	"20 0 20 0"
for n in s_hop s_hop_s s_hop_e; do ctl $KS/_control "remove $n" >/dev/null; done

# --- a start begun again after its task left its CPU: the first start
# went into the table at the switch (kstats_pair_switch()), and the
# task's first start after it replaces it there, so the second end finds
# none, as in a table a start never leaves (libbpf-tools' map of a start
# per task), rather than pairing with the first across the sleep
s_trace "trace s_again start tp:raw_syscalls:sys_enter comm kvalue if arg1 == $NR_getpid end tp:raw_syscalls:sys_exit comm kvalue if arg0$REGS_NR == $NR_getppid"
check "kvalue again 20" kvalue again 20
expect "20 rounds of a start begun again after a sleep, then two ends: each first start replaced, each second end unmatched" \
	"$(s_counts s_again)" "20 0 pending 0 replaced 20 evicted 0 exited 0 unmatched 20 nested 0"
ctl $KS/_control "remove s_again" >/dev/null

# --- what the table counts, each exactly
s_trace "trace s_rep start tp:raw_syscalls:sys_enter comm kload if arg1 == $NR_getppid end vfs_write comm nobody"
kload getppid 10
expect "a start replaced by the next of its task, the last dropped when it exits" \
	"$(s_counts s_rep)" "0 0 pending 0 replaced 9 evicted 0 exited 1 unmatched 0 nested 0"
s_trace "trace s_um start vfs_write comm nobody end tp:raw_syscalls:sys_exit comm kload if arg0$REGS_NR == $NR_getppid"
kload getppid 7
expect "7 ends with no start: unmatched, not missed (no sample was lost)" \
	"$(s_counts s_um)" "0 0 pending 0 replaced 0 evicted 0 exited 0 unmatched 7 nested 0"
s_trace "trace s_ev start vfs_read key arg2 comm kvalue end vfs_write key arg2 comm nobody inflight 1"
for s in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	kvalue read /dev/zero $s 1
done
expect "inflight 1: 8 slots; 20 keys evict the 12 oldest" \
	"$(s_counts s_ev)" "0 0 pending 8 replaced 0 evicted 12 exited 0 unmatched 0 nested 0"
expect "header: inflight max 1" "$(field $KS/s_ev inflight max)" 1
s_trace "trace s_full start vfs_read key arg2 comm kvalue end vfs_write key arg2 comm nobody inflight 1 full refuse"
for s in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	kvalue read /dev/zero $s 1
done
expect "full refuse: the 8 oldest starts stay, the 12 newest are lost, missed" \
	"$(s_counts s_full)" "0 12 pending 8 replaced 0 evicted 0 exited 0 unmatched 0 nested 0"
expect "header: full refuse, full evict" \
	"$(field $KS/s_full inflight full) $(field $KS/s_ev inflight full)" "refuse evict"
ctl $KS/_control "remove s_full" >/dev/null
for n in slp slp_local slp_range s_rep s_um s_ev; do ctl $KS/_control "remove $n" >/dev/null; done

# --- a dead task's last switch out (TASK_DEAD) comes after its exit:
# that start goes when the task is freed, not at the first run of another
# task given its task_struct
s_trace "trace s_dead start tp:sched:sched_switch key arg1 comm kchild end tp:sched:sched_switch key arg2"
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	kvalue -n kchild sleep 1000 1
done
i=0
while [ "$(field $KS/s_dead inflight pending)" != 0 ] && [ $i -lt 50 ]; do
	sleep 0.1; i=$((i + 1))	# RCU frees them
done
expect "20 short-lived tasks: each one's last switch out dropped when it is freed, none left" \
	"$(field $KS/s_dead inflight exited) $(field $KS/s_dead inflight pending)" "20 0"
ctl $KS/_control "remove s_dead" >/dev/null

# --- match and nest outer: kstats_lifetime.ko's "nest N" runs N rounds of
# begin A, begin A, 500 us, begin B, 200 us, end B, 500 us, end A (a mutex
# wait that spins then sleeps, with a spinlock's wait inside it)
lt_here=$([ -e /sys/module/kstats_lifetime ] && echo yes)
[ -n "$lt_here" ] || insmod $KB/kstats_lifetime.ko
LTC=/sys/kernel/debug/kstats_lifetime/ctl
NEST="start kstats_lifetime_wait_begin match arg0 end kstats_lifetime_wait_end match arg0"
s_trace "trace s_nest $NEST nest outer"
s_trace "trace s_repl $NEST"
expect "nest 20" "$(ctl $LTC 'nest 20')" ok
expect "nest outer: 20 waits from their first begin; the 40 inner begins nested, the 20 inner ends unmatched" \
	"$(s_counts s_nest)" "20 0 pending 0 replaced 0 evicted 0 exited 0 unmatched 20 nested 40"
m=$(s_min_avg s_nest)
expect "nest outer: each wait lasted its 1.2 ms or more (smallest slot average $m ns)" \
	"$([ "${m:-0}" -ge 1200000 ] && echo yes)" yes
expect "nest replace (the default): the inner wait's start wins, the outer end is unmatched" \
	"$(s_counts s_repl)" "20 0 pending 0 replaced 40 evicted 0 exited 0 unmatched 20 nested 0"
# the inner waits: 200 us of spinning each, at least; an interrupt in one
# may stretch it (a debug kernel's, under TCG, past a millisecond), not
# the median past the outer waits' 1.2 ms
lo=$(field $KS/s_repl summary min) m=$(field $KS/s_repl summary p50)
expect "nest replace: 20 inner waits of 200 us or more, the median shorter than the outer 1.2 ms (min $lo, p50 $m ns)" \
	"$([ "${m:-0}" -lt 1200000 ] && [ "${lo:-0}" -ge 196608 ] && echo yes)" yes
expect "header: match at both points" "$(grep '^# match' $KS/s_nest)" "# match start arg0 end arg0"
echo reset > $KS/s_nest
expect "reset clears the samples and the table's counts together" \
	"$(s_counts s_nest)" "0 0 pending 0 replaced 0 evicted 0 exited 0 unmatched 0 nested 0"
expect "after a reset, nest 2: 2 waits, 4 nested, 2 unmatched" \
	"$(ctl $LTC 'nest 2') $(s_counts s_nest)" "ok 2 0 pending 0 replaced 0 evicted 0 exited 0 unmatched 2 nested 4"
expect "header: nest outer, nest replace" \
	"$(field $KS/s_nest inflight nest) $(field $KS/s_repl inflight nest)" "outer replace"
for n in s_nest s_repl; do ctl $KS/_control "remove $n" >/dev/null; done

# --- a key that is a tracepoint's argument as it is: its probe hands the
# point that argument alone (kstats_tp_keyed()); a condition at each
# point takes the generic path, which must pair the same starts and
# ends; a key cast to 4 bytes (generic too) pairs by the low half.
# "cookies 20": 20 begins, then 20 ends in reverse, the odd ones' ends
# with a cookie of another high half
CB=tp:kstats_lifetime:kstats_lifetime_cookie_begin CE=tp:kstats_lifetime:kstats_lifetime_cookie_end
s_trace "trace s_ck start $CB key arg0 end $CE key arg0"
s_trace "trace s_ckif start $CB key arg0 if arg0 != 0 end $CE key arg0 if arg0 != 0"
s_trace "trace s_ck4 start $CB key arg0:4 end $CE key arg0:4"
expect "cookies 20" "$(ctl $LTC 'cookies 20')" ok
expect "key arg0: the 10 even cookies paired, the 10 odd pending and unmatched" \
	"$(s_counts s_ck)" "10 0 pending 10 replaced 0 evicted 0 exited 0 unmatched 10 nested 0"
expect "key arg0 with a condition (the generic path): the same" \
	"$(s_counts s_ckif)" "$(s_counts s_ck)"
expect "key arg0:4: all 20 paired by the low half" \
	"$(s_counts s_ck4)" "20 0 pending 0 replaced 0 evicted 0 exited 0 unmatched 0 nested 0"
for n in s_ck s_ckif s_ck4; do ctl $KS/_control "remove $n" >/dev/null; done
[ -n "$lt_here" ] || rmmod kstats_lifetime

# --- a key that is a typed tracepoint's argument, with conditions on its
# arguments alone: checked in the event's own probe (kstats_tp_conds()),
# with no copy and no general filter; the same with "comm", or with "&"
# (which the probe does not test), takes the generic path, and must count
# the same.  sys_enter's arg0 is the caller's pt_regs, the same pointer at
# its exit; kill()'s signal is its second argument.  A dereference that
# cannot be read (the system call's number as an address) is a sample
# missed, each.
RC_END="end tp:raw_syscalls:sys_exit key arg0 if arg0$REGS_NR == $NR_kill"
RC_SIG="if arg1 == $NR_kill if arg0$REGS_ARG1 == 12"
s_trace "trace s_rc start tp:raw_syscalls:sys_enter key arg0 $RC_SIG $RC_END"
s_trace "trace s_rcg start tp:raw_syscalls:sys_enter key arg0 comm kvalue $RC_SIG $RC_END"
s_trace "trace s_rcx start tp:raw_syscalls:sys_enter key arg0 $RC_SIG if arg1+8:8 == 0 $RC_END"
s_trace "trace s_rca start tp:raw_syscalls:sys_enter key arg0 if arg1 & $NR_kill if arg1 == $NR_kill if arg0$REGS_ARG1 == 12 $RC_END"
kvalue kill 12 20
expect "key arg0 if ... on a typed event: 20 kill()s paired, none missed or pending" \
	"$(field $KS/s_rc name samples) $(field $KS/s_rc name missed) $(field $KS/s_rc inflight pending)" \
	"20 0 0"
expect "the same through the generic path (comm)" \
	"$(field $KS/s_rcg name samples) $(field $KS/s_rcg name missed) $(field $KS/s_rcg inflight pending)" \
	"20 0 0"
expect "an unreadable condition at the start: 20 missed, no sample" \
	"$(field $KS/s_rcx name samples) $(field $KS/s_rcx name missed) $(field $KS/s_rcx inflight pending)" \
	"0 20 0"
expect "the same with \"&\", which the probe does not test (the generic path)" \
	"$(field $KS/s_rca name samples) $(field $KS/s_rca name missed) $(field $KS/s_rca inflight pending)" \
	"20 0 0"
for n in s_rc s_rcg s_rcx s_rca; do ctl $KS/_control "remove $n" >/dev/null; done

# --- keys of other contexts: a CPU, and a task woken by another
s_trace "trace s_irq start tp:irq:softirq_entry key cpu end tp:irq:softirq_exit key cpu"
s_trace "trace s_rq start tp:sched:sched_wakeup key arg0 end tp:sched:sched_switch key arg2"
# off-CPU time: a start and an end at one event share its probe
# (kstats_section_chain()): the end of the task switched in, then the
# start of the one switched out
s_trace "trace s_off start tp:sched:sched_switch key arg1 end tp:sched:sched_switch key arg2"
kvalue sleep 1000 50
expect "key cpu: softirqs paired on their CPU" \
	"$([ "$(field $KS/s_irq name samples)" -gt 0 ] && echo yes)" yes
expect "key cpu: header" "$(grep '^# key' $KS/s_irq)" "# key start cpu end cpu"
# possible CPUs, as "0-N" or "0"
npos=$(($(sed 's/.*-//' /sys/devices/system/cpu/possible) + 1))
expect "key cpu: a slot per possible CPU ($npos), none evicted, none pending but a softirq's own" \
	"$(field $KS/s_irq inflight slots) $(field $KS/s_irq inflight max) $(field $KS/s_irq inflight evicted) $([ "$(field $KS/s_irq inflight pending)" -le "$npos" ] && echo ok)" \
	"cpu $npos 0 ok"
expect "key arg0: the starts in a table" "$(field $KS/s_rq inflight slots)" table
expect "run-queue latency (wakeup arg0 -> switch arg2): the 50 wakeups and more" \
	"$([ "$(field $KS/s_rq name samples)" -ge 50 ] && echo yes)" yes
expect "run-queue latency: header" "$(grep '^# key' $KS/s_rq)" "# key start arg0 end arg2"
m=$(awk '$1 == "slot" && $3 == "CPUS" && $8 >= 900000 { n += $6 } END { print n + 0 }' $KS/s_off)
expect "off-CPU time, start and end on one probe: the 50 sleeps of 1 ms are samples of 0.9 ms or more ($m)" \
	"$([ "$m" -ge 50 ] && echo yes)" yes
for n in s_irq s_rq s_off; do ctl $KS/_control "remove $n" >/dev/null; done

# --- refused, each with a line naming the token
for c in "start vfs_read key bogus end vfs_write|bogus" \
	"start vfs_read key|needs a value" \
	"start vfs_read key arg12 end vfs_write|arg12" \
	"start vfs_read end vfs_write inflight 0|inflight" \
	"start vfs_read end vfs_write inflight 1048577|inflight" \
	"comm a start vfs_read comm b end vfs_write|both" \
	"start vfs_read match arg0 end vfs_write|give it at both points" \
	"start vfs_read match ret end vfs_write match ret|match 'ret'" \
	"start vfs_read end vfs_write nest inner|nest 'inner'" \
	"start vfs_read end vfs_write full never|full 'never'" \
	"start vfs_read start vfs_write start ksys_read start ksys_write end vfs_open|at most 3 starts" \
	"start vfs_read end vfs_write start ksys_read|starts come before its end" \
	"start vfs_read by arg0 start vfs_write end ksys_read|its own by V" \
	"start vfs_read start vfs_write by arg0 end ksys_read|only after a value by"; do
	dmesg_mark
	expect "refused: trace bad ${c%|*}" "$(ctl $KS/_control "trace bad ${c%|*}")" EINVAL
	check "refused: dmesg names ${c#*|}" dmesg_has "${c#*|}"
done
expect "refused: key on a function" "$(ctl $KS/_control 'trace vfs_read key task')" EINVAL
expect "refused: match and nest on a function" \
	"$(ctl $KS/_control 'trace vfs_read match arg0') $(ctl $KS/_control 'trace vfs_read nest outer')" "EINVAL EINVAL"

expect "remove all (sections)" "$(ctl $KS/_control 'remove all')" ok
check "rmmod kstats (sections)" rmmod kstats
