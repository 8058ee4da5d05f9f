/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU log-linear histograms of kernel quantities.
 *
 * A distribution (struct kstats) is a set of per-CPU histograms.  Code
 * records samples with the inline kstats_record(), which compares the
 * sample with the local CPU's smallest and largest and touches one 16-byte
 * slot of its histogram with two this_cpu operations: no lock, no
 * bus-locked instruction, and a function call only for a new extreme.
 * Readers fold the per-CPU rows when they print them, in debugfs at
 * /sys/kernel/debug/kstats/NAME.
 *
 * Typical use, timing a code path:
 *
 *	ks = kstats_new("tx_path", 3);
 *	if (IS_ERR(ks))
 *		return PTR_ERR(ks);
 *	...
 *	u64 t0 = kstats_now(ks);
 *	do_tx();
 *	kstats_record(ks, kstats_now(ks) - t0);
 *	...
 *	kstats_delete(ks);
 */
#ifndef _KSTATS_H
#define _KSTATS_H

#include <linux/compiler.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/spinlock.h>
#include <linux/ktime.h>
#include <linux/timekeeping.h>
#include <linux/types.h>
#ifdef CONFIG_X86
#include <asm/asm.h>
#include <asm/msr.h>
#elif defined(CONFIG_ARM64)
#include <asm/arch_timer.h>
#endif

#include "kstats_bucket.h"

struct dentry;
struct kstats_family;
struct kstats_history;
struct kstats_negative;
struct kstats_ops;

/* Longest distribution name, without the terminating NUL. */
#define KSTATS_NAME_MAX		63

/**
 * enum kstats_clock - the clock kstats_now() reads for a distribution
 * @KSTATS_CLOCK_KTIME: ktime_get_mono_fast_ns(), nanoseconds, monotonic on
 *	all CPUs, safe in NMI and inside any traced function (it takes no
 *	lock a traced writer of the timekeeper could hold)
 * @KSTATS_CLOCK_LOCAL: local_clock(), nanoseconds, cheaper, may drift
 *	between CPUs by a few microseconds
 * @KSTATS_CLOCK_TSC: the CPU's cycle counter, read in order: the time
 *	stamp counter on x86 (rdtsc_ordered(), clock tsc), the virtual
 *	counter on arm64 (cntvct_el0, clock cycles); its rate is in the
 *	distribution file's header (tsc_khz, cycles_khz).  Not on other
 *	architectures.
 * @KSTATS_CLOCK_NONE: the samples are not times (sizes, counts, ...)
 * @KSTATS_CLOCK_CYCLES: the same clock as @KSTATS_CLOCK_TSC, under the name
 *	that fits every architecture
 */
enum kstats_clock {
	KSTATS_CLOCK_KTIME,
	KSTATS_CLOCK_LOCAL,
	KSTATS_CLOCK_TSC,
	KSTATS_CLOCK_NONE,
	KSTATS_CLOCK_CYCLES = KSTATS_CLOCK_TSC,
};

/* Whether this architecture has KSTATS_CLOCK_CYCLES. */
#define KSTATS_HAVE_CYCLES	(IS_ENABLED(CONFIG_X86) || IS_ENABLED(CONFIG_ARM64))

/**
 * struct kstats_slot - one slot of one CPU's histogram
 * @count: samples recorded in the slot
 * @sum: sum of the samples' offsets in the slot, in 2^-20 of its width
 *	(kstats_sum_term())
 *
 * 16 bytes aligned to 16, so that a sample touches one cache line.
 */
struct kstats_slot {
	u64 count;
	u64 sum;
} __aligned(16);

/**
 * struct kstats_extremes - the smallest and the largest sample of one CPU
 * @min: U64_MAX while the CPU has recorded none since the last reset
 * @max: 0 while the CPU has recorded none
 *
 * Kept just before the CPU's slot 0 (kstats_extremes()), so that a
 * recorder reaches them from the address of its histogram, which it has
 * loaded anyway: two compares with memory, no other load.  16 bytes, so
 * that the slots after them stay aligned.
 */
struct kstats_extremes {
	u64 min;
	u64 max;
} __aligned(16);

