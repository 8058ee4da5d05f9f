# SPDX-License-Identifier: GPL-2.0
#
# Nodes over many functions ("trace GLOB", "trace F1,F2,...", "by func"),
# on one slot of the direct trampoline: kstats_many's 200 functions called
# a known number of times each, counted exactly per function; a glob
# without a family; a list; the syscalls by function with a comm filter;
# the attach and detach times; a task asleep in one of the functions while
# the node is removed and kstats unloaded; the refusals.  Runs where
# kstats traces directly; elsewhere one SKIP says why (lib.sh no_direct),
# and where kstats has no trampoline at all (arm64), that such a node is
# refused, and why.

D=/tmp/many
M=/sys/kernel/debug/kstats_many/ctl
why=$(no_direct)
if [ -n "$why" ]; then
	skip "nodes over many functions" "$why"
	if ! direct_built; then
		check "insmod kstats.ko (many, refused)" insmod $KB/kstats.ko
		dmesg_mark
		expect "a glob without the trampoline: EOPNOTSUPP" \
			"$(ctl $KS/_control 'trace vfs_rea* name z')" EOPNOTSUPP
		check "dmesg says why" dmesg_has \
			"z: 'vfs_rea\*' names several functions, which the direct trampoline alone times, and this kernel has none"
		expect "a list without the trampoline: EOPNOTSUPP" \
			"$(ctl $KS/_control 'trace vfs_read,vfs_write name z by func')" EOPNOTSUPP
		expect "nothing made by the refusals" "$(ls $KS | tr '\n' ' ')" "_control _errors "
		check "rmmod kstats (many, refused)" rmmod_wait kstats
	fi
