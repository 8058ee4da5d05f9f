# SPDX-License-Identifier: GPL-2.0
#
# History: a node's samples slice by slice of time (history NS COUNT, the
# API's history_slice_ns), _history/NAME, and the machine-wide freeze by a
# command and by a trigger (Documentation/format.rst, control.rst).

check "insmod kstats.ko (history)" insmod $KB/kstats.ko
expect "history 0 10: refused" "$(ctl $KS/_control 'new h0 history 0 10')" EINVAL
expect "history 10000000 0: refused" \
	"$(ctl $KS/_control 'new h0 history 10000000 0')" EINVAL
expect "history beyond the memory bound: refused" \
	"$(ctl $KS/_control 'new h0 history 10000000 16000000')" ENOSPC
expect "trigger on a node that does not exist: refused" \
	"$(ctl $KS/_control 'trigger nosuch above 5')" ENOENT
expect "_history is a reserved name" "$(ctl $KS/_control 'new _history')" EINVAL
expect "thaw when not frozen: EALREADY" "$(ctl $KS/_control 'thaw')" EALREADY
expect "no half-made node after the refusals" "$(ls $KS/_history | wc -l)" 0
expect_match "the bound's refusal in _errors, with its figures" "$(cat $KS/_errors)" \
	"h0: error: history 10000000 16000000 takes [0-9]+ bytes, [0-9]+ are left of the [0-9]+ all histories may take"
expect_match "the trigger's refusal in _errors" "$(cat $KS/_errors)" \
	"nosuch: error: trigger: no distribution of that name"

# hsum FILE: the samples of its slice lines; hbad FILE NS: the lines whose
# slice is not a multiple of NS, or whose buckets do not add up
hsum() { awk '$1 == "slice" { n += $4 } END { print n + 0 }' "$1"; }
hbad() {
	awk -v ns="$2" '$1 == "slice" {
		b = 0; k = split($14, a, ","); for (i = 1; i <= k; i++) { split(a[i], p, ":"); b += p[2] }
		if ($2 % ns != 0 || b != $4 || $13 != "buckets") bad++
	} END { print bad + 0 }' "$1"
}

# --- the API's history: kstats_example's sizes, two phases with a pause
check "insmod kstats_example.ko with a history" \
	insmod $KB/kstats_example.ko history_ns=10000000 history_slices=12000
H=$KS/_history/example_write_bytes
cat $H > /tmp/h0
expect_match "an idle history: its header, no slice" "$(cat /tmp/h0)" \
	"^# history example_write_bytes slice 10000000 slices 12000 bytes [0-9]+ state live$"
check "phase 1: 300 writes of 64 bytes" kload write /dev/kstats_example 300 64
# the pause between the phases is the scenario: 30 slices with no sample
sleep 0.3
check "phase 2: 200 writes of 1000 bytes" kload write /dev/kstats_example 200 1000
cat $H > /tmp/h1
cat $KS/example_write_bytes > /tmp/hb
expect "the slices add up to the node's count" "$(hsum /tmp/h1)" \
	"$(field /tmp/hb name samples)"
expect "slices aligned to 10 ms, buckets adding up to each slice" \
	"$(hbad /tmp/h1 10000000)" 0
# phase 1's slices hold only 64, phase 2's only 896 (1000's slot at bits 2)
expect "two groups of slices, apart by the pause" \
	"$(awk '$1 == "slice" { if ($14 ~ /^64:[0-9]+$/) { if (!a1) a1 = $2; a2 = $2; n1 += $4 }
		else if ($14 ~ /^896:[0-9]+$/) { if (!b1) b1 = $2; n2 += $4 } else other++ }
		END { print n1, n2, other + 0, (b1 - a2 >= 200000000) }' /tmp/h1)" "300 200 0 1"
expect_match "a slice's line: its percentiles within its buckets" \
	"$(grep -m1 ' buckets 896:' /tmp/h1)" \
	"^slice [0-9]+ samples [0-9]+ min 896 p50 1023 p99 1023 max 1023 buckets 896:[0-9]+$"

# --- a trace node's history
SYM=$(sys_fn getppid)
expect "trace $SYM history 1000000 1000" \
	"$(ctl $KS/_control "trace $SYM name hppid history 1000000 1000")" ok
