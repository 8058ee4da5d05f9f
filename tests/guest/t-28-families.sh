# SPDX-License-Identifier: GPL-2.0
#
# Families ("by KEY [max N]"): one histogram per key, bounded, nothing
# lost.  The workloads are kvalue's (tests/guest/kvalue.c), each reading a
# size no one else reads, so every key's count is asserted exactly; the
# keys' samples must always add up to the node's total.

check "insmod kstats.ko (families)" insmod $KB/kstats.ko
NCPU=$(grep -c ^processor /proc/cpuinfo)

# f_trace CMD: a _control write that must succeed, as a test.
f_trace() { expect "$1" "$(ctl $KS/_control "$1")" ok; }

# f_samples FILE KEY: N of the line "key KEY samples N", or nothing.
f_samples() { awk -v k="$2" '$1 == "key" && $2 == k { print $4 }' "$1"; }

# f_keys FILE: the keys in the order of the file.
f_keys() { awk '$1 == "key" { printf "%s ", $2 }' "$1"; }

# f_check FILE: ok when the file is a well-formed family: every block's
# rows add up to its samples, the keys' samples to the header's, blocks
# ordered by samples, no key twice, no row outside a block; else why not.
f_check() {
	awk '
	$1 == "#" && $2 == "name" { for (k = 3; k < NF; k++) if ($k == "samples") total = $(k + 1) }
	$1 == "key" {
		if (key != "" && rows != want) { printf "key %s: rows %d, samples %d; ", key, rows, want; bad = 1 }
		if (seen[$2]++) { printf "key %s twice; ", $2; bad = 1 }
		if (nkeys && $4 + 0 > last) { printf "key %s out of order; ", $2; bad = 1 }
		key = $2; want = $4 + 0; rows = 0; last = $4 + 0; nkeys++; sum += $4
	}
	$1 == "slot" {
		if (key == "" || $3 != "CPUS") { printf "row outside a key: %s; ", $0; bad = 1 }
		rows += $6
	}
	END {
		if (key != "" && rows != want) { printf "key %s: rows %d, samples %d; ", key, rows, want; bad = 1 }
		if (sum != total) { printf "keys add up to %d, samples %d; ", sum, total; bad = 1 }
		print bad ? "" : "ok"
	}' "$1"
}

# f_hist FILE KEY V:N...: KEY's rows hold exactly N samples of each V
# (v_hist on the key's block).
f_hist() {
	local f=$1 key=$2
	shift 2
	awk -v key="$key" '$1 == "key" { k = $2 == key; next } k' "$f" > /tmp/f.key
	v_hist /tmp/f.key "$@"
}

# --- by comm: two programs, their own keys, exact counts ---------------------
f_trace "trace vfs_read name f_comm value arg2 by comm"
kvalue -n kfa read /dev/zero 100 50 || not_ok "kvalue kfa"
kvalue -n kfb read /dev/zero 3000 30 || not_ok "kvalue kfb"
cat $KS/f_comm > /tmp/f
expect "by comm: header line" "$(grep -m1 "^# family" /tmp/f | cut -d" " -f2-6)" "family by comm max 64"
expect "by comm: kfa's 50 reads of 100 in its key" "$(f_hist /tmp/f kfa 100:50)" ok
expect "by comm: kfb's 30 reads of 3000 in its key" "$(f_hist /tmp/f kfb 3000:30)" ok
expect "by comm: the keys add up to the total, in order" "$(f_check /tmp/f)" ok
expect "by comm: no per-CPU rows in a family's file" "$(grep -c '^slot [0-9]* CPU ' /tmp/f)" 0
# the kstats command: a histogram per key, bpftrace's way; --top; keys in
# JSON and Prometheus
kstats show f_comm > /tmp/f.show 2>&1
expect "kstats show: @f_comm[kfa] then @f_comm[kfb], largest first" \
	"$(grep -E '^@f_comm\[kf[ab]\]:$' /tmp/f.show | tr '\n' ' ')" "@f_comm[kfa]: @f_comm[kfb]: "
expect "kstats show --top 1: one key, the rest summed up" \
	"$(kstats show f_comm --top 1 | grep -c '^@f_comm\[')" 1
expect "kstats show --json: kfa's 50 samples" \
	"$(kstats show f_comm --json | grep -o '"key": "kfa", [^}]*"samples": 50' | wc -l)" 1
