# SPDX-License-Identifier: GPL-2.0
#
# The kstats command against live debugfs: list, show (--cpu, --json),
# export (prometheus, json), diff, watch, heatmap (live and from saved
# snapshots), errors, trace (which must remove its node on exit).

if ! command -v kstats >/dev/null; then
	skip "kstats tool in the guest" "not built into this image"
	return 0
fi
check "insmod kstats.ko (tool)" insmod $KB/kstats.ko
check "insmod kstats_example.ko (tool)" insmod $KB/kstats_example.ko
kload write /dev/kstats_example 500 64
# one list, with the example's family made through the API
# (kstats_record_key()): by key
kstats list > /tmp/list.out 2>&1
expect "kstats list: exit 0, no complaint" "$? $(grep -c '^kstats:' /tmp/list.out)" "0 0"
expect_match "kstats list shows the example" "$(cat /tmp/list.out)" \
	"^example_write +ktime +ns +500 +0 +active"
expect_match "kstats list: the API family, by key, its one key" "$(cat /tmp/list.out)" \
	"^example_write_by_size +ktime +ns +500 +0 +active +family by key keys 1$"
expect_match "kstats show of the API family: its key, 64" "$(kstats show example_write_by_size)" \
	'^@example_write_by_size\[64\]:$'
out=$(kstats show example_write)
expect_match "kstats show prints the summary" "$out" "^ +500 +[0-9.]+[nu]s"
expect_match "kstats show draws bars" "$out" '\|@+ *\|$'
cat $KS/example_write > /tmp/a.txt
expect "a saved cat is a snapshot file" "$(kstats show /tmp/a.txt | head -n 3)" \
	"$(kstats show example_write | head -n 3)"
kload write /dev/kstats_example 500 65536
cat $KS/example_write > /tmp/b.txt
kstats diff /tmp/a.txt /tmp/a.txt > /tmp/d0 2> /tmp/d0.err; rc0=$?
kstats diff /tmp/a.txt /tmp/b.txt > /tmp/d1; rc1=$?
# A against itself is never "different": "same" (0), or, where a row's
# interval is unbounded with one run a side, "cannot judge" (2), said
[ $rc0 = 2 ] && grep -q '^kstats: diff cannot judge: one run a side' /tmp/d0.err && rc0=0
expect "diff: same snapshot exits 0 (or 2, cannot judge, said), different exits 1" "$rc0 $rc1" "0 1"
kstats diff /tmp/a.txt /nonexistent >/dev/null 2>&1; rc2=$?
expect "diff: missing file exits 2" "$rc2" 2
expect_match "export prometheus: cumulative buckets" \
	"$(kstats export --format prometheus example_write)" \
	'^kstats_duration_seconds_bucket\{.*name="example_write".*le="\+Inf"\} 1000$'
w=$(kstats watch example_write -i 1 -c 2)
expect "watch prints two intervals, the first marked" \
	"$(printf '%s\n' "$w" | grep -Ec '^[12] ') $(printf '%s\n' "$w" | grep -c 'first interval')" "2 1"

# --cpu and --json on live debugfs: 300 writes on CPU 0, 200 on CPU 1
kload ctl $KS/example_write reset >/dev/null
taskset -c 0 kload write /dev/kstats_example 300 64
taskset -c 1 kload write /dev/kstats_example 200 64
out=$(kstats show example_write --cpu)
expect "show --cpu: a row per CPU and all" \
	"$(printf '%s\n' "$out" | awk '$1 ~ /^([0-9]+|all)$/ { printf "%s:%s ", $1, $2 }')" "0:300 1:200 all:500 "
out=$(kstats show example_write --json)
expect_match "show --json: name, clock, samples" "$out" \
	'^\{"name": "example_write", .*"clock": "ktime", "unit": "ns", "frac_bits": 3, "state": "active", .*"samples": 500, "missed": 0,'
expect "show --json: per-CPU summaries" \
	"$(printf '%s\n' "$out" | grep -o '"cpu": [0-9]*, "summary": {"samples": [0-9]*' | tr -dc '0-9 \n' | tr -s ' ' | tr '\n' ';')" \
	" 0 300; 1 200;"
out=$(kstats export --format json --host vm example_write | tr -d '\n')
expect_match "export --format json: a distribution with its slot table" "$out" \
	'"distributions": \[ *\{"name": "example_write",.*"slots": \[ *\{"slot": [0-9]+, "lo": '