expect_match "_control lists its history" "$(cat $KS/_control)" \
	"^hppid trace $SYM bits 3 clock [a-z]+ history 1000000 1000$"
check "1000 getppid calls" kload getppid 1000
cat $KS/_history/hppid > /tmp/t1
cat $KS/hppid > /tmp/tn
expect "the trace node's slices add up to its count" "$(hsum /tmp/t1)" \
	"$(field /tmp/tn name samples)"
expect "its slices aligned to 1 ms" "$(hbad /tmp/t1 1000000)" 0

# --- freeze and thaw: every ring at one instant
expect "freeze" "$(ctl $KS/_control freeze)" ok
expect "freeze twice: EALREADY" "$(ctl $KS/_control freeze)" EALREADY
cat $H > /tmp/f1
cat $KS/_history/hppid > /tmp/f2
expect_match "frozen by the command" "$(head -n1 /tmp/f1)" \
	"^# history example_write_bytes slice 10000000 slices 12000 bytes [0-9]+ state frozen frozen_at [0-9]+ by freeze$"
expect "every ring frozen at the same instant" \
	"$(head -n1 /tmp/f2 | awk '{ print $13 }')" "$(head -n1 /tmp/f1 | awk '{ print $13 }')"
n_before=$(hsum /tmp/f1)
check "100 writes while frozen" kload write /dev/kstats_example 100 64
expect "a frozen ring takes no sample" "$(hsum $H)" "$n_before"
expect "the node keeps counting" "$(field $KS/example_write_bytes name samples)" 600
expect "thaw" "$(ctl $KS/_control thaw)" ok
check "50 writes after the thaw" kload write /dev/kstats_example 50 64
expect_match "live again" "$(head -n1 $H)" "state live$"
expect "the thawed ring: what came before the freeze and after the thaw" \
	"$(hsum $H)" "$((n_before + 50))"

# --- a trigger: every ring frozen 50 ms after the first sample at 4000 or more
expect "trigger example_write_bytes above 4000 after 50000000" \
	"$(ctl $KS/_control 'trigger example_write_bytes above 4000 after 50000000')" ok
check "20 writes under the value" kload write /dev/kstats_example 20 64
expect_match "armed, not fired" "$(cat $H)" \
	"^# trigger example_write_bytes above 4000 after 50000000 fired_at 0$"
expect_match "not frozen by samples under the value" "$(head -n1 $H)" "state live$"
check "one write of 5000 bytes" kload write /dev/kstats_example 1 5000
# the freeze comes 50 ms after the sample, as asked: wait for it
i=0
until head -n1 $H | grep -q 'state frozen'; do
	[ $i -ge 100 ] && break
	sleep 0.05
	i=$((i + 1))
done
cat $H > /tmp/g1
expect_match "frozen by the trigger" "$(head -n1 /tmp/g1)" \
	"state frozen frozen_at [0-9]+ by trigger example_write_bytes 4000$"
fired=$(awk '$2 == "trigger" { print $NF }' /tmp/g1)
at=$(head -n1 /tmp/g1 | awk '{ print $13 }')
diag "trigger fired at $fired, froze at $at"
expect "frozen 50 ms after the sample, within two slices" \
	"$(awk -v f="$fired" -v a="$at" 'BEGIN { d = a - f; print (d >= 50000000 && d <= 70000000) }')" 1
expect "the triggering sample in the frozen ring" \
	"$(awk '$1 == "slice" && $14 ~ /(^|,)4096:1/ { n++ } END { print n + 0 }' /tmp/g1)" 1
n_frozen=$(hsum /tmp/g1)
check "30 writes after the freeze" kload write /dev/kstats_example 30 64
expect "later samples are not in the frozen ring" "$(hsum $H)" "$n_frozen"
expect "no slice after the freeze" \
	"$(awk -v a="$at" '$1 == "slice" && $2 > a { n++ } END { print n + 0 }' $H)" 0
expect_match "the trace node's ring frozen by the same trigger" \
	"$(head -n1 $KS/_history/hppid)" "frozen_at $at by trigger example_write_bytes 4000$"
