# SPDX-License-Identifier: GPL-2.0
#
# TAP helpers for the guest integration suite (busybox sh).  Sourced by
# run.sh before every t-*.sh, so the test numbers run on across files.

KS=/sys/kernel/debug/kstats
KB=/kstats
T_N=${T_N:-0}
T_FAIL=${T_FAIL:-0}

ok() { T_N=$((T_N + 1)); echo "ok $T_N - $*"; }
not_ok() { T_N=$((T_N + 1)); T_FAIL=$((T_FAIL + 1)); echo "not ok $T_N - $*"; }
skip() { T_N=$((T_N + 1)); echo "ok $T_N - $1 # SKIP $2"; }
diag() { echo "# $*"; }

# check DESC CMD...: passes when CMD succeeds.  Its output goes to a file
# of this shell's own: the host scripts that source this file run side by
# side (tests/install-test.sh, tests/prom-e2e.sh).
T_OUT=${TMPDIR:-/tmp}/kstats-check.$$
check() {
	local d=$1
	shift
	if "$@" >"$T_OUT" 2>&1; then ok "$d"; else
		not_ok "$d"; sed 's/^/#   /' "$T_OUT" | head -n 20; fi
	rm -f "$T_OUT"
}

# kstats_bg OUT ARGS...: kstats ARGS in the background ($KBG its pid), its
# output in OUT; back once it says "Tracing" (its node attached), which is
# what a user waits for; false if it never does
kstats_bg() {
	local out=$1 i=0
	shift
	: > "$out"
	kstats "$@" > "$out" 2>"$out.err" &
	KBG=$!
	until grep -q '^Tracing' "$out"; do
		kill -0 $KBG 2>/dev/null || return 1
		[ $i -ge 1200 ] && return 1
		sleep 0.05
		i=$((i + 1))
	done
}

# expect DESC GOT WANT: passes when the two strings are equal.
expect() {
	if [ "$2" = "$3" ]; then ok "$1"; else
		not_ok "$1"; diag "  got:  '$2'"; diag "  want: '$3'"; fi
}

# expect_match DESC TEXT REGEX (grep -E).
expect_match() {
	if printf '%s\n' "$2" | grep -Eq -- "$3"; then ok "$1"; else
		not_ok "$1"; diag "  no match for /$3/ in:"
		printf '%s\n' "$2" | head -n 10 | sed 's/^/#     /'; fi
}

# field FILE TAG KEY: the value after KEY on the "# TAG" header line
# (TAG "name" is the first header line).
field() {
	grep -m1 "^# $2 " "$1" | awk -v k="$3" '{ for (i = 2; i < NF; i++) if ($i == k) { print $(i + 1); exit } }'
}

# uptime_cs: the time since boot, in hundredths of a second.
uptime_cs() {
	local u
	read -r u _ < /proc/uptime
	echo "${u%.*}${u#*.}" | sed 's/^0*//; s/^$/0/'
}

# wait_asleep PID: until task PID is asleep (state S or D), at most 10 s:
# a task about to wait in a traced function has entered it.
wait_asleep() {
	local i=0 st
	while [ $i -lt 100 ]; do
		st=$(sed 's/^.*) \(.\).*/\1/' /proc/$1/stat 2>/dev/null)
		case $st in S | D) return 0 ;; esac
		i=$((i + 1))
		sleep 0.1
	done
	return 1
}

# --- what differs between the architectures the suite runs on (x86-64,
# arm64), for the tests that name a system call's function, its number,
# the registers a raw_syscalls tracepoint passes, or the cycle counter
case $(uname -m) in
aarch64 | arm64)
	# the system call wrappers, __arm64_sys_NAME
	SYS_PFX=__arm64_sys_
	# asm-generic/unistd.h
	NR_read=63 NR_pread64=67 NR_clock_nanosleep=115 NR_kill=129 NR_getppid=173
	NR_sched_setaffinity=122 NR_getpid=172
	# struct pt_regs: regs[N] at 8 * N; the system call's number is
	# syscallno, an s32 after pstate and orig_x0
	REGS_ARG0=+0 REGS_ARG1=+8:8 REGS_ARG2=+16 REGS_ARG3=+24 REGS_NR=+280:s4
	# the clock of the cycle counter (cntvct_el0): cycles; the
	# clocksource that is that counter
	CYC=cycles CYC_CS=arch_sys_counter
	# kstats_many_wide8's eight arguments: all in x0-x7
	WIDE8_STACK=0
	# the seconds that many functions may always take to attach or
	# detach directly, however fast one update was (t-22's m_bound); TCG
	# emulates arm64's text patching slowly
	MANY_S=8
	;;
