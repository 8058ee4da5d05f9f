# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make bench` (scripts/bench.sh runs it with vm-run.sh):
# loads kstats.ko and kstats_bench.ko and prints the result lines of
# bench/kstats_bench.c, plus "BENCH"/"BENCHNA" lines of its own for the
# tracing rows.  /kstats/bench.conf sets PARTS (record memory trace scale)
# and NCPUS (for scale).
PARTS="record memory trace"
NCPUS=1
SCALE_MS=1000
[ -f /kstats/bench.conf ] && . /kstats/bench.conf

B=/sys/kernel/debug/kstats_bench
KC=/sys/kernel/debug/kstats/_control
T=/sys/kernel/tracing
GB=/kstats/bin/getppid_bench

echo "BENCHINFO kernel $(uname -r) cpus=$(grep -c ^processor /proc/cpuinfo) parts=$PARTS"
insmod /kstats/kstats.ko || { echo "BENCHNA all insmod kstats.ko failed"; exit 1; }
insmod /kstats/kstats_bench.ko || { echo "BENCHNA all insmod kstats_bench.ko failed"; exit 1; }

# run COMMAND: one command of the bench module, its result lines
run() {
	echo clear > $B/ctl
	echo "$*" > $B/ctl || echo "BENCHINFO command '$*' failed"
	cat $B/out
}

# try SHELL-COMMAND: run it; on failure ERR says why (the shell's error and
# the last kernel message about it)
try() {
	dmesg -c > /dev/null 2>&1
	ERR=$(sh -c "$1" 2>&1) && return 0
	kmsg=$(dmesg | tail -n 4 | grep -iE 'kstats|trace|probe' | tail -n 1 |
		sed 's/^\[[^]]*\] //')
	ERR=$(echo "${ERR:-failed}${kmsg:+; $kmsg}" | tr '\n' ' ' |
		sed 's/sh: write error: //; s/  */ /g')
	return 1
}

# measure KIND ROW: the per-call cost of the traced code as it stands,
# KIND k = kstats_bench_target() from an in-kernel loop, s = getppid()
measure() {
	if [ "$1" = k ]; then
		run "call k_$2" | grep '^BENCH '
	else
		echo "BENCH s_$2 $($GB 20000 5)"
	fi
}

# na KIND ROW REASON
na() { echo "BENCHNA $1_$2 $3"; }

