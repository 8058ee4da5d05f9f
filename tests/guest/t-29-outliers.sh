# SPDX-License-Identifier: GPL-2.0
#
# Outliers ("slow V [keep M]", "top K", "stack [N]"): the samples a node
# keeps with their context.  kstats_lifetime.ko's kstats_lifetime_work()
# is slow (20 ms) only from lt_slow_caller(), fast from lt_fast_caller():
# exactly the slow calls are kept, each stack naming the slow caller and
# none the fast one; its "work" command gives known durations for top K.
# Then a section, a value node, hardirq context, keep's overflow, reset,
# the stores' memory (a store per CPU online, one for a CPU that comes
# online later, kept when it goes; "keep 65536 stack 64" bounded by the
# CPUs online when the kernel is booted for 64: possible_cpus=64, which
# make check gives Debian 6.1's boot) and the refusals.

check "insmod kstats.ko (outliers)" insmod $KB/kstats.ko
lt_here=$([ -e /sys/module/kstats_lifetime ] && echo yes)
[ -n "$lt_here" ] || insmod $KB/kstats_lifetime.ko
LT=/sys/kernel/debug/kstats_lifetime/ctl
O=/tmp/outliers

# o_trace CMD: a _control write that must succeed, as a test.
o_trace() { expect "$1" "$(ctl $KS/_control "$1")" ok; }
# o_lines FILE: its outlier lines
o_lines() { grep '^outlier ' "$1"; }
# o_values FILE: the outliers' values, on one line
o_values() { o_lines "$1" | awk '{ printf "%s%s", s, $2; s = " " }'; }
# o_head FILE: its "# outliers" line without the stores' bytes
o_head() { grep '^# outliers' "$1" | sed 's/ bytes [0-9]* cpu_bytes [0-9]*$//'; }
# o_online: the CPUs online
o_online() { grep -c '^processor' /proc/cpuinfo; }
# o_field FILE KEY: each outlier line's value of KEY, on one line
o_field() {
	o_lines "$1" | awk -v k="$2" '{ for (i = 3; i < NF; i++) if ($i == k) { printf "%s%s", s, $(i + 1); s = " "; break } }'
}

# --- slow: exactly the slow calls, each from the slow caller --------------
o_trace "trace kstats_lifetime_work name o_slow slow 10000000 stack 12"
expect "callers 5: ran" "$(ctl $LT 'callers 5')" ok
cat $KS/o_slow > $O.slow
diag "cat $KS/o_slow (after callers 5):"
sed 's/^/#   /' $O.slow
if command -v kstats > /dev/null; then
	diag "kstats show o_slow:"
	kstats show $O.slow | sed 's/^/#   /'
	expect "kstats show: the outliers under the histogram" \
		"$(kstats show $O.slow | grep -c '^        lt_slow_caller+0x')" 5
fi
# a function's stack is unwound from the traced code where it returned:
# the first slow call's, then the same chain found on the stack again
# (each CPU's cache its own: all but each CPU's first from the cache);
# arm64's frame records are walked, a few loads a frame, with no cache
ncpus=$(o_field $O.slow cpu | tr ' ' '\n' | sort -u | wc -l)
cached=$((5 - ncpus))
[ "$(uname -m)" = x86_64 ] || cached=0
expect "slow 10 ms: the header line (the stacks after each CPU's first from the cache)" \
	"$(o_head $O.slow)" \
	"# outliers slow 10000000 keep 256 kept 5 dropped 0 stack 12 cached $cached"
# a store per CPU online: 256 entries of 64 bytes at most and 8 a frame,
# and the 4 KiB of chains
cb=$(field $O.slow outliers cpu_bytes)
expect "slow: bytes, a store of 256 entries of 12 frames (cpu_bytes $cb) on each of the $(o_online) CPUs online" \
	"$(field $O.slow outliers bytes) $([ "${cb:-0}" -gt $((256 * 96)) ] && [ "$cb" -le $((256 * (64 + 96) + 4096)) ] && echo bounded)" \
	"$(( ${cb:-0} * $(o_online) )) bounded"
expect "slow: the 5 stacks the same, cached or unwound" \
	"$(o_lines $O.slow | sed 's/.* stack //' | sort -u | wc -l)" 1
