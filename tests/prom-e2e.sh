#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fleet collection end to end, on loopback, no VM: kstats snapshot files ->
# `kstats export --format prometheus` (the ExecStart line of
# contrib/systemd/kstats-export.service) -> Debian's prometheus-node-exporter
# (textfile collector) -> Debian's prometheus server.  For each
# distribution, histogram_quantile(0.99, ...) from Prometheus's HTTP API must
# lie in the slot of the tool's own p99 (`kstats show --json`) or the next
# (for the overflow slot Prometheus answers the highest finite bound), for
# one host and in the fleet form (sum by le).  Then one distribution on two
# hosts: the fleet p99 against the merged snapshots; a later snapshot: the
# p99 follows it; the difference of two scrapes (the @ modifier) against
# `kstats watch A B`, which needs the same set of le in every scrape.
# Prints TAP.
#
#   tests/prom-e2e.sh [SNAPSHOT-FILE...]
#
# Without arguments, the snapshots in tools/tests/fixtures.  Daemons listen
# on free 127.0.0.1 ports and are killed on exit; PROM_E2E_KEEP=1 keeps the
# work directory (logs, textfile, config).
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
. "$KSTATS_ROOT/tests/guest/lib.sh"
cd "$KSTATS_ROOT"

FIX=tools/tests/fixtures
[ $# -gt 0 ] || set -- "$FIX"/{basic,known,range,slow_io,tsc,bits0}.txt

W=$(mktemp -d /tmp/kstats-prom.XXXXXX)
PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]}"; do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	[ "${PROM_E2E_KEEP:-}" = 1 ] && say "work directory: $W" || rm -rf "$W"
}
trap cleanup EXIT

echo "TAP version 13"

# The tool, built apart from tools/ (which `make -C tools` owns).
KST=$W/kstats
cc -O2 -std=c99 -pthread -Itools/lib -o "$KST" tools/kstats.c tools/cmd/*.c tools/lib/*.c -lbpf -lelf -lz -lm 2> "$W/cc.log" ||
	{ echo "Bail out! the kstats tool does not build: $(head -n 3 "$W/cc.log")"; exit 1; }

# A root directory of snapshots named after their distribution, as
# /sys/kernel/debug/kstats would be.
mkdir -p "$W/root" "$W/textfile" "$W/tsdb"
names=()
for f in "$@"; do
	n=$(sed -n '1s/^# name \([^ ]*\) .*/\1/p' "$f")
	[ -n "$n" ] || { echo "Bail out! $f is not a kstats snapshot"; exit 1; }
	cp "$f" "$W/root/$n"
	names+=("$n")
done