# trace_rows KIND FUNC NAME: the tracing rows of one traced function FUNC
# (NAME: the kstats distribution's name)
trace_rows() {
	kind=$1 F=$2 N=$3
	echo "BENCHINFO trace_target $kind $F"
	measure $kind untraced

	for mech in fprobe kretprobe fprobe-tsc kretprobe-tsc; do
		if try "echo 'floor $mech $F on' > $B/ctl"; then
			measure $kind floor_$mech
			run "floor $mech $F off" | grep BENCHINFO
		else
			na $kind floor_$mech "$ERR"
		fi
	done

	# kstats trace, default mechanism (direct where it attaches, else
	# fprobe where available), then forced fprobe and kretprobe
	# then values (an argument at the entry alone, the return value) and
	# a filter that always holds (cpu 0 on one vCPU), with the duration;
	# and families: the duration split by task name, by CPU
	for v in default fprobe kretprobe tsc fprobe-tsc kretprobe-tsc value-arg \
		 value-ret filter family-comm family-cpu; do
		case $v in
		default) opt= ;;
		fprobe) opt=" mech fprobe" ;;
		fprobe-tsc) opt=" mech fprobe clock tsc" ;;
		kretprobe) opt=" mech kretprobe" ;;
		tsc) opt=" clock tsc" ;;
		kretprobe-tsc) opt=" mech kretprobe clock tsc" ;;
		value-arg) opt=" value arg0" ;;
		value-ret) opt=" value ret" ;;
		filter) opt=" cpu 0" ;;
		family-comm) opt=" by comm" ;;
		family-cpu) opt=" by cpu" ;;
		esac
		if try "echo 'trace $F name $N$opt' > $KC"; then
			measure $kind kstats_$v
			grep -E '^# (name|clock|source|family)' /sys/kernel/debug/kstats/$N 2>/dev/null |
				sed "s/^/BENCHINFO kstats_trace_$v /"
			try "echo 'remove $N' > $KC" ||
				echo "BENCHINFO kstats_trace_$v remove failed: $ERR"
		else
			na $kind kstats_$v "$ERR"
		fi
	done

	# a keyed section around the system call (its tracepoints), paired by
	# the task (the default) and by the CPU
	for key in task cpu; do
		if [ $kind = k ]; then
			na $kind section_$key "no system call in the in-kernel loop"
		elif try "echo 'trace $N start tp:raw_syscalls:sys_enter key $key end tp:raw_syscalls:sys_exit key $key' > $KC"; then
			measure $kind section_$key
			try "echo 'remove $N' > $KC" ||
				echo "BENCHINFO section_$key remove failed: $ERR"
		else
			na $kind section_$key "$ERR"
		fi
	done

	# ftrace function_graph, filtered to FUNC
	if [ -w $T/current_tracer ] && try "echo $F > $T/set_ftrace_filter" &&
	   try "echo function_graph > $T/current_tracer"; then
		measure $kind fgraph
	else
		na $kind fgraph "$ERR"
	fi
	echo nop > $T/current_tracer 2>/dev/null
	echo > $T/set_ftrace_filter 2>/dev/null
	echo > $T/trace 2>/dev/null

	# a kretprobe event, enabled, with a hist trigger
	E=$T/events/kstats_bench
	if try "echo 'r:kstats_bench/ret $F' >> $T/kprobe_events" &&
	   try "echo 'hist:keys=common_pid' > $E/ret/trigger" &&
	   try "echo 1 > $E/ret/enable"; then
		measure $kind kretprobe_hist
	else
		na $kind kretprobe_hist "$ERR"
	fi
	echo 0 > $E/ret/enable 2>/dev/null
	echo '!hist:keys=common_pid' > $E/ret/trigger 2>/dev/null
	echo '-:kstats_bench/ret' >> $T/kprobe_events 2>/dev/null

	# the latency histogram ftrace offers: kprobe + kretprobe events,
	# a synthetic event of the difference, and a hist of it
	S=$T/events/synthetic/kstats_bench_lat
	t1='hist:keys=common_pid:ts0=common_timestamp'
	t2='hist:keys=common_pid:lat=common_timestamp-$ts0:onmatch(kstats_bench.entry).trace(kstats_bench_lat,$lat)'
	t3='hist:keys=lat.log2'
	if try "echo 'kstats_bench_lat u64 lat' >> $T/synthetic_events" &&
	   try "echo 'p:kstats_bench/entry $F' >> $T/kprobe_events" &&
	   try "echo 'r:kstats_bench/ret $F' >> $T/kprobe_events" &&
	   try "echo '$t1' > $E/entry/trigger" &&
	   try "echo '$t2' > $E/ret/trigger" &&
	   try "echo '$t3' > $S/trigger"; then
		measure $kind synth_hist
		grep -E '^(Hits|Entries):' $S/hist 2>/dev/null | tr '\n' ' ' |
			sed 's/^/BENCHINFO synth_hist /; s/$/\n/'
	else
		na $kind synth_hist "$ERR"
	fi
	echo "!$t3" > $S/trigger 2>/dev/null
	echo "!$t2" > $E/ret/trigger 2>/dev/null
	echo "!$t1" > $E/entry/trigger 2>/dev/null
	echo '-:kstats_bench/ret' >> $T/kprobe_events 2>/dev/null
	echo '-:kstats_bench/entry' >> $T/kprobe_events 2>/dev/null
	echo '!kstats_bench_lat' >> $T/synthetic_events 2>/dev/null

	measure $kind untraced_end
}

for p in $PARTS; do
	case $p in
	record)	run record ;;
	memory)	run memory ;;
	trace)
		trace_rows k kstats_bench_target bench_target
		# the syscall's body: __do_sys_getppid where it is not inlined
		# (Debian 6.12: __x64_sys_getppid is not ftrace-able there)
		S=__x64_sys_getppid
		grep -q '^__do_sys_getppid' $T/available_filter_functions 2>/dev/null &&
			S=__do_sys_getppid
		trace_rows s $S bench_getppid
		;;
	scale)	run "scale $NCPUS $SCALE_MS" ;;
	esac
done
rmmod kstats_bench
rmmod kstats
echo "BENCHINFO done"
