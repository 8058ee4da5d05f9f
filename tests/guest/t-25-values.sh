# SPDX-License-Identifier: GPL-2.0
#
# Values and filters of trace nodes: arguments, return values and memory
# behind them recorded instead of durations, errno rows, filters on the
# task, the CPU and values, and the refusals of _control.  The workloads
# are kvalue's (tests/guest/kvalue.c): every traced call is known, so every
# count, slot and average is asserted exactly.

check "insmod kstats.ko (values)" insmod $KB/kstats.ko
ENTRY_MECH=kprobe RET_MECH=kretprobe
if grep -q ' register_fprobe$' /proc/kallsyms; then
	ENTRY_MECH=fprobe RET_MECH=fprobe
fi
# a second node on a function traced directly falls back to this one
SECOND_MECH=$RET_MECH
# values, and durations with filters or a family: the direct trampoline
# where there is one (x86-64, ftrace direct calls, BTF), as the plain
# duration's
FILTER_MECH=$RET_MECH
DIRECT_WHY=$(no_direct)
if [ -z "$DIRECT_WHY" ]; then
	ENTRY_MECH=direct RET_MECH=direct FILTER_MECH=direct
fi
NCPU=$(grep -c ^processor /proc/cpuinfo)
diag "values: entry-only values $ENTRY_MECH, return values $RET_MECH, filtered durations $FILTER_MECH, $NCPU CPUs"

# v_avg FILE V: the average of the all-CPU row whose slot holds V.
v_avg() {
	awk -v v="$2" '$1 == "slot" && $3 == "CPUS" && $12 + 0 <= v + 0 && v + 0 <= $14 + 0 { print $8 }' "$1"
}

# v_line FILE TAG: the header line "# TAG ...", or nothing.
v_line() { grep -m1 "^# $2\( \|$\)" "$1"; }

# v_tags FILE: the tags of the header lines, in order.
v_tags() { sed -n 's/^# \([a-z]*\).*/\1/p' "$1" | tr '\n' ' '; }

# v_errno FILE: its errno rows on one line.
v_errno() { grep '^errno ' "$1" | tr '\n' ';'; }

# v_trace CMD: a _control write that must succeed, as a test.
v_trace() { expect "$1" "$(ctl $KS/_control "$1")" ok; }

# kv ARGS...: run kvalue; a test fails only when it does.
kv() { kvalue "$@" || not_ok "kvalue $*: exit status $?"; }

# kv_start FILE ARGS...: kvalue in the background: it writes "PID TID
# [TID2]" to FILE, then waits for SIGUSR1 (kill -USR1 PID; wait PID).
kv_start() {
	local f=$1 i=0
	shift
	rm -f "$f"
	kvalue -p "$f" "$@" &
	while [ ! -s "$f" ] && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s "$f" ] || not_ok "kvalue -p $f $*: no pid file"
}

dd if=/dev/zero of=/tmp/kv.dat bs=4096 count=4 2>/dev/null

# --- a value: vfs_read()'s count ---------------------------------------------
v_trace "trace vfs_read name v_count value arg2 comm kvalue"
kv read /dev/zero 100 7
kv read /dev/zero 3000 5
cat $KS/v_count > /tmp/v
expect "value arg2: 7 reads of 100 and 5 of 3000, each in its slot" "$(v_hist /tmp/v 100:7 3000:5)" ok
expect "value arg2: samples 12, missed 0" "$(field /tmp/v name samples) $(field /tmp/v name missed)" "12 0"
expect "value arg2: each slot's average is its value" "$(v_avg /tmp/v 100) $(v_avg /tmp/v 3000)" "100 3000"
expect "value arg2: mean of the values (700 + 15000) / 12" "$(field /tmp/v summary mean)" 1308
expect "value arg2: min and max the values themselves, not their slots' bounds" \
	"$(field /tmp/v summary min) $(field /tmp/v summary max)" "100 3000"
expect "value arg2: p99.9 is max, not the end of 3000's slot (3071)" \
	"$(field /tmp/v summary p99.9)" 3000
expect "value: clock none, unit value" "$(field /tmp/v name clock) $(field /tmp/v name unit)" "none value"
expect "value arg2 needs no return: $ENTRY_MECH" "$(field /tmp/v source mechanism)" "$ENTRY_MECH"
expect "header line: value arg2" "$(v_line /tmp/v value)" "# value arg2"
expect "header line: filter comm kvalue" "$(v_line /tmp/v filter)" "# filter comm kvalue"
expect "header line: no negative samples" "$(v_line /tmp/v negative)" "# negative samples 0 min 0 max 0"
expect "header order: value, filter, negative after source" "$(v_tags /tmp/v)" \
	"name source value filter negative summary "
