#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The few synthetic snapshots, for test cases that need a constructed
# distribution (tests/fixtures/ holds the real captures of capture.sh).
# gen_fixture writes the format of Documentation/format.rst with
# kstats_bucket.h, from seeded random samples.
#   usage: tests/make_synthetic.sh build/gen_fixture
set -e
G=${1:-build/gen_fixture}
cd "$(dirname "$0")"
case $G in /*) ;; *) G=../$G ;; esac
S=synthetic
rm -rf $S
mkdir -p $S
# diff: two huge runs 1% apart: significant (p ~ 1e-84) but a negligible
# effect (D < 0.01), the case --min-effect is for.
$G --name run --seed 15 --bits 3 -s 0,2000000,lognormal,1000,0.4 > $S/big_a.txt
$G --name run --seed 16 --bits 3 -s 0,2000000,lognormal,1010,0.4 > $S/big_b.txt
# Nodes with a value (trace FUNC value V, Documentation/format.rst): the
# "# value", "# filter" and "# negative" lines and the errno rows, until
# captures of the kernel side replace them.  ksys_read's ret: byte counts,
# and -EBADF, -EAGAIN, -EFAULT, -ERESTARTSYS and -5000 (no errno).
val() {
	$G --name ksys_read --clock none --bits 3 --cpus 2 --seed 3 --value ret \
		--source 'mechanism fprobe target ksys_read maxactive 0' \
		--filter 'comm kvalue' "$@"
}
val --neg -9,1 --neg -11,40 --neg -14,2 --neg -512,3 --neg -5000,1 \
	-s 0,500,lognormal,4096,1 -s 1,300,const,1 > $S/value_ret.txt
# the same node later (cumulative): 15 more -EAGAIN, 200 more reads
val --neg -9,1 --neg -11,55 --neg -14,2 --neg -512,3 --neg -5000,1 \
	-s 0,500,lognormal,4096,1 -s 1,300,const,1 -s 0,200,const,4096 > $S/value_ret2.txt
# vfs_read's count under every kind of filter; no negative value
$G --name vfs_read --clock none --bits 2 --cpus 4 --seed 5 --value arg2 \
	--source 'mechanism fprobe target vfs_read maxactive 0' \
	--filter 'pid 123 tid 124 comm dd cpu 0 if arg2 > 100 if arg3+0:8 & 4095 if arg0+32:8+80:8 >= -1 if arg1:4 != 0x10' \
	-s 0,1000,uniform,101,65536 > $S/value_filters.txt
# all negative: a function that only failed (no slot rows)
$G --name kfail --clock none --cpus 2 --value arg1:s4 --neg -22,7 > $S/value_negative.txt
# Families (a node split by a key, "# family by ..."): one histogram per
# key, largest first, "other" for the rest.  vfs_read's count by comm: two
# tasks, one with a space and a backslash in its name (written \x20, \x5c),
# and keys past max in other.
$G --name vr --clock none --bits 3 --cpus 2 --seed 7 --value arg2 \
	--source 'mechanism fprobe function vfs_read value arg2' --by comm --max 2 \
	--key kvalue -s 0,200,const,4096 --key 'my task\' -s 1,60,uniform,1024,1151 -s 0,40,uniform,1920,2047 \
	--key other -s 1,5,const,12 > $S/family_comm.txt
# softirq durations by vector (arg0 of softirq_entry): TIMER, NET_RX,
# RCU, SCHED; and the errno rows of a value node after the key blocks
$G --name softirq --bits 3 --cpus 4 --seed 8 --by arg0 \
	--source 'mechanism section start tp:irq:softirq_entry key cpu end tp:irq:softirq_exit key cpu' \
	--key 1 -s 0,500,lognormal,2000,0.5 --key 3 -s 1,300,lognormal,8000,0.6 \
	--key 9 -s 2,150,lognormal,1500,0.4 --key 7 -s 3,50,lognormal,4000,0.3 > $S/family_softirq.txt
# syscall latency by number (sys_enter's arg1), a negative key too
$G --name syscall --bits 3 --cpus 2 --seed 9 --by arg1 \
	--source 'mechanism section start tp:raw_syscalls:sys_enter key task end tp:raw_syscalls:sys_exit key task' \
	--key 0 -s 0,120,lognormal,900,0.5 --key 230 -s 1,80,lognormal,1000000,0.1 --key -1 -s 0,3,const,500 > $S/family_syscall.txt
# off-CPU time by kernel stack (3 frames, root first), and by caller
$G --name offcpu --bits 3 --cpus 2 --seed 10 --by stack --frames 3 \
	--source 'mechanism section start tp:sched:sched_switch key arg1 end tp:sched:sched_switch key arg2' \
	--key 'do_syscall_64+0x5b;do_nanosleep+0x6e;schedule+0x4c' -s 0,40,const,1000000 \
	--key 'kthread+0xe4;worker_thread+0x11a;schedule+0x4c' -s 1,10,const,3000000 \
	--key other -s 0,2,const,500 > $S/family_stack.txt
$G --name lw --bits 3 --cpus 2 --seed 11 --by caller \
	--source 'mechanism fprobe function mutex_lock' \
	--key 'lt_mutex_site_a+0x11' -s 0,3,const,20000 --key 'lt_mutex_site_b+0x11' -s 1,2,const,20000 > $S/family_caller.txt
# a node over several functions, by func ("trace vfs_* by func")
$G --name vfs_ --bits 3 --cpus 2 --seed 12 --by func \
	--source 'mechanism direct target vfs_* maxactive 0 floor_p50 100 arg_regs 4 stack_words 0' \
	--key vfs_read -s 0,10,const,1000 --key vfs_write -s 1,3,const,900000 \
	--key vfs_open -s 0,5,const,20000 |
	sed '/^# source /a # functions matched 5 traced 4 skipped 1 alias 1 fallback 1\n# fallback vfs_wide:fprobe:stack_args\n# skipped vfs_ni:alias' > $S/family_func.txt
# a family with no samples yet
$G --name idle_fam --bits 3 --cpus 2 --by pid > $S/family_empty.txt
# min and max exact, as a kstats that keeps them writes them: 300 reads of
# exactly 4096 bytes (max 4096, where the slot's bound is 4607) and 40 of
# 3000, by dd in one cgroup (the filter "cgroup PATH")
$G --name vfs_read --clock none --bits 3 --cpus 2 --seed 13 --value arg2 --exact \
	--source 'mechanism fprobe target vfs_read maxactive 0' \
	--filter 'comm dd cgroup /system.slice/x\x20y.service' \
	-s 0,300,const,4096 -s 1,40,const,3000 > $S/exact_reads.txt
# a family by cgroup, one of them removed since (id:N)
$G --name cg --bits 3 --cpus 2 --seed 14 --by cgroup --exact \
	--source 'mechanism direct target vfs_read maxactive 0' \
	--key /system.slice/db.service -s 0,30,const,5000 --key id:4242 -s 1,10,const,900 > $S/family_cgroup.txt
