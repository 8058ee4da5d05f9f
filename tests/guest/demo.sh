# SPDX-License-Identifier: GPL-2.0
#
# `make demo`, inside the guest: load kstats and the example module, drive
# a real workload, and show the distributions as a user would see them.
KS=/sys/kernel/debug/kstats
# sys_fn, the function to trace for a system call on this architecture
. /kstats/guest/lib.sh 2>/dev/null || . "$(dirname "$0")/lib.sh"
run() { echo "\$ $*"; "$@"; echo; }

insmod /kstats/kstats.ko && insmod /kstats/kstats_example.ko || exit 1
# Writes of three sizes: three peaks in the time distribution.
kload write /dev/kstats_example 3000 64
kload write /dev/kstats_example 2000 4096
kload write /dev/kstats_example 1000 65536
run ls $KS
echo "\$ head -n 12 $KS/example_write"
head -n 12 $KS/example_write
echo
SYM=$(sys_fn getppid)
if command -v kstats >/dev/null; then
	run kstats list
	run kstats show example_write
	(sleep 1; kload getppid 20000) &
	run kstats trace $SYM -d 3
	wait
else
	echo "(the kstats tool is not in this image: cat shows the raw format)"
	echo "\$ echo 'trace $SYM' > $KS/_control"
	echo "trace $SYM" > $KS/_control
	kload getppid 20000
	run cat $KS/$SYM
fi
