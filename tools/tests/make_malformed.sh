#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Regenerate tests/malformed/ from the captured tests/fixtures/basic.txt
# (and synthetic/value_ret.txt for the lines of a node with a value):
# each file breaks one rule of Documentation/format.rst. The edits work on
# field positions, not values, so that any new capture can be used.
# Slot rows: $1 slot $2 S $3 CPU|CPUS $4 C $5 count $6 N $7 avg $8 A $9 p
# $10 F $11 lo $12 L $13 hi $14 H; line 3 is the summary, line 4 the first
# slot's first CPU row, line 5 its all-CPU row.
#   usage: tests/make_malformed.sh
set -e
cd "$(dirname "$0")"
B=fixtures/basic.txt
M=malformed
rm -rf $M
mkdir -p $M
# mk NAME AWK-PROGRAM: basic.txt through AWK-PROGRAM (lines printed unless
# the program says "next")
mk() { awk "$2"' { print }' $B > $M/$1.txt; }
# kv FIELD VALUE: on the current line, the value after the key FIELD
kv='function kv(k, v,  i) { for (i = 1; i < NF; i++) if ($i == k) { $(i + 1) = v; return } }
    function get(k,  i) { for (i = 1; i < NF; i++) if ($i == k) return $(i + 1) }'
mk no_name         'NR == 1 { sub(/name [^ ]+ /, "") }'
mk bad_clock       "$kv"' NR == 1 { kv("clock", "jiffies") }'
mk unit_mismatch   "$kv"' NR == 1 { kv("unit", "cycles") }'
mk frac_bits       "$kv"' NR == 1 { kv("frac_bits", 9) }'
mk cpus_zero       "$kv"' NR == 1 { kv("cpus", 0) }'
mk bad_name        "$kv"' NR == 1 { kv("name", ".hidden") }'
mk samples_wrong   "$kv"' NR == 1 { kv("samples", get("samples") + 1) }'
mk number_overflow "$kv"' NR == 1 { kv("missed", "99999999999999999999") }'
mk double_space    'NR == 4 { sub(/count /, "count  ") }'
mk crlf            'NR == 5 { $0 = $0 "\r" }'
mk slot_range      'NR == 4 || NR == 5 { $2 = 999 }'
mk wrong_lo        'NR == 5 { $12 = $12 - 1 }'
mk wrong_hi        'NR == 5 { $14 = $14 + 1 }'
mk avg_outside     'NR == 4 { $8 = $14 * 2 + 1 }'
mk count_zero      'NR == 4 { $6 = 0 }'
mk order           'NR == 4 || NR == 5 { held = held $0 "\n"; next } NR == 7 { print; printf "%s", held; next }'
mk cpus_sum        'NR == 5 { $6 = $6 + 1 }'
mk p_wrong         'NR == 5 { $10 = sprintf("%.6f", $10 + 0.1) }'
mk p_format        'NR == 5 { $10 = substr($10, 1, length($10) - 1) }'
mk summary_p99     "$kv"' NR == 3 { kv("p99", get("p99") + 1) }'
mk summary_mean    "$kv"' NR == 3 { kv("mean", get("mean") * 2 + 100) }'
mk summary_order   "$kv"' NR == 3 { a = get("p50"); b = get("p90"); sub(/p50 [0-9]+ p90 [0-9]+/, "p90 " b " p50 " a) }'
mk no_summary      'NR == 3 { next }'
mk header_late     'NR == 7 { print "# source mechanism api" }'
mk empty_line      'NR == 7 { print "" }'
mk truncated       'NR > 1 { print prev } { prev = $0; next } END { }'
mk cpu_row_alone   '{ last = $0 } NR > 1 { print prev } { prev = $0; next } END { sub(/CPUS [0-9]+/, "CPU 1", prev); print prev }'
mk cpu_order       'NR == 4 { held = $0; next } NR == 5 { print; print held; next }'
mk no_header       'NR <= 3 { next }'
mk tab             'NR == 4 { sub(/ /, "\t") }'
printf '' > $M/empty_file.txt
printf '\000\001\002binary' > $M/binary.txt
printf 'hello world\n' > $M/text.txt
head -c 300 $B > $M/cut_mid_line.txt
# a restricted range whose overflow count is not the overflow slot's
awk '$2 == "range" { $6 = $6 + 1 } { print }' fixtures/range.txt > $M/range_overflow.txt
# the lines of a node with a value (make_synthetic.sh's value_ret.txt):
# "# value", "# filter", "# negative" and the errno rows
V=synthetic/value_ret.txt
mkv() { awk "$2"' { print }' $V > $M/$1.txt; }
mkv value_on_ktime     'NR == 1 { sub(/clock none unit value/, "clock ktime unit ns") }'
mkv value_arg12        '$2 == "value" { $3 = "arg12" }'
mkv value_deref_size   '$2 == "value" { $3 = "arg0+8:4+0:8" }'
mkv value_no_negative  '$2 == "negative" { next } $1 == "errno" { next }'
mkv filter_order       '$2 == "filter" { $0 = "# filter comm dd pid 1" }'
mkv filter_operator    '$2 == "filter" { $0 = "# filter if ret => 3" }'
mkv filter_comm_long   '$2 == "filter" { $0 = "# filter comm abcdefghijklmnop" }'
mkv negative_min_above '$2 == "negative" { $6 = 1 }'
mkv negative_positive  '$2 == "negative" { $8 = 1 }'
mkv errno_order        '$1 == "errno" && !held { held = $0; next } $1 == "errno" && held { print; print held; held = "x"; next }'
mkv errno_count_zero   '$1 == "errno" && $2 == 11 { $4 = 0 }'
mkv errno_range        '$1 == "errno" && $2 == 512 { $2 = 4096 }'
mkv errno_before_slots '$2 == "summary" { print; print "errno 9 count 1"; next }'
mkv errno_no_negative  '$2 == "negative" { next }'
# the lines of a family (make_synthetic.sh's family_comm.txt): line 5 is
# "# family", 6 the summary, 7 the first key, 8 its slot row, 9 the second
# key, 10 and 11 its rows, 12 key other, 13 its row
FC=synthetic/family_comm.txt
mkf() { awk "$2"' { print }' $FC > $M/$1.txt; }
mkf family_key_before_summary '$2 == "summary" { print "key kvalue samples 1" }'
mkf family_slot_outside_key   '$2 == "summary" { print; print "slot 80 CPUS 2 count 200 avg 4096 p 1.000000 lo 4096 hi 4607"; next }'
mkf family_cpu_row            'NR == 8 { sub(/CPUS 2/, "CPU 0") }'
mkf family_key_rows_sum       'NR == 11 { next }'
mkf family_key_rows_over      '$1 == "key" && $2 == "kvalue" { $4 = 199 }'
mkf family_keys_sum           'NR == 1 { $15 = $15 + 1 }'
mkf family_duplicate_key      'NR == 9 { $2 = "kvalue" }'
mkf family_bad_escape         'NR == 9 { sub(/x20/, "x2g") }'
mkf family_order              'NR == 12 || NR == 13 { next } NR == 6 { print; print "key other samples 5"; print "slot 12 CPUS 2 count 5 avg 12 p 1.000000 lo 12 hi 12"; next }'
mkf family_other_count        'NR == 5 { sub(/other 5/, "other 4") }'
mkf family_no_family_line     'NR == 5 { next }'
mkf family_by_unknown         'NR == 5 { sub(/by comm/, "by uid") }'
mkf family_max_zero           'NR == 5 { sub(/max 2/, "max 0") }'
mkf family_keys_over_max      'NR == 5 { sub(/keys 2/, "keys 3") }'
mkf family_key_p              'NR == 10 { sub(/p 0.600000/, "p 0.300000") }'
mkf family_second_line        'NR == 5 { print }'
awk '$1 == "key" && $2 == 3 { $2 = "03" } { print }' synthetic/family_softirq.txt > $M/family_key_not_number.txt
# a family by stack (family_stack.txt): its frames pair, and frames as keys
FS=synthetic/family_stack.txt
awk 'NR == 3 { sub(/ frames 3/, "") } { print }' $FS > $M/family_stack_no_frames.txt
awk 'NR == 3 { sub(/frames 3/, "frames 33") } { print }' $FS > $M/family_stack_frames_over.txt
awk '$1 == "key" && NR == 5 { sub(/do_nanosleep\+0x6e/, "do_nanosleep") } { print }' $FS > $M/family_stack_frame_no_offset.txt
awk '$1 == "key" && NR == 5 { sub(/;schedule/, ";;schedule") } { print }' $FS > $M/family_stack_empty_frame.txt
awk 'NR == 3 { sub(/by stack/, "by comm") } { print }' $FS > $M/family_frames_not_stack.txt
