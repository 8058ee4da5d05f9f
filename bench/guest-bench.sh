# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make bench` (bench/bench.sh runs it with vm-run.sh):
# loads kstats.ko and kstats_bench.ko and prints the result lines of
# bench/kstats_bench.c, plus "BENCH"/"BENCHNA" lines of its own for the
# tracing rows.  /kstats/bench.conf sets PARTS (record memory trace uprobe scale)
# and NCPUS (for scale); PEERS=1 adds the eBPF peers to the tracing rows
# (peer_rows: libbpf-tools' funclatency and bpftrace, which bench.sh copies
# in with their libraries).
PARTS="record memory trace"
NCPUS=1
SCALE_MS=1000
PEERS=0
[ -f /kstats/bench.conf ] && . /kstats/bench.conf

B=/sys/kernel/debug/kstats_bench
KC=/sys/kernel/debug/kstats/_control
T=/sys/kernel/tracing
GB=/kstats/bin/getppid_bench
UB=/kstats/bin/uprobe_bench

echo "BENCHINFO kernel $(uname -r) $(uname -m) cpus=$(grep -c ^processor /proc/cpuinfo) parts=$PARTS"
# clock tsc is x86's name of the cycle counter; cycles names it everywhere
CYC=tsc
[ "$(uname -m)" = x86_64 ] || CYC=cycles
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
# KIND k = kstats_bench_target() from an in-kernel loop, s = getppid(),
# u = a user program's function (uprobe_bench's ub_target())
measure() {
	case $1 in
	k) run "call k_$2" | grep '^BENCH ' ;;
	u) echo "BENCH u_$2 $($UB 20000 5)" ;;
	*) echo "BENCH s_$2 $($GB 20000 5)" ;;
	esac
}

# na KIND ROW REASON
na() { echo "BENCHNA $1_$2 $3"; }

# --- peers: the eBPF tracers one would use instead -------------------------

