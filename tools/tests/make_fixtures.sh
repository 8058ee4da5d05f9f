#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Regenerate tests/fixtures/ and tests/malformed/ with gen_fixture, which
# writes the format of Documentation/format.rst with kstats_bucket.h.
# Real captures from the VM may replace any fixture of the same name: the
# tests only rely on the properties noted here.
#   usage: tests/make_fixtures.sh build/gen_fixture
set -e
G=${1:-build/gen_fixture}
cd "$(dirname "$0")"
case $G in /*) ;; *) G=../$G ;; esac
F=fixtures
M=malformed
rm -rf $F $M
mkdir -p $F/series $M

# A typical latency distribution on 2 CPUs.
$G --name tx_path --bits 3 --cpus 2 -s 0,800,lognormal,400,0.5 -s 1,434,exp,300,500 > $F/basic.txt
# Exactly the values 1..100 on one CPU, frac_bits 0: min 1, p50 63,
# p90 127, p99 127, p99.9 127, max 127, mean 50 (worked out by hand).
seq 1 100 | sed 's/^/0 /' | $G --name known --bits 0 --cpus 1 --stdin > $F/known.txt
# No samples.
$G --name idle --cpus 4 --state stopped > $F/empty.txt
# TSC cycles, plain values, a restricted range with overflow.
$G --name tsc_cycles --clock tsc --tsc-khz 2400000 --bits 2 --cpus 4 \
   -s 0,500,lognormal,2500,0.3 -s 3,500,lognormal,2600,0.3 > $F/tsc.txt
$G --name pkt_size --clock none --bits 0 --cpus 2 -s 0,3000,uniform,64,1500 -s 1,100,const,9000 > $F/values.txt
$G --name bounded --range 10000 --bits 2 --cpus 2 --missed 3 -s 0,2000,exp,100,3000 -s 1,50,const,20000 > $F/range.txt
# 8 CPUs, CPU 5 four times slower: `show --cpu` marks it.
args=""
for c in 0 1 2 3 4 6 7; do args="$args -s $c,1000,lognormal,1000,0.3"; done
$G --name irq_path --bits 3 --cpus 8 $args -s 5,1000,lognormal,4000,0.3 > $F/cpus8.txt
# Millisecond I/O on the local clock, frac_bits 5.
$G --name blk_io --clock local --bits 5 --cpus 4 -s 0,5000,lognormal,3000000,1 -s 2,5000,lognormal,2500000,1.2 > $F/slow_io.txt
# diff: two runs of one distribution; 10% slower; a run whose first half
# is twice as slow (warm-up); two huge runs 1% apart (negligible effect).
$G --name run --seed 11 --bits 3 -s 0,20000,lognormal,1000,0.4 > $F/steady_a.txt
$G --name run --seed 12 --bits 3 -s 0,20000,lognormal,1000,0.4 > $F/steady_b.txt
$G --name run --seed 13 --bits 3 -s 0,20000,lognormal,1100,0.4 > $F/slower.txt
$G --name run --seed 14 --bits 3 -s 0,10000,lognormal,2000,0.4 -s 0,10000,lognormal,1000,0.4 > $F/warmup.txt
$G --name run --seed 15 --bits 3 -s 0,2000000,lognormal,1000,0.4 > $F/big_a.txt
$G --name run --seed 16 --bits 3 -s 0,2000000,lognormal,1010,0.4 > $F/big_b.txt
# watch/heatmap: cumulative snapshots 0..6 of one run; interval 1 is a
# warm-up twice as slow, interval 4 a phase with a slow tail.
groups="-s 0,2000,lognormal,2000,0.3 -s 1,2000,lognormal,1000,0.3 -s 0,2000,lognormal,1000,0.3 -s 1,2000,lognormal,1000,1.2 -s 0,2000,lognormal,1000,0.3 -s 1,2000,lognormal,1000,0.3"
i=0
set --
$G --name warm --seed 7 > $F/series/snap0.txt
for g in $groups; do
	[ "$g" = -s ] && continue
	set -- "$@" -s "$g"
	i=$((i + 1))
	$G --name warm --seed 7 "$@" > $F/series/snap$i.txt
done

# Malformed: each breaks one rule of format.rst.
B=$F/basic.txt
mk() { sed "$2" $B > $M/$1.txt; }
mk no_name         '1s/name tx_path //'
mk bad_clock       '1s/clock ktime/clock jiffies/'
mk unit_mismatch   '1s/unit ns/unit cycles/'
mk frac_bits       '1s/frac_bits 3/frac_bits 9/'
mk cpus_zero       '1s/cpus 2/cpus 0/'
mk bad_name        '1s/name tx_path/name .hidden/'
mk samples_wrong   '1s/samples 1234/samples 1235/'
mk number_overflow '1s/missed 0/missed 99999999999999999999/'
mk double_space    '4s/count /count  /'
mk crlf            '5s/$/\r/'
mk slot_range      '4,5s/^slot 36 /slot 999 /'
mk wrong_lo        '5s/lo 96/lo 95/'
mk wrong_hi        '5s/hi 103/hi 104/'
mk avg_outside     '4s/avg 102/avg 200/'
mk count_zero      '4s/count 2/count 0/'
mk order           '4,5d'
mk cpus_sum        '5s/count 2/count 3/'
mk p_wrong         '5s/p 0.001620/p 0.101620/'
mk p_format        '5s/p 0.001620/p 0.00162/'
mk summary_p99     '3s/p99 2303/p99 2304/'
mk summary_mean    '3s/mean 580/mean 900/'
mk summary_order   '3s/p50 479 p90 1151/p90 1151 p50 479/'
mk no_summary      '3d'
mk header_late     '6a\# source mechanism api'
mk empty_line      '6a\\'
mk truncated       '$d'
mk cpu_row_alone   '$s/CPUS 2/CPU 1/'
mk cpu_order       '4{h;d};5{G}'
mk no_header       '1,3d'
mk tab             '4s/ /\t/'
printf '' > $M/empty_file.txt
printf '\000\001\002binary' > $M/binary.txt
printf 'hello world\n' > $M/text.txt
head -c 300 $B > $M/cut_mid_line.txt
