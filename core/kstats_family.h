/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Families: a distribution split by a key (a task name, a pid, a CPU, an
 * argument), one histogram per key beside the distribution's own, which
 * keeps the total: the map (kstats_family.c), which its view reads
 * (kstats_family_view.h).  Bounded: at most @max keys, the samples of any
 * further key go to one more histogram, "other", so the keys always add
 * up to the total.  A family by CPU has no histogram of its own: its keys
 * are the distribution's per-CPU rows, each sample in the row of the CPU
 * that records it, as a family of no key records.
 */
#ifndef _KSTATS_FAMILY_H
#define _KSTATS_FAMILY_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include "kstats.h"
#include "kstats_stack.h"

/* "by KEY max N": the keys of a family when N is not given, and at most. */
#define KSTATS_FAMILY_DEFAULT	64
#define KSTATS_FAMILY_MAX	65536
/* Table entries a key may take: its hash and the next ones. */
#define KSTATS_FAMILY_WINDOW	16
/* Longest "by" text the file shows. */
#define KSTATS_FAMILY_BY_MAX	80
/*
 * Hot keys: at most this many keys of a family get per-CPU histograms (the
 * module parameter family_hot_keys, 0 for none), each the size of the
 * distribution's own per-CPU histogram, and together at most
 * KSTATS_FAMILY_HOT_BYTES per CPU.  A key becomes hot when one of its
 * slots reaches KSTATS_FAMILY_HOT_AT samples in the shared histogram.
 */
#define KSTATS_FAMILY_HOT	8
#define KSTATS_FAMILY_HOT_BYTES	(64 * 1024)
#define KSTATS_FAMILY_HOT_AT	1024
/* struct kstats_family's @hot of a key that will stay shared */
#define KSTATS_FAMILY_HOT_NONE	(KSTATS_FAMILY_HOT + 1)

/**
 * enum kstats_keys - what a family's keys are, and how they are shown
 * @KSTATS_KEYS_NUMBER: a number, in decimal
 * @KSTATS_KEYS_SIGNED: a signed number, in decimal
 * @KSTATS_KEYS_NAME: a task name in all 16 bytes, as itself
 * @KSTATS_KEYS_CALLER: a return address, as symbol+0xOFF
 * @KSTATS_KEYS_CGROUP: a cgroup v2's id, as its path
 * @KSTATS_KEYS_STACK: a kernel stack, its frames kept beside the key, as
 *	symbol+0xOFF;... root first
 * @KSTATS_KEYS_FUNC: an address in a function, as the function's name
 * @KSTATS_KEYS_CPU: a CPU, in decimal: the distribution's own row of that
 *	CPU, CPUs @max and above in "other" (kstats_family_per_cpu())
 */
enum kstats_keys {
	KSTATS_KEYS_NUMBER,
	KSTATS_KEYS_SIGNED,
	KSTATS_KEYS_NAME,
	KSTATS_KEYS_CALLER,
	KSTATS_KEYS_CGROUP,
	KSTATS_KEYS_STACK,
	KSTATS_KEYS_FUNC,
	KSTATS_KEYS_CPU,
};

/**
 * struct kstats_family_key - one key of a family
 * @k: the key: a number in @k[0], or a task name in all 16 bytes; for a
 *	stack, a hash of its frames in @k[0] and how many in @k[1]
 * @set: written last (release), once @k may be read
 */
struct kstats_family_key {
	u64 k[2];
	int set;
};

/**
 * struct kstats_family_ent - one entry of the lookup table
 * @tag: the key mixed with the family's salt; 0 empty, 1 while taken
 * @index: the key's histogram, or the family's max for "other"
 */
struct kstats_family_ent {
	u64 tag;
	u32 index;
};

/**
 * struct kstats_family_slot - one slot of one key's shared histogram
 * @count: samples; shared by all CPUs
 * @sum: offsets in the slot, as struct kstats_slot's sum
 */
struct kstats_family_slot {
	atomic64_t count;
	atomic64_t sum;
};

/*
 * A key's index as the recorders carry it: the index (@max for "other")
 * in the low bits, the generation of the keys it was given in above them
 * (kstats_family_clear()): an index of a generation before is "other".
 */