# peer_progs PID: how many BPF programs PID holds (prog_tag lines of its
# fdinfo); peer_links PID: how many BPF links
peer_progs() { cat /proc/$1/fdinfo/* 2>/dev/null | grep -c '^prog_tag:'; }
peer_links() { cat /proc/$1/fdinfo/* 2>/dev/null | grep -c '^link_type:'; }
# peer_kprobes F: the kprobes and kretprobes registered on F's entry (at
# +0x4 behind the endbr of IBT kernels; on arm64 up to +0xc, past the BTI
# and the two instructions of the ftrace call site)
peer_kprobes() { grep -c " $1+0x[0-9a-c] " /sys/kernel/debug/kprobes/list 2>/dev/null; }

# peer_perf PID: the perf events PID holds (bpftrace attaches a uprobe
# as one, with its program set on it: no BPF link, no kprobe)
peer_perf() {
	ls -l /proc/$1/fd 2>/dev/null | grep -c 'anon_inode:\[perf_event\]'
}

# peer_start NAME PROGS KPROBES LINKS PERF CMD...: start CMD in the
# background (its output in /tmp/peer.NAME, its pid in PEER_PID) and wait
# until it has loaded PROGS BPF programs and attached them: KPROBES
# kprobes on F, LINKS BPF links, PERF perf events (a uprobe's: bpftrace
# sets its program on the uprobe's perf event, no link, no kprobe).  Not the banner: redirected to a file, the tools'
# stdout is buffered until they exit.  bpftrace compiles its script with
# LLVM first (tens of seconds under TCG): at most PEER_WAIT s in all.
# Fails with ERR saying why (and CMD killed).
PEER_WAIT=300
peer_start() {
	local name=$1 np=$2 nk=$3 nl=$4 npe=$5 i=0
	shift 5
	"$@" > /tmp/peer.$name 2>&1 &
	PEER_PID=$!
	while [ $i -lt $((PEER_WAIT * 10)) ]; do
		if ! kill -0 $PEER_PID 2>/dev/null; then
			wait $PEER_PID
			ERR="exited $? before attaching: $(tail -n 3 /tmp/peer.$name | tr '\n' ' ')"
			return 1
		fi
		[ "$(peer_progs $PEER_PID)" -ge $np ] &&
			[ "$(peer_kprobes $F)" -ge $nk ] &&
			[ "$(peer_links $PEER_PID)" -ge $nl ] &&
			[ "$(peer_perf $PEER_PID)" -ge $npe ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	ERR="not attached after $PEER_WAIT s ($(peer_progs $PEER_PID) programs, $(peer_kprobes $F) kprobes, $(peer_links $PEER_PID) links, $(peer_perf $PEER_PID) perf events): $(tail -n 3 /tmp/peer.$name | tr '\n' ' ')"
	kill -KILL $PEER_PID 2>/dev/null
	wait $PEER_PID 2>/dev/null
	return 1
}

# peer_stop NAME: SIGINT, as a user ends them: both print their histogram
# then, and detach
peer_stop() {
	kill -INT $PEER_PID 2>/dev/null
	wait $PEER_PID
}

# bt_lat ENTRY RETURN [KEY [PRED]]: the bpftrace script of a latency
# histogram from the probe ENTRY to the probe RETURN of the same thread,
# per KEY ("[comm]": by the task's name) when given, counting the calls
# whose ENTRY meets PRED when given ("/comm == \"x\"/")
bt_lat() {
	echo "$1 ${4:+$4 }{ @s[tid] = nsecs; } $2 /@s[tid]/ { @h${3:-} = hist(nsecs - @s[tid]); delete(@s[tid]); }"
}

# peer_rows KIND FUNC: the added cost of the peers on the traced function
# FUNC, measured like the kstats rows (the peer attached, then killed);
# "BENCHPEER KIND_ROW COMMAND" gives each one's exact command line, and
# BENCHINFO the sample count the peer saw.
peer_rows() {
	local kind=$1 F=$2 bt BT kf
	[ "$PEERS" = 1 ] || return 0
	grep -q " /sys/fs/bpf " /proc/mounts || mount -t bpf bpf /sys/fs/bpf
	FL=$(command -v funclatency)
	BT=$(command -v bpftrace)

	# funclatency: a kprobe and a kretprobe on F, ns (its default unit);
	# a module's function by its plain name (a kprobe resolves it)
	if [ -z "$FL" ]; then
		na $kind peer_funclatency "funclatency (libbpf-tools) is not in this guest"
	elif peer_start funclatency 2 2 0 0 $FL $F; then
		echo "BENCHPEER ${kind}_peer_funclatency funclatency $F"
		measure $kind peer_funclatency
		peer_stop
		echo "BENCHINFO peer_funclatency $kind samples $(awk '/->/ { n += $5 } END { print n + 0 }' /tmp/peer.funclatency)"
	else
		na $kind peer_funclatency "$ERR"
	fi

	if [ -z "$BT" ]; then
		for r in bt_kprobe bt_kfunc bt_kstack bt_count bt_comm bt_bycomm \
			 bt_bycpu bt_ret bt_section; do
			na $kind peer_$r "bpftrace is not in this guest"
		done
		return 0
	fi
	# the task that makes the calls, as trace_rows names it
	pcomm=$(cat /proc/$$/comm)
	[ $kind = s ] && pcomm=getppid_bench
	# bpftrace: kprobe/kretprobe and kfunc/kretfunc with a hist, and a
	# bare count() at the entry.  kfunc needs F's BTF: a module's
	# function (the bench module's, with its BTF) is named MODULE:FUNC
	kf=$F
	m=$(awk -v f=$F '$3 == f && $4 ~ /^\[/ { gsub(/[][]/, "", $4); print $4; exit }' /proc/kallsyms)
	[ -z "$m" ] || kf=$m:$F
	# then the options of the kstats rows: a filter on the task's name,
	# the duration per task name and per CPU, the return value, and a
	# section on the system call's tracepoints (getppid() alone)
	for r in bt_kprobe bt_kfunc bt_kstack bt_count bt_comm bt_bycomm bt_bycpu \
		 bt_ret bt_section; do
		case $r in
		bt_kprobe) bt=$(bt_lat kprobe:$F kretprobe:$F)
			   set -- 2 2 0 ;;
		bt_kfunc)  bt=$(bt_lat kfunc:$kf kretfunc:$kf)
			   set -- 2 0 2 ;;
		bt_kstack) bt=$(bt_lat kfunc:$kf kretfunc:$kf '[kstack(8)]')
			   set -- 2 0 2 ;;
		bt_count)  bt="kfunc:$kf { @c = count(); }"
			   set -- 1 0 1 ;;
		bt_comm)   bt=$(bt_lat kfunc:$kf kretfunc:$kf "" "/comm == \"$pcomm\"/")
			   set -- 2 0 2 ;;
		bt_bycomm) bt=$(bt_lat kfunc:$kf kretfunc:$kf '[comm]')
			   set -- 2 0 2 ;;
		bt_bycpu)  bt=$(bt_lat kfunc:$kf kretfunc:$kf '[cpu]')
			   set -- 2 0 2 ;;
		bt_ret)    bt="kretfunc:$kf { @h = hist(retval); }"
			   set -- 1 0 1 ;;
		bt_section)
			if [ $kind = k ]; then
				na $kind peer_$r "no system call in the in-kernel loop"
				continue
			fi
			bt=$(bt_lat tracepoint:raw_syscalls:sys_enter tracepoint:raw_syscalls:sys_exit)
			set -- 2 0 0 ;;
		esac
		if peer_start $r "$@" 0 $BT -e "$bt"; then
			echo "BENCHPEER ${kind}_peer_$r bpftrace -e '$bt'"
			measure $kind peer_$r
			peer_stop
			echo "BENCHINFO peer_$r $kind $(grep -E '^@(c|h)|^\[' /tmp/peer.$r | sed 's/ *|[@ ]*|$//; s/  */ /g' | tr '\n' ' ' | cut -c1-400)"
		else
			na $kind peer_$r "$ERR"
		fi
	done
}

