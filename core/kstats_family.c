// SPDX-License-Identifier: GPL-2.0
/*
 * Families: one histogram per key of a distribution, a map of histograms
 * built on the core's record primitives (kstats_note_extremes(),
 * kstats_record_slow()), apart from the probes that take the keys and
 * from its view, which reads it for the file and shows its keys
 * (trace/kstats_family_view.c).  The core calls none of it: the maker of
 * a distribution with a family (kstats_new.c, kstats_node.c) makes it
 * with kstats_family_enable(), and its ops (struct kstats_ops) reset it
 * with kstats_family_clear() and free it with kstats_family_free().
 *
 * Everything is allocated when the family is made, in process context:
 * the keys, their histograms and an open-addressing lookup table.  A
 * probe finds its key's index with no lock and no allocation, so in any
 * context, NMI included: a new key takes an empty table entry with one
 * cmpxchg, then an index with one atomic add that stops at the family's
 * max; once they are gone a new key gets "other".  A handler that meets
 * an entry being filled passes it by, so two CPUs inserting the same key
 * at once may give it two indexes: the reader merges them (by key), and
 * nothing is counted twice or lost.
 *
 * A key's histogram is shared by all CPUs: two atomic adds to a line every
 * CPU recording the key writes.  The keys that take the most samples get
 * per-CPU histograms instead, as the distribution's own rows are: a key is
 * hot once one of its shared slots reaches KSTATS_FAMILY_HOT_AT samples,
 * and then takes a row of the family's pool, made with the family (at
 * most KSTATS_FAMILY_HOT rows, KSTATS_FAMILY_HOT_BYTES per CPU), and
 * records there from then on.  Its shared histogram keeps what it had;
 * the reader adds the two.  Cold keys stay as cheap in memory as they
 * were; the pool's memory is paid once per family.
 *
 * A reset forgets the keys, so that a family by pid keeps working on a
 * live system: the recorders switch to a spare set of keys (a generation)
 * with one store, and an index handed out before, which a recorder may
 * still carry (a section's start, a function's entry), goes to "other".
 * The keys left are emptied for the next reset once no recorder can be
 * reading them any more: an RCU grace period later (the recorders run
 * with preemption off).  A reset that comes sooner from a context that
 * cannot wait (kstats_reset() in atomic context) empties the histograms
 * and keeps the keys.
 */
#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/limits.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/random.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kstats_family.h"
#include "kstats_internal.h"

#define KSTATS_FAMILY_EMPTY	0ULL
#define KSTATS_FAMILY_BUSY	1ULL

static unsigned int family_hot_keys = KSTATS_FAMILY_HOT;
module_param(family_hot_keys, uint, 0644);
MODULE_PARM_DESC(family_hot_keys,
		 "keys of a family that may get per-CPU histograms once hot (0-8, default 8), for the families made from then on");

/**
 * kstats_family_key_bytes() - the memory of one key
 * @nr_slots: the distribution's slots
 * @depth: frames of a stack key, 0 for other keys
 *
 * Return: bytes of its histogram, key, frames and table entries.
 */
size_t kstats_family_key_bytes(u32 nr_slots, u32 depth)
{
	/*
	 * its histogram, whether it is hot and its hot row; the key, its
	 * frames and its table entries twice: in use, spare
	 */
	return nr_slots * sizeof(struct kstats_family_slot) + sizeof(u32) +
	       sizeof(void *) +
	       2 * (sizeof(struct kstats_family_key) +
		    depth * sizeof(unsigned long) +
		    4 * sizeof(struct kstats_family_ent));
}

/*
 * The pool of hot keys' rows: family_hot_keys rows at most, within
 * KSTATS_FAMILY_HOT_BYTES per CPU; fewer when per-CPU memory is short
 * (the keys stay shared: slower, nothing lost).
 */
static void kstats_family_pool(struct kstats_family *f, u32 nr_slots)
{
	size_t row = nr_slots * sizeof(struct kstats_slot);
	u32 n = min_t(u32, READ_ONCE(family_hot_keys), KSTATS_FAMILY_HOT);

	n = min_t(size_t, n, KSTATS_FAMILY_HOT_BYTES / row);
	for (f->nr_hot = 0; f->nr_hot < min(n, f->max + 1); f->nr_hot++) {
		f->pool[f->nr_hot] = __alloc_percpu_gfp(row,
							__alignof__(struct kstats_slot),
							GFP_KERNEL | __GFP_NOWARN);
		if (!f->pool[f->nr_hot])
			break;
	}
}