/* The extremes before the per-CPU histogram @slots (a struct kstats_slot __percpu *). */
#define kstats_extremes(slots)	((struct kstats_extremes __percpu *)(slots) - 1)

/**
 * struct kstats_config - how to create a distribution
 * @name: file name under /sys/kernel/debug/kstats/ ([A-Za-z0-9_.-], not
 *	starting with '.', not "_control", at most KSTATS_NAME_MAX characters)
 * @frac_bits: 0..KSTATS_MAX_FRAC_BITS: each power of two is split in
 *	2^frac_bits slots (3 gives slots 12.5% wide)
 * @clock: the clock of kstats_now()
 * @max_value: 0 for the whole u64 range; otherwise the largest value to
 *	keep apart, rounded up to the end of its slot: larger values are
 *	counted together in one overflow slot, and the per-CPU memory shrinks
 *	to the slots up to it
 * @max_keys: 0 for one histogram; 1..65536 for a family: one histogram
 *	per key given to kstats_record_key(), at most @max_keys keys, the
 *	samples of any further key in one key "other"
 * @history_slice_ns: 0 for no history; else the length in ns of each slice
 *	of the distribution's history (Documentation/format.rst, "_history"):
 *	a ring of @history_slices per-slice histograms
 * @history_slices: the slices the history keeps, with @history_slice_ns
 */
struct kstats_config {
	const char *name;
	unsigned int frac_bits;
	enum kstats_clock clock;
	u64 max_value;
	u32 max_keys;
	u64 history_slice_ns;
	u32 history_slices;
};

/**
 * struct kstats - a distribution
 * @slots: where kstats_record() writes: @hist while recording, a per-CPU
 *	scratch area shared by all stopped distributions otherwise, so that
 *	the fast path needs no "active" test
 * @clamp: samples above it are recorded as it (the overflow slot's lo);
 *	U64_MAX for the full range
 * @frac_bits: see struct kstats_config
 * @clock: see struct kstats_config
 * @nr_slots: slots in each per-CPU histogram
 * @hist: per-CPU histograms of @nr_slots slots, then one slot whose count
 *	holds the missed events; each CPU's extremes just before its slot 0
 *	(kstats_extremes())
 * @kref: references: the creator's, and one per kstats_get()
 * @node: entry in the list of distributions, under kstats_mutex
 * @dentry: the debugfs file, or NULL
 * @name: see struct kstats_config
 * @origin: how it was made, for the listing of _control
 * @maker: who made it, and so who may delete it (enum kstats_maker)
 * @priv: owned by the creator of a trace node
 * @ops: what its maker adds to it (struct kstats_ops, kstats.ko's own):
 *	the lines of its file, its reset, retirement and release
 * @free_node: on the list of distributions waiting to be freed
 * @neg: negative samples, counted apart from the histogram, or NULL for a
 *	distribution that takes no signed values
 * @family: one histogram per key, beside the total, or NULL: attached,
 *	reset and freed by the distribution's maker (@ops)
 * @history: its slices over time, or NULL (kstats_history.h)
 *
 * Only the first four fields, in the first 24 bytes, are read by the
 * inline fast path; the rest is private to kstats.ko.
 */
struct kstats {
	struct kstats_slot __percpu *slots;
	u64 clamp;
	u8 frac_bits;
	u8 clock;
	u32 nr_slots;
	/* cold: private to kstats.ko */
	struct kstats_slot __percpu *hist;
	struct kref kref;
	struct list_head node;
	struct dentry *dentry;
	char name[KSTATS_NAME_MAX + 1];
	char origin[96];
	u8 maker;
	void *priv;
	const struct kstats_ops *ops;
	struct llist_node free_node;
	struct kstats_negative *neg;
	struct kstats_family *family;
	struct kstats_history *history;
};

/**
 * struct kstats_summary - a distribution in a few figures, as the
 *	"# summary" line of its file
 * @samples: samples in the histogram (negative ones are counted apart)
 * @missed: events that could not be recorded
 * @min: the smallest sample since the last reset
 * @p50: hi of the slot holding the median, or @max if smaller
 * @p90: hi of the slot holding the 90th percentile, or @max if smaller
 * @p99: hi of the slot holding the 99th percentile, or @max if smaller
 * @p999: hi of the slot holding the 99.9th percentile, or @max if smaller
 * @max: the largest sample since the last reset
 * @mean: total of the samples / @samples, rounded down
 *
 * Every field is 0 for a distribution without samples (but @missed).
 */
