// SPDX-License-Identifier: GPL-2.0
/*
 * kstats_bench: the cost figures of BENCHMARKS.md (`make bench`).
 *
 * Loading it does nothing but make /sys/kernel/debug/kstats_bench/:
 *
 *   ctl   write a command; it runs synchronously in the write()
 *   out   read the result lines of the commands run so far
 *
 * Commands:
 *
 *   record               the record path rows (clocks, kstats_record(),
 *                        shared atomic64 and spinlock baselines, cold cache)
 *   memory               bytes per CPU of distributions of each frac_bits
 *   call LABEL [N]       N calls of kstats_bench_target() (what the tracing
 *                        rows trace), ns per call as "call_LABEL"
 *   floor fprobe|kretprobe SYMBOL on|off
 *                        the calibration floor: a minimal handler pair on
 *                        SYMBOL (ktime at entry, ktime + per-CPU counter at
 *                        exit)
 *   floor tracepoint raw_syscalls on|off
 *                        a section's floor on the system call's
 *                        tracepoints: empty probes on sys_enter and
 *                        sys_exit (the latter counts)
 *   scale NCPUS MS       NCPUS pinned kthreads recording for MS ms each into
 *                        one distribution, then into the shared baselines
 *   scalekey NCPUS MS LABEL
 *                        as scale, into one key of a family, found
 *                        once per 1024 records as a node's last key is
 *                        (kstats_family_index(), kstats_family_record()):
 *                        a distribution
 *                        bench_key_LABEL of max_keys 16, left in debugfs
 *                        until the module goes, for its "# family" line
 *   clear                empty out
 *
 * Result lines: "BENCH key value" (ns per call, net of the empty loop; under
 * qemu -icount shift=0 these are instructions), "BENCHRAW key value" (the
 * loop's own cost), "BENCHINFO ...".  Each figure is the median of
 * BENCH_REPS runs of the loop.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/fprobe.h>
#include <linux/fs.h>
#include <linux/irqflags.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/tracepoint.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#ifdef CONFIG_X86
#include <asm/processor.h>
#endif

#include "kstats.h"
#include "kstats_family.h"
#include "kstats_internal.h"

#define BENCH_REPS	5
#define BENCH_ITERS	100000UL
#define BENCH_CALLS	20000UL
#define BENCH_COLD	64UL
#define NVALS		512		/* power of two */
#define BENCH_BITS	3

static u64 vals_hot[NVALS], vals_spread[NVALS];
static struct kstats *bench_ks;
/* The same with a history of two minutes of 10 ms slices. */
static struct kstats *bench_history;
/* The distribution of the timed-path rows: ktime, as kstats_new() makes. */
static struct kstats *bench_timed;
static u64 bench_sink;

/* ---- output ---------------------------------------------------------- */

static DEFINE_MUTEX(bench_mutex);
static char bench_out[16384];
static size_t bench_len;

static __printf(1, 2) void out(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(bench_out + bench_len, sizeof(bench_out) - bench_len,
		       fmt, ap);
	va_end(ap);
	pr_info("%s", bench_out + bench_len);
	bench_len += n;
}

/* ps per call -> "12.3" */
static void out_val(const char *tag, const char *key, s64 ps)
{
	const char *sign = ps < 0 ? "-" : "";
	u64 a = ps < 0 ? -ps : ps;

	out("%s %s %s%llu.%llu\n", tag, key, sign, a / 1000, (a % 1000) / 100);
}

static int cmp_s64(const void *a, const void *b)
{
	s64 x = *(const s64 *)a, y = *(const s64 *)b;

	return x < y ? -1 : x > y;
}

static s64 median(s64 *v, int n)
{
	sort(v, n, sizeof(*v), cmp_s64, NULL);
	return v[n / 2];
}

/* ---- the baselines a kernel developer would otherwise write --------- */

#define BASE_SLOTS	((65 - BENCH_BITS) << BENCH_BITS)

/* A global array of atomic64 counters, same log-linear slot math. */
static atomic64_t shared_hist[BASE_SLOTS];

/* A spinlock-protected histogram, count and sum as kstats keeps. */
static DEFINE_SPINLOCK(spin_lock_hist);
static struct {
	u64 count;
	u64 sum;
} spin_hist[BASE_SLOTS];

/* ---- the measured operations, one noinline function each ------------- */

/*
 * Every loop calls one of these with (ks, value): the empty one is the
 * baseline, so the call, the value load and the loop are subtracted.
 */
