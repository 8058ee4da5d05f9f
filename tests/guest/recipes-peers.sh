# SPDX-License-Identifier: GPL-2.0
#
# The recipes against their peers (sourced by t-27-recipes.sh): on the same
# workload, over the same window, `kstats runqlat` and libbpf-tools'
# runqlat, `kstats biolatency` and biolatency must count within 15 % of
# each other and put the median in the same or an adjacent log2 bucket.
# Runs where the guest has the tools (Debian's libbpf-tools, in PATH or
# /usr/sbin); a tool missing or failing to start fails where the host
# copied them in (Debian 6.12, /kstats/peers.want), elsewhere a SKIP names
# the missing tool.  Both outputs are printed as diagnostics (README).
#
# Both tracers are started, each is waited for until it has attached (the
# peer: its BPF programs, tests/guest/lib.sh peer_wait; kstats: its node),
# the workload runs, and both end on their own (-d / interval and count).

# peer_check NAME OURS PEERS: counts within 15 %, medians within a bucket
peer_check() {
	local n1 b1 n2 b2
	read -r n1 b1 <<EOF
$(our_hist "$2")
EOF
	read -r n2 b2 <<EOF
$(peer_hist "$3")
EOF
	diag "$1: kstats $n1 samples, median bucket 2^$b1 us; peer $n2 samples, 2^$b2 us"
	expect "$1 vs libbpf-tools: counts within 15 % ($n1, $n2)" \
		"$(awk -v a="$n1" -v b="$n2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = a > b ? a : b; print (m > 0 && d <= 0.15 * m) ? "yes" : "no" }')" yes
	expect "$1 vs libbpf-tools: medians in the same or adjacent log2 bucket (2^$b1, 2^$b2 us)" \
		"$(d=$((b1 - b2)); [ "$d" -ge -1 ] && [ "$d" -le 1 ] && echo yes)" yes
}
# peer_run NAME WORKLOAD [OPTION...]: both tracers over the same 10 s (the
# peer's interval and count, kstats' -d), with the OPTIONs both take,
# WORKLOAD once both are attached, then the checks and both outputs
peer_run() {
	local n=$1 w=$2 pp kp
	shift 2
	"$PEER" "$@" 10 1 > $P.peer 2>&1 &
	pp=$!
	kstats $n "$@" -d 10 > $P.ours 2>&1 &
	kp=$!
	if ! peer_wait $pp; then
		not_ok "$n (libbpf-tools) attaches its BPF programs"
		sed 's/^/#   /' $P.peer | head -n 20
		kill -KILL $pp 2>/dev/null
		wait
		return
	fi
	r_wait $n
	sh -c "$w"
	wait $pp
	wait $kp
	peer_check "$n${1:+ $*}" $P.ours $P.peer
	expect "kstats $n${1:+ $*}: nothing lost (missed 0), every probe of its tracepoints' own prototype" \
		"$(field $P.ours name missed) $(grep -c '^# source .* probes typed$' $P.ours)" "0 1"
	diag "kstats $n $* -d 10, while $w:"
	sed 's/^/#   /' $P.ours
	diag "$PEER $* 10 1 (libbpf-tools), the same window:"
	sed 's/^/#   /' $P.peer
}

P=/tmp/peer
PEER=$(peer_tool runqlat)
# wakeups of sleepers on 2 CPUs: 2 x 400 sleeps of 1 ms, one sleeper a
# CPU; then a CPU-bound task and a 1 ms sleeper pinned to CPU 0, where
# every wakeup of the sleeper and every tick preempts one of them: both
# tools count a task enqueued at a wakeup, a first wakeup and a switch out
# while still runnable
if peer_need "runqlat vs libbpf-tools" runqlat "$PEER"; then
	peer_run runqlat "for i in 1 2; do kvalue sleep 1000 400 & done; wait"
	peer_run runqlat "taskset -c 0 sh -c 'while :; do :; done' & h=\$!; taskset -c 0 kvalue sleep 1000 400; kill \$h"
fi

