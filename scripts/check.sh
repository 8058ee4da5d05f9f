#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make check`: every test of kstats, ending with one line
# "N passed, N failed[, N skipped]"; exit status 1 if any failed.
#
#   scripts/check.sh
#
# 1. scripts/deps.sh; the test kernel (scripts/test-kernel.sh).
# 2. Host checks: W=1 build, sparse (C=2), checkpatch --strict, kernel-doc.
# 3. Test kernel in QEMU: KUnit (kstats_test.ko), then tests/guest/run.sh,
#    then tests/reliability/ (4 vCPUs: stress, exact counts, faults, access),
#    then a lockdown=confidentiality boot (tests/reliability/lockdown.sh)
#    with kstats.ko signed by the test kernel's key; then the planted bugs
#    of tests/mutants/ must each make their suite fail (scripts/mutants.sh).
# 4. Debian 6.1, 6.12 and 6.1-rt: build against their headers, run
#    tests/guest/run.sh in QEMU with their kernel, two suites side by side,
#    then boot each with lockdown=confidentiality: the unsigned kstats.ko
#    must be refused.
#    Debian's arm64 6.1 and 6.12 (scripts/arm64-kernels.sh): cross-built
#    (W=1, sparse), tests/guest/run.sh in qemu-system-aarch64, each
#    kernel's suite beside the next one's build and suite.
# 5. Host: make install/uninstall and DKMS (scripts/install-test.sh), and
#    Prometheus end to end (scripts/prom-e2e.sh), side by side.
# 6. make -C tools check.
# The kernels' results go to build/support.md (scripts/support-table.sh).
# Each kernel's build is in build/<kernel release>/, logs in build/logs/.
# KSTATS_VM_TIMEOUT (default 600) bounds each QEMU run;
# KSTATS_ARM64_VM_TIMEOUT (default 1200) the arm64 suites', which run about
# ten minutes under TCG (its text patching, emulated, is the slow part);
# KSTATS_X86_PAIR_VM_TIMEOUT (default 900) the x86-64 Debian kernels'
# suites, about six minutes alone, side by side two at a time.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$KSTATS_ROOT"

B=$KSTATS_ROOT/build
LOGS=$B/logs
VM_TIMEOUT=${KSTATS_VM_TIMEOUT:-600}
ARM64_VM_TIMEOUT=${KSTATS_ARM64_VM_TIMEOUT:-1200}
X86_PAIR_VM_TIMEOUT=${KSTATS_X86_PAIR_VM_TIMEOUT:-900}
rm -rf "$LOGS" "$B/guest-bin"
mkdir -p "$LOGS"

npass=0 nfail=0 nskip=0
failures=()
pass() { npass=$((npass + 1)); echo "PASS: $1"; }
skip() { nskip=$((nskip + 1)); echo "SKIP: $1 ($2)"; }
# fail NAME [DETAILS]
fail() {
	nfail=$((nfail + 1))
	failures+=("$1")
	echo "FAIL: $1"
	[ -z "${2:-}" ] || printf '%s\n' "$2" | head -n 40 | sed 's/^/    /'
}
# check NAME DETAILS: pass when DETAILS is empty
check() { if [ -z "$2" ]; then pass "$1"; else fail "$1" "$2"; fi; }

T0=$(now)
TP=$T0
phase() {
	local t
	t=$(now)
	[ -z "${PHASE:-}" ] || echo "== $PHASE: $((t - TP)) s"
	PHASE=$1 TP=$t
	[ -z "$PHASE" ] || echo "== $PHASE"
}

# Module targets of a tree: bench/ only once it exists.
TARGETS=(modules tests examples)
[ ! -e bench/Kbuild ] && [ ! -e bench/Makefile ] || TARGETS+=(bench-modules)