# The functions of the rows over many: every system call's, several
# hundred (__x64_sys_getppid is not ftrace-able on Debian's kernels;
# __do_sys_getppid is, and is among them).
GLOB='__*sys_*'

# peer_ready PID F: bpftrace has attached to F, by kprobes (one each for
# the entry and the return) or by BPF links (kprobe_multi, trampolines)
peer_ready() { [ "$(peer_kprobes $2)" -ge 2 ] || [ "$(peer_links $1)" -ge 2 ]; }

# peer_glob_rows KIND FUNC: bpftrace over the same functions as the rows
# over many, kprobe and kfunc wildcards with a hist.  Attached when FUNC
# is probed and the count of BPF programs and links has not moved for 5 s
# (a kfunc wildcard loads a program per function).
peer_glob_rows() {
	local kind=$1 F=$2 r bt n last same i BT
	[ "$PEERS" = 1 ] || return 0
	BT=$(command -v bpftrace)
	# without kprobe_multi (6.1), a perf event's fd per function and side
	ulimit -n 65536 2>/dev/null
	for r in bt_kprobe_glob bt_kfunc_glob bt_kfunc_glob_do; do
		if [ -z "$BT" ]; then
			na $kind peer_$r "bpftrace is not in this guest"
			continue
		elif [ $kind = k ]; then
			na $kind peer_$r "over the system calls: none in the in-kernel loop"
			continue
		fi
		case $r in
		bt_kprobe_glob) bt=$(bt_lat "kprobe:$GLOB" "kretprobe:$GLOB") ;;
		bt_kfunc_glob)  bt=$(bt_lat "kfunc:$GLOB" "kretfunc:$GLOB") ;;
		# the kernel refuses an fexit program on a function that may
		# not return (__x64_sys_exit...): the system calls' bodies alone
		bt_kfunc_glob_do) bt=$(bt_lat 'kfunc:__do_sys_*' 'kretfunc:__do_sys_*') ;;
		esac
		# bpftrace refuses over 512 probes unless told: a program (and,
		# for kfunc, a trampoline) per function and side
		BPFTRACE_MAX_PROBES=4096 $BT -e "$bt" > /tmp/peer.$r 2>&1 &
		PEER_PID=$!
		last=-1 same=0 i=0 ERR=
		while [ $i -lt $((PEER_WAIT * 2)) ]; do
			if ! kill -0 $PEER_PID 2>/dev/null; then
				wait $PEER_PID
				ERR="exited $? before attaching: $(tail -n 3 /tmp/peer.$r | tr '\n' ' ')"
				break
			fi
			n="$(peer_progs $PEER_PID) $(peer_links $PEER_PID) $(peer_kprobes $F)"
			if [ "$n" = "$last" ] && peer_ready $PEER_PID $F; then
				same=$((same + 1))
				[ $same -ge 10 ] && break
			else
				same=0
			fi
			last=$n
			sleep 0.5
			i=$((i + 1))
		done
		if [ -z "$ERR" ] && [ $same -lt 10 ]; then
			ERR="not attached after $PEER_WAIT s (programs, links, kprobes: $n)"
			kill -KILL $PEER_PID 2>/dev/null
			wait $PEER_PID 2>/dev/null
		fi
		if [ -n "$ERR" ]; then
			na $kind peer_$r "$ERR"
			continue
		fi
		echo "BENCHPEER ${kind}_peer_$r BPFTRACE_MAX_PROBES=4096 bpftrace -e '$bt'"
		echo "BENCHINFO peer_$r attached: programs, links, kprobes on $F: $n"
		measure $kind peer_$r
		peer_stop
	done
}