/**
 * kstats_family_enable() - split a distribution by a key
 * @ks: from kstats_alloc(), not yet published
 * @max: keys with a histogram of their own, 1..KSTATS_FAMILY_MAX
 * @by: the key as the command wrote it, for the file
 * @keys: what the keys are (enum kstats_keys)
 * @depth: for stacks, the frames of a key, 1..KSTATS_STACK_KEY_MAX
 *
 * The family is the caller's, the distribution's maker: its ops (struct
 * kstats_ops) reset it with kstats_family_clear() and free it with
 * kstats_family_free(); the core does neither.
 *
 * Context: process.
 * Return: 0, -EINVAL for @max or @depth out of range, or -ENOMEM.
 */
int kstats_family_enable(struct kstats *ks, u32 max, const char *by,
			 enum kstats_keys keys, u32 depth)
{
	struct kstats_family *f;
	unsigned int i;

	if (!max || max > KSTATS_FAMILY_MAX)
		return -EINVAL;
	if (keys != KSTATS_KEYS_STACK)
		depth = 0;
	else if (!depth || depth > KSTATS_STACK_KEY_MAX)
		return -EINVAL;
	f = kzalloc(sizeof(*f), KSTATS_GFP);
	if (!f)
		return -ENOMEM;
	f->max = max;
	f->keys = keys;
	strscpy(f->by, by, sizeof(f->by));
	/* by CPU: the keys are the distribution's own rows, nothing more */
	if (kstats_family_per_cpu(f)) {
		ks->family = f;
		return 0;
	}
	f->bits = max_t(u32, ilog2(roundup_pow_of_two(max)) + 2,
			ilog2(KSTATS_FAMILY_WINDOW));
	for (i = 0; i < ARRAY_SIZE(f->space); i++) {
		f->space[i].table = kvcalloc(1UL << f->bits,
					     sizeof(*f->space[i].table),
					     KSTATS_GFP);
		f->space[i].keys = kvcalloc(max, sizeof(*f->space[i].keys),
					    KSTATS_GFP);
		if (depth)
			f->space[i].frames =
				kvcalloc((size_t)max * depth,
					 sizeof(*f->space[i].frames),
					 KSTATS_GFP);
		if (!f->space[i].table || !f->space[i].keys ||
		    (depth && !f->space[i].frames)) {
			kstats_family_free(f);
			return -ENOMEM;
		}
	}
	raw_spin_lock_init(&f->lock);
	/* Up to half a GiB: fail rather than wake the OOM killer. */
	f->hist = kvcalloc((size_t)(max + 1) * ks->nr_slots, sizeof(*f->hist),
			   GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
	f->hot = kvcalloc(max + 1, sizeof(*f->hot), KSTATS_GFP);
	f->row = kvcalloc(max + 1, sizeof(*f->row), KSTATS_GFP);
	if (depth)
		f->stack = alloc_percpu_gfp(struct kstats_family_stack_cpu,
					    KSTATS_GFP);
	if (!f->hist || !f->hot || !f->row || (depth && !f->stack)) {
		kstats_family_free(f);
		return -ENOMEM;
	}
	kstats_family_pool(f, ks->nr_slots);
	f->salt = get_random_u64();
	f->depth = depth;
	ks->family = f;
	return 0;
}
EXPORT_SYMBOL_NS_GPL(kstats_family_enable, KSTATS_NS);

/**
 * kstats_family_record_slow() - the record of a family's sample that is a
 *	new extreme
 * @ks: a distribution with a family
 * @index: the key's index, as kstats_family_record_unheated() takes it
 * @val: the sample, below the CPU's smallest or above its largest
 * @clamp: see kstats_family_record_unheated()
 * @checked: see kstats_family_record_unheated()
 *
 * The out-of-line half of kstats_family_record_unheated(): the extremes
 * kept (kstats_note_extremes()), then the record as the inline half does
 * it, at the distribution's frac_bits.
 *
 * Context: any, NMI included.
 * Return: the slot index of the key to heat, or -1 for none.
 */
notrace __kstats_slow int kstats_family_record_slow(struct kstats *ks,
						    u32 index, u64 val,
						    bool clamp, bool checked)
{
	struct kstats_slot __percpu *slots = READ_ONCE(ks->slots);
	u32 heat;

	kstats_note_extremes(slots, val);
	if (__kstats_family_record_unheated(ks, slots, index, val,
					    ks->frac_bits, clamp, checked,
					    &heat))
		return heat;
	return -1;
}
EXPORT_SYMBOL_NS_GPL(kstats_family_record_slow, KSTATS_NS);
NOKPROBE_SYMBOL(kstats_family_record_slow);

/**
 * kstats_family_heat() - give a hot key a per-CPU histogram
 * @f: the family
 * @index: the key's index, as kstats_family_slot_index() gives it
 *
 * Called once a slot of the key's shared histogram reached
 * KSTATS_FAMILY_HOT_AT samples.  The key takes the next row of the pool,
 * or, when none is left, stays shared for good.  A recorder that read the
 * key as shared a moment before adds to the shared slot: the reader adds
 * the two.
 *
 * Context: any, NMI included: a cmpxchg and an atomic add.
 */
notrace void kstats_family_heat(struct kstats_family *f, u32 index)
{
	u32 n;

	/* one caller per key takes it */
	if (cmpxchg(&f->hot[index], 0, KSTATS_FAMILY_HOT_NONE))
		return;
	n = atomic_fetch_inc(&f->hot_used);
	if (n < f->nr_hot) {
		WRITE_ONCE(f->hot[index], n + 1);
		WRITE_ONCE(f->row[index], f->pool[n]);
	}
}
EXPORT_SYMBOL_NS_GPL(kstats_family_heat, KSTATS_NS);
NOKPROBE_SYMBOL(kstats_family_heat);

/**
 * kstats_family_free() - free a family
 * @f: the family, or NULL
 *
 * Context: any but NMI (no handler may still use it).
 */
void kstats_family_free(struct kstats_family *f)
{
	unsigned int i;

	if (!f)
		return;
	for (i = 0; i < ARRAY_SIZE(f->space); i++) {
		kvfree(f->space[i].table);
		kvfree(f->space[i].keys);
		kvfree(f->space[i].frames);
	}
	for (i = 0; i < f->nr_hot; i++)
		free_percpu(f->pool[i]);
	free_percpu(f->stack);
	kvfree(f->row);
	kvfree(f->hot);
	kvfree(f->hist);
	kfree(f);
}
EXPORT_SYMBOL_NS_GPL(kstats_family_free, KSTATS_NS);

/*
 * Switch the recorders to the spare keys, emptied first if they held a
 * generation before, which they may only once no recorder can be reading
 * them (too soon: the keys stay).  Under @f->lock.
 */
static void kstats_family_forget(struct kstats_family *f)
{
	struct kstats_family_space *spare = &f->space[(f->gen + 1) & 1];

	if (f->retired_dirty) {
		if (!poll_state_synchronize_rcu(f->retired))
			return;
		memset(spare->table, 0, sizeof(*spare->table) << f->bits);
		memset(spare->keys, 0, f->max * sizeof(*spare->keys));
		atomic_set(&spare->nr_keys, 0);
	}
	/* Pairs with the lookup's acquire: the spare is seen empty. */
	smp_store_release(&f->gen, f->gen + 1);
	WRITE_ONCE(f->gen_index, (u32)(f->gen << KSTATS_FAMILY_INDEX_BITS));
	f->retired = get_state_synchronize_rcu();
	f->retired_dirty = true;
}

/**
 * kstats_family_clear() - forget every key, zero every key's histogram
 * @f: the family
 * @nr_slots: the distribution's slots
 *
 * New keys get new indexes from the first; an index given before, which a
 * recorder may still hold, counts in "other" from now on.  Two resets
 * within an RCU grace period: the second waits for it where it may sleep,
 * and elsewhere empties the histograms but keeps the keys.  A racing
 * recorder may leave a slot's count and sum torn, as kstats_reset() may
 * (the reader clamps them).
 *
 * Context: any but NMI.
 */
void kstats_family_clear(struct kstats_family *f, u32 nr_slots)
{
	size_t i, n = (size_t)(f->max + 1) * nr_slots;
	unsigned long flags;

	/* by CPU: the distribution's reset empties its rows */
	if (kstats_family_per_cpu(f))
		return;
	if (preemptible() && READ_ONCE(f->retired_dirty))
		cond_synchronize_rcu(READ_ONCE(f->retired));
	if (raw_spin_trylock_irqsave(&f->lock, flags)) {
		kstats_family_forget(f);
		raw_spin_unlock_irqrestore(&f->lock, flags);
	}
	for (i = 0; i < n; i++) {
		atomic64_set(&f->hist[i].count, 0);
		atomic64_set(&f->hist[i].sum, 0);
	}
	/* hot keys stay hot: their rows are emptied, as the CPUs' rows are */
	for (i = 0; i < f->nr_hot; i++) {
		int cpu;

		for_each_possible_cpu(cpu)
			memset(per_cpu_ptr(f->pool[i], cpu), 0,
			       nr_slots * sizeof(struct kstats_slot));
	}
}

/* Whether a key takes both words: a task name, a stack's hash and size. */
static __always_inline notrace bool kstats_family_wide(const struct kstats_family *f)
{
	return f->keys == KSTATS_KEYS_NAME || f->keys == KSTATS_KEYS_STACK;
}

/* A key's tag: one-to-one for numbers, a 64-bit mix for wide keys. */
static __always_inline notrace u64 kstats_family_tag(const struct kstats_family *f,
						     const u64 key[2])
{
	u64 k = key[0];

	if (kstats_family_wide(f))
		k = hash_64(key[0] ^ f->salt, 64) ^ rol64(key[1], 29);
	return k ^ f->salt;
}

/* Whether index @index of @sp holds @key (with @frames, for a stack). */
static __always_inline notrace bool
kstats_family_same(const struct kstats_family *f,
		   const struct kstats_family_space *sp, u32 index,
		   const u64 key[2], const unsigned long *frames)
{
	const struct kstats_family_key *k = &sp->keys[index];

	/* Pairs with the release of @set: @k is written by now. */
	if (!smp_load_acquire(&k->set))
		return false;
	if (k->k[0] != key[0] || (kstats_family_wide(f) && k->k[1] != key[1]))
		return false;
	/* two stacks with one hash and size: told apart by their frames */
	return !frames || !memcmp(&sp->frames[(size_t)index * f->depth],
				  frames, key[1] * sizeof(*frames));
}

/*
 * Give the table entry @e, taken, an index for @key: the next free one,
 * or "other" once they are gone.
 */
static __always_inline notrace u32 kstats_family_insert(struct kstats_family *f,
							struct kstats_family_space *sp,
							struct kstats_family_ent *e,
							u64 tag,
							const u64 key[2],
							const unsigned long *frames)
{
	u32 index = atomic_fetch_add_unless(&sp->nr_keys, 1, f->max);

	if (index < f->max) {
		struct kstats_family_key *k = &sp->keys[index];

		if (frames)
			memcpy(&sp->frames[(size_t)index * f->depth], frames,
			       key[1] * sizeof(*frames));
		k->k[0] = key[0];
		k->k[1] = kstats_family_wide(f) ? key[1] : 0;
		/* Pairs with kstats_family_same()'s acquire: @k is seen first. */
		smp_store_release(&k->set, 1);
	}
	e->index = index;
	/* Pairs with the acquire of the lookup: @index is seen first. */
	smp_store_release(&e->tag, tag);
	return index;
}

/*
 * The index in @sp of a key, made if it is new, or @f->max.  A stack's
 * key is its hash and size, and @frames the frames it was made of.
 */
static __always_inline notrace u32
kstats_family_find(struct kstats_family *f, struct kstats_family_space *sp,
		   const u64 key[2], const unsigned long *frames)
{
	u64 tag = kstats_family_tag(f, key), mask = (1ULL << f->bits) - 1;
	u64 h = hash_64(tag, f->bits);
	unsigned int i;

	if (unlikely(tag <= KSTATS_FAMILY_BUSY))
		return f->max;	/* one key in 2^63: "other" */
	for (i = 0; i < KSTATS_FAMILY_WINDOW; i++) {
		struct kstats_family_ent *e = &sp->table[(h + i) & mask];
		/* Pairs with the insert's release: @index is written. */
		u64 cur = smp_load_acquire(&e->tag);
		u32 index;

		if (cur == tag) {
			index = READ_ONCE(e->index);
			if (index >= f->max ||
			    kstats_family_same(f, sp, index, key, frames))
				return index;
			continue;	/* two wide keys with one tag */
		}
		if (cur == KSTATS_FAMILY_EMPTY &&
		    cmpxchg(&e->tag, cur, KSTATS_FAMILY_BUSY) == cur)
			return kstats_family_insert(f, sp, e, tag, key,
						    frames);
	}
	return f->max;
}

/**
 * kstats_family_index() - the index of a key, made if it is new
 * @f: the family, one with a table of keys: not by CPU, whose index is
 *	the CPU (kstats_family_per_cpu())
 * @key: the key: a number in @key[0] (@key[1] 0), or a task name
 *
 * Context: any, NMI included, with preemption off (an RCU reader of the
 * keys, which a reset empties a grace period after it forgot them).
 * Return: the key's index in its generation, "other" when the family is
 * full or the key's window of the table is, for kstats_family_record().
 */
notrace u32 kstats_family_index(struct kstats_family *f, const u64 key[2])
{
	/* Pairs with the reset's release: a new generation's keys are empty. */
	u32 gen = smp_load_acquire(&f->gen);

	return (gen << KSTATS_FAMILY_INDEX_BITS) |
	       kstats_family_find(f, &f->space[gen & 1], key, NULL);
}
EXPORT_SYMBOL_NS_GPL(kstats_family_index, KSTATS_NS);
NOKPROBE_SYMBOL(kstats_family_index);

/* A stack's hash: a multiply-rotate mix of its frames (the frames decide). */
static __always_inline notrace u64 kstats_family_stack_hash(const unsigned long *frames,
							    unsigned int n)
{
	u64 h = n;
	unsigned int i;

	for (i = 0; i < n; i++)
		h = rol64((h ^ frames[i]) * GOLDEN_RATIO_64, 29);
	return h;
}

/**
 * kstats_family_stack_index() - the index of this kernel stack
 * @f: a family of stacks (KSTATS_KEYS_STACK)
 * @regs: the registers of the probed place, its stack unwound from them
 *	(kstats_stack_at()); or NULL: the stack here, kstats' own frames
 *	dropped
 *
 * The stack is unwound into a buffer of the CPU's, its first @f->depth
 * frames are the key: a new one takes an index and keeps its frames, the
 * others find it.  An NMI that comes while its CPU unwinds a stack of
 * this family, and a stack that cannot be taken, go to "other".
 *
 * Context: any, NMI included, with preemption off (as
 * kstats_family_index()).
 * Return: the key's index in its generation, or "other".
 */
notrace u32 kstats_family_stack_index(struct kstats_family *f,
				      struct pt_regs *regs)
{
	struct kstats_family_stack_cpu *c = this_cpu_ptr(f->stack);
	/* Pairs with the reset's release, as kstats_family_index(). */
	u32 gen = smp_load_acquire(&f->gen), index = f->max;
	u64 key[2];

