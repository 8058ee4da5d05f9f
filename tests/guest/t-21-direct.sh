# SPDX-License-Identifier: GPL-2.0
#
# The direct mechanism (kstats_direct.c, kstats_direct_exits.c,
# kstats_direct_tramp_*.S): exact counts, arguments and results intact
# under the trampoline, a function with arguments on the stack
# (do_mmap()'s nine) left to a fallback, a stack trace that unwinds
# through it, a task asleep inside a traced function while its node is
# removed and while kstats is unloaded (never woken, never waited for:
# kstats_direct_reroute.c), and the fallback when
# the function already has a direct caller.  Runs where kstats traces directly (x86-64 and arm64 kernels with
# ftrace direct calls and BTF); elsewhere one SKIP says why (lib.sh
# no_direct).

D=/tmp/direct
why=$(no_direct)
if [ -n "$why" ]; then
	skip "direct mechanism" "$why"
	if ! direct_built; then
		# no trampoline at all (arm64): mech direct is refused, and why
		check "insmod kstats.ko (no direct)" insmod $KB/kstats.ko
		dmesg_mark
		expect "mech direct without the trampoline: EINVAL" \
			"$(ctl $KS/_control "trace $(sys_fn getppid) name d_pp mech direct")" EINVAL
		check "dmesg says why" dmesg_has "d_pp: mechanism 'direct' is not available"
		expect "nothing made by the refusal" "$(ls $KS | tr '\n' ' ')" "_control _errors _history "
		check "rmmod kstats (no direct)" rmmod kstats
	fi