#define KSTATS_FAMILY_INDEX_BITS	17
#define KSTATS_FAMILY_INDEX_MASK	(BIT(KSTATS_FAMILY_INDEX_BITS) - 1)

/**
 * struct kstats_family_space - one generation's keys
 * @table: 1 << bits entries, four per key rounded up to a power of two,
 *	so that a key rarely finds its window full
 * @keys: max keys
 * @frames: for stacks, depth frames per key, innermost first, written
 *	before the key is set
 * @nr_keys: indexes handed out, at most max
 */
struct kstats_family_space {
	struct kstats_family_ent *table;
	struct kstats_family_key *keys;
	unsigned long *frames;
	atomic_t nr_keys;
};

/**
 * struct kstats_family_stack_cpu - one CPU's unwinding of stack keys
 * @busy: an unwind is under way on this CPU (an NMI in one: "other")
 * @frames: the stack unwound, and room for kstats' own frames
 *	(kstats_stack_here())
 * @cache: the chains unwound last (kstats_stack_at())
 */
struct kstats_family_stack_cpu {
	int busy;
	unsigned long frames[KSTATS_STACK_KEY_MAX + KSTATS_STACK_OWN];
	struct kstats_stack_cache cache;
};

/**
 * struct kstats_family - the keys of a distribution
 * @bits: log2 of a space's table entries
 * @salt: mixed into every tag, so that no key is a sentinel
 * @max: keys with a histogram of their own; index @max is "other"
 * @gen: the keys' generation: @space[@gen & 1] is in use, the other one
 *	is the spare the next reset switches to
 * @gen_index: @gen as an index of it holds it (kstats_family_index()), a
 *	word: one operand for a recorder's compare
 * @space: the keys of this generation and the spare
 * @retired: the RCU state when the spare was last in use
 * @retired_dirty: the spare holds the keys of a generation before
 * @lock: one reset at a time switches
 * @hist: (@max + 1) histograms of the distribution's nr_slots slots
 *	(none, nor @space, for a family by CPU), shared by all CPUs
 * @hot: for each index, 0 while its samples go to @hist alone, 1..@nr_hot
 *	once it is hot: they go to @pool[@hot - 1] from then on (a reset
 *	keeps it); KSTATS_FAMILY_HOT_NONE when it was hot with no row left
 * @row: for each index, @pool[@hot - 1] once it is hot, else NULL: what
 *	the recorders read (one load, no compare of @hot), and the reader,
 *	so that both agree on where a key's samples are
 * @pool: per-CPU histograms of nr_slots slots for the hot keys
 * @nr_hot: rows in @pool
 * @hot_used: rows of @pool handed out, or asked for past @nr_hot
 * @keys: enum kstats_keys
 * @depth: for stacks, the frames of a key, 1..KSTATS_STACK_KEY_MAX
 * @stack: for stacks, each CPU's unwinding
 * @by: the key, as the command wrote it
 */
struct kstats_family {
	u32 bits;
	u64 salt;
	u32 max;
	u32 gen;
	u64 gen_index;
	struct kstats_family_space space[2];
	unsigned long retired;
	bool retired_dirty;
	raw_spinlock_t lock;
	struct kstats_family_slot *hist;
	u32 *hot;
	struct kstats_slot __percpu **row;
	struct kstats_slot __percpu *pool[KSTATS_FAMILY_HOT];
	u32 nr_hot;
	atomic_t hot_used;
	u8 keys;
	u32 depth;
	struct kstats_family_stack_cpu __percpu *stack;
	char by[KSTATS_FAMILY_BY_MAX];
};

/*
 * Whether @f is a family by CPU: its keys are the distribution's per-CPU
 * rows, which every record fills (each on the CPU that records), so no
 * recorder looks a key up or adds to a key's histogram, and the keys scale
 * with the CPUs as the distribution does.
 */
static __always_inline notrace bool
kstats_family_per_cpu(const struct kstats_family *f)
{
	return f->keys == KSTATS_KEYS_CPU;
}

/* The index of @index that the family's histograms are indexed by. */
static __always_inline notrace u32 kstats_family_slot_index(const struct kstats_family *f,
							    u32 index)
{
	u32 i = index & KSTATS_FAMILY_INDEX_MASK;

	if (unlikely(index >> KSTATS_FAMILY_INDEX_BITS !=
		     (READ_ONCE(f->gen) &
		      (U32_MAX >> KSTATS_FAMILY_INDEX_BITS)) || i > f->max))
		return f->max;
	return i;
}