# what a user reads of the frozen window: the command's text and page
kstats timeline example_write_bytes hppid > /tmp/tl.txt 2>&1
expect "kstats timeline reads the frozen rings" "$?" 0
expect_match "its text: the freeze, by the trigger" "$(cat /tmp/tl.txt)" \
	"frozen at \\+[0-9.]+s by trigger example_write_bytes 4000$"
expect "its text: the triggering sample's slice marked" \
	"$(grep -c '5119 .*<- trigger' /tmp/tl.txt)" 1
kstats timeline -o /tmp/tl.html > /tmp/tl.out 2>&1
expect "kstats timeline -o: a page" "$?" 0
expect "the page: a row per node with a history" \
	"$(grep -o 'class="node" data-name="[a-z_]*"' /tmp/tl.html | tr '\n' ' ')" \
	'class="node" data-name="example_write_bytes" class="node" data-name="hppid" '
expect "the page: a cell per slot of each slice" \
	"$(grep -o '<rect class="cell"' /tmp/tl.html | wc -l)" \
	"$(cat $H $KS/_history/hppid | awk '$1 == "slice" { n += split($14, a, ",") } END { print n }')"
expect "thaw after the trigger" "$(ctl $KS/_control thaw)" ok
expect "remove hppid" "$(ctl $KS/_control 'remove hppid')" ok
expect "its _history file goes with it" "$(ls $KS/_history)" example_write_bytes
check "rmmod kstats_example (history)" rmmod kstats_example

# --- a CPU that comes online later gets its part of a history
hp=/sys/devices/system/cpu/cpu1/online
if [ -w $hp ] && [ "$(cat $hp)" = 1 ] && echo 0 > $hp 2>/dev/null; then
	expect "CPU 1 offline: new hcpu history 10000000 100" \
		"$(ctl $KS/_control 'new hcpu history 10000000 100')" ok
	b1=$(head -n1 $KS/_history/hcpu | awk '{ print $9 }')
	echo 1 > $hp
	b2=$(head -n1 $KS/_history/hcpu | awk '{ print $9 }')
	diag "hcpu: $b1 bytes with CPU 1 offline, $b2 once it is back"
	expect "CPU 1 back online: its part made as it came up" \
		"$(awk -v a="$b1" -v b="$b2" 'BEGIN { print (b > a) }')" 1
	expect "trace a node on CPU 1's writes" \
		"$(ctl $KS/_control "trace $SYM name hcpu1 history 1000000 1000")" ok
	check "500 getppid calls on CPU 1" kload pin 1 kload getppid 500
	expect "CPU 1's samples in the history" "$(hsum $KS/_history/hcpu1)" \
		"$(field $KS/hcpu1 name samples)"
	ctl $KS/_control "remove hcpu1" > /dev/null
	ctl $KS/_control "remove hcpu" > /dev/null
else
	skip "a CPU that comes online later gets its part of a history" "CPU 1 cannot be taken offline here"
fi

# --- 64 nodes of two minutes of 10 ms slices, within the memory bound
i=0 bad=0
while [ $i -lt 64 ]; do
	[ "$(ctl $KS/_control "new hh$i history 10000000 12000")" = ok ] || bad=$((bad + 1))
	i=$((i + 1))
done
expect "64 nodes of 12000 slices of 10 ms" "$bad" 0
bytes=$(cat $KS/_history/hh* | awk '$2 == "history" { b += $9 } END { print b }')
cpus=$(grep -c '^processor' /proc/cpuinfo)
diag "64 histories of 12000 slices: $bytes bytes on $cpus CPUs"
expect "their memory within 32 MiB a CPU" \
	"$(awk -v b="$bytes" -v c="$cpus" 'BEGIN { print (b <= c * 32 * 1048576) }')" 1
expect "one more beyond the bound: refused" \
	"$(ctl $KS/_control 'new hx history 10000000 1000000')" ENOSPC
expect "remove all" "$(ctl $KS/_control 'remove all')" ok
expect "their memory back: a history of 12000 slices again" \
	"$(ctl $KS/_control 'new hy history 10000000 12000')" ok
check "rmmod kstats (history)" rmmod kstats
