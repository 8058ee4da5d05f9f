// SPDX-License-Identifier: GPL-2.0
/*
 * The direct trampoline's C half: the entries and exits that
 * kstats_direct_tramp_*.S calls, in the traced function's context, and
 * what they share.  The only object built with -ffixed-rbp on x86-64
 * (Kbuild): an exit finds %rbp as the traced function gave it back (the
 * caller's), for an outlier's stack (kstats_direct_at()).  The slots'
 * lifetime, the choice of a slot's variants and the attach are
 * kstats_direct.c's; each architecture's frame is read through
 * kstats_direct_<arch>.h.
 */
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>

#include "kstats.h"
#include "kstats_counter.h"
#include "kstats_direct.h"
#include "kstats_direct_internal.h"
#include "kstats_fn.h"
#ifdef CONFIG_X86_64
#include "kstats_direct_x86_64.h"
#else
#include "kstats_direct_arm64.h"
#endif

/* The trampoline's fields, one per stub; read by kstats_direct_tramp_*.S. */
struct kstats_direct_hot kstats_direct_hot[KSTATS_DIRECT_SLOTS];

/*
 * Record with a compile-time frac_bits, as the fprobe handlers do: fewer
 * instructions than kstats_record() for a test of the node's, the
 * default's first.
 */
static __always_inline notrace void kstats_direct_record(struct kstats *ks,
							 u64 v)
{
	if (likely(ks->frac_bits == KSTATS_DEFAULT_FRAC_BITS)) {
		__KSTATS_RECORD(ks, v, KSTATS_DEFAULT_FRAC_BITS);
		return;
	}
	switch (ks->frac_bits) {
	case 0:
		__KSTATS_RECORD(ks, v, 0);
		break;
	case 1:
		__KSTATS_RECORD(ks, v, 1);
		break;
	case 2:
		__KSTATS_RECORD(ks, v, 2);
		break;
	case 3:
		__KSTATS_RECORD(ks, v, 3);
		break;
	case 4:
		__KSTATS_RECORD(ks, v, 4);
		break;
	default:
		__KSTATS_RECORD(ks, v, 5);
		break;
	}
}

/*
 * An outlier of the slot's function, kept, then the call out of flight;
 * the exits' tail call.  Its stack is unwound from the function's own
 * frame, as it was when the body returned (kstats_direct_at(): the return
 * address into the function past its fentry call, the caller's above it,
 * and the caller's frame pointer), not from here: the trampoline's and
 * the exit's frames are no part of it, and are not walked.  Never
 * inlined: its frame (the registers it saves, the capture's stack
 * arguments) would be set up on every exit, outlier or not.
 */
noinline notrace __noendbr void kstats_direct_outlier(struct kstats_direct_hot *h,
					     struct kstats_direct_entry *e,
					     u64 v)
{
	struct kstats_direct_at at;

	kstats_direct_at(e, &at);
	kstats_outlier_capture_at(h->outliers, v, 0, false, at.ip, at.sp,
				  at.bp);
	this_cpu_dec(h->pcpu->inflight);
}

NOKPROBE_SYMBOL(kstats_direct_outlier);

/*
 * A call not recorded: counted as missed, and out of flight.  Out of line:
 * the exits' path that records keeps no register across a call.  Also
 * for the calls of a task that exits in them (kstats_direct_walk_out()).
 */
noinline notrace void kstats_direct_miss(struct kstats_direct_hot *h)
{
	kstats_record_missed(h->ks);
	this_cpu_dec(h->pcpu->inflight);
}

NOKPROBE_SYMBOL(kstats_direct_miss);

/*
 * The slot's guard on this CPU, around a clock read that may call the
 * traced function (read_hpet() for ktime on the HPET): false when already
 * held, by the same CPU further down its stack.  Preemption stays off
 * while it is held, so that it is given back on the CPU that took it.
 */
static __always_inline notrace bool
kstats_direct_guard(struct kstats_direct_hot *h)
{
	preempt_disable_notrace();
	if (likely(this_cpu_inc_return(h->pcpu->busy) == 1))
		return true;
	this_cpu_dec(h->pcpu->busy);
	preempt_enable_notrace();
	return false;
}

static __always_inline notrace void
kstats_direct_unguard(struct kstats_direct_hot *h)
{
	this_cpu_dec(h->pcpu->busy);
	preempt_enable_notrace();
}

/*
 * A key the trampoline's frame holds (kstats_direct_at()): the caller, as
 * kstats_by_fetch() takes it from the registers the rich entry rebuilds
 * (the return address above the frame, or the caller's link register and
 * frame pointer in it), or the function, as its instruction pointer.
 * Return: the key, 0 if it cannot be read.
 */
static __always_inline notrace u64
kstats_direct_frame_key(enum kstats_by_kind kind,
			const struct kstats_direct_entry *e)
{
	struct kstats_direct_at at;

	kstats_direct_at(e, &at);
	if (kind == KSTATS_BY_FUNC)
		return at.ip;
	return kstats_direct_caller_at(&at);
}

/*
 * x86-64: where the call's return address is, above the frame, and that
 * address as read, no rethook's fix-up (kstats_direct_caller_miss()).
 */
static __always_inline notrace unsigned long
kstats_direct_caller_sp(const struct kstats_direct_entry *e)
{
	struct kstats_direct_at at;

	kstats_direct_at(e, &at);
	return at.sp;
}

static __always_inline notrace u64
kstats_direct_caller_read(const struct kstats_direct_entry *e)
{
	return *(const unsigned long *)kstats_direct_caller_sp(e);
}

/*
 * A key not the one this CPU took last: looked up, and kept as the last.
 * Out of line, so that the calls that find the last one keep no key in
 * memory.
 */
static noinline notrace u32
kstats_direct_key_lookup(struct kstats_direct_pcpu *c, struct kstats_family *f,
			 u64 key0, u64 key1)
{
	u64 key[2] = { key0, key1 };

	c->index = kstats_family_index(f, key);
	c->key[0] = key0;
	c->key[1] = key1;
	return c->index;
}

NOKPROBE_SYMBOL(kstats_direct_key_lookup);