kload ctl $KS/example_write_bytes stop >/dev/null
expect_match "list: clock none, samples, stopped" "$(kstats list)" \
	"^example_write_bytes +none +value +1500 +0 +stopped"
kload ctl $KS/example_write_bytes start >/dev/null

# heatmap: live for 3 intervals while 200 writes run in the first one
# (a tenth of a second on the debug kernel)
kload ctl $KS/example_write reset >/dev/null
(sleep 0.3; kload write /dev/kstats_example 200 64) &
kstats heatmap example_write -i 1 -d 3 -o /tmp/h.svg 2>/tmp/h.err; rc=$?
wait
cat $KS/example_write > /tmp/h.txt
rows=$(awk '$1 == "slot" && $3 == "CPUS" { if (lo == "") lo = $2; hi = $2 } END { print hi - lo + 1 }' /tmp/h.txt)
expect "heatmap live: exit 0, says what it wrote" "$rc $(cat /tmp/h.err)" "0 kstats: wrote /tmp/h.svg: 3 intervals"
expect "heatmap live: 3 columns x $rows slots, 200 samples" \
	"$(grep -c 'class="cell"' /tmp/h.svg) $(grep -o '3 intervals, [0-9]* samples' /tmp/h.svg)" \
	"$((3 * rows)) 3 intervals, 200 samples"
expect "heatmap live: an SVG document, closed" "$(head -c 5 /tmp/h.svg) $(tail -n 1 /tmp/h.svg)" "<?xml </svg>"
# and from saved snapshots: 3 cats, 2 intervals
kload ctl $KS/example_write reset >/dev/null
cat $KS/example_write > /tmp/s0.txt
kload write /dev/kstats_example 100 64
cat $KS/example_write > /tmp/s1.txt
kload write /dev/kstats_example 100 4096
cat $KS/example_write > /tmp/s2.txt
rows=$(awk '$1 == "slot" && $3 == "CPUS" { if (lo == "") lo = $2; hi = $2 } END { print hi - lo + 1 }' /tmp/s2.txt)
kstats heatmap /tmp/s0.txt /tmp/s1.txt /tmp/s2.txt -i 1 -o /tmp/s.svg 2>/dev/null
expect "heatmap from saved snapshots: 2 columns x $rows slots, 200 samples" \
	"$(grep -c 'class="cell"' /tmp/s.svg) $(grep -o '2 intervals, [0-9]* samples' /tmp/s.svg)" \
	"$((2 * rows)) 2 intervals, 200 samples"

# errors: exit 2 and one line that says what to do
kstats show nosuch >/dev/null 2>/tmp/e; rc=$?
expect "unknown name: exit 2, one line with the fix" "$rc $(wc -l < /tmp/e) $(cat /tmp/e)" \
	"2 1 kstats: no distribution 'nosuch' in /sys/kernel/debug/kstats and no file 'nosuch': see 'kstats list'"

SYM=$(sys_fn getppid)
# a restricted range: the parser checks '# range ... overflow' against the
# overflow slot
kload ctl $KS/_control "trace $SYM name bounded bits 2 max 1" >/dev/null
kload getppid 300
check "show a restricted range (overflow == the overflow slot's count)" kstats show bounded
expect "range: all 300 samples overflow max 1" "$(grep '^# range' $KS/bounded)" "# range max_value 1 overflow 300"
kload ctl $KS/_control "remove bounded" >/dev/null
(sleep 1; kload getppid 2000) &
t=$(kstats trace $SYM -d 3)
wait
expect_match "kstats trace prints the distribution" "$t" "^ +2000 +"
expect "kstats trace removed its node" "$(ls $KS | grep -c "^$SYM$")" 0

# --- issue 52: the filter cgroup PATH, -- COMMAND, kstats' own waits left
# out, the reason of a refusal, lockwait --by caller's end
CG=/sys/fs/cgroup
if grep -qw cgroup2 /proc/filesystems; then
	mkdir -p $CG
	grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG
fi
if grep -q " $CG cgroup2 " /proc/mounts; then
	mkdir -p $CG/t30
	# 300 calls in /t30, 200 outside, while the node traces /t30 alone
	kstats_bg /tmp/cg.out trace $SYM --cgroup /t30 -d 3
	kload cgroup $CG/t30 kload getppid 300 & cgp=$!
	kload getppid 200
	wait $cgp
	wait $KBG; rc=$?
	expect "trace --cgroup /t30: exit 0, its 300 calls alone" \
		"$rc $(awk '/^# summary / { print $4 }' /tmp/cg.out)" "0 300"
	expect_match "trace --cgroup: the filter on the node's header" "$(cat /tmp/cg.out)" '^# filter cgroup /t30$'
	kload ctl $KS/_control "trace $SYM name cgnode cgroup /t30" >/dev/null
	kload cgroup $CG/t30 kload getppid 50
	cat $KS/cgnode > /tmp/cgnode.txt
	kload ctl $KS/_control "remove cgnode" >/dev/null
	out=$(kstats show /tmp/cgnode.txt 2>&1); rc=$?
	expect_match "show of a saved node with a cgroup filter: exit 0, the filter" "$rc $out" '^0 # name cgnode .*'
	expect_match "show of a saved node with a cgroup filter: its 50 samples" "$out" '^ +50 +'
	rmdir $CG/t30 2>/dev/null
else
	skip "trace --cgroup" "no cgroup v2 here"
fi

# -- COMMAND: its 500 calls alone, however busy: 3000 calls of another
# process at the same time
(sleep 0.2; kload getppid 3000) &
out=$(kstats trace $SYM -- kload getppid 500 2>/tmp/run.err); rc=$?
wait
expect "trace -- kload getppid 500: exit 0, its 500 calls (3000 of another process beside)" \
	"$rc $(printf '%s\n' "$out" | awk '/^# summary / { print $4 }')" "0 500"
expect_match "trace -- COMMAND: the node of its pid, said" "$out" '^Tracing .*, only kload \(pid [0-9]+\)\.$'
expect_match "trace -- COMMAND: attaching said on stderr" "$(cat /tmp/run.err)" '^kstats: attaching '
expect "trace -- COMMAND removed its node" "$(ls $KS | grep -c "^$SYM$")" 0
# --follow: its children too (a cgroup of its own); without, its process
if grep -q " $CG cgroup2 " /proc/mounts; then
	out=$(kstats trace $SYM --follow -- sh -c 'kload getppid 200; kload getppid 100' 2>/dev/null); rc=$?
	n=$(printf '%s\n' "$out" | awk '/^# summary / { print $4 }')
	expect "trace --follow -- sh -c '200; 100': exit 0, the children's 300 (sh's own getppid at most 1)" \
		"$rc $([ "$n" -ge 300 ] && [ "$n" -le 301 ] && echo ok || echo "$n")" "0 ok"
	expect_match "trace --follow: the cgroup made for it" "$out" '^# filter cgroup /kstats-[0-9]+$'
	expect "trace --follow: its cgroup removed" "$(ls -d $CG/kstats-* 2>/dev/null | wc -l)" 0
	# (the last command a builtin: sh -c execs a last external command in
	# its own process, which is then COMMAND's)
	n=$(kstats trace $SYM -- sh -c 'kload getppid 200; kload getppid 100; true' 2>/dev/null | awk '/^# summary / { print $4 }')
	expect "trace -- sh -c without --follow: sh's process alone, not its children" "$([ "$n" -le 1 ] && echo ok || echo "$n")" ok
else
	skip "trace --follow" "no cgroup v2 here"
fi
# a recipe: syscall -- COMMAND counts COMMAND's calls
out=$(kstats syscall getppid -- kload getppid 400 2>/dev/null)
expect "syscall getppid -- kload getppid 400: its 400 calls" "$(printf '%s\n' "$out" | awk '/^# summary / { print $4 }')" 400

