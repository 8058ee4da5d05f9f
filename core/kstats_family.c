// SPDX-License-Identifier: GPL-2.0
/*
 * Families: one histogram per key of a distribution, apart from the probes
 * that take the keys and from the file that shows them.
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
#include <linux/kallsyms.h>
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
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "kstats_cgroup.h"
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

/* The keys a view copied, their frames, the index of "other", to sort by. */
struct kstats_family_sort {
	const struct kstats_family_key *key;
	const unsigned long *frames;
	u32 depth;
	u32 max;
};

/* Indexes by key, "other" last. */
static int kstats_family_cmp_key(const void *a, const void *b,
				 const void *priv)
{
	const struct kstats_family_sort *o = priv;
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	int c;

	if (x >= o->max || y >= o->max)
		return (x >= o->max) - (y >= o->max);
	c = memcmp(o->key[x].k, o->key[y].k, sizeof(o->key[x].k));
	if (c || !o->depth)
		return c;
	return memcmp(&o->frames[(size_t)x * o->depth],
		      &o->frames[(size_t)y * o->depth],
		      o->key[x].k[1] * sizeof(*o->frames));
}

/* Groups by samples, most first; ties by first index, for a stable file. */
static int kstats_family_cmp_samples(const void *a, const void *b,
				     const void *priv)
{
	const struct kstats_family_view *v = priv;
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	if (v->samples[x] != v->samples[y])
		return v->samples[x] < v->samples[y] ? 1 : -1;
	return v->member[v->first[x]] < v->member[v->first[y]] ? -1 : 1;
}

/*
 * The histogram of group @g, read now into @count and @sum (nr_slots
 * each), each sum clamped to what its count allows.
 */
static void kstats_family_read_group(struct kstats *ks,
				     const struct kstats_family_view *v, u32 g,
				     u64 *count, u64 *sum)
{
	u32 i, s, n = ks->nr_slots;

	memset(count, 0, n * sizeof(*count));
	memset(sum, 0, n * sizeof(*sum));
	for (i = v->first[g]; i < v->first[g + 1]; i++) {
		const struct kstats_family *f = ks->family;
		const struct kstats_family_slot *h = &f->hist[(size_t)v->member[i] * n];
		/* the row the recorders add to (__kstats_family_add()) */
		struct kstats_slot __percpu *row = READ_ONCE(f->row[v->member[i]]);
		int cpu;

		for (s = 0; s < n; s++) {
			u64 c = atomic64_read(&h[s].count);

			count[s] += c;
			sum[s] += min_t(u64, atomic64_read(&h[s].sum),
					kstats_sum_max(c));
		}
		if (!row)
			continue;
		/* a hot key: its row on each CPU, as the CPUs' rows are read */
		for_each_possible_cpu(cpu) {
			const struct kstats_slot *r = per_cpu_ptr(row, cpu);

			for (s = 0; s < n; s++) {
				u64 c = READ_ONCE(r[s].count);

				count[s] += c;
				sum[s] += min_t(u64, READ_ONCE(r[s].sum),
						kstats_sum_max(c));
			}
		}
	}
}

/*
 * Group @g of @v: its non-empty slots of @count and @sum (@n each, each
 * sum clamped to what its count allows), and its samples.
 */
static int kstats_family_cells(struct kstats_family_view *v, u32 g,
			       const u64 *count, const u64 *sum, u32 n)
{
	u32 s, c;

	v->samples[g] = 0;
	for (s = 0, c = 0; s < n; s++)
		c += !!count[s];
	v->nr_cells[g] = c;
	if (!c)
		return 0;
	v->cells[g] = kvcalloc(c, sizeof(*v->cells[g]), KSTATS_GFP);
	if (!v->cells[g])
		return -ENOMEM;
	for (s = 0, c = 0; s < n; s++) {
		if (!count[s])
			continue;
		v->cells[g][c].slot = s;
		v->cells[g][c].count = count[s];
		v->cells[g][c].sum = min(sum[s], kstats_sum_max(count[s]));
		v->samples[g] += count[s];
		c++;
	}
	return 0;
}

/*
 * Copy the non-empty slots of every group, so that the file shows one
 * instant of each key, and the keys the instant of the distribution's own
 * snapshot, taken just before, give or take what is recorded meanwhile.
 */