/*
 * The family index of a key, through the last one this CPU took: a task
 * runs many calls in a row, from the same callers, and the key's lookup
 * is most of a family's cost.  Under the slot's guard, which nothing on
 * this CPU takes twice (an NMI's call is missed), so the cache is never
 * read half written; an index is good while the family's generation lasts
 * (a reset forgets the keys), which its high bits name.
 */
static __always_inline notrace u32
kstats_direct_key_index(struct kstats_direct_hot *h, struct kstats_family *f,
			u64 key0, u64 key1)
{
	struct kstats_direct_pcpu *c = this_cpu_ptr(h->pcpu);

	if (likely(c->key[0] == key0 && c->key[1] == key1 &&
		   (c->index ^ (READ_ONCE(f->gen) << KSTATS_FAMILY_INDEX_BITS)) <=
		   KSTATS_FAMILY_INDEX_MASK))
		return c->index;
	return kstats_direct_key_lookup(c, f, key0, key1);
}

/*
 * A key that is an argument in a register (kstats_direct_arg_by()), as
 * it is or cast: from the registers the entry saved in the frame.
 */
static __always_inline notrace u64
kstats_direct_arg_key(const struct kstats_fn *fn,
		      const struct kstats_direct_entry *e)
{
	const unsigned long *r = (const void *)e - KSTATS_DFRAME_TS +
				 KSTATS_DFRAME_REGS;

	return kstats_widen(r[fn->by.v.arg], fn->by.v.cast);
}

/* The family index of the task's key or the frame's, at the entry. */
static __always_inline notrace u32
kstats_direct_tkey_index(struct kstats_direct_hot *h, struct kstats_fn *fn,
			 const struct kstats_direct_entry *e)
{
	struct kstats_family *f = fn->ks->family;
	u64 key[2];

	if (kstats_family_per_cpu(f))
		return raw_smp_processor_id();
	if (kstats_direct_frame_by(fn->by.kind)) {
		key[0] = kstats_direct_frame_key(fn->by.kind, e);
		key[1] = 0;
		if (!key[0])
			return f->max;
	} else if (!kstats_by_task_fetch(fn->by.kind, key)) {
		/* the only other key here: an argument, last (no cost to the task's) */
		if (fn->by.kind != KSTATS_BY_VALUE)
			return f->max;
		key[0] = kstats_direct_arg_key(fn, e);
		key[1] = 0;
	}
	return kstats_direct_key_index(h, f, key[0], key[1]);
}

/*
 * A key of one word as 32 bits, for the cache no guard protects (struct
 * kstats_direct_pcpu @word): a task's pid or tid as it is (under
 * PID_MAX_LIMIT); a frame's key (a return address, a function's start)
 * as the architecture has it (kstats_direct_frame_key32()).  False for a
 * key that has none.
 */
static __always_inline notrace bool
kstats_direct_key32(enum kstats_direct_exit exit, u64 key, u32 *k)
{
	if (exit == KSTATS_DEXIT_TASK_IDS) {
		*k = key;
		return true;
	}
	/* an argument: as it is, below U32_MAX (the cache's "none") */
	if (exit == KSTATS_DEXIT_ARG_KEY) {
		*k = key;
		return key < U32_MAX;
	}
	return kstats_direct_frame_key32(key, k);
}

/*
 * Whether a key of one word, as its 32 bits @k, is the last one this CPU
 * took (the task ids and frame key variants'), whose index is then in
 * *@index: one load reads them whole, so no guard, no preemption off, any
 * context.  Good while the family's generation lasts, which the index's
 * high bits name.
 */
static __always_inline notrace bool
kstats_direct_word_hit(struct kstats_direct_hot *h, struct kstats_family *f,
		       u32 k, u32 *index)
{
	u64 want = (u64)k << 32 | READ_ONCE(f->gen_index);
	u64 word = this_cpu_read(h->pcpu->word);

	*index = word;
	return (word ^ want) <= KSTATS_FAMILY_INDEX_MASK;
}

/*
 * A sample of a family of keys (not by CPU) whose distribution the plain
 * exits could record (the default frac_bits, no upper bound: the task ids
 * and frame key variants are taken only then), in the key @i: an index of
 * this generation, as kstats_direct_key_index() checked it, not checked
 * again (a reset that comes in between puts the sample in the key of the
 * new generation with that index, as one that comes during the add of any
 * family record does).
 */
static __always_inline notrace void
kstats_direct_family_record(struct kstats *ks, u32 i, u64 v)
{
	__kstats_family_record_at(ks, i & KSTATS_FAMILY_INDEX_MASK, v,
				  KSTATS_DEFAULT_FRAC_BITS, false, true);
}

/*
 * The key of the task as its entry found it and kept it in the frame: its
 * name, in two words (the task name variants, @exit KSTATS_DEXIT_TASK_NAME),
 * or its pid (the tgid) or tid (the task ids variants).
 */
static __always_inline notrace void
kstats_direct_task_key(enum kstats_direct_exit exit, enum kstats_by_kind kind,
		       const struct kstats_direct_entry *e, u64 key[2])
{
	const void *f = (const void *)e - KSTATS_DFRAME_TS;
	const u64 *name = f + KSTATS_DFRAME_NAME;
	const u32 *ids = f + KSTATS_DFRAME_IDS;	/* pid, tgid */

	if (exit == KSTATS_DEXIT_TASK_NAME) {
		key[0] = name[0];
		key[1] = name[1];
		return;
	}
	key[0] = kind == KSTATS_BY_PID ? ids[1] : ids[0];
	key[1] = 0;
}

/*
 * The end of a call split by a key of one word that is not the last one
 * this CPU took (kstats_direct_word_hit()): the key looked up with
 * preemption off (an RCU reader of the keys: kstats_family_index()) and
 * kept as the last with its 32 bits @k if it @fits (one store: a nested
 * call that comes in between keeps its own key whole, which the next
 * call finds is not its own), else looked up alone (a frame's key of 0,
 * unread, is "other"); the sample recorded in it, and the call out of
 * flight.  The exits' tail call, so that their path that finds the last
 * key keeps nothing across a call.
 */