# export ROOT: what a fleet's timer runs, the ExecStart of
# contrib/systemd/kstats-export.service, with this test's tool, root and
# textfile directory, the host label "e2e", and every slot a bucket
# (--buckets 100000: the p99s below are compared slot for slot).
UNIT=contrib/systemd/kstats-export.service
EXPORT=$(sed -n "s/^ExecStart=\/bin\/sh -c '\(.*\)'\$/\1/p" "$UNIT" |
	sed "s|/usr/local/sbin/kstats export|\"$KST\" --root \"\$1\" export --host e2e --buckets 100000|
	     s|/var/lib/prometheus/node-exporter|$W/textfile|g")
[ -n "$EXPORT" ] || { echo "Bail out! no ExecStart=/bin/sh -c '...' in $UNIT"; exit 1; }
export_prom() { sh -c "$EXPORT" sh "$1"; }
check "kstats export --format prometheus (${#names[@]} distributions), as $UNIT does" export_prom "$W/root"

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
NE_PORT=$(free_port)
PROM_PORT=$(free_port)

prometheus-node-exporter --web.listen-address="127.0.0.1:$NE_PORT" \
	--collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$W/textfile" > "$W/node-exporter.log" 2>&1 &
PIDS+=($!)

cat > "$W/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: kstats
    static_configs:
      - targets: ['127.0.0.1:$NE_PORT']
EOF
prometheus --config.file="$W/prometheus.yml" --storage.tsdb.path="$W/tsdb" \
	--web.listen-address="127.0.0.1:$PROM_PORT" > "$W/prometheus.log" 2>&1 &
PIDS+=($!)

# query EXPR [TIME]: the value of the first sample of an instant query,
# "none" when the result is empty, "error" when the API fails.
query() {
	local args=(--data-urlencode "query=$1")
	[ -z "${2:-}" ] || args+=(--data-urlencode "time=$2")
	curl -sf -G "${args[@]}" "http://127.0.0.1:$PROM_PORT/api/v1/query" 2>/dev/null |
		python3 -c '
import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(r[0]["value"][1] if r else "none")' 2>/dev/null || echo error
}

# wait_for EXPR WANT: poll (30 s at most) until EXPR's value is WANT.
wait_for() {
	local i got
	for i in $(seq 60); do
		got=$(query "$1")
		[ "$got" != "$2" ] || return 0
		sleep 0.5
	done
	echo "$1: got '$got', want '$2'"
	return 1
}

check "node_exporter serves kstats_*_bucket on 127.0.0.1:$NE_PORT" \
	bash -c "for i in \$(seq 60); do curl -sf http://127.0.0.1:$NE_PORT/metrics | grep -q '^kstats_[a-z_]*_bucket{' && exit 0; sleep 0.5; done; exit 1"
COUNT='{__name__=~"kstats_(duration_seconds|duration_cycles|value)_count"'
check "prometheus scraped every distribution" \
	wait_for "count($COUNT,job=\"kstats\"})" "${#names[@]}"
grep -h 'msg="Server is ready' "$W/prometheus.log" >/dev/null ||
	diag "prometheus.log: $(tail -n 3 "$W/prometheus.log")"

# slot K VALUE: the slot of kstats_bucket.h holding the integer ceil(VALUE).
slot() {
	python3 -c '
import math, sys
k, v = int(sys.argv[1]), math.ceil(float(sys.argv[2]))
l = v.bit_length() - 1
print(v if v < (1 << k) else ((l - k + 1) << k) + ((v >> (l - k)) & ((1 << k) - 1)))' "$1" "$2"
}

# tool_p99 FILE: "P99 K SLOT LAST" from kstats show --json: the p99, the
# frac_bits, the slot the p99 is the bound of, and the overflow slot of a
# distribution with a range (else -1).
tool_p99() {
	"$KST" show "$1" --json | python3 -c '
import json, sys
j = json.load(sys.stdin)
p99, slots = j["summary"]["p99"], j["slots"]
s = [r["slot"] for r in slots if r["hi"] == p99]
print(p99, j["frac_bits"], s[0] if s else -1, slots[-1]["slot"] if "range" in j else -1)'
}

# merged_p99 FILE...: the p99 of the sum of snapshots (hosts, or B - A
# with a minus sign before A: "-A B"), from the all-CPU rows.
merged_p99() {
	python3 -c '
import math, re, sys
n = {}
for a in sys.argv[1:]:
	sign = -1 if a.startswith("-") else 1
	for l in open(a.lstrip("-")):
		m = re.match(r"slot (\d+) CPUS \d+ count (\d+) .* hi (\d+)", l)
		if m:
			c, h = n.get(int(m[1]), (0, 0))
			n[int(m[1])] = (c + sign * int(m[2]), int(m[3]))
rank, cum = math.ceil(sum(c for c, _ in n.values()) * 0.99), 0
for s in sorted(n):
	cum += n[s][0]
	if cum >= rank:
		print(n[s][1]); break' "$@"
}

# agree DESC PROM-VALUE TOOL-P99 K [TOOL-SLOT [OVERFLOW-SLOT]]: the two p99s
# lie at most one slot apart.
agree() {
	local ps ts res
	ps=$(slot "$4" "$2" 2>/dev/null) || ps=
	ts=${5:--1}
	[ "$ts" != -1 ] || ts=$(slot "$4" "$3")
	[ -z "$ps" ] || [ "${6:--1}" = -1 ] || [ "$ps" -le "$6" ] || ps=$6
	res="$1: prometheus $2${ps:+ (slot $ps)}, kstats $3 (slot $ts)"
	if [ -n "$ps" ] && [ $((ps > ts ? ps - ts : ts - ps)) -le 1 ]; then
		ok "$res"
	else
		not_ok "$res"
	fi
}

# family NAME: the histogram family of distribution NAME in the textfile.
family() {
	sed -n "/^kstats_[a-z_]*_bucket{name=\"$1\"/{s/_bucket{.*//p;q}" "$W/textfile/kstats.prom"
}

# in_unit FAMILY VALUE: a value of FAMILY in the snapshot's unit (seconds
# to ns).
in_unit() {
	case $1 in
	*_seconds) python3 -c 'import sys; v = sys.argv[1]
print(v if v in ("none", "error", "NaN") else float(v) * 1e9)' "$2" ;;
	*) echo "$2" ;;
	esac
}

