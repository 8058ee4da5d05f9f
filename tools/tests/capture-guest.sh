# SPDX-License-Identifier: GPL-2.0
#
# Run inside the guest by tools/tests/capture.sh (busybox sh, 4 vCPUs):
# real workloads into real distributions, each `cat` printed between
#   KSTATS-FILE-BEGIN NAME.txt / KSTATS-FILE-END
# and a transcript of every kstats subcommand and debugfs command between
#   KSTATS-TRANSCRIPT-BEGIN / KSTATS-TRANSCRIPT-END
# for tools/kstats_example.txt.
KS=/sys/kernel/debug/kstats
DEV=/dev/kstats_example

insmod /kstats/kstats.ko && insmod /kstats/kstats_example.ko || exit 1
mkdir -p /tmp/series
SYM=__do_sys_getppid
grep -q " $SYM$" /proc/kallsyms || SYM=__x64_sys_getppid
SLEEP=
for s in do_nanosleep hrtimer_nanosleep; do
	grep -q " $s$" /proc/kallsyms && SLEEP=$s && break
done

# save NAME FILE: print FILE (a cat of a distribution) between markers.
save() {
	cat "$KS/$1" > "/tmp/$2"
	echo "KSTATS-FILE-BEGIN $2"
	cat "/tmp/$2"
	echo "KSTATS-FILE-END"
}
ctl() { echo "$2" > "$KS/$1" || echo "write '$2' to $1 failed"; }
# writes N SIZE [CPU]: N write()s of SIZE bytes to the example device
writes() {
	if [ -n "$3" ]; then taskset -c "$3" kload write $DEV "$1" "$2"
	else kload write $DEV "$1" "$2"; fi
}
summary_field() { grep -m1 '^# summary ' "$1" | awk -v k="$2" '{ for (i = 2; i < NF; i++) if ($i == k) print $(i + 1) }'; }

echo "capture: $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs, getppid body $SYM, sleep $SLEEP"

# --- fixtures -----------------------------------------------------------
# basic: example_write, 1000 writes of 64 B then 234 of 4 KiB, on CPU 0.
writes 1000 64 0
writes 234 4096 0
save example_write basic.txt
# values: the sizes of those writes (clock none, frac_bits 2)
save example_write_bytes values.txt
# known: exactly one write of each size 1..100 (clock none)
ctl example_write_bytes reset
for n in $(seq 1 100); do writes 1 "$n"; done
save example_write_bytes known.txt

# cpus: the same 64 B writes on CPUs 0, 1 and 3; 4 KiB writes on CPU 2.
ctl example_write reset
writes 1000 64 0
writes 1000 64 1
writes 1000 4096 2
writes 1000 64 3
save example_write cpus4.txt

# diff pairs on the write path, all on CPU 1: two runs of 20000 writes of
# 64 B; a run with 128 B writes (more bytes to copy and checksum); a run
# whose first half is 512 B writes (slower), its second half 64 B.
for f in steady_a steady_b; do
	ctl example_write reset
	writes 20000 64 1
	save example_write $f.txt
done
ctl example_write reset
writes 20000 128 1
save example_write slower.txt
ctl example_write reset
writes 10000 512 1
writes 10000 64 1
save example_write warmup.txt
# two long runs of the same 64 B writes
for f in big_a big_b; do
	ctl example_write reset
	writes 500000 64 1
	save example_write $f.txt
done

# series for watch and heatmap: cumulative snapshots of example_write
# taken between phases of 2000 writes each: 1 KiB (slow start), 64 B, 64 B,
# 64 B with 200 writes of 64 KiB (a tail), 64 B, 64 B.
ctl example_write reset
save example_write series/snap0.txt
i=1
for phase in 1024 64 64 tail 64 64; do
	if [ $phase = tail ]; then
		writes 1800 64 1
		writes 200 65536 1
	else
		writes 2000 $phase 1
	fi
	save example_write series/snap$i.txt
	i=$((i + 1))
done