#define BENCH_OP(name) \
	static __attribute__((__noipa__)) notrace void \
	op_##name(struct kstats *ks, u64 v)

BENCH_OP(empty)
{
	OPTIMIZER_HIDE_VAR(ks);
	OPTIMIZER_HIDE_VAR(v);
	barrier();
}

BENCH_OP(ktime)
{
	WRITE_ONCE(bench_sink, ktime_get_ns());
}

/* What kstats' ktime clock reads: NMI-safe, no seqcount retry loop. */
BENCH_OP(ktime_fast)
{
	WRITE_ONCE(bench_sink, ktime_get_mono_fast_ns());
}

BENCH_OP(local_clock)
{
	WRITE_ONCE(bench_sink, local_clock());
}

#ifdef CONFIG_X86
BENCH_OP(rdtsc)
{
	WRITE_ONCE(bench_sink, rdtsc());
}

BENCH_OP(rdtsc_ordered)
{
	WRITE_ONCE(bench_sink, rdtsc_ordered());
}
#endif

/* kstats' clock cycles: the TSC on x86 (above), the virtual counter on arm64 */
BENCH_OP(cycles)
{
	WRITE_ONCE(bench_sink, kstats_clock_now(KSTATS_CLOCK_CYCLES));
}

BENCH_OP(record)
{
	kstats_record(ks, v);
}

BENCH_OP(atomic)
{
	atomic64_inc(&shared_hist[kstats_slot(v, BENCH_BITS)]);
}

BENCH_OP(spinlock)
{
	unsigned long flags;
	u32 slot = kstats_slot(v, BENCH_BITS);

	spin_lock_irqsave(&spin_lock_hist, flags);
	spin_hist[slot].count++;
	spin_hist[slot].sum += v;
	spin_unlock_irqrestore(&spin_lock_hist, flags);
}

/* kstats_record() when the caller knows frac_bits at compile time. */
BENCH_OP(record_bits)
{
	kstats_record_bits(ks, v, BENCH_BITS);
}

/*
 * Timing a path: the open-coded pair of clock reads and a record, and
 * what the annotation API writes instead; then two chained stages, open
 * coded (four clock reads) and with kstats_record_since() (three).
 */
BENCH_OP(timed_open)
{
	u64 t0 = kstats_now(bench_timed);

	OPTIMIZER_HIDE_VAR(v);
	kstats_record(bench_timed, kstats_now(bench_timed) - t0);
}

BENCH_OP(timed_since)
{
	u64 t0 = kstats_now(bench_timed);

	OPTIMIZER_HIDE_VAR(v);
	kstats_record_since(bench_timed, t0);
}

BENCH_OP(timed_scope)
{
	kstats_scope(bench_timed);

	OPTIMIZER_HIDE_VAR(v);
}

BENCH_OP(stages_open)
{
	u64 t0 = kstats_now(bench_timed), t1;

	OPTIMIZER_HIDE_VAR(v);
	kstats_record(bench_timed, kstats_now(bench_timed) - t0);
	t1 = kstats_now(bench_timed);
	OPTIMIZER_HIDE_VAR(v);
	kstats_record(bench_timed, kstats_now(bench_timed) - t1);
}

BENCH_OP(stages_since)
{
	u64 t = kstats_now(bench_timed);

	OPTIMIZER_HIDE_VAR(v);
	t = kstats_record_since(bench_timed, t);
	OPTIMIZER_HIDE_VAR(v);
	kstats_record_since(bench_timed, t);
}

/* ---- loops ------------------------------------------------------------- */

/*
 * One timed loop of @n calls of op_@op on the distribution @dist, as
 * loop_@name; returns ns (icount: insns).
 */
#define DEFINE_LOOP_ON(name, op, dist)					\
static __attribute__((__noipa__)) notrace u64 \
loop_##name(const u64 *vals, unsigned long n)				\
{									\
	struct kstats *ks = (dist);					\
	unsigned long i;						\
	u64 t0, t1;							\
									\
	t0 = ktime_get_ns();						\
	for (i = 0; i < n; i++)						\
		op_##op(ks, vals[i & (NVALS - 1)]);			\
	t1 = ktime_get_ns();						\
	return t1 - t0;							\
}

/* One timed loop of @n calls of op_@name; returns ns (icount: insns). */
#define DEFINE_LOOP(name)						\
static __attribute__((__noipa__)) notrace u64 \
loop_##name(const u64 *vals, unsigned long n)				\
{									\
	struct kstats *ks = bench_ks;					\
	unsigned long i;						\
	u64 t0, t1;							\
									\
	t0 = ktime_get_ns();						\
	for (i = 0; i < n; i++)						\
		op_##name(ks, vals[i & (NVALS - 1)]);			\
	t1 = ktime_get_ns();						\
	return t1 - t0;							\
}