	if (this_cpu_inc_return(f->stack->busy) != 1)
		goto out;
	if (regs)
		key[1] = kstats_stack_at(&c->cache, c->frames, f->depth,
					 instruction_pointer(regs),
					 kernel_stack_pointer(regs),
					 frame_pointer(regs),
					 kstats_regs_link(regs));
	else
		key[1] = kstats_stack_here(c->frames, f->depth);
	if (!key[1])
		goto out;
	key[0] = kstats_family_stack_hash(c->frames, key[1]);
	index = kstats_family_find(f, &f->space[gen & 1], key, c->frames);
out:
	this_cpu_dec(f->stack->busy);
	return (gen << KSTATS_FAMILY_INDEX_BITS) | index;
}
EXPORT_SYMBOL_NS_GPL(kstats_family_stack_index, KSTATS_NS);
NOKPROBE_SYMBOL(kstats_family_stack_index);

/**
 * kstats_record_key() - add a sample to one key of a family
 * @ks: a distribution made with a max_keys (struct kstats_config)
 * @key: the key: a pid, an IRQ, a device number, any number
 * @val: the sample
 *
 * The key's histogram is found, or made while fewer than max_keys exist,
 * with no lock and no allocation; the samples of any further key go to
 * the key "other", so the keys always add up to the distribution's total.
 * On a distribution made without max_keys the sample is recorded as by
 * kstats_record().
 *
 * Context: any, hardirq and NMI included.
 */
notrace void kstats_record_key(struct kstats *ks, u64 key, u64 val)
{
	u64 k[2] = { key, 0 };

	/* no family, or one by CPU: the per-CPU rows are the keys */
	if (unlikely(!ks->family || kstats_family_per_cpu(ks->family))) {
		kstats_record(ks, val);
		return;
	}
	preempt_disable_notrace();
	kstats_family_record(ks, kstats_family_index(ks->family, k), val);
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(kstats_record_key);
NOKPROBE_SYMBOL(kstats_record_key);
