# SPDX-License-Identifier: GPL-2.0
#
# The guest integration suite: runs every t-*.sh here in order, in one
# shell, and prints TAP.  Expects kstats.ko and the example module in
# /kstats and the static helpers (kload) in /kstats/bin.
cd /kstats/guest 2>/dev/null || cd "$(dirname "$0")"
. ./lib.sh
echo "TAP version 13"
for t in ./t-*.sh; do
	diag "--- $t"
	. "$t"
done
echo "1..$T_N"
[ "$T_FAIL" = 0 ]