struct kstats_summary {
	u64 samples;
	u64 missed;
	u64 min;
	u64 p50;
	u64 p90;
	u64 p99;
	u64 p999;
	u64 max;
	u64 mean;
};

struct kstats *kstats_new(const char *name, unsigned int frac_bits);
struct kstats *kstats_new_config(const struct kstats_config *cfg);
void kstats_delete(struct kstats *ks);
void kstats_start(struct kstats *ks);
void kstats_stop(struct kstats *ks);
void kstats_reset(struct kstats *ks);
struct kstats *kstats_get(const char *name);
void kstats_put(struct kstats *ks);
bool kstats_is_active(const struct kstats *ks);
int kstats_read(struct kstats *ks, struct kstats_summary *s);
void kstats_record_key(struct kstats *ks, u64 key, u64 val);
void kstats_record_negative(struct kstats *ks, s64 val);

/*
 * The out-of-line half of the record, called for a new extreme only,
 * keeps every register it uses (x86's no_caller_saved_registers), and is
 * called from an asm statement that says so (kstats_record_slow_call()):
 * the recorder saves nothing around the call, and the trampoline's
 * exits, leaf functions on their fast path, stay so.
 */
#if defined(CONFIG_X86_64) && __has_attribute(__no_caller_saved_registers__)
#define __kstats_slow	__no_caller_saved_registers
#else
#define __kstats_slow
#endif

void __kstats_slow kstats_record_slow(struct kstats *ks, u64 val);
void kstats_note_extremes(struct kstats_slot __percpu *slots, u64 val);

/*
 * Without the attribute (another architecture, a compiler without it) the
 * call is an ordinary one: the attribute is what makes the asm's
 * clobbers true.
 */
static __always_inline notrace void
kstats_record_slow_call(struct kstats *ks, u64 val)
{
#if defined(CONFIG_X86_64) && __has_attribute(__no_caller_saved_registers__)
	asm volatile("call kstats_record_slow"
		     : ASM_CALL_CONSTRAINT
		     : "D" (ks), "S" (val)
		     : "memory", "cc");
#else
	kstats_record_slow(ks, val);
#endif
}

/*
 * Whether @v is within the extremes of the per-CPU histogram @slots, not
 * below its min nor above its max: two compares with memory.  Any CPU's
 * words will do (raw_cpu_read(), so that each is one operand of its
 * compare): a sample that is no extreme of the CPU read is none of all
 * CPUs' either, which is what the reader takes.
 */
static __always_inline notrace bool
kstats_within_extremes(struct kstats_slot __percpu *slots, u64 v)
{
	struct kstats_extremes __percpu *e = kstats_extremes(slots);

	return v >= raw_cpu_read(e->min) && v <= raw_cpu_read(e->max);
}

/*
 * The body of every recorder: @frac_bits must be @ks->frac_bits, or the
 * slot index can run past the histogram.  A new extreme takes the record
 * out of line (kstats_record_slow()), which keeps the sample as it is,
 * above the distribution's range too.  A macro, not a function, so that
 * it can be taken away again at the end of this header: code outside
 * kstats.ko records only through kstats_record() and kstats_record_bits(),
 * which can never write out of bounds.
 */
#define __KSTATS_RECORD(ks, val, frac_bits) do {			\
	struct kstats *__ksr = (ks);					\
	struct kstats_slot __percpu *__sr = READ_ONCE(__ksr->slots);	\
	u64 __vr = (val);						\
									\
	if (likely(kstats_within_extremes(__sr, __vr)))			\
		__KSTATS_RECORD_SLOT(__sr,				\
				     min_t(u64, __vr, __ksr->clamp),	\
				     frac_bits);			\
	else								\
		kstats_record_slow_call(__ksr, __vr);			\
} while (0)

/*
 * The same without the clamp: for a distribution with no upper bound
 * (@ks->clamp U64_MAX, every value has a slot), where min() is a no-op.
 */