else
	check "insmod kstats.ko (direct)" insmod $KB/kstats.ko
	SYM=$(sys_fn getppid)

	# --- exact counts, the header, the floor, both clocks --------------
	expect "trace $SYM mech direct" "$(ctl $KS/_control "trace $SYM name d_pp mech direct")" ok
	expect "a second explicit direct caller of $SYM: EBUSY" \
		"$(ctl $KS/_control "trace $SYM name d_pp_tsc clock $CYC mech direct")" EBUSY
	kload ctl $KS/d_pp reset >/dev/null
	cat $KS/d_pp > $D.1
	expect "header: mechanism direct" "$(field $D.1 source mechanism)" direct
	expect_match "direct floor calibrated" "$(field $D.1 source floor_p50)" "^[1-9][0-9]*$"
	diag "direct floor_p50 $(field $D.1 source floor_p50) ns"
	# clock ktime reads the counter when timekeeping runs on it, else
	# calls ktime_get_mono_fast_ns(); the header says which
	cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
	expect "clock ktime on clocksource $cs: read $CYC only on $CYC_CS" \
		"$(field $D.1 source read)" "$([ "$cs" = $CYC_CS ] && echo $CYC)"
	kdirect getppid 5000
	cat $KS/d_pp > $D.1
	expect "5000 getppid() calls: 5000 samples" "$(field $D.1 name samples)" 5000
	expect "nothing missed" "$(field $D.1 name missed)" 0
	expect "the remove of a direct node" "$(ctl $KS/_control 'remove d_pp')" ok
	# bits other than the default: the exit that tests frac_bits
	expect "trace $SYM bits 5 mech direct" "$(ctl $KS/_control "trace $SYM name d_b5 bits 5 mech direct")" ok
	kdirect getppid 3000
	expect "bits 5: 3000 getppid() calls, 3000 samples" "$(field $KS/d_b5 name samples) $(field $KS/d_b5 name frac_bits)" "3000 5"
	expect "remove d_b5" "$(ctl $KS/_control 'remove d_b5')" ok
	# clock local: a pair that crossed CPUs is missed, not recorded
	expect "trace $SYM clock local mech direct" "$(ctl $KS/_control "trace $SYM name d_loc clock local mech direct")" ok
	kdirect getppid 3000
	expect "clock local: 3000 getppid() calls, samples + missed 3000" \
		"$(( $(field $KS/d_loc name samples) + $(field $KS/d_loc name missed) ))" 3000
	expect "remove d_loc" "$(ctl $KS/_control 'remove d_loc')" ok

	# Without mech, a second node falls back to fprobe and says why.
	expect "trace $SYM clock $CYC (direct)" \
		"$(ctl $KS/_control "trace $SYM name d_pp_tsc clock $CYC")" ok
	dmesg_mark
	expect "a second node on $SYM" "$(ctl $KS/_control "trace $SYM name d_pp2")" ok
	check "the second node falls back: dmesg says why" \
		dmesg_has "d_pp2: '$SYM' not traced directly: another kstats node traces it directly"
	expect_match "the second node's mechanism is a fallback" \
		"$(field $KS/d_pp2 source mechanism)" "^(fprobe|kretprobe)$"
	expect "the first is direct, $CYC" \
		"$(field $KS/d_pp_tsc source mechanism) $(field $KS/d_pp_tsc name clock)" "direct $CYC"
	kload ctl $KS/d_pp_tsc reset >/dev/null
	kload ctl $KS/d_pp2 reset >/dev/null
	kdirect getppid 3000
	expect "direct (tsc) and fallback side by side: 3000 samples each" \
		"$(field $KS/d_pp_tsc name samples) $(field $KS/d_pp2 name samples)" "3000 3000"
	ctl $KS/_control 'remove d_pp2' >/dev/null
	ctl $KS/_control 'remove d_pp_tsc' >/dev/null

	# --- nine arguments, some on the stack: a fallback, mmap() right ----
	# (the trampoline's frame must be all its own, for a removal to
	# reroute a call in flight through the kernel's code)
	dmesg_mark
	if expect "trace do_mmap" "$(ctl $KS/_control 'trace do_mmap name d_mmap')" ok; then
		expect_match "do_mmap takes a fallback" "$(field $KS/d_mmap source mechanism)" '^(fprobe|kretprobe)$'
		check "dmesg says why" dmesg_has "d_mmap: 'do_mmap' not traced directly: it takes arguments on the stack"
		kload ctl $KS/d_mmap reset >/dev/null
		check "200 mmap()s through the traced do_mmap(): address, offset and contents right" \
			kdirect mmap /tmp/kdirect.dat 200
		n=$(field $KS/d_mmap name samples)
		expect "do_mmap: at least the 200 calls timed" "$([ "${n:-0}" -ge 200 ] && echo yes)" yes
		ctl $KS/_control 'remove d_mmap' >/dev/null
		expect "mech direct refuses it: EOPNOTSUPP" \
			"$(ctl $KS/_control 'trace do_mmap name d_mmap mech direct')" EOPNOTSUPP
	fi

	# --- nesting, and sleeping inside: two direct nodes, one in the other
	expect "trace hrtimer_nanosleep (direct)" "$(ctl $KS/_control 'trace hrtimer_nanosleep name d_outer')" ok
	expect "trace do_nanosleep inside it (direct)" "$(ctl $KS/_control 'trace do_nanosleep name d_inner')" ok
	expect "both nested nodes are direct" \
		"$(field $KS/d_outer source mechanism) $(field $KS/d_inner source mechanism)" "direct direct"
	for i in 1 2 3; do kdirect sleep 100; done
	expect "3 sleeps of 100 ms: 3 samples in each nested node" \
		"$(field $KS/d_outer name samples) $(field $KS/d_inner name samples)" "3 3"
	lo=$(field $KS/d_inner summary min) hi=$(field $KS/d_inner summary max)
	o=$(field $KS/d_outer summary min)
	expect "each sleep timed at 100 ms (less one slot, 1/8), under a second ($lo .. $hi ns)" \
		"$([ "${lo:-0}" -ge 87500000 ] && [ "${hi:-0}" -lt 1000000000 ] && echo yes)" yes
	expect "the outer call lasts at least as long as the inner one ($o >= $lo)" \
		"$([ "${o:-0}" -ge "${lo:-1}" ] && echo yes)" yes
	ctl $KS/_control 'remove d_outer' >/dev/null
	ctl $KS/_control 'remove d_inner' >/dev/null

	# --- a task that exits inside: counted out at its exit -------------
	# (a kthread of kstats_lifetime.ko calls a function that never returns)
	check "insmod kstats_lifetime.ko (direct)" insmod $KB/kstats_lifetime.ko
	r=$(ctl $KS/_control 'trace kstats_lifetime_leave name d_leave mech direct')
	leave_btf=
	if [ "$r" = ok ]; then
		leave_btf=1
		check "a kthread exits inside the directly traced function" \
			kload ctl /sys/kernel/debug/kstats_lifetime/ctl exit_inside
		expect "its call is counted out, as missed" \
			"$(field $KS/d_leave name samples) $(field $KS/d_leave name missed)" "0 1"
		expect "remove d_leave" "$(ctl $KS/_control 'remove d_leave')" ok
	else
		skip "a task that exits inside a directly traced function" \
			"kstats_lifetime_leave not traced directly here ($r: no BTF for test modules)"
	fi

	# --- a 16-byte return (%rax and %rdx): kept, by the fallback --------
	r=$(ctl $KS/_control 'trace kstats_lifetime_pair name d_pair')
	expect "trace kstats_lifetime_pair (returns 16 bytes)" "$r" ok
	expect_match "kstats_lifetime_pair is not traced directly" \
		"$(field $KS/d_pair source mechanism)" '^(fprobe|kretprobe)$'
	check "500 calls return both halves intact while traced" \
		kload ctl /sys/kernel/debug/kstats_lifetime/ctl "pair 500"
	expect "500 calls, 500 samples" "$(field $KS/d_pair name samples)" 500
	expect "remove d_pair" "$(ctl $KS/_control 'remove d_pair')" ok
	if [ -n "$leave_btf" ]; then
		expect_match "the fallback says why" "$(dmesg | grep "d_pair: 'kstats_lifetime_pair' not traced directly" | tail -1)" \
			"returns 16 bytes"
		expect "mech direct refuses it: EOPNOTSUPP" \
			"$(ctl $KS/_control 'trace kstats_lifetime_pair name d_pair2 mech direct')" EOPNOTSUPP
	else
		skip "the fallback says why (16 bytes)" "no BTF for test modules here"
		skip "mech direct refuses a 16-byte return" "no BTF for test modules here"
	fi
	# --- safety: the traced module is pinned -----------------------------
	LTC=/sys/kernel/debug/kstats_lifetime/ctl
	if [ -n "$leave_btf" ]; then
		expect "trace kstats_lifetime_leave (direct), to pin its module" \
			"$(ctl $KS/_control 'trace kstats_lifetime_leave name d_pin mech direct')" ok
		expect_match "rmmod of the directly traced module fails (EAGAIN)" \
			"$(rmmod kstats_lifetime 2>&1; echo "exit $?")" "temporarily unavailable.*exit 1|exit 1"
		check "it is still loaded" test -e /sys/module/kstats_lifetime
		expect "remove d_pin" "$(ctl $KS/_control 'remove d_pin')" ok
		check "the module can go as soon as its node is removed" rmmod kstats_lifetime
		check "and come again" insmod $KB/kstats_lifetime.ko
	elif modprobe null_blk nr_devices=0 2>/dev/null && [ -r /sys/kernel/btf/null_blk ]; then
		# no BTF for the test modules: a module of the kernel's own
		expect "trace null_queue_rq (direct), to pin null_blk" \
			"$(ctl $KS/_control 'trace null_queue_rq name d_pin mech direct')" ok
		expect_match "rmmod of the directly traced module fails (EAGAIN)" \
			"$(rmmod null_blk 2>&1; echo "exit $?")" "exit 1"
		check "it is still loaded" test -e /sys/module/null_blk
		expect "remove d_pin" "$(ctl $KS/_control 'remove d_pin')" ok
		check "the module can go as soon as its node is removed" rmmod null_blk
	else
		skip "the directly traced module is pinned" "no BTF for test modules here, no null_blk"
	fi

	# --- safety: an IPMODIFY user (a kprobe with a post handler) shares --
	expect "trace $SYM (direct), then a kprobe with a post handler on it" \
		"$(ctl $KS/_control "trace $SYM name d_ipm mech direct") $(ctl $LTC "kprobe $SYM")" "ok ok"
	kdirect getppid 1000
	expect "both see the 1000 calls: 1000 samples" "$(field $KS/d_ipm name samples)" 1000
	expect "the kprobe's post handler ran 1000 times or more" "$(ctl $LTC 'unkprobe 1000')" ok
	expect "remove d_ipm" "$(ctl $KS/_control 'remove d_ipm')" ok
	expect "the other order: the kprobe first, then trace $SYM (direct)" \
		"$(ctl $LTC "kprobe $SYM") $(ctl $KS/_control "trace $SYM name d_ipm2 mech direct")" "ok ok"
	kdirect getppid 1000
	expect "1000 samples" "$(field $KS/d_ipm2 name samples)" 1000
	expect "the kprobe's post handler ran 1000 times or more (2)" "$(ctl $LTC 'unkprobe 1000')" ok
	expect "remove d_ipm2" "$(ctl $KS/_control 'remove d_ipm2')" ok

	# --- safety: a name several functions bear is not traced directly ----
	F=/sys/kernel/debug/tracing/available_filter_functions
	[ -r /sys/kernel/tracing/available_filter_functions ] && F=/sys/kernel/tracing/available_filter_functions
	# (6.1 lists the weak functions it dropped as __ftrace_invalid_address___N)
	dups=$(grep -v -e '\[' -e '^__ftrace_invalid_address__' $F 2>/dev/null |
		sort | uniq -d | head -n 8)
	if [ -n "$dups" ]; then
		rs=
		for n in $dups; do
			rs="$rs $n:$(ctl $KS/_control "trace $n name d_dup mech direct")"
			[ ! -e $KS/d_dup ] || ctl $KS/_control 'remove d_dup' >/dev/null
		done
		diag "names that several functions bear, traced with mech direct:$rs"
		expect_match "refused with ENOTUNIQ, never traced directly" "$rs" ':ENOTUNIQ'
		expect "none of them traced directly" "$(echo "$rs" | grep -c ':ok')" 0
	else
		skip "a name several functions bear" "no such name in ftrace's list here"
	fi

	# --- safety: a thread's main function is not traced directly --------
	dmesg_mark
	expect "trace kthread" "$(ctl $KS/_control 'trace kthread name d_kt')" ok
	expect_match "kthread takes a fallback" "$(field $KS/d_kt source mechanism)" '^(fprobe|kretprobe)$'
	check "dmesg says why" dmesg_has "d_kt: 'kthread' not traced directly: a call of it may never return"
	expect "remove d_kt" "$(ctl $KS/_control 'remove d_kt')" ok

	# --- removal with a call in flight: it waits for nothing, wakes nobody
	# A 4 s sigtimedwait() inside the traced schedule_hrtimeout_range()
	# must still end with EAGAIN after 4 s (a wakeup would end it early
	# with EINTR); the remove must not wait for it; the call returns
	# later through the landing, untimed.
	expect "trace schedule_hrtimeout_range (direct)" \
		"$(ctl $KS/_control 'trace schedule_hrtimeout_range name d_sig')" ok
	expect "schedule_hrtimeout_range is traced directly" "$(field $KS/d_sig source mechanism)" direct
	kdirect sigwait 4000 &
	p=$!
	check "a task waits inside it" wait_asleep $p
	dmesg_mark
	t0=$(uptime_cs)
	expect "remove it while the task waits inside" "$(ctl $KS/_control 'remove d_sig')" ok
	t1=$(uptime_cs)
	diag "remove with a call in flight: $(((t1 - t0) * 10)) ms"
	check "the remove returned while the task still waits inside" wait_asleep $p
	# its own work (ftrace's waits, one stop_machine()), however busy the
	# host: 0.1 s to 0.4 s in QEMU here, with a 4 s wait inside
	expect "the remove waited for no call ($(((t1 - t0) * 10)) ms)" \
		"$([ $((t1 - t0)) -le 200 ] && echo yes)" yes
	check "dmesg: its call in flight returns untimed" \
		dmesg_has "d_sig: 1 calls in flight will return untimed"
	wait $p
	expect "the 4 s sigtimedwait ends with EAGAIN after 4 s, not woken (EINTR)" "$?" 0
	expect "the name is free again" "$(ctl $KS/_control 'trace schedule_hrtimeout_range name d_sig')" ok
	expect "remove d_sig" "$(ctl $KS/_control 'remove d_sig')" ok

	# --- safety: clock ktime is CLOCK_MONOTONIC's rate (adjtimex tick) --
	if busybox adjtimex -t 11000 >/dev/null 2>&1; then
		sleep 2
		expect "trace do_nanosleep (direct) with tick 11000" \
			"$(ctl $KS/_control 'trace do_nanosleep name d_tick')" ok
		for i in 1 2 3; do kdirect sleep 101; done
		cat $KS/d_tick > $D.1
		busybox adjtimex -t 10000 >/dev/null
		lo=$(field $D.1 summary min)
		diag "tick 11000 (CLOCK_MONOTONIC 10 % fast), read '$(field $D.1 source read)': 101 ms sleeps timed from $lo ns"
		expect "3 sleeps timed" "$(field $D.1 name samples)" 3
		# the hrtimer ends a sleep at 101 ms of CLOCK_MONOTONIC, in the
		# slot from 100663296 ns (2^26 + 4/8); a TSC scaled at its
		# nominal rate would say 91.8 ms, two slots lower
		expect "timed at 101 ms of CLOCK_MONOTONIC or more (its slot's floor, 100663296 ns)" \
			"$([ "${lo:-0}" -ge 100663296 ] && echo yes)" yes
		expect "remove d_tick" "$(ctl $KS/_control 'remove d_tick')" ok
	else
		skip "clock ktime under an adjtimex tick change" "busybox has no adjtimex"
	fi

	# --- safety: the clocksource's own read traced (recursion) ---------
	CSD=/sys/devices/system/clocksource/clocksource0
	cs0=$(cat $CSD/current_clocksource)
	for c in hpet:read_hpet acpi_pm:acpi_pm_read; do
		fn=${c#*:} c=${c%%:*}
		if ! grep -qw "$c" $CSD/available_clocksource || ! grep -q " $fn$" /proc/kallsyms; then
			skip "trace $fn while $c is the clocksource" "no $c clocksource here"
			continue
		fi
		echo "$c" > $CSD/current_clocksource
		expect "clocksource $c" "$(cat $CSD/current_clocksource)" "$c"
		expect "trace $fn (direct, clock ktime) while $c is the clocksource" \
			"$(ctl $KS/_control "trace $fn name d_rec mech direct")" ok
		expect "trace $fn clock local (direct) beside it" \
			"$(ctl $KS/_control "trace $fn name d_rec_l clock local")" ok
		kdirect getppid 2000
		sleep 0.5
		cat $KS/d_rec > $D.1
		s=$(field $D.1 name samples) m=$(field $D.1 name missed)
		# each timed call's two clock reads call $fn again: not timed
		expect "$fn timed ($s samples), the calls from its own clock reads missed ($m)" \
			"$([ "${s:-0}" -gt 0 ] && [ "${m:-0}" -ge "${s:-1}" ] && echo yes)" yes
		expect_match "the local-clock node on $fn counts too" "$(field $KS/d_rec_l name samples)" "^[1-9][0-9]*$"
		expect "remove d_rec" "$(ctl $KS/_control 'remove d_rec')" ok
		expect "remove d_rec_l" "$(ctl $KS/_control 'remove d_rec_l')" ok
		echo "$cs0" > $CSD/current_clocksource
	done
	expect "clocksource $cs0 again" "$(cat $CSD/current_clocksource)" "$cs0"

	check "rmmod kstats_lifetime" rmmod kstats_lifetime

	# --- a task asleep inside: its stack, removal, rmmod ---------------
	expect "trace do_nanosleep (direct)" "$(ctl $KS/_control 'trace do_nanosleep name d_sleep')" ok
	expect "do_nanosleep is traced directly" "$(field $KS/d_sleep source mechanism)" direct
	kdirect sleep 1500 &
	p=$!
	sleep 0.5
	cat /proc/$p/stack > $D.stack 2>/dev/null
	diag "stack of a task asleep in the traced do_nanosleep: $(tr '\n' ' ' < $D.stack)"
	expect_match "the stack unwinds through the trampoline into the caller" \
		"$(tr '\n' ' ' < $D.stack)" "kstats_direct_[a-z]+_[0-9].*hrtimer_nanosleep"
	expect "remove the node while the task sleeps in the function" \
		"$(ctl $KS/_control 'remove d_sleep')" ok
	wait $p
	expect "the sleeper returns through the retired trampoline, unharmed" "$?" 0
	expect "trace do_nanosleep again (direct)" "$(ctl $KS/_control 'trace do_nanosleep name d_sleep')" ok
	kdirect sleep 8000 &
	p=$!
	check "a task sleeps inside it" wait_asleep $p
	dmesg_mark
	t0=$(uptime_cs)
	check "rmmod kstats with the node there and a task asleep inside" rmmod kstats
	t1=$(uptime_cs)
	diag "rmmod kstats with a call in flight: $(((t1 - t0) * 10)) ms"
	check "rmmod returned while the task still sleeps inside" wait_asleep $p
	# the module's own unload, however busy the host (0.2 s to 0.6 s in
	# QEMU here), far from the 8 s sleep it must not wait for
	expect "rmmod waited for no call ($(((t1 - t0) * 10)) ms)" \
		"$([ $((t1 - t0)) -le 200 ] && echo yes)" yes
	wait $p
	expect "the sleeper returns after its full 8 s, after kstats has gone" "$?" 0
	check "no oops" sh -c '! dmesg | grep -Eq "BUG|Oops|general protection|WARNING"'
fi