expect "kstats export prometheus: a key label, kfa's count 50" \
	"$(kstats export --format prometheus f_comm | grep -E '^kstats_[a-z_]*_count\{.*key="kfa"' | awk '{ print $2 }')" 50
ctl $KS/f_comm reset >/dev/null
kvalue -n kfa read /dev/zero 100 4 || not_ok "kvalue kfa"
cat $KS/f_comm > /tmp/f
expect "reset: only what came after, in the keys" "$(f_samples /tmp/f kfa) $(f_samples /tmp/f kfb)" "4 "
expect "reset: keys add up" "$(f_check /tmp/f)" ok

# --- more keys than max: other, nothing lost ------------------------------------
f_trace "trace vfs_read name f_max value arg2 if arg2 == 777 by comm max 2"
for c in kf1 kf2 kf3 kf4 kf5; do
	kvalue -n $c read /dev/zero 777 10 || not_ok "kvalue $c"
done
cat $KS/f_max > /tmp/f
expect "max 2: kf1 and kf2 have keys, the rest is other" \
	"$(f_samples /tmp/f kf1) $(f_samples /tmp/f kf2) $(f_samples /tmp/f other)" "10 10 30"
expect "max 2: header keys 2 other 30" "$(field /tmp/f family keys) $(field /tmp/f family other)" "2 30"
expect "max 2: samples 50, missed 0" "$(field /tmp/f name samples) $(field /tmp/f name missed)" "50 0"
expect "max 2: the keys add up" "$(f_check /tmp/f)" ok

# --- many short-lived processes, by pid ------------------------------------------
# f_procs N: N processes one after the other, 3 reads of 555 bytes each
f_procs() {
	local i=0
	while [ $i -lt $1 ]; do
		kvalue read /dev/zero 555 3 || not_ok "kvalue $i of $1"
		i=$((i + 1))
	done
}
f_trace "trace vfs_read name f_pid value arg2 if arg2 == 555 by pid max 16"
f_procs 40
cat $KS/f_pid > /tmp/f
expect "by pid: 40 processes of 3 reads: 16 keys of 3, other 72" \
	"$(field /tmp/f family keys) $(field /tmp/f family other) $(awk '$1 == "key" && $2 != "other" && $4 != 3' /tmp/f | wc -l)" "16 72 0"
expect "by pid: samples 120, and the keys add up" "$(field /tmp/f name samples) $(f_check /tmp/f)" "120 ok"
# reset forgets the keys: the dead pids go, new processes get keys again
ctl $KS/f_pid reset > /dev/null
cat $KS/f_pid > /tmp/f
expect "by pid: reset forgets the 16 keys" \
	"$(field /tmp/f family keys) $(field /tmp/f family other) $(field /tmp/f name samples)" "0 0 0"
f_procs 5
cat $KS/f_pid > /tmp/f
expect "by pid: after reset, 5 new processes with a key each, none in other" \
	"$(field /tmp/f family keys) $(field /tmp/f family other) $(awk '$1 == "key" && $2 != "other" && $4 == 3' /tmp/f | wc -l)" "5 0 5"
expect "by pid: after reset, the keys add up" "$(f_check /tmp/f)" ok

# --- every CPU at once, keys made while they record ------------------------------
f_trace "trace vfs_read name f_cpus value arg2 if arg2 == 333 by comm"
pids=""
i=0
while [ $i -lt $((NCPU * 2)) ]; do
	kvalue -n kfc$i -t 500 read /dev/zero 333 500 &
	pids="$pids $!"
	i=$((i + 1))
done
for p in $pids; do wait $p || not_ok "kvalue kfc: exit $?"; done
cat $KS/f_cpus > /tmp/f
expect "all CPUs: $((NCPU * 2)) programs of 2 threads, 1000 reads each key" \
	"$(awk '$1 == "key" && $4 != 1000' /tmp/f | wc -l) $(field /tmp/f family keys)" "0 $((NCPU * 2))"
expect "all CPUs: samples $((NCPU * 2000)), the keys add up" \
	"$(field /tmp/f name samples) $(f_check /tmp/f)" "$((NCPU * 2000)) ok"

