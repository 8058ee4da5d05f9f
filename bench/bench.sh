#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make bench`: the cost figures of BENCHMARKS.md, measured in QEMU (TCG).
#
#   bench/bench.sh [--quick]
#
# Builds kstats.ko and bench/kstats_bench.ko against Debian's 6.12 headers
# (in a copy of the tree, build/bench-src), the static bench/getppid_bench,
# then boots Debian's 6.12 kernel four times with bench/guest-bench.sh:
#   1. -icount shift=0,sleep=off, 1 vCPU: record, memory and tracing rows,
#      in instructions (the guest clock advances 1 ns per instruction),
#      with the eBPF peers (libbpf-tools' funclatency, bpftrace) on the
#      same traced functions;
#   2. plain TCG, 1 vCPU: record and tracing rows in wall-clock ns, and
#      scaling with 1 CPU;
#   3. and 4. plain TCG (MTTCG), 2 and 4 vCPUs: scaling;
# and Debian's 6.1 kernel once (modules built against its headers, in
# build/bench-src-6.1): icount, tracing rows and peers; and Debian's 6.12
# arm64 kernel once in qemu-system-aarch64 (scripts/arm64-kernels.sh;
# modules cross-built in build/bench-src-arm64): icount, record and
# tracing rows, with arm64's libbpf-tools and bpftrace.
# Writes build/bench/results.md (and prints it); raw guest output, console
# logs and the objdump of the fast paths stay in build/bench/.
# --quick: 300 ms instead of 1 s per scaling run, no peers, no 6.1 or
# arm64 boot.  --table: no run, the table again from the last run's
# outputs (a run cut short included: its result lines from its console).
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

