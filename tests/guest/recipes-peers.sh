# SPDX-License-Identifier: GPL-2.0
#
# The recipes against their peers (sourced by t-27-recipes.sh): on the same
# workload, over the same window, `kstats runqlat` and libbpf-tools'
# runqlat, `kstats biolatency` and biolatency must count within 15 % of
# each other and put the median in the same or an adjacent log2 bucket.
# Runs where the guest has the tools (Debian's libbpf-tools, in PATH or
# /usr/sbin); otherwise a SKIP that names the missing tool.
#
# Both tracers are started, each is waited for until it says it traces,
# the workload runs, and both end on their own (-d / interval and count).

# peer_hist FILE: "N LOG2" of a libbpf-tools histogram in usecs: the
# samples, and the log2 bucket (index i: [2^i, 2^(i+1)) us, 0 also holds 0)
# of the median
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
# our_hist FILE: the same of a kstats recipe's output (p50, ns, to us)
our_hist() {
	awk '/^# summary / { for (i = 2; i < NF; i++) { if ($i == "samples") n = $(i + 1); if ($i == "p50") p = $(i + 1) } }
	END { v = int(p / 1000); b = 0; while (v > 1) { v = int(v / 2); b++ } print n + 0, b }' "$1"
}
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
# peer_tool NAME: its path, or nothing
peer_tool() {
	command -v "$1" 2>/dev/null || { [ -x "/usr/sbin/$1" ] && echo "/usr/sbin/$1"; }
}
# peer_wait FILE: until the peer prints its "Tracing" line (at most 60 s)
peer_wait() {
	local i=0
	while ! grep -q '^Tracing' "$1" 2>/dev/null && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
}

P=/tmp/peer
RQ=$(peer_tool runqlat)
if [ -n "$RQ" ]; then
	"$RQ" 10 1 > $P.rq 2>&1 &
	pp=$!
	kstats runqlat -d 10 > $P.ours 2>&1 &
	kp=$!
	peer_wait $P.rq
	r_wait runqlat
	# wakeups of sleepers on 2 CPUs: 4 x 200 sleeps of 1 ms
	for i in 1 2 3 4; do kvalue sleep 1000 200 & done
	wait
	wait $pp
	wait $kp
	peer_check runqlat $P.ours $P.rq
else
	skip "runqlat vs libbpf-tools" "runqlat (libbpf-tools) is not in this guest"
fi

BL=$(peer_tool biolatency)
if [ -z "$BL" ]; then
	skip "biolatency vs libbpf-tools" "biolatency (libbpf-tools) is not in this guest"
elif [ ! -b /dev/nullb0 ]; then
	skip "biolatency vs libbpf-tools" "no null_blk device in this guest"
else
	"$BL" 10 1 > $P.bl 2>&1 &
	pp=$!
	kstats biolatency -d 10 > $P.ours 2>&1 &
	kp=$!
	peer_wait $P.bl
	r_wait biolatency
	kdio /dev/nullb0 4096 400
	wait $pp
	wait $kp
	peer_check biolatency $P.ours $P.bl
fi