# --- hot keys: a key with 1024 samples in one slot records per CPU ---------------
# f_hot NODE: NCPU programs named kfh, 1500 reads of 335 each at once.
f_hot() {
	f_trace "trace vfs_read name $1 value arg2 if arg2 == 335 by comm"
	pids=""
	i=0
	while [ $i -lt $NCPU ]; do
		kvalue -n kfh read /dev/zero 335 1500 &
		pids="$pids $!"
		i=$((i + 1))
	done
	for p in $pids; do wait $p || not_ok "kvalue kfh: exit $?"; done
	cat $KS/$1 > /tmp/f
}
f_hot f_hot
expect "hot key: kfh took a per-CPU row of 8 (header hot_keys, hot_max)" \
	"$(field /tmp/f family hot_keys) $(field /tmp/f family hot_max)" "1 8"
k=$(field /tmp/f name frac_bits)
expect "hot key: hot_bytes, one histogram of (65 - $k) << $k slots of 16 bytes per CPU" \
	"$(field /tmp/f family hot_bytes)" "$((((65 - k) << k) * 16 * $(field /tmp/f name cpus)))"
expect "hot key: all $((NCPU * 1500)) reads of 335 in kfh, shared and per CPU" \
	"$(f_hist /tmp/f kfh 335:$((NCPU * 1500)))" ok
expect "hot key: samples $((NCPU * 1500)), the keys add up" \
	"$(field /tmp/f name samples) $(f_check /tmp/f)" "$((NCPU * 1500)) ok"
echo 0 > /sys/module/kstats/parameters/family_hot_keys
f_hot f_cold
echo 8 > /sys/module/kstats/parameters/family_hot_keys
expect "family_hot_keys 0: no row, all $((NCPU * 1500)) reads shared in kfh" \
	"$(field /tmp/f family hot_keys) $(field /tmp/f family hot_max) $(f_hist /tmp/f kfh 335:$((NCPU * 1500)))" "0 0 ok"

# --- a function's return value as the key; a duration family ----------------------
f_trace "trace vfs_read name f_ret if arg2 == 444 by ret"
kvalue read /dev/zero 444 6 || not_ok "kvalue 444"
cat $KS/f_ret > /tmp/f
expect "by ret: 6 calls in the key 444" "$(f_samples /tmp/f 444) $(field /tmp/f name samples)" "6 6"
expect "by ret: a duration family (clock ktime)" "$(field /tmp/f name clock) $(f_check /tmp/f)" "ktime ok"

# --- a duration by an argument in a register: where kstats traces
# directly, the task key variants' C entry reads it from the saved registers
# (header "entry arg_key"); exact counts per key either way ----------------
f_trace "trace hrtimer_nanosleep name f_arg by arg0 max 16"
kvalue sleep 123 4 || not_ok "kvalue sleep 123"
kvalue sleep 124 2 || not_ok "kvalue sleep 124"
cat $KS/f_arg > /tmp/f
want=; [ -n "$(no_direct)" ] || want=" entry arg_key"
expect "by arg0: 4 and 2 sleeps in the keys 123000 and 124000 (ns), the keys add up$want" \
	"$(f_samples /tmp/f 123000) $(f_samples /tmp/f 124000) $(f_check /tmp/f)$(grep -m1 '^# source' /tmp/f | grep -o ' entry arg_key')" "4 2 ok$want"
expect "remove f_arg" "$(ctl $KS/_control 'remove f_arg')" ok
# one past the first, which the return value's word does not take: with
# a clock the trampoline reads itself ("read tsc", "read cycles"), kept
# by an entry that calls no C, the key taken at the exit ("exit
# arg_key"); else at the C entry
f_trace "trace rw_verify_area name f_akey by arg3 max 64"
kvalue read /dev/zero 4441 7 || not_ok "kvalue 4441"
kvalue read /dev/zero 4442 3 || not_ok "kvalue 4442"
cat $KS/f_akey > /tmp/f
want=
if [ -z "$(no_direct)" ]; then
	want=" entry arg_key"
	[ -z "$(field /tmp/f source read)" ] || want=" exit arg_key"
fi
expect "by arg3: 7 and 3 reads in the keys 4441 and 4442, the keys add up$want" \
	"$(f_samples /tmp/f 4441) $(f_samples /tmp/f 4442) $(f_check /tmp/f)$(grep -m1 '^# source' /tmp/f | grep -o ' [a-z]* arg_key')" "7 3 ok$want"