else
	check "insmod kstats.ko (many)" insmod $KB/kstats.ko
	check "insmod kstats_many.ko" insmod $KB/kstats_many.ko

	# m_samples FILE KEY: the samples of key KEY
	m_samples() { awk -v k="$2" '$1 == "key" && $2 == k { print $4 }' "$1"; }
	# m_ms: the uptime in milliseconds
	m_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }
	# m_calls R FIRST LAST [STEP]: the calls of "call R" to fnI, summed
	m_calls() {
		awk -v r="$1" -v a="$2" -v b="$3" 'BEGIN { for (i = a; i <= b; i++) n += (i % 5 + 1) * r; print n }'
	}

	# --- one function, for scale: its attach and detach times ---------
	t0=$(m_ms)
	expect "trace kstats_many_fn0 (one function)" \
		"$(ctl $KS/_control 'trace kstats_many_fn0 name one')" ok
	t1=$(m_ms)
	expect "remove one" "$(ctl $KS/_control 'remove one')" ok
	t2=$(m_ms)
	one_ms=$((t2 - t1))
	diag "one function attached in $((t1 - t0)) ms, detached in $one_ms ms"
	# m_bound N: the milliseconds that N functions may take to attach or
	# detach: a quarter of N separate ftrace updates, each as long as the
	# one function's detach above (one update, measured in this boot, so
	# as slow as the host is now), and never under $MANY_S s
	m_bound() {
		local b=$(($1 * one_ms / 4))
		[ $b -ge $((MANY_S * 1000)) ] || b=$((MANY_S * 1000))
		echo $b
	}

	# --- 200 functions by func: exact counts, attach and detach times --
	t0=$(m_ms)
	expect "trace kstats_many_fn* by func" \
		"$(ctl $KS/_control 'trace kstats_many_fn* name many by func')" ok
	t1=$(m_ms)
	diag "200 functions attached in $((t1 - t0)) ms"
	# one ftrace update for all: 200 updates would take minutes under TCG
	# (arm64's text patching, emulated, is the slower)
	b=$(m_bound 200)
	expect "200 functions attached within $b ms ($((t1 - t0)) ms)" \
		"$([ $((t1 - t0)) -le $b ] && echo yes)" yes
	cat $KS/many > $D.1
	expect "header: 200 matched, 200 traced" "$(grep '^# functions' $D.1)" \
		"# functions matched 200 traced 200 skipped 0"
	expect "header: one direct node" "$(field $D.1 source mechanism) $(field $D.1 source target)" \
		"direct kstats_many_fn*"
	expect "header: by func, max 200 (the functions matched)" \
		"$(field $D.1 family by) $(field $D.1 family max)" "func 200"
	ctl $M "call 3" >/dev/null
	cat $KS/many > $D.2
	bad=
	i=0
	while [ $i -lt 200 ]; do
		want=$(( (i % 5 + 1) * 3 ))
		got=$(m_samples $D.2 kstats_many_fn$i)
		[ "$got" = "$want" ] || bad="$bad fn$i:$got/$want"
		i=$((i + 1))
	done
	expect "each of the 200 functions: its calls exactly" "${bad:-none}" none
	expect "the node's total: 1800 calls" "$(field $D.2 name samples)" 1800
	expect "200 keys, none other" "$(grep -c '^key ' $D.2) $(field $D.2 family other)" "200 0"
	t0=$(m_ms)
	expect "remove it" "$(ctl $KS/_control 'remove many')" ok
	t1=$(m_ms)
	diag "200 functions detached in $((t1 - t0)) ms"
	expect "200 functions detached within $b ms ($((t1 - t0)) ms)" \
		"$([ $((t1 - t0)) -le $b ] && echo yes)" yes

	# --- a glob without a family: one distribution -------------------
	expect "trace kstats_many_fn1* (one distribution)" \
		"$(ctl $KS/_control 'trace kstats_many_fn1* name many1')" ok
	expect "fn1, fn10..19, fn100..199 matched" "$(grep '^# functions' $KS/many1)" \
		"# functions matched 111 traced 111 skipped 0"
	ctl $M "call 2" >/dev/null
	want=$(( $(m_calls 2 1 1) + $(m_calls 2 10 19) + $(m_calls 2 100 199) ))
	expect "all their calls in one histogram ($want)" "$(field $KS/many1 name samples)" "$want"
	expect "remove many1" "$(ctl $KS/_control 'remove many1')" ok

	# --- outliers over many functions: the slowest calls, whose ------
	# function the stack names (the trampoline's: the function first)
	expect "trace kstats_many_fn* top 3 stack 2" \
		"$(ctl $KS/_control 'trace kstats_many_fn* name mtop top 3 stack 2')" ok
	ctl $M "call 1" >/dev/null
	(ctl $M "sleep 7" > $D.sleep7) &
	p=$!
	sleep 0.3
	ctl $M wake >/dev/null
	wait $p
	cat $KS/mtop > $D.5
	expect "3 kept of 601 calls" "$(field $D.5 outliers kept) $(field $D.5 name samples)" "3 601"
	expect_match "the slowest: the sleep in kstats_many_fn7, which its stack names" \
		"$(grep -m1 '^outlier ' $D.5)" "stack .*kstats_many_fn7\+0x"
	expect "remove mtop" "$(ctl $KS/_control 'remove mtop')" ok

	# --- a list, with a function the trampoline must leave -------------
	expect "trace kstats_many_fn3,kstats_many_fn7,kstats_many_fn11,do_exit by func" \
		"$(ctl $KS/_control 'trace kstats_many_fn3,kstats_many_fn7,kstats_many_fn11,do_exit name mlist by func')" ok
	cat $KS/mlist > $D.3
	expect "the list: 4 matched, 4 traced, do_exit by a fallback (it may not return)" \
		"$(grep '^# functions' $D.3)" "# functions matched 4 traced 4 skipped 0 fallback 1"
	expect_match "the fallback named, its mechanism, why" "$(grep '^# fallback' $D.3)" \
		"^# fallback do_exit:(fprobe|kretprobe):noreturn$"
	ctl $M "call 1" >/dev/null
	cat $KS/mlist > $D.3
	expect "fn3, fn7, fn11: 4, 3 and 2 calls" \
		"$(m_samples $D.3 kstats_many_fn3) $(m_samples $D.3 kstats_many_fn7) $(m_samples $D.3 kstats_many_fn11)" "4 3 2"
	expect "remove mlist" "$(ctl $KS/_control 'remove mlist')" ok

	# --- a function with stack arguments: timed by a fallback ---------
	# (kstats_many_wide8's eight arguments: two stack words on x86-64,
	# all in registers on arm64, where it is traced directly)
	expect "trace kstats_many_fn1,kstats_many_wide8 by func" \
		"$(ctl $KS/_control 'trace kstats_many_fn1,kstats_many_wide8 name mfb by func')" ok
	want="# functions matched 2 traced 2 skipped 0|"
	[ $WIDE8_STACK = 0 ] ||
		want="# functions matched 2 traced 2 skipped 0 fallback 1|# fallback kstats_many_wide8:MECH:stack_args|"
	expect "kstats_many_wide8 ($WIDE8_STACK stack words): a fallback for stack words, fn1 is direct" \
		"$(grep -E '^# (functions|fallback)' $KS/mfb | sed -E 's/:(fprobe|kretprobe):/:MECH:/' | tr '\n' '|')" \
		"$want"
	ctl $M "call 2" >/dev/null && ok "kstats_many_wide8's eight arguments intact under its probe" ||
		not_ok "kstats_many_wide8's sum under its probe"
	expect "fn1: 4 calls (direct), kstats_many_wide8: 2, one node" \
		"$(m_samples $KS/mfb kstats_many_fn1) $(m_samples $KS/mfb kstats_many_wide8) $(field $KS/mfb name samples)" "4 2 6"
	expect "remove mfb" "$(ctl $KS/_control 'remove mfb')" ok

	# --- a value over several functions: their argument (sleep: 0) -----
	expect "trace kstats_many_fn1,kstats_many_fn2 value arg0:1 by func" \
		"$(ctl $KS/_control 'trace kstats_many_fn1,kstats_many_fn2 name mval value arg0:1 by func')" ok
	ctl $M "call 1" >/dev/null
	cat $KS/mval > $D.6
	expect "the value node: direct, clock none, 2 + 3 samples, all 0" \
		"$(field $D.6 source mechanism) $(field $D.6 name clock) $(m_samples $D.6 kstats_many_fn1) $(m_samples $D.6 kstats_many_fn2) $(field $D.6 summary max)" \
		"direct none 2 3 0"
	expect "remove mval" "$(ctl $KS/_control 'remove mval')" ok

	# --- the syscalls, by function, of one command ---------------------
	t0=$(m_ms)
	expect "trace ${SYS_PFX}* by func comm kdirect" \
		"$(ctl $KS/_control "trace ${SYS_PFX}* name sys by func comm kdirect")" ok
	t1=$(m_ms)
	n=$(field $KS/sys functions traced)
	diag "$(grep '^# functions' $KS/sys); attached in $((t1 - t0)) ms"
	diag "$(grep '^# skipped' $KS/sys)"
	expect_match "hundreds of syscalls traced ($n)" "$n" "^[1-9][0-9][0-9]$"
	b=$(m_bound "${n:-0}")
	expect "attached within $b ms ($((t1 - t0)) ms)" "$([ $((t1 - t0)) -le $b ] && echo yes)" yes
	kdirect read 300
	cat $KS/sys > $D.4
	expect "kdirect's 300 read()s under ${SYS_PFX}read" "$(m_samples $D.4 ${SYS_PFX}read)" 300
	expect "other commands' calls filtered out: no ${SYS_PFX}wait4 of the shell" \
		"$(m_samples $D.4 ${SYS_PFX}wait4)" ""
	t0=$(m_ms)
	expect "remove sys" "$(ctl $KS/_control 'remove sys')" ok
	t1=$(m_ms)
	expect "detached within $b ms ($((t1 - t0)) ms)" "$([ $((t1 - t0)) -le $b ] && echo yes)" yes

	# --- the refusals ---------------------------------------------------
	dmesg_mark
	expect "a glob that matches nothing: ENOENT" \
		"$(ctl $KS/_control 'trace kstats_no_such_fn* name z')" ENOENT
	check "dmesg names it" dmesg_has "z: 'kstats_no_such_fn\*' matches no function ftrace can trace"
	expect "an empty name in a list: EINVAL" \
		"$(ctl $KS/_control 'trace kstats_many_fn1,,kstats_many_fn2 name z')" EINVAL
	check "dmesg names it" dmesg_has "an empty function name in the list"
	expect "a list naming no function: ENOENT" \
		"$(ctl $KS/_control 'trace kstats_many_fn1,kstats_no_such_fn name z')" ENOENT
	check "dmesg names it" dmesg_has "z: no function 'kstats_no_such_fn'"
	expect "a glob as a section's point: EINVAL" \
		"$(ctl $KS/_control 'trace z start kstats_many_fn* end kstats_many_fn2')" EINVAL
	check "dmesg names it" dmesg_has "a section's point is one place"
	expect "by func max below the functions matched: EINVAL" \
		"$(ctl $KS/_control 'trace kstats_many_fn* name z by func max 10')" EINVAL
	check "dmesg names it" dmesg_has "z: by func max 10 is below the 200 functions matched"
	expect "by func on one function: EINVAL" \
		"$(ctl $KS/_control 'trace kstats_many_fn1 name z by func')" EINVAL
	expect "a glob with mech fprobe: EINVAL" \
		"$(ctl $KS/_control 'trace kstats_many_fn* name z mech kretprobe')" EINVAL
	check "no node z left" test ! -e $KS/z

	# --- a task asleep in one function: removal, rmmod -----------------
	expect "trace kstats_many_fn*, to drain" \
		"$(ctl $KS/_control 'trace kstats_many_fn* name mdrain')" ok
	(ctl $M "sleep 42" > $D.sleep) &
	p=$!
	sleep 0.5
	cat /proc/$p/stack > $D.stack 2>/dev/null
	expect "remove the node while a task sleeps in kstats_many_fn42" \
		"$(ctl $KS/_control 'remove mdrain')" ok
	r=$(rmmod kstats 2>&1; echo "exit $?")
	expect_match "rmmod kstats while the slot drains: refused" "$r" "exit 1"
	r=$(rmmod kstats_many 2>&1; echo "exit $?")
	expect_match "rmmod kstats_many, whose function a call is in: refused" "$r" "exit 1"
	ctl $M wake >/dev/null
	wait $p
	expect "the sleeper returns through the retired trampoline" "$(cat $D.sleep)" ok
	check "rmmod kstats once the call is back" rmmod_wait kstats
	check "rmmod kstats_many" rmmod_wait kstats_many
	check "no oops" sh -c '! dmesg | grep -Eq "BUG|Oops|general protection|WARNING"'
fi