/* Cold cache: evict before each call, time each call alone. */
#define DEFINE_COLD(name)						\
static __attribute__((__noipa__)) notrace u64 \
cold_##name(const u64 *vals, unsigned long n,				\
					 const u8 *buf, size_t size)	\
{									\
	struct kstats *ks = bench_ks;					\
	unsigned long i;						\
	u64 t0, sum = 0;						\
	size_t off;							\
	u8 x = 0;							\
									\
	for (i = 0; i < n; i++) {					\
		for (off = 0; off < size; off += 64)			\
			x += READ_ONCE(buf[off]);			\
		t0 = ktime_get_ns();					\
		op_##name(ks, vals[i & (NVALS - 1)]);			\
		sum += ktime_get_ns() - t0;				\
	}								\
	WRITE_ONCE(bench_sink, x);					\
	return sum;							\
}

DEFINE_LOOP(empty)
DEFINE_LOOP(ktime)
DEFINE_LOOP(ktime_fast)
DEFINE_LOOP(local_clock)
#ifdef CONFIG_X86
DEFINE_LOOP(rdtsc)
DEFINE_LOOP(rdtsc_ordered)
#endif
DEFINE_LOOP(cycles)
DEFINE_LOOP(record)
DEFINE_LOOP_ON(record_history, record, bench_history)
DEFINE_LOOP(atomic)
DEFINE_LOOP(spinlock)
DEFINE_LOOP(record_bits)
DEFINE_LOOP(timed_open)
DEFINE_LOOP(timed_since)
DEFINE_LOOP(timed_scope)
DEFINE_LOOP(stages_open)
DEFINE_LOOP(stages_since)
DEFINE_COLD(empty)
DEFINE_COLD(record)
DEFINE_COLD(atomic)
DEFINE_COLD(spinlock)

/*
 * Median over BENCH_REPS of (op loop - empty loop), in ps per call; each
 * rep runs the empty loop right before the op loop.  With irqs off (the
 * loops are short) the icount figures are exact.
 */
#define MEASURE(name, vals, rawp) ({					\
	s64 d[BENCH_REPS], r[BENCH_REPS], e[BENCH_REPS];		\
	const u64 *mv = (vals);						\
	unsigned long flags;						\
	int rep;							\
									\
	for (rep = 0; rep < BENCH_REPS; rep++) {			\
		u64 te, to;						\
									\
		local_irq_save(flags);					\
		te = loop_empty(mv, BENCH_ITERS);			\
		to = loop_##name(mv, BENCH_ITERS);			\
		local_irq_restore(flags);				\
		e[rep] = te * 1000 / BENCH_ITERS;			\
		r[rep] = to * 1000 / BENCH_ITERS;			\
		d[rep] = r[rep] - e[rep];				\
		cond_resched();						\
	}								\
	*(rawp) = median(e, BENCH_REPS);				\
	median(d, BENCH_REPS);						\
})

#define MEASURE_COLD(name, vals, buf, size) ({				\
	s64 d[BENCH_REPS];						\
	const u64 *mv = (vals);						\
	u8 *mb = (buf);							\
	size_t ms = (size);						\
	unsigned long flags;						\
	int rep;							\
									\
	for (rep = 0; rep < BENCH_REPS; rep++) {			\
		u64 te, to;						\
									\
		local_irq_save(flags);					\
		te = cold_empty(mv, BENCH_COLD, mb, ms);		\
		to = cold_##name(mv, BENCH_COLD, mb, ms);		\
		local_irq_restore(flags);				\
		d[rep] = (s64)(to - te) * 1000 / (s64)BENCH_COLD;	\
		cond_resched();						\
	}								\
	median(d, BENCH_REPS);						\
})

static size_t llc_bytes(void)
{
#ifdef CONFIG_X86
	if (boot_cpu_data.x86_cache_size > 0)
		return (size_t)boot_cpu_data.x86_cache_size * 1024;
#endif
	return 0;
}

