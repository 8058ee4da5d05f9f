# SPDX-License-Identifier: GPL-2.0
#
# User programs' functions: "trace PATH:SYMBOL" and "PATH:0xOFFSET" through
# uprobes, on kuprobe (tests/guest/kuprobe.c, static: .symtab) and on a
# shared library's function (libkup.so, stripped: .dynsym, called by
# kuprobe-dyn).  Every call is known: counts, values and pairing are
# asserted exactly; durations against what the functions do; refusals
# with their errno and dmesg line; a task inside a traced function while
# its node is removed and kstats unloaded returns what it should.

check "insmod kstats.ko (uprobes)" insmod $KB/kstats.ko
UB=/kstats/bin/kuprobe
U=/tmp/uprobe
if ! grep -q ' uprobe_register$' /proc/kallsyms; then
	skip "user functions" "no uprobes in this kernel"
else

# --- counts, header, names ------------------------------------------------
expect "trace PATH:SYMBOL" "$(ctl $KS/_control "trace $UB:kup_add")" ok
expect "named BASENAME.SYMBOL" "$(ls $KS | grep -c '^kuprobe.kup_add$')" 1
check "kuprobe add 3 4 100" $UB add 3 4 100
cat $KS/kuprobe.kup_add > $U.add
expect "100 calls, 100 samples, none missed" \
	"$(field $U.add name samples) $(field $U.add name missed)" "100 0"
expect "header: mechanism uprobe, target PATH:SYMBOL" \
	"$(field $U.add source mechanism) $(field $U.add source target)" "uprobe $UB:kup_add"
expect "every start paired: none pending, none unmatched" \
	"$(field $U.add source pending) $(field $U.add source unmatched)" "0 0"
OFF=$(field $U.add source offset)
VADDR=$(field $U.add source vaddr)
# a static program's text: file offset 0x1000 less than its address
expect "offset is the address's, through the executable segment" \
	"$(printf '0x%x' $((VADDR - 0x400000)))" "$OFF"
expect "_control lists it" "$(grep -c "^kuprobe.kup_add trace $UB:kup_add bits 3" $KS/_control)" 1

expect "trace PATH:0xOFFSET" "$(ctl $KS/_control "trace $UB:$OFF name kup_off")" ok
$UB add 1 2 30
expect "the offset's node counts the same calls" \
	"$(field $KS/kup_off name samples) $(field $KS/kuprobe.kup_add name samples)" "30 130"
expect "remove both" "$(ctl $KS/_control 'remove kup_off'; ctl $KS/_control 'remove kuprobe.kup_add')" "ok
ok"

# --- values and conditions --------------------------------------------------
for v in arg0 arg1 ret; do
	expect "value $v" "$(ctl $KS/_control "trace $UB:kup_add name kup_$v value $v")" ok
done
expect "a condition on an argument" \
	"$(ctl $KS/_control "trace $UB:kup_add name kup_if if arg0 == 5")" ok
$UB add 3 4 40
$UB add 5 6 25
expect "value arg0: 40 threes, 25 fives" "$(v_hist $KS/kup_arg0 3:40 5:25)" ok
expect "value arg1: 40 fours, 25 sixes" "$(v_hist $KS/kup_arg1 4:40 6:25)" ok
expect "value ret: 40 sevens, 25 elevens" "$(v_hist $KS/kup_ret 7:40 11:25)" ok
expect "if arg0 == 5: the 25 calls" "$(field $KS/kup_if name samples)" 25
expect "value ret: its returns all paired" \
	"$(field $KS/kup_ret source pending) $(field $KS/kup_ret source unmatched)" "0 0"
ctl $KS/_control 'remove all' >/dev/null

# --- recursion: each call its own start ------------------------------------
expect "trace kup_rec" "$(ctl $KS/_control "trace $UB:kup_rec name rec")" ok
expect "trace kup_rec value arg0 (the entry alone)" \
	"$(ctl $KS/_control "trace $UB:kup_rec name rec_arg value arg0")" ok
expect "trace kup_rec value ret if arg0 >= 2" \
	"$(ctl $KS/_control "trace $UB:kup_rec name rec_ret value ret if arg0 >= 2")" ok