*)
	SYS_PFX=__x64_sys_
	NR_read=0 NR_pread64=17 NR_clock_nanosleep=230 NR_kill=62 NR_getppid=110
	NR_sched_setaffinity=203 NR_getpid=39
	# struct pt_regs: di, si, dx and r10 (a system call's first four
	# arguments), orig_ax (its number)
	REGS_ARG0=+112 REGS_ARG1=+104:8 REGS_ARG2=+96 REGS_ARG3=+56 REGS_NR=+120:8
	# clock cycles is the TSC here, and its node says clock tsc
	CYC=tsc CYC_CS=tsc
	# kstats_many_wide8's eight arguments: two on the stack
	WIDE8_STACK=2
	MANY_S=2
	;;
esac

# sys_fn NAME: the function to trace for system call NAME: its body,
# __do_sys_NAME, where the compiler kept one, else the wrapper of the
# architecture ($SYS_PFX NAME); nothing, and false, if neither exists.
sys_fn() {
	local s
	for s in "__do_sys_$1" "$SYS_PFX$1"; do
		grep -q " $s$" /proc/kallsyms && echo "$s" && return 0
	done
	return 1
}

# have_raw_syscalls: the kernel has the raw_syscalls tracepoints: their
# data symbol, or their events where kallsyms lists no data (Debian 6.1
# arm64 has no CONFIG_KALLSYMS_ALL)
have_raw_syscalls() {
	grep -q '__tracepoint_sys_enter$' /proc/kallsyms ||
		[ -d /sys/kernel/tracing/events/raw_syscalls ] ||
		[ -d /sys/kernel/debug/tracing/events/raw_syscalls ]
}

# direct_built: kstats has its direct trampoline (mech/kstats_direct*.c and
# its .S) here, built for x86-64 and arm64 kernels with ftrace's direct
# calls.  Elsewhere
# (Debian's arm64 6.1) the default mechanism is fprobe or kretprobe, and a
# node over several functions falls back whole to them.
direct_built() {
	case $(uname -m) in
	x86_64|aarch64) grep -q ' register_ftrace_direct' /proc/kallsyms ;;
	*) return 1 ;;
	esac
}
# no_direct: why kstats cannot trace directly here, or nothing where it
# can: the trampoline also takes a function's prototype from the BTF.
no_direct() {
	if [ "$(uname -m)" != x86_64 ] && [ "$(uname -m)" != aarch64 ]; then
		echo "kstats' direct trampoline is x86-64's and arm64's, this is $(uname -m)"
	elif ! direct_built; then
		echo "no ftrace direct calls in this kernel"
	elif [ ! -r /sys/kernel/btf/vmlinux ]; then
		echo "no BTF in this kernel"
	fi
}

# ctl FILE TEXT: one write(); prints ok or the errno name.
ctl() { kload ctl "$1" "$2"; }

# err_entry N: the Nth entry of _errors (1 the oldest), its three lines,
# the time stamp left out.
err_entry() {
	sed 's/^\[ *[0-9]*\.[0-9]\{6\}\] //' $KS/_errors | sed -n "$((3 * $1 - 2)),$((3 * $1))p"
}