expect "no errno rows" "$(v_errno /tmp/v)" ""

# --- reads of exactly 4096 bytes: max 4096, not 4607 ---------------------------
v_trace "trace vfs_read name v_4k value arg2 comm kvalue"
v_trace "trace ksys_read name v_4kret value ret comm kvalue"
kv read /dev/zero 4096 5
for n in v_4k v_4kret; do
	expect "$n: 5 reads of 4096 bytes, in the slot [4096, 4607]" "$(v_hist $KS/$n 4096:5)" ok
	expect "$n: summary min, percentiles and max all 4096" \
		"$(grep '^# summary' $KS/$n)" \
		"# summary samples 5 min 4096 p50 4096 p90 4096 p99 4096 p99.9 4096 max 4096 mean 4096"
done
expect "reset v_4k" "$(ctl $KS/v_4k reset)" ok
kv read /dev/zero 100 1
expect "v_4k: reset forgets the extremes: one read of 100 is both" \
	"$(field $KS/v_4k summary min) $(field $KS/v_4k summary max)" "100 100"
ctl $KS/_control "remove v_4k" >/dev/null
ctl $KS/_control "remove v_4kret" >/dev/null

# --- memory behind an argument: *pos --------------------------------------------
v_trace "trace vfs_read name v_pos value arg3+0:8 comm kvalue"
v_trace "trace vfs_read name v_pos4 value arg3+0x0:s4 comm kvalue"
kv pread /tmp/kv.dat 4096 3
kv read /tmp/kv.dat 1000 3
cat $KS/v_pos > /tmp/v
expect "value arg3+0:8: *pos of 3 preads at 4096 and reads at 0, 1000, 2000" \
	"$(v_hist /tmp/v 4096:3 0:1 1000:1 2000:1)" ok
expect "value arg3+0:8: the slot of 4096 averages 4096" "$(v_avg /tmp/v 4096)" 4096
expect "value arg3+0:8: mean (12288 + 3000) / 6" "$(field /tmp/v summary mean)" 2548
expect "header line: value arg3+0:8" "$(v_line /tmp/v value)" "# value arg3+0:8"
expect "value arg3+0x0:s4: the same values" "$(v_hist $KS/v_pos4 4096:3 0:1 1000:1 2000:1)" ok
expect "header line: offsets in decimal (value arg3+0:s4)" "$(v_line $KS/v_pos4 value)" "# value arg3+0:s4"

# --- unreadable memory counts in missed -----------------------------------------
v_trace "trace vfs_read name v_ubuf value arg1+0:8 comm kvalue"
v_trace "trace vfs_read name v_pp value arg3+0:8+0:8 comm kvalue"
kv read /dev/zero 100 7
kv pread /tmp/kv.dat 4096 3
expect "arg1+0:8 (the user buffer) cannot be read: samples 0, missed 10" \
	"$(field $KS/v_ubuf name samples) $(field $KS/v_ubuf name missed)" "0 10"
expect "arg3+0:8+0:8 (address *pos: 0 or 4096): samples 0, missed 10" \
	"$(field $KS/v_pp name samples) $(field $KS/v_pp name missed)" "0 10"
for n in v_count v_pos v_pos4 v_ubuf v_pp; do
	ctl $KS/_control "remove $n" >/dev/null
done

# --- return values: errno rows ----------------------------------------------------
v_trace "trace ksys_read name v_ret value ret comm kvalue"
v_trace "trace ksys_read name f_fail if ret < 0 comm kvalue"
v_trace "trace ksys_read name f_m9 value ret comm kvalue if ret == -9"
v_trace "trace ksys_read name f_argret value arg2 comm kvalue if ret < 0"
v_trace "trace ksys_read name f_retarg value ret comm kvalue if arg2 == 10"
v_trace "trace ksys_read name v_fd value arg0:s4 comm kvalue"
kv fail 9 4
kv fail 14 2
kv read /dev/zero 10 3
cat $KS/v_ret > /tmp/v
expect "value ret: 4 EBADF, 2 EFAULT are negative" "$(v_line /tmp/v negative)" \
	"# negative samples 6 min -14 max -9"
expect "value ret: errno rows" "$(v_errno /tmp/v)" "errno 9 count 4;errno 14 count 2;"
expect "value ret: the 3 reads of 10 bytes, alone in samples" \
	"$(v_hist /tmp/v 10:3) $(field /tmp/v name samples) $(field /tmp/v summary mean)" "ok 3 10"
