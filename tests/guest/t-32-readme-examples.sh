# SPDX-License-Identifier: GPL-2.0
#
# The README's "What it does, one example each", run as it is written:
# every command of its shell code blocks, in order, from a directory of
# its own (the snapshot files diff reads, the heatmap's lat.svg).  A block
# whose first line is a prompt ("# ") is a session: its commands are the
# prompt lines that begin with kstats, echo or cat, the rest is output; a
# block without one is a script, every line a command (a trailing "\"
# continues it).  Each command runs while a workload gives it something to
# count (the README does not say what runs beside it: dd, failed opens, a
# contended mutex, a cgroup), and must leave what the README says it shows.
# Each costs its -d seconds, so the examples run on x86-64 Debian 6.1 and
# 6.12, the kernels the README's figures come from (__x64_sys_* is
# x86-64's); the quick start (t-31) runs everywhere.

R=$KB/README.md
case "$(uname -m) $(uname -r)" in
x86_64\ *-rt-amd64)	why="x86-64 Debian 6.1 and 6.12 run them (this is the RT kernel)" ;;
x86_64\ *-amd64)	why= ;;
*)			why="x86-64 Debian 6.1 and 6.12 run them (this is $(uname -m) $(uname -r))" ;;
esac
[ -r $R ] || why="no README.md in the guest"
if [ -n "$why" ] || ! command -v kstats > /dev/null; then
	skip "the README's examples" "${why:-no kstats tool in the guest}"
	return 0 2>/dev/null || exit 0
fi