static noinline notrace void
kstats_direct_word_miss(struct kstats_direct_hot *h, u64 key, u32 k,
			bool fits, u64 v)
{
	struct kstats_family *f = h->ks->family;
	u64 pair[2] = { key, 0 };
	u32 index = f->max;

	if (fits || key) {
		preempt_disable_notrace();
		index = kstats_family_index(f, pair);
		if (fits)
			this_cpu_write(h->pcpu->word, (u64)k << 32 | index);
		preempt_enable_notrace();
	}
	kstats_direct_family_record(h->ks, index, v);
	this_cpu_dec(h->pcpu->inflight);
}

NOKPROBE_SYMBOL(kstats_direct_word_miss);

/*
 * A key's sample @v that is a new extreme of this CPU's
 * (kstats_family_record_slow()), the key heated when it is due, then the
 * call out of flight: the tail call of kstats_direct_key_record().
 */
static noinline notrace void
kstats_direct_extreme_done(struct kstats_direct_hot *h, u32 i, u64 v)
{
	int hot = kstats_family_record_slow(h->ks, i, v, false, true);

	if (hot >= 0)
		kstats_family_heat(h->ks->family, hot);
	this_cpu_dec(h->pcpu->inflight);
}

NOKPROBE_SYMBOL(kstats_direct_extreme_done);

/*
 * A key's sample in its shared histogram (the key not hot: no per-CPU row
 * of its own), the key heated when it is due, then the call out of
 * flight.  The tail call of kstats_direct_key_record(), so that its path
 * of a hot key keeps nothing across a call.
 */
static noinline notrace void
kstats_direct_shared_done(struct kstats_direct_hot *h, u32 i, u32 slot,
			  u64 term)
{
	struct kstats_family *f = h->ks->family;

	if (__kstats_family_add(f, h->ks->nr_slots, i, slot, term))
		kstats_family_heat(f, i);
	this_cpu_dec(h->pcpu->inflight);
}

NOKPROBE_SYMBOL(kstats_direct_shared_done);

/*
 * The sample @v of the key @i of @f (of this generation:
 * kstats_direct_word_hit() found it) in the distribution and in the key,
 * at the default frac_bits
 * (the variants that take the last key are taken only then), then the
 * call out of flight: as kstats_family_record_unheated(), but a key that
 * is not hot (a busy key is: its own per-CPU row, as the distribution's)
 * takes its atomic adds in a tail call, so that the path of a hot key
 * saves no register and reads nothing for the other.  Nothing goes to the
 * key while the distribution is stopped.
 */
static __always_inline notrace void
kstats_direct_key_record(struct kstats_direct_hot *h, struct kstats_family *f,
			 unsigned long i, u64 v)
{
	struct kstats_slot __percpu *slots = READ_ONCE(h->ks->slots);
	struct kstats_slot __percpu *row;
	u32 slot;
	u64 term;

	if (unlikely(!kstats_within_extremes(slots, v))) {
		kstats_direct_extreme_done(h, i, v);
		return;
	}
	if (kstats_family_record_total(h->ks, slots, v,
				       KSTATS_DEFAULT_FRAC_BITS, &slot, &term)) {
		row = READ_ONCE(f->row[i]);
		if (unlikely(!row)) {
			kstats_direct_shared_done(h, i, slot, term);
			return;
		}
		this_cpu_inc(row[slot].count);
		this_cpu_add(row[slot].sum, term);
	}
	this_cpu_dec(h->pcpu->inflight);
}

/*
 * The end of a call split by a key of the frame, or of the task as the
 * entry kept it in the frame (@exit): the key taken now, from the frame,
 * through the last one this CPU took.  A key of one word (a frame's, a
 * pid or tid) through a cache of one word (kstats_direct_word_hit(); on
 * x86-64, a caller as read, fixed up on a miss alone);
 * a task's name, two words, under the slot's guard
 * (kstats_direct_key_index()): an NMI's call that comes while this CPU
 * holds it is counted as missed.
 */
static __always_inline notrace void
kstats_direct_key_done(struct kstats_direct_hot *h,
		       struct kstats_direct_entry *e, u64 v,
		       enum kstats_direct_exit exit)
{
	struct kstats_fn *fn = h->fn;
	struct kstats_family *f = h->ks->family;
	u32 index, k;
	u64 key[2];
	bool fits;

	if (exit == KSTATS_DEXIT_TASK_NAME) {
		if (!kstats_direct_guard(h)) {
			kstats_direct_miss(h);
			return;
		}
		kstats_direct_task_key(exit, fn->by.kind, e, key);
		index = kstats_direct_key_index(h, f, key[0], key[1]);
		kstats_direct_family_record(h->ks, index, v);
		kstats_direct_unguard(h);
		this_cpu_dec(h->pcpu->inflight);
		return;
	}
	if (exit == KSTATS_DEXIT_FRAME_FUNC)
		key[0] = kstats_direct_frame_key(KSTATS_BY_FUNC, e);
	else if (exit == KSTATS_DEXIT_FRAME_KEY && KSTATS_DIRECT_CALLER_READ)
		key[0] = kstats_direct_caller_read(e);
	else if (exit == KSTATS_DEXIT_FRAME_KEY)
		key[0] = kstats_direct_frame_key(KSTATS_BY_CALLER, e);
	else if (exit == KSTATS_DEXIT_ARG_KEY)
		key[0] = kstats_direct_arg_key(fn, e);
	else
		kstats_direct_task_key(exit, fn->by.kind, e, key);
	fits = kstats_direct_key32(exit, key[0], &k);
	if (unlikely(!fits || !kstats_direct_word_hit(h, f, k, &index))) {
		if (KSTATS_DIRECT_CALLER_READ && exit == KSTATS_DEXIT_FRAME_KEY) {
			kstats_direct_caller_miss(h, kstats_direct_caller_sp(e),
						  key[0], v);
			return;
		}
		kstats_direct_word_miss(h, key[0], k, fits, v);
		return;
	}
	kstats_direct_key_record(h, f, index & KSTATS_FAMILY_INDEX_MASK, v);
}

