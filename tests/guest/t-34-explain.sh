# SPDX-License-Identifier: GPL-2.0
#
# kstats explain -d, staged (Documentation/kstats-command.rst): a
# requester whose server runs in a cgroup with a CPU quota (cgroup v2
# cpu.max 25 ms every 250 ms) is answered late each time the server is
# throttled: explain finds the quota's period in the requester's tail
# and the throttled cgroup as what goes with it most; the same workload
# without the quota: no period, no throttling claimed.  The context
# nodes are made for the window and gone after it.

CG=/sys/fs/cgroup
explain_staged() {
	mkdir -p $CG
	grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG
	echo +cpu > $CG/cgroup.subtree_control
	mkdir -p $CG/kx
	# the requester's reads of the server's answers, slices of 10 ms
	expect "rq: the requester's pipe reads, with a history" \
		"$(ctl $KS/_control 'trace pipe_read name rq comm kreq history 10000000 2000')" ok

	# explain_run OUT: kreq (server in /kx) beside explain -d 5 rq, OUT its text
	explain_run() {
		kreq 30 1000 $CG/kx > /tmp/kreq.out 2>&1 &
		local req=$!
		kstats explain -d 5 -v rq > "$1" 2> "$1.err"
		local r=$?
		kill $req 2>/dev/null
		wait $req
		echo "$r"
	}
	# period_ms FILE: the period said of rq, in ms ("" for none)
	period_ms() { sed -n 's/^rq: .* comes every \([0-9.]*\)ms (strength.*/\1/p' "$1"; }
	# first_with FILE: the strongest correlate said of rq
	first_with() { sed -n 's/^rq: .*; it goes with \([^ ]*\) (r .*/\1/p' "$1"; }

	# --- a CPU quota: 25 ms every 250 ms
	echo "25000 250000" > $CG/kx/cpu.max
	expect "explain -d 5 rq, quota 25 ms / 250 ms: exit 0" "$(explain_run /tmp/xq)" 0
	sed "s/^/# /" /tmp/xq
	grep -c '^trace ' /tmp/xq.err | sed 's/^/# context nodes made: /'
	grep '^kstats' /tmp/xq.err | sed 's/^/# /'
	p=$(period_ms /tmp/xq)
	r=$(awk -v p="${p:-0}" 'BEGIN { print (p >= 225 && p <= 275) ? "yes" : "no" }')
	expect "quota: rq's tail period within 10 % of the quota's 250 ms (got ${p:-none})" "$r" yes
	# missed: rq's ring and histogram in the log, to be explained on
	# the host (kstats --root with _history/rq and rq)
	if [ "$r" != yes ]; then
		sed 's/^/# _history\/rq: /' $KS/_history/rq
		sed 's/^/# rq: /' $KS/rq
	fi
	expect "quota: the throttled cgroup, throttle:/kx, goes with it most" \
		"$(first_with /tmp/xq)" throttle:/kx
	expect_match "quota: throttle:/kx among the context recorded" "$(cat /tmp/xq)" \
		"^Context recorded: (.*, )?throttle:/kx(,|\.$)"
	expect_match "quota: the throttle node a section between the group's throttle and unthrottle" \
		"$(cat /tmp/xq.err)" "start tg_throttle_down key arg1 if arg0\+[0-9+:]+ == [0-9]+ end tg_unthrottle_up key arg1 if arg0"
	expect_match "quota: runqlat leaves out a task switched out with its group throttled" \
		"$(grep sched_wakeup_new /tmp/xq.err)" "start tp:sched:sched_switch key arg1 if [^ ]+ == 0 if [^ ]+ != 0 if arg1\+[0-9]+:8\+[0-9]+:s4 == 0 end"
	expect "quota: the context nodes gone after the window" \
		"$(ls $KS | grep -c '^explain_ctx')" 0
	expect_match "quota: the histories thawed" "$(head -1 $KS/_history/rq)" "state live$"
	expect_match "quota: the server was throttled (cpu.stat)" \
		"$(grep nr_throttled $CG/kx/cpu.stat)" "^nr_throttled [1-9]"

	# --- the same workload, no quota
	echo max > $CG/kx/cpu.max
	expect "reset rq" "$(ctl $KS/rq reset)" ok
	expect "explain -d 5 rq, no quota: exit 0" "$(explain_run /tmp/xn)" 0
	sed "s/^/# /" /tmp/xn | cut -c 1-400
	expect "no quota: no period claimed" "$(period_ms /tmp/xn)" ""
	expect_match "no quota: said so" "$(cat /tmp/xn)" "^rq: its tail \(above [^)]*\) has no period"
	expect "no quota: no throttling claimed, no throttle context" \
		"$(grep -c 'throttle:' /tmp/xn)" 0
	expect "no quota: the context nodes gone" "$(ls $KS | grep -c '^explain_ctx')" 0

	check "remove rq" kload ctl $KS/_control "remove rq"
	rmdir $CG/kx
}

check "insmod kstats.ko (explain)" insmod $KB/kstats.ko
if grep -qw cgroup2 /proc/filesystems; then
	explain_staged
else
	skip "explain's staged cgroup quota" "no cgroup v2 in this kernel"
fi

# a tracepoint without a probe of kstats' own prototype takes a
# generic one of the event's arguments, no more: the local timer's
# (one argument) fires at the top of an interrupt stack, where
# reading a twelfth would fault (x86-64 has it; hardirq:LOC above)
r=$(ctl $KS/_control 'trace tp:irq_vectors:local_timer_entry name lt value arg0')
if [ "$r" = ok ]; then
	kreq 1 1000 > /dev/null
	expect_match "irq_vectors:local_timer_entry (generic probe, 1 argument): the vector recorded" \
		"$(grep '^# summary' $KS/lt)" "samples [1-9][0-9]* min 236 .*max 236 "
	check "remove lt" kload ctl $KS/_control "remove lt"
else
	skip "a generic tracepoint probe at the top of an interrupt stack" "no irq_vectors:local_timer_entry ($r)"
fi
check "rmmod kstats (explain)" rmmod kstats