$UB rec 5 3
expect "3 calls of depth 5: 18 samples, every return paired" \
	"$(field $KS/rec name samples) $(field $KS/rec name missed) $(field $KS/rec source pending) $(field $KS/rec source unmatched)" \
	"18 0 0 0"
expect "value arg0: three of each depth" "$(v_hist $KS/rec_arg 0:3 1:3 2:3 3:3 4:3 5:3)" ok
expect "value ret if arg0 >= 2: each return its own call's" \
	"$(v_hist $KS/rec_ret 2:3 3:3 4:3 5:3)" ok
expect "the calls the condition left out were paired too" \
	"$(field $KS/rec_ret source pending) $(field $KS/rec_ret source unmatched) $(field $KS/rec_ret name missed)" \
	"0 0 0"
ctl $KS/_control 'remove all' >/dev/null

# --- durations -------------------------------------------------------------
expect "trace kup_sleep" "$(ctl $KS/_control "trace $UB:kup_sleep name usleep")" ok
$UB sleep 2000 20
expect "20 sleeps of 2 ms" "$(field $KS/usleep name samples)" 20
# the slot of 2 ms at bits 3 begins at 1966080 ns
min=$(field $KS/usleep summary min)
check "each at least 2 ms (summary min $min)" test "$min" -ge 1966080
expect "trace kup_busy" "$(ctl $KS/_control "trace $UB:kup_busy name busy")" ok
$UB busy 1000 5
small=$(field $KS/busy summary p50)
ctl $KS/busy reset >/dev/null
$UB busy 10000000 5
big=$(field $KS/busy summary p50)
expect "5 busy loops" "$(field $KS/busy name samples)" 5
# the traps are in both; ten million rounds take over 1 ms anywhere
check "10000000 rounds take over 1 ms more than 1000 (p50 $big, $small ns)" \
	test $((big - small)) -gt 1000000
ctl $KS/_control 'remove all' >/dev/null