# build_for NAME KDIR MAKE-ARGS...: one test; on failure the error lines,
# or the log's last lines when it has none.  A build that failed with no
# diagnostic from the compiler, the linker or modpost (a tool killed or
# crashed: make says "Killed" or "Segmentation fault", no "error:") is built
# once more, and says so; its first log is kept as build-NAME.first.log.
build_for() {
	local name=$1 log=$LOGS/build-$1.log
	if kbuild_copy "$@"; then
		pass "build ($name)"
		return 0
	fi
	if ! grep -qi 'error:' "$log"; then
		cp "$log" "$LOGS/build-$name.first.log"
		echo "    build ($name) failed with no error: built again; it said:"
		tail -n 5 "$log" | sed 's/^/      /'
		if kbuild_copy "$@"; then
			pass "build ($name)"
			return 0
		fi
	fi
	fail "build ($name)" "$(grep -Ei 'error' "$log" | head -n 20 | grep . ||
		tail -n 20 "$log")"
	return 1
}

# count_tap NAME TAP-FILE: add a TAP file's results to the totals; sets
# p f s (passed, failed, skipped) in the caller.
count_tap() {
	local counts line
	counts=$(scripts/tap.sh --prefix "$1" < "$2" || true)
	read -r p f s <<< "$(head -n1 <<< "$counts" | tr -c '0-9\n' ' ')"
	npass=$((npass + p)) nskip=$((nskip + s))
	echo "    $1: $p passed, $f failed, $s skipped"
	while IFS= read -r line; do
		fail "$line"
	done < <(sed -n 's/^not ok: //p' <<< "$counts")
}

# host_run NAME CMD...: run a host test script that prints TAP (may run in
# the background); host_count NAME: then count its results.
host_run() {
	local name=$1 rc=0
	shift
	"$@" > "$LOGS/tap-$name.txt" 2> "$LOGS/$name.err" || rc=$?
	echo "$rc" > "$LOGS/$name.rc"
}
host_count() {
	local name=$1 rc p f s
	rc=$(cat "$LOGS/$name.rc" 2>/dev/null || echo "no exit status")
	count_tap "$name" "$LOGS/tap-$name.txt"
	[ "$rc" = 0 ] || [ "$f" -gt 0 ] || fail "$name: exited $rc" "$(tail -n 20 "$LOGS/$name.err")"
}

# The support table (README, scripts/support-table.sh): one row per kernel.
SUPPORT=$B/support.md
SUPPORT_REV=
! git rev-parse --short HEAD > /dev/null 2>&1 ||
	SUPPORT_REV=", commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' with local changes')"
printf '| kernel | build | integration suite in QEMU | trace mechanism |\n|---|---|---|---|\n' > "$SUPPORT"
support_row() { printf '| %s | %s | %s | %s |\n' "$@" >> "$SUPPORT"; }
# tap_result NAME...: "P passed, F failed" over the TAP files of NAMEs.
tap_result() {
	local n
	for n in "$@"; do
		[ -f "$LOGS/tap-$n.txt" ] || { echo "not run"; return; }
		scripts/tap.sh < "$LOGS/tap-$n.txt" | head -n1 || true
	done | awk -F'[= ]' '{ p += $2; f += $4 } END { if (NR) printf "%d passed, %d failed\n", p, f }'
}
mech_of() {
	local d=
	grep -qE '^CONFIG_(X86_64|ARM64)=y' "$1/.config" 2>/dev/null &&
		grep -q '^CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS=y' "$1/.config" 2>/dev/null &&
		grep -q '^CONFIG_DEBUG_INFO_BTF=y' "$1/.config" 2>/dev/null && d="direct, then "
	if grep -q '^CONFIG_FPROBE=y' "$1/.config" 2>/dev/null; then
		echo "${d}fprobe (kretprobe for notrace functions)"
	else
		echo "${d}kretprobe (no CONFIG_FPROBE)"
	fi
}