static void cmd_record(void)
{
	size_t llc = llc_bytes(), size;
	s64 empty, ns;
	u8 *buf;

	out("BENCHINFO record iters=%lu reps=%d frac_bits=%d hot_value=%llu spread_slots=%u\n",
	    BENCH_ITERS, BENCH_REPS, BENCH_BITS, vals_hot[0], bench_ks->nr_slots);

#define ROW(key, name, vals) do {					\
		ns = MEASURE(name, vals, &empty);			\
		out_val("BENCH", key, ns);				\
	} while (0)

	ns = MEASURE(empty, vals_hot, &empty);
	out_val("BENCH", "empty", empty);
	ROW("ktime_get_ns", ktime, vals_hot);
	ROW("ktime_get_mono_fast_ns", ktime_fast, vals_hot);
	ROW("local_clock", local_clock, vals_hot);
#ifdef CONFIG_X86
	ROW("rdtsc", rdtsc, vals_hot);
	ROW("rdtsc_ordered", rdtsc_ordered, vals_hot);
#endif
	if (KSTATS_HAVE_CYCLES)
		ROW("cycles", cycles, vals_hot);
	ROW("record_hot", record, vals_hot);
	ROW("record_spread", record, vals_spread);
	ROW("record_history_hot", record_history, vals_hot);
	ROW("record_history_spread", record_history, vals_spread);
	ROW("atomic_hot", atomic, vals_hot);
	ROW("atomic_spread", atomic, vals_spread);
	ROW("spinlock_hot", spinlock, vals_hot);
	ROW("spinlock_spread", spinlock, vals_spread);
	ROW("record_bits_hot", record_bits, vals_hot);
	ROW("record_bits_spread", record_bits, vals_spread);
	ROW("timed_open", timed_open, vals_hot);
	ROW("timed_since", timed_since, vals_hot);
	ROW("timed_scope", timed_scope, vals_hot);
	ROW("stages_open", stages_open, vals_hot);
	ROW("stages_since", stages_since, vals_hot);
	ns = MEASURE(empty, vals_spread, &empty);
	out_val("BENCHRAW", "empty_spread", empty);
#undef ROW2
#undef ROW

	/* Cold cache: twice the LLC the CPU reports, at least 8 MB. */
	size = max_t(size_t, 2 * llc, 8 << 20);
	buf = vzalloc(size);
	if (!buf) {
		out("BENCHNA record_cold no memory for %zu bytes\n", size);
		return;
	}
	out("BENCHINFO cold llc=%zu buffer=%zu samples=%lu\n", llc, size,
	    BENCH_COLD);
	out_val("BENCH", "record_cold", MEASURE_COLD(record, vals_spread, buf, size));
	out_val("BENCH", "atomic_cold", MEASURE_COLD(atomic, vals_spread, buf, size));
	out_val("BENCH", "spinlock_cold", MEASURE_COLD(spinlock, vals_spread, buf, size));
	vfree(buf);
}

/* ---- memory ------------------------------------------------------------- */

static void mem_row(const char *key, unsigned int bits, u64 max)
{
	struct kstats_config cfg = {
		.name = key, .frac_bits = bits, .clock = KSTATS_CLOCK_NONE,
		.max_value = max,
	};
	struct kstats *ks = kstats_new_config(&cfg);

	if (IS_ERR(ks)) {
		out("BENCHNA %s kstats_new_config: %ld\n", key, PTR_ERR(ks));
		return;
	}
	out("BENCHMEM %s bits=%u max=%llu slots=%u bytes_per_cpu=%zu\n", key,
	    bits, max, ks->nr_slots,
	    (size_t)(ks->nr_slots + 1) * sizeof(struct kstats_slot));
	kstats_delete(ks);
}

static void cmd_memory(void)
{
	char key[32];
	unsigned int k;

	for (k = 0; k <= KSTATS_MAX_FRAC_BITS; k++) {
		snprintf(key, sizeof(key), "bench_mem_k%u", k);
		mem_row(key, k, 0);
	}
	mem_row("bench_mem_k3_1e6", 3, 1000000ULL);
	mem_row("bench_mem_k3_1e9", 3, 1000000000ULL);
}

/* ---- tracing: the traced function and the calibration floors -------- */

/* What the tracing rows trace: visible in kallsyms, ftrace-able. */
int kstats_bench_target(int x);
noinline int kstats_bench_target(int x)
{
	barrier();
	return x + 1;
}
EXPORT_SYMBOL_GPL(kstats_bench_target);

