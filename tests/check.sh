#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make check`: every test of kstats, ending with one line
# "N passed, N failed[, N skipped]"; exit status 1 if any failed.
#
#   tests/check.sh
#
# 1. scripts/deps.sh; the test kernel (tests/test-kernel.sh).
# 2. Host checks: W=1 build, sparse (C=2), checkpatch --strict, kernel-doc.
# 3. Test kernel in QEMU: KUnit (kstats_test.ko), then tests/guest/run.sh,
#    then tests/reliability/ (4 vCPUs: stress, exact counts, faults, load
#    faults, access), then a lockdown=confidentiality boot
#    (tests/reliability/lockdown.sh) with kstats.ko signed by the test
#    kernel's key; then the planted bugs of tests/mutants/ must each make
#    their suite fail (tests/mutants.sh).
# 4. Debian 6.1, 6.12 and 6.1-rt: build against their headers, run
#    tests/guest/run.sh in QEMU with their kernel, then boot each with
#    lockdown=confidentiality: the unsigned kstats.ko must be refused.
#    Debian's arm64 6.1 and 6.12 (scripts/arm64-kernels.sh): cross-built
#    (W=1, sparse), tests/guest/run.sh in qemu-system-aarch64.
# 5. Host: make install/uninstall and DKMS (tests/install-test.sh), and
#    Prometheus end to end (tests/prom-e2e.sh).
# 6. make -C tools check.
# The builds run in order in the foreground; the QEMU runs, the mutants
# and the host suites of 5 and 6 are jobs, run in the background two at a
# time (below); every result is counted in the order it was queued.
# A long suite is split into boots of its own (SUITE_PARTS below), so that
# no guest runs over about 5 minutes; each guest's time and timeout are
# printed ("guest NAME: S s, timeout T s"), and scripts/readme-figures.sh
# makes Documentation/testing.rst's table of them.
# The kernels' results go to build/support.md (tests/support-table.sh).
# Each kernel's build is in build/<kernel release>/, logs in build/logs/.
# KSTATS_VM_TIMEOUT (default 1200: the debug kernel's boots take up to
# about 600 s on a busy 2-core host) bounds each QEMU run;
# KSTATS_ARM64_VM_TIMEOUT and KSTATS_X86_PAIR_VM_TIMEOUT (default: the
# same) those of the arm64 and of the x86-64 Debian kernels' suites.
# KSTATS_CHECK_JOBS (default 2) is how many jobs run at a time while the
# foreground builds; KSTATS_CHECK_DRAIN_JOBS (default 3) once it is done.
# KSTATS_CHECK_STAGES, a list of some of host, test-kernel, reliability,
# lockdown, mutants, debian, arm64, install, tools, runs only those (for
# working on this script; the test kernel is built for any of the first
# five); the default is all.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
cd "$KSTATS_ROOT"

B=$KSTATS_ROOT/build
LOGS=$B/logs
VM_TIMEOUT=${KSTATS_VM_TIMEOUT:-1200}
ARM64_VM_TIMEOUT=${KSTATS_ARM64_VM_TIMEOUT:-$VM_TIMEOUT}
X86_PAIR_VM_TIMEOUT=${KSTATS_X86_PAIR_VM_TIMEOUT:-$VM_TIMEOUT}
JOBS=${KSTATS_CHECK_JOBS:-2}
DRAIN_JOBS=${KSTATS_CHECK_DRAIN_JOBS:-3}
STAGES=${KSTATS_CHECK_STAGES:-}
for s in $STAGES; do
	case $s in
	host|test-kernel|reliability|lockdown|mutants|debian|arm64|install|tools) ;;
	*) die "KSTATS_CHECK_STAGES: no stage '$s'" ;;
	esac