# vm_run NAME VM-RUN-ARGS...: one QEMU run; its exit status in the
# caller's rc.
vm_run() {
	local name=$1
	shift
	rc=0
	scripts/vm-run.sh --timeout "$VM_TIMEOUT" --log "$LOGS/vm-$name.log" "$@" \
		> "$LOGS/tap-$name.txt" 2> "$LOGS/vm-$name.err" || rc=$?
}

# vm_again NAME WHY KEPT VM-RUN-ARGS...: say WHY, keep the console log as
# vm-NAME.KEPT.log, and run once more.
vm_again() {
	local name=$1 why=$2 kept=$3
	shift 3
	echo "    $name: $why (first console log: $LOGS/vm-$name.$kept.log)"
	mv "$LOGS/vm-$name.log" "$LOGS/vm-$name.$kept.log" 2>/dev/null || true
	vm_run "$name" "$@"
}

# vm_test NAME VM-RUN-ARGS...: one QEMU run, its TAP counted.
vm_test() {
	vm_test_run "$@"
	vm_test_count "$1"
}

# vm_test_run NAME VM-RUN-ARGS...: the run, and its one rerun (below); its
# exit status is left in rc-NAME for vm_test_count.  It counts nothing, so
# it may run in the background.
vm_test_run() {
	local name=$1 rc=0
	shift
	vm_run "$name" "$@"
	# A kernel that died before the guest's init started the suite never
	# ran our code (the modules load from the suite): a boot flake of TCG
	# (an int3 left at a patched site), so boot once more, and say so.
	if [ $rc != 0 ] && ! grep -q '^KSTATS-GUEST-START' "$LOGS/vm-$name.log" 2>/dev/null; then
		vm_again "$name" "the kernel died before the guest started; booting again" \
			boot-flake "$@"
	fi
	# A guest that hung with no kernel report at all (no BUG, no stall, no
	# blocked task, not even the in-guest watchdog's dump: every vCPU
	# stopped): TCG has hung a guest in text patching, so boot once more,
	# with every vCPU on one host thread (MTTCG off), and say so, keeping
	# the first console log; a hang that comes back fails.
	if [ $rc = 1 ] && grep -q '^  timeout: killed after' "$LOGS/vm-$name.err" &&
	   ! grep -qE '^  \[ *[0-9]+\.[0-9]+\]' "$LOGS/vm-$name.err"; then
		vm_again "$name" "the guest hung with no kernel report; running again on one TCG thread" \
			hang "$@" --tcg-single
	# The same TCG fault seen from inside: one vCPU trapping on an int3
	# of text_poke_bp() (exc_int3 in its NMI backtrace) long after the
	# other, in text_poke_bp() itself, restored the site, and the other
	# stuck waiting for it (a soft lockup, an RCU stall): MTTCG ran a
	# stale translation of the patched code.  Once more on one TCG
	# thread, saying so; a lockup that comes back fails.
	elif [ $rc = 1 ] && grep -qE 'soft lockup|self-detected stall' "$LOGS/vm-$name.log" &&
	     grep -q 'exc_int3' "$LOGS/vm-$name.log" &&
	     grep -q 'text_poke_bp' "$LOGS/vm-$name.log"; then
		vm_again "$name" "a vCPU looped on a text_poke_bp() int3 (TCG); running again on one TCG thread" \
			int3-lockup "$@" --tcg-single
	fi
	echo "$rc" > "$LOGS/rc-$name"
}