expect "slow: 25 calls recorded, 5 kept" \
	"$(field $O.slow name samples) $(o_lines $O.slow | wc -l)" "25 5"
expect "slow: every kept call 20 ms or more, none of the 20 fast ones" \
	"$(o_lines $O.slow | awk '$2 >= 20000000 { n++ } END { print n + 0 }')" 5
expect "slow: every stack names the slow caller after its own caller (root first)" \
	"$(o_lines $O.slow | grep -c 'lt_callers+0x[0-9a-f]* \[kstats_lifetime\];lt_slow_caller+0x[0-9a-f]* \[kstats_lifetime\]')" 5
expect "slow: no stack names the fast caller" "$(o_lines $O.slow | grep -c lt_fast_caller)" 0
# the direct trampoline's stack starts in the function (its frame is
# there as it returns); a return probe's at the caller it returned to
case $(field $O.slow source mechanism) in
direct) first=kstats_lifetime_work ;;
*) first=lt_slow_caller ;;
esac
expect "slow: each stack's innermost frame $first, none of kstats' own" \
	"$(o_lines $O.slow | grep -c ";$first+0x[0-9a-f]* \\[kstats_lifetime\\]\$") $(o_lines $O.slow | grep -c '\[kstats\]')" "5 0"
expect "slow: oldest first, on this task" \
	"$(o_field $O.slow time | awk '{ for (i = 2; i <= NF; i++) if ($i < $(i - 1)) bad = 1; print bad ? "unordered" : "ordered" }') $(o_field $O.slow comm | tr ' ' '\n' | sort -u)" \
	"ordered kload"
expect "slow: pid and tid, cpu" \
	"$(o_lines $O.slow | awk '$7 == "pid" && $9 == "tid" && $5 == "cpu" && $6 ~ /^[0-9]+$/ { n++ } END { print n + 0 }')" 5
ctl $KS/o_slow reset > /dev/null
expect "reset: the outliers go with the histogram" \
	"$(o_head $KS/o_slow) $(o_lines $KS/o_slow | wc -l)" \
	"# outliers slow 10000000 keep 256 kept 0 dropped 0 stack 12 cached 0 0"
ctl $KS/_control "remove o_slow" > /dev/null

# --- top K: exactly the K largest, largest first ---------------------------
o_trace "trace kstats_lifetime_work name o_top top 3"
expect "work 2,12,6,30,20,4: ran" "$(ctl $LT 'work 2,12,6,30,20,4')" ok
cat $KS/o_top > $O.top
expect "top 3: the header line" "$(o_head $O.top)" \
	"# outliers top 3 kept 3 stack 0 dropped 0"
# a sleep takes at least what it asks, and more on a busy host: the
# three kept are at least 30, 20 and 12 ms, largest first
expect "top 3: 30, 20 and 12 ms, largest first, no stack" \
	"$(o_values $O.top | awk '{ print ($1 >= 30000000 && $2 >= 20000000 && $3 >= 12000000 && $1 >= $2 && $2 >= $3 && NF == 3) ? "30 20 12" : $0 }') $(o_lines $O.top | grep -c ' stack ')" \
	"30 20 12 0"
ctl $KS/_control "remove o_top" > /dev/null

# --- keep M: the newest M, the others dropped and counted ------------------
o_trace "trace kstats_lifetime_work name o_keep slow 0 keep 2"
ctl $LT 'work 1,2,3,4,5,6,7,8,9,10' > /dev/null
# (the newest, oldest first: the 9 ms call, then the 10 ms one; a spin
# only ever runs long, by an interrupt: 10.9 ms for the 9 ms one once)
expect "slow 0 keep 2: 10 calls, the newest 2 kept (9 and 10 ms), 8 dropped" \
	"$(o_head $KS/o_keep) $(o_values $KS/o_keep | awk '{ print ($1 >= 9000000 && $2 >= 10000000) ? "9 10" : $0 }')" \
	"# outliers slow 0 keep 2 kept 2 dropped 8 stack 0 9 10"
ctl $KS/_control "remove o_keep" > /dev/null

