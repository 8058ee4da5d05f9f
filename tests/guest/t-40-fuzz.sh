# SPDX-License-Identifier: GPL-2.0
#
# Bad input (issue 7): the committed corpus on _control and on every
# distribution file, the node limit, then a seeded random fuzzer bounded in
# writes and seconds (KFUZZ_SEED, KFUZZ_WRITES, KFUZZ_SECONDS override);
# every write must succeed or fail with a listed errno (tests/guest/kfuzz.c),
# and a valid command must still work afterwards.

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
kfuzz_check "corpus on _control: every write gives its expected result" \
	corpus $KB/guest/corpus/control.txt $KS/_control
diag "distribution files under fuzz: $(ls $KS | grep -vc '^_control$')"
kfuzz_check "corpus on every distribution file" \
	corpus $KB/guest/corpus/node.txt nodes
check "refusals are explained in dmesg" dmesg_has "unknown command"
expect "remove all after the corpus" "$(ctl $KS/_control 'remove all')" ok
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
expect "remove all after the fuzzer" "$(ctl $KS/_control 'remove all')" ok
check "rmmod kstats_example (fuzz)" rmmod kstats_example
check "rmmod kstats (fuzz)" rmmod kstats