# --- one process: the pid filter ------------------------------------------
rm -f $U.pid
$UB -p $U.pid add 1 1 40 &
upid=$!
i=0
while [ ! -s $U.pid ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
expect "trace ... pid N" "$(ctl $KS/_control "trace $UB:kup_add name kup_pid pid $upid")" ok
$UB add 1 1 25
kill -USR1 $upid
wait $upid
expect "pid N: its 40 calls, not the other process's 25" "$(field $KS/kup_pid name samples)" 40
expect "pid of no process: ESRCH" "$(ctl $KS/_control "trace $UB:kup_add name kup_nopid pid 99999")" ESRCH

# --- families and outliers ---------------------------------------------------
expect "by comm" "$(ctl $KS/_control "trace $UB:kup_add name kup_comm by comm")" ok
expect "slow 0 keep 3" "$(ctl $KS/_control "trace $UB:kup_add name kup_slow slow 0 keep 3")" ok
$UB add 2 2 15
expect "by comm: the program's 15 calls" "$(grep '^key ' $KS/kup_comm)" "key kuprobe samples 15"
expect "slow 0 keep 3: the newest 3 kept, the program's" \
	"$(field $KS/kup_slow outliers kept) $(grep '^outlier ' $KS/kup_slow | grep -cE ' comm kuprobe( |$)')" "3 3"
ctl $KS/_control 'remove all' >/dev/null

# --- a shared library (its .dynsym), called through the loader -----------
if [ -x /kstats/bin/kuprobe-dyn ]; then
	expect "trace a shared library's function" \
		"$(ctl $KS/_control "trace /kstats/bin/libkup.so:kup_lib_add")" ok
	expect "trace its return value" \
		"$(ctl $KS/_control "trace /kstats/bin/libkup.so:kup_lib_add name lib_ret value ret")" ok
	check "kuprobe-dyn 3 4 60" /kstats/bin/kuprobe-dyn 3 4 60
	expect "the library's 60 calls" \
		"$(field $KS/libkup.so.kup_lib_add name samples) $(field $KS/libkup.so.kup_lib_add name missed)" "60 0"
	expect "their return values" "$(v_hist $KS/lib_ret 7:60)" ok
	expect "the program that imports it: ENOENT" \
		"$(ctl $KS/_control "trace /kstats/bin/kuprobe-dyn:kup_lib_add name imp")" ENOENT
	ctl $KS/_control 'remove all' >/dev/null
else
	not_ok "a shared library's function: no kuprobe-dyn in /kstats/bin (scripts/lib.sh guest_helpers)"
fi

# --- the kstats command: kstats trace PATH:SYMBOL --------------------------
if command -v kstats > /dev/null; then
	# -- COMMAND: attached before the program starts, its calls alone
	t=$(kstats trace $UB:kup_add --value ret -- $UB add 2 3 700 2>&1)
	# the summary row: 700 samples, min and max 5 (2 + 3)
	expect_match "kstats trace PATH:SYMBOL --value ret: 700 fives" "$t" \
		"^ +700 +5 +([^ ]+ +){4}5( |$)"
	expect "kstats trace removed its node" "$(ls $KS | grep -c '^kuprobe.kup_add$')" 0
	t=$(kstats trace $UB:kup_add --value 'a->b' -d 1 2>&1)
	expect "kstats trace PATH:SYMBOL --value EXPR: exit 2" "$?" 2
	expect_match "kstats trace PATH:SYMBOL --value EXPR: says why" "$t" "no BTF"
else
	not_ok "kstats trace PATH:SYMBOL: no kstats command in this guest"
fi

# --- refusals: errno and one dmesg line -------------------------------------
# ut DESC CMD ERRNO REGEX: CMD refused with ERRNO, and one line of kstats
# in the kernel log, which matches REGEX
ut() {
	dmesg_mark
	expect "$1: $3" "$(ctl $KS/_control "$2")" "$3"
	expect "$1: one dmesg line says why" \
		"$(dmesg | grep -c 'kstats') $(dmesg | grep -Ec -- "$4")" "1 1"
}
ut "not an ELF file" "trace /kstats/guest/lib.sh:foo name r1" ENOEXEC "not an ELF file"
ut "no such symbol" "trace $UB:no_such_function name r2" ENOENT "no symbol of that name"
ut "a data symbol" "trace $UB:kup_data name r3" EINVAL "no function"
ut "an ifunc" "trace $UB:kup_ifunc name r4" EINVAL "ifunc"
ut "no such file" "trace /kstats/nope:foo name r5" ENOENT "no such file"
ut "not a regular file" "trace /kstats/bin:foo name r6" EINVAL "not a regular file"
ut "an offset beyond the file" "trace $UB:0x7fffffff name r7" EINVAL "beyond the end"
# the file's last words: its section headers, in no segment
ut "an offset in no code" "trace $UB:$(printf '0x%x' $(($(wc -c < $UB) - 8))) name r8" EINVAL \
	"no executable segment"
ut "by stack" "trace $UB:kup_add name r9 by stack" EINVAL "no by stack"
ut "a dereference" "trace $UB:kup_add name r10 value arg0+0:8" EINVAL "dereferences"
ut "mech" "trace $UB:kup_add name r11 mech kretprobe" EINVAL "timed by a uprobe"
expect "nothing half-made after refusals" "$(ls $KS | tr '\n' ' ')" "_control _errors _history "

# --- removal and rmmod with a task inside the function ---------------------
rm -f $U.fifo
mkfifo $U.fifo
# uwait HOW: a task waits inside kup_wait; its node goes (HOW: remove, or
# rmmod kstats with the node on); the task is let go and must return
uwait() {
	expect "trace kup_wait ($1)" "$(ctl $KS/_control "trace $UB:kup_wait name wait")" ok
	$UB wait $U.fifo > $U.out 2>&1 &
	wpid=$!
	check "the task waits inside kup_wait ($1)" wait_asleep $wpid
	expect "its start is in flight ($1)" "$(field $KS/wait source pending)" 1
	if [ "$1" = remove ]; then
		expect "remove the node under it" "$(ctl $KS/_control 'remove wait')" ok
	else
		check "rmmod kstats with the node on, the task inside" rmmod kstats
	fi
	printf 'x' > $U.fifo
	wait $wpid
	rc=$?
	expect "the task returns its result (x + 1000) and exits 0 ($1)" "$rc $(cat $U.out)" "0 1120"
}
uwait remove
uwait rmmod
check "insmod kstats.ko again (uprobes)" insmod $KB/kstats.ko
rm -f $U.fifo $U.out $U.pid $U.add

fi
expect "remove all (uprobes)" "$(ctl $KS/_control 'remove all')" ok
check "rmmod kstats (uprobes)" rmmod kstats