expect "value ret: $RET_MECH" "$(field /tmp/v source mechanism)" "$RET_MECH"
expect "errno rows follow the last slot row" "$(tail -n 3 /tmp/v | cut -d' ' -f1 | tr '\n' ' ')" "slot errno errno "
expect "duration if ret < 0: the 6 failed calls" "$(field $KS/f_fail name samples)" 6
expect "duration if ret < 0: a duration node (a second on ksys_read: $SECOND_MECH, ktime)" \
	"$(field $KS/f_fail source mechanism) $(field $KS/f_fail name clock)" "$SECOND_MECH ktime"
expect "duration node: filter line, no value line, no negative line" "$(v_tags $KS/f_fail)" \
	"name source filter summary "
expect "header line: filter comm kvalue if ret < 0" "$(v_line $KS/f_fail filter)" "# filter comm kvalue if ret < 0"
cat $KS/f_m9 > /tmp/v
expect "if ret == -9: only the 4 EBADF" "$(v_line /tmp/v negative) $(v_errno /tmp/v) $(field /tmp/v name samples)" \
	"# negative samples 4 min -9 max -9 errno 9 count 4; 0"
expect "value arg2 if ret < 0 (entry value, return condition): counts 1 and 16 of the failures" \
	"$(v_hist $KS/f_argret 1:4 16:2) $(v_line $KS/f_argret negative)" "ok # negative samples 0 min 0 max 0"
expect "value arg2 if ret < 0 (a second node on ksys_read): $SECOND_MECH" "$(field $KS/f_argret source mechanism)" "$SECOND_MECH"
expect "value ret if arg2 == 10 (entry condition, return value): the 3 reads" \
	"$(v_hist $KS/f_retarg 10:3) $(v_line $KS/f_retarg negative)" "ok # negative samples 0 min 0 max 0"
expect "value arg0:s4: fd -100000 is negative, no errno" \
	"$(v_line $KS/v_fd negative) $(v_errno $KS/v_fd) $(field $KS/v_fd name samples)" \
	"# negative samples 4 min -100000 max -100000  5"
kload ctl $KS/v_ret reset >/dev/null
expect "reset clears the negative samples and the errno rows" \
	"$(v_line $KS/v_ret negative) $(v_errno $KS/v_ret) $(field $KS/v_ret name samples)" \
	"# negative samples 0 min 0 max 0  0"
for n in v_ret f_fail f_m9 f_argret f_retarg v_fd; do
	ctl $KS/_control "remove $n" >/dev/null
done
# The same conditions on ret, each node alone on ksys_read: the direct
# trampoline's exit reads ret from its frame
if [ "$FILTER_MECH" = direct ]; then
	v_trace "trace ksys_read name d_fail if ret < 0 comm kvalue mech direct"
	kv fail 9 4
	kv fail 14 2
	kv read /dev/zero 10 3
	expect "direct: duration if ret < 0: the 6 failed calls" \
		"$(field $KS/d_fail name samples) $(field $KS/d_fail source mechanism)" "6 direct"
	ctl $KS/_control "remove d_fail" >/dev/null
	v_trace "trace ksys_read name d_argret value arg2 comm kvalue if ret < 0 mech direct"
	kv fail 9 4
	kv fail 14 2
	kv read /dev/zero 10 3
	expect "direct: value arg2 if ret < 0: counts 1 and 16 of the failures" \
		"$(v_hist $KS/d_argret 1:4 16:2) $(field $KS/d_argret name samples)" "ok 6"
	ctl $KS/_control "remove d_argret" >/dev/null
	v_trace "trace ksys_read name d_byret value arg2 comm kvalue by ret mech direct"
	kv fail 9 4
	kv read /dev/zero 10 3
	expect "direct: value arg2 by ret: keys -9 (4 calls) and 10 (3 calls)" \
		"$(awk '$1 == "key" { printf "%s:%s ", $2, $4 }' $KS/d_byret)" "-9:4 10:3 "
	ctl $KS/_control "remove d_byret" >/dev/null
else
	skip "direct: conditions on ret" "$DIRECT_WHY"
fi

# An int function: do_mkdirat() returns -errno zero-extended in rax.
v_trace "trace do_mkdirat name v_mk value ret comm kvalue"
v_trace "trace do_mkdirat name v_mks4 value ret:s4 comm kvalue"
v_trace "trace do_mkdirat name v_mk4 value ret:4 comm kvalue"
v_trace "trace do_mkdirat name f_mk17 value ret comm kvalue if ret == -17"
v_trace "trace do_mkdirat name f_mk17s4 value ret:s4 comm kvalue if ret:s4 == -17"
kv fail 17 3
kv fail 2 2
kv mkdir /tmp/kv.dir 1
for n in v_mk v_mks4; do
	cat $KS/$n > /tmp/v
	expect "$n: 3 EEXIST, 2 ENOENT negative" "$(v_line /tmp/v negative)" "# negative samples 5 min -17 max -2"
	expect "$n: errno rows" "$(v_errno /tmp/v)" "errno 2 count 2;errno 17 count 3;"
	expect "$n: the mkdir that worked, 0" "$(v_hist /tmp/v 0:1) $(field /tmp/v name samples)" "ok 1"