# --- a section: kvalue's clock_nanosleep()s (its number: lib.sh), 10 ms each
# (its other calls are left out: on the debug kernel an exit can take 5 ms)
o_trace "trace o_sec start tp:raw_syscalls:sys_enter comm kvalue if arg1 == $NR_clock_nanosleep end tp:raw_syscalls:sys_exit comm kvalue if arg0$REGS_NR == $NR_clock_nanosleep slow 5000000 stack 8"
kvalue sleep 10000 5
cat $KS/o_sec > $O.sec
o_lines $O.sec | head -n 1 | sed 's/^/#   /'
expect "section: the 5 sleeps kept, the stack taken at its end" \
	"$(o_head $O.sec) $(o_field $O.sec comm | tr ' ' '\n' | sort -u)" \
	"# outliers slow 5000000 keep 256 kept 5 dropped 0 stack 8 cached 0 stack_at end kvalue"
ctl $KS/_control "remove o_sec" > /dev/null

# --- a value node: vfs_read's count, 3 of 4096 among 7 of 100 --------------
o_trace "trace vfs_read name o_val value arg2 comm kvalue slow 1000"
kvalue read /dev/zero 100 7
kvalue read /dev/zero 4096 3
expect "value arg2 slow 1000: the 3 reads of 4096 kept" \
	"$(grep '^# outliers' $KS/o_val | cut -d' ' -f1-10) $(o_values $KS/o_val)" \
	"# outliers slow 1000 keep 256 kept 3 dropped 0 4096 4096 4096"
ctl $KS/_control "remove o_val" > /dev/null

# --- hardirq context: the interrupt handlers' runs ------------------------
o_trace "trace o_irq start tp:irq:irq_handler_entry key cpu end tp:irq:irq_handler_exit key cpu top 4 stack 4"
# the console's interrupts, until 4 handler runs are in (each round 50
# lines; a UART with a FIFO may take several lines per interrupt)
r=0
while [ $r -lt 20 ]; do
	i=0
	while [ $i -lt 50 ]; do echo '# outliers workload' > /dev/console; i=$((i + 1)); done
	sleep 0.2
	[ "$(field $KS/o_irq outliers kept)" = 4 ] && break
	r=$((r + 1))
done
cat $KS/o_irq > $O.irq
o_lines $O.irq | head -n 1 | sed 's/^/#   /'
expect "hardirq: top 4 captured in the handlers' context, with their stacks" \
	"$(grep '^# outliers' $O.irq | cut -d' ' -f1-6) $(o_lines $O.irq | grep -c ' stack [^ ]')" \
	"# outliers top 4 kept 4 4"
ctl $KS/_control "remove o_irq" > /dev/null

# --- a CPU that comes online later gets its store; one that goes keeps it --
hp=/sys/devices/system/cpu/cpu1/online
if [ -w $hp ] && [ "$(cat $hp)" = 1 ] && echo 0 > $hp 2>/dev/null; then
	o_trace "trace kstats_lifetime_work name o_hp slow 10000000 keep 8"
	cb=$(field $KS/o_hp outliers cpu_bytes)
	expect "CPU 1 offline: a store on CPU 0 alone ($cb bytes)" \
		"$(field $KS/o_hp outliers bytes)" "$cb"
	echo 1 > $hp
	expect "CPU 1 back online: its store made as it came up" \
		"$(field $KS/o_hp outliers bytes)" "$((cb * 2))"
	expect "callers 1 on CPU 1: ran" "$(kload pin 1 kload ctl $LT 'callers 1')" ok
	echo 0 > $hp
	expect "CPU 1 offline again: its store kept, the slow call on it still shown" \
		"$(field $KS/o_hp outliers bytes) $(field $KS/o_hp outliers kept) $(o_field $KS/o_hp cpu)" \
		"$((cb * 2)) 1 1"
	echo 1 > $hp
	ctl $KS/_control "remove o_hp" > /dev/null
else
	skip "a CPU that comes online later gets its store" "CPU 1 cannot be taken offline here"
fi

