# SPDX-License-Identifier: GPL-2.0
#
# The guest integration suite: runs every t-*.sh here in order, in one
# shell, and prints TAP.  Expects kstats.ko and the example module in
# /kstats and the static helpers (kload) in /kstats/bin.
# Other suites source it with T_DIR and T_PREFIX: tests/reliability/run.sh.
cd "${T_DIR:-/kstats/guest}" 2>/dev/null || cd "$(dirname "$0")"
. /kstats/guest/lib.sh 2>/dev/null || . ./lib.sh
echo "TAP version 13"
for t in ./"${T_PREFIX:-t}"-*.sh; do
	diag "--- $t"
	. "$t"
done
echo "1..$T_N"
[ "$T_FAIL" = 0 ]