done
expect "header line: value ret:s4" "$(v_line $KS/v_mks4 value)" "# value ret:s4"
expect "ret:4 zero-extends: no negative samples" "$(v_line $KS/v_mk4 negative)" "# negative samples 0 min 0 max 0"
expect "ret:4: 0xffffffef x3, 0xfffffffe x2, 0 x1" \
	"$(v_hist $KS/v_mk4 4294967279:3 4294967294:2 0:1) $(field $KS/v_mk4 name samples)" "ok 6"
for n in f_mk17 f_mk17s4; do
	expect "$n: only the 3 EEXIST" "$(v_line $KS/$n negative) $(v_errno $KS/$n) $(field $KS/$n name samples)" \
		"# negative samples 3 min -17 max -17 errno 17 count 3; 0"
done
for n in v_mk v_mks4 v_mk4 f_mk17 f_mk17s4; do
	ctl $KS/_control "remove $n" >/dev/null
done

# A duration with filters on arguments and the task, checked at entry.
v_trace "trace vfs_read name f_dur if arg2 > 1000 comm kvalue"
kv read /dev/zero 100 7
kv read /dev/zero 3000 5
expect "duration if arg2 > 1000: the 5 big reads, in ns" \
	"$(field $KS/f_dur name samples) $(field $KS/f_dur name clock) $(field $KS/f_dur source mechanism)" \
	"5 ktime $FILTER_MECH"
ctl $KS/_control "remove f_dur" >/dev/null

# --- filters: pid and tid -----------------------------------------------------------
v_trace "trace vfs_read name f_all value arg2 comm kvalue"
kv_start /tmp/kvA read /dev/zero 100 7
kv_start /tmp/kvB read /dev/zero 3000 5
read PA _ < /tmp/kvA
read PB _ < /tmp/kvB
v_trace "trace vfs_read name f_pid value arg2 pid $PA"
v_trace "trace vfs_read name f_pidB value arg2 pid $PB comm kvalue"
kill -USR1 $PA $PB
wait $PA $PB
expect "pid $PA: its 7 reads only" "$(v_hist $KS/f_pid 100:7)" ok
expect "pid $PB and comm: its 5 reads only" "$(v_hist $KS/f_pidB 3000:5)" ok
expect "both processes seen by comm" "$(v_hist $KS/f_all 100:7 3000:5)" ok
expect "header line: filter pid $PB comm kvalue" "$(v_line $KS/f_pidB filter)" "# filter pid $PB comm kvalue"
kv_start /tmp/kvT -t 5 read /dev/zero 100 7
read TP TT1 TT2 < /tmp/kvT
v_trace "trace vfs_read name f_tid1 value arg2 tid $TT1"
v_trace "trace vfs_read name f_tid2 value arg2 tid $TT2"
v_trace "trace vfs_read name f_tgid value arg2 pid $TP"
v_trace "trace vfs_read name f_both value arg2 pid $TP tid $TT2"
v_trace "trace vfs_read name f_thrpid value arg2 pid $TT2"
kill -USR1 $TP
wait $TP
expect "tid $TT1 (main thread): 7 reads" "$(v_hist $KS/f_tid1 100:7)" ok
expect "tid $TT2 (second thread): 5 reads" "$(v_hist $KS/f_tid2 100:5)" ok
expect "pid $TP is the thread group: 12 reads" "$(v_hist $KS/f_tgid 100:12)" ok
expect "pid and tid: 5 reads" "$(v_hist $KS/f_both 100:5)" ok
expect "header line: filter pid $TP tid $TT2" "$(v_line $KS/f_both filter)" "# filter pid $TP tid $TT2"
expect "pid of a thread's id (not a tgid): nothing" "$(field $KS/f_thrpid name samples)" 0
for n in f_all f_pid f_pidB f_tid1 f_tid2 f_tgid f_both f_thrpid; do
	ctl $KS/_control "remove $n" >/dev/null
done

# --- filters: comm -----------------------------------------------------------------------
v_trace "trace vfs_read name f_comm value arg2 comm kvalue"
v_trace "trace vfs_read name f_comm2 value arg2 comm kvalue2"
v_trace "trace vfs_read name f_comm15 value arg2 comm kvalue_fifteen1"
kv read /dev/zero 100 7
kv -n kvalue2 read /dev/zero 3000 5
kv -n kvalu read /dev/zero 1000 3
kv -n kvalue_fifteen1 read /dev/zero 2000 2
expect "comm kvalue: not kvalue2 nor kvalu" "$(v_hist $KS/f_comm 100:7)" ok
expect "comm kvalue2" "$(v_hist $KS/f_comm2 3000:5)" ok
expect "comm of 15 characters" "$(v_hist $KS/f_comm15 2000:2)" ok
for n in f_comm f_comm2 f_comm15; do
	ctl $KS/_control "remove $n" >/dev/null