# vm_test_count NAME: the times of vm_test_run NAME, its TAP counted, its
# exit status judged.
vm_test_count() {
	local name=$1 rc p f s

	rc=$(cat "$LOGS/rc-$name" 2>/dev/null || echo "no status")
	grep -E '^vm-run.sh: [^ ]+: [0-9.]+ s' "$LOGS/vm-$name.err" | sed 's/^vm-run.sh: /    /' || true
	grep -E '^# (kfuzz|reliability|lockdown)' "$LOGS/tap-$name.txt" | sed 's/^# /    /' || true
	count_tap "$name" "$LOGS/tap-$name.txt"
	case $rc in
	0) [ $((p + f + s)) -gt 0 ] || fail "$name: no test results" ;;
	1) fail "$name: kernel log" "$(grep -v '^vm-run.sh: [^ ]*: [0-9.]* s' "$LOGS/vm-$name.err")" ;;
	3) [ "$f" -gt 0 ] || fail "$name: guest script exited non-zero" ;;
	*) fail "$name: vm-run.sh exited $rc" "$(cat "$LOGS/vm-$name.err")" ;;
	esac
}

# integration NAME KERNEL-IMAGE BUILD-DIR [VM-RUN-ARGS...]
integration() {
	if [ ! -f tests/guest/run.sh ]; then
		skip "$1" "tests/guest/run.sh not written yet"
		return
	fi
	integration_run "$@"
	vm_test_count "$1"
}

# integration_run NAME KERNEL-IMAGE BUILD-DIR [VM-RUN-ARGS...]: its run
# alone (vm_test_run), which may go to the background; vm_test_count NAME
# counts it.
integration_run() {
	local name=$1 image=$2 dir=$3
	shift 3
	guest_adds "$dir"
	suite_args integration "$dir"
	vm_test_run "$name" --kernel "$image" "${SUITE_ARGS[@]}" "${GUEST_ADDS[@]}" "$@"
}

# reliability KERNEL-IMAGE BUILD-DIR: tests/reliability/ on 4 vCPUs
# (stress, exact counts, faults, access).
reliability() {
	local img=$1 dir=$2
	guest_adds "$dir"
	suite_args reliability "$dir"
	vm_test reliability --kernel "$img" "${SUITE_ARGS[@]}" "${GUEST_ADDS[@]}"
}