PEER=$(peer_tool biolatency)
if [ ! -b /dev/nullb0 ]; then
	skip "biolatency vs libbpf-tools" "no null_blk device in this guest"
elif peer_need "biolatency vs libbpf-tools" biolatency "$PEER"; then
	peer_run biolatency "kdio /dev/nullb0 4096 400"
	# -Q: from the insertion into mq-deadline's queue
	echo mq-deadline > /sys/block/nullb0/queue/scheduler 2>/dev/null
	peer_run biolatency "kdio /dev/nullb0 4096 400" -Q
fi

# offcpu --by stack against offcputime: one task sleeping 20 ms at a time
# in clock_nanosleep, both tracing it (-p / --pid) over 3 s: the same top
# stack, frame for frame from the scheduler to the system call entry (the
# peer's own BPF frames and the tracepoint's iterator left out, offsets
# dropped: the peer prints names), and off-CPU totals within 25 %
PEER=$(peer_tool offcputime)
if peer_need "offcpu --by stack vs offcputime" offcputime "$PEER"; then
	kvalue -n koff sleep 20000 600 &
	w=$!
	"$PEER" -p $w 3 > $P.peer 2>&1 &
	pp=$!
	if peer_wait $pp; then
		# FRAMES VALUE: each stack's off-CPU time (ns), root first
		kstats offcpu --by stack:16 --pid $w -d 3 --folded > $P.ours 2>&1 &
		kp=$!
		r_wait offcpu
		wait $kp
		wait $pp
		# the top stack of each, root first, names only
		ours_top=$(awk 'NF == 2 && $2 + 0 > best { best = $2 + 0; top = $1 }
			END { n = split(top, f, ";"); for (i = 1; i <= n; i++) { sub(/[+]0x[0-9a-f]+$/, "", f[i]); if (f[i] !~ /^__traceiter_/) s = s (s == "" ? "" : ";") f[i] } print s }' $P.ours)
		peer_top=$(awk 'BEGIN { RS = ""; FS = "\n" }
			{ f = ""; v = $NF + 0
			  for (i = 1; i < NF; i++) { l = $i; sub(/^ +/, "", l)
				if (l ~ /^-/) break
				if (l ~ /^(bpf_|__traceiter_|\[unknown\]|Unknown)/) continue
				f = l (f == "" ? "" : ";") f }
			  if (v > best) { best = v; top = f } }
			END { print top }' $P.peer)
		diag "offcpu top stack: kstats $ours_top | offcputime $peer_top"
		expect "offcpu --by stack vs offcputime: the same top stack, from the system call entry to the scheduler" \
			"$(echo "$ours_top" | grep -o 'entry_SYSCALL.*')" "$(echo "$peer_top" | grep -o 'entry_SYSCALL.*')"
		expect "offcpu --by stack: the top stack sleeps in do_nanosleep" \
			"$(echo "$ours_top" | grep -c ';do_nanosleep;schedule')" 1
		ours_us=$(awk 'NF == 2 { t += $2 } END { printf "%d", t / 1000 }' $P.ours)
		peer_us=$(awk 'BEGIN { RS = ""; FS = "\n" } { t += $NF } END { printf "%d", t }' $P.peer)
		expect "offcpu --by stack vs offcputime: off-CPU totals within 25 % ($ours_us us, $peer_us us)" \
			"$(awk -v a="$ours_us" -v b="$peer_us" 'BEGIN { d = a - b; if (d < 0) d = -d; m = a > b ? a : b; print (m > 0 && d <= 0.25 * m) ? "yes" : "no" }')" yes
	else
		not_ok "offcputime (libbpf-tools) attaches its BPF programs"
		sed 's/^/#   /' $P.peer | head -n 20
		kill -KILL $pp 2>/dev/null
	fi
	kill $w 2>/dev/null
	wait
	diag "kstats offcpu --by stack:16 --pid PID -d 3 --folded:"
	sed 's/^/#   /' $P.ours | head -n 60
	diag "$PEER -p PID 3 (libbpf-tools), about the same window:"
	sed 's/^/#   /' $P.peer | head -n 40
fi
