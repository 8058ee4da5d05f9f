# SPDX-License-Identifier: GPL-2.0
#
# kstats' trace against libbpf-tools' funclatency (sourced by
# t-20-trace.sh).  Both trace the same function at once over the same
# calls of a static helper, and both must count exactly those calls:
#  - getppid()'s body ($SYM) for N calls of kload: the counts;
#  - hrtimer_nanosleep() for N sleeps of 1.5 ms by kvalue, filtered to
#    its pid on both sides: the counts, and the medians (ns) in the same or
#    an adjacent log2 bucket.  Not getppid's: its body is ~100 ns and the
#    interval funclatency measures also holds its kretprobe trampoline and
#    part of its BPF handlers (two buckets above kstats' under TCG, shown
#    as a diagnostic); a sleep's duration is the kernel's, not the probes'.
# funclatency missing or failing to start fails where the host copied the
# peers in (Debian 6.12, /kstats/peers.want); elsewhere a SKIP.

# fl_vs DESC NODE FUNC FL-ARGS WORKLOAD: kstats' NODE (already made on
# FUNC) and `funclatency FL-ARGS FUNC` while WORKLOAD runs; sets n1 b1 n2
# b2 (samples and median log2 bucket in ns of each), prints both
fl_vs() {
	local pp
	n1= b1= n2= b2=
	"$FL" $4 $3 > $P.fl 2>&1 &
	pp=$!
	if ! peer_wait $pp; then
		not_ok "$1: funclatency attaches its BPF programs"
		sed 's/^/#   /' $P.fl | head -n 20
		kill -KILL $pp 2>/dev/null
		wait $pp
		return 1
	fi
	kload ctl $KS/$2 reset > /dev/null
	# in this shell: a child sh would call getppid() itself, and could
	# not wait for kvalue
	eval "$5"
	cat $KS/$2 > $P.ours
	kill -INT $pp
	wait $pp
	read -r n1 b1 <<EOF2
$(our_hist $P.ours 1)
EOF2
	read -r n2 b2 <<EOF2
$(peer_hist $P.fl)
EOF2
	diag "$1: kstats $n1 samples, median bucket 2^$b1 ns; funclatency $n2 samples, 2^$b2 ns"
	diag "funclatency ${4:+$4 }$3, the same calls:"
	sed 's/^/#   /' $P.fl
}

FL=$(peer_tool funclatency)
if peer_need "trace vs funclatency" funclatency "$FL"; then
	check "insmod kstats.ko (trace vs funclatency)" insmod $KB/kstats.ko
	grep -q ' /sys/fs/bpf ' /proc/mounts || mount -t bpf bpf /sys/fs/bpf
	P=/tmp/peer
	N=3000
	# only kload calls getppid() here: both see its N calls alone
	expect "trace $SYM as pp_peer" "$(ctl $KS/_control "trace $SYM name pp_peer")" ok
	if fl_vs "trace $SYM vs funclatency" pp_peer $SYM "" "kload getppid $N"; then
		expect "trace vs funclatency: kstats counts the $N getppid()s" "$n1" $N
		expect "trace vs funclatency: funclatency counts the $N getppid()s" "$n2" $N
	fi
	expect "remove pp_peer" "$(ctl $KS/_control 'remove pp_peer')" ok

	N=200
	pf=/tmp/peer.pid
	rm -f $pf
	kvalue -p $pf sleep 1500 $N &
	vp=$!
	while [ ! -s $pf ]; do sleep 0.1; done
	expect "trace hrtimer_nanosleep pid $vp" \
		"$(ctl $KS/_control "trace hrtimer_nanosleep name pp_sleep pid $vp")" ok
	if fl_vs "trace hrtimer_nanosleep vs funclatency" pp_sleep hrtimer_nanosleep "-p $vp" \
		"kill -USR1 $vp; wait $vp"; then
		expect "trace vs funclatency: kstats counts the $N sleeps" "$n1" $N
		expect "trace vs funclatency: funclatency counts the $N sleeps" "$n2" $N
		expect "trace vs funclatency: medians in the same or adjacent log2 bucket (2^$b1, 2^$b2 ns)" \
			"$(d=$((b1 - b2)); [ "$d" -ge -1 ] && [ "$d" -le 1 ] && echo yes)" yes
	fi
	kill $vp 2>/dev/null
	wait $vp 2>/dev/null
	rm -f $pf
	expect "remove pp_sleep" "$(ctl $KS/_control 'remove pp_sleep')" ok
	check "rmmod kstats (trace vs funclatency)" rmmod kstats
fi