# rq_rows: run-queue latency, added to a pipe round trip (two wakeups and
# two switches on one CPU): untraced, kstats runqlat (the section the
# command writes, as a user's run does: its command line as BENCHPEER),
# the census (getppid and the round trip), and libbpf-tools runqlat (with
# PEERS=1)
rq_rows() {
	local PB=/kstats/bin/pipe_bench KS=/kstats/bin/kstats i=0 RQ
	if [ ! -x $PB ]; then
		for r in rq_untraced rq_kstats rq_peer; do
			na s $r "no pipe loop for this architecture"
		done
		return
	fi
	echo "BENCH s_rq_untraced $($PB 5000 5)"
	if [ ! -x $KS ]; then
		na s rq_kstats "the kstats command is not in this guest"
	else
		$KS runqlat -v > /tmp/rq.kstats 2>&1 &
		RQ=$!
		while [ ! -e /sys/kernel/debug/kstats/runqlat ] && [ $i -lt 300 ] &&
			kill -0 $RQ 2>/dev/null; do
			sleep 0.1
			i=$((i + 1))
		done
		if [ -e /sys/kernel/debug/kstats/runqlat ]; then
			echo "BENCHPEER s_rq_kstats $(grep -m1 '^trace ' /tmp/rq.kstats)"
			echo "BENCH s_rq_kstats $($PB 5000 5)"
			grep -E '^# (source|inflight)' /sys/kernel/debug/kstats/runqlat |
				sed 's/^/BENCHINFO rq_kstats /'
		else
			na s rq_kstats "kstats runqlat: $(tail -n 2 /tmp/rq.kstats | tr '\n' ' ')"
		fi
		kill -INT $RQ 2>/dev/null
		wait $RQ
	fi
	# the census: made by `kstats census start`, which exits; then one
	# getppid() (the syscall family fires) and a pipe round trip (the
	# run queue, off-CPU and syscall sections) with no tool running
	if [ ! -x $KS ]; then
		na s census "the kstats command is not in this guest"
		na s rq_census "the kstats command is not in this guest"
	elif $KS census start > /tmp/census.out 2>&1; then
		echo "BENCHPEER s_census $(grep '^census: ' /tmp/census.out)"
		measure s census
		echo "BENCH s_rq_census $($PB 5000 5)"
		$KS census stop > /dev/null 2>&1 ||
			echo "BENCHINFO census stop failed"
	else
		na s census "kstats census start: $(tail -n 2 /tmp/census.out | tr '\n' ' ')"
		na s rq_census "kstats census start failed"
	fi
	# explain's context: `kstats explain -d` recording (its context
	# nodes made, the tool asleep for the window) beside a node with a
	# history, on the pipe's read: a getppid() (interrupts' and the
	# scheduler's tracepoints only) and a pipe round trip (its wakeups
	# and switches in runqlat's and ivcsw's nodes)
	if [ ! -x $KS ]; then
		na s explain "the kstats command is not in this guest"
		na s rq_explain "the kstats command is not in this guest"
	elif try "echo 'trace pipe_read name xb history 10000000 12000' > /sys/kernel/debug/kstats/_control"; then
		$KS explain -d 600 -v xb > /tmp/explain.out 2> /tmp/explain.err &
		RQ=$! i=0
		# ivcsw is the last context node made: then the window begins
		until grep -q '^trace tp:sched:sched_switch name explain_ctx' /tmp/explain.err &&
			[ -e "/sys/kernel/debug/kstats/$(sed -n 's/^trace tp:sched:sched_switch name \([^ ]*\) .*/\1/p' /tmp/explain.err)" ]; do
			kill -0 $RQ 2>/dev/null && [ $i -lt 600 ] || break
			sleep 0.1
			i=$((i + 1))
		done
		if kill -0 $RQ 2>/dev/null; then
			echo "BENCHPEER s_explain kstats explain -d 600 xb: $(grep -c '^trace ' /tmp/explain.err) context nodes"
			measure s explain
			echo "BENCH s_rq_explain $($PB 5000 5)"
			kill -INT $RQ 2>/dev/null
		else
			na s explain "kstats explain: $(tail -n 2 /tmp/explain.err | tr '\n' ' ')"
			na s rq_explain "kstats explain failed"
		fi
		wait $RQ
		try "echo 'remove xb' > /sys/kernel/debug/kstats/_control" ||
			echo "BENCHINFO explain remove failed: $ERR"
	else
		na s explain "$ERR"
		na s rq_explain "$ERR"
	fi
	# why: a node with "why" whose function is not called (the
	# scheduler's tracepoints registered, no task in such a call); then
	# the pipe's read traced with outliers, without and with why (every
	# switch of the round trip then in a why call)
	for v in why_idle pipe_slow pipe_why; do
		case $v in
		why_idle) opt="$F name wb slow 9223372036854775807 why" ;;
		pipe_slow) opt="pipe_read name wb slow 9223372036854775807" ;;
		pipe_why) opt="pipe_read name wb slow 9223372036854775807 why" ;;
		esac
		if try "echo 'trace $opt' > /sys/kernel/debug/kstats/_control"; then
			echo "BENCHPEER s_rq_$v trace $opt"
			echo "BENCH s_rq_$v $($PB 5000 5)"
			grep -E '^# (source|why)' /sys/kernel/debug/kstats/wb |
				sed "s/^/BENCHINFO rq_$v /"
			try "echo 'remove wb' > /sys/kernel/debug/kstats/_control" ||
				echo "BENCHINFO rq_$v remove failed: $ERR"
		else
			na s rq_$v "$ERR"
		fi
	done
	if [ "$PEERS" != 1 ]; then
		return
	fi
	# the peers' way to the same answer: offcputime and runqlat at once
	if [ -z "$(command -v offcputime)" ] || [ -z "$(command -v runqlat)" ]; then
		na s rq_peer_why "offcputime or runqlat (libbpf-tools) is not in this guest"
	elif F=none peer_start offcputime 1 0 1 0 offcputime; then
		OFF=$PEER_PID
		if F=none peer_start runqlat 3 0 3 0 runqlat; then
			echo "BENCHPEER s_rq_peer_why offcputime & runqlat"
			echo "BENCH s_rq_peer_why $($PB 5000 5)"
			peer_stop
		else
			na s rq_peer_why "runqlat: $ERR"
		fi
		PEER_PID=$OFF
		peer_stop
	else
		na s rq_peer_why "offcputime: $ERR"
	fi
	if [ -z "$(command -v runqlat)" ]; then
		na s rq_peer "runqlat (libbpf-tools) is not in this guest"
	elif F=none peer_start runqlat 3 0 3 0 runqlat; then
		echo "BENCHPEER s_rq_peer runqlat"
		echo "BENCH s_rq_peer $($PB 5000 5)"
		peer_stop
	else
		na s rq_peer "$ERR"
	fi
}

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
	# and families: the duration split by task name, by CPU; outliers: a
	# call that is not one (slow over any duration; top 16, whose bar is
	# the 16th largest so far), and every call kept with 16 frames; a
	# call that is not slow, split (why)
	# the task that makes the calls: this shell for the in-kernel loop
	# (its write runs it), the loop's own for getppid()
	ccomm=$(cat /proc/$$/comm)
	[ $kind = s ] && ccomm=getppid_bench
	for v in default fprobe kretprobe tsc fprobe-tsc kretprobe-tsc value-arg \
		 value-ret filter filter-comm filter-cgroup family-comm family-cpu \
		 family-caller family-cgroup family-stack slow slow-stack slow-fprobe top \
		 top-fprobe capture capture-fprobe slow-why slow-why-fprobe \
		 history history-fprobe; do
		case $v in
		default) opt= ;;
		fprobe) opt=" mech fprobe" ;;
		fprobe-tsc) opt=" mech fprobe clock $CYC" ;;
		kretprobe) opt=" mech kretprobe" ;;
		tsc) opt=" clock $CYC" ;;
		kretprobe-tsc) opt=" mech kretprobe clock $CYC" ;;
		value-arg) opt=" value arg0" ;;
		value-ret) opt=" value ret" ;;
		filter) opt=" cpu 0" ;;
		filter-comm) opt=" comm $ccomm" ;;
		family-comm) opt=" by comm" ;;
		family-cpu) opt=" by cpu" ;;
		family-caller) opt=" by caller" ;;
		family-cgroup) opt=" by cgroup" ;;
		family-stack) opt=" by stack 8" ;;
		filter-cgroup) opt=" cgroup /" ;;
		slow) opt=" slow 9223372036854775807" ;;
		slow-stack) opt=" slow 9223372036854775807 stack 8" ;;
		slow-fprobe) opt=" mech fprobe slow 9223372036854775807" ;;
		top) opt=" top 16" ;;
		top-fprobe) opt=" mech fprobe top 16" ;;
		capture) opt=" slow 0 keep 64 stack 16" ;;
		capture-fprobe) opt=" mech fprobe slow 0 keep 64 stack 16" ;;
		slow-why) opt=" slow 9223372036854775807 why" ;;
		slow-why-fprobe) opt=" mech fprobe slow 9223372036854775807 why" ;;
		history) opt=" history 10000000 12000" ;;
		history-fprobe) opt=" mech fprobe history 10000000 12000" ;;
		esac
		if try "echo 'trace $F name $N$opt' > $KC"; then
			measure $kind kstats_$v
			grep -E '^# (name|clock|source|family|outliers|why)' /sys/kernel/debug/kstats/$N 2>/dev/null |
				sed "s/^/BENCHINFO kstats_trace_$v /"
			try "echo 'remove $N' > $KC" ||
				echo "BENCHINFO kstats_trace_$v remove failed: $ERR"
		else
			na $kind kstats_$v "$ERR"
		fi
	done

	# what the kernel charges any section on the system call's
	# tracepoints: empty probes on both (the bench module)
	if [ $kind = k ]; then
		na $kind floor_syscalls "no system call in the in-kernel loop"
	elif try "echo 'floor tracepoint raw_syscalls on' > $B/ctl"; then
		measure $kind floor_syscalls
		run "floor tracepoint raw_syscalls off" | grep BENCHINFO
	else
		na $kind floor_syscalls "$ERR"
	fi
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

	[ $kind = s ] && rq_rows

	# a node over several hundred functions (the system calls, FUNC
	# among them, on one direct slot): one distribution, and one
	# histogram per function
	for v in multi multi-func; do
		opt=
		[ $v = multi-func ] && opt=" by func"
		if [ $kind = k ]; then
			na $kind kstats_$v "a node over the system calls: no system call in the in-kernel loop"
		elif try "echo 'trace $GLOB name $N$opt' > $KC"; then
			measure $kind kstats_$v
			grep -E '^# (source|functions|family)' /sys/kernel/debug/kstats/$N 2>/dev/null |
				sed "s/^/BENCHINFO kstats_trace_$v /"
			try "echo 'remove $N' > $KC" ||
				echo "BENCHINFO kstats_trace_$v remove failed: $ERR"
		else
			na $kind kstats_$v "$ERR"
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

	peer_rows $kind $F
	peer_glob_rows $kind $F

	measure $kind untraced_end
}