done

# --- filters: cpu ----------------------------------------------------------------------------
if [ "$NCPU" -ge 2 ]; then
	v_trace "trace vfs_read name f_cpu0 value arg2 comm kvalue cpu 0"
	v_trace "trace vfs_read name f_cpu1 value arg2 comm kvalue cpu 1"
	kload pin 0 kvalue read /dev/zero 100 7
	kload pin 1 kvalue read /dev/zero 3000 5
	expect "cpu 0: the reads bound to CPU 0" "$(v_hist $KS/f_cpu0 100:7)" ok
	expect "cpu 1: the reads bound to CPU 1" "$(v_hist $KS/f_cpu1 3000:5)" ok
	expect "cpu 1: only CPU 1 rows" "$(awk '$1 == "slot" && $3 == "CPU" { print $4 }' $KS/f_cpu1 | sort -u)" 1
	expect "header line: filter comm kvalue cpu 1" "$(v_line $KS/f_cpu1 filter)" "# filter comm kvalue cpu 1"
	ctl $KS/_control "remove f_cpu0" >/dev/null
	ctl $KS/_control "remove f_cpu1" >/dev/null
else
	v_trace "trace vfs_read name f_cpu0 value arg2 comm kvalue cpu 0"
	kv read /dev/zero 100 7
	expect "cpu 0 of a single CPU: every read" "$(v_hist $KS/f_cpu0 100:7)" ok
	ctl $KS/_control "remove f_cpu0" >/dev/null
	if [ "$(cat /sys/devices/system/cpu/possible)" = 0 ]; then
		expect "cpu 1 of a single possible CPU: EINVAL" \
			"$(ctl $KS/_control 'trace vfs_read name f_cpu1 value arg2 cpu 1')" EINVAL
	fi
fi

# --- filters: conditions -----------------------------------------------------------------------
# 7 reads of 100 (0x64) and 5 of 3000 (0xbb8); compared as signed 64-bit.
# NAME|CONDITION|WANT per line.
V_CONDS='f_eq|== 100|100:7
f_ne|!= 100|3000:5
f_lt|< 3000|100:7
f_le|<= 3000|100:7 3000:5
f_gt|> 1000|3000:5
f_ge|>= 3000|3000:5
f_and|& 0x800|3000:5
f_and4|& 4|100:7
f_hex|== 0xbb8|3000:5
f_neg|> -1|100:7 3000:5'
while IFS='|' read -r n cond want; do
	v_trace "trace vfs_read name $n value arg2 comm kvalue if arg2 $cond"
done <<EOF
$V_CONDS
EOF
expect "header line: constants in decimal (if arg2 == 3000)" "$(v_line $KS/f_hex filter)" \
	"# filter comm kvalue if arg2 == 3000"
v_trace "trace vfs_read name f_two value arg2 comm kvalue if arg2 > 50 if arg2 < 200"
v_trace "trace vfs_read name f_four value arg2 comm kvalue if arg2 > 1 if arg2 > 2 if arg2 > 3 if arg2 < 200"
kv read /dev/zero 100 7
kv read /dev/zero 3000 5
while IFS='|' read -r n cond want; do
	expect "if arg2 $cond: $want" "$(v_hist $KS/$n $want)" ok
	ctl $KS/_control "remove $n" >/dev/null
done <<EOF
$V_CONDS
EOF
expect "two conditions both hold: 100 only" "$(v_hist $KS/f_two 100:7)" ok
expect "header line: filter comm kvalue if arg2 > 50 if arg2 < 200" "$(v_line $KS/f_two filter)" \
	"# filter comm kvalue if arg2 > 50 if arg2 < 200"
expect "four conditions" "$(v_hist $KS/f_four 100:7)" ok
ctl $KS/_control "remove f_two" >/dev/null
ctl $KS/_control "remove f_four" >/dev/null
# a condition on another argument than the value: *pos
v_trace "trace vfs_read name f_other value arg2 comm kvalue if arg3+0:8 == 4096"
kv read /dev/zero 100 7
kv pread /dev/zero 4096 3
kv pread /dev/zero 2048 3
expect "if arg3+0:8 == 4096: the 3 preads of 8 bytes at 4096" "$(v_hist $KS/f_other 8:3)" ok
ctl $KS/_control "remove f_other" >/dev/null