/*
 * A call's end: its sample recorded (and kept, if an outlier), then the
 * call leaves the in-flight count, last.  @exit (a constant): plain, the
 * slot's distribution has the default frac_bits, no upper bound and no
 * outliers (kstats_direct_exit_of()), so the sample needs neither a test
 * of frac_bits, nor the clamp, nor the outliers' compare; outliers, as
 * plain but for that compare, with @ocpu's bar on this CPU.
 */
static __always_inline notrace void
kstats_direct_done(struct kstats_direct_hot *h, struct kstats_direct_entry *e,
		   u64 v, enum kstats_direct_exit exit)
{
	if (exit == KSTATS_DEXIT_FAMILY) {
		/* the key the entry took, in the high half */
		kstats_family_record_bits(h->ks, e->cpu >> 32, v,
					  KSTATS_DEFAULT_FRAC_BITS);
		this_cpu_dec(h->pcpu->inflight);
		return;
	}
	if (exit == KSTATS_DEXIT_FRAME_KEY || exit == KSTATS_DEXIT_FRAME_FUNC ||
	    exit == KSTATS_DEXIT_TASK_NAME || exit == KSTATS_DEXIT_TASK_IDS ||
	    exit == KSTATS_DEXIT_ARG_KEY) {
		kstats_direct_key_done(h, e, v, exit);
		return;
	}
	if (exit == KSTATS_DEXIT_GENERIC)
		kstats_direct_record(h->ks, v);
	else
		__KSTATS_RECORD_IN_RANGE(h->ks, v, KSTATS_DEFAULT_FRAC_BITS);
	/*
	 * The bar of this CPU, or of the one it moves to (a preempted exit:
	 * any CPU's bar will do), read as one operand of the compare.  The
	 * outlier's path ends the call itself: a tail call.
	 */
	if (exit != KSTATS_DEXIT_PLAIN &&
	    (exit == KSTATS_DEXIT_OUTLIERS || h->ocpu) &&
	    unlikely((s64)v >= (s64)raw_cpu_read(h->ocpu->min))) {
		kstats_direct_outlier(h, e, v);
		return;
	}
	this_cpu_dec(h->pcpu->inflight);
}

/*
 * A difference of two clock readings: a negative one (two CPUs' TSCs, a
 * clock stepped back) is dropped and counted, never recorded as a huge
 * unsigned value.
 */
static __always_inline notrace void
kstats_direct_delta(struct kstats_direct_hot *h, struct kstats_direct_entry *e,
		    u64 delta, enum kstats_direct_exit exit)
{
	if (unlikely((s64)delta < 0)) {
		kstats_direct_miss(h);
		return;
	}
	kstats_direct_done(h, e, delta, exit);
}

/*
 * The filters on the task, from an entry that runs with preemption on (the
 * trampoline's, at the traced function's entry): the task's cgroup is read
 * as an RCU reader, its css_set freed a grace period after the task moves
 * to another, so preemption is off around the read as it is in the probes'
 * handlers.
 */
static __always_inline notrace bool
kstats_direct_filter_task_holds(const struct kstats_filter *f)
{
	bool holds;

	preempt_disable_notrace();
	holds = kstats_filter_task_holds(f);
	preempt_enable_notrace();
	return holds;
}

/*
 * What the trampoline calls, with direct calls only (no ENDBR), in the
 * traced function's context, any (NMI included): the entry of the called
 * clocks, which returns false for a call not to time (its own clock read
 * re-entered the function); and at the return, one exit per clock (for
 * ktime on the TSC, tscns: cycles converted to ns), plain or not.  A
 * local_clock() pair that crossed CPUs is counted as missed: two CPUs'
 * readings do not compare.
 */
notrace __noendbr bool
kstats_direct_enter_local(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e)
{
	if (!kstats_direct_guard(h)) {
		kstats_record_missed(h->ks);
		return false;
	}
	e->ts = local_clock();
	e->cpu = raw_smp_processor_id();
	kstats_direct_unguard(h);
	return true;
}

NOKPROBE_SYMBOL(kstats_direct_enter_local);

notrace __noendbr bool
kstats_direct_enter_ktime(struct kstats_direct_hot *h,
			  struct kstats_direct_entry *e)
{
	if (!kstats_direct_guard(h)) {
		kstats_record_missed(h->ks);
		return false;
	}
	e->ts = ktime_get_mono_fast_ns();
	kstats_direct_unguard(h);
	return true;
}

NOKPROBE_SYMBOL(kstats_direct_enter_ktime);

/*
 * The entries of a duration whose filters are all the task's (pid, tid,
 * cpu, comm, cgroup: kstats_direct_kind_of()): checked here, reading
 * neither the registers nor anything that calls a function, then the
 * clock as the plain entries read it; the exit is the plain one of the
 * clock.  False for a call the filters leave out (not counted, as in
 * every mechanism) and for one from the clock's own read (missed).  The
 * "cgroup" ones are for a cgroup filter alone: it is the one check.
 */
static __always_inline notrace bool
kstats_direct_task_holds(const struct kstats_direct_hot *h)
{
	return kstats_direct_filter_task_holds(&h->fn->filter);
}

static __always_inline notrace bool
kstats_direct_cgroup_holds(const struct kstats_direct_hot *h)
{
	const struct kstats_filter *f = &h->fn->filter;
	bool holds;

	/* an RCU reader, as kstats_direct_filter_task_holds() */
	preempt_disable_notrace();
	holds = kstats_cgroup_under(f->cgroup_id, f->cgroup_level);
	preempt_enable_notrace();
	return holds;
}