#define __KSTATS_RECORD_IN_RANGE(ks, val, frac_bits) do {		\
	struct kstats *__ksr = (ks);					\
	struct kstats_slot __percpu *__sr = READ_ONCE(__ksr->slots);	\
	u64 __vr = (val);						\
									\
	if (likely(kstats_within_extremes(__sr, __vr)))			\
		__KSTATS_RECORD_SLOT(__sr, __vr, frac_bits);		\
	else								\
		kstats_record_slow_call(__ksr, __vr);			\
} while (0)

/*
 * The sample @val, within the range, added to its slot of this CPU's
 * histogram @slots.  The slot's index is computed in 64 bits, so that it
 * needs no zero extension before it is scaled into an address.
 */
#define __KSTATS_RECORD_SLOT(slots, val, frac_bits) do {		\
	struct kstats_slot __percpu *__s;				\
	unsigned int __shift;						\
	u64 __v = (val);						\
									\
	__s = (slots) + kstats_locate(__v, (frac_bits), &__shift);	\
	this_cpu_inc(__s->count);					\
	this_cpu_add(__s->sum, kstats_sum_term(__v, __shift));		\
} while (0)

/**
 * kstats_record() - add a sample to a distribution
 * @ks: the distribution
 * @val: the sample (for a duration, kstats_now(@ks) - start)
 *
 * Context: any, hardirq and NMI included; safe against preemption and
 * migration: each update is a single this_cpu operation, and the extremes
 * (struct kstats_extremes) are compared, then changed only by a
 * this_cpu_cmpxchg().  While @ks is stopped the sample goes to a scratch
 * area nobody reads.  Inline and notrace so that tracing can never recurse
 * into it.
 */
static __always_inline notrace void kstats_record(struct kstats *ks, u64 val)
{
	__KSTATS_RECORD(ks, val, ks->frac_bits);
}

/**
 * kstats_record_bits() - kstats_record() for a frac_bits known when compiling
 * @ks: the distribution
 * @val: the sample
 * @frac_bits: the frac_bits @ks was created with, a constant
 *
 * A few instructions cheaper than kstats_record() when @frac_bits is a
 * compile-time constant.  Should it differ from @ks->frac_bits, the sample
 * is recorded by kstats_record() instead, never out of bounds.
 *
 * Context: any, as kstats_record().
 */
static __always_inline notrace void kstats_record_bits(struct kstats *ks,
						       u64 val,
						       unsigned int frac_bits)
{
	struct kstats_slot __percpu *slots = READ_ONCE(ks->slots);

	if (likely(kstats_within_extremes(slots, val) &&
		   ks->frac_bits == frac_bits))
		__KSTATS_RECORD_SLOT(slots, min_t(u64, val, ks->clamp),
				     frac_bits);
	else
		kstats_record_slow_call(ks, val);
}

/**
 * kstats_record_missed() - count an event that could not be recorded
 * @ks: the distribution
 *
 * Shown as "missed" in the header, so that nothing is lost silently.
 * Not counted while @ks is stopped.
 *
 * Context: any, as kstats_record().
 */
static __always_inline notrace void kstats_record_missed(struct kstats *ks)
{
	this_cpu_inc(READ_ONCE(ks->slots)[ks->nr_slots].count);
}

/**
 * kstats_clock_now() - read a clock
 * @clock: which one; a compile-time constant folds the dispatch away
 *
 * Return: ns for ktime and local, cycles for tsc (cycles), 0 for none.
 */
static __always_inline notrace u64 kstats_clock_now(enum kstats_clock clock)
{
	switch (clock) {
	case KSTATS_CLOCK_LOCAL:
		return local_clock();
#ifdef CONFIG_X86
	case KSTATS_CLOCK_TSC:
		return rdtsc_ordered();
#elif defined(CONFIG_ARM64)
	case KSTATS_CLOCK_TSC:
		/* ordered as rdtsc_ordered(); the errata's own reads where needed */
		return __arch_counter_get_cntvct_stable();
#endif
	case KSTATS_CLOCK_NONE:
		return 0;
	default:
		return ktime_get_mono_fast_ns();
	}
}