# kstats' own waits are not in the node: do_nanosleep of 50 sleeps of 5 ms
# by another task, while kstats waits 3 s (50, not more: on the debug
# kernel beside a busy host a sleep takes up to 15 ms, and 200 of them
# once ran past the window)
if grep -q ' do_nanosleep$' /proc/kallsyms; then
	kstats_bg /tmp/ns.out trace do_nanosleep -d 3
	kvalue sleep 5000 50
	wait $KBG
	out=$(cat /tmp/ns.out)
	max=$(printf '%s\n' "$out" | awk '/^# summary / { print $16 }')
	n=$(printf '%s\n' "$out" | awk '/^# summary / { print $4 }')
	# at least kvalue's 50 (the guest's other sleeps may be there too)
	expect "trace do_nanosleep -d 3: kvalue's 50 sleeps, not kstats' own 3 s (max under 1 s)" \
		"$([ "${n:-0}" -ge 50 ] && echo ok || echo "$n") $([ "${max:-0}" -lt 1000000000 ] && echo ok || echo "$max")" "ok ok"
	out=$(kstats trace do_nanosleep -d 2 --self 2>/dev/null)
	max=$(printf '%s\n' "$out" | awk '/^# summary / { print $16 }')
	# (its wait is what is left of 2 s once attached: 1.99 s, more than
	# any of the guest's own sleeps)
	expect "trace do_nanosleep -d 2 --self: kstats' own 2 s sleep counted" "$([ "${max:-0}" -ge 1500000000 ] && echo ok || echo "$max")" ok
	# -i: the waits of each interval left out too
	out=$(kstats trace do_nanosleep -i 1 -d 3 2>/dev/null)
	expect "trace do_nanosleep -i 1 -d 3: 3 intervals, none with a sleep of 1 s" \
		"$(printf '%s\n' "$out" | grep -c ' samples$') $(printf '%s\n' "$out" | grep -cE '^\[[0-9.]+s, ')" "3 0"
else
	skip "kstats' own waits" "no do_nanosleep"
fi
if have_raw_syscalls; then
	out=$(kstats syscall -d 3 --top 3 2>/dev/null)
	max=$(printf '%s\n' "$out" | awk '/^# summary / { print $16 }')
	expect "syscall -d 3: no call of 1 s or more (kstats' own wait left out)" \
		"$([ -n "$max" ] && [ "$max" -lt 1000000000 ] && echo ok || echo "$max")" ok
	expect "syscall -d 3 --top 3: three keys printed" "$(printf '%s\n' "$out" | grep -c '^@syscall\[')" 3
fi

# refusals: the kernel's reason (from _errors where the kernel keeps them)
kstats trace nosuch_fn_xyz -d 1 >/dev/null 2>/tmp/ref.err; rc=$?
if [ -e $KS/_errors ]; then
	expect_match "a refused trace: exit 2, the kernel's reason, the caret" "$rc $(grep -v '^kstats: attaching' /tmp/ref.err | tr '\n' '|')" \
		"^2 kstats: nosuch_fn_xyz: .*nosuch_fn_xyz.* \(No such file or directory\)\|  Command: trace nosuch_fn_xyz\| +\^\|$"
	kstats trace $SYM --cgroup /no/such/cgroup -d 1 >/dev/null 2>/tmp/ref.err; rc=$?
	expect_match "a refused cgroup: its reason, not a function's" "$rc $(head -2 /tmp/ref.err | tail -1)" "^2 kstats: .*cgroup.*"
else
	expect_match "a refused trace, a kstats without _errors: exit 2, the errno and the log" "$rc $(tail -1 /tmp/ref.err)" \
		"^2 kstats: 'trace nosuch_fn_xyz' refused by .*: No such file or directory \(the kernel log says why: dmesg \| tail\)$"
fi

# lockwait --by caller ends within a second of the plain lockwait's end
# (the lock functions read once, before its window, not after): each
# one's time from "Tracing" to its exit, the same window and removal, so
# that a guest slowed by a busy host slows both
if grep -q ' __traceiter_contention_begin$' /proc/kallsyms || [ -d /sys/kernel/tracing/events/lock ]; then
	# lw_time ARGS...: "SAID RC SECONDS" of one lockwait -d 2
	lw_time() {
		local said rc t0 t1

		kstats_bg /tmp/lw.out lockwait "$@" -d 2; said=$?
		t0=$(cut -d' ' -f1 /proc/uptime)
		wait $KBG; rc=$?
		t1=$(cut -d' ' -f1 /proc/uptime)
		echo "$said $rc $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
	}
	lw_plain=$(lw_time)
	lw_caller=$(lw_time --by caller)
	diag "lockwait -d 2: said, status, seconds from Tracing to its exit: $lw_plain; with --by caller $lw_caller"
	expect "lockwait --by caller -d 2: says Tracing, exit 0, ends within a second of the plain lockwait -d 2" \
		"$(echo "$lw_plain $lw_caller" | awk '{ print $1, $2, $4, $5, ($6 - $3 < 1) ? "ok" : $6 - $3 }')" "0 0 0 0 ok"
fi

