# SPDX-License-Identifier: GPL-2.0
#
# Dynamic tracing from _control: function durations, sections, tracepoints,
# gaps, refusals, and counts that match a deterministic workload exactly.

check "insmod kstats.ko (trace)" insmod $KB/kstats.ko
SYM=$(sys_fn getppid)
diag "getppid body: $SYM; fprobe: $(grep -c ' register_fprobe$' /proc/kallsyms)"
want_mech=kretprobe
grep -q ' register_fprobe$' /proc/kallsyms && want_mech=fprobe
# kstats' own trampoline where ftrace has direct calls and the BTF says
# how the function is called (t-21-direct.sh; lib.sh no_direct)
[ -z "$(no_direct)" ] && want_mech=direct

expect "trace $SYM" "$(ctl $KS/_control "trace $SYM bits 3")" ok
expect "trace $SYM as ppid_krp through kretprobe" \
	"$(ctl $KS/_control "trace $SYM name ppid_krp mech kretprobe maxactive 5")" ok
kload ctl $KS/$SYM reset >/dev/null
kload ctl $KS/ppid_krp reset >/dev/null
kload getppid 1000
cat $KS/$SYM > /tmp/tr
expect "default-mechanism node counts exactly 1000 calls" "$(field /tmp/tr name samples)" 1000
expect "kretprobe node counts exactly 1000 calls" "$(field $KS/ppid_krp name samples)" 1000
expect "header names the mechanism" "$(field /tmp/tr source mechanism)" "$want_mech"
expect "forced kretprobe header" "$(field $KS/ppid_krp source mechanism) $(field $KS/ppid_krp source maxactive)" \
	"kretprobe 5"
expect "nothing missed" "$(field /tmp/tr name missed)" 0
floor=$(field /tmp/tr source floor_p50)
expect_match "calibrated floor shown" "$floor" "^[1-9][0-9]*$"
diag "floor_p50 $floor ns; getppid summary: $(grep '^# summary' /tmp/tr)"
expect_match "_control lists the trace node" "$(cat $KS/_control)" "^$SYM trace $SYM bits 3 clock ktime$"

# The same window seen by ftrace: a kprobe event with a hist trigger.
TR=/sys/kernel/tracing
if [ -w $TR/kprobe_events ] && echo "p:kstcheck/pp $SYM" >> $TR/kprobe_events 2>/dev/null &&
	echo 'hist:keys=common_pid' > $TR/events/kstcheck/pp/trigger 2>/dev/null; then
	kload ctl $KS/$SYM reset >/dev/null
	kload getppid 777
	ft=$(awk '$1 == "Hits:" { print $2 }' $TR/events/kstcheck/pp/hist)
	expect "kstats count equals ftrace's hit count" "$(field $KS/$SYM name samples)" "$ft"
	echo '!hist:keys=common_pid' > $TR/events/kstcheck/pp/trigger
	echo "-:kstcheck/pp" >> $TR/kprobe_events
else
	skip "kstats count equals ftrace's hit count" "no kprobe events with hist triggers"
fi

dmesg_mark
expect "unknown symbol: ENOENT" "$(ctl $KS/_control 'trace no_such_function_kstats')" ENOENT
check "unknown symbol: dmesg says why" dmesg_has "no symbol 'no_such_function_kstats'"
# kprobes' own breakpoint handler (x86-64's int3, arm64's brk), which it
# may not probe
NOKP=
for s in kprobe_int3_handler kprobe_brk_handler kprobe_breakpoint_handler; do
	grep -q " $s$" /proc/kallsyms && NOKP=$s && break
done
if [ -n "$NOKP" ]; then
	expect_match "NOKPROBE symbol $NOKP refused" "$(ctl $KS/_control "trace $NOKP")" "EINVAL|EPERM"
else
	not_ok "NOKPROBE symbol refused: no kprobe breakpoint handler known on $(uname -m)"