/* The entries of the clocks the trampoline calls, the filters checked. */
#define KSTATS_DIRECT_TASK_CALLED(name)					\
notrace __noendbr bool							\
kstats_direct_enter_##name##_ktime(struct kstats_direct_hot *h,	\
				   struct kstats_direct_entry *e)	\
{									\
	return kstats_direct_##name##_holds(h) &&			\
	       kstats_direct_enter_ktime(h, e);				\
}									\
NOKPROBE_SYMBOL(kstats_direct_enter_##name##_ktime);			\
notrace __noendbr bool							\
kstats_direct_enter_##name##_local(struct kstats_direct_hot *h,	\
				   struct kstats_direct_entry *e)	\
{									\
	return kstats_direct_##name##_holds(h) &&			\
	       kstats_direct_enter_local(h, e);				\
}									\
NOKPROBE_SYMBOL(kstats_direct_enter_##name##_local)

/*
 * The task filters' entries of every clock; a cgroup alone is checked by
 * the trampoline itself for the clocks it reads inline.
 */
#define KSTATS_DIRECT_TASK_ENTRIES(name)				\
notrace __noendbr bool							\
kstats_direct_enter_##name##_tsc(struct kstats_direct_hot *h,		\
				 struct kstats_direct_entry *e)		\
{									\
	if (!kstats_direct_##name##_holds(h))				\
		return false;						\
	e->ts = kstats_counter_read();				\
	return true;							\
}									\
NOKPROBE_SYMBOL(kstats_direct_enter_##name##_tsc);			\
/* Clock ktime on the TSC: the epoch, then the TSC, as the inline entry. */ \
notrace __noendbr bool							\
kstats_direct_enter_##name##_tscns(struct kstats_direct_hot *h,	\
				   struct kstats_direct_entry *e)	\
{									\
	if (!kstats_direct_##name##_holds(h))				\
		return false;						\
	e->cpu = (u32)(READ_ONCE(kstats_counter_tk) >> 32);		\
	e->ts = kstats_counter_read();				\
	return true;							\
}									\
NOKPROBE_SYMBOL(kstats_direct_enter_##name##_tscns);			\
KSTATS_DIRECT_TASK_CALLED(name)

KSTATS_DIRECT_TASK_ENTRIES(task);
KSTATS_DIRECT_TASK_CALLED(cgroup);

/*
 * The preemption point of the trampoline's own window with preemption off
 * (the inline cgroup check, an RCU reader), where its count dropped to 0
 * with a reschedule due: the kernel's own, in C, whichever preemption
 * model runs.
 */
notrace __noendbr void kstats_direct_resched(void)
{
	preempt_disable_notrace();
	preempt_enable_notrace();
}

NOKPROBE_SYMBOL(kstats_direct_resched);

/* A value of the ret and arg variants: recorded as kstats_record_signed(). */
static __always_inline notrace void
kstats_direct_record_value(struct kstats_direct_hot *h, s64 val)
{
	if (unlikely(val < 0))
		kstats_record_negative(h->ks, val);
	else if (likely(h->exit == KSTATS_DEXIT_PLAIN))
		__KSTATS_RECORD_IN_RANGE(h->ks, val, KSTATS_DEFAULT_FRAC_BITS);
	else
		kstats_direct_record(h->ks, val);
}

/*
 * The exit of a node that records the return value alone, as it is or
 * cast (no dereference, no filter, no family, no outliers:
 * kstats_direct_kind_of()): read from the trampoline's frame (the
 * body's %rax, saved where %rdi was) with no call, so under no guard; a
 * negative one is counted apart, as by every mechanism.
 */
notrace __noendbr void
kstats_direct_exit_ret(struct kstats_direct_hot *h,
		       struct kstats_direct_entry *e)
{
	const unsigned long *r = (void *)e - KSTATS_DFRAME_TS + KSTATS_DFRAME_REGS;

	kstats_direct_record_value(h, kstats_ret_fetch(&h->fn->value, r[0]));
	this_cpu_dec(h->pcpu->inflight);
}

NOKPROBE_SYMBOL(kstats_direct_exit_ret);

/*
 * The entry of a node that records an argument alone, in a register, as
 * it is or cast (kstats_direct_kind_of()): read from the frame's saved
 * registers and recorded; false, so that the body runs untimed and no
 * exit follows.
 */
notrace __noendbr bool
kstats_direct_enter_arg(struct kstats_direct_hot *h,
			struct kstats_direct_entry *e)
{
	const unsigned long *r = (void *)e - KSTATS_DFRAME_TS + KSTATS_DFRAME_REGS;
	const struct kstats_value *v = &h->fn->value;

	/* on one CPU, as the exits record (kstats_direct_tramp_*.S) */
	preempt_disable_notrace();
	kstats_direct_record_value(h, kstats_widen(r[v->arg], v->cast));
	preempt_enable_notrace();
	return false;
}

NOKPROBE_SYMBOL(kstats_direct_enter_arg);

/*
 * The entries of a duration split by a key of the task (comm, pid, tid,
 * cpu, cgroup) or of the frame (caller, func), its filters all the task's
 * (kstats_direct_kind_of()): under the slot's guard (the filters' cgroup
 * and the key's lookup want preemption off), the filters, the key's index
 * and the clock, as the rich entry takes them but with no registers
 * rebuilt; the exits are the clock's own, recording in that key
 * (KSTATS_DEXIT_FAMILY).
 */
static __always_inline notrace bool
kstats_direct_tkey_enter(struct kstats_direct_hot *h,
			 struct kstats_direct_entry *e,
			 enum kstats_clock clock, bool tscns)
{
	struct kstats_fn *fn = h->fn;
	u64 fam;

	if (!kstats_direct_guard(h)) {
		kstats_record_missed(h->ks);
		return false;
	}
	if (h->task_filter && !kstats_filter_task_holds(&fn->filter)) {
		kstats_direct_unguard(h);
		return false;
	}
	fam = (u64)kstats_direct_tkey_index(h, fn, e) << 32;
	if (tscns) {
		e->cpu = fam | (u32)(READ_ONCE(kstats_counter_tk) >> 32);
		e->ts = kstats_counter_read();
	} else {
		e->ts = kstats_clock_now(clock);
		e->cpu = fam | raw_smp_processor_id();
	}
	kstats_direct_unguard(h);
	return true;
}

#define KSTATS_DIRECT_TKEY_ENTRY(name, clock, tscns)			\
notrace __noendbr bool							\
kstats_direct_enter_tkey_##name(struct kstats_direct_hot *h,		\
				struct kstats_direct_entry *e)		\
{									\
	return kstats_direct_tkey_enter(h, e, clock, tscns);		\
}									\
NOKPROBE_SYMBOL(kstats_direct_enter_tkey_##name)

KSTATS_DIRECT_TKEY_ENTRY(tsc, KSTATS_CLOCK_TSC, false);
KSTATS_DIRECT_TKEY_ENTRY(tscns, KSTATS_CLOCK_TSC, true);
KSTATS_DIRECT_TKEY_ENTRY(ktime, KSTATS_CLOCK_KTIME, false);
KSTATS_DIRECT_TKEY_ENTRY(local, KSTATS_CLOCK_LOCAL, false);

/* The TSC, read inline. */
static __always_inline notrace void
kstats_direct_tsc_done(struct kstats_direct_hot *h,
		       struct kstats_direct_entry *e,
		       enum kstats_direct_exit exit)
{
	kstats_direct_delta(h, e, kstats_counter_read() - e->ts,
			    exit);
}

/* Clock ktime called: its read guarded, as at the entry. */
static __always_inline notrace void
kstats_direct_ktime_done(struct kstats_direct_hot *h,
			 struct kstats_direct_entry *e,
			 enum kstats_direct_exit exit)
{
	u64 now;

	if (!kstats_direct_guard(h)) {
		kstats_direct_miss(h);
		return;
	}
	now = ktime_get_mono_fast_ns();
	kstats_direct_unguard(h);
	kstats_direct_delta(h, e, now - e->ts, exit);
}

/*
 * Clock ktime read as the TSC: the cycles scaled by the timekeeper's mult
 * and shift, unless the epoch moved during the call (kstats_counter_tk).
 */
static __always_inline notrace void
kstats_direct_tscns_done(struct kstats_direct_hot *h,
			 struct kstats_direct_entry *e,
			 enum kstats_direct_exit exit)
{
	u64 cycles = kstats_counter_read() - e->ts;
	u64 tk = READ_ONCE(kstats_counter_tk);

	if (unlikely((s64)cycles < 0 || (u32)(tk >> 32) != (u32)e->cpu)) {
		kstats_direct_miss(h);
		return;
	}
	kstats_direct_done(h, e, kstats_counter_scale(cycles, tk), exit);
}

/* local_clock(): a pair that crossed CPUs is dropped, counted as missed. */
static __always_inline notrace void
kstats_direct_local_done(struct kstats_direct_hot *h,
			 struct kstats_direct_entry *e,
			 enum kstats_direct_exit exit)
{
	u64 now;

	/* the CPU in the low half (a task key's index in the high one) */
	if ((u32)e->cpu != raw_smp_processor_id() || !kstats_direct_guard(h)) {
		kstats_direct_miss(h);
		return;
	}
	now = local_clock();
	kstats_direct_unguard(h);
	kstats_direct_delta(h, e, now - e->ts, exit);
}

/*
 * The exits, kstats_direct_exit_NAME: per clock the three of enum
 * kstats_direct_exit (NAME the clock, then with "p" and "o"), the task key
 * variants' ("f"), the frame key variants' ("k" by the caller, "i" by the
 * function) and, for the clocks read
 * inline, the task name variants' ("n") and the task ids variants' ("t"),
 * each one call of the clock's done with its kind.
 */
#define KSTATS_DIRECT_EXIT(name, clock, exit)				\
notrace __noendbr void							\
kstats_direct_exit_##name(struct kstats_direct_hot *h,			\
			  struct kstats_direct_entry *e)		\
{									\
	kstats_direct_##clock##_done(h, e, exit);			\
}									\
NOKPROBE_SYMBOL(kstats_direct_exit_##name)

KSTATS_DIRECT_EXIT(tsc, tsc, KSTATS_DEXIT_GENERIC);
KSTATS_DIRECT_EXIT(tscp, tsc, KSTATS_DEXIT_PLAIN);
KSTATS_DIRECT_EXIT(tsco, tsc, KSTATS_DEXIT_OUTLIERS);
KSTATS_DIRECT_EXIT(tscf, tsc, KSTATS_DEXIT_FAMILY);
KSTATS_DIRECT_EXIT(tsck, tsc, KSTATS_DEXIT_FRAME_KEY);
KSTATS_DIRECT_EXIT(tsci, tsc, KSTATS_DEXIT_FRAME_FUNC);
KSTATS_DIRECT_EXIT(tscn, tsc, KSTATS_DEXIT_TASK_NAME);
KSTATS_DIRECT_EXIT(tsct, tsc, KSTATS_DEXIT_TASK_IDS);
KSTATS_DIRECT_EXIT(tsca, tsc, KSTATS_DEXIT_ARG_KEY);
KSTATS_DIRECT_EXIT(ktime, ktime, KSTATS_DEXIT_GENERIC);
KSTATS_DIRECT_EXIT(ktimep, ktime, KSTATS_DEXIT_PLAIN);
KSTATS_DIRECT_EXIT(ktimeo, ktime, KSTATS_DEXIT_OUTLIERS);
KSTATS_DIRECT_EXIT(ktimef, ktime, KSTATS_DEXIT_FAMILY);
KSTATS_DIRECT_EXIT(ktimek, ktime, KSTATS_DEXIT_FRAME_KEY);
KSTATS_DIRECT_EXIT(ktimei, ktime, KSTATS_DEXIT_FRAME_FUNC);
KSTATS_DIRECT_EXIT(tscns, tscns, KSTATS_DEXIT_GENERIC);
KSTATS_DIRECT_EXIT(tscnsp, tscns, KSTATS_DEXIT_PLAIN);
KSTATS_DIRECT_EXIT(tscnso, tscns, KSTATS_DEXIT_OUTLIERS);
KSTATS_DIRECT_EXIT(tscnsf, tscns, KSTATS_DEXIT_FAMILY);
KSTATS_DIRECT_EXIT(tscnsk, tscns, KSTATS_DEXIT_FRAME_KEY);
KSTATS_DIRECT_EXIT(tscnsi, tscns, KSTATS_DEXIT_FRAME_FUNC);
KSTATS_DIRECT_EXIT(tscnsn, tscns, KSTATS_DEXIT_TASK_NAME);
KSTATS_DIRECT_EXIT(tscnst, tscns, KSTATS_DEXIT_TASK_IDS);
KSTATS_DIRECT_EXIT(tscnsa, tscns, KSTATS_DEXIT_ARG_KEY);
KSTATS_DIRECT_EXIT(local, local, KSTATS_DEXIT_GENERIC);
KSTATS_DIRECT_EXIT(localp, local, KSTATS_DEXIT_PLAIN);
KSTATS_DIRECT_EXIT(localo, local, KSTATS_DEXIT_OUTLIERS);
KSTATS_DIRECT_EXIT(localf, local, KSTATS_DEXIT_FAMILY);
KSTATS_DIRECT_EXIT(localk, local, KSTATS_DEXIT_FRAME_KEY);
KSTATS_DIRECT_EXIT(locali, local, KSTATS_DEXIT_FRAME_FUNC);

/*
 * The traced function's registers at its entry, from the trampoline's
 * frame: its arguments (saved there), its stack pointer (on x86-64 at the
 * return address into its caller, above the frame), its instruction
 * pointer (the body's start, past the fentry call) and its frame pointer
 * (kstats_direct_at()), on arm64 also its link register: what the
 * filters' values, a caller and a stack's unwinding read (struct
 * kstats_args), and nothing else is.
 */
static __always_inline notrace void
kstats_direct_entry_regs(struct kstats_direct_entry *e, struct pt_regs *regs)
{
	const unsigned long *r = (void *)e - KSTATS_DFRAME_TS + KSTATS_DFRAME_REGS;
	struct kstats_direct_at at;

	kstats_direct_at(e, &at);
	kstats_direct_regs_set(regs, r, &at);
	instruction_pointer_set(regs, at.ip);
	regs->sp = at.sp;
}

/*
 * The gap sibling's sample at an entry at @now: the time since the last
 * return on this CPU (kstats_fn_enter(), as fprobe's handlers take it).
 */
static __always_inline notrace void kstats_direct_gap(struct kstats_fn *fn,
						      u64 now)
{
	u64 last = this_cpu_read(*fn->last_end);

	if (last && now > last)
		kstats_record(fn->gap, now - last);
}

/*
 * A rich slot's entry (a node with values, filters or a family): under the
 * slot's guard (its filters' reads, its key's and its clock's may call the
 * traced function), the filters, then the family's key (unless it is
 * ret's), then an argument taken (a value node) or the clock.  False for
 * a call not to time: one a filter leaves out, one whose value cannot be
 * read (counted as missed), one entered from the guard's own work, and one
 * whose value needs no return, recorded here: the body then runs as if
 * untraced.  A value node keeps its argument where the time would be
 * (it reads no clock), its key as a duration's.
 */
notrace __noendbr bool
kstats_direct_enter_rich(struct kstats_direct_hot *h,
			 struct kstats_direct_entry *e)
{
	struct kstats_fn *fn = h->fn;
	struct kstats *ks = fn->ks;
	bool family = ks->family;
	struct pt_regs regs;
	struct kstats_args a = { .regs = &regs };
	u32 fam = 0;
	u64 v;

	if (!kstats_direct_guard(h)) {
		kstats_record_missed(ks);
		return false;
	}
	kstats_direct_entry_regs(e, &regs);
	switch (kstats_filter_check(&fn->filter, &a, KSTATS_AT_ENTRY)) {
	case KSTATS_SKIP:
		goto untimed;
	case KSTATS_UNREADABLE:
		kstats_record_missed(ks);
		goto untimed;
	default:
		break;
	}
	if (family && likely(!fn->ret_at_exit_key))
		fam = kstats_fn_family_key(fn, &a);
	if (unlikely(fn->value.base == KSTATS_BASE_ARG)) {
		if (!kstats_value_fetch(&fn->value, &a, &v)) {
			kstats_record_missed(ks);
			goto untimed;
		}
		if (fn->entry_only) {
			kstats_rich_record(ks, fn->outliers, &regs, family,
					   fam, v);
			goto untimed;
		}
		e->ts = v;
		e->cpu = (u64)fam << 32;
	} else if (unlikely(fn->value.base == KSTATS_BASE_RET)) {
		e->cpu = (u64)fam << 32;
	} else if (h->tscns) {
		/* ktime on the TSC as the plain exits read it: the TSC, its epoch */
		e->cpu = (u64)fam << 32 | (u32)(READ_ONCE(kstats_counter_tk) >> 32);
		e->ts = kstats_counter_read();
		if (unlikely(fn->why))
			kstats_why_enter(fn->why, KSTATS_WHY_NEST, 0);
	} else {
		e->ts = kstats_clock_now(ks->clock);
		e->cpu = (u64)fam << 32 | raw_smp_processor_id();
		if (unlikely(fn->gap))
			kstats_direct_gap(fn, e->ts);
		if (unlikely(fn->why))
			kstats_why_enter(fn->why, KSTATS_WHY_NEST, 0);
	}
	kstats_direct_unguard(h);
	return true;
untimed:
	kstats_direct_unguard(h);
	return false;
}

NOKPROBE_SYMBOL(kstats_direct_enter_rich);

/*
 * A rich node's sample kept if it is one of its outliers: its stack from
 * the function's own frame where the body returned, as the plain exits'
 * (kstats_direct_outlier(), kstats_direct_at()).
 */
static __always_inline notrace void
kstats_direct_rich_outlier(struct kstats_direct_hot *h,
			   struct kstats_direct_entry *e, u64 v, u32 fam)
{
	struct kstats_direct_at at;

	if (!kstats_outlier_wanted(h->outliers, v))
		return;
	kstats_direct_at(e, &at);
	kstats_outlier_capture_at(h->outliers, v, fam, !!h->ks->family, at.ip,
				  at.sp, at.bp);
}

/*
 * The return of a node with a value or a condition or key on ret: the
 * function's return value from the trampoline's frame (its %rax, saved
 * where %rdi was), the conditions on it, the key if it is ret's, then the
 * value (the argument kept at the entry, or ret), recorded.  The guard
 * covers the reads: a dereference may call the traced function.
 */
static noinline notrace void
kstats_direct_exit_value(struct kstats_direct_hot *h,
			 struct kstats_direct_entry *e,
			 const struct kstats_why_parts *wp)
{
	const unsigned long *r = (void *)e - KSTATS_DFRAME_TS + KSTATS_DFRAME_REGS;
	struct kstats_fn *fn = h->fn;
	struct kstats *ks = fn->ks;
	bool family = ks->family;
	struct pt_regs regs = { };
	struct kstats_args a = { .regs = &regs, .ret = r[0] };
	u32 fam = e->cpu >> 32;
	u64 v = e->ts;

	regs_set_return_value(&regs, r[0]);
	if (!kstats_direct_guard(h)) {
		kstats_direct_miss(h);
		return;
	}
	switch (kstats_filter_check(&fn->filter, &a, KSTATS_AT_RETURN)) {
	case KSTATS_SKIP:
		goto out;
	case KSTATS_UNREADABLE:
		kstats_record_missed(ks);
		goto out;
	default:
		break;
	}
	if (family && kstats_by_uses_ret(&fn->by))
		fam = kstats_fn_family_key(fn, &a);
	if (fn->value.base == KSTATS_BASE_RET &&
	    !kstats_value_fetch(&fn->value, &a, &v)) {
		kstats_record_missed(ks);
		goto out;
	}
	kstats_rich_record(ks, NULL, NULL, family, fam, v);
	if (unlikely(fn->why)) {
		kstats_why_set(wp);
		kstats_why_account(fn->why, wp);
	}
	kstats_direct_rich_outlier(h, e, v, fam);
out:
	kstats_direct_unguard(h);
	this_cpu_dec(h->pcpu->inflight);
}

NOKPROBE_SYMBOL(kstats_direct_exit_value);

/*
 * A rich slot's duration: the clock under the guard (the TSC needs none);
 * a local_clock() pair that crossed CPUs, a negative difference and a
 * clock read from inside its own call are counted as missed and end the
 * call.  Return: false then.
 */
static __always_inline notrace bool
kstats_direct_rich_delta(struct kstats_direct_hot *h,
			 struct kstats_direct_entry *e, u64 *v)
{
	struct kstats *ks = h->ks;
	u64 tk;

	if (h->tscns) {
		*v = kstats_counter_read() - e->ts;
		tk = READ_ONCE(kstats_counter_tk);
		if (unlikely((s64)*v < 0 || (u32)(tk >> 32) != (u32)e->cpu)) {
			kstats_direct_miss(h);
			return false;
		}
		*v = kstats_counter_scale(*v, tk);
		return true;
	}
	if ((ks->clock == KSTATS_CLOCK_LOCAL &&
	     (u32)e->cpu != raw_smp_processor_id()) ||
	    !kstats_direct_guard(h)) {
		kstats_direct_miss(h);
		return false;
	}
	*v = kstats_clock_now(ks->clock) - e->ts;
	kstats_direct_unguard(h);
	if (unlikely((s64)*v < 0)) {
		kstats_direct_miss(h);
		return false;
	}
	return true;
}

/*
 * The exit of a rich slot with more than a duration to record (a value,
 * conditions or a key on ret, outliers), out of line: the durations'
 * exit stays as lean as it was.
 */
static noinline notrace void
kstats_direct_exit_extra(struct kstats_direct_hot *h,
			 struct kstats_direct_entry *e)
{
	struct kstats_fn *fn = h->fn;
	struct kstats *ks = h->ks;
	struct kstats_why_parts wp, *split = NULL;
	u64 v;

	if (fn->value.base != KSTATS_BASE_NONE) {
		kstats_direct_exit_value(h, e, NULL);
		return;
	}
	/* the call's frame goes whether or not its sample is recorded */
	if (unlikely(fn->why) && kstats_direct_guard(h)) {
		if (kstats_why_exit(fn->why, 0, &wp))
			split = &wp;
		kstats_direct_unguard(h);
	}
	if (!kstats_direct_rich_delta(h, e, &v))
		return;
	/* a duration whose count or key depends on ret */
	if (fn->ret_at_exit) {
		e->ts = v;
		kstats_direct_exit_value(h, e, split);
		return;
	}
	if (ks->family)
		kstats_family_record(ks, e->cpu >> 32, v);
	else
		kstats_record(ks, v);
	if (unlikely(fn->why)) {
		/* its outlier keeps the split: set and taken on one CPU */
		preempt_disable_notrace();
		kstats_why_set(split);
		kstats_why_account(fn->why, split);
		kstats_direct_rich_outlier(h, e, v, e->cpu >> 32);
		preempt_enable_notrace();
	} else {
		kstats_direct_rich_outlier(h, e, v, e->cpu >> 32);
	}
	/* the return's time, which the next entry's gap starts from */
	if (fn->gap)
		this_cpu_write(*fn->last_end, e->ts + v);
	this_cpu_dec(h->pcpu->inflight);
}

NOKPROBE_SYMBOL(kstats_direct_exit_extra);

/*
 * A rich slot's exit: the duration (kstats_direct_rich_delta()), in the
 * total or in the key taken at the entry; a node with more to record
 * takes kstats_direct_exit_extra().
 */
notrace __noendbr void
kstats_direct_exit_rich(struct kstats_direct_hot *h,
			struct kstats_direct_entry *e)
{
	struct kstats *ks = h->ks;
	u64 v;

	if (unlikely(h->fn->exit_extra)) {
		kstats_direct_exit_extra(h, e);
		return;
	}
	if (!kstats_direct_rich_delta(h, e, &v))
		return;
	if (ks->family)
		kstats_family_record(ks, e->cpu >> 32, v);
	else
		kstats_record(ks, v);
	this_cpu_dec(h->pcpu->inflight);
}

NOKPROBE_SYMBOL(kstats_direct_exit_rich);

/**
 * kstats_direct_exits_init() - at module load, before any slot is taken
 *
 * Context: process.
 */
void kstats_direct_exits_init(void)
{
	kstats_direct_frame_key_init();
}
