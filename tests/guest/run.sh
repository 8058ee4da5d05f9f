# SPDX-License-Identifier: GPL-2.0
#
# The guest integration suite: runs every t-*.sh here in order, in one
# shell, and prints TAP.  Expects kstats.ko and the example module in
# /kstats and the static helpers (kload) in /kstats/bin.
# Other suites source it with T_DIR and T_PREFIX: tests/reliability/run.sh.
# T_ONLY (e.g. "10,60", from the kernel command line: vm-run.sh --append
# T_ONLY=10,60) runs only the files of those numbers, for working on one;
# a range A-B stands for every number from A to B ("0-26", "27-59").
# T_SKIP, the same way, runs all but those (T_SKIP=60: all but the
# stress).  tests/check.sh splits a long suite into boots of its own so.
# A selection that leaves no file is an error, not an empty pass.
cd "${T_DIR:-/kstats/guest}" 2>/dev/null || cd "$(dirname "$0")"
. /kstats/guest/lib.sh 2>/dev/null || . ./lib.sh

# t_in N LIST: N is one of LIST's numbers or in one of its ranges
t_in() {
	local x
	for x in $(echo "$2" | tr ',' ' '); do
		case $x in
		*-*)	[ "$1" -ge "${x%-*}" ] && [ "$1" -le "${x#*-}" ] && return 0 ;;
		*)	[ "$1" -eq "$x" ] && return 0 ;;
		esac
	done
	return 1
}

echo "TAP version 13"
t_ran=0
for t in ./"${T_PREFIX:-t}"-*.sh; do
	n=${t#./*-}
	n=${n%%-*}
	n=${n#0}
	[ -z "${T_ONLY:-}" ] || t_in "${n:-0}" "$T_ONLY" || continue
	[ -z "${T_SKIP:-}" ] || ! t_in "${n:-0}" "$T_SKIP" || continue
	# the uptime: where the time of a boot goes, file by file
	diag "--- $t (at $(cut -d' ' -f1 /proc/uptime) s)"
	t_ran=$((t_ran + 1))
	. "$t"
done
[ "$t_ran" -gt 0 ] || not_ok "T_ONLY='${T_ONLY:-}' T_SKIP='${T_SKIP:-}' select no ${T_PREFIX:-t}-*.sh file"
diag "--- done (at $(cut -d' ' -f1 /proc/uptime) s)"
echo "1..$T_N"
[ "$T_FAIL" = 0 ]