# getppid through fprobe: frac_bits 0, and tsc cycles with frac_bits 2
ctl _control "trace $SYM name getppid_bits0 bits 0"
taskset -c 1 kload getppid 20000
save getppid_bits0 bits0.txt
ctl _control "remove getppid_bits0"
ctl _control "trace $SYM name getppid_tsc clock tsc bits 2"
taskset -c 1 kload getppid 20000
save getppid_tsc tsc.txt
ctl _control "remove getppid_tsc"
# a restricted range: max_value = the unrestricted p50, so that about half
# of the samples land in the overflow slot
ctl _control "trace $SYM name getppid_free bits 3"
taskset -c 1 kload getppid 5000
cat $KS/getppid_free > /tmp/free.txt
ctl _control "remove getppid_free"
max=$(summary_field /tmp/free.txt p50)
ctl _control "trace $SYM name bounded bits 2 max $max"
taskset -c 1 kload getppid 5000
save bounded range.txt
ctl _control "remove bounded"
# sleeps of 1 and 2 ms on the local clock, frac_bits 5, from four shells at
# once: a sleeper that wakes on another CPU is counted in missed
if [ -n "$SLEEP" ]; then
	ctl _control "trace $SLEEP name sleep_local clock local bits 5"
	for c in 0 1 2 3; do
		(for n in $(seq 1 100); do usleep 1000; usleep 2000; done) &
	done
	wait
	save sleep_local slow_io.txt
	ctl _control "remove sleep_local"
fi
# empty and stopped
ctl _control "new idle bits 3"
ctl idle stop
save idle empty.txt
ctl _control "remove idle"

# --- transcript: every subcommand and debugfs command, live -----------------
echo KSTATS-TRANSCRIPT-BEGIN
run() { echo "# $*"; "$@" 2>&1; echo "[exit $?]"; echo; }
# runp 'CMD | FILTER': a command whose output is cut for the examples file
runp() { echo "# $1"; eval "$1"; echo; }
ctl example_write reset
writes 3000 64 0
writes 2000 4096 1
writes 1000 65536 3
run ls $KS
run head -n 8 $KS/example_write
run cat $KS/_control
run kstats list
run kstats show example_write --rows 16
run kstats show example_write
run kstats show example_write --cpu --rows 12
run kstats show example_write_bytes --rows 12
runp 'kstats show example_write --json | head -n 9'
cat $KS/example_write > /tmp/before.txt
writes 2000 256 1
cat $KS/example_write > /tmp/after.txt
run kstats diff /tmp/before.txt /tmp/after.txt
ctl example_write reset
writes 3000 64 1
cat $KS/example_write > /tmp/run1.txt
ctl example_write reset
writes 3000 64 1
cat $KS/example_write > /tmp/run2.txt
run kstats diff /tmp/run1.txt /tmp/run2.txt
ctl example_write reset
(writes 3000 1024 1; sleep 1; for p in 1 2 3; do writes 3000 64 1; sleep 1; done; writes 3000 64 1) &
run kstats watch example_write -i 1 -c 5
wait
ctl example_write reset
(writes 3000 1024 1; sleep 1; writes 3000 64 1; sleep 1; writes 3000 64 1; sleep 1
 writes 2700 64 1; writes 300 65536 1; sleep 1; writes 3000 64 1) &
run kstats heatmap example_write -i 1 -d 5 -o /tmp/live.svg
wait
runp "grep -o '[0-9]* intervals, [0-9]* samples, max [0-9]* per cell' /tmp/live.svg"
runp "grep -c 'class=\"cell\"' /tmp/live.svg"
echo KSTATS-SVG-BEGIN
cat /tmp/live.svg
echo KSTATS-SVG-END
(sleep 1; taskset -c 1 kload getppid 20000) &
run kstats trace $SYM -d 3
wait
(sleep 1; for p in 1 2 3; do taskset -c 1 kload getppid 5000; sleep 1; done) &
run kstats trace $SYM -b 2 -i 1 -d 3
wait
run kstats export --format prometheus --host vm1 example_write_bytes
runp 'kstats export --format json --host vm1 example_write | head -n 10'
run kstats show nosuch
run kstats diff /tmp/run1.txt /nonexistent
echo "# echo 'trace $SYM bits 3' > $KS/_control"
echo "trace $SYM bits 3" > $KS/_control
taskset -c 1 kload getppid 10000
run cat $KS/$SYM
echo "# echo stop > $KS/$SYM"
echo stop > $KS/$SYM
taskset -c 1 kload getppid 10000
run head -n 1 $KS/$SYM
echo "# echo start > $KS/$SYM; echo reset > $KS/$SYM"
echo start > $KS/$SYM
echo reset > $KS/$SYM
run head -n 3 $KS/$SYM
echo "# echo 'new mydist bits 2 clock none' > $KS/_control"
echo 'new mydist bits 2 clock none' > $KS/_control
run cat $KS/mydist
run cat $KS/_control
echo "# echo 'remove $SYM' > $KS/_control; echo 'remove mydist' > $KS/_control"
echo "remove $SYM" > $KS/_control
echo "remove mydist" > $KS/_control
run ls $KS
echo "# echo 'trace no_such_function' > $KS/_control"
echo 'trace no_such_function' > $KS/_control
echo "[exit $?]"
dmesg | tail -n 1
echo KSTATS-TRANSCRIPT-END