# --- tracepoints -----------------------------------------------------------------------------------
# signal_generate(int sig, struct kernel_siginfo *info, ...) fires in the
# sender: kvalue's kill()s, and the SIGCHLD each kvalue sends its parent
# as it exits.
v_trace "trace tp:signal:signal_generate name v_sig value arg0:s4 comm kvalue"
v_trace "trace tp:signal:signal_generate name v_sig12 value arg0:s4 comm kvalue if arg0:s4 == 12"
v_trace "trace tp:signal:signal_generate name v_signo value arg1+0:s4 comm kvalue"
kv kill 12 5
kv kill 28 3
expect "tracepoint arg0:s4: 5 x 12, 3 x 28, 2 exits' SIGCHLD (17)" "$(v_hist $KS/v_sig 12:5 28:3 17:2)" ok
expect "tracepoint value: mechanism tracepoint, clock none" \
	"$(field $KS/v_sig source mechanism) $(field $KS/v_sig name clock)" "tracepoint none"
expect "header line: value arg0:s4" "$(v_line $KS/v_sig value)" "# value arg0:s4"
expect "tracepoint if arg0:s4 == 12" "$(v_hist $KS/v_sig12 12:5)" ok
expect "tracepoint arg1+0:s4 (info->si_signo)" "$(v_hist $KS/v_signo 12:5 28:3 17:2)" ok
for n in v_sig v_sig12 v_signo; do
	ctl $KS/_control "remove $n" >/dev/null
done
# sys_enter(struct pt_regs *regs, long id): the register of read()'s third
# argument in regs is its count, of pread64()'s fourth its offset, of the
# first the fd (x86-64: dx +96, r10 +56, di +112; arm64: x2 +16, x3 +24,
# x0 +0; the numbers of the calls too: lib.sh)
if have_raw_syscalls; then
	v_trace "trace tp:raw_syscalls:sys_enter name v_sysr value arg0$REGS_ARG2:8 comm kvalue if arg1 == $NR_read"
	v_trace "trace tp:raw_syscalls:sys_enter name v_sysp value arg0$REGS_ARG3:8 comm kvalue if arg1 == $NR_pread64"
	v_trace "trace tp:raw_syscalls:sys_enter name v_sysfd value arg0$REGS_ARG0:8 comm kvalue if arg1 == $NR_read if arg0$REGS_ARG0:8 < 0"
	kv read /dev/zero 100 7
	kv pread /tmp/kv.dat 4096 3
	kv fail 9 2
	expect "sys_enter of read: regs' third argument is the count" "$(v_hist $KS/v_sysr 100:7 1:2)" ok
	expect "sys_enter of pread64: regs' fourth argument is the offset" "$(v_hist $KS/v_sysp 4096:3)" ok
	expect "sys_enter of read: regs' first argument < 0 is fd -100000" \
		"$(v_line $KS/v_sysfd negative) $(field $KS/v_sysfd name samples)" \
		"# negative samples 2 min -100000 max -100000 0"
	for n in v_sysr v_sysp v_sysfd; do
		ctl $KS/_control "remove $n" >/dev/null
	done
else
	skip "tracepoint values of sys_enter" "no raw_syscalls tracepoints"
fi

# --- types from the BTF -------------------------------------------------------------------------------
# A value written without a cast takes its argument's or return value's
# type where the BTF gives it: kstats_lifetime_narrow(int -5, u16 65520,
# s8 -3) reaches the generic probe with -5 and -3 as 0xfffffffb and
# 0xfffffffd in their registers; kstats_lifetime_ret_int(), _ret_u32()
# and _ret_long() all return 0x00000000fffffff2 in %rax, which is -14 for
# the int only.  Without the module's BTF (Debian 6.1's test modules, the
# test kernel) the words are taken whole and a return value is guessed at
# as an int's -errno: what each kernel must give is known either way.
lt_here=$([ -e /sys/module/kstats_lifetime ] && echo yes)
[ -n "$lt_here" ] || insmod $KB/kstats_lifetime.ko
LT=/sys/kernel/debug/kstats_lifetime/ctl
v_trace "trace tp:kstats_lifetime:kstats_lifetime_narrow name v_narrow value arg1 if arg0 == -5 if arg2 < 0"
v_trace "trace tp:kstats_lifetime:kstats_lifetime_narrow name v_narrow_cast value arg1 if arg0:4 == 4294967291"
v_trace "trace kstats_lifetime_ret_int name v_rint if ret == -14"
v_trace "trace kstats_lifetime_ret_u32 name v_ru32 if ret == 4294967282"
v_trace "trace kstats_lifetime_ret_long name v_rlong if ret == 4294967282"
expect "narrow 6, ret 5: run" "$(ctl $LT 'narrow 6') $(ctl $LT 'ret 5')" "ok ok"
if [ -r /sys/kernel/btf/kstats_lifetime ]; then
	want="6 6 5 5 5" why="from the module's BTF"