static void cmd_call(const char *label, unsigned long n)
{
	s64 d[BENCH_REPS];
	int rep, x = 0;

	for (rep = 0; rep < BENCH_REPS; rep++) {
		unsigned long i;
		u64 t0, t1;

		t0 = ktime_get_ns();
		for (i = 0; i < n; i++)
			x = kstats_bench_target(x);
		t1 = ktime_get_ns();
		d[rep] = (s64)(t1 - t0) * 1000 / (s64)n;
		cond_resched();
	}
	WRITE_ONCE(bench_sink, x);
	out("BENCHINFO call_%s n=%lu reps=%d\n", label, n, BENCH_REPS);
	out_val("BENCH", label, median(d, BENCH_REPS));
}

static DEFINE_PER_CPU(u64, floor_count);
static DEFINE_PER_CPU(u64, floor_sum);

/*
 * The floor's clocks: what clock ktime reads (ktime_get_mono_fast_ns()),
 * and with "-tsc" what clock tsc reads.
 */
static __always_inline notrace u64 floor_now(void)
{
	return ktime_get_mono_fast_ns();
}

/* clock tsc, or cycles: arm64's virtual counter */
static __always_inline notrace u64 floor_now_tsc(void)
{
	if (KSTATS_HAVE_CYCLES)
		return kstats_clock_now(KSTATS_CLOCK_CYCLES);
	return ktime_get_ns();
}

static __always_inline notrace void floor_exit(u64 t0, u64 now)
{
	this_cpu_inc(floor_count);
	this_cpu_add(floor_sum, now - t0);
}

#ifdef CONFIG_FPROBE
static struct fprobe *floor_fp;

#define FLOOR_FP(suffix)						\
static notrace int floor_fp_entry##suffix(struct fprobe *fp,		\
					  unsigned long ip,		\
					  unsigned long ret_ip,		\
					  struct pt_regs *regs, void *data) \
{									\
	*(u64 *)data = floor_now##suffix();				\
	return 0;							\
}									\
static notrace void floor_fp_exit##suffix(struct fprobe *fp,		\
					  unsigned long ip,		\
					  unsigned long ret_ip,		\
					  struct pt_regs *regs, void *data) \
{									\
	floor_exit(*(u64 *)data, floor_now##suffix());			\
}

FLOOR_FP()
FLOOR_FP(_tsc)
#endif

static struct kretprobe *floor_krp;

#define FLOOR_KRP(suffix)						\
static notrace int floor_krp_entry##suffix(struct kretprobe_instance *ri, \
					   struct pt_regs *regs)	\
{									\
	*(u64 *)ri->data = floor_now##suffix();				\
	return 0;							\
}									\
static notrace int floor_krp_exit##suffix(struct kretprobe_instance *ri, \
					  struct pt_regs *regs)		\
{									\
	floor_exit(*(u64 *)ri->data, floor_now##suffix());		\
	return 0;							\
}

FLOOR_KRP()
FLOOR_KRP(_tsc)

static u64 floor_total(void)
{
	u64 n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += per_cpu(floor_count, cpu);
	return n;
}

/* "fprobe-tsc", "kretprobe-tsc": the floor with clock tsc. */
static bool floor_is_tsc(const char *mech)
{
	size_t n = strlen(mech);

	return n > 4 && !strcmp(mech + n - 4, "-tsc");
}

/*
 * The floor of a section on the system call's tracepoints: empty probes on
 * raw_syscalls' sys_enter and sys_exit (the exit's counts the calls), what
 * the kernel charges to reach a probe there: the system call's slow path
 * (the tracepoints' work flag) and the two calls of the probes.
 */
static struct tracepoint *floor_tp[2];
static bool floor_tp_on;

static void floor_tp_find(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sys_enter"))
		floor_tp[0] = tp;
	else if (!strcmp(tp->name, "sys_exit"))
		floor_tp[1] = tp;
}

static notrace void floor_sys_enter(void *data, struct pt_regs *regs, long id)
{
}

static notrace void floor_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	this_cpu_inc(floor_count);
}

static int floor_syscalls(bool on)
{
	int err;

	if (!on) {
		if (!floor_tp_on)
			return 0;
		tracepoint_probe_unregister(floor_tp[0], floor_sys_enter, NULL);
		tracepoint_probe_unregister(floor_tp[1], floor_sys_exit, NULL);
		tracepoint_synchronize_unregister();
		floor_tp_on = false;
		return 0;
	}
	if (floor_tp_on)
		return -EBUSY;
	if (!floor_tp[0] || !floor_tp[1])
		for_each_kernel_tracepoint(floor_tp_find, NULL);
	if (!floor_tp[0] || !floor_tp[1])
		return -ENOENT;
	err = tracepoint_probe_register(floor_tp[0], floor_sys_enter, NULL);
	if (err)
		return err;
	err = tracepoint_probe_register(floor_tp[1], floor_sys_exit, NULL);
	if (err) {
		tracepoint_probe_unregister(floor_tp[0], floor_sys_enter, NULL);
		tracepoint_synchronize_unregister();
		return err;
	}
	floor_tp_on = true;
	return 0;
}

