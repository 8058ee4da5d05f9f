#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Planted bugs: shows that the checks catch broken code.  Each
# tests/mutants/NAME.diff is a patch to the module with a header:
#
#   Planted bug: what it breaks
#   Caught by: integration        (the suite that must fail:
#                                  integration or reliability)
#   Tests: 10,50                  (the suite's files that catch it, as
#                                  run.sh's T_ONLY: only those run)
#   Expect: REGEX                 (grep -E, in the console log, the TAP or
#                                  vm-run.sh's report: the reason it fails)
#   Kernel: 6.12                  (optional: a Debian kernel of
#                                  debian_kernels, scripts/lib.sh, for a bug
#                                  that a test's own assertion catches, with
#                                  no need of KASAN or lockdep: three times
#                                  faster under TCG; default the test kernel)
#
# For each one: copy the tree to build/mutants/NAME, apply the patch, build
# against its kernel, run the suite in QEMU.  A mutant is caught when
# the run fails and its output matches Expect; a run that fails for some
# other reason is not counted as caught.  Prints TAP.
#
#   tests/mutants.sh [--kdir TEST-KERNEL-TREE] [NAME...]
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
cd "$KSTATS_ROOT"

kdir=
while [ $# -gt 0 ]; do
	case $1 in
	--kdir) kdir=$2; shift 2 ;;
	-h|--help) awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print } /^set / { exit }' "$0"; exit 0 ;;
	*) break ;;
	esac
done
[ -n "$kdir" ] || kdir=$(tests/test-kernel.sh | tail -n1)
[ -f "$kdir/arch/x86/boot/bzImage" ] || die "no bzImage in $kdir"

B=$KSTATS_ROOT/build
LOGS=$B/logs
# each mutant's boot runs only the files that catch it: a minute or two
timeout=400
mkdir -p "$LOGS"
bad=$(guest_helpers)
[ -z "$bad" ] || die "guest helpers failed to build: $bad"

if [ $# -gt 0 ]; then
	mutants=()
	for n in "$@"; do
		mutants+=("tests/mutants/$n.diff")
	done
else
	mutants=(tests/mutants/*.diff)
fi

echo "TAP version 13"
n=0 caught=0
for m in "${mutants[@]}"; do
	n=$((n + 1))
	name=$(basename "$m" .diff)
	[ -f "$m" ] || { echo "not ok $n - $name: no $m"; continue; }
	what=$(sed -n 's/^Planted bug: //p' "$m")
	suite=$(sed -n 's/^Caught by: //p' "$m")
	expect=$(sed -n 's/^Expect: //p' "$m")
	only=$(sed -n 's/^Tests: //p' "$m")
	kname=$(sed -n 's/^Kernel: //p' "$m")
	build_kdir=$kdir image=$kdir/arch/x86/boot/bzImage
	if [ -n "$kname" ]; then
		read -r _ image build_kdir < <(debian_kernels | awk -v k="$kname" '$1 == k') || true
		if [ -z "$image" ] || [ "$image" = - ] || [ "$build_kdir" = - ]; then
			echo "not ok $n - $name: no Debian $kname kernel with its headers (scripts/deps.sh)"
			continue
		fi
	fi
	dir=$B/mutants/$name
	log=$LOGS/mutant-$name
	echo "# $name: $what"
	copy_tree "$dir"
	if ! patch -d "$dir" -p1 -s --no-backup-if-mismatch < "$m" > "$log.patch" 2>&1; then
		echo "not ok $n - $name: the patch does not apply"
		sed 's/^/#   /' "$log.patch"
		continue
	fi
	# tests: kstats_stress.ko (reliability), kstats_lifetime.ko (integration)
	targets=(modules tests examples)
	if ! make -C "$dir" KDIR="$build_kdir" "${targets[@]}" > "$log.build" 2>&1; then
		echo "not ok $n - $name: does not build"
		grep -E 'error' "$log.build" | head -n 10 | sed 's/^/#   /'
		continue
	fi
	guest_adds "$dir"
	if ! suite_args "$suite" "$dir"; then
		echo "not ok $n - $name: unknown suite '$suite'"
		continue
	fi
	# the whole suite is `make check`'s own run; a mutant needs only
	# the files that catch it
	[ -z "$only" ] || SUITE_ARGS+=(--append "T_ONLY=$only")
	t0=$(now)
	rc=0
	tests/vm-run.sh --kernel "$image" --timeout "$timeout" \
		--log "$log.console" --mem 2048 "${SUITE_ARGS[@]}" "${GUEST_ADDS[@]}" \
		> "$log.tap" 2> "$log.err" || rc=$?
	secs=$(($(now) - t0))
	# the guest's own time, as tests/check.sh prints each guest's
	sed -n "s/^vm-run.sh: [^ ]*: \([0-9.]*\) s, \(.*\)/# guest mutant-$name: \1 s, timeout $timeout s (\2)/p" "$log.err"
	fails=$(grep -c '^not ok' "$log.tap" || true)
	hit=$(cat "$log.console" "$log.tap" "$log.err" | grep -Em1 -- "$expect" || true)
	if [ "$rc" = 0 ]; then
		echo "not ok $n - $name: not caught: the $suite suite passed ($secs s)"
	elif [ -z "$hit" ]; then
		echo "not ok $n - $name: the $suite suite failed (vm-run.sh $rc), but not with /$expect/"
		grep -E '^not ok' "$log.tap" | head -n 5 | sed 's/^/#   /'
		head -n 5 "$log.err" | sed 's/^/#   /'
	else
		caught=$((caught + 1))
		echo "ok $n - $name: caught by the $suite suite ($fails tests failed, vm-run.sh exit $rc, $secs s)"
		# The expected failure, worded so that no reader of the log
		# takes the caught mutant's TAP line for a failing test.
		hit=${hit/#not ok /failed as planted: }
		echo "#   ${hit:0:160}"
	fi
done
echo "1..$n"
echo "# mutants: $caught of $n planted bugs caught"
[ "$caught" = "$n" ]