int kstats_family_enable(struct kstats *ks, u32 max, const char *by,
			 enum kstats_keys keys, u32 depth);
void kstats_family_free(struct kstats_family *f);
void kstats_family_clear(struct kstats_family *f, u32 nr_slots);
size_t kstats_family_key_bytes(u32 nr_slots, u32 depth);
u32 kstats_family_index(struct kstats_family *f, const u64 key[2]);
u32 kstats_family_stack_index(struct kstats_family *f, struct pt_regs *regs);
void kstats_family_heat(struct kstats_family *f, u32 index);

/**
 * kstats_family_add() - add a sample to one key's histogram alone
 * @f: a family of keys (not by CPU)
 * @nr_slots: its distribution's slots
 * @i: the key's index, as kstats_family_slot_index() gives it
 * @slot: the sample's slot
 * @term: its term of the slot's sum (kstats_sum_term())
 *
 * For a recorder that added the sample to the distribution's own rows:
 * the key's per-CPU row once it is hot, else its shared one, which may
 * make it hot: true when the caller is to heat it (kstats_family_heat()),
 * once it has done what must come first (a tail call where nothing else
 * does).
 *
 * Context: any, NMI included.
 */
static __always_inline notrace bool
__kstats_family_add(struct kstats_family *f, u32 nr_slots, u32 i, u32 slot,
		    u64 term)
{
	struct kstats_slot __percpu *row = READ_ONCE(f->row[i]);
	struct kstats_family_slot *s;
	s64 n;

	if (row) {
		this_cpu_inc(row[slot].count);
		this_cpu_add(row[slot].sum, term);
		return false;
	}
	s = &f->hist[(size_t)i * nr_slots + slot];
	n = atomic64_inc_return(&s->count);
	atomic64_add(term, &s->sum);
	return unlikely(n == KSTATS_FAMILY_HOT_AT) && !READ_ONCE(f->hot[i]);
}

/* __kstats_family_add(), the key heated when it is due. */
static __always_inline notrace void
kstats_family_add(struct kstats_family *f, u32 nr_slots, u32 i, u32 slot,
		  u64 term)
{
	if (__kstats_family_add(f, nr_slots, i, slot, term))
		kstats_family_heat(f, i);
}

/*
 * The distribution's part of a family's record of @v, within the CPU's
 * extremes and the distribution's range, @frac_bits given, in @slots (as
 * read once from @ks->slots): the slot and the sum's term in *@slot and
 * *@term, for the key's.  Return: whether the key takes it too (not while
 * @ks is stopped).
 */
static __always_inline notrace bool
kstats_family_record_total(struct kstats *ks,
			   struct kstats_slot __percpu *slots, u64 v,
			   unsigned int frac_bits, u32 *slot, u64 *term)
{
	unsigned int shift;

	*slot = kstats_locate(v, frac_bits, &shift);
	*term = kstats_sum_term(v, shift);
	this_cpu_inc(slots[*slot].count);
	this_cpu_add(slots[*slot].sum, *term);
	return slots == ks->hist;
}

/*
 * The record of a sample @val, @frac_bits given, within the CPU's
 * extremes (kstats_family_record_unheated() takes the others out of line):
 * the slot is located once, for the distribution's row and for the key's.
 * @clamp: @val may be above the distribution's range, and is recorded in
 * its slots as the clamp; else it is within it (the default shape).
 * @checked: @index is a slot index already checked
 * (kstats_family_slot_index()) in a family of keys; else it is checked
 * here, and a family by CPU takes the record alone.  True when the key,
 * whose slot index is then in *@heat, is to be heated
 * (__kstats_family_add()).
 */
static __always_inline notrace bool
__kstats_family_record_unheated(struct kstats *ks,
				struct kstats_slot __percpu *slots, u32 index,
				u64 val, unsigned int frac_bits, bool clamp,
				bool checked, u32 *heat)
{
	struct kstats_family *f = ks->family;
	u64 v = clamp ? min(val, ks->clamp) : val;
	u32 slot;
	u64 term;

	if (!kstats_family_record_total(ks, slots, v, frac_bits, &slot, &term))
		return false;
	if (!checked) {
		if (kstats_family_per_cpu(f))
			return false;
		index = kstats_family_slot_index(f, index);
	}
	*heat = index;
	return __kstats_family_add(f, ks->nr_slots, index, slot, term);
}