expect "remove f_akey" "$(ctl $KS/_control 'remove f_akey')" ok

# --- a section, the key taken at its start -------------------------------------------
f_trace "trace f_sys comm kfs start tp:raw_syscalls:sys_enter by arg1 end tp:raw_syscalls:sys_exit"
kvalue -n kfs sleep 100 20 || not_ok "kvalue sleep"
cat $KS/f_sys > /tmp/f
# clock_nanosleep's number on this architecture (lib.sh)
expect "section by arg1: 20 clock_nanosleep calls in their key" "$(f_samples /tmp/f $NR_clock_nanosleep)" 20
expect "section by arg1: the keys add up" "$(f_check /tmp/f)" ok
expect "section by arg1: each sleep is 100 us or more" \
	"$(awk -v k=$NR_clock_nanosleep '$1 == "key" { in_k = $2 == k } in_k && $1 == "slot" && $12 < 90000' /tmp/f | wc -l)" 0
f_trace "trace f_sv start tp:irq:softirq_entry key cpu by arg0 end tp:irq:softirq_exit key cpu"
sleep 1
cat $KS/f_sv > /tmp/f
expect "softirq by vector: a TIMER (1) key after a second" "$([ "$(f_samples /tmp/f 1)" -gt 0 ] 2>/dev/null && echo yes)" yes
expect "softirq by vector: the keys add up" "$(f_check /tmp/f)" ok

# --- recipes: softirq by vector name, syscall by call name ------------------------
kstats softirq -d 1 > /tmp/f.show 2>&1
expect "kstats softirq: keys are vector names" \
	"$(grep -cE '^@softirq\[(HI|TIMER|NET_TX|NET_RX|BLOCK|IRQ_POLL|TASKLET|SCHED|HRTIMER|RCU)\]:$' /tmp/f.show | awk '{ print ($1 > 0) }')" 1
kvalue -n kfz sleep 100000 12 &
kz=$!
kstats syscall --comm kfz -d 1 > /tmp/f.show 2>&1
wait $kz
expect "kstats syscall: clock_nanosleep by name" \
	"$(grep -c '^@syscall\[clock_nanosleep\]:$' /tmp/f.show)" 1

# f_refused WHAT CMD ERE: CMD refused (EINVAL), one kernel log line /ERE/
f_refused() {
	dmesg_mark
	expect "refused: $1" "$(ctl $KS/_control "$2")" EINVAL
	dmesg_has "$3" && ok "refused: $1: kernel log says why" ||
		not_ok "refused: $1: no kernel log line /$3/"
}

# --- by caller, by stack: where the calls come from ---------------------------------
# kstats_lifetime_work() is called 4 times a round from lt_fast_caller()
# and once from lt_slow_caller() (tests/kstats_lifetime.c)
lt_here=$([ -e /sys/module/kstats_lifetime ] && echo yes)
[ -n "$lt_here" ] || insmod $KB/kstats_lifetime.ko
LT=/sys/kernel/debug/kstats_lifetime/ctl
# f_sum FILE ERE: the samples of the keys that match ERE, summed
f_sum() { awk -v re="$2" '$1 == "key" && $2 ~ re { n += $4 } END { print n + 0 }' "$1"; }
f_trace "trace kstats_lifetime_work name f_caller by caller"
f_trace "trace kstats_lifetime_work name f_stack by stack 3"
expect "callers 5: ran" "$(ctl $LT 'callers 5')" ok
cat $KS/f_caller > /tmp/f
expect "by caller: 20 calls from lt_fast_caller, 5 from lt_slow_caller, two keys" \
	"$(f_sum /tmp/f '^lt_fast_caller[+]0x[0-9a-f]+$') $(f_sum /tmp/f '^lt_slow_caller[+]0x[0-9a-f]+$') $(field /tmp/f family keys)" "20 5 2"
expect "by caller: the keys add up" "$(f_check /tmp/f)" ok
cat $KS/f_stack > /tmp/f
grep -E '^# family|^key' /tmp/f | sed 's/^/# /'
expect "by stack 3: root first, the function last, its caller before it" \
	"$(f_sum /tmp/f '^lt_callers[+]0x[0-9a-f]+;lt_fast_caller[+]0x[0-9a-f]+;kstats_lifetime_work[+]0x[0-9a-f]+$') $(f_sum /tmp/f '^lt_callers[+]0x[0-9a-f]+;lt_slow_caller[+]0x[0-9a-f]+;kstats_lifetime_work[+]0x[0-9a-f]+$')" "20 5"