fi
expect "kstats' own function: EPERM" "$(ctl $KS/_control 'trace kstats_new')" EPERM
check "own function: dmesg says why" dmesg_has "part of kstats"
expect "duplicate trace: EEXIST" "$(ctl $KS/_control "trace $SYM")" EEXIST
expect "an empty name in a list of functions: EINVAL" "$(ctl $KS/_control 'trace vfs_read, name globby')" EINVAL
expect "section without end: EINVAL" "$(ctl $KS/_control "trace s1 start $SYM")" EINVAL
expect "unknown tracepoint: ENOENT" "$(ctl $KS/_control 'trace tp:nope:no_such_event')" ENOENT
expect "unknown mechanism: EINVAL" "$(ctl $KS/_control "trace $SYM name m1 mech magic")" EINVAL
expect "clock none on a trace node: EINVAL" "$(ctl $KS/_control "trace $SYM name cn clock none")" EINVAL
expect "gap on a tracepoint: EINVAL" "$(ctl $KS/_control 'trace tp:raw_syscalls:sys_enter name tg gap')" EINVAL
expect "a node named all: EINVAL" "$(ctl $KS/_control 'new all')" EINVAL
dmesg_mark
expect "tracepoint of the wrong group: ENOENT" "$(ctl $KS/_control 'trace tp:sched:sys_enter name wg')" ENOENT
check "wrong group: dmesg names group and event" dmesg_has "no tracepoint sched:sys_enter"
if [ -d /sys/kernel/tracing/events/syscalls ]; then
	expect "a syscall event (no tracepoint of its own): EINVAL" \
		"$(ctl $KS/_control 'trace tp:syscalls:sys_enter_getppid name wg')" EINVAL
fi
for s in ktime_get_mono_fast_ns local_clock sched_clock_cpu; do
	grep -q " $s$" /proc/kallsyms || continue
	expect "clock function $s refused: EPERM" "$(ctl $KS/_control "trace $s name ck")" EPERM
done
check "clock functions: dmesg says why" dmesg_has "clock functions kstats"

# _errors: each refused command, the reason the kernel log gives and a
# caret under the word refused, as tracefs' error_log; the write keeps
# its errno
echo > $KS/_errors
expect "_errors: emptied by echo > _errors" "$(cat $KS/_errors)" ""
# a kernel without cgroups (the debug test kernel) refuses any cgroup
if grep -qw cgroup2 /proc/filesystems; then
	cg_errno=EINVAL
	cg_why="cgroup '/kstats-none' is no cgroup v2 under the cgroup2 mount"
else
	cg_errno=EOPNOTSUPP
	cg_why="cgroup /kstats-none: this kernel has no cgroups"
fi
expect "_errors: a bad function: ENOENT" \
	"$(ctl $KS/_control 'trace no_such_function_kstats name e1')" ENOENT
expect "_errors: a bad tracepoint: ENOENT" \
	"$(ctl $KS/_control 'trace tp:sched:no_such_event_kstats name e2')" ENOENT
expect "_errors: a bad cgroup: $cg_errno" \
	"$(ctl $KS/_control "trace $SYM name e3 cgroup /kstats-none")" $cg_errno
expect "_errors: a grammar error: EINVAL" \
	"$(ctl $KS/_control "trace $SYM name e4 colour red")" EINVAL
expect "_errors: a word missing: EINVAL" \
	"$(ctl $KS/_control "trace $SYM name e5 pid")" EINVAL
expect "_errors: five entries of three lines, each time-stamped" \
	"$(grep -c '^\[ *[0-9]*\.[0-9]\{6\}\] ' $KS/_errors) $(wc -l < $KS/_errors)" "5 15"
expect "_errors: the function: no symbol, the caret under it" "$(err_entry 1)" \
	"$(err_want e1 "no symbol 'no_such_function_kstats'" \
		'trace no_such_function_kstats name e1' no_such_function_kstats)"
expect "_errors: the tracepoint: none in the kernel, the caret under it" "$(err_entry 2)" \
	"$(err_want e2 'no tracepoint sched:no_such_event_kstats in the kernel or its modules' \
		'trace tp:sched:no_such_event_kstats name e2' tp:sched:no_such_event_kstats)"