else
	want="0 6 5 0 0" why="no BTF: whole words, ret guessed"
fi
expect "types $why: int -5 and s8 -3 arguments, a written cast kept, ret of int, u32, long" \
	"$(for n in v_narrow v_narrow_cast v_rint v_ru32 v_rlong; do field $KS/$n name samples; done | tr '\n' ' ' | sed 's/ $//')" "$want"
[ -r /sys/kernel/btf/kstats_lifetime ] &&
	expect "a typed value: arg1 (u16) 65520, shown as written" \
		"$(v_hist $KS/v_narrow 65520:6) $(v_line $KS/v_narrow value) $(v_line $KS/v_narrow filter)" \
		"ok # value arg1 # filter if arg0 == -5 if arg2 < 0"
expect "a tracepoint of no probe of its own prototype: probes generic" \
	"$(field $KS/v_narrow source probes)" generic
for n in v_narrow v_narrow_cast v_rint v_ru32 v_rlong; do
	ctl $KS/_control "remove $n" >/dev/null
done
[ -n "$lt_here" ] || rmmod kstats_lifetime

# --- sections -------------------------------------------------------------------------------------------
# from ksys_read() to vfs_read(), the filters written before start checked
# at both points; dd's reads fail them and count nowhere (not even in missed)
v_trace "trace f_sec comm kvalue start ksys_read end vfs_read"
v_trace "trace f_secbig comm kvalue if arg2 > 1000 start ksys_read end vfs_read"
kload pin 0 kvalue read /dev/zero 100 7
kload pin 0 kvalue read /dev/zero 3000 5
dd if=/dev/zero of=/dev/null bs=100 count=9 2>/dev/null
expect "section with comm kvalue: its 12 reads, nothing missed" \
	"$(field $KS/f_sec name samples) $(field $KS/f_sec name missed)" "12 0"
expect "section with if arg2 > 1000: the 5 big reads" \
	"$(field $KS/f_secbig name samples) $(field $KS/f_secbig name missed)" "5 0"
expect "section: a duration (section, ktime), filter line" \
	"$(field $KS/f_sec source mechanism) $(field $KS/f_sec name clock) $(v_line $KS/f_sec filter)" \
	"section ktime # filter start comm kvalue"
expect "section: the same filter at its end" "$(grep '^# filter end' $KS/f_sec)" "# filter end comm kvalue"
ctl $KS/_control "remove f_sec" >/dev/null
ctl $KS/_control "remove f_secbig" >/dev/null

# --- limits accepted --------------------------------------------------------------------------------------
for v in arg11 arg0+2147483647:1 arg0+0:8+0:8+0:8+0:8 arg0:s1 arg0:s2 arg0:1 arg0:2 arg0:8 \
	arg0+0:s1 arg0+0:s2 arg0+0:s4 arg0+0:1 arg0+0:2 arg0+0:4 arg0-8:8; do
	expect "accepted: value $v" "$(ctl $KS/_control "trace vfs_read name lim value $v comm nobody")" ok
	ctl $KS/_control "remove lim" >/dev/null
done
expect "accepted: value with clock none" \
	"$(ctl $KS/_control 'trace vfs_read name lim value arg2 clock none comm nobody')" ok
ctl $KS/_control "remove lim" >/dev/null

# --- refusals ----------------------------------------------------------------------------------------------
v_trace "trace vfs_read name v_keep value arg2 comm kvalue"
before_ls=$(ls $KS | tr '\n' ' ')
before_ctl=$(cat $KS/_control)
# v_refused DESC COMMAND REGEX: EINVAL, and a kernel log line matching REGEX
v_refused() {
	dmesg_mark
	expect "refused: $1" "$(ctl $KS/_control "$2")" EINVAL
	check "refused: $1: the kernel log names it" dmesg_has "$3"
}
v_refused "arg12" "trace vfs_read name bad value arg12" "arg12"
v_refused "a size of 3" "trace vfs_read name bad value arg0+0:3" "arg0[+]0:3"
v_refused "a cast of s8" "trace vfs_read name bad value arg0:s8" "arg0:s8"
v_refused "offset 2147483648" "trace vfs_read name bad value arg0+2147483648:8" "2147483648"
v_refused "5 dereferences" "trace vfs_read name bad value arg0+0:8+0:8+0:8+0:8+0:8" \
	"arg0[+]0:8[+]0:8[+]0:8[+]0:8[+]0:8"
v_refused "a dereference of size 4 before another" "trace vfs_read name bad value arg0+0:4+0:8" \
	"arg0[+]0:4[+]0:8"
