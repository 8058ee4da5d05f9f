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
kstats diff /tmp/a.txt /tmp/a.txt > /tmp/d0; rc0=$?
kstats diff /tmp/a.txt /tmp/b.txt > /tmp/d1; rc1=$?
expect "diff: same snapshot exits 0, different exits 1" "$rc0 $rc1" "0 1"
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

# heatmap: live for 3 intervals while 2000 writes run in the first one
kload ctl $KS/example_write reset >/dev/null
(sleep 0.3; kload write /dev/kstats_example 2000 64) &
kstats heatmap example_write -i 1 -d 3 -o /tmp/h.svg 2>/tmp/h.err; rc=$?
wait
cat $KS/example_write > /tmp/h.txt
rows=$(awk '$1 == "slot" && $3 == "CPUS" { if (lo == "") lo = $2; hi = $2 } END { print hi - lo + 1 }' /tmp/h.txt)
expect "heatmap live: exit 0, says what it wrote" "$rc $(cat /tmp/h.err)" "0 kstats: wrote /tmp/h.svg: 3 intervals"
expect "heatmap live: 3 columns x $rows slots, 2000 samples" \
	"$(grep -c 'class="cell"' /tmp/h.svg) $(grep -o '3 intervals, [0-9]* samples' /tmp/h.svg)" \
	"$((3 * rows)) 3 intervals, 2000 samples"
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
check "rmmod example (tool)" rmmod kstats_example
check "rmmod kstats (tool)" rmmod kstats