RD=/tmp/readme-ex
rm -rf $RD && mkdir -p $RD
awk '/^## /		{ in_ex = ($0 ~ /^## What it does/); next }
     !in_ex		{ next }
     /^```/		{ if (fence) { fence = 0 }
			  else { fence = 1; first = 1; lang = ($0 != "```") }
			  next }
     !fence || lang	{ next }
     first		{ first = 0; session = /^# / }
     session && /^# (kstats|echo|cat) /	{ print substr($0, 3); next }
     session		{ next }
     /\\$/		{ sub(/\\$/, ""); cont = cont $0; next }
     { print cont $0; cont = "" }' $R > /tmp/readme-ex.sh
expect_match "the examples have their commands (trace, values, sections, families, offcpu, lockwait, globs, outliers, recipes, diff, watch, heatmap)" \
	"$(tr '\n' ' ' < /tmp/readme-ex.sh)" \
	'kstats trace __do_sys_getppid.*--value count --comm dd.*--value ret.*trace rq start.*--by comm.*kstats offcpu.*kstats lockwait.*--by cgroup.*vfs_\*.*__x64_sys_\*.*o_slow.*cat .*o_slow.*kstats show o_slow.*kstats biolatency.*kstats softirq.*kstats diff before.txt after.txt.*kstats diff base1.*kstats watch.*kstats heatmap'

check "insmod kstats.ko (README examples)" insmod $KB/kstats.ko
lt_here=$([ -e /sys/module/kstats_lifetime ] && echo yes)
[ -n "$lt_here" ] || insmod $KB/kstats_lifetime.ko
LT=/sys/kernel/debug/kstats_lifetime/ctl
CG=/sys/fs/cgroup
OUT=/tmp/readme-ex.out

# ex_run LINE RC: LINE run from $RD (lib.sh readme_run), its output in
# $OUT; a test that it exits RC
ex_run() {
	readme_run $RD $OUT "$1"
	expect "README: $1: exit $2" "$?" "$2"
}
# bg_loop CMD: CMD again and again in the background, until bg_stop
BG=
bg_loop() { sh -c "while :; do $1; done" > /dev/null 2>&1 & BG="$BG $!"; }
bg_stop() { [ -n "$BG" ] && kill $BG 2>/dev/null; wait $BG 2>/dev/null; BG=; }
# ex_count: the samples of the summary in $OUT (the line under "count")
ex_count() { awk 'h { print $1; exit } $1 == "count" { h = 1 }' $OUT; }
# example_runs N SIZE FILE: N writes of SIZE bytes to the example's
# device, recorded alone in example_write's snapshot FILE
example_runs() {
	echo reset > $KS/example_write
	kload write /dev/kstats_example "$1" "$2" > /dev/null
	cat $KS/example_write > "$RD/$3"
}
DD='dd if=/dev/zero of=/dev/null bs=4096 count=100 2>/dev/null; sleep 0.1'

ran=0
while IFS= read -r line; do
	ran=$((ran + 1))
	rc=0
	# what runs beside it, and what must be there before it
	case $line in
	*"trace __do_sys_getppid"*)	bg_loop "kload getppid 200; sleep 0.1" ;;
	*"--comm dd -d"* | *"--by comm"* | *"'vfs_*'"*)	bg_loop "$DD" ;;
	*"--value ret"*)		bg_loop "cat /nonexistent-readme; sleep 0.05" ;;
	*"kstats lockwait"*)		bg_loop "kload ctl $LT 'mutex_sites 2 1 20'; sleep 0.1" ;;
	*"--cgroup /system.slice"*)
		mkdir -p $CG
		grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG
		mkdir -p $CG/system.slice
		kload cgroup $CG/system.slice sh -c "while :; do $DD; done" > /dev/null 2>&1 &
		BG=$! ;;
	*"kstats diff before.txt"*)
		[ -e /sys/module/kstats_example ] || insmod $KB/kstats_example.ko
		example_runs 500 64 before.txt
		example_runs 500 65536 after.txt
		rc=1 ;;
	*"kstats diff base1"*)
		for f in base1 base2 base3; do example_runs 300 64 $f.txt; done
		for f in patch1 patch2; do example_runs 300 65536 $f.txt; done
		rc=1 ;;
	*"kstats watch example_write"* | *"kstats heatmap example_write"*)
		bg_loop "kload write /dev/kstats_example 50 64 > /dev/null; sleep 0.1" ;;
	esac
	ex_run "$line" $rc
	bg_stop
	o=$(cat $OUT)
	# what the README says it shows
	case $line in
	*"trace __do_sys_getppid"*)
		expect_match "README: getppid's summary, its calls counted" "$(ex_count)" '^[1-9][0-9]*$' ;;
	*"--comm dd -d"*)
		expect_match "README: dd's reads, counted" "$(ex_count)" '^[1-9][0-9]*$' ;;
	*"-- dd if=/dev/zero"*)
		expect "README: the dd that kstats ran: its 1000 reads alone" "$(ex_count)" 1000 ;;
	*"--value ret"*)
		expect_match "README: the failed opens, counted by errno" "$o" '^errno ENOENT \(2\): [1-9]' ;;
	*"trace rq start"*)
		sleep 0.2
		expect_match "README: rq pairs wakeups with switches" "$(field $KS/rq name samples)" '^[1-9][0-9]*$'
		ctl $KS/_control "remove rq" > /dev/null ;;
	*"--by comm"*)
		expect_match "README: a histogram for dd" "$o" '^@vfs_read\[dd\]:$' ;;
	*"kstats offcpu"*)
		diag "offcpu: $(grep -m1 ';do_nanosleep+' $OUT)"
		expect_match "README: offcpu: sleep's second, one folded stack through do_nanosleep" \
			"$(awk '/;do_nanosleep\+0x/ && $NF >= 990000000 && $NF < 2000000000 { print "yes" }' $OUT)" '^yes$' ;;
	*"kstats lockwait"*)
		expect_match "README: lockwait by caller: lt_mutex_site_a's waits" "$o" '^@lockwait\[lt_mutex_site_a\+0x[0-9a-f]+\]:$' ;;
	*"--cgroup /system.slice"*)
		expect_match "README: vfs_read of /system.slice alone" "$(grep '^@' $OUT | sort -u | tr '\n' ' ')" '^@vfs_read\[/system.slice\]: $'
		rmdir $CG/system.slice ;;
	*"'vfs_*'"*)
		# the five of the highest p99, whichever they are (dd's reads
		# are not the slowest: vfs_write, vfs_fsync... may be)
		expect_match "README: the glob's 1 to 5 slowest functions, a histogram each" \
			"$(grep -c '^@vfs_\[vfs_[a-z_0-9]*\]:$' $OUT)" '^[1-5]$' ;;
	*"__x64_sys_*"*)
		kload getppid 1 > /dev/null
		dd if=/dev/zero of=/dev/null bs=512 count=10 2>/dev/null
		expect_match "README: sys, by func, dd's read calls" "$(cat $KS/sys)" '^key __x64_sys_read samples 1[0-9]$'
		ctl $KS/_control "remove sys" > /dev/null ;;
	*"name o_slow"*)
		expect "README: callers 5 ran" "$(ctl $LT 'callers 5')" ok ;;
	"cat /sys/kernel/debug/kstats/o_slow")
		expect "README: cat o_slow: the five slow calls" "$(grep -c '^outlier 2[0-9]\{7\} ' $OUT)" 5 ;;
	*"kstats show o_slow"*)
		expect "README: kstats show: each slow call from lt_slow_caller" "$(grep -c '^        lt_slow_caller+0x' $OUT)" 5
		ctl $KS/_control "remove o_slow" > /dev/null ;;
	*"kstats softirq"*)
		expect_match "README: softirq: the timer's vector" "$o" '^@softirq\[TIMER\]:$' ;;
	*"kstats diff"*)
		expect_match "README: diff: the 1000-times larger writes are DIFFERENT" "$o" '^verdict: DIFFERENT ' ;;
	*"kstats watch"*)
		expect "README: watch: three intervals" "$(grep -Ec '^[123] ' $OUT)" 3 ;;
	*"kstats heatmap"*)
		expect_match "README: heatmap: lat.svg drawn" "$(head -c 200 $RD/lat.svg 2>/dev/null)" '<svg' ;;
	esac
done < /tmp/readme-ex.sh
diag "README examples: $ran commands run"
ctl $KS/_control "remove all" > /dev/null
rmmod kstats_example 2>/dev/null
[ -n "$lt_here" ] || rmmod kstats_lifetime
rmmod kstats
true
