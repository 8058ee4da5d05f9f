# SPDX-License-Identifier: GPL-2.0
#
# What a user types: load, create, fill, read, control, break, remove, unload.

check "insmod kstats.ko" insmod $KB/kstats.ko
expect "debugfs directory lists _control, _errors and _history" "$(ls $KS | tr '\n' ' ')" "_control _errors _history "
expect_match "_control help names the commands" "$(cat $KS/_control)" \
	"^#   new NAME \[bits 0-5\]"

expect "new t1 bits 4 clock local" "$(ctl $KS/_control 'new t1 bits 4 clock local')" ok
cat $KS/t1 > /tmp/t1
expect_match "empty distribution header" "$(head -n1 /tmp/t1)" \
	"^# name t1 clock local unit ns frac_bits 4 state active cpus [0-9]+ samples 0 missed 0$"
expect "empty distribution summary" "$(grep '^# summary' /tmp/t1)" \
	"# summary samples 0 min 0 p50 0 p90 0 p99 0 p99.9 0 max 0 mean 0"
expect "no slot rows when empty" "$(grep -c '^slot' /tmp/t1)" 0
expect_match "_control lists t1" "$(cat $KS/_control)" "^t1 new bits 4 clock local$"
expect "file mode is 0600" "$(stat -c %a $KS/t1)" 600

check "insmod kstats_example.ko" insmod $KB/kstats_example.ko
expect_match "example made its distributions" "$(ls $KS)" "example_write_bytes"
check "1000 writes of 64 bytes" kload write /dev/kstats_example 1000 64
cat $KS/example_write > /tmp/ew
cat $KS/example_write_bytes > /tmp/eb
expect "example_write counts 1000 samples" "$(field /tmp/ew name samples)" 1000
expect "example_write clock is ktime in ns" \
	"$(field /tmp/ew name clock) $(field /tmp/ew name unit)" "ktime ns"
expect "byte sizes: one slot [64, 79] on all CPUs" \
	"$(grep ' CPUS ' /tmp/eb | awk '{ print $6, $8, $10, $12, $14 }')" \
	"1000 64 1.000000 64 79"
expect "byte sizes summary" "$(grep '^# summary' /tmp/eb)" \
	"# summary samples 1000 min 64 p50 64 p90 64 p99 64 p99.9 64 max 64 mean 64"
expect "per-CPU rows add up to the total" \
	"$(awk '$1 == "slot" && $3 == "CPU" { n += $6 } END { print n }' /tmp/ew)" 1000
expect "all-CPU rows add up to the total" \
	"$(awk '$1 == "slot" && $3 == "CPUS" { n += $6 } END { print n }' /tmp/ew)" 1000
expect "last all-CPU row has p 1.000000" \
	"$(grep ' CPUS ' /tmp/ew | tail -n1 | awk '{ print $10 }')" 1.000000
expect "rows are ordered by slot and bounded by lo <= avg <= hi" \
	"$(awk '$1 == "slot" { if ($2 < last || $8 < $12 || $8 > $14) bad++; last = $2 }
		END { print bad + 0 }' /tmp/ew)" 0
expect_match "summary percentiles are slot upper bounds" \
	"$(grep '^# summary' /tmp/ew)" \
	"^# summary samples 1000 min [0-9]+ p50 [0-9]+ p90 [0-9]+ p99 [0-9]+ p99.9 [0-9]+ max [0-9]+ mean [0-9]+$"
check "3 writes from a bad address fail with EFAULT" \
	kload badwrite /dev/kstats_example 3 64
cat $KS/example_write_bytes > /tmp/eb
cat $KS/example_write > /tmp/ew2
expect "kstats_scope() times the failed writes too" \
	"$(field /tmp/ew2 name samples)" 1003
expect "kstats_record_signed(): the failures counted apart" \
	"$(grep '^# negative' /tmp/eb)" "# negative samples 3 min -14 max -14"
expect "kstats_record_signed(): one errno row, EFAULT" \
	"$(grep '^errno' /tmp/eb)" "errno 14 count 3"
expect "kstats_record_signed(): not in the histogram" \
	"$(field /tmp/eb name samples)" 1000
cat $KS/example_write_by_size > /tmp/ek
expect "kstats_record_key(): one key, 64, with the 1000 good writes" \
	"$(grep '^key ' /tmp/ek)" "key 64 samples 1000"
expect "kstats_record_key(): a family of max_keys 16" \
	"$(grep '^# family' /tmp/ek | cut -d' ' -f2-10)" "family by key max 16 keys 1 other 0"
expect "no negative line where nothing was negative" \
	"$(grep -c '^# negative' /tmp/ew2)" 0
p50=$(field /tmp/ew summary p50) max=$(field /tmp/ew summary max)
expect "p50 is the hi of a slot row, or max when that is smaller" \
	"$(awk -v p="$p50" -v m="$max" '$3 == "CPUS" && ($14 == p || ($12 <= m && m == p && m < $14)) { print "yes"; exit }' /tmp/ew)" yes