# lockdown NAME KERNEL-IMAGE BUILD-DIR [KDIR]: boot with
# lockdown=confidentiality and run tests/reliability/lockdown.sh.  With KDIR
# (a tree built with MODULE_SIG), kstats.ko and kstats_stress.ko are first
# signed with its key, so that they load; otherwise they stay unsigned and
# the kernel must refuse them.
lockdown() {
	local name=$1 img=$2 dir=$3 kdir=${4:-} ld=$3/lockdown hash f
	rm -rf "$ld"
	mkdir -p "$ld"
	for f in "$dir/kstats.ko" "$dir/examples/kstats_example.ko" \
		 "$dir/tests/kstats_stress.ko"; do
		[ ! -f "$f" ] || cp "$f" "$ld/"
	done
	if [ -n "$kdir" ]; then
		hash=$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"$/\1/p' "$kdir/.config")
		for f in "$ld/kstats.ko" "$ld/kstats_stress.ko"; do
			"$kdir/scripts/sign-file" "${hash:-sha512}" "$kdir/certs/signing_key.pem" \
				"$kdir/certs/signing_key.x509" "$f" 2> "$LOGS/sign-$name.log" || {
				fail "$name: sign-file $(basename "$f")" "$(cat "$LOGS/sign-$name.log")"
				return
			}
		done
	fi
	guest_adds "$dir" "$ld"/*.ko
	vm_test "$name" --kernel "$img" --append lockdown=confidentiality \
		--script "$dir/tests/reliability/lockdown.sh" "${GUEST_ADDS[@]}"
}

phase "dependencies"
scripts/deps.sh

phase "test kernel"
KDIR_TEST=
if KDIR_TEST=$(scripts/test-kernel.sh 2> "$LOGS/test-kernel.log" | tail -n1) && [ -n "$KDIR_TEST" ]; then
	grep -E '^test-kernel.sh:' "$LOGS/test-kernel.log" | sed 's/^/    /'
else
	fail "test kernel build" "$(tail -n 20 "$LOGS/test-kernel.log")"
	KDIR_TEST=
fi

phase "guest helpers"
bad=$(guest_helpers)
for n in $bad; do
	fail "guest helper $n" "$(grep -E 'error|warning' "$LOGS/helper-$n.log")"
done

if [ -n "$KDIR_TEST" ]; then
	phase "host checks (test kernel $(kernel_release "$KDIR_TEST"))"
	TNAME=$(kernel_release "$KDIR_TEST")
	TDIR=$B/$TNAME
	if build_for "$TNAME" "$KDIR_TEST" W=1 "${TARGETS[@]}"; then
		check "W=1 build warnings" "$(grep -E 'warning:' "$LOGS/build-$TNAME.log" || true)"
		make -C "$TDIR" KDIR="$KDIR_TEST" C=2 "${TARGETS[@]}" > "$LOGS/sparse.log" 2>&1 ||
			echo "warning: make C=2 exited non-zero" >> "$LOGS/sparse.log"
		check "sparse (C=2)" "$(grep -E 'warning:|error:' "$LOGS/sparse.log" || true)"
	else
		TDIR=
	fi
	files=$(project_files | grep -E '^(kstats[^/]*\.[ch]|(tests|examples|bench)/[^/]*\.c)$' || true)
	# shellcheck disable=SC2086
	"$KDIR_TEST/scripts/checkpatch.pl" --strict --no-tree --no-summary -f $files \
		> "$LOGS/checkpatch.log" 2>&1 || true
	check "checkpatch --strict" "$(grep -E -A1 '^(ERROR|WARNING|CHECK):' "$LOGS/checkpatch.log" || true)"
	kd=$(project_files kstats.h kstats.c)
	# shellcheck disable=SC2086
	check "kernel-doc" "$("$KDIR_TEST/scripts/kernel-doc" -none $kd 2>&1 || echo "kernel-doc exited $?")"

	if [ -n "$TDIR" ]; then
		phase "test kernel in QEMU"
		TIMG=$KDIR_TEST/arch/x86/boot/bzImage
		cat > "$TDIR/kunit-guest.sh" <<'EOF'
# Generated by scripts/check.sh: load kstats and its KUnit modules, print
# the KTAP of every suite they added.
before=" $(ls /sys/kernel/debug/kunit 2>/dev/null | tr '\n' ' ') "
for m in kstats kstats_test kstats_elf_test; do
	insmod /kstats/$m.ko || { printf '1..1\nnot ok 1 - insmod %s.ko\n' $m; exit 1; }
done
n=0
for d in /sys/kernel/debug/kunit/*/; do
	s=$(basename "$d")
	case $before in *" $s "*) continue ;; esac
	cat "$d/results"
	n=$((n + 1))
done
[ $n -gt 0 ] || printf '1..1\nnot ok 1 - KUnit results in debugfs\n'
if rmmod kstats_elf_test && rmmod kstats_test && rmmod kstats; then
	printf '1..1\nok 1 - rmmod kstats_elf_test kstats_test kstats\n'
else
	printf '1..1\nnot ok 1 - rmmod kstats_elf_test kstats_test kstats\n'
fi
EOF
		if [ ! -f "$TDIR/tests/kstats_test.ko" ]; then
			fail "kunit: tests/kstats_test.ko was not built" \
				"tests/Kbuild must make it a module (obj-m) also when CONFIG_KUNIT=y"
		else
			vm_test kunit --kernel "$TIMG" --mem 2048 \
				--script "$TDIR/kunit-guest.sh" --add "$TDIR/kstats.ko" \
				--add "$TDIR/tests/kstats_test.ko" \
				--add "$TDIR/tests/kstats_elf_test.ko"
		fi
		integration "integration-test-kernel" "$TIMG" "$TDIR" --mem 2048
		phase "reliability (test kernel, 4 vCPUs)"
		reliability "$TIMG" "$TDIR"
		phase "lockdown=confidentiality (test kernel, signed modules)"
		lockdown lockdown-test-kernel "$TIMG" "$TDIR" "$KDIR_TEST"
		phase "planted bugs (test kernel, tests/mutants/)"
		host_run mutants scripts/mutants.sh --kdir "$KDIR_TEST"
		grep -E '^#' "$LOGS/tap-mutants.txt" | sed 's/^# /    /' || true
		host_count mutants
	fi
	built="**failed**"
	[ -z "$TDIR" ] || built="ok (W=1)"
	support_row "debug test kernel (\`$TNAME\`: 6.12 source, KASAN, lockdep)" "$built" \
		"$(tap_result kunit integration-test-kernel) (KUnit + suite)" "$(mech_of "$KDIR_TEST")"