done
# want STAGE: whether KSTATS_CHECK_STAGES runs it
want() { [ -z "$STAGES" ] || [[ " $STAGES " == *" $1 "* ]]; }
rm -rf "$LOGS" "$B/guest-bin"
mkdir -p "$LOGS"
# the machine as the run found it: a busy one shows in the load average
# (the figures' table says it with the guests' times)
echo "== stages: ${STAGES:-all}; jobs at a time: $JOBS, then $DRAIN_JOBS;" \
	"$(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg) at the start"

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
	counts=$(tests/tap.sh --prefix "$1" < "$2" || true)
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
	grep -E '^# guest ' "$LOGS/tap-$name.txt" | sed 's/^# /    /' || true
	count_tap "$name" "$LOGS/tap-$name.txt"
	[ "$rc" = 0 ] || [ "$f" -gt 0 ] || fail "$name: exited $rc" "$(tail -n 20 "$LOGS/$name.err")"
}

# The support table (README, tests/support-table.sh): one row per kernel.
SUPPORT=$B/support.md
SUPPORT_REV=
! git rev-parse --short HEAD > /dev/null 2>&1 ||
	SUPPORT_REV=", commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' with local changes')"
printf '| kernel | build | integration suite in QEMU | trace mechanism |\n|---|---|---|---|\n' > "$SUPPORT"
support_row() { printf '| %s | %s | %s | %s |\n' "$@" >> "$SUPPORT"; }
# tap_result NAME...: "P passed, F failed" over the TAP files of NAMEs,
# "not run" if one has none.
tap_result() {
	local n
	for n in "$@"; do
		[ -f "$LOGS/tap-$n.txt" ] || { echo "not run"; return; }
	done
	[ $# -gt 0 ] || { echo "not run"; return; }
	for n in "$@"; do
		tests/tap.sh < "$LOGS/tap-$n.txt" | head -n1 || true
	done | awk -F'[= ]' '{ p += $2; f += $4 } END { printf "%d passed, %d failed\n", p, f }'
}
# support_tap LABEL BUILD MECHANISM RUN-NAME...: a kernel's row, with the
# results of its runs.
support_tap() {
	local label=$1 built=$2 mech=$3
	shift 3
	support_row "$label" "$built" "$(tap_result "$@")" "$mech"
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

# --- jobs ----------------------------------------------------------------------
# A TCG guest keeps one host core busy for minutes; so do the mutants (a
# build, then a guest, each in turn) and the host suites.  They are jobs:
# `job NAME CMD...` queues one, and the jobs run in the background, in the
# order queued, at most JOBS at a time (two on this 2-core machine: the
# foreground's builds take the rest), each started as soon as a slot is
# free (job_pump, called between the builds; jobs_drain at the end).
# Results are counted by `later`, in the order of the calls, each as soon
# as the jobs it waits for are done (results_ready), so the log reads as if
# everything had run one after the other.
JOB_Q=() JOB_PIDS=() LATER=()
job() {
	local name=$1
	shift
	rm -f "$LOGS/.done-$name"
	JOB_Q+=("$name $(printf '%q ' "$@")")
	job_pump
}
# job_pump: start queued jobs while a slot is free
job_pump() {
	local p live=() name cmd
	for p in "${JOB_PIDS[@]}"; do
		! kill -0 "$p" 2>/dev/null || live+=("$p")
	done
	JOB_PIDS=("${live[@]}")
	while [ ${#JOB_Q[@]} -gt 0 ] && [ ${#JOB_PIDS[@]} -lt "$JOBS" ]; do
		name=${JOB_Q[0]%% *} cmd=${JOB_Q[0]#* }
		JOB_Q=("${JOB_Q[@]:1}")
		# a job keeps its own exit status (rc-NAME, NAME.rc): its
		# end is marked whatever it returns
		( eval "$cmd" || true; : > "$LOGS/.done-$name" ) < /dev/null &
		JOB_PIDS+=($!)
	done
}
# jobs_drain: run every queued job, wait for all, count every result; a
# job that ended without its mark (killed) is a failure, not a gap.  With
# the builds done, DRAIN_JOBS at a time: a guest spends about a third of
# its time asleep in its tests (waiting for a peer's BPF programs, for a
# workload's sleeps; CPU 3872 s of 6087 s in all), time a third one uses.
jobs_drain() {
	local name
	JOBS=$DRAIN_JOBS
	job_pump
	while [ ${#JOB_PIDS[@]} -gt 0 ]; do
		wait -n "${JOB_PIDS[@]}" || true
		job_pump
		results_ready
	done
	while [ ${#LATER[@]} -gt 0 ]; do
		name=${LATER[0]%% *}
		if [ "$name" != - ] && [ ! -e "$LOGS/.done-$name" ]; then
			fail "$name: the job ended without finishing"
			: > "$LOGS/.done-$name"
		fi
		results_ready
	done
}
# later JOB-NAME|- CMD...: run CMD (a count, a row of the support table)
# once the job is done, after every earlier `later`
later() {
	local name=$1
	shift
	LATER+=("$name $(printf '%q ' "$@")")
}
results_ready() {
	local name
	while [ ${#LATER[@]} -gt 0 ]; do
		name=${LATER[0]%% *}
		[ "$name" = - ] || [ -e "$LOGS/.done-$name" ] || return 0
		eval "${LATER[0]#* }"
		LATER=("${LATER[@]:1}")
	done
}

# --- guests ----------------------------------------------------------------------
# vm_run NAME VM-RUN-ARGS...: one QEMU run (a job); its exit status in
# rc-NAME, for vm_count NAME.  A guest that hangs or dies is not booted
# again: every guest runs on one TCG thread (vm-run.sh), where a hang is a
# failure to look at (its console log, the watchdog's dump of the kernel's
# log), not QEMU's MTTCG bug (scripts/qemu-mttcg-freeze.sh reproduces
# that one).  A --timeout in ARGS overrides VM_TIMEOUT.
vm_run() {
	local name=$1 rc=0
	shift
	tests/vm-run.sh --timeout "$VM_TIMEOUT" --log "$LOGS/vm-$name.log" "$@" \
		> "$LOGS/tap-$name.txt" 2> "$LOGS/vm-$name.err" || rc=$?
	echo "$rc" > "$LOGS/rc-$name"
}

# vm_job NAME VM-RUN-ARGS...: vm_run as a job, counted in turn
vm_job() {
	job "$1" vm_run "$@"
	later "$1" vm_count "$1"
}

# vm_count NAME: the guest's time against its timeout, its TAP counted,
# its exit status judged.
vm_count() {
	local name=$1 rc p f s secs to ex
	rc=$(cat "$LOGS/rc-$name" 2>/dev/null || echo "no status")
	secs=$(sed -n 's/^vm-run.sh: [^ ]*: \([0-9.]*\) s, .*/\1/p' "$LOGS/vm-$name.err" | tail -n1)
	ex=$(sed -n 's/^vm-run.sh: [^ ]*: [0-9.]* s, \(.*\)/\1/p' "$LOGS/vm-$name.err" | tail -n1)
	to=$(sed -n 's/.* timeout \([0-9]*\)s, log .*/\1/p' "$LOGS/vm-$name.err" | tail -n1)
	if [ -n "$secs" ]; then
		echo "    guest $name: $secs s, timeout ${to:-?} s ($ex)"
		if [ -n "$to" ] && awk -v s="$secs" -v t="$to" 'BEGIN { exit !(2 * s > t) }'; then
			echo "    note: $name took more than half its timeout"
		fi
	fi
	grep -E '^# (kfuzz|reliability|lockdown|stress)' "$LOGS/tap-$name.txt" | sed 's/^# /    /' || true
	count_tap "$name" "$LOGS/tap-$name.txt"
	case $rc in
	0) [ $((p + f + s)) -gt 0 ] || fail "$name: no test results" ;;
	1) fail "$name: kernel log" "$(grep -v '^vm-run.sh: [^ ]*: [0-9.]* s' "$LOGS/vm-$name.err")" ;;
	3) [ "$f" -gt 0 ] || fail "$name: guest script exited non-zero" ;;
	*) fail "$name: vm-run.sh exited $rc" "$(cat "$LOGS/vm-$name.err")" ;;
	esac
}

# The boots a kernel's integration suite is split into, so that none runs
# over about 5 minutes under TCG (Documentation/testing.rst has their
# times): one "SUFFIX SELECTION" per line, SELECTION a T_ONLY of
# tests/guest/run.sh.  The selections cover every t-NN file, each once:
# a new file joins the boot of its number.  The stress (t-60) is a boot of
# its own; t-25 (values) and t-26 (sections) are the longest of the rest.
# The stress makes at least 3 rounds, one of each way of removing (the
# debug kernel takes about 30 s a round, its load at nice 19), and as many as fit in 50 s.
# With "debug" (the debug kernel, KASAN and lockdep, three times slower
# than Debian's), t-25 to t-59 are split in five rather than two: values
# alone, sections and recipes, families and outliers, the tool alone,
# the rest (each at most about 4.5 minutes on an idle machine, where two
# were 8; families to the tool in one boot took 6.5).
suite_parts() {
	printf '%s\n' "-1 T_ONLY=0-24"
	if [ "${1:-}" = debug ]; then
		printf '%s\n' "-2 T_ONLY=25" "-3 T_ONLY=26-27" "-4 T_ONLY=28-29" \
			"-5 T_ONLY=30" "-6 T_ONLY=31-59"
	else
		printf '%s\n' "-2 T_ONLY=25-27" "-3 T_ONLY=28-59"
	fi
	printf '%s\n' "-stress T_ONLY=60-99 STRESS_MIN_ROUNDS=3"
}

# integration NAME KERNEL-IMAGE BUILD-DIR MODULES-DIR|- [VM-RUN-ARGS...]:
# queue the boots of its suite_parts (NAME and their suffix), each with
# VM-RUN-ARGS (peers...), the helpers of GUEST_ARCH (guest_adds); sets
# PARTS to their names.  MODULES-DIR is suite_args' (- for its default).
# Skips if the suite is not written.
integration() {
	local name=$1 image=$2 dir=$3 mdir=$4 suffix sel
	shift 4
	PARTS=()
	if [ ! -f tests/guest/run.sh ]; then
		later - skip "$name" "tests/guest/run.sh not written yet"
		return
	fi
	guest_adds "$dir"
	if [ "$mdir" = - ]; then
		suite_args integration "$dir"
	else
		suite_args integration "$dir" "$mdir"
	fi
	while read -r suffix sel; do
		vm_job "$name$suffix" --kernel "$image" --append "$sel" \
			"${SUITE_ARGS[@]}" "${GUEST_ADDS[@]}" "$@"
		PARTS+=("$name$suffix")
	done < <(suite_parts "${SUITE_SPLIT:-}")
}

# reliability KERNEL-IMAGE BUILD-DIR: tests/reliability/ on 4 vCPUs, in
# three boots: the load faults (r-25: 400 module loads, each with one
# allocation failing, many absorbed by the kernel, so a whole load and
# unload each, about a second of TCG on the debug kernel) apart, the
# loader's first allocations in one, the sysfs files' and kstats' init's,
# the last ones, in the other.
reliability() {
	local img=$1 dir=$2 r
	guest_adds "$dir"
	suite_args reliability "$dir"
	vm_job reliability --kernel "$img" --append T_SKIP=25 "${SUITE_ARGS[@]}" "${GUEST_ADDS[@]}"
	for r in 1-200 last-200; do
		vm_job "reliability-load-faults-$r" --kernel "$img" \
			--append "T_ONLY=25 LOAD_FAULTS=$r" "${SUITE_ARGS[@]}" "${GUEST_ADDS[@]}"
	done
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
				later - fail "$name: sign-file $(basename "$f")" "$(cat "$LOGS/sign-$name.log")"
				return
			}
		done
	fi
	guest_adds "$dir" "$ld"/*.ko
	vm_job "$name" --kernel "$img" --append lockdown=confidentiality \
		--script "$dir/tests/reliability/lockdown.sh" "${GUEST_ADDS[@]}"
}

# host_job NAME CMD...: host_run as a job, counted in turn (host_count)
host_job() {
	job "$1" host_run "$@"
	later "$1" host_count "$1"
}

# mutants_count: what tests/mutants.sh said of each mutant, its TAP
mutants_count() {
	grep -E '^#' "$LOGS/tap-mutants.txt" | grep -v '^# guest ' | sed 's/^# /    /' || true
	host_count mutants
}

# support_test_kernel RELEASE BUILD MECHANISM RUN-NAME...: its row
support_test_kernel() {
	local rel=$1 built=$2 mech=$3
	shift 3
	support_row "debug test kernel (\`$rel\`: 6.12 source, KASAN, lockdep)" "$built" \
		"$(tap_result "$@") (KUnit + suite)" "$mech"
}

# tools_run, tools_count: make -C tools check (a job), its summary counted
tools_run() {
	local rc=0
	copy_tree "$B/host"
	make -C "$B/host/tools" check > "$LOGS/tools.log" 2>&1 || rc=$?
	echo "$rc" > "$LOGS/tools.rc"
}
tools_count() {
	local rc sum p f s i names
	rc=$(cat "$LOGS/tools.rc" 2>/dev/null || echo "no exit status")
	sum=$(grep -E '^([A-Za-z]+: )?[0-9]+ passed, [0-9]+ failed' "$LOGS/tools.log" | tail -n1 || true)
	if [ -z "$sum" ]; then
		fail "tools check" "no 'N passed, N failed' line (exit $rc); $(tail -n 15 "$LOGS/tools.log")"
		return
	fi
	read -r p f s <<< "$(sed -E 's/^[A-Za-z]+: //' <<< "$sum" | tr -c '0-9\n' ' ')"
	echo "    tools: $sum"
	npass=$((npass + p)) nskip=$((nskip + ${s:-0}))
	mapfile -t names < <(grep -E '^(FAIL|not ok)' "$LOGS/tools.log" |
		sed -E 's/^(FAIL|not ok)[ :-]*//' | head -n "$f")
	for ((i = 0; i < f; i++)); do
		fail "tools: ${names[i]:-failure $((i + 1)) (build/logs/tools.log)}"
	done
	[ "$rc" = 0 ] || [ "$f" -gt 0 ] || fail "tools check exited $rc"
}

# The order of the jobs is the order of the stages below: the test
# kernel's first (its builds are done first), the arm64 suites, the
# slowest, before the host suites, which are short.
phase "dependencies"
scripts/deps.sh

KDIR_TEST=
if want host || want test-kernel || want reliability || want lockdown || want mutants; then
	phase "test kernel"
	if KDIR_TEST=$(tests/test-kernel.sh 2> "$LOGS/test-kernel.log" | tail -n1) && [ -n "$KDIR_TEST" ]; then
		grep -E '^test-kernel.sh:' "$LOGS/test-kernel.log" | sed 's/^/    /'
	else
		fail "test kernel build" "$(tail -n 20 "$LOGS/test-kernel.log")"
		KDIR_TEST=
	fi
fi

phase "guest helpers"
bad=$(guest_helpers)
for n in $bad; do
	fail "guest helper $n" "$(grep -E 'error|warning' "$LOGS/helper-$n.log")"
done

if [ -n "$KDIR_TEST" ]; then
	phase "test kernel $(kernel_release "$KDIR_TEST"): build, host checks, jobs in QEMU"
	TNAME=$(kernel_release "$KDIR_TEST")
	TDIR=$B/$TNAME
	TIMG=$KDIR_TEST/arch/x86/boot/bzImage
	if build_for "$TNAME" "$KDIR_TEST" W=1 "${TARGETS[@]}"; then
		check "W=1 build warnings" "$(grep -E 'warning:' "$LOGS/build-$TNAME.log" || true)"
	else
		TDIR=
	fi
	TK_RUNS=()
	if [ -n "$TDIR" ] && want test-kernel; then
		cat > "$TDIR/kunit-guest.sh" <<'GUEST'
# Generated by tests/check.sh: load kstats and its KUnit modules, print
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
GUEST
		# the debug kernel's suite first: its boots are the longest
		# of its jobs
		SUITE_SPLIT=debug integration integration-test-kernel "$TIMG" "$TDIR" - --mem 2048
		TK_RUNS=("${PARTS[@]}")
		if [ ! -f "$TDIR/tests/kstats_test.ko" ]; then
			later - fail "kunit: tests/kstats_test.ko was not built" \
				"tests/Kbuild must make it a module (obj-m) also when CONFIG_KUNIT=y"
		else
			vm_job kunit --kernel "$TIMG" --mem 2048 \
				--script "$TDIR/kunit-guest.sh" --add "$TDIR/kstats.ko" \
				--add "$TDIR/tests/kstats_test.ko" \
				--add "$TDIR/tests/kstats_elf_test.ko"
			TK_RUNS=(kunit "${TK_RUNS[@]}")
		fi
	fi
	[ -z "$TDIR" ] || ! want reliability || reliability "$TIMG" "$TDIR"
	[ -z "$TDIR" ] || ! want lockdown ||
		lockdown lockdown-test-kernel "$TIMG" "$TDIR" "$KDIR_TEST"
	if [ -n "$TDIR" ] && want mutants; then
		job mutants host_run mutants tests/mutants.sh --kdir "$KDIR_TEST"
		later mutants mutants_count
	fi
	if want host; then
		if [ -n "$TDIR" ]; then
			# W=1 as the build's: the same command lines, so make
			# only runs sparse on every file, without compiling again.
			make -C "$TDIR" KDIR="$KDIR_TEST" W=1 C=2 "${TARGETS[@]}" > "$LOGS/sparse.log" 2>&1 ||
				echo "warning: make C=2 exited non-zero" >> "$LOGS/sparse.log"
			check "sparse (C=2)" "$(grep -E 'warning:|error:' "$LOGS/sparse.log" || true)"
		fi
		files=$(project_files | grep -E '^((core|control|trace|mech|lib)/)?kstats[^/]*\.[ch]$|^(tests|examples|bench)/[^/]*\.c$' || true)
		# shellcheck disable=SC2086
		"$KDIR_TEST/scripts/checkpatch.pl" --strict --no-tree --no-summary -f $files \
			> "$LOGS/checkpatch.log" 2>&1 || true
		check "checkpatch --strict" "$(grep -E -A1 '^(ERROR|WARNING|CHECK):' "$LOGS/checkpatch.log" || true)"
		kd=$(project_files kstats.h core/kstats.c core/kstats_new.c)
		# shellcheck disable=SC2086
		check "kernel-doc" "$("$KDIR_TEST/scripts/kernel-doc" -none $kd 2>&1 || echo "kernel-doc exited $?")"
	fi
	built="**failed**"
	[ -z "$TDIR" ] || built="ok (W=1)"
	later - support_test_kernel "$TNAME" "$built" "$(mech_of "$KDIR_TEST")" "${TK_RUNS[@]}"
	job_pump
	results_ready
fi

# Debian's x86-64 kernels: each suite's boots, then its lockdown boot.
if want debian; then
	phase "Debian x86-64 (6.1, 6.12, 6.1-rt): builds"
	while read -r name image kdir; do
		label="Debian $name"
		if [ "$image" = - ]; then
			skip "$label" "no kernel image in /boot"
			later - support_row "$label" "not installed" "not run" -
			continue
		fi
		if [ "$kdir" = - ]; then
			skip "$label" "no headers for ${image#/boot/vmlinuz-} (/lib/modules/*/build)"
			later - support_row "$label" "no headers" "not run" -
			continue
		fi
		kver=${image#/boot/vmlinuz-}
		if ! build_for "$kver" "$kdir" modules tests examples; then
			later - support_row "$label (\`$kver\`)" "**failed**" "not run" "$(mech_of "$kdir")"
			continue
		fi
		# 6.12's boots also get libbpf-tools, for the cross-checks
		# against them
		integration_peers "$name"
		# 6.1's boots make 64 CPUs possible, 2 online, as firmware that
		# lists CPUs it may add does: every per-CPU allocation sized for
		# 64, the outliers' stores made for the 2 online (t-29: keep
		# 65536 stack 64 under 256 MiB).  6.12 takes possible_cpus= as a
		# limit alone, and its QEMU CPUs (no hypervisor bit) count no
		# disabled ones
		boot=()
		[ "$name" = 6.1 ] && boot=(--append possible_cpus=64)
		integration "integration-$name" "$image" "$B/$kver" - "${PEER_ADDS[@]}" \
			"${boot[@]}" --timeout "$X86_PAIR_VM_TIMEOUT"
		runs=("${PARTS[@]}")
		lockdown "lockdown-$name" "$image" "$B/$kver"
		later - support_tap "$label (\`$kver\`)" ok "$(mech_of "$kdir")" "${runs[@]}"
		job_pump
		results_ready
	done < <(debian_kernels)
fi

# Debian's arm64 kernels (scripts/arm64-kernels.sh fetches and caches
# them): cross-built with W=1 and sparse, the integration suite in
# qemu-system-aarch64 with the helpers cross-built for it.
if want arm64; then
	phase "Debian arm64 (cross-built, qemu-system-aarch64): builds"
	if ! scripts/arm64-kernels.sh > "$LOGS/arm64-kernels.txt" 2> "$LOGS/arm64-kernels.log"; then
		fail "arm64 kernels: fetch" "$(tail -n 20 "$LOGS/arm64-kernels.log")"
	else
		bad=$(guest_helpers arm64)
		for n in $bad; do
			fail "guest helper $n (arm64)" "$(grep -E 'error|warning' "$LOGS/helperarm64-$n.log")"
		done
		while read -r name image kdir mdir; do
			case $name in busybox|sysroot) continue ;; esac
			label="Debian $name arm64"
			kver=$(basename "$mdir")
			if ! build_for "$kver" "$kdir" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- W=1 \
				"${TARGETS[@]}"; then
				later - support_row "$label (\`$kver\`)" "**failed**" "not run" "$(mech_of "$kdir")"
				continue
			fi
			check "W=1 build warnings ($kver)" "$(grep -E 'warning:' "$LOGS/build-$kver.log" || true)"
			job_pump
			# W=1 as the build's: sparse alone, no second compile
			make -C "$B/$kver" KDIR="$kdir" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- W=1 C=2 \
				"${TARGETS[@]}" > "$LOGS/sparse-$kver.log" 2>&1 ||
				echo "warning: make C=2 exited non-zero" >> "$LOGS/sparse-$kver.log"
			check "sparse (C=2, $kver)" "$(grep -E 'warning:|error:' "$LOGS/sparse-$kver.log" || true)"
			GUEST_ARCH=arm64 integration "integration-arm64-$name" "$image" "$B/$kver" "$mdir" \
				--arch arm64 --timeout "$ARM64_VM_TIMEOUT"
			later - support_tap "$label (\`$kver\`)" "ok (W=1, sparse)" "$(mech_of "$kdir")" "${PARTS[@]}"
			job_pump
			results_ready
		done < "$LOGS/arm64-kernels.txt"
	fi
fi

# The host suites: install/DKMS changes the host's /lib/modules, which the
# Debian kernels' boots read as they start (null_blk): queued after them,
# it starts after them.
if want install; then
	host_job install tests/install-test.sh
	host_job prom-e2e tests/prom-e2e.sh
fi
if want tools && [ -f tools/Makefile ]; then
	job tools tools_run
	later tools tools_count
fi

phase "jobs (QEMU guests, mutants, host suites)"
jobs_drain
phase ""
printf '\nFrom `make check` on %s%s.\n' "$(date -u +%F)" "$SUPPORT_REV" >> "$SUPPORT"
echo "== total: $(($(now) - T0)) s, logs in ${LOGS#$KSTATS_ROOT/}/"
for f in "${failures[@]}"; do
	echo "failed: $f"
done
summary="$npass passed, $nfail failed"
[ "$nskip" = 0 ] || summary+=", $nskip skipped"
echo "$summary"
[ "$nfail" = 0 ]
