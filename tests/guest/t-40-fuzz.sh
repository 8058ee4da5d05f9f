# SPDX-License-Identifier: GPL-2.0
#
# Bad input (issue 7): the committed corpus on _control and on every
# distribution file, every open mode with lseek, pread, pwrite and short
# reads on every file (kfuzz fileops), the node limit, then a seeded random
# fuzzer of writes and file operations bounded in writes and seconds
# (KFUZZ_SEED, KFUZZ_WRITES, KFUZZ_SECONDS override); every call must give
# a result consistent with it or a listed errno (tests/guest/kfuzz.c), and a
# valid command must still work afterwards.

# kfuzz_check DESC ARGS...: one kfuzz run, its "# " figures kept as diagnostics.
kfuzz_check() {
	local d=$1 rc=0
	shift
	kfuzz "$@" > /tmp/kfuzz.out 2>&1 || rc=$?
	grep '^# kfuzz' /tmp/kfuzz.out
	if [ $rc = 0 ]; then ok "$d"; else
		not_ok "$d (exit $rc)"; grep -v '^# kfuzz' /tmp/kfuzz.out | head -n 30; fi
}

check "insmod kstats.ko (fuzz)" insmod $KB/kstats.ko
check "insmod kstats_example.ko (fuzz)" insmod $KB/kstats_example.ko
dmesg_mark
# The corpus names getppid's x86-64 wrapper: this architecture's instead
# (lib.sh).  Where kstats has no direct trampoline, mech direct is a
# mechanism it does not know (EINVAL), whatever else the command says
# (EOPNOTSUPP where the trampoline would refuse it); a glob falls back as
# it does where the trampoline cannot take it (ENOENT when it matches
# nothing).
CORPUS=/tmp/kfuzz-control.txt
mech='s/^EOPNOTSUPP \(trace .* mech direct.*\)$/EINVAL \1/'
! direct_built || mech=
sed -e "s/__x64_sys_/$SYS_PFX/g" ${mech:+-e "$mech"} \
	$KB/guest/corpus/control.txt > $CORPUS
kfuzz_check "corpus on _control: every write gives its expected result" \
	corpus $CORPUS $KS/_control
diag "distribution files under fuzz: $(ls $KS | grep -vc '^_control$\|^_errors$\|^_history$')"
kfuzz_check "corpus on every distribution file" \
	corpus $KB/guest/corpus/node.txt nodes
check "refusals are explained in dmesg" dmesg_has "unknown command"
expect_match "refusals are in _errors too" "$(cat $KS/_errors)" "unknown command"
# _errors takes any write (it empties the log): the nodes' corpus, every
# write of it its full length
sed 's/^[^#][^ ]* /ok /' $KB/guest/corpus/node.txt > /tmp/kfuzz-errors.txt
kfuzz_check "corpus on _errors: every write taken whole" \
	corpus /tmp/kfuzz-errors.txt $KS/_errors
expect "_errors is empty after the writes" "$(cat $KS/_errors)" ""
expect "remove all after the corpus" "$(ctl $KS/_control 'remove all')" ok
# Open modes, lseek, pread/pwrite, short and partial reads on _control, the
# example's distributions and three of our own: an api node, a trace node,
# and one on lseek that keeps its outliers, whose lines and header change
# with every lseek of kfuzz itself while it reads (one open must still read
# the same bytes every time).
FO_SYM=$(sys_fn getppid)
expect "nodes for fileops" "$(ctl $KS/_control 'new fo1 bits 2'
	ctl $KS/_control "trace ${FO_SYM:-__do_sys_getppid} name fo2"
	ctl $KS/_control "trace $(sys_fn lseek) name fo3 slow 0 keep 4 stack 2")" "ok
ok
ok"
kload getppid 100
kfuzz_check "fileops on every file: open modes, lseek, pread, pwrite, reads" \
	fileops all
expect "fileops nodes removed" "$(ctl $KS/_control 'remove fo1'
	ctl $KS/_control 'remove fo2'
	ctl $KS/_control 'remove fo3')" "ok
ok
ok"
kfuzz_check "new until ENOSPC at 256 distributions, then remove them" limits
seed=${KFUZZ_SEED:-$(date +%s)}
kfuzz_check "random writes (seed $seed): only listed errnos" \
	random "$seed" "${KFUZZ_WRITES:-3000}" "${KFUZZ_SECONDS:-20}"
expect "a valid command still works after the fuzzer" \
	"$(ctl $KS/_control 'new after_fuzz bits 2')" ok
expect "recording still works after the fuzzer" \
	"$(ctl $KS/example_write start; ctl $KS/example_write reset
	kload write /dev/kstats_example 10 64; field $KS/example_write name samples)" "ok
ok
10"
# a "freeze" the random writes made stays the histories' until a thaw
ctl $KS/_control thaw > /dev/null
expect "remove all after the fuzzer" "$(ctl $KS/_control 'remove all')" ok
check "rmmod kstats_example (fuzz)" rmmod kstats_example
check "rmmod kstats (fuzz)" rmmod kstats