scale_ms=1000 quick=0 table=0
[ "${1:-}" = --quick ] && scale_ms=300 quick=1
# --table: only the table again, from the last run's outputs
[ "${1:-}" = --table ] && table=1
out=$KSTATS_ROOT/build/bench
src=$KSTATS_ROOT/build/bench-src
mkdir -p "$out"
t_start=$(now)
# the commit the runs are made at: the tree as it is now is what is copied
# and built (a "+" when it has uncommitted changes)
rev=$(git -C "$KSTATS_ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')
git -C "$KSTATS_ROOT" diff --quiet HEAD -- 2>/dev/null || rev="$rev+"

scripts_dir=$KSTATS_ROOT/scripts
[ $table = 1 ] || "$scripts_dir/deps.sh" >&2 || die "missing packages (see above)"

img= kdir=
while read -r name i b; do
	[ "$name" = 6.12 ] && img=$i kdir=$b
done < <(debian_kernels)
[ "$img" != - ] && [ -n "$img" ] || die "no Debian 6.12 kernel image in /boot"
[ "$kdir" != - ] && [ -n "$kdir" ] || die "no headers for $img"
kver=${img#/boot/vmlinuz-}
# Debian 6.1: its own icount boot of the tracing rows and peers
img61= kdir61=
while read -r name i b; do
	[ "$name" = 6.1 ] && [ "$i" != - ] && [ "$b" != - ] && img61=$i kdir61=$b
done < <(debian_kernels)
# The peers: Debian's libbpf-tools and bpftrace with their libraries
# (bpftrace's LLVM is most of the ~200 MB: the icount guests get 3 GB)
PEER_ARGS=()
if [ $quick = 0 ] && [ $table = 0 ]; then
	peer_adds funclatency bpftrace runqlat || die "the peers are missing (scripts/deps.sh)"
	PEER_ARGS=(--mem 3072 "${PEER_ADDS[@]}")
fi

if [ $table = 0 ]; then
# --- build -------------------------------------------------------------------
say "building kstats.ko and kstats_bench.ko for $kver in $src"
rm -rf "$src"
mkdir -p "$src"
tar -C "$KSTATS_ROOT" --exclude=./build --exclude=./.git --exclude=./tools \
	--exclude='*.o' --exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' \
	--exclude='.*.cmd' --exclude='*.symvers' --exclude=modules.order \
	-cf - . | tar -C "$src" -xf -
make -C "$src" KDIR="$kdir" modules bench-modules > "$out/build.log" 2>&1 ||
	{ tail -n 30 "$out/build.log" >&2; die "build failed, log in $out/build.log"; }
gcc -static -O2 -Wall -o "$out/getppid_bench" "$KSTATS_ROOT/bench/getppid_bench.c" \
	> "$out/getppid_bench.log" 2>&1 || die "getppid_bench: see $out/getppid_bench.log"
# the run-queue latency rows: the pipe round trips, and the kstats
# command, which writes its recipe's section as a user's run does
gcc -static -O2 -Wall -o "$out/pipe_bench" "$KSTATS_ROOT/bench/pipe_bench.c" \
	> "$out/pipe_bench.log" 2>&1 || die "pipe_bench: see $out/pipe_bench.log"
# the uprobe rows: a user program's function, traced by path:symbol
gcc -static -O2 -Wall -o "$out/uprobe_bench" "$KSTATS_ROOT/bench/uprobe_bench.c" \
	> "$out/uprobe_bench.log" 2>&1 || die "uprobe_bench: see $out/uprobe_bench.log"
bad=$(guest_helpers)
case " $bad " in
*" kstats "*) say "the kstats command failed to build (build/logs/helper-kstats.log): no runqlat row" ;;
esac
X86_ADDS=(--add "$out/pipe_bench:/kstats/bin/pipe_bench"
	--add "$out/uprobe_bench:/kstats/bin/uprobe_bench")
[ -x "$KSTATS_ROOT/build/guest-bin/kstats" ] &&
	X86_ADDS+=(--add "$KSTATS_ROOT/build/guest-bin/kstats:/kstats/bin/kstats")

# The generated code of the fast paths: instructions from the entry to the
# return of each op_* function (kstats_record() inlined in a caller).
if [ $quick = 0 ] && [ -n "$img61" ]; then
	say "building kstats.ko and kstats_bench.ko for ${img61#/boot/vmlinuz-} in $src-6.1"
	rm -rf "$src-6.1"
	cp -a "$src" "$src-6.1"
	make -C "$src-6.1" KDIR="$kdir61" clean > /dev/null 2>&1 || true
	make -C "$src-6.1" KDIR="$kdir61" modules bench-modules > "$out/build-6.1.log" 2>&1 ||
		{ tail -n 30 "$out/build-6.1.log" >&2; die "6.1 build failed, log in $out/build-6.1.log"; }
	# Debian 6.1's headers ship no vmlinux, so Kbuild gave the modules no
	# BTF, which bpftrace's kfunc probes on the bench module need
	module_btf "$kdir61" "$src-6.1/kstats.ko" "$src-6.1/bench/kstats_bench.ko" \
		>> "$out/build-6.1.log" 2>&1 ||
		say "no BTF for the 6.1 modules: bpftrace's kfunc rows will say so"
fi

objdump -dr --no-show-raw-insn "$src/bench/kstats_bench.ko" |
	awk '/^[0-9a-f]+ <op_(record|record_bits|atomic|spinlock)>:$/ { p = 1 }
	     p { print } p && /^$/ { p = 0 }' > "$out/objdump.txt"
# count up to the return: a ret, or the jmp relocated to __x86_return_thunk;
# the call of kstats_record_slow() (a new extreme) and the return after
# it, which the compiler may lay out before the fast path, not counted
awk '/^[0-9a-f]+ <op_/ { f = $2; gsub(/[<>:]/, "", f); n = 0; done = 0; slow = 0; next }
     !f || done { next }
     /R_X86_64_PLT32\tkstats_record_slow/ { n--; slow = 1; next }
     /__x86_return_thunk/ && slow { n--; slow = 0; next }
     /__x86_return_thunk/ { printf "OBJDUMP %s %d\n", f, n - 1; done = 1; next }
     /^ +[0-9a-f]+:\t/ { n++ }
     /^ +[0-9a-f]+:\tret/ { printf "OBJDUMP %s %d\n", f, n - 1; done = 1 }' \
	"$out/objdump.txt" > "$out/objdump.counts"

# --- runs --------------------------------------------------------------------
# vmrun TAG SMP ICOUNT PARTS [PEERS [IMAGE SRC]]: PEERS 1 copies in the
# peers (PEER_ARGS) and measures them with the tracing rows; VMRUN_EXTRA:
# more vm-run.sh options, VMRUN_GB: the getppid loop of another
# architecture (the pipe loop and the kstats command are x86-64's alone)
VMRUN_EXTRA=() VMRUN_GB=
vmrun() {
	local tag=$1 smp=$2 ic=$3 parts=$4 peers=${5:-0} img=${6:-$img} src=${7:-$src} t0 extra=()
	local gb=${VMRUN_GB:-$out/getppid_bench}
	printf 'PARTS="%s"\nNCPUS=%s\nSCALE_MS=%s\nPEERS=%s\n' "$parts" "$smp" "$scale_ms" "$peers" \
		> "$out/conf-$tag"
	# the plain TCG runs measure vCPUs recording at once: one host
	# thread each (icount runs one vCPU on one thread)
	if [ "$ic" = 1 ]; then extra+=(--icount); else extra+=(--mttcg); fi
	[ "$peers" = 1 ] && extra+=("${PEER_ARGS[@]}")
	extra+=("${VMRUN_EXTRA[@]+"${VMRUN_EXTRA[@]}"}")
	[ -n "$VMRUN_GB" ] || extra+=("${X86_ADDS[@]+"${X86_ADDS[@]}"}")
	t0=$(now)
	say "run $tag: smp=$smp icount=$ic parts=$parts"
	"$KSTATS_ROOT/tests/vm-run.sh" --kernel "$img" --smp "$smp" "${extra[@]}" \
		--timeout "${VMRUN_TIMEOUT:-900}" --log "$out/console-$tag.log" \
		--add "$src/kstats.ko" --add "$src/bench/kstats_bench.ko" \
		--add "$gb:/kstats/bin/getppid_bench" \
		--add "$out/conf-$tag:/kstats/bench.conf" \
		--script "$KSTATS_ROOT/bench/guest-bench.sh" > "$out/$tag.out" ||
		say "run $tag: vm-run.sh exit $? (see $out/console-$tag.log)"
	# a run cut short (its timeout) printed no TAP block: its result
	# lines as the console has them
	grep -q '^BENCH' "$out/$tag.out" ||
		grep -a '^BENCH' "$out/console-$tag.log" | tr -d '\r' > "$out/$tag.out" || true
	say "run $tag: $(( $(now) - t0 )) s, $(grep -c '^BENCH' "$out/$tag.out" || true) result lines"
}

vmrun icount 1 1 "record memory trace uprobe" $((1 - quick))
vmrun tcg1 1 0 "record trace scale"
vmrun tcg2 2 0 "scale"
vmrun tcg4 4 0 "scale"
rm -f "$out/icount61.out"
[ $quick = 1 ] || [ -z "$img61" ] ||
	vmrun icount61 1 1 "trace uprobe" 1 "$img61" "$src-6.1"

# Debian 6.12 arm64: cross-built, one icount boot of qemu-system-aarch64
# with arm64's peers (their libraries whole: the guest has no libc)
rm -f "$out/icount-arm64.out"
kvera=
if [ $quick = 0 ] && "$scripts_dir/arm64-kernels.sh" --peers > "$out/arm64-kernels.txt" 2> "$out/arm64-kernels.log"; then
	read -r _ imga kdira _ < <(grep '^6\.12 ' "$out/arm64-kernels.txt")
	pr=$(sed -n 's/^peers //p' "$out/arm64-kernels.txt")
	kvera=$(basename "$imga"); kvera=${kvera#vmlinuz-}
	say "building kstats.ko and kstats_bench.ko for $kvera in $src-arm64"
	rm -rf "$src-arm64"
	cp -a "$src" "$src-arm64"
	make -C "$src-arm64" KDIR="$kdira" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- clean > /dev/null 2>&1 || true
	if make -C "$src-arm64" KDIR="$kdira" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
		modules bench-modules > "$out/build-arm64.log" 2>&1 &&
	   aarch64-linux-gnu-gcc -static -O2 -Wall -o "$out/getppid_bench-arm64" \
		"$KSTATS_ROOT/bench/getppid_bench.c" >> "$out/build-arm64.log" 2>&1; then
		# bpftrace's kfunc wildcards attach slowly there (a JIT'd
		# trampoline per function under icount): more time
		VMRUN_GB=$out/getppid_bench-arm64 VMRUN_EXTRA=(--arch arm64) VMRUN_TIMEOUT=2400
		x86_peers=("${PEER_ARGS[@]}")
		PEER_ARGS=(--mem 3072
			--add "$pr/usr/sbin/funclatency:/usr/sbin/funclatency"
			--add "$pr/usr/bin/bpftrace:/usr/bin/bpftrace"
			--add "$pr/lib:/lib" --add "$pr/usr/lib:/usr/lib")
		vmrun icount-arm64 1 1 "record trace" 1 "$imga" "$src-arm64"
		PEER_ARGS=("${x86_peers[@]}") VMRUN_EXTRA=() VMRUN_GB= VMRUN_TIMEOUT=
	else
		say "arm64 build failed: see $out/build-arm64.log"
	fi
elif [ $quick = 0 ]; then
	say "no arm64 kernels: see $out/arm64-kernels.log"
fi

else
	kvera=$(sed -n 's|^6\.12 .*/vmlinuz-\([^ ]*\) .*|\1|p' "$out/arm64-kernels.txt" 2>/dev/null || true)
fi

# --- the table ---------------------------------------------------------------
cmd="make bench  (bench/bench.sh${1:+ $1})"
[ $table = 0 ] || cmd="make bench  (bench/bench.sh; the table made again by bench/bench.sh --table)"
# the table again: the commit the runs were made at
[ $table = 0 ] || [ ! -s "$out/results.md" ] ||
	rev=$(sed -n 's/^Produced by .* at commit \([0-9a-f?+]*\) .*/\1/p' "$out/results.md" | head -n1)
python3 - "$out" "$kver" "$(nproc)" "$cmd" "$rev" \
	"$(qemu-system-x86_64 --version | head -n1)" "$scale_ms" "${img61#/boot/vmlinuz-}" "$kvera" <<'PY' > "$out/results.md"
import sys, re, os
out, kver, ncpu, cmd, rev, qemu, scale_ms, kver61, kvera = sys.argv[1:10]

def load(tag):
    d = {"BENCH": {}, "NA": {}, "MEM": [], "SCALE": {}, "INFO": [], "KEYMEM": {}}
    try:
        lines = open(os.path.join(out, tag + ".out")).read().splitlines()
    except OSError:
        return d
    for l in lines:
        f = l.split()
        if not f:
            continue
        if f[0] in ("BENCH", "BENCHRAW") and len(f) >= 3:
            try: d["BENCH"][f[1]] = float(f[2])
            except ValueError: pass
        elif f[0] == "BENCHNA" and len(f) >= 2:
            d["NA"][f[1]] = " ".join(f[2:])
        elif f[0] == "BENCHMEM":
            d["MEM"].append(dict(kv.split("=", 1) for kv in f[2:]))
        elif f[0] == "BENCHSCALE":
            kv = dict(x.split("=", 1) for x in f[2:])
            d["SCALE"][f[1]] = kv
        elif f[0] == "BENCHINFO":
            d["INFO"].append(l)
        elif f[0] == "BENCHKEYMEM" and len(f) >= 2:
            d["KEYMEM"][f[1]] = dict(x.split("=", 1) for x in f[2:] if "=" in x)
    return d

ic, t1, t2, t4 = (load(t) for t in ("icount", "tcg1", "tcg2", "tcg4"))
obj = {}
for l in open(os.path.join(out, "objdump.counts")):
    f = l.split()
    obj[f[1]] = int(f[2])

def fmt(v, nd=1):
    return "n/a" if v is None else ("%.*f" % (nd, v))

def ratio(a, b):
    return "n/a" if a is None or not b else "%.2f" % (a / b)

P = print
P("## Results: Debian %s, QEMU TCG" % kver)
P()
P("Produced by `%s` at commit %s on a host with %s cores; %s." % (cmd, rev, ncpu, qemu))
P("icount: `-icount shift=0,sleep=off -smp 1`, figures are **instructions** "
  "(the guest clock advances 1 ns per instruction). TCG: plain `-accel tcg` "
  "(MTTCG), figures are wall-clock ns of emulated code, meaningful only as "
  "ratios. Each figure is the median of 5 runs (100000 calls per run for "
  "the record path, 20000 for the tracing path, 64 for cold cache), net of "
  "the empty loop (a call of an empty noinline function).")
P()
P("### Record path, per call")
P()
P("| operation | insns (icount) | x kstats_record (icount) | ns (TCG) | x kstats_record (TCG) |")
P("|---|---:|---:|---:|---:|")
rows = [
    ("empty loop (call of an empty function, not subtracted)", "empty"),
    ("ktime_get_ns()", "ktime_get_ns"),
    ("ktime_get_mono_fast_ns() (kstats clock ktime)", "ktime_get_mono_fast_ns"),
    ("local_clock()", "local_clock"),
    ("rdtsc", "rdtsc"),
    ("rdtsc_ordered() (kstats clock tsc)", "rdtsc_ordered"),
    ("**kstats_record()** hot (same slot)", "record_hot"),
    ("kstats_record() spread over all 496 slots", "record_spread"),
    ("kstats_record() hot, a distribution with `history 10000000 12000` (interrupts off: its fast path)", "record_history_hot"),
    ("kstats_record() spread, with the history", "record_history_spread"),
    ("kstats_record() cold cache (1)", "record_cold"),
    ("shared atomic64 array, hot", "atomic_hot"),
    ("shared atomic64 array, spread", "atomic_spread"),
    ("shared atomic64 array, cold cache (1)", "atomic_cold"),
    ("spinlock histogram (irqsave), hot", "spinlock_hot"),
    ("spinlock histogram (irqsave), spread", "spinlock_spread"),
    ("spinlock histogram (irqsave), cold cache (1)", "spinlock_cold"),
    ("kstats_record_bits() (frac_bits a compile-time constant), hot", "record_bits_hot"),
    ("kstats_record_bits(), spread", "record_bits_spread"),
    ("a timed path, open-coded: `t0 = kstats_now(); ...; kstats_record(ks, kstats_now() - t0)`", "timed_open"),
    ("the same with `kstats_record_since(ks, t0)`", "timed_since"),
    ("the same with `kstats_scope(ks)`", "timed_scope"),
    ("two chained stages, open-coded (4 clock reads, 2 records)", "stages_open"),
    ("two chained stages with `kstats_record_since()` (3 clock reads, 2 records)", "stages_since"),
]
ri, rt = ic["BENCH"].get("record_hot"), t1["BENCH"].get("record_hot")
for label, k in rows:
    a, b = ic["BENCH"].get(k), t1["BENCH"].get(k)
    P("| %s | %s | %s | %s | %s |" % (label, fmt(a), ratio(a, ri) if k != "empty" else "",
                                     fmt(b), ratio(b, rt) if k != "empty" else ""))
P()
P("(1) cold cache: an 8 MB buffer (twice the LLC the vCPU reports, at least "
  "8 MB) is read before each call, and only the call is timed. Under icount "
  "this can only show instructions, so the cold rows equal the hot ones; TCG "
  "emulates no cache either. Real cache-miss costs need real hardware.")
P()
P("Generated code (objdump of the bench module's callers, from entry to "
  "return, kstats_record() inlined): kstats_record() %s instructions, "
  "kstats_record_bits() %s; atomic64 baseline %s (objdump in "
  "build/bench/objdump.txt)." %
  tuple(str(obj.get(f, "?")) for f in
  ("op_record", "op_record_bits", "op_atomic")))
P()
P("### Tracing path, added cost per call")
P()
P("Added to one call of `kstats_bench_target()` (an empty noinline function "
  "of the bench module, called from an in-kernel loop) and to one `getppid()` "
  "system call from a static userspace loop (traced at the syscall's body). "
  "Untraced: the call itself.")
P()
P("| tracer | target fn, insns (icount) | getppid, insns (icount) | target fn, ns (TCG) | getppid, ns (TCG) |")
P("|---|---:|---:|---:|---:|")
trows = [
    ("untraced (the call itself, not added)", "untraced"),
    ("calibration floor: minimal fprobe pair (bench module)", "floor_fprobe"),
    ("calibration floor: minimal kretprobe pair (bench module)", "floor_kretprobe"),
    ("calibration floor: minimal fprobe pair, rdtsc (bench module)", "floor_fprobe-tsc"),
    ("calibration floor: minimal kretprobe pair, rdtsc (bench module)", "floor_kretprobe-tsc"),
    ("**kstats `trace FUNC`** (default mechanism: direct)", "kstats_default"),
    ("**kstats `trace FUNC clock tsc`** (direct)", "kstats_tsc"),
    ("kstats `trace FUNC mech fprobe`", "kstats_fprobe"),
    ("kstats `trace FUNC mech fprobe clock tsc`", "kstats_fprobe-tsc"),
    ("kstats `trace FUNC mech kretprobe`", "kstats_kretprobe"),
    ("kstats `trace FUNC mech kretprobe clock tsc`", "kstats_kretprobe-tsc"),
    ("kstats `trace FUNC value arg0` (a value taken at the entry alone: direct)", "kstats_value-arg"),
    ("kstats `trace FUNC value ret` (the return value: direct)", "kstats_value-ret"),
    ("kstats `trace FUNC cpu 0` (the duration, with a filter that holds)", "kstats_filter"),
    ("kstats `trace FUNC comm X` (the caller's own name: a filter that holds)", "kstats_filter-comm"),
    ("kstats `trace FUNC by comm` (a family: the duration per task name)", "kstats_family-comm"),
    ("kstats `trace FUNC by cpu` (a family: the duration per CPU)", "kstats_family-cpu"),
    ("kstats `trace FUNC cgroup /` (a cgroup filter that holds: the root and all under it)", "kstats_filter-cgroup"),
    ("kstats `trace FUNC by caller` (a family: the duration per call site)", "kstats_family-caller"),
    ("kstats `trace FUNC by cgroup` (a family: the duration per cgroup)", "kstats_family-cgroup"),
    ("kstats `trace FUNC by stack 8` (a family: the duration per kernel stack, 8 frames)", "kstats_family-stack"),
    ("kstats `trace __*sys_*`: one node over every system call's functions (hundreds, FUNC among them)", "kstats_multi"),
    ("kstats `trace __*sys_* by func`: the same, one histogram per function", "kstats_multi-func"),
    ("kstats `trace FUNC slow V`, a call under V (direct)", "kstats_slow"),
    ("kstats `trace FUNC slow V stack 8`, a call under V (direct)", "kstats_slow-stack"),
    ("kstats `trace FUNC mech fprobe slow V`, a call under V", "kstats_slow-fprobe"),
    ("kstats `trace FUNC top 16`, a call under the 16th largest (direct)", "kstats_top"),
    ("kstats `trace FUNC mech fprobe top 16`, a call under the 16th largest", "kstats_top-fprobe"),
    ("kstats `trace FUNC slow V why`, a call under V, split (direct)", "kstats_slow-why"),
    ("kstats `trace FUNC mech fprobe slow V why`, a call under V, split", "kstats_slow-why-fprobe"),
    ("kstats `trace FUNC history 10000000 12000` (direct): two minutes of 10 ms slices", "kstats_history"),
    ("kstats `trace FUNC mech fprobe history 10000000 12000`", "kstats_history-fprobe"),
    ("kstats `trace FUNC slow 0 keep 64 stack 16`: every call kept, 16 frames (direct)", "kstats_capture"),
    ("kstats `trace FUNC mech fprobe slow 0 keep 64 stack 16`: every call kept", "kstats_capture-fprobe"),
    ("calibration floor: empty probes on raw_syscalls' sys_enter and sys_exit (bench module): what any section on them costs the kernel", "floor_syscalls"),
    ("kstats `trace S start tp:raw_syscalls:sys_enter end tp:raw_syscalls:sys_exit` (a keyed section, key task)", "section_task"),
    ("the same section with `key cpu`", "section_cpu"),
    ("a pipe round trip, untraced (the round trip itself, not added)", "rq_untraced"),
    ("kstats `runqlat` (its section on sched_wakeup, sched_wakeup_new, sched_switch), per pipe round trip", "rq_kstats"),
    ("libbpf-tools `runqlat`, per pipe round trip", "rq_peer"),
    ("`kstats census start` (every part: syscalls by number, interrupts, run queue, page faults, block I/O, off-CPU; the tool not running), per call", "census"),
    ("the same census, per pipe round trip", "rq_census"),
    ("`kstats explain -d` recording (its context nodes: throttling, interrupts, vectors, runqlat, ivcsw; a node with a history on pipe_read), per call", "explain"),
    ("the same, per pipe round trip", "rq_explain"),
    ("a `why` node on FUNC (not called): the scheduler's tracepoints, per pipe round trip", "rq_why_idle"),
    ("kstats `trace pipe_read slow V`, per pipe round trip", "rq_pipe_slow"),
    ("kstats `trace pipe_read slow V why`: every switch in a call split, per pipe round trip", "rq_pipe_why"),
    ("libbpf-tools `offcputime` and `runqlat` at once (the peers' way to the split), per pipe round trip", "rq_peer_why"),
    ("ftrace function_graph, filtered to FUNC", "fgraph"),
    ("kretprobe event, enabled, with a hist trigger (keys=common_pid)", "kretprobe_hist"),
    ("kprobe+kretprobe events -> synthetic latency event -> hist (lat.log2)", "synth_hist"),
]
def cell(d, kind, k):
    key = kind + "_" + k
    if key in d["NA"]:
        return "n/a (%s)" % d["NA"][key].replace("|", "/")
    # the pipe rows: added to a round trip, not to a call
    base = "rq_untraced" if k.startswith("rq_") else "untraced"
    v, u = d["BENCH"].get(key), d["BENCH"].get(kind + "_" + base)
    if v is None:
        return "n/a"
    if k == base:
        return fmt(v)
    return "+" + fmt(v - u) if u is not None else fmt(v)
for label, k in trows:
    P("| %s | %s | %s | %s | %s |" % (label, cell(ic, "k", k), cell(ic, "s", k),
                                     cell(t1, "k", k), cell(t1, "s", k)))
P()
P("kstats' own share (a kstats row minus the floor of the same mechanism "
  "and clock) and the ratio of a traced getppid() to the 2021 kstats "
  "(kretprobe, ktime: +705 instructions on the same call, icount):")
P()
P("| trace | floor | kstats' share, target fn (icount) | kstats' share, getppid (icount) | getppid vs 2021 (+705) |")
P("|---|---|---:|---:|---:|")
def added(d, kind, k):
    v, u = d["BENCH"].get(kind + "_" + k), d["BENCH"].get(kind + "_untraced")
    return None if v is None or u is None else v - u
for k, fl in (("kstats_default", None), ("kstats_tsc", None),
              ("kstats_fprobe", "floor_fprobe"), ("kstats_kretprobe", "floor_kretprobe"),
              ("kstats_fprobe-tsc", "floor_fprobe-tsc"), ("kstats_kretprobe-tsc", "floor_kretprobe-tsc"),
              ("section_task", "floor_syscalls"), ("section_cpu", "floor_syscalls")):
    sh = []
    for kind in "ks":
        # the direct rows have no bench-module floor (their own
        # calibration is in the header: see below)
        a, b = added(ic, kind, k), added(ic, kind, fl) if fl else None
        sh.append("n/a" if a is None or b is None else "%+.1f" % (a - b))
    g = added(ic, "s", k)
    P("| %s | %s | %s | %s | %s |" % (k, fl or "-", sh[0], sh[1],
                                     "n/a" if g is None else "%.2fx" % (g / 705.0)))
# The direct mechanism's floor: its calibration, as the default node's
# header shows it (floor_p50; icount: instructions), target fn then getppid.
fl = []
for l in ic["INFO"]:
    f = l.split()
    if len(f) > 3 and f[1] in ("kstats_trace_default", "kstats_trace_tsc") and f[3] == "source":
        kv = dict(zip(f[4::2], f[5::2]))
        fl.append("%s %s floor_p50 %s" % (f[1][13:], kv.get("mechanism", "?"), kv.get("floor_p50", "?")))
if fl:
    P()
    P("Calibrated floor of the default mechanism (the node header's floor_p50, "
      "icount, target fn then getppid): " + "; ".join(fl) + ".")
for d, n in ((ic, "icount"), (t1, "TCG")):
    for kind in "ks":
        a, b = d["BENCH"].get(kind + "_untraced"), d["BENCH"].get(kind + "_untraced_end")
        if a is not None and b is not None:
            P()
            P("Untraced %s, %s: %s at the start, %s at the end of the tracing rows." %
              ("target fn" if kind == "k" else "getppid", n, fmt(a), fmt(b)))
P()
P("### The options against bpftrace, per getppid() (icount, instructions)")
P()
P("Each kstats row of the table above next to the bpftrace script that "
  "answers the same question on the same calls, in the same boot "
  "(Debian 6.12, then 6.1); the run-queue rows per pipe round trip, "
  "against libbpf-tools' runqlat. ratio: kstats' added instructions over "
  "the peer's.")
P()
P("| node | goal | kstats 6.12 | peer 6.12 | ratio | kstats 6.1 | peer 6.1 | ratio |")
P("|---|---:|---:|---:|---:|---:|---:|---:|")
def vs(d, k, peer):
    base = "rq_untraced" if k.startswith("rq_") else "untraced"
    u = d["BENCH"].get("s_" + base)
    a, b = d["BENCH"].get("s_" + k), d["BENCH"].get("s_" + peer)
    ca = "n/a" if a is None or u is None else "+" + fmt(a - u)
    cb = "n/a" if b is None or u is None else "+" + fmt(b - u)
    r = "n/a" if a is None or b is None or u is None or b <= u else "%.2f" % ((a - u) / (b - u))
    return ca, cb, r
ic61 = load("icount61")
for label, goal, k, peer in (
        ("`trace F`", "", "kstats_default", "peer_bt_kfunc"),
        ("`trace F comm X` (the filter holds)", "+80", "kstats_filter-comm", "peer_bt_comm"),
        ("`trace F by comm`", "+120", "kstats_family-comm", "peer_bt_bycomm"),
        ("`trace F by cpu`", "+100", "kstats_family-cpu", "peer_bt_bycpu"),
        ("`trace F value ret`", "+75", "kstats_value-ret", "peer_bt_ret"),
        ("section `raw_syscalls:sys_enter -> sys_exit`, key task", "+200", "section_task", "peer_bt_section"),
        ("`kstats runqlat`, per pipe round trip (libbpf-tools runqlat)", "+560", "rq_kstats", "rq_peer")):
    a = vs(ic, k, peer)
    b = vs(ic61, k, peer)
    P("| %s | %s | %s | %s | %s | %s | %s | %s |" % ((label, goal) + a + b))
P()
P("### User programs' functions (uprobes), per call (icount, instructions)")
P()
P("bench/uprobe_bench.c's `ub_target()` (a static binary's function of a "
  "few instructions) called 20000 times a run; a traced call's added cost, "
  "kstats' `trace /kstats/bin/uprobe_bench:ub_target` (a uprobe and a "
  "uretprobe) beside bpftrace's uprobe/uretprobe `hist()` of the same "
  "calls in the same boot. The trap dominates both; ratio: kstats' added "
  "instructions over bpftrace's.")
P()
P("| trace | 6.12 | 6.1 |")
P("|---|---:|---:|")
def ucell(d, k):
    key = "u_" + k
    if key in d["NA"]:
        return "n/a (%s)" % d["NA"][key].replace("|", "/")
    v, u = d["BENCH"].get(key), d["BENCH"].get("u_untraced")
    if v is None or u is None:
        return "n/a"
    return fmt(v) if k == "untraced" else "+" + fmt(v - u)
def uratio(d):
    u = d["BENCH"].get("u_untraced")
    a, b = d["BENCH"].get("u_kstats"), d["BENCH"].get("u_peer_bt_uprobe")
    return "n/a" if None in (u, a, b) or b <= u else "%.2f" % ((a - u) / (b - u))
for label, k in (("`ub_target()`, untraced (the call itself, not added)", "untraced"),
                 ("kstats `trace PATH:ub_target`", "kstats"),
                 ("bpftrace `uprobe:PATH:ub_target` / `uretprobe:` `hist()`", "peer_bt_uprobe")):
    P("| %s | %s | %s |" % (label, ucell(ic, k), ucell(ic61, k)))
P("| ratio, kstats over bpftrace | %s | %s |" % (uratio(ic), uratio(ic61)))
P()
P("Options against their goals over the node without them: what each adds "
  "to a getppid() over `trace F` (the plain node, the direct trampoline), "
  "in the same boot.")
P()
P("| node | goal over `trace F` | 6.12 | `trace F` 6.12 | over | 6.1 | `trace F` 6.1 | over |")
P("|---|---:|---:|---:|---:|---:|---:|---:|")
def over(d, k, base, untraced="untraced"):
    u = d["BENCH"].get("s_" + untraced)
    a, b = d["BENCH"].get("s_" + k), d["BENCH"].get("s_" + base)
    ca = "n/a" if a is None or u is None else "+" + fmt(a - u)
    cb = "n/a" if b is None or u is None else "+" + fmt(b - u)
    return ca, cb, "n/a" if a is None or b is None else "%+.1f" % (a - b)
for label, goal, k in (
        ("`trace F slow V stack 8`, a call under V", "+5", "kstats_slow-stack"),
        ("`trace __*sys_* by func` (hundreds of functions, F among them)", "+15", "kstats_multi-func")):
    P("| %s | %s | %s | %s | %s | %s | %s | %s |" %
      ((label, goal) + over(ic, k, "kstats_default") + over(ic61, k, "kstats_default")))
P()
# over_table(ROWS): a table of (label, goal, row, base row, untraced row),
# each row's addition, its base's and the difference, on 6.12 and 6.1
def over_table(rows):
    P("| node | goal | 6.12 | base 6.12 | over | 6.1 | base 6.1 | over |")
    P("|---|---:|---:|---:|---:|---:|---:|---:|")
    for label, goal, k, base, u in rows:
        P("| %s | %s | %s | %s | %s | %s | %s | %s |" %
          ((label, goal) + over(ic, k, base, u) + over(ic61, k, base, u)))
P("`why` against the node without it: what it adds to a getppid() that is "
  "not slow, and to a pipe round trip whose switches are all in calls of a "
  "`why` node (`pipe_read`); the base column is the node without `why`.")
P()
# the pipe rows: added to a round trip, not to a call
over_table((
        ("`trace F slow V why`, a call under V", "+25", "kstats_slow-why", "kstats_slow", "untraced"),
        ("`trace F mech fprobe slow V why`, a call under V", "+25", "kstats_slow-why-fprobe", "kstats_slow-fprobe", "untraced"),
        ("a `why` node not called, per pipe round trip", "+60", "rq_why_idle", "rq_untraced", "rq_untraced"),
        ("`trace pipe_read slow V why`, per pipe round trip", "+60", "rq_pipe_why", "rq_pipe_slow", "rq_untraced")))
P()
P("`history` against the node without it: what a history of two minutes "
  "of 10 ms slices adds to a traced getppid() (its slices' slow paths and "
  "timer included), and to kstats_record() (the in-kernel loop, interrupts "
  "off: the fast path alone).")
P()
over_table((
        ("`trace F history 10000000 12000`", "+8", "kstats_history", "kstats_default", "untraced"),
        ("`trace F mech fprobe history 10000000 12000`", "+8", "kstats_history-fprobe", "kstats_fprobe", "untraced")))
rh, rhh = ic["BENCH"].get("record_hot"), ic["BENCH"].get("record_history_hot")
if rh is not None and rhh is not None:
    P("| kstats_record() with a history, hot | +6 | %s | %s | %s | | | |" %
      (fmt(rhh), fmt(rh), fmt(rhh - rh)))
P()
P("`kstats explain -d` while it records: what its context nodes (each "
  "interrupt line and vector that has run, `runqlat`, `ivcsw`; "
  "`throttle:PATH` for a cgroup with a quota) add to a getppid() and, "
  "with a history on `pipe_read`, to a pipe round trip; nothing once "
  "it has removed them.")
P()
over_table((
        ("`kstats explain -d` recording: its context, per getppid()", "", "explain", "untraced", "untraced"),
        ("`kstats explain -d` recording: its context and `pipe_read`'s history, per pipe round trip", "", "rq_explain", "rq_untraced", "rq_untraced")))
P()
fl, fl61 = ic["BENCH"].get("s_floor_syscalls"), ic61["BENCH"].get("s_floor_syscalls")
u, u61 = ic["BENCH"].get("s_untraced"), ic61["BENCH"].get("s_untraced")
if fl is not None and u is not None:
    P("What any section on the system call's tracepoints costs the kernel "
      "(empty probes on both, the bench module): +%s on 6.12%s." %
      (fmt(fl - u), "" if fl61 is None or u61 is None else ", +%s on 6.1" % fmt(fl61 - u61)))
    P()
P("### Scaling: one distribution, N vCPUs recording at full speed")
P()
P("Plain TCG with MTTCG (one host thread per vCPU), one kthread pinned per "
  "vCPU, %s ms per run; million calls per second per CPU (mean of the "
  "CPUs). hot: every call in the same slot; spread: all slots in turn." % scale_ms)
P()
P("| vCPUs | kstats hot | atomic64 hot | spinlock hot | kstats spread | atomic64 spread | spinlock spread |")
P("|---|---:|---:|---:|---:|---:|---:|")
for n, d in ((1, t1), (2, t2), (4, t4)):
    cells = []
    for v in ("hot", "spread"):
        pass
    for k in ("kstats_hot", "atomic_hot", "spinlock_hot", "kstats_spread", "atomic_spread", "spinlock_spread"):
        s = d["SCALE"].get(k)
        cells.append(s["mops_per_cpu"] if s else "n/a")
    note = " (host has %s cores: 4 vCPUs share them)" % ncpu if n > int(ncpu) else ""
    P("| %d%s | %s |" % (n, note, " | ".join(cells)))
P()
P("### Scaling: one key of a family, N vCPUs recording it at full speed")
P()
P("As above, each kthread recording into one key of a family of max_keys "
  "16, the key found once per 1024 records (`kstats_family_index()`, as a "
  "node's last key is), then `kstats_family_record()`. per-CPU: the key is "
  "hot (%d samples in one slot) and records in a per-CPU histogram of its "
  "own, as the plain distribution does; shared: kstats' `family_hot_keys` "
  "set to 0, every CPU adds to the key's one histogram (two atomic adds to "
  "a line all CPUs write). The plain distribution's figures again, for "
  "comparison." % 1024)
P()
P("| vCPUs | plain hot | key per-CPU hot | key shared hot | plain spread | key per-CPU spread | key shared spread |")
P("|---|---:|---:|---:|---:|---:|---:|")
for n, d in ((1, t1), (2, t2), (4, t4)):
    cells = []
    for k in ("kstats_hot", "key_percpu_hot", "key_shared_hot", "kstats_spread",
              "key_percpu_spread", "key_shared_spread"):
        s = d["SCALE"].get(k)
        cells.append(s["mops_per_cpu"] if s else "n/a")
    note = " (host has %s cores: 4 vCPUs share them)" % ncpu if n > int(ncpu) else ""
    P("| %d%s | %s |" % (n, note, " | ".join(cells)))
P()
P("Memory per key in each mode, from the `# family` line of each family "
  "(bits %s):" % "3")
P()
for n, d in ((1, t1), (2, t2), (4, t4)):
    pc, sh = d["KEYMEM"].get("percpu"), d["KEYMEM"].get("shared")
    if not pc or not sh:
        continue
    P("- %d vCPUs: a shared key %s bytes (one histogram for all CPUs, its key, "
      "its lookup entries); a hot key %s bytes more (`hot_bytes`: its "
      "histogram on each CPU), at most %s hot keys a family (`hot_max`; "
      "here %s hot); with family_hot_keys 0, `hot_max` %s." %
      (n, pc.get("key_bytes", "?"), pc.get("hot_bytes", "?"),
       pc.get("hot_max", "?"), pc.get("hot_keys", "?"), sh.get("hot_max", "?")))
P()
P("### Memory per distribution, per CPU")
P()
P("`(nr_slots + 1) * 16` bytes: 16-byte slots (count, sum) plus one slot for the "
  "missed events; as allocated by kstats_new_config() in the guest.")
P()
P("| frac_bits | max_value | slots | bytes per CPU | formula ((65-k)<<k)*16+16 |")
P("|---:|---:|---:|---:|---:|")
for m in ic["MEM"]:
    k = int(m["bits"]); mx = int(m["max"])
    form = ((65 - k) << k) * 16 + 16 if mx == 0 else ""
    P("| %d | %s | %s | %s | %s |" % (k, "full u64" if mx == 0 else "%g" % mx,
                                     m["slots"], m["bytes_per_cpu"], form))
if not ic["MEM"]:
    P("| n/a | | | | |")
P()
P("### Memory per key of a family")
P()
P("Each key of a family (`by KEY max N`) has one histogram shared by all CPUs "
  "(count and sum per slot, 16 bytes), its key and four lookup-table entries; "
  "all N + 1 (with `other`) are allocated when the node is made; `by cpu` "
  "on a function has none, its keys being the per-CPU rows every "
  "distribution has. As the module reports it (`key_bytes` of the "
  "`# family` line, bits 3):")
P()
seen = set()
for l in ic["INFO"]:
    f = l.split()
    if "family" in f and "key_bytes" in f and f[1] not in seen:
        seen.add(f[1])
        kb = int(f[f.index("key_bytes") + 1])
        mx = int(f[f.index("max") + 1])
        P("- `%s`: %d bytes per key; max %d keys: %.1f KiB" %
          (" ".join(f[f.index("family"):f.index("max")]), kb, mx, kb * (mx + 1) / 1024.0))
if not seen:
    P("- n/a")

# --- the peers (eBPF tracers) and Debian 6.1 ----------------------------------
def load_peers(tag):
    """BENCHPEER KIND_ROW COMMAND (the peer's exact command line) and
    BENCHINFO peer_ROW KIND samples N (the samples the peer saw)"""
    cmds, info = {}, []
    try:
        lines = open(os.path.join(out, tag + ".out")).read().splitlines()
    except OSError:
        return cmds, info
    for l in lines:
        f = l.split(None, 2)
        if len(f) == 3 and f[0] == "BENCHPEER":
            cmds[f[1]] = f[2]
        elif len(f) >= 2 and f[0] == "BENCHINFO" and f[1].startswith("peer_"):
            info.append(l[len("BENCHINFO "):])
    return cmds, info

prows = [
    ("libbpf-tools funclatency", "peer_funclatency"),
    ("bpftrace kprobe/kretprobe hist", "peer_bt_kprobe"),
    ("bpftrace kfunc/kretfunc hist", "peer_bt_kfunc"),
    ("bpftrace kfunc/kretfunc `@h[kstack(8)] = hist()`", "peer_bt_kstack"),
    ("bpftrace kfunc count", "peer_bt_count"),
    ("bpftrace kprobe/kretprobe `__*sys_*` wildcards, hist (next to `trace __*sys_*`)", "peer_bt_kprobe_glob"),
    ("bpftrace kfunc/kretfunc `__*sys_*` wildcards, hist (next to `trace __*sys_*`)", "peer_bt_kfunc_glob"),
    ("bpftrace kfunc/kretfunc `__do_sys_*` wildcards, hist (the bodies alone: fexit refuses `__x64_sys_exit`)", "peer_bt_kfunc_glob_do"),
]
def xk(d, kind, k):
    """added cost of row k over kstats' default trace row"""
    a, b = added(d, kind, k), added(d, kind, "kstats_default")
    return "n/a" if a is None or not b else "%.2fx" % (a / b)

def peer_table(d, tag):
    P("| tracer | target fn, insns (icount) | x kstats `trace` | getppid, insns (icount) | x kstats `trace` |")
    P("|---|---:|---:|---:|---:|")
    P("| kstats `trace FUNC` (default mechanism) | %s | 1.00x | %s | 1.00x |" %
      (cell(d, "k", "kstats_default"), cell(d, "s", "kstats_default")))
    for label, k in prows:
        P("| %s | %s | %s | %s | %s |" % (label, cell(d, "k", k), xk(d, "k", k),
                                         cell(d, "s", k), xk(d, "s", k)))
    cmds, info = load_peers(tag)
    P()
    P("The peers' exact command lines (each started, waited for until its "
      "BPF programs are loaded and attached, the row measured, then ended "
      "with SIGINT as a user would):")
    P()
    for label, k in prows:
        c = [cmds[kind + "_" + k] for kind in "ks" if kind + "_" + k in cmds]
        P("- %s: %s" % (label, ", ".join("`%s`" % x for x in c) if c else "not run"))
    if info:
        P()
        P("What the peers saw (their own output: the 5 measured runs of "
          "20000 calls):")
        P()
        for l in info:
            P("    " + l)

if load_peers("icount")[0] or any(k.endswith("peer_funclatency") for k in ic["NA"]):
    P()
    P("### Peers: eBPF tracers on the same functions (icount)")
    P()
    P("The added cost per call of the tracers one would use instead of "
      "kstats, on the same two functions and measured the same way as the "
      "rows above, in the same boot; `x kstats trace` is the peer's added "
      "cost over kstats' default `trace FUNC` row.")
    P()
    peer_table(ic, "icount")

def trace_table(d):
    """the tracing rows of another boot, each with its ratio to its trace row"""
    P("| tracer | target fn, insns (icount) | x kstats `trace` | getppid, insns (icount) | x kstats `trace` |")
    P("|---|---:|---:|---:|---:|")
    for label, k in trows:
        r = k != "untraced"
        P("| %s | %s | %s | %s | %s |" % (label, cell(d, "k", k), xk(d, "k", k) if r else "",
                                         cell(d, "s", k), xk(d, "s", k) if r else ""))

i61 = load("icount61")
if i61["BENCH"] or i61["NA"]:
    P()
    P("## Debian 6.1 (%s), icount" % kver61)
    P()
    P("The tracing rows and the peers in an icount boot of Debian's 6.1 "
      "kernel (no fprobe there: kstats' default mechanism is the direct "
      "trampoline, its fallback the kretprobe), figures in instructions; "
      "`x kstats trace`: added cost over kstats' default `trace FUNC` row.")
    P()
    trace_table(i61)
    P()
    P("### Peers on Debian 6.1")
    P()
    peer_table(i61, "icount61")

ia = load("icount-arm64")
if ia["BENCH"] or ia["NA"]:
    P()
    P("## Debian %s (arm64), icount" % kvera)
    P()
    P("One boot of Debian's 6.12 arm64 kernel in `qemu-system-aarch64 -M virt "
      "-cpu max -icount shift=0,sleep=off -smp 1`, the modules cross-built; "
      "figures in instructions. No fprobe in Debian's arm64 kernels: "
      "kstats' default mechanism on 6.12 is the direct trampoline "
      "(kstats_direct_tramp_arm64.S), its fallback the kretprobe. The `tsc` "
      "rows read arm64's cycle counter (`clock cycles`, cntvct_el0).")
    P()
    P("| operation | insns (icount) | x kstats_record |")
    P("|---|---:|---:|")
    rh = ia["BENCH"].get("record_hot")
    for label, k in (("empty loop (not subtracted)", "empty"),
                     ("ktime_get_mono_fast_ns() (kstats clock ktime)", "ktime_get_mono_fast_ns"),
                     ("local_clock()", "local_clock"),
                     ("cntvct_el0, ordered (kstats clock cycles)", "cycles"),
                     ("**kstats_record()** hot (same slot)", "record_hot"),
                     ("kstats_record() spread over all 496 slots", "record_spread"),
                     ("kstats_record() cold cache (1)", "record_cold")):
        v = ia["BENCH"].get(k)
        P("| %s | %s | %s |" % (label, fmt(v), ratio(v, rh) if k != "empty" else ""))
    P()
    trace_table(ia)
    P()
    P("### Peers on Debian 6.12 arm64")
    P()
    peer_table(ia, "icount-arm64")
PY
cat "$out/results.md"
say "done in $(( $(now) - t_start )) s: $out/results.md"