expect "min and max lie within the first and the last slot row" \
	"$(awk -v lo="$(field /tmp/ew summary min)" -v hi="$max" '$3 == "CPUS" { if (!n++) a = ($12 <= lo && lo <= $14); b = ($12 <= hi && hi <= $14) } END { print a && b ? "yes" : "no" }' /tmp/ew)" yes

expect "stop" "$(ctl $KS/example_write stop)" ok
kload write /dev/kstats_example 100 64
expect "stopped: samples unchanged" "$(field $KS/example_write name samples)" 1003
expect "stopped: state shown" "$(field $KS/example_write name state)" stopped
expect "START in upper case, with newline" "$(ctl $KS/example_write 'START
')" ok
kload write /dev/kstats_example 10 64
expect "started: 10 more samples" "$(field $KS/example_write name samples)" 1013
expect "reset" "$(ctl $KS/example_write reset)" ok
expect "reset: no samples" "$(field $KS/example_write name samples)" 0
expect "reset: no rows" "$(grep -c '^slot' $KS/example_write)" 0

dmesg_mark
expect "bad node command: EINVAL" "$(ctl $KS/example_write bogus)" EINVAL
check "bad node command: dmesg names it" dmesg_has "example_write: unknown command 'bogus'"
expect "new with a / in the name: EINVAL" "$(ctl $KS/_control 'new a/b')" EINVAL
check "bad name: dmesg says why" dmesg_has "invalid name 'a/b'"
expect "duplicate name: EEXIST" "$(ctl $KS/_control 'new t1')" EEXIST
check "duplicate: dmesg says why" dmesg_has "t1: a distribution of that name exists"
expect "bits 6: EINVAL" "$(ctl $KS/_control 'new t2 bits 6')" EINVAL
expect "unknown clock: EINVAL" "$(ctl $KS/_control 'new t2 clock sundial')" EINVAL
expect "remove unknown: ENOENT" "$(ctl $KS/_control 'remove nosuch')" ENOENT
expect "remove a kernel-made one: EPERM" "$(ctl $KS/_control 'remove example_write')" EPERM
expect "_errors: the node's command, the duplicate and the removes, each under its word" \
	"$(err_entry 1; err_entry 3; err_entry 6; err_entry 7)" \
	"$(err_want example_write "unknown command 'bogus': use start, stop or reset" bogus bogus
	err_want t1 'a distribution of that name exists' 'new t1' t1
	err_want _control 'remove nosuch: no such distribution' 'remove nosuch' nosuch
	err_want _control 'remove example_write: made by kernel code or with its trace node, which removes it' \
		'remove example_write' example_write)"
expect "unknown verb: EINVAL" "$(ctl $KS/_control 'frobnicate x')" EINVAL
expect "nothing half-made after refusals" "$(ls $KS | tr '\n' ' ')" \
	"_control _errors _history example_write example_write_by_size example_write_bytes t1 "

expect "rmmod kstats while the example uses it fails" \
	"$(rmmod kstats 2>/dev/null && echo removed || echo refused)" refused
check "rmmod kstats_example" rmmod kstats_example
expect "example files are gone" "$(ls $KS | tr '\n' ' ')" "_control _errors _history t1 "

kload hold $KS/t1 3 &
sleep 1
expect "rmmod while a file is open is refused" \
	"$(rmmod kstats 2>/dev/null && echo removed || echo refused)" refused
wait

# the cycle counter: clock tsc on x86-64, clock cycles elsewhere (lib.sh)
expect "new t2 clock $CYC" "$(ctl $KS/_control "new t2 clock $CYC bits 2")" ok
expect "$CYC header gives clock and unit" "$(field $KS/t2 name clock) $(field $KS/t2 name unit)" "$CYC cycles"
expect_match "$CYC header gives ${CYC}_khz" "$(cat $KS/t2)" "^# clock ${CYC}_khz [1-9][0-9]*$"
expect "new t3 max 1000" "$(ctl $KS/_control 'new t3 max 1000')" ok
expect "restricted range header" "$(grep '^# range' $KS/t3)" "# range max_value 1023 overflow 0"
kload hold $KS/t1 2 &
sleep 1
expect "remove t1 while a reader holds it open" "$(ctl $KS/_control 'remove t1')" ok
wait
expect "t1 is gone once its reader closed" "$(ls $KS | grep -c '^t1$')" 0
expect "remove all" "$(ctl $KS/_control 'remove all')" ok
expect "all removed" "$(ls $KS | tr '\n' ' ')" "_control _errors _history "
check "rmmod kstats" rmmod kstats
expect "debugfs directory gone" "$(ls /sys/kernel/debug | grep -c '^kstats$')" 0