static int kstats_family_copy(struct kstats *ks, struct kstats_family_view *v)
{
	u32 g, n = ks->nr_slots;
	u64 *count, *sum;
	int err = 0;

	count = kvcalloc(n, sizeof(u64), KSTATS_GFP);
	sum = kvcalloc(n, sizeof(u64), KSTATS_GFP);
	if (!count || !sum) {
		err = -ENOMEM;
		goto out;
	}
	for (g = 0; g < v->nr; g++) {
		kstats_family_read_group(ks, v, g, count, sum);
		err = kstats_family_cells(v, g, count, sum, n);
		if (err)
			break;
	}
out:
	kvfree(count);
	kvfree(sum);
	return err;
}

/* Groups by samples, most first, as kstats_family_view() orders them. */
static void kstats_family_view_order(struct kstats_family_view *v)
{
	u32 g;

	for (g = 0; g < v->nr; g++)
		v->order[g] = g;
	sort_r(v->order, v->nr, sizeof(u32), kstats_family_cmp_samples, NULL,
	       v);
	/* "other" is the last group, by the key order. */
	v->keys = v->nr - 1;
	v->other = v->samples[v->nr - 1];
}

/*
 * The view of a family by CPU, from a snapshot of the distribution: a
 * group per CPU below @max that has samples, its key the CPU (index and
 * key alike), in the order of their numbers, then "other", the rows of
 * the CPUs from @max on.
 */
static int kstats_family_view_cpus(struct kstats *ks,
				   struct kstats_family_view *v)
{
	struct kstats_family *f = ks->family;
	u32 row, s, g, n = ks->nr_slots;
	struct kstats_snapshot snap;
	u64 *count = NULL, *sum = NULL;
	int err;

	memset(v, 0, sizeof(*v));
	err = kstats_snapshot_take(ks, &snap);
	if (err)
		return err;
	err = -ENOMEM;
	count = kvcalloc(n, sizeof(u64), KSTATS_GFP);
	sum = kvcalloc(n, sizeof(u64), KSTATS_GFP);
	v->member = kvcalloc(snap.nr_cpus + 1, sizeof(u32), KSTATS_GFP);
	v->first = kvcalloc(snap.nr_cpus + 2, sizeof(u32), KSTATS_GFP);
	v->samples = kvcalloc(snap.nr_cpus + 1, sizeof(u64), KSTATS_GFP);
	v->cells = kvcalloc(snap.nr_cpus + 1, sizeof(*v->cells), KSTATS_GFP);
	v->nr_cells = kvcalloc(snap.nr_cpus + 1, sizeof(u32), KSTATS_GFP);
	v->order = kvcalloc(snap.nr_cpus + 1, sizeof(u32), KSTATS_GFP);
	v->key = kvcalloc((size_t)f->max + 1, sizeof(*v->key), KSTATS_GFP);
	if (!count || !sum || !v->member || !v->first || !v->samples ||
	    !v->cells || !v->nr_cells || !v->order || !v->key)
		goto out;
	for (row = 0; row < snap.nr_cpus; row++) {
		const u64 *c = snap.count + (size_t)row * n;
		const u64 *m = snap.sum + (size_t)row * n;
		u32 cpu = snap.cpu[row];

		if (cpu >= f->max || !snap.cpu_samples[row])
			continue;
		g = v->nr++;
		v->first[g] = g;
		v->member[g] = cpu;
		v->key[cpu].k[0] = cpu;
		v->key[cpu].set = 1;
		err = kstats_family_cells(v, g, c, m, n);
		if (err)
			goto out;
	}
	for (row = 0; row < snap.nr_cpus; row++) {
		if (snap.cpu[row] < f->max)
			continue;
		for (s = 0; s < n; s++) {
			count[s] += snap.count[(size_t)row * n + s];
			sum[s] += snap.sum[(size_t)row * n + s];
		}
	}
	g = v->nr++;
	v->first[g] = g;
	v->member[g] = f->max;
	v->first[v->nr] = v->nr;
	err = kstats_family_cells(v, g, count, sum, n);
	if (!err)
		kstats_family_view_order(v);
out:
	kvfree(count);
	kvfree(sum);
	kstats_snapshot_free(&snap);
	if (err)
		kstats_family_view_free(v);
	return err;
}

