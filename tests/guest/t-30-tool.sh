# SPDX-License-Identifier: GPL-2.0
#
# The kstats command against live debugfs: list, show, export, diff, watch,
# trace (which must remove its node on exit).

if ! command -v kstats >/dev/null; then
	skip "kstats tool in the guest" "not built into this image"
	return 0
fi
check "insmod kstats.ko (tool)" insmod $KB/kstats.ko
check "insmod kstats_example.ko (tool)" insmod $KB/kstats_example.ko
kload write /dev/kstats_example 500 64
expect_match "kstats list shows the example" "$(kstats list)" \
	"^example_write +ktime +ns +500 +0 +active"
out=$(kstats show example_write)
expect_match "kstats show prints the summary" "$out" "^ +500 +[0-9.]+[nu]s"
expect_match "kstats show draws bars" "$out" '\|@+ *\|$'
cat $KS/example_write > /tmp/a.txt
expect "a saved cat is a snapshot file" "$(kstats show /tmp/a.txt | head -n 3)" \
	"$(kstats show example_write | head -n 3)"
kload write /dev/kstats_example 500 65536
cat $KS/example_write > /tmp/b.txt
kstats diff /tmp/a.txt /tmp/a.txt > /tmp/d0; rc0=$?
kstats diff /tmp/a.txt /tmp/b.txt > /tmp/d1; rc1=$?
expect "diff: same snapshot exits 0, different exits 1" "$rc0 $rc1" "0 1"
kstats diff /tmp/a.txt /nonexistent >/dev/null 2>&1; rc2=$?
expect "diff: missing file exits 2" "$rc2" 2
expect_match "export prometheus: cumulative buckets" \
	"$(kstats export --format prometheus example_write)" \
	'^kstats_bucket\{.*name="example_write".*le="\+Inf"\} 1000$'
w=$(kstats watch example_write -i 1 -c 2)
expect "watch prints two intervals, the first marked" \
	"$(printf '%s\n' "$w" | grep -Ec '^[12] ') $(printf '%s\n' "$w" | grep -c 'first interval')" "2 1"
SYM=__do_sys_getppid
grep -q " $SYM$" /proc/kallsyms || SYM=__x64_sys_getppid
(sleep 1; kload getppid 2000) &
t=$(kstats trace $SYM -d 3)
wait
expect_match "kstats trace prints the distribution" "$t" "^ +2000 +"
expect "kstats trace removed its node" "$(ls $KS | grep -c "^$SYM$")" 0
check "rmmod example (tool)" rmmod kstats_example
check "rmmod kstats (tool)" rmmod kstats