expect "by stack 3: header family by stack, frames 3, stack_bytes 48" \
	"$(grep -m1 '^# family' /tmp/f | cut -d' ' -f2-4) $(field /tmp/f family frames) $(field /tmp/f family stack_bytes)" "family by stack 3 48"
expect "by stack 3: the keys add up" "$(f_check /tmp/f)" ok
expect "by stack 3: reset" "$(ctl $KS/f_stack reset)" ok
expect "callers 2: ran" "$(ctl $LT 'callers 2')" ok
cat $KS/f_stack > /tmp/f
expect "by stack 3: after reset, the stacks again, counted afresh" \
	"$(f_sum /tmp/f ';lt_fast_caller[+]0x[0-9a-f]+;kstats_lifetime_work') $(f_sum /tmp/f ';lt_slow_caller[+]0x[0-9a-f]+;kstats_lifetime_work') $(f_sum /tmp/f '^other$')" "8 2 0"
kstats show f_stack > /tmp/f.show 2>&1
# each key a block "@f_stack[", its frames a line each, innermost first,
# "]:" (lt_callers() may call lt_fast_caller() from more than one place)
f_blocks() {
	awk '/^@f_stack\[$/ { b++; i = 0; good_b = 1; inb = 1; next }
	inb && /^\]:$/ { if (good_b && i == 3) good++; inb = 0; next }
	inb {
		i++; sub(/^    /, "")
		w = i == 1 ? "kstats_lifetime_work" : i == 2 ? "lt_(fast|slow)_caller" : "lt_callers"
		if ($0 !~ "^" w "[+]0x[0-9a-f]+$") good_b = 0
	}
	END { print b + 0, good + 0 }' "$1"
}
nk=$(field /tmp/f family keys)
expect "kstats show: each of the $nk stacks a frame a line, the function first" \
	"$(f_blocks /tmp/f.show)" "$nk $nk"
kstats show f_stack --folded > /tmp/f.show 2>&1
expect "kstats show --folded: FRAMES VALUE, the slow stack's total over 2 x 20 ms" \
	"$(awk '$1 ~ /;lt_slow_caller[+]/ { print ($2 >= 40000000) }' /tmp/f.show)" 1
expect "kstats show --json: frames as an array" \
	"$(kstats show f_stack --json | grep -cE '"frames": \["lt_callers[+]0x[0-9a-f]+", "lt_slow_caller[+]')" 1
# a stack key of a function no other node traces: the direct trampoline's
# entry where there is one (the registers rebuilt from its frame)
f_trace "trace lt_fast_caller name f_stackd by stack 2"
expect "callers 2: ran" "$(ctl $LT 'callers 2')" ok
cat $KS/f_stackd > /tmp/f
expect "by stack 2 ($(field /tmp/f source mechanism)): lt_fast_caller's 8 calls from lt_callers, root first" \
	"$(f_sum /tmp/f '^lt_callers[+]0x[0-9a-f]+;lt_fast_caller[+]0x[0-9a-f]+$') $(field /tmp/f name samples)" "8 8"
# each slow mutex wait once, by the place it waits from
expect "lock waits by stack: kstats lockwait --by stack" \
	"$(ctl $KS/_control 'trace f_lock start tp:lock:contention_begin key task match arg0 by stack 16 end tp:lock:contention_end key task match arg0 nest outer')" ok
expect "mutex_sites 3 2 20: ran" "$(ctl $LT 'mutex_sites 3 2 20')" ok
cat $KS/f_lock > /tmp/f
expect "lock waits by stack: 3 from lt_mutex_site_a, 2 from lt_mutex_site_b" \
	"$(f_sum /tmp/f 'lt_mutex_site_a[+]') $(f_sum /tmp/f 'lt_mutex_site_b[+]')" "3 2"
kstats show f_lock --folded > /tmp/f.show 2>&1
expect "lock waits, folded: each site's waits 20 ms or more" \
	"$(awk '/lt_mutex_site_a[+]/ { a += $2 } /lt_mutex_site_b[+]/ { b += $2 } END { print (a >= 60000000), (b >= 40000000) }' /tmp/f.show)" "1 1"
