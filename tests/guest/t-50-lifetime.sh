# SPDX-License-Identifier: GPL-2.0
#
# Lifetimes, with tests/kstats_lifetime.ko on the other side:
#  1. a tracepoint of a module still in its module_init() is refused
#     (EBUSY, "still loading"), and nothing of it outlives the failed load;
#  2. the last reference of a removed trace node, dropped under a spinlock
#     and from hardirq, neither sleeps there nor frees memory still recorded
#     into;
#  3. reset racing a recorder on another CPU leaves every read consistent.
# LT_CASES (default "1 2 3") picks the cases, for runs of this file alone.

LT=/sys/kernel/debug/kstats_lifetime/ctl
LT_TP=tp:kstats_lifetime:kstats_lifetime_init
LT_SLEEPY='scheduling while atomic|sleeping function called from invalid context|BUG:|KASAN:|Oops'

# Load the module normally, once.
lt_load() {
	[ -e $LT ] || insmod $KB/kstats_lifetime.ko
}

lt_case1() {
	local i=0 pid rc r n why
	[ ! -e /sys/module/kstats_lifetime ] || rmmod kstats_lifetime
	dmesg_mark
	# held in its init until released below, however slow the guest
	insmod $KB/kstats_lifetime.ko init_delay_ms=120000 init_fail=1 2>/dev/null &
	pid=$!
	while [ "$(cat /sys/module/kstats_lifetime/initstate 2>/dev/null)" != coming ] &&
		[ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	expect "delayed module is in its init" \
		"$(cat /sys/module/kstats_lifetime/initstate 2>/dev/null)" coming
	r=$(ctl $KS/_control "trace $LT_TP name lt_init")
	expect "trace of a loading module's tracepoint: EBUSY" "$r" EBUSY
	check "loading module: dmesg says why" dmesg_has "still loading"
	# its function, directly: not pinned (a failed init frees it anyway)
	why=$(no_direct)
	[ -n "$why" ] || [ -r /sys/kernel/btf/kstats_lifetime ] || why="no BTF for the test modules here"
	if [ -z "$why" ]; then
		expect "direct trace of a loading module's function: EBUSY" \
			"$(ctl $KS/_control 'trace kstats_lifetime_leave name lt_dir mech direct')" EBUSY
		check "dmesg says why (direct)" dmesg_has "lt_dir: cannot trace 'kstats_lifetime_leave' directly: its module is still loading"
	else
		skip "direct trace of a loading module's function" "$why"
	fi
	echo 1 > /sys/module/kstats_lifetime/parameters/init_release
	wait $pid
	rc=$?
	check "the delayed insmod fails (init_fail=1)" test "$rc" != 0
	check "the failed module is gone" test ! -e /sys/module/kstats_lifetime
	expect "nothing of it remains in kstats" "$(ls $KS | tr '\n' ' ')" "_control _errors _history "
	if [ -e $KS/lt_init ]; then
		# What the refusal prevents: the node pins a freed module.
		diag "attached to a module that is gone; removing it: $(ctl $KS/_control 'remove lt_init')"
	fi

	check "insmod kstats_lifetime.ko" lt_load
	expect "trace of the live module's tracepoint" \
		"$(ctl $KS/_control "trace $LT_TP name lt_init")" ok
	kload ctl $LT "fire 20" >/dev/null
	n=$(field $KS/lt_init name samples)
	# one arrival less than the hits on each CPU that saw any
	check "live module's tracepoint: $n gaps between 20 hits" \
		test "$n" -le 19 -a "$n" -ge $((20 - $(grep -c ^processor /proc/cpuinfo)))
	check "the traced module cannot go" sh -c '! rmmod kstats_lifetime'
	expect "remove lt_init" "$(ctl $KS/_control 'remove lt_init')" ok
	check "no report from the module's lifetime" sh -c "! dmesg | grep -E '$LT_SLEEPY'"
}

lt_case2() {
	local sym how nm
	sym=$(sys_fn getppid)
	lt_load
	for how in atomic hardirq; do
		nm=lt_put_$how
		expect "trace $sym name $nm" "$(ctl $KS/_control "trace $sym name $nm")" ok
		expect "kstats_get($nm)" "$(ctl $LT "get $nm")" ok
		kload getppid 100
		expect "remove $nm while referenced" "$(ctl $KS/_control "remove $nm")" ok
		check "$nm: its file goes at once" test ! -e $KS/$nm
		dmesg_mark
		expect "record into the held reference after remove" "$(ctl $LT 'record 5')" ok
		kload getppid 100
		expect "last kstats_put() of $nm ($how)" "$(ctl $LT "put_$how")" ok
		kload getppid 100
		sleep 1
		check "put_$how: nothing sleeps in atomic context, no report" \
			sh -c "! dmesg | grep -E '$LT_SLEEPY'"
	done
	check "the traced function still runs" kload getppid 100
}

lt_case3() {
	local out
	lt_load
	expect "new lt_reset" "$(ctl $KS/_control 'new lt_reset')" ok
	expect "kstats_get(lt_reset)" "$(ctl $LT 'get lt_reset')" ok
	expect "CPU 0 records 1000000007 nonstop" "$(ctl $LT 'spin 1000000007')" ok
	# Per read: "good SAMPLES", or "bad" and what is wrong.
	out=$(F=$KS/lt_reset AWKP='
	function val(k,  i) { for (i = 1; i < NF; i++) if ($i == k) return $(i + 1); return "" }
	/^# name / { samples = val("samples") }
	$1 == "slot" {
		a = val("avg") + 0; lo = val("lo") + 0; hi = val("hi") + 0
		if (a < lo || a > hi)
			bad = bad " slot " $2 " " $3 " " $4 ": avg " a " outside [" lo ", " hi "]"
		if ($3 == "CPUS")
			all += val("count")
	}
	END {
		if (samples == "" || all != samples + 0)
			bad = bad " CPUS counts " all " vs samples " samples
		if (bad != "") print "bad" bad; else print "good " samples
	}' kload pin 1 sh -c '
	i=0
	while [ $i -lt 200 ]; do
		echo reset > $F
		awk "$AWKP" $F
		i=$((i + 1))
	done')
	expect "200 reads on CPU 1" "$(printf '%s\n' "$out" | grep -c '^good\|^bad')" 200
	expect "reset racing a recorder: bad reads" "$(printf '%s\n' "$out" | grep -c '^bad')" 0
	printf '%s\n' "$out" | grep '^bad' | head -n 3 | sed 's/^/#   /'
	check "the reads saw the recorder's samples" \
		test "$(printf '%s\n' "$out" | grep -c '^good [1-9]')" -gt 0
	expect "unspin" "$(ctl $LT unspin)" ok
	expect "put lt_reset" "$(ctl $LT put)" ok
	expect "remove lt_reset" "$(ctl $KS/_control 'remove lt_reset')" ok
}

# A direct node that reads the TSC for clock ktime, when the kernel then
# finds the TSC unstable: the header and the kernel log (once) say so.
# Last of the suite: the guest changes clocksource after it.
lt_tsc_unstable() {
	local s
	s=$(sys_fn getppid)
	if [ "$(ctl $KS/_control "trace $s name lt_tsc")" != ok ] ||
	   [ "$(field $KS/lt_tsc source read)" != tsc ]; then
		skip "the TSC found unstable under a direct node" \
			"no direct node reading the TSC here (clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource))"
		ctl $KS/_control 'remove lt_tsc' >/dev/null
		return 0
	fi
	expect "a stable TSC: no tsc_unstable in the header" "$(field $KS/lt_tsc source tsc_unstable)" ""
	dmesg_mark
	expect "tsc_unstable" "$(ctl $LT tsc_unstable)" ok
	kload getppid 100
	expect "the TSC found unstable: the header says so" "$(field $KS/lt_tsc source tsc_unstable)" yes
	cat $KS/lt_tsc > /dev/null
	expect "the kernel log says what to do, once in two reads" \
		"$(dmesg | grep -c 'lt_tsc: reads the TSC for clock ktime, which the kernel has since found unstable: remove the node and make it again')" 1
	expect "the node still counts every call" "$(field $KS/lt_tsc name samples)" 100
	expect "remove lt_tsc" "$(ctl $KS/_control 'remove lt_tsc')" ok
}

if [ ! -f $KB/kstats_lifetime.ko ]; then
	skip "lifetime cases" "no kstats_lifetime.ko in $KB"
else
	check "insmod kstats.ko (lifetime)" insmod $KB/kstats.ko
	for c in ${LT_CASES:-1 2 3}; do
		diag "lifetime case $c"
		lt_case$c
	done
	lt_load && lt_tsc_unstable
	check "rmmod kstats_lifetime" rmmod kstats_lifetime
	check "rmmod kstats (lifetime)" rmmod kstats
fi
