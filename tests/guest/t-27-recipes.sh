# SPDX-License-Identifier: GPL-2.0
#
# The recipes of the kstats command (tools/cmd/recipe.c): each sets up a keyed
# section, prints it as `kstats trace` does and removes it.  Exact counts
# where the workload makes them known (syscall: kvalue's sleeps; biolatency:
# kdio's O_DIRECT reads of a null_blk device with timer completions), the
# others at least run, print samples and clean up; then the cross-check
# against libbpf-tools' runqlat and biolatency when the guest has them.

if ! command -v kstats >/dev/null; then
	skip "kstats recipes" "the kstats tool is not built into this image"
	return 0
fi
check "insmod kstats.ko (recipes)" insmod $KB/kstats.ko

R=/tmp/recipe
# r_wait NODE: until the recipe's node exists (at most 20 s)
r_wait() {
	local i=0
	while [ ! -e "$KS/$1" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
	[ -e "$KS/$1" ]
}
# r_sum FILE KEY: KEY's value on the "# summary" line the tool printed
r_sum() { field "$1" summary "$2"; }
# r_min_avg FILE: the smallest average of the all-CPU slot rows of a snapshot
r_min_avg() {
	awk '$1 == "slot" && $3 == "CPUS" && (m == "" || $8 < m) { m = $8 } END { print m }' "$1"
}
# r_gone NAME: no node left behind
r_gone() { [ ! -e "$KS/$1" ] && ! grep -q "^$1 " "$KS/_control" 2>/dev/null; }

# --- syscall NAME: 50 clock_nanosleep()s of 1 ms by kvalue, exactly
kstats syscall clock_nanosleep --comm kvalue -d 4 -v > $R.out 2> $R.err &
kp=$!
if r_wait syscall_clock_nanosleep; then
	kvalue sleep 1000 50
	cat $KS/syscall_clock_nanosleep > $R.snap
fi
wait $kp
expect "syscall clock_nanosleep --comm kvalue: exit 0, the node removed" \
	"$? $(r_gone syscall_clock_nanosleep && echo gone)" "0 gone"
# (and "kstats: attaching ..." and "kstats: attached in S s", when the attach
# is slow enough to say so)
expect "syscall: -v prints the kernel line and the remove" "$(grep -Ev '^kstats: attach(ing|ed) ' $R.err)" \
	"trace syscall_clock_nanosleep start tp:raw_syscalls:sys_enter key task comm kvalue if arg1 == $NR_clock_nanosleep end tp:raw_syscalls:sys_exit key task comm kvalue if arg0$REGS_NR == $NR_clock_nanosleep inflight 16384
remove syscall_clock_nanosleep"
expect "syscall: 50 sleeps are 50 samples" "$(r_sum $R.out samples)" 50
m=$(r_min_avg $R.snap)
expect "syscall: every sleep 1 ms or more (smallest slot average $m ns)" \
	"$([ "${m:-0}" -ge 1000000 ] && echo yes)" yes
expect_match "syscall: the histogram as trace prints it" "$(cat $R.out)" \
	'^@syscall_clock_nanosleep \(ns\):'
expect "syscall: the bars' rows hold the 50" \
	"$(sed -n 's/^\[[^])]*[])] *\([0-9][0-9]*\) |@*  *|$/\1/p; s/^\[[^])]*[])] *\([0-9][0-9]*\) |@*|$/\1/p' $R.out | awk '{ n += $1 } END { print n + 0 }')" 50

# --- syscall without NAME: every system call of kvalue
kstats syscall --comm kvalue -d 3 > $R.out 2>&1 &
kp=$!
r_wait syscall && kvalue sleep 100 20
wait $kp
n=$(r_sum $R.out samples)
expect "syscall (all) --comm kvalue: the 20 sleeps and kvalue's other calls (got $n)" \
	"$([ "${n:-0}" -ge 20 ] && r_gone syscall && echo yes)" yes

# --- biolatency: N O_DIRECT reads of null_blk with 1 ms timer completions
if modprobe null_blk queue_mode=2 irqmode=2 completion_nsec=1000000 nr_devices=1 2>/dev/null &&
	[ -b /dev/nullb0 ]; then
	kstats biolatency -d 4 -v > $R.out 2> $R.err &
	kp=$!
	if r_wait biolatency; then
		kdio /dev/nullb0 4096 40
		cat $KS/biolatency > $R.snap
	fi
	wait $kp
	expect "biolatency: exit 0, the node removed" \
		"$? $(r_gone biolatency && echo gone)" "0 gone"
	expect "biolatency: -v prints the kernel line" "$(head -n 1 $R.err)" \
		"trace biolatency start tp:block:block_rq_issue key arg0 end tp:block:block_rq_complete key arg0"
	expect "biolatency: 40 direct reads are 40 samples" "$(r_sum $R.out samples)" 40
	m=$(r_min_avg $R.snap)
	expect "biolatency: every request took the 1 ms of its timer or more ($m ns)" \
		"$([ "${m:-0}" -ge 1000000 ] && echo yes)" yes
	expect "biolatency: nothing unmatched or left pending" \
		"$(field $R.snap inflight pending) $(field $R.snap inflight unmatched)" "0 0"
	# --comm: the issuing task (kdio issues its own reads)
	kstats biolatency --comm kdio -d 3 > $R.out 2>&1 &
	kp=$!
	r_wait biolatency && kdio /dev/nullb0 4096 25
	wait $kp
	expect "biolatency --comm kdio: 25 samples" "$(r_sum $R.out samples)" 25
	diag "kstats biolatency --comm kdio -d 3, while kdio /dev/nullb0 4096 25:"
	sed 's/^/#   /' $R.out
	# -Q: from the insertion into the I/O scheduler (the issue, for a
	# queue without one), each request once whatever the scheduler
	for sch in mq-deadline none; do
		echo $sch > /sys/block/nullb0/queue/scheduler 2>/dev/null || continue
		kstats biolatency -Q -d 3 -v > $R.out 2> $R.err &
		kp=$!
		if r_wait biolatency; then
			kdio /dev/nullb0 4096 25
			cat $KS/biolatency > $R.snap
		fi
		wait $kp
		m=$(r_min_avg $R.snap)
		expect "biolatency -Q, scheduler $sch: 25 requests, each 1 ms or more ($m ns), none left" \
			"$(r_sum $R.out samples) $([ "${m:-0}" -ge 1000000 ] && echo long) $(field $R.snap inflight pending)" "25 long 0"
	done
	expect_match "biolatency -Q: from block_rq_insert, or block_rq_issue where the queue has no elevator" \
		"$(head -n 1 $R.err)" "^trace biolatency start tp:block:block_rq_insert key arg0 start tp:block:block_rq_issue key arg0 if arg0(\\+[0-9]+:8)+ == 0 end tp:block:block_rq_complete key arg0\$"
	# --disk: by the whole disk (its part0's dev_t, MAJOR << 20 | MINOR),
	# also with the queue's iostats off (rq->part is NULL then)
	if [ -r /sys/kernel/btf/vmlinux ]; then
		dev=$(cat /sys/block/nullb0/dev)
		devt=$(( (${dev%:*} << 20) | ${dev#*:} ))
		for io in 1 0; do
			echo $io > /sys/block/nullb0/queue/iostats
			kstats biolatency --disk -d 3 > $R.out 2>&1 &
			kp=$!
			if r_wait biolatency; then
				kdio /dev/nullb0 4096 25
				cat $KS/biolatency > $R.snap
			fi
			wait $kp
			expect "biolatency --disk, iostats $io: nullb0's 25 reads under its dev_t $dev" \
				"$(grep "^key $devt " $R.snap)" "key $devt samples 25"
			expect_match "biolatency --disk, iostats $io: shown by name" "$(cat $R.out)" '^@biolatency\[nullb0\]'
		done
		echo 1 > /sys/block/nullb0/queue/iostats
	else
		skip "biolatency --disk" "no /sys/kernel/btf/vmlinux here"
	fi
else
	skip "biolatency on null_blk" "no null_blk module in this guest (modprobe null_blk failed)"
fi

# --- the others run, count what the workload guarantees and clean up
# r_run DESC NODE WANT-MIN WORKLOAD ARGS...: kstats ARGS -d 3 while WORKLOAD
r_run() {
	local d=$1 node=$2 min=$3 w=$4 n
	shift 4
	kstats "$@" -d 3 > $R.out 2>&1 &
	kp=$!
	r_wait "$node" && sh -c "$w" > /dev/null 2>&1
	wait $kp
	rc=$?
	n=$(r_sum $R.out samples)
	expect "$d: exit 0, $min samples or more (got $n), the node removed" \
		"$rc $([ "${n:-0}" -ge "$min" ] && echo enough) $(r_gone "$node" && echo gone)" "0 enough gone"
}
r_run "runqlat (50 wakeups of a sleeper)" runqlat 50 "kvalue sleep 1000 50" runqlat
diag "kstats runqlat -d 3, while kvalue sleep 1000 50:"
sed 's/^/#   /' $R.out
pid_file=/tmp/recipe.pid
# 10 ms sleeps: a nanosleep switches out only if its timer has not fired
# before schedule(); on the slow debug kernel under TCG a 1 ms timer
# sometimes has (CI saw 49 switch-outs for 50 sleeps of 1 ms)
r_run "offcpu --comm kvalue (50 sleeps)" offcpu 50 "kvalue sleep 10000 50" offcpu --comm kvalue
# the idle task is left out unless --idle: its time off CPU is the time
# others ran; --min and --max (us) bound what is recorded, the rest counted
if [ -r /sys/kernel/btf/vmlinux ]; then
	for a in "" --idle; do
		kstats offcpu --by pid $a -d 2 > $R.out 2>&1 &
		kp=$!
		r_wait offcpu && kvalue sleep 1000 100 && cat $KS/offcpu > $R.snap
		wait $kp
		eval "idle_keys_${a#--}=\$(grep -c '^key 0 ' \$R.snap)"
	done
	expect "offcpu: the idle task (pid 0) left out, kept with --idle" "$idle_keys_ $idle_keys_idle" "0 1"
	# 50 ms sleeps against 1 ms ones, --min 20 ms: wide margins on a
	# loaded TCG host (a 1 ms sleep was once seen to take over 5 ms)
	kstats offcpu --comm kvalue --min 20000 --max 1000000 -d 4 > $R.out 2>&1 &
	kp=$!
	if r_wait offcpu; then
		kvalue sleep 50000 20
		kvalue sleep 1000 20
		cat $KS/offcpu > $R.snap
	fi
	wait $kp
	m=$(r_min_avg $R.snap)
	n=$(field $R.snap name samples)
	expect "offcpu --min 20000 --max 1000000: the 20 sleeps of 50 ms ($n samples), each 20 ms or more ($m ns)" \
		"$([ "${n:-0}" -ge 20 ] && [ "$n" -le 22 ] && echo 20) $([ "${m:-0}" -ge 20000000 ] && echo long)" "20 long"
	s=$(field $R.snap bounds short)
	expect "offcpu --min: the sleeps of 1 ms counted short, none long ($s)" \
		"$(field $R.snap bounds over) $(field $R.snap bounds under) $([ "${s:-0}" -ge 18 ] && echo 18+) $(field $R.snap bounds long)" \
		"20000000 1000000000 18+ 0"
else
	skip "offcpu without the idle task" "no /sys/kernel/btf/vmlinux here"
fi
# 20 short-lived children, 2 sleeps of 10 ms each: a child's last switch
# out, as it dies, starts an interval no switch in will end; it goes when
# the task is freed (exited), so it neither stays pending nor ends at the
# first run of a later child that the slab gives the same task_struct
kstats offcpu --comm kvalue -d 30 > $R.out 2>&1 &
kp=$!
if r_wait offcpu; then
	i=0
	while [ $i -lt 20 ]; do kvalue sleep 10000 2; i=$((i + 1)); done
	sleep 1
	cat $KS/offcpu > $R.snap
fi
kill -TERM $kp 2> /dev/null
wait $kp
n=$(field $R.snap name samples)
expect "offcpu across 20 children that exit: their 40 sleeps ($n samples), each dying switch out dropped at its free" \
	"$([ "${n:-0}" -ge 40 ] && echo 40+) exited $(field $R.snap inflight exited) pending $(field $R.snap inflight pending)" \
	"40+ exited 20 pending 0"
r_run "softirq (timers of 100 sleeps)" softirq 1 "kvalue sleep 1000 100" softirq
# device interrupts: the serial console's, for lines written to it (the
# script's stderr goes to the console log only, not to the TAP).  On arm64
# QEMU's PL011 takes the lines without an interrupt: the handler named is
# the per-CPU timer's, which ticks meanwhile
IRQ_NAME=ttyS0
[ "$(uname -m)" != aarch64 ] || IRQ_NAME=arch_timer
r_run "hardirq (interrupts while 200 console lines are written)" hardirq 1 \
	"i=0; while [ \$i -lt 200 ]; do echo '# hardirq workload' > /dev/console; i=\$((i + 1)); done" hardirq
grep -E '^ *[0-9]+:' /proc/interrupts | awk '$2 + $3 > 0' | sed 's/^/# /' >&2
# by the handler's name (action->name, from BTF), as libbpf-tools'
# hardirqs keys it: the 8250 port's handler is named after the port
if [ -r /sys/kernel/btf/vmlinux ]; then
	expect_match "hardirq: a histogram per handler, by its name ($IRQ_NAME)" "$(cat $R.out)" "^@hardirq\\[$IRQ_NAME\\]:"
	# (the human output names the key from BTF: action->name)
	expect "hardirq: the family is by the string at action->name" \
		"$(grep -qE '^(# )?family by (str:arg1\+[0-9]+:8|action->name|the string at .*)[ :]' $R.out && echo 1)" 1
else
	expect_match "hardirq without BTF: a histogram per IRQ, $IRQ_NAME's by name" "$(cat $R.out)" "^@hardirq\\[$IRQ_NAME\\]:"
fi
# lock contention: 4 processes creating and removing directories under one
# parent contend for its inode's rwsem; at least one wait is likely, not
# certain, so this checks that it runs and cleans up
r_run "lockwait (mkdir races)" lockwait 0 \
	"for i in 1 2 3 4; do kvalue mkdir /tmp/lw\$i 300 & done; wait" lockwait
expect_match "lockwait: the histogram header" "$(cat $R.out)" '^# key start task end task$'

# lockwait on real mutex waits: kstats_lifetime.ko's "mutex_wait 5 20",
# this task waiting 5 times for a mutex a kthread holds for 20 ms: each
# wait begins twice (spinning, then sleeping) and ends once; the outer
# begin stays (nest outer), only the same lock's end closes it (match arg0);
# --why splits each wait's time (one task begins and ends it)
lt_here=$([ -e /sys/module/kstats_lifetime ] && echo yes)
[ -n "$lt_here" ] || insmod $KB/kstats_lifetime.ko
kstats lockwait --comm kload --why -d 4 -v > $R.out 2> $R.err &
kp=$!
r_wait lockwait && ctl /sys/kernel/debug/kstats_lifetime/ctl "mutex_wait 5 20" > $R.lt
cat $KS/lockwait > $R.snap 2>/dev/null
wait $kp
rc=$?
diag "kstats lockwait --comm kload, 5 mutex waits of 20 ms:"
grep '^#' $R.out | sed 's/^/#   /'
expect "lockwait: mutex_wait ran, exit 0, the node removed" \
	"$(cat $R.lt) $rc $(r_gone lockwait && echo gone)" "ok 0 gone"
expect_match "lockwait: the kernel line pairs by the lock, nest outer" "$(cat $R.err)" \
	' match arg0 .* match arg0 .*nest outer'
nested=$(field $R.out inflight nested)
# PREEMPT_RT's mutex is an rt_mutex, whose wait begins once
want_nested=5
! uname -v | grep -q PREEMPT_RT || want_nested=0
# the 5 waits of 20 ms, each once and whole: the samples of 2^24 ns
# (16.8 ms) or more; kload's other contended waits are short (the
# debug kernel has some: a spinlock's, tens of microseconds)
long=$(awk '$1 == "slot" && $3 == "CPUS" && $12 >= 16777216 { n += $6 } END { print n + 0 }' $R.snap)
expect "lockwait: each of the 5 waits of 20 ms counted once, whole ($long samples of 16.8 ms or more), its second begin nested (nested $nested, at least $want_nested)" \
	"$long $([ "${nested:-0}" -ge $want_nested ] && echo yes)" "5 yes"
expect "lockwait: nothing missed" "$(field $R.out name missed)" 0
# the 5 waits' time split: the header's calls, the tool's shares of it,
# and most of it asleep (the holder sleeps its 20 ms: the waiter's spin
# on a running owner stops, and it sleeps)
why_calls=$(sed -n 's/^# why .* calls \([0-9]*\) unsplit.*/\1/p' $R.snap)
why_bl=$(sed -n 's/^why: .* blocked \([0-9]*\)\.[0-9]%.*/\1/p' $R.out)
expect "lockwait --why: the kernel line's why, the waits split in the header ($why_calls calls), the shares printed, asleep $why_bl %" \
	"$(grep -c ' nest outer why$' $R.err) $([ "${why_calls:-0}" -ge 5 ] && echo yes) $([ "${why_bl:-0}" -ge 50 ] && echo yes)" "1 yes yes"
# by call site: "mutex_sites 3 2 20" waits 3 times from lt_mutex_site_a(),
# twice from lt_mutex_site_b(); --by caller names each wait's stack by its
# first frame outside the lock and scheduler text (kallsyms), one key each
kstats lockwait --comm kload --by caller -d 4 > $R.out 2>&1 &
kp=$!
r_wait lockwait && ctl /sys/kernel/debug/kstats_lifetime/ctl "mutex_sites 3 2 20" > $R.lt
wait $kp
# "@lockwait[KEY]:", then the count line: KEY and its count, of the long waits'
# callers (kload's own short waits, on the debug kernel, have others)
calls=$(awk '/^@lockwait\[lt_mutex_site_[ab][+]0x[0-9a-f]+\]:$/ { k = $0; sub(/^@lockwait\[/, "", k); sub(/[+].*/, "", k); getline; getline; printf "%s %s ", k, $1 }' $R.out)
grep '^@lockwait\[' $R.out | sed 's/^/# /'
expect "lockwait --by caller: 3 waits from lt_mutex_site_a, 2 from lt_mutex_site_b" \
	"$(cat $R.lt) $calls" "ok lt_mutex_site_a 3 lt_mutex_site_b 2 "
[ -n "$lt_here" ] || rmmod kstats_lifetime

# runqlat --pid: the woken process, through BTF (p->tgid, next->tgid); 10 ms
# sleeps, for each to sleep (see offcpu above)
if [ -r /sys/kernel/btf/vmlinux ]; then
	kvalue -p $pid_file sleep 10000 50 &
	vp=$!
	while [ ! -s $pid_file ]; do sleep 0.1; done
	kstats runqlat --pid $vp -d 3 -v > $R.out 2> $R.err &
	kp=$!
	r_wait runqlat && kill -USR1 $vp
	wait $vp
	wait $kp
	n=$(r_sum $R.out samples)
	expect_match "runqlat --pid: an 'if' on the woken task at each start (p, p, prev) and at the end (next)" "$(head -n 1 $R.err)" \
		"^trace runqlat start tp:sched:sched_wakeup key arg0 if arg0\\+([0-9]+):s4 == $vp start tp:sched:sched_wakeup_new key arg0 if arg0\\+\\1:s4 == $vp start tp:sched:sched_switch key arg1 if arg1\\+\\1:s4 == $vp if arg1\\+[0-9]+:4 == 0 if arg1\\+[0-9]+:s4 != 0 end tp:sched:sched_switch key arg2 if arg2\\+\\1:s4 == $vp\$"
	expect "runqlat --pid: kvalue's 50 wakeups and its start (got $n)" \
		"$([ "${n:-0}" -ge 50 ] && [ "$n" -le 60 ] && echo yes)" yes
	rm -f $pid_file
	# r_rq_by KEY: kstats runqlat --by KEY while kvalue makes 50 sleeps
	# of 10 ms: the tool's output in $R.out, the node's file in $R.snap,
	# kvalue's pid in $vp
	r_rq_by() {
		kvalue -p $pid_file sleep 10000 50 &
		vp=$!
		while [ ! -s $pid_file ]; do sleep 0.1; done
		kstats runqlat --by $1 -d 3 > $R.out 2>&1 &
		kp=$!
		if r_wait runqlat; then
			kill -USR1 $vp
			wait $vp
			cat $KS/runqlat > $R.snap
		fi
		wait $kp
		rm -f $pid_file
	}
	# --by pid: keyed by the woken process, not by its waker (the timer
	# interrupt's current task, mostly the idle task: pid 0)
	r_rq_by pid
	n=$(awk -v k="$vp" '$1 == "key" && $2 == k { print $4 }' $R.snap)
	expect "runqlat --by pid: kvalue's 50 wakeups and its start under its own pid $vp (got $n)" \
		"$([ "${n:-0}" -ge 50 ] && [ "$n" -le 60 ] && echo yes)" yes
	# --by comm: keyed by the woken task's name (p->comm, in place in
	# its task_struct), not by its waker's (mostly swapper/N)
	r_rq_by comm
	n=$(awk '$1 == "key" && $2 == "kvalue" { print $4 }' $R.snap)
	expect_match "runqlat --by comm: the key is the woken task's name, read in place" \
		"$(grep '^# family' $R.snap)" '^# family by str:arg0\+[0-9]+ '
	expect "runqlat --by comm: kvalue's 50 wakeups and its start under its own name (got $n)" \
		"$([ "${n:-0}" -ge 50 ] && [ "$n" -le 60 ] && echo yes)" yes
	expect "runqlat --by comm: the tool shows that key" "$(grep -c '^@runqlat\[kvalue\]:' $R.out)" 1
else
	skip "runqlat --pid" "no /sys/kernel/btf/vmlinux"
fi

# refusals: exit 2, a reason, nothing made
kstats softirq --pid 1 -d 1 > $R.out 2>&1
expect "softirq --pid: refused, exit 2" "$? $(grep -c 'belongs to no task' $R.out)" "2 1"
kstats runqlat --comm sh -d 1 > $R.out 2>&1
expect "runqlat --comm: refused with the reason" "$? $(grep -c 'use --pid or --tid' $R.out)" "2 1"
kstats syscall no_such_call -d 1 > $R.out 2>&1
expect "syscall NAME unknown: refused" "$? $(grep -c 'no such system call' $R.out)" "2 1"

# Ctrl-C: prints and removes
kstats runqlat > $R.out 2>&1 &
kp=$!
r_wait runqlat && kvalue sleep 1000 10
kill -INT $kp
wait $kp
expect "runqlat: SIGINT prints the histogram and removes the node" \
	"$? $(grep -c '^# summary samples' $R.out) $(r_gone runqlat && echo gone)" "0 1 gone"
kstats offcpu > $R.out 2>&1 &
kp=$!
r_wait offcpu && sleep 0.3
kill -TERM $kp
wait $kp
expect "offcpu: SIGTERM removes the node" "$? $(r_gone offcpu && echo gone)" "0 gone"

. $KB/guest/recipes-peers.sh

expect "remove all (recipes)" "$(ctl $KS/_control 'remove all')" ok
check "rmmod kstats (recipes)" rmmod kstats
lsmod | grep -q '^null_blk' && rmmod null_blk