fi

# Debian's x86-64 kernels: each suite runs in the background, two at a time
# (a TCG guest takes about one host thread), beside the next kernel's
# build; all are counted once they are done, in order, each followed by
# its lockdown boot.
phase "Debian x86-64 (6.1, 6.12, 6.1-rt)"
ran=() pids=()
while read -r name image kdir; do
	label="Debian $name"
	if [ "$image" = - ]; then
		skip "$label" "no kernel image in /boot"
		support_row "$label" "not installed" "not run" -
		continue
	fi
	if [ "$kdir" = - ]; then
		skip "$label" "no headers for ${image#/boot/vmlinuz-} (/lib/modules/*/build)"
		support_row "$label" "no headers" "not run" -
		continue
	fi
	kver=${image#/boot/vmlinuz-}
	if ! build_for "$kver" "$kdir" modules tests examples; then
		support_row "$label (\`$kver\`)" "**failed**" "not run" "$(mech_of "$kdir")"
		continue
	fi
	ran+=("$name $image $kver $kdir")
	# the skip of a suite not yet written is counted below
	[ -f tests/guest/run.sh ] || continue
	if [ ${#pids[@]} -ge 2 ]; then
		wait "${pids[0]}" || true
		pids=("${pids[@]:1}")
	fi
	# 6.12's boot also gets libbpf-tools, for the cross-checks against them
	integration_peers "$name"
	integration_run "integration-$name" "$image" "$B/$kver" "${PEER_ADDS[@]}" \
		--timeout "$X86_PAIR_VM_TIMEOUT" < /dev/null &
	pids+=($!)
done < <(debian_kernels)
# a run's status is in its rc- file, not in wait's
[ ${#pids[@]} = 0 ] || wait "${pids[@]}" || true
for r in "${ran[@]}"; do
	read -r name image kver kdir <<< "$r"
	if [ -f tests/guest/run.sh ]; then
		vm_test_count "integration-$name"
	else
		skip "integration-$name" "tests/guest/run.sh not written yet"
	fi
	lockdown "lockdown-$name" "$image" "$B/$kver"
	support_row "Debian $name (\`$kver\`)" ok "$(tap_result "integration-$name")" "$(mech_of "$kdir")"
done
# Debian's arm64 kernels (scripts/arm64-kernels.sh fetches and caches
# them): cross-built with W=1 and sparse, the integration suite in
# qemu-system-aarch64 with the helpers cross-built for it.
phase "Debian arm64 (cross-built, qemu-system-aarch64)"
if ! scripts/arm64-kernels.sh > "$LOGS/arm64-kernels.txt" 2> "$LOGS/arm64-kernels.log"; then
	fail "arm64 kernels: fetch" "$(tail -n 20 "$LOGS/arm64-kernels.log")"
else
	bad=$(guest_helpers arm64)
	for n in $bad; do
		fail "guest helper $n (arm64)" "$(grep -E 'error|warning' "$LOGS/helperarm64-$n.log")"
	done
	# Each kernel's suite runs in the background, beside the next one's
	# build and suite (a TCG guest takes one host thread); all are counted
	# once they are done, in order.
	ran=() pids=()
	while read -r name image kdir mdir; do
		case $name in busybox|sysroot) continue ;; esac
		label="Debian $name arm64"
		kver=$(basename "$mdir")
		if ! build_for "$kver" "$kdir" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- W=1 \
			"${TARGETS[@]}"; then
			support_row "$label (\`$kver\`)" "**failed**" "not run" "$(mech_of "$kdir")"
			continue
		fi
		check "W=1 build warnings ($kver)" "$(grep -E 'warning:' "$LOGS/build-$kver.log" || true)"
		make -C "$B/$kver" KDIR="$kdir" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- C=2 \
			"${TARGETS[@]}" > "$LOGS/sparse-$kver.log" 2>&1 ||
			echo "warning: make C=2 exited non-zero" >> "$LOGS/sparse-$kver.log"
		check "sparse (C=2, $kver)" "$(grep -E 'warning:|error:' "$LOGS/sparse-$kver.log" || true)"
		GUEST_ARCH=arm64 guest_adds "$B/$kver"
		suite_args integration "$B/$kver" "$mdir"
		vm_test_run "integration-arm64-$name" --arch arm64 --kernel "$image" \
			"${SUITE_ARGS[@]}" "${GUEST_ADDS[@]}" --timeout "$ARM64_VM_TIMEOUT" \
			< /dev/null &
		pids+=($!)
		ran+=("$name $kver $kdir")
	done < "$LOGS/arm64-kernels.txt"
	# a run's status is in its rc- file, not in wait's
	[ ${#pids[@]} = 0 ] || wait "${pids[@]}" || true
	for r in "${ran[@]}"; do
		read -r name kver kdir <<< "$r"
		vm_test_count "integration-arm64-$name"
		support_row "Debian $name arm64 (\`$kver\`)" "ok (W=1, sparse)" \
			"$(tap_result "integration-arm64-$name")" "$(mech_of "$kdir")"
	done
fi
printf '\nFrom `make check` on %s%s.\n' "$(date -u +%F)" "$SUPPORT_REV" >> "$SUPPORT"

phase "install and DKMS, Prometheus end to end"
host_run prom-e2e scripts/prom-e2e.sh &
host_run install scripts/install-test.sh
wait $!
host_count install
host_count prom-e2e

if [ -f tools/Makefile ]; then
	phase "tools"
	copy_tree "$B/host"
	rc=0
	make -C "$B/host/tools" check > "$LOGS/tools.log" 2>&1 || rc=$?
	sum=$(grep -E '^([A-Za-z]+: )?[0-9]+ passed, [0-9]+ failed' "$LOGS/tools.log" | tail -n1 || true)
	if [ -z "$sum" ]; then
		fail "tools check" "no 'N passed, N failed' line (exit $rc); $(tail -n 15 "$LOGS/tools.log")"
	else
		read -r p f s <<< "$(sed -E 's/^[A-Za-z]+: //' <<< "$sum" | tr -c '0-9\n' ' ')"
		echo "    tools: $sum"
		npass=$((npass + p)) nskip=$((nskip + ${s:-0}))
		mapfile -t names < <(grep -E '^(FAIL|not ok)' "$LOGS/tools.log" |
			sed -E 's/^(FAIL|not ok)[ :-]*//' | head -n "$f")
		for ((i = 0; i < f; i++)); do
			fail "tools: ${names[i]:-failure $((i + 1)) (build/logs/tools.log)}"
		done
		[ "$rc" = 0 ] || [ "$f" -gt 0 ] || fail "tools check exited $rc"
	fi
fi

phase ""
echo "== total: $(($(now) - T0)) s, logs in ${LOGS#$KSTATS_ROOT/}/"
for f in "${failures[@]}"; do
	echo "failed: $f"
done
summary="$npass passed, $nfail failed"
[ "$nskip" = 0 ] || summary+=", $nskip skipped"
echo "$summary"
[ "$nfail" = 0 ]