# --- keep 65536 stack 64: stores on the CPUs online, not the possible ones --
# (make check boots Debian 6.1 with possible_cpus=64: 64 possible, 2
# online; a store per possible CPU would be 2.3 GB, more than the guest has)
npos=$(($(sed 's/.*-//' /sys/devices/system/cpu/possible) + 1))
mem_avail() { awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo; }
a0=$(mem_avail)
o_trace "trace kstats_lifetime_work name o_big slow 10000000 keep 65536 stack 64"
a1=$(mem_avail)
cb=$(field $KS/o_big outliers cpu_bytes)
b=$(field $KS/o_big outliers bytes)
diag "$npos CPUs possible, $(o_online) online; a store $cb bytes, $b in all; MemAvailable $a0 kB, then $a1 kB"
expect "keep 65536 stack 64: a store a CPU online ($npos possible), under 256 MiB in all" \
	"$b $([ "${b:-0}" -gt 0 ] && [ "$b" -lt $((256 << 20)) ] && echo under)" \
	"$(( ${cb:-0} * $(o_online) )) under"
expect "keep 65536 stack 64: MemAvailable went down by less than 256 MiB ($(( (a0 - a1) >> 10 )) MiB)" \
	"$([ $((a0 - a1)) -lt $((256 << 10)) ] && echo under)" under
expect "callers 2 (keep 65536): ran" "$(ctl $LT 'callers 2')" ok
cat $KS/o_big > $O.big
expect "keep 65536 stack 64: read back, the 2 slow calls with their stacks" \
	"$(o_head $O.big) $(o_lines $O.big | grep -c ';lt_slow_caller+0x')" \
	"# outliers slow 10000000 keep 65536 kept 2 dropped 0 stack 64 cached $(field $O.big outliers cached) 2"
ctl $KS/_control "remove o_big" > /dev/null

# --- why: each slow call's time split, with who preempted it and where it
# slept: a spin alone (on its CPU), a sleep of 200 ms (blocked, in msleep:
# long beside the probes' own time under TCG on a busy host, nested), the spin
# with a CPU-bound competitor pinned to its CPU (half each, preempted by
# the competitor), the spin under a hard hrtimer that spins in its
# callback (irq: the callbacks' own time, which the module logs)
# w_parts FILE: each outlier's "VALUE ONCPU RUNQ BLOCKED IRQ", a line each
w_parts() {
	o_lines "$1" | awk '{ for (i = 3; i < NF; i++) if ($i == "why") { print $2, $(i + 2), $(i + 4), $(i + 6), $(i + 8); break } }'
}
# w_check NAME FILE AWK-COND: every outlier split, its parts adding up to
# its duration within 5 %, and AWK-COND true of each (v, on, rq, bl, ir)
w_check() {
	expect "why, $1: every outlier split, parts within 5 % of the call, $3" \
		"$(w_parts "$2" | awk '{ v = $1; on = $2; rq = $3; bl = $4; ir = $5
			s = on + rq + bl + ir; d = s > v ? s - v : v - s
			if (d * 20 > v) { print "sum " s " of " v; exit }
			if (!('"$3"')) { print "not: " $0; exit } }
			END { print NR }')" "$(o_lines "$2" | wc -l)"
}
# w_one FUNCTION NAME OPTIONS COMMAND...: a node with why, one call to
# warm the paths it takes (TCG translates code on its first run, which
# costs the first call milliseconds of CPU), reset, then COMMAND...
w_one() {
	o_trace "trace kstats_lifetime_why_$1 name w_$2 slow 5000000 why $3"
	expect "why: why_$1 1 (a first call): ran" "$(kload pin 0 kload ctl $LT "why_$1 1")" ok
	ctl $KS/w_$2 reset > /dev/null
	shift 3
	for c in "$@"; do
		expect "why: $c: ran" "$(kload pin 0 kload ctl $LT "$c")" ok
	done
}
w_one spin spin "" "why_spin 20"
cat $KS/w_spin > $O.wspin
diag "cat $KS/w_spin:"
sed 's/^/#   /' $O.wspin
# alone on its CPU: running, or in its interrupts (under TCG the tick's
# take a tenth of it and more on a busy host)
w_check "a spin alone" $O.wspin "(on + ir) * 10 >= v * 9"
expect "why_spin 20, again: ran" "$(kload pin 0 kload ctl $LT 'why_spin 20')" ok
cat $KS/w_spin > $O.wspin
expect "why, a spin alone: 2 outliers" "$(o_lines $O.wspin | wc -l)" 2
expect "why, the header: 2 calls split, none unsplit" \
	"$(grep '^# why ' $O.wspin | awk '{ print $12, $14 }')" "2 0"