for n in "${names[@]}"; do
	read -r p99 k ts last <<< "$(tool_p99 "$W/root/$n")"
	fam=$(family "$n")
	agree "$n p99, one host ($fam)" \
		"$(in_unit "$fam" "$(query "histogram_quantile(0.99, ${fam}_bucket{name=\"$n\"})")")" "$p99" "$k" "$ts" "$last"
	agree "$n p99, fleet form" \
		"$(in_unit "$fam" "$(query "histogram_quantile(0.99, sum by (le) (${fam}_bucket{name=\"$n\"}))")")" "$p99" "$k" "$ts" "$last"
done

# Cumulative snapshots of one distribution, "warm" (frac_bits 3, ns): host
# e2e at snap2 then snap5, host h2 at snap6.  The fleet p99 (sum over the
# hosts) must be the merged distribution's, and the difference of two
# scrapes of e2e (the @ modifier) the p99 `kstats watch snap2 snap5` prints.
S=$FIX/series
if [ -f "$S/snap2.txt" ] && [ -f "$S/snap5.txt" ] && [ -f "$S/snap6.txt" ]; then
	mkdir -p "$W/root2" "$W/root3"
	# the series is of example_write: renamed warm, apart from basic.txt
	as_warm() { sed '1s/^# name [^ ]*/# name warm/' "$1" > "$2"; }
	as_warm "$S/snap2.txt" "$W/root2/warm"
	as_warm "$S/snap6.txt" "$W/root3/warm"
	export_prom "$W/root2"
	"$KST" --root "$W/root3" export --format prometheus --host h2 --buckets 100000 > "$W/textfile/h2.prom"
	# Both correct only if the exported bucket set does not depend on the
	# data: an `le` missing from one scrape or one host is no count at all
	# for sum() and for the difference, where it should be the total.
	les() { grep -o 'le="[^"]*"' "$1" | sort -u; }
	check "both hosts export the same set of le" \
		cmp -s <(les "$W/textfile/kstats.prom") <(les "$W/textfile/h2.prom")
	check "prometheus scraped warm from hosts e2e and h2" wait_for 'count(kstats_duration_seconds_count{name="warm"})' 2
	agree "warm p99, fleet of 2 hosts (sum by le) vs the merged snapshots" \
		"$(in_unit _seconds "$(query 'histogram_quantile(0.99, sum by (le) (kstats_duration_seconds_bucket{name="warm"}))')")" \
		"$(merged_p99 "$S/snap2.txt" "$S/snap6.txt")" 3
	t1=$(query 'timestamp(kstats_duration_seconds_count{name="warm",host="e2e"})')
	les "$W/textfile/kstats.prom" > "$W/le-before"
	as_warm "$S/snap5.txt" "$W/root2/warm"
	export_prom "$W/root2"
	check "prometheus scraped the second snapshot of warm" \
		wait_for 'kstats_duration_seconds_count{name="warm",host="e2e"}' "$(field "$S/snap5.txt" name samples)"
	sel='kstats_duration_seconds_bucket{name="warm",host="e2e"}'
	read -r p99 k ts last <<< "$(tool_p99 "$S/snap5.txt")"
	agree "warm p99 after the update" \
		"$(in_unit _seconds "$(query "histogram_quantile(0.99, $sel)")")" "$p99" "$k" "$ts"
	# kstats watch A B: the p99 of B - A, printed with its unit (ns here),
	# read inside its slot: in the slot of the merged p99 (or the next).
	wp99=$("$KST" watch "$S/snap2.txt" "$S/snap5.txt" |
		awk '$1 ~ /^[0-9]+$/ { v = $7 } END { print v }')
	agree "kstats watch snap2 snap5: p99 of the difference" \
		"$(python3 -c 'import sys; v = sys.argv[1]
for u, m in (("ns", 1), ("us", 1000), ("ms", 10**6)):
	if v.endswith(u): print(round(float(v[:-len(u)]) * m)); break' "${wp99:-0ns}")" \
		"$(merged_p99 "-$S/snap2.txt" "$S/snap5.txt")" 3
	check "both scrapes of e2e have the same set of le" \
		cmp -s "$W/le-before" <(les "$W/textfile/kstats.prom")
	agree "warm interval p99: difference of two scrapes (@) vs kstats watch snap2 snap5" \
		"$(in_unit _seconds "$(query "histogram_quantile(0.99, sum by (le) ($sel - $sel @ $t1))")")" \
		"$(merged_p99 "-$S/snap2.txt" "$S/snap5.txt")" 3
fi

echo "1..$T_N"
[ "$T_FAIL" = 0 ]
