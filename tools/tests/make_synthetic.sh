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