# err_want LOC REASON CMD WORD: the entry _errors shows for CMD refused at
# its word WORD (its first occurrence after a blank, or its first word;
# "" for a word missing at the end), as err_entry prints it: the caret
# under the word, past the "  Command: " prefix.
err_want() {
	local pre col
	case $3 in
	"$4" | "$4 "*) col=0 ;;
	*)	pre=${3%%" $4"*}
		col=$((${#pre} + 1)) ;;
	esac
	[ -n "$4" ] || col=$((${#3} + 1))
	printf '%s: error: %s\n  Command: %s\n%'$((11 + col))'s^\n' "$1" "$2" "$3" ""
}

# dmesg_has REGEX: the kernel log, since the last dmesg_mark, matches.
dmesg_mark() { dmesg -c >/dev/null; }
dmesg_has() { dmesg | grep -Eq -- "$1"; }

# v_hist FILE V:N...: the all-CPU slot rows of FILE hold exactly N samples
# of each value V, and nothing else: prints ok, else what differs.  The
# bounds come from each row's lo and hi, so values sharing a slot add up.
v_hist() {
	local f=$1
	shift
	awk -v spec="$*" '
	BEGIN {
		n = split(spec, s, " ")
		for (i = 1; i <= n; i++) {
			split(s[i], p, ":"); v[i] = p[1] + 0; c[i] = p[2] + 0; want += c[i]
		}
	}
	$1 == "slot" && $3 == "CPUS" {
		for (k = 4; k < NF; k++) {
			if ($k == "count") cnt = $(k + 1) + 0
			if ($k == "lo") lo = $(k + 1) + 0
			if ($k == "hi") hi = $(k + 1) + 0
		}
		e = 0
		for (i = 1; i <= n; i++)
			if (v[i] >= lo && v[i] <= hi) { e += c[i]; seen[i] = 1 }
		if (e != cnt) { printf "slot %s..%s has %d, want %d; ", $(12), $(14), cnt, e; bad = 1 }
		got += cnt
	}
	END {
		for (i = 1; i <= n; i++)
			if (!seen[i] && c[i]) { printf "no slot holds %s; ", s[i]; bad = 1 }
		if (got != want) { printf "%d samples in the slots, want %d; ", got, want; bad = 1 }
		print bad ? "" : "ok"
	}' "$f"
}

# --- the peers: Debian's libbpf-tools, which tests/check.sh copies into
# Debian 6.12's integration boot with /kstats/peers.want (lib.sh peer_adds)

# peer_tool NAME: its path, or nothing
peer_tool() {
	command -v "$1" 2>/dev/null || { [ -x "/usr/sbin/$1" ] && echo "/usr/sbin/$1"; }
}
# peer_need DESC NAME PATH: whether DESC can run against the peer NAME found
# at PATH; if not, a failure where the host copied the peers in (they must
# run there), a SKIP naming the reason elsewhere
peer_need() {
	[ -n "$3" ] && return 0
	if [ -f /kstats/peers.want ]; then
		not_ok "$1: $2 (libbpf-tools) is missing from this guest"
	else
		skip "$1" "$2 (libbpf-tools) is not in this guest: only Debian 6.12's boot gets the peers"
	fi
	return 1
}
# peer_wait PID: until the peer PID has loaded its BPF programs (prog_tag
# lines in its fdinfo; redirected to a file, its "Tracing" banner stays
# buffered until it exits) and attached them (its BPF links, counted
# until they stay the same for 0.5 s); at most 60 s.  Fails if the peer
# exited or never got there.
peer_wait() {
	local i=0 n last=-1 same=0
	while [ $i -lt 600 ] && kill -0 "$1" 2>/dev/null; do
		if cat /proc/$1/fdinfo/* 2>/dev/null | grep -q '^prog_tag:'; then
			n=$(cat /proc/$1/fdinfo/* 2>/dev/null | grep -c '^link_type:')
			if [ "$n" -gt 0 ] && [ "$n" = "$last" ]; then
				same=$((same + 1))
				[ $same -ge 5 ] && return 0
			else
				same=0
			fi
			last=$n
		fi
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# peer_hist FILE: "N LOG2" of a libbpf-tools histogram: the samples, and
# the log2 bucket of the median (index i: [2^i, 2^(i+1)) of its unit, 0
# also holds 0)
peer_hist() {
	awk '/^ *[0-9]+ -> [0-9]+ *:/ { lo[n] = $1; c[n] = $5; tot += $5; n++ }
	END {
		r = int((tot + 1) / 2); s = 0; b = -1
		for (i = 0; i < n && b < 0; i++) {
			s += c[i]
			if (s >= r) { b = 0; for (v = lo[i]; v > 1; v = int(v / 2)) b++ }
		}
		print tot + 0, b
	}' "$1"
}
# our_hist FILE [DIV]: the same of kstats' output (its "# summary" line:
# samples, and p50 in ns divided by DIV, default 1000: us)
our_hist() {
	awk -v div="${2:-1000}" '/^# summary / { for (i = 2; i < NF; i++) { if ($i == "samples") n = $(i + 1); if ($i == "p50") p = $(i + 1) } }
	END { v = int(p / div); b = 0; while (v > 1) { v = int(v / 2); b++ } print n + 0, b }' "$1"
}

# readme_run DIR OUT LINE: a README line run as its root shell would (sudo
# being the root the guest is), from DIR, with no input (the suites read
# the README's lines from theirs); its output in OUT, its exit status
# returned.  The quick start's (t-31) and the examples' (t-32) runner.
readme_run() {
	(
		sudo() { "$@"; }
		cd "$1" && eval "$3"
	) < /dev/null > "$2" 2>&1
}
