# SPDX-License-Identifier: GPL-2.0
#
# The reliability stage (issue 7), on the debug test kernel with 4 vCPUs:
# every r-*.sh here in order, in one shell, by the runner and TAP helpers
# of the guest suite.  Expects kstats.ko and tests/kstats_stress.ko in
# /kstats, tests/guest/ in /kstats/guest and the static helpers in
# /kstats/bin.  Lines "# reliability: ..." are the figures that
# tests/check.sh reports.
T_DIR=/kstats/reliability T_PREFIX=r . /kstats/guest/run.sh