/**
 * kstats_family_view() - the keys of a family, grouped and ordered
 * @ks: a distribution with a family
 * @v: where to put them; free with kstats_family_view_free()
 *
 * Context: process (allocates, sorts).
 * Return: 0 or -ENOMEM.
 */
int kstats_family_view(struct kstats *ks, struct kstats_family_view *v)
{
	struct kstats_family *f = ks->family;
	struct kstats_family_sort order;
	struct kstats_family_space *sp;
	u32 n, i, nr, gen, tries = 0;
	int err;

	if (kstats_family_per_cpu(f))
		return kstats_family_view_cpus(ks, v);
again:
	/* Pairs with the reset's release, as a lookup does. */
	gen = smp_load_acquire(&f->gen);
	sp = &f->space[gen & 1];
	nr = min_t(u32, atomic_read(&sp->nr_keys), f->max);
	memset(v, 0, sizeof(*v));
	v->member = kvcalloc(nr + 1, sizeof(u32), KSTATS_GFP);
	v->first = kvcalloc(nr + 2, sizeof(u32), KSTATS_GFP);
	v->samples = kvcalloc(nr + 1, sizeof(u64), KSTATS_GFP);
	v->cells = kvcalloc(nr + 1, sizeof(*v->cells), KSTATS_GFP);
	v->nr_cells = kvcalloc(nr + 1, sizeof(u32), KSTATS_GFP);
	v->order = kvcalloc(nr + 1, sizeof(u32), KSTATS_GFP);
	v->key = kvcalloc(nr + 1, sizeof(*v->key), KSTATS_GFP);
	if (f->depth)
		v->frames = kvcalloc((size_t)(nr + 1) * f->depth,
				     sizeof(*v->frames), KSTATS_GFP);
	if (!v->member || !v->first || !v->samples || !v->cells ||
	    !v->nr_cells || !v->order || !v->key ||
	    (f->depth && !v->frames)) {
		kstats_family_view_free(v);
		return -ENOMEM;
	}
	for (i = 0, n = 0; i < nr; i++) {
		/* Pairs with the insert's release: a key set is written. */
		if (!smp_load_acquire(&sp->keys[i].set))
			continue;
		v->key[i] = sp->keys[i];
		if (f->depth)
			memcpy(&v->frames[(size_t)i * f->depth],
			       &sp->frames[(size_t)i * f->depth],
			       f->depth * sizeof(*v->frames));
		v->member[n++] = i;
	}
	/*
	 * The keys of a generation stay until the second reset after it
	 * empties them: copied whole unless two came meanwhile.
	 */
	smp_rmb();	/* the keys before the generation again */
	if (READ_ONCE(f->gen) - gen > 1) {
		kstats_family_view_free(v);
		if (++tries < 3)
			goto again;
		return -EAGAIN;
	}
	v->member[n++] = f->max;

	order.key = v->key;
	order.frames = v->frames;
	order.depth = f->depth;
	order.max = f->max;
	sort_r(v->member, n, sizeof(u32), kstats_family_cmp_key, NULL, &order);
	for (i = 0; i < n; i++) {
		if (!i || kstats_family_cmp_key(&v->member[i - 1],
						&v->member[i], &order))
			v->first[v->nr++] = i;
	}
	v->first[v->nr] = n;
	err = kstats_family_copy(ks, v);
	if (err) {
		kstats_family_view_free(v);
		return err;
	}
	kstats_family_view_order(v);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(kstats_family_view, KSTATS_NS);

/**
 * kstats_family_view_free() - free what kstats_family_view() allocated
 * @v: the view; zeroed afterwards
 */
void kstats_family_view_free(struct kstats_family_view *v)
{
	u32 g;

	for (g = 0; v->cells && g < v->nr; g++)
		kvfree(v->cells[g]);
	kvfree(v->cells);
	kvfree(v->nr_cells);
	kvfree(v->member);
	kvfree(v->first);
	kvfree(v->samples);
	kvfree(v->order);
	kvfree(v->key);
	kvfree(v->frames);
	memset(v, 0, sizeof(*v));
}
EXPORT_SYMBOL_NS_GPL(kstats_family_view_free, KSTATS_NS);

/**
 * kstats_family_fill_snapshot() - make a snapshot the sum of the keys
 * @v: a view of a family
 * @snap: a snapshot of the same distribution, taken just before @v
 *
 * The distribution's own histogram and its keys are read microseconds
 * apart; the file of a family shows the keys' sum instead, so that its
 * header, its summary and its keys agree to the sample.  The sum goes to
 * @snap's first row (a family's file has no CPU rows); @snap's missed
 * count stays.
 */
void kstats_family_fill_snapshot(const struct kstats_family_view *v,
				 struct kstats_snapshot *snap)
{
	size_t cells = (size_t)snap->nr_cpus * snap->nr_slots;
	u32 g, i, s;

	memset(snap->count, 0, cells * sizeof(u64));
	memset(snap->sum, 0, cells * sizeof(u64));
	memset(snap->cpu_samples, 0, snap->nr_cpus * sizeof(u64));
	memset(snap->slot_samples, 0, snap->nr_slots * sizeof(u64));
	snap->samples = 0;
	for (g = 0; g < v->nr; g++) {
		for (i = 0; i < v->nr_cells[g]; i++) {
			const struct kstats_family_cell *c = &v->cells[g][i];

			s = c->slot;
			snap->count[s] += c->count;
			snap->sum[s] = min(snap->sum[s] + c->sum,
					   kstats_sum_max(snap->count[s]));
			snap->slot_samples[s] += c->count;
			snap->samples += c->count;
		}
	}
	snap->cpu_samples[0] = snap->samples;
}
EXPORT_SYMBOL_NS_GPL(kstats_family_fill_snapshot, KSTATS_NS);

/**
 * kstats_family_group_is_other() - whether group @g is "other"
 * @ks: the distribution
 * @v: its view
 * @g: a group
 *
 * Return: true for the group of index max.
 */
bool kstats_family_group_is_other(const struct kstats *ks,
				  const struct kstats_family_view *v, u32 g)
{
	return v->member[v->first[g]] >= ks->family->max;
}
EXPORT_SYMBOL_NS_GPL(kstats_family_group_is_other, KSTATS_NS);

/**
 * kstats_format_name() - a task name as family keys and outliers show it
 * @c: the name, up to TASK_COMM_LEN bytes, NUL-terminated if shorter
 * @buf: where to write it, NUL-terminated, cut to @size
 * @size: of @buf
 *
 * Every byte outside '!'..'~' and the backslash as \xHH, and the first
 * of a task named "other" (which is not the key other); "\x00" for "".
 *
 * Context: any.
 * Return: the length written.
 */
int kstats_format_name(const char *c, char *buf, size_t size)
{
	bool esc_first = !strncmp(c, "other", TASK_COMM_LEN);
	int len = 0, i;

	for (i = 0; i < TASK_COMM_LEN && c[i]; i++) {
		if (c[i] >= '!' && c[i] <= '~' && c[i] != '\\' &&
		    !(esc_first && !i))
			len += scnprintf(buf + len, size - len, "%c", c[i]);
		else
			len += scnprintf(buf + len, size - len, "\\x%02x",
					 (u8)c[i]);
	}
	if (!len)
		len = scnprintf(buf, size, "\\x00");
	return len;
}

/*
 * A stack's frames as text, root first, ';' between them, each
 * "symbol+0xOFF" (no module: a key is one word).
 */
static int kstats_family_format_stack(const unsigned long *frames,
				      unsigned int n, char *buf, size_t size)
{
	char sym[KSYM_SYMBOL_LEN];
	int len = 0;

	while (n--) {
		kstats_stack_format_frame(frames[n], false, sym);
		len += scnprintf(buf + len, size - len, "%s%s", sym,
				 n ? ";" : "");
	}
	return len;
}

/*
 * A key as text: a task name as kstats_format_name() writes it, a number,
 * a caller "symbol+0xOFF", a cgroup's path, a stack's frames (@frames).
 */
static int kstats_family_format(const struct kstats_family *f,
				const struct kstats_family_key *k,
				const unsigned long *frames, char *buf,
				size_t size)
{
	char sym[KSYM_SYMBOL_LEN];

	switch (f->keys) {
	case KSTATS_KEYS_SIGNED:
		return scnprintf(buf, size, "%lld", (s64)k->k[0]);
	case KSTATS_KEYS_NAME:
		BUILD_BUG_ON(sizeof(k->k) != TASK_COMM_LEN);
		return kstats_format_name((const char *)k->k, buf, size);
	case KSTATS_KEYS_CALLER:
		kstats_stack_format_frame(k->k[0], false, sym);
		return scnprintf(buf, size, "%s", sym);
	case KSTATS_KEYS_CGROUP:
		return kstats_cgroup_format(k->k[0], buf, size);
	case KSTATS_KEYS_FUNC: {
		char *off;

		/* the name alone: "symbol+0xOFF", cut at the offset */
		kstats_stack_format_frame(k->k[0], false, sym);
		off = strchr(sym, '+');
		if (off)
			*off = '\0';
		return scnprintf(buf, size, "%s", sym);
	}
	case KSTATS_KEYS_STACK:
		return kstats_family_format_stack(frames, k->k[1], buf, size);
	default:
		return scnprintf(buf, size, "%llu", k->k[0]);
	}
}

/**
 * kstats_family_format_index() - the key of index @index as text
 * @f: the family
 * @index: a key's index from kstats_family_index(), or "other"
 * @buf: where to write it, NUL-terminated, cut to @size
 * @size: of @buf
 *
 * As kstats_family_show_key() shows it; "other", also for an index of
 * keys forgotten since.
 *
 * Context: process.
 * Return: the length written.
 */
int kstats_family_format_index(const struct kstats_family *f, u32 index,
			       char *buf, size_t size)
{
	const struct kstats_family_space *sp;
	u32 i;

	/* by CPU: the index is the CPU */
	if (kstats_family_per_cpu(f))
		return index < f->max ? scnprintf(buf, size, "%u", index) :
					scnprintf(buf, size, "other");
	i = kstats_family_slot_index(f, index);
	if (i >= f->max)
		return scnprintf(buf, size, "other");
	sp = &f->space[READ_ONCE(f->gen) & 1];
	return kstats_family_format(f, &sp->keys[i],
				    f->depth ? &sp->frames[(size_t)i * f->depth] :
					       NULL, buf, size);
}
EXPORT_SYMBOL_NS_GPL(kstats_family_format_index, KSTATS_NS);

/**
 * kstats_family_format_key() - the text of a key, as its file shows it
 * @f: the family
 * @v: its view
 * @g: a group of @v
 * @buf: where to write it, NUL-terminated, cut to @size
 * @size: of @buf
 *
 * As kstats_family_show_key() shows it.
 *
 * Context: process.
 * Return: the length written.
 */
int kstats_family_format_key(const struct kstats_family *f,
			     const struct kstats_family_view *v, u32 g,
			     char *buf, size_t size)
{
	u32 i = v->member[v->first[g]];

	if (i >= f->max)
		return scnprintf(buf, size, "other");
	return kstats_family_format(f, &v->key[i],
				    f->depth ? &v->frames[(size_t)i * f->depth] :
					       NULL, buf, size);
}
EXPORT_SYMBOL_NS_GPL(kstats_family_format_key, KSTATS_NS);

/**
 * kstats_family_show_key() - a key, as its file shows it
 * @m: the file
 * @f: the family
 * @v: its view
 * @g: a group of @v
 *
 * A task name as itself, but every byte outside '!'..'~' and the
 * backslash as \\xHH, and the first of a task named "other"; a number in
 * decimal; a caller as "symbol+0xOFF"; a cgroup as its path from the
 * cgroup2 root; a stack as its frames, root first, ';' between them;
 * "other".  Each is one word.
 *
 * Context: process.
 * Return: 0, or -ENOMEM.
 */
int kstats_family_show_key(struct seq_file *m, const struct kstats_family *f,
			   const struct kstats_family_view *v, u32 g)
{
	/* a cgroup's path may take four bytes a character (\xHH) */
	size_t size = f->depth ? f->depth * KSYM_SYMBOL_LEN : 4 * PATH_MAX;
	char *buf = kmalloc(size, KSTATS_GFP);

	if (!buf)
		return -ENOMEM;
	kstats_family_format_key(f, v, g, buf, size);
	seq_puts(m, buf);
	kfree(buf);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(kstats_family_show_key, KSTATS_NS);