check "rmmod example (tool)" rmmod kstats_example

# top, with and without --census, under a mixed load: system calls
# (getppid, read), timers' softirqs, the console's interrupts (on arm64
# the timer's), wakeups, page faults (each program's); then nothing left
# behind.  Each kind of work in a loop of its own, so that every interval
# top shows has some of each (one loop of them all took longer than an
# interval on the debug kernel beside other guests).
top_load() {
	while [ ! -e /tmp/top.stop ]; do kload getppid 2000; done &
	while [ ! -e /tmp/top.stop ]; do kvalue read /dev/zero 4096 100; done &
	while [ ! -e /tmp/top.stop ]; do
		kvalue sleep 100000 2
		echo '# top workload' > /dev/console
	done &
	wait
}
# top_rows OUT: the last frame's rows with samples, "NAME KEY" each
top_rows() {
	awk '/^kstats top frame /{ f++; delete r } f && $1 != "NAME" && $1 != "kstats" && $3 > 0 { r[$1 " " $2] = 1 }
		END { for (k in r) print k }' "$1" | sort
}
# top_has REGEX WORD: WORD if a row matches
top_has() { printf '%s\n' "$rows" | grep -qE "$1" && echo "$2"; }
# top_check DESC OUT RC: two frames, the P99 column, the rows of the load
top_check() {
	rows=$(top_rows "$2")
	expect "$1: exit 0, two frames, the P99 column" \
		"$3 $(grep -c '^kstats top frame ' "$2") $(grep -c '^NAME  *KEY  *SAMPLES/s  *P50  *P99  *MAX ' "$2")" "0 2 2"
	expect "$1: rows with samples of getppid, read, a softirq, a hardirq, the run queue, page faults" \
		"$(top_has '^census_syscall getppid$' getppid) $(top_has '^census_syscall read$' read) $(top_has '^census_softirq ' softirq) $(top_has '^census_hardirq ' hardirq) $(top_has '^census_runqlat -$' runqlat) $(top_has '^census_pagefault -$' pagefault)" \
		"getppid read softirq hardirq runqlat pagefault"
	awk '/^kstats top frame /{ f++ } f == 2' "$2" | head -n 12 | sed 's/^/#   /'
}
rm -f /tmp/top.stop
top_load & lp=$!
kstats top --batch -c 2 -i 1 --census > /tmp/top.out 2> /tmp/top.err; rc=$?
top_check "top --census --batch -c 2 -i 1" /tmp/top.out $rc
expect "top --census: the frames say census; after it, nothing left" \
	"$(grep -c '^kstats top frame .*, census$' /tmp/top.out) $(ls $KS | tr '\n' ' ')" "2 _control _errors _history "
kstats census start > /tmp/census.out 2>&1; rc=$?
kstats top --batch -c 2 -i 1 > /tmp/top.out 2> /tmp/top.err
top_check "top --batch -c 2 -i 1 over kstats census start" /tmp/top.out $?
# on x86-64 the system calls' dispatch, one function, where kstats
# traces directly (lib.sh no_direct); each program's exit_group() never
# returns from it: counted missed.  Elsewhere the recipe's section.
if [ "$(uname -m)" = x86_64 ] && grep -q ' x64_sys_call$' /proc/kallsyms &&
	[ -z "$(no_direct)" ]; then
	m0=$(field $KS/census_syscall name missed)
	kload getppid 1
	expect "census_syscall on x86-64: x64_sys_call by the direct mechanism; an exit counted missed" \
		"$(field $KS/census_syscall source mechanism) $(field $KS/census_syscall source target) $([ "$(field $KS/census_syscall name missed)" -gt "$m0" ] && echo more)" \
		"direct x64_sys_call more"
else
	expect "census_syscall without the direct trampoline: the syscall recipe's section" \
		"$(field $KS/census_syscall source mechanism) $(field $KS/census_syscall source start)" "section tp:raw_syscalls:sys_enter"
fi
touch /tmp/top.stop; wait $lp
expect_match "census start: exit 0, its nodes named" "$rc $(grep '^census: ' /tmp/census.out)" '^0 census: [0-9] nodes made census_syscall '
kstats census stop > /dev/null 2>&1; rc=$?
expect "census stop: exit 0, nothing left" "$rc $(ls $KS | tr '\n' ' ')" "0 _control _errors _history "
check "rmmod kstats (tool)" rmmod kstats