for n in f_caller f_stack f_stackd f_lock; do ctl $KS/_control "remove $n" > /dev/null; done
[ -n "$lt_here" ] || rmmod kstats_lifetime

# --- by cgroup, cgroup PATH: per container ------------------------------------------
CG=/sys/fs/cgroup
# f_in CGROUP CMD...: CMD run in cgroup CGROUP (a path under $CG)
f_in() { local g=$1; shift; sh -c "echo \$\$ > $CG$g/cgroup.procs && exec $*"; }
if grep -qw cgroup2 /proc/filesystems; then
	mkdir -p $CG
	grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG
	mkdir -p $CG/kga/sub $CG/kgb
	f_trace "trace vfs_read name f_cg value arg2 if arg2 == 666 by cgroup"
	f_trace "trace vfs_read name f_cgf value arg2 if arg2 == 666 cgroup /kga"
	f_in /kga kvalue read /dev/zero 666 7 || not_ok "kvalue in /kga"
	f_in /kga/sub kvalue read /dev/zero 666 5 || not_ok "kvalue in /kga/sub"
	f_in /kgb kvalue read /dev/zero 666 3 || not_ok "kvalue in /kgb"
	cat $KS/f_cg > /tmp/f
	grep -E '^# family|^key' /tmp/f | sed 's/^/# /'
	expect "by cgroup: /kga 7, /kga/sub 5, /kgb 3, paths from the cgroup2 root" \
		"$(f_samples /tmp/f /kga) $(f_samples /tmp/f /kga/sub) $(f_samples /tmp/f /kgb)" "7 5 3"
	expect "by cgroup: the keys add up" "$(f_check /tmp/f)" ok
	cat $KS/f_cgf > /tmp/f
	expect "cgroup /kga: its 7 and its child's 5, not /kgb's 3" "$(field /tmp/f name samples)" 12
	expect "cgroup /kga: the header shows the filter" "$(grep -c 'cgroup /kga' /tmp/f)" 1
	rmdir $CG/kga/sub
	cat $KS/f_cg > /tmp/f
	expect "by cgroup: a removed cgroup's key shows its id" "$(awk '$1 == "key" && $2 ~ /^id:[0-9]+$/ { print $4 }' /tmp/f)" 5
	for n in f_cg f_cgf; do ctl $KS/_control "remove $n" > /dev/null; done
	rmdir $CG/kga $CG/kgb
	f_refused "cgroup PATH that is no cgroup" "trace vfs_read name f_bad cgroup /kstats-none" "cgroup '/kstats-none' is no cgroup v2"
else
	expect "by cgroup on a kernel without cgroups" "$(ctl $KS/_control 'trace vfs_read name f_bad by cgroup')" EOPNOTSUPP
fi

# --- refusals -------------------------------------------------------------------------
f_refused "by without a key" "trace vfs_read name f_bad by" "by needs a key"
f_refused "by an unknown key" "trace vfs_read name f_bad by bogus" "unknown by key 'bogus'"
f_refused "by comm max 0" "trace vfs_read name f_bad by comm max 0" "max '0' is not 1..65536"
f_refused "by comm max 65537" "trace vfs_read name f_bad by comm max 65537" "max '65537' is not 1..65536"
f_refused "by stack 0" "trace vfs_read name f_bad by stack 0" "by stack '0' is not 1..32 frames"
f_refused "by stack 33" "trace vfs_read name f_bad by stack 33" "by stack '33' is not 1..32 frames"
f_refused "by caller N" "trace vfs_read name f_bad by caller 3" "by caller takes no number"
f_refused "by caller on a tracepoint" "trace tp:sched:sched_switch name f_bad by caller" "by caller is a function's return address"
f_refused "by caller on a section" "trace f_bad start vfs_read by caller end vfs_write" "by caller is a function's return address"
f_refused "by after a section's end" "trace f_bad start tp:raw_syscalls:sys_enter end tp:raw_syscalls:sys_exit by comm" "start point's options"
expect "nothing left of the refusals" "$([ -e $KS/f_bad ] || echo none)" none

expect "remove all (families)" "$(ctl $KS/_control 'remove all')" ok
check "rmmod kstats (families)" rmmod kstats