# uprobe_rows: a user program's function, uprobe_bench's ub_target(): its
# cost untraced, under kstats' "trace PATH:FUNC" (a uprobe and a
# uretprobe) and under bpftrace's uprobe/uretprobe hist() of the same
# calls, in the same boot
uprobe_rows() {
	local U=$UB:ub_target bt BT
	if [ ! -x $UB ]; then
		for r in untraced kstats peer_bt_uprobe; do na u $r "no uprobe_bench in this guest"; done
		return 0
	fi
	echo "BENCHINFO uprobe_target $U"
	measure u untraced
	if try "echo 'trace $U name bench_uprobe' > $KC"; then
		measure u kstats
		grep -E '^# (name|source)|^samples' /sys/kernel/debug/kstats/bench_uprobe 2>/dev/null |
			sed "s/^/BENCHINFO kstats_uprobe /"
		try "echo 'remove bench_uprobe' > $KC" ||
			echo "BENCHINFO kstats_uprobe remove failed: $ERR"
	else
		na u kstats "$ERR"
	fi
	BT=$(command -v bpftrace)
	if [ "$PEERS" != 1 ] || [ -z "$BT" ]; then
		na u peer_bt_uprobe "bpftrace is not in this guest"
	else
		bt=$(bt_lat uprobe:$U uretprobe:$U)
		# attached: its two programs, each on its uprobe's perf event
		if peer_start bt_uprobe 2 0 0 2 $BT -e "$bt"; then
			echo "BENCHPEER u_peer_bt_uprobe bpftrace -e '$bt'"
			measure u peer_bt_uprobe
			peer_stop
			echo "BENCHINFO peer_bt_uprobe u $(grep -E '^@h|^\[' /tmp/peer.bt_uprobe | sed 's/ *|[@ ]*|$//; s/  */ /g' | tr '\n' ' ' | cut -c1-400)"
		else
			na u peer_bt_uprobe "$ERR"
		fi
	fi
	measure u untraced_end
}