expect "why, the header: its parts, the outliers' summed" \
	"$(grep '^# why ' $O.wspin | awk '{ print $4 + $6 + $8 + $10 }')" \
	"$(w_parts $O.wspin | awk '{ s += $2 + $3 + $4 + $5 } END { print s }')"
w_one sleep sleep "" "why_sleep 200"
ctl $KS/_control "trace kstats_lifetime_why_sleep name w_sleepk slow 5000000 why mech kretprobe" > /dev/null
expect "why_sleep 1 (a second node, kretprobe: a first call): ran" "$(ctl $LT 'why_sleep 1')" ok
ctl $KS/w_sleep reset > /dev/null
ctl $KS/w_sleepk reset > /dev/null
expect "why_sleep 200 (a second node, kretprobe): ran" "$(ctl $LT 'why_sleep 200')" ok
for n in w_sleep w_sleepk; do
	cat $KS/$n > $O.$n
	diag "cat $KS/$n:"
	sed 's/^/#   /' $O.$n
	w_check "a sleep ($n)" $O.$n "bl * 10 >= v * 9"
	expect "why, a sleep ($n): blocked in msleep" \
		"$(o_lines $O.$n | grep -c ' blocked-in msleep$')" "$(o_lines $O.$n | wc -l)"
done
expect "why, the kretprobe's node: mechanism kretprobe" \
	"$(field $O.w_sleepk source mechanism)" kretprobe