/**
 * kstats_now() - read the clock of a distribution
 * @ks: the distribution
 *
 * Return: ns for ktime and local, cycles for tsc (cycles), 0 for none.
 */
static __always_inline notrace u64 kstats_now(const struct kstats *ks)
{
	return kstats_clock_now(ks->clock);
}

/**
 * kstats_record_since() - record the time since @t0, and return now
 * @ks: the distribution
 * @t0: a kstats_now(@ks) reading
 *
 * Chains the stages of a path with one clock read each:
 *
 *	t = kstats_now(parse);
 *	parse_it();
 *	t = kstats_record_since(parse, t);
 *	send_it();
 *	kstats_record_since(send, t);
 *
 * (both distributions on the same clock).
 *
 * Context: any, as kstats_record().
 * Return: the kstats_now(@ks) reading it recorded against.
 */
static __always_inline notrace u64 kstats_record_since(struct kstats *ks,
						       u64 t0)
{
	u64 now = kstats_now(ks);

	kstats_record(ks, now - t0);
	return now;
}

/**
 * kstats_record_signed() - add a sample that may be negative
 * @ks: the distribution
 * @val: the sample
 *
 * A value of 0 or more is recorded as by kstats_record().  A negative one
 * is counted apart from the histogram: the file's "# negative samples N
 * min X max Y" line, and for -E with E in 1..4095 (an errno) a row
 * "errno E count N".  Distributions made by kstats_new(),
 * kstats_new_config() and _control's "new" take negative values; the
 * others (a trace node timing durations) count them as missed.
 *
 * Context: any, as kstats_record().
 */
static __always_inline notrace void kstats_record_signed(struct kstats *ks,
							 s64 val)
{
	if (unlikely(val < 0))
		kstats_record_negative(ks, val);
	else
		kstats_record(ks, val);
}

/**
 * struct kstats_scope - a timer running to the end of a scope
 * @ks: the distribution
 * @t0: when it started
 */
struct kstats_scope {
	struct kstats *ks;
	u64 t0;
};

static __always_inline notrace struct kstats_scope
kstats_scope_begin(struct kstats *ks)
{
	struct kstats_scope s = { .ks = ks, .t0 = kstats_now(ks) };

	return s;
}

static __always_inline notrace void kstats_scope_end(struct kstats_scope *s)
{
	kstats_record_since(s->ks, s->t0);
}

/**
 * kstats_scope() - time the rest of the enclosing scope
 * @ks: the distribution
 *
 * A declaration: from here to the end of the scope, every way out
 * included (return, break, goto out of it), is one sample of @ks, taken
 * by the compiler's cleanup attribute.  Costs the two clock reads and the
 * record, as the open-coded pair does.  Where <linux/cleanup.h> exists
 * (6.5 and later), guard(kstats)(ks) does the same.
 *
 * Context: any, as kstats_record().
 */
#define kstats_scope(ks)						\
	struct kstats_scope __UNIQUE_ID(kstats_scope)			\
	__attribute__((__cleanup__(kstats_scope_end))) =		\
		kstats_scope_begin(ks)

/* <linux/cleanup.h>, where it exists (6.5+), comes with <linux/spinlock.h>. */
#ifdef DEFINE_CLASS
DEFINE_CLASS(kstats, struct kstats_scope, kstats_scope_end(&_T),
	     kstats_scope_begin(ks), struct kstats *ks)
#endif

#ifdef KSTATS_CORE
/*
 * Whether @ks has the shape kstats.ko's fast paths compile in: the
 * default frac_bits and no upper bound (no "bits" nor "max" given), so
 * that __KSTATS_RECORD_IN_RANGE() at KSTATS_DEFAULT_FRAC_BITS records it.
 */
static __always_inline notrace bool kstats_default_shape(const struct kstats *ks)
{
	return ks->frac_bits == KSTATS_DEFAULT_FRAC_BITS && ks->clamp == U64_MAX;
}
#endif

/* Only kstats.ko itself, whose handlers pick frac_bits, keeps the body. */
#ifndef KSTATS_CORE
#undef __KSTATS_RECORD
#undef __KSTATS_RECORD_IN_RANGE
#undef __KSTATS_RECORD_SLOT
#endif

#endif /* _KSTATS_H */