expect "_errors: the cgroup: no cgroup v2, the caret under its path" "$(err_entry 3)" \
	"$(err_want _control "$cg_why" \
		"trace $SYM name e3 cgroup /kstats-none" /kstats-none)"
expect "_errors: the grammar: an unknown option, the caret under it" "$(err_entry 4)" \
	"$(err_want _control "unknown option 'colour'" "trace $SYM name e4 colour red" colour)"
expect "_errors: a missing word: the caret past the end" "$(err_entry 5)" \
	"$(err_want _control "'pid' needs a value" "trace $SYM name e5 pid" "")"
printf x >> $KS/_errors
expect "_errors: any write empties it" "$(cat $KS/_errors)" ""
expect "a distribution named _errors: EINVAL" "$(ctl $KS/_control 'new _errors')" EINVAL
expect "_errors: a name in use, under the name" "$(ctl $KS/_control "trace $SYM name ppid_krp")$(err_entry 2)" \
	"EEXIST$(err_want ppid_krp 'a distribution of that name exists' "trace $SYM name ppid_krp" ppid_krp)"
echo > $KS/_errors

expect "nothing half-made after refusals" "$(ls $KS | sort | tr '\n' ' ')" \
	"$(printf '%s\n' _control _errors _history $SYM ppid_krp | sort | tr '\n' ' ')"

NOTCALLED=$(sys_fn getpgid || sys_fn getsid)
expect "section: end with no start" \
	"$(ctl $KS/_control "trace orphan start $NOTCALLED end $SYM")" ok
kload getppid 500
expect "unpaired ends are counted as unmatched, not recorded nor missed (no sample was lost)" \
	"$(field $KS/orphan name samples) $(field $KS/orphan name missed) $(field $KS/orphan inflight unmatched)" "0 0 500"
expect "section header" "$(field $KS/orphan source mechanism) $(field $KS/orphan source end)" "section $SYM"

expect "section named with name" \
	"$(ctl $KS/_control "trace orphan2 start $NOTCALLED end $SYM name sname"; ls $KS | grep -c '^sname$')" "ok
1"
ctl $KS/_control "remove sname" >/dev/null

# ktime_get is not on the path of kstats' ktime clock (the NMI-safe
# ktime_get_mono_fast_ns()): tracing it counts its calls, no recursion.
if grep -q ' ktime_get$' /proc/kallsyms; then
	expect "trace ktime_get" "$(ctl $KS/_control 'trace ktime_get name kg')" ok
	kload getppid 200
	expect_match "ktime_get: samples counted" "$(field $KS/kg name samples)" "^[1-9][0-9]*$"
	expect "remove ktime_get's node" "$(ctl $KS/_control 'remove kg')" ok
fi

# A symbol longer than a distribution name is traced whole, not cut (a
# cut name was looked up in vain, or named another function).
LONG=$(awk 'length($3) > 63 && $2 ~ /^[tT]$/ && $3 ~ /^[A-Za-z_][A-Za-z0-9_.]+$/ && $3 !~ /^__(pfx|cfi)_/ { print $3 }' /proc/kallsyms |
	head -n 50 | while read -r s; do
		[ "$(ctl $KS/_control "trace $s name longsym")" = ok ] && echo "$s" && break
	done)
if [ -n "$LONG" ]; then
	expect "a ${#LONG}-character symbol keeps its whole name" "$(field $KS/longsym source target)" "$LONG"
	ctl $KS/_control "remove longsym" >/dev/null
else
	skip "a symbol longer than 63 characters keeps its whole name" "none traceable here"
fi

expect "gap sibling" "$(ctl $KS/_control "trace $SYM name g1 gap")" ok
kload getppid 300
expect "g1 counts 300 calls" "$(field $KS/g1 name samples)" 300
expect "g1.gap counts the 299 gaps between them" "$(field $KS/g1.gap name samples)" 299
check "g1.gap: its longest gap under 1 s (ns, not cycles)" \
	test "$(field $KS/g1.gap summary max)" -lt 1000000000