for p in $PARTS; do
	case $p in
	record)	run record ;;
	memory)	run memory ;;
	trace)
		trace_rows k kstats_bench_target bench_target
		# the syscall's body: __do_sys_getppid where it is not inlined
		# (Debian 6.12: __x64_sys_getppid is not ftrace-able there),
		# else the architecture's wrapper
		S=__x64_sys_getppid
		[ "$(uname -m)" = aarch64 ] && S=__arm64_sys_getppid
		grep -q '^__do_sys_getppid' $T/available_filter_functions 2>/dev/null &&
			S=__do_sys_getppid
		trace_rows s $S bench_getppid
		;;
	uprobe)	uprobe_rows ;;
	scale)
		run "scale $NCPUS $SCALE_MS"
		# one key of a family on every CPU: per CPU once hot (the
		# default), then shared (family_hot_keys 0); each family's
		# "# family" line as BENCHKEYMEM LABEL WORD=VALUE...
		HK=/sys/module/kstats/parameters/family_hot_keys
		hk=$(cat $HK)
		for label in percpu shared; do
			[ $label = shared ] && echo 0 > $HK
			run "scalekey $NCPUS $SCALE_MS $label"
			grep -m1 '^# family' /sys/kernel/debug/kstats/bench_key_$label |
				awk -v l=$label '{ printf "BENCHKEYMEM %s", l
					for (i = 3; i < NF; i += 2) printf " %s=%s", $i, $(i + 1)
					print "" }'
		done
		echo "$hk" > $HK
		;;
	esac
done
rmmod kstats_bench
rmmod kstats || echo "BENCHINFO rmmod kstats failed"
echo "BENCHINFO done"
