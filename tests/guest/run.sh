# SPDX-License-Identifier: GPL-2.0
#
# The guest integration suite: runs every t-*.sh here in order, in one
# shell, and prints TAP.  Expects kstats.ko and the example module in
# /kstats and the static helpers (kload) in /kstats/bin.
# Other suites source it with T_DIR and T_PREFIX: tests/reliability/run.sh.
# T_ONLY (e.g. "10,60", from the kernel command line: vm-run.sh --append
# T_ONLY=10,60) runs only the files of those numbers, for working on one.
cd "${T_DIR:-/kstats/guest}" 2>/dev/null || cd "$(dirname "$0")"
. /kstats/guest/lib.sh 2>/dev/null || . ./lib.sh
echo "TAP version 13"
for t in ./"${T_PREFIX:-t}"-*.sh; do
	if [ -n "${T_ONLY:-}" ]; then
		n=${t#./*-}
		case ",$T_ONLY," in *",${n%%-*},"*) ;; *) continue ;; esac
	fi
	diag "--- $t"
	. "$t"
done
echo "1..$T_N"
[ "$T_FAIL" = 0 ]