int __kstats_slow kstats_family_record_slow(struct kstats *ks, u32 index,
					    u64 val, bool clamp, bool checked);

/*
 * __kstats_family_record_unheated(), the distribution's extremes compared
 * first: a sample out of them is recorded out of line
 * (kstats_family_record_slow()), which keeps it among them, as
 * kstats_record() does, and nothing stays in the registers across the
 * call but what the caller keeps there anyway.
 */
static __always_inline notrace bool
kstats_family_record_unheated(struct kstats *ks, u32 index, u64 val,
			      unsigned int frac_bits, bool clamp, bool checked,
			      u32 *heat)
{
	struct kstats_slot __percpu *slots = READ_ONCE(ks->slots);
	int hot;

	if (unlikely(!kstats_within_extremes(slots, val))) {
		/* no address of the caller's passed out: no stack canary */
		hot = kstats_family_record_slow(ks, index, val, clamp, checked);
		*heat = hot;
		return hot >= 0;
	}
	return __kstats_family_record_unheated(ks, slots, index, val,
					       frac_bits, clamp, checked, heat);
}

/*
 * kstats_family_record_unheated(), the key heated when it is due (@index,
 * @clamp and @checked as there).
 */
static __always_inline notrace void
__kstats_family_record_at(struct kstats *ks, u32 index, u64 val,
			  unsigned int frac_bits, bool clamp, bool checked)
{
	u32 heat;

	if (kstats_family_record_unheated(ks, index, val, frac_bits, clamp,
					  checked, &heat))
		kstats_family_heat(ks->family, heat);
}

/* The record of kstats_family_record(), @frac_bits given. */
static __always_inline notrace void
__kstats_family_record(struct kstats *ks, u32 index, u64 val,
		       unsigned int frac_bits)
{
	__kstats_family_record_at(ks, index, val, frac_bits, true, false);
}

/**
 * kstats_family_record() - add a sample to a distribution and to one key
 * @ks: a distribution with a family (kstats_family_enable())
 * @index: the key's index, from kstats_family_index(); one given before
 *	the keys were last forgotten (kstats_family_clear()) is "other"
 * @val: the sample
 *
 * Context: any, NMI included: one lock-free add to the key's slot, which
 * all CPUs share (a per-CPU copy of every key would cost nr_cpus times
 * the memory), or, once the key is hot (KSTATS_FAMILY_HOT_AT samples in
 * one slot), a per-CPU add to its own per-CPU histogram, while the family
 * has one left (KSTATS_FAMILY_HOT).  Nothing is added to the key while @ks
 * is stopped.  A family by CPU takes the record alone: its keys are the
 * per-CPU rows.
 */
static __always_inline notrace void kstats_family_record(struct kstats *ks,
							 u32 index, u64 val)
{
	__kstats_family_record(ks, index, val, ks->frac_bits);
}

/**
 * kstats_family_record_bits() - kstats_family_record() for a frac_bits
 *	known when compiling
 * @ks: a distribution with a family
 * @index: the key's index, as for kstats_family_record()
 * @val: the sample
 * @frac_bits: the frac_bits @ks was created with, a constant
 *
 * As kstats_record_bits(): a few instructions fewer, and should @frac_bits
 * differ from @ks's, kstats_family_record() records instead.
 *
 * Context: any, as kstats_family_record().
 */
static __always_inline notrace void
kstats_family_record_bits(struct kstats *ks, u32 index, u64 val,
			  unsigned int frac_bits)
{
	if (likely(ks->frac_bits == frac_bits))
		__kstats_family_record(ks, index, val, frac_bits);
	else
		kstats_family_record(ks, index, val);
}

/*
 * kstats_family_record_signed() - kstats_record_signed() for a family: a
 * negative sample is counted apart, as there, and in no key.
 */
static __always_inline notrace void
kstats_family_record_signed(struct kstats *ks, u32 index, s64 val)
{
	if (unlikely(val < 0))
		kstats_record_negative(ks, val);
	else
		kstats_family_record(ks, index, val);
}

#endif /* _KSTATS_FAMILY_H */