static int cmd_floor(const char *mech, const char *sym, bool on)
{
	bool tsc = floor_is_tsc(mech);
	int err = 0;

	if (!strncmp(mech, "fprobe", 6) && (!mech[6] || tsc)) {
#ifdef CONFIG_FPROBE
		if (on) {
			if (floor_fp)
				return -EBUSY;
			floor_fp = kzalloc(sizeof(*floor_fp), GFP_KERNEL);
			if (!floor_fp)
				return -ENOMEM;
			floor_fp->entry_handler = tsc ? floor_fp_entry_tsc :
						 floor_fp_entry;
			floor_fp->exit_handler = tsc ? floor_fp_exit_tsc :
						floor_fp_exit;
			floor_fp->entry_data_size = sizeof(u64);
			err = register_fprobe_syms(floor_fp, &sym, 1);
			if (err) {
				kfree(floor_fp);
				floor_fp = NULL;
			}
		} else if (floor_fp) {
			unregister_fprobe(floor_fp);
			kfree(floor_fp);
			floor_fp = NULL;
		}
#else
		err = -EOPNOTSUPP;
#endif
	} else if (!strncmp(mech, "kretprobe", 9) && (!mech[9] || tsc)) {
		if (on) {
			if (floor_krp)
				return -EBUSY;
			floor_krp = kzalloc(sizeof(*floor_krp), GFP_KERNEL);
			if (!floor_krp)
				return -ENOMEM;
			floor_krp->kp.symbol_name = kstrdup(sym, GFP_KERNEL);
			floor_krp->entry_handler = tsc ? floor_krp_entry_tsc :
						   floor_krp_entry;
			floor_krp->handler = tsc ? floor_krp_exit_tsc :
					     floor_krp_exit;
			floor_krp->data_size = sizeof(u64);
			err = floor_krp->kp.symbol_name ?
			      register_kretprobe(floor_krp) : -ENOMEM;
			if (err) {
				kfree(floor_krp->kp.symbol_name);
				kfree(floor_krp);
				floor_krp = NULL;
			}
		} else if (floor_krp) {
			unregister_kretprobe(floor_krp);
			kfree(floor_krp->kp.symbol_name);
			kfree(floor_krp);
			floor_krp = NULL;
		}
	} else if (!strcmp(mech, "tracepoint") && !strcmp(sym, "raw_syscalls")) {
		err = floor_syscalls(on);
	} else {
		return -EINVAL;
	}
	out("BENCHINFO floor %s %s %s err=%d hits=%llu\n", mech, sym,
	    on ? "on" : "off", err, floor_total());
	return err;
}

/* ---- scaling ------------------------------------------------------------- */

enum { SC_KSTATS, SC_ATOMIC, SC_SPIN, SC_NR, SC_KEY = SC_NR };
static const char *const sc_name[SC_NR] = { "kstats", "atomic", "spinlock" };

struct sc_thread {
	struct task_struct *task;
	struct completion done;
	int mode;
	const u64 *vals;
	u64 iters;
	u64 ns;
};

/* Common start and end times of a run, guest ktime. */
static u64 sc_start, sc_deadline;
/* The family of SC_KEY's runs, and those of the runs before. */
#define SC_KEYS_MAX	4
static struct kstats *sc_key, *sc_keys[SC_KEYS_MAX];
static int sc_nr_keys;