v_refused "an unknown base" "trace vfs_read name bad value bogus" "bogus"
v_refused "comm of 16 characters" "trace vfs_read name bad comm kvalue_sixteen16" "kvalue_sixteen16"
v_refused "pid -1" "trace vfs_read name bad pid -1" "pid.*-1"
v_refused "tid -5" "trace vfs_read name bad tid -5" "tid.*-5"
v_refused "cpu 4096" "trace vfs_read name bad cpu 4096" "cpu.*4096"
v_refused "if without operator" "trace vfs_read name bad if arg0" "if arg0"
v_refused "if without constant" "trace vfs_read name bad if arg0 >" "if arg0 >"
v_refused "an unknown operator" "trace vfs_read name bad if arg0 ~ 3" "~"
v_refused "a constant that is no number" "trace vfs_read name bad if arg0 == x12" "x12"
v_refused "5 conditions" \
	"trace vfs_read name bad if arg2 > 1 if arg2 > 2 if arg2 > 3 if arg2 > 4 if arg2 > 5" "arg2 > 5"
v_refused "value ret on a tracepoint" "trace tp:signal:signal_generate name bad value ret" "ret"
v_refused "if ret on a tracepoint" "trace tp:signal:signal_generate name bad if ret < 0" "ret"
v_refused "value on a section" "trace bad start ksys_read end vfs_read value arg0" "section"
v_refused "if ret on a section" "trace bad start ksys_read end vfs_read if ret < 0" "ret"
v_refused "value with gap" "trace vfs_read name bad value arg2 gap" "gap"
v_refused "value with clock $CYC" "trace vfs_read name bad value arg2 clock $CYC" "$CYC"
v_refused "value on new" "new bad value arg0" "value"
expect "nothing made by the refusals: same files" "$(ls $KS | tr '\n' ' ')" "$before_ls"
expect "nothing made by the refusals: same _control listing" "$(cat $KS/_control)" "$before_ctl"
kv read /dev/zero 100 3
expect "the node kept through the refusals still counts" "$(v_hist $KS/v_keep 100:3)" ok

# --- the kstats command: values named from BTF ------------------------------------------------------------
# Names need the kernel's BTF (CONFIG_DEBUG_INFO_BTF: the Debian kernels);
# without it, the kernel's own terms still pass, and a name is refused.
if [ -r /sys/kernel/btf/vmlinux ]; then
	kstats_bg /tmp/kt.out trace vfs_read --value count --comm kvalue -d 3 -v
	kvalue read /dev/zero 100 7; kvalue read /dev/zero 3000 5
	wait $KBG
	out=$(cat /tmp/kt.out.err /tmp/kt.out)
	expect_match "kstats trace --value count: resolved to value arg2" "$out" "value arg2"
	expect_match "kstats trace --value count: 12 samples" "$out" "^ +12 +"
	expect "kstats trace --value removed its node" "$(ls $KS | grep -c '^vfs_read')" 0
	kstats_bg /tmp/kt.out trace vfs_read --value '*pos' --comm kvalue -d 3 -v
	kvalue pread /tmp/kv.dat 4096 3
	wait $KBG
	out=$(cat /tmp/kt.out.err /tmp/kt.out)
	expect_match "kstats trace --value '*pos': resolved to value arg3+0:8" "$out" "value arg3[+]0:8"
	expect_match "kstats trace --value '*pos': 3 samples" "$out" "^ +3 +"
	kstats_bg /tmp/kt.out trace ksys_read --value ret --comm kvalue -d 3
	kvalue -n kvalue fail 9 4; kvalue -n kvalue read /dev/zero 10 3
	wait $KBG
	out=$(cat /tmp/kt.out.err /tmp/kt.out)
	expect_match "kstats trace --value ret: errno rows named" "$out" "errno EBADF \(9\): 4"
	expect_match "kstats trace --value ret: the negative line" "$out" "negative: 4 samples"
else
	kstats_bg /tmp/kt.out trace vfs_read --value arg2 --comm kvalue -d 3 -v
	kvalue read /dev/zero 100 7
	wait $KBG
	out=$(cat /tmp/kt.out.err /tmp/kt.out)
	expect_match "kstats trace --value arg2 without BTF: 7 samples" "$out" "^ +7 +"
	out=$(kstats trace vfs_read --value count -d 1 2>&1)
	expect "kstats trace --value count without BTF: exit 2" "$?" 2
	expect_match "kstats trace --value count without BTF: says why" "$out" "BTF"
fi

expect "remove all (values)" "$(ctl $KS/_control 'remove all')" ok
expect "no node left (values)" "$(ls $KS | tr '\n' ' ')" "_control _errors _history "
check "rmmod kstats (values)" rmmod kstats
rm -f /tmp/kv.dat /tmp/v /tmp/kvA /tmp/kvB /tmp/kvT