kload pin 0 sh -c 'while :; do :; done' &
hog=$!
# the competitor on its CPU before the spin begins: it has run (its
# utime, in ticks, above 0), up to 10 s
i=0
while [ "$(awk '{ print $14 }' /proc/$hog/stat 2>/dev/null || echo 0)" = 0 ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
ctl $KS/w_spin reset > /dev/null
# 60 ms, a dozen of the scheduler's slices: a new task's first slice
# comes late (its start debit), which in 20 ms left it a quarter (6.1-rt)
expect "why_spin 60 beside a competitor: ran" "$(kload pin 0 kload ctl $LT 'why_spin 60')" ok
expect "why_spin 60 beside a competitor, again: ran" "$(kload pin 0 kload ctl $LT 'why_spin 60')" ok
kill $hog
wait $hog 2> /dev/null
cat $KS/w_spin > $O.whog
diag "cat $KS/w_spin (a competitor on its CPU):"
sed 's/^/#   /' $O.whog
# its time on its CPU (its own and its interrupts': under TCG on a busy
# host, the tick's take a third of it) and its wait, each about half
w_check "a spin with a competitor" $O.whog "(on + ir) * 4 >= v && (on + ir) * 4 <= v * 3 && rq * 4 >= v && rq * 4 <= v * 3"
expect "why, a spin with a competitor: preempted by it" \
	"$(o_lines $O.whog | grep -c " preempted-by sh:$hog\( \|$\)")" "$(o_lines $O.whog | wc -l)"
ctl $KS/w_spin reset > /dev/null
dmesg -c > /dev/null
expect "why_irq 20 50 200: ran" "$(kload pin 0 kload ctl $LT 'why_irq 20 50 200')" ok
cat $KS/w_spin > $O.wirq
diag "cat $KS/w_spin (a hard hrtimer's callback of 50 us every 200 us):"
sed 's/^/#   /' $O.wirq
cb_ns=$(dmesg | sed -n 's/.*why_irq: [0-9]* callbacks \([0-9]*\) ns.*/\1/p' | tail -n1)
expect "why_irq: the callbacks' own time, logged" "$([ -n "$cb_ns" ] && echo yes)" yes
diag "the callbacks' own time: ${cb_ns:-none} ns"
# its irq holds the callbacks that ran while it was on its CPU (while it
# waited, they ran in other tasks' time: ksoftirqd's, which the storm's
# softirqs wake); under TCG their interrupts' entries and exits cost as
# much again, and the host's stalls make TCG's own clock no bound on them
w_check "a spin under interrupts" $O.wirq "ir + rq + bl >= ${cb_ns:-0} * 0.95 && ir > 0"
# a kernel function with the kernel's BTF: the direct trampoline where
# the kernel has one (its rich entry and exit split the call)
o_trace "trace hrtimer_nanosleep name w_ns slow 20000000 why"
expect "why: usleep 50000: ran" "$(usleep 50000 && echo ok)" ok
ctl $KS/w_ns reset > /dev/null
usleep 200000
cat $KS/w_ns > $O.wns
diag "cat $KS/w_ns:"
sed 's/^/#   /' $O.wns
w_check "nanosleep ($(field $O.wns source mechanism))" $O.wns "bl * 10 >= v * 9"
expect "why, nanosleep: blocked in a function named" \
	"$(o_lines $O.wns | grep -c ' blocked-in [a-z_]')" "$(o_lines $O.wns | wc -l)"
ctl $KS/_control "remove w_ns" > /dev/null
# a section keyed by the task at every point: lock waits as the lockwait
# recipe writes them (match the lock, nest outer), a mutex a kthread
# holds for 200 ms while this task sleeps on it
o_trace "trace w_lock start tp:lock:contention_begin key task match arg0 end tp:lock:contention_end key task match arg0 nest outer slow 20000000 why"
expect "why: mutex_wait 1 5 (a first wait): ran" "$(ctl $LT 'mutex_wait 1 5')" ok
ctl $KS/w_lock reset > /dev/null
expect "why: mutex_wait 2 200: ran" "$(ctl $LT 'mutex_wait 2 200')" ok
cat $KS/w_lock > $O.wlock
diag "cat $KS/w_lock:"
sed 's/^/#   /' $O.wlock
# every outlier (other locks' waits too: the kthread's) split, its parts
# its duration's, from its first begin ("nest outer": a mutex's spin, then
# its sleep, each a begin)
w_check "lock waits (a section)" $O.wlock "1"
# the two on the mutex: the first frame outside the scheduler's text the
# function that took it, or on PREEMPT_RT the rt_mutex's slow path (not
# __sched there); asleep until the holder's unlock wakes it, then waiting
# for its CPU (on a busy host, milliseconds of TCG)
grep -E ' blocked-in (lt_mutex_site_a|[a-z_.0-9]*mutex[a-z_.0-9]*)$' $O.wlock > $O.wmutex
expect "why, a mutex's wait: 2 outliers, each blocked in the function that took the mutex, or in the mutex's code" \
	"$(o_lines $O.wmutex | wc -l)" 2
w_check "a mutex's wait (a section)" $O.wmutex "(bl + rq) * 10 >= v * 9 && bl * 2 >= v"
ctl $KS/_control "remove w_lock" > /dev/null
for c in "why why" "why value arg0" "why start tp:sched:sched_switch key arg1 end tp:sched:sched_switch key arg2" \
	"why start kstats_lifetime_why_spin key cpu end kstats_lifetime_why_sleep"; do
	expect "refused: trace kstats_lifetime_why_spin $c" \
		"$(ctl $KS/_control "trace kstats_lifetime_why_spin name w_bad $c")" EINVAL
done
expect "refused (why): nothing made" "$([ -e $KS/w_bad ] || echo none)" none
for n in w_spin w_sleep w_sleepk; do
	ctl $KS/_control "remove $n" > /dev/null
done

# --- refusals: EINVAL, nothing made ----------------------------------------
for c in "slow" "slow -5" "slow abc" "slow 1 top 2" "top 0" "top 4097" \
	"stack 0" "stack 65" "slow 1 stack 2 stack 3" "keep 5" "top 3 keep 5" \
	"slow 1 keep 0" "slow 1 keep 65537" "stack 4"; do
	expect "refused: trace vfs_read $c" "$(ctl $KS/_control "trace vfs_read name o_bad $c")" EINVAL
done
expect "refused: nothing made" "$([ -e $KS/o_bad ] || echo none)" none

[ -n "$lt_here" ] || rmmod kstats_lifetime
expect "remove all (outliers)" "$(ctl $KS/_control 'remove all')" ok
check "rmmod kstats (outliers)" rmmod kstats