static int sc_fn(void *arg)
{
	struct sc_thread *t = arg;
	struct kstats *ks = bench_ks;
	const u64 *vals = t->vals;
	const u64 k[2] = { 7, 0 };
	u64 n = 0, t0;
	u32 key;
	int i;

	/* Yield while waiting: the creator may share this CPU. */
	while (ktime_get_ns() < READ_ONCE(sc_start))
		schedule_timeout_uninterruptible(1);
	t0 = ktime_get_ns();
	do {
		switch (t->mode) {
		case SC_KSTATS:
			for (i = 0; i < 1024; i++)
				op_record(ks, vals[i & (NVALS - 1)]);
			break;
		case SC_ATOMIC:
			for (i = 0; i < 1024; i++)
				op_atomic(ks, vals[i & (NVALS - 1)]);
			break;
		case SC_KEY:
			/* as a node does: the key found once, then recorded */
			preempt_disable();
			key = kstats_family_index(sc_key->family, k);
			for (i = 0; i < 1024; i++)
				kstats_family_record(sc_key, key, vals[i & (NVALS - 1)]);
			preempt_enable();
			break;
		default:
			for (i = 0; i < 1024; i++)
				op_spinlock(ks, vals[i & (NVALS - 1)]);
			break;
		}
		n += 1024;
		cond_resched();
	} while (ktime_get_ns() < READ_ONCE(sc_deadline));
	t->ns = ktime_get_ns() - t0;
	t->iters = n;
	complete(&t->done);
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* One result line of a scaling run: million calls per second per CPU. */
static const char scale_fmt[] =
	"BENCHSCALE %s_%s cpus=%d ms=%u mops_per_cpu=%llu.%llu min=%llu.%llu max=%llu.%llu\n";

static void scale_one(int ncpus, unsigned int ms, int mode, const char *name,
		      const u64 *vals, const char *vname)
{
	struct sc_thread *th;
	u64 total = 0, min = U64_MAX, max = 0, r;
	int i, cpu, started;

	th = kcalloc(ncpus, sizeof(*th), GFP_KERNEL);
	if (!th)
		return;
	i = 0;
	for_each_online_cpu(cpu) {
		if (i == ncpus)
			break;
		th[i].mode = mode;
		th[i].vals = vals;
		init_completion(&th[i].done);
		th[i].task = kthread_create(sc_fn, &th[i], "kstats_bench/%d", cpu);
		if (IS_ERR(th[i].task)) {
			th[i].task = NULL;
			break;
		}
		kthread_bind(th[i].task, cpu);
		i++;
	}
	started = i;
	WRITE_ONCE(sc_start, ktime_get_ns() + 20 * NSEC_PER_MSEC);
	WRITE_ONCE(sc_deadline, sc_start + (u64)ms * NSEC_PER_MSEC);
	for (i = 0; i < started; i++)
		wake_up_process(th[i].task);
	for (i = 0; i < started; i++) {
		wait_for_completion(&th[i].done);
		kthread_stop(th[i].task);
		/* calls per us = million calls per second, x1000 */
		r = th[i].ns ? th[i].iters * 1000000 / th[i].ns : 0;
		total += r;
		min = min(min, r);
		max = max(max, r);
	}
	/* Million calls per second per CPU, with one decimal. */
	if (started)
		out(scale_fmt, name, vname, started, ms,
		    total / started / 1000, total / started % 1000 / 100,
		    min / 1000, min % 1000 / 100, max / 1000, max % 1000 / 100);
	kfree(th);
}

static void cmd_scale(int ncpus, unsigned int ms)
{
	int mode;

	ncpus = clamp(ncpus, 1, (int)num_online_cpus());
	for (mode = 0; mode < SC_NR; mode++) {
		scale_one(ncpus, ms, mode, sc_name[mode], vals_hot, "hot");
		scale_one(ncpus, ms, mode, sc_name[mode], vals_spread, "spread");
	}
}

/*
 * One key of a family recorded by every CPU: shared by all CPUs, or per
 * CPU once hot, as kstats' family_hot_keys parameter says when the
 * family is made.
 */
static void cmd_scalekey(int ncpus, unsigned int ms, const char *label)
{
	char name[48], key[48];
	struct kstats_config cfg = {
		.name = name, .frac_bits = BENCH_BITS,
		.clock = KSTATS_CLOCK_NONE, .max_keys = 16,
	};

	if (sc_nr_keys == SC_KEYS_MAX) {
		out("BENCHNA key_%s more than %d families\n", label, SC_KEYS_MAX);
		return;
	}
	snprintf(name, sizeof(name), "bench_key_%s", label);
	snprintf(key, sizeof(key), "key_%s", label);
	sc_key = kstats_new_config(&cfg);
	if (IS_ERR(sc_key)) {
		out("BENCHNA %s kstats_new_config: %ld\n", key, PTR_ERR(sc_key));
		return;
	}
	sc_keys[sc_nr_keys++] = sc_key;
	ncpus = clamp(ncpus, 1, (int)num_online_cpus());
	scale_one(ncpus, ms, SC_KEY, key, vals_hot, "hot");
	scale_one(ncpus, ms, SC_KEY, key, vals_spread, "spread");
}

/* ---- debugfs ------------------------------------------------------------- */

static ssize_t ctl_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	char buf[128], a[32], b[64], c[8];
	unsigned long n;
	int err = 0, i;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = 0;
	strim(buf);

	mutex_lock(&bench_mutex);
	if (!strcmp(buf, "record")) {
		cmd_record();
	} else if (!strcmp(buf, "memory")) {
		cmd_memory();
	} else if (!strcmp(buf, "clear")) {
		bench_len = 0;
		bench_out[0] = 0;
	} else if (sscanf(buf, "call %31s %lu", a, &n) == 2) {
		cmd_call(a, n ? n : BENCH_CALLS);
	} else if (sscanf(buf, "call %31s", a) == 1) {
		cmd_call(a, BENCH_CALLS);
	} else if (sscanf(buf, "floor %31s %63s %7s", a, b, c) == 3) {
		err = cmd_floor(a, b, !strcmp(c, "on"));
	} else if (sscanf(buf, "scalekey %d %lu %31s", &i, &n, a) == 3) {
		cmd_scalekey(i, n, a);
	} else if (sscanf(buf, "scale %d %lu", &i, &n) == 2) {
		cmd_scale(i, n);
	} else {
		err = -EINVAL;
	}
	mutex_unlock(&bench_mutex);
	return err ? err : count;
}