if [ -z "$(no_direct)" ]; then
	expect "gap on a glob: EOPNOTSUPP" "$(ctl $KS/_control "trace ${SYM%?}* name g2 gap")" EOPNOTSUPP
fi
expect "gap sibling cannot be removed alone" "$(ctl $KS/_control 'remove g1.gap')" EPERM
expect "remove g1 removes g1.gap too" "$(ctl $KS/_control 'remove g1'; ls $KS | grep -c '^g1')" "ok
0"

# Every clock and frac_bits has its own handlers: a sample of them, each
# counting the same calls (local_clock pairs across CPUs go to missed).
n=0
for opts in "bits 0 clock local" "bits 5 clock $CYC" \
	"bits 1 clock local mech kretprobe" "bits 4 clock $CYC mech kretprobe"; do
	n=$((n + 1))
	expect "trace $SYM name hv$n $opts" "$(ctl $KS/_control "trace $SYM name hv$n $opts")" ok
done
kload getppid 400
for i in 1 2 3 4; do
	# (a node that was not made counts nothing, rather than stop the
	# shell on an empty operand)
	s=$(field $KS/hv$i name samples) m=$(field $KS/hv$i name missed)
	expect "hv$i: samples + missed = 400 calls" "$((${s:-0} + ${m:-0}))" 400
done
expect "hv2: $CYC samples are cycles" "$(field $KS/hv2 name clock) $(field $KS/hv2 name unit)" "$CYC cycles"
for i in 1 2 3 4; do
	ctl $KS/_control "remove hv$i" >/dev/null
done

if have_raw_syscalls; then
	expect "tracepoint section sys_enter..sys_exit" \
		"$(ctl $KS/_control 'trace sysc start tp:raw_syscalls:sys_enter end tp:raw_syscalls:sys_exit')" ok
	kload getppid 1000
	n=$(field $KS/sysc name samples)
	expect_match "tracepoint section saw the 1000 syscalls" "$n" "^(1[0-9]{3}|[2-9][0-9]{3}|[0-9]{5,})$"
	expect "tracepoint arrivals" "$(ctl $KS/_control 'trace tp:raw_syscalls:sys_enter')" ok
	kload getppid 100
	expect_match "arrivals counted in sys_enter" "$(field $KS/sys_enter name samples)" "^[1-9][0-9]+$"
	expect "arrival header" "$(field $KS/sys_enter source mechanism)" tracepoint
else
	skip "tracepoint section" "no raw_syscalls tracepoints"
fi

# A module's tracepoint: found in the loaded module, which is pinned while
# the node lives.
if insmod $KB/kstats_example.ko; then
	expect "module tracepoint arrivals" \
		"$(ctl $KS/_control 'trace tp:kstats_example:kstats_example_write name exw')" ok
	kload write /dev/kstats_example 50 64
	n=$(field $KS/exw name samples)
	# one arrival less than the writes on each CPU that saw any
	check "module tracepoint: $n gaps between 50 writes" \
		test "$n" -le 49 -a "$n" -ge $((50 - $(grep -c ^processor /proc/cpuinfo)))
	check "the traced module cannot go" sh -c '! rmmod kstats_example'
	expect "remove exw" "$(ctl $KS/_control 'remove exw')" ok
	check "then it can" rmmod kstats_example
else
	not_ok "insmod kstats_example.ko (module tracepoint)"
fi

expect "remove $SYM" "$(ctl $KS/_control "remove $SYM")" ok
expect "remove all" "$(ctl $KS/_control 'remove all')" ok
expect "all trace nodes gone" "$(ls $KS | tr '\n' ' ')" "_control _errors _history "
expect "trace again, then rmmod with the probe live" "$(ctl $KS/_control "trace $SYM")" ok
kload getppid 10
check "rmmod kstats with a live trace node" rmmod kstats
kload getppid 10
check "the traced function still works after unload" kload getppid 10

. $KB/guest/trace-peers.sh