static ssize_t out_read(struct file *file, char __user *ubuf, size_t count,
			loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&bench_mutex);
	ret = simple_read_from_buffer(ubuf, count, ppos, bench_out, bench_len);
	mutex_unlock(&bench_mutex);
	return ret;
}

static const struct file_operations ctl_fops = {
	.owner = THIS_MODULE,
	.write = ctl_write,
	.llseek = noop_llseek,
};

static const struct file_operations out_fops = {
	.owner = THIS_MODULE,
	.read = out_read,
	.llseek = default_llseek,
};

static struct dentry *bench_dir;

static int __init kstats_bench_init(void)
{
	struct kstats_config cfg = {
		.name = "bench_record", .frac_bits = BENCH_BITS,
		.clock = KSTATS_CLOCK_NONE,
	};
	struct kstats_config hcfg = {
		.name = "bench_record_history", .frac_bits = BENCH_BITS,
		.clock = KSTATS_CLOCK_NONE, .history_slice_ns = 10000000,
		.history_slices = 12000,
	};
	u32 nr = kstats_nr_slots(BENCH_BITS), s;
	int i;

	bench_ks = kstats_new_config(&cfg);
	if (IS_ERR(bench_ks))
		return PTR_ERR(bench_ks);
	bench_timed = kstats_new("bench_timed", BENCH_BITS);
	if (IS_ERR(bench_timed)) {
		kstats_delete(bench_ks);
		return PTR_ERR(bench_timed);
	}
	bench_history = kstats_new_config(&hcfg);
	if (IS_ERR(bench_history)) {
		kstats_delete(bench_timed);
		kstats_delete(bench_ks);
		return PTR_ERR(bench_history);
	}
	for (i = 0; i < NVALS; i++) {
		/* A typical duration in ns, always the same slot. */
		vals_hot[i] = 1000;
		/* Every slot in turn, mid-slot, in a scattered order. */
		s = (u32)(((u64)i * 97) % nr);
		vals_spread[i] = kstats_slot_lo(s, BENCH_BITS) / 2 +
				 kstats_slot_hi(s, BENCH_BITS) / 2;
	}
	bench_dir = debugfs_create_dir("kstats_bench", NULL);
	debugfs_create_file("ctl", 0200, bench_dir, NULL, &ctl_fops);
	debugfs_create_file("out", 0400, bench_dir, NULL, &out_fops);
	return 0;
}

static void __exit kstats_bench_exit(void)
{
	debugfs_remove_recursive(bench_dir);
	mutex_lock(&bench_mutex);
#ifdef CONFIG_FPROBE
	if (floor_fp)
		cmd_floor("fprobe", "", false);
#endif
	if (floor_krp)
		cmd_floor("kretprobe", "", false);
	floor_syscalls(false);
	mutex_unlock(&bench_mutex);
	while (sc_nr_keys)
		kstats_delete(sc_keys[--sc_nr_keys]);
	kstats_delete(bench_history);
	kstats_delete(bench_timed);
	kstats_delete(bench_ks);
}

module_init(kstats_bench_init);
module_exit(kstats_bench_exit);

MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(KSTATS_NS);
MODULE_DESCRIPTION("kstats benchmarks: record and tracing path costs, scaling, memory");
